// Tabletop Companion's page shell: what every game's screens share. It holds the token, follows
// the live stream, and draws the shared panels (alerts, questions, pairing, legal actions, the
// referee's tools, the card-code fallback, the replay's timeline); the game's own screen module,
// served from its package, draws the board and the bookkeeping (docs/web.md: "A game's screen").
// Views come already filtered for this screen's role: nothing here hides anything itself, and
// no game or role is named here: the view says which game it is and which roles it has.
"use strict";

const page = document.body.dataset.page;
const fragment = new URLSearchParams(location.hash.slice(1));
const token = fragment.get("token") || "";  // a paired device's, in the fragment: never sent in a URL
const pairSecret = fragment.get("pair") || "";  // a one-time pairing secret from the referee's QR code
const svgNS = "http://www.w3.org/2000/svg";
const SVG_TAGS = new Set(["svg", "g", "line", "polyline", "polygon", "path", "circle", "ellipse",
  "rect", "text", "tspan", "title", "defs", "use", "marker"]);

let about = null;   // the game: {name, title, roles, players, screen, missing}
let screen = null;  // the game's screen once mounted: {render(state)}

function api(path, options = {}) {
  const headers = Object.assign({}, options.headers || {});
  if (token) headers.Authorization = "Bearer " + token;
  if (options.body) headers["Content-Type"] = "application/json";
  return fetch(path, Object.assign({}, options, { headers }));
}

async function json(path) {
  const response = await api(path);
  if (!response.ok) throw new Error(path + ": " + response.status + " " + response.statusText);
  return response.json();
}

function el(tag, attrs = {}, text = "") {
  const node = SVG_TAGS.has(tag) ? document.createElementNS(svgNS, tag) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== "") node.textContent = text;
  return node;
}

function panel(id) { return document.getElementById(id); }

function show(target, visible) {
  const node = typeof target === "string" ? panel(target) : target;
  if (node) node.hidden = !visible;
}

function isPlayer(role) { return Boolean(about && about.roles.includes(role)); }

// --- the game's screen module -----------------------------------------------------------------

function gamePanel(id, title = "") {
  // A side panel for the game's screen, created once, in the order the screen asks for them.
  let box = panel(id);
  if (!box) {
    box = el("section", { id, class: "panel game-panel" });
    if (title) box.append(el("h2", {}, title));
    panel("game-panels").append(box);
  }
  return box;
}

function noScreen(sentence) {
  const note = panel("no-screen");
  note.textContent = sentence + ": its board is not drawn here, but its actions, questions and pairing work as for any game.";
  show(note, true);
}

function renderPlainFacts(view) {
  // Without the game's screen, at least the view's plain facts (turn, phase, who is active).
  const box = gamePanel("plain-facts", "The position");
  const table = el("table");
  for (const [key, value] of Object.entries(view)) {
    if (value === null || typeof value === "object" || key === "role") continue;
    const tr = el("tr", { "data-key": key });
    tr.append(el("th", {}, key.replaceAll("_", " ")), el("td", {}, String(value)));
    table.append(tr);
  }
  box.replaceChildren(el("h2", {}, "The position"), table);
}

async function mountScreen(boardPath) {
  // The game's module draws its board from the kit's data and each view; without one, a
  // sentence says so and the shared panels carry on.
  if (!about.screen) { noScreen(about.missing || about.title + " has no tablet screen yet"); return null; }
  const shell = {
    page, game: about, main: panel("screen"), el, show, isPlayer, act,
    panel: gamePanel,
    board: (parts = []) => json(boardPath + (parts.length ? "?parts=" + parts.map(encodeURIComponent).join(",") : "")),
  };
  try {
    const module = await import(about.screen);
    return await module.mount(shell);
  } catch (error) {
    console.error(error);
    noScreen(about.title + "'s screen could not be drawn (" + error.message + ")");
    return null;
  }
}

// --- the shared panels --------------------------------------------------------------------------

function renderHeader(state) {
  document.body.classList.toggle("paused", Boolean(state.paused));
  panel("game-title").textContent = about ? "· " + about.title : "";
  if (about) document.title = about.title + " · " + (page === "replay" ? "replay" : state.role) + " · Tabletop Companion";
  panel("role").textContent = state.role;
  const view = state.view || {};
  const waiting = (state.to_move || []).join(", ");
  const parts = [];
  if (view.outcome) parts.push("game over", view.outcome.winner ? "winner: " + view.outcome.winner : "a draw");
  else {
    if (view.phase) parts.push(String(view.phase).replaceAll("_", " "));
    if (waiting) parts.push("to act: " + waiting);
  }
  panel("status").textContent = parts.join(" · ");
}

function renderAlert(alert) {
  const box = panel("alert");
  if (!box) return;
  show(box, Boolean(alert));
  if (!alert) return;
  box.replaceChildren(el("h2", {}, "Refused: rule " + alert.rule), el("p", {}, alert.message));
  if (alert.legal.length) box.append(el("p", {}, "Legal: " + alert.legal.slice(0, 6).join(", ")));
}

function renderPairing(pairing) {
  // The referee's screen only: each role's QR code on offer, or the code the phone that
  // claimed it shows, to compare and confirm.
  const box = panel("pairing");
  if (!box) return;
  const roles = Object.keys(pairing || {});
  show(box, roles.length > 0);
  box.replaceChildren(el("h2", {}, "Pair a phone"));
  for (const role of roles) {
    const offer = pairing[role];
    const figure = el("figure", { class: "qr", "data-role": role });
    if (offer.qr) {
      figure.innerHTML = offer.qr;  // an SVG drawn by the server from the pairing link
      figure.append(el("figcaption", {}, role + ": scan with the player's phone"));
    } else {
      figure.append(el("p", { class: "pair-code" }, offer.code));
      const confirm = el("button", { "data-confirm": role }, "Confirm " + role + "'s phone shows " + offer.code);
      confirm.addEventListener("click", () =>
        post("/api/pair/" + encodeURIComponent(role) + "/confirm", { code: offer.code }));
      figure.append(confirm);
    }
    box.append(figure);
  }
}

async function claimPairing() {
  // A phone opened from the QR code: it claims the one-time secret, shows the code the
  // referee confirms, and becomes the player's screen once confirmed.
  const response = await fetch("/api/pair/claim", { method: "POST",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify({ pair: pairSecret }) });
  const body = await response.json().catch(() => ({}));
  const note = panel("no-screen");
  show(note, true);
  if (!response.ok) { note.textContent = body.message || "This pairing code cannot be used: ask the referee for a new one."; return; }
  history.replaceState(null, "", "#token=" + encodeURIComponent(body.token));
  note.replaceChildren(el("span", {}, "Show this code to the referee:"),
    el("strong", { id: "pair-code" }, body.code),
    el("span", {}, "This screen opens as your side's once the referee confirms it."));
  const headers = { Authorization: "Bearer " + body.token };
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const view = await fetch("/api/view", { headers }).then((r) => r.json()).catch(() => null);
    if (view && view.role !== "public") { location.reload(); return; }
  }
}

async function problem(response) {
  const body = await response.json().catch(() => ({ message: response.statusText }));
  renderAlert({ rule: body.rule || String(response.status), message: body.message || "", legal: body.legal || [] });
}

async function act(body) {
  const response = await api("/api/action", { method: "POST", body: JSON.stringify(body) });
  if (!response.ok) await problem(response);
  return response.ok;
}

function renderOptions(state) {
  const box = panel("options");
  if (!box) return;
  const mine = page !== "table" && state.legal && state.legal.length;
  show(box, Boolean(mine));
  if (!mine) return;
  box.replaceChildren(el("h2", {}, "What you may do"));
  for (const text of state.legal.slice(0, 200)) {
    const button = el("button", { "data-action": text }, text);
    button.addEventListener("click", () => act({ text }));
    box.append(button);
  }
}

function renderQuestion(state) {
  const box = panel("questions");
  if (!box) return;
  const question = state.question;
  show(box, Boolean(question));
  if (!question) return;
  box.replaceChildren(el("h2", {}, "Question for " + question.by), el("p", {}, question.text));
  question.options.forEach((text, index) => {
    const button = el("button", { "data-choice": String(index) }, text);
    if (index === question.highlighted) button.classList.add("highlighted");  // the table's confirm picks it
    button.addEventListener("click", () =>
      api("/api/answer", { method: "POST", body: JSON.stringify({ choice: index }) }));
    box.append(button);
  });
}

function renderInputs(state) {
  const list = panel("inputs");
  if (!list) return;
  list.replaceChildren(...(state.inputs || []).slice(-5).reverse().map((i) => el("li", {}, i.code + " (" + i.reader + ")")));
}

function renderReferee(state) {
  const field = panel("action-text");
  if (field && state.legal && state.legal.length) field.placeholder = state.legal[0];
}

function render(state) {
  if (!state.view) return;
  renderHeader(state);
  renderAlert(state.alert);
  renderQuestion(state);
  renderInputs(state);
  renderPairing(state.pairing);
  renderOptions(state);
  if (page === "referee") renderReferee(state);
  if (screen) {
    try { screen.render(state); } catch (error) { console.error(error); }
  } else {
    renderPlainFacts(state.view);
  }
  const version = panel("version");
  version.dataset.version = String(state.version);
  version.textContent = "v" + state.version;
}

// --- the referee's tools and the card-code fallback ------------------------------------------------

function post(path, body) {
  return api(path, { method: "POST", body: JSON.stringify(body) }).then(async (response) => {
    if (!response.ok) await problem(response);
    return response;
  });
}

function refereeTools() {
  show("referee-tools", true);
  panel("free-action").addEventListener("submit", (event) => {
    event.preventDefault();
    act({ text: panel("action-text").value });
  });
  panel("correction").addEventListener("submit", (event) => {
    event.preventDefault();
    post("/api/correct", {
      args: { block: panel("correct-block").value, to: panel("correct-to").value },
      by: "referee", note: panel("correct-note").value });
  });
  panel("undo").addEventListener("click", () => post("/api/undo", {}));
  panel("pause").addEventListener("click", () =>
    post("/api/pause", { paused: !document.body.classList.contains("paused") }));
  for (const role of about.roles) {
    const button = el("button", { "data-pair": role }, "Pair " + role);
    button.addEventListener("click", () => post("/api/pair/" + encodeURIComponent(role), {}));
    panel("pair-buttons").append(button);
  }
}

function scanFallback() {
  show("scan", true);
  panel("scan-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const field = panel("scan-code");
    await post("/api/scan", { code: field.value });
    field.value = "";
  });
}

// --- the two kinds of page: live and replay ------------------------------------------------------

async function live() {
  const first = await json("/api/view");
  about = first.game;
  screen = await mountScreen("/api/board");
  if (page !== "table" && token) scanFallback();
  if (page === "referee") refereeTools();
  render(first);
  const source = new EventSource("/stream" + (token ? "?token=" + encodeURIComponent(token) : ""));
  source.addEventListener("view", (event) => render(JSON.parse(event.data)));
}

async function replayViewer() {
  const game = document.body.dataset.gameId;
  const scrubber = panel("scrubber");
  const first = await json("/api/replay/" + game + "?at=0");
  about = first.game;
  screen = await mountScreen("/api/replay/" + game + "/board");
  function draw(data) {
    scrubber.max = String(data.total);
    scrubber.value = String(data.at);
    panel("position").textContent = data.at + " / " + data.total;
    panel("last-action").textContent = data.action || "";
    render({ role: data.role, version: data.at, view: data.view, to_move: data.to_move,
      legal: [], alert: null, pairing: {} });
  }
  let asked = 0;  // only the position asked for last is drawn, whatever order answers come in
  async function go(where) {  // a position, or the promise of one (the next turn's)
    const mine = ++asked;
    const at = await where;
    const data = await json("/api/replay/" + game + "?at=" + at);
    if (mine === asked) draw(data);
  }
  async function turn(direction) {
    const data = await json("/api/replay/" + game + "/turns");
    const here = Number(scrubber.value);
    const marks = direction > 0 ? data.turns.filter((n) => n > here) : data.turns.filter((n) => n < here).reverse();
    return marks.length ? marks[0] : (direction > 0 ? data.total : 0);
  }
  scrubber.addEventListener("input", () => go(scrubber.value));
  panel("turn-back").addEventListener("click", () => go(turn(-1)));
  panel("turn-next").addEventListener("click", () => go(turn(1)));
  panel("step-back").addEventListener("click", () => go(Math.max(0, Number(scrubber.value) - 1)));
  panel("step-next").addEventListener("click", () => go(Number(scrubber.value) + 1));
  draw(first);
}

(page === "replay" ? replayViewer() : pairSecret ? claimPairing() : live())
  .catch((error) => console.error(error));
setInterval(() => { panel("clock").textContent = new Date().toLocaleTimeString(); }, 1000);
