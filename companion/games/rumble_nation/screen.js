// Rumble Nation's screen: the map board as the players know it (rulebook 4): the eleven regions at
// their places on the printed map (kit map: centres, land and sea links, rule 4's thick lines),
// each with its printed name, its large castle token's value (3 ②) and every player's soldiers
// drawn as soldiers (meeples) in the player's colour with their count, the daimyo where they
// stand (8). Land regions joined by land stand on one landmass; sea links cross the water,
// dashed. Around it: the turn (whose, the dice as dice), the turn order, reserves, katana and the
// castles won, the tactic cards on display (3 ③) and the daimyo cards as far as this role may
// see them (face down until used, 8.3; the viewer's own face up for it alone).
//
// The last action in force is marked on the map (arrows and regions, `state.last.marks`); on a
// player's phone or the referee's screen a tap on a region lists the choices that involve it, in
// words, and a tap on one asks to confirm it (`shell.choose`). On the shared table screen
// (page "table") everything that decides the turn is drawn large enough to read from 1.5 m, and
// `banner(state)` gives the big line ("DEPLOYMENT · BLUE DEPLOYS").
//
// Zoom buttons above the map and pinch on a phone (the toolkit's zoom); the shared table shows its
// buttons only once zoomed in (a pinch, a trackpad's pinch), over the map's top right corner.
//
// Colour-blind players: every colour is also named (its initial beside its soldiers, its name in
// the players' box) and each player's soldiers keep the same corner of every region. The views
// are filtered on the server: a daimyo card still face down never reaches another screen.

import { el, fill, t, zoom } from "/common/toolkit.js";

const CSS = `
#rn-wrap { position: relative; }
#rn-scroll.zoomed { max-height: 78vh; }  /* zoomed in, the map scrolls in its box both ways */
#rn-board { width: 100%; height: auto; display: block; background: #c9dde6; border-radius: .4rem; user-select: none; -webkit-user-select: none; }
@media (min-width: 801px) {  /* zoomed in, the box keeps the board's room and the board grows in it */
  body[data-page="table"] #rn-board, body[data-page="table"] #rn-scroll.zoomed { max-height: calc(100vh - 8.5rem); }
  body[data-page="table"] #rn-scroll.zoomed #rn-board { max-height: none; }
}
#rn-board .bridge { stroke: #e9dcbc; stroke-linecap: round; }
#rn-board .link { stroke: #5b4a30; stroke-width: 7; stroke-linecap: round; }
#rn-board .link.sea { stroke: #2f6ea8; stroke-width: 5; stroke-dasharray: 12 9; }
#rn-board .region .land { fill: #f3ead2; stroke: #7a6440; stroke-width: 2.5; }
#rn-board .region.gone .land { fill: #e6e0d2; stroke-dasharray: 7 5; }
#rn-board .region.can { cursor: pointer; }
#rn-board .region.can .land { stroke: #2e7d32; stroke-width: 5; }
#rn-board .region.marked .land { stroke: #e65100; stroke-width: 7; }
#rn-board .region.open .land { fill: #fff8e1; }
#rn-board .region:focus { outline: none; }
#rn-board .region:focus-visible .land { stroke: #1565c0; stroke-width: 6; }
#rn-board .region .name { font: 700 20px system-ui, sans-serif; fill: #2b2116; text-anchor: middle; }
#rn-board .castle circle { fill: #6b4a22; stroke: #3a2610; stroke-width: 3; }
#rn-board .castle text { font: 800 30px system-ui, sans-serif; fill: #fff; text-anchor: middle; }
#rn-board .castle.gone circle { fill: none; stroke: #a89a80; stroke-width: 2.5; stroke-dasharray: 5 4; }
#rn-board .castle.gone text { fill: #a89a80; }
#rn-board .slot { fill: none; stroke: #d9cfb5; stroke-width: 1.5; stroke-dasharray: 3 3; }
#rn-board .meeple { stroke: #000a; stroke-width: 2; stroke-linejoin: round; }
#rn-board .daimyo-meeple .meeple { stroke: #b8860b; stroke-width: 4; }
#rn-board .chip .count { font: 800 26px system-ui, sans-serif; text-anchor: middle; paint-order: stroke; stroke-width: 5px; stroke-linejoin: round; }
#rn-board.table .chip .count { font-size: 33px; }
#rn-board .chip .who { font: 700 13px system-ui, sans-serif; fill: #2b2116; paint-order: stroke; stroke: #f3ead2; stroke-width: 4px; stroke-linejoin: round; }
#rn-board .chip .badge circle { fill: #f0c419; stroke: #5a4300; stroke-width: 1.5; }
#rn-board .chip .badge text { font: 700 15px system-ui, sans-serif; fill: #3a2a00; text-anchor: middle; }
#rn-board .chip .more rect { fill: #fff; stroke: #555; stroke-width: 1.5; }
#rn-board .chip .more text { font: 700 14px system-ui, sans-serif; fill: #222; text-anchor: middle; }
#rn-board .arrow { fill: none; stroke: #e65100; stroke-width: 9; stroke-linecap: round; opacity: .9; }
#rn-board .box rect.frame { fill: #fffdf7; stroke: #6b5a3c; stroke-width: 2; }
#rn-board .box .title { font: 700 20px system-ui, sans-serif; fill: #2b2116; }
#rn-board .box .text { font: 19px system-ui, sans-serif; fill: #2b2116; }
#rn-board .box .head { font: 600 14px system-ui, sans-serif; fill: #5a4a30; text-anchor: middle; }
#rn-board .box .num { font: 800 24px system-ui, sans-serif; fill: #2b2116; text-anchor: middle; }
#rn-board .box .pointer { font: 800 22px system-ui, sans-serif; fill: #e65100; }
#rn-board .die rect { stroke: #0009; stroke-width: 2.5; }
#rn-board .order .done { opacity: .45; }
#rn-board .you rect.row { fill: #fff3c4; }
#rn-board .player.active rect.row { fill: #ffe0b2; }
#rn-board.table .box .title { font-size: 30px; }
#rn-board.table .box .text { font-size: 28px; }
#rn-board.table .box .head { font-size: 26px; }
#rn-board.table .box .num { font-size: 34px; }
#rn-board.table .box .pointer { font-size: 32px; }
#rn-board.table .region .name { font-size: 26px; }
#rn-board.table .chip .badge circle { r: 14px; }
#rn-board.table .chip .badge text { font-size: 26px; }
#rn-board.phone .region .name { font-size: 25px; }
#rn-board.phone .chip .count { font-size: 29px; }
#rn-board.phone .chip .who { font-size: 15px; }
#rn-board.phone .box .head { font-size: 15px; }
#rn-board.phone .castle text { font-size: 34px; }
#rn-board.phone .box .title { font-size: 25px; }
#rn-board.phone .box .text { font-size: 24px; }
#rn-board.phone .box .num { font-size: 28px; }
#rn-chooser { position: absolute; z-index: 5; width: min(22rem, 100%); max-height: 60vh; overflow: auto; background: #fff;
  border: 2px solid #2e7d32; border-radius: .5rem; box-shadow: 0 4px 16px #0004; padding: .4rem .6rem; }
#rn-chooser.sheet { position: fixed; left: 0; right: 0; bottom: 0; width: auto; max-height: 55vh; border-radius: .8rem .8rem 0 0; }
#rn-chooser h3 { margin: .1rem 0 .3rem; font-size: 1.1rem; display: flex; justify-content: space-between; align-items: center; gap: .4rem; }
#rn-chooser button.choice { display: block; width: 100%; text-align: left; font-size: 1rem; padding: .5rem .6rem; margin: .25rem 0; }
#rn-chooser p { margin: .3rem 0; }
.rn-panel { font-size: 1.1rem; }
.rn-panel ul { margin: .2rem 0; padding-left: 0; list-style: none; }
.rn-panel li { margin: .3rem 0; display: flex; align-items: center; gap: .4rem; flex-wrap: wrap; }
.rn-swatch { display: inline-block; min-width: 2.2em; padding: 0 .3em; border-radius: .25em;
  text-align: center; font-weight: 700; border: 1px solid #0006; }
.rn-card { display: inline-block; padding: .15rem .5rem; border-radius: .3rem; border: 2px solid #6b5a3c; background: #fffdf7; font-weight: 600; }
.rn-card.back { background: repeating-linear-gradient(45deg, #5b3a1e, #5b3a1e 6px, #74502c 6px, #74502c 12px); color: #fff; border-color: #3a2610; }
.rn-card.mine { border-color: #c60; background: #fff3e0; }
.rn-panel li small { flex-basis: 100%; padding-left: .2rem; color: #5a4a30; }
body[data-page="table"] .rn-panel { font-size: 1.25rem; }
`;

const COLOURS = {
  red: ["#c62828", "#fff"], blue: ["#1f5fbf", "#fff"], yellow: ["#f4c20d", "#111"],
  black: ["#1b1b1b", "#fff"], green: ["#2e7d32", "#fff"], white: ["#f5f5f5", "#111"],
  purple: ["#6a1b9a", "#fff"], orange: ["#ef6c00", "#111"],
};
const COLOUR_NAMES = { red: "Red", blue: "Blue", yellow: "Yellow", black: "Black", green: "Green",
  white: "White", purple: "Purple", orange: "Orange" };

// A card's id said as its printed title (the Italian edition's: 5.1.2, 8.3; names, never
// translated), word by word: the module names no card, so it can carry nobody's hidden card.
const LOWER = new Set(["a", "di", "le"]);
const LONG_VOWELS = { chosokabe: "Chōsokabe", mori: "Mōri", otomo: "Ōtomo", sorin: "Sōrin" };

const PHASES = { setup: "Setting up", daimyo: "Daimyo cards", deployment: "Deployment", war: "War",
  over: "The war is over" };

const TILE = { w: 214, h: 164 };        // a region, in the SVG's units
const SLOT = { w: 64, h: 62, gap: 4 };  // one player's soldiers in a region
const WIDE = { x: 1150, y: 820 };       // the kit's fractions of the board, in the SVG's units
const TALL = { x: 650, y: 1300 };       // the same on a phone held upright: Japan stretched down
const GAP = 24;                         // the least room between two regions
const SIZES = {
  // The turn's box and the players' rows: larger on the shared table screen, read from 1.5 m.
  normal: { turn: { w: 420, h: 206 }, row: 42, players: 440, die: 66, chip: 40, chipFont: 22 },
  table: { turn: { w: 600, h: 330 }, row: 58, players: 600, die: 104, chip: 66, chipFont: 38 },
  phone: { turn: { w: 420, h: 214 }, row: 46, players: 440, die: 70, chip: 44, chipFont: 26 },
};
const PIPS = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] };

// A soldier meeple in a 50 x 56 box: head, arms out, legs apart.
const MEEPLE = "M25 1a9.5 9.5 0 1 1 0 19a9.5 9.5 0 1 1 0-19z M15 21h20q14 2 14 10q0 4-5 4l-7-1 5 18q1 3-3 3h-9l-5-9"
  + "-5 9h-9q-4 0-3-3l5-18-7 1q-5 0-5-4q0-8 14-10z";

function paint(colour) { return COLOURS[colour] || ["#777", "#fff"]; }
function sum(values) { return values.reduce((a, b) => a + b, 0); }
// The tactic cards' titles in the screen's language: English here, the Italian edition's printed
// titles from the catalog (locales/it/words.po); a daimyo card is its daimyo's name.
const TACTIC_TITLES = { esplorazione: "Scouting", oltre_le_montagne: "Over the Mountains", marina: "Navy",
  squadra_di_riserva: "Reserve Squad", ninja: "Ninja", ingresso_a_kyo: "Entering Kyo", supporto: "Support",
  ribellione: "Rebellion", esilio: "Exile", prigionia: "Imprisonment", diversivo: "Diversion", ritirata: "Retreat" };

function cardName(card) {
  if (TACTIC_TITLES[card]) return t(TACTIC_TITLES[card]);
  return String(card).split("_").map((w, i) => LONG_VOWELS[w] || (i > 0 && LOWER.has(w) ? w : w.charAt(0).toUpperCase() + w.slice(1))).join(" ");
}

function abbreviations(names) {
  // The shortest beginning of each colour's name that no other colour shares: R, Blu, Y, Bla.
  const found = {};
  const all = Object.values(names).map((n) => n.toLowerCase());
  for (const [colour, name] of Object.entries(names)) {
    const low = name.toLowerCase();
    let n = 1;
    while (all.some((other) => other !== low && other.startsWith(low.slice(0, n))) && n < low.length) n += 1;
    found[colour] = name.slice(0, n);
  }
  return found;
}

// --- where things go ------------------------------------------------------------------------------

function overlap(a, b) {
  // How far two boxes (centre x, y and size w, h) must move apart, along each axis.
  return [(a.w + b.w) / 2 + GAP - Math.abs(a.x - b.x), (a.h + b.h) / 2 + GAP - Math.abs(a.y - b.y)];
}

function layout(locations, fixed, spread, mapwise) {
  // Regions at their printed places, pushed apart until no two (nor a region and one of the
  // fixed boxes) overlap: each pair the shorter way or, `mapwise`, along the way they lie on
  // the map (one north of the other apart north-south...); the same board for the same kit,
  // every time.
  const boxes = locations.map((loc) => ({ id: loc.id, x: loc.xy[0] * spread.x, y: loc.xy[1] * spread.y, w: TILE.w, h: TILE.h }));
  const home = Object.fromEntries(boxes.map((b) => [b.id, { x: b.x, y: b.y }]));
  for (let round = 0; round < 3000; round += 1) {
    let moved = false;
    for (let i = 0; i < boxes.length; i += 1) {
      for (const other of [...boxes.slice(i + 1), ...fixed]) {
        const a = boxes[i];
        const [dx, dy] = overlap(a, other);
        if (dx <= 0 || dy <= 0) continue;
        moved = true;
        const still = fixed.includes(other);
        const share = (still ? 1 : 0.5) * 1.02;
        const from = home[a.id];
        const to = still ? { x: other.x, y: other.y } : home[other.id];
        const [mx, my] = [(to.x - from.x) / TILE.w, (to.y - from.y) / TILE.h];
        const across = still || !mapwise ? dx < dy : Math.abs(mx) > Math.abs(my);
        if (across) {
          const sign = (still || mx === 0 ? a.x < other.x : mx > 0) ? -1 : 1;
          a.x += sign * dx * share;
          if (!still) other.x -= sign * dx * share;
        } else {
          const sign = (still || my === 0 ? a.y < other.y : my > 0) ? -1 : 1;
          a.y += sign * dy * share;
          if (!still) other.y -= sign * dy * share;
        }
      }
    }
    if (!moved) break;
  }
  return Object.fromEntries(boxes.map((b) => [b.id, b]));
}

function crowded(boxes) {
  // Whether any two boxes still overlap.
  return boxes.some((a, i) => boxes.slice(i + 1).some((b) => { const [dx, dy] = overlap(a, b); return dx > GAP && dy > GAP; }));
}

function faithful(locations, at, spread) {
  // Whether the nudged regions keep the printed board's order: of two regions, the one
  // clearly north (or west, where they lie east-west) of the other on the map stays so.
  return locations.every((a, i) => locations.slice(i + 1).every((b) => {
    const [dx, dy] = [(b.xy[0] - a.xy[0]) * spread.x, (b.xy[1] - a.xy[1]) * spread.y];
    const [sx, sy] = [at[b.id].x - at[a.id].x, at[b.id].y - at[a.id].y];
    if (Math.abs(dx) < TILE.w / 2 && Math.abs(dy) < TILE.h / 2) return true;  // nearly one place
    return Math.abs(dx) >= Math.abs(dy) ? Math.sign(dx) === Math.sign(sx) : Math.sign(dy) === Math.sign(sy);
  }));
}

function stack(locations, fixed, spread) {
  // Where nudging cannot part them (a narrow phone): each region at its printed place across,
  // taken north to south and moved down until it is clear of those above.
  const placed = [...fixed];
  const order = [...locations].sort((a, b) => a.xy[1] - b.xy[1] || a.xy[0] - b.xy[0]);
  for (const loc of order) {
    const box = { id: loc.id, x: loc.xy[0] * spread.x, y: loc.xy[1] * spread.y, w: TILE.w, h: TILE.h };
    for (;;) {
      const hit = placed.filter((other) => { const [dx, dy] = overlap(box, other); return dx > 0 && dy > 0; });
      if (!hit.length) break;
      box.y = Math.max(...hit.map((other) => other.y + (other.h + box.h) / 2 + GAP)) + 0.5;
    }
    placed.push(box);
  }
  return Object.fromEntries(placed.slice(fixed.length).map((b) => [b.id, b]));
}

function corners(locations, count, spread, size) {
  // The turn's box in the top-left and the players' box in the bottom-right: the sea, on the
  // printed board, where Japan leaves room.
  const xs = locations.map((l) => l.xy[0] * spread.x);
  const ys = locations.map((l) => l.xy[1] * spread.y);
  const [left, top] = [Math.min(...xs) - TILE.w / 2, Math.min(...ys) - TILE.h / 2];
  const [right, bottom] = [Math.max(...xs) + TILE.w / 2, Math.max(...ys) + TILE.h / 2];
  const players = { w: size.players, h: size.row + 10 + size.row * count + 8 };
  return {
    turn: { id: "turn", x: left + size.turn.w / 2, y: top + size.turn.h / 2, ...size.turn },
    players: { id: "players", x: right - players.w / 2, y: bottom - players.h / 2, ...players },
  };
}

function edge(box, dx, dy) {
  // How far along (dx, dy) from a box's centre its border lies (in units of the vector).
  const tx = dx ? box.w / 2 / Math.abs(dx) : Infinity;
  const ty = dy ? box.h / 2 / Math.abs(dy) : Infinity;
  return Math.min(tx, ty);
}

export function regionsOf(choice, view) {
  // The regions a choice involves: where its soldiers come from and go to, the region it names;
  // a deployment's region is the one whose castle is the pair's sum (5.1.1).
  const a = choice.args || {};
  const found = new Set();
  const add = (r) => { if (typeof r === "string") found.add(r); };
  if (choice.verb === "deploy" && Array.isArray(a.pair) && (view.dice || []).length) {
    const total = (view.dice[a.pair[0]] || 0) + (view.dice[a.pair[1]] || 0);
    for (const [region, value] of Object.entries(view.castles || {})) if (value === total) add(region);
  }
  add(a.from); add(a.to); add(a.region); add(a.daimyo);
  if (Array.isArray(a.regions)) a.regions.forEach(add);
  if (Array.isArray(a.moves)) a.moves.forEach((m) => add(m && m.to));
  else if (a.moves && typeof a.moves === "object") Object.keys(a.moves).forEach(add);
  if (Array.isArray(a.swaps)) a.swaps.forEach((s) => add(s && s.region));
  if (choice.verb === "daimyo" && Array.isArray(a.moves)) add((view.daimyo_at || {})[choice.role]);
  return found;
}

// --- mounting -------------------------------------------------------------------------------------

export async function mount(shell) {
  const board = await shell.board();
  const players = shell.game.roles;
  const narrow = shell.main.clientWidth < 700;
  const table = shell.page === "table" && !narrow;  // a phone showing the table: as a phone
  const size = table ? SIZES.table : narrow ? SIZES.phone : SIZES.normal;
  const colourNames = Object.fromEntries(players.map((p) => [p, t(COLOUR_NAMES[p] || p)]));
  const short = abbreviations(colourNames);
  document.head.append(el("style", { id: "rn-style" }, CSS));
  const spread = narrow ? TALL : WIDE;
  let fixed = null;
  let at = null;
  search: for (const grow of [1, 1.05, 1.1, 1.15, 1.2, 1.25, 1.3, 1.4]) {
    // Where nudging cannot part the regions, or parts them out of the map's order, a little
    // more sea between them.
    const wider = { x: spread.x * grow, y: spread.y * grow };
    for (const mapwise of [false, true]) {
      fixed = corners(board.locations, players.length, wider, size);
      at = layout(board.locations, [fixed.turn, fixed.players], wider, mapwise);
      if (!crowded([...Object.values(at), fixed.turn, fixed.players]) && faithful(board.locations, at, wider)) break search;
    }
  }
  if (crowded([...Object.values(at), fixed.turn, fixed.players])) {
    at = stack(board.locations, [fixed.turn], spread);
    const placed = Object.values(at);
    const right = Math.max(...placed.map((b) => b.x + b.w / 2));
    const bottom = Math.max(...placed.map((b) => b.y + b.h / 2));
    Object.assign(fixed.players, { x: right - fixed.players.w / 2, y: bottom + GAP + fixed.players.h / 2 });
  }
  const all = [...Object.values(at), fixed.turn, fixed.players];
  const minX = Math.min(...all.map((b) => b.x - b.w / 2)) - 12;
  const minY = Math.min(...all.map((b) => b.y - b.h / 2)) - 12;
  const maxX = Math.max(...all.map((b) => b.x + b.w / 2)) + 12;
  const maxY = Math.max(...all.map((b) => b.y + b.h / 2)) + 12;
  const whole = { x: minX, y: minY, w: maxX - minX, h: maxY - minY };
  const wrap = el("div", { id: "rn-wrap" });
  const bar = el("div", { class: table ? "over-board" : "" });  // the table shows all the map
  const scroll = el("div", { id: "rn-scroll" });
  const svg = el("svg", { id: "rn-board", class: table ? "table" : narrow ? "phone" : "", viewBox: [whole.x, whole.y, whole.w, whole.h].join(" "),
    role: "img", "aria-label": fill(t("The map of {game}"), { game: shell.game.title }) });
  scroll.append(svg);
  wrap.append(bar, scroll);
  shell.main.append(wrap);
  const defs = el("defs");
  const head = el("marker", { id: "rn-head", viewBox: "0 0 10 10", refX: "6", refY: "5", markerWidth: "3.2", markerHeight: "3.2", orient: "auto-start-reverse" });
  head.append(el("path", { d: "M0 0L10 5L0 10z", fill: "#e65100" }));
  defs.append(head);
  svg.append(defs);
  // Land regions joined by land stand on one landmass: a broad band under each land link.
  const bridges = el("g", { class: "bridges" });
  const links = el("g", { class: "links" });
  for (const link of board.roads) {
    const [a, b] = [at[link.a], at[link.b]];
    if (!a || !b) continue;
    if (link.kind !== "sea") bridges.append(el("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: "bridge", "stroke-width": 70 }));
    links.append(el("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: "link " + link.kind, "data-link": link.a + "-" + link.b }));
  }
  svg.append(bridges, links);
  const names = Object.fromEntries(board.locations.map((loc) => [loc.id, loc.name]));
  const regions = Object.fromEntries(board.locations.map((loc) => [loc.id, drawRegion(svg, loc, at[loc.id], el, t)]));
  const turnBox = el("g", { id: "rn-turn", class: "box" });
  const playersBox = el("g", { id: "rn-players", class: "box" });
  const marks = el("g", { id: "rn-marks" });
  svg.append(turnBox, playersBox, marks);
  const panels = { you: shell.panel("rn-you", ""), tactics: shell.panel("rn-tactics", ""), daimyo: shell.panel("rn-daimyo", "") };
  for (const box of Object.values(panels)) box.classList.add("rn-panel");
  const people = shell.game.players || {};
  const draw = { el, t, players, short, colourNames, people, size, table, names };
  // Not on a broadcast's thumbnail; on the shared table, fine print drawn under 18 px (read at
  // 1.5 m) waits until zoomed in.
  const zoomed = shell.broadcast ? null : zoom(bar, scroll, svg, t("Whole map"), table ? 18 : 0);
  const tapping = shell.page === "play" || shell.page === "referee";
  let current = null;  // the last state rendered
  const chooser = el("div", { id: "rn-chooser", role: "dialog" });
  chooser.hidden = true;
  wrap.append(chooser);
  const close = () => {
    chooser.hidden = true;
    for (const group of Object.values(regions)) group.classList.remove("open");
  };
  const choose = (choice) => {
    close();
    if (shell.choose) return shell.choose(choice);
    return shell.act({ text: choice.text });
  };
  const open = (region) => {
    if (!current) return;
    close();
    const view = current.view || {};
    const mine = (current.choices || []).filter((c) => c.words && regionsOf(c, view).has(region));
    regions[region].classList.add("open");
    const heading = el("h3", {}, names[region] + ((view.castles || {})[region] !== undefined ? " · " + fill(t("castle {value}"), { value: view.castles[region] }) : ""));
    const shut = el("button", { type: "button", class: "close", "aria-label": t("Close") }, "✕");
    shut.addEventListener("click", close);
    heading.append(shut);
    chooser.replaceChildren(heading);
    chooser.setAttribute("data-region", region);
    if (!mine.length) chooser.append(el("p", { class: "none" }, t("Nothing you may do here now.")));
    for (const choice of mine) {
      const button = el("button", { type: "button", class: "choice", "data-choice": String(choice.id) });
      if (shell.page === "referee" && choice.role) button.append(swatch(el, choice.role, short[choice.role] || choice.role), document.createTextNode(" "));
      button.append(document.createTextNode(choice.words));
      button.addEventListener("click", () => choose(choice));
      chooser.append(button);
    }
    place(chooser, regions[region], wrap);
  };
  if (tapping) {
    for (const [id, group] of Object.entries(regions)) {
      group.setAttribute("tabindex", "0");
      group.setAttribute("role", "button");
      group.addEventListener("click", () => { if (!(zoomed && zoomed.gesturing())) open(id); });
      group.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); open(id); } });
    }
    document.addEventListener("keydown", (event) => { if (event.key === "Escape") close(); });
  }
  return {
    render(state) {
      const fresh = !current || current.version !== state.version;
      current = state;
      if (fresh) close();
      const view = state.view || {};
      const can = new Set();
      if (tapping) for (const c of state.choices || []) if (c.words) for (const r of regionsOf(c, view)) can.add(r);
      for (const loc of board.locations) renderRegion(regions[loc.id], loc, at[loc.id], view, draw, can.has(loc.id));
      renderMarks(marks, state.last, at, regions, el);
      renderTurn(turnBox, fixed.turn, view, state, draw);
      renderPlayers(playersBox, fixed.players, view, state.role, draw);
      renderTactics(panels.tactics, view, draw);
      renderDaimyo(panels.daimyo, view, state.role, draw, shell);
      const mine = shell.page === "play" && shell.isPlayer(state.role);
      shell.show(panels.you, mine);
      if (mine) renderYou(panels.you, view, state.role, draw);
    },
    banner(state) { return banner(state, draw); },
  };
}

function place(chooser, group, wrap) {
  // Beside the tapped region; a sheet along the bottom on a phone.
  chooser.hidden = false;
  const narrow = window.innerWidth < 600;
  chooser.classList.toggle("sheet", narrow);
  if (narrow) { chooser.style.left = ""; chooser.style.top = ""; return; }
  const outer = wrap.getBoundingClientRect();
  const tile = group.getBoundingClientRect();
  const width = chooser.offsetWidth;
  const height = chooser.offsetHeight;
  let left = Math.max(0, Math.min(tile.left - outer.left, outer.width - width));
  let top = tile.bottom - outer.top + 6;
  if (top + height > outer.height && tile.top - outer.top - height - 6 >= 0) top = tile.top - outer.top - height - 6;
  if (top + height > outer.height) { top = Math.max(0, outer.height - height); left = Math.max(0, Math.min(tile.right - outer.left + 6, outer.width - width)); }
  chooser.style.left = left + "px";
  chooser.style.top = top + "px";
}

// --- the map --------------------------------------------------------------------------------------

function drawRegion(svg, loc, box, el, t) {
  const group = el("g", { id: "region-" + loc.id, class: "region", "data-region": loc.id });
  const [x, y] = [box.x - box.w / 2, box.y - box.h / 2];
  group.append(el("rect", { x, y, width: box.w, height: box.h, rx: 22, class: "land" }));
  const name = el("text", { x: box.x, y: y + 24, class: "name" }, loc.name);
  group.append(name);
  const castle = el("g", { class: "castle", id: "castle-" + loc.id });
  castle.append(el("circle", { cx: x + 36, cy: y + 84, r: 28 }), el("text", { x: x + 36, y: y + 95 }));
  castle.append(el("title", {}, t("large castle")));
  group.append(castle, el("g", { class: "soldiers" }), el("title", { class: "about" }, loc.name));
  svg.append(group);
  // A long printed name is squeezed to fit its region: labels never run into each other.
  squeeze(name, box.w - 20);
  return group;
}

function squeeze(text, room) {
  // A text wider than its room drawn narrower, as tall as before (read from as far).
  if (text.getComputedTextLength && text.getComputedTextLength() > room) {
    text.setAttribute("textLength", room);
    text.setAttribute("lengthAdjust", "spacingAndGlyphs");
  }
}

function slotAt(box, index) {
  // Each player keeps the same corner of every region: its colour is found by place, too.
  const x = box.x - box.w / 2 + 72 + (index % 2) * (SLOT.w + SLOT.gap);  // right of the castle
  const y = box.y - box.h / 2 + 32 + Math.floor(index / 2) * (SLOT.h + SLOT.gap);  // below the name
  return [x, y];
}

function meeple(el, x, y, colour, scale, daimyo) {
  const [fillColour] = paint(colour);
  const g = el("g", { class: daimyo ? "daimyo-meeple" : "soldier-meeple", transform: `translate(${x} ${y}) scale(${scale})` });
  g.append(el("path", { d: MEEPLE, class: "meeple", fill: fillColour, "fill-rule": "nonzero" }));
  return g;
}

function renderRegion(group, loc, box, view, draw, can) {
  const { el, t, players, short, colourNames } = draw;
  const value = (view.castles || {})[loc.id];
  const castle = group.querySelector(".castle");
  castle.setAttribute("class", value === undefined ? "castle gone" : "castle");
  castle.setAttribute("data-value", value === undefined ? "" : String(value));
  castle.querySelector("text").textContent = value === undefined ? "–" : String(value);
  const classes = ["region"];
  if (value === undefined && view.phase !== "setup") classes.push("gone");
  if (can) classes.push("can");
  if (group.classList.contains("open")) classes.push("open");
  if (group.classList.contains("marked")) classes.push("marked");
  group.setAttribute("class", classes.join(" "));
  const soldiers = (view.soldiers || {})[loc.id] || {};
  const extra = (view.reinforcements || {})[loc.id] || {};
  const daimyo = view.daimyo_at || {};
  const holder = group.querySelector(".soldiers");
  holder.replaceChildren();
  const said = [loc.name + (value === undefined ? "" : " · " + fill(t("castle {value}"), { value }))];
  players.forEach((player, index) => {
    const [x, y] = slotAt(box, index);
    const count = soldiers[player] || 0;
    const here = daimyo[player] === loc.id;
    const more = extra[player] || 0;
    if (!count && !here && !more) {
      holder.append(el("rect", { x, y, width: SLOT.w, height: SLOT.h, rx: 6, class: "slot" }));
      return;
    }
    const ink = paint(player)[1];
    const chip = el("g", { class: "chip", "data-where": loc.id, "data-side": player, "data-count": String(count),
      "data-daimyo": here ? "yes" : "no" });
    // The colour's letters: fine print, left out on the shared table until zoomed in (the
    // soldier's colour and its count say whose they are from across the table).
    chip.append(el("text", { x: x + 1, y: y + 12, class: "who fine" }, short[player]));
    chip.append(meeple(el, x + 9, y + 2, player, 1.06, here && !count));
    // The count on the soldier, haloed in his colour so that two digits read past his edges.
    if (count) chip.append(el("text", { x: x + 35.5, y: y + 50, class: "count", fill: ink, stroke: paint(player)[0] }, String(count)));
    if (here) {
      // The daimyo (8): a gold badge on its player's soldiers; alone, a gold-edged meeple.
      const badge = el("g", { class: "badge" });
      // On the shared table a larger badge, clear of the count, read from across the table.
      const [bx, by] = draw.table ? [x + SLOT.w - 9, y + 2] : [x + SLOT.w - 9, y + 10];
      badge.append(el("circle", { cx: bx, cy: by, r: 10 }), el("text", { x: bx, y: by + (draw.table ? 9 : 5) }, "★"));
      chip.append(badge);
    }
    if (more) {
      const tag = el("g", { class: "more" });
      tag.append(el("rect", { x: x, y: y + SLOT.h - 20, width: 26, height: 19, rx: 4 }), el("text", { x: x + 13, y: y + SLOT.h - 5 }, "+" + more));
      chip.append(tag);
    }
    const parts = [colourNames[player] + ": " + fill(count === 1 ? t("{n} soldier") : t("{n} soldiers"), { n: count })];
    if (here) parts.push(t("the daimyo"));
    if (more) parts.push(fill(t("{n} reinforcements"), { n: more }));
    chip.append(el("title", {}, parts.join(", ")));
    said.push(parts.join(", "));
    holder.append(chip);
  });
  group.querySelector("title.about").textContent = said.join("; ");
}

function renderMarks(layer, last, at, regions, el) {
  // The last action in force: an arrow for each move, the regions it changed outlined.
  layer.replaceChildren();
  for (const group of Object.values(regions)) group.classList.remove("marked");
  const marks = (last && last.marks) || {};
  layer.setAttribute("data-seq", last ? String(last.seq) : "");
  for (const place of marks.places || []) if (regions[place]) regions[place].classList.add("marked");
  for (const pair of marks.arrows || []) {
    const [a, b] = [at[pair[0]], at[pair[1]]];
    if (!a || !b || a === b) continue;
    const [dx, dy] = [b.x - a.x, b.y - a.y];
    const from = edge(a, dx, dy) * 0.6;
    const to = 1 - edge(b, dx, dy) * 0.6;
    const [x1, y1, x2, y2] = [a.x + dx * from, a.y + dy * from, a.x + dx * to, a.y + dy * to];
    // A slight bend, so an arrow never hides the link it follows.
    const [mx, my] = [(x1 + x2) / 2 - dy * 0.12, (y1 + y2) / 2 + dx * 0.12];
    layer.append(el("path", { d: `M${x1} ${y1}Q${mx} ${my} ${x2} ${y2}`, class: "arrow", "marker-end": "url(#rn-head)",
      "data-from": pair[0], "data-to": pair[1] }));
  }
}

// --- the turn and the players ---------------------------------------------------------------------

function frame(group, box, el, heading) {
  const [x, y] = [box.x - box.w / 2, box.y - box.h / 2];
  group.replaceChildren(el("rect", { x, y, width: box.w, height: box.h, rx: 10, class: "frame" }));
  if (heading) group.append(el("text", { x: x + 14, y: y + 30 * (heading.big ? 1.35 : 1), class: "title" }, heading.text));
  return [x, y];
}

function chip(el, colour, label, x, y, w, h, size) {
  const [fillColour, ink] = paint(colour);
  const g = el("g", { class: "chip", "data-colour": colour });
  g.append(el("rect", { x, y, width: w, height: h, rx: 6, fill: fillColour, stroke: "#0006", "stroke-width": 1.5 }));
  const text = el("text", { x: x + w / 2, y: y + h / 2 + size * 0.36, fill: ink, "text-anchor": "middle", style: `font: 700 ${size}px system-ui, sans-serif` }, label);
  g.append(text);
  return g;
}

function die(el, value, x, y, side, colour) {
  // A die as a die: its pips, in the player's colour (each player rolls his own three, 3 ⑤).
  const [face, ink] = paint(colour);
  const g = el("g", { class: "die", "data-value": String(value) });
  g.append(el("rect", { x, y, width: side, height: side, rx: side * 0.16, fill: face }));
  const step = side * 0.27;
  for (const [i, j] of PIPS[value] || []) g.append(el("circle", { cx: x + side / 2 + i * step, cy: y + side / 2 + j * step, r: side * 0.09, fill: ink }));
  if (!PIPS[value]) g.append(el("text", { x: x + side / 2, y: y + side * 0.65, fill: ink, "text-anchor": "middle", style: `font: 800 ${side * 0.5}px system-ui` }, String(value)));
  g.append(el("title", {}, String(value)));
  return g;
}

function whoLabel(player, draw) {
  const { colourNames, people } = draw;
  return colourNames[player] + (people[player] ? " · " + people[player] : "");
}

function acting(view, state) {
  return view.active || (state.to_move || []).find((r) => r !== "chance") || null;
}

function renderTurn(group, box, view, state, draw) {
  const { el, t, size, table, players } = draw;
  const [x, y] = frame(group, box, el, { text: t(PHASES[view.phase] || String(view.phase || "")), big: table });
  group.setAttribute("data-phase", view.phase || "");
  group.removeAttribute("data-active");
  const line = table ? 44 : 30;
  const labelX = x + 14;
  const valueX = x + (table ? 170 : 110);
  const valueW = box.w - (valueX - x) - 14;
  if (view.outcome) {
    const winner = view.outcome.winner;
    group.append(el("text", { x: labelX, y: y + line + 44, class: "text" }, winner ? t("Winner:") : t("A draw")));
    if (winner) group.append(chip(el, winner, whoLabel(winner, draw), valueX, y + line + 12, valueW, size.chip, size.chipFont));
    const won = view.won || {};
    const ranked = players.filter((p) => (won[p] || []).length).sort((a, b) => sum(won[b]) - sum(won[a]));
    group.append(el("text", { x: labelX, y: y + line + size.chip + 56, class: "text" },
      t("Castles taken:") + " " + ranked.map((p) => draw.short[p] + " " + sum(won[p])).join(" · ")));
    return;
  }
  const active = acting(view, state);
  const chipY = y + line + 12;
  if (active) {
    group.setAttribute("data-active", active);
    group.append(el("text", { x: labelX, y: chipY + size.chip / 2 + (table ? 10 : 7), class: "text" }, t("To play:")));
    group.append(chip(el, active, whoLabel(active, draw), valueX, chipY, valueW, size.chip, size.chipFont));
  }
  const dice = view.dice || [];
  group.setAttribute("data-dice", dice.join(","));
  const diceY = chipY + size.chip + (table ? 18 : 14);
  if (view.phase === "deployment") {
    group.append(el("text", { x: labelX, y: diceY + size.die / 2 + (table ? 10 : 7), class: "text" }, dice.length ? t("Dice:") : t("Dice: not rolled yet")));
  }
  dice.forEach((value, index) => group.append(die(el, value, valueX + index * (size.die + 18), diceY, size.die, active || "white")));
  if (table) renderOrder(group, x, y + box.h - 52, box.w, view, active, draw);
}

function renderOrder(group, x, y, width, view, active, draw) {
  // The turn order, clockwise (5.1): whose turn is next, who has his katana and is done.
  const { el, t, players, short } = draw;
  const order = el("g", { class: "order" });
  order.append(el("text", { x: x + 14, y: y + 32, class: "text" }, t("Order:")));
  const w = Math.min(96, (width - 170 - 14) / players.length - 8);
  players.forEach((player, index) => {
    const katana = (view.katana || {})[player];
    const cx = x + 170 + index * (w + 8);
    const g = chip(el, player, short[player] + (katana ? " " + katana : ""), cx, y + 2, w, 42, 26);
    if (katana) g.setAttribute("class", "chip done");
    if (player === active) g.append(el("rect", { x: cx - 4, y: y - 2, width: w + 8, height: 50, rx: 8, fill: "none", stroke: "#e65100", "stroke-width": 4 }));
    order.append(g);
  });
  group.append(order);
}

function renderPlayers(group, box, view, role, draw) {
  const { el, t, players, short, size, table } = draw;
  const [x, y] = frame(group, box, el, { text: t("Players"), big: table });
  const at = table ? [360, 450, 540] : [250, 333, 405];
  const columns = [[t("reserve"), at[0]], [t("katana"), at[1]], [t("castles"), at[2]]];
  const keys = ["reserve", "katana", "castles"];
  for (const [head, cx] of columns) squeeze(group.appendChild(el("text", { x: x + cx, y: y + size.row - 12, class: "head" }, head)), at[1] - at[0] - 6);
  const active = view.active;
  players.forEach((player, index) => {
    const top = y + size.row + 4 + index * size.row;
    const classes = ["player"];
    if (player === role) classes.push("you");
    if (player === active && !view.outcome) classes.push("active");
    const row = el("g", { class: classes.join(" "), "data-player": player });
    row.append(el("rect", { x: x + 4, y: top, width: box.w - 8, height: size.row - 2, rx: 6, class: "row", fill: "none" }));
    if (classes.includes("active")) row.append(el("text", { x: x + 8, y: top + size.row * 0.68, class: "pointer" }, "▶"));
    const chipW = table ? 78 : 54;
    row.append(chip(el, player, short[player], x + (table ? 36 : 26), top + 5, chipW, size.row - 12, table ? 26 : 18));
    const nameX = x + (table ? 36 : 26) + chipW + 10;
    const name = el("text", { x: nameX, y: top + size.row * 0.66, class: "text" }, whoLabel(player, draw));
    row.append(name);
    const won = (view.won || {})[player] || [];
    const katana = (view.katana || {})[player];
    const reserve = (view.reserve || {})[player];
    const values = [reserve ?? "", katana ?? "–", won.length ? sum(won) : "0"];
    columns.forEach(([, cx], i) => row.append(el("text", { x: x + cx, y: top + size.row * 0.7, class: "num", "data-key": keys[i] }, String(values[i]))));
    group.append(row);
    const room = columns[0][1] - 40 - nameX + x;
    if (name.getComputedTextLength && name.getComputedTextLength() > room) {
      name.setAttribute("textLength", room);
      name.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  });
}

// --- the panels -----------------------------------------------------------------------------------

function renderTactics(box, view, draw) {
  const { el, t } = draw;
  const cards = view.tactics || [];
  box.replaceChildren(el("h2", {}, t("Tactic cards on display")));
  const list = el("ul", { id: "rn-tactic-list" });
  for (const card of cards) {
    const item = el("li", { "data-card": card });
    item.append(el("span", { class: "rn-card" }, cardName(card)));
    list.append(item);
  }
  box.append(cards.length ? list : el("p", {}, t("none left")));
}

function swatch(el, colour, label) {
  const [fillColour, ink] = paint(colour);
  const span = el("span", { class: "rn-swatch" }, label);
  span.style.background = fillColour;
  span.style.color = ink;
  return span;
}

function renderDaimyo(box, view, role, draw, shell) {
  // Each player's daimyo card (8.3): face down until used; this role's own face up for it alone
  // (the view carries it only to its owner and the referee).
  const { el, t, players, short, colourNames } = draw;
  const chosen = view.daimyo_chosen || [];
  const at = view.daimyo_at || {};
  const cards = view.daimyo_cards || {};
  const inPlay = chosen.length || Object.keys(at).length || Object.keys(cards).length;
  shell.show(box, Boolean(inPlay));
  if (!inPlay) return;
  box.replaceChildren(el("h2", {}, t("Daimyo")));
  const list = el("ul");
  for (const player of players) {
    const card = cards[player];
    const item = el("li", { "data-player": player });
    item.append(swatch(el, player, short[player]));
    item.append(el("span", {}, colourNames[player]));
    if (card) {
      const mine = player === role;
      const attrs = { class: "rn-card" + (mine ? " mine" : ""), "data-card": card };
      if (mine) attrs.id = "rn-your-daimyo";
      item.append(el("span", attrs, cardName(card)));
      if (mine && role !== "referee") item.append(el("small", {}, t("(yours)")));
    } else if (chosen.includes(player)) {
      item.append(el("span", { class: "rn-card back" }, t("face down")));
    } else {
      item.append(el("small", {}, t("no card yet")));
    }
    item.append(el("small", {}, at[player] ? "★ " + fill(t("on the map, in {region}"), { region: draw.names[at[player]] || at[player] }) : t("daimyo in reserve")));
    list.append(item);
  }
  box.append(list);
}

function renderYou(box, view, role, draw) {
  const { el, t, short, colourNames } = draw;
  box.replaceChildren(el("h2", {}, t("You")));
  const line = el("p");
  line.append(swatch(el, role, short[role]), document.createTextNode(" " + colourNames[role]));
  box.append(line);
  const reserve = (view.reserve || {})[role] ?? 0;
  const regions = Object.values(view.soldiers || {}).filter((p) => p[role]).length;
  box.append(el("p", {}, fill(reserve === 1 ? t("{n} soldier in reserve") : t("{n} soldiers in reserve"), { n: reserve })
    + "; " + fill(regions === 1 ? t("soldiers in {n} region") : t("soldiers in {n} regions"), { n: regions })));
  const card = (view.daimyo_cards || {})[role];
  if (card) {
    const p = el("p", {}, t("Your daimyo card:") + " ");
    p.append(el("span", { class: "rn-card mine" }, cardName(card)));
    box.append(p);
  }
  const won = (view.won || {})[role] || [];
  if (won.length) box.append(el("p", {}, t("Castles taken:") + " " + won.join(" + ") + " = " + sum(won)));
}

// --- the table's banner ---------------------------------------------------------------------------

function banner(state, draw) {
  // The big line on the shared table screen: the phase and what the player to act does now.
  const { t, colourNames } = draw;
  const view = state.view || {};
  const phase = t(PHASES[view.phase] || String(view.phase || ""));
  const active = acting(view, state);
  const who = active ? (colourNames[active] || active) : "";
  let doing = "";
  if (view.outcome) doing = view.outcome.winner ? fill(t("{who} wins"), { who: colourNames[view.outcome.winner] || view.outcome.winner }) : t("A draw");
  else if (state.paused) doing = t("Paused");
  else if (view.phase === "daimyo" && who) doing = fill(t("{who} chooses a daimyo card"), { who });
  else if (view.phase === "deployment" && who) doing = fill((view.dice || []).length ? t("{who} deploys") : t("{who} rolls the dice"), { who });
  else if (who) doing = fill(t("{who} to play"), { who });
  return [phase, doing].filter(Boolean).join(" · ").toLocaleUpperCase(state.lang || undefined);
}
