// A board drawn from its view (the plain JSON a game declares: see web/views.py), with
// no page around it: the notebook widget draws with it, and the page can (app.js draws
// the same boards with its session's state). Nothing here reads a global.
//
// drawBoard(view, options) returns an <svg> (or a <pre> for a text view). options:
//   title       the board's accessible name
//   pv          a principal variation's moves, as text: the page's numbered marks
//   first       0 when the first player makes the line's first move, else 1
//   open        moves may be clicked now (false while a search runs or after the end)
//   onMove      called with a move's text when one is clicked
//   pick        checkers: the piece and squares chosen so far ({prefix, end}), kept
//               by the caller between drawings; onPick(pick) asks for a redraw
import { el } from "/static/common.js";

export const CELL = 60;
const MARGIN = 18;

function piece(kind, x, y) {
  if (kind.startsWith("queen-")) {
    return el("text", { x: x + CELL / 2, y: y + CELL * 0.72, "text-anchor": "middle", "font-size": CELL * 0.7,
      fill: kind === "queen-X" ? "#2b5cab" : "#b23a48", class: "queen" }, "\u265B");
  }
  if (kind === "red" || kind === "yellow") {
    return el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.4,
      fill: kind === "red" ? "#d62828" : "#f4c20d", stroke: "#0003", class: kind });
  }
  return el("text", { x: x + CELL / 2, y: y + CELL * 0.68, "text-anchor": "middle",
    "font-size": CELL * 0.6, "font-weight": "bold", fill: kind === "X" ? "#2b5cab" : "#b23a48", class: "piece" }, kind);
}

function target(x, y, w, h, label, action) {
  const rect = el("rect", { x, y, width: w, height: h, fill: "transparent", class: "target",
    role: "button", tabindex: 0, "aria-label": label });
  rect.addEventListener("click", action);
  rect.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); action(); } });
  return rect;
}

// The cells a principal variation would fill, in order: a move's text back to its cell
// (or column, where the piece drops onto the lowest empty cell so far).
export function ghostCells(view, pv) {
  const index = new Map(Object.entries(view.moves).map(([i, text]) => [text, Number(i)]));
  const filled = view.cells.map((kind) => kind !== "");
  const cells = [];
  for (const text of pv || []) {
    let i = index.get(text);
    if (i === undefined) break; // a move the drawing cannot place: the rest would be guesses
    if (view.click === "column") {
      let r = view.rows - 1;
      while (r >= 0 && filled[r * view.cols + i]) r--;
      if (r < 0) break;
      i = r * view.cols + i;
    } else if (filled[i]) break;
    filled[i] = true;
    cells.push(i);
  }
  return cells;
}

function frame(view, title) {
  const left = view.row_labels ? MARGIN : 0, below = view.col_labels ? MARGIN : 0;
  const width = view.cols * CELL, height = view.rows * CELL;
  const svg = el("svg", { viewBox: `${-left} 0 ${width + left} ${height + below}`, width: width + left,
    height: height + below, role: "img", "aria-label": title || "board" });
  (view.row_labels || []).forEach((text, r) => svg.append(el("text", { x: -MARGIN / 2, y: (r + 0.5) * CELL + 4,
    "text-anchor": "middle", "font-size": 12, fill: "#555", class: "coord" }, text)));
  (view.col_labels || []).forEach((text, c) => svg.append(el("text", { x: (c + 0.5) * CELL, y: height + MARGIN * 0.75,
    "text-anchor": "middle", "font-size": 12, fill: "#555", class: "coord" }, text)));
  return svg;
}

function drawGrid(view, o) {
  const svg = frame(view, o.title);
  const columns = view.click === "column";
  const last = new Set(view.last || []), line = new Set(view.line || []);
  svg.append(el("rect", { width: view.cols * CELL, height: view.rows * CELL, fill: columns ? "#1f4e9c" : "#fff" }));
  view.cells.forEach((kind, i) => {
    const x = (i % view.cols) * CELL, y = Math.floor(i / view.cols) * CELL;
    if (columns) svg.append(el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.4, fill: "#f6f7f9" }));
    else {
      // N-Queens shows which squares are still safe (open) and which are attacked.
      const isOpen = view.moves[i] !== undefined;
      const fill = !view.show_open || kind ? "none" : isOpen && o.open ? "#e3f4e1" : "#e6e8ec";
      svg.append(el("rect", { x, y, width: CELL, height: CELL, fill, stroke: "#1d2430" }));
    }
    if (kind) svg.append(piece(kind, x, y));
    if (line.has(i)) svg.append(el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.44, fill: "none",
      stroke: "#2e9d4a", "stroke-width": 4, class: "line" }));
    if (last.has(i)) svg.append(el("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, fill: "none",
      stroke: "#c9a227", "stroke-width": 3, class: "last" }));
    if ((view.cell_labels || [])[i]) svg.append(el("text", { x: x + 4, y: y + 12, "font-size": 10, fill: "#888",
      class: "coord" }, view.cell_labels[i]));
    if (!columns && o.open && view.moves[i] !== undefined) {
      svg.append(target(x, y, CELL, CELL, `cell ${view.moves[i]}`, () => o.onMove(view.moves[i])));
    }
  });
  const colours = columns ? ["#d62828", "#f4c20d"] : ["#2b5cab", "#b23a48"];
  ghostCells(view, o.pv).forEach((i, k) => {
    const x = (i % view.cols) * CELL, y = Math.floor(i / view.cols) * CELL;
    const colour = colours[((o.first || 0) + k) % 2];
    const g = el("g", { class: "ghost", "aria-label": `principal variation move ${k + 1}` });
    g.append(el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.34, fill: colour,
      "fill-opacity": 0.35, stroke: colour, "stroke-width": 2, "stroke-dasharray": "4 3" }));
    g.append(el("text", { x: x + CELL / 2, y: y + CELL * 0.62, "text-anchor": "middle", "font-size": CELL * 0.34,
      "font-weight": "bold", fill: "#1d2430" }, String(k + 1)));
    svg.append(g);
  });
  if (columns && o.open) {
    for (let c = 0; c < view.cols; c++) {
      if (view.moves[c] !== undefined) {
        svg.append(target(c * CELL, 0, CELL, view.rows * CELL, `column ${view.moves[c]}`, () => o.onMove(view.moves[c])));
      }
    }
  }
  return svg;
}

// Checkers: click a piece that can move, then the last square of its move. When two
// capture paths of that piece end on the same square, the next square of each is
// offered in turn until one path is left. The game's list of moves decides.
function squareName(view, i) { return `${String.fromCharCode(65 + Math.floor(i / view.cols))}${(i % view.cols) + 1}`; }

function candidates(view, pick) {
  return view.moves.filter((m) => pick.prefix.every((sq, k) => m.path[k] === sq)
    && (pick.end === null || m.path[m.path.length - 1] === pick.end));
}

function drawCheckers(view, o) {
  const n = view.cols;
  const svg = frame(view, o.title);
  const pick = o.pick || null;
  const movable = new Set(o.open ? view.moves.map((m) => m.path[0]) : []);
  const offered = new Set(o.open && pick ? candidates(view, pick).map((m) => (pick.end === null
    ? m.path[m.path.length - 1] : m.path[pick.prefix.length])) : []);
  const chosen = pick ? [...pick.prefix, pick.end] : [];
  const last = new Set(view.last || []);
  const choose = (i) => {
    const next = pick.end === null ? { ...pick, end: i } : { ...pick, prefix: [...pick.prefix, i] };
    const left = candidates(view, next);
    if (left.length === 1) { o.onPick(null); o.onMove(left[0].text); } else o.onPick(next);
  };
  view.cells.forEach((kind, i) => {
    const r = Math.floor(i / n), c = i % n, x = c * CELL, y = r * CELL;
    const dark = (r + c) % 2 === 1;
    const fill = chosen.includes(i) || last.has(i) ? "#c9a227" : dark ? "#7a5230" : "#ecd9b8";
    svg.append(el("rect", { x, y, width: CELL, height: CELL, fill }));
    if (kind) {
      const black = kind.toLowerCase() === "b";
      svg.append(el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.38, class: `man ${black ? "black" : "white"}`,
        fill: black ? "#1d1d1d" : "#f4f1ea", stroke: black ? "#666" : "#444", "stroke-width": 2 }));
      if (kind === kind.toUpperCase()) {
        svg.append(el("text", { x: x + CELL / 2, y: y + CELL * 0.64, "text-anchor": "middle", "font-size": CELL * 0.4,
          "font-weight": "bold", fill: "#d4a017", class: "king" }, "K"));
      }
    }
    if (offered.has(i)) {
      svg.append(el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.14, fill: "#f0a500" }));
      svg.append(target(x, y, CELL, CELL, `to ${squareName(view, i)}`, () => choose(i)));
    } else if (movable.has(i)) {
      const again = pick && pick.prefix[0] === i;
      svg.append(target(x, y, CELL, CELL, `piece ${squareName(view, i)}`,
        () => o.onPick(again ? null : { prefix: [i], end: null })));
    }
  });
  // The principal variation's first move: the path its piece takes.
  const first = (o.pv || []).length ? view.moves.find((m) => m.text === o.pv[0]) : undefined;
  if (first) {
    const points = first.path.map((p) => `${(p % n + 0.5) * CELL},${(Math.floor(p / n) + 0.5) * CELL}`).join(" ");
    svg.append(el("polyline", { points, fill: "none", stroke: "#f0a500", "stroke-width": 5,
      "stroke-dasharray": "6 4", class: "ghost" }));
  }
  return svg;
}

export function drawBoard(view, options = {}) {
  const o = { open: false, onMove: () => {}, onPick: () => {}, ...options };
  if (view.kind === "grid") return drawGrid(view, o);
  if (view.kind === "paths") return drawCheckers(view, o);
  const pre = document.createElement("pre");
  pre.textContent = view.text;
  return pre;
}
