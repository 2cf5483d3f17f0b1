// What every page of `zerosum serve` shares: element lookup, SVG elements, the JSON API
// and the sockets. One module, imported by app.js, analysis.js and explain.js.
export const $ = (id) => document.getElementById(id);
export const SVG = "http://www.w3.org/2000/svg";

// An SVG element with its attributes (and text).
export function el(name, attrs = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

// An HTML element with its class (and text).
export function tag(name, className = "", text) {
  const node = document.createElement(name);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// GET `path`, or POST `body` to it as JSON; the answer's JSON, or an Error with the
// server's one-line reason.
export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

// A WebSocket to `path` on this server (wss where the page came over https).
export function socketTo(path) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return new WebSocket(`${scheme}://${location.host}${path}`);
}

// A table cell with its text.
export function cell(text) { return tag("td", "", String(text)); }
