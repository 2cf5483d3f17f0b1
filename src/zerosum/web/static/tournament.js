// The tournament page: the standings and the finished games, asked for again every few
// seconds while the tournament is played, and a chosen game replayed move by move on the
// board the other pages draw (board.js). Every text comes from the server and is set as
// text, never as HTML: an agent's name is a student's folder name.
import { $, api, tag } from "/static/common.js";
import { drawBoard } from "/static/board.js";

const REFRESH_MS = 3000;  // how often the standings are asked for
const STEP_MS = 700;      // a move's time when a game is played back

let shown = null;   // the game replayed: the server's answer
let ply = 0;        // how many of its plies are on the board
let player = null;  // the timer playing it back

function row(cells, classes = []) {
  const tr = tag("tr");
  cells.forEach((text, i) => tr.append(tag("td", classes[i] || "", String(text))));
  return tr;
}

async function refresh() {
  let data;
  try {
    data = await api("/api/tournament");
  } catch (error) {
    $("summary").textContent = `The tournament cannot be read: ${error.message}`;
    return;
  }
  const of = data.total === null ? "" : ` of ${data.total}`;
  $("summary").textContent = `${data.game}: ${data.played}${of} games played`;
  const standings = $("standings").querySelector("tbody");
  standings.replaceChildren(...data.standings.map((r, i) => row(
    [i + 1, r.name, r.games, r.points, r.elo, r.interval], ["n", "", "n", "n", "n", ""])));
  const games = $("games").querySelector("tbody");
  games.replaceChildren(...data.games.map((g) => {
    const tr = row([g.number, g.first, g.second, g.score, g.reason], ["n"]);
    tr.dataset.number = g.number;
    if (shown && shown.number === g.number) tr.classList.add("chosen");
    tr.addEventListener("click", () => open(g.number));
    return tr;
  }));
  if (!shown && data.games.length) open(data.games[0].number);
}

async function open(number) {
  stop();
  shown = await api(`/api/tournament/games/${number}`);
  $("replay-title").textContent =
    `Game ${shown.number}: ${shown.first} – ${shown.second}, ${shown.score} (${shown.reason})`;
  $("ply").max = shown.plies.length - 1;
  for (const tr of $("games").querySelectorAll("tbody tr")) {
    tr.classList.toggle("chosen", Number(tr.dataset.number) === number);
  }
  go(shown.plies.length - 1);
}

function go(to) {
  if (!shown) return;
  ply = Math.max(0, Math.min(to, shown.plies.length - 1));
  const p = shown.plies[ply];
  $("replay-board").replaceChildren(drawBoard(p.view));
  $("ply").value = ply;
  const what = ply === 0 ? "the start" : p.move ? `move ${ply}: ${p.move} by ${p.by}`
    : `move ${ply}: ${p.by} ${p.note}`;
  $("ply-note").textContent = what;
}

function stop() {
  if (player !== null) clearInterval(player);
  player = null;
  $("play").textContent = "Play";
}

$("first").addEventListener("click", () => { stop(); go(0); });
$("back").addEventListener("click", () => { stop(); go(ply - 1); });
$("forward").addEventListener("click", () => { stop(); go(ply + 1); });
$("last").addEventListener("click", () => { stop(); go(Infinity); });
$("ply").addEventListener("input", () => { stop(); go(Number($("ply").value)); });
$("play").addEventListener("click", () => {
  if (player !== null) { stop(); return; }
  if (!shown) return;
  if (ply >= shown.plies.length - 1) go(0);
  $("play").textContent = "Pause";
  player = setInterval(() => {
    if (ply >= shown.plies.length - 1) stop(); else go(ply + 1);
  }, STEP_MS);
});

refresh();
setInterval(refresh, REFRESH_MS);
