// Rumble Nation's screen: the eleven regions as on the printed board (kit map: centres, land and
// sea links), each with its castle's value and every player's soldiers as a large count in the
// player's colour, the daimyo where they stand; the turn, the dice, the reserves, katana and the
// castles won; the tactic cards on display and the daimyo cards as far as this role may see them.
// Made to be read from across a table: large counts, and every colour also named (its initial on
// the map, its name in the legend) and always in the same corner of a region, for colour-blind
// players. The page shell mounts it (docs/web.md: "A game's screen"); the views it draws are
// filtered on the server, so a daimyo card still face down never reaches another player's screen.

const CSS = `
#rn-board { width: 100%; height: auto; display: block; background: #dfe9ee; border-radius: .4rem; }
#rn-board .link { stroke: #7a6a4f; stroke-width: 5; }
#rn-board .link.sea { stroke: #3f7fbf; stroke-width: 4; stroke-dasharray: 10 7; }
#rn-board .region rect.card { fill: #f7f1e1; stroke: #6b5a3c; stroke-width: 2; }
#rn-board .region.gone rect.card { fill: #ece7dc; stroke-dasharray: 6 4; }
#rn-board .region .name { font: 600 17px system-ui, sans-serif; fill: #2b2116; }
#rn-board .castle rect { fill: #6b4f2a; }
#rn-board .castle text { font: 800 30px system-ui, sans-serif; fill: #fff; text-anchor: middle; }
#rn-board .castle.gone rect { fill: none; stroke: #a89a80; stroke-width: 2; stroke-dasharray: 4 3; }
#rn-board .castle.gone text { fill: #a89a80; }
#rn-board .castle-label { font: 12px system-ui, sans-serif; fill: #5a4a30; text-anchor: middle; }
#rn-board .slot { fill: none; stroke: #d6ccb5; stroke-width: 1.5; stroke-dasharray: 3 3; }
#rn-board .chip rect { stroke: #0006; stroke-width: 1.5; }
#rn-board .chip .count { font: 800 34px system-ui, sans-serif; text-anchor: end; }
#rn-board .chip .who { font: 700 14px system-ui, sans-serif; }
#rn-board .chip .daimyo { font: 700 17px system-ui, sans-serif; }
#rn-board .chip .daimyo.alone { font-size: 30px; text-anchor: end; }
#rn-board .box rect.frame { fill: #fffdf7; stroke: #6b5a3c; stroke-width: 2; }
#rn-board .box .title { font: 700 18px system-ui, sans-serif; fill: #2b2116; }
#rn-board .box .big { font: 800 30px system-ui, sans-serif; }
#rn-board .box .text { font: 19px system-ui, sans-serif; fill: #2b2116; }
#rn-board .box .head { font: 600 14px system-ui, sans-serif; fill: #5a4a30; text-anchor: middle; }
#rn-board .box .num { font: 800 24px system-ui, sans-serif; fill: #2b2116; text-anchor: middle; }
#rn-board .die rect { fill: #fff; stroke: #222; stroke-width: 2.5; }
#rn-board .die text { font: 800 40px system-ui, sans-serif; fill: #111; text-anchor: middle; }
#rn-board .you rect.row { fill: #fff3c4; }
.rn-panel { font-size: 1.1rem; }
.rn-panel ul { margin: .2rem 0; padding-left: 1.2rem; }
.rn-panel li { margin: .15rem 0; }
.rn-swatch { display: inline-block; min-width: 2.2em; padding: 0 .3em; margin-right: .4em; border-radius: .25em;
  text-align: center; font-weight: 700; border: 1px solid #0006; }
`;

const COLOURS = {
  red: ["#c62828", "#fff"], blue: ["#1f5fbf", "#fff"], yellow: ["#f4c20d", "#111"],
  black: ["#1b1b1b", "#fff"], green: ["#2e7d32", "#fff"], white: ["#f5f5f5", "#111"],
  purple: ["#6a1b9a", "#fff"], orange: ["#ef6c00", "#111"],
};

const CARD = { w: 194, h: 148 };        // a region, in the SVG's units
const SLOT = { w: 62, h: 54, gap: 4 };  // one player's soldiers in a region
const TURN_BOX = { w: 400, h: 196 };
const ROW = 40;                         // a player's row in the players' box
const WIDE = { x: 1300, y: 880 };       // the kit's fractions of the board, in the SVG's units
const TALL = { x: 700, y: 1500 };       // the same on a phone held upright: Japan stretched down
const GAP = 12;                         // the least room between two regions

const LOWER = new Set(["a", "al", "da", "di", "del", "della", "e", "il", "la", "le", "lo"]);

function title(id) {
  // A card's id as its printed title: "oltre_le_montagne" -> "Oltre le Montagne".
  return String(id).split("_").map((w, i) => (i > 0 && LOWER.has(w) ? w : w.charAt(0).toUpperCase() + w.slice(1))).join(" ");
}

function capital(word) { return word.charAt(0).toUpperCase() + word.slice(1); }

function abbreviations(colours) {
  // The shortest beginning of each colour's name that no other colour shares: R, Blu, Bla, Y.
  const found = {};
  for (const colour of colours) {
    let n = 1;
    while (colours.some((other) => other !== colour && other.startsWith(colour.slice(0, n))) && n < colour.length) n += 1;
    found[colour] = capital(colour.slice(0, n));
  }
  return found;
}

function paint(colour) { return COLOURS[colour] || ["#777", "#fff"]; }

function sum(values) { return values.reduce((a, b) => a + b, 0); }

// --- where things go ------------------------------------------------------------------------------

function overlap(a, b) {
  // How far two boxes (centre x, y and size w, h) must move apart, along each axis.
  return [(a.w + b.w) / 2 + GAP - Math.abs(a.x - b.x), (a.h + b.h) / 2 + GAP - Math.abs(a.y - b.y)];
}

function layout(locations, fixed, spread) {
  // Regions at their printed places, nudged apart until no two cards (nor a card and one of
  // the fixed boxes) overlap: the same board for the same kit, every time.
  const boxes = locations.map((loc) => ({ id: loc.id, x: loc.xy[0] * spread.x, y: loc.xy[1] * spread.y, w: CARD.w, h: CARD.h }));
  for (let round = 0; round < 400; round += 1) {
    let moved = false;
    for (let i = 0; i < boxes.length; i += 1) {
      for (const other of [...boxes.slice(i + 1), ...fixed]) {
        const a = boxes[i];
        const [dx, dy] = overlap(a, other);
        if (dx <= 0 || dy <= 0) continue;
        moved = true;
        const still = fixed.includes(other);
        const share = still ? 1 : 0.5;
        if (dx < dy) {
          const sign = a.x < other.x || (a.x === other.x && a.id < other.id) ? -1 : 1;
          a.x += sign * dx * share;
          if (!still) other.x -= sign * dx * share;
        } else {
          const sign = a.y < other.y || (a.y === other.y && a.id < other.id) ? -1 : 1;
          a.y += sign * dy * share;
          if (!still) other.y -= sign * dy * share;
        }
      }
    }
    if (!moved) break;
  }
  return Object.fromEntries(boxes.map((b) => [b.id, b]));
}

function corners(locations, players, spread) {
  // The turn's box in the top-left and the players' box in the bottom-right: the sea, on the
  // printed board, where Japan leaves room.
  const xs = locations.map((l) => l.xy[0] * spread.x);
  const ys = locations.map((l) => l.xy[1] * spread.y);
  const [left, top] = [Math.min(...xs) - CARD.w / 2, Math.min(...ys) - CARD.h / 2];
  const [right, bottom] = [Math.max(...xs) + CARD.w / 2, Math.max(...ys) + CARD.h / 2];
  const playersBox = { w: 430, h: 44 + ROW * players.length + 6 };
  return {
    turn: { id: "turn", x: left + TURN_BOX.w / 2, y: top + TURN_BOX.h / 2, w: TURN_BOX.w, h: TURN_BOX.h },
    players: { id: "players", x: right - playersBox.w / 2, y: bottom - playersBox.h / 2, ...playersBox },
  };
}

// --- drawing --------------------------------------------------------------------------------------

export async function mount(shell) {
  const board = await shell.board();
  const { el } = shell;
  const players = shell.game.roles;
  const short = abbreviations(players);
  document.head.append(el("style", {}, CSS));
  const spread = shell.main.clientWidth < 700 ? TALL : WIDE;
  const fixed = corners(board.locations, players, spread);
  const at = layout(board.locations, [fixed.turn, fixed.players], spread);
  const all = [...Object.values(at), fixed.turn, fixed.players];
  const minX = Math.min(...all.map((b) => b.x - b.w / 2)) - 10;
  const minY = Math.min(...all.map((b) => b.y - b.h / 2)) - 10;
  const maxX = Math.max(...all.map((b) => b.x + b.w / 2)) + 10;
  const maxY = Math.max(...all.map((b) => b.y + b.h / 2)) + 10;
  const svg = el("svg", { id: "rn-board", viewBox: [minX, minY, maxX - minX, maxY - minY].join(" "),
    role: "img", "aria-label": "the board of " + shell.game.title });
  shell.main.append(svg);
  for (const link of board.roads) {
    const [a, b] = [at[link.a], at[link.b]];
    svg.append(el("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: "link " + link.kind, "data-link": link.a + "-" + link.b }));
  }
  const regions = Object.fromEntries(board.locations.map((loc) => [loc.id, drawRegion(svg, loc, at[loc.id], el)]));
  const turnBox = drawBox(svg, fixed.turn, "turn", el);
  const playersBox = drawBox(svg, fixed.players, "players", el);
  const panels = { you: shell.panel("rn-you", ""), tactics: shell.panel("rn-tactics", ""), daimyo: shell.panel("rn-daimyo", "") };
  for (const box of Object.values(panels)) box.classList.add("rn-panel");
  const names = shell.game.players || {};
  const draw = { el, players, short, names };
  return {
    render(state) {
      const view = state.view;
      for (const loc of board.locations) renderRegion(regions[loc.id], loc, at[loc.id], view, draw);
      renderTurn(turnBox, fixed.turn, view, draw);
      renderPlayers(playersBox, fixed.players, view, state.role, draw);
      renderTactics(panels.tactics, view, el);
      renderDaimyo(panels.daimyo, view, draw, shell);
      const mine = shell.page === "play" && shell.isPlayer(state.role);
      shell.show(panels.you, mine);
      if (mine) renderYou(panels.you, view, state.role, draw);
    },
  };
}

function drawRegion(svg, loc, box, el) {
  const group = el("g", { id: "region-" + loc.id, class: "region", "data-region": loc.id });
  const [x, y] = [box.x - box.w / 2, box.y - box.h / 2];
  group.append(el("rect", { x, y, width: box.w, height: box.h, rx: 10, class: "card" }));
  const name = el("text", { x: x + 10, y: y + 21, class: "name" }, loc.name);
  if (loc.name.length > 14) { name.setAttribute("textLength", box.w - 20); name.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
  group.append(name);
  const castle = el("g", { class: "castle", id: "castle-" + loc.id });
  castle.append(el("rect", { x: x + 8, y: y + 34, width: 48, height: 48, rx: 6 }), el("text", { x: x + 32, y: y + 69 }));
  group.append(castle, el("text", { x: x + 32, y: y + 100, class: "castle-label" }, "castle"));
  group.append(el("g", { class: "soldiers" }));
  svg.append(group);
  return group;
}

function slotAt(box, index) {
  // Each player keeps the same corner of every region: its colour is found by place, too.
  const x = box.x - box.w / 2 + 62 + (index % 2) * (SLOT.w + SLOT.gap);  // right of the castle
  const y = box.y - box.h / 2 + 30 + Math.floor(index / 2) * (SLOT.h + SLOT.gap);  // below the name
  return [x, y];
}

function renderRegion(group, loc, box, view, draw) {
  const { el, players, short } = draw;
  const value = (view.castles || {})[loc.id];
  const castle = group.querySelector(".castle");
  castle.setAttribute("class", value === undefined ? "castle gone" : "castle");
  castle.setAttribute("data-value", value === undefined ? "" : String(value));
  castle.querySelector("text").textContent = value === undefined ? "–" : String(value);
  group.setAttribute("class", value === undefined && view.phase !== "setup" ? "region gone" : "region");
  const soldiers = (view.soldiers || {})[loc.id] || {};
  const extra = (view.reinforcements || {})[loc.id] || {};
  const daimyo = view.daimyo_at || {};
  const holder = group.querySelector(".soldiers");
  holder.replaceChildren();
  players.forEach((player, index) => {
    const [x, y] = slotAt(box, index);
    const count = soldiers[player] || 0;
    const here = daimyo[player] === loc.id;
    const more = extra[player] || 0;
    if (!count && !here && !more) {
      holder.append(el("rect", { x, y, width: SLOT.w, height: SLOT.h, rx: 6, class: "slot" }));
      return;
    }
    const [fill, ink] = paint(player);
    const chip = el("g", { class: "chip", "data-where": loc.id, "data-side": player, "data-count": String(count),
      "data-daimyo": here ? "yes" : "no" });
    chip.append(el("rect", { x, y, width: SLOT.w, height: SLOT.h, rx: 6, fill }));
    chip.append(el("text", { x: x + 5, y: y + 16, class: "who", fill: ink }, short[player] + (more ? " +" + more : "")));
    if (count || !here) chip.append(el("text", { x: x + SLOT.w - 5, y: y + SLOT.h - 6, class: "count", fill: ink }, String(count)));
    if (here) {
      const alone = !count;  // the daimyo alone: a large star where the count would be
      chip.append(el("text", alone ? { x: x + SLOT.w - 6, y: y + SLOT.h - 9, class: "daimyo alone", fill: ink }
        : { x: x + SLOT.w - 19, y: y + 17, class: "daimyo", fill: ink }, "★"));
    }
    chip.append(el("title", {}, player + ": " + count + " soldier" + (count === 1 ? "" : "s")
      + (here ? " and the daimyo" : "") + (more ? ", " + more + " reinforcements" : "")));
    holder.append(chip);
  });
}

function drawBox(svg, box, id, el) {
  const group = el("g", { id: "rn-" + id, class: "box" });
  svg.append(group);
  return group;
}

function frame(group, box, el, heading) {
  const [x, y] = [box.x - box.w / 2, box.y - box.h / 2];
  group.replaceChildren(el("rect", { x, y, width: box.w, height: box.h, rx: 10, class: "frame" }));
  if (heading) group.append(el("text", { x: x + 14, y: y + 26, class: "title" }, heading));
  return [x, y];
}

function chip(el, colour, label, x, y, w, h) {
  const [fill, ink] = paint(colour);
  const g = el("g", { class: "chip" });
  g.append(el("rect", { x, y, width: w, height: h, rx: 6, fill }));
  g.append(el("text", { x: x + w / 2, y: y + h / 2 + 7, fill: ink, "text-anchor": "middle", style: "font: 700 19px system-ui, sans-serif" }, label));
  return g;
}

const PHASES = { setup: "Setting up", daimyo: "Choosing daimyo cards", deployment: "Deployment", over: "The war is over" };

function renderTurn(group, box, view, draw) {
  const { el, names } = draw;
  const [x, y] = frame(group, box, el, PHASES[view.phase] || title(view.phase || ""));
  group.setAttribute("data-phase", view.phase || "");
  if (view.outcome) {
    const winner = view.outcome.winner;
    group.append(el("text", { x: x + 14, y: y + 64, class: "text" }, "Winner:"));
    if (winner) group.append(chip(el, winner, capital(winner) + (names[winner] ? " · " + names[winner] : ""), x + 100, y + 40, 280, 38));
    group.append(el("text", { x: x + 14, y: y + 110, class: "text" }, "Castles taken, by value:"));
    group.append(el("text", { x: x + 14, y: y + 140, class: "text" }, view.outcome.termination.replace(/^castles: /, "")));
    return;
  }
  if (view.active) {
    group.setAttribute("data-active", view.active);
    group.append(el("text", { x: x + 14, y: y + 66, class: "text" }, "To play:"));
    group.append(chip(el, view.active, capital(view.active) + (names[view.active] ? " · " + names[view.active] : ""), x + 100, y + 40, 280, 38));
  }
  const dice = view.dice || [];
  group.setAttribute("data-dice", dice.join(","));
  if (!dice.length) {
    group.append(el("text", { x: x + 14, y: y + 130, class: "text" }, view.phase === "deployment" ? "Dice: not rolled yet" : ""));
    return;
  }
  group.append(el("text", { x: x + 14, y: y + 140, class: "text" }, "Dice:"));
  dice.forEach((value, index) => {
    const die = el("g", { class: "die", "data-die": String(index) });
    die.append(el("rect", { x: x + 90 + index * 84, y: y + 94, width: 68, height: 68, rx: 10 }));
    die.append(el("text", { x: x + 124 + index * 84, y: y + 143 }, String(value)));
    group.append(die);
  });
}

function renderPlayers(group, box, view, role, draw) {
  const { el, players, short, names } = draw;
  const [x, y] = frame(group, box, el, "Players");
  const columns = [["reserve", 250], ["katana", 320], ["castles", 390]];
  for (const [head, cx] of columns) group.append(el("text", { x: x + cx, y: y + 26, class: "head" }, head));
  players.forEach((player, index) => {
    const top = y + 40 + index * ROW;
    const row = el("g", { class: "player" + (player === role ? " you" : ""), "data-player": player });
    row.append(el("rect", { x: x + 4, y: top, width: box.w - 8, height: ROW - 2, rx: 6, class: "row", fill: "none" }));
    row.append(chip(el, player, short[player], x + 12, top + 4, 52, ROW - 10));
    const name = el("text", { x: x + 74, y: top + 27, class: "text" }, capital(player) + (names[player] ? " · " + names[player] : ""));
    if (name.textContent.length > 15) { name.setAttribute("textLength", 140); name.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
    row.append(name);
    const won = (view.won || {})[player] || [];
    const katana = (view.katana || {})[player];
    const reserve = (view.reserve || {})[player];
    const values = [reserve ?? "", katana ?? "–", won.length ? sum(won) : "0"];
    columns.forEach(([head, cx], i) => row.append(el("text", { x: x + cx, y: top + 28, class: "num", "data-key": head }, String(values[i]))));
    group.append(row);
  });
}

function renderTactics(box, view, el) {
  const cards = view.tactics || [];
  box.replaceChildren(el("h2", {}, "Tactic cards on display"));
  const list = el("ul", { id: "rn-tactic-list" });
  for (const card of cards) list.append(el("li", { "data-card": card }, title(card)));
  box.append(cards.length ? list : el("p", {}, "none left"));
}

function swatch(el, colour, label) {
  const [fill, ink] = paint(colour);
  const span = el("span", { class: "rn-swatch" }, label);
  span.style.background = fill;
  span.style.color = ink;
  return span;
}

function renderDaimyo(box, view, draw, shell) {
  const { el, players, short } = draw;
  const chosen = view.daimyo_chosen || [];
  const at = view.daimyo_at || {};
  const used = view.daimyo_used || [];
  const inPlay = chosen.length || Object.keys(at).length;
  shell.show(box, Boolean(inPlay));
  if (!inPlay) return;
  box.replaceChildren(el("h2", {}, "Daimyo"));
  const list = el("ul");
  for (const player of players) {
    const card = (view.daimyo_cards || {})[player];
    const where = at[player];
    const item = el("li", { "data-player": player });
    item.append(swatch(el, player, short[player]));
    const parts = [card ? "card: " + title(card) : (chosen.includes(player) ? "card face down" : "no card yet")];
    if (used.includes(player)) parts.push("used");
    parts.push(where ? "★ daimyo on the map" : "daimyo in reserve");
    item.append(document.createTextNode(parts.join(" · ")));
    list.append(item);
  }
  box.append(list);
}

function renderYou(box, view, role, draw) {
  const { el, short } = draw;
  box.replaceChildren(el("h2", {}, "You"));
  const line = el("p");
  line.append(swatch(el, role, short[role]), document.createTextNode(capital(role)));
  box.append(line);
  const reserve = (view.reserve || {})[role];
  const regions = Object.entries(view.soldiers || {}).filter(([, p]) => p[role]).length;
  box.append(el("p", {}, (reserve ?? 0) + " soldiers in reserve; soldiers in " + regions + " region" + (regions === 1 ? "" : "s")));
  const card = (view.daimyo_cards || {})[role];
  if (card) box.append(el("p", { id: "rn-your-daimyo" }, "Your daimyo card: " + title(card)));
  const won = (view.won || {})[role] || [];
  if (won.length) box.append(el("p", {}, "Castles taken: " + won.join(" + ") + " = " + sum(won)));
}
