// Entering a board from a photo (companion kit author): click each area's centre and outline,
// link neighbours, type each area's values; every change is kept on the server as a draft at
// once, and "Write and check the kit" writes the game's kit files and shows each problem next
// to the area it concerns. The referee's token comes from the link's fragment (never sent in
// a URL) and goes in the Authorization header of every request (referee_page.js, shared with the
// set-up page).
import { el, fill, svg, t } from "/common/toolkit.js";
import { $, api, say, send, startPage } from "/static/referee_page.js";

let spec = null;          // the game's description: fields, link kinds
let draft = null;         // { kit, areas, links, image }
let problems = [];        // the last problems the server found, each pinned to what it concerns
let selected = null;      // the selected area's uid
let mode = "centre";
let linkFrom = null;      // the first area clicked in link mode
let size = { w: 1000, h: 700 };  // the photo's natural size
let saving = null;        // the save under way (a Promise), and whether another is due
let dirty = false;
let timer = null;

// --- the draft: kept after every change -----------------------------------------------------

function changed() {
  // Clicks are kept at once; typing a moment after the last key.
  dirty = true;
  showSaved("saving");
  clearTimeout(timer);
  timer = setTimeout(flush, 250);
}

async function flush() {
  if (saving) return;
  while (dirty) {
    dirty = false;
    const sent = { kit: draft.kit, areas: draft.areas, links: draft.links };
    saving = send("/kit-author/api/draft", sent, "PUT");
    try {
      const answer = await saving;
      if (!dirty) { problems = answer.problems; drawProblems(); }
      showSaved(dirty ? "saving" : "saved");
    } catch (error) {
      showSaved("failed", error.message);
      saving = null;
      return;
    }
    saving = null;
  }
}

function showSaved(state, why) {
  const node = $("saved");
  node.dataset.state = state;
  node.textContent = state === "saved" ? t("Draft saved")
    : state === "saving" ? t("Saving…") : fill(t("Not saved: {why}"), { why: why || "" });
}

// --- areas and links ------------------------------------------------------------------------

function area(uid) { return draft.areas.find((a) => a.uid === uid) || null; }

function label(one) {
  const id = one.values[spec.id_field];
  return id ? String(id) : "#" + one.uid.slice(1);
}

function newArea(point) {
  const next = Math.max(0, ...draft.areas.map((a) => Number(a.uid.slice(1)))) + 1;
  const values = {};
  for (const field of spec.area_fields) if (field.default !== null) values[field.key] = field.default;
  const made = { uid: "a" + next, centre: point, outline: [], values };
  draft.areas.push(made);
  select(made.uid);
  setMode("outline");
  changed();
}

function addCorner(point) {
  const one = area(selected);
  if (!one) { say("area-problem", t("Select an area first: its outline is drawn around it.")); return; }
  if (one.outline.length >= 64) { say("area-problem", t("An outline has at most 64 corners.")); return; }
  one.outline.push(point);
  changed();
  draw();
}

function linkTo(uid) {
  if (!linkFrom || linkFrom === uid) { linkFrom = uid; select(uid); hint(); draw(); return; }
  const kind = $("link-kind").value;
  const known = draft.links.find((l) => (l.a === linkFrom && l.b === uid) || (l.a === uid && l.b === linkFrom));
  if (known) {
    say("area-problem", t("These two areas are already linked: change the link's kind in the list."));
  } else {
    draft.links.push({ a: linkFrom, b: uid, kind });
    changed();
  }
  linkFrom = null;
  select(uid);
  hint();
}

function deleteArea() {
  const gone = selected;
  draft.areas = draft.areas.filter((a) => a.uid !== gone);
  draft.links = draft.links.filter((l) => l.a !== gone && l.b !== gone);
  problems = problems.filter((p) => p.area !== gone);
  select(null);
  changed();
}

// --- the photo and what is drawn on it -------------------------------------------------------

function pointOf(event) {
  const box = $("overlay").getBoundingClientRect();
  const clamp = (v) => Math.min(1, Math.max(0, Math.round(v * 10000) / 10000));
  return [clamp((event.clientX - box.left) / box.width), clamp((event.clientY - box.top) / box.height)];
}

function inside(point, outline) {
  let found = false;
  for (let i = 0, j = outline.length - 1; i < outline.length; j = i++) {
    const [xi, yi] = outline[i]; const [xj, yj] = outline[j];
    if ((yi > point[1]) !== (yj > point[1]) && point[0] < ((xj - xi) * (point[1] - yi)) / (yj - yi) + xi) found = !found;
  }
  return found;
}

function areaAt(point) {
  // The nearest centre within reach, else the area whose outline holds the point.
  const reach = 0.025;
  let best = null; let bestDistance = reach;
  for (const one of draft.areas) {
    if (!one.centre) continue;
    const dx = (one.centre[0] - point[0]) * size.w / Math.max(size.w, size.h);
    const dy = (one.centre[1] - point[1]) * size.h / Math.max(size.w, size.h);
    const distance = Math.hypot(dx, dy);
    if (distance < bestDistance) { best = one; bestDistance = distance; }
  }
  if (best) return best;
  return draft.areas.find((one) => one.outline.length >= 3 && inside(point, one.outline)) || null;
}

function clicked(event) {
  const point = pointOf(event);
  say("area-problem", "");
  if (mode === "outline") { addCorner(point); return; }
  const hit = areaAt(point);
  if (mode === "centre") {
    if (hit) select(hit.uid); else newArea(point);
    return;
  }
  if (!hit) { say("area-problem", t("No area there: click an area's centre or inside its outline.")); return; }
  if (mode === "link") linkTo(hit.uid); else select(hit.uid);
}

function xy(point) { return [point[0] * size.w, point[1] * size.h]; }

function draw() {
  const overlay = $("overlay");
  overlay.setAttribute("viewBox", "0 0 " + size.w + " " + size.h);
  const unit = Math.max(size.w, size.h) / 100;
  const bad = new Set(problems.filter((p) => p.area).map((p) => p.area));
  const badLinks = new Set(problems.filter((p) => p.link !== null).map((p) => p.link));
  const parts = [];
  for (const one of draft.areas) {
    if (one.outline.length) {
      const shape = svg(one.outline.length >= 3 ? "polygon" : "polyline", {
        points: one.outline.map((p) => xy(p).join(",")).join(" "),
        class: "outline" + (one.uid === selected ? " selected" : "") + (bad.has(one.uid) ? " bad" : ""),
        "data-uid": one.uid });
      parts.push(shape);
    }
  }
  draft.links.forEach((link, index) => {
    const a = area(link.a); const b = area(link.b);
    if (!a || !b || !a.centre || !b.centre) return;
    const [x1, y1] = xy(a.centre); const [x2, y2] = xy(b.centre);
    parts.push(svg("line", { x1, y1, x2, y2, class: "link kind-" + spec.link_kinds.indexOf(link.kind) + (badLinks.has(index) ? " bad" : ""), "data-link": index }));
  });
  for (const one of draft.areas) {
    if (one.uid === selected && mode === "outline") {
      for (const corner of one.outline) {
        const [cx, cy] = xy(corner);
        parts.push(svg("circle", { cx, cy, r: unit * 0.35, class: "corner" }));
      }
    }
    if (!one.centre) continue;
    const [cx, cy] = xy(one.centre);
    const classes = "centre" + (one.uid === selected ? " selected" : "") + (one.uid === linkFrom ? " from" : "") + (bad.has(one.uid) ? " bad" : "");
    parts.push(svg("circle", { cx, cy, r: unit * 0.8, class: classes, "data-uid": one.uid }));
    const text = svg("text", { x: cx, y: cy - unit * 1.2, "font-size": unit * 1.6, class: "name" });
    text.textContent = label(one);
    parts.push(text);
  }
  overlay.replaceChildren(...parts);
  $("counts").textContent = fill(t("Areas: {areas} · links: {links}"), { areas: draft.areas.length, links: draft.links.length });
}

async function showPhoto() {
  if (!draft.image) { $("stage").hidden = true; $("no-photo").hidden = false; return; }
  const response = await api("/kit-author/api/image");
  if (!response.ok) { $("stage").hidden = true; $("no-photo").hidden = false; return; }
  const url = URL.createObjectURL(await response.blob());
  const img = $("photo");
  await new Promise((done) => { img.onload = done; img.onerror = done; img.src = url; });
  size = { w: img.naturalWidth || 1000, h: img.naturalHeight || 700 };
  $("stage").hidden = false;
  $("no-photo").hidden = true;
  draw();
}

async function upload(file) {
  say("photo-problem", "");
  if (!file) return;
  if (!["image/jpeg", "image/png"].includes(file.type)) { say("photo-problem", t("Choose a JPEG or PNG photo.")); return; }
  try {
    await send("/kit-author/api/image", file);
    draft.image = file.type === "image/png" ? "board.png" : "board.jpg";
    await showPhoto();
  } catch (error) { say("photo-problem", error.message); }
}

// --- the side panel: the selected area, the kit, the problems ---------------------------------

function select(uid) {
  selected = uid;
  drawArea();
  draw();
}

function setMode(next) {
  mode = next;
  if (mode !== "link") linkFrom = null;
  for (const button of document.querySelectorAll("#tools .mode")) button.setAttribute("aria-pressed", String(button.dataset.mode === mode));
  $("undo-corner").hidden = $("finish-outline").hidden = mode !== "outline";
  hint();
  draw();
}

function hint() {
  const texts = {
    centre: "Click the centre of an area to add it (or an area's centre to select it).",
    outline: "Click the corners of the selected area's outline, in order; then Outline done.",
    link: linkFrom ? "Now click the area to link it to." : "Click two areas to link them, with the kind chosen.",
    select: "Click an area to select it.",
  };
  $("hint").textContent = t(texts[mode]);
}

function input(field, value, onChange, owner) {
  // One field's input: a checkbox, a list of choices, a number or text.
  const id = owner + "-" + field.key;
  let node;
  if (field.kind === "bool") {
    node = el("input", { type: "checkbox", id });
    node.checked = Boolean(value);
    node.addEventListener("change", () => onChange(node.checked));
    return node;
  }
  if (field.kind === "choice") {
    node = el("select", { id });
    node.append(...field.choices.map((choice) => el("option", { value: choice }, t(choice))));
    node.value = value === null || value === undefined ? "" : String(value);
    node.addEventListener("change", () => onChange(node.value));
    return node;
  }
  node = el("input", { id, type: field.kind === "int" ? "number" : "text", maxlength: "80", spellcheck: "false" });
  if (field.kind === "int") { node.inputMode = "numeric"; if (field.min !== null) node.min = field.min; if (field.max !== null) node.max = field.max; }
  node.value = value === null || value === undefined ? "" : String(value);
  node.addEventListener("input", () => onChange(node.value === "" ? null : node.value));
  return node;
}

function fieldRow(field, value, onChange, owner) {
  const row = el("div", { class: "field field-" + field.kind, "data-field": field.key });
  const box = input(field, value, onChange, owner);
  const name = el("label", { for: box.id }, t(field.label) + (field.required ? " *" : ""));
  row.append(name, box, el("p", { class: "field-problem", role: "alert", hidden: "" }));
  if (field.help) row.title = t(field.help);
  return row;
}

function drawArea() {
  const one = area(selected);
  $("no-area").hidden = Boolean(one);
  $("area-form").hidden = $("delete-area").hidden = $("links-title").hidden = !one;
  $("area-title").textContent = one ? label(one) : "";
  if (!one) { $("area-form").replaceChildren(); $("area-links").replaceChildren(); return; }
  $("area-form").replaceChildren(...spec.area_fields.map((field) => fieldRow(field, one.values[field.key], (value) => {
    one.values[field.key] = value;
    if (field.key === spec.id_field) { $("area-title").textContent = label(one); draw(); }
    changed();
  }, "area")));
  drawLinks(one);
  drawProblems();
}

function drawLinks(one) {
  const items = [];
  draft.links.forEach((link, index) => {
    if (link.a !== one.uid && link.b !== one.uid) return;
    const other = area(link.a === one.uid ? link.b : link.a);
    const kind = el("select", { "aria-label": t("kind") });
    kind.append(...spec.link_kinds.map((k) => el("option", { value: k }, t(k))));
    kind.value = link.kind;
    kind.addEventListener("change", () => { link.kind = kind.value; changed(); draw(); });
    const remove = el("button", { type: "button", class: "remove", "aria-label": t("Remove this link") }, "×");
    remove.addEventListener("click", () => {
      draft.links.splice(index, 1);
      problems = problems.filter((p) => p.link === null);
      changed(); drawLinks(one); draw();
    });
    const name = el("span", { class: "other" }, other ? label(other) : "?");
    name.addEventListener("click", () => other && select(other.uid));
    items.push(el("li", { "data-link": index }));
    items[items.length - 1].append(name, kind, remove);
  });
  if (!items.length) items.push(el("li", { class: "help" }, t("None yet: use Link.")));
  $("area-links").replaceChildren(...items);
}

function drawKit() {
  $("kit-form").replaceChildren(...spec.kit_fields.map((field) => fieldRow(field, draft.kit[field.key], (value) => {
    draft.kit[field.key] = value;
    changed();
  }, "kit")));
  const kinds = $("link-kind");
  kinds.replaceChildren(...spec.link_kinds.map((k) => el("option", { value: k }, t(k))));
  $("notes").textContent = t(spec.notes);
}

function problemText(problem) {
  const fields = problem.area ? spec.area_fields : spec.kit_fields;
  const field = fields.find((f) => f.key === problem.field);
  const where = problem.file ? problem.file + (problem.line ? ":" + problem.line : "") + (problem.entry ? " " + problem.entry : "") : "";
  let reason = field ? problem.reason : t(problem.reason);
  if (field && reason.startsWith(field.label + ": ")) reason = t(field.label) + ": " + detail(reason.slice(field.label.length + 2));
  return { where, reason };
}

function detail(text) {
  // The server's few words about a typed value, in the page's language.
  const bound = /^at (most|least) (-?\d+)$/.exec(text);
  if (bound) return fill(t(bound[1] === "most" ? "at most {n}" : "at least {n}"), { n: bound[2] });
  const choices = /^one of (.+)$/.exec(text);
  if (choices) return fill(t("one of {choices}"), { choices: choices[1].split(", ").map(t).join(", ") });
  const taken = /^'(.+)' is already the id of another (\w+)$/.exec(text);
  if (taken) return fill(t("'{id}' is already the id of another area"), { id: taken[1] });
  return t(text);
}

function drawProblems() {
  // Each problem in the list (click: its area), and beside its field when its area is shown.
  for (const node of document.querySelectorAll(".field-problem")) { node.textContent = ""; node.hidden = true; }
  for (const node of document.querySelectorAll(".field.bad")) node.classList.remove("bad");
  const items = problems.map((problem) => {
    const { where, reason } = problemText(problem);
    const one = problem.area ? area(problem.area) : null;
    const item = el("li", { class: problem.area ? "of-area" : "of-kit" });
    if (one) {
      const name = el("button", { type: "button", class: "go" }, label(one));
      name.addEventListener("click", () => { setMode("select"); select(one.uid); });
      item.append(name, " ");
    } else if (problem.link !== null && draft.links[problem.link]) {
      const link = draft.links[problem.link];
      item.append(el("b", {}, [link.a, link.b].map((u) => (area(u) ? label(area(u)) : "?")).join(" – ")), " ");
    }
    item.append(reason);
    if (where) item.append(el("small", {}, " (" + where + ")"));
    const box = problem.field && document.querySelector(
      (problem.area ? (problem.area === selected ? "#area-form" : null) : "#kit-form") + " [data-field='" + problem.field + "'] .field-problem");
    if (box) { box.textContent = reason; box.hidden = false; box.parentElement.classList.add("bad"); }
    return item;
  });
  $("problems").replaceChildren(...items);
  const own = problems.filter((p) => p.area && p.area === selected && !p.field);
  $("area-issues").replaceChildren(...own.map((p) => el("li", {}, problemText(p).reason)));
  $("area-issues").hidden = !own.length;
  $("problems-title").hidden = !problems.length;
  $("problem-count").textContent = String(problems.length);
  draw();
}

async function writeKit() {
  clearTimeout(timer);
  for (let tries = 0; tries < 20 && (dirty || saving); tries += 1) {  // the kit is written from the kept draft
    if (saving) await saving.catch(() => null); else await flush();
  }
  $("write").disabled = true;
  say("write-result", t("Writing…"));
  $("write-result").className = "";
  try {
    const done = await send("/kit-author/api/write", {});
    problems = done.problems;
    say("write-result", done.ok ? fill(t("The kit checks: written in {folder}"), { folder: done.folder })
      : fill(t("Written in {folder}; problems to fix: {count}"), { folder: done.folder, count: done.problems.length }));
    $("write-result").className = done.ok ? "good" : "bad";
    say("check-command", done.check_command);
    drawProblems();
    $("write-result").scrollIntoView({ block: "start" });
  } catch (error) {
    say("write-result", error.message);
    $("write-result").className = "bad";
  }
  $("write").disabled = false;
}

// --- start ---------------------------------------------------------------------------------------

function wire(state) {
  $("overlay").addEventListener("click", clicked);
  for (const button of document.querySelectorAll("#tools .mode")) button.addEventListener("click", () => setMode(button.dataset.mode));
  $("finish-outline").addEventListener("click", () => setMode("centre"));
  $("undo-corner").addEventListener("click", () => {
    const one = area(selected);
    if (one && one.outline.length) { one.outline.pop(); changed(); draw(); }
  });
  $("delete-area").addEventListener("click", deleteArea);
  $("photo-file").addEventListener("change", () => upload($("photo-file").files[0]));
  $("write").addEventListener("click", writeKit);
  if (state.camera) {
    $("camera-photo").hidden = false;
    $("camera-photo").addEventListener("click", async () => {
      say("photo-problem", "");
      try {
        await send("/kit-author/api/camera", {});
        draft.image = "board.jpg";
        await showPhoto();
      } catch (error) { say("photo-problem", error.message); }
    });
  }
  window.addEventListener("beforeunload", (event) => { if (dirty || saving) event.preventDefault(); });
}

async function start() {
  const data = await startPage("/kit-author/api/state", () => t("The kit author page needs the referee's link: open the link companion kit author printed (it carries the referee's token)."), "author");
  if (!data) return;
  spec = data.spec;
  draft = data.draft;
  problems = data.problems;
  $("kit-name").textContent = t(spec.title) + " · " + draft.name;
  drawKit();
  wire(data);
  setMode(draft.areas.length ? "select" : "centre");
  select(null);
  showSaved("saved");
  await showPhoto();
  drawProblems();
  document.body.dataset.ready = "true";
}

start();
