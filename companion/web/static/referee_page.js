// What the referee's own small pages share (the set-up page, setup.js, and the kit author,
// kit_author.js; companion/web/referee_page.py serves them): the referee's token, read from the
// link's fragment (never sent in a URL) and sent in the Authorization header of every request;
// the page's words in the device's language; a change sent and its refusal said in a sentence;
// a page opened without the referee's link says so. The elements and words are the toolkit's.
import { lang, languageSwitch, loadWords, translatePage } from "/common/toolkit.js";

const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";

/** An element of the page by its id. */
export function $(id) { return document.getElementById(id); }

let refusal = { said: () => "", main: "" };  // what the page says when it is refused, what it hides

/**
 * Opens the page: its words in this device's language, its fixed texts translated, its language
 * list; then its state from its API (`statePath`), shown in `main`. Without the referee's token
 * (or with another) the page is refused: null, and `said()` (the page's own sentence, in its
 * language) where the server's English one will not do.
 */
export async function startPage(statePath, said, main) {
  refusal = { said, main };
  await loadWords("shell");
  translatePage();
  languageSwitch($("lang"));
  const response = await api(statePath);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    refuse(data.message || response.status + " " + response.statusText);
    return null;
  }
  $(main).hidden = false;
  return data;
}

/** A request to the page's API with the referee's token: a body is sent as JSON, a Blob (a
 * photo) as itself; nothing is cached. */
export function api(path, options = {}) {
  const headers = { Authorization: "Bearer " + token };
  let body = options.body;
  if (body instanceof Blob) {
    headers["Content-Type"] = body.type;
  } else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(body);
  }
  return fetch(path, { method: options.method || "GET", headers, body, cache: "no-store" });
}

/** A change: the server's answer, or an Error carrying its sentence. */
export async function send(path, body, method = "POST") {
  const response = await api(path, { method, body });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.message || response.status + " " + response.statusText);
  return data;
}

/** A line of the page said (or, empty, hidden). */
export function say(id, text) {
  const node = $(id);
  node.textContent = text || "";
  node.hidden = !text;
}

/** The page refused (no token, or not the referee's): the server's sentence in English, in
 * another language the page's own; the page's content hidden. */
export function refuse(message) {
  say("refused-why", lang === "en" && message ? message : refusal.said());
  $("refused").hidden = false;
  $(refusal.main).hidden = true;
}
