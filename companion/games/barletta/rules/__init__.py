"""La Disfida di Barletta (Marco Rossi, Acies edizioni): rules in
shared/seeds/disfida-di-barletta-rules-it.txt, interpretations in docs/barletta.md.

Two sides, `italians` and `french`, and chance (every die: the initiative, the melee, the
unhorsing, surrender and remount tests). Options: `grajano` (M1), `italian_courtesy` (M2).
Nothing is hidden but the dice not yet rolled. `decide` goes through a `PhaseTable`, one
handler per verb, in the chapters' modules: opening (I), turn (C, D, E1.2's end of turn),
orders (E, F, G), combat (H), victory (L)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from companion.engine.core import (
    CHANCE,
    Action,
    Event,
    GameType,
    IllegalAction,
    Option,
    Outcome,
    PhaseTable,
    Pick,
    Rules,
    Sentence,
    register,
)
from companion.games.barletta.kit import SIDES, BarlettaKit
from companion.games.barletta.rules import picks, words
from companion.games.barletta.rules.combat import decide_melee, decide_surrender, decide_unhorse
from companion.games.barletta.rules.context import Batch
from companion.games.barletta.rules.opening import (
    chargers,
    decide_charge,
    decide_deploy,
    next_charge,
    unplaced,
)
from companion.games.barletta.rules.orders import (
    MAX_ATTACKS,
    attack_targets,
    decide_move,
    decide_pass,
    decide_reorganize,
    movement_points,
    reach,
)
from companion.games.barletta.rules.state import BState, KnightState, evolve, frozen
from companion.games.barletta.rules.turn import (
    decide_choose,
    decide_command,
    decide_initiative,
    decide_recover,
    decide_remount,
    decide_remount_roll,
    next_activation,
)
from companion.games.barletta.rules.victory import points

__all__ = ["BState", "BarlettaRules"]

Handler = Callable[[Batch, Action], None]

PHASE_RULES = {"setup": "I1", "deploy": "I1", "charge": "I2", "combat": "H1",
               "initiative": "C1", "choose": "C1", "command": "D1", "orders": "C1",
               "reorganize": "E1.2", "remounting": "E1.2", "over": "L"}

PHASES: PhaseTable[Handler] = PhaseTable(
    {"setup": {"initiative": decide_initiative}, "deploy": {"deploy": decide_deploy},
     "charge": {"charge": decide_charge},
     "combat": {"melee": decide_melee, "unhorse": decide_unhorse,
                "surrender": decide_surrender},
     "initiative": {"initiative": decide_initiative},
     "choose": {"go_first": decide_choose, "go_second": decide_choose},
     "command": {"command": decide_command},
     "orders": {"move": decide_move, "reorganize": decide_reorganize, "pass": decide_pass},
     "reorganize": {"recover": decide_recover, "remount": decide_remount},
     "remounting": {"remount_roll": decide_remount_roll}},
    PHASE_RULES, default_rule="C",
    takes={"initiative": SIDES, "deploy": ("knight", "hex"), "charge": ("knight",),
           "melee": ("attacker", "defender"), "unhorse": ("knight", "die"),
           "surrender": ("knight", "die"), "go_first": (), "go_second": (),
           "command": ("knight",), "move": ("knight", "to", "attack"),
           "reorganize": ("knight",), "pass": (), "recover": ("knight",),
           "remount": ("knight",), "remount_roll": ("knight", "die")})
"""Which verbs each step takes (the combat's and the remount's dice are chance's)."""


def step(state: BState) -> str:
    if state.combat is not None:
        return "combat"
    if state.remounting:
        return "remounting"
    return state.phase


@register
class BarlettaRules(Rules[BState, BarlettaKit]):
    game_type = GameType(
        name="barletta", title="La Disfida di Barletta", kit="barletta", min_players=2,
        max_players=2, chance=True, hidden_information=False,
        rulebook="shared/seeds/disfida-di-barletta-rules-it.txt", turn_rule="C1",
        end_rule="L", setup_rule="I1",
        options=(Option("grajano", False, help="M1: d'Aste takes a wound instead of "
                        "surrendering"),
                 Option("italian_courtesy", False, help="M2: Italian knights dismount to "
                        "fight knights on foot")))

    @property
    def roles(self) -> tuple[str, ...]:
        return SIDES

    def initial_state(self) -> BState:
        """B1: 13 knights a side, mounted, off the field until the deployment (I1)."""
        knights = {k.id: KnightState() for side in SIDES for k in self.kit.knights[side]}
        return BState(knights=frozen(knights), gone=frozen({s: () for s in SIDES}))

    def to_move(self, state: BState) -> tuple[str, ...]:
        if state.outcome is not None:
            return ()
        if step(state) in ("combat", "remounting", "setup", "initiative"):
            return (CHANCE,)
        return (state.active,) if state.active else ()

    def turn_rule(self, state: BState) -> str:
        return PHASE_RULES.get(step(state), "C1")

    # --- deciding ------------------------------------------------------------------------

    def decide(self, state: BState, action: Action) -> Sequence[Event]:
        waiting = self.to_move(state)
        if action.role not in waiting:
            raise IllegalAction(self.turn_rule(state), Sentence(
                "waiting for {waiting}, not {role}", role=words.side_said(action.role),
                waiting=words.side_said(waiting[0] if waiting else "")))
        batch = Batch(self.kit, state, self.options)
        before = state.combat
        PHASES.dispatch(step(state), action)(batch, action)
        if before is not None and batch.state.combat is None and not batch.ended():
            side = self.kit.side_of[before.attacker]
            if before.charge:
                next_charge(batch, side)
            else:
                next_activation(batch, side)
        return batch.events

    def evolve(self, state: BState, event: Event) -> BState:
        return evolve(state, event)

    def outcome(self, state: BState) -> Outcome | None:
        return state.outcome

    # --- what may be done ----------------------------------------------------------------

    def legal_actions(self, state: BState, role: str) -> Sequence[Action]:
        if role == CHANCE or role not in self.to_move(state):
            return []
        batch = Batch(self.kit, state, self.options)
        phase = step(state)
        if phase == "deploy":
            line = [h for h in self.kit.sides[role].melee_line if not state.at(h)]
            return [Action(role, "deploy", {"knight": k, "hex": h})
                    for k in unplaced(batch, role) for h in line]
        if phase == "charge":
            return [Action(role, "charge", {"knight": k}) for k in chargers(batch, role)]
        if phase == "choose":
            return [Action(role, "go_first"), Action(role, "go_second")]
        if phase == "command":
            return [Action(role, "command", {"knight": k.id}) for k in self.kit.knights[role]
                    if not state.knights[k.id].out]
        if phase == "orders":
            return self._orders(batch, role)
        if phase == "reorganize" and state.queue:
            knight = state.queue[0][0]
            return [Action(role, "recover", {"knight": knight}),
                    Action(role, "remount", {"knight": knight})]
        return []

    def _orderable(self, state: BState, role: str) -> list[str]:
        """D1.1, E: the side's knights that may still receive an order this turn."""
        if state.order_points.get(role, 0) <= 0:
            return []
        return [k.id for k in self.kit.knights[role] if not state.knights[k.id].ordered
                and not state.knights[k.id].out and state.knights[k.id].where]

    def _moves(self, batch: Batch, role: str, knight: str, attacks_only: bool = False
               ) -> list[Action]:
        """E1.1, F, F1: every hex the knight can stop on, and from each the attacks it may
        declare (only hexes next to an enemy knight can offer one)."""
        state = batch.state
        current = state.knights[knight]
        budget = movement_points(current.mounted)
        can_attack = state.attacks.get(role, 0) < MAX_ATTACKS
        near = {n for name, k in state.knights.items() if k.on_field
                and self.kit.side_of[name] != role for n in self.kit.neighbours[k.where]}
        found: list[Action] = []
        for spot, cost in sorted(reach(self.kit, state, knight).items()):
            if not attacks_only:
                found.append(Action(role, "move", {"knight": knight, "to": spot}))
            if can_attack and cost + 1 <= budget and spot in near:
                found += [Action(role, "move", {"knight": knight, "to": spot, "attack": target})
                          for target in attack_targets(batch, knight, spot)]
        return found

    def _reorganizable(self, state: BState, knight: str) -> bool:
        current = state.knights[knight]
        return (not current.mounted or current.hits > 0) and not current.attacked_by

    def _orders(self, batch: Batch, role: str) -> list[Action]:
        state = batch.state
        found: list[Action] = []
        for knight in self._orderable(state, role):
            found += self._moves(batch, role, knight)
            if self._reorganizable(state, knight):
                found.append(Action(role, "reorganize", {"knight": knight}))
        if state.passes.get(role, 0) > 0:
            found.append(Action(role, "pass"))
        return found

    def sample_chance(self, state: BState, rng: random.Random) -> Action:
        """The dice due now, each throw's faces smallest first: as the camera reads them
        (only their sum counts on every table, C1, H1), so a game the simulator plays is the
        game the table shows."""
        def two() -> list[int]:
            return sorted([rng.randint(1, 6), rng.randint(1, 6)])
        phase = step(state)
        if phase == "combat":
            assert state.combat is not None
            combat = state.combat
            if combat.step == "melee":
                rolled = {"attacker": two()} if combat.charge else \
                    {"attacker": two(), "defender": two()}
                return Action(CHANCE, "melee", rolled)
            verb = "unhorse" if combat.step == "unhorse" else "surrender"
            return Action(CHANCE, verb, {"knight": combat.tests[0], "die": rng.randint(1, 6)})
        if phase == "remounting":
            return Action(CHANCE, "remount_roll", {"knight": state.remounting,
                                                   "die": rng.randint(1, 6)})
        return Action(CHANCE, "initiative", {side: two() for side in SIDES})

    def random_action(self, state: BState, role: str, rng: random.Random) -> Action | None:
        """A legal action, the verb drawn first; half the time an attack where one is
        possible, and the order points normally from the highest VC (D1). Orders are drawn
        knight first, without listing every move of every knight."""
        if role in self.to_move(state) and step(state) == "orders":
            return self._random_order(state, role, rng)
        legal = list(self.legal_actions(state, role))
        if not legal:
            return None
        commands = [a for a in legal if a.verb == "command"]
        if commands and rng.random() < 0.8:
            return max(commands, key=lambda a: (self.kit.vc(str(a.args["knight"])),
                                                str(a.args["knight"])))
        verb = rng.choice(sorted({a.verb for a in legal}))
        return rng.choice([a for a in legal if a.verb == verb])

    def _random_order(self, state: BState, role: str, rng: random.Random) -> Action | None:
        batch = Batch(self.kit, state, self.options)
        knights = self._orderable(state, role)
        if knights and rng.random() < 0.5:
            attacks = [a for k in knights for a in self._moves(batch, role, k, True)]
            if attacks:
                return rng.choice(attacks)
        verbs = ["move"] if knights else []
        reorganizable = [k for k in knights if self._reorganizable(state, k)]
        verbs += ["reorganize"] if reorganizable else []
        verbs += ["pass"] if state.passes.get(role, 0) > 0 else []
        if not verbs:
            return None
        verb = rng.choice(verbs)
        if verb == "pass":
            return Action(role, "pass")
        if verb == "reorganize":
            return Action(role, "reorganize", {"knight": rng.choice(reorganizable)})
        return rng.choice(self._moves(batch, role, rng.choice(knights)))

    # --- views and words -----------------------------------------------------------------

    def view(self, state: BState, role: str) -> dict[str, Any]:
        """Everything on the table: nothing is hidden but the dice not yet rolled."""
        self.check_view_role(role)
        combat = state.combat
        return {
            "game": "barletta", "role": role, "phase": state.phase, "turn": state.turn,
            "active": state.active or None, "first": state.first or None,
            "initiative": state.initiative or None,
            "order_points": dict(state.order_points), "passes": dict(state.passes),
            "attacks": dict(state.attacks), "commanders": dict(state.commanders),
            "knights": {name: {"side": self.kit.side_of[name],
                               "name": self.kit.by_id[name].name, "vc": self.kit.vc(name),
                               "where": k.where or None, "mounted": k.mounted,
                               "hits": k.hits, "wounds": k.wounds, "out": k.out or None,
                               "ordered": k.ordered, "reorganizing": k.reorganizing,
                               "attacked_by": list(k.attacked_by), "fought": k.fought}
                        for name, k in state.knights.items()},
            "combat": None if combat is None else {
                "attacker": combat.attacker, "defender": combat.defender,
                "charge": combat.charge, "step": combat.step, "tests": list(combat.tests),
                "received": dict(combat.received)},
            "surrendered": {s: list(v) for s, v in state.gone.items()},
            "points": {s: points(self.kit, state, s) for s in SIDES},
            "outcome": None if state.outcome is None else state.outcome.to_json(),
        }

    def say(self, state: BState, action: Action, viewer: str, lang: str = "en") -> str:
        return words.say(self.kit, state, action, lang)

    def rule_summary(self, rule: str, lang: str = "en") -> str:
        return words.rule_summary(rule, lang)

    def picks(self, state: BState, lang: str = "en") -> list[Pick]:
        if CHANCE not in self.to_move(state):
            return []
        return picks.picks(self.kit, state, lang)

    def piece_name(self, piece: str, lang: str = "en") -> str:
        found = self.kit.by_id.get(piece)
        return found.name if found is not None else super().piece_name(piece, lang)

    def marks(self, state: BState, action: Action) -> dict[str, Any]:
        """A move's arrow and the attacked knight's hex."""
        if action.verb != "move" or action.role not in SIDES:
            return {}
        knight = state.knights.get(str(action.args.get("knight")))
        if knight is None:
            return {}
        arrows = [[knight.where, str(action.args.get("to"))]] \
            if knight.where != action.args.get("to") else []
        target = state.knights.get(str(action.args.get("attack")))
        return {"arrows": arrows, "places": [target.where] if target else []}
