// The training page: a run of `zerosum train` watched as it goes. The run's state is
// asked for again every few seconds (the server reads the run's files); the curve and
// the ratings are drawn as SVG here. On a position, each move's learned value is shown
// beside its exact value (the server's solver). Every text is set as text, never HTML.
import { $, api, el, tag } from "/static/common.js";
import { drawBoard } from "/static/board.js";

const REFRESH_MS = 3000;
const COLOURS = ["#2b7bba", "#d9622b", "#2e9e5b", "#b23a8f", "#8a6d1f", "#5c5fd6", "#1a9fa0",
                 "#c9a100", "#7d7d7d"];  // nine: Samuel's weights each their own
const PAD = { left: 52, right: 16, top: 12, bottom: 40 };
let W = 640, H = 300;  // a chart's size in its own units: the width it is shown at, so
                       // that its text keeps its size on a phone

function fit(box) {
  W = Math.max(300, Math.min(640, Math.round(box.clientWidth || 640)));
  H = Math.round(Math.max(220, W * 0.47));
}

// The line of the position shown; a link may give one: /train?moves=4+4+3
let moves = (new URLSearchParams(location.search).get("moves") || "").split(/\s+/).filter(Boolean);
let stamp = null;    // the run's games at the last drawing of the position

function scale(lo, hi, from, to) {
  const span = hi - lo || 1;
  return (x) => from + (x - lo) / span * (to - from);
}

function ticks(lo, hi, n) {
  const step = Math.pow(10, Math.floor(Math.log10((hi - lo) / n || 1)));
  const nice = [1, 2, 5, 10].map((k) => k * step).find((s) => (hi - lo) / s <= n) || step * 10;
  const out = [];
  for (let t = Math.ceil(lo / nice) * nice; t <= hi + 1e-9; t += nice) out.push(+t.toFixed(6));
  return out;
}

// Axes and grid of a chart from (x0, x1) by (y0, y1), with labels.
function axes(svg, xs, ys, x0, x1, y0, y1, xLabel, yLabel) {
  for (const t of ticks(y0, y1, 5)) {
    svg.append(el("line", { x1: PAD.left, x2: W - PAD.right, y1: ys(t), y2: ys(t), class: "grid" }));
    svg.append(el("text", { x: PAD.left - 6, y: ys(t) + 4, "text-anchor": "end", class: "label" }, String(t)));
  }
  for (const t of ticks(x0, x1, 6)) {
    svg.append(el("text", { x: xs(t), y: H - PAD.bottom + 16, "text-anchor": "middle", class: "label" },
      t.toLocaleString("en")));
  }
  svg.append(el("line", { x1: PAD.left, x2: W - PAD.right, y1: H - PAD.bottom, y2: H - PAD.bottom, class: "axis" }));
  svg.append(el("line", { x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: H - PAD.bottom, class: "axis" }));
  svg.append(el("text", { x: (PAD.left + W - PAD.right) / 2, y: H - 6, "text-anchor": "middle", class: "label" }, xLabel));
  svg.append(el("text", { x: 12, y: (PAD.top + H - PAD.bottom) / 2, "text-anchor": "middle", class: "label",
    transform: `rotate(-90 12 ${(PAD.top + H - PAD.bottom) / 2})` }, yLabel));
}

// Lines of (games, y) points, one a series, in the box `box` with its key in `key`.
function drawLines(box, key, series, yLabel, fromZero, unit, empty) {
  const names = Object.keys(series);
  const points = names.flatMap((n) => series[n]);
  fit($(box));
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `${yLabel} against games` });
  const x1 = Math.max(1, ...points.map((p) => p[0]));
  const y0 = fromZero ? 0 : Math.min(0, ...points.map((p) => p[1]));
  const y1 = Math.max(fromZero ? 5 : 1, ...points.map((p) => p[1]));
  const xs = scale(0, x1, PAD.left, W - PAD.right), ys = scale(y0, y1, H - PAD.bottom, PAD.top);
  axes(svg, xs, ys, 0, x1, y0, y1, "self-play games", yLabel);
  names.forEach((name, i) => {
    const c = COLOURS[i % COLOURS.length];
    const line = series[name].map((p) => `${xs(p[0]).toFixed(1)},${ys(p[1]).toFixed(1)}`).join(" ");
    svg.append(el("polyline", { points: line, class: "curve", stroke: c, "data-set": name }));
    for (const p of series[name]) {
      const dot = el("circle", { cx: xs(p[0]), cy: ys(p[1]), r: 3.5, fill: c });
      dot.append(el("title", {}, `${name}: ${p[1].toFixed(1)}${unit} after ${p[0].toLocaleString("en")} games`));
      svg.append(dot);
    }
  });
  $(box).replaceChildren(points.length ? svg : tag("p", "legend", empty));
  $(key).replaceChildren(...names.map((name, i) => {
    const s = tag("span", "", name);
    s.style.setProperty("--c", COLOURS[i % COLOURS.length]);
    return s;
  }));
}

function drawCurve(curves) {
  drawLines("curve", "curve-key", curves, "mistakes, %", true, " %", "No checkpoint graded yet.");
}

// The evaluation's weights at each checkpoint (a method that keeps them: Samuel's).
function drawWeights(weights) {
  $("weights-section").hidden = !Object.keys(weights || {}).length;
  if (!$("weights-section").hidden) {
    drawLines("weights", "weights-key", weights, "weight", false, "", "");
  }
}

function games(name) { return Number(name.split("-").pop()); }

function drawRatings(ratings, best) {
  const rows = ratings.slice().sort((a, b) => games(a.checkpoint) - games(b.checkpoint));
  if (rows.length < 2) {
    $("rating-chart").replaceChildren(tag("p", "legend", "Ratings come once two checkpoints have played."));
  } else {
    fit($("rating-chart"));
    const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "checkpoint ratings" });
    const x1 = Math.max(...rows.map((r) => games(r.checkpoint)));
    const y0 = Math.min(...rows.map((r) => r.low)), y1 = Math.max(...rows.map((r) => r.high));
    const xs = scale(0, x1, PAD.left, W - PAD.right), ys = scale(y0, y1, H - PAD.bottom, PAD.top);
    axes(svg, xs, ys, 0, x1, y0, y1, "self-play games", "Elo (mean 0)");
    for (const r of rows) {
      const x = xs(games(r.checkpoint));
      const colour = r.checkpoint === best ? "#d9622b" : "#7a4fb5";
      svg.append(el("line", { x1: x, x2: x, y1: ys(r.low), y2: ys(r.high), stroke: colour, class: "rating" }));
      const dot = el("circle", { cx: x, cy: ys(r.elo), r: 4.5, fill: colour });
      dot.append(el("title", {}, `${r.checkpoint}: ${r.elo} Elo [${r.low}, ${r.high}]`));
      svg.append(dot);
    }
    $("rating-chart").replaceChildren(svg);
  }
  $("ratings").querySelector("tbody").replaceChildren(...ratings.map((r) => {
    const tr = tag("tr", r.checkpoint === best ? "best" : "");
    const name = r.checkpoint === best ? `${r.checkpoint} (best)` : r.checkpoint;
    for (const [text, cls] of [[name, ""], [r.games, "n"], [r.points, "n"],
      [(r.elo > 0 ? "+" : "") + r.elo.toFixed(0), "n"], [`[${r.low.toFixed(0)}, ${r.high.toFixed(0)}]`, ""]]) {
      tr.append(tag("td", cls, String(text)));
    }
    return tr;
  }));
}

function describeGate(g) {
  if (!g.against) return `${g.checkpoint}: the first, best at once`;
  const verdict = { H1: "the new best", H0: "not stronger" }[g.decision] || "no decision";
  return `${g.checkpoint} against ${g.against}: ${g.games} games, LLR ${g.llr.toFixed(2)}, ${verdict}`;
}

async function refresh() {
  let run;
  try {
    run = await api("/api/train");
  } catch (error) {
    $("summary").textContent = `The run cannot be read: ${error.message}`;
    return;
  }
  const p = run.progress;
  const perSecond = p ? p.per_second : run.speed.length ? run.speed[run.speed.length - 1][1] : null;
  const rate = perSecond === null ? "" : `${perSecond.toFixed(perSecond >= 10 ? 0 : 1)} games/s`;
  const left = p && p.seconds_left !== null ? `, ${Math.round(p.seconds_left)} s left` : "";
  const played = p ? p.games : run.games;
  $("summary").textContent = `${run.title}, ${run.method}: ${played.toLocaleString("en")} games` +
    `${rate ? `, ${rate}` : ""}${left}; last checkpoint at ${run.games.toLocaleString("en")} games`;
  drawCurve(run.curves);
  drawWeights(run.weights);
  drawRatings(run.ratings, run.best);
  const gates = run.gates.slice(-4).map(describeGate);
  $("gates").textContent = gates.length ? `Gates (SPRT against the best): ${gates.join("; ")}.` : "";
  $("speed").textContent = run.speed.length
    ? `Games per second at each checkpoint: ${run.speed.map((s) => s[1]).join(", ")}.` : "";
  const options = Object.entries(run.options).map(([k, v]) => `&${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("");
  $("play").href = `/?game=${encodeURIComponent(run.game)}${options}&player=${encodeURIComponent(run.player)}`;
  if (stamp !== run.games) {
    stamp = run.games;
    await showPosition();
    await showHeat();
  }
}

async function showPosition() {
  let data;
  try {
    data = await api(`/api/train/position?moves=${encodeURIComponent(moves.join(" "))}`);
  } catch (error) {
    $("line").textContent = error.message;
    moves = [];
    return;
  }
  const values = new Map(data.values.map((v) => [v.move, {
    outcome: v.exact || "estimate", label: (v.learned > 0 ? "+" : "") + v.learned.toFixed(2),
    title: `learned ${v.learned.toFixed(3)}, exact ${v.exact || "not settled"}`,
  }]));
  const board = drawBoard(data.view, { open: !data.over, values, onMove: (m) => { moves.push(m); showPosition(); } });
  $("position-board").replaceChildren(board);
  $("line").textContent = moves.length ? `after ${moves.join(" ")}` : "the start";
  $("values").querySelector("tbody").replaceChildren(...data.values.map((v) => {
    const tr = tag("tr");
    tr.append(tag("td", "", v.move), tag("td", "n", (v.learned > 0 ? "+" : "") + v.learned.toFixed(3)),
      tag("td", v.mistake ? "mistake" : "", v.exact ? `${v.exact}${v.mistake ? " (a mistake)" : ""}` : "not settled"));
    return tr;
  }));
}

async function showHeat() {
  const data = (await api("/api/train/heat")).heat;
  $("heat-section").hidden = !data;
  if (!data) return;
  const size = 48;
  const top = Math.max(...data.cells) || 1;
  const svg = el("svg", { viewBox: `0 0 ${data.cols * size} ${data.rows * size}`, role: "img",
    "aria-label": "what each cell weighs" });
  data.cells.forEach((w, i) => {
    const r = Math.floor(i / data.cols), c = i % data.cols;
    const cell = el("rect", { x: c * size, y: r * size, width: size - 2, height: size - 2,
      fill: "#d9622b", "fill-opacity": (0.08 + 0.92 * w / top).toFixed(3), "data-weight": w });
    cell.append(el("title", {}, `row ${r + 1}, column ${c + 1}: ${w.toPrecision(3)}`));
    svg.append(cell);
    svg.append(el("text", { x: c * size + size / 2 - 1, y: r * size + size / 2 + 4, "text-anchor": "middle",
      class: "cell-text" }, (w / top).toFixed(2)));
  });
  $("heat").replaceChildren(svg);
}

$("start").addEventListener("click", () => { moves = []; showPosition(); });
$("back").addEventListener("click", () => { moves.pop(); showPosition(); });
refresh();
setInterval(refresh, REFRESH_MS);
