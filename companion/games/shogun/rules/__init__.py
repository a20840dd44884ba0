"""Shogun (Dirk Henn, Queen Games): set-up and claiming the starting provinces, three action
rounds a year with secret plans and bids, the battle tower, winter, two years
(rules in shared/seeds/shogun-rules-it.txt, numbered by section in docs/shogun.md).

Options: `players` 3-5 (default 4) and the board's `side`: transcribed (the default: one printed
side as one public transcription gives it), sun or moon (the kit's example until a user enters
theirs). Hidden: each player's
plan and bid until revealed (a bid when the turn order is set, a planned card when its action
is carried out), and the order of the decks (drawn by chance, never kept in the state). The
tower's inside is known to the engine (what went in less what the tray showed); the views show
its count only.
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
    thaw,
)
from companion.games.shogun.kit import ACTIONS, SIDES, ShogunKit
from companion.games.shogun.rules import picks, words
from companion.games.shogun.rules.actions import (
    decide_attack,
    decide_defend,
    decide_deploy,
    decide_move,
    decide_stay,
    extra_possible,
    resolve,
    targets,
)
from companion.games.shogun.rules.context import SPECIALS, Batch, player_said
from companion.games.shogun.rules.flow import advance, cards_due
from companion.games.shogun.rules.round import (
    decide_daimyo,
    decide_event,
    decide_lay_out,
    decide_plan,
    decide_take,
    decide_turn_card,
    random_plan,
)
from companion.games.shogun.rules.setup import (
    decide_claim,
    decide_deal,
    decide_draw,
    decide_drawn,
    decide_events,
    decide_place,
    decide_reveal,
    initial,
)
from companion.games.shogun.rules.state import ShogunState, evolve
from companion.games.shogun.rules.tower import decide_tray, sample_tray
from companion.games.shogun.rules.winter import decide_revolt, decide_revolts, revolts_due

__all__ = ["ShogunRules", "ShogunState"]

Handler = Callable[[Batch, Action], None]

PHASE_RULES = {"deal": "2.2", "claim": "2.2", "drawing": "2.2", "place": "2.2", "load": "2.3",
               "events": "2.4", "layout": "3.1", "plan": "3.3", "event": "3.4", "ties": "3.5",
               "special": "3.5", "actions": "3.6", "revolts": "5.2", "over": "7"}
"""The rule that says what each phase is for."""


def _tray(b: Batch, action: Action) -> None:
    decide_tray(b, action)
    resolve(b)


PHASES: PhaseTable[Handler] = PhaseTable({
    "deal": {"deal": decide_deal},
    "claim": {"claim": decide_claim, "draw": decide_draw, "reveal": decide_reveal},
    "drawing": {"drawn": decide_drawn}, "place": {"place": decide_place},
    "load": {"tray": _tray, "events": decide_events}, "events": {"events": decide_events},
    "layout": {"lay_out": decide_lay_out}, "plan": {"plan": decide_plan},
    "event": {"event": decide_event}, "ties": {"daimyo": decide_daimyo},
    "special": {"take": decide_take},
    "actions": {"turn_card": decide_turn_card, "tray": _tray, "move": decide_move,
                "stay": decide_stay, "attack": decide_attack, "deploy": decide_deploy,
                "defend": decide_defend},
    "revolts": {"revolts": decide_revolts, "revolt": decide_revolt, "tray": _tray},
}, PHASE_RULES, default_rule="3")


MOST_SUGGESTED = 12
"""A refusal of a verb out of turn suggests at most this many of the legal actions instead."""
CHOICES = {"move": ("move", "stay"), "attack": ("attack",), "deploy": ("deploy",),
           "defence": ("defend",)}
"""The verbs that answer each choice a player is asked mid-action: the move after deploy 1
(4.3), the battle's target (4.4), the 6 armies card's deploy (3.2), the defender's +1 army
(3.2)."""


def waiting(state: ShogunState) -> dict[str, tuple[str, ...]]:
    """Who may act now, and with which verbs."""
    if state.outcome is not None:
        return {}
    pending = state.pending
    if pending is not None:
        if pending["kind"] in ("battle", "revolt", "load"):
            return {CHANCE: ("tray",)}
        return {str(pending["player"]): CHOICES[str(pending["kind"])]}
    phase = state.phase
    simple = {"deal": "deal", "drawing": "drawn", "load": "events", "events": "events",
              "layout": "lay_out", "event": "event", "ties": "daimyo"}
    if phase in simple:
        return {CHANCE: (simple[phase],)}
    if phase == "claim":
        if len(state.face_up) < 2 and state.deck:
            return {CHANCE: ("reveal",)}
        return {state.players[state.claimer]: ("claim", "draw") if state.deck else ("claim",)}
    if phase == "place":
        return {state.players[state.claimer]: ("place",)}
    if phase == "plan":
        return {p: ("plan",) for p in state.players if p not in state.plans}
    if phase == "special":
        return {state.choosing[0]: ("take",)}
    if phase == "actions":
        return {CHANCE: ("turn_card",)} if len(state.row) < cards_due(state.step) else {}
    if phase == "revolts" and state.winter_queue:
        player = state.winter_queue[0]
        return {CHANCE: ("revolts",)} if player not in state.revolts else \
            {player: ("revolt",)}
    return {}


@register
class ShogunRules(Rules[ShogunState, ShogunKit]):
    game_type = GameType(
        name="shogun", title="Shogun", kit="shogun", min_players=3, max_players=5,
        chance=True, hidden_information=True, rulebook="shared/seeds/shogun-rules-it.txt",
        turn_rule="3.6", end_rule="7", setup_rule="2",
        options=(Option("players", 4, (3, 4, 5), help="how many play (2.1)"),
                 Option("side", SIDES[0], SIDES,
                        help="the board's side (2): transcribed (one printed side, to check "
                             "against your box), or the example's sun or moon")),
        lists_every_action=False)

    @cached_property
    def roles(self) -> tuple[str, ...]:
        return tuple(self.kit.components.colours[: self.options["players"]])

    def initial_state(self) -> ShogunState:
        return initial(self.kit, self.roles, str(self.options["side"]))

    def to_move(self, state: ShogunState) -> tuple[str, ...]:
        return tuple(waiting(state))

    def turn_rule(self, state: ShogunState) -> str:
        return PHASE_RULES.get(state.phase, "3")

    def decide(self, state: ShogunState, action: Action) -> Sequence[Event]:
        verbs = waiting(state).get(action.role)
        if verbs is None:
            raise IllegalAction(self.turn_rule(state), Sentence(
                "{role} may not act now", role=player_said(action.role)))
        if action.verb not in verbs:
            instead = list(self.legal_actions(state, action.role))[:MOST_SUGGESTED]
            raise IllegalAction(self.turn_rule(state), Sentence(
                "this move is not possible now"),
                legal=[self.say(state, a, action.role) for a in instead],
                alternatives=instead)
        batch = Batch(self.kit, state)
        PHASES.handler(state.phase, action.verb)(batch, action)
        advance(batch)
        return batch.events

    def evolve(self, state: ShogunState, event: Event) -> ShogunState:
        return evolve(state, event)

    def outcome(self, state: ShogunState) -> Outcome | None:
        return state.outcome

    def undo_barrier(self, action: Action, events: Sequence[Event]) -> bool:
        """Chance, and any step that turned a secret card up (a bid, a planned card). Not
        the tower's tray (6.2): it is the reading of cubes lying in the open, and taking it
        back draws nothing anew (the cubes stay as they fell), so the table may take back a
        misread tray with one tap (issue 36). The next planned card its turn passing turns up
        comes back unchanged when the tray is read again: plans are made before the round
        and never change, so taking it back lets nobody learn or choose anything anew."""
        if action.role == CHANCE and action.verb == "tray":
            return False
        return action.role == CHANCE or any(
            e.type in ("PlanRevealed", "BidsRevealed") for e in events)

    # --- chance ----------------------------------------------------------------------------

    def sample_chance(self, state: ShogunState, rng: random.Random) -> Action:
        verb = waiting(state)[CHANCE][0]
        if verb == "tray":
            return sample_tray(self.kit, state, rng)
        if verb == "deal":
            return Action(CHANCE, "deal", {"cards": rng.sample(sorted(state.deck), 2)})
        if verb in ("reveal", "drawn"):
            return Action(CHANCE, verb, {"card": rng.choice(sorted(state.deck))})
        if verb == "events":
            return Action(CHANCE, "events", {"cards": rng.sample(sorted(state.events_deck), 4)})
        if verb == "lay_out":
            return Action(CHANCE, "lay_out", {"actions": rng.sample(ACTIONS, 5),
                                              "specials": rng.sample(SPECIALS, 5)})
        if verb == "event":
            return Action(CHANCE, "event", {"card": rng.choice(sorted(state.events_up))})
        if verb == "daimyo":
            group = list(state.ties[0])
            return Action(CHANCE, "daimyo", {"order": rng.sample(group, len(group))})
        if verb == "turn_card":
            left = [a for a in ACTIONS if a not in state.row]
            return Action(CHANCE, "turn_card", {"card": rng.choice(left)})
        player = state.winter_queue[0]
        batch = Batch(self.kit, state)
        due = revolts_due(batch, player)
        return Action(CHANCE, "revolts", {"player": player, "provinces": rng.sample(
            state.provinces_of(player), due)})

    # --- what may be done ------------------------------------------------------------------

    def legal_actions(self, state: ShogunState, role: str) -> Sequence[Action]:
        verbs = waiting(state).get(role)
        if verbs is None or role == CHANCE:
            return []
        found: list[Action] = []
        for verb in verbs:
            found += self._candidates(state, role, verb)
        return found

    def _candidates(self, state: ShogunState, role: str, verb: str) -> list[Action]:
        if verb == "claim":
            return [Action(role, "claim", {"card": c, "group": g}) for c in state.face_up
                    for g in sorted(set(state.groups[role]))]
        if verb == "draw":
            return [Action(role, "draw", {})]
        if verb == "place":
            return [Action(role, "place", {"group": g}) for g in sorted(set(state.groups[role]))]
        if verb == "plan":
            plans: dict[str, Action] = {}
            for n in range(3):
                plan = random_plan(state, role, random.Random(f"{role}:{state.year}:"
                                                              f"{state.season}:{n}"))
                plans.setdefault(plan.text(), plan)
            return list(plans.values())
        if verb == "take":
            return [Action(role, "take", {"card": c}) for i, c in enumerate(state.specials)
                    if i not in state.taken.values()]
        if verb == "stay":
            return [Action(role, "stay", {})]
        if verb in ("move", "attack"):
            return self._movements(state, role, verb)
        if verb == "deploy":
            assert state.pending is not None
            return [Action(role, "deploy", {"armies": n}) for n in state.pending["armies"]]
        if verb == "defend":
            return [Action(role, "defend", {"extra": True}),
                    Action(role, "defend", {"extra": False})]
        if verb == "revolt":
            return [Action(role, "revolt", {"province": p}) for p in state.revolts[role]]
        return []

    def _movements(self, state: ShogunState, role: str, verb: str) -> list[Action]:
        """4.3, 4.4: each adjacent province and number of armies; for a battle by the holder
        of the +1 attack card, with the extra army (the default) and without it (3.2)."""
        assert state.pending is not None
        origin = str(state.pending["province"])
        batch = Batch(self.kit, state)
        most = state.armies.get(origin, 0) - 1
        found: list[Action] = []
        for to in targets(batch, role, origin, own_only=verb == "move"):
            choose = verb == "attack" and extra_possible(batch, role, "attack", to)
            for n in range(1, most + 1):
                found.append(Action(role, verb, {"to": to, "armies": n}))
                if choose:
                    found.append(Action(role, verb, {"to": to, "armies": n, "extra": False}))
        return found

    def random_action(self, state: ShogunState, role: str, rng: random.Random) -> Action | None:
        """A plan drawn whole (not one of the three samples), otherwise a legal action with
        the verb drawn first."""
        verbs = waiting(state).get(role)
        if not verbs or role == CHANCE:
            return None
        if "plan" in verbs:
            return random_plan(state, role, rng)
        verb = rng.choice(verbs)
        found = self._candidates(state, role, verb) or list(self.legal_actions(state, role))
        return rng.choice(found) if found else None

    def picks(self, state: ShogunState, lang: str = "en") -> list[Pick]:
        """The chance step due, as the referee enters it by hand (`picks.py`)."""
        verbs = waiting(state).get(CHANCE)
        return picks.picks(self.kit, state, verbs[0], lang) if verbs else []

    # --- words and views -------------------------------------------------------------------

    def say(self, state: ShogunState, action: Action, viewer: str, lang: str = "en") -> str:
        return words.say(self.kit, state, action, viewer, lang)

    def begins_turn(self, event: Event) -> bool:
        """A replay steps by action: a round's cards laid out, then each card turned (3.6)."""
        return event.type in ("CardsLaidOut", "ActionCardTurned")

    def rule_summary(self, rule: str, lang: str = "en") -> str:
        return words.rule_summary(rule, lang)

    def marks(self, state: ShogunState, action: Action) -> dict[str, Any]:
        """An arrow for armies moved or attacking; a place for a group placed."""
        if action.verb in ("move", "attack") and state.pending is not None:
            return {"arrows": [[str(state.pending["province"]), str(action.args.get("to"))]],
                    "places": []}
        return {}

    def view(self, state: ShogunState, role: str) -> dict[str, Any]:
        """Everything on the table; a plan and a bid only to their player (and the referee)
        until turned up; the tower's inside as a count."""
        sees_all = role == REFEREE
        plans = {p: dict(plan) for p, plan in state.plans.items() if sees_all or p == role}
        bids = {p: b for p, b in state.bids.items()
                if sees_all or p == role or state.bids_shown}
        return {
            "game": "shogun", "role": role, "phase": state.phase, "year": state.year,
            "season": state.season, "side": state.side, "players": list(state.players),
            "to_move": [r for r in waiting(state) if r != CHANCE],
            "owner": dict(state.owner), "armies": dict(state.armies),
            "buildings": {p: list(b) for p, b in state.buildings.items()},
            "markers": dict(state.markers), "reserve": dict(state.reserve),
            "chests": dict(state.chests), "rice": dict(state.rice), "vp": dict(state.vp),
            "groups": {p: list(g) for p, g in state.groups.items()},
            "face_up": list(state.face_up), "deck": len(state.deck),
            "farmers": state.farmers, "tray": dict(state.tray),
            "tower": dict(state.tower) if sees_all else sum(state.tower.values()),
            "events_up": list(state.events_up), "event": state.event,
            "actions": list(state.row), "specials": list(state.specials),
            "taken": dict(state.taken), "order": list(state.order), "step": state.step,
            "turn": state.turn, "planned": sorted(state.plans), "plans": plans, "bids": bids,
            "shown": {p: dict(s) for p, s in state.shown.items()},
            "pending": None if state.pending is None else _public(state.pending),
            "revolts": {p: list(v) for p, v in state.revolts.items()},
            "outcome": None if state.outcome is None else state.outcome.to_json(),
        }


def _public(pending: Any) -> dict[str, Any]:
    """The awaited step, as JSON (nothing secret: battles and choices happen in the open)."""
    return dict(thaw(pending))
