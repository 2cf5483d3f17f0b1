// The "explain a search" page: send a tree, or a game position and a depth, to /api/explain,
// then replay the search's events (the order its nodes returned) one step at a time over an
// SVG drawing of the tree. A game's tree (data.lazy), or a pasted one over LAZY_FROM nodes,
// opens lazily: the root's children first, then each node the stepping reaches or the reader
// clicks. A tree file is read in the page; the server only ever gets its text.
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const FIG52 = "# AIMA figure 5.2: Max at A, three Min nodes, nine leaves\nA[B[3 12 8] C[2 4 6] D[14 5 2]]\n";
const GAP = 32;    // the least room of a node side by side with its neighbours
const PAD = 14;    // the least space between neighbouring nodes' texts
const MARGIN = 40; // left and right of the tree
const LEVEL = 90;  // between depths
const R = 18;      // a node's half size
const VALUE_PX = 13, LABEL_PX = 13, WINDOW_PX = 11;  // font sizes, as in explain.html
const LAZY_FROM = 200;  // a pasted tree of more nodes opens lazily, as a game's does
const ZOOM = [1, 1.5];  // a small tree is scaled up to fill the page's width, at most this
const NAMES = { alphabeta: "alpha-beta", minimax: "minimax" };
const SETTLED = new Set(["exact", "cut"]);  // table effects that end a node unsearched

let data = null;  // the server's answer
let step = 0;     // how many events have happened
let timer = null;
let parents = [];  // each node's parent index
let open = null;   // the nodes whose children are drawn (null: all of them)
let finals = new Map();  // each node's event: the value and window it returned with
let measurer = null;  // a canvas context, to measure texts

async function explain() {
  stopPlaying();
  $("error").textContent = "";
  const body = $("kind").value === "game"
    ? { game: $("game").value, moves: $("moves").value, depth: Number($("depth").value),
        algorithm: $("algorithm").value, table: $("table").checked }
    : { tree: $("tree-text").value, algorithm: $("algorithm").value,
        min_first: $("min-first").checked };
  const response = await fetch("/api/explain", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) {
    $("error").textContent = answer.error || response.statusText;
    $("search").hidden = true;
    return;
  }
  data = answer;
  step = 0;
  parents = [];
  data.nodes.forEach((n, i) => { for (const c of n.children) parents[c] = i; });
  finals = new Map(data.events.map((e) => [e.node, e]));
  open = data.lazy || data.nodes.length > LAZY_FROM ? new Set([0]) : null;
  showCounts();
  $("search").hidden = false;
  render();
}

function showCounts() {
  const hits = data.counts.alphabeta.table_hits !== undefined;
  $("hits-head").hidden = !hits;
  $("counts").tBodies[0].replaceChildren(...Object.entries(data.counts).map(([name, c]) => {
    const row = document.createElement("tr");
    if (name === data.algorithm) row.className = "chosen";
    const cells = [NAMES[name] + (name === data.algorithm ? " (shown)" : ""), c.nodes, c.leaves];
    if (hits) cells.push(c.table_hits);
    for (const text of cells) {
      row.insertCell().textContent = String(text);
    }
    return row;
  }));
}

// The children drawn under node i: all of them, or none while it is closed.
function shownKids(i) {
  return open === null || open.has(i) ? data.nodes[i].children : [];
}

// Each drawn node gets room for its own texts (its shape, sized to its value; its label;
// its window), a subtree the room of its children side by side, at least its own; a node
// is centred over its children. The room comes from the final values, so a node stays put
// while the steps go by. Only the nodes drawn get a place (at[i] stays undefined under a
// closed node). A wide tree is not squeezed: the drawing scrolls sideways instead.
function layout(nodes) {
  const room = [];
  const post = [];  // the drawn nodes, each after its children
  const todo = [0];
  while (todo.length) {
    const i = todo.pop();
    post.push(i);
    todo.push(...shownKids(i));
  }
  post.reverse();
  for (const i of post) {
    const kids = shownKids(i).reduce((sum, c) => sum + room[c], 0);
    room[i] = Math.max(ownRoom(nodes, i), kids);
  }
  const at = [];
  const place = (i, left) => {  // pre-order, children left to right within the parent's room
    const kids = shownKids(i);
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
function finalValue(nodes, i) {
  const event = finals.get(i);
  return event ? event.value : nodes[i].value;
}

// Is node i drawn small? In a game's tree (wide: Connect Four has seven moves a node),
// the nodes the search never examined (pruned) are, to leave the room to those it did.
function packed(i) {
  return data.lazy && !finals.has(i);
}

// Half the width of node i's shape: wide enough for its value inside.
function halfWidth(nodes, i) {
  if (packed(i)) return R * 0.55;
  const value = finalValue(nodes, i);
  const text = value === null ? 0 : textWidth(value, VALUE_PX);
  return nodes[i].role === "leaf" ? Math.max(R * 0.85, text / 2 + 5) : Math.max(R * 1.15, text * 0.65 + 8);
}

// The width node i's own texts take: a leaf's label is under it, an inner node's on its
// left (room is kept on both sides, to stay centred) and its window above it.
function ownRoom(nodes, i) {
  const half = halfWidth(nodes, i);
  const label = textWidth(shortLabel(nodes, i), LABEL_PX);
  const shape = nodes[i].role === "leaf" ? Math.max(2 * half, label) : 2 * (half + 6 + label);
  if (packed(i)) return shape + PAD / 2;
  const event = finals.get(i);
  const window = event && event.alpha !== null && nodes[i].role !== "leaf" ? textWidth(windowText(event), WINDOW_PX) : 0;
  return Math.max(shape, window, GAP) + PAD;
}

function windowText(event) {
  return `(${event.alpha}, ${event.beta})`;
}

// Open the path down to node i, so the node the search has reached is in the drawing.
function reveal(i) {
  if (open === null) return;
  for (let p = parents[i]; p !== undefined; p = parents[p]) open.add(p);
}

function toggle(i) {
  if (open === null || data.nodes[i].children.length === 0) return;
  if (open.has(i)) open.delete(i); else open.add(i);
  render();
}

function el(name, attrs, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

// An unlabelled node's name grows with its depth (root.2.1.3); drawn, the part its parent's
// name already says is left out (.3), the whole name staying in the tooltip and the log.
// A game's node is named by the moves to it (4 4 3); drawn, only its last move (3).
function shortLabel(nodes, i) {
  const label = nodes[i].label;
  const parent = parents[i] === undefined ? null : nodes[parents[i]].label;
  if (data.lazy) return parent !== null && label.startsWith(parent + " ") ? label.slice(parent.length + 1) : label;
  return label.length > 5 && parent !== null && label.startsWith(parent + ".")
    ? label.slice(parent.length) : label;
}

// A leaf's square (a wider box for a long value) or an inner node's triangle, `half` wide.
function shape(role, x, y, half) {
  if (role === "leaf") return el("rect", { x: x - half, y: y - R * 0.85, width: 2 * half, height: R * 1.7 });
  const d = role === "max" ? -1 : 1;  // Max points up, Min down
  const pts = [[x, y + d * R], [x - half, y - d * R * 0.75], [x + half, y - d * R * 0.75]];
  return el("polygon", { points: pts.map((p) => p.join(",")).join(" ") });
}

// What the first `step` events have shown: each node's event, the pruned nodes and why.
function stateAt() {
  const done = new Map();
  const pruned = new Map();
  for (const e of data.events.slice(0, step)) {
    done.set(e.node, e);
    const todo = e.pruned.slice();
    while (todo.length) {  // a pruned child's whole subtree is never examined
      const i = todo.pop();
      pruned.set(i, e.reason);
      todo.push(...data.nodes[i].children);
    }
  }
  return { done, pruned };
}

function draw() {
  const { nodes } = data;
  const { at, width } = layout(nodes);
  const depth = Math.max(...nodes.map((n, i) => (at[i] ? n.path.length : 0)));
  const height = depth * LEVEL + 2 * R + 70;
  // small trees fill the width; large ones shrink a little, then scroll sideways
  const zoom = Math.max(ZOOM[0], Math.min(ZOOM[1], ($("drawing").clientWidth - 4) / width));
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, width: width * zoom, height: height * zoom,
                          role: "img", "aria-label": "the search tree" });
  const { done, pruned } = stateAt();
  const current = step > 0 ? data.events[step - 1].node : null;
  nodes.forEach((n, i) => {
    if (!at[i]) return;
    for (const c of shownKids(i)) {
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
    const closed = open !== null && n.children.length > 0 && !open.has(i);
    const event = done.get(i);
    const classes = ["node", n.role];
    if (event) classes.push("done");
    if (pruned.has(i)) classes.push("pruned");
    if (i === current) classes.push("current");
    if (event && event.table) classes.push(SETTLED.has(event.table.effect) ? "table" : `table-${event.table.effect}`);
    if (open !== null && n.children.length) classes.push("openable");
    const g = el("g", { class: classes.join(" "), "data-label": n.label });
    let title = `${n.label} (${n.role})`;
    if (event) title += `: value ${event.value}` + (event.alpha === null ? "" : `, window (${event.alpha}, ${event.beta})`);
    if (pruned.has(i)) title += ` pruned: ${pruned.get(i)}`;
    if (event && event.table) title += `; ${tableText(event.table)}`;
    if (open !== null && n.children.length) title += closed ? "; click to show its children" : "; click to hide its children";
    const half = halfWidth(nodes, i);
    g.append(el("title", {}, title), shape(n.role, x, y, half));
    const shown = event ? event.value : n.value;  // a leaf's number is known before it is examined
    if (shown !== null) {
      g.append(el("text", { x, y: y + (n.role === "min" ? -1 : n.role === "max" ? 9 : 5),
                            class: "value" }, shown));
    }
    if (closed) g.append(el("text", { x, y: y + R + 14, class: "more" }, "+"));
    if (open !== null && n.children.length) g.addEventListener("click", () => toggle(i));
    const label = shortLabel(nodes, i);
    if (n.role === "leaf") g.append(el("text", { x, y: y + R + 16, class: "label" }, label));
    else g.append(el("text", { x: x - half - 6, y: y - 4, class: "label", "text-anchor": "end" }, label));
    if (event && event.alpha !== null && n.role !== "leaf") {
      g.append(el("text", { x, y: y - R - 7, class: "window" }, windowText(event)));
    }
    svg.append(g);
  });
  $("drawing").replaceChildren(svg);
  if (current !== null) {  // keep the node that just returned in sight
    $("drawing").scrollLeft = at[current].x * zoom - $("drawing").clientWidth / 2;
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

function describe(e) {
  const n = data.nodes[e.node];
  let text = `${e.label} (${n.role}) returns ${e.value}`;
  if (e.alpha !== null && n.role !== "leaf") text += `, window (${e.alpha}, ${e.beta})`;
  if (e.table) text += `; ${tableText(e.table)}`;
  if (e.pruned.length) {
    text += `; pruned ${e.pruned.map((i) => data.nodes[i].label).join(", ")}: ${e.reason}`;
  }
  return text;
}

function render() {
  const total = data.events.length;
  draw();
  $("log").replaceChildren(...data.events.slice(0, step).map((e, i) => {
    const li = document.createElement("li");
    li.textContent = describe(e);
    if (i === step - 1) li.className = "current";
    return li;
  }));
  $("log").scrollTop = $("log").scrollHeight;  // the step just taken in sight, the page still
  $("step").textContent = `step ${step} of ${total}`;
  const root = data.lazy ? "the position" : data.nodes[0].label;
  $("summary").textContent = step === total
    ? `${NAMES[data.algorithm]}: the value of ${root} is ${data.value}` +
      (data.best ? `, best move ${data.best}` : "") + `; ${data.counts[data.algorithm].nodes} nodes examined.`
    : `${NAMES[data.algorithm]}: ${step === 0 ? "press Next or Play" : describe(data.events[step - 1])}`;
  $("back").disabled = step === 0;
  $("next").disabled = $("end").disabled = step === total;
  $("play").textContent = timer === null ? "Play" : "Pause";
}

function go(to) {
  if (!data) return;
  step = Math.max(0, Math.min(data.events.length, to));
  if (step > 0) reveal(data.events[step - 1].node);
  if (step === data.events.length) stopPlaying();
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
    if (step === data.events.length) step = 0;
    timer = setInterval(() => go(step + 1), Number($("speed").value));
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
$("next").addEventListener("click", () => { stopPlaying(); go(step + 1); });
$("back").addEventListener("click", () => { stopPlaying(); go(step - 1); });
$("end").addEventListener("click", () => { stopPlaying(); go(data.events.length); });
$("play").addEventListener("click", togglePlay);
document.addEventListener("keydown", (event) => {  // arrows step, except while typing a tree
  if (!data || event.target.closest("textarea, input, select")) return;
  const to = { ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: data.events.length }[event.key];
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
  const response = await fetch("/api/games");
  const { games } = await response.json();
  $("game").replaceChildren(...games.map((g) => new Option(g.title, g.name, false, g.name === "tictactoe")));
}

$("kind").addEventListener("change", showFields);
$("tree-text").value = FIG52;
showFields();
loadGames();
