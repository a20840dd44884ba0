// Sekigahara's screen: the printed map (locations, roads, castles, resources), every stack as its
// side and count, the battle panel with the impact track, the week's bookkeeping and, on a
// player's phone, that player's blocks, hand and the groups that may move.
// The page shell mounts it (docs/web.md: "A game's screen"); each view it draws is already
// filtered for the screen's role on the server, so a stack shows only the blocks its role knows.

const CSS = `
#game-panels, #board-panel { --ishida: #c9a227; --tokugawa: #1d1d1d; }
#board { width: 100%; height: auto; background: #e8dfc6; border-radius: .4rem; }
#board .road { stroke: #8a7a5c; stroke-width: 2; }
#board .highway { stroke: #5b3b16; stroke-width: 5; }
#board .loc { fill: #fff; stroke: #555; stroke-width: 1.5; }
#board .loc.resource { fill: #e9a0a0; }
#board .castle { fill: none; stroke-width: 3; }
#board .castle.ishida { stroke: var(--ishida); } #board .castle.tokugawa { stroke: var(--tokugawa); }
#board .label { font-size: 11px; fill: #333; text-anchor: middle; paint-order: stroke; stroke: #e8dfc6; stroke-width: 3px; }
#board .stack text { font-size: 12px; font-weight: 700; text-anchor: middle; fill: #fff; }
#board .stack.ishida rect { fill: var(--ishida); } #board .stack.tokugawa rect { fill: var(--tokugawa); }
#board .control { stroke: #fff; stroke-width: 1.5; }
#board .control.ishida { fill: var(--ishida); } #board .control.tokugawa { fill: var(--tokugawa); }
#battle .track { height: 1.2rem; position: relative; background: #eee; border-radius: .3rem; margin: .2rem 0; }
#battle .track span { position: absolute; top: 0; height: 100%; border-radius: .3rem; }
#battle .track .ishida { background: var(--ishida); } #battle .track .tokugawa { background: var(--tokugawa); }
`;

const WIDTH = 1000;   // the map's fractions of width and height, in the SVG's units
const HEIGHT = 640;

function xy(loc) { return [loc.xy[0] * WIDTH, loc.xy[1] * HEIGHT]; }

function words(id) { return String(id).replaceAll("_", " "); }

export async function mount(shell) {
  const board = await shell.board(["tracks"]);
  const { el } = shell;
  const sides = shell.game.roles;
  document.head.append(el("style", {}, CSS));
  const svg = el("svg", { id: "board", viewBox: "-30 -10 1070 670", role: "img", "aria-label": "map of " + shell.game.title });
  shell.main.append(svg);
  drawMap(svg, board, el);
  const panels = {
    battle: shell.panel("battle"), week: shell.panel("week"), mine: shell.panel("mine"),
  };
  shell.show(panels.battle, false);
  shell.show(panels.mine, false);
  return {
    render(state) {
      renderBoard(board, state.view, el);
      renderBattle(panels.battle, state.view.battle, board, sides, shell);
      renderWeek(panels.week, state.view, sides, el);
      const mine = shell.page === "play" && shell.isPlayer(state.role);
      shell.show(panels.mine, mine);
      if (mine) renderMine(panels.mine, state, el);
    },
  };
}

function drawMap(svg, board, el) {
  const where = Object.fromEntries(board.locations.map((loc) => [loc.id, loc]));
  for (const road of board.roads) {
    const [x1, y1] = xy(where[road.a]);
    const [x2, y2] = xy(where[road.b]);
    svg.append(el("line", { x1, y1, x2, y2, class: road.kind === "highway" ? "highway" : "road" }));
  }
  for (const loc of board.locations) {
    const [cx, cy] = xy(loc);
    const group = el("g", { id: "loc-" + loc.id, "data-location": loc.id });
    if (loc.castle) group.append(el("rect", { x: cx - 12, y: cy - 12, width: 24, height: 24,
      class: "castle " + loc.castle, id: "castle-" + loc.id }));
    group.append(el("circle", { cx, cy, r: 8, class: "loc" + (loc.resource ? " resource" : "") }));
    group.append(el("text", { x: cx, y: cy + 24, class: "label" }, loc.name));
    group.append(el("g", { class: "stacks" }));
    svg.append(group);
  }
}

function sidesOf(stacks) { return Object.keys(stacks).filter((key) => key !== "disks"); }

function renderBoard(board, view, el) {
  const castles = (view.control || {}).castles || {};
  const resources = (view.control || {}).resources || {};
  for (const loc of board.locations) {
    const group = document.getElementById("loc-" + loc.id);
    const holder = group.querySelector(".stacks");
    holder.replaceChildren();
    const stacks = (view.locations || {})[loc.id] || {};
    const [cx, cy] = xy(loc);
    sidesOf(stacks).forEach((side, index) => {
      const stack = stacks[side];
      const g = el("g", { class: "stack " + side, "data-where": loc.id, "data-side": side, "data-count": stack.count });
      g.append(el("rect", { x: cx + 10 + index * 24, y: cy - 22, width: 22, height: 18, rx: 3 }));
      g.append(el("text", { x: cx + 21 + index * 24, y: cy - 8 }, String(stack.count)));
      const known = stack.blocks.map((b) => b.block + (b.strength ? " (" + b.strength + ")" : ""));
      g.append(el("title", {}, side + ": " + stack.count + (known.length ? "\n" + known.join("\n") : "")));
      holder.append(g);
    });
    const castle = document.getElementById("castle-" + loc.id);
    if (castle && castles[loc.id]) castle.setAttribute("class", "castle " + castles[loc.id]);
    if (resources[loc.id]) {
      holder.append(el("circle", { cx: cx - 13, cy: cy - 13, r: 5, class: "control " + resources[loc.id],
        "data-control": resources[loc.id] }));
    }
  }
}

function renderBattle(box, battle, board, sides, shell) {
  const { el } = shell;
  const open = Boolean(battle && battle.impact);
  shell.show(box, open);
  if (!open) return;
  const top = Math.max(board.tracks.impact_track[1], ...sides.map((s) => battle.impact[s] || 0), 1);
  box.replaceChildren(el("h2", {}, (battle.siege ? "Siege at " : "Battle at ") + battle.at));
  for (const side of sides) {
    const row = el("div", { class: "track" });
    const bar = el("span", { class: side, id: "impact-" + side, "data-impact": battle.impact[side] });
    bar.style.width = (100 * battle.impact[side] / top) + "%";
    row.append(bar);
    box.append(el("div", {}, side + ": " + battle.impact[side] + (battle.attacker === side ? " (attacker)" : "")), row);
  }
  if (battle.initiative) box.append(el("p", {}, "Initiative: " + battle.initiative + " (the side behind deploys; the defender leads on a tie)"));
  const list = el("table");
  for (const d of battle.deployed) {
    const tr = el("tr");
    tr.append(el("td", {}, d.side), el("td", {}, d.block), el("td", {}, "+" + d.impact));
    list.append(tr);
  }
  box.append(list);
  if (battle.losses_due && battle.winner !== undefined && battle.stage !== "deploy") {
    const losses = Object.entries(battle.losses_due).map(([side, n]) => side + " " + n).join(", ");
    box.append(el("p", {}, "Winner: " + (battle.winner || "none") + ". Losses: " + losses));
  }
  for (const [side, cards] of Object.entries(battle.cards_played || {})) {
    if (cards.length) box.append(el("p", { class: "played" }, side + " played: " + cards.join(", ")));
  }
  if (battle.challenge) box.append(el("p", { class: "challenge" }, "Loyalty challenge by " + battle.challenge.by + ": the deploying side shows a matching card, or the block changes sides (8.6)"));
  if (battle.siege) {
    const impact = battle.impact[battle.attacker];
    box.append(el("p", { class: "siege" }, "Siege: " + Math.floor(impact / 7) + " loss(es) so far, " + (7 - impact % 7) + " impact to the next (8.9.4)"));
  }
  if (battle.retreat) box.append(el("p", {}, "Retreat to: " + battle.retreat.to.join(", ")));
}

function weekRows(view, sides) {
  const rows = [["Turn", view.week !== undefined ? "week " + view.week + ", turn " + view.turn : view.turn],
    ["Phase", view.phase || ""], ["Active", view.active || ""], ["First player", view.first || ""],
    ["Waiting for", (view.waiting_for || []).join(", ")]];
  if (view.cards) for (const [side, c] of Object.entries(view.cards)) rows.push([side + " hand", c.hand + " cards (pile " + c.draw_pile + ")"]);
  if (view.control) {
    for (const side of sides) {
      const castles = Object.values(view.control.castles).filter((s) => s === side).length;
      const resources = Object.values(view.control.resources).filter((s) => s === side).length;
      rows.push([side + " points", (2 * castles + resources) + " (" + castles + " castles, " + resources + " resources)"]);
    }
  }
  if (view.boxes) for (const [box, b] of Object.entries(view.boxes)) rows.push([words(box), b.count + " blocks"]);
  if (view.reinforcements) for (const [side, plan] of Object.entries(view.reinforcements.plan)) {
    const owed = view.reinforcements.discards_owed[side];
    rows.push([side + " reinforcements", "discard " + plan.discard + (owed ? " (" + owed + " still to discard)" : " (done)")
      + "; draw " + plan.cards_why + "; blocks " + plan.blocks_why]);
  }
  for (const draw of view.pending_draws || []) rows.push(["waiting for a draw", draw.side + " " + draw.count + " " + draw.kind + (draw.to ? " to " + draw.to : "")]);
  if (view.outcome) rows.push(["Result", (view.outcome.winner || "draw") + ": " + view.outcome.termination]);
  return rows;
}

function renderWeek(box, view, sides, el) {
  const table = el("table", { id: "facts" });
  for (const [key, value] of weekRows(view, sides)) {
    const tr = el("tr", { "data-key": key });
    tr.append(el("th", {}, key), el("td", {}, String(value ?? "")));
    table.append(tr);
  }
  box.replaceChildren(el("h2", {}, "The week"), table);
}

function renderMine(box, state, el) {
  const view = state.view;
  const rows = el("table");
  const places = Object.assign({}, view.locations || {});
  for (const [boxId, contents] of Object.entries(view.boxes || {})) places[boxId] = { [contents.side]: contents };
  for (const [where, stacks] of Object.entries(places)) {
    const stack = stacks[state.role];
    if (!stack || !stack.blocks || !stack.blocks.length) continue;
    const tr = el("tr");
    tr.append(el("th", {}, words(where)), el("td", {}, stack.blocks.map((b) => b.block).join(", ")));
    rows.append(tr);
  }
  box.replaceChildren(el("h2", {}, "Your blocks"), rows);
  const cards = ((view.cards || {})[state.role] || {}).cards;
  if (cards) box.append(el("h2", {}, "Your hand"), el("p", { id: "hand" }, cards.length ? cards.join(", ") : "no cards"));
  const options = view.options;
  if (options && options.groups) {
    box.append(el("h2", {}, "Groups that may move"));
    for (const group of options.groups) {
      const r = group.range;
      box.append(el("p", { class: "group", "data-from": group.from }, words(group.from) + " (" + group.blocks + " blocks): "
        + r.by_road + " by road, " + r.all_highway + " on highways (base 1, command +" + r.command
        + ", size " + r.size_penalty + "; forced march +1 for a card): " + group.reachable.join(", ")));
    }
  }
}
