// Tabletop Companion's front-end toolkit: what every page script and every game's screen share,
// as Rally the Troops' client.js serves every game's play.js: elements (HTML and SVG), the
// device's language and its words, a sheet of choices on a board, and a board's zoom (buttons,
// and pinch on a phone).
//
// Everything imports it by one URL, /common/toolkit.js (served by companion.web.screens to the
// table's app, the broadcast's, the set-up page's and the kit author's), so that a page and the
// game screen it mounts share one module: the words the page loads are the ones the screen's
// t() reads. It names no game and no role.

// --- elements ------------------------------------------------------------------------------------

const SVG_NS = "http://www.w3.org/2000/svg";
const SVG_TAGS = new Set(["svg", "g", "line", "polyline", "polygon", "path", "circle", "ellipse",
  "rect", "text", "tspan", "title", "defs", "use", "marker", "pattern"]);

function build(node, attrs, text) {
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== "") node.textContent = text;
  return node;
}

/** An element with its attributes and text: in SVG's namespace for SVG's tags, else HTML. */
export function el(tag, attrs = {}, text = "") {
  return build(SVG_TAGS.has(tag) ? document.createElementNS(SVG_NS, tag) : document.createElement(tag), attrs, text);
}

/** An SVG element whatever its tag (one el() would make as HTML, such as `a` or `clipPath`). */
export function svg(tag, attrs = {}, text = "") {
  return build(document.createElementNS(SVG_NS, tag), attrs, text);
}

// --- the device's language and its words -------------------------------------------------------------

/** The languages a page offers, each named in itself: the server's list when the page carries
 * it (`data-languages` on the body), else English and Italian. */
export function languages() {
  try {
    return JSON.parse(document.body.dataset.languages || "null") || { en: "English", it: "Italiano" };
  } catch (error) {
    return { en: "English", it: "Italiano" };
  }
}

/** The language this device chose on any page (kept), else the one the browser asks for if it
 * is offered, else English. */
export function chosenLanguage(offered = languages()) {
  const kept = localStorage.getItem("companion.lang");
  if (kept && offered[kept]) return kept;
  const asked = (navigator.language || "en").slice(0, 2).toLowerCase();
  return offered[asked] ? asked : "en";
}

/** This device's language (`en`, `it`): a change reloads the page. */
export const lang = chosenLanguage();

let words = {};  // English -> this device's language, for the page and the game's screen

/** The page's (and the game's) words in this device's language, from the catalog the server
 * merges (`/i18n/LANG/NAME.json`: NAME a game, or `shell` for the pages' own words). English
 * needs none; a catalog that cannot be read leaves the English. */
export async function loadWords(name = "shell") {
  words = {};
  if (lang === "en") return;
  try {
    const response = await fetch("/i18n/" + lang + "/" + encodeURIComponent(name) + ".json");
    words = (await response.json()).words || {};
  } catch (error) { words = {}; }
}

/** An English text in this device's language (itself where no translation is known). */
export function t(text) { return words[text] || text; }

/** A text with its `{name}` values put in: `fill(t("Pair {side}"), { side })`. A value not given
 * leaves its `{name}` (so a missing one shows), an empty one puts nothing. */
export function fill(text, values) {
  return String(text).replace(/\{(\w+)\}/g, (slot, key) => (key in values ? String(values[key] ?? "") : slot));
}

/** The page's fixed words in this device's language: `data-t` (text), `data-t-placeholder`
 * and `data-t-alt`; and the page's `lang`. */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  for (const node of root.querySelectorAll("[data-t-placeholder]")) node.placeholder = t(node.dataset.tPlaceholder);
  for (const node of root.querySelectorAll("[data-t-alt]")) node.alt = t(node.dataset.tAlt);
  document.documentElement.lang = lang;
}

/** The language list (a select) filled with the offered languages; a change is kept for every
 * page of this device and the page reloads in it. */
export function languageSwitch(select, offered = languages()) {
  if (!select) return;
  select.replaceChildren(...Object.entries(offered).map(([code, name]) => {
    const option = el("option", { value: code }, name);
    option.selected = code === lang;
    return option;
  }));
  select.addEventListener("change", () => {
    localStorage.setItem("companion.lang", select.value);
    location.reload();
  });
}

// --- a sheet of choices on a board -------------------------------------------------------------------

/** `box` filled and shown as a sheet of choices (a tap on a board's piece or place): its title,
 * lines of text (of class `lineClass`), a button per legal choice in its words (of class
 * `choiceClass`, with `data-choice-id`) that calls `chosen(choice)`, and a `close` button (the
 * screen's word for it) that hides the sheet. */
export function choiceSheet(box, { title, lines, choices, chosen, close, lineClass = "", choiceClass = "" }) {
  box.replaceChildren(el("h3", {}, title));
  for (const line of lines) box.append(el("p", lineClass ? { class: lineClass } : {}, line));
  for (const choice of choices) {
    const attrs = { "data-choice-id": String(choice.id) };
    if (choiceClass) attrs.class = choiceClass;
    const button = el("button", attrs, choice.words);
    button.addEventListener("click", () => chosen(choice));
    box.append(button);
  }
  const shut = el("button", { class: "close" }, close);
  shut.addEventListener("click", () => { box.hidden = true; });
  box.append(shut);
  box.hidden = false;
}

// --- a board's zoom --------------------------------------------------------------------------------

const MOST = 4;  // the closest zoom: a quarter of the board across the box

/**
 * A board's zoom, for every game's screen: buttons in `bar` (out, `homeLabel` for the whole
 * board, in); on a phone two fingers pinch and one pans (the browser scrolls the box); on a
 * trackpad, its pinch (a wheel with Ctrl). The board is widened inside its scrolling box `scroll`;
 * `set(scale, fx, fy)` zooms about a point of the visible area (fractions of it), keeping it under
 * the fingers. The bar has the class `zoom` and the box `zoom-box` (companion.css styles them; a
 * bar with `over-board` stands over the board's corner, and only while zoomed in); both have the
 * class `zoomed` while zoomed in; the board carries its scale as `data-zoom`. `follow(board)`
 * moves the zoom to a board drawn anew in the same box; `gesturing()` says (once) whether the
 * touch that ends now pinched, so a tap that ended a pinch opens nothing.
 *
 * `least` (CSS px, 0 for none) is the fine print's threshold: a board's element of class `fine`
 * (a hex's number, a province's printed values) is shown only while its text is drawn at least
 * that large, so a dense board read from across the table (the shared table asks 18 px) shows
 * what a player reads from there at the whole-board zoom and the rest once zoomed in. Fine print
 * is weighed again whenever the zoom or the box's size changes or the board is drawn anew.
 */
export function zoom(bar, scroll, board, homeLabel, least = 0) {
  let scale = 1;
  const weigh = () => finePrint(board, least);
  function show() {
    board.style.width = scale === 1 ? "" : (100 * scale) + "%";
    board.dataset.zoom = scale.toFixed(2);
    scroll.classList.toggle("zoomed", scale > 1);
    bar.classList.toggle("zoomed", scale > 1);
    weigh();
  }
  function set(next, fx = 0.5, fy = 0.5) {
    const before = { x: scroll.scrollLeft + fx * scroll.clientWidth, y: scroll.scrollTop + fy * scroll.clientHeight };
    const ratio = Math.min(MOST, Math.max(1, next)) / scale;
    scale = Math.min(MOST, Math.max(1, next));
    show();
    scroll.scrollLeft = before.x * ratio - fx * scroll.clientWidth;
    scroll.scrollTop = before.y * ratio - fy * scroll.clientHeight;
  }
  const drawn = new MutationObserver(weigh);
  const watch = () => { drawn.disconnect(); drawn.observe(board, { childList: true, subtree: true }); };
  const control = { set, scale: () => scale, follow(next) { board = next; watch(); show(); } };
  zoomButtons(bar, homeLabel, control);
  scroll.classList.add("zoom-box");
  control.gesturing = pinching(scroll, control);
  if (least > 0) {
    watch();
    new ResizeObserver(weigh).observe(scroll);
  }
  show();
  return control;
}

/** Hides each of the board's `fine` elements whose text is drawn under `least` CSS px (its
 * computed font size times the board's scale on the screen where it stands), shows the others;
 * the board's `data-fine-print` says `all` while every one is shown (a screen may then leave out
 * what stood in for them, such as fewer, larger names), else `some`. */
export function finePrint(board, least) {
  let hidden = 0;
  for (const node of least > 0 ? board.querySelectorAll(".fine") : []) {
    const ctm = (node.parentNode && node.parentNode.getScreenCTM) ? node.parentNode.getScreenCTM() : null;
    if (!ctm) continue;  // not laid out yet: the next resize weighs it
    const drawn = parseFloat(getComputedStyle(node).fontSize) * Math.hypot(ctm.a, ctm.b);
    const hide = drawn < least - 0.01;
    if (hide) hidden += 1;
    if (hide !== (node.getAttribute("display") === "none")) {
      if (hide) node.setAttribute("display", "none"); else node.removeAttribute("display");
    }
  }
  const said = hidden ? "some" : "all";
  if (board.dataset.finePrint !== said) board.dataset.finePrint = said;
}

function zoomButtons(bar, homeLabel, control) {
  // Out, the whole board, in: a step is half as much again.
  bar.classList.add("zoom");
  const out = el("button", { type: "button", "data-zoom": "out", "aria-label": t("Zoom out") }, "−");
  const home = el("button", { type: "button", "data-zoom": "fit", "aria-label": homeLabel }, homeLabel);
  const closer = el("button", { type: "button", "data-zoom": "in", "aria-label": t("Zoom in") }, "+");
  out.addEventListener("click", () => control.set(control.scale() / 1.5));
  home.addEventListener("click", () => control.set(1));
  closer.addEventListener("click", () => control.set(control.scale() * 1.5));
  bar.append(out, home, closer);
}

function pinching(scroll, control) {
  // Two touching fingers zoom by how far apart they move, about the point between them; a
  // trackpad's pinch comes as a wheel with Ctrl. Returns gesturing(): whether the touch pinched.
  const fingers = new Map();
  let pinch = null;
  let pinched = false;
  const at = (x, y) => {
    const r = scroll.getBoundingClientRect();
    return [(x - r.left) / r.width, (y - r.top) / r.height];
  };
  scroll.addEventListener("pointerdown", (e) => {
    if (e.pointerType !== "touch") return;
    if (!fingers.size) pinched = false;  // a new touch: what the last one did is done
    fingers.set(e.pointerId, e);
  });
  scroll.addEventListener("pointermove", (e) => {
    if (!fingers.has(e.pointerId)) return;
    fingers.set(e.pointerId, e);
    if (fingers.size !== 2) { pinch = null; return; }
    const [a, b] = [...fingers.values()];
    const d = Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY);
    if (!pinch) { pinch = { d, scale: control.scale() }; return; }
    pinched = true;
    control.set(pinch.scale * d / pinch.d, ...at((a.clientX + b.clientX) / 2, (a.clientY + b.clientY) / 2));
  });
  const lift = (e) => { fingers.delete(e.pointerId); pinch = null; };
  scroll.addEventListener("pointerup", lift);
  scroll.addEventListener("pointercancel", lift);
  scroll.addEventListener("wheel", (e) => {
    if (!e.ctrlKey) return;  // a plain wheel scrolls the page
    e.preventDefault();
    control.set(control.scale() * Math.exp(-e.deltaY / 200), ...at(e.clientX, e.clientY));
  }, { passive: false });
  return () => { const was = pinched; pinched = false; return was; };
}
