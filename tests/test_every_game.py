"""Properties every registered game must have, checked at positions of seeded random play.

The games come from `companion.games.all_games()`, so a new game package is covered the day it
declares `GAME`; each is played with its default options and with each other value of every
option its `GameType` declares. At each position reached, for every role that may act:

(a) every action `legal_actions` offers is accepted by `decide`;
(b) near misses (another role's action, an action offered at an earlier position, an action with
    an argument dropped, added or given another value, another verb) are tried through
    `Game.apply`: every refusal names its rule, leaves the game exactly as it was, and each of
    its `alternatives` (the actions behind the `legal` words) is accepted when played;
(c) no two offered actions have the same effect (the same events);
(d) replaying the accepted actions rebuilds the same game, and folding their events over the
    initial state gives the same state;
(e) in the slow sweep only, for games whose `GameType.lists_every_action` says so: a near miss
    that is accepted has the effect of some offered action. A game that lists a sample where
    the choices are combinatorial (Sekigahara: how a stack splits, which cards to discard)
    declares it, and (a)-(d) still hold for it.

The default run checks about a hundred positions per game in a few seconds; `-m slow` sweeps
more seeds, half the positions, every combination of options, and (e).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import product
from typing import Any

import pytest

from companion.engine import CHANCE, Action, Game, IllegalAction, fold, pick_action
from companion.engine.core import chance_rng
from companion.games import GameSpec, all_games
from companion.kits import load_kit

GAMES = sorted(all_games())
JUNK: tuple[Any, ...] = (None, -1, 0, 1, 99, True, "nowhere", "", [], {}, [0, 1], {"x": 1})
"""Values no game's arguments are likely to take (and a few that some games do)."""
MAX_SEEDS = 40
"""Games played per option set at most, however short they are."""


def option_sets(spec: GameSpec, every_combination: bool) -> list[dict[str, Any]]:
    """The defaults, then each other declared value of each option (or all combinations)."""
    values: dict[str, list[Any]] = {}
    for option in spec.rules.game_type.options:
        others = list(option.choices)
        if isinstance(option.default, bool):
            others = [option.default, not option.default]
        values[option.name] = [option.default, *(v for v in others if v != option.default)]
    if every_combination:
        return [dict(zip(values, combo, strict=True)) for combo in product(*values.values())]
    found: list[dict[str, Any]] = [{}]
    for name, choices in values.items():
        found += [{name: value} for value in choices[1:]]
    return found


@dataclass
class Probe:
    """One game being played at random, with what the checks have learned along the way."""

    spec: GameSpec
    options: dict[str, Any]
    seed: int
    game: Game[Any] = field(init=False)
    earlier: list[Action] = field(default_factory=list)
    """Actions offered at earlier positions (near misses now)."""
    values: dict[str, list[Any]] = field(default_factory=dict)
    """Argument values seen, by key: another key's plausible value is a realistic near miss."""
    complete: bool = False
    """Whether to check (e): every accepted action's effect is offered (the slow sweep)."""
    problems: list[str] = field(default_factory=list)
    tally: Counter[str] = field(default_factory=Counter)
    """What was checked: positions, offered actions, refusals, alternatives played."""

    def __post_init__(self) -> None:
        self.game = Game(self.rules(), seed=self.seed)

    def rules(self) -> Any:
        return self.spec.rules(load_kit(self.spec.kit), self.options)

    def fail(self, text: str) -> None:
        where = f"{self.spec.name} {self.options} seed {self.seed} after " \
                f"{len(self.game.history)} actions"
        self.problems.append(f"{where}: {text}")


def play(probe: Probe, check_every: float, max_actions: int = 3000) -> Iterator[None]:
    """Random play as the simulator plays it; yields at the positions to check."""
    game = probe.game
    choices = random.Random(probe.seed)
    while game.outcome is None and len(game.history) < max_actions:
        if choices.random() < check_every:
            yield
        step = len(game.history)
        roles = game.to_move()
        if CHANCE in roles:
            game.play_chance()
            continue
        action = pick_action(game, roles, chance_rng(game.seed, -1 - step))
        assert action is not None, f"{probe.spec.name}: a dead end after {step} actions"
        game.apply(action)
    yield  # the final position too


def offered(probe: Probe) -> dict[Action, tuple[str, ...]]:
    """(a) and (c): each offered action with its events, as text."""
    game, rules = probe.game, probe.game.rules
    found: dict[Action, tuple[str, ...]] = {}
    for role in game.to_move():
        by_effect: dict[tuple[str, ...], Action] = {}
        for action in rules.legal_actions(game.state, role):
            try:
                events = tuple(e.text() for e in rules.decide(game.state, action))
            except IllegalAction as exc:
                probe.fail(f"(a) offered {action} is refused: {exc}")
                continue
            twin = by_effect.setdefault(events, action)
            if twin != action:
                probe.fail(f"(c) {twin} and {action} are both offered with the same events")
            found[action] = events
    probe.tally["offered"] += len(found)
    return found


def remember(probe: Probe, actions: list[Action]) -> None:
    """Keep the latest offered actions and argument values, for later near misses."""
    for action in actions:
        for key, value in action.args.items():
            probe.values[key] = [*probe.values.get(key, [])[-199:], value]
    probe.earlier = (probe.earlier + actions)[-200:]


def variants(action: Action, probe: Probe, rng: random.Random) -> list[Action]:
    """Near misses of one action: each argument dropped, another value, one more argument."""
    args = dict(action.args)
    found = [Action(action.role, action.verb, {**args, "unexpected": 1})]
    for key in args:
        found.append(Action(action.role, action.verb,
                            {k: v for k, v in args.items() if k != key}))
        seen = probe.values.get(key, [])
        pool = [*rng.sample(seen, min(3, len(seen))), *rng.sample(JUNK, 2)]
        found += [Action(action.role, action.verb, {**args, key: value}) for value in pool]
    return found


def near_misses(probe: Probe, legal: list[Action], rng: random.Random,
                budget: int) -> list[Action]:
    """(b)'s candidates: mostly near misses of what is legal now or was legal earlier."""
    roles = [*probe.game.rules.roles, CHANCE]
    found: list[Action] = list(rng.sample(probe.earlier, min(budget // 4, len(probe.earlier))))
    for action in rng.sample(legal, min(budget // 4, len(legal))):
        found.append(Action(rng.choice(roles), action.verb, action.args))
        found += variants(action, probe, rng)
        found.append(Action(action.role, rng.choice(legal).verb, action.args))
    for role in probe.game.to_move():
        found.append(Action(role, "fly", {}))
    rng.shuffle(found)
    return found[:budget]


def try_refusals(probe: Probe, legal: dict[Action, tuple[str, ...]], candidates: list[Action]
                 ) -> None:
    """(b) and (d): every refusal names a rule, changes nothing, and its alternatives play;
    with `probe.complete`, (e): whatever is accepted has the effect of something offered."""
    trial = Game.from_state(probe.game.rules, probe.game.state, seed=probe.seed)
    before = repr(trial.state)
    effects = set(legal.values())
    for action in candidates:
        try:
            trial.apply(action)
        except IllegalAction as exc:
            probe.tally["refused"] += 1
            if not exc.rule or not exc.message:
                probe.fail(f"(b) {action} is refused without a rule or a message: {exc!r}")
            if repr(trial.state) != before or trial.history:
                probe.fail(f"(d) the refused {action} changed the game")
            check_alternatives(probe, trial, legal, action, exc)
            continue
        except Exception as exc:  # a crash, not a refusal: reported with the rest
            probe.fail(f"(b) {action} raised {type(exc).__name__}: {exc}")
            trial = Game.from_state(probe.game.rules, probe.game.state, seed=probe.seed)
            continue
        events = tuple(e.text() for e in trial.history[-1].events)
        if probe.complete and action.role != CHANCE and events not in effects:
            probe.fail(f"(e) {action} is accepted, and nothing offered has its effect")
        trial.undo()


def check_alternatives(probe: Probe, trial: Game[Any], legal: dict[Action, tuple[str, ...]],
                       action: Action, exc: IllegalAction) -> None:
    for alternative in exc.alternatives:
        probe.tally["alternatives"] += 1
        if alternative in legal:
            continue  # offered, so already played in (a)
        try:
            trial.apply(alternative)
        except IllegalAction as again:
            probe.fail(f"(b) {action} is refused ({exc.rule}: {exc.message}) suggesting "
                       f"{alternative}, itself refused: {again}")
            continue
        trial.undo()


def check_position(probe: Probe, rng: random.Random, budget: int) -> None:
    probe.tally["positions"] += 1
    legal = offered(probe)
    state = probe.game.state
    if CHANCE in probe.game.to_move():
        drawn = probe.game.rules.sample_chance(state, random.Random(rng.random()))
        try:
            legal.setdefault(drawn, tuple(e.text() for e in probe.game.rules.decide(state,
                                                                                   drawn)))
        except IllegalAction as exc:
            probe.fail(f"(a) chance drew {drawn}, which is refused: {exc}")
    actions = list(legal)
    try_refusals(probe, legal, near_misses(probe, actions, rng, budget))
    if repr(probe.game.state) != repr(state):
        probe.fail("(d) deciding on actions changed the position")
    remember(probe, actions)


def check_replay(probe: Probe) -> None:
    """(d): the accepted actions rebuild the same game; the events fold into the same state."""
    game = probe.game
    again = Game(probe.rules(), seed=probe.seed)
    again.replay([ply.action for ply in game.history])
    if again.state != game.state or again.history != game.history:
        probe.fail("(d) replaying the accepted actions gives another game")
    events = [event for ply in game.history for event in ply.events]
    if fold(game.rules, game.rules.initial_state(), events) != game.state:
        probe.fail("(d) folding the events gives another state")


def sweep(name: str, positions: int, check_every: float, budget: int,
          every_combination: bool, complete: bool = False) -> Counter[str]:
    """Play seeded games of each option set until `positions` positions (shared among the
    option sets) are checked, then assert that no check failed and that checks were made."""
    spec = all_games()[name]
    sets = option_sets(spec, every_combination)
    problems: list[str] = []
    tally: Counter[str] = Counter()
    for options in sets:
        checked, seed = 0, 0
        while checked < positions / len(sets) and seed < MAX_SEEDS:
            probe = Probe(spec, options, seed, complete=complete)
            rng = random.Random(f"{name}:{seed}")
            for _ in play(probe, check_every):
                check_position(probe, rng, budget)
            check_replay(probe)
            problems += probe.problems
            tally += probe.tally
            checked += probe.tally["positions"]
            seed += 1
    shown = "\n".join(dict.fromkeys(problems))
    assert not problems, f"{len(problems)} problem(s) ({dict(tally)}):\n{shown[:6000]}"
    assert tally["positions"] and tally["offered"] and tally["refused"], \
        f"the sweep of {name} checked next to nothing: {dict(tally)}"
    return tally


@pytest.mark.parametrize("name", GAMES)
def test_every_game_offers_what_it_accepts_and_refuses_helpfully(name):
    sweep(name, positions=60, check_every=0.15, budget=24, every_combination=False)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_every_game_sweep(name):
    sweep(name, positions=600, check_every=0.5, budget=60, every_combination=True,
          complete=all_games()[name].rules.game_type.lists_every_action)


def test_the_option_sets_cover_each_declared_value():
    """The sweep's own premise: every declared choice of every option is played."""
    for spec in all_games().values():
        sets = option_sets(spec, every_combination=False)
        for option in spec.rules.game_type.options:
            seen = {s.get(option.name, option.default) for s in sets}
            assert set(option.choices) <= seen and option.default in seen
