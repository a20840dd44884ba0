// The set-up page (companion setup --page): the camera's live preview with the calibration on
// it, Save calibration, the phones' address, the referee's link and the table mat.
// The referee's token comes from the link's fragment (never sent in a URL) and goes in the
// Authorization header of every request (referee_page.js, shared with the kit author); the page
// holds nothing the server did not send it.
import { fill, lang, t } from "/common/toolkit.js";
import { $, api, refuse, say, send, startPage } from "/static/referee_page.js";

let fps = 2;
let shown = null;     // the object URL of the frame on screen
let lastFrame = -1;   // the newest frame number drawn

function number(value) { return value.toLocaleString(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }); }

// --- the table's address, the referee's link, the games ---------------------------------------

function drawState(state) {
  $("play-url").textContent = state.play_url;
  $("play-url").href = state.play_url;
  if (document.activeElement !== $("public-url")) $("public-url").value = state.public_url;
  $("referee-qr").innerHTML = state.referee_qr;  // SVG drawn by this server (segno)
  $("referee-link").value = state.referee_link;
  $("sources").replaceChildren(...state.sources.map((source) => {
    const option = document.createElement("option");
    option.value = source;
    return option;
  }));
  if (document.activeElement !== $("source")) $("source").value = state.source;
  $("game").replaceChildren(...Object.entries(state.games).map(([name, title]) => {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = title;
    option.selected = name === state.game;
    return option;
  }));
  fps = Math.min(Math.max(Number(state.fps) || 1, 0.2), 5);
}

// --- the live preview -------------------------------------------------------------------------

function checkWords(check) {
  const values = { seen: check.corners_seen, total: check.corners_total };
  if (!check.placed) return fill(t("{seen} of {total} corners: the board cannot be placed"), values);
  return fill(t("{seen} of {total} corners, fit {fit} mm"), Object.assign(values, { fit: number(check.fit_mm) }));
}

function drawCheck(check) {
  const line = $("check");
  line.textContent = checkWords(check);
  line.className = !check.placed ? "bad" : check.missing.length ? "partial" : "good";
  say("missing", check.missing.length && !check.other_board
    ? fill(t("Not seen: corner markers {ids}. Move the camera or the mat until all four are in view."), { ids: check.missing.join(", ") })
    : "");
  say("camera-problem", check.placed ? "" : check.problem);
  say("resolution", check.warning || "");  // too few pixels for these tags (issue 33)
  $("save").disabled = !check.placed;  // the server would refuse: nothing to place it from
}

function drawFrame(blob, check) {
  const img = $("preview");
  const url = URL.createObjectURL(blob);
  img.onload = () => { if (shown && shown !== url) URL.revokeObjectURL(shown); shown = url; };
  img.src = url;
  img.hidden = false;
  img.dataset.frame = String(check.frame);
  $("waiting").hidden = true;
  drawCheck(check);
}

function noFrame(data) {
  $("preview").hidden = true;
  $("waiting").hidden = false;
  $("waiting").textContent = t("No picture from the camera.");
  $("check").textContent = "";
  say("missing", "");
  say("camera-problem", data.problem || data.message);
  $("save").disabled = true;
}

async function nextFrame() {
  const response = await api("/setup/api/preview?lang=" + lang);
  if (response.status === 401 || response.status === 403) {
    refuse((await response.json().catch(() => ({}))).message || "");
    return false;
  }
  const type = response.headers.get("Content-Type") || "";
  if (response.ok && type.startsWith("image/jpeg")) {
    const check = JSON.parse(response.headers.get("X-Companion-Check") || "{}");
    const blob = await response.blob();
    if (check.frame !== lastFrame) drawFrame(blob, check);
    lastFrame = check.frame;
  } else {
    noFrame(await response.json().catch(() => ({ message: response.status + " " + response.statusText })));
  }
  return true;
}

async function previewLoop() {
  // One request at a time, at most `fps` a second, none while the page is not looked at.
  for (;;) {
    const started = performance.now();
    let going = true;
    if (!document.hidden) {
      try { going = await nextFrame(); } catch (error) { say("camera-problem", t("The companion cannot be reached: is companion setup --page still running?")); }
    }
    if (!going) return;
    const wait = Math.max(100, 1000 / fps - (performance.now() - started));
    await new Promise((done) => setTimeout(done, wait));
  }
}

// --- the forms and buttons ----------------------------------------------------------------------

function wire() {
  $("camera-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      drawState(await send("/setup/api/camera", { source: $("source").value, game: $("game").value }));
      say("camera-problem", "");
      say("saved", "");
      lastFrame = -1;
    } catch (error) { say("camera-problem", error.message); }
  });
  $("game").addEventListener("change", () => $("camera-form").requestSubmit());
  $("save").addEventListener("click", async () => {
    $("saved").className = "";
    say("saved", t("Saving…"));
    try {
      const done = await send("/setup/api/save", {});
      say("saved", fill(t("Saved: {seen} corners, fit {fit} mm, in {path}"), { seen: done.corners_seen, fit: number(done.fit_mm), path: done.saved }));
      $("saved").className = "good";
    } catch (error) {
      say("saved", error.message);
      $("saved").className = "bad";
    }
  });
  $("url-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      $("public-url").blur();
      drawState(await send("/setup/api/public-url", { public_url: $("public-url").value }));
      say("url-problem", "");
    } catch (error) { say("url-problem", error.message); }
  });
  $("referee-link").addEventListener("focus", () => $("referee-link").select());
  $("mat").addEventListener("click", downloadMat);
}

async function downloadMat() {
  // The mat comes with the token (a plain link could not send it), then is saved as a file.
  say("mat-problem", "");
  const name = $("game").value;
  const response = await api("/setup/api/mat.pdf?game=" + encodeURIComponent(name));
  if (!response.ok) {
    say("mat-problem", (await response.json().catch(() => ({}))).message || response.statusText);
    return;
  }
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = name + "-mat.pdf";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

async function start() {
  const data = await startPage("/setup/api/state", () => t("The set-up page needs the referee's link: open the link companion setup --page printed (it carries the referee's token)."), "setup");
  if (!data) return;
  drawState(data);
  wire();
  previewLoop();
}

start();
