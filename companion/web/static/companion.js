// Tabletop Companion's page shell: what every game's screens share. It holds the token, follows
// the live stream (and says so when it is lost), and draws the shared panels in words: the
// banner, alerts with their rule and fix, questions, the legal actions, the game log, pairing,
// the referee's tools and the card-code fallback. The game's own screen module, served from its
// package, draws the board and the bookkeeping (docs/web.md: "A game's screen").
// Views come already filtered for this screen's role: nothing here hides anything itself, and
// no game or role is named here: the view says which game it is and which roles it has.
// An ES module: the elements, the words and the board's zoom are the toolkit's, which the game's
// screen imports too (one module, one catalog of words).
import { el, fill, lang, languageSwitch, loadWords, t, translatePage } from "/common/toolkit.js";

const page = document.body.dataset.page;
const fragment = new URLSearchParams(location.hash.slice(1));
const token = fragment.get("token") || "";  // a paired device's, in the fragment: never sent in a URL
const pairSecret = fragment.get("pair") || "";  // a one-time pairing secret from the referee's QR code
const SOURCES = { camera: "camera", card_reader: "card reader", scanner: "card scanner",
  button: "table button", tablet: "referee's tablet", phone: "phone", referee: "referee",
  simulator: "simulator" };

let about = null;   // the game: {name, title, roles, players, screen, missing}
let screen = null;  // the game's screen once mounted: {render(state), banner?(state)}
let current = null; // the last state drawn
let lastVersion = -1;

// --- names -------------------------------------------------------------------------------------------

function roleName(role) {
  if (!role) return "";
  const player = about && about.players && about.players[role];
  const side = t(role.charAt(0).toUpperCase() + role.slice(1).replaceAll("_", " "));
  return player ? side + " (" + player + ")" : side;
}

// --- talking to the server -----------------------------------------------------------------------

function api(path, options = {}) {
  const headers = Object.assign({}, options.headers || {});
  if (token) headers.Authorization = "Bearer " + token;
  if (options.body) headers["Content-Type"] = "application/json";
  return fetch(path, Object.assign({}, options, { headers }));
}

function withLang(path) { return path + (path.includes("?") ? "&" : "?") + "lang=" + lang; }

async function json(path) {
  const response = await api(withLang(path));
  if (response.status === 401) { const body = await response.json().catch(() => ({})); credentialGone(body.message); throw new Error("401"); }
  if (!response.ok) throw new Error(path + ": " + response.status + " " + response.statusText);
  return response.json();
}

function panel(id) { return document.getElementById(id); }

function show(target, visible) {
  const node = typeof target === "string" ? panel(target) : target;
  if (node) node.hidden = !visible;
}

function isPlayer(role) { return Boolean(about && about.roles.includes(role)); }

// --- sounds ---------------------------------------------------------------------------------------

let audio = null;
function muted() { return localStorage.getItem("companion.muted") === "1"; }

function tone(notes) {
  // A few short tones from the Web Audio API: no sound files to fetch.
  if (muted()) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    let at = audio.currentTime;
    for (const [frequency, length] of notes) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.15, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + length);
      at += length;
    }
  } catch (error) { /* no audio here: silence */ }
}

const SOUNDS = {
  accepted: [[880, 0.08]],
  illegal: [[220, 0.18], [180, 0.25]],
  turn: [[660, 0.1], [990, 0.15]],
  battle: [[392, 0.12], [392, 0.12], [523, 0.3]],
};

const ICONS = {
  // Inline SVG, not emoji or font glyphs: Debian's Chromium draws those as empty boxes.
  sound: "M3 9h4l5-4v14l-5-4H3z M15 8.5a5 5 0 0 1 0 7 M17.5 6a8.5 8.5 0 0 1 0 12",
  muted: "M3 9h4l5-4v14l-5-4H3z M15 9l6 6 M21 9l-6 6",
  camera: "M3 8h4l2-3h6l2 3h4v11H3z M12 10a3.5 3.5 0 1 0 0.01 0",
};

function icon(name) {
  const svg = el("svg", { viewBox: "0 0 24 24", width: "20", height: "20", class: "icon", "aria-hidden": "true" });
  svg.append(el("path", { d: ICONS[name], fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linejoin": "round", "stroke-linecap": "round" }));
  return svg;
}

function soundSwitch() {
  const button = panel("mute");
  if (!button) return;
  const draw = () => {
    button.replaceChildren(icon(muted() ? "muted" : "sound"));
    button.title = t(muted() ? "Sounds off" : "Sounds on");
    button.setAttribute("aria-pressed", String(muted()));
  };
  button.addEventListener("click", () => { localStorage.setItem("companion.muted", muted() ? "0" : "1"); draw(); });
  draw();
}

function sounds(before, after) {
  // What changed since the last view, as a sound: a refusal, an accepted action, the screen's
  // side to act, a battle begun (not while stepping through a replay).
  if (!before || page === "replay") return;
  if (after.alert && JSON.stringify(after.alert) !== JSON.stringify(before.alert)) { tone(SOUNDS.illegal); return; }
  const mine = isPlayer(after.role) && (after.to_move || []).includes(after.role);
  const wasMine = isPlayer(before.role) && (before.to_move || []).includes(before.role);
  const battle = after.view && after.view.battle && !(before.view && before.view.battle);
  if (battle) tone(SOUNDS.battle);
  else if (mine && !wasMine) tone(SOUNDS.turn);
  else if ((after.actions || 0) > (before.actions || 0)) tone(SOUNDS.accepted);
}

// --- the game's screen module -----------------------------------------------------------------

function gamePanel(id, title = "") {
  // A side panel for the game's screen, created once, in the order the screen asks for them.
  let box = panel(id);
  if (!box) {
    box = el("section", { id, class: "panel game-panel" });
    if (title) box.append(el("h2", {}, t(title)));
    panel("game-panels").append(box);
  }
  return box;
}

function noScreen(sentence) {
  const note = panel("no-screen");
  note.textContent = sentence + ": " + t("its board is not drawn here, but its actions, questions and pairing work as for any game.");
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
  box.replaceChildren(el("h2", {}, t("The position")), table);
}

async function mountScreen(boardPath) {
  // The game's module draws its board from the kit's data and each view; without one, a
  // sentence says so and the shared panels carry on.
  if (!about.screen) { noScreen(about.missing || about.title + " has no tablet screen yet"); return null; }
  const shell = {
    page, game: about, main: panel("screen"), show, isPlayer, act, choose, roleName, broadcast: false,
    panel: gamePanel,
    board: (parts = []) => json(boardPath + (parts.length ? "?parts=" + parts.map(encodeURIComponent).join(",") : "")),
  };
  try {
    const module = await import(about.screen);
    screen = await module.mount(shell);
    return screen;
  } catch (error) {
    console.error(error);
    noScreen(about.title + "'s screen could not be drawn (" + error.message + ")");
    return null;
  }
}

// --- the shared panels --------------------------------------------------------------------------

function statusLine(state) {
  const view = state.view || {};
  const waiting = (state.to_move || []).filter((r) => r !== "chance");
  if (view.outcome) {
    const winners = view.outcome.winners || (view.outcome.winner ? [view.outcome.winner] : []);
    if (!winners.length) return t("Game over · a draw");
    if (winners.length === 1) return fill(t("Game over · {side} wins"), { side: roleName(winners[0]) });
    const named = winners.map(roleName);  // a shared victory (Shogun 7): every winner by name
    return fill(t("Game over · {sides} share the victory"),
      { sides: named.slice(0, -1).join(", ") + " " + t("and") + " " + named[named.length - 1] });
  }
  if ((state.to_move || []).includes("chance") && !waiting.length) return t("Waiting for a draw or a die roll");
  if (!waiting.length) return "";
  return fill(t("{side} to act"), { side: waiting.map(roleName).join(", ") });
}

function renderHeader(state) {
  document.body.classList.toggle("paused", Boolean(state.paused));
  panel("game-title").textContent = about ? "· " + about.title : "";
  const roleLabel = state.role === "public" ? t("Table") : state.role === "referee" ? t("Referee") : roleName(state.role);
  if (about) document.title = about.title + " · " + (page === "replay" ? t("replay") : roleLabel) + " · Tabletop Companion";
  panel("role").textContent = roleLabel;
  panel("status").textContent = statusLine(state);
  const banner = panel("banner");
  if (banner) {
    let text = "";
    if (state.paused) {
      text = t("PAUSED · the referee has paused the game");
    } else if (screen && typeof screen.banner === "function") {
      try { text = screen.banner(state) || ""; } catch (error) { console.error(error); }
    }
    banner.textContent = text || statusLine(state).toUpperCase();
    banner.classList.toggle("paused", Boolean(state.paused));
    show(banner, (page === "table" || Boolean(state.paused)) && Boolean(banner.textContent));
  }
  const pill = panel("paused-pill");
  if (pill) { pill.textContent = t("PAUSED"); show(pill, Boolean(state.paused)); }
  const mine = isPlayer(state.role) && (state.to_move || []).includes(state.role) && !(state.view || {}).outcome;
  document.body.classList.toggle("my-turn", mine);
}

function renderBlind(places) {
  // Where the camera cannot see (a lamp's reflection): pieces there are kept as they were,
  // not taken for gone, and the players are asked to move the light.
  const bar = panel("blind");
  if (!bar) return;
  bar.textContent = places.length ? fill(t("The camera cannot see {places}: a lamp's reflection blinds it there. Move the lamp or turn it away."), { places: places.join(", ") }) : "";
  show(bar, places.length > 0);
}

const STOPPED = {
  "camera": "The camera has stopped: nothing on the table is being read. Check its cable.",
  "card reader": "The card reader has stopped: no card is being read. Check its cable.",
};

function renderStopped(stopped) {
  // A camera or card reader that stopped (the live table says so, and when it is back):
  // on every screen, so that nobody waits for moves that are never read.
  const bar = panel("stopped");
  if (!bar) return;
  bar.replaceChildren(...stopped.map((s) => el("p", { "data-device": s.device, title: s.reason }, t(STOPPED[s.device] || STOPPED.camera))));
  show(bar, stopped.length > 0);
}

function ruleRef(rule, summary) {
  // A rule number a player can tap for its summary.
  const ref = el("button", { class: "rule-ref", type: "button", "data-rule": rule }, fill(t("rule {rule}"), { rule }));
  if (summary) {
    ref.title = summary;
    ref.addEventListener("click", () => {
      const open = ref.nextElementSibling && ref.nextElementSibling.classList.contains("rule-summary");
      if (open) ref.nextElementSibling.remove();
      else ref.after(el("span", { class: "rule-summary" }, summary));
    });
  }
  return ref;
}

function renderAlert(alert) {
  // An alert stops the table: a wide band above everything, in large type (read from 1.5 m on
  // the shared table), with its title and rule, the rule in one line, what was wrong and what
  // to do. A refusal that is not a rule's (the game paused, a pairing gone) has no rule number.
  const box = panel("alert");
  if (!box) return;
  show(box, Boolean(alert));
  document.body.classList.toggle("alerting", Boolean(alert));
  if (!alert) return;
  const heading = el("h2", { class: "alert-title" }, alert.title || t("Not allowed"));
  if (alert.rule) { heading.append(" · "); heading.append(ruleRef(alert.rule, alert.summary)); }
  box.replaceChildren(heading);
  if (alert.message) box.append(el("p", { class: "message" }, alert.message));
  if (alert.summary) box.append(el("p", { class: "summary" }, fill(t("The rule: {summary}"), { summary: alert.summary })));
  if (alert.fix) {
    const fix = el("p", { class: "fix" });
    fix.append(el("strong", {}, t("What to do:")), " " + alert.fix);
    box.append(fix);
  }
  if (alert.legal && alert.legal.length && page !== "table") {
    box.append(el("p", { class: "legal" }, t("Allowed instead:") + " " + alert.legal.slice(0, 6).join("; ")));
  }
}

function renderPairing(pairing) {
  // The referee's screen only: each role's QR code on offer, or the code the phone that
  // claimed it shows, to compare and confirm.
  const box = panel("pairing");
  if (!box) return;
  const roles = Object.keys(pairing || {});
  show(box, roles.length > 0);
  box.replaceChildren(el("h2", {}, t("Pair a phone")));
  for (const role of roles) {
    const offer = pairing[role];
    const figure = el("figure", { class: "qr", "data-role": role });
    if (offer.qr) {
      figure.innerHTML = offer.qr;  // an SVG drawn by the server from the pairing link
      figure.append(el("figcaption", {}, fill(t("{side}: scan with the player's phone"), { side: roleName(role) })));
      if (offer.digits) {
        figure.append(el("p", { class: "pair-digits" }, fill(t("or open {address} and type"), { address: offer.address || location.host + "/play" })),
          el("strong", { class: "digits", "data-digits": role }, offer.digits.slice(0, 3) + " " + offer.digits.slice(3)));
      }
    } else {
      figure.append(el("p", { class: "pair-code" }, offer.code));
      const confirm = el("button", { "data-confirm": role }, fill(t("Confirm: the phone for {side} shows {code}"), { side: roleName(role), code: offer.code }));
      confirm.addEventListener("click", () =>
        post("/api/pair/" + encodeURIComponent(role) + "/confirm", { code: offer.code }));
      figure.append(confirm);
    }
    box.append(figure);
  }
}

function pairForm() {
  // A phone opened at /play with no pairing: the six digits on the referee's screen pair it
  // (when scanning the QR code is not possible); meanwhile it shows the public table.
  const form = el("form", { id: "pair-form", class: "panel" });
  const field = el("input", { id: "pair-digits", inputmode: "numeric", autocomplete: "one-time-code",
    maxlength: "7", placeholder: "123 456", "aria-label": t("pairing code") });
  form.append(el("h2", {}, t("Pair this phone")),
    el("p", {}, t("Ask the referee to pair your side, then scan the QR code or type its six digits here.")),
    field, el("button", {}, t("Pair")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    claimPairing(field.value.replace(/\s/g, ""));
  });
  panel("board-panel").prepend(form);
}

async function claimPairing(secret = pairSecret) {
  // A phone opened from the QR code (or given the six digits): it claims the one-time secret,
  // shows the code the referee confirms, and becomes the player's screen once confirmed.
  await loadWords("shell");
  translatePage();
  const form = panel("pair-form");
  if (form) form.remove();
  const response = await fetch("/api/pair/claim", { method: "POST",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify({ pair: secret }) });
  const body = await response.json().catch(() => ({}));
  const note = panel("no-screen");
  show(note, true);
  if (!response.ok) {
    note.textContent = body.message || t("This pairing code cannot be used: ask the referee for a new one.");
    if (!pairSecret) pairForm();
    return;
  }
  history.replaceState(null, "", "#token=" + encodeURIComponent(body.token));
  note.replaceChildren(el("span", {}, t("Show this code to the referee:")),
    el("strong", { id: "pair-code" }, body.code),
    el("span", {}, t("This screen opens as your side's once the referee confirms it.")));
  const headers = { Authorization: "Bearer " + body.token };
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const seen = await fetch("/api/view", { headers }).catch(() => null);
    const view = seen && seen.ok ? await seen.json().catch(() => null) : null;
    if (view && view.role !== "public") { location.reload(); return; }
  }
}

async function problem(response) {
  // A refused request. A rule's refusal is the hub's alert, which the view brings in this
  // screen's language with the rule's summary and what to do; anything else (the game paused,
  // a pairing gone) is said as a sentence, never with an HTTP status for a rule.
  const body = await response.json().catch(() => ({}));
  tone(SOUNDS.illegal);
  if (response.status === 422 && body.rule && body.rule !== "undo") {
    const state = await json("/api/view").catch(() => null);
    if (state && state.alert) { if (state.version >= lastVersion) render(state); return; }
  }
  const paused = response.status === 403 && current && current.paused;
  renderAlert({ title: t(paused ? "Paused" : "Not done"), rule: "", summary: "",
    message: t(body.message || response.statusText || ""),
    fix: t(paused ? "Wait until the referee resumes the game" : "Ask the referee if this seems wrong"),
    legal: [] });
}

async function act(body) {
  const response = await api("/api/action", { method: "POST", body: JSON.stringify(body) });
  if (!response.ok) await problem(response);
  return response.ok;
}

function confirmDialog(text, yes = "Confirm") {
  // Asks before an action is committed: one tap is easily a wrong one on a phone.
  return new Promise((resolve) => {
    const dialog = panel("confirm");
    panel("confirm-text").textContent = text;
    panel("confirm-yes").textContent = t(yes);
    panel("confirm-no").textContent = t("Cancel");
    const done = (answer) => { dialog.close(); resolve(answer); };
    panel("confirm-yes").onclick = () => done(true);
    panel("confirm-no").onclick = () => done(false);
    dialog.oncancel = () => resolve(false);
    dialog.showModal();
  });
}

async function choose(choice) {
  // A legal action chosen on a screen (a button, the board): confirmed, then sent. While the
  // referee has paused the game, a phone says so instead of asking.
  if (page === "play" && current && current.paused) {
    renderAlert({ title: t("Paused"), rule: "", summary: "", message: t("The game is paused by the referee"),
      fix: t("Wait until the referee resumes the game"), legal: [] });
    return false;
  }
  if (!(await confirmDialog(choice.words))) return false;
  return act({ text: choice.text });
}

function renderOptions(state) {
  const box = panel("options");
  if (!box) return;
  const choices = state.choices || [];
  const held = state.paused && page === "play";  // paused: a phone offers nothing to tap
  const mine = page !== "table" && choices.length > 0 && !held;
  show(box, mine);
  if (!mine) return;
  box.replaceChildren(el("h2", {}, t("What you may do")));
  const filter = el("input", { type: "search", class: "filter", "aria-label": t("find an action"), placeholder: t("find an action") });
  if (choices.length > 8) box.append(filter);
  const list = el("div", { class: "choices" });
  const draw = () => {
    const wanted = filter.value.trim().toLowerCase();
    const shown = choices.filter((c) => !wanted || c.words.toLowerCase().includes(wanted));
    list.replaceChildren(...shown.slice(0, 40).map((choice) => {
      const button = el("button", { "data-choice-id": String(choice.id), class: "choice" }, choice.words);
      button.addEventListener("click", () => choose(choice));
      return button;
    }));
    if (shown.length > 40) list.append(el("p", { class: "more" }, fill(t("and {n} more: type to find one"), { n: shown.length - 40 })));
  };
  filter.addEventListener("input", draw);
  draw();
  box.append(list);
}

const NOTICE_MS = 12000;
let noticeShown = { seq: null, at: 0 };

function renderNotice(state) {
  // A reading the referee was sure of, played at once (issue 36): shown big for a few seconds
  // with its consequence, and one tap to take it back instead of a question to confirm it.
  const box = panel("notice");
  if (!box) return;
  const notice = state.notice;
  if (notice && noticeShown.seq !== notice.seq) noticeShown = { seq: notice.seq, at: Date.now() };
  const fresh = Boolean(notice) && Date.now() - noticeShown.at < NOTICE_MS;
  show(box, fresh);
  if (!fresh) return;
  box.replaceChildren(el("p", {}, notice.text));
  if (notice.take_back) {
    const button = el("button", { "data-take-back": String(notice.seq) }, t("Take back"));
    button.addEventListener("click", async () => {
      const response = await api("/api/take-back", { method: "POST", body: JSON.stringify({ seq: notice.seq }) });
      if (!response.ok) await problem(response);
    });
    box.append(button);
  }
  setTimeout(() => { if (noticeShown.seq === notice.seq) show(box, false); }, NOTICE_MS - (Date.now() - noticeShown.at));
}

function renderQuestion(state) {
  const box = panel("questions");
  if (!box) return;
  const question = state.question;
  show(box, Boolean(question));
  if (!question) return;
  box.replaceChildren(el("h2", {}, fill(t("Question for {side}"), { side: roleName(question.by) })), el("p", {}, question.text));
  if (question.why) box.append(el("p", { class: "why" }, question.why));  // its cause (issue 36)
  (question.words || []).forEach((text, index) => {
    const button = el("button", { "data-choice": String(index) }, text);
    if (index === question.highlighted) button.classList.add("highlighted");  // the table's confirm picks it
    button.addEventListener("click", async () => {
      const response = await api("/api/answer", { method: "POST", body: JSON.stringify({ choice: index }) });
      if (!response.ok) await problem(response);
    });
    box.append(button);
  });
}

async function showSnapshot(seq) {
  // The camera's frame kept for an action (the referee's screen while a game runs).
  const response = await api("/api/replay/" + current.game_id + "/snapshot/" + seq);
  if (!response.ok) return;
  const url = URL.createObjectURL(await response.blob());
  const dialog = panel("snapshot");
  panel("snapshot-img").src = url;
  dialog.showModal();
}

function renderLog(state) {
  const box = panel("log");
  if (!box) return;
  const lines = state.log || [];
  show(box, lines.length > 0);
  const list = el("ol", { class: "log", reversed: "" });
  for (const line of lines.slice().reverse()) {
    const item = el("li", { "data-seq": String(line.seq), value: String(line.seq), class: line.undone ? "undone" : "" });
    item.append(el("span", { class: "log-words" }, line.words));
    const meta = el("span", { class: "log-meta" }, t(SOURCES[line.source] || line.source));
    if (line.rule) { meta.append(" · "); meta.append(ruleRef(line.rule, line.summary)); }
    if (line.undone) meta.append(" · " + t("taken back"));
    if (line.snapshot) {
      const photo = el("button", { class: "snapshot", type: "button", "data-snapshot": String(line.snapshot) });
      photo.append(icon("camera"));
      photo.title = t("What the camera saw");
      photo.addEventListener("click", () => showSnapshot(line.snapshot));
      meta.append(" ", photo);
    }
    item.append(meta);
    list.append(item);
  }
  box.replaceChildren(el("h2", {}, t("Game log")), list);
}

function renderUndo(state) {
  // A player's own undo, and the referee's answer to a player's undo request.
  const mine = panel("my-undo");
  if (mine) {
    const last = state.last;
    show(mine, page === "play" && isPlayer(state.role) && Boolean(last) && last.role === state.role);
    const asked = state.undo_request && state.undo_request.role === state.role;
    mine.textContent = asked ? t("Undo asked: waiting for the referee") : t("Take back my last action");
    mine.disabled = Boolean(asked);
  }
  const box = panel("undo-request");
  if (!box) return;
  const request = page === "referee" ? state.undo_request : null;
  show(box, Boolean(request));
  if (!request) return;
  const allow = el("button", { "data-undo": "allow" }, t("Allow"));
  const decline = el("button", { "data-undo": "decline" }, t("Decline"));
  allow.addEventListener("click", () => post("/api/undo/request", { allow: true }));
  decline.addEventListener("click", () => post("/api/undo/request", { allow: false }));
  box.replaceChildren(el("h2", {}, fill(t("{side} asks to take back"), { side: roleName(request.role) })),
    el("p", {}, request.words), allow, decline);
}

function pickerField(field) {
  // One argument of a chance step: selects of what can be drawn. Pieces of one face are
  // interchangeable at the table, so each face is offered once and given distinct ids on entry.
  const box = el("fieldset", { class: "pick-field", "data-field": field.name });
  box.append(el("legend", {}, field.label));
  const faces = new Map();
  for (const option of field.options) {
    if (!faces.has(option.words)) faces.set(option.words, []);
    faces.get(option.words).push(option.value);
  }
  const select = (label) => {
    const node = el("select", { "aria-label": label });
    node.append(el("option", { value: "" }, "—"));
    for (const [words, values] of faces) {
      const shown = field.repeat || field.keys.length || values.length === 1 ? words : words + " (" + values.length + ")";
      node.append(el("option", { value: words }, shown));
    }
    return node;
  };
  const rows = field.keys.length ? field.keys.map((k) => [k.key, k.words]) :
    Array.from({ length: field.single ? 1 : field.count }, (_, n) => [String(n), field.label + " " + (n + 1)]);
  for (const [key, label] of rows) {
    const row = el("label", { class: "pick-row" });
    if (field.keys.length) row.append(el("span", {}, label));
    const node = select(label);
    node.dataset.key = key;
    row.append(node);
    box.append(row);
  }
  box.read = () => {
    // The chosen values, or an error in words.
    const used = new Map();
    const chosen = [];
    for (const node of box.querySelectorAll("select")) {
      if (!node.value) return { error: fill(t("Choose every value of {field}"), { field: field.label }) };
      const values = faces.get(node.value);
      const n = used.get(node.value) || 0;
      if (!field.repeat && n >= values.length) return { error: fill(t("{words} cannot be chosen that often"), { words: node.value }) };
      used.set(node.value, n + 1);
      chosen.push([node.dataset.key, field.repeat ? values[0] : values[n], node.value]);
    }
    if (field.keys.length) return { value: Object.fromEntries(chosen.map(([k, v]) => [k, v])), words: chosen.map(([, , w]) => w) };
    if (field.single) return { value: chosen[0][1], words: [chosen[0][2]] };
    return { value: chosen.map(([, v]) => v), words: chosen.map(([, , w]) => w) };
  };
  box.random = () => {
    const bag = [];
    for (const [words, values] of faces) for (let n = 0; n < (field.repeat ? 1 : values.length); n += 1) bag.push(words);
    for (const node of box.querySelectorAll("select")) {
      const at = Math.floor(Math.random() * bag.length);
      node.value = bag[at];
      if (!field.repeat) bag.splice(at, 1);
    }
  };
  return box;
}

function renderPicks(state) {
  // The referee's screen, when no camera or reader decided a chance step: what was drawn
  // or rolled at the table, entered with pickers of what can be drawn.
  const box = panel("picks");
  if (!box) return;
  const checking = Boolean(state.set_check && state.set_check.running);  // the game waits
  const picks = page === "referee" && !checking ? state.picks || [] : [];
  show(box, picks.length > 0);
  const key = JSON.stringify(picks);
  if (box.dataset.key === key) return;  // keep what the referee is choosing
  box.dataset.key = key;
  box.replaceChildren(el("h2", {}, t("Enter what was drawn")));
  // The next entry open; the others folded away, so the referee's screen keeps the question,
  // the alerts and the pairing in sight (a Sekigahara set-up has 14 draws to enter).
  const later = el("details", { class: "picks-later" });
  if (picks.length > 1) later.append(el("summary", {}, fill(t("{n} more to enter"), { n: picks.length - 1 })));
  for (const [n, pick] of picks.slice(0, 20).entries()) {
    const form = el("form", { class: "pick", "data-verb": pick.verb });
    form.append(el("h3", {}, pick.title));
    const fields = pick.fields.map(pickerField);
    form.append(...fields);
    const problem = el("p", { class: "pick-problem" });
    const random = el("button", { type: "button", class: "pick-random" }, t("Fill at random"));
    random.addEventListener("click", () => fields.forEach((f) => f.random()));
    form.append(problem, el("button", { class: "pick-enter" }, t("Enter")), random);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const args = Object.assign({}, pick.fixed);
      const said = [];
      for (const [n, field] of fields.entries()) {
        const read = field.read();
        if (read.error) { problem.textContent = read.error; return; }
        args[pick.fields[n].name] = read.value;
        said.push(pick.fields[n].label + ": " + read.words.join(", "));
      }
      if (await confirmDialog(pick.title + " · " + said.join(" · "))) {
        await act({ role: "chance", verb: pick.verb, args });
      }
    });
    (n === 0 ? box : later).append(form);
  }
  if (picks.length > 1) box.append(later);
}

function renderSetCheck(state) {
  // The referee's set check: hold each block under the camera, each card at the reader; the
  // screen names it, counts what is seen, lists what is not, flags a tag on two blocks.
  const box = panel("set-check");
  const check = page === "referee" ? state.set_check : null;
  if (!box) return;
  show(box, Boolean(check && check.available));
  if (!check || !check.available) return;
  const toggle = el("button", { "data-set-check": check.running ? "off" : "on" },
    t(check.running ? "End the set check" : "Check the set"));
  toggle.addEventListener("click", () => post("/api/setcheck", { on: !check.running }));
  box.replaceChildren(el("h2", {}, t("Set check")));
  if (!check.running) {
    box.append(el("p", {}, t("Hold each block under the camera and each card at the reader: the screen names it.")), toggle);
    return;
  }
  box.append(el("p", { class: "check-counts" }, fill(t("Blocks seen: {seen} of {all} · cards: {cards} of {deck}"),
    { seen: check.blocks_seen, all: check.blocks, cards: check.cards_seen, deck: check.cards })));
  const recent = el("ol", { class: "check-recent" });
  for (const line of check.recent) recent.append(el("li", {}, line));
  box.append(recent);
  for (const [key, title] of [["doubled", "One tag on two blocks"], ["unknown", "Not in this set"]]) {
    if (check[key].length) box.append(el("p", { class: "check-problem", "data-check": key }, t(title) + ": " + check[key].join("; ")));
  }
  for (const [key, title] of [["unseen_blocks", "Blocks not seen yet"], ["unseen_cards", "Cards not seen yet"]]) {
    const more = el("details", { "data-check": key });
    more.append(el("summary", {}, t(title) + " (" + check[key].length + ")"), el("p", {}, check[key].join(", ")));
    box.append(more);
  }
  box.append(toggle);
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
  sounds(current, state);
  current = state;
  renderHeader(state);
  renderBlind(state.blind || []);
  renderStopped(state.stopped || []);
  renderAlert(state.alert);
  renderNotice(state);
  renderQuestion(state);
  renderInputs(state);
  renderPairing(state.pairing);
  renderOptions(state);
  renderLog(state);
  renderUndo(state);
  renderPicks(state);
  renderSetCheck(state);
  if (page === "referee") renderReferee(state);
  if (screen) {
    try { screen.render(state); } catch (error) { console.error(error); }
  } else {
    renderPlainFacts(state.view);
  }
  const version = panel("version");
  version.dataset.version = String(state.version);
  version.textContent = "v" + state.version;
  lastVersion = state.version;
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
  panel("undo").addEventListener("click", async () => {
    if (current && current.last && await confirmDialog(fill(t("Take back: {action}"), { action: current.last.words }), "Take back")) post("/api/undo", {});
  });
  panel("pause").addEventListener("click", () =>
    post("/api/pause", { paused: !document.body.classList.contains("paused") }));
  for (const role of about.roles) {
    const button = el("button", { "data-pair": role }, fill(t("Pair {side}"), { side: roleName(role) }));
    button.addEventListener("click", () => post("/api/pair/" + encodeURIComponent(role), {}));
    const unpair = el("button", { "data-unpair": role, class: "unpair" }, fill(t("Unpair {side}"), { side: roleName(role) }));
    unpair.addEventListener("click", async () => {
      // One tap (and a confirmation): the role's phones lose their pairing at once.
      if (!(await confirmDialog(fill(t("Unpair the phone for {side}? It will need pairing again."), { side: roleName(role) }), "Unpair"))) return;
      const response = await api("/api/pair/" + encodeURIComponent(role), { method: "DELETE", body: "{}" });
      if (!response.ok) await problem(response);
    });
    const pair = el("span", { class: "pair-pair" });
    pair.append(button, unpair);
    panel("pair-buttons").append(pair);
  }
}

function playerTools() {
  const button = panel("my-undo");
  if (!button) return;
  button.addEventListener("click", async () => {
    if (!current || !current.last) return;
    if (!(await confirmDialog(fill(t("Take back: {action}"), { action: current.last.words }), "Take back"))) return;
    const response = await post("/api/undo", {});
    if (response.ok) {
      const body = await response.json().catch(() => ({}));
      if (body.asked_referee) panel("my-undo").textContent = t("Undo asked: waiting for the referee");
    }
  });
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

// --- connection honesty: a lost stream and a dead credential are said, not hidden ---------------

function connection(text, kind) {
  const bar = panel("connection");
  if (!bar) return;
  bar.textContent = text;
  bar.className = kind || "";
  show(bar, Boolean(text));
  document.body.classList.toggle("offline", Boolean(text));
}

function credentialGone(message) {
  connection(lang === "en" && message ? message : t("This screen's pairing is no longer valid: ask the referee to pair it again."), "credential");
}

function follow() {
  // The live stream; EventSource reconnects by itself, and a banner says while it is away.
  const source = new EventSource(withLang("/stream" + (token ? "?token=" + encodeURIComponent(token) : "")));
  source.addEventListener("view", (event) => {
    connection("");
    const state = JSON.parse(event.data);
    if (state.version >= lastVersion) render(state);  // the stream's first view may repeat the page's
  });
  source.addEventListener("open", () => {
    connection("");
    // Only a newer view: a view fetched as the stream opened can arrive after the stream's own
    // newer one, and must not draw the table back as it was (an alert gone, dice undone).
    json("/api/view").then((state) => { if (state.version > lastVersion) render(state); }).catch(() => {});
  });
  source.addEventListener("error", async () => {
    connection(t("Connection to the companion lost: reconnecting…"), "lost");
    lastVersion = -1;  // a restarted server counts its versions from 0 again
    if (source.readyState === EventSource.CLOSED) {
      // The server refused the stream (a revoked token gets 401): ask why, or try again.
      const response = await api("/api/view").catch(() => null);
      if (response && response.status === 401) {
        const body = await response.json().catch(() => ({}));
        credentialGone(body.message);
        return;
      }
      setTimeout(follow, 2000);
    }
  });
}

// --- the screen kept awake on the shared table -----------------------------------------------------

async function stayAwake() {
  if (page !== "table" || !("wakeLock" in navigator)) return;
  const ask = async () => {
    try { await navigator.wakeLock.request("screen"); } catch (error) { /* not allowed here */ }
  };
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") ask(); });
  await ask();
}

// --- the two kinds of page: live and replay ------------------------------------------------------

async function live() {
  let first;
  try {
    first = await json("/api/view");
  } catch (error) {
    if (String(error.message) !== "401") connection(t("The companion cannot be reached: is it running?"), "lost");
    return;
  }
  about = first.game;
  await loadWords(about.name);
  translatePage();
  languageSwitch(panel("lang"));
  soundSwitch();
  await mountScreen("/api/board");
  if (page !== "table" && token) scanFallback();
  if (page === "play" && !token) pairForm();
  if (page === "referee") refereeTools();
  if (page === "play") playerTools();
  render(first);
  follow();
  stayAwake();
}

async function replayViewer() {
  // The replay page's own module (replay.js) draws it; the shell lends it its parts.
  const game = document.body.dataset.gameId;
  const shell = {
    api, json, show, panel, render, roleName,
    setGame: async (info) => { about = info; await loadWords(info.name); translatePage(); },
    mountScreen: (boardPath) => mountScreen(boardPath),
  };
  languageSwitch(panel("lang"));
  soundSwitch();
  const { startReplay } = await import("./replay.js");
  return startReplay(shell, game);
}

(page === "replay" ? replayViewer() : pairSecret ? claimPairing() : live())
  .catch((error) => console.error(error));
setInterval(() => { const clock = panel("clock"); if (clock) clock.textContent = new Date().toLocaleTimeString(lang); }, 1000);
