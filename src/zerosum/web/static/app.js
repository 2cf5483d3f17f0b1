// The page of `zerosum serve`: choose a game and an opponent, play by clicking or typing,
// watch the computer's search stream its Info lines over a WebSocket, and step through
// the game's moves (analysis.js adds every move's value and the value graph).
import { drawBoard, PV_ARROWS } from "/static/board.js";
import { $, api, cell, socketTo, tag } from "/static/common.js";

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
// The search panel belongs to one position: each search's table is kept by the line
// leading to the position it searched, and the panel shows the one of the position on
// the board (or of the move that led to it), never another position's.
let searches = new Map(); // line -> {ply, side, rows: the table's rows, result, unit, move}
let searching = null; // the line of the search under way
let panelFor = null; // the line whose search the panel holds now
let settingUp = null; // the new game being set up (a promise), or null

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

// The board, drawn by board.js with what this page knows: whose the clicks are, the
// checkers squares picked so far, the latest principal variation, the moves' values.
function showBoard() {
  const view = session.view;
  const open = !session.over && !session.thinking;
  const picked = pick && pick.view === view ? pick : null;
  const showsLine = $("show-pv").checked && session.thinking && ghost.length > 0;
  const first = Math.max(0, session.players.indexOf(session.to_move));
  const parts = [drawBoard(view, {
    title: `${session.title} board`, open, over: session.over, pick: picked,
    onMove: playMove,
    onPick: (p) => { pick = p && { ...p, view }; showBoard(); },
    marks: showsLine ? ghost : [],
    first,
    values: $("show-values").checked && !session.thinking && !session.over ? marks : null,
  })];
  if (showsLine) parts.push(lineLegend(view, first));
  const note = tag("p", "board-note");
  if (view.scores) note.textContent = Object.entries(view.scores).map(([who, points]) => `${who}: ${points}`).join(" · ");
  else if (picked && picked.end !== null) note.textContent = "Two ways end there: click the next square of the path.";
  parts.push(note);
  $("board").replaceChildren(...parts);
}

// What the numbers on the board are: the search's line, whose move each is, in the
// colour board.js draws it (checkers: its first PV_ARROWS moves, as arrows).
function lineLegend(view, first) {
  const n = view.kind === "paths" ? Math.min(PV_ARROWS, ghost.length) : ghost.length;
  const p = tag("p", "legend pv-legend");
  p.append(view.kind === "paths" ? `The search's line, its first ${n} of ${ghost.length} moves as arrows: `
    : "The search's line, numbered: ");
  for (let k = 0; k < Math.min(n, 3); k++) {
    const side = (first + k) % 2 === 0 ? "side-a" : "side-b";
    p.append(tag("span", `swatch ${side}-key`), `${k + 1} ${session.players[(first + k) % 2]}`,
      k + 1 < Math.min(n, 3) ? ", " : n > 3 ? ", …" : ".");
  }
  return p;
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
  // The lines left for another (kept, as lichess keeps them): a click plays one again.
  const lines = session.variations || [];
  $("variations").hidden = lines.length === 0;
  $("variations").replaceChildren(...(lines.length ? ["Other lines: "] : []), ...lines.flatMap((v, k) => {
    const b = tag("button", "ply variation", `${v.at === 0 ? "from the start" : `after ${v.at}.`} ${v.moves.join(" ")}`);
    b.type = "button";
    b.dataset.variation = String(k);
    b.title = "play this line again (the line now played is kept in its place)";
    b.addEventListener("click", () => switchLine(k));
    return k + 1 < lines.length ? [b, " "] : [b];
  }));
}

async function switchLine(index) {
  if (session.thinking) { showError("The computer is thinking: stop it first."); return; }
  await guarded(async () => {
    session = await api(`/api/sessions/${session.id}/line`, { variation: index });
    if (humanSide === null) setPaused(true);
    render();
  });
}

function lineTo(ply) { return session.moves.slice(0, ply).join(" "); }

// Put the panel's table away under its line, and show the one that belongs to the
// position on the board: its own search, else the search that chose the move into it.
function showSearchPanel() {
  if (panelFor !== null && searches.has(panelFor)) {
    const kept = searches.get(panelFor);
    kept.rows = [...$("infos").children];
    kept.result = $("result").textContent;
  }
  const here = lineTo(session.cursor), before = lineTo(session.cursor - 1);
  const chose = session.cursor > 0 && searches.get(before)?.move === session.moves[session.cursor - 1];
  const key = searches.has(here) ? here : chose ? before : null;
  panelFor = key;
  const kept = key === null ? null : searches.get(key);
  $("infos").replaceChildren(...(kept ? kept.rows : []));
  $("result").textContent = kept ? kept.result : "";
  if (kept) $("unit-head").textContent = kept.unit;
  $("value-head").textContent = kept ? `value for ${kept.side}` : "value";
  if (!kept) showRoot([]);
  const where = (ply) => ply === 0 ? "the start" : `the position after move ${ply}`;
  $("search-of").textContent = !kept ? (searches.size
    ? `No search of this position (${where(session.cursor)}) yet.` : "")
    : key === here ? `The search of ${where(kept.ply)}, ${kept.side} to move.`
    : `The search that chose move ${session.cursor} (${kept.move}), from ${where(kept.ply)}.`;
}

function render() {
  showBoard();
  drawMoves();
  showSearchPanel();
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
  const under = searches.get(searching);
  if (under) under.unit = m.unit;
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
      // The search's values are its own side's, the side to move (docs/search.md).
      searching = lineTo(session.cursor);
      searches.set(searching, { ply: session.cursor, side: session.to_move, rows: [],
        result: "", unit: "nodes", move: null });
      panelFor = null; // the panel now shows this search's table, empty so far
      $("infos").replaceChildren();
      $("result").textContent = "";
      showRoot([]);
      render();
    } else if (m.type === "info") { showInfo(m); ghost = m.pv_marks || []; showBoard(); }
    else if (m.type === "result") {
      const done = searches.get(searching);
      if (done) { done.move = m.move; done.unit = m.unit; }
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
  // A move made while a new game of the same game is being set up (a click on the old
  // board, or Enter) is the new game's first move, not the old one's last.
  if (settingUp) {
    const game = session?.game;
    await settingUp;
    if (!session || session.game !== game) return;
  }
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

// New games are set up one after another: two at once would leave two sessions on one
// socket.
async function newGame() {
  const setup = (settingUp ?? Promise.resolve()).then(setUpGame);
  settingUp = setup;
  try { return await setup; } finally { if (settingUp === setup) settingUp = null; }
}

async function setUpGame() {
  return guarded(async () => {
    const position = spec().position ? $("position").value.trim() : "";
    session = await api("/api/sessions", { game: $("game").value, options: options(), position });
    ownSide = session.players[$("computer-first").checked ? 1 : 0];
    humanSide = $("player2").value === "" ? ownSide : null;
    setPaused(false);
    searches = new Map();
    panelFor = searching = null;
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
  // A link may choose the game, its options, the opponent, who plays your side and who
  // starts: ?game=connect4&width=6&player=mcts&side=engine&first=computer
  const query = new URLSearchParams(location.search);
  const chosen = games.some((g) => g.name === query.get("game")) ? query.get("game") : "tictactoe";
  $("game").value = games.some((g) => g.name === chosen) ? chosen : games[0].name;
  fillChoices();
  for (const field of $("options").querySelectorAll("[data-option]")) {
    const given = query.get(field.dataset.option);
    // A choice not offered is left as it is (the server checks a typed value anyway).
    if (given !== null && (field.tagName !== "SELECT" || [...field.options].some((o) => o.value === given))) field.value = given;
  }
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
  $("show-pv").addEventListener("change", showBoard);
  $("show-values").addEventListener("change", showBoard);
  // analysis.js tells each move's value as it arrives; the board shows them.
  document.addEventListener("zerosum:values", (event) => { marks = event.detail; if (session) showBoard(); });
  document.addEventListener("zerosum:goto", (event) => goto(event.detail));
  await newGame();
  // The two forms' buttons come disabled: submitted before their listeners were attached,
  // a form would reload the page, and submitted while the first game is being set up, it
  // would set up a second one alongside (two sessions, one socket). A click or Enter made
  // meanwhile waits for them.
  for (const button of document.querySelectorAll("#setup [type=submit], #typed [type=submit]")) button.disabled = false;
}

start().catch((e) => showError(e.message));
