// La Disfida di Barletta's screen: the field as players know the printed map, a hex grid numbered
// as the rulebook numbers it (column and row, 1807: even columns half a hex lower), its edge, the
// two melee lines (I1), each side's camp and shield hex (F2); the knights as square counters in
// their side's colour with the counter's name and VC, the mounted face solid with a horseshoe and
// the on-foot face pale (H3), hits as green numbers and wounds as red ones (H1.3, H1.4), the
// Attack, Reorganization and Fired markers (E1); knights in camp on the camp's corner of the map.
// Beside it: the turn (of 5), the initiative, whose activation, the Order Track with order points
// and passes (D1, D2), the Attack markers used (at most 5, E1.1), the points (L), the melee being
// fought (H1: the column each knight reads, its shifts, its roll modifier and why), and the two
// Surrended tables (H4.3) with their boxes.
//
// On a player's phone and the referee's screen a tap on a knight rings the hexes it may move to
// (green) and the knights it may attack (red); a tap on a ringed hex lists those orders in words,
// confirmed before sending (shell.choose). On the shared table (page "table", read from 1.5 m)
// the field fills the screen without scrolling, and banner(state) gives the big line ("TURN 3 ·
// ITALIANS ACT · 4 ORDER POINTS"). Nothing is hidden in this game but the dice not yet rolled.
// Every label goes through t() (the Italian is in locales/it/screen.po); the elements, the words,
// the field's zoom and the sheet of orders are the front-end toolkit's (companion/web/static/toolkit.js).

import { choiceSheet, el, fill, t, zoom } from "/common/toolkit.js";

const CSS = `
#bar { --italians: #9b2226; --french: #1d3f8a; --italians-pale: #f6dcdc; --french-pale: #dbe3f5;
  --grass: #e4e9c8; position: relative; }
#bar-scroll { overflow: auto; border-radius: .4rem; background: #d9d2bb; touch-action: pan-x pan-y;
  -webkit-overflow-scrolling: touch; }
#bar-field { display: block; width: 100%; height: auto; user-select: none; -webkit-user-select: none; }
#bar-field .hex { fill: var(--grass); stroke: #8d8a6a; stroke-width: .8; }
#bar-field .hex.line-italians { fill: #efd9c9; } #bar-field .hex.line-french { fill: #d9deea; }
#bar-field .hex.camp-italians { fill: var(--italians-pale); stroke: var(--italians); stroke-width: 1.4; }
#bar-field .hex.camp-french { fill: var(--french-pale); stroke: var(--french); stroke-width: 1.4; }
#bar-field .hex.slot { fill: #ece6d2; stroke: #bdb59a; stroke-dasharray: 2 2; }
#bar-field .edge { stroke: #3d3a2a; stroke-width: 3; stroke-linecap: round; fill: none; }
#bar-field .melee-line { stroke: #b8860b; stroke-width: 3.2; stroke-dasharray: 7 4; fill: none; stroke-linecap: round; }
#bar-field .num { font: 600 6px system-ui, sans-serif; fill: #6d6a50; text-anchor: middle; pointer-events: none; }
#bar-field .area-name { font: 700 9px system-ui, sans-serif; text-anchor: middle; pointer-events: none;
  paint-order: stroke; stroke: #fffc; stroke-width: 2.5px; }
#bar-field .area-name.italians { fill: var(--italians); } #bar-field .area-name.french { fill: var(--french); }
#bar-field .shield path { stroke: #fff; stroke-width: 1.2; }
#bar-field .shield.italians path { fill: var(--italians); } #bar-field .shield.french path { fill: var(--french); }
#bar-field .counter rect.face { stroke: #000a; stroke-width: .8; }
#bar-field .counter.italians.mounted rect.face { fill: var(--italians); }
#bar-field .counter.french.mounted rect.face { fill: var(--french); }
#bar-field .counter.foot rect.face { stroke-width: 2.6; }
#bar-field .counter.italians.foot rect.face { fill: var(--italians-pale); stroke: var(--italians); }
#bar-field .counter.french.foot rect.face { fill: var(--french-pale); stroke: var(--french); }
#bar-field .counter text { text-anchor: middle; pointer-events: none; }
#bar-field .counter .name { font: 700 7.6px system-ui, sans-serif; }
#bar-field .counter .vc { font: 800 13.5px system-ui, sans-serif; }
#bar-field .counter.mounted text { fill: #fff; }
#bar-field .counter.italians.foot text { fill: var(--italians); } #bar-field .counter.french.foot text { fill: var(--french); }
#bar-field .counter .shoe { fill: none; stroke: #fff; stroke-width: 1.5; stroke-linecap: round; }
#bar-field .counter .walker { fill: none; stroke-width: 1.3; stroke-linecap: round; }
#bar-field .counter.italians .walker { stroke: var(--italians); } #bar-field .counter.french .walker { stroke: var(--french); }
#bar-field .counter .walker circle { stroke: none; }
#bar-field .counter.italians .walker circle { fill: var(--italians); } #bar-field .counter.french .walker circle { fill: var(--french); }
#bar-field .pip circle { stroke: #fff; stroke-width: .8; }
#bar-field .pip.hits circle { fill: #1b7f2a; } #bar-field .pip.wounds circle { fill: #c62828; }
#bar-field .pip text { font: 800 7px system-ui, sans-serif; fill: #fff; text-anchor: middle; }
#bar-field .marker rect { stroke: #000; stroke-width: .6; }
#bar-field .marker text { font: 800 5.6px system-ui, sans-serif; text-anchor: middle; }
/* The shared table, read from 1.5 m (issue 32): the field is dense (a counter is 29 units, some
   35 px at 1280x800), so from across the table it shows who stands where by colour and face,
   each counter's VC, its hits and wounds (a badge, below) and the camps' names, at 18 px and
   more; the counters' names, markers and the hexes' numbers are fine print, shown once zoomed in
   far enough to read them as large (the toolkit's zoom: twice for the names and the small hits
   and wounds, more for the hexes). A marker has no room at 18 px: docs/web.md says why. */
#bar-field.table .counter .vc { font-size: 15px; }
#bar-field .pip { font-size: 7px; } #bar-field .marker { font-size: 5.6px; }   /* their fine print's size */
#bar-field .num.covered, #bar-field .num.named { visibility: hidden; }   /* a hex's number under a counter or a camp's name */
#bar-field.table .area-name { font-size: 15px; }
/* Hits and wounds read from across the table (issue 32, H3.1, H4.1, the melee): while the
   counters' names are fine print left out, each counter with hits or wounds wears a badge over
   its top edge, hits green on the left, wounds red on the right, both as one pill when it has
   both; 15 units (18 px at 1280x800), the VC lowered to leave the room. Zoomed in, the names and
   the small pips come back and the badge steps aside. */
#bar-field.table .pip { font-size: 7.6px; }   /* shown with the names, at the names' size */
#bar-field .badge { display: none; }
#bar-field .counter:has(> .name[display="none"]) > .badge { display: inline; }
#bar-field .badge .hits { fill: #1b7f2a; } #bar-field .badge .wounds { fill: #c62828; }
#bar-field .badge .rim { fill: none; stroke: #fff; stroke-width: 1; }
#bar-field .counter .badge text.n { font: 800 15px system-ui, sans-serif; fill: #fff; }   /* white on a pale counter too */
#bar-field .marker.attack rect { fill: #f4c430; } #bar-field .marker.attack text { fill: #3a2a00; }
#bar-field .marker.reorganize rect { fill: #2e7d32; } #bar-field .marker.reorganize text { fill: #fff; }
#bar-field .marker.fired rect { fill: #777; } #bar-field .marker.fired text { fill: #fff; }
#bar-field .counter.mine { cursor: pointer; }
#bar-field .counter.selected rect.face { stroke: #ffb300; stroke-width: 3; }
#bar-field .combat-ring { fill: none; stroke: #e65100; stroke-width: 3; stroke-dasharray: 5 3; }
#bar-field .arrow { stroke: #e65100; stroke-width: 3.5; fill: none; marker-end: url(#bar-arrowhead); opacity: .9; }
#bar-field .place-ring { fill: none; stroke: #e65100; stroke-width: 2.5; }
#bar-field .dest { fill: #43a04755; stroke: #2e7d32; stroke-width: 2.6; cursor: pointer; }
#bar-field .dest.attack { fill: #e5393533; stroke: #c62828; stroke-width: 3; }
#bar-chooser { position: absolute; left: .4rem; right: .4rem; bottom: .4rem; max-width: 34rem; margin: 0 auto; background: #fff;
  border-radius: .5rem; box-shadow: 0 2px 10px #0005; padding: .5rem .7rem; max-height: 55%; overflow: auto; z-index: 5; }
#bar-chooser.top { bottom: auto; top: 2.6rem; }
@media (min-width: 601px) {
  #bar-chooser.at-right { left: auto; right: .6rem; width: min(24rem, 46%); margin: 0; }
  #bar-chooser.at-left { right: auto; left: .6rem; width: min(24rem, 46%); margin: 0; }
}
#bar-chooser h3 { margin: .1rem 0 .3rem; font-size: 1.05rem; }
#bar-chooser p { margin: .2rem 0; font-size: .92rem; color: #444; }
#bar-chooser button { display: block; width: 100%; text-align: left; margin: .2rem 0; }
.bar-sides { width: 100%; border-collapse: collapse; }
.bar-sides th, .bar-sides td { padding: .1rem .3rem; text-align: center; }
.bar-sides th:first-child, .bar-sides td:first-child { text-align: left; font-weight: 400; color: #444; white-space: nowrap; }
.bar-sides tr[data-key="commander"] td { white-space: nowrap; font-size: .9em; }
.bar-sides thead th { border-bottom: 3px solid #888; }
.bar-sides thead th.italians { border-color: #9b2226; color: #9b2226; } .bar-sides thead th.french { border-color: #1d3f8a; color: #1d3f8a; }
.bar-sides td.n { font-size: 1.35rem; font-weight: 800; }
.bar-facts { display: flex; flex-wrap: wrap; gap: .3rem .8rem; margin: 0 0 .3rem; }
.bar-facts span b { font-size: 1.2rem; }
.bar-track svg { width: 100%; height: auto; display: block; margin-top: .2rem; }
.bar-track .box { fill: #faf6ea; stroke: #8a6d45; stroke-width: 1; }
.bar-track .num { font: 600 10px system-ui, sans-serif; fill: #2a2118; text-anchor: middle; }
.bar-track .chit text { font: 800 6.5px system-ui, sans-serif; fill: #fff; text-anchor: middle; }
.bar-track .chit.italians rect { fill: #9b2226; } .bar-track .chit.french rect { fill: #1d3f8a; }
.bar-track .chit.pass rect { stroke: #fff; stroke-width: 1; stroke-dasharray: 2 1; }
.bar-gone { display: grid; grid-template-columns: repeat(13, minmax(0, 1fr)); gap: 2px; margin: .1rem 0 .1rem; }
.bar-gone div { border: 1px solid #8a6d45; border-radius: 3px; height: 1.7rem; font-size: .78rem; font-weight: 800; color: #555;
  display: flex; align-items: center; justify-content: center; background: #faf6ea; overflow: hidden; }
.bar-gone div.full { color: #fff; } .bar-gone div.full.dead { text-decoration: line-through; }
.bar-gone-names { margin: 0 0 .35rem; font-size: .9rem; }
.bar-gone div.full.italians { background: #9b2226; border-color: #9b2226; } .bar-gone div.full.french { background: #1d3f8a; border-color: #1d3f8a; }
.bar-gone div.next { outline: 2px solid #e65100; }
.bar-gone-title { font-weight: 700; margin: .2rem 0 0; }
.bar-gone-title.italians { color: #9b2226; } .bar-gone-title.french { color: #1d3f8a; }
#bar-melee .why { margin: 0 0 .2rem 1rem; padding: 0; font-size: .9rem; }
#bar-melee .reads { font-weight: 700; margin: .2rem 0 0; }
#bar-melee p { margin: .2rem 0; }
#bar-melee .col { font-size: 1.3rem; font-weight: 800; }
.bar-chips { display: flex; flex-wrap: wrap; gap: .25rem; }
.bar-chips button { margin: 0; padding: .2rem .4rem; font-size: .85rem; border-width: 2px; }
.bar-chips button.italians { border-color: #9b2226; } .bar-chips button.french { border-color: #1d3f8a; }
.bar-chips button.selected { background: #fff3c4; }
.bar-legend { font-size: .8rem; color: #555; margin: .3rem 0 0; }
body[data-page="table"] #bar { margin: 0 auto; }
@media (min-width: 801px) { body[data-page="table"] #bar .zoom { display: none; } }
body[data-page="table"] #bar-turn .bar-sides td.n { font-size: 1.8rem; line-height: 1.05; }
body[data-page="table"] #bar-turn .bar-sides td { padding: 0 .3rem; }
body[data-page="table"] #bar-turn .bar-sides { font-size: .95rem; }
body[data-page="table"] #bar-turn .bar-facts { font-size: 1rem; }
body[data-page="table"] #bar-turn .bar-facts span b { font-size: 1.35rem; }
body[data-page="table"] #bar-turn h2, body[data-page="table"] #bar-gone h2 { display: none; }
body[data-page="table"] #bar-gone .bar-legend { display: none; }
`;

const R = 20;                  // a hex's radius (flat-topped), in the SVG's units
const H = R * Math.sqrt(3);    // a hex's height: rows are H apart
const S = 29;                  // a counter's side
const TURNS = 5;               // C: five turns
const MAX_ATTACKS = 5;         // E1.1
const TRACK = 10;              // the Order Track's boxes drawn (0 to 9)

// Words looked up by a value from the view: each listed here so its translation can be found.
const SIDE_WORDS = { italians: "Italians", french: "French" };
const SIDE_UPPER = { italians: "ITALIANS", french: "FRENCH" };
const STEP_WORDS = { melee: "the dice are due", unhorse: "unhorsing test: {knight}", surrender: "surrender test: {knight}" };
const OUT_WORDS = { captured: "captured", dead: "dead" };

function side(t, role) { return SIDE_WORDS[role] ? t(SIDE_WORDS[role]) : String(role || ""); }

function parse(hex) { return [Number(String(hex).slice(0, 2)), Number(String(hex).slice(2))]; }

function hexId(col, row) { return String(col).padStart(2, "0") + String(row).padStart(2, "0"); }

function centre(hex) {
  // Columns are vertical files; even columns sit half a hex lower (hexes.py).
  const [col, row] = parse(hex);
  return [col * 1.5 * R, row * H + (col % 2 === 0 ? H / 2 : 0)];
}

function corners(x, y, r = R) {
  return [0, 1, 2, 3, 4, 5].map((i) => [x + r * Math.cos(Math.PI / 3 * i), y + r * Math.sin(Math.PI / 3 * i)]);
}

function hexPath(x, y, r = R) {
  return "M" + corners(x, y, r).map(([a, b]) => a.toFixed(2) + " " + b.toFixed(2)).join("L") + "Z";
}

function neighbours(hex) {
  // The six hexes around, in the rulebook's numbering (hexes.py's arithmetic).
  const [col, row] = parse(hex);
  const even = col % 2 === 0;
  const found = [[col, row - 1], [col, row + 1]];
  for (const c of [col - 1, col + 1]) found.push(even ? [c, row] : [c, row - 1], even ? [c, row + 1] : [c, row]);
  return found.filter(([c, r]) => c >= 0 && r >= 0 && c <= 99 && r <= 99).map(([c, r]) => hexId(c, r));
}

function short(name) {
  // A counter's short name: without the particles ("de la Fraise" -> "Fraise"), at most 8 letters.
  const bare = String(name).replace(/^(de la |de |d'|la )/i, "").replace(/^(la |le )/i, "");
  const word = bare.length > 8 && bare.includes(" ") ? bare.split(" ").pop() : bare;
  return word.length > 8 ? word.slice(0, 7) + "." : word;
}

function attackers(view) {
  // Who carries an Attack marker this turn (E1.1): every knight named in an attacked_by.
  const found = new Set();
  if (!view.turn) return found;
  for (const k of Object.values(view.knights || {})) for (const a of k.attacked_by || []) found.add(a);
  return found;
}

// --- the module ------------------------------------------------------------------------------------

export async function mount(shell) {
  const board = await shell.board(["sides", "knights", "surrender"]);
  const sides = shell.game.roles;
  document.head.append(el("style", {}, CSS));
  const geometry = layout(board);

  const root = el("div", { id: "bar" });
  const bar = el("div");
  const scroll = el("div", { id: "bar-scroll" });
  const [vx, vy, vw, vh] = geometry.box;
  const svg = el("svg", { id: "bar-field", class: shell.page === "table" && window.innerWidth > 800 ? "table" : "", viewBox: `${vx} ${vy} ${vw} ${vh}`, role: "img",
    "aria-label": fill(t("the field of {title}"), { title: shell.game.title }) });
  scroll.append(svg);
  const chooser = el("div", { id: "bar-chooser", hidden: "" });
  root.append(bar, scroll, chooser);
  shell.main.append(root);
  const layers = drawField(svg, board, geometry, el, t);
  const table = shell.page === "table";
  if (!shell.broadcast) zoomControls(bar, scroll, svg, svg.classList.contains("table"));  // not on a broadcast's thumbnail

  const panels = { turn: shell.panel("bar-turn"), melee: shell.panel("bar-melee"),
    deploy: shell.panel("bar-deploy"), gone: shell.panel("bar-gone") };
  shell.show(panels.melee, false);
  shell.show(panels.deploy, false);
  if (table) window.addEventListener("resize", () => fitTable(root, scroll, geometry));

  const canTap = shell.page === "play" || shell.page === "referee";
  const ui = { selected: null, state: null };

  function mine(knight) {
    // Whose knights this screen may order: its own side's, or any for the referee.
    const state = ui.state;
    if (!canTap || !state) return false;
    const k = (state.view.knights || {})[knight];
    return Boolean(k) && (shell.page === "referee" || k.side === state.role);
  }

  function ordersOf(knight) { return choicesOf(ui.state).filter((c) => c.args && c.args.knight === knight); }

  function choose(choice) {
    chooser.hidden = true;
    ui.selected = null;
    draw();
    if (shell.choose) return shell.choose(choice);
    return shell.act({ text: choice.text });
  }

  function openChooser(title, lines, choices) {
    choiceSheet(chooser, { title, lines, choices, chosen: choose, close: t("Close"), choiceClass: "choice" });
  }

  function onKnight(knight) {
    if (!mine(knight)) return;
    ui.selected = ui.selected === knight ? null : knight;
    chooser.hidden = true;
    draw();
    if (!ui.selected) return;
    const k = ui.state.view.knights[knight];
    const orders = ordersOf(knight);
    const here = orders.filter((c) => !destOf(c) && !c.args.attack
      || (destOf(c) === k.where && !c.args.attack));
    const elsewhere = orders.length - here.length;
    const lines = [describe(k, t)];
    if (orders.some((c) => c.verb === "deploy")) lines.push(t("Tap a green hex to deploy there."));
    else if (elsewhere) lines.push(t("Tap a green hex to move there, a red one to attack."));
    else if (!orders.length) lines.push(t("No order for this knight now."));
    openChooser(k.name, lines, here);
    placeChooser(svg.querySelector(`.counter[data-knight="${knight}"]`));
  }

  function placeChooser(anchor) {
    // The sheet stands in the corner of the field away from what was tapped, off the rings
    // around it.
    chooser.classList.remove("top", "at-left", "at-right");
    if (!anchor) return;
    const r = anchor.getBoundingClientRect();
    const box = scroll.getBoundingClientRect();
    if (r.top + r.height / 2 > box.top + box.height / 2) chooser.classList.add("top");
    chooser.classList.add(r.left + r.width / 2 < box.left + box.width / 2 ? "at-right" : "at-left");
  }

  function onHex(hex) {
    const state = ui.state;
    if (!state) return;
    const view = state.view;
    let found;
    let title;
    if (ui.selected) {
      const target = Object.entries(view.knights || {}).find(([, k]) => k.where === hex && !k.out);
      found = ordersOf(ui.selected).filter((c) => destOf(c) === hex
        || (target && c.args.attack === target[0]));
      title = fill(t("{knight}: to {hex}"), { knight: view.knights[ui.selected].name, hex: hexName(hex, t) });
    } else {
      found = choicesOf(state).filter((c) => c.args && destOf(c) === hex);
      title = hexName(hex, t);
    }
    openChooser(title, found.length ? [] : [t("No order for this hex now.")], found);
    placeChooser(svg.querySelector(`.dest[data-dest="${hex}"]`) || svg.querySelector(`.cell[data-hex="${hex}"]`));
  }

  function draw() {
    renderField(layers, geometry, ui.state, el, t, { canTap, selected: ui.selected, mine, onKnight, onHex,
      orders: ui.selected ? ordersOf(ui.selected) : [] });
    renderDeploy(panels.deploy, ui.state, el, t, shell, { mine, onKnight, selected: ui.selected });
  }

  return {
    render(state) {
      ui.state = state;
      const view = state.view || {};
      const k = ui.selected && (view.knights || {})[ui.selected];
      if (ui.selected && (!k || k.out || !ordersOf(ui.selected).length)) ui.selected = null;
      if (!ui.selected) chooser.hidden = true;
      draw();
      renderTurn(panels.turn, view, sides, el, t, board);
      renderMelee(panels.melee, view, board, el, t, shell);
      renderGone(panels.gone, view, sides, board, el, t);
      if (table) fitTable(root, scroll, geometry);
    },
    banner(state) { return banner(state, t); },
  };
}

function choicesOf(state) {
  // The caller's legal actions, each in words (the hub's `choices`: the referee's are every
  // role's). Their raw text is only ever sent back, never shown.
  return state && Array.isArray(state.choices) ? state.choices : [];
}

function destOf(choice) {
  // The hex (or `camp`) an order names: a move's `to`, a deployment's `hex`.
  const args = choice.args || {};
  return args.to !== undefined ? String(args.to) : args.hex !== undefined ? String(args.hex) : null;
}

function hexName(hex, t) { return hex === "camp" ? t("the camp") : fill(t("hex {hex}"), { hex }); }

function describe(k, t) {
  // "VC 7 · mounted · 2 hits · 1 wound": what the counter and its markers say.
  const parts = [fill(t("VC {n}"), { n: k.vc }), k.mounted ? t("mounted") : t("on foot")];
  if (k.hits) parts.push(fill(k.hits === 1 ? t("{n} hit") : t("{n} hits"), { n: k.hits }));
  if (k.wounds) parts.push(fill(k.wounds === 1 ? t("{n} wound") : t("{n} wounds"), { n: k.wounds }));
  if (k.where === "camp") parts.push(t("in camp"));
  else if (k.where) parts.push(fill(t("hex {hex}"), { hex: k.where }));
  if (k.out) parts.push(t(OUT_WORDS[k.out] || k.out));
  return parts.join(" · ");
}

// --- the field ------------------------------------------------------------------------------------

function layout(board) {
  // The field's hexes, each side's camp and shield, and the off-field hexes of each camp's corner
  // where knights in camp stand (the camp's own hexes first, then the nearest free ones).
  const field = new Set(board.locations.map((l) => l.id));
  const cols = [...field].map((h) => parse(h)[0]);
  const rows = [...field].map((h) => parse(h)[1]);
  const [c0, c1, r0, r1] = [Math.min(...cols), Math.max(...cols), Math.min(...rows), Math.max(...rows)];
  const off = [];
  for (let c = c0; c <= c1; c++) for (let r = r0; r <= r1; r++) if (!field.has(hexId(c, r))) off.push(hexId(c, r));
  const taken = new Set();
  const slots = {};
  for (const [role, where] of Object.entries(board.sides || {})) {
    taken.add(where.shield);
    const [mx, my] = where.camp.map(centre).reduce((a, b) => [a[0] + b[0], a[1] + b[1]]).map((v) => v / where.camp.length);
    const near = off.filter((h) => !where.camp.includes(h) && h !== where.shield)
      .sort((a, b) => Math.hypot(centre(a)[0] - mx, centre(a)[1] - my) - Math.hypot(centre(b)[0] - mx, centre(b)[1] - my));
    slots[role] = [...where.camp, ...near].filter((h) => !taken.has(h)).slice(0, 13);
    slots[role].forEach((h) => taken.add(h));
  }
  const x0 = c0 * 1.5 * R - R - 4;
  const x1 = c1 * 1.5 * R + R + 4;
  const y0 = r0 * H - H / 2 - 4;
  const y1 = r1 * H + H + 4;
  return { field, slots, off, box: [x0, y0, x1 - x0, y1 - y0] };
}

function drawField(svg, board, geometry, el, t) {
  const defs = el("defs");
  const marker = el("marker", { id: "bar-arrowhead", viewBox: "0 0 10 10", refX: "8", refY: "5",
    markerWidth: "4", markerHeight: "4", orient: "auto-start-reverse" });
  marker.append(el("path", { d: "M0 0L10 5L0 10z", fill: "#e65100" }));
  defs.append(marker);
  const hexes = el("g", { class: "hexes" });
  const lines = el("g", { class: "lines" });
  const names = el("g", { class: "names" });
  const counters = el("g", { class: "counters" });
  const far = svg.classList.contains("table");
  const marks = el("g", { class: "marks" });
  const over = el("g", { class: "over" });
  svg.append(defs, hexes, lines, names, marks, counters, over);
  const lineOf = {};
  for (const [role, where] of Object.entries(board.sides || {})) for (const h of where.melee_line) lineOf[h] = role;
  const slotOf = {};
  for (const [role, list] of Object.entries(geometry.slots)) for (const h of list) slotOf[h] = role;
  const campOf = {};
  for (const [role, where] of Object.entries(board.sides || {})) for (const h of where.camp) campOf[h] = role;
  // The field's hexes with their printed numbers; the camps' corners beside them.
  for (const hex of [...geometry.field].sort()) {
    const [x, y] = centre(hex);
    const cls = "hex" + (lineOf[hex] ? " line-" + lineOf[hex] : "");
    const g = el("g", { class: "cell", "data-hex": hex });
    g.append(el("path", { class: cls, d: hexPath(x, y) }), el("text", { class: "num fine", x, y: y - H / 2 + 6.5 }, hex));
    hexes.append(g);
  }
  for (const [hex, role] of Object.entries(slotOf)) {
    const [x, y] = centre(hex);
    const g = el("g", { class: "cell camp", "data-camp": role, "data-slot": hex });
    g.append(el("path", { class: "hex " + (campOf[hex] ? "camp-" + role : "slot"), d: hexPath(x, y) }));
    if (campOf[hex]) g.append(el("text", { class: "num fine", x, y: y - H / 2 + 6.5 }, hex));
    hexes.append(g);
  }
  // The field's edge: every side of a field hex that borders no field hex (H2.3).
  let edge = "";
  for (const hex of geometry.field) {
    const [x, y] = centre(hex);
    const c = corners(x, y);
    // corner i to i+1 faces, in order: lower right, below, lower left, upper left, above, upper right
    const [col, row] = parse(hex);
    const even = col % 2 === 0;
    const across = [even ? hexId(col + 1, row + 1) : hexId(col + 1, row), hexId(col, row + 1),
      even ? hexId(col - 1, row + 1) : hexId(col - 1, row), even ? hexId(col - 1, row) : hexId(col - 1, row - 1),
      hexId(col, row - 1), even ? hexId(col + 1, row) : hexId(col + 1, row - 1)];
    across.forEach((other, i) => {
      if (geometry.field.has(other)) return;
      const [a, b] = [c[i], c[(i + 1) % 6]];
      edge += `M${a[0].toFixed(2)} ${a[1].toFixed(2)}L${b[0].toFixed(2)} ${b[1].toFixed(2)}`;
    });
  }
  lines.append(el("path", { class: "edge", d: edge }));
  // The melee line (I1): the sides shared by the two lines' hexes.
  const sideNames = Object.keys(board.sides || {});
  if (sideNames.length === 2) {
    let d = "";
    const [a, b] = sideNames.map((s) => board.sides[s].melee_line);
    const other = new Set(b);
    for (const hex of a) {
      const [x, y] = centre(hex);
      for (const n of neighbours(hex).filter((h) => other.has(h))) {
        const [nx, ny] = centre(n);
        const [mx, my] = [(x + nx) / 2, (y + ny) / 2];
        const [dx, dy] = [(nx - x) / H, (ny - y) / H];   // a unit step across the shared side
        d += `M${(mx - dy * R / 2).toFixed(2)} ${(my + dx * R / 2).toFixed(2)}L${(mx + dy * R / 2).toFixed(2)} ${(my - dx * R / 2).toFixed(2)}`;
      }
    }
    const path = el("path", { class: "melee-line", d });
    path.append(el("title", {}, t("the melee line (I1)")));
    lines.append(path);
  }
  // Each side's shield (F2) and the camp's name.
  for (const [role, where] of Object.entries(board.sides || {})) {
    const [x, y] = centre(where.shield);
    const shield = el("g", { class: "shield " + role, "data-shield": role });
    shield.append(el("path", { class: "hex camp-" + role, d: hexPath(x, y) }),
      el("path", { d: `M${x - 9} ${y - 10}h18v7c0 7-5 11-9 13c-4-2-9-6-9-13z` }),
      el("title", {}, fill(t("{side}' shield ({hex})"), { side: side(t, role), hex: where.shield })));
    hexes.append(shield);
    const camp = where.camp.map(centre);
    const cx = camp.reduce((s, p) => s + p[0], 0) / camp.length;
    const top = Math.min(...camp.map((p) => p[1]));
    const bottom = Math.max(...camp.map((p) => p[1]));
    const above = top - H / 2 - 3 > geometry.box[1] + 8;
    const clear = far ? 3 : 0;   // the table's larger name stands clear of a badge above a counter, a VC below
    names.append(el("text", { class: "area-name " + role, x: cx, y: above ? top - H / 2 - 3 - clear : bottom + H / 2 + 10 + clear },
      role === "italians" ? t("Italian camp") : t("French camp")));
  }
  // A hex's number a camp's name stands over is left out (the name says the place).
  const boxOf = (node) => { const b = node.getBBox(); return { x: b.x, y: b.y, w: b.width, h: b.height }; };
  const meets = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
  const named = [...names.querySelectorAll(".area-name")].map(boxOf);
  for (const num of hexes.querySelectorAll(".num")) if (named.some((n) => meets(n, boxOf(num)))) num.classList.add("named");
  return { svg, hexes, counters, marks, over, far };
}

function counter(el, k, knight, x, y, t, markers, far) {
  // One counter: the mounted face solid in its side's colour with a horseshoe, the on-foot face
  // pale with a boot (H3); its name and VC; hits (green) and wounds (red) as numbers; its markers.
  // On the table read from afar (`far`) the VC sits lower and a badge says the hits and wounds.
  const face = k.mounted ? "mounted" : "foot";
  const g = el("g", { class: `counter ${k.side} ${face}`, "data-knight": knight, "data-face": face });
  g.append(el("rect", { class: "face", x: x - S / 2, y: y - S / 2, width: S, height: S, rx: 2.5 }),
    nameText(el, k.name, x, y - S / 2 + 8.6),
    el("text", { class: "vc", x: x + 3, y: y + (far ? VC_FAR : 10.5), "data-vc": k.vc }, String(k.vc)));
  if (k.mounted) {   // a horseshoe
    g.append(el("path", { class: "shoe", d: `M${x - 12} ${y + 11}v-2.5a2.8 2.8 0 0 1 5.6 0v2.5` }));
  } else {   // a knight on his feet
    const walker = el("g", { class: "walker" });
    g.append(walker);
    walker.append(el("circle", { cx: x - 9.5, cy: y + 2.6, r: 1.7 }),
      el("path", { d: `M${x - 9.5} ${y + 4.3}v4M${x - 12} ${y + 6}h5M${x - 9.5} ${y + 8.3}l-2 3.2M${x - 9.5} ${y + 8.3}l2 3.2` }));
  }
  if (k.hits) g.append(pip(el, "hits", k.hits, x + S / 2 + 1.5, y - S / 2 - 0.5));
  if (k.wounds) g.append(pip(el, "wounds", k.wounds, x + S / 2 - 1, y + S / 2 - 3));
  if (far && (k.hits || k.wounds)) g.append(badge(el, k.hits, k.wounds, x, y));
  markers.forEach((m, i) => {
    const mg = el("g", { class: "marker fine " + m.kind, "data-marker": m.kind });
    mg.append(el("rect", { x: x - S / 2 - 3, y: y - S / 2 - 7 + i * 9, width: 10, height: 8, rx: 1 }),
      el("text", { x: x - S / 2 + 2, y: y - S / 2 - 1 + i * 9 }, m.letter), el("title", {}, m.title));
    g.append(mg);
  });
  g.append(el("title", {}, k.name + " · " + describe(k, t) + markers.map((m) => " · " + m.title).join("")));
  return g;
}

function nameText(el, name, x, y) {
  // The counter's name, squeezed to the counter's width where it is long.
  const text = short(name);
  const attrs = { class: "name fine", x, y };
  if (text.length > 5) Object.assign(attrs, { textLength: S - 4, lengthAdjust: "spacingAndGlyphs" });
  return el("text", attrs, text);
}

function pip(el, kind, n, x, y) {
  const g = el("g", { class: "pip fine " + kind, ["data-" + kind]: n });
  g.append(el("circle", { cx: x, cy: y, r: 5 }), el("text", { x, y: y + 2.5 }, String(n)));
  return g;
}

// The badge's place on a counter read from afar, in the SVG's units (a counter is S = 29 units, a
// row of hexes H = 34.6 apart, some 1.22 CSS px a unit at 1280x800). Its number's text box (15
// units tall with the font's ascent and descent, like the VC's) and the VC's fill a row between
// them with a hair to spare, so the VC stands 12 below the counter's centre and the badge's
// number sits on a line 17.3 above it; the badge (15 units, 18 px) rises 3.8 over the counter's
// top edge, into the 5.6 units between it and the counter of the hex above. Sideways it keeps
// inside the counter's width: the hexes beside are 1 unit away.
const VC_FAR = 12;
const BADGE = { size: 15, line: VC_FAR - 17.3, half: S / 2 };

function badge(el, hits, wounds, x, y) {
  // Hits (green) on the counter's left half and wounds (red) on its right, each a disc with its
  // number; with both, one pill split in the two colours (two discs would touch). A rim of white
  // keeps it apart from a counter of the same red.
  const r = BADGE.size / 2;
  const cy = BADGE.line - BADGE.size * 0.365;    // the middle of a digit, 0.73 of the size tall
  const g = el("g", { class: "badge", "data-hits": hits, "data-wounds": wounds });
  const parts = [["hits", hits, x - BADGE.half + r], ["wounds", wounds, x + BADGE.half - r]].filter((p) => p[1]);
  const top = y + cy - r;
  const bottom = y + cy + r;
  const left = parts.length === 2 ? x - BADGE.half : parts[0][2] - r;
  const right = parts.length === 2 ? x + BADGE.half : parts[0][2] + r;
  const rim = `M${left + r} ${top}H${right - r}A${r} ${r} 0 0 1 ${right - r} ${bottom}H${left + r}A${r} ${r} 0 0 1 ${left + r} ${top}Z`;
  if (parts.length === 2) {
    g.append(el("path", { class: "hits", d: `M${x} ${top}H${left + r}A${r} ${r} 0 0 0 ${left + r} ${bottom}H${x}Z` }),
      el("path", { class: "wounds", d: `M${x} ${top}H${right - r}A${r} ${r} 0 0 1 ${right - r} ${bottom}H${x}Z` }));
  } else {
    g.append(el("path", { class: parts[0][0], d: rim }));
  }
  g.append(el("path", { class: "rim", d: rim }));
  for (const [kind, n, cx] of parts) {
    const attrs = { class: "n " + kind + "-n", x: cx, y: y + BADGE.line };
    if (String(n).length > 1) Object.assign(attrs, { textLength: 2 * r - 2, lengthAdjust: "spacingAndGlyphs" });
    g.append(el("text", attrs, String(n)));
  }
  return g;
}

function markersOf(knight, k, view, attacking, t) {
  // E1: an Attack marker on each knight that attacked this turn, Reorganization on one that
  // reorganizes, Fired on one that had its order otherwise.
  const found = [];
  if (attacking.has(knight)) found.push({ kind: "attack", letter: "A", title: t("Attack marker") });
  if (k.reorganizing) found.push({ kind: "reorganize", letter: "R", title: t("Reorganization marker") });
  else if (k.ordered && !attacking.has(knight)) found.push({ kind: "fired", letter: "F", title: t("Fired: had its order") });
  return found;
}

function renderField(layers, geometry, state, el, t, ui) {
  layers.counters.replaceChildren();
  layers.marks.replaceChildren();
  layers.over.replaceChildren();
  if (!state) return;
  const view = state.view || {};
  const knights = view.knights || {};
  const attacking = attackers(view);
  const inCamp = {};
  for (const [knight, k] of Object.entries(knights)) {
    if (k.out || !k.where) continue;
    if (k.where === "camp") { (inCamp[k.side] = inCamp[k.side] || []).push(knight); continue; }
    const [x, y] = centre(k.where);
    const g = counter(el, k, knight, x, y, t, markersOf(knight, k, view, attacking, t), layers.far);
    Object.assign(g.dataset, { where: k.where, side: k.side, count: "1" });
    decorate(g, knight, ui);
    layers.counters.append(g);
  }
  // Knights in camp (F2, H4.2) on their camp's corner; one group counts them.
  for (const [role, list] of Object.entries(inCamp)) {
    const group = el("g", { class: "in-camp", "data-where": "camp", "data-side": role, "data-count": String(list.length) });
    list.forEach((knight, i) => {
      const slot = (geometry.slots[role] || [])[i];
      if (!slot) return;
      const [x, y] = centre(slot);
      const g = counter(el, knights[knight], knight, x, y, t, markersOf(knight, knights[knight], view, attacking, t), layers.far);
      g.classList.add("camp");
      decorate(g, knight, ui);
      group.append(g);
    });
    layers.counters.append(group);
  }
  // A hex's number under a counter is not seen: it says nothing over the counter's name.
  const taken = new Set(Object.values(knights).filter((k) => !k.out && k.where && k.where !== "camp").map((k) => k.where));
  for (const [side, list] of Object.entries(inCamp)) (geometry.slots[side] || []).slice(0, list.length).forEach((h) => taken.add(h));
  for (const num of layers.hexes.querySelectorAll(".num")) {
    const g = num.parentNode;
    num.classList.toggle("covered", taken.has(g.dataset.hex || g.dataset.slot));
  }
  // The combat being fought, the last move, and a selected knight's orders.
  const combat = view.combat;
  if (combat) {
    for (const knight of [combat.attacker, combat.defender]) {
      const k = knights[knight];
      if (!k || !k.where || k.where === "camp" || k.out) continue;
      const [x, y] = centre(k.where);
      layers.marks.append(el("circle", { class: "combat-ring", cx: x, cy: y, r: R + 2, "data-combat": knight }));
    }
  }
  const marks = (state.last && state.last.marks) || {};
  for (const [a, b] of marks.arrows || []) {
    if (!geometry.field.has(a) || !geometry.field.has(b)) continue;
    const [x1, y1] = centre(a);
    const [x2, y2] = centre(b);
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const k = (R - 4) / len;
    layers.marks.append(el("line", { class: "arrow", "data-arrow": a + ">" + b,
      x1: x1 + (x2 - x1) * k, y1: y1 + (y2 - y1) * k, x2: x2 - (x2 - x1) * k, y2: y2 - (y2 - y1) * k }));
  }
  for (const p of marks.places || []) {
    if (!geometry.field.has(p)) continue;
    const [x, y] = centre(p);
    layers.marks.append(el("circle", { class: "place-ring", cx: x, cy: y, r: R - 1, "data-place": p }));
  }
  if (!ui.selected) return;
  const dests = new Set();
  const targets = new Set();
  const here = (knights[ui.selected] || {}).where;
  for (const c of ui.orders) {
    const dest = destOf(c);
    if (dest && dest !== here && geometry.field.has(dest)) dests.add(dest);
    const target = c.args.attack && knights[c.args.attack];
    if (target && target.where) targets.add(target.where);
  }
  for (const [hexes, cls] of [[dests, "dest"], [targets, "dest attack"]]) {
    for (const hex of hexes) {
      const [x, y] = centre(hex);
      const ring = el("path", { class: cls, d: hexPath(x, y, R - 2), "data-dest": hex });
      ring.append(el("title", {}, cls === "dest" ? fill(t("Move to {hex}"), { hex }) : fill(t("Attack at {hex}"), { hex })));
      ring.addEventListener("click", () => ui.onHex(hex));
      layers.over.append(ring);
    }
  }
}

function decorate(g, knight, ui) {
  if (!ui.mine(knight)) return;
  g.classList.add("mine");
  if (ui.selected === knight) g.classList.add("selected");
  g.addEventListener("click", () => ui.onKnight(knight));
}

// --- the knights still to deploy (I1) --------------------------------------------------------------

function renderDeploy(box, state, el, t, shell, ui) {
  const view = (state && state.view) || {};
  const waiting = Object.entries(view.knights || {}).filter(([, k]) => !k.where && !k.out);
  shell.show(box, waiting.length > 0);
  if (!waiting.length) return;
  box.replaceChildren(el("h2", {}, t("Knights to deploy (I1)")));
  const bySide = {};
  for (const [knight, k] of waiting) (bySide[k.side] = bySide[k.side] || []).push([knight, k]);
  for (const [role, list] of Object.entries(bySide)) {
    const chips = el("div", { class: "bar-chips", "data-where": "unplaced", "data-side": role, "data-count": String(list.length) });
    for (const [knight, k] of list) {
      const chip = el("button", { class: role + (ui.selected === knight ? " selected" : ""), "data-knight": knight, type: "button" },
        k.name + " " + k.vc);
      if (ui.mine(knight)) chip.addEventListener("click", () => ui.onKnight(knight));
      else chip.disabled = true;
      chips.append(chip);
    }
    box.append(el("p", { class: "bar-gone-title " + role }, side(t, role)), chips);
  }
  if (shell.page !== "table") box.append(el("p", { class: "bar-legend" }, t("Tap a knight, then a green hex of its melee line.")));
}

// --- the turn's bookkeeping (C, D, E1.1, L) ----------------------------------------------------------

function renderTurn(box, view, sides, el, t, board) {
  const facts = el("div", { class: "bar-facts" });
  const fact = (key, label, value) => {
    const span = el("span", { "data-key": key });
    span.append(document.createTextNode(label + " "), el("b", {}, String(value)));
    facts.append(span);
  };
  if (view.turn) fact("turn", t("Turn"), fill(t("{n} of {total}"), { n: view.turn, total: TURNS }));
  else {
    const span = el("span", { "data-key": "turn" });
    span.append(el("b", {}, t("The opening (I)")));
    facts.append(span);
  }
  if (view.initiative) fact("initiative", t("Initiative"), side(t, view.initiative));
  if (view.active) fact("active", t("Acting"), side(t, view.active));
  const rows = [
    ["order_points", t("Order points"), (s) => (view.order_points || {})[s] ?? "–"],
    ["passes", t("Passes"), (s) => (view.passes || {})[s] ?? "–"],
    ["attacks", fill(t("Attacks (of {n})"), { n: MAX_ATTACKS }), (s) => (view.attacks || {})[s] || 0],
    ["points", t("Points (L)"), (s) => (view.points || {})[s] ?? 0],
    ["commander", t("Commander"), (s) => { const c = (view.commanders || {})[s]; return c && view.knights[c] ? view.knights[c].name : "–"; }],
  ];
  const tableEl = el("table", { class: "bar-sides" });
  const head = el("tr");
  head.append(el("th", {}, ""));
  for (const s of sides) head.append(el("th", { class: s }, side(t, s)));
  const thead = el("thead");
  thead.append(head);
  const body = el("tbody");
  for (const [key, label, value] of rows) {
    const tr = el("tr", { "data-key": key });
    tr.append(el("td", {}, label));
    for (const s of sides) tr.append(el("td", { class: key === "commander" ? "" : "n", "data-side": s }, String(value(s))));
    body.append(tr);
  }
  tableEl.append(thead, body);
  box.replaceChildren(el("h2", {}, t("The turn")), facts, tableEl, orderTrack(view, sides, el, t));
  if (view.outcome) {
    const winner = view.outcome.winner;
    box.append(el("p", { class: "bar-result" }, winner ? fill(t("{side} win"), { side: side(t, winner) }) : t("The game is a draw")));
  }
}

function orderTrack(view, sides, el, t) {
  // The Order Track (D1, D2): boxes 0 to 9 with each side's order-point and pass chits.
  const cell = 30;
  const svg = el("svg", { viewBox: `0 0 ${TRACK * cell + 2} 52`, role: "img", "aria-label": t("Order Track") });
  for (let n = 0; n < TRACK; n++) {
    svg.append(el("rect", { class: "box", x: 1 + n * cell, y: 1, width: cell, height: 38, "data-box": n }),
      el("text", { class: "num", x: 1 + n * cell + cell / 2, y: 50 }, String(n)));
  }
  const chits = [];
  for (const [i, s] of sides.entries()) {
    for (const [kind, values, letter] of [["points", view.order_points, t("OP")], ["pass", view.passes, t("P")]]) {
      if (!values || values[s] === undefined) continue;
      chits.push({ side: s, kind, letter, n: Math.min(values[s], TRACK - 1), row: i * 2 + (kind === "pass" ? 1 : 0) });
    }
  }
  for (const c of chits) {
    const x = 1 + c.n * cell + 2 + (c.row % 2) * 13;
    const y = 3 + Math.floor(c.row / 2) * 18;
    const g = el("g", { class: `chit ${c.side} ${c.kind}`, "data-chit": c.side + "-" + c.kind, "data-value": c.n });
    g.append(el("rect", { x, y, width: 13, height: 15, rx: 1.5 }), el("text", { x: x + 6.5, y: y + 10 }, c.letter),
      el("title", {}, side(t, c.side) + ": " + (c.kind === "pass" ? t("Passes") : t("Order points")) + " " + c.n));
    svg.append(g);
  }
  const holder = el("div", { class: "bar-track" });
  holder.append(svg);
  return holder;
}

// --- the melee being fought (H1) -------------------------------------------------------------------

function columnName(shift) {
  const s = Math.max(-5, Math.min(5, shift));
  return s === 0 ? "0" : s < 0 ? -s + "L" : s + "R";
}

function reading(view, me, foe, attacking, t) {
  // H1.1 and H1.2 for the knight `me` rolling against `foe`, as the rules compute them
  // (rules/combat.py: column_shift, roll_modifier), with why; valid while the dice are due.
  const a = view.knights[me];
  const b = view.knights[foe];
  const why = [fill(t("VC {mine} against {theirs}: {shift}"), { mine: a.vc, theirs: b.vc, shift: signed(a.vc - b.vc) })];
  let shift = a.vc - b.vc;
  if (attacking) {
    const others = new Set((b.attacked_by || []).slice(0, -1).filter((k) => k !== me)).size;
    if (others) { shift += others; why.push(fill(t("{n} earlier attackers: +{n}"), { n: others })); }
  }
  if (a.mounted && !b.mounted) { shift += 1; why.push(t("mounted against on foot: +1")); }
  else if (b.mounted && !a.mounted) { shift -= 1; why.push(t("on foot against mounted: -1")); }
  if (b.wounds - a.wounds) { shift += b.wounds - a.wounds; why.push(fill(t("wounds {theirs} against {mine}: {shift}"), { theirs: b.wounds, mine: a.wounds, shift: signed(b.wounds - a.wounds) })); }
  const modifier = Math.max(-5, Math.min(5, b.hits - a.hits));
  return { column: columnName(shift), why, modifier,
    because: fill(t("hits {theirs} against {mine}"), { theirs: b.hits, mine: a.hits }) };
}

function signed(n) { return n > 0 ? "+" + n : String(n); }

function renderMelee(box, view, board, el, t, shell) {
  const combat = view.combat;
  shell.show(box, Boolean(combat));
  if (!combat) return;
  const knights = view.knights || {};
  const name = (k) => (knights[k] || { name: k }).name;
  const title = combat.charge ? t("{attacker} charges {defender}") : t("{attacker} attacks {defender}");
  box.replaceChildren(el("h2", {}, fill(title, { attacker: name(combat.attacker), defender: name(combat.defender) })));
  const test = (combat.tests || [])[0];
  box.append(el("p", { class: "step", "data-step": combat.step }, fill(t(STEP_WORDS[combat.step] || combat.step), { knight: name(test) })));
  if (combat.step === "melee") {
    const rolling = combat.charge ? [[combat.attacker, combat.defender, true]]
      : [[combat.attacker, combat.defender, true], [combat.defender, combat.attacker, false]];
    for (const [me, foe, attacking] of rolling) {
      if (!knights[me] || !knights[foe]) continue;
      const r = reading(view, me, foe, attacking, t);
      const line = el("p", { class: "reads", "data-reads": me, "data-column": r.column, "data-modifier": r.modifier });
      line.append(document.createTextNode(fill(t("{knight} reads column"), { knight: name(me) }) + " "),
        el("span", { class: "col" }, r.column), document.createTextNode(" · " + fill(t("roll {modifier} ({why})"), { modifier: signed(r.modifier), why: r.because })));
      const list = el("ul", { class: "why" });
      for (const w of r.why) list.append(el("li", {}, w));
      box.append(line, list);
    }
  }
  const received = Object.entries(combat.received || {}).filter(([, n]) => n);
  if (received.length) {
    box.append(el("p", { class: "received" }, t("Hits in this combat:") + " "
      + received.map(([k, n]) => name(k) + " " + n).join(", ")));
  }
}

// --- the Surrended tables (H4.3, H5) -----------------------------------------------------------------

function renderGone(box, view, sides, board, el, t) {
  box.replaceChildren(el("h2", {}, t("Surrended tables (H4.3)")));
  const boxes = (board.surrender || {}).sides || {};
  for (const s of sides) {
    const gone = (view.surrendered || {})[s] || [];
    const mods = boxes[s] || Array(13).fill(0);
    box.append(el("p", { class: "bar-gone-title " + s }, side(t, s) + " · " + fill(t("{n} out of the fight"), { n: gone.length })));
    const grid = el("div", { class: "bar-gone", "data-where": "surrendered", "data-side": s, "data-count": String(gone.length) });
    // The boxes bottom first, each with its modifier; a filled box in the side's colour, and
    // the knights in them by name under the row.
    mods.forEach((mod, i) => {
      const knight = gone[i];
      const k = knight && (view.knights || {})[knight];
      const cell = el("div", { class: (k ? `full ${s} ${k.out}` : "") + (i === gone.length ? " next" : ""), "data-box": i,
        title: k ? k.name + " · " + t(OUT_WORDS[k.out] || k.out || "") : fill(t("box {n}: {mod} to the surrender roll"), { n: i + 1, mod: signed(mod) }) },
      signed(mod));
      grid.append(cell);
    });
    box.append(grid);
    if (gone.length) {
      box.append(el("p", { class: "bar-gone-names" }, gone.map((knight) => {
        const k = (view.knights || {})[knight];
        return k ? k.name + (k.out === "dead" ? " ✝" : "") : knight;
      }).join(" · ")));
    }
  }
  box.append(el("p", { class: "bar-legend" }, t("✝ dead (H5). The highlighted box gives the next surrender test's modifier.")));
}

// --- the shared table screen, read from 1.5 m --------------------------------------------------------

const PHASE_WORDS = {
  setup: "ROLL FOR THE INITIATIVE", deploy: "DEPLOYMENT · {side} DEPLOY", charge: "OPENING CHARGE · {side} CHARGE",
  initiative: "TURN {n} · ROLL FOR THE INITIATIVE", choose: "TURN {n} · {side} CHOOSE WHO PLAYS FIRST",
  command: "TURN {n} · {side} NAME THEIR COMMANDER", reorganize: "TURN {n} · REORGANIZATION",
};

export function banner(state, t = (s) => s) {
  // The big line the table shows: "TURN 3 · ITALIANS ACT · 4 ORDER POINTS".
  const view = (state && state.view) || {};
  const up = (role) => (SIDE_UPPER[role] ? t(SIDE_UPPER[role]) : String(role || "").toUpperCase());
  if (view.outcome) {
    return view.outcome.winner ? fill(t("{side} WIN"), { side: up(view.outcome.winner) }) : t("THE GAME IS A DRAW");
  }
  const knights = view.knights || {};
  const combat = view.combat;
  if (combat) {
    const name = (k) => String((knights[k] || { name: k }).name).toUpperCase();
    const what = fill(combat.charge ? t("{attacker} CHARGES {defender}") : t("{attacker} ATTACKS {defender}"),
      { attacker: name(combat.attacker), defender: name(combat.defender) });
    return view.turn ? fill(t("TURN {n}"), { n: view.turn }) + " · " + what : what;
  }
  if (view.phase === "orders" && view.active) {
    const op = (view.order_points || {})[view.active] || 0;
    const points = fill(op === 1 ? t("{n} ORDER POINT") : t("{n} ORDER POINTS"), { n: op });
    return [fill(t("TURN {n}"), { n: view.turn }), fill(t("{side} ACT"), { side: up(view.active) }), points].join(" · ");
  }
  const words = PHASE_WORDS[view.phase];
  return words ? fill(t(words), { n: view.turn, side: up(view.active) }) : "";
}

function fitTable(root, scroll, geometry) {
  // The shared screen shows the whole field at once without scrolling: on a wide screen the
  // field is narrowed (centred) until its height fits. A phone scrolls as any page does.
  if (window.innerWidth <= 800) { root.style.maxWidth = ""; return; }
  const top = scroll.getBoundingClientRect().top + window.scrollY;
  const room = window.innerHeight - top - 16;
  const [, , w, h] = geometry.box;
  root.style.maxWidth = Math.max(360, Math.floor(room * w / h)) + "px";
}

// --- zoom: buttons everywhere, pinch on phones ------------------------------------------------------

function zoomControls(bar, scroll, svg, far) {
  // The toolkit's zoom (buttons, pinch); the table across the room shows fine print from 18 px.
  const control = zoom(bar, scroll, svg, t("Whole field"), far ? 18 : 0);
  const set = control.set;
  // A phone starts zoomed in on the melee lines, enough to read the counters.
  if (scroll.clientWidth && scroll.clientWidth < 600) {
    scroll.style.maxHeight = "62vh";
    set(2.2, 0.5, 0.5);
    requestAnimationFrame(() => {   // on the melee lines, once the zoomed field is laid out
      scroll.scrollLeft = (scroll.scrollWidth - scroll.clientWidth) / 2;
      scroll.scrollTop = (scroll.scrollHeight - scroll.clientHeight) / 2;
    });
  }
}
