// Sekigahara's screen, drawn so players recognise the printed map: locations at their printed
// places (white circles, red for resources 4.2, capitals ringed in their side's colour 4.5,
// castles beside them in their allegiance's colour 4.3, a pennant where clans recruit 7.2),
// highways thick and roads thin, the recruitment and Mori boxes (4.4, 9.3), every stack as
// blocks (the viewer's own face up, the other side's as blank backs of its colour), the battle,
// the last move as arrows, and on a player's or the referee's screen a tap on a stack shows where
// it may go and a tap there offers the moves in words.
// On the shared table screen (page "table", read from 1.5 m) the impact track is drawn like the
// printed 0-48 track and the week's bookkeeping as big numbers with labels.
// The page shell mounts it (docs/web.md: "A game's screen"); each view it draws is already
// filtered for the screen's role on the server, so a stack shows only the blocks its role knows.
// Every label goes through t() (the Italian is in locales/it/screen.po); the elements, the words,
// the map's zoom and the sheet of moves are the front-end toolkit's (companion/web/static/toolkit.js).

import { choiceSheet, el, fill, t, zoom } from "/common/toolkit.js";

const CSS = `
#seki { --ishida: #d4a627; --tokugawa: #1d1d1d; --paper: #efe6cc; position: relative; }
#seki-scroll { overflow: auto; touch-action: pan-x pan-y; border-radius: .4rem; background: var(--paper);
  max-height: 78vh; -webkit-overflow-scrolling: touch; }
#board { display: block; width: 100%; height: auto; }
#board .sea { fill: var(--paper); }
#board .road { stroke: #8a6d45; stroke-width: 2.2; stroke-dasharray: 6 3; fill: none; }
#board .highway { stroke: #5b3b16; stroke-width: 7; fill: none; stroke-linecap: round; }
#board .highway-core { stroke: #d9b77a; stroke-width: 2.5; fill: none; stroke-linecap: round; }
#board .loc { fill: #fff; stroke: #4a3c2a; stroke-width: 1.6; }
#board .loc.resource { fill: #d9534f; }
#board .capital { fill: none; stroke-width: 4; }
#board .capital.ishida { stroke: var(--ishida); } #board .capital.tokugawa { stroke: var(--tokugawa); }
#board .castle path { stroke-width: 2; }
#board .castle.ishida path { stroke: var(--ishida); } #board .castle.tokugawa path { stroke: var(--tokugawa); }
#board .castle.held-ishida path { fill: #f3dc8c; } #board .castle.held-tokugawa path { fill: #6d6d6d; }
#board .castle.held-none path { fill: #fffaf0; }
#board .pennant { stroke: #4a3c2a; stroke-width: 1; }
#board .pennant.ishida { fill: var(--ishida); } #board .pennant.tokugawa { fill: var(--tokugawa); }
#board .labels { font-size: 14px; }
#board .label { font: 600 14px system-ui, sans-serif; fill: #2a2118; paint-order: stroke;
  stroke: var(--paper); stroke-width: 3.5px; stroke-linejoin: round; pointer-events: none;
  text-rendering: geometricPrecision; }
#board .leader { stroke: #2a2118; stroke-width: 1.2; opacity: .7; }
#board .cube { stroke: #fff; stroke-width: 1.2; }
#board .cube.ishida { fill: var(--ishida); } #board .cube.tokugawa { fill: var(--tokugawa); }
#board .block { stroke: #000a; stroke-width: .8; }
#board .block.ishida { fill: var(--ishida); } #board .block.tokugawa { fill: var(--tokugawa); }
#board .sticker { fill: #f7f0dc; }
#board .mark { fill: none; stroke-width: 1.4; stroke-linecap: round; }
#board .badge circle { fill: #b3261e; stroke: #fff; stroke-width: 1.2; }
#board .badge text { font: 700 10px system-ui, sans-serif; fill: #fff; text-anchor: middle; }
#board .stack.mine { cursor: pointer; }
#board .stack.selected .block { stroke: #1e88e5; stroke-width: 2.2; }
#board .disk { stroke: #fff; stroke-width: 1.5; fill: #7a1f1f; }
#board .battle-ring { fill: none; stroke: #c62828; stroke-width: 4; stroke-dasharray: 7 4; }
#board .arrow { stroke: #1e88e5; stroke-width: 4; fill: none; marker-end: url(#seki-arrowhead); opacity: .85; }
#board .place-ring { fill: none; stroke: #1e88e5; stroke-width: 3; }
#board .dest { fill: #43a04733; stroke: #2e7d32; stroke-width: 3.5; cursor: pointer; }
#board .box-frame { fill: #fffaf0cc; stroke: #5b3b16; stroke-width: 1.5; }
#board .box-title { font: 600 11px system-ui, sans-serif; fill: #2a2118; }
#board .box-count { font: 800 18px system-ui, sans-serif; fill: #2a2118; }
#seki-chooser { position: absolute; left: .4rem; right: .4rem; bottom: .4rem; max-width: 40rem; margin: 0 auto; background: #fff; border-radius: .5rem;
  box-shadow: 0 2px 10px #0005; padding: .5rem .7rem; max-height: 50%; overflow: auto; z-index: 5; }
#seki-chooser h3 { margin: .1rem 0 .3rem; font-size: 1rem; }
#seki-chooser button { display: block; width: 100%; text-align: left; margin: .2rem 0; }
#seki-chooser .blocks { font-size: .9rem; color: #444; margin: 0 0 .3rem; }
.seki-tiles { display: grid; grid-template-columns: repeat(auto-fill, minmax(6.5rem, 1fr)); gap: .4rem; }
#seki-table .seki-tiles { grid-template-columns: repeat(auto-fit, minmax(6.8rem, 1fr)); }
.seki-tile { background: #faf6ea; border-radius: .4rem; padding: .3rem .5rem; border-left: .35rem solid #8a6d45; }
.seki-tile.ishida { border-left-color: #d4a627; } .seki-tile.tokugawa { border-left-color: #1d1d1d; }
.seki-tile .n { display: block; font-size: 1.7rem; font-weight: 800; line-height: 1.1; }
.seki-tile .what { font-size: .8rem; color: #444; display: block; }
.seki-tile .small { font-size: .75rem; color: #666; display: block; }
.seki-tile .n.word { font-size: 1.1rem; padding: .35rem 0; }
#week .seki-tile .n { font-size: 1.3rem; }
#seki-table .seki-tile .n.word { font-size: 1.5rem; padding: .35rem 0; }
#seki-table .seki-tile .small { font-size: .95rem; }
.seki-track svg { width: 100%; height: auto; display: block; }
.seki-track .cell { fill: #f7f0dc; stroke: #8a6d45; stroke-width: 1; }
.seki-track .cell.five { fill: #eadfbf; }
.seki-track .num { font: 600 15px system-ui, sans-serif; fill: #2a2118; text-anchor: middle; }
.seki-track .marker.ishida { fill: #d4a627; stroke: #000; } .seki-track .marker.tokugawa { fill: #1d1d1d; stroke: #fff; }
.seki-impact { display: flex; gap: .6rem; }
.seki-impact div { flex: 1; border-radius: .4rem; padding: .2rem .5rem; background: #faf6ea;
  display: flex; align-items: center; justify-content: space-between; gap: .4rem; }
.seki-impact .ishida { border-left: .5rem solid #d4a627; } .seki-impact .tokugawa { border-left: .5rem solid #1d1d1d; }
.seki-impact .n { font-size: 2rem; font-weight: 800; line-height: 1; }
#seki-table { margin-top: .5rem; display: grid; gap: .5rem; }
body[data-page="table"] #seki { margin: 0 auto; }
body[data-page="table"] #seki .zoom { position: absolute; top: .4rem; right: .4rem; z-index: 2; margin: 0; }
#seki-week h2 { font-size: 1.3rem; }
#seki-week .seki-tiles { grid-template-columns: repeat(2, minmax(0, 1fr)); }
#seki-week .seki-tile .n { font-size: 2.1rem; line-height: 1.05; }
#seki-week .seki-tile .n.word { font-size: 1.4rem; }
#seki-week .seki-tile .what { font-size: 1rem; }
#seki-week .seki-tile .small { font-size: .9rem; }
#seki-table section { background: #fff; border-radius: .4rem; padding: .4rem .7rem; box-shadow: 0 1px 2px #0002; }
#seki-table h2 { font-size: 1.4rem; margin: 0 0 .2rem; }
#seki-table .seki-tile .n { font-size: 2.4rem; line-height: 1.05; }
#seki-table .seki-tile .what { font-size: 1.05rem; }
#seki-table .seki-impact .n { font-size: 3.4rem; }
#seki-table .seki-impact div { font-size: 1.3rem; }
#seki-banner { font-size: 2rem; font-weight: 800; letter-spacing: .04em; text-align: center;
  background: #3b2f22; color: #fff; border-radius: .4rem; padding: .2rem .5rem; margin-bottom: .4rem; }
.seki-deployed { display: flex; flex-wrap: wrap; gap: .3rem; margin: .3rem 0; align-items: center; }
.seki-deployed span { background: #faf6ea; border-radius: .3rem; padding: .1rem .4rem; }
.seki-deployed .initiative { margin: 0 .6rem 0 0; padding: .1rem 0; align-self: center; }
@media (max-width: 600px) { #board .label { font-size: 16px; } }
/* The shared table (read from 1.5 m, issue 32): the names a player needs from there at 20 units
   (18.7 px at 1280x800), the full set once zoomed in (the toolkit's fine print); the counts of
   stacks and boxes and the boxes' titles as large. */
#board .far-labels .label { font-size: 20px; stroke-width: 4.5px; }
#board[data-fine-print="all"] .far-labels { display: none; }
#board.table .badge text { font-size: 20px; }
#board.table .box-title, #board.table .box-count { font-size: 20px; }
#seki-table .seki-track .num { font-size: 19px; }
@media (max-width: 800px) { #seki-table .seki-tiles { grid-template-columns: repeat(2, minmax(0, 1fr)); } #seki-table .seki-tile .n { font-size: 1.8rem; } #seki-banner { font-size: 1.2rem; } }
`;

const WIDTH = 1000;   // the scan's fractions of width and height, in the SVG's units (3354 x 2115 px)
const HEIGHT = 631;
const VIEW = { x: 0, y: 62, w: WIDTH, h: 500 };   // the part of the map with locations and boxes
const DOT = 9;        // a location's circle
const BLOCK = 16;     // a block's side
const FAN = 3.5;      // how far each block under the top one shows
const SHOWN = 5;      // blocks drawn in a fanned stack (the badge counts them all)
const SIDES_ORDER = ["ishida", "tokugawa"];
const PAD = 1.02;     // a name's box is this much wider than measured, plus a unit each side

// Screen colours that tell the clans' stickers apart (an aid, not the printed colours).
const CLAN_INK = {
  ishida: "#7a1f1f", kobayakawa: "#1f5f7a", mori: "#2e6b2e", uesugi: "#5a3d8a", ukita: "#9a5b13",
  tokugawa: "#1d3f8a", fukushima: "#8a1d5e", date: "#0f6f6f", maeda: "#6b4f1d", ii: "#b02020",
};

// Where the off-map boxes sit on the screen (the printed map has the Tokugawa box at the bottom
// right, 4.4); in the SVG's units.
const BOX_AT = {
  ishida_recruitment: { x: 8, y: 430, w: 160, h: 56 },
  mori_box: { x: 8, y: 494, w: 160, h: 56 },
  tokugawa_recruitment: { x: 836, y: 500, w: 160, h: 56 },
};

const BOX_TITLE = { ishida_recruitment: "Ishida recruitment", mori_box: "Mōri box",
  tokugawa_recruitment: "Tokugawa recruitment" };

// Words looked up by a value from the view: each listed here so its translation can be found.
const SIDE_WORDS = { ishida: "Ishida", tokugawa: "Tokugawa" };
const DRAW_KINDS = { cards: "cards", blocks: "blocks" };

function xy(loc) { return [loc.xy[0] * WIDTH, loc.xy[1] * HEIGHT]; }

function cap(word) { return word ? word[0].toUpperCase() + word.slice(1) : ""; }

// --- names a player recognises -------------------------------------------------------------------

// Names as the rules' words say them (rules/words.py), so the map, the log and the moves agree:
// the clans as the rulebook spells them, the commanders and Mōri Terumoto by name (3.2, 9.3).
const CLANS = { ishida: "Ishida", kobayakawa: "Kobayakawa", mori: "Mōri", uesugi: "Uesugi", ukita: "Ukita",
  tokugawa: "Tokugawa", fukushima: "Fukushima", date: "Date", maeda: "Maeda", ii: "Ii" };
const COMMANDERS = { ishida: "Ishida Mitsunari", tokugawa: "Tokugawa Ieyasu" };
const NAMED_LEADERS = { mori: "Mōri Terumoto" };
const DISKS = { toyotomi_hideyori: "Toyotomi Hideyori", sanada_masayuki: "Sanada Masayuki" };

function clanName(clan) { return CLANS[clan] || cap(String(clan || "")); }

function blockName(b, t) {
  // A block by its face (3.2): "Mōri 3", "Fukushima cavalry", "Ishida Mitsunari".
  const clan = clanName(b.clan);
  if (b.leader === 3) return COMMANDERS[b.side] || fill(t("{clan} leader"), { clan });
  if (b.leader) return NAMED_LEADERS[b.clan] || fill(t("{clan} leader"), { clan });
  if (b.attack === "cavalry") return fill(t("{clan} cavalry"), { clan });
  if (b.attack === "arquebus") return fill(t("{clan} arquebus"), { clan });
  return clan + " " + b.strength;
}

function cardName(id, t) {
  // A card id ("T-maeda-special-2") by its mon and kind (3.3): "Maeda swords card".
  const parts = String(id).split("-");
  if (parts[1] === "loyalty") return t("loyalty card");
  const clan = clanName(parts[1]);
  if (parts[2] === "special") return fill(t("{clan} swords card"), { clan });
  if (parts[2] === "double") return fill(t("{clan} double card"), { clan });
  return fill(t("{clan} card"), { clan });
}

function sideName(side, t) { return SIDE_WORDS[side] ? t(SIDE_WORDS[side]) : cap(side); }

function diskName(id) { return DISKS[id] || String(id).split("_").map(cap).join(" "); }

// --- the module ------------------------------------------------------------------------------------

export async function mount(shell) {
  const board = await shell.board(["tracks", "boxes"]);
  const sides = shell.game.roles;
  const where = Object.fromEntries(board.locations.map((loc) => [loc.id, loc]));
  document.head.append(el("style", {}, CSS));

  const root = el("div", { id: "seki" });
  const bar = el("div");
  const scroll = el("div", { id: "seki-scroll" });
  const table = shell.page === "table";
  const far = table && window.innerWidth > 800;   // the table across the room (a phone: as on a phone)
  const svg = el("svg", { id: "board", class: far ? "table" : "", viewBox: `${VIEW.x} ${VIEW.y} ${VIEW.w} ${VIEW.h}`, role: "img",
    "aria-label": fill(t("map of {title}"), { title: shell.game.title }) });
  scroll.append(svg);
  root.append(bar, scroll);
  shell.main.append(root);
  const layers = drawMap(svg, board, el, t, far);
  placeLabels(board, layers.labels, el);
  if (layers.far) placeLabels(board, layers.far, el, true);
  if (!shell.broadcast) zoomControls(bar, scroll, svg, !table, far);  // not on a broadcast's thumbnail

  const chooser = el("div", { id: "seki-chooser", hidden: "" });
  root.append(chooser);
  let strip = null;
  let weekSide = null;
  if (table) {
    strip = el("div", { id: "seki-table" });
    shell.main.append(strip);
    // The week's tiles stand in the side column, so that the map and a battle fill the shared
    // screen without scrolling (a phone shows the same panels one under the other).
    weekSide = shell.panel("seki-week");
    window.addEventListener("resize", () => fitTable(root, strip));
  }
  const panels = table ? {} : {
    battle: shell.panel("battle"), week: shell.panel("week"), mine: shell.panel("mine"),
  };
  if (!table) { shell.show(panels.battle, false); shell.show(panels.mine, false); }

  const ui = { selected: null, state: null };
  const canTap = shell.page === "play" || shell.page === "referee";

  function choose(choice) {
    chooser.hidden = true;
    ui.selected = null;
    if (shell.choose) return shell.choose(choice);
    return shell.act({ text: choice.text });
  }

  function openChooser(title, lines, choices) {
    choiceSheet(chooser, { title, lines, choices, chosen: choose, close: t("Close"), lineClass: "blocks" });
  }

  function onStack(loc, side) {
    if (!canTap || !ui.state) return;
    const state = ui.state;
    const mineSide = shell.page === "referee" || side === state.role;
    if (!mineSide) return;
    ui.selected = ui.selected && ui.selected.loc === loc && ui.selected.side === side ? null : { loc, side };
    chooser.hidden = true;
    draw(state);
    if (ui.selected) {
      const stack = (((state.view || {}).locations || {})[loc] || {})[side];
      const known = stack ? stack.blocks.map((b) => blockName(b, t)) : [];
      const moves = movesFrom(allChoices(state), loc, side);
      if (!moves.length) {
        openChooser(fill(t("{side} at {place}"), { side: sideName(side, t), place: where[loc].name }),
          [known.join(", "), t("No move from here now.")], []);
      }
    }
  }

  function onDest(dest) {
    const state = ui.state;
    if (!state || !ui.selected) return;
    const { loc, side } = ui.selected;
    const moves = movesFrom(allChoices(state), loc, side).filter((m) => m.dests.includes(dest));
    openChooser(fill(t("From {from} to {to}"), { from: where[loc].name, to: where[dest].name }), [],
      moves.map((m) => m.choice));
  }

  function draw(state) {
    renderBoard(layers, board, where, state, el, t, { onStack, onDest, canTap, selected: ui.selected,
      allChoices: () => allChoices(state) });
  }

  return {
    render(state) {
      ui.state = state;
      const view = state.view || {};
      if (ui.selected && !(((view.locations || {})[ui.selected.loc] || {})[ui.selected.side])) ui.selected = null;
      if (chooser.hidden === false && !ui.selected) chooser.hidden = true;
      draw(state);
      if (table) {
        renderTable(strip, weekSide, state, board, sides, el, t, shell.broadcast ? banner(state, t, where) : "", where);
        fitTable(root, strip);
        return;
      }
      renderBattle(panels.battle, view.battle, board, sides, shell, where, t);
      renderWeek(panels.week, view, sides, el, t, where);
      const mine = shell.page === "play" && shell.isPlayer(state.role);
      shell.show(panels.mine, mine);
      if (mine) renderMine(panels.mine, state, el, t, where);
    },
    banner(state) { return banner(state, t, where); },
  };
}

// --- the printed map ---------------------------------------------------------------------------------

function castlePath(x, y) {
  // A small castle keep: base, walls and a roof, 16 wide and 14 tall, top-left at (x, y).
  return `M${x} ${y + 14}h16v-6h-2v-3h2l-3-3h-10l-3 3h2v3h-2z M${x + 4} ${y + 5}l4-5 4 5z`;
}

function drawMap(svg, board, el, t, table) {
  const where = Object.fromEntries(board.locations.map((loc) => [loc.id, loc]));
  const defs = el("defs");
  const marker = el("marker", { id: "seki-arrowhead", viewBox: "0 0 10 10", refX: "8", refY: "5",
    markerWidth: "4", markerHeight: "4", orient: "auto-start-reverse" });
  marker.append(el("path", { d: "M0 0L10 5L0 10z", fill: "#1e88e5" }));
  defs.append(marker);
  svg.append(defs, el("rect", { class: "sea", x: VIEW.x, y: VIEW.y, width: VIEW.w, height: VIEW.h }));
  const roads = el("g", { class: "roads" });
  for (const kind of ["road", "highway"]) {   // highways over roads, as printed
    for (const road of board.roads.filter((r) => (r.kind === "highway") === (kind === "highway"))) {
      const [x1, y1] = xy(where[road.a]);
      const [x2, y2] = xy(where[road.b]);
      const title = el("title", {}, t(kind === "highway" ? "Highway" : "Road") + ": " + where[road.a].name + " - " + where[road.b].name);
      const line = el("line", { x1, y1, x2, y2, class: kind, "data-road": road.a + "-" + road.b });
      line.append(title);
      roads.append(line);
      if (kind === "highway") roads.append(el("line", { x1, y1, x2, y2, class: "highway-core" }));
    }
  }
  svg.append(roads);
  const boxes = el("g", { class: "boxes" });
  for (const box of board.boxes || []) {
    const at = BOX_AT[box.id];
    if (!at) continue;
    const g = el("g", { id: "box-" + box.id, "data-box": box.id });
    g.append(el("rect", { class: "box-frame", x: at.x, y: at.y, width: at.w, height: at.h, rx: 4 }),
      el("text", { class: "box-title", x: at.x + 6, y: at.y + (table ? 19 : 14) }, t(BOX_TITLE[box.id] || box.id)),
      el("g", { class: "box-blocks" }));
    boxes.append(g);
  }
  svg.append(boxes);
  // A box's title at the table's size is squeezed into its box (as tall, so read as far).
  for (const title of boxes.querySelectorAll(".box-title")) {
    const room = BOX_AT[title.parentNode.dataset.box].w - 12;
    if (title.getComputedTextLength() > room) {
      title.setAttribute("textLength", room);
      title.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  }
  const places = el("g", { class: "places" });
  const marks = el("g", { class: "marks" });
  const labels = el("g", { class: "labels" });
  const stacks = el("g", { class: "stacks" });
  const over = el("g", { class: "over" });
  for (const loc of board.locations) {
    const [cx, cy] = xy(loc);
    const group = el("g", { id: "loc-" + loc.id, "data-location": loc.id });
    const kinds = [];
    if (loc.castle) {
      const castle = el("g", { class: "castle " + loc.castle, id: "castle-" + loc.id });
      castle.append(el("path", { d: castlePath(cx - DOT - 19, cy - 7) }),
        el("title", {}, fill(t("Castle ({side})"), { side: sideName(loc.castle, t) })));
      group.append(castle);
      kinds.push(t("castle"));
    }
    if (recruits(loc)) {
      const pennant = el("g", { class: "recruit" });
      const px = pennantX(loc);
      pennant.append(el("line", { x1: px, y1: cy + 2, x2: px, y2: cy - 16, stroke: "#4a3c2a", "stroke-width": 1.4 }),
        el("path", { d: `M${px} ${cy - 16}h${px > cx ? 8 : -8}v9h${px > cx ? -8 : 8}z`, class: "pennant " + sideOfClans(loc.recruitment) }),
        el("title", {}, fill(t("Recruitment location: {clans}"), { clans: loc.recruitment.map(clanName).join(", ") })));
      group.append(pennant);
    }
    if (loc.capital) group.append(el("circle", { cx, cy, r: DOT + 3, class: "capital " + loc.capital }));
    const dot = el("circle", { cx, cy, r: DOT, class: "loc" + (loc.resource ? " resource" : "") });
    if (loc.resource) kinds.push(t("resource"));
    if (loc.capital) kinds.push(t("capital"));
    dot.append(el("title", {}, loc.name + (kinds.length ? " (" + kinds.join(", ") + ")" : "")));
    group.append(dot, el("g", { class: "control" }));
    places.append(group);
    labels.append(el("text", { class: "label", id: "label-" + loc.id, "data-label": loc.id, x: cx, y: cy + 24,
      "text-anchor": "middle" }, loc.name));
  }
  if (!table) {
    svg.append(places, marks, stacks, labels, over);
    return { svg, places, marks, labels, stacks, over, far: null };
  }
  // The shared table, read from 1.5 m: at the whole map's zoom the names a player needs from
  // there (capitals, castles, resources, where clans recruit, then the rest) in larger type,
  // each only where it is clear of every other name and circle; all the names, smaller, are the
  // toolkit's fine print, shown once zoomed in far enough to read them as large.
  labels.classList.add("fine");
  const far = el("g", { class: "far-labels" });
  for (const loc of board.locations) {
    const [cx, cy] = xy(loc);
    far.append(el("text", { class: "label", "data-label": loc.id, "data-far": loc.id, x: cx, y: cy + 24,
      "text-anchor": "middle" }, loc.name));
  }
  svg.append(places, marks, far, stacks, labels, over);
  return { svg, places, marks, labels, stacks, over, far };
}

function clearCounts(names, stacks) {
  // A name a stack's count would cover gives way to it while the stack is there (the stack's
  // own title and a tap say where it stands; the table's zoomed map has it, beside the stack).
  const box = (node) => { const b = node.getBBox(); return { x: b.x, y: b.y, w: b.width, h: b.height }; };
  const badges = [...stacks.querySelectorAll(".badge")].map(box);
  for (const name of names.querySelectorAll(".label")) {
    name.removeAttribute("display");   // measured as drawn (a hidden text has no box)
    if (badges.some((b) => area(b, box(name)) > 0)) name.setAttribute("display", "none");
  }
}

function weight(loc) {
  // How much a player across the table needs a location's name: capitals, castles, resources,
  // the places clans recruit, then the rest.
  return (loc.capital ? 8 : 0) + (loc.castle ? 4 : 0) + (loc.resource ? 2 : 0) + (recruits(loc) ? 1 : 0);
}

const ISHIDA_CLANS = ["ishida", "kobayakawa", "mori", "uesugi", "ukita"];
function sideOfClans(clans) { return ISHIDA_CLANS.includes(clans[0]) ? "ishida" : "tokugawa"; }

// --- labels placed so that none collide -------------------------------------------------------------

function overlaps(a, b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

function area(a, b) {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

function pennantX(loc) {
  // The recruitment pennant stands right of the circle, or left where the map ends.
  const [cx] = xy(loc);
  return cx + DOT + 12 > VIEW.x + VIEW.w ? cx - DOT - 2 : cx + DOT + 2;
}

function recruits(loc) { return Boolean(loc.recruitment && loc.recruitment.length); }

function reach(rect, x, y) {
  // How far a point is from a label's box (0 inside it).
  const dx = Math.max(rect.x - x, 0, x - rect.x - rect.w);
  const dy = Math.max(rect.y - y, 0, y - rect.y - rect.h);
  return Math.hypot(dx, dy);
}

function stackSlot(cx, cy) {
  // Where a location's stacks are drawn (above its circle, fanned to the right): labels keep out.
  return { x: cx - BLOCK / 2, y: cy - DOT - BLOCK - 6, w: BLOCK + FAN * (SHOWN - 1) + 6, h: BLOCK + 4 };
}

function placeLabels(board, group, el, few = false) {
  // A small placement pass: for each location (most crowded first), try positions around its
  // circle and keep the first whose box overlaps no label, circle, castle, pennant or stack
  // slot already there; where none is free, the one that overlaps least. With `few` (the
  // table's larger names) the most needed names are placed first (weight), and a name left
  // covering another, a circle or a stack's room, or away from its own circle, is left out.
  const obstacles = [];
  const crowd = {};
  for (const loc of board.locations) {
    const [cx, cy] = xy(loc);
    obstacles.push({ x: cx - DOT - 1, y: cy - DOT - 1, w: 2 * DOT + 2, h: 2 * DOT + 2, weight: 1e4 });
    obstacles.push({ ...stackSlot(cx, cy), stack: true });
    if (loc.castle) obstacles.push({ x: cx - DOT - 20, y: cy - 8, w: 18, h: 16 });
    if (recruits(loc)) obstacles.push({ x: pennantX(loc) > cx ? cx + DOT : cx - DOT - 12, y: cy - 17, w: 12, h: 20 });
    crowd[loc.id] = board.locations.filter((o) => {
      const [ox, oy] = xy(o);
      return Math.hypot(ox - cx, oy - cy) < 90;
    }).length;
  }
  for (const at of Object.values(BOX_AT)) obstacles.push({ x: at.x - 2, y: at.y - 2, w: at.w + 4, h: at.h + 4 });
  const centres = board.locations.map(xy);
  const order = [...board.locations].sort((a, b) => (few ? weight(b) - weight(a) : 0) || crowd[b.id] - crowd[a.id]);
  const spots = order.map((loc) => {
    const [cx, cy] = xy(loc);
    const text = group.querySelector(`[data-label="${loc.id}"]`);
    let box = null;
    try { box = text.getBBox(); } catch (error) { box = null; }
    // A little room around each name: a font's hinting at a phone's scale measures it a bit
    // differently from a tablet's.
    const w = (box && box.width ? box.width : loc.name.length * 8) * PAD + 2;
    const h = (box && box.height ? box.height : 16) + 1;
    const right = recruits(loc) && pennantX(loc) > cx ? DOT + 14 : DOT + 4;
    const left = loc.castle ? DOT + 22 : recruits(loc) && pennantX(loc) < cx ? DOT + 14 : DOT + 4;
    const candidates = [];
    for (const push of few ? [0] : [0, 8, 16]) {
      candidates.push(
        { x: cx - w / 2, y: cy + DOT + 2 + push },                  // below
        { x: cx + right + push, y: cy - h / 2 },                    // right
        { x: cx - left - w - push, y: cy - h / 2 },                 // left
        { x: cx + 2 + push, y: cy + DOT + push },                   // below right
        { x: cx - w - 2 - push, y: cy + DOT + push },               // below left
        { x: cx + right + push, y: cy - DOT - h - push },           // above right
        { x: cx - left - w - push, y: cy - DOT - h - push },        // above left
        { x: cx - w / 4, y: cy + DOT + 2 + push },                  // below, shifted
        { x: cx - 3 * w / 4, y: cy + DOT + 2 + push },
        { x: cx + right + push, y: cy - h / 2 + DOT },              // right, lower
        { x: cx - left - w - push, y: cy - h / 2 + DOT },           // left, lower
      );
    }
    for (const push of few ? [] : [0, 8]) candidates.push({ x: cx - w / 2, y: cy - DOT - BLOCK - 10 - h - push });   // above the stack
    const rects = candidates.map((c) => ({ x: c.x, y: c.y, w, h })).filter((r) =>
      r.x >= VIEW.x && r.x + w <= VIEW.x + VIEW.w && r.y >= VIEW.y && r.y + h <= VIEW.y + VIEW.h);
    return { loc, text, cx, cy, h, rects, at: null };
  });
  function astray(spot, padded) {
    // A name nearer another location's circle than its own would name the wrong place;
    // nearest its own circle by the box's edge or by its middle is near enough to read.
    // Measured on the text's own box, without the room to spare.
    const tw = (padded.w - 2) / PAD;
    const rect = { x: padded.x + (padded.w - tw) / 2, y: padded.y, w: tw, h: padded.h - 1 };
    const own = reach(rect, spot.cx, spot.cy);
    const [mx, my] = [rect.x + rect.w / 2, rect.y + rect.h / 2];
    const middle = Math.hypot(mx - spot.cx, my - spot.cy);
    const self = ([ox, oy]) => ox === spot.cx && oy === spot.cy;   // a near tie counts as astray
    return own > DOT + 4 && centres.some((c) => !self(c) && reach(rect, c[0], c[1]) < own + 2)
      && centres.some((c) => !self(c) && Math.hypot(mx - c[0], my - c[1]) < middle + 2);
  }
  function cost(spot, rect) {
    let sum = 0;
    if (astray(spot, rect)) sum += 5000;
    for (const other of spots) if (other !== spot && other.at) sum += 1e6 * area(rect, other.at);   // names never cover names
    for (const o of obstacles) sum += (o.weight || 1) * area(rect, o);   // circles nearly as bad
    return sum;
  }
  const FREE = 60;   // a corner of a stack's or a castle's room may be covered
  if (few) {
    // The table's names, the most needed first: each takes the place beside its circle clear
    // of every name already placed and every circle that least covers the room of a stack
    // (drawn over the names, so a name never hides a piece); else it is left out (the zoomed
    // map has it).
    for (const spot of spots) {
      const clear = spot.rects.filter((r) => !astray(spot, r) && !spots.some((o) => o.at && area(o.at, r) > 0)
        && obstacles.every((o) => o.stack || (o.weight ? area(r, o) === 0 : area(r, o) < FREE)));
      const under = (r) => obstacles.reduce((sum, o) => sum + (o.stack ? area(r, o) : 0), 0);
      spot.at = clear.reduce((pick, r) => (pick && under(pick) <= under(r) ? pick : r), null);
      if (!spot.at) spot.text.remove();
    }
    spots.splice(0, spots.length, ...spots.filter((spot) => spot.at));
  } else repair();
  function repair() {
  // The full set: every name placed, clashes repaired as far as they can be.
  function best(spot) {
    // The first free position in order of preference, else the one that costs least.
    let pick = spot.rects[0];
    let least = Infinity;
    for (const rect of spot.rects) {
      const c = cost(spot, rect);
      if (c < FREE) return [rect, c];
      if (c < least) { least = c; pick = rect; }
    }
    return [pick, least];
  }
  for (const spot of spots) spot.at = best(spot)[0];
  // Then a few rounds of repair: a name that still clashes moves to its best place given
  // where the others are now, or to a place that another name leaves for one of its own free
  // places.
  for (let round = 0; round < 8; round++) {
    let moved = false;
    for (const spot of spots) {
      const now = cost(spot, spot.at);
      if (now < FREE) continue;
      const [rect, c] = best(spot);
      if (c < now) { spot.at = rect; moved = true; continue; }
      for (const mine of spot.rects) {
        const blockers = spots.filter((o) => o !== spot && o.at && area(mine, o.at) > 0);
        if (blockers.length !== 1) continue;
        const other = blockers[0];
        const [was, old] = [spot.at, other.at];
        const before = now + cost(other, old);
        spot.at = mine;
        other.at = null;
        const mineCost = cost(spot, mine);
        const [theirs, theirCost] = best(other);
        other.at = theirs;
        if (area(theirs, mine) === 0 && cost(spot, mine) + theirCost < before && mineCost < now) { moved = true; break; }
        spot.at = was;
        other.at = old;
      }
    }
    if (!moved) break;
  }
  // Last, each name takes the most preferred place that costs no more than where it is, so
  // none is left far out where a nearer place was freed.
  for (const spot of spots) {
    const now = cost(spot, spot.at);
    spot.at = spot.rects.find((rect) => cost(spot, rect) <= now) || spot.at;
  }
  }
  for (const spot of spots) {
    if (astray(spot, spot.at)) {
      // Where no place near its circle was free, a thin line ties the name to its circle.
      const r = spot.at;
      const px = Math.min(Math.max(spot.cx, r.x + 2), r.x + r.w - 2);
      const py = Math.min(Math.max(spot.cy, r.y + 2), r.y + r.h - 2);
      const len = Math.hypot(px - spot.cx, py - spot.cy) || 1;
      const k = (DOT + 1) / len;
      group.prepend(el("line", { class: "leader", "data-leader": spot.loc.id,
        x1: spot.cx + (px - spot.cx) * k, y1: spot.cy + (py - spot.cy) * k, x2: px, y2: py }));
    }
    spot.text.setAttribute("text-anchor", "middle");   // the room to spare on both sides
    spot.text.setAttribute("x", String(spot.at.x + spot.at.w / 2));
    spot.text.setAttribute("y", String(spot.at.y + spot.h * 0.78));
  }
}

// --- zoom: buttons everywhere, pinch on phones ------------------------------------------------------

function zoomControls(bar, scroll, svg, closeUp, far) {
  // The toolkit's zoom (buttons, pinch); a phone starts zoomed in enough to read the names, the
  // map panned with a finger. The table across the room shows its fine print (every name, 14
  // units) from 18 px on.
  const control = zoom(bar, scroll, svg, t("Whole map"), far ? 18 : 0);
  if (closeUp && scroll.clientWidth && scroll.clientWidth < 600) control.set(2.2, 0, 0);
}

// --- blocks ----------------------------------------------------------------------------------------------

function drawBlock(el, x, y, block, side, t, size = BLOCK) {
  // One block: a blank back of its side's colour, or (when this role knows it) its face: the
  // clan's mon as pips (strength 1-4), or one mon and a cavalry, arquebus or nobori mark (3.2).
  const g = el("g", { class: "piece" + (block ? " face" : " back") });
  g.append(el("rect", { class: "block " + side, x, y, width: size, height: size, rx: 2 }));
  if (!block) return g;
  const s = size / BLOCK;
  const ink = CLAN_INK[block.clan] || "#333";
  g.append(el("rect", { class: "sticker", x: x + 2 * s, y: y + 2 * s, width: size - 4 * s, height: size - 4 * s, rx: 1.5 }));
  const pip = (px, py, r = 1.9) => el("circle", { cx: x + px * s, cy: y + py * s, r: r * s, fill: ink });
  const special = block.leader || block.attack;
  if (!special) {
    const spots = { 1: [[8, 8]], 2: [[5.5, 8], [10.5, 8]], 3: [[8, 5.2], [5.2, 10.6], [10.8, 10.6]],
      4: [[5.4, 5.4], [10.6, 5.4], [5.4, 10.6], [10.6, 10.6]] }[block.strength] || [[8, 8]];
    for (const [px, py] of spots) g.append(pip(px, py, block.strength > 2 ? 1.9 : 2.3));
  } else {
    g.append(pip(5, 5.5, 2));
    if (block.leader) {   // the nobori banner, with its dots
      g.append(el("line", { x1: x + 10 * s, y1: y + 3.5 * s, x2: x + 10 * s, y2: y + 13 * s, stroke: ink, "stroke-width": 1 }),
        el("rect", { x: x + 10 * s, y: y + 3.5 * s, width: 3.2 * s, height: 6 * s, fill: ink }));
      for (let i = 0; i < block.leader; i++) g.append(el("circle", { cx: x + (4 + i * 2.2) * s, cy: y + 11.8 * s, r: 0.9 * s, fill: ink }));
    } else if (block.attack === "cavalry") {   // a horseshoe
      g.append(el("path", { class: "mark", stroke: ink, d: `M${x + 8 * s} ${y + 13 * s}v-3a3 3 0 0 1 6 0v3` }));
    } else {   // an arquebus: barrel and stock
      g.append(el("path", { class: "mark", stroke: ink, d: `M${x + 4 * s} ${y + 13 * s}L${x + 13.5 * s} ${y + 5 * s}M${x + 4 * s} ${y + 13 * s}l2.5 -.5` }));
    }
  }
  g.append(el("title", {}, blockName(block, t)));
  return g;
}

function drawStack(el, x, y, stack, side, t, attrs) {
  // A fanned stack: blank backs under the faces this role knows, the strongest on top, and a
  // badge with the count.
  const g = el("g", Object.assign({ class: "stack " + side }, attrs));
  const known = [...stack.blocks].sort((a, b) => a.strength - b.strength || String(a.block).localeCompare(String(b.block)));
  const hidden = Math.max(0, stack.count - known.length);
  const pieces = [...Array(hidden).fill(null), ...known].slice(-SHOWN);
  pieces.forEach((block, i) => g.append(drawBlock(el, x + i * FAN, y - i * 0.6, block, side, t)));
  if (stack.count > 1) {
    const badge = el("g", { class: "badge" });
    const bx = x + (pieces.length - 1) * FAN + BLOCK + 2;
    const by = y - (pieces.length - 1) * 0.6;
    const big = Boolean(document.querySelector("#board.table"));   // the table's counts, read from 1.5 m
    badge.append(el("circle", { cx: bx + (big ? 3 : 0), cy: by - (big ? 3 : 0), r: big ? 11 : 7 }),
      el("text", { x: bx + (big ? 3 : 0), y: by + (big ? 4 : 3.5) }, String(stack.count)));
    g.append(badge);
  }
  const names = known.map((b) => blockName(b, t));
  g.append(el("title", {}, fill(t("{side}: {n} blocks"), { side: sideName(side, t), n: stack.count })
    + (names.length ? "\n" + names.join("\n") : "")));
  return g;
}

// --- the board from the view -------------------------------------------------------------------------

function allChoices(state) {
  // The caller's legal actions, each in words (the hub's `choices`; the referee's are every
  // role's). Their raw text is only ever sent back, never shown.
  return Array.isArray(state.choices) ? state.choices : [];
}

function movesFrom(choices, loc, side) {
  return choices.filter((c) => c.verb === "move" && c.role === side && c.args && c.args.from === loc && c.args.paths)
    .map((c) => ({ choice: c, dests: [...new Set(Object.values(c.args.paths).map((p) => p[p.length - 1]))] }));
}

function sidesOf(stacks) { return SIDES_ORDER.filter((s) => stacks[s]).concat(Object.keys(stacks).filter((k) => k !== "disks" && !SIDES_ORDER.includes(k))); }

function renderBoard(layers, board, where, state, el, t, ui) {
  const view = state.view || {};
  const castles = (view.control || {}).castles || {};
  const resources = (view.control || {}).resources || {};
  layers.stacks.replaceChildren();
  layers.marks.replaceChildren();
  layers.over.replaceChildren();
  for (const loc of board.locations) {
    const [cx, cy] = xy(loc);
    const group = document.getElementById("loc-" + loc.id);
    const control = group.querySelector(".control");
    control.replaceChildren();
    const castle = document.getElementById("castle-" + loc.id);
    if (castle) castle.setAttribute("class", `castle ${loc.castle} held-${castles[loc.id] || "none"}`);
    if (resources[loc.id]) {   // the controller's cube (4.2)
      control.append(el("rect", { x: cx + DOT - 3, y: cy + DOT - 5, width: 8, height: 8, class: "cube " + resources[loc.id],
        "data-control": resources[loc.id] }));
    }
    const stacks = (view.locations || {})[loc.id] || {};
    for (const [i, disk] of (stacks.disks || []).entries()) {
      const d = el("circle", { cx: cx - DOT - 11 + i * 4, cy: cy + 9, r: 4.5, class: "disk", "data-disk": disk });
      d.append(el("title", {}, diskName(disk)));
      control.append(d);
    }
    const present = sidesOf(stacks);
    present.forEach((side, index) => {
      const stack = stacks[side];
      let x = present.length > 1 ? cx - BLOCK - 10 + index * (BLOCK + 20) - (index ? 0 : FAN * Math.min(SHOWN - 1, stack.count - 1)) : cx - BLOCK / 2;
      const y = cy - DOT - BLOCK - 3;
      const wide = BLOCK + FAN * (Math.min(SHOWN, stack.count) - 1) + 14;
      x = Math.min(x, VIEW.x + VIEW.w - wide);
      const mine = ui.canTap && (state.role === side || state.role === "referee");
      const selected = ui.selected && ui.selected.loc === loc.id && ui.selected.side === side;
      const g = drawStack(el, x, y, stack, side, t, { "data-where": loc.id, "data-side": side, "data-count": stack.count });
      if (mine) g.classList.add("mine");
      if (selected) g.classList.add("selected");
      if (mine) g.addEventListener("click", () => ui.onStack(loc.id, side));
      layers.stacks.append(g);
    });
  }
  clearCounts(layers.labels, layers.stacks);
  if (layers.far) clearCounts(layers.far, layers.stacks);
  // The off-map boxes: their blocks as this role knows them, and how many.
  for (const [boxId, contents] of Object.entries(view.boxes || {})) {
    const holder = document.querySelector(`#box-${boxId} .box-blocks`);
    const at = BOX_AT[boxId];
    if (!holder || !at) continue;
    holder.replaceChildren();
    const known = contents.blocks || [];
    const hidden = Math.max(0, (contents.count || 0) - known.length);
    const pieces = [...known, ...Array(hidden).fill(null)];
    const step = BLOCK * 0.75;   // fanned, as the printed box holds them side by side
    const fits = Math.floor((at.w - 40 - BLOCK) / step) + 1;
    pieces.slice(0, fits).forEach((b, i) => holder.append(drawBlock(el, at.x + 6 + i * step, at.y + 24, b, contents.side, t)));
    holder.append(el("text", { class: "box-count", x: at.x + at.w - 8, y: at.y + 42, "text-anchor": "end",
      "data-box-count": contents.count }, String(contents.count)));
  }
  // The battle, the last move, and on a tap the places a stack may go.
  const battle = view.battle;
  if (battle && battle.at && where[battle.at]) {
    const [bx, by] = xy(where[battle.at]);
    const ring = el("circle", { cx: bx, cy: by, r: DOT + 9, class: "battle-ring", "data-battle": battle.at });
    ring.append(el("title", {}, fill(t(battle.siege ? "Siege at {place}" : "Battle at {place}"), { place: where[battle.at].name })));
    layers.marks.append(ring);
  }
  const marks = (state.last && state.last.marks) || {};
  for (const [a, b] of marks.arrows || []) {
    if (!where[a] || !where[b]) continue;
    const [x1, y1] = xy(where[a]);
    const [x2, y2] = xy(where[b]);
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const k = (DOT + 4) / len;
    layers.marks.append(el("line", { class: "arrow", "data-arrow": a + ">" + b,
      x1: x1 + (x2 - x1) * k, y1: y1 + (y2 - y1) * k, x2: x2 - (x2 - x1) * k, y2: y2 - (y2 - y1) * k }));
  }
  for (const p of marks.places || []) {
    if (!where[p]) continue;
    const [px, py] = xy(where[p]);
    layers.marks.append(el("circle", { class: "place-ring", cx: px, cy: py, r: DOT + 5, "data-place": p }));
  }
  if (ui.selected) {
    const dests = new Set(movesFrom(ui.allChoices(), ui.selected.loc, ui.selected.side).flatMap((m) => m.dests));
    for (const dest of dests) {
      if (!where[dest]) continue;
      const [dx, dy] = xy(where[dest]);
      const ring = el("circle", { class: "dest", cx: dx, cy: dy, r: DOT + 8, "data-dest": dest });
      ring.append(el("title", {}, fill(t("Move to {place}"), { place: where[dest].name })));
      ring.addEventListener("click", () => ui.onDest(dest));
      layers.over.append(ring);
    }
  }
}

// --- the battle and the impact track (8.2-8.9) -------------------------------------------------------

function impactTrack(el, impact, top, sides, ids, t, rows = 2) {
  // The printed impact track: boxes 0 to 48 (every fifth shaded), in rows so that its numbers
  // read (two across the table's screen, more in a narrow side panel), with each side's cube on
  // its box (8.3).
  const cell = 36;
  const perRow = Math.ceil((top + 1) / rows);
  const rowH = 54;
  const svg = el("svg", { viewBox: `0 0 ${perRow * cell + 4} ${rows * rowH + 2}`, class: "track", role: "img",
    "data-track": `0-${top}` });
  const at = (n) => [2 + (n % perRow) * cell, 2 + Math.floor(n / perRow) * rowH];
  for (let n = 0; n <= top; n++) {
    const [x, y] = at(n);
    svg.append(el("rect", { class: "cell" + (n % 5 === 0 ? " five" : ""), x, y, width: cell, height: 30, "data-cell": n }),
      el("text", { class: "num", x: x + cell / 2, y: y + 46 }, String(n)));
  }
  sides.forEach((side, i) => {
    const value = impact[side] || 0;
    const [x, y] = at(Math.min(value, top));
    const attrs = { class: "marker " + side, x: x + 4 + i * 14, y: y + 5 + i * 6, width: 14, height: 14, "data-side": side };
    if (ids) Object.assign(attrs, { id: "impact-" + side, "data-impact": value });
    const cube = el("rect", attrs);
    cube.append(el("title", {}, sideName(side, t) + ": " + value));
    svg.append(cube);
  });
  const holder = el("div", { class: "seki-track" });
  holder.append(svg);
  return holder;
}

function battleBody(box, battle, board, sides, el, t, where, wide = false) {
  const place = (where[battle.at] || { name: battle.at }).name;
  if (!battle.impact) {   // a castle's owner chooses whether to withdraw into it (8.9)
    box.append(el("h2", {}, fill(t("Battle at {place}"), { place })),
      el("p", {}, fill(t("{side} chooses: battle or siege"), { side: sideName(battle.castle_choice_by || "", t) })));
    return;
  }
  box.append(el("h2", {}, fill(t(battle.siege ? "Siege at {place}" : "Battle at {place}"), { place })));
  const big = el("div", { class: "seki-impact" });
  for (const side of sides) {
    const role = battle.attacker === side ? t("attacker") : t("defender");
    const cell = el("div", { class: side, "data-side": side });
    cell.append(el("span", {}, sideName(side, t) + " · " + role), el("span", { class: "n", "data-impact-big": side }, String(battle.impact[side] || 0)));
    big.append(cell);
  }
  box.append(big);
  const top = Math.max(board.tracks.impact_track[1], 0);
  box.append(impactTrack(el, battle.impact, top, sides, true, t, wide ? 2 : 4));
  // Who deploys next and what is deployed, on one line: the shared screen has no room to spare.
  const row = el("div", { class: "seki-deployed" });
  if (battle.initiative) row.append(el("p", { class: "initiative" }, fill(t("Initiative: {side} deploys (8.5)"), { side: sideName(battle.initiative, t) })));
  for (const d of battle.deployed || []) row.append(el("span", { "data-side": d.side }, sideName(d.side, t) + ": " + blockName(d, t) + " +" + d.impact));
  if (row.childElementCount) box.append(row);
  for (const [side, cards] of Object.entries(battle.cards_played || {})) {
    if (cards.length) box.append(el("p", { class: "played" }, fill(t("{side} played: {cards}"), { side: sideName(side, t), cards: cards.map((c) => cardName(c, t)).join(", ") })));
  }
  if (battle.challenge) box.append(el("p", { class: "challenge" }, fill(t("Loyalty challenge by {side}: show a matching card or the block changes sides (8.6)"), { side: sideName(battle.challenge.by, t) })));
  if (battle.siege && battle.attacker) {
    const impact = battle.impact[battle.attacker] || 0;
    box.append(el("p", { class: "siege" }, fill(t("Siege: {n} losses so far, {m} impact to the next (8.9.4)"), { n: Math.floor(impact / 7), m: 7 - impact % 7 })));
  }
  if (battle.losses_due && battle.winner !== undefined && battle.stage !== "deploy") {
    const losses = Object.entries(battle.losses_due).map(([side, n]) => sideName(side, t) + " " + n).join(", ");
    box.append(el("p", {}, fill(t("Winner: {side}. Losses: {losses}"), { side: battle.winner ? sideName(battle.winner, t) : t("none"), losses })));
  }
  if (battle.retreat) box.append(el("p", {}, fill(t("Retreat to: {places}"), { places: battle.retreat.to.map((p) => (where[p] || { name: p }).name).join(", ") })));
}

function renderBattle(box, battle, board, sides, shell, where, t) {
  const open = Boolean(battle && battle.at);
  shell.show(box, open);
  if (!open) return;
  box.replaceChildren();
  battleBody(box, battle, board, sides, el, t, where);
}

// --- the week's bookkeeping --------------------------------------------------------------------------

function tile(el, label, value, side = "", key = "", small = "") {
  // A big number (or word) with what it counts under it, and the detail smaller beside it.
  const box = el("div", { class: "seki-tile" + (side ? " " + side : ""), "data-key": key || label });
  box.append(el("span", { class: typeof value === "number" || /^\w$/.test(String(value)) ? "n" : "n word" }, String(value ?? "")),
    el("span", { class: "what" }, label));
  if (small) box.append(el("span", { class: "small" }, small));
  return box;
}

function weekTiles(view, sides, el, t) {
  // The week's bookkeeping as big numbers: the turn track (6.1), who moves first (6.3), each
  // side's points as they stand (2 per castle, 1 per resource, 2.2) and its cards (3.3).
  const tiles = el("div", { class: "seki-tiles", id: "facts" });
  const weeks = 7;
  if (view.week !== undefined && view.week !== null) tiles.append(tile(el, fill(t("week (of {n})"), { n: weeks }), view.week, "", "week"));
  if (view.turn) tiles.append(tile(el, t("turn"), view.turn, "", "turn"));
  if (view.first) tiles.append(tile(el, t("moves first"), sideName(view.first, t), view.first, "first"));
  if (view.movement && view.movement.moves_left !== null && view.movement.moves_left !== undefined) {
    tiles.append(tile(el, t("moves left"), view.movement.moves_left, view.active || "", "moves_left"));
  }
  sides.forEach((side) => {
    const name = sideName(side, t);
    if (view.control) {
      const castles = Object.values(view.control.castles || {}).filter((s) => s === side).length;
      const resources = Object.values(view.control.resources || {}).filter((s) => s === side).length;
      tiles.append(tile(el, fill(t("{side} points"), { side: name }), 2 * castles + resources, side, side + "-points",
        fill(t("{castles} castles, {resources} resources"), { castles, resources })));
    }
    const c = (view.cards || {})[side];
    if (c) {
      tiles.append(tile(el, fill(t("{side} cards in hand"), { side: name }), c.hand, side, side + "-hand",
        fill(t("draw pile {n}"), { n: c.draw_pile })));
    }
  });
  return tiles;
}

function placeName(id, where, t) {
  // A place by the name the board prints: a location's, a box's title, never its id.
  if (where[id]) return where[id].name;
  return t(BOX_TITLE[id] || id.replaceAll("_", " "));
}

function weekNotes(view, el, t, where) {
  const notes = [];
  if (view.reinforcements) {
    for (const [side, plan] of Object.entries(view.reinforcements.plan || {})) {
      const owed = (view.reinforcements.discards_owed || {})[side];
      notes.push(fill(t("{side} reinforcements: discard {n}"), { side: sideName(side, t), n: plan.discard })
        + (owed ? " " + fill(t("({n} still to discard)"), { n: owed }) : ""));
    }
  }
  for (const draw of view.pending_draws || []) {
    notes.push(fill(t("Waiting for a draw: {side} {n} {kind}"), { side: sideName(draw.side, t), n: draw.count, kind: DRAW_KINDS[draw.kind] ? t(DRAW_KINDS[draw.kind]) : draw.kind })
      + (draw.to ? " → " + placeName(draw.to, where, t) : ""));
  }
  if (view.outcome) notes.push(fill(t("Result: {winner} ({how})"), { winner: view.outcome.winner ? sideName(view.outcome.winner, t) : t("draw"), how: String(view.outcome.termination || "").replaceAll("_", " ") }));
  return notes.map((n) => el("p", { class: "note" }, n));
}

function renderWeek(box, view, sides, el, t, where) {
  box.replaceChildren(el("h2", {}, t("The week")), weekTiles(view, sides, el, t), ...weekNotes(view, el, t, where));
}

// --- the shared table screen, read from 1.5 m ----------------------------------------------------------

const PHASE_WORDS = {
  setup: "SET-UP", reinforcements: "REINFORCEMENTS", bid: "BIDS FOR THE FIRST TURN",
  first_player: "{side} CHOOSES WHO MOVES FIRST", movement: "{side} MOVES", combat: "{side} FIGHTS",
};

export function banner(state, t = (s) => s, where = {}) {
  // The big line the table shows: "WEEK 3 · TURN B · TOKUGAWA MOVES" (6.1, 6.4).
  const view = (state && state.view) || {};
  const up = (s) => String(s).toUpperCase();
  if (view.outcome) {
    return view.outcome.winner ? fill(t("{side} WINS"), { side: up(sideName(view.outcome.winner, t)) }) : t("THE GAME IS A DRAW");
  }
  const parts = [];
  if (view.week !== undefined && view.week !== null) parts.push(fill(t("WEEK {n}"), { n: view.week }));
  if (view.turn && (view.phase === "movement" || view.phase === "combat")) parts.push(fill(t("TURN {turn}"), { turn: view.turn }));
  const battle = view.battle;
  if (battle && battle.at) {
    parts.push(fill(t(battle.siege ? "SIEGE AT {place}" : "BATTLE AT {place}"), { place: up((where[battle.at] || { name: battle.at }).name) }));
  } else if (view.phase && PHASE_WORDS[view.phase]) {
    parts.push(fill(t(PHASE_WORDS[view.phase]), { side: up(sideName(view.active || "", t)) }));
  }
  return parts.join(" · ");
}

function fitTable(root, strip) {
  // The shared screen shows the whole map and the battle at once, without scrolling: on a wide
  // screen the map is narrowed (centred) until its height fits above the battle. A phone
  // scrolls as any page does.
  if (window.innerWidth <= 800) { root.style.maxWidth = ""; return; }
  const top = root.getBoundingClientRect().top + window.scrollY;
  const room = window.innerHeight - top - strip.getBoundingClientRect().height - 28;
  root.style.maxWidth = Math.max(360, Math.floor(room * VIEW.w / VIEW.h)) + "px";
}

function renderTable(strip, week, state, board, sides, el, t, ownBanner, where) {
  // The shared screen: under the map the battle while one is fought (else the impact track
  // waiting for the next); the week's bookkeeping in the side column.
  const view = state.view || {};
  const children = [];
  if (ownBanner) children.push(el("div", { id: "seki-banner" }, ownBanner));
  const battle = view.battle;
  const top = board.tracks.impact_track[1];
  renderWeek(week, view, sides, el, t, where);
  const fight = el("section", { id: "battle" });
  if (battle && battle.at) battleBody(fight, battle, board, sides, el, t, where, true);
  else fight.append(el("h2", {}, t("Impact track")), impactTrack(el, {}, top, sides, false, t));
  children.push(fight);
  strip.replaceChildren(...children);
}

// --- a player's own blocks and hand ------------------------------------------------------------------

function renderMine(box, state, el, t, where) {
  const view = state.view;
  const rows = el("table");
  const places = Object.assign({}, view.locations || {});
  for (const [boxId, contents] of Object.entries(view.boxes || {})) places[boxId] = { [contents.side]: contents };
  for (const [at, stacks] of Object.entries(places)) {
    const stack = stacks[state.role];
    if (!stack || !stack.blocks || !stack.blocks.length) continue;
    const tr = el("tr");
    const name = where[at] ? where[at].name : t(BOX_TITLE[at] || at);
    tr.append(el("th", {}, name), el("td", {}, stack.blocks.map((b) => blockName(b, t)).join(", ")));
    rows.append(tr);
  }
  box.replaceChildren(el("h2", {}, t("Your blocks")), rows);
  const cards = ((view.cards || {})[state.role] || {}).cards;
  if (cards) box.append(el("h2", {}, t("Your hand")), el("p", { id: "hand" }, cards.length ? cards.map((c) => cardName(c, t)).join(", ") : t("no cards")));
  const options = view.options;
  if (options && options.groups && options.groups.length) {
    box.append(el("h2", {}, t("Groups that may move")), el("p", { class: "hint" }, t("Tap a stack on the map to see where it may go.")));
    for (const group of options.groups) {
      box.append(el("p", { class: "group", "data-from": group.from }, fill(t("{place} ({n} blocks): up to {road} by road, {highway} on highways; reaches {reach}"),
        { place: (where[group.from] || { name: group.from }).name, n: group.blocks, road: group.range.by_road,
          highway: group.range.all_highway, reach: group.reachable.map((p) => (where[p] || { name: p }).name).join(", ") })));
    }
  }
}
