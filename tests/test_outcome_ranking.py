"""Outcomes that rank (issue 34): `Outcome` names every winner of a shared victory and the
order of the rest where the rules rank them, says it in words, and reads the JSON of an older
companion (no `winners`, no `ranking`) as before.

Per game: Shogun by points then war chests (7: tests/test_shogun_choices.py); Rumble Nation by
castles then katana (6); Sekigahara and La Disfida di Barletta one side against the other (2.1,
2.2; L1, L2: equal points in Barletta are a draw, both sides level)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.engine import Event, Outcome
from companion.engine.core import rank
from companion.games.barletta.rules.state import BState
from companion.games.barletta.rules.state import evolve as barletta_evolve
from companion.games.rumble_nation.rules.state import RNState
from companion.games.rumble_nation.rules.state import evolve as rumble_evolve
from companion.games.sekigahara.rules.state import SekigaharaState
from companion.games.sekigahara.rules.state import evolve as sekigahara_evolve
from companion.i18n import translator


def test_a_shared_victory_names_each_winner_and_who_lost() -> None:
    """Two level at the top share the victory; the rest are ranked below them."""
    ranking = rank({"red": (58, 4), "blue": (58, 4), "yellow": (55, 2)})
    assert ranking == (("red", "blue"), ("yellow",))
    outcome = Outcome.ranked("level", "7", ranking)
    assert outcome.winner is None and outcome.winners == ("red", "blue")
    assert not outcome.draw and outcome.place("yellow") == 2 and outcome.place("red") == 1
    assert outcome.to_json() == {"termination": "level", "winner": None, "rule": "7",
                                 "winners": ["red", "blue"],
                                 "ranking": [["red", "blue"], ["yellow"]]}
    assert Outcome.from_json(outcome.to_json()) == outcome


def test_everyone_level_is_a_draw_and_one_first_is_the_winner() -> None:
    draw = Outcome.ranked("points", "L1", (("italians", "french"),))
    assert draw.draw and draw.winner is None and draw.winners == ()
    assert draw.sentence() == "A draw: points (rule L1)"
    won = Outcome.between("points", "french", "L1", ("italians", "french"))
    assert won.winner == "french" and won.ranking == (("french",), ("italians",))
    assert won.sentence({"french": "the French"}) == "the French wins: points (rule L1)"


def test_an_older_outcome_reads_as_before() -> None:
    """The JSON and the constructor of before (termination, winner, rule) still work: the
    winner alone wins, no order is named."""
    old = Outcome.from_json({"termination": "castles", "winner": "red", "rule": "6"})
    assert old == Outcome("castles", "red", "6")
    assert old.winners == ("red",) and old.ranking == () and old.place("blue") is None
    assert Outcome("tie", None, "7").draw
    with pytest.raises(ValueError):
        Outcome("x", "red", "1", winners=("red", "blue"))


def test_the_outcome_is_said_in_italian() -> None:
    t = translator("it", "companion.engine")
    shared = Outcome.ranked("punti", "7", (("Ada", "Bo"), ("Cy",)))
    assert shared.sentence().say(t) == "Ada e Bo condividono la vittoria: punti (regola 7)"
    assert Outcome("punti", "Ada", "7").sentence().say(t) == "Vince Ada: punti (regola 7)"


def test_6_rumble_nation_ranks_by_castles_then_katana() -> None:
    """6 «Il giocatore con il punteggio maggiore è il vincitore. In caso di parità, il
    giocatore con il segnalino katana di valore maggiore»: every place, ties by katana."""
    state = RNState(players=("red", "blue", "yellow"))
    state = replace(state, katana={"red": 1, "blue": 3, "yellow": 2})
    ended = rumble_evolve(state, Event("GameEnded", {
        "winner": "yellow", "termination": "castles", "rule": "6",
        "scores": {"red": 20, "blue": 20, "yellow": 25}}))
    assert ended.outcome is not None
    assert ended.outcome.ranking == (("yellow",), ("blue",), ("red",))
    ended = rumble_evolve(state, Event("GameEnded", {
        "winner": "blue", "termination": "castles", "rule": "6",
        "scores": {"red": 20, "blue": 20, "yellow": 5}}))
    assert ended.outcome is not None
    assert ended.outcome.ranking == (("blue",), ("red",), ("yellow",))
    assert ended.outcome.winner == "blue"


def test_l1_barletta_equal_points_are_a_draw_with_both_sides_level() -> None:
    """L1: the higher points win; equal points draw (both sides in one place)."""
    ended = barletta_evolve(BState(), Event("GameEnded", {
        "termination": "victory points", "winner": None, "rule": "L1",
        "points": {"italians": 12, "french": 12}}))
    assert ended.outcome is not None and ended.outcome.draw
    assert ended.outcome.ranking == (("italians", "french"),)
    won = barletta_evolve(BState(), Event("GameEnded", {
        "termination": "no knight on the field", "winner": "french", "rule": "L2",
        "points": {"italians": 30, "french": 4}}))
    assert won.outcome is not None and won.outcome.ranking == (("french",), ("italians",))


def test_2_2_sekigahara_names_the_loser() -> None:
    state = SekigaharaState()
    ended = sekigahara_evolve(state, Event("GameEnded", {
        "termination": "week 7 is over", "winner": "ishida", "rule": "2.2"}))
    assert ended.outcome is not None
    assert ended.outcome.ranking == (("ishida",), ("tokugawa",))
