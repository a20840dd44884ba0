// The broadcast dashboard: every table of the event, one table live, a game replayed. Each board
// is drawn by the game's own screen module (the same module as the table's tablet), given a
// small shell like the table's page shell (companion/web/static/companion.js); every view here
// is the public view a table broadcast, so nothing on this page was hidden at the table.
// An ES module: its elements are the front-end toolkit's, which the game's screen imports too
// (served here by companion.web.screens at the same URL as on a table).
import { el } from "/common/toolkit.js";

const page = document.body.dataset.page;

function $(id) { return document.getElementById(id); }

async function json(path) {
  const response = await fetch(path);
  if (response.status === 204) return null;
  if (!response.ok) throw new Error(path + ": " + response.status);
  return response.json();
}

function words(id) { return String(id).replaceAll("_", " "); }

function outcomeText(outcome, players) {
  if (!outcome) return "";
  const who = outcome.winner ? (players[outcome.winner] || words(outcome.winner)) + " won" : "draw";
  return who + " (" + words(outcome.termination) + ")";
}

function turnText(toMove, players) {
  const who = (toMove || []).filter((r) => r !== "chance").map((r) => players[r] || words(r));
  return who.length ? who.join(", ") + " to act" : ((toMove || []).length ? "drawing" : "");
}

function impactText(impact) {
  if (!impact) return "";
  return "impact " + Object.entries(impact).map(([side, n]) => words(side) + " " + n).join(" · ");
}

// --- one table: the game's screen module in a small shell ------------------------------------

async function mountScreen(about) {
  if (!about.screen) {
    $("no-screen").textContent = about.missing || about.title + " has no screen yet";
    $("no-screen").hidden = false;
    return null;
  }
  const panel = (id, title = "") => {
    let box = $(id);
    if (!box) {
      box = el("section", { id, class: "panel game-panel" });
      if (title) box.append(el("h2", {}, title));
      $("game-panels").append(box);
    }
    return box;
  };
  // No banner line above the board and no zoom here (`broadcast`): a screen draws its banner
  // itself, and a thumbnail is a picture scaled down.
  const shell = {
    page: "table", game: about, main: $("screen"), panel, broadcast: true,
    show: (target, visible) => { const node = typeof target === "string" ? $(target) : target; if (node) node.hidden = !visible; },
    isPlayer: () => false, act: async () => null,
    board: (parts = []) => json("/board/" + encodeURIComponent(about.kit) + (parts.length ? "?parts=" + parts.map(encodeURIComponent).join(",") : "")),
  };
  try {
    const module = await import(about.screen);
    return await module.mount(shell);
  } catch (error) {
    console.error(error);
    $("no-screen").textContent = about.title + "'s screen could not be drawn (" + error.message + ")";
    $("no-screen").hidden = false;
    return null;
  }
}

function renderMessage(screen, about, message, log) {
  const players = about.players || {};
  $("game-title").textContent = about.title;
  if (!message) return;
  if (screen) screen.render({ role: "public", view: message.view, to_move: message.to_move, game: about, legal: [] });
  $("turn").textContent = turnText(message.to_move, players);
  $("turn").hidden = !$("turn").textContent;
  const result = outcomeText(message.outcome, players);
  $("result").textContent = result;
  $("result").hidden = !result;
  const items = log.slice(-12).reverse().map((m) => {
    const li = el("li", { value: m.seq, class: m.kind, "data-seq": m.seq });
    // The action in the game's own public words (as the table display's log says it), then
    // the rule it applied in two lines at most (the whole on hover). A message of version 1
    // (an older dashboard's store) has its events in `words`, read the same way.
    const detail = m.words.join("; ");
    li.append(el("b", {}, m.action), el("span", { class: "words", title: detail }, detail));
    if (m.retracted) li.classList.add("retracted");
    return li;
  });
  $("log").replaceChildren(...items);
}

function retracted(messages) {
  const gone = new Set(messages.flatMap((m) => m.retracts || []));
  return messages.map((m) => Object.assign({}, m, { retracted: gone.has(m.seq) }));
}

// A thumbnail draws the table's screen at a tablet's width, then scales all of it to fit its
// frame: every game's screen is taller than the frame in its own way (a map and its panels,
// a board and its players), and a cropped board would hide half the table.
function fitThumbnail() {
  const screen = $("screen");
  const scale = Math.min(1, innerWidth / Math.max(screen.scrollWidth, 1), innerHeight / Math.max(screen.scrollHeight, 1));
  screen.style.transform = "scale(" + scale + ")";
}

async function liveTable() {
  const table = document.body.dataset.table;
  if (page === "thumb") new ResizeObserver(fitThumbnail).observe($("screen"));
  let state = null;
  let screen = null;
  let log = [];
  async function poll() {
    const query = state ? "?game=" + state.game_id + "&after=" + (state.message ? state.message.seq : 0) : "";
    const fresh = await json("/api/tables/" + encodeURIComponent(table) + "/latest" + query).catch(() => null);
    if (fresh) {
      if (!state || state.game_id !== fresh.game_id) {
        if (state) { location.reload(); return; }
        screen = await mountScreen(fresh.about);
      }
      state = fresh;
      if (page === "live") {
        const game = await json("/api/tables/" + encodeURIComponent(table) + "/games/" + fresh.game_id);
        log = retracted(game.messages);
      }
      renderMessage(screen, fresh.about, fresh.message, log);
      $("progress").textContent = (fresh.message ? fresh.message.seq : 0) + " actions";
    }
    setTimeout(poll, page === "thumb" ? 1500 : 500);
  }
  poll();
}

async function replayGame() {
  const table = document.body.dataset.table;
  const game = await json("/api/tables/" + encodeURIComponent(table) + "/games/" + document.body.dataset.gameId);
  const messages = retracted(game.messages);
  const screen = await mountScreen(game.game);
  const scrubber = $("scrubber");
  scrubber.max = Math.max(messages.length - 1, 0);
  function draw(at) {
    scrubber.value = at;
    const message = messages[at];
    renderMessage(screen, game.game, message, messages.slice(0, at + 1));
    $("position").textContent = message ? "action " + message.seq + " of " + game.last_seq : "no actions";
    $("progress").textContent = messages.length + " of " + game.last_seq + " received";
  }
  scrubber.addEventListener("input", () => draw(Number(scrubber.value)));
  $("step-back").addEventListener("click", () => draw(Math.max(0, Number(scrubber.value) - 1)));
  $("step-next").addEventListener("click", () => draw(Math.min(messages.length - 1, Number(scrubber.value) + 1)));
  draw(messages.length - 1);
}

// --- every table ------------------------------------------------------------------------------

const THUMB = { width: 1000, height: 680 };

function tableCard(row) {
  const card = el("article", { class: "table-card", id: "table-" + row.table, "data-table": row.table });
  const head = el("h2");
  head.append(el("a", { href: "/tables/" + encodeURIComponent(row.table) }, "Table " + row.table), el("span", { class: "title" }));
  const frame = el("iframe", { src: "/tables/" + encodeURIComponent(row.table) + "?thumb=1", title: "the board of table " + row.table, loading: "lazy", scrolling: "no" });
  const link = el("a", { class: "frame-link", href: "/tables/" + encodeURIComponent(row.table), "aria-label": "table " + row.table + " full-screen" });
  const facts = el("dl");
  card.append(head, el("div", { class: "frame" }, ""), facts);
  const box = card.querySelector(".frame");
  box.append(frame, link);
  // The board is drawn at a tablet's width and scaled down, so every game lays out as on a
  // table's screen (a narrow frame would get the phone's layout).
  new ResizeObserver(() => { frame.style.transform = "scale(" + box.clientWidth / THUMB.width + ")"; }).observe(box);
  return card;
}

function fact(dl, name, value) {
  if (!value) return;
  dl.append(el("dt", {}, name), el("dd", {}, value));
}

function renderCard(card, row) {
  card.querySelector(".title").textContent = " · " + (row.title || "");
  const dl = card.querySelector("dl");
  dl.replaceChildren();
  const players = row.players || {};
  fact(dl, "Players", Object.entries(players).map(([role, name]) => name + " (" + words(role) + ")").join(" v "));
  fact(dl, "Turn", turnText(row.to_move, players));
  fact(dl, "Impact", impactText(row.impact).replace(/^impact /, ""));
  fact(dl, "Result", outcomeText(row.outcome, players));
  fact(dl, "Last", row.action ? row.action : "");
  fact(dl, "Record", row.received + " of " + row.last_seq + " actions");
  card.classList.toggle("finished", Boolean(row.outcome));
}

async function index() {
  const cards = {};
  async function poll() {
    const data = await json("/api/tables").catch(() => null);
    if (data) {
      for (const row of data.tables) {
        if (!cards[row.table]) { cards[row.table] = tableCard(row); $("tables").append(cards[row.table]); }
        renderCard(cards[row.table], row);
      }
      $("count").textContent = data.tables.length + " tables";
      $("standings").tBodies[0].replaceChildren(...data.standings.map((line) => {
        const tr = el("tr");
        for (const key of ["player", "wins", "draws", "games"]) tr.append(el("td", {}, String(line[key])));
        return tr;
      }));
      $("games").replaceChildren(...data.games.map((g) => {
        const li = el("li");
        li.append(el("a", { href: "/tables/" + encodeURIComponent(g.table) + "/" + g.game_id + "/replay" }, "Table " + g.table + ", game " + g.game_id), el("span", {}, " " + (g.title || "") + ", " + g.received + " actions"));
        return li;
      }));
    }
    setTimeout(poll, 2000);
  }
  poll();
}

if (page === "index") index();
else if (page === "replay") replayGame();
else liveTable();
