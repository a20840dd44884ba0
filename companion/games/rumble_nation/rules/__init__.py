"""Rumble Nation (Yogi Shinichi): deployment by dice and tactic cards, then the war phase
(rules in shared/seeds/rumble-nation-rules-it.txt; docs/rumble-nation.md).

Options: `players` 2-4 (default 3), `daimyo` for the advanced rules (8). Everything on the board
is public; only the daimyo cards are face down until used.

`decide` goes through a `PhaseTable`: set-up (chance, 3), the daimyo cards' choice (8), the
deployment turns (5.1) and the dice being rolled (chance, 5.1.1). The war (5.2) and the scores
(6) follow the last deployment at once, with no decision to make.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cached_property
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
    PhaseTable,
    Pick,
    Rules,
    Sentence,
    register,
)
from companion.games.rumble_nation.kit import RumbleNationKit
from companion.games.rumble_nation.rules import picks, words
from companion.games.rumble_nation.rules.context import Batch
from companion.games.rumble_nation.rules.daimyo import decide_daimyo
from companion.games.rumble_nation.rules.legal import candidates
from companion.games.rumble_nation.rules.names import player_said
from companion.games.rumble_nation.rules.setup import (
    decide_choose_daimyo,
    decide_dice,
    decide_setup,
    sample_setup,
)
from companion.games.rumble_nation.rules.state import RNState, evolve, frozen
from companion.games.rumble_nation.rules.tactics import decide_tactic
from companion.games.rumble_nation.rules.turn import (
    decide_deploy,
    decide_reroll,
    decide_roll,
    ending,
    katana_values,
)

__all__ = ["RNState", "RumbleNationRules"]

Handler = Callable[[Batch, Action], None]

PHASE_RULES = {"setup": "3", "daimyo": "8", "deployment": "5.1", "dice": "5.1.1", "over": "6"}
"""The rule that says what each phase is for (cited when a verb does not belong, or someone
acts out of turn)."""


def phase_table(daimyo: bool) -> PhaseTable[Handler]:
    """Which verbs each phase takes; the daimyo card is a third choice of a turn only with the
    advanced rules (8)."""
    deployment: dict[str, Handler] = {
        "roll": decide_roll, "reroll": decide_reroll, "deploy": ending(decide_deploy),
        "tactic": ending(decide_tactic)}
    if daimyo:
        deployment["daimyo"] = ending(decide_daimyo)
    return PhaseTable({"setup": {"setup": decide_setup},
                       "daimyo": {"choose_daimyo": decide_choose_daimyo},
                       "deployment": deployment, "dice": {"dice": decide_dice}},
                      PHASE_RULES, default_rule="5.1")


def step(state: RNState) -> str:
    """The phase table's key: the deployment is waiting for dice while a roll is asked."""
    return "dice" if state.phase == "deployment" and state.rolling else state.phase


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

    @cached_property
    def phases(self) -> PhaseTable[Handler]:
        return phase_table(bool(self.options["daimyo"]))

    def initial_state(self) -> RNState:
        """3 ⑤: 18 soldiers each (8: 16 and a daimyo with the advanced rules)."""
        daimyo = self.options["daimyo"]
        soldiers = self.kit.components.soldiers_per_player - (2 if daimyo else 0)
        return RNState(players=self.roles, reserve=frozen(dict.fromkeys(self.roles, soldiers)),
                       daimyo_in_reserve=frozenset(self.roles) if daimyo else frozenset())

    def katana_values(self) -> tuple[int, ...]:
        """3 ④: without value 4 for 3 players, without 3 and 4 for 2."""
        return katana_values(self.kit, len(self.roles))

    def to_move(self, state: RNState) -> tuple[str, ...]:
        if state.outcome is not None:
            return ()
        if state.phase == "setup" or state.rolling:
            return (CHANCE,)
        return (state.players[state.turn],)

    def turn_rule(self, state: RNState) -> str:
        return PHASE_RULES.get(step(state), "5.1")

    # --- deciding ----------------------------------------------------------------------------

    def decide(self, state: RNState, action: Action) -> Sequence[Event]:
        """The action's events; a refusal of a player who may act lists what he may do instead
        (`legal` in words, `alternatives` as actions), the same verb and card first."""
        try:
            return self._decide(state, action)
        except IllegalAction as exc:
            if exc.alternatives or action.role not in self.to_move(state) \
                    or action.role == CHANCE:
                raise
            instead = self._instead(state, action)
            raise IllegalAction(exc.rule, exc.message,
                                legal=[words.say(self.kit, state, a) for a in instead],
                                alternatives=instead) from None

    def accepts(self, state: RNState, action: Action) -> bool:
        """Whether `decide` takes the action (without working out alternatives on refusal, nor
        what follows the turn, which refuses nothing)."""
        try:
            self._decide(state, action, checking=True)
        except IllegalAction:
            return False
        return True

    def _decide(self, state: RNState, action: Action, checking: bool = False) -> list[Event]:
        waiting = self.to_move(state)
        if action.role not in waiting:
            raise IllegalAction(self.turn_rule(state), Sentence(
                "it is not {player}'s turn: waiting for {waiting}",
                player=player_said(action.role),
                waiting=words.either([player_said(r) for r in waiting])
                or Sentence("nobody (game over)")))
        batch = Batch(self.kit, state, daimyo=bool(self.options["daimyo"]), checking=checking)
        self.phases.handler(step(state), action.verb)(batch, action)
        return batch.events

    def _instead(self, state: RNState, action: Action) -> list[Action]:
        """The role's legal actions most like the refused one: the same card, else the same
        verb, else any."""
        legal = list(self.legal_actions(state, action.role))
        card = action.args.get("card")
        same_card = [a for a in legal if a.verb == action.verb and a.args.get("card") == card]
        same_verb = [a for a in legal if a.verb == action.verb]
        return same_card or same_verb or legal

    def sample_chance(self, state: RNState, rng: random.Random) -> Action:
        if state.phase == "setup":
            return sample_setup(self.kit, len(self.roles), bool(self.options["daimyo"]), rng)
        return Action(CHANCE, "dice", {"values": sorted(rng.randint(1, 6) for _ in range(3))})

    # --- what may be done ----------------------------------------------------------------------

    def legal_actions(self, state: RNState, role: str) -> Sequence[Action]:
        if role not in self.to_move(state) or role == CHANCE:
            return []
        return [a for a in candidates(self.kit, state, role) if self.accepts(state, a)]

    def random_action(self, state: RNState, role: str, rng: random.Random) -> Action | None:
        """A legal action, the verb (and card) drawn first: a card with a hundred ways to play
        it is not a hundred times likelier than a roll of the dice."""
        groups: dict[tuple[str, str], list[Action]] = {}
        for action in self.legal_actions(state, role):
            groups.setdefault((action.verb, str(action.args.get("card", ""))), []).append(action)
        if not groups:
            return None
        verb = rng.choice(sorted({v for v, _ in groups}))
        group = rng.choice(sorted(k for k in groups if k[0] == verb))
        return rng.choice(groups[group])

    # --- the rest of the interface ---------------------------------------------------------------

    def picks(self, state: RNState, lang: str = "en") -> list[Pick]:
        """The set-up or the dice due, as the referee enters them by hand (picks.py)."""
        if CHANCE not in self.to_move(state):
            return []
        return picks.picks(self.kit, state, len(self.roles), bool(self.options["daimyo"]),
                           lang)

    def say(self, state: RNState, action: Action, viewer: str, lang: str = "en") -> str:
        """Regions and cards as printed, soldiers by colour; a daimyo card named only to its
        holder and the referee until it is turned up (8, 8.3): `words.say`."""
        return words.say(self.kit, state, action, viewer, lang)

    def say_recorded(self, state: RNState, action: Action, viewer: str,
                     lang: str = "en") -> str:
        """A daimyo card is turned face up as it is played (8.3): once recorded, its play is
        said to everyone as its holder reads it; the offer of it stays the holder's. Each line
        names who acted ("Red deploys 3 soldiers to Kyo"): four players read one log."""
        return words.said_done(self.kit, state, action, viewer, lang)

    def rule_summary(self, rule: str, lang: str = "en") -> str:
        """`data/rule_summaries.yaml`, a sub-rule falling back to its section's line."""
        return words.rule_summary(rule, lang)

    def marks(self, state: RNState, action: Action) -> dict[str, Any]:
        """Read from the events the action makes, so a mark is where soldiers really went: an
        arrow for each group moved region to region (a card, 5.1.2, 8.3), a place for a
        deployment's region (5.1.1) and for a region soldiers come into from a reserve or
        leave for one (Supporto, Ribellione, Ritirata, Mōri Motonari, Ōtomo Sōrin). Only
        regions: where soldiers stand is public, and the daimyo card's name is not in it."""
        arrows: list[list[str]] = []
        places: list[str] = []
        if action.role in self.roles:
            try:
                events = self._decide(state, action, checking=True)
            except IllegalAction:
                events = []
            for event in events:
                if event.type == "SoldiersDeployed":
                    places.append(str(event.data["region"]))
                elif event.type == "UnitsMoved":
                    home = state.daimyo_at.get(action.role)
                    moves = [(str(m["from"]), str(m["to"])) for m in event.data["moves"]]
                    moves += [(str(home), str(to)) for to in event.data.get("daimyo", {}).values()]
                    for frm, to in moves:
                        if frm == "reserve" or to == "reserve":
                            places.append(to if frm == "reserve" else frm)
                        elif [frm, to] not in arrows:
                            arrows.append([frm, to])
        return {"arrows": arrows, "places": sorted(set(places), key=places.index)}

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
