// Tabletop Companion screens: draw the board once, then render every view the server pushes.
// Views come already filtered for this screen's role: this code never hides anything itself.
"use strict";

const page = document.body.dataset.page;
const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
const svgNS = "http://www.w3.org/2000/svg";
let board = null;

function api(path, options = {}) {
  const headers = Object.assign({}, options.headers || {});
  if (token) headers.Authorization = "Bearer " + token;
  if (options.body) headers["Content-Type"] = "application/json";
  return fetch(path, Object.assign({}, options, { headers }));
}

function el(tag, attrs = {}, text = "") {
  const node = tag === "svg" || ["line", "circle", "rect", "text", "g", "title"].includes(tag)
    ? document.createElementNS(svgNS, tag) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== "") node.textContent = text;
  return node;
}

function xy(loc) { return [loc.xy[0] * 1000, loc.xy[1] * 640]; }

async function drawBoard() {
  board = await (await api("/api/board")).json();
  const svg = document.getElementById("board");
  const where = Object.fromEntries(board.locations.map((loc) => [loc.id, loc]));
  for (const road of board.roads) {
    const [x1, y1] = xy(where[road.a]);
    const [x2, y2] = xy(where[road.b]);
    svg.append(el("line", { x1, y1, x2, y2, class: road.kind === "highway" ? "highway" : "road" }));
  }
  for (const loc of board.locations) {
    const [cx, cy] = xy(loc);
    const group = el("g", { id: "loc-" + loc.id, "data-location": loc.id });
    if (loc.castle) group.append(el("rect", { x: cx - 12, y: cy - 12, width: 24, height: 24,
      class: "castle " + loc.castle, id: "castle-" + loc.id }));
    group.append(el("circle", { cx, cy, r: 8, class: "loc" + (loc.resource ? " resource" : "") }));
    group.append(el("text", { x: cx, y: cy + 24, class: "label" }, loc.name));
    group.append(el("g", { class: "stacks" }));
    svg.append(group);
  }
}

function sidesOf(stacks) { return Object.keys(stacks).filter((key) => key !== "disks"); }

function renderBoard(view) {
  for (const loc of board.locations) {
    const group = document.getElementById("loc-" + loc.id);
    const holder = group.querySelector(".stacks");
    holder.replaceChildren();
    const stacks = (view.locations || {})[loc.id] || {};
    const [cx, cy] = xy(loc);
    sidesOf(stacks).forEach((side, index) => {
      const stack = stacks[side];
      const g = el("g", { class: "stack " + side, "data-side": side, "data-count": stack.count });
      g.append(el("rect", { x: cx + 10 + index * 24, y: cy - 22, width: 22, height: 18, rx: 3 }));
      g.append(el("text", { x: cx + 21 + index * 24, y: cy - 8 }, String(stack.count)));
      const known = stack.blocks.map((b) => b.block + (b.strength ? " (" + b.strength + ")" : ""));
      g.append(el("title", {}, side + ": " + stack.count + (known.length ? "\n" + known.join("\n") : "")));
      holder.append(g);
    });
    const castles = (view.control || {}).castles || {};
    const castle = document.getElementById("castle-" + loc.id);
    if (castle && castles[loc.id]) castle.setAttribute("class", "castle " + castles[loc.id]);
    const resources = (view.control || {}).resources || {};
    if (resources[loc.id]) {
      holder.append(el("circle", { cx: cx - 13, cy: cy - 13, r: 5, class: "control " + resources[loc.id],
        "data-control": resources[loc.id] }));
    }
  }
}

function show(id, visible) { const node = document.getElementById(id); if (node) node.hidden = !visible; }

function panel(id) { return document.getElementById(id); }

function renderAlert(alert) {
  const box = panel("alert");
  if (!box) return;
  show("alert", Boolean(alert));
  if (!alert) return;
  box.replaceChildren(el("h2", {}, "Refused: rule " + alert.rule), el("p", {}, alert.message));
  if (alert.legal.length) box.append(el("p", {}, "Legal: " + alert.legal.slice(0, 6).join(", ")));
}

function renderBattle(battle) {
  const box = panel("battle");
  if (!box) return;
  show("battle", Boolean(battle && battle.impact));
  if (!battle || !battle.impact) return;
  const top = Math.max(board.impact_track[1], battle.impact.ishida, battle.impact.tokugawa, 1);
  box.replaceChildren(el("h2", {}, (battle.siege ? "Siege at " : "Battle at ") + battle.at));
  for (const side of ["ishida", "tokugawa"]) {
    const row = el("div", { class: "track" });
    const bar = el("span", { class: side, id: "impact-" + side, "data-impact": battle.impact[side] });
    bar.style.width = (100 * battle.impact[side] / top) + "%";
    row.append(bar);
    box.append(el("div", {}, side + ": " + battle.impact[side] + (battle.attacker === side ? " (attacker)" : "")), row);
  }
  if (battle.initiative) box.append(el("p", {}, "Initiative: " + battle.initiative + " (the side behind deploys; the defender leads on a tie)"));
  const list = el("table");
  for (const d of battle.deployed) {
    list.append(el("tr", {}, ""));
    list.lastChild.append(el("td", {}, d.side), el("td", {}, d.block), el("td", {}, "+" + d.impact));
  }
  box.append(list);
  if (battle.losses_due && battle.winner !== undefined && battle.stage !== "deploy") {
    box.append(el("p", {}, "Winner: " + (battle.winner || "none") + ". Losses: " + JSON.stringify(battle.losses_due)));
  }
  for (const [side, cards] of Object.entries(battle.cards_played || {})) {
    if (cards.length) box.append(el("p", { class: "played" }, side + " played: " + cards.join(", ")));
  }
  if (battle.challenge) box.append(el("p", { class: "challenge" }, "Loyalty challenge by " + battle.challenge.by + ": the deploying side shows a matching card, or the block changes sides (8.6)"));
  if (battle.siege) {
    const impact = battle.impact[battle.attacker];
    box.append(el("p", { class: "siege" }, "Siege: " + Math.floor(impact / 7) + " loss(es) so far, " + (7 - impact % 7) + " impact to the next (8.9.4)"));
  }
  if (battle.retreat) box.append(el("p", {}, "Retreat to: " + battle.retreat.to.join(", ")));
}

function renderMine(state) {
  const box = panel("mine");
  const view = state.view;
  const mine = page === "play" && ["ishida", "tokugawa", "red", "blue"].includes(state.role);
  show("mine", Boolean(box && mine));
  if (!box || !mine) return;
  const rows = el("table");
  const places = Object.assign({}, view.locations || {});
  for (const [boxId, contents] of Object.entries(view.boxes || {})) places[boxId] = { [contents.side]: contents };
  for (const [where, stacks] of Object.entries(places)) {
    const stack = stacks[state.role];
    if (!stack || !stack.blocks || !stack.blocks.length) continue;
    const tr = el("tr");
    tr.append(el("th", {}, where.replace("_", " ")), el("td", {}, stack.blocks.map((b) => b.block).join(", ")));
    rows.append(tr);
  }
  const cards = ((view.cards || {})[state.role] || {}).cards;
  box.replaceChildren(el("h2", {}, "Your blocks"), rows);
  if (cards) box.append(el("h2", {}, "Your hand"), el("p", { id: "hand" }, cards.join(", ")));
  const options = view.options;
  if (options && options.groups) {
    box.append(el("h2", {}, "Groups that may move"));
    for (const group of options.groups) {
      const r = group.range;
      box.append(el("p", { class: "group", "data-from": group.from }, group.from + " (" + group.blocks + " blocks): "
        + r.by_road + " by road, " + r.all_highway + " on highways (base 1, command +" + r.command
        + ", size " + r.size_penalty + "; forced march +1 for a card): " + group.reachable.join(", ")));
    }
  }
}

function renderWeek(state) {
  const view = state.view;
  const box = document.getElementById("week");
  const rows = [["Game", view.game], ["Turn", view.week !== undefined ? "week " + view.week + ", turn " + view.turn : view.turn],
    ["Phase", view.phase || ""], ["Active", view.active || ""], ["First player", view.first || ""],
    ["Waiting for", (view.waiting_for || []).join(", ")]];
  if (view.cards) for (const [side, c] of Object.entries(view.cards)) rows.push([side + " hand", c.hand + " cards (pile " + c.draw_pile + ")"]);
  if (view.control) {
    for (const side of ["ishida", "tokugawa"]) {
      const castles = Object.values(view.control.castles).filter((s) => s === side).length;
      const resources = Object.values(view.control.resources).filter((s) => s === side).length;
      rows.push([side + " points", (2 * castles + resources) + " (" + castles + " castles, " + resources + " resources)"]);
    }
  }
  if (view.boxes) for (const [box_, b] of Object.entries(view.boxes)) rows.push([box_.replace("_", " "), b.count + " blocks"]);
  if (view.reinforcements) for (const [side, plan] of Object.entries(view.reinforcements.plan)) {
    const owed = view.reinforcements.discards_owed[side];
    rows.push([side + " reinforcements", "discard " + plan.discard + (owed ? " (" + owed + " still to discard)" : " (done)")
      + "; draw " + plan.cards_why + "; blocks " + plan.blocks_why]);
  }
  for (const draw of view.pending_draws || []) rows.push(["waiting for a draw", draw.side + " " + draw.count + " " + draw.kind + (draw.to ? " to " + draw.to : "")]);
  if (view.outcome) rows.push(["Result", (view.outcome.winner || "draw") + ": " + view.outcome.termination]);
  const table = el("table", { id: "facts" });
  for (const [key, value] of rows) {
    const tr = el("tr", { "data-key": key });
    tr.append(el("th", {}, key), el("td", {}, String(value ?? "")));
    table.append(tr);
  }
  box.replaceChildren(el("h2", {}, "The week"), table);
}

function renderPairing(pairing) {
  const box = panel("pairing");
  if (!box) return;
  const roles = Object.keys(pairing || {});
  show("pairing", roles.length > 0);
  box.replaceChildren(el("h2", {}, "Pair a phone"));
  for (const role of roles) {
    const figure = el("figure", { class: "qr", "data-role": role });
    figure.innerHTML = pairing[role];
    figure.append(el("figcaption", {}, role));
    box.append(figure);
  }
}

async function act(body) {
  const response = await api("/api/action", { method: "POST", body: JSON.stringify(body) });
  if (!response.ok) {
    const problem = await response.json().catch(() => ({ message: response.statusText }));
    renderAlert({ rule: problem.rule || String(response.status), message: problem.message || "", legal: problem.legal || [] });
  }
}

function renderOptions(state) {
  const box = panel("options");
  if (!box) return;
  const mine = page !== "table" && state.legal && state.legal.length;
  show("options", Boolean(mine));
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
  show("questions", Boolean(question));
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

function render(state) {
  if (!board || !state.view) return;
  renderInputs(state);
  renderQuestion(state);
  document.body.classList.toggle("paused", Boolean(state.paused));
  document.getElementById("role").textContent = state.role;
  const version = document.getElementById("version");
  version.dataset.version = String(state.version);
  version.textContent = "v" + state.version;
  renderBoard(state.view);
  renderAlert(state.alert);
  renderBattle(state.view.battle);
  renderWeek(state);
  renderPairing(state.pairing);
  renderOptions(state);
  renderMine(state);
}

function refereeTools() {
  show("referee-tools", true);
  document.getElementById("free-action").addEventListener("submit", (event) => {
    event.preventDefault();
    act({ text: document.getElementById("action-text").value, source: "referee" });
  });
  document.getElementById("correction").addEventListener("submit", async (event) => {
    event.preventDefault();
    await api("/api/correct", { method: "POST", body: JSON.stringify({
      args: { block: document.getElementById("correct-block").value, to: document.getElementById("correct-to").value },
      by: "referee", note: document.getElementById("correct-note").value }) });
  });
  document.getElementById("undo").addEventListener("click", () =>
    api("/api/undo", { method: "POST", body: JSON.stringify({ by: "referee" }) }));
  document.getElementById("pause").addEventListener("click", () =>
    api("/api/pause", { method: "POST", body: JSON.stringify({ paused: !document.body.classList.contains("paused") }) }));
  for (const role of ["ishida", "tokugawa", "red", "blue"]) {
    const button = el("button", { "data-pair": role }, "Pair " + role);
    button.addEventListener("click", () => api("/api/pair/" + role, { method: "POST", body: "{}" }));
    document.getElementById("pair-buttons").append(button);
  }
}

function scanFallback() {
  show("scan", true);
  document.getElementById("scan-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const field = document.getElementById("scan-code");
    await api("/api/scan", { method: "POST", body: JSON.stringify({ code: field.value }) });
    field.value = "";
  });
}

async function live() {
  await drawBoard();
  if (page !== "table" && token) scanFallback();
  render(await (await api("/api/view")).json());
  if (page === "referee") refereeTools();
  const source = new EventSource("/stream" + (token ? "?token=" + encodeURIComponent(token) : ""));
  source.addEventListener("view", (event) => render(JSON.parse(event.data)));
}

async function replayViewer() {
  await drawBoard();
  const game = document.body.dataset.game;
  const scrubber = document.getElementById("scrubber");
  async function go(at) {
    const data = await (await api("/api/replay/" + game + "?at=" + at)).json();
    scrubber.max = String(data.total);
    scrubber.value = String(data.at);
    document.getElementById("position").textContent = data.at + " / " + data.total;
    document.getElementById("last-action").textContent = data.action || "";
    render({ role: data.role, version: data.at, view: data.view, legal: [], alert: null, pairing: {} });
  }
  scrubber.addEventListener("input", () => go(scrubber.value));
  document.getElementById("turn-back").addEventListener("click", async () => go((await turn(-1))));
  document.getElementById("turn-next").addEventListener("click", async () => go((await turn(1))));
  async function turn(direction) {
    const data = await (await api("/api/replay/" + game + "/turns")).json();
    const here = Number(scrubber.value);
    const marks = direction > 0 ? data.turns.filter((n) => n > here) : data.turns.filter((n) => n < here).reverse();
    return marks.length ? marks[0] : (direction > 0 ? data.total : 0);
  }
  document.getElementById("step-back").addEventListener("click", () => go(Math.max(0, Number(scrubber.value) - 1)));
  document.getElementById("step-next").addEventListener("click", () => go(Number(scrubber.value) + 1));
  await go(0);
}

(page === "replay" ? replayViewer() : live()).catch((error) => console.error(error));
setInterval(() => { document.getElementById("clock").textContent = new Date().toLocaleTimeString(); }, 1000);
