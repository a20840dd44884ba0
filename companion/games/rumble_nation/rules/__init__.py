"""Rumble Nation (Yogi Shinichi): deployment by dice and tactic cards, then the war phase
(rules in shared/seeds/rumble-nation-rules-it.txt; docs/rumble-nation.md).

Options: `players` 2-4 (default 3), `daimyo` for the advanced rules (8). Everything on the board
is public; only the daimyo cards are face down until used.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cached_property
from itertools import combinations
from typing import Any

from companion.engine.core import (
    CHANCE,
    REFEREE,
    Action,
    Event,
    GameType,
    IllegalAction,
    Option,
    Outcome,
    Rules,
    register,
)
from companion.games.rumble_nation.kit import RumbleNationKit
from companion.games.rumble_nation.rules.context import Batch, soldiers_for
from companion.games.rumble_nation.rules.daimyo import decide_daimyo, decide_daimyo_choice
from companion.games.rumble_nation.rules.state import RNState, evolve, frozen
from companion.games.rumble_nation.rules.tactics import decide_tactic
from companion.games.rumble_nation.rules.war import war

__all__ = ["RumbleNationRules"]

DIE = range(1, 7)


@register
class RumbleNationRules(Rules[RNState, RumbleNationKit]):
    game_type = GameType(
        name="rumble_nation", title="Rumble Nation", kit="rumble_nation", min_players=2,
        max_players=4, chance=True, hidden_information=True,
        rulebook="shared/seeds/rumble-nation-rules-it.txt", turn_rule="5.1", end_rule="6",
        setup_rule="3",
        options=(Option("players", 3, (2, 3, 4), help="how many play (3 ①)"),
                 Option("daimyo", False, help="the advanced rules with daimyo (8)")))

    @cached_property
    def roles(self) -> tuple[str, ...]:
        return tuple(self.kit.components.colours[: self.options["players"]])

    def initial_state(self) -> RNState:
        """3: 18 soldiers each (16 and a daimyo with the advanced rules)."""
        daimyo = self.options["daimyo"]
        soldiers = self.kit.components.soldiers_per_player - (2 if daimyo else 0)
        return RNState(players=self.roles, reserve=frozen(dict.fromkeys(self.roles, soldiers)),
                       daimyo_in_reserve=frozenset(self.roles) if daimyo else frozenset())

    def katana_values(self) -> tuple[int, ...]:
        """3 ④: without value 4 for 3 players, without 3 and 4 for 2."""
        return tuple(v for v in self.kit.components.katana if v <= max(2, len(self.roles)))

    def to_move(self, state: RNState) -> tuple[str, ...]:
        if state.outcome is not None:
            return ()
        if state.phase == "setup" or state.rolling:
            return (CHANCE,)
        return (state.players[state.turn],)

    def decide(self, state: RNState, action: Action) -> Sequence[Event]:
        batch = Batch(self.kit, state)
        if action.role == CHANCE:
            (self._setup if action.verb == "setup" else self._dice)(batch, action)
            return batch.events
        if state.phase == "daimyo":
            self._only(action, "choose_daimyo", "8")
            decide_daimyo_choice(batch, action)
            self._next_chooser(batch)
            return batch.events
        verbs = {"roll": self._roll, "reroll": self._reroll, "deploy": self._deploy,
                 "tactic": decide_tactic, "daimyo": decide_daimyo}
        if action.verb not in verbs or (action.verb == "daimyo" and not self.options["daimyo"]):
            raise IllegalAction("5.1", f"'{action.verb}' is not a deployment action",
                                legal=sorted(verbs))
        verbs[action.verb](batch, action)
        if action.verb in ("deploy", "tactic", "daimyo"):
            self._end_turn(batch)
        return batch.events

    @staticmethod
    def _only(action: Action, verb: str, rule: str) -> None:
        if action.verb != verb:
            raise IllegalAction(rule, f"'{action.verb}' now? {verb} is due")

    # --- chance ------------------------------------------------------------------------------

    def _setup(self, batch: Batch, action: Action) -> None:
        """3 ② ③ ⑥: castles shuffled onto the regions, the tactic display, the first player."""
        castles = dict(action.args.get("castles") or {})
        regions = sorted(self.kit.neighbours)
        if sorted(castles) != regions or sorted(castles.values()) != sorted(
                self.kit.components.large_castles):
            raise IllegalAction("3", "one large castle (2-12) on each of the 11 regions")
        tactics = list(action.args.get("tactics") or ())
        want = len(self.roles) + 1
        if len(set(tactics)) != want or not set(tactics) <= set(self.kit.components.tactic_cards):
            raise IllegalAction("3", f"{want} different tactic cards on display")
        daimyo = list(action.args.get("daimyo") or ())
        if self.options["daimyo"] and (len(set(daimyo)) != want or not set(daimyo) <= set(
                self.kit.components.daimyo_cards)):
            raise IllegalAction("8", f"{want} different daimyo cards on offer")
        first = action.args.get("first")
        if first not in range(len(self.roles)):
            raise IllegalAction("3", "the first player is one of the players")
        batch.emit("GameSetUp", castles=castles, tactics=tactics,
                   daimyo=daimyo if self.options["daimyo"] else [], first=first, rule="3")

    def _dice(self, batch: Batch, action: Action) -> None:
        values = action.args.get("values")
        if not batch.state.rolling or action.verb != "dice":
            raise IllegalAction("5.1", "no dice are being rolled")
        if not isinstance(values, tuple) or len(values) != 3 or any(v not in DIE for v in values):
            raise IllegalAction("5.1", f"three dice showing 1-6, not {values!r}")
        batch.emit("DiceRolled", player=batch.state.players[batch.state.turn],
                   values=list(values), rule="5.1.1")

    def sample_chance(self, state: RNState, rng: random.Random) -> Action:
        if state.phase == "setup":
            values = list(self.kit.components.large_castles)
            rng.shuffle(values)
            regions = sorted(self.kit.neighbours)
            return Action(CHANCE, "setup", {
                "castles": dict(zip(regions, values, strict=True)),
                "tactics": rng.sample(list(self.kit.components.tactic_cards),
                                      len(self.roles) + 1),
                "daimyo": rng.sample(list(self.kit.components.daimyo_cards),
                                     len(self.roles) + 1) if self.options["daimyo"] else [],
                "first": rng.randrange(len(self.roles))})
        return Action(CHANCE, "dice", {"values": [rng.randint(1, 6) for _ in range(3)]})

    # --- a deployment turn ---------------------------------------------------------------------

    def _roll(self, batch: Batch, action: Action) -> None:
        if batch.state.dice:
            raise IllegalAction("5.1.1", "the dice are already rolled: deploy, or reroll once")
        batch.emit("RollAsked", player=action.role, rule="5.1.1")

    def _reroll(self, batch: Batch, action: Action) -> None:
        if not batch.state.dice or batch.state.rerolled:
            raise IllegalAction("5.1.1", "all three dice may be rerolled once per turn, after "
                                "the first roll")
        batch.emit("RollAsked", player=action.role, again=True, rule="5.1.1")

    def _deploy(self, batch: Batch, action: Action) -> None:
        """5.1 ①: two dice name the region (its castle's value), the third how many go."""
        state = batch.state
        pair = action.args.get("pair")
        if not state.dice:
            raise IllegalAction("5.1.1", "roll the dice first")
        if not isinstance(pair, tuple) or sorted(pair) not in ([0, 1], [0, 2], [1, 2]):
            raise IllegalAction("5.1.1", "choose two of the three dice (0, 1, 2) for the pair")
        total = state.dice[pair[0]] + state.dice[pair[1]]
        single = state.dice[3 - pair[0] - pair[1]]
        where = next(r for r, v in state.castles.items() if v == total)
        daimyo = bool(action.args.get("daimyo"))
        if daimyo and action.role not in state.daimyo_in_reserve:
            raise IllegalAction("8", "your daimyo is already on the map")
        count = min(soldiers_for(single), state.reserve[action.role] + daimyo)
        batch.emit("SoldiersDeployed", player=action.role, region=where, dice=list(state.dice),
                   pair=list(pair), soldiers=count - daimyo, daimyo=daimyo, rule="5.1.1")

    def _end_turn(self, batch: Batch) -> None:
        """A player with every soldier placed takes the highest katana left and sits out; when
        all have, the war begins (5.1)."""
        state = batch.state
        player = state.players[state.turn]
        if state.placed_all(player) and player not in state.katana:
            left = [v for v in self.katana_values() if v not in state.katana.values()]
            batch.emit("KatanaTaken", player=player, value=max(left), rule="5.1")
        state = batch.state
        if all(p in state.katana for p in state.players):
            war(batch)
            return
        n = len(state.players)
        for step in range(1, n + 1):
            index = (state.turn + step) % n
            if state.players[index] not in state.katana:
                batch.emit("TurnBegan", turn=index, player=state.players[index], rule="5.1")
                return

    def _next_chooser(self, batch: Batch) -> None:
        state = batch.state
        if len(state.daimyo_cards) == len(state.players):
            batch.emit("TurnBegan", turn=state.first, player=state.players[state.first],
                       phase="deployment", rule="8")
            return
        chooser = (state.turn - 1) % len(state.players)  # counter-clockwise
        batch.emit("TurnBegan", turn=chooser, player=state.players[chooser], rule="8")

    # --- the rest of the interface ---------------------------------------------------------------

    def legal_actions(self, state: RNState, role: str) -> Sequence[Action]:
        if role not in self.to_move(state) or role == CHANCE:
            return []
        return [a for a in self._candidates(state, role) if self.accepts(state, a)]


    def _candidates(self, state: RNState, role: str) -> list[Action]:
        if state.phase == "daimyo":
            return [Action(role, "choose_daimyo", {"card": c}) for c in state.daimyo_display]
        if state.dice:
            found = [Action(role, "deploy", {"pair": list(p), "daimyo": d})
                     for p in combinations(range(3), 2) for d in (False, True)]
            return [*found, Action(role, "reroll")]
        found = [Action(role, "roll")]
        mine = [r for r in sorted(self.kit.neighbours) if state.units(r, role)]
        for card in state.tactics:
            found += [Action(role, "tactic", {"card": card, **args})
                      for args in _tactic_args(self, state, role, card, mine)]
        if self.options["daimyo"] and role in state.daimyo_at:
            found += [Action(role, "daimyo", args) for args in _daimyo_args(self, state, role)]
        return found

    def view(self, state: RNState, role: str) -> dict[str, Any]:
        """All public but the daimyo cards, face down until used (8)."""
        cards = {p: c for p, c in state.daimyo_cards.items()
                 if p == role or role == REFEREE or p in state.daimyo_used}
        return {
            "game": "rumble_nation", "role": role, "phase": state.phase,
            "players": list(state.players),
            "active": state.players[state.turn] if state.phase != "setup" else None,
            "castles": dict(state.castles), "tactics": list(state.tactics),
            "soldiers": {r: dict(p) for r, p in state.soldiers.items()},
            "daimyo_at": dict(state.daimyo_at), "reserve": dict(state.reserve),
            "reinforcements": {r: dict(p) for r, p in state.reinforcements.items()},
            "katana": dict(state.katana), "dice": list(state.dice),
            "won": {p: list(v) for p, v in state.won.items()},
            "daimyo_cards": cards, "daimyo_chosen": sorted(state.daimyo_cards),
            "outcome": None if state.outcome is None else state.outcome.to_json(),
        }

    def evolve(self, state: RNState, event: Event) -> RNState:
        return evolve(state, event)

    def outcome(self, state: RNState) -> Outcome | None:
        return state.outcome


def _tactic_args(rules: RumbleNationRules, state: RNState, role: str, card: str,
                 mine: list[str]) -> list[dict[str, Any]]:
    """A few plausible arguments per card, for the simulator; `decide` judges them."""
    kit = rules.kit
    foes = [p for p in state.players if p != role]
    found: list[dict[str, Any]] = []
    for frm in mine[:4]:
        for to in kit.neighbours[frm]:
            found.append({"from": frm, "to": to})
            found += [{"from": frm, "to": to, "opponent": f} for f in foes]
            found += [{"from": frm, "to": to, "opponents": [f, f]} for f in foes]
        found.append({"to": frm})
        found += [{"region": frm, "opponent": f} for f in foes]
        for other in kit.neighbours[frm]:
            found += [{"from": other, "to": frm, "opponent": f} for f in foes]
    if card == "ingresso_a_kyo":
        near = [r for r in kit.neighbours[kit.components.kyo] if state.count(r, role)]
        found = [{"moves": {r: state.count(r, role)}} for r in near]
    if card == "ritirata":
        found = [{"regions": [a, b]} for a, b in combinations(mine, 2)][:6]
    if card in ("ribellione",):
        found = [{"region": r, "opponent": f} for r in sorted(kit.neighbours) for f in foes
                 if state.count(r, f)][:6]
    return found[:12]


def _daimyo_args(rules: RumbleNationRules, state: RNState, role: str) -> list[dict[str, Any]]:
    """A few plausible arguments for the player's daimyo card, for the simulator."""
    home = state.daimyo_at[role]
    near = list(rules.kit.neighbours[home])
    foes = [p for p in state.players if p != role]
    found: list[dict[str, Any]] = [{"moves": [{"to": n, "soldiers": 1}]} for n in near]
    found += [{"moves": [{"to": n, "soldiers": 1}], "opponent": f} for n in near for f in foes]
    found += [{"to": n, "soldiers": s} for n in near for s in (0, 1)]
    found += [{"swaps": [{"region": n, "opponent": f}]} for n in near for f in foes]
    return found[:16]

