// The replay viewer: a stored game step by step, with its moves in words beside the board.
// The page shell (companion.js) imports this module on the replay page and calls
// `startReplay(shell)`; the shell draws the header and the game's own screen, this module the
// timeline, the move list and the banner.
// Everything shown comes from the server already filtered for this viewer (the public while a
// game runs, everything once it has ended): nothing is hidden here.
import { el, fill, t } from "/common/toolkit.js";

export async function startReplay(shell) {
  const game = document.body.dataset.gameId;
  const $ = (id) => document.getElementById(id);
  const scrubber = $("scrubber");
  const base = "/api/replay/" + encodeURIComponent(game);
  const at = (n) => base + "?at=" + n;  // the shell's `json` asks in this device's language

  const [first, book] = await Promise.all([
    shell.json(at(askedAt() ?? 0)), shell.json(base + "/moves")]);
  await shell.setGame(first.game);
  await shell.mountScreen(base + "/board");
  const total = first.total;
  const turns = book.turns || [];
  scrubber.max = String(total);
  const lines = drawMoves(book);

  let target = first.at;  // the position asked for last: steps count from it, not the drawn one
  let asked = 0;          // only the answer to the last question is drawn, whatever order answers come in

  function draw(data) {
    scrubber.value = String(data.at);
    $("position").textContent = data.at + " / " + data.total;
    const last = data.last && data.action ? { role: data.last.role, words: data.action } : null;
    $("last-action").textContent = last ? said(last) : data.at === 0 ? t("The start") : "";
    for (const line of lines.querySelectorAll("li.current")) {
      line.classList.remove("current");
      line.removeAttribute("aria-current");
    }
    const current = lines.querySelector('li[data-at="' + data.at + '"]');
    if (current) {
      current.classList.add("current");
      current.setAttribute("aria-current", "step");
      keepInSight(lines, current);
    }
    banner(data.outcome, data.game);
    follow(data.at);
    shell.render({ role: data.role, version: data.at, view: data.view, to_move: data.to_move,
      legal: [], alert: null, pairing: {}, last: data.last || null });
  }

  async function go(where) {
    const n = Math.max(0, Math.min(total, Number(where)));
    if (!Number.isFinite(n)) return;
    target = n;
    const mine = ++asked;
    const data = await shell.json(at(n));
    if (mine === asked) draw(data);
  }

  function turn(direction) {
    const marks = direction > 0 ? turns.filter((n) => n > target) : turns.filter((n) => n < target).reverse();
    return marks.length ? marks[0] : (direction > 0 ? total : 0);
  }

  // The timeline's buttons, the slider, the keyboard and the move list all go through `go`.
  const moves = {
    first: () => 0, "turn-back": () => turn(-1), "step-back": () => target - 1,
    "step-next": () => target + 1, "turn-next": () => turn(1), last: () => total,
  };
  for (const [id, where] of Object.entries(moves)) $(id).addEventListener("click", () => go(where()));
  scrubber.addEventListener("input", () => go(scrubber.value));
  lines.addEventListener("click", (event) => {
    const line = event.target.closest("li[data-at]");
    if (line && !event.target.closest(".thumb")) go(line.dataset.at);
  });
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const typing = event.target.closest && event.target.closest("input:not([type=range]), textarea, select");
    if (typing) return;
    const keys = {
      ArrowLeft: event.shiftKey ? "turn-back" : "step-back",
      ArrowRight: event.shiftKey ? "turn-next" : "step-next",
      PageUp: "turn-back", PageDown: "turn-next", Home: "first", End: "last",
    };
    const move = keys[event.key];
    if (!move) return;
    event.preventDefault();  // the slider's own arrow keys would step a second time
    go(moves[move]());
  });
  window.addEventListener("hashchange", () => {
    const n = askedAt();
    if (n !== null && n !== target) go(n);
  });
  draw(first);

  // --- the move list ------------------------------------------------------------------------

  function drawMoves(data) {
    const list = $("moves");
    const start = el("li", { "data-at": "0", class: "start" });
    start.append(el("span", { class: "n" }, "0"), el("span", { class: "words" }, t("The start")));
    const items = [start];
    for (const move of data.moves) items.push(moveLine(move));
    list.replaceChildren(...items);
    watchThumbnails(list);
    return list;
  }

  function moveLine(move) {
    const classes = [move.undone ? "taken-back" : "", move.correction ? "correction" : "",
      move.undo ? "undo" : ""].filter(Boolean).join(" ");
    const line = el("li", { "data-at": String(move.seq), "data-source": move.source, class: classes });
    line.append(el("span", { class: "n" }, String(move.seq)),
      el("span", { class: "words" }, said(move)),
      el("span", { class: "from", title: t("Where it came from") }, move.from));
    const detail = [];
    if (move.undone) detail.push(el("span", { class: "taken-back-label" }, t("taken back")));
    if (move.correction && move.by) detail.push(el("span", { class: "by" }, t("correction by") + " " + move.by));
    if (move.note) detail.push(el("q", { class: "note" }, move.note));
    if (move.rule) {  // the rule's number on every line (its summary on hover), in full for a correction
      const rule = el("span", { class: "rule", "data-rule": move.rule },
        t("rule") + " " + move.rule + (move.correction && move.summary ? ": " + move.summary : ""));
      if (move.summary) rule.title = move.summary;
      detail.push(rule);
    }
    if (detail.length) {
      const box = el("span", { class: "detail" });
      detail.forEach((part, index) => { if (index) box.append(" · "); box.append(part); });
      line.append(box);
    }
    if (move.snapshot) {
      const thumb = el("img", { class: "thumb", alt: t("the camera's snapshot of action") + " " + move.seq,
        "data-src": move.snapshot, width: "160", height: "120" });
      thumb.addEventListener("click", () => thumb.classList.toggle("big"));
      line.append(thumb);
    }
    return line;
  }

  function said(move) { return (actor(move) ? actor(move) + ": " : "") + move.words; }

  function actor(move) {
    // Who acted, where the game's words leave it out ("Deploy 3 soldiers to Usuki"): the
    // player's side, in this device's language, as the shell names it.
    if (move.role === "referee" || move.role === "chance") return "";
    const side = t(title(move.role));
    if (move.words.toLowerCase().includes(side.toLowerCase())) return "";
    return shell.roleName ? shell.roleName(move.role) : side;
  }

  function watchThumbnails(list) {
    // A snapshot may be the referee's only (while the game runs): fetched with the page's
    // token, never as a bare <img src> (which sends none), and only once it scrolls into sight.
    const load = (img) => {
      if (img.src) return;
      shell.api(img.dataset.src).then((r) => (r.ok ? r.blob() : null)).then((blob) => {
        if (blob) img.src = URL.createObjectURL(blob);
      }).catch(() => {});
    };
    const thumbs = list.querySelectorAll("img.thumb[data-src]");
    if (!("IntersectionObserver" in window)) { thumbs.forEach(load); return; }
    const watcher = new IntersectionObserver((seen) => {
      for (const entry of seen) if (entry.isIntersecting) { load(entry.target); watcher.unobserve(entry.target); }
    }, { root: list, rootMargin: "200px" });
    thumbs.forEach((img) => watcher.observe(img));
  }

  function keepInSight(list, line) {
    // Scroll the list only (never the page, which would jump on a phone).
    const top = line.offsetTop - list.offsetTop;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + line.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top + line.offsetHeight - list.clientHeight;
    }
  }

  // --- the banner, the link to a move ---------------------------------------------------------

  function banner(outcome, about) {
    const box = $("victory");
    shell.show(box, Boolean(outcome));
    if (!outcome) return;
    const trophy = el("svg", { viewBox: "0 0 24 24", width: "36", height: "36", "aria-hidden": "true" });
    trophy.append(el("path", { d: "M6 3h12v2h3v3a4 4 0 0 1-4 4h-.4A5 5 0 0 1 13 15v3h3v3H8v-3h3v-3a5 5 0 0 1-3.6-3H7a4 4 0 0 1-4-4V5h3zm0 4H5v1a2 2 0 0 0 1.2 1.8A5 5 0 0 1 6 9zm12 0v2a5 5 0 0 1-.2.8A2 2 0 0 0 19 8V7z" }));
    const players = (about && about.players) || {};
    const winners = outcome.winners || (outcome.winner ? [outcome.winner] : []);
    const named = winners.map((role) => shell.roleName ? shell.roleName(role)
      : title(role) + (players[role] ? " (" + players[role] + ")" : ""));
    const all = named.length > 1 ? named.slice(0, -1).join(", ") + " " + t("and") + " " + named[named.length - 1] : named.join("");
    const headline = !winners.length ? t("A draw") : winners.length === 1 ? all + " " + t("wins")
      : fill(t("{winners} share the victory"), { winners: all });
    const why = [outcome.termination ? String(outcome.termination).replaceAll("_", " ") : "",
      outcome.rule ? t("rule") + " " + outcome.rule : ""].filter(Boolean).join(", ");
    const words = el("span", {});
    words.append(el("strong", {}, headline));
    if (why) words.append(" · " + why);
    box.replaceChildren(trophy, words);
  }

  function follow(n) {
    // The address follows the position (a token in the fragment stays, for a reload), and the
    // share link is this position's, without any token.
    const params = new URLSearchParams(location.hash.slice(1));
    params.delete("at");
    const rest = params.toString();
    const hash = "#at=" + n + (rest ? "&" + rest : "");
    if (location.hash !== hash) history.replaceState(null, "", hash);
    const link = $("share");
    link.href = location.pathname + location.search + "#at=" + n;
  }
}

function askedAt() {
  // The position a link asks for (`/replay/ID#at=N`), or null.
  const value = new URLSearchParams(location.hash.slice(1)).get("at");
  const n = value === null || value === "" ? NaN : Number(value);
  return Number.isInteger(n) && n >= 0 ? n : null;
}

function title(role) {
  const words = String(role).replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
