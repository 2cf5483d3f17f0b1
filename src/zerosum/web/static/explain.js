// The "explain a search" page: send a tree, or a game position and a depth, to /api/explain,
// then replay the search's events (the order its nodes returned) one step at a time over an
// SVG drawing of the tree. A game's tree (data.lazy) opens lazily: the root's children first,
// then each node the stepping reaches or the reader clicks.
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const FIG52 = "# AIMA figure 5.2: Max at A, three Min nodes, nine leaves\nA[B[3 12 8] C[2 4 6] D[14 5 2]]\n";
const GAP = 64;    // between neighbouring leaves
const LEVEL = 90;  // between depths
const R = 18;      // a node's half size
const ZOOM = [0.8, 1.5];  // the least and most a tree is scaled to fit the page's width
const NAMES = { alphabeta: "alpha-beta", minimax: "minimax" };

let data = null;  // the server's answer
let step = 0;     // how many events have happened
let timer = null;
let parents = [];  // each node's parent index
let open = null;   // the nodes whose children are drawn (null: all of them)

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
  open = data.lazy ? new Set([0]) : null;
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

// Leaves side by side in tree order; an inner node centred over its children. Only the
// nodes drawn get a place (at[i] stays undefined under a closed node).
function layout(nodes) {
  const at = [];
  let leaves = 0;
  const todo = [0];  // pre-order: a node, then its children's subtrees in turn
  while (todo.length) {
    const i = todo.pop();
    at[i] = { x: 0, y: nodes[i].path.length * LEVEL + R + 30 };
    const kids = shownKids(i);
    if (kids.length === 0) {  // a closed inner node gets room for its window's text
      const room = nodes[i].children.length ? 2 : 1;
      at[i].x = (leaves + room / 2) * GAP + 40;
      leaves += room;
    }
    todo.push(...kids.slice().reverse());
  }
  for (let i = nodes.length - 1; i >= 0; i--) {  // pre-order reversed: children first
    const kids = shownKids(i);
    if (at[i] && kids.length) at[i].x = (at[kids[0]].x + at[kids[kids.length - 1]].x) / 2;
  }
  return { at, width: leaves * GAP + 120 };
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

function shape(role, x, y) {
  if (role === "leaf") return el("rect", { x: x - R * 0.85, y: y - R * 0.85, width: R * 1.7, height: R * 1.7 });
  const d = role === "max" ? -1 : 1;  // Max points up, Min down
  const pts = [[x, y + d * R], [x - R * 1.15, y - d * R * 0.75], [x + R * 1.15, y - d * R * 0.75]];
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
    if (event && event.table) classes.push("table");
    if (open !== null && n.children.length) classes.push("openable");
    const g = el("g", { class: classes.join(" "), "data-label": n.label });
    let title = `${n.label} (${n.role})`;
    if (event) title += `: value ${event.value}` + (event.alpha === null ? "" : `, window (${event.alpha}, ${event.beta})`);
    if (pruned.has(i)) title += ` pruned: ${pruned.get(i)}`;
    if (event && event.table) title += " (from the transposition table)";
    if (open !== null && n.children.length) title += closed ? "; click to show its children" : "; click to hide its children";
    g.append(el("title", {}, title), shape(n.role, x, y));
    const shown = event ? event.value : n.value;  // a leaf's number is known before it is examined
    if (shown !== null) {
      g.append(el("text", { x, y: y + (n.role === "min" ? -1 : n.role === "max" ? 9 : 5),
                            class: shown.length > 5 ? "value long" : "value" }, shown));
    }
    if (closed) g.append(el("text", { x, y: y + R + 14, class: "more" }, "+"));
    if (open !== null && n.children.length) g.addEventListener("click", () => toggle(i));
    const label = shortLabel(nodes, i);
    if (n.role === "leaf") g.append(el("text", { x, y: y + R + 16, class: "label" }, label));
    else g.append(el("text", { x: x - R * 1.3 - 4, y: y - 4, class: "label", "text-anchor": "end" }, label));
    if (event && event.alpha !== null && n.role !== "leaf") {
      g.append(el("text", { x, y: y - R - 7, class: "window" },
                  `(${event.alpha}, ${event.beta})`));
    }
    svg.append(g);
  });
  $("drawing").replaceChildren(svg);
  if (current !== null) {  // keep the node that just returned in sight
    $("drawing").scrollLeft = at[current].x * zoom - $("drawing").clientWidth / 2;
  }
}

function describe(e) {
  const n = data.nodes[e.node];
  let text = `${e.label} (${n.role}) returns ${e.value}` + (e.table ? " from the transposition table" : "");
  if (e.alpha !== null && n.role !== "leaf") text += `, window (${e.alpha}, ${e.beta})`;
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
