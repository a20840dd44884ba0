"""A game in progress: rules, the current state, and the history that produced it.

The state is a fold of events over the initial state, so replaying the same actions always
rebuilds the same state. `apply` is all-or-nothing: the rules decide on the current state and
only when they accept the action are its events folded in.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from companion.engine.core.errors import IllegalAction
from companion.engine.core.rules import CHANCE, REFEREE, Rules
from companion.engine.core.sentence import Sentence
from companion.engine.core.values import Action, Event, Outcome

__all__ = ["Game", "Ply", "chance_rng", "fold"]

S = TypeVar("S")


@dataclass(frozen=True)
class Ply:
    """One accepted action and the events it produced."""

    action: Action
    events: tuple[Event, ...]


def chance_rng(seed: int, step: int) -> random.Random:
    """The generator for the chance action at `step`: a function of the seed and step only.

    Deriving a fresh generator per step (not one long stream) means a record cut at any point,
    or with a chance action entered by hand, continues exactly as a fresh run would.
    """
    digest = hashlib.sha256(f"{seed}:{step}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def fold(rules: Rules[S, Any], state: S, events: Iterable[Event]) -> S:
    """The state after each event in turn."""
    for event in events:
        state = rules.evolve(state, event)
    return state


class Game(Generic[S]):
    """A game of one set of rules. `seed` drives chance actions in simulations only."""

    def __init__(self, rules: Rules[S, Any], seed: int = 0) -> None:
        self.rules = rules
        self.seed = seed
        self._state = rules.initial_state()
        self._history: list[Ply] = []
        self._before: list[S] = []
        """The state before each ply (states are immutable values: keeping them is cheap and
        makes an undo a step back, not a replay from the start)."""

    @classmethod
    def from_state(cls, rules: Rules[S, Any], state: S, seed: int = 0) -> Game[S]:
        """A game that starts from `state` (a position built by a test, a cached step of a
        replay) with no history before it."""
        game = cls(rules, seed)
        game._state = state
        return game

    @property
    def state(self) -> S:
        return self._state

    @property
    def history(self) -> tuple[Ply, ...]:
        return tuple(self._history)

    def before(self, ply: int) -> S:
        """The state before ply `ply` (0-based) of the history: where that action was
        taken, for saying it in words afterwards."""
        return self._before[ply]

    @property
    def outcome(self) -> Outcome | None:
        return self.rules.outcome(self._state)

    def to_move(self) -> tuple[str, ...]:
        return self.rules.to_move(self._state)

    def legal_actions(self, role: str | None = None) -> list[Action]:
        """Legal actions of `role`, or of every role that may act now."""
        roles = [role] if role is not None else list(self.to_move())
        return [a for r in roles for a in self.rules.legal_actions(self._state, r)]

    def apply(self, action: Action) -> tuple[Event, ...]:
        """Apply `action` and return its events, or raise IllegalAction changing nothing.

        A `referee` action is a correction (`Rules.correct`), accepted whoever's turn it is.
        """
        if action.role == REFEREE:
            return self._correct(action)
        self._check_turn(action)
        try:
            events = tuple(self.rules.decide(self._state, action))
        except IllegalAction as exc:
            raise exc if exc.action is not None else exc.with_action(action) from None
        self._push(Ply(action, events))
        return events

    def _push(self, ply: Ply) -> None:
        self._before.append(self._state)
        self._state = fold(self.rules, self._state, ply.events)
        self._history.append(ply)

    def undo(self) -> Ply:
        """Take back the last ply (the record's undo rules are checked by the caller)."""
        if not self._history:
            raise IndexError("nothing to undo")
        self._state = self._before.pop()
        return self._history.pop()

    def _correct(self, action: Action) -> tuple[Event, ...]:
        if self.outcome is not None:
            raise IllegalAction(self.rules.game_type.end_rule, "the game is over", action=action)
        events = tuple(self.rules.correct(self._state, action))
        self._push(Ply(action, events))
        return events

    def _check_turn(self, action: Action) -> None:
        game_type = self.rules.game_type
        outcome = self.outcome
        if outcome is not None:
            raise IllegalAction(game_type.end_rule, Sentence(
                "the game is over ({how})", how=outcome.termination), action=action)
        if action.role not in (*self.rules.roles, CHANCE):
            raise IllegalAction(game_type.turn_rule, Sentence(
                "'{role}' is not a role in {game} (roles: {roles})", role=action.role,
                game=game_type.title, roles=", ".join(self.rules.roles)), action=action)
        waiting = self.to_move()
        if action.role not in waiting:
            raise IllegalAction(self.rules.turn_rule(self._state), Sentence(
                "{role} cannot act now: the game waits for {waiting}",
                role=_named(action.role), waiting=_either(waiting)), action=action)

    def play_chance(self) -> tuple[Action, tuple[Event, ...]]:
        """Draw and apply the chance action due now (simulation, full-knowledge mode)."""
        action = self.rules.sample_chance(self._state, chance_rng(self.seed, len(self._history)))
        return action, self.apply(action)

    def view(self, role: str) -> dict[str, Any]:
        """What `role` may see now; the only way state leaves the engine."""
        self.rules.check_view_role(role)
        return self.rules.view(self._state, role)

    def replay(self, actions: Sequence[Action]) -> None:
        """Apply each action in order (raising on the first illegal one)."""
        for action in actions:
            self.apply(action)


def _named(role: str) -> Sentence:
    """A role as the players call it (its catalog's word where the game has one): "Red",
    "Italians", "Ishida", never the id in lower case."""
    return Sentence(role.capitalize())


def _either(roles: Sequence[str]) -> Sentence:
    """The roles the game waits for, in words: "Red", "Red or Blue"."""
    if len(roles) == 1:
        return _named(roles[0])
    if len(roles) == 2:
        return Sentence("{one} or {other}", one=_named(roles[0]), other=_named(roles[1]))
    return Sentence("one of {roles}", roles=", ".join(r.capitalize() for r in roles))
