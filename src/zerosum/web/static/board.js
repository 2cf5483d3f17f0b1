// A board drawn from its view (the plain JSON a game declares: see web/views.py): the
// one drawing of the page (app.js) and the notebook widget (widget.js). Nothing here
// reads a global: what the caller knows comes in as options, and board.css colours it.
//
// drawBoard(view, options) returns an <svg> (or a <pre> for a text view). options:
//   title       the board's accessible name
//   open        moves may be clicked now (false while a search runs or after the end)
//   onMove      called with a move's text when one is clicked
//   pick        checkers: the piece and squares chosen so far ({prefix, end}), kept
//               by the caller between drawings; onPick(pick) asks for a redraw
//   marks       the principal variation, numbered: each move's cells, as Python
//               places them once for the page and the notebook (zerosum.svg.pv_marks)
//   first       0 when the first player makes the line's first move, else 1
//   values      move text -> {outcome, label, title}: each legal move's value, a badge
import { el } from "/static/common.js";

export const CELL = 60;
const MARGIN = 22; // room for the coordinates beside a board

// Where a cell is drawn: the board sits right of the row labels, above the column labels.
function origin(view) { return { x: view.row_labels ? MARGIN : 0, y: 0 }; }
function place(view, i) {
  const o = origin(view);
  return { x: o.x + (i % view.cols) * CELL, y: o.y + Math.floor(i / view.cols) * CELL };
}
function centre(view, i) { const p = place(view, i); return { x: p.x + CELL / 2, y: p.y + CELL / 2 }; }

function frame(view, title, className) {
  const o = origin(view);
  const width = o.x + view.cols * CELL, height = view.rows * CELL + (view.col_labels ? MARGIN : 0);
  return el("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img",
    "aria-label": title || "board", class: `board ${className}` });
}

// Coordinates in the notation the moves are written in.
function coordinates(svg, view) {
  const o = origin(view);
  (view.row_labels || []).forEach((text, r) => svg.append(el("text", { x: MARGIN / 2, y: o.y + r * CELL + CELL / 2 + 5,
    "text-anchor": "middle", class: "coord" }, text)));
  (view.col_labels || []).forEach((text, c) => svg.append(el("text", { x: o.x + c * CELL + CELL / 2,
    y: view.rows * CELL + MARGIN - 6, "text-anchor": "middle", class: "coord" }, text)));
  (view.cell_labels || []).forEach((text, i) => {
    const p = place(view, i);
    svg.append(el("text", { x: p.x + 4, y: p.y + 13, class: "coord cell-label" }, text));
  });
}

function piece(kind, x, y) {
  if (kind.startsWith("queen-")) {
    return el("text", { x: x + CELL / 2, y: y + CELL * 0.72, "text-anchor": "middle", "font-size": CELL * 0.7,
      class: `queen ${kind === "queen-X" ? "side-a" : "side-b"}` }, "\u265B");
  }
  if (kind === "red" || kind === "yellow") {
    return el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.4, class: `stone ${kind}` });
  }
  return el("text", { x: x + CELL / 2, y: y + CELL * 0.68, "text-anchor": "middle",
    "font-size": CELL * 0.6, "font-weight": "bold", class: `mark ${kind === "X" ? "side-a" : "side-b"}` }, kind);
}

function clickable(x, y, w, h, label, action) {
  const rect = el("rect", { x, y, width: w, height: h, fill: "transparent", class: "target",
    role: "button", tabindex: 0, "aria-label": label });
  rect.addEventListener("click", action);
  rect.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); action(); } });
  return rect;
}

// The last move's cells ringed, a finished game's winning line drawn through its cells.
function lastAndLine(svg, view) {
  for (const i of view.last || []) {
    const p = place(view, i);
    svg.append(el("rect", { x: p.x + 2, y: p.y + 2, width: CELL - 4, height: CELL - 4, class: "last-move",
      "aria-label": "last move" }));
  }
  const line = view.line || [];
  if (line.length >= 2) {
    const a = centre(view, line[0]), b = centre(view, line[line.length - 1]);
    svg.append(el("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: "win-line", "aria-label": "winning line" }));
  }
}

// The cell where a move lands: its own cell, the lowest empty cell of a column (given
// which cells are filled), a checkers move's last square.
function landing(view, index, filled) {
  if (view.click !== "column") return index;
  let r = view.rows - 1;
  while (r >= 0 && filled[r * view.cols + index]) r--;
  return r < 0 ? undefined : r * view.cols + index;
}

// Where each legal move's value is shown.
function moveCells(view) {
  const cells = new Map();
  if (view.kind === "paths") {
    for (const m of view.moves) if (!cells.has(m.text)) cells.set(m.text, m.path[m.path.length - 1]);
    return cells;
  }
  const filled = view.cells.map((kind) => kind !== "");
  for (const [index, text] of Object.entries(view.moves)) {
    const i = landing(view, Number(index), filled);
    if (i !== undefined) cells.set(text, i);
  }
  return cells;
}

function valueBadges(svg, view, values) {
  if (!values || !values.size) return;
  const taken = new Set();
  for (const [text, i] of moveCells(view)) {
    const mark = values.get(text);
    if (!mark || taken.has(i)) continue;
    taken.add(i);
    const c = centre(view, i);
    const g = el("g", { class: `badge ${mark.outcome}`, "aria-label": `move ${text}: ${mark.title}` });
    g.append(el("title", {}, `${text}: ${mark.title}`));
    g.append(el("rect", { x: c.x - CELL * 0.45, y: c.y - 11, width: CELL * 0.9, height: 22, rx: 6 }));
    // An estimate's label (≈-0.01) is the widest: a smaller font keeps it clear of the
    // badge's edge in every game's cell, whatever the board's scale.
    g.append(el("text", { x: c.x, y: c.y + 5, "text-anchor": "middle",
      class: mark.label.length > 4 ? "long" : "" }, mark.label));
    svg.append(g);
  }
}

// How many of a line's moves a board of moving pieces draws: past three, arrows cross
// and numbers cover the pieces they are about.
export const PV_ARROWS = 3;

// The principal variation's moves, numbered, on the board: a stone's cell ringed; a
// checkers move (its path) as an arrow in its side's colour, numbered at its start,
// the first PV_ARROWS moves only.
function drawGhosts(svg, view, marks, first) {
  const arrows = view.kind === "paths";
  const shown = arrows ? (marks || []).slice(0, PV_ARROWS) : marks || [];
  if (arrows && shown.length) {
    const defs = el("defs");
    for (const side of ["side-a", "side-b"]) {
      const marker = el("marker", { id: `arrow-${side}`, viewBox: "0 0 10 10", refX: 7, refY: 5,
        markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" });
      marker.append(el("path", { d: "M 0 0 L 10 5 L 0 10 z", class: `arrowhead ${side}` }));
      defs.append(marker);
    }
    svg.append(defs);
  }
  shown.forEach((cells, k) => {
    if (!cells.length) return;
    const side = (first + k) % 2 === 0 ? "side-a" : "side-b";
    const g = el("g", { class: `ghost ${side}`, "aria-label": `principal variation move ${k + 1}` });
    const end = centre(view, cells[cells.length - 1]);
    if (arrows && cells.length > 1) {
      const points = cells.map((i) => { const c = centre(view, i); return `${c.x},${c.y}`; }).join(" ");
      g.append(el("polyline", { points, class: "pv-path", "marker-end": `url(#arrow-${side})` }));
      // The number on the arrow's shaft, a third of the way along its first step:
      // clear of the piece that moves and of the square it lands on.
      const a = centre(view, cells[0]), b = centre(view, cells[1]);
      const at = { x: a.x + (b.x - a.x) * 0.42, y: a.y + (b.y - a.y) * 0.42 };
      g.append(el("circle", { cx: at.x, cy: at.y, r: CELL * 0.17, class: "pv-number" }));
      g.append(el("text", { x: at.x, y: at.y + CELL * 0.08, "text-anchor": "middle", "font-size": CELL * 0.24,
        class: "pv-digit" }, String(k + 1)));
      svg.append(g);
      return;
    }
    g.append(el("circle", { cx: end.x, cy: end.y, r: CELL * 0.3 }));
    g.append(el("text", { x: end.x, y: end.y + CELL * 0.11, "text-anchor": "middle", "font-size": CELL * 0.3 },
      String(k + 1)));
    svg.append(g);
  });
}

// What every board shows over its cells: coordinates, the last move, the winning line,
// the principal variation, the moves' values.
function overlays(svg, view, o) {
  coordinates(svg, view);
  lastAndLine(svg, view);
  drawGhosts(svg, view, o.marks || [], o.first || 0);
  valueBadges(svg, view, o.values);
}

function drawGrid(view, o) {
  const columns = view.click === "column";
  const svg = frame(view, o.title, columns ? "grid columns" : "grid");
  const org = origin(view);
  svg.append(el("rect", { x: org.x, y: org.y, width: view.cols * CELL, height: view.rows * CELL, class: "board-bg" }));
  view.cells.forEach((kind, i) => {
    const { x, y } = place(view, i);
    if (columns) svg.append(el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.4, class: "hole" }));
    else {
      // N-Queens shows which squares are still safe (open) and which are attacked.
      const isOpen = view.moves[i] !== undefined;
      const state = !view.show_open || kind ? "" : isOpen && !o.over ? " open" : " closed";
      svg.append(el("rect", { x, y, width: CELL, height: CELL, class: `square${state}` }));
    }
    if (kind) svg.append(piece(kind, x, y));
  });
  overlays(svg, view, o);
  if (!o.open) return svg;
  if (columns) {
    for (let c = 0; c < view.cols; c++) {
      if (view.moves[c] !== undefined) {
        svg.append(clickable(org.x + c * CELL, org.y, CELL, view.rows * CELL, `column ${view.moves[c]}`,
          () => o.onMove(view.moves[c])));
      }
    }
  } else {
    view.cells.forEach((_, i) => {
      if (view.moves[i] === undefined) return;
      const { x, y } = place(view, i);
      svg.append(clickable(x, y, CELL, CELL, `cell ${view.moves[i]}`, () => o.onMove(view.moves[i])));
    });
  }
  return svg;
}

// Checkers: click a piece that can move, then the last square of its move. When two
// capture paths of that piece end on the same square, the next square of each is
// offered in turn until one path is left. The game's list of moves decides.
function squareName(view, i) {
  const r = Math.floor(i / view.cols), c = i % view.cols;
  return view.row_labels && view.col_labels ? `${view.row_labels[r]}${view.col_labels[c]}`
    : `${String.fromCharCode(65 + r)}${c + 1}`;
}

function candidates(view, pick) {
  return view.moves.filter((m) => pick.prefix.every((sq, k) => m.path[k] === sq)
    && (pick.end === null || m.path[m.path.length - 1] === pick.end));
}

function drawCheckers(view, o) {
  const n = view.cols;
  const svg = frame(view, o.title, "checkers");
  const pick = o.pick || null;
  const movable = new Set(o.open ? view.moves.map((m) => m.path[0]) : []);
  const offered = new Set(o.open && pick ? candidates(view, pick).map((m) => (pick.end === null
    ? m.path[m.path.length - 1] : m.path[pick.prefix.length])) : []);
  const chosen = pick ? [...pick.prefix, pick.end] : [];
  const choose = (i) => {
    const next = pick.end === null ? { ...pick, end: i } : { ...pick, prefix: [...pick.prefix, i] };
    const left = candidates(view, next);
    if (left.length === 1) { o.onPick(null); o.onMove(left[0].text); } else o.onPick(next);
  };
  const targets = [];
  view.cells.forEach((kind, i) => {
    const r = Math.floor(i / n), c = i % n;
    const { x, y } = place(view, i);
    const dark = (r + c) % 2 === 1;
    svg.append(el("rect", { x, y, width: CELL, height: CELL, class: chosen.includes(i) ? "chosen" : dark ? "dark" : "light" }));
    if (kind) {
      const black = kind.toLowerCase() === "b";
      svg.append(el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.38, class: `man ${black ? "black" : "white"}`,
        "stroke-width": 2 }));
      if (kind === kind.toUpperCase()) {
        svg.append(el("text", { x: x + CELL / 2, y: y + CELL * 0.64, "text-anchor": "middle", "font-size": CELL * 0.4,
          "font-weight": "bold", class: "king" }, "K"));
      }
    }
    if (offered.has(i)) {
      svg.append(el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.14, class: "offered" }));
      targets.push(clickable(x, y, CELL, CELL, `to ${squareName(view, i)}`, () => choose(i)));
    } else if (movable.has(i)) {
      const again = pick && pick.prefix[0] === i;
      targets.push(clickable(x, y, CELL, CELL, `piece ${squareName(view, i)}`,
        () => o.onPick(again ? null : { prefix: [i], end: null })));
    }
  });
  overlays(svg, view, o);
  svg.append(...targets);
  return svg;
}

export function drawBoard(view, options = {}) {
  const o = { open: false, onMove: () => {}, onPick: () => {}, ...options };
  if (view.kind === "grid") return drawGrid(view, o);
  if (view.kind === "paths") return drawCheckers(view, o);
  // A text board (a person's own game) fits its width: its font shrinks with the
  // longest line (board.css), down to a size still read, past which it scrolls.
  const pre = document.createElement("pre");
  pre.className = "textboard";
  pre.textContent = view.text;
  const columns = Math.max(1, ...view.text.split("\n").map((line) => line.length));
  pre.style.setProperty("--columns", columns);
  return pre;
}
