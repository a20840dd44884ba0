"""Every game's refusals in a player's words, in English and Italian (issue 32, "no ids and good
grammar"): a refused action's message is read on the acting side's screen, the referee's and in
the alerts, so it names pieces, places and sides as the players know them, never as the code
does.

The games come from the host's registry (`companion.games.all_games()`), as in
tests/test_every_game.py, whose seeded random play and near misses this sweep reuses: at sampled
positions, each legal action with an argument dropped, added or given another value (another
piece's or place's id, a junk value of the wrong type), another role's action, another verb,
and actions offered at earlier positions (other phases' verbs) go to the rules' `decide`. Every
refusal's message is said as the web says an alert (`say` with `sentences_in`, the game's
catalogs, then the engine's and the shell's) in both languages, and must hold no `snake_case`
token, no id the game's actions use that is not also the printed name (an id the Italian
catalog translates, as Sekigahara's "minimal" movement, is a word of the rulebook), no Python
value (`None`, `True`, `False`, a bracket, a quoted word), no lower-case side id, no unfilled
`{placeholder}`, and, in Italian, no English word of the templates (a catalog entry
missing). A side's colour before its pieces ("2 red soldiers") is a word, not a side named.
The refusal's `legal` words are checked the same way, as the hub says them (its alternatives
in the game's words), for the games that say their actions in words.

The engine's own refusals (a verb the phase does not take, an unknown argument: raised by the
host's `PhaseTable`, not by a game's rules) name the verb and argument as sent; a client sends
those, never a player, so they are left out here (`HOST_TEMPLATES`).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest
from test_every_game import Probe, near_misses, option_sets, play, remember

from companion.engine import CHANCE, Action, IllegalAction, Sentence, say
from companion.engine.core import Rules
from companion.games import all_games
from companion.web.replays import sentences_in

GAMES = sorted(all_games())
LANGS = ("en", "it")
HOST_TEMPLATES = frozenset({
    "'{verb}' is not possible in the {phase} phase",
    "{what} takes no {names} (it takes: {listed})",
})
"""The engine's refusals of a malformed request (see the module's docstring)."""
SNAKE = re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b")
PYTHON = re.compile(r"\b(None|True|False)\b|[{}\[\]]|'[\w.-]*'|\"[\w.-]*\"")
ENGLISH = re.compile(r"\b(the|and|is|are|not|has|have|must|only|this|that|with|from|takes|"
                     r"cannot|can|may|already|been|which|when|there|their|your|of|to|on|"
                     r"at|for|by|its|it|be|was|were|no longer|any|each|every|one|two|block|"
                     r"blocks|card|cards|turn|move|moves|phase|player|side|army|armies|"
                     r"knight|knights|provinces|region|soldiers?|dice|die)\b")
"""English words of the rules' templates: none may be left in an Italian message."""


@dataclass
class Found:
    """What a sweep of one game heard: each bad message once, with why and where."""

    problems: dict[str, str] = field(default_factory=dict)
    tally: Counter[str] = field(default_factory=Counter)


def ids_of(probe: Probe) -> set[str]:
    """The ids the game's actions use (the strings among their arguments, nested or not)."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(key)
                walk(item)
        elif isinstance(value, list | tuple | set | frozenset):
            for item in value:
                walk(item)

    for values in probe.values.values():
        walk(values)
    return {v for v in found if re.fullmatch(r"[a-z][a-z0-9_]*", v)}


def fixed_words(message: str) -> set[str]:
    """The words a message's templates write themselves (its own and its values' sentences):
    "camp" in "from its own camp", "chest" in "+1 war chest" are words, not ids sent."""
    if not isinstance(message, Sentence):
        return set()
    found = set(re.findall(r"[\w']+", message.template))
    for value in message.values.values():
        if isinstance(value, str):
            found |= fixed_words(value)
    return found


def faults(text: str, lang: str, ids: set[str], roles: tuple[str, ...]) -> list[str]:
    """What is wrong with one rendered message (empty: nothing)."""
    wrong = [f"snake_case {m!r}" for m in SNAKE.findall(text)]
    wrong += [f"Python value {m.group(0)!r}" for m in PYTHON.finditer(text)]
    words = set(re.findall(r"[\w']+", text))
    wrong += [f"id {w!r}" for w in sorted(ids & words)]
    wrong += [f"side id {r!r}" for r in roles
              if re.search(rf"\b{r}\b(?! (soldiers?|blocks?|armies|army|units?)\b)", text)]
    if lang == "it":
        wrong += [f"English {m.group(0)!r}" for m in ENGLISH.finditer(text)]
    return wrong


def legal_said(probe: Probe, exc: IllegalAction, role: str, lang: str) -> list[str]:
    """A refusal's legal words as the hub's alert says them (`Hub._alert_for`): the actions
    behind them in the rules' words where the refusal names them, else each word said."""
    rules, state = probe.game.rules, probe.game.state
    if type(rules).say is Rules.say:
        return []  # a game without words of its own (Skirmish) says every action raw
    if exc.legal and len(exc.alternatives) == len(exc.legal):
        return [rules.say(state, a, role, lang) for a in exc.alternatives]
    return [say(word, sentences_in(rules, lang)) for word in exc.legal]


def hear(probe: Probe, found: Found, candidates: list[Action]) -> None:
    """Each candidate the rules refuse: its message, said in each language, checked."""
    rules, state = probe.game.rules, probe.game.state
    says = {lang: sentences_in(rules, lang) for lang in LANGS}
    ids = {i for i in ids_of(probe) if says["it"](i) == i}  # "minimal": a word, translated
    roles = tuple(rules.roles)
    for action in candidates:
        try:
            rules.decide(state, action)
        except IllegalAction as exc:
            found.tally["refused"] += 1
            message = exc.message
            template = message.template if isinstance(message, Sentence) else str(message)
            if template in HOST_TEMPLATES:
                continue
            fixed = fixed_words(message)
            coded = {i for i in ids if not i.isalpha()}
            for lang in LANGS:
                text = say(message, says[lang])
                wrong = faults(text, lang, ids - fixed, roles)
                if wrong:
                    key = f"{lang}: {template}"
                    found.problems.setdefault(
                        key, f"[{exc.rule}] {text!r}: {', '.join(wrong)} (from {action})")
                for word in legal_said(probe, exc, action.role, lang):  # said, no templates:
                    wrong = faults(word, lang, coded, roles)  # "1 chest card" is no id
                    if wrong:
                        found.problems.setdefault(
                            f"{lang} legal: {template}",
                            f"[{exc.rule}] legal {word!r}: {', '.join(wrong)} (from {action})")
        except Exception:  # a crash is tests/test_every_game.py's to report
            found.tally["crashed"] += 1


def sweep(name: str, positions: int, check_every: float, budget: int) -> Found:
    """Seeded games of each option set until `positions` positions are heard from."""
    spec = all_games()[name]
    sets = option_sets(spec, every_combination=False)
    found = Found()
    for options in sets:
        heard, seed = 0, 0
        while heard < positions / len(sets) and seed < 40:
            probe = Probe(spec, options, seed)
            rng = random.Random(f"words:{name}:{seed}")
            for _ in play(probe, check_every):
                legal = [a for role in probe.game.to_move() if role != CHANCE
                         for a in probe.game.rules.legal_actions(probe.game.state, role)]
                hear(probe, found, near_misses(probe, legal, rng, budget))
                remember(probe, legal)
                heard += 1
            seed += 1
    found.tally["positions"] = heard
    return found


def check(found: Found, name: str) -> None:
    shown = "\n".join(f"{k}\n    {v}" for k, v in sorted(found.problems.items()))
    assert not found.problems, f"{name}: {len(found.problems)} message(s):\n{shown[:8000]}"
    assert found.tally["refused"], f"{name}: nothing was refused: {dict(found.tally)}"


@pytest.mark.parametrize("name", GAMES)
def test_refusals_name_things_as_the_players_do(name):
    check(sweep(name, positions=40, check_every=0.15, budget=30), name)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_refusal_words_sweep(name):
    check(sweep(name, positions=400, check_every=0.5, budget=80), name)
