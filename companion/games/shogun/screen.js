// Shogun's screen: the board side the game is played on (the kit's provinces in their five
// regions, neighbours by land as lines between them and by sea as dashed arcs round the edge),
// each province in its owner's colour with its armies counted, its building spaces filled with
// castles, temples and Nô theatres, its revolt markers; neutral provinces plain, and with 3
// players the 8 marked provinces greyed out (2). Under the map: the action track (the 10 action
// cards in the order turned, the face-down ones as backs, the current one ringed: 3.1, 3.6), the
// tower's tray by colour (6) and each player's points, war chests and rice as big numbers, with
// the turn order and the special card taken (3.5).
//
// Side panels: the round (season and year, the events face up and the round's event with what
// it changes, the special cards, the bids once revealed), winter (rice, revolts, and the why of
// every point: 5.1-5.3), and on a player's phone their own secret plan and bid (3.3), built by
// dragging (or tapping) their province and war-chest cards onto the 10 action spaces and the
// auction space, or with a picker on each space, and sent as the one `plan` action it is. The
// views are filtered on the server: another player's plan or bid never reaches this module.
//
// On the shared table (page "table") everything is drawn to be read from 1.5 m and the board
// shrinks to one screenful; `banner(state)` gives the big line ("SPRING · BATTLE A · RED ACTS").
// Zoom buttons above the board and pinch on a phone (the toolkit's zoom); the shared table shows
// its buttons only once zoomed in (a pinch, a trackpad's pinch), over the board's top right corner.
// Every label goes through t() (the Italian is in locales/it/screen.po); the elements, the words
// and the zoom are the front-end toolkit's (companion/web/static/toolkit.js).

import { el, fill, t, zoom } from "/common/toolkit.js";

const CSS = `
#sg-wrap { position: relative; }
#sg-scroll.zoomed { max-height: 78vh; }  /* zoomed in, the board scrolls in its box both ways */
#sg-board { width: 100%; height: auto; display: block; background: #cfe0e8; border-radius: .4rem; user-select: none; -webkit-user-select: none; }
@media (min-width: 801px) {  /* the room fit() measures; zoomed in, the box keeps it and the board grows in it */
  body[data-page="table"] #sg-board { max-height: var(--sg-room, calc(100vh - 7.6rem)); width: auto; max-width: 100%; margin: 0 auto; }
  body[data-page="table"] #sg-scroll.zoomed { max-height: var(--sg-room, calc(100vh - 7.6rem)); }
  body[data-page="table"] #sg-scroll.zoomed #sg-board { max-height: none; max-width: none; }
}
#sg-board .band { stroke: none; }
#sg-board .region-name { font: 800 24px system-ui, sans-serif; fill: #3a2f20; text-anchor: middle; letter-spacing: .05em; }
#sg-board .land-link { stroke: #7a6440; stroke-width: 6; stroke-linecap: round; }
#sg-board .sea-link { fill: none; stroke: #1f5fa8; stroke-width: 4; stroke-dasharray: 10 7; }
#sg-board .land-link.doubtful, #sg-board .sea-link.doubtful { stroke: #e65100; stroke-dasharray: 4 8; }
.sg-source { margin: .2rem 0 .4rem; padding: .25rem .6rem; border-left: 4px solid #e65100; background: #fff3e0; color: #4e2a00; font-size: .9rem; border-radius: .2rem; }
#sg-board .tile { fill: #f5edd8; stroke: #8a7a5a; stroke-width: 2; }
#sg-board .province.neutral .tile { fill: #f2ecdf; stroke: #9b8f78; stroke-dasharray: 6 4; }
#sg-board .province.unused .tile { fill: url(#sg-hatch); stroke: #a8a8a8; stroke-dasharray: 4 4; }
#sg-board .province.unused .name { fill: #8a8a8a; }
#sg-board .province.owned .tile { stroke-width: 5; }
#sg-board .province.pending .tile { stroke: #e65100; stroke-width: 8; }
#sg-board .province.marked .tile { stroke: #e65100; stroke-width: 7; stroke-dasharray: none; }
#sg-board .province .name { font: 700 18px system-ui, sans-serif; fill: #2b2116; text-anchor: middle; }
#sg-board .province .values { font: 12px system-ui, sans-serif; fill: #5a4a30; text-anchor: middle; }
#sg-board .province .note { font: italic 13px system-ui, sans-serif; fill: #777; text-anchor: middle; }
#sg-board .army rect { stroke: #0008; stroke-width: 1.5; }
#sg-board .army .count { font: 800 27px system-ui, sans-serif; text-anchor: middle; }
#sg-board .army .who { font: 700 11px system-ui, sans-serif; text-anchor: middle; fill: #2b2116; }
#sg-board .space { fill: #fffdf7; stroke: #a89a80; stroke-width: 1.3; stroke-dasharray: 3 2; }
#sg-board .building .shape { fill: #3b2f22; }
#sg-board .marker circle { fill: #111; stroke: #e53935; stroke-width: 2.5; }
#sg-board .marker text { font: 800 13px system-ui, sans-serif; fill: #fff; text-anchor: middle; }
#sg-board .arrow { fill: none; stroke: #e65100; stroke-width: 8; stroke-linecap: round; opacity: .9; }
#sg-board .card rect.face { fill: #fffdf7; stroke: #6b5a3c; stroke-width: 2; }
#sg-board .card.back rect.face { fill: url(#sg-back); stroke: #3a2610; }
#sg-board .card.done { opacity: .45; }
#sg-board .card.now rect.face { stroke: #e65100; stroke-width: 6; fill: #fff3e0; }
#sg-board .card .n { font: 700 13px system-ui, sans-serif; fill: #6b5a3c; }
#sg-board .card.back .n { fill: #f3e3c3; }
#sg-board .card .label { font: 800 19px system-ui, sans-serif; fill: #2b2116; text-anchor: middle; }
#sg-board .strip-title { font: 700 17px system-ui, sans-serif; fill: #2b2116; }
#sg-board .tray .cube rect { stroke: #0008; stroke-width: 1.5; }
#sg-board .tray .cube text { font: 800 20px system-ui, sans-serif; text-anchor: middle; }
#sg-board .tray .text { font: 600 18px system-ui, sans-serif; fill: #2b2116; }
#sg-board .player rect.frame { fill: #fffdf7; stroke: #6b5a3c; stroke-width: 2; }
#sg-board .player.acting rect.frame { stroke: #e65100; stroke-width: 6; }
#sg-board .player.you rect.frame { fill: #fff7da; }
#sg-board .player .head { font: 800 20px system-ui, sans-serif; }
#sg-board .player .big { font: 800 46px system-ui, sans-serif; fill: #2b2116; text-anchor: middle; }
#sg-board .player .cap { font: 600 15px system-ui, sans-serif; fill: #5a4a30; text-anchor: middle; }
#sg-board .player .small { font: 14px system-ui, sans-serif; fill: #2b2116; }
#sg-board.phone .province .name { font-size: 34px; }
#sg-board.phone .army .count { font-size: 36px; }
#sg-board.phone .army .who { font-size: 13px; }
#sg-board.phone .region-name { font-size: 26px; }
#sg-board.phone .card .label { font-size: 24px; }
#sg-board.phone .player .head { font-size: 24px; }
#sg-board.phone .player .cap { font-size: 18px; }
#sg-board.phone .player .small { font-size: 18px; }
#sg-board.phone .strip-title, #sg-board.phone .tray .text { font-size: 22px; }
/* The shared table, read from 1.5 m (issue 32): every text at 29 units, 18 px and more as the
   board is drawn at 1280x800 (0.64 px a unit under a banner of two lines, 0.7 under one); a long
   one narrowed to its room, as tall. The
   fine print (a province's rice and taxes, the colour's letters under armies, a card's place,
   a player's supply line) waits until zoomed in (the toolkit's zoom). */
#sg-board.table .province .name, #sg-board.table .region-name, #sg-board.table .card .label,
#sg-board.table .strip-title, #sg-board.table .tray .text, #sg-board.table .tray .cube text,
#sg-board.table .player .head, #sg-board.table .player .cap, #sg-board.table .marker text,
#sg-board.table .army .count { font-size: 29px; }
.sg-panel { font-size: 1rem; }
body[data-page="table"] .sg-panel { font-size: 1.15rem; }
.sg-panel ul { margin: .2rem 0; padding-left: 0; list-style: none; }
.sg-panel li { margin: .25rem 0; }
.sg-panel small { color: #5a4a30; }
.sg-swatch { display: inline-block; min-width: 2.2em; padding: 0 .3em; border-radius: .25em; text-align: center; font-weight: 700; border: 1px solid #0006; }
.sg-card { display: inline-block; padding: .1rem .45rem; border-radius: .3rem; border: 2px solid #6b5a3c; background: #fffdf7; font-weight: 600; }
.sg-card.event-now { border-color: #e65100; background: #fff3e0; }
#sg-plan .hand { display: flex; flex-wrap: wrap; gap: .3rem; margin: .3rem 0; }
#sg-plan .hand .sg-card { cursor: grab; touch-action: manipulation; }
#sg-plan .hand .sg-card.chest { border-color: #a07a1a; background: #fff6d5; }
#sg-plan .hand .sg-card.used { opacity: .35; }
#sg-plan .hand .sg-card.picked { outline: 3px solid #e65100; }
#sg-plan .spaces { display: grid; grid-template-columns: minmax(0, 1fr); gap: .25rem; }
#sg-plan .space { display: grid; grid-template-columns: 2rem minmax(0, 1fr) minmax(0, 1.2fr); gap: .3rem; align-items: center;
  border: 2px dashed #a89a80; border-radius: .35rem; padding: .2rem .3rem; background: #fffdf7; }
#sg-plan .space.filled { border-style: solid; border-color: #2e7d32; }
#sg-plan .space.over { background: #e8f5e9; }
#sg-plan .space.bid { border-color: #a07a1a; }
#sg-plan .space .num { font-weight: 800; text-align: center; }
#sg-plan .space select { font: inherit; width: 100%; padding: .2rem; }
#sg-plan .problem { color: #8e2b20; font-weight: 600; }
#sg-plan .buttons { display: flex; flex-wrap: wrap; gap: .3rem; }
#sg-plan button.send { background: #2d6a2f; color: #fff; border-color: #2d6a2f; font-weight: 700; }
.sg-why li { border-bottom: 1px solid #eee; padding-bottom: .2rem; }
`;

const COLOURS = {
  red: ["#c62828", "#fff"], blue: ["#1f5fbf", "#fff"], yellow: ["#f4c20d", "#111"],
  purple: ["#6a1b9a", "#fff"], black: ["#1b1b1b", "#fff"], farmers: ["#2e7d32", "#fff"],
};
const TINTS = { red: "#f6d4d0", blue: "#d3e0f5", yellow: "#fbf0c0", purple: "#e6d3ef", black: "#d6d6d6" };
const COLOUR_NAMES = { red: "Red", blue: "Blue", yellow: "Yellow", purple: "Purple", black: "Black", farmers: "Farmers" };
const BAND_TINTS = ["#e4ecd3", "#ecdcc7", "#dde3d0", "#e9d9d4", "#d8e4df"];
const ACTIONS = ["castle", "temple", "theatre", "rice", "taxes", "deploy_5", "deploy_3", "deploy_1", "battle_a", "battle_b"];
const ACTION_SHORT = { castle: "Castle", temple: "Temple", theatre: "Nô theatre", rice: "Rice", taxes: "Taxes",
  deploy_5: "Deploy 5", deploy_3: "Deploy 3", deploy_1: "Deploy 1", battle_a: "Battle A", battle_b: "Battle B" };
const ACTION_NAMES = { castle: "Build a castle", temple: "Build a temple", theatre: "Build a Nô theatre",
  rice: "Confiscate rice", taxes: "Collect taxes", deploy_5: "Deploy 5 armies", deploy_3: "Deploy 3 armies",
  deploy_1: "Deploy / move 1 army", battle_a: "Battle / move A", battle_b: "Battle / move B" };
const SPECIAL_NAMES = { chest: "+1 war chest", rice: "+1 rice", six_armies: "6 armies",
  attack: "+1 army attacking", defence: "+1 army defending" };
const BUILDING_NAMES = { castle: "castle", temple: "temple", theatre: "Nô theatre" };
const KIND_PLURALS = { castle: "castles", temple: "temples", theatre: "Nô theatres" };
const SEASONS = ["Spring", "Summer", "Autumn"];
const SETUP = new Set(["deal", "claim", "drawing", "place", "load"]);
const MAJORITIES = { castle: 3, temple: 2, theatre: 1 };

const WIDE = { tile: { w: 124, h: 96 }, gap: 8, left: 74, top: 30, right: 34, bottom: 30 };
const TALL = { tile: { w: 150, h: 112 }, gap: 8, left: 30, top: 64, right: 30, bottom: 30 };

function paint(colour) { return COLOURS[colour] || ["#777", "#fff"]; }
function chestValue(card) { const m = /^chest_(\d)$/.exec(String(card)); return m ? Number(m[1]) : null; }
function sum(values) { return values.reduce((a, b) => a + b, 0); }

function squeeze(node, room) {
  // A long label is narrowed to fit its room: labels never run into each other.
  if (node.getComputedTextLength && node.getComputedTextLength() > room) {
    node.setAttribute("textLength", room);
    node.setAttribute("lengthAdjust", "spacingAndGlyphs");
  }
}

// --- where things go ------------------------------------------------------------------------------

function grid(provinces, narrow) {
  // The kit's places as a grid: each distinct x a column, each distinct y a row (the example
  // board's regions are its rows); on a phone held upright, turned so the regions are columns.
  const key = (v) => Math.round(v * 100);
  const xs = [...new Set(provinces.map((p) => key(p.xy[0])))].sort((a, b) => a - b);
  const ys = [...new Set(provinces.map((p) => key(p.xy[1])))].sort((a, b) => a - b);
  const g = narrow ? TALL : WIDE;
  const at = {};
  for (const p of provinces) {
    let [c, r] = [xs.indexOf(key(p.xy[0])), ys.indexOf(key(p.xy[1]))];
    if (narrow) [c, r] = [r, c];
    at[p.id] = { x: g.left + c * (g.tile.w + g.gap), y: g.top + r * (g.tile.h + g.gap), w: g.tile.w, h: g.tile.h, c, r };
  }
  const cols = Math.max(...Object.values(at).map((b) => b.c)) + 1;
  const rows = Math.max(...Object.values(at).map((b) => b.r)) + 1;
  const width = g.left + cols * (g.tile.w + g.gap) - g.gap + g.right;
  const height = g.top + rows * (g.tile.h + g.gap) - g.gap + g.bottom;
  return { at, width, height, cols, rows, g };
}

function seaPath(a, b, layout) {
  // A sea route as a dashed arc round the outside of the provinces it joins, so it crosses none.
  const { width, height } = layout;
  const [ax, ay, bx, by] = [a.x + a.w / 2, a.y + a.h / 2, b.x + b.w / 2, b.y + b.h / 2];
  if (a.c === b.c) {
    const left = ax < width / 2;
    const x = left ? a.x : a.x + a.w;
    const out = left ? a.x - 24 : a.x + a.w + 24;
    return `M${x} ${ay}C${out} ${ay} ${out} ${by} ${x} ${by}`;
  }
  if (a.r === b.r) {
    const top = ay < height / 2;
    const y = top ? a.y : a.y + a.h;
    const out = top ? a.y - 22 : a.y + a.h + 22;
    return `M${ax} ${y}C${ax} ${out} ${bx} ${out} ${bx} ${y}`;
  }
  return `M${ax} ${ay}L${bx} ${by}`;
}

// --- the map --------------------------------------------------------------------------------------

function drawMap(svg, side, board, layout, draw) {
  const { el, t, narrow } = draw;
  const { at } = layout;
  const regions = board.regions || [];
  const names = {};
  const bands = el("g", { class: "bands" });
  regions.forEach((region, index) => {
    const mine = side.provinces.filter((p) => p.region === region.id).map((p) => at[p.id]);
    if (!mine.length) return;
    const x0 = Math.min(...mine.map((b) => b.x)) - 5;
    const y0 = Math.min(...mine.map((b) => b.y)) - 5;
    const x1 = Math.max(...mine.map((b) => b.x + b.w)) + 5;
    const y1 = Math.max(...mine.map((b) => b.y + b.h)) + 5;
    bands.append(el("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, rx: 10, class: "band", fill: BAND_TINTS[index % BAND_TINTS.length] }));
    const label = narrow
      ? el("text", { x: (x0 + x1) / 2, y: y0 - 12, class: "region-name", "data-region": region.id }, region.name)
      : el("text", { x: 0, y: 0, class: "region-name", "data-region": region.id, transform: `translate(${x0 - 22} ${(y0 + y1) / 2}) rotate(-90)` }, region.name);
    bands.append(label);
    names[region.id] = region.name;
    label.dataset.room = String((narrow ? x1 - x0 : y1 - y0) - 12);
  });
  svg.append(bands);
  // A region's name no longer than its band (the table's larger type), so two never meet.
  for (const label of bands.querySelectorAll(".region-name")) squeeze(label, Number(label.dataset.room));
  const links = el("g", { class: "links" });
  for (const link of side.links) {
    const [a, b] = [at[link.a], at[link.b]];
    if (!a || !b) continue;
    // A doubtful link (listed by the transcription from one side only) is kept, drawn dashed
    // in orange and says so on hover, until a club checks it on its board.
    const doubt = link.doubtful ? " doubtful" : "";
    const line = link.kind === "sea"
      ? el("path", { d: seaPath(a, b, layout), class: "sea-link" + doubt, "data-link": link.a + "-" + link.b })
      : el("line", { x1: a.x + a.w / 2, y1: a.y + a.h / 2, x2: b.x + b.w / 2, y2: b.y + b.h / 2, class: "land-link" + doubt, "data-link": link.a + "-" + link.b });
    if (link.doubtful) line.append(el("title", {}, t("doubtful link: listed from one side only, check it on your board")));
    links.append(line);
  }
  svg.append(links);
  const provinces = {};
  const layer = el("g", { class: "provinces" });
  const regionName = Object.fromEntries(regions.map((r) => [r.id, r.name]));
  for (const p of side.provinces) {
    const box = at[p.id];
    const group = el("g", { id: "province-" + p.id, class: "province", "data-province": p.id });
    group.append(el("rect", { x: box.x, y: box.y, width: box.w, height: box.h, rx: 9, class: "tile" }));
    // On a phone the column says the region: the name keeps what follows it ("Higashi 1" as "1").
    const prefix = (regionName[p.region] || "") + " ";
    const label = narrow && p.name.startsWith(prefix) ? p.name.slice(prefix.length) : p.name;
    const name = el("text", { x: box.x + box.w / 2, y: box.y + (narrow ? 31 : draw.table ? 28 : 19), class: "name", "data-name": p.name }, label);
    group.append(name);
    group.append(el("g", { class: "content" }), el("title", { class: "about" }, p.name));
    layer.append(group);
    provinces[p.id] = group;
  }
  svg.append(layer);
  for (const group of Object.values(provinces)) squeeze(group.querySelector(".name"), at[group.dataset.province].w - 10);
  const marks = el("g", { id: "sg-marks" });
  svg.append(marks);
  return { provinces, marks, names };
}

function buildingShape(el, kind, x, y, s) {
  // A castle's keep with battlements, a temple's roof, a Nô mask: ink on a pale space.
  const g = el("g", { class: "building", "data-building": kind });
  if (kind === "castle") {
    g.append(el("path", { class: "shape", d: `M${x + s * .15} ${y + s * .9}V${y + s * .25}h${s * .14}v${s * .12}h${s * .14}v-${s * .12}h${s * .14}v${s * .12}h${s * .14}v-${s * .12}h${s * .14}V${y + s * .9}z` }));
  } else if (kind === "temple") {
    g.append(el("path", { class: "shape", d: `M${x + s * .05} ${y + s * .45}L${x + s * .5} ${y + s * .12}L${x + s * .95} ${y + s * .45}z M${x + s * .22} ${y + s * .5}h${s * .56}v${s * .4}h-${s * .56}z` }));
  } else {
    g.append(el("ellipse", { class: "shape", cx: x + s / 2, cy: y + s / 2, rx: s * .36, ry: s * .42 }));
    g.append(el("circle", { cx: x + s * .36, cy: y + s * .42, r: s * .07, fill: "#fff" }), el("circle", { cx: x + s * .64, cy: y + s * .42, r: s * .07, fill: "#fff" }));
  }
  return g;
}

function renderProvince(group, province, box, view, draw, extra) {
  const { el, t, short, colourNames, narrow, cards, unusedNow } = draw;
  const owner = (view.owner || {})[province.id];
  const armies = (view.armies || {})[province.id] || 0;
  const built = (view.buildings || {})[province.id] || [];
  const markers = (view.markers || {})[province.id] || 0;
  const unused = unusedNow(province);
  const classes = ["province", (unused && "unused") || (owner && "owned") || "neutral", ...extra];
  group.setAttribute("class", classes.join(" "));
  group.setAttribute("data-owner", owner || "");
  const tile = group.querySelector(".tile");
  tile.setAttribute("fill", owner ? TINTS[owner] || "#eee" : "");
  tile.style.fill = owner ? TINTS[owner] || "#eee" : "";
  tile.style.stroke = owner && !extra.length ? paint(owner)[0] : "";
  const content = group.querySelector(".content");
  content.replaceChildren();
  const said = [province.name];
  const [x, y, w, h] = [box.x, box.y, box.w, box.h];
  if (unused) {
    content.append(el("text", { x: x + w / 2, y: y + h * .62, class: "note" }, t("not in play")));
    said.push(t("not in play"));
    group.querySelector("title.about").textContent = said.join("; ");
    return;
  }
  const s = narrow ? 22 : 20;  // a building space: three fit beside the armies
  const top = y + (narrow ? 40 : draw.table ? 34 : 28);
  if (owner && armies) {
    const [face, ink] = paint(owner);
    const cw = narrow ? 56 : 46;
    const ch = narrow ? 48 : 38;
    const army = el("g", { class: "army", "data-where": province.id, "data-side": owner, "data-count": String(armies) });
    army.append(el("rect", { x: x + 6, y: top, width: cw, height: ch, rx: 6, fill: face }));
    army.append(el("text", { x: x + 6 + cw / 2, y: top + ch * .76, class: "count", fill: ink }, String(armies)));
    army.append(el("text", { x: x + 6 + cw / 2, y: top + ch + 13, class: "who fine" }, short[owner]));
    army.append(el("title", {}, fill(t(armies === 1 ? "{who}: {n} army" : "{who}: {n} armies"), { who: colourNames[owner], n: armies })));
    content.append(army);
    said.push(fill(t(armies === 1 ? "{who}: {n} army" : "{who}: {n} armies"), { who: colourNames[owner], n: armies }));
  } else if (owner) {
    content.append(el("text", { x: x + 29, y: top + 22, class: "who fine", style: "font: 700 12px system-ui" }, short[owner]));
    said.push(colourNames[owner]);
  } else {
    said.push(t("neutral"));
  }
  // The building spaces (1-3), filled from the left.
  const sx = x + w - 6 - province.spaces * (s + 3) + 3;
  for (let i = 0; i < province.spaces; i += 1) {
    const bx = sx + i * (s + 3);
    content.append(el("rect", { x: bx, y: top, width: s, height: s, rx: 3, class: "space" }));
    if (built[i]) content.append(buildingShape(el, built[i], bx, top, s));
  }
  if (built.length) said.push(built.map((b) => t(BUILDING_NAMES[b] || b)).join(", "));
  if (markers) {
    const m = el("g", { class: "marker", "data-markers": String(markers) });
    const r = narrow ? 13 : draw.table ? 15 : 11;
    m.append(el("circle", { cx: x + w - 6 - r, cy: top + s + r + 5, r }), el("text", { x: x + w - 6 - r, y: top + s + r + (draw.table ? 14 : 9.5) }, String(markers)));
    m.append(el("title", {}, fill(t("{n} revolt markers"), { n: markers })));
    content.append(m);
    said.push(fill(t("{n} revolt markers"), { n: markers }));
  }
  const card = cards[province.id];
  if (card && !narrow) {
    content.append(el("text", { x: x + w / 2, y: y + h - 6, class: "values fine" }, fill(t("rice {rice} · taxes {taxes}"), { rice: card.rice, taxes: card.taxes })));
  }
  group.querySelector("title.about").textContent = said.join("; ");
}

function renderMarks(layer, last, at, provinces, el) {
  layer.replaceChildren();
  for (const group of Object.values(provinces)) group.classList.remove("marked");
  const marks = (last && last.marks) || {};
  for (const place of marks.places || []) if (provinces[place]) provinces[place].classList.add("marked");
  for (const [from, to] of marks.arrows || []) {
    const [a, b] = [at[from], at[to]];
    if (!a || !b || a === b) continue;
    const [x1, y1, x2, y2] = [a.x + a.w / 2, a.y + a.h / 2, b.x + b.w / 2, b.y + b.h / 2];
    const [mx, my] = [(x1 + x2) / 2 - (y2 - y1) * .15, (y1 + y2) / 2 + (x2 - x1) * .15];
    layer.append(el("path", { d: `M${x1} ${y1}Q${mx} ${my} ${x2} ${y2}`, class: "arrow", "marker-end": "url(#sg-head)", "data-from": from, "data-to": to }));
  }
}

// --- the strip under the map: the action track, the tray, the players ------------------------

function stripLayout(layout, players, narrow) {
  const width = layout.width - 2 * 14;
  const perRow = narrow ? 5 : 10;
  const cardW = (width - (perRow - 1) * 8) / perRow;
  const cardH = narrow ? 78 : 70;
  const trackRows = 10 / perRow;
  const y0 = layout.height + 4;
  const track = { x: 14, y: y0 + 24, w: width, cardW, cardH, perRow, h: 24 + trackRows * (cardH + 8) };
  const tray = { x: 14, y: y0 + track.h + 6, w: width, h: narrow ? 48 : 40 };
  const perLine = narrow ? 2 : players.length;
  const boxH = narrow ? 196 : 158;
  const lines = Math.ceil(players.length / perLine);
  const boxW = (width - (perLine - 1) * 10) / perLine;
  const people = { x: 14, y: tray.y + tray.h + 8, boxW, boxH, perLine, h: lines * (boxH + 10) };
  return { track, tray, people, height: people.y + people.h + 4 };
}

function renderTrack(group, box, view, draw) {
  const { el, t } = draw;
  group.replaceChildren(el("text", { x: box.x, y: box.y - 7, class: "strip-title" }, t("Action cards")));
  const row = view.actions || [];
  const acting = view.phase === "actions";
  for (let i = 0; i < 10; i += 1) {
    const col = i % box.perRow;
    const line = Math.floor(i / box.perRow);
    const [x, y] = [box.x + col * (box.cardW + 8), box.y + line * (box.cardH + 8)];
    const card = row[i];
    const classes = ["card", ["back", "up"][Number(Boolean(card))]];
    if (card && acting && i === view.step) classes.push("now");
    if (card && acting && i < view.step) classes.push("done");
    const g = el("g", { class: classes.join(" "), "data-index": String(i), "data-card": card || "" });
    g.append(el("rect", { x, y, width: box.cardW, height: box.cardH, rx: 7, class: "face" }));
    g.append(el("text", { x: x + 6, y: y + 15, class: "n fine" }, String(i + 1)));
    if (card) {
      const label = el("text", { x: x + box.cardW / 2, y: y + box.cardH * (draw.table ? .72 : .68), class: "label" }, t(ACTION_SHORT[card] || card));
      g.append(label, el("title", {}, t(ACTION_NAMES[card] || card)));
      group.append(g);
      squeeze(label, box.cardW - 10);
    } else {
      g.append(el("title", {}, t("face down")));
      group.append(g);
    }
  }
}

function renderTray(group, box, view, draw) {
  const { el, t, short, colourNames, players } = draw;
  group.replaceChildren();
  const tray = view.tray || {};
  const inside = typeof view.tower === "number" ? view.tower : sum(Object.values(view.tower || {}));
  const title = el("text", { x: box.x, y: box.y + box.h * .65, class: "text" }, t("Tower tray:"));
  group.append(title);
  let x = box.x + Math.max(130, title.getComputedTextLength ? title.getComputedTextLength() + 12 : 130);
  const keys = [...players.filter((p) => tray[p]), ...(tray.farmers ? ["farmers"] : [])];
  if (!keys.length) {
    group.append(el("text", { x, y: box.y + box.h * .65, class: "text" }, t("empty")));
    x += 80;
  }
  for (const key of keys) {
    const [face, ink] = paint(key);
    const cube = el("g", { class: "cube", "data-colour": key, "data-tray": String(tray[key]) });
    const rect = el("rect", { x, y: box.y + 3, width: box.h * 1.9, height: box.h - 6, rx: 5, fill: face });
    const label = key === "farmers" ? t("farmers") : short[key];
    const text = el("text", { x, y: box.y + box.h * .7, fill: ink }, label + " " + tray[key]);
    cube.append(rect, text, el("title", {}, (key === "farmers" ? t("farmers") : colourNames[key]) + ": " + tray[key]));
    group.append(cube);
    // The chip as wide as its words ("farmers 3").
    const w = Math.max(box.h * 1.9, (text.getComputedTextLength ? text.getComputedTextLength() : 0) + 16);
    rect.setAttribute("width", w);
    text.setAttribute("x", x + w / 2);
    x += w + 8;
  }
  group.append(el("text", { x: x + 10, y: box.y + box.h * .65, class: "text", "data-tower": String(inside) }, fill(t("{n} cubes inside the tower"), { n: inside })));
}

function renderPeople(group, box, view, state, draw) {
  const { el, t, players, colourNames, people, short } = draw;
  group.replaceChildren();
  const order = view.order || [];
  const acting = actingPlayer(view, state);
  players.forEach((player, index) => {
    const col = index % box.perLine;
    const line = Math.floor(index / box.perLine);
    const [x, y, w, h] = [box.x + col * (box.boxW + 10), box.y + line * (box.boxH + 10), box.boxW, box.boxH];
    const classes = ["player"];
    if (player === acting) classes.push("acting");
    if (player === state.role) classes.push("you");
    const g = el("g", { class: classes.join(" "), "data-player": player });
    g.append(el("rect", { x, y, width: w, height: h, rx: 9, class: "frame" }));
    const [face, ink] = paint(player);
    g.append(el("rect", { x: x + 4, y: y + 4, width: w - 8, height: 30, rx: 6, fill: face }));
    const place = order.indexOf(player);
    const head = (place >= 0 ? (place + 1) + " · " : "") + colourNames[player] + (people[player] ? " · " + people[player] : "");
    const headText = el("text", { x: x + 12, y: y + (draw.table ? 28 : 26), class: "head", fill: ink }, head);
    g.append(headText);
    const values = [["vp", t("points")], ["chests", t("chests")], ["rice", t("rice")]];
    const narrowBox = w < 300;
    values.forEach(([key, caption], i) => {
      const cx = x + w * (i * 2 + 1) / 6;
      // The caption clear of the number's box (its font's room below the digits), so no two texts overlap.
      const [bigY, capY] = draw.table ? [80, 118] : draw.narrow ? [80, 122] : narrowBox ? [82, 114] : [80, 110];
      g.append(el("text", { x: cx, y: y + bigY, class: "big", "data-key": key }, String((view[key] || {})[player] ?? 0)));
      g.append(el("text", { x: cx, y: y + capY, class: "cap" }, caption));
    });
    const provinces = Object.values(view.owner || {}).filter((o) => o === player).length;
    const small1 = el("text", { x: x + 10, y: y + h - 30, class: "small fine" },
      fill(t("{armies} armies in supply · {provinces} provinces"), { armies: (view.reserve || {})[player] ?? 0, provinces }));
    const taken = (view.taken || {})[player];
    const special = taken !== undefined && (view.specials || [])[taken];
    const planned = (view.planned || []).includes(player);
    let second = special ? fill(t("special card: {card}"), { card: t(SPECIAL_NAMES[special] || special) }) : "";
    if (!second && view.phase === "plan") second = planned ? t("has planned") : t("planning…");
    const small2 = el("text", { x: x + 10, y: y + h - 10, class: "small fine" }, second);
    g.append(small1, small2, el("title", {}, colourNames[player] + " (" + short[player] + ")"));
    group.append(g);
    squeeze(headText, w - 20);
    for (const cap of g.querySelectorAll(".cap")) squeeze(cap, w / 3 - 8);   // apart at the table's size
    squeeze(small1, w - 20);
    squeeze(small2, w - 20);
  });
}

// --- who acts, in words ---------------------------------------------------------------------------

function actingPlayer(view, state) {
  if (view.outcome) return null;
  const pending = view.pending;
  if (pending && pending.player) return pending.player;
  if (pending && pending.attacker) return pending.attacker;
  if (view.phase === "actions" && (view.order || []).length) return view.order[view.turn] || null;
  const waiting = (view.to_move || state.to_move || []).filter((r) => r !== "chance");
  return waiting.length === 1 ? waiting[0] : null;
}

function seasonName(view, t) {
  if (SETUP.has(view.phase) || (view.phase === "events" && view.year === 1)) return t("Set-up");
  if (view.phase === "winter" || view.phase === "revolts") return t("Winter");
  return t(SEASONS[view.season] || "");
}

export function banner(state, t = (s) => s, names = {}) {
  // The big line on the shared table: the season, the step and who does what now.
  const view = state.view || {};
  const colour = (p) => t(COLOUR_NAMES[p] || p);
  const place = (p) => names[p] || p;
  let parts;
  const who = actingPlayer(view, state);
  const pending = view.pending;
  if (view.outcome) {
    const won = (view.outcome.winners || []).map(colour);  // 7: players level share the victory
    parts = [t("Game over"), !won.length ? t("A draw") : won.length === 1 ? fill(t("{who} wins"), { who: won[0] })
      : fill(t("{who} share the victory"), { who: won.slice(0, -1).join(", ") + " " + t("and") + " " + won[won.length - 1] })];
  } else if (state.paused) {
    parts = [seasonName(view, t), t("Paused")];
  } else if (SETUP.has(view.phase) || (view.phase === "events" && view.year === 1)) {
    const doing = view.phase === "load" ? t("the tower is loaded") : view.phase === "events" ? t("event cards turned")
      : who ? fill(t("{who} claims a province"), { who: colour(who) }) : t("province cards dealt");
    parts = [t("Set-up"), doing];
  } else if (view.phase === "winter" || view.phase === "revolts" || view.phase === "events") {
    const doing = pending && pending.kind === "revolt" ? fill(t("revolt in {province}"), { province: place(pending.province) })
      : who ? fill(t("{who} chooses a revolt"), { who: colour(who) }) : t("scoring");
    parts = [t("Winter"), fill(t("year {year}"), { year: view.year }), doing];
  } else if (view.phase === "layout") {
    parts = [seasonName(view, t), t("the cards are laid out")];
  } else if (view.phase === "plan") {
    parts = [seasonName(view, t), t("planning"), fill(t("{done} of {all} planned"), { done: (view.planned || []).length, all: (view.players || []).length })];
  } else if (view.phase === "event" || view.phase === "ties") {
    parts = [seasonName(view, t), t("the event and the bids")];
  } else if (view.phase === "special") {
    parts = [seasonName(view, t), who ? fill(t("{who} takes a special card"), { who: colour(who) }) : t("special cards")];
  } else if (view.phase === "actions") {
    const card = (view.actions || [])[view.step];
    const kind = pending ? pending.kind : "";
    const at = pending ? { province: place(pending.province), who: colour(who) } : {};
    let doing = who ? fill(t("{who} acts"), { who: colour(who) }) : t("the next card is turned");
    if (kind === "battle") doing = fill(t("battle at {province}"), at);
    else if (kind === "revolt") doing = fill(t("revolt in {province}"), at);
    else if (kind === "attack") doing = fill(t("{who} attacks from {province}"), at);
    else if (kind === "move") doing = fill(t("{who} may move from {province}"), at);
    parts = [seasonName(view, t), card ? t(ACTION_SHORT[card]) : t("face down"), doing];
  } else {
    parts = [seasonName(view, t)];
  }
  return parts.filter(Boolean).join(" · ").toLocaleUpperCase(state.lang || undefined);
}

// --- the side panels --------------------------------------------------------------------------------

function swatch(el, colour, label) {
  const [face, ink] = paint(colour);
  const span = el("span", { class: "sg-swatch" }, label);
  span.style.background = face;
  span.style.color = ink;
  return span;
}

function effectWords(effect, t) {
  const n = Math.abs(effect.delta || 0);
  const action = effect.action ? t(ACTION_NAMES[effect.action] || effect.action) : "";
  const more = (effect.delta || 0) >= 0;
  switch (effect.kind) {
    case "cost": return fill(t(more ? "{action} costs {n} more chests" : "{action} costs {n} fewer chests"), { action, n });
    case "yield": return fill(t(more ? "{action} gives {n} more" : "{action} gives {n} less"), { action, n });
    case "armies": return fill(t(more ? "{action}: {n} more armies" : "{action}: {n} fewer armies"), { action, n });
    case "revolt_farmers": return fill(t("{n} more farmers in a revolt at rice or taxes"), { n });
    case "neutral_farmers": return fill(t("{n} more farmers defend a neutral province"), { n });
    case "no_sea": return t("sea routes closed");
    case "yield_max": return fill(t("{action} gives at most {n}"), { action, n });
    case "yield_min": return fill(t("{action} gives at least {n}"), { action, n });
    case "castle_defence": return fill(t("a defender with a castle throws {n} more armies"), { n });
    case "temple_guard": return t("no revolt where a temple stands");
    default: return effect.kind;
  }
}

// The event cards' titles in the screen's language: English here, the Italian edition's printed
// titles from the catalog (locales/it/words.po), as the kit's data has them.
const EVENT_TITLES = { good_harvest: "Good harvest", poor_harvest: "Poor harvest", tax_relief: "Tax relief",
  trade_boom: "Trade boom", masons: "Masons", monks: "Monks", festival: "Festival", recruits: "Recruits",
  desertion: "Desertion", unrest: "Unrest", militia: "Militia", storms: "Storms" };

function eventTitle(event, t) { return EVENT_TITLES[event.id] ? t(EVENT_TITLES[event.id]) : event.name; }

function chestsCard(chests, t) {
  // "1 chest card", "3 chests card": the catalogs say each in Italian.
  return chests === 1 ? t("1 chest card") : fill(t("{chests} chests card"), { chests });
}

function eventItem(el, event, t, now) {
  const item = el("li", { "data-event": event.id });
  item.append(el("span", { class: "sg-card" + (now ? " event-now" : "") }, eventTitle(event, t)), document.createTextNode(" "));
  const effects = (event.effects || []).map((e) => effectWords(e, t));
  effects.push(fill(t("winter: {n} rice lost"), { n: event.rice_loss }));
  item.append(el("small", {}, effects.join("; ")));
  return item;
}

function renderRound(box, view, draw) {
  const { el, t, events, colourNames, short, players } = draw;
  box.replaceChildren(el("h2", {}, fill(t("Year {year} of 2 · {season}"), { year: view.year, season: seasonName(view, t) })));
  if (view.event && events[view.event]) {
    box.append(el("h3", {}, t("This round's event")));
    const list = el("ul", { id: "sg-event-now" });
    list.append(eventItem(el, events[view.event], t, true));
    box.append(list);
  }
  box.append(el("h3", {}, t("Event cards face up")));
  const up = el("ul", { id: "sg-events-up" });
  for (const id of view.events_up || []) if (events[id]) up.append(eventItem(el, events[id], t, false));
  box.append((view.events_up || []).length ? up : el("p", {}, t("none")));
  const specials = view.specials || [];
  if (specials.length) {
    box.append(el("h3", {}, t("Special cards (turn order)")));
    const list = el("ul", { id: "sg-specials" });
    const taken = Object.fromEntries(Object.entries(view.taken || {}).map(([p, i]) => [i, p]));
    specials.forEach((card, i) => {
      const item = el("li", { "data-special": card });
      item.append(document.createTextNode((i + 1) + ". "), el("span", { class: "sg-card" }, t(SPECIAL_NAMES[card] || card)), document.createTextNode(" "));
      if (taken[i]) item.append(swatch(el, taken[i], short[taken[i]]), document.createTextNode(" " + colourNames[taken[i]]));
      list.append(item);
    });
    box.append(list);
  }
  const bids = view.bids || {};
  const shownBids = players.filter((p) => bids[p] !== undefined);
  if (view.phase !== "plan" && shownBids.length && shownBids.length === players.length) {
    box.append(el("h3", {}, t("Bids")));
    const list = el("ul", { id: "sg-bids" });
    for (const p of shownBids) {
      const item = el("li", { "data-player": p });
      item.append(swatch(el, p, short[p]), document.createTextNode(" " + cardWords(bids[p], draw)));
      list.append(item);
    }
    box.append(list);
  }
  if (view.phase === "plan") {
    const planned = view.planned || [];
    box.append(el("p", { id: "sg-planned" }, planned.length ? t("Planned:") + " " + planned.map((p) => colourNames[p]).join(", ") : t("Nobody has planned yet.")));
  }
}

function cardWords(card, draw) {
  const { t, provinceNames } = draw;
  const chests = chestValue(card);
  if (chests !== null) return chestsCard(chests, t);
  return provinceNames[card] || String(card);
}

export function scoreWhy(view, provinces) {
  // 5.3 as the screen can see it: 1 a province, 1 a building, and in each region the most
  // castles (3), temples (2), Nô theatres (1), tied players the value less 1 each.
  const players = view.players || [];
  const found = Object.fromEntries(players.map((p) => [p, { provinces: 0, buildings: 0, majorities: [] }]));
  for (const owner of Object.values(view.owner || {})) if (found[owner]) found[owner].provinces += 1;
  const counts = {};
  for (const [id, kinds] of Object.entries(view.buildings || {})) {
    const owner = (view.owner || {})[id];
    if (!found[owner] || !provinces[id]) continue;
    for (const kind of kinds) {
      found[owner].buildings += 1;
      const key = provinces[id].region + "|" + kind;
      counts[key] = counts[key] || {};
      counts[key][owner] = (counts[key][owner] || 0) + 1;
    }
  }
  for (const [key, table] of Object.entries(counts).sort()) {
    const [region, kind] = key.split("|");
    const best = Math.max(...Object.values(table));
    const leaders = Object.keys(table).filter((p) => table[p] === best);
    const value = MAJORITIES[kind] - (leaders.length > 1 ? 1 : 0);
    for (const p of leaders) if (value > 0) found[p].majorities.push({ region, kind, value, tied: leaders.length > 1 });
  }
  for (const s of Object.values(found)) s.total = s.provinces + s.buildings + sum(s.majorities.map((m) => m.value));
  return found;
}

function renderWinter(box, view, draw) {
  const { el, t, players, colourNames, short, provinces, regionNames, events, provinceNames } = draw;
  const winter = view.phase === "winter" || view.phase === "revolts";
  const scored = view.phase === "over" || (view.phase === "events" && view.year === 2);
  box.replaceChildren(el("h2", {}, scored ? t("Winter: the points scored") : winter ? t("Winter") : t("Winter, if it came now")));
  if (winter || view.season === 2) {
    const left = (view.events_up || [])[0];
    const loss = left && events[left] ? events[left].rice_loss : 0;
    const lines = el("ul", { id: "sg-rice" });
    for (const p of players) {
      const own = Object.values(view.owner || {}).filter((o) => o === p).length;
      const rice = (view.rice || {})[p] ?? 0;
      const after = winter ? rice : Math.max(0, rice - loss);
      const short_ = Math.max(0, own - after);
      const item = el("li", { "data-player": p });
      item.append(swatch(el, p, short[p]), document.createTextNode(" " + fill(t("{rice} rice for {provinces} provinces: {short} short"), { rice: after, provinces: own, short: short_ })));
      lines.append(item);
    }
    if (!winter && left && events[left]) box.append(el("p", {}, fill(t("The event card left ({event}) takes {n} rice from everyone."), { event: eventTitle(events[left], t), n: loss })));
    box.append(lines);
  }
  const revolts = view.revolts || {};
  const pending = view.pending && view.pending.kind === "revolt" ? view.pending : null;
  if (Object.keys(revolts).length || pending) {
    box.append(el("h3", {}, t("Revolts")));
    const list = el("ul", { id: "sg-revolts" });
    if (pending) list.append(el("li", { "data-revolt": pending.province }, fill(t("Now: {who} against the farmers in {province}"), { who: colourNames[pending.player] || pending.player, province: provinceNames[pending.province] || pending.province })));
    for (const [p, where] of Object.entries(revolts)) {
      if (where.length) list.append(el("li", { "data-player": p }, fill(t("{who} still faces: {provinces}"), { who: colourNames[p] || p, provinces: where.map((w) => provinceNames[w] || w).join(", ") })));
    }
    box.append(list);
  }
  const why = scoreWhy(view, provinces);
  const list = el("ul", { id: "sg-why", class: "sg-why" });
  for (const p of players) {
    const s = why[p];
    const item = el("li", { "data-player": p, "data-total": String(s.total) });
    item.append(swatch(el, p, short[p]), document.createTextNode(" "), el("strong", {}, fill(t("{n} points"), { n: s.total })), document.createTextNode(": "));
    const parts = [fill(t("{n} for provinces"), { n: s.provinces }), fill(t("{n} for buildings"), { n: s.buildings })];
    for (const m of s.majorities) {
      parts.push(fill(t(m.tied ? "{n} for the most {kind} in {region} (tied)" : "{n} for the most {kind} in {region}"),
        { n: m.value, kind: t(KIND_PLURALS[m.kind] || m.kind), region: regionNames[m.region] || m.region }));
    }
    item.append(document.createTextNode(parts.join(", ")));
    list.append(item);
  }
  box.append(list);
}

// --- the plan and bid, on the player's own phone (3.3) -------------------------------------------

function planEntry(box, view, state, draw, shell, player = state.role) {
  // `player`: the phone's own player, or, on the referee's screen, the player without a phone
  // whose plan the referee enters (issue 32: the tablet alone, never raw syntax).
  const { el, t, cards, provinceNames, colourNames } = draw;
  const role = player;
  const byReferee = state.role === "referee";
  const own = Object.entries(view.owner || {}).filter(([, o]) => o === role).map(([p]) => p).sort();
  const hand = [...own, "chest_0", "chest_1", "chest_2", "chest_3", "chest_4"];
  const needed = Math.min(11, hand.length);
  const chests = (view.chests || {})[role] ?? 0;
  const spaces = [...ACTIONS, "bid"];
  const placed = {};  // space -> card
  let picked = null;
  const describe = (card) => {
    const v = chestValue(card);
    if (v !== null) return chestsCard(v, t);
    const c = cards[card];
    return (provinceNames[card] || card) + (c ? " (" + fill(t("rice {rice} · taxes {taxes}"), { rice: c.rice, taxes: c.taxes }) + ")" : "");
  };
  box.replaceChildren(el("h2", {}, byReferee ? fill(t("{player}'s secret plan and bid"), { player: colourNames[role] || role })
    : t("Your secret plan and bid")));
  box.append(el("p", {}, fill(t("Put {n} of your cards on the spaces, each once: drag a card onto a space, or tap a card and then a space, or choose on each space."), { n: needed })));
  const handBox = el("div", { class: "hand", id: "sg-hand" });
  const chips = {};
  for (const card of hand) {
    const chip = el("span", { class: "sg-card" + (chestValue(card) !== null ? " chest" : ""), draggable: "true", "data-card": card, tabindex: "0", role: "button" }, describe(card));
    chip.addEventListener("dragstart", (event) => { event.dataTransfer.setData("text/plain", card); });
    chip.addEventListener("click", () => { picked = picked === card ? null : card; redraw(); });
    chips[card] = chip;
    handBox.append(chip);
  }
  const list = el("div", { class: "spaces", id: "sg-spaces" });
  const rows = {};
  const selects = {};
  spaces.forEach((space, i) => {
    const row = el("div", { class: "space" + (space === "bid" ? " bid" : ""), "data-space": space, "data-player": role });
    row.append(el("span", { class: "num" }, String(i + 1)));
    row.append(el("span", {}, space === "bid" ? t("Auction (your bid)") : t(ACTION_NAMES[space])));
    const select = el("select", { "aria-label": space === "bid" ? t("Auction (your bid)") : t(ACTION_NAMES[space]) });
    select.addEventListener("change", () => { put(space, select.value || null); });
    row.append(select);
    row.addEventListener("click", (event) => {
      if (event.target === select || !picked) return;
      put(space, picked);
      picked = null;
      redraw();
    });
    row.addEventListener("dragover", (event) => { event.preventDefault(); row.classList.add("over"); });
    row.addEventListener("dragleave", () => row.classList.remove("over"));
    row.addEventListener("drop", (event) => {
      event.preventDefault();
      row.classList.remove("over");
      const card = event.dataTransfer.getData("text/plain");
      if (hand.includes(card)) put(space, card);
    });
    rows[space] = row;
    selects[space] = select;
    list.append(row);
  });
  const problem = el("p", { class: "problem", id: "sg-plan-problem" });
  const send = el("button", { type: "button", class: "send", id: "sg-plan-send" }, t("Send my plan"));
  const clear = el("button", { type: "button", id: "sg-plan-clear" }, t("Clear"));
  const rest = el("button", { type: "button", id: "sg-plan-fill" }, t("Fill the empty spaces"));
  const buttons = el("div", { class: "buttons" });
  buttons.append(send, rest, clear);
  box.append(el("h3", {}, t("Your cards")), handBox, el("h3", {}, t("The spaces")), list, problem, buttons);

  function put(space, card) {
    for (const [s, c] of Object.entries(placed)) if (c === card && s !== space) delete placed[s];
    if (card) placed[space] = card; else delete placed[space];
    redraw();
  }
  function redraw() {
    const used = new Set(Object.values(placed));
    for (const [card, chip] of Object.entries(chips)) {
      chip.classList.toggle("used", used.has(card));
      chip.classList.toggle("picked", picked === card);
    }
    for (const space of spaces) {
      const select = selects[space];
      const mine = placed[space] || "";
      select.replaceChildren(el("option", { value: "" }, "—"));
      for (const card of hand) {
        if (used.has(card) && card !== mine) continue;
        if (space === "bid" && chestValue(card) !== null && chestValue(card) > chests) continue;
        const option = el("option", { value: card }, describe(card));
        if (card === mine) option.selected = true;
        select.append(option);
      }
      rows[space].classList.toggle("filled", Boolean(mine));
      rows[space].dataset.card = mine;
    }
    problem.textContent = "";
  }
  clear.addEventListener("click", () => { for (const s of Object.keys(placed)) delete placed[s]; picked = null; redraw(); });
  rest.addEventListener("click", () => {
    // The empty spaces filled with the cards left, the bid with one the player can pay.
    const left = hand.filter((c) => !Object.values(placed).includes(c));
    let room = needed - Object.keys(placed).length;
    if (!placed.bid && room > 0) {
      const pay = left.find((c) => chestValue(c) === null) || left.find((c) => (chestValue(c) ?? 0) <= chests);
      if (pay) { placed.bid = pay; left.splice(left.indexOf(pay), 1); room -= 1; }
    }
    for (const space of ACTIONS) {
      if (room <= 0 || !left.length) break;
      if (!placed[space]) { placed[space] = left.shift(); room -= 1; }
    }
    redraw();
  });
  send.addEventListener("click", () => {
    const count = Object.keys(placed).length;
    if (count !== needed) { problem.textContent = fill(t("{count} of the 11 spaces must hold a card (now {now})."), { count: needed, now: count }); return; }
    const bid = placed.bid || null;
    if (bid && chestValue(bid) !== null && chestValue(bid) > chests) { problem.textContent = fill(t("a bid of {chests} chests is more than you have"), { chests: chestValue(bid) }); return; }
    const spacesArg = Object.fromEntries(ACTIONS.filter((s) => placed[s]).map((s) => [s, placed[s]]));
    const args = { spaces: spacesArg };
    if (bid) args.bid = bid;
    const said = ACTIONS.filter((s) => placed[s]).map((s) => t(ACTION_SHORT[s]) + ": " + cardWords(placed[s], draw)).join("; ");
    const words = byReferee ? fill(t("{player}'s plan: {plan}; bid: {bid}"), { player: colourNames[role] || role, plan: said, bid: bid ? cardWords(bid, draw) : t("no bid") })
      : fill(t("Your plan: {plan}; bid: {bid}"), { plan: said, bid: bid ? cardWords(bid, draw) : t("no bid") });
    const choice = { words, text: role + " plan " + JSON.stringify(args), role, verb: "plan", args };
    if (shell.choose) shell.choose(choice); else shell.act({ text: choice.text });
  });
  redraw();
}

function refereePlans(box, view, state, draw, shell, chosen, choose) {
  // The referee's screen while players plan: one button per player still to plan; the chosen
  // player's plan is built as on a phone, for a player who has none (3.3).
  const { el, t, colourNames } = draw;
  const waiting = (view.players || []).filter((p) => !(view.planned || []).includes(p));
  box.replaceChildren(el("h2", {}, t("Plans for players without a phone")));
  const row = el("div", { class: "buttons", id: "sg-plan-for" });
  for (const player of waiting) {
    const button = el("button", { type: "button", "data-player": player }, colourNames[player] || player);
    if (player === chosen) button.classList.add("picked");
    button.addEventListener("click", () => choose(player));
    row.append(button);
  }
  box.append(el("p", {}, t("Choose the player, then build the plan with them, out of the others' sight.")), row);
  if (chosen && waiting.includes(chosen)) {
    const entry = el("div", { id: "sg-plan-entry" });
    box.append(entry);
    planEntry(entry, view, state, draw, shell, chosen);
  }
  const made = el("div", { id: "sg-plans-made" });  // the plans already made, as before
  if (ownPlan(made, view, "referee", draw)) box.append(made);
}

function ownPlan(box, view, role, draw) {
  // The plan made, to its player alone (and to the referee, every player's).
  const { el, t, colourNames, short } = draw;
  const plans = view.plans || {};
  const shown = Object.keys(plans).filter((p) => p === role || role === "referee");
  box.replaceChildren(el("h2", {}, role === "referee" ? t("The plans (referee)") : t("Your plan")));
  for (const p of shown) {
    const list = el("ul", { class: "plan", "data-player": p });
    if (role === "referee") {
      const head = el("li");
      head.append(swatch(el, p, short[p]), document.createTextNode(" " + colourNames[p]));
      list.append(head);
    }
    for (const space of ACTIONS) {
      const card = plans[p][space];
      const done = ((view.shown || {})[p] || {})[space];
      list.append(el("li", { "data-space": space, "data-player": p }, t(ACTION_SHORT[space]) + ": " + (card ? cardWords(card, draw) : "—") + (done ? " ✓" : "")));
    }
    const bid = (view.bids || {})[p];
    list.append(el("li", { "data-space": "bid", "data-player": p }, t("Bid:") + " " + (bid ? cardWords(bid, draw) : t("no bid"))));
    box.append(list);
  }
  return shown.length > 0;
}

// --- mounting -------------------------------------------------------------------------------------

export async function mount(shell) {
  const board = await shell.board(["regions", "sides", "cards", "events"]);
  const players = shell.game.roles;
  const narrow = shell.main.clientWidth < 700;
  const table = shell.page === "table" && !narrow;
  document.head.append(el("style", { id: "sg-style" }, CSS));
  const colourNames = Object.fromEntries([...players, "farmers"].map((p) => [p, t(COLOUR_NAMES[p] || p)]));
  const short = {};
  for (const p of players) {
    const name = colourNames[p];
    let n = 1;
    while (players.some((o) => o !== p && colourNames[o].toLowerCase().startsWith(name.slice(0, n).toLowerCase())) && n < name.length) n += 1;
    short[p] = name.slice(0, n);
  }
  const wrap = el("div", { id: "sg-wrap" });
  const bar = el("div", { class: table ? "over-board" : "" });  // the table shows all the board
  const scroll = el("div", { id: "sg-scroll" });
  // Where the side's facts come from: a transcribed side says so on every screen (kit.py SOURCES).
  const source = el("p", { id: "sg-source", class: "sg-source", hidden: "" });
  wrap.append(source, bar, scroll);
  shell.main.append(wrap);
  let zoomed = null;  // the board's zoom, once the board is drawn (not on a broadcast's thumbnail)
  const panels = { plan: shell.panel("sg-plan", ""), round: shell.panel("sg-round", ""), winter: shell.panel("sg-winter", "") };
  for (const box of Object.values(panels)) box.classList.add("sg-panel");
  const draw = {
    el, t, players, colourNames, short, narrow, table, people: shell.game.players || {},
    cards: Object.fromEntries((board.cards || []).map((c) => [c.id, c])),
    events: Object.fromEntries((board.events || []).map((e) => [e.id, e])),
    regionNames: Object.fromEntries((board.regions || []).map((r) => [r.id, r.name])),
    provinces: {}, provinceNames: {},
    unusedNow: (p) => players.length === 3 && Boolean(p.unused_with_3),
  };
  let drawn = null;  // the side drawn, with its parts
  window.addEventListener("resize", () => fit());
  let planKey = "";
  let planFor = null;  // the referee's screen: the player whose plan it is entering

  function build(sideName) {
    const side = (board.sides || {})[sideName] || { provinces: board.locations, links: board.roads };
    const layout = grid(side.provinces, narrow);
    const strip = stripLayout(layout, players, narrow);
    const svg = el("svg", { id: "sg-board", class: table ? "table" : narrow ? "phone" : "", viewBox: `0 0 ${layout.width} ${strip.height}`,
      role: "img", "aria-label": fill(t("The board of {game}"), { game: shell.game.title }), "data-side": sideName });
    scroll.replaceChildren(svg);
    source.hidden = side.source !== "transcribed";
    source.dataset.source = side.source || "";
    source.textContent = side.source === "transcribed"
      ? t("Transcribed board: check it against your box. Positions drawn by the project, not the printed map.") : "";
    if (zoomed) zoomed.follow(svg);
    else if (!shell.broadcast) zoomed = zoom(bar, scroll, svg, t("Whole board"), table ? 18 : 0);
    const defs = el("defs");
    const hatch = el("pattern", { id: "sg-hatch", width: "10", height: "10", patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" });
    hatch.append(el("rect", { width: "10", height: "10", fill: "#d9d9d9" }), el("line", { x1: "0", y1: "0", x2: "0", y2: "10", stroke: "#bdbdbd", "stroke-width": "4" }));
    const back = el("pattern", { id: "sg-back", width: "12", height: "12", patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" });
    back.append(el("rect", { width: "12", height: "12", fill: "#5b3a1e" }), el("line", { x1: "0", y1: "0", x2: "0", y2: "12", stroke: "#74502c", "stroke-width": "6" }));
    const head = el("marker", { id: "sg-head", viewBox: "0 0 10 10", refX: "6", refY: "5", markerWidth: "3.2", markerHeight: "3.2", orient: "auto-start-reverse" });
    head.append(el("path", { d: "M0 0L10 5L0 10z", fill: "#e65100" }));
    defs.append(hatch, back, head);
    svg.append(defs);
    const map = drawMap(svg, side, board, layout, draw);
    const track = el("g", { id: "sg-track" });
    const tray = el("g", { id: "sg-tray", class: "tray" });
    const people = el("g", { id: "sg-players" });
    svg.append(track, tray, people);
    draw.provinces = Object.fromEntries(side.provinces.map((p) => [p.id, p]));
    draw.provinceNames = Object.fromEntries(side.provinces.map((p) => [p.id, p.name]));
    drawn = { sideName, side, layout, strip, map, track, tray, people };
  }

  return {
    render(state) {
      const view = state.view || {};
      const sideName = view.side || Object.keys(board.sides || {})[0] || "sun";
      if (!drawn || drawn.sideName !== sideName) build(sideName);
      requestAnimationFrame(fit);
      const { side, layout, strip, map } = drawn;
      const pending = view.pending || null;
      for (const p of side.provinces) {
        const extra = pending && pending.province === p.id ? ["pending"] : [];
        renderProvince(map.provinces[p.id], p, layout.at[p.id], view, draw, extra);
      }
      renderMarks(map.marks, state.last, layout.at, map.provinces, el);
      renderTrack(drawn.track, strip.track, view, draw);
      renderTray(drawn.tray, strip.tray, view, draw);
      renderPeople(drawn.people, strip.people, view, state, draw);
      renderRound(panels.round, view, draw);
      renderWinter(panels.winter, view, draw);
      // The plan: its player's own entry form while planning, then the plan made.
      const mine = shell.page === "play" && shell.isPlayer(state.role);
      const planning = mine && view.phase === "plan" && !(view.planned || []).includes(state.role)
        && (state.choices || []).some((c) => c.verb === "plan");
      const refereeing = shell.page === "referee" && view.phase === "plan"
        && (view.players || []).some((p) => !(view.planned || []).includes(p));
      if (planning) {
        const key = [state.role, view.year, view.season, Object.keys(view.owner || {}).filter((p) => view.owner[p] === state.role).join(",")].join("|");
        if (planKey !== key) { planKey = key; planEntry(panels.plan, view, state, draw, shell); }
        shell.show(panels.plan, true);
      } else if (refereeing) {
        const key = ["referee", planFor, view.year, view.season, (view.planned || []).join(",")].join("|");
        const choose = (player) => {
          planFor = player;
          planKey = ["referee", planFor, view.year, view.season, (view.planned || []).join(",")].join("|");
          refereePlans(panels.plan, view, state, draw, shell, planFor, choose);
        };
        if (planKey !== key) { planKey = key; refereePlans(panels.plan, view, state, draw, shell, planFor, choose); }
        shell.show(panels.plan, true);
      } else {
        planKey = "";
        const any = (mine || shell.page === "referee") && ownPlan(panels.plan, view, state.role, draw);
        shell.show(panels.plan, Boolean(any));
      }
    },
    banner(state) { return banner(state, t, draw.provinceNames); },
  };

  function fit() {
    // The shared table is one screenful: the board (or, zoomed in, its scrolling box) takes the
    // height left under the header and the banner (one line or two), whatever they measure.
    if (!table || !drawn) return;
    const top = scroll.getBoundingClientRect().top + window.scrollY;
    wrap.style.setProperty("--sg-room", Math.max(240, window.innerHeight - top - 16) + "px");
  }
}
