"""Every action of every game said in words, loud when wrong (issue 30).

Seeded random games of each game are played by the engine's own random player (`pick_action`,
chance drawn by `chance_rng` through `Game.play_chance`). In each position every legal action,
the chance action drawn and the line the game log keeps for the action taken (`say_recorded`)
are said to every viewer in English and Italian, and the board's marks for the action taken are
asked (`Rules.marks`, answered by the words modules). The words no longer fall back to plain
text, so a wording bug raises and fails here; so does a sentence showing a raw identifier (an
underscore, as in `oda_nobunaga`, or an id of the game's kit such as `osaka`), a template's
brace or the action's raw text.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.engine import CHANCE, PUBLIC, REFEREE, Action, Game, Rules, chance_rng, pick_action
from companion.games.barletta.rules import BarlettaRules
from companion.games.rumble_nation.rules import RumbleNationRules
from companion.games.sekigahara.rules import SekigaharaRules
from companion.games.shogun.rules import ShogunRules
from companion.kits import load_kit

LANGUAGES = ("en", "it")
GAMES = Path(__file__).parents[1] / "companion" / "games"


def _sekigahara_ids(kit: Any) -> set[str]:
    return {*(loc.id for loc in kit.locations), *(box.id for box in kit.boxes),
            *(disk.id for disk in kit.disks), *(b.id for b in kit.blocks),
            *(c.id for c in kit.cards)}


def _rumble_ids(kit: Any) -> set[str]:
    return {*kit.neighbours, *kit.components.tactic_cards, *kit.components.daimyo_cards}


def _barletta_ids(kit: Any) -> set[str]:
    return set(kit.by_id)


def _shogun_ids(kit: Any) -> set[str]:
    return {*(p.id for side in kit.sides.values() for p in side.provinces), *kit.event}


@dataclass(frozen=True)
class Sweep:
    """One game's random games: how to make its rules, with which options, how far to play,
    the kit's ids that must never be read, and the verbs the games must have said."""

    rules: Callable[[Any, dict[str, Any]], Rules[Any, Any]]
    kit: str
    options: tuple[dict[str, Any], ...]
    seeds: tuple[int, ...]
    actions: int
    ids: Callable[[Any], set[str]]
    verbs: frozenset[str]


SWEEPS = {
    "sekigahara": Sweep(
        SekigaharaRules, "sekigahara", ({"knowledge": "full"}, {"knowledge": "table"}),
        (1, 2), 70, _sekigahara_ids,
        frozenset({"deal", "draw_blocks", "discard", "bid", "choose_first", "movement_level",
                   "move", "recruit", "end_movement", "declare", "deploy", "done"})),
    "rumble_nation": Sweep(
        RumbleNationRules, "rumble_nation",
        ({"players": 4, "daimyo": True}, {"players": 2, "daimyo": False}), (1, 2, 3), 300,
        _rumble_ids,
        frozenset({"setup", "choose_daimyo", "roll", "dice", "reroll", "deploy", "tactic",
                   "daimyo"})),
    "barletta": Sweep(
        BarlettaRules, "barletta", ({}, {"grajano": True, "italian_courtesy": True}), (1, 2),
        160, _barletta_ids,
        frozenset({"initiative", "deploy", "charge", "melee", "unhorse", "go_first",
                   "command", "move", "reorganize"})),
    "shogun": Sweep(
        ShogunRules, "shogun", ({"players": 4}, {"players": 3}), (1, 2), 400, _shogun_ids,
        frozenset({"deal", "claim", "tray", "events", "lay_out", "plan", "event", "take",
                   "turn_card", "attack"})),
}


def _raw(ids: set[str]) -> re.Pattern[str]:
    """An id as the kit spells it, as a whole word (case matters: "Osaka" is a name, "osaka"
    an id)."""
    return re.compile(r"(?<![\w-])(" + "|".join(re.escape(i) for i in
                                                 sorted(ids, key=len, reverse=True))
                      + r")(?![\w-])")


def _positions(rules: Rules[Any, Any], seed: int, actions: int
               ) -> Iterator[tuple[Any, list[Action], Action]]:
    """(state, the actions to say there, the action taken) along a random game."""
    game = Game(rules, seed=seed)
    while game.outcome is None and len(game.history) < actions:
        state, roles = game.state, game.to_move()
        if CHANCE in roles:
            drawn, _ = game.play_chance()
            yield state, [drawn], drawn
            continue
        legal = [a for role in roles for a in rules.legal_actions(state, role)]
        taken = pick_action(game, roles, chance_rng(seed, -1 - len(game.history)))
        assert taken is not None, f"nobody can act after {len(game.history)} actions"
        yield state, legal, taken
        game.apply(taken)


def _check(text: str, action: Action, raw: re.Pattern[str], where: str) -> None:
    assert isinstance(text, str) and text.strip(), where
    assert not set("{}") & set(text), (where, text)
    assert "_" not in text, (where, text)
    assert action.text() not in text, (where, text)
    found = raw.search(text)
    assert found is None, (where, found.group(0), text)


@pytest.mark.parametrize("name", sorted(SWEEPS))
def test_every_action_of_random_games_is_said_without_error_or_raw_ids(name):
    sweep = SWEEPS[name]
    kit = load_kit(sweep.kit)
    raw = _raw(sweep.ids(kit))
    verbs: set[str] = set()
    said = 0
    for options in sweep.options:
        rules = sweep.rules(kit, options)
        viewers = (*rules.roles, PUBLIC, REFEREE) if rules.game_type.hidden_information \
            else (PUBLIC,)
        for seed in sweep.seeds:
            for state, actions, taken in _positions(rules, seed, sweep.actions):
                for action, lang, viewer in ((a, lang, v) for a in actions
                                             for lang in LANGUAGES for v in viewers):
                    where = f"{name} {options} seed {seed}: {action.text()} to {viewer} ({lang})"
                    _check(rules.say(state, action, viewer, lang), action, raw, where)
                    said += 1
                for lang, viewer in ((lang, v) for lang in LANGUAGES for v in viewers):
                    where = f"{name} {options} seed {seed}: the log's {taken.text()}"
                    _check(rules.say_recorded(state, taken, viewer, lang), taken, raw, where)
                rules.marks(state, taken)
                verbs |= {a.verb for a in actions}
    assert sweep.verbs <= verbs, f"the random games never said {sorted(sweep.verbs - verbs)}"
    assert said > 1000


def test_the_sweep_finds_a_raw_id_and_a_brace():
    """The checks above can fail: an id of the kit, an underscore or a brace is caught."""
    raw = _raw(_sekigahara_ids(load_kit("sekigahara")))
    action = Action("ishida", "move", {"from": "osaka"})
    for text in ("March 3 blocks osaka → Kyoto", "Mōri 3 to mori_box", "March {groups}",
                 "Bring I-mori-2-1 to Osaka"):
        with pytest.raises(AssertionError):
            _check(text, action, raw, "a made-up sentence")
    _check("March 3 blocks Osaka → Kyoto", action, raw, "a real sentence")


def test_no_game_words_catch_an_error_to_say_something_else():
    """The words of every game (and the names they use) let a failure surface: no `try` turns
    an exception into plain text; whether a screen shows something else is the host's call."""
    modules = sorted({*GAMES.glob("*/rules/words*.py"), *GAMES.glob("*/rules/names.py")})
    assert len(modules) >= 4
    caught = [f"{path.relative_to(GAMES)}:{node.lineno}" for path in modules
              for node in ast.walk(ast.parse(path.read_text("utf-8")))
              if isinstance(node, ast.Try)]
    assert not caught, caught
