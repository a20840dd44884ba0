"""`companion demo`'s summary tells the story (issue 32): how the game ended, every winner by
name and the points where the game keeps them, in plain sentences; no other game's words, no
jargon and no Python values; the engineers' figures only with --verbose (and in --json)."""

from __future__ import annotations

import pytest

from companion.cli.demo import _ending, _lines
from companion.demo import DemoOptions, DemoReport
from companion.games import game


@pytest.mark.parametrize(("name", "winner"), [("shogun", "Red wins"), ("barletta", "French wins"),
                                              ("rumble_nation", "Red wins")])
def test_the_summary_names_the_winner_and_the_points(name, winner):
    ending = _ending(game(name), DemoOptions(game=name, seed=1))
    assert ending.startswith(winner) and "(rule " in ending
    if name != "rumble_nation":  # its castles are in the rules' own words already
        assert "Points: " in ending


def test_a_game_stopped_early_says_so():
    ending = _ending(game("shogun"), DemoOptions(game="shogun", seed=1, max_actions=5))
    assert ending == "The game was stopped after 5 actions, before its end."


def test_the_lines_are_plain_words_and_the_figures_wait_for_verbose():
    figures = {**DemoReport(game="shogun", actions=40, questions=1, answered=1, hidden=12,
                            latency_ms_p50=27.9, latency_ms_p95=40.2, record_verified=True,
                            matches_script=True, frames=300, fps=12.5).to_json()}
    plain = "\n".join(_lines(figures, "Red wins: victory points (rule 7).", verbose=False))
    assert plain.startswith("Red wins")
    for jargon in ("True", "False", "None", "p50", "stable frame", "crowd", "blocks"):
        assert jargon not in plain, jargon
    assert "1 question (1 answered with a tap)" in plain and "within 28 ms" in plain
    assert "The record checks out" in plain
    verbose = "\n".join(_lines(figures, "", verbose=True))
    assert "p50 27.9 ms" in verbose and "12.5 frames/s" in verbose
