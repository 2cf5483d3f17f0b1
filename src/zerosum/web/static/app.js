// The page of `zerosum serve`: choose a game and an opponent, play by clicking or typing,
// watch the computer's search stream its Info lines over a WebSocket, and step through
// the game's moves (analysis.js adds every move's value and the value graph).
import { $, api, cell, el, socketTo, tag } from "/static/common.js";

const CELL = 60;
const MARGIN = 22; // room for the coordinates beside a board

let games = [];
let session = null;
let socket = null;
let humanSide = null; // null when the computer plays both sides
let ownSide = null; // the side the person plays, or that "Your side" plays for them
let paused = false; // watching two computers: stop after the current move
let ghost = []; // the latest Info's principal variation, each move's cells
let thinker = ""; // the player searching now, by name
let pick = null; // checkers: the piece chosen and the squares chosen for its move so far
let marks = new Map(); // move text -> its value from analysis.js ({outcome, label, title})

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

// Where a cell is drawn: the board sits right of the row labels, above the column labels.
function origin(view) { return { x: view.row_labels ? MARGIN : 0, y: 0 }; }
function place(view, i) {
  const o = origin(view);
  return { x: o.x + (i % view.cols) * CELL, y: o.y + Math.floor(i / view.cols) * CELL };
}
function centre(view, i) { const p = place(view, i); return { x: p.x + CELL / 2, y: p.y + CELL / 2 }; }

function board(view, className) {
  const o = origin(view);
  const width = o.x + view.cols * CELL, height = view.rows * CELL + (view.col_labels ? MARGIN : 0);
  return el("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `${session.title} board`,
    class: className });
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

// The cell where each legal move's value is shown: its own cell, the cell a stone
// dropped into a column lands on, a checkers move's last square.
function moveCells(view) {
  const cells = new Map();
  if (view.kind === "paths") {
    for (const m of view.moves) if (!cells.has(m.text)) cells.set(m.text, m.path[m.path.length - 1]);
    return cells;
  }
  for (const [index, text] of Object.entries(view.moves)) {
    let i = Number(index);
    if (view.click === "column") {
      let r = view.rows - 1;
      while (r >= 0 && view.cells[r * view.cols + i] !== "") r--;
      i = r * view.cols + i;
    }
    cells.set(text, i);
  }
  return cells;
}

function valueBadges(svg, view) {
  if (!$("show-values").checked || !marks.size || session.thinking || session.over) return;
  const taken = new Set();
  for (const [text, i] of moveCells(view)) {
    const mark = marks.get(text);
    if (!mark || taken.has(i)) continue;
    taken.add(i);
    const c = centre(view, i);
    const g = el("g", { class: `badge ${mark.outcome}`, "aria-label": `move ${text}: ${mark.title}` });
    g.append(el("title", {}, `${text}: ${mark.title}`));
    g.append(el("rect", { x: c.x - CELL * 0.42, y: c.y - 11, width: CELL * 0.84, height: 22, rx: 6 }));
    g.append(el("text", { x: c.x, y: c.y + 5, "text-anchor": "middle" }, mark.label));
    svg.append(g);
  }
}

// The principal variation's moves, numbered, on the board: each move's cells as the
// server gives them (a stone's cell, a checkers move's path as an arrow).
function drawGhosts(svg, view) {
  if (!$("show-pv").checked || !session.thinking) return;
  const first = Math.max(0, session.players.indexOf(session.to_move));
  ghost.forEach((cells, k) => {
    if (!cells.length) return;
    const side = (first + k) % 2 === 0 ? "side-a" : "side-b";
    const g = el("g", { class: `ghost ${side}`, "aria-label": `principal variation move ${k + 1}` });
    const end = centre(view, cells[cells.length - 1]);
    if (cells.length > 1) {
      const points = cells.map((i) => { const c = centre(view, i); return `${c.x},${c.y}`; }).join(" ");
      g.append(el("polyline", { points, class: "pv-path" }));
    }
    g.append(el("circle", { cx: end.x, cy: end.y, r: CELL * 0.3 }));
    g.append(el("text", { x: end.x, y: end.y + CELL * 0.11, "text-anchor": "middle", "font-size": CELL * 0.3 },
      String(k + 1)));
    svg.append(g);
  });
}

function drawGrid(view) {
  const columns = view.click === "column";
  const svg = board(view, columns ? "grid columns" : "grid");
  const o = origin(view);
  svg.append(el("rect", { x: o.x, y: o.y, width: view.cols * CELL, height: view.rows * CELL, class: "board-bg" }));
  view.cells.forEach((kind, i) => {
    const { x, y } = place(view, i);
    if (columns) svg.append(el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.4, class: "hole" }));
    else {
      // N-Queens shows which squares are still safe (open) and which are attacked.
      const open = view.moves[i] !== undefined;
      const state = !view.show_open || kind ? "" : open && !session.over ? " open" : " closed";
      svg.append(el("rect", { x, y, width: CELL, height: CELL, class: `square${state}` }));
    }
    if (kind) svg.append(piece(kind, x, y));
  });
  coordinates(svg, view);
  lastAndLine(svg, view);
  drawGhosts(svg, view);
  valueBadges(svg, view);
  if (!session.over && !session.thinking) {
    if (columns) {
      for (let c = 0; c < view.cols; c++) {
        if (view.moves[c] !== undefined) {
          svg.append(clickable(o.x + c * CELL, o.y, CELL, view.rows * CELL, `column ${view.moves[c]}`,
            () => playMove(view.moves[c])));
        }
      }
    } else {
      view.cells.forEach((_, i) => {
        if (view.moves[i] === undefined) return;
        const { x, y } = place(view, i);
        svg.append(clickable(x, y, CELL, CELL, `cell ${view.moves[i]}`, () => playMove(view.moves[i])));
      });
    }
  }
  return svg;
}

// Checkers: click a piece that can move, then the last square of its move. When two
// capture paths of that piece end on the same square, the next square of each is
// offered in turn until one path is left. The server's list of moves decides.
function squareName(view, i) {
  return `${view.row_labels[Math.floor(i / view.cols)]}${view.col_labels[i % view.cols]}`;
}

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

function drawCheckers(view) {
  const n = view.cols;
  const svg = board(view, "checkers");
  const open = !session.over && !session.thinking;
  const movable = new Set(open ? view.moves.map((m) => m.path[0]) : []);
  const offered = open ? destinations(view) : new Set();
  const chosen = pick && pick.view === view ? [...pick.prefix, pick.end] : [];
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
      targets.push(clickable(x, y, CELL, CELL, `to ${squareName(view, i)}`, () => choose(view, i)));
    } else if (movable.has(i)) {
      targets.push(clickable(x, y, CELL, CELL, `piece ${squareName(view, i)}`, () => select(view, i)));
    }
  });
  coordinates(svg, view);
  lastAndLine(svg, view);
  drawGhosts(svg, view);
  valueBadges(svg, view);
  svg.append(...targets);
  return svg;
}

function drawBoard() {
  const view = session.view;
  const parts = [];
  if (view.kind === "grid") parts.push(drawGrid(view));
  else if (view.kind === "paths") parts.push(drawCheckers(view));
  else { const pre = document.createElement("pre"); pre.textContent = view.text; parts.push(pre); }
  const note = tag("p", "board-note");
  if (view.scores) note.textContent = Object.entries(view.scores).map(([who, points]) => `${who}: ${points}`).join(" · ");
  else if (pick && pick.view === view && pick.end !== null) note.textContent = "Two ways end there: click the next square of the path.";
  parts.push(note);
  $("board").replaceChildren(...parts);
}

// The move list: each move a button that shows the position after it; the move shown
// is marked; a later move played there starts a new line.
function drawMoves() {
  const list = $("moves");
  const first = session.players.indexOf(session.first);
  const parts = session.moves.length ? ["Moves: "] : [];
  $("to-start").hidden = !session.moves.length;
  $("to-start").classList.toggle("current", session.cursor === 0);
  session.moves.forEach((text, i) => {
    const b = tag("button", "ply", text);
    b.type = "button";
    b.dataset.ply = String(i + 1);
    if ((i + first) % 2 === 0) b.dataset.number = `${Math.floor((i + first) / 2) + 1}.`;
    b.title = `${session.players[(i + first) % 2]} (${session.by[i]})`;
    if (i + 1 === session.cursor) b.classList.add("current");
    b.addEventListener("click", () => goto(i + 1));
    parts.push(b);
    if (i + 1 < session.moves.length) parts.push(" ");
  });
  list.replaceChildren(...parts);
}

function render() {
  drawBoard();
  drawMoves();
  const behind = session.cursor < session.moves.length;
  $("status").textContent = session.over ? session.outcome
    : session.thinking ? `${session.to_move} (${thinker || "computer"}) is thinking…`
    : `${session.to_move} to move${session.to_move === humanSide && !behind ? " (you)" : ""}`
      + (behind ? ` (move ${session.cursor} of ${session.moves.length}: a move here starts a new line)` : "");
  $("thinking").textContent = session.thinking ? `${session.to_move}: ${thinker}` : "";
  $("move").placeholder = session.legal.slice(0, 4).join(", ");
  $("move").title = session.move_help;
  $("record").href = `/api/sessions/${session.id}/record`;
  $("flip").disabled = session.over || session.thinking || humanSide === null;
  document.dispatchEvent(new CustomEvent("zerosum:session", { detail: session })); // analysis.js
}

function showInfo(m) {
  const row = document.createElement("tr");
  $("unit-head").textContent = m.unit; // nodes, or MCTS's simulations
  row.append(cell(m.depth ?? "end"), cell(m.value), cell(m.nodes.toLocaleString()),
    cell(m.nodes_per_second.toLocaleString()), cell(`${m.elapsed.toFixed(2)} s`), cell(m.pv.join(" ")));
  if (m.decided) row.classList.add("decided");
  $("infos").append(row);
  showRoot(m.root || []);
}

// MCTS's root moves: visits, and the figures the search reports beside them.
function showRoot(rows) {
  $("root").hidden = rows.length === 0;
  if (!rows.length) return;
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((k) => k !== "move");
  $("root-head").replaceChildren(...["move", ...keys].map((k) => tag("th", "", k.replaceAll("_", " "))));
  $("root-rows").replaceChildren(...rows.map((r) => {
    const tr = document.createElement("tr");
    tr.append(cell(r.move), ...keys.map((k) => cell(typeof r[k] === "number" ? r[k].toLocaleString() : (r[k] ?? ""))));
    return tr;
  }));
}

function connect() {
  if (socket) socket.close();
  socket = socketTo(`/api/sessions/${session.id}/think`);
  const mine = socket;
  socket.addEventListener("message", (event) => {
    if (socket !== mine) return; // a game left behind: its last messages mean nothing now
    const m = JSON.parse(event.data);
    if (m.type === "started") {
      ghost = [];
      thinker = m.player;
      $("infos").replaceChildren();
      $("result").textContent = "";
      showRoot([]);
      render();
    } else if (m.type === "info") { showInfo(m); ghost = m.pv_marks || []; drawBoard(); }
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
  thinker = player;
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
    // The computer answers (watching, a move by hand is made while paused; a move for
    // the computer's side at an earlier position leaves the person to move).
    if (humanSide !== null && !session.over && session.to_move !== humanSide) think();
  });
}

// Show the position after `ply` moves; the computer waits there until a move is made.
async function goto(ply) {
  if (session.thinking) { showError("The computer is thinking: stop it first."); return; }
  await guarded(async () => {
    session = await api(`/api/sessions/${session.id}/goto`, { ply });
    if (humanSide === null) setPaused(true);
    render();
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
    showRoot([]);
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
  $("to-start").addEventListener("click", () => goto(0));
  // Left and right arrows step through the moves (unless typing in a field).
  document.addEventListener("keydown", (e) => {
    if (!session || e.target.closest("input:not([type=checkbox]), select, textarea") || e.altKey || e.ctrlKey || e.metaKey) return;
    const step = { ArrowLeft: -1, ArrowRight: 1 }[e.key];
    const ply = session.cursor + (step ?? 0);
    if (step && ply >= 0 && ply <= session.moves.length) { e.preventDefault(); goto(ply); }
  });
  $("show-pv").addEventListener("change", drawBoard);
  $("show-values").addEventListener("change", drawBoard);
  // analysis.js tells each move's value as it arrives; the board shows them.
  document.addEventListener("zerosum:values", (event) => { marks = event.detail; if (session) drawBoard(); });
  document.addEventListener("zerosum:goto", (event) => goto(event.detail));
  await newGame();
}

start().catch((e) => showError(e.message));
