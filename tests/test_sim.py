"""Whole random games of Sekigahara as a property test: every game ends with a legal winner
and every record verifies (the `companion sim` command, on a small number of games)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.cli import main
from companion.record import RecordError, read_record, replay
from companion.sim import simulate

SAMPLE = Path(__file__).parents[1] / "companion/games/sekigahara/samples/sekigahara-demo.jsonl"


def test_random_games_end_legally_and_their_records_verify(tmp_path):
    report = simulate("sekigahara", games=12, seed=100, out=tmp_path)
    figures = report.to_json()
    assert figures["all_records_verified"], figures["failures"]
    assert figures["games"] == 12 and figures["game"] == "sekigahara"
    assert sum(figures["wins"].values()) == sum(figures["endings"].values()) == 12
    assert set(figures["wins"]) <= {"ishida", "tokugawa", "draw"}
    assert all(" (rule 2." in ending for ending in figures["endings"])  # Sekigahara's 2.1/2.2
    records = sorted(tmp_path.glob("*.jsonl"))
    assert len(records) == 12
    verbs = {e.action.verb for r in records for e in read_record(r).entries}
    assert {"bid", "move", "declare", "deploy", "casualties"} <= verbs  # combat was fought


def test_sim_command_prints_the_figures_as_json():
    result = CliRunner().invoke(main, ["sim", "sekigahara", "--games", "3", "--seed", "7",
                                       "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert set(figures) >= {"game", "games", "games_per_s", "wins", "endings", "avg_actions",
                            "all_records_verified"}
    assert figures["games"] == 3 and figures["all_records_verified"] is True


@pytest.mark.parametrize("name", ["rumble-nation", "rumble", "skirmish"])
def test_any_game_is_simulated_by_its_name_or_alias(name, tmp_path):
    result = CliRunner().invoke(main, ["sim", name, "--games", "2", "--seed", "1", "--out",
                                       str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["game"] in ("rumble_nation", "skirmish") and figures["games"] == 2
    assert figures["all_records_verified"] and sum(figures["wins"].values()) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{figures['game']}-1.jsonl",
                                                         f"{figures['game']}-2.jsonl"]


def test_a_tampered_simulated_record_is_caught(tmp_path):
    simulate("sekigahara", games=1, seed=3, out=tmp_path)
    (path,) = tmp_path.glob("*.jsonl")
    lines = path.read_text().splitlines()
    number = next(i for i, line in enumerate(lines) if '"verb":"bid"' in line)
    data = json.loads(lines[number])
    data["action"]["args"]["card"] = "I-loyalty-1" if data["action"]["role"] == "tokugawa" \
        else "T-loyalty-1"  # a card of the other deck
    lines[number] = json.dumps(data)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(RecordError, match="hash chain") as info:  # the chain sees the edit
        read_record(path)
    assert info.value.line == number + 1
    unchained = [json.dumps({k: v for k, v in json.loads(line).items() if k != "hash"})
                 for line in lines if "seal" not in json.loads(line)]
    path.write_text("\n".join(unchained) + "\n")  # without the chain the rules see it
    result = replay(read_record(path))
    assert not result.ok and result.problem is not None
    assert (result.problem.line, result.problem.rule) == (number + 1, "6.3")


def test_the_shipped_sekigahara_sample_record_verifies_to_a_points_win():
    result = replay(read_record(SAMPLE))
    assert result.ok
    assert result.game.outcome is not None and result.game.outcome.rule == "2.2"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_sim_plays_shogun_with_each_player_count_and_its_records_keep_it(players, tmp_path):
    """`sim --players N` (issue 21): every game has N players and its record, replayed with
    the options it keeps, verifies."""
    result = CliRunner().invoke(main, ["sim", "shogun", "--players", str(players), "--games",
                                       "2", "--seed", "3", "--out", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["all_records_verified"] is True and figures["games"] == 2
    for path in tmp_path.glob("*.jsonl"):
        record = read_record(path)
        assert record.header.options["players"] == players
        again = replay(record)
        assert again.ok and len(again.game.rules.roles) == players


def test_sim_refuses_an_option_the_game_does_not_have():
    result = CliRunner().invoke(main, ["sim", "sekigahara", "--players", "3", "--games", "1"])
    assert result.exit_code == 1
    assert "unknown Sekigahara option(s): players (options: knowledge, edition)" in result.output
