// The page of `zerosum serve`: choose a game and an opponent, play by clicking or typing,
// and watch the computer's search stream its Info lines over a WebSocket.
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const CELL = 60;

let games = [];
let session = null;
let socket = null;
let humanSide = null; // null when the computer plays both sides
let ownSide = null; // the side the person plays, or that "Your side" plays for them
let paused = false; // watching two computers: stop after the current move
let ghost = []; // the latest Info's principal variation while the computer thinks
let pick = null; // checkers: the piece chosen and the squares chosen for its move so far

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function showError(text) { $("error").textContent = text || ""; }

function spec() { return games.find((g) => g.name === $("game").value); }

function fillChoices() {
  const g = spec();
  $("position-field").hidden = !g.position;
  $("position-name").textContent = g.position ? `Start position (${g.position})` : "";
  $("player").replaceChildren(...g.players.map((p) => new Option(p, p, false, p === g.default_player)));
  $("player2").replaceChildren(new Option("you", ""), ...g.players.map((p) => new Option(p, p)));
  $("options").replaceChildren(...g.options.map((o) => {
    const label = document.createElement("label");
    label.title = o.help;
    label.append(o.name);
    let field;
    if (o.choices) {
      field = document.createElement("select");
      field.append(...o.choices.map((c) => new Option(String(c), String(c), false, c === o.default)));
    } else {
      field = document.createElement("input");
      field.value = String(o.default);
      field.size = 8;
    }
    field.dataset.option = o.name;
    label.append(field);
    return label;
  }));
}

function options() {
  const values = {};
  for (const field of $("options").querySelectorAll("[data-option]")) values[field.dataset.option] = field.value;
  return values;
}

function el(name, attrs = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function piece(kind, x, y) {
  if (kind.startsWith("queen-")) {
    return el("text", { x: x + CELL / 2, y: y + CELL * 0.72, "text-anchor": "middle", "font-size": CELL * 0.7,
      fill: kind === "queen-X" ? "#2b5cab" : "#b23a48", class: "queen" }, "\u265B");
  }
  if (kind === "red" || kind === "yellow") {
    return el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.4,
      fill: kind === "red" ? "#d62828" : "#f4c20d", stroke: "#0003" });
  }
  return el("text", { x: x + CELL / 2, y: y + CELL * 0.68, "text-anchor": "middle",
    "font-size": CELL * 0.6, "font-weight": "bold", fill: kind === "X" ? "#2b5cab" : "#b23a48" }, kind);
}

function target(x, y, w, h, index, label, view) {
  const rect = el("rect", { x, y, width: w, height: h, fill: "transparent", class: "target",
    role: "button", tabindex: 0, "aria-label": label });
  const play = () => { if (view.moves[index] !== undefined) playMove(view.moves[index]); };
  rect.addEventListener("click", play);
  rect.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); play(); } });
  return rect;
}

// The cells the principal variation would fill, in order: a move's text back to its
// cell (or column, where the piece drops onto the highest filled cell so far).
function ghostCells(view) {
  if (!session.thinking || !ghost.length) return [];
  const index = new Map(Object.entries(view.moves).map(([i, text]) => [text, Number(i)]));
  const filled = view.cells.map((kind) => kind !== "");
  const cells = [];
  for (const text of ghost) {
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

function drawGhosts(svg, view) {
  const colours = view.click === "column" ? ["#d62828", "#f4c20d"] : ["#2b5cab", "#b23a48"];
  const first = Math.max(0, session.players.indexOf(session.to_move));
  ghostCells(view).forEach((i, k) => {
    const x = (i % view.cols) * CELL, y = Math.floor(i / view.cols) * CELL;
    const g = el("g", { class: "ghost", "aria-label": `principal variation move ${k + 1}` });
    g.append(el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.34, fill: colours[(first + k) % 2],
      "fill-opacity": 0.35, stroke: colours[(first + k) % 2], "stroke-width": 2, "stroke-dasharray": "4 3" }));
    g.append(el("text", { x: x + CELL / 2, y: y + CELL * 0.62, "text-anchor": "middle", "font-size": CELL * 0.34,
      "font-weight": "bold", fill: "#1d2430" }, String(k + 1)));
    svg.append(g);
  });
}

function drawGrid(view) {
  const svg = el("svg", { viewBox: `0 0 ${view.cols * CELL} ${view.rows * CELL}`, role: "img",
    "aria-label": `${session.title} board` });
  const columns = view.click === "column";
  svg.append(el("rect", { width: view.cols * CELL, height: view.rows * CELL, fill: columns ? "#1f4e9c" : "#fff" }));
  view.cells.forEach((kind, i) => {
    const x = (i % view.cols) * CELL, y = Math.floor(i / view.cols) * CELL;
    if (columns) svg.append(el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.4, fill: "#f6f7f9" }));
    else {
      // N-Queens shows which squares are still safe (open) and which are attacked.
      const open = view.moves[i] !== undefined;
      const fill = !view.show_open || kind ? "none" : open && !session.over ? "#e3f4e1" : "#e6e8ec";
      svg.append(el("rect", { x, y, width: CELL, height: CELL, fill, stroke: "#1d2430" }));
    }
    if (kind) svg.append(piece(kind, x, y));
    if (!columns && !session.over && view.moves[i] !== undefined) {
      svg.append(target(x, y, CELL, CELL, i, `cell ${view.moves[i]}`, view));
    }
  });
  drawGhosts(svg, view);
  if (columns && !session.over) {
    for (let c = 0; c < view.cols; c++) {
      if (view.moves[c] !== undefined) svg.append(target(c * CELL, 0, CELL, view.rows * CELL, c, `column ${view.moves[c]}`, view));
    }
  }
  return svg;
}

// Checkers: click a piece that can move, then the last square of its move. When two
// capture paths of that piece end on the same square, the next square of each is
// offered in turn until one path is left. The server's list of moves decides.
function squareName(view, i) { return `${String.fromCharCode(65 + Math.floor(i / view.cols))}${(i % view.cols) + 1}`; }

function candidates(view) {
  return view.moves.filter((m) => pick.prefix.every((sq, k) => m.path[k] === sq)
    && (pick.end === null || m.path[m.path.length - 1] === pick.end));
}

function destinations(view) {
  if (!pick || pick.view !== view) return new Set();
  const left = candidates(view);
  return new Set(left.map((m) => (pick.end === null ? m.path[m.path.length - 1] : m.path[pick.prefix.length])));
}

function choose(view, i) {
  if (pick.end === null) pick.end = i; else pick.prefix.push(i);
  const left = candidates(view);
  if (left.length === 1) { pick = null; playMove(left[0].text); } else drawBoard();
}

function select(view, i) {
  pick = pick && pick.view === view && pick.prefix[0] === i ? null : { view, prefix: [i], end: null };
  drawBoard();
}

function clickable(x, y, label, action) {
  const rect = el("rect", { x, y, width: CELL, height: CELL, fill: "transparent", class: "target",
    role: "button", tabindex: 0, "aria-label": label });
  rect.addEventListener("click", action);
  rect.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); action(); } });
  return rect;
}

function drawCheckers(view) {
  const n = view.cols;
  const svg = el("svg", { viewBox: `0 0 ${n * CELL} ${n * CELL}`, role: "img", "aria-label": `${session.title} board`,
    class: "checkers" });
  const open = !session.over && !session.thinking;
  const movable = new Set(open ? view.moves.map((m) => m.path[0]) : []);
  const offered = open ? destinations(view) : new Set();
  const chosen = pick && pick.view === view ? [...pick.prefix, pick.end] : [];
  view.cells.forEach((kind, i) => {
    const r = Math.floor(i / n), c = i % n, x = c * CELL, y = r * CELL;
    const dark = (r + c) % 2 === 1;
    svg.append(el("rect", { x, y, width: CELL, height: CELL, fill: chosen.includes(i) ? "#c9a227" : dark ? "#7a5230" : "#ecd9b8" }));
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
      svg.append(clickable(x, y, `to ${squareName(view, i)}`, () => choose(view, i)));
    } else if (movable.has(i)) {
      svg.append(clickable(x, y, `piece ${squareName(view, i)}`, () => select(view, i)));
    }
  });
  return svg;
}

function drawBoard() {
  const view = session.view;
  const parts = [];
  if (view.kind === "grid") parts.push(drawGrid(view));
  else if (view.kind === "checkers") parts.push(drawCheckers(view));
  else { const pre = document.createElement("pre"); pre.textContent = view.text; parts.push(pre); }
  const note = document.createElement("p");
  note.className = "board-note";
  if (view.scores) note.textContent = Object.entries(view.scores).map(([who, points]) => `${who}: ${points}`).join(" · ");
  else if (pick && pick.view === view && pick.end !== null) note.textContent = "Two ways end there: click the next square of the path.";
  parts.push(note);
  $("board").replaceChildren(...parts);
}

function render() {
  drawBoard();
  $("status").textContent = session.over ? session.outcome
    : session.thinking ? `${session.to_move} (computer) is thinking…`
    : `${session.to_move} to move${session.to_move === humanSide ? " (you)" : ""}`;
  $("moves").textContent = session.moves.length ? `Moves: ${session.moves.join(" ")}` : "";
  $("move").placeholder = session.legal.slice(0, 4).join(", ");
  $("move").title = session.move_help;
  $("record").href = `/api/sessions/${session.id}/record`;
  $("flip").disabled = session.over || session.thinking || humanSide === null;
  document.dispatchEvent(new CustomEvent("zerosum:session", { detail: session })); // analysis.js
}

function cell(text) { const td = document.createElement("td"); td.textContent = text; return td; }

function showInfo(m) {
  const row = document.createElement("tr");
  $("unit-head").textContent = m.unit; // nodes, or MCTS's simulations
  row.append(cell(m.depth ?? "end"), cell(m.value), cell(m.nodes.toLocaleString()),
    cell(m.nodes_per_second.toLocaleString()), cell(`${m.elapsed.toFixed(2)} s`), cell(m.pv.join(" ")));
  $("infos").append(row);
}

function connect() {
  if (socket) socket.close();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/api/sessions/${session.id}/think`);
  socket.addEventListener("message", (event) => {
    const m = JSON.parse(event.data);
    if (m.type === "started") { ghost = []; $("infos").replaceChildren(); $("result").textContent = ""; }
    else if (m.type === "info") { showInfo(m); ghost = m.pv; drawBoard(); }
    else if (m.type === "result") {
      session = m.state;
      ghost = [];
      $("stop").disabled = true;
      $("unit-head").textContent = m.unit;
      $("result").textContent = `Played ${m.move}: value ${m.value}, ${m.depth_text}, `
        + `${m.nodes.toLocaleString()} ${m.unit}, `
        + `${m.seconds.toFixed(2)} s${m.stopped ? " (stopped)" : ""}`;
      render();
      if (humanSide === null && !paused) think(); // watching: the other side's turn
    } else { ghost = []; $("stop").disabled = true; showError(m.error); refresh(); }
  });
  return new Promise((resolve) => socket.addEventListener("open", resolve, { once: true }));
}

async function refresh() { session = await api(`/api/sessions/${session.id}`); render(); }

function think() {
  if (session.over) return;
  const depth = $("depth").value === "" ? null : Number($("depth").value);
  // Watching, the person's own side is played by the "Your side" choice.
  const player = session.to_move === ownSide && humanSide === null ? $("player2").value : $("player").value;
  socket.send(JSON.stringify({ type: "think", player, seconds: Number($("seconds").value) || 1, depth }));
  session.thinking = true;
  $("stop").disabled = false;
  render();
}

async function guarded(action) {
  showError("");
  try { await action(); return true; } catch (e) { showError(e.message); return false; }
}

// Choosing a game starts it: the board on the page is always the chosen game's, played
// by that game's players (the menus hold no player of another game). Should the server
// refuse, the menu goes back to the game being played.
async function chooseGame() {
  fillChoices();
  $("position").value = ""; // a position of the game before means nothing in this one
  if (await newGame() || !session) return;
  $("game").value = session.game;
  fillChoices();
}

async function playMove(text) {
  if (session.thinking || session.over) return;
  await guarded(async () => {
    session = await api(`/api/sessions/${session.id}/move`, { move: text });
    render();
    if (humanSide !== null) think(); // watching, a move by hand is made while paused

  });
}

async function newGame() {
  return guarded(async () => {
    const position = spec().position ? $("position").value.trim() : "";
    session = await api("/api/sessions", { game: $("game").value, options: options(), position });
    ownSide = session.players[$("computer-first").checked ? 1 : 0];
    humanSide = $("player2").value === "" ? ownSide : null;
    setPaused(false);
    $("pause").hidden = humanSide !== null;
    $("stop").disabled = true;
    ghost = [];
    $("infos").replaceChildren();
    $("result").textContent = "";
    render();
    await connect();
    if (session.to_move !== humanSide) think();
  });
}

async function takeBack() {
  // The server refuses to change the game under a running search.
  if (session.thinking) { showError("The computer is thinking: press \u201cStop, move now\u201d first, then take back."); return; }
  await guarded(async () => {
    const plies = session.to_move === humanSide ? 2 : 1;
    session = await api(`/api/sessions/${session.id}/undo`, { plies });
    render();
    if (!session.over && session.to_move !== humanSide && !(humanSide === null && paused)) think();
  });
}

// The person takes over the side the computer was playing and the computer the
// person's; if that makes it the computer's turn, it starts thinking at once.
function flipSides() {
  if (session.over || session.thinking || humanSide === null) return;
  showError("");
  humanSide = session.players.find((p) => p !== humanSide);
  ownSide = humanSide;
  // A new game from the setup keeps the sides as they are now.
  $("computer-first").checked = humanSide !== session.players[0];
  pick = null;
  render();
  if (session.to_move !== humanSide) think();
}

function setPaused(value) {
  paused = value;
  $("pause").textContent = paused ? "Resume" : "Pause";
}

function pauseOrResume() {
  setPaused(!paused);
  if (!paused && !session.thinking) think();
}

async function start() {
  games = (await api("/api/games")).games;
  $("game").replaceChildren(...games.map((g) => new Option(g.title, g.name)));
  // A link may choose the game, the opponent, who plays your side and who starts:
  // ?game=connect4&player=mcts&side=engine&first=computer
  const query = new URLSearchParams(location.search);
  const chosen = games.some((g) => g.name === query.get("game")) ? query.get("game") : "tictactoe";
  $("game").value = games.some((g) => g.name === chosen) ? chosen : games[0].name;
  fillChoices();
  if (spec().players.includes(query.get("player"))) $("player").value = query.get("player");
  if (spec().players.includes(query.get("side"))) $("player2").value = query.get("side");
  $("computer-first").checked = query.get("first") === "computer";
  $("game").addEventListener("change", chooseGame);
  $("setup").addEventListener("submit", (e) => { e.preventDefault(); newGame(); });
  $("typed").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("move").value.trim();
    if (text) { $("move").value = ""; playMove(text); }
  });
  $("undo").addEventListener("click", takeBack);
  $("flip").addEventListener("click", flipSides);
  $("pause").addEventListener("click", pauseOrResume);
  $("stop").addEventListener("click", () => socket && socket.send(JSON.stringify({ type: "stop" })));
  await newGame();
}

start().catch((e) => showError(e.message));
