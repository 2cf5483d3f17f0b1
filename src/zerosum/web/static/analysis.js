// The analysis board: for the position shown, every legal move's value (the engine's
// quick estimate first, then the proven value as the solver finds it) over the session's
// analysis WebSocket, listed here and, with "Move values on the board", drawn on it by
// app.js; and the value graph of the game so far. app.js announces each position with a
// "zerosum:session" event.
import { $, api, el, socketTo, tag } from "/static/common.js";

const SECONDS = 10; // the time budget unless one is typed; the server caps it too
const W = 600, H = 140, PAD = 14; // the value graph's drawing

let session = null;
let socket = null;
let values = new Map(); // move text -> {outcome, label, title, proven}
let bounds = new Map(); // move text -> what its interval proven so far tells, in words
let drawn = ""; // the line whose value graph is drawn
let history = []; // its points

function publish() {
  document.dispatchEvent(new CustomEvent("zerosum:values", { detail: new Map(values) }));
  legend();
}

// Whose values these are, in words: every value on the page is from the side that
// makes the move (docs/search.md, "Values as shown"), here the player to move.
function legend() {
  const p = $("values-legend");
  p.hidden = !session || values.size === 0;
  if (p.hidden) return;
  const who = session.to_move;
  p.replaceChildren("Values for ", tag("b", "", who), `, to move: W5 ${who} wins in 5 plies `
    + `by playing there, L9 ${who} loses in 9, D a draw, ≥D a draw or better and ≤D a loss `
    + `or draw proven so far, ≈+0.05 an estimate (+ good for ${who}, − bad).`);
}

// A move being proven, on its badge: what its interval tells so far.
const BOUND_LABELS = { "win": "W", "loss": "L", "win or draw": "≥D", "loss or draw": "≤D", "draw": "D" };

function signed(x) { return x > 0 ? `+${x}` : `${x}`; }

// 1234567 -> "1.2M": a count that changes many times a second, kept short.
function count(n) {
  return n >= 1e9 ? `${(n / 1e9).toFixed(1)}G` : n >= 1e6 ? `${(n / 1e6).toFixed(1)}M`
    : n >= 1e3 ? `${(n / 1e3).toFixed(0)}k` : `${n}`;
}

function short(m) {
  if (m.outcome === "draw") return "D";
  return `${m.outcome === "win" ? "W" : "L"}${m.plies ?? ""}`;
}

function row(move) {
  let div = $("analysis-moves").querySelector(`[data-move="${CSS.escape(move)}"]`);
  if (!div) {
    div = tag("div", "move-value");
    div.dataset.move = move;
    div.append(tag("span", "mv-move", move), tag("span", "mv-verdict", "…"), tag("span", "mv-note", ""));
    $("analysis-moves").append(div);
  }
  return div;
}

function show(move, className, verdict, title) {
  const div = row(move);
  div.className = `move-value ${className}`;
  div.querySelector(".mv-verdict").textContent = verdict;
  div.title = title;
}

function finish(text) {
  $("analysis-status").textContent = text;
  $("analyse").disabled = !session || session.over || session.thinking;
  $("analyse-stop").disabled = true;
  socket?.close();
  socket = null;
}

function onMessage(m) {
  if (m.type === "started") {
    $("analysis-status").textContent = `solving (up to ${m.seconds} s)…`;
    $("analysis-moves").replaceChildren();
    bounds = new Map();
    for (const move of m.moves) row(move);
  } else if (m.type === "estimate") {
    if (values.get(m.move)?.proven) return;
    // Two decimals; one that rounds to nothing has no sign ("≈0.00", not "≈-0.00").
    const x = (m.value / (m.scale || 1)).toFixed(2);
    const label = `≈${/^-?0\.00$/.test(x) ? "0.00" : (m.value > 0 ? "+" : "") + x}`;
    show(m.move, "estimate", label, `the engine's estimate, not proven: ${m.text}`);
    values.set(m.move, { outcome: "estimate", label, title: `estimate: ${m.text}`, proven: false });
    publish();
  } else if (m.type === "bound") {
    // A move still being proven: what the interval proven so far tells, and the work.
    // An interval that tells nothing yet leaves the engine's estimate shown.
    if (values.get(m.move)?.proven) return;
    const div = row(m.move);
    const open = m.outcome === "open";
    if (!open) show(m.move, `bound ${m.outcome.replaceAll(" ", "-")}`, m.words, "");
    div.classList.add("bound");
    div.title = `${open ? "nothing proven yet" : `proven so far: ${m.words}`} (solver score in `
      + `[${signed(m.lo)}, ${signed(m.hi)}]), ${m.nodes.toLocaleString("en")} nodes searched for it`;
    div.querySelector(".mv-note").textContent = `[${signed(m.lo)}, ${signed(m.hi)}] · ${count(m.nodes)} nodes`;
    bounds.set(m.move, `score in [${signed(m.lo)}, ${signed(m.hi)}]${open ? "" : ", not exact"}`);
    if (!open) {
      const label = BOUND_LABELS[m.outcome];
      values.set(m.move, { outcome: "estimate", label, title: `proven so far: ${m.words}`, proven: false });
    }
    $("analysis-status").textContent = `solving: move ${m.move} ${m.words} so far (${count(m.nodes)} nodes)…`;
    publish();
  } else if (m.type === "move") {
    row(m.move).querySelector(".mv-note").textContent = "";
    show(m.move, `proven ${m.outcome}`, m.verdict, m.text);
    values.set(m.move, { outcome: m.outcome, label: short(m), title: `${m.verdict}: ${m.text}`, proven: true });
    publish();
  } else if (m.type === "done") {
    for (const move of m.unproven) {
      const div = row(move);
      div.classList.add("unproven");
      const bound = bounds.get(move);
      div.querySelector(".mv-note").textContent = bound ?? "not proven";
    }
    const why = m.why || (m.stopped ? "stopped" : "not proven"); // the server says why
    finish(m.unproven.length === 0 ? "done: every move proven"
      : `${why}: ${m.unproven.length} move(s) not proven (what is proven so far, else the `
        + "engine's estimate, shown)");
    // What was proven is the session's now: the graph draws it (and the moves it marks).
    drawn = "";
    if (!session.thinking) drawGraph();
  } else {
    finish(m.error);
  }
}

function analyse() {
  if (!session || socket || session.over || session.thinking) return;
  values = new Map();
  publish();
  $("analyse").disabled = true;
  $("analyse-stop").disabled = false;
  $("analysis-status").textContent = "starting…";
  socket = socketTo(`/api/sessions/${session.id}/analysis`);
  const seconds = Number($("analysis-seconds").value) || SECONDS;
  const mine = socket;
  socket.addEventListener("open", () => mine.send(JSON.stringify({ type: "analyse", seconds })));
  socket.addEventListener("message", (event) => { if (socket === mine) onMessage(JSON.parse(event.data)); });
  socket.addEventListener("close", () => { if (socket === mine) finish("the connection closed"); });
}

// The value after each move, from the first player's side: decided values as filled
// squares at the top or bottom (a win) or the middle (a draw), estimates as hollow
// circles between; a move that changed a decided value is ringed and named in the
// move list. A click on a point shows that position.
async function drawGraph() {
  const line = `${session.id}:${session.moves.join(",")}`;
  if (line === drawn || session.thinking) return;
  drawn = line;
  let answer;
  try { answer = await api(`/api/sessions/${session.id}/history`); } catch { return; }
  if (drawn !== line) return; // a newer position came meanwhile
  const points = answer.values;
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "value graph", id: "graph-svg" });
  const x = (i) => PAD + (points.length > 1 ? i * (W - 2 * PAD) / (points.length - 1) : 0);
  const y = (bar) => H / 2 - bar * (H / 2 - PAD);
  svg.append(el("line", { x1: PAD, y1: H / 2, x2: W - PAD, y2: H / 2, class: "axis" }));
  svg.append(el("line", { x1: x(session.cursor), y1: PAD / 2, x2: x(session.cursor), y2: H - PAD / 2,
    class: "cursor", id: "graph-cursor" }));
  svg.append(el("text", { x: 2, y: 11, class: "coord" }, `${session.players[0]} wins`));
  svg.append(el("text", { x: 2, y: H - 3, class: "coord" }, `${session.players[1]} wins`));
  // The one drawing with fixed sides: a line over the whole game keeps its up and down.
  $("graph-sides").textContent = `Up: ${session.players[0]} wins, down: ${session.players[1]} `
    + `wins (its numbers ${session.players[0]}'s).`;
  const known = points.filter((p) => p.bar !== null);
  svg.append(el("polyline", { points: known.map((p) => `${x(p.ply)},${y(p.bar)}`).join(" "), class: "trace" }));
  for (const p of known) {
    const shape = p.decided
      ? el("rect", { x: x(p.ply) - 4, y: y(p.bar) - 4, width: 8, height: 8, class: "point decided" })
      : el("circle", { cx: x(p.ply), cy: y(p.bar), r: 4, class: "point estimate" });
    if (p.mark) shape.classList.add("turn");
    shape.append(el("title", {}, `after move ${p.ply}: ${p.text}${p.mark ? ` (${p.mark})` : ""}`));
    shape.addEventListener("click", () => document.dispatchEvent(new CustomEvent("zerosum:goto", { detail: p.ply })));
    svg.append(shape);
  }
  $("graph").replaceChildren(svg);
  $("graph-panel").hidden = points.length < 2;
  history = points;
  markMoves();
}

// The position shown, a vertical line on the graph.
function moveCursor() {
  const line = $("graph-cursor");
  if (!line || history.length < 2) return;
  const at = PAD + session.cursor * (W - 2 * PAD) / (history.length - 1);
  line.setAttribute("x1", at);
  line.setAttribute("x2", at);
}

// The moves that threw a win (or a draw) away, marked in the move list.
function markMoves() {
  for (const p of history) {
    const button = document.querySelector(`#moves .ply[data-ply="${p.ply}"]`);
    if (button && p.mark && !button.classList.contains("turned")) {
      button.classList.add("turned");
      button.title += `: ${p.mark}`;
    }
  }
}

document.addEventListener("zerosum:session", (event) => {
  const next = event.detail;
  const moved = !session || next.id !== session.id || next.cursor !== session.cursor
    || next.moves.length !== session.moves.length || next.moves.join() !== session.moves.join();
  session = next;
  if (!session.thinking) drawGraph();
  moveCursor();
  if (drawn === `${session.id}:${session.moves.join(",")}`) markMoves();
  if (!moved) { $("analyse").disabled = !!socket || session.over || session.thinking; return; }
  if (socket) { const s = socket; socket = null; s.close(); } // a new position: a new analysis
  values = new Map();
  publish();
  $("analyse").disabled = session.over || session.thinking;
  $("analyse-stop").disabled = true;
  $("analysis-status").textContent = "";
  $("analysis-moves").replaceChildren();
  if ($("show-values").checked && !session.over && !session.thinking) analyse();
});

// The server's cap on the budget, beside the field (a longer budget is cut to it).
api("/api/games").then((answer) => {
  const cap = answer.limits?.seconds;
  if (!cap) return;
  $("analysis-seconds").max = String(cap);
  $("analysis-cap").textContent = `(at most ${cap} s here)`;
}).catch(() => {});

$("analyse").addEventListener("click", analyse);
$("analyse-stop").addEventListener("click", () => socket?.send(JSON.stringify({ type: "stop" })));
$("show-values").addEventListener("change", () => { if ($("show-values").checked && !values.size) analyse(); });
