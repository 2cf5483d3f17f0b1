// The "explain a search" page: send a tree, or a game position and a depth, to /api/explain,
// then replay the search's events (in the order the search went: an inner node entered with
// the window passed down, a node returning) one step at a time over an SVG drawing of the
// tree. A game's tree (data.lazy), or a pasted one over LAZY_FROM nodes,
// opens lazily: the root's children first, then each node the stepping reaches or the reader
// clicks. A tree file is read in the page; the server only ever gets its text. With "side
// by side with", another algorithm's search is drawn next to it, stepped in step with it,
// and the two compared in a table. MCTS is stepped simulation by simulation: its tree grows
// a node a step, the path selected, the node expanded, the playout and the statistics
// back-propagated shown as its search traced them (the page computes none of them). A learned
// policy-value network the server offers (a training run's weights) may guide it: then the
// search is the network's own PUCT, drawn in the same view with each node's prior and Q.
import { drawBoard } from "/static/board.js";
import { $, api, el } from "/static/common.js";

const FIG52 = "# AIMA figure 5.2: Max at A, three Min nodes, nine leaves\nA[B[3 12 8] C[2 4 6] D[14 5 2]]\n";
const GAP = 32;    // the least room of a node side by side with its neighbours
const PAD = 14;    // the least space between neighbouring nodes' texts
const MARGIN = 40; // left and right of the tree
const LEVEL = 90;  // between depths
const R = 18;      // a node's half size
const VALUE_PX = 13, LABEL_PX = 13, WINDOW_PX = 11;  // font sizes, as in explain.html
const LAZY_FROM = 200;  // a pasted tree of more nodes opens lazily, as a game's does
const ZOOM = [1, 1.5];  // a small tree is scaled up to fill the page's width, at most this
const NAMES = { alphabeta: "alpha-beta", minimax: "minimax", mcts: "MCTS" };
const COLUMNS = { nodes: "nodes examined", leaves: "leaves evaluated", table_hits: "table hits",
                  simulations: "simulations", tree_nodes: "tree nodes", tree_depth: "tree depth" };
const SETTLED = new Set(["exact", "cut"]);  // table effects that end a node unsearched

// A pane: one search drawn and stepped through. `data` is the server's answer; `step`, how
// many of its events have happened; `parents`, each node's parent; `open`, the nodes whose
// children are drawn (null: all of them); `finals`, each node's exit (the value and window
// it returned with); `box`, the element it is drawn in.
function newPane(data, box) {
  const parents = [];
  data.nodes.forEach((n, i) => { for (const c of n.children) parents[c] = i; });
  if (data.algorithm === "mcts") {  // the final statistics size each node, so nodes stay put
    const finals = new Map();
    for (const e of data.events) {
      for (const u of e.updates) {
        finals.set(u.node, { value: inside(data, u), alpha: null, above: data.guide ? above(data, u.node, u) : null });
      }
    }
    return { data, step: 0, parents, box, finals, open: null };
  }
  const exits = data.events.filter((e) => e.kind === "exit");
  return { data, step: 0, parents, box, finals: new Map(exits.map((e) => [e.node, e])),
           open: data.lazy || data.nodes.length > LAZY_FROM ? new Set([0]) : null };
}

let panes = [];   // the search shown (its log and summary below), then the other, if asked
let data = null;  // the first pane's answer
let explained = null;  // a game position's {game, moves}, whose nodes' boards are drawn
let boardFor = null;  // the node whose board is drawn (or being fetched)
let timer = null;
let measurer = null;  // a canvas context, to measure texts
let playersOf = {};  // each game's players offered by the server, learned ones among them

async function search(body) { return api("/api/explain", body); }

async function explain() {
  stopPlaying();
  $("error").textContent = "";
  const body = $("kind").value === "game"
    ? { game: $("game").value, moves: $("moves").value, depth: Number($("depth").value),
        algorithm: $("algorithm").value, table: $("table").checked }
    : { tree: $("tree-text").value, algorithm: $("algorithm").value,
        min_first: $("min-first").checked };
  const guide = $("kind").value === "game" && $("guide").value;
  const asked = (algorithm) => (algorithm !== "mcts" ? { ...body, algorithm }
    : { ...body, algorithm, simulations: Number($("simulations").value), seed: Number($("seed").value),
        ...(guide ? { player: guide } : {}) });
  const compare = $("compare").value;
  const both = compare !== "" && compare !== body.algorithm;
  const other = asked(compare);
  Object.assign(body, asked(body.algorithm));
  let answers;
  try {
    answers = await Promise.all(both ? [search(body), search(other)] : [search(body)]);
  } catch (e) {
    $("error").textContent = e.message;
    $("search").hidden = true;
    return;
  }
  panes = answers.map((answer, k) => newPane(answer, $(k === 0 ? "drawing" : "drawing2")));
  explained = $("kind").value === "game" && body.algorithm !== "mcts" ? { game: body.game, moves: body.moves } : null;
  boardFor = null;
  data = panes[0].data;
  $("drawings").classList.toggle("both", both);
  $("pane2").hidden = !both;
  $("mcts-panel").hidden = data.algorithm !== "mcts";
  $("mcts-panel-legend").hidden = Boolean(data.guide);
  $("puct-panel-legend").hidden = !data.guide;
  $("batch-note").textContent = data.guide && data.guide.leaves > 1
    ? `This network's search sends ${data.guide.leaves} leaves to the network at once: a simulation's selection ` +
      "counts the moves of the others still in flight as visited and lost (a virtual loss)." : "";
  showCounts();
  showComparison();
  $("table-note").hidden = !data.table_note;
  $("table-note").textContent = data.table_note || "";
  $("search").hidden = false;
  render();
}

// The effort of the search shown (and, for a tree search, of the other tree search), in the
// columns its answer has: nodes, leaves, table hits; or simulations and the tree's size.
function showCounts() {
  const entries = Object.entries(data.counts);
  const keys = Object.keys(entries[0][1]);
  const head = document.createElement("tr");
  for (const text of ["algorithm", ...keys.map((k) => COLUMNS[k] || k)]) {
    head.append(Object.assign(document.createElement("th"), { textContent: text }));
  }
  $("counts").tHead.replaceChildren(head);
  $("counts").tBodies[0].replaceChildren(...entries.map(([name, c]) => {
    const row = document.createElement("tr");
    if (name === data.algorithm) row.className = "chosen";
    const cells = [nameOf(data, name) + (name === data.algorithm ? " (shown)" : ""), ...keys.map((k) => c[k])];
    for (const text of cells) {
      row.insertCell().textContent = String(text);
    }
    return row;
  }));
}

// Two searches side by side: each one's answer, effort and what its trace shows.
function showComparison() {
  $("compare-table").hidden = panes.length < 2;
  $("compare-table").tBodies[0].replaceChildren(...panes.map(({ data: d }) => {
    const row = document.createElement("tr");
    for (const text of [nameOf(d), d.best || "-", d.value, d.summary.effort, d.summary.trace]) {
      row.insertCell().textContent = text;
    }
    return row;
  }));
}

// The children drawn under node i: all of them, or none while it is closed.
function shownKids(p, i) {
  return p.open === null || p.open.has(i) ? p.data.nodes[i].children : [];
}

// Each drawn node gets room for its own texts (its shape, sized to its value; its label;
// its window), a subtree the room of its children side by side, at least its own; a node
// is centred over its children. The room comes from the final values, so a node stays put
// while the steps go by. Only the nodes drawn get a place (at[i] stays undefined under a
// closed node). A wide tree is not squeezed: the drawing scrolls sideways instead.
function layout(p) {
  const { nodes } = p.data;
  const room = [];
  const post = [];  // the drawn nodes, each after its children
  const todo = [0];
  while (todo.length) {
    const i = todo.pop();
    post.push(i);
    todo.push(...shownKids(p, i));
  }
  post.reverse();
  for (const i of post) {
    const kids = shownKids(p, i).reduce((sum, c) => sum + room[c], 0);
    room[i] = Math.max(ownRoom(p, i), kids);
  }
  const at = [];
  const place = (i, left) => {  // pre-order, children left to right within the parent's room
    const kids = shownKids(p, i);
    at[i] = { x: left + room[i] / 2, y: nodes[i].path.length * LEVEL + R + 30 };
    let x = left + (room[i] - kids.reduce((sum, c) => sum + room[c], 0)) / 2;
    for (const c of kids) {
      place(c, x);
      x += room[c];
    }
    if (kids.length) at[i].x = (at[kids[0]].x + at[kids[kids.length - 1]].x) / 2;
  };
  place(0, MARGIN);
  return { at, width: room[0] + 2 * MARGIN };
}

// A text's width in pixels at a font size, measured in the page's font.
function textWidth(text, px) {
  if (measurer === null) measurer = document.createElement("canvas").getContext("2d");
  measurer.font = `${px}px ${getComputedStyle(document.body).fontFamily}`;
  return measurer.measureText(text).width;
}

// The value drawn in node i once it has returned (a leaf of a pasted tree shows its own).
function finalValue(p, i) {
  const event = p.finals.get(i);
  return event ? event.value : p.data.nodes[i].value;
}

// Is node i drawn small? In a game's tree (wide: Connect Four has seven moves a node),
// the nodes the search never examined (pruned) are, to leave the room to those it did.
function packed(p, i) {
  return p.data.lazy && !p.finals.has(i);
}

// Half the width of node i's shape: wide enough for its value inside.
function halfWidth(p, i) {
  if (packed(p, i)) return R * 0.55;
  const value = finalValue(p, i);
  const text = value === null ? 0 : textWidth(value, VALUE_PX);
  return p.data.nodes[i].role === "leaf" ? Math.max(R * 0.85, text / 2 + 5) : Math.max(R * 1.15, text * 0.65 + 8);
}

// The width node i's own texts take: a leaf's label is under it, an inner node's on its
// left (room is kept on both sides, to stay centred) and its window above it.
function ownRoom(p, i) {
  const node = p.data.nodes[i];
  const half = halfWidth(p, i);
  const label = textWidth(shortLabel(p, i), LABEL_PX);
  const shape = node.role === "leaf" ? Math.max(2 * half, label) : 2 * (half + 6 + label);
  if (packed(p, i)) return shape + PAD / 2;
  const event = p.finals.get(i);
  const window = event && event.alpha !== null && node.role !== "leaf" ? textWidth(windowText(event), WINDOW_PX) : 0;
  const over = event && event.above ? textWidth(event.above, WINDOW_PX) : 0;  // MCTS's proof, PUCT's P and Q
  return Math.max(shape, window, over, GAP) + PAD;
}

function windowText(event) {
  return `(${event.alpha}, ${event.beta})`;
}

// Open the path down to the node of event e, so the node the search has reached is in the
// drawing; a node entered opens too, its children about to be searched.
function reveal(p, e) {
  if (p.open === null) return;
  for (let up = p.parents[e.node]; up !== undefined; up = p.parents[up]) p.open.add(up);
  if (e.kind === "enter") p.open.add(e.node);
}

function toggle(p, i) {
  if (p.open === null || p.data.nodes[i].children.length === 0) return;
  if (p.open.has(i)) p.open.delete(i); else p.open.add(i);
  render();
}

// An unlabelled node's name grows with its depth (root.2.1.3); drawn, the part its parent's
// name already says is left out (.3), the whole name staying in the tooltip and the log.
// A game's node is named by the moves to it (4 4 3); drawn, only its last move (3).
function shortLabel(p, i) {
  const { nodes } = p.data;
  if (nodes[i].short !== undefined) return nodes[i].short;  // MCTS: named by the server
  const label = nodes[i].label;
  const parent = p.parents[i] === undefined ? null : nodes[p.parents[i]].label;
  if (p.data.lazy) return parent !== null && label.startsWith(parent + " ") ? label.slice(parent.length + 1) : label;
  return label.length > 5 && parent !== null && label.startsWith(parent + ".")
    ? label.slice(parent.length) : label;
}

// A leaf's square (a wider box for a long value) or an inner node's triangle, `half` wide.
function shape(role, x, y, half) {
  if (role === "leaf") return el("rect", { x: x - half, y: y - R * 0.85, width: 2 * half, height: R * 1.7 });
  const d = role === "max" ? -1 : 1;  // Max points up, Min down
  const pts = [[x, y + d * R], [x - half, y - d * R * 0.75], [x + half, y - d * R * 0.75]];
  return el("polygon", { points: pts.map((pt) => pt.join(",")).join(" ") });
}

// What the first `step` events have shown: each returned node's exit, each node entered
// and not yet returned (its entry: the window passed down), the pruned nodes and why.
function stateAt(p) {
  const done = new Map();
  const entered = new Map();
  const pruned = new Map();
  for (const e of p.data.events.slice(0, p.step)) {
    if (e.kind === "enter") {
      entered.set(e.node, e);
      continue;
    }
    entered.delete(e.node);
    done.set(e.node, e);
    const todo = e.pruned.slice();
    while (todo.length) {  // a pruned child's whole subtree is never examined
      const i = todo.pop();
      pruned.set(i, e.reason);
      todo.push(...p.data.nodes[i].children);
    }
  }
  return { done, entered, pruned };
}

function draw(p) {
  const { nodes } = p.data;
  const { at, width } = layout(p);
  const depth = Math.max(...nodes.map((n, i) => (at[i] ? n.path.length : 0)));
  const height = depth * LEVEL + 2 * R + 70;
  // small trees fill the width; large ones shrink a little, then scroll sideways
  const zoom = Math.max(ZOOM[0], Math.min(ZOOM[1], (p.box.clientWidth - 4) / width));
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, width: width * zoom, height: height * zoom,
                          role: "img", "aria-label": "the search tree" });
  const { done, entered, pruned } = stateAt(p);
  const current = p.step > 0 ? p.data.events[p.step - 1].node : null;
  nodes.forEach((n, i) => {
    if (!at[i]) return;
    for (const c of shownKids(p, i)) {
      const edge = el("line", { x1: at[i].x, y1: at[i].y + R * 0.75, x2: at[c].x, y2: at[c].y - R * 0.85,
                                class: pruned.has(c) ? "edge pruned" : "edge" });
      svg.append(edge);
      if (pruned.has(c) && !pruned.has(i)) {  // the cut itself: a bar across the edge
        const mx = (at[i].x + at[c].x) / 2, my = (at[i].y + at[c].y) / 2;
        const cut = el("line", { x1: mx - 9, y1: my - 5, x2: mx + 9, y2: my + 5, class: "cut" });
        cut.append(el("title", {}, `pruned: ${pruned.get(c)}`));
        svg.append(cut);
      }
    }
  });
  nodes.forEach((n, i) => {
    if (!at[i]) return;
    const { x, y } = at[i];
    const openable = p.open !== null && n.children.length > 0;
    const closed = openable && !p.open.has(i);
    const event = done.get(i);
    const entry = entered.get(i);
    const classes = ["node", n.role];
    if (event) classes.push("done");
    if (entry) classes.push("entered");
    if (pruned.has(i)) classes.push("pruned");
    if (i === current) classes.push("current");
    if (event && event.table) classes.push(SETTLED.has(event.table.effect) ? "table" : `table-${event.table.effect}`);
    if (openable) classes.push("openable");
    const g = el("g", { class: classes.join(" "), "data-label": n.label });
    let title = `${n.label} (${n.role})`;
    if (event) title += `: value ${event.value}` + (event.alpha === null ? "" : `, window (${event.alpha}, ${event.beta})`);
    if (entry) title += ": entered" + (entry.alpha === null ? "" : ` with window (${entry.alpha}, ${entry.beta})`);
    if (pruned.has(i)) title += ` pruned: ${pruned.get(i)}`;
    if (event && event.table) title += `; ${tableText(event.table)}`;
    if (openable) title += closed ? "; click to show its children" : "; click to hide its children";
    const half = halfWidth(p, i);
    g.append(el("title", {}, title), shape(n.role, x, y, half));
    const shown = event ? event.value : n.value;  // a leaf's number is known before it is examined
    if (shown !== null) {
      g.append(el("text", { x, y: y + (n.role === "min" ? -1 : n.role === "max" ? 9 : 5),
                            class: "value" }, shown));
    }
    if (closed) g.append(el("text", { x, y: y + R + 14, class: "more" }, "+"));
    if (openable) g.addEventListener("click", () => toggle(p, i));
    const label = shortLabel(p, i);
    if (n.role === "leaf") g.append(el("text", { x, y: y + R + 16, class: "label" }, label));
    else g.append(el("text", { x: x - half - 6, y: y - 4, class: "label", "text-anchor": "end" }, label));
    if (event && event.alpha !== null && n.role !== "leaf") {
      g.append(el("text", { x, y: y - R - 7, class: "window" }, windowText(event)));
    } else if (entry && entry.alpha !== null) {  // searching its children within this window
      g.append(el("text", { x, y: y - R - 7, class: "window passed" }, windowText(entry)));
    }
    svg.append(g);
  });
  p.box.replaceChildren(svg);
  if (current !== null) {  // keep the node that just returned in sight
    p.box.scrollLeft = at[current].x * zoom - p.box.clientWidth / 2;
  }
}

// What the transposition table's entry did at a node: settled it (an exact value, or a
// bound that closes the window: a cut by the table), narrowed its window, or nothing.
function tableText(t) {
  const stored = t.bound === "exact" ? `the table's exact value ${t.value}`
    : `the table's ${t.bound} bound ${t.value}`;
  const before = `(${t.window[0]}, ${t.window[1]})`;
  if (t.effect === "exact") return `${stored} settles it, unsearched`;
  if (t.effect === "cut") return `${stored} closes its window ${before}: cut by the table, unsearched`;
  if (t.effect === "narrowed") return `${stored} narrowed its window ${before} to (${t.narrowed[0]}, ${t.narrowed[1]})`;
  return `${stored} lies outside its window ${before}: no change`;
}

function describe(p, e) {
  if (e.kind === "simulation") return describeSimulation(p, e);
  const n = p.data.nodes[e.node];
  if (e.kind === "enter") {
    return `${e.label} (${n.role}) entered` + (e.alpha === null ? "" : ` with window (${e.alpha}, ${e.beta})`);
  }
  let text = `${e.label} (${n.role}) returns ${e.value}`;
  if (e.alpha !== null && n.role !== "leaf") text += `, window (${e.alpha}, ${e.beta})`;
  if (e.table) text += `; ${tableText(e.table)}`;
  if (e.pruned.length) {
    text += `; pruned ${e.pruned.map((i) => p.data.nodes[i].label).join(", ")}: ${e.reason}`;
  }
  return text;
}

// A pane's search in one line: where its stepping is, or its value and effort at the end.
function caption(p) {
  const { data: d, step } = p;
  const root = d.lazy || d.nodes[0].label === "start" ? "the position" : d.nodes[0].label;
  if (step === d.events.length) {
    return `${nameOf(d)}: the value of ${root} is ${d.value}` +
      (d.best ? `, best move ${d.best}` : "") + `; ${d.summary.effort}.`;
  }
  return `${nameOf(d)}: ${step === 0 ? "press Next or Play" : describe(p, d.events[step - 1])}`;
}

// The most steps of the searches shown: stepping goes on while one is not at its end.
function total() {
  return Math.max(...panes.map((p) => p.data.events.length));
}

// How far the stepping is (a pane at its end stays there while the other goes on).
function stepNow() {
  return Math.max(...panes.map((p) => p.step));
}

// The board of the node the step is at, as the play page draws it (the server plays the
// moves to it): a game's nodes are positions, and a reader follows them on a board.
async function showNodeBoard(first) {
  $("node-board-figure").hidden = explained === null;
  if (explained === null) return;
  const e = first.step > 0 ? first.data.events[first.step - 1] : null;
  const label = e ? e.label : "start";
  if (label === boardFor) return;
  boardFor = label;
  const moves = `${explained.moves} ${label === "start" ? "" : label}`.trim();
  let answer;
  try { answer = await api("/api/explain/position", { game: explained.game, moves }); } catch { return; }
  if (boardFor !== label) return;  // a later step asked meanwhile
  $("node-board-caption").textContent = `The position at ${label === "start" ? "the root" : `node ${label}`}`;
  $("node-board").replaceChildren(drawBoard(answer.view, { title: `the position at ${label}` }));
}

function render() {
  const [first] = panes;
  showNodeBoard(first);
  for (const p of panes) (p.data.algorithm === "mcts" ? drawTree : draw)(p);
  if (first.data.algorithm === "mcts") showSimulation(first);
  $("log").replaceChildren(...data.events.slice(0, first.step).map((e, i) => {
    const li = document.createElement("li");
    li.textContent = describe(first, e);
    if (i === first.step - 1) li.className = "current";
    return li;
  }));
  $("log").scrollTop = $("log").scrollHeight;  // the step just taken in sight, the page still
  const step = stepNow();
  $("step").textContent = `step ${step} of ${total()}`;
  $("summary").textContent = caption(first);
  $("caption1").textContent = panes.length > 1 ? caption(first) : "";
  if (panes.length > 1) $("caption2").textContent = caption(panes[1]);
  $("back").disabled = step === 0;
  $("next").disabled = $("end").disabled = step === total();
  $("play").textContent = timer === null ? "Play" : "Pause";
}

// Step every pane to `to` (each no further than its own end).
function go(to) {
  if (!data) return;
  to = Math.max(0, Math.min(total(), to));
  for (const p of panes) {
    p.step = Math.min(p.data.events.length, to);
    if (p.step > 0) reveal(p, p.data.events[p.step - 1]);
  }
  if (to === total()) stopPlaying();
  render();
}

function stopPlaying() {
  if (timer !== null) clearInterval(timer);
  timer = null;
}

function togglePlay() {
  if (timer !== null) {
    stopPlaying();
  } else {
    if (stepNow() === total()) go(0);
    timer = setInterval(() => go(stepNow() + 1), Number($("speed").value));
  }
  render();
}

$("source").addEventListener("submit", (event) => { event.preventDefault(); explain(); });
$("example").addEventListener("click", () => { $("tree-text").value = FIG52; explain(); });
$("tree-file").addEventListener("change", async () => {  // read here; the server gets its text
  const file = $("tree-file").files[0];
  if (!file) return;
  $("tree-text").value = await file.text();
  explain();
});
$("next").addEventListener("click", () => { stopPlaying(); go(stepNow() + 1); });
$("back").addEventListener("click", () => { stopPlaying(); go(stepNow() - 1); });
$("end").addEventListener("click", () => { stopPlaying(); go(total()); });
$("play").addEventListener("click", togglePlay);
document.addEventListener("keydown", (event) => {  // arrows step, except while typing a tree
  if (!data || event.target.closest("textarea, input, select")) return;
  const to = { ArrowRight: stepNow() + 1, ArrowLeft: stepNow() - 1, Home: 0, End: total() }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  stopPlaying();
  go(to);
});

function showFields() {
  const game = $("kind").value === "game";
  $("game-fields").hidden = !game;
  $("tree-fields").hidden = game;
}

// The games to choose from, tic-tac-toe first selected; the play page's list.
async function loadGames() {
  const { games } = await api("/api/games");
  playersOf = Object.fromEntries(games.map((g) => [g.name, g.players]));
  $("game").replaceChildren(...games.map((g) => new Option(g.title, g.name, false, g.name === "tictactoe")));
  showGuides();
}

// The learned players the server offers for the chosen game, which may guide MCTS (their
// network's PUCT); the choice shown only when there is one.
function showGuides() {
  const learned = $("kind").value === "game"
    ? (playersOf[$("game").value] || []).filter((p) => p.startsWith("learned:") || p.startsWith("learned,")) : [];
  const keep = $("guide").value;
  $("guide").replaceChildren(new Option("random playouts (UCT)", ""),
    ...learned.map((p) => Object.assign(new Option(`the network's PUCT (${p.split("/").pop()})`, p, false, p === keep),
                                        { title: p })));
  $("guide-field").hidden = learned.length === 0;
  $("guide-legend").hidden = learned.length === 0;
}

$("kind").addEventListener("change", () => { showFields(); showGuides(); });
$("game").addEventListener("change", showGuides);
$("tree-text").value = FIG52;
showFields();
loadGames();

// ---- MCTS, simulation by simulation ----

// A node's statistics as the textbook draws them: the summed reward of the player who moved
// into it (a win 1, a draw 1/2) over its visits, "2.5/4".
function tally(u) {
  return `${Math.round(Number(u.reward) * 10) / 10}/${u.visits}`;
}

// The search's name: MCTS, or PUCT when a learned network guides it.
function nameOf(d, algorithm = d.algorithm) {
  return algorithm === "mcts" && d.guide ? "PUCT" : NAMES[algorithm];
}

// What a node of the tree shows inside: MCTS's reward/visits; PUCT's visits N.
function inside(d, u) {
  return d.guide ? String(u.visits) : tally(u);
}

// What a node of the tree shows above it: under MCTS a proven inner node's value ("= 3");
// under PUCT the prior P of the move into it and its Q (none at the root).
function above(d, i, u) {
  const n = d.nodes[i];
  if (!d.guide) return u && u.proven !== null && n.role !== "leaf" ? `= ${u.proven}` : null;
  return u && n.prior !== null ? `P ${brief(n.prior)} Q ${brief(u.q, true)}` : null;
}

// A figure from -1 to 1 in two decimals, drawn small over a node: "0.157" as ".16", "+0.9" as
// "+.90" (`signed`), "-1.000" as "-1.00".
function brief(text, signed = false) {
  const x = Number(text);
  return (signed && x >= 0 ? "+" : "") + x.toFixed(2).replace(/^(-?)0\./, "$1.");
}

// Each node's latest update after the first `step` simulations.
function statsAt(p) {
  const stats = new Map();
  for (const e of p.data.events.slice(0, p.step)) for (const u of e.updates) stats.set(u.node, u);
  return stats;
}

// MCTS's tree after `step` simulations: the nodes added so far (each where the whole search's
// tree puts it), their reward/visits, the proven ones with their value; the last
// simulation's path drawn thick, the node it added filled.
function drawTree(p) {
  const { nodes } = p.data;
  const { at, width } = layout(p);
  const shown = (i) => nodes[i].added <= p.step;
  const depth = Math.max(...nodes.map((n) => n.path.length));
  const height = depth * LEVEL + 2 * R + 70;
  const zoom = Math.max(ZOOM[0], Math.min(ZOOM[1], (p.box.clientWidth - 4) / width));
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, width: width * zoom, height: height * zoom,
                          role: "img", "aria-label": "the Monte Carlo search tree" });
  const stats = statsAt(p);
  const e = p.step > 0 ? p.data.events[p.step - 1] : null;
  const path = new Set(e ? e.path : []);
  nodes.forEach((n, i) => {
    if (!shown(i)) return;
    for (const c of n.children) {
      if (!shown(c)) continue;
      svg.append(el("line", { x1: at[i].x, y1: at[i].y + R * 0.75, x2: at[c].x, y2: at[c].y - R * 0.85,
                              class: path.has(i) && path.has(c) ? "edge path" : "edge" }));
    }
  });
  nodes.forEach((n, i) => {
    if (!shown(i)) return;
    const { x, y } = at[i];
    const u = stats.get(i);
    const classes = ["node", n.role];
    if (u) classes.push("done");
    if (path.has(i)) classes.push("path");
    if (e && i === e.expanded) classes.push("new");
    if (e && i === e.node) classes.push("current");
    if (u && u.proven !== null) classes.push("proven");
    const g = el("g", { class: classes.join(" "), "data-label": n.label });
    let title = `${n.label} (${n.role})`;
    const puct = Boolean(p.data.guide);
    if (u && puct) {
      title += `: N ${u.visits}` + (n.prior !== null ? `, prior P ${n.prior}` : "") +
        `, Q ${u.q} for the side that moved here`;
    } else if (u) {
      title += `: ${u.visits} visits, reward ${u.reward} (mean ${u.mean}) for the side that moved here`;
    }
    if (u && u.proven !== null) title += puct ? `; the game is over: ${u.proven}` : `; proven ${u.proven}`;
    const half = halfWidth(p, i);
    g.append(el("title", {}, title), shape(n.role, x, y, half));
    if (u) g.append(el("text", { x, y: y + (n.role === "min" ? -1 : n.role === "max" ? 9 : 5), class: "value" }, inside(p.data, u)));
    const label = shortLabel(p, i);
    if (n.role === "leaf") g.append(el("text", { x, y: y + R + 16, class: "label" }, label));
    else g.append(el("text", { x: x - half - 6, y: y - 4, class: "label", "text-anchor": "end" }, label));
    const over = above(p.data, i, u);
    if (over !== null) g.append(el("text", { x, y: y - R - 7, class: puct ? "prior" : "proof" }, over));
    svg.append(g);
  });
  p.box.replaceChildren(svg);
  if (e) p.box.scrollLeft = at[e.node].x * zoom - p.box.clientWidth / 2;
}

// A simulation in one line: its four steps (PUCT's: no playout, the network's value).
function describeSimulation(p, e) {
  const name = (i) => p.data.nodes[i].label;
  if (p.data.guide) {
    const chosen = e.selection.map((s) => s.options.find((opt) => opt.node === s.chosen))
      .map((o) => `${o.move} (P ${o.prior}, ${o.score})`);
    return [`simulation ${e.number}: selects ${chosen.join(", ")}`,
      e.expanded !== null ? `expands ${name(e.expanded)}` : `${name(e.node)} is already in the tree`,
      leafValue(p, e), `backs it up ${e.updates.length} nodes`].join("; ");
  }
  const chosen = e.selection.map((s) => {
    const o = s.options.find((opt) => opt.node === s.chosen);
    return `${o.move} (${o.score})`;
  });
  const parts = [
    `simulation ${e.number}: ` + (chosen.length ? `selects ${chosen.join(", ")}` : "the root has untried moves"),
    e.expanded !== null ? `expands ${name(e.expanded)}` : `${name(e.node)} is decided: nothing to expand`,
    e.playout.length ? `plays out ${e.playout.join(" ")}: ${e.result}` : `result ${e.result}`,
    `back-propagates reward ${e.reward} for Max up ${e.updates.length} nodes`,
  ];
  return parts.join("; ");
}

function cell(row, text) {
  row.insertCell().textContent = String(text);
}

// How PUCT valued the leaf a simulation reached: the network's value, or the game's end.
function leafValue(p, e) {
  const leaf = p.data.nodes[e.node];
  return leaf.role === "leaf" ? `${leaf.label} ends the game: ${e.result}`
    : `the network values ${leaf.label} at ${e.result} for Max`;
}

// The root's moves table: MCTS's UCB1 figures, or PUCT's with the network's priors.
const ROOT_COLUMNS = {
  mcts: { caption: "The root's moves after this simulation, as UCB1 weighs them next: mean reward " +
            "(exploitation) + c\u2009\u00b7\u2009sqrt(ln N / n) (exploration)",
          head: ["move", "visits", "mean value", "exploitation", "exploration", "UCB1", "proven"],
          row: (m) => [m.move, m.visits, m.mean, m.exploit, m.explore, m.score, m.proven ?? ""] },
  puct: { caption: "The root's moves after this simulation, as PUCT weighs them next: Q (the mean value " +
            "for the side to move, -1 to +1; a move not yet tried: the position's own value) + " +
            "U = c\u2009\u00b7\u2009P\u2009\u00b7\u2009sqrt(N) / (1 + n)",
          head: ["move", "prior P", "visits n", "mean value (Max)", "Q", "U", "Q + U", "game over"],
          row: (m) => [m.move, m.prior, m.visits, m.mean, m.exploit, m.explore, m.score, m.proven ?? ""] },
};

// The current simulation step by step, and the root's moves as the next selection weighs them.
function showSimulation(p) {
  const e = p.step > 0 ? p.data.events[p.step - 1] : null;
  const name = (i) => p.data.nodes[i].label;
  $("sim-title").textContent = e ? `Simulation ${e.number} of ${p.data.events.length}` : "Simulation";
  const items = [];
  if (e && p.data.guide) {
    items.push("Selection by PUCT: " + e.selection.map((s) => `at ${name(s.node)}, ` + s.options.map((o) =>
      `${o.move} ${o.exploit} + ${o.explore} (P ${o.prior}, n ${o.visits}) = ${o.score}` +
      (o.node === s.chosen ? " chosen" : "")).join(", ")).join("; then ") + ".");
    items.push(e.expanded !== null
      ? `Expansion: ${name(e.expanded)} is added to the tree; the network gives its moves' priors and its value.`
      : `Expansion: none, ${name(e.node)} is already in the tree.`);
    items.push(`Evaluation (no playout): ${leafValue(p, e)}.`);
    items.push("Back-up, each node's visits N and Q for the side that moved into it: " +
      e.updates.map((u) => `${name(u.node)} N ${u.visits} Q ${u.q}`).join(", ") + ".");
  } else if (e) {
    items.push(e.selection.length === 0 ? "Selection: the root still has untried moves; it is the node selected."
      : "Selection by UCB1: " + e.selection.map((s) => `at ${name(s.node)}, ` + s.options.map((o) =>
        `${o.move} ${o.exploit} + ${o.explore}` + (o.proven !== null ? ` (proven ${o.proven})` : "") +
        ` = ${o.score}` + (o.node === s.chosen ? " chosen" : "")).join(", ")).join("; then ") + ".");
    items.push(e.expanded !== null ? `Expansion: ${name(e.expanded)} is added to the tree.`
      : `Expansion: none, ${name(e.node)} is decided (${e.result}).`);
    items.push(e.playout.length ? `Playout (random moves): ${e.playout.join(" ")}, ending ${e.result}.`
      : `Playout: none; its value ${e.result} counts.`);
    items.push(`Back-propagation of reward ${e.reward} (Max's; Min's is 1 minus it): ` +
      e.updates.map((u) => `${name(u.node)} ${tally(u)}` + (u.proven !== null ? ` proven ${u.proven}` : "")).join(", ") + ".");
  }
  $("simulation").replaceChildren(...items.map((text) => Object.assign(document.createElement("li"), { textContent: text })));
  const best = e ? Math.max(...e.root_moves.map((m) => m.visits)) : 0;
  const columns = ROOT_COLUMNS[p.data.guide ? "puct" : "mcts"];
  $("root-moves-caption").textContent = columns.caption + (p.data.guide && p.data.guide.leaves > 1
    ? " (the simulations of its batch still in flight left out)." : "");
  const head = document.createElement("tr");
  for (const text of columns.head) head.append(Object.assign(document.createElement("th"), { textContent: text }));
  $("root-moves").tHead.replaceChildren(head);
  $("root-moves").tBodies[0].replaceChildren(...(e ? e.root_moves : []).map((m) => {
    const row = document.createElement("tr");
    if (m.visits === best) row.className = "chosen";
    for (const text of columns.row(m)) cell(row, text);
    return row;
  }));
}

function showMctsFields() {
  $("mcts-fields").hidden = $("algorithm").value !== "mcts" && $("compare").value !== "mcts";
}
$("algorithm").addEventListener("change", showMctsFields);
$("compare").addEventListener("change", showMctsFields);
showMctsFields();

// Ready: the page's two buttons come disabled, so that a click made before this module
// has run (its listeners attached: a slow first load) waits rather than being lost.
$("example").disabled = false;
$("explain").disabled = false;
