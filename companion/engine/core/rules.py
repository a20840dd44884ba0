"""What every game's rules module provides, and the registry that finds one by name.

A game is a subclass of `Rules` (as a python-chess variant is a subclass of `Board`) that
declares its `GameType` as data (as OpenSpiel games do) and implements a handful of pure
functions of the state: who may act, what they may do, what an action means (`decide` returns
events or raises `IllegalAction`), how an event changes the state (`evolve`), and what each role
may see (`view`). Nothing here touches files, clocks, sensors or the network.
"""

from __future__ import annotations

import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from companion.engine.core.errors import IllegalAction, UnknownGame, UnknownRole
from companion.engine.core.picks import Pick
from companion.engine.core.sentence import Sentence
from companion.engine.core.values import Action, Event, Outcome, freeze

__all__ = [
    "CHANCE", "PUBLIC", "REFEREE", "GameType", "Option", "Rules", "game_names", "register",
    "rules_class",
]

S = TypeVar("S")
K = TypeVar("K")

CHANCE = "chance"
"""The role that rolls dice and draws from bags and decks; its actions are recorded too."""
PUBLIC = "public"
"""The view for the shared tablet: only what every player at the table may know."""
REFEREE = "referee"
"""The view that sees everything; never shown to a player."""


@dataclass(frozen=True)
class Option:
    """One option a game takes, as data: its name, default and what values it allows, so
    that screens and the command line can offer it and every game checks it the same way."""

    name: str
    default: Any
    choices: tuple[Any, ...] = ()
    """The allowed values (empty: any value of the default's type)."""
    minimum: int | None = None
    """For whole numbers: the least allowed."""
    help: str = ""

    def check(self, game: str, value: Any) -> Any:
        """The value, converted to the default's type; ValueError naming the option."""
        kind = type(self.default)
        if kind is bool:
            value = bool(value)
        elif kind is str:
            value = str(value)
        elif kind is int and (not isinstance(value, int) or isinstance(value, bool)):
            raise ValueError(f"{game} option '{self.name}' must be a whole number, "
                             f"got {value!r}")
        if self.choices and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise ValueError(f"{game} option '{self.name}' is one of {allowed}, not {value!r}")
        if self.minimum is not None and value < self.minimum:
            raise ValueError(f"{game} option '{self.name}' must be a whole number >= "
                             f"{self.minimum}, got {value!r}")
        return value


@dataclass(frozen=True)
class GameType:
    """A game's description as data: who plays, what is hidden, where its rules come from."""

    name: str
    title: str
    kit: str
    min_players: int
    max_players: int
    chance: bool
    hidden_information: bool
    rulebook: str
    turn_rule: str
    """Rule cited when someone acts out of turn."""
    end_rule: str
    """Rule cited when someone acts after the game has ended."""
    setup_rule: str = ""
    """Rule cited when the pieces on the table do not stand as the set-up or record has them."""
    options: tuple[Option, ...] = ()
    """The options the game takes (number of players, edition, ...), with their defaults."""
    lists_every_action: bool = True
    """Whether `legal_actions` lists every legal action. False where the choices are
    combinatorial (how to split a stack, which cards to discard): the game then lists a
    representative sample, each one accepted, and screens offer the rest by other means."""


class Rules(ABC, Generic[S, K]):
    """One game's rules over its immutable state type `S` and kit type `K`."""

    game_type: ClassVar[GameType]

    def __init__(self, kit: K, options: Mapping[str, Any] | None = None) -> None:
        self.kit = kit
        self.options: Mapping[str, Any] = freeze(self.check_options(dict(options or {})))

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Validate and complete the options from `GameType.options`; raise ValueError naming
        a bad one."""
        title = self.game_type.title
        declared = {o.name: o for o in self.game_type.options}
        unknown = sorted(set(options) - set(declared))
        if unknown:
            known = ", ".join(declared) or "none"
            raise ValueError(f"unknown {title} option(s): {', '.join(unknown)} "
                             f"(options: {known})")
        return {name: o.check(title, options.get(name, o.default))
                for name, o in declared.items()}

    @property
    @abstractmethod
    def roles(self) -> tuple[str, ...]:
        """The players' roles for these options (two to four players, say)."""

    @abstractmethod
    def initial_state(self) -> S:
        """The state before the first action; chance set-up comes as chance actions."""

    @abstractmethod
    def to_move(self, state: S) -> tuple[str, ...]:
        """Roles that may act now (`CHANCE` when a die or draw is due); empty when over."""

    @abstractmethod
    def legal_actions(self, state: S, role: str) -> Sequence[Action]:
        """Every action `role` may take now; the tablet offers only these."""

    @abstractmethod
    def decide(self, state: S, action: Action) -> Sequence[Event]:
        """What the action means, as events; raise IllegalAction (with its rule) if forbidden.

        Must not change `state`: a rejected action leaves the game as it was.
        """

    @abstractmethod
    def evolve(self, state: S, event: Event) -> S:
        """The state after one event. Pure: the same state and event give the same result."""

    @abstractmethod
    def view(self, state: S, role: str) -> dict[str, Any]:
        """What `role` (a player, `PUBLIC` or `REFEREE`) may see, as JSON data."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """The result once the game is over, else None."""

    def sample_chance(self, state: S, rng: random.Random) -> Action:
        """A chance action drawn with `rng` (uniform over the legal ones by default).

        Games whose chance outcomes are too many to list (a shuffled deck) override this.
        """
        return rng.choice(list(self.legal_actions(state, CHANCE)))

    def accepts(self, state: S, action: Action) -> bool:
        """Whether `decide` takes the action now: filters the candidates a game proposes."""
        try:
            self.decide(state, action)
        except IllegalAction:
            return False
        return True

    def turn_rule(self, state: S) -> str:
        """The rule cited when someone acts who may not act now (games refine it by phase)."""
        return self.game_type.turn_rule

    def correct(self, state: S, action: Action) -> Sequence[Event]:
        """A referee's correction (`referee correct {...}`): the table differs from the record,
        and the referee says how. Games that accept corrections override this."""
        raise IllegalAction("referee", Sentence("{game} takes no corrections",
                                                game=self.game_type.title))

    def undo_barrier(self, action: Action, events: Sequence[Event]) -> bool:
        """Whether this step may never be undone, nor anything before it: it drew at random or
        showed hidden information (as Yucata, Rally the Troops and Board Game Arena rule)."""
        return action.role == CHANCE

    def say(self, state: S, action: Action, viewer: str, lang: str = "en") -> str:
        """`action` (taken in `state`) in a player's words, as `viewer` may know it, in `lang`
        (`companion.i18n`): what buttons, questions, the game log and the replay's move list
        show. Never raw action text, and never a piece `viewer` may not see: a game with
        hidden information says another side's action without its hidden names.

        Games override it; this default names the verb and, where nothing is hidden from
        `viewer`, the arguments.
        """
        who = action.role.replace("_", " ")
        verb = action.verb.replace("_", " ")
        if self.game_type.hidden_information and viewer not in (action.role, REFEREE):
            return f"{who}: {verb}"
        detail = _phrase(action.args)
        return f"{who}: {verb}" + (f" ({detail})" if detail else "")

    def begins_turn(self, event: Event) -> bool:
        """Whether `event` begins a turn, where a replay's turn-by-turn steps stop: a player's
        turn (`TurnBegan`) by default; games whose turns are phases or cards say so."""
        return event.type == "TurnBegan"

    def say_recorded(self, state: S, action: Action, viewer: str, lang: str = "en") -> str:
        """A recorded action (the game log, the replay's moves) in words, said in the position
        `state` it was taken in. It is `say`, except where playing the action itself revealed
        what `say` would hide from `viewer` in that position (a card turned face up as it is
        played): games override it to name what the play showed everyone."""
        return self.say(state, action, viewer, lang)

    def rule_summary(self, rule: str, lang: str = "en") -> str:
        """Rule `rule` in one line of the project's own words, in `lang` (empty: none
        written). Shown beside a refusal's rule number and in the game log."""
        return ""

    def picks(self, state: S, lang: str = "en") -> list[Pick]:
        """The chance steps due now, as a referee enters them by hand when no camera or
        reader decided them (`companion.engine.core.picks`): what can be drawn, in words.
        Empty: nothing due, or the game lists its chance actions in `legal_actions`."""
        return []

    def piece_name(self, piece: str, lang: str = "en") -> str:
        """A piece's or a card's id as the players name it (the set check, the referee's
        tools); the id in plain words by default."""
        return piece.replace("_", " ").replace("-", " ")

    def marks(self, state: S, action: Action) -> dict[str, Any]:
        """What a screen may mark on the board for `action` taken in `state`, for everyone
        to see: `{"arrows": [[from, to], ...], "places": [...]}` (locations only, never a
        hidden piece). The tablet draws the last move with it."""
        return {}

    def random_action(self, state: S, role: str, rng: random.Random) -> Action | None:
        """A legal action of `role` picked at random (the simulator's player), or None.

        Games whose legal actions are costly to list in full override this with a faster draw
        from the same candidates.
        """
        choices = list(self.legal_actions(state, role))
        return rng.choice(choices) if choices else None

    def check_view_role(self, role: str) -> None:
        if role not in (*self.roles, PUBLIC, REFEREE):
            raise UnknownRole(
                f"{self.game_type.name} has no role '{role}' "
                f"(roles: {', '.join((*self.roles, PUBLIC, REFEREE))})"
            )


_REGISTRY: dict[str, type[Rules[Any, Any]]] = {}


def register(cls: type[Rules[S, K]]) -> type[Rules[S, K]]:
    """Class decorator: make a game findable by its `game_type.name`."""
    _REGISTRY[cls.game_type.name] = cls
    return cls


def _discover() -> None:
    """Import every game package (their rules register here), when first needed: the core
    names no game. Game packages import no I/O library at import time."""
    importlib.import_module("companion.games").all_games()


def rules_class(name: str) -> type[Rules[Any, Any]]:
    """The rules registered under `name` (`-` and `_` alike); UnknownGame lists the known."""
    _discover()
    key = name.strip().lower().replace("-", "_")
    try:
        return _REGISTRY[key]
    except KeyError:
        raise UnknownGame(f"no rules for game '{name}' (known: {', '.join(game_names())})") \
            from None


def game_names() -> list[str]:
    _discover()
    return sorted(_REGISTRY)


def _phrase(value: Any) -> str:
    """Arguments said plainly: `{"to": "osaka", "count": 2}` -> "to osaka, count 2"."""
    if isinstance(value, Mapping):
        return ", ".join(f"{str(k).replace('_', ' ')} {_phrase(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_phrase(v) for v in value)
    return "none" if value is None else str(value).replace("_", " ")
