// Connect Four analysis: for the position on the board, every column's value, the
// engine's quick estimate first, then the solver's proven verdict as each arrives over
// the session's analysis WebSocket. app.js announces each position with a
// "zerosum:session" event; this panel shows itself for Connect Four only.
const $ = (id) => document.getElementById(id);
const SECONDS = 10; // the time budget unless one is typed; the server caps it too

let session = null;
let socket = null;

function panel() { return $("analysis"); }

function cells() { return [...panel().querySelectorAll(".analysis-column")]; }

function cellOf(column) { return panel().querySelector(`.analysis-column[data-column="${column}"]`); }

function setup() {
  panel().innerHTML = `<h2>Analysis</h2>
    <div class="analysis-controls"><button type="button" id="analyse">Analyse</button>
    <button type="button" id="analyse-stop" disabled>Stop</button>
    <label class="analysis-budget">within <input id="analysis-seconds" type="number" min="0.1"
      max="60" step="0.1" value="${SECONDS}" size="4"> s</label>
    <span id="analysis-status" role="status"></span></div>
    <div id="analysis-row" class="analysis-row"></div>`;
  $("analyse").addEventListener("click", analyse);
  $("analyse-stop").addEventListener("click", () => socket?.send(JSON.stringify({ type: "stop" })));
}

function columnsOf(width) {
  const row = $("analysis-row");
  row.style.gridTemplateColumns = `repeat(${width}, 1fr)`;
  row.replaceChildren(...Array.from({ length: width }, (_, i) => {
    const div = document.createElement("div");
    div.className = "analysis-column";
    div.dataset.column = String(i + 1);
    div.innerHTML = `<span class="analysis-label">${i + 1}</span><span class="analysis-verdict"></span>
      <span class="analysis-note"></span>`;
    return div;
  }));
}

function show(column, text, kind) {
  const div = cellOf(column);
  if (!div) return;
  div.className = `analysis-column ${kind}`;
  div.querySelector(".analysis-verdict").textContent = text;
}

function finish(text) {
  $("analysis-status").textContent = text;
  $("analyse").disabled = false;
  $("analyse-stop").disabled = true;
  socket?.close();
  socket = null;
}

function onMessage(m) {
  if (m.type === "started") {
    $("analysis-status").textContent = `solving (up to ${m.seconds} s)…`;
    for (const div of cells()) {
      if (!m.columns.includes(div.dataset.column)) show(div.dataset.column, "full", "full");
    }
  } else if (m.type === "estimate") {
    if (!cellOf(m.column)?.classList.contains("proven")) {
      show(m.column, `≈ ${m.value > 0 ? "+" : ""}${m.value.toFixed(3)}`, "estimate");
    }
  } else if (m.type === "column") {
    show(m.column, m.verdict, `proven ${m.outcome}`);
  } else if (m.type === "done") {
    for (const column of m.unproven) {
      const div = cellOf(column);
      div.classList.add("unproven");
      div.querySelector(".analysis-note").textContent = "not proven";
      div.title = m.stopped ? "stopped before it was proven: the engine's estimate"
        : "time's up before it was proven: the engine's estimate";
    }
    finish(m.unproven.length === 0 ? "done: every column proven"
      : `${m.stopped ? "stopped" : "time's up"}: ${m.unproven.length} column(s) not proven (engine estimate shown)`);
  } else {
    finish(m.error);
  }
}

function analyse() {
  if (!session || socket) return;
  columnsOf(session.view.cols);
  $("analyse").disabled = true;
  $("analyse-stop").disabled = false;
  $("analysis-status").textContent = "starting…";
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/api/sessions/${session.id}/analysis`);
  const seconds = Number($("analysis-seconds").value) || SECONDS;
  socket.addEventListener("open", () => socket.send(JSON.stringify({ type: "analyse", seconds })));
  socket.addEventListener("message", (event) => onMessage(JSON.parse(event.data)));
  socket.addEventListener("close", () => { if (socket) finish("the connection closed"); });
}

document.addEventListener("zerosum:session", (event) => {
  const next = event.detail;
  const moved = !session || next.id !== session.id || next.moves.length !== session.moves.length;
  session = next;
  panel().hidden = session.game !== "connect4";
  if (!moved) return;
  if (socket) { const s = socket; socket = null; s.close(); } // a new position: a new analysis
  $("analyse").disabled = session.over || session.thinking;
  $("analyse-stop").disabled = true;
  $("analysis-status").textContent = "";
  $("analysis-row").replaceChildren();
});

setup();
