// The notebook widget's front end (zerosum.widget, anywidget): play a game on the board,
// watch a search stream its Info lines, step through an explanation. The board comes
// from board.js, the page's board module (board.css its colours); zerosum.widget joins the two into the one
// module anywidget loads. The model holds the state; every action is a message that
// Python checks (the game decides which moves are legal).
import { drawBoard } from "./board.js";

function h(name, attrs = {}, ...children) {
  const node = document.createElement(name);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== false && v !== undefined && v !== null) node.setAttribute(k, v === true ? "" : String(v));
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

function table(head, rows) {
  return h("table", { class: "zs-table" },
    h("tr", {}, ...head.map((t) => h("th", {}, t))),
    ...rows.map((row) => h("tr", {}, ...row.map((t) => h("td", {}, String(t))))));
}

function render({ model, el }) {
  let pick = null; // checkers: the squares chosen so far, kept between drawings
  const root = h("div", { class: "zerosum-widget" });
  el.append(root);
  const send = (message) => model.send(message);

  function draw() {
    const view = model.get("view");
    const thinking = model.get("thinking");
    const over = model.get("over");
    const infos = model.get("infos");
    const marks = thinking && infos.length ? infos[infos.length - 1].marks : [];
    const board = drawBoard(view, {
      title: `${model.get("title")} board`, marks, first: model.get("first"), open: !thinking && !over, over, pick,
      onMove: (text) => send({ type: "move", move: text }),
      onPick: (p) => { pick = p; draw(); },
    });
    const typed = h("input", { class: "zs-move", size: 10, placeholder: model.get("legal").slice(0, 3).join(", ") });
    const player = h("select", { class: "zs-player" },
      ...model.get("players").map((p) => h("option", { value: p, selected: p === model.get("player") }, p)));
    const depth = h("input", { class: "zs-depth", type: "number", min: 1, max: 99, value: model.get("depth"), style: "width:4em" });
    const seconds = h("input", { class: "zs-seconds", type: "number", min: 0.1, step: 0.1, value: model.get("seconds"), style: "width:5em" });
    const controls = h("div", { class: "zs-controls" },
      h("form", { onsubmit: (e) => { e.preventDefault(); if (typed.value.trim()) send({ type: "move", move: typed.value.trim() }); } },
        typed, h("button", { type: "submit", disabled: thinking || over }, "Play")),
      h("label", {}, "player ", player), h("label", {}, " depth ", depth), h("label", {}, " seconds ", seconds),
      h("button", { class: "zs-think", disabled: thinking || over, onclick: () => send({ type: "think",
        player: player.value, depth: Number(depth.value), seconds: Number(seconds.value) }) }, "Computer move"),
      h("button", { class: "zs-stop", disabled: !thinking, onclick: () => send({ type: "stop" }) }, "Stop"),
      h("button", { class: "zs-undo", disabled: thinking || !model.get("moves").length, onclick: () => send({ type: "undo" }) }, "Take back"),
      h("button", { class: "zs-explain", disabled: thinking || over, onclick: () => send({ type: "explain", depth: Number(depth.value) }) }, "Explain"));
    const infoTable = infos.length ? table(["depth", "value", model.get("unit"), "s", "line"],
      infos.map((i) => [i.depth ?? "end", i.value, i.nodes.toLocaleString(), i.elapsed.toFixed(2), i.pv.join(" ")])) : null;
    const moves = model.get("moves");
    const moveList = h("ol", { class: "zs-moves" }, ...moves.map((m) => h("li", {}, m)));
    root.replaceChildren(...[
      h("div", { class: "zs-status" }, model.get("status")),
      h("div", { class: "zs-main", style: "display:flex;gap:1.5em;align-items:flex-start;flex-wrap:wrap" },
        h("div", { class: "zs-board" }, board), h("div", {}, moveList, infoTable, h("p", { class: "zs-result" }, model.get("result")))),
      controls,
      explainer(),
      h("p", { class: "zs-error", style: "color:#b00020" }, model.get("error"))].filter((c) => c !== null));
  }

  // The explanation: one node of the traced search a step, its position drawn.
  function explainer() {
    const steps = model.get("steps");
    if (!steps) return null;
    const step = model.get("step");
    const go = (index) => send({ type: "step", index: Math.max(0, Math.min(steps - 1, index)) });
    const slider = h("input", { class: "zs-step", type: "range", min: 0, max: steps - 1, value: step.index ?? 0,
      onchange: (e) => go(Number(e.target.value)) });
    return h("div", { class: "zs-explainer" },
      h("div", {}, h("button", { class: "zs-prev", onclick: () => go((step.index ?? 0) - 1) }, "\u25C0"), slider,
        h("button", { class: "zs-next", onclick: () => go((step.index ?? 0) + 1) }, "\u25B6"),
        h("span", { class: "zs-step-text" }, ` ${(step.index ?? 0) + 1} / ${steps}: ${step.text || ""}`)),
      step.view ? drawBoard(step.view, { title: "explained position" }) : null);
  }

  for (const name of ["view", "thinking", "over", "infos", "moves", "status", "result", "error", "steps", "step", "legal", "players"]) {
    model.on(`change:${name}`, draw);
  }
  draw();
  return () => root.remove();
}

export default { render };
