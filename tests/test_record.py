"""The game record format (docs/record-format.md): round trip, replay, and every way it breaks."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.cli import main
from companion.engine import Game, random_playout
from companion.games.skirmish.rules import SkirmishRules
from companion.kits import load_kit
from companion.record import RecordError, read_record, record_of, replay, write_record

SAMPLE = Path(__file__).parents[1] / "companion/games/skirmish/samples/skirmish-demo.jsonl"
KIT = load_kit("skirmish")


def simulated(seed: int = 4, turns: int = 30) -> Game:
    game = Game(SkirmishRules(KIT, {"turns": turns}), seed=seed)
    random_playout(game)
    return game


@pytest.fixture
def record_file(tmp_path):
    game = simulated()
    record = record_of(game, KIT, started_at=datetime(2026, 11, 22, 10, tzinfo=UTC),
                       source="simulator", players={"red": "Ana", "blue": "Ben"})
    path = tmp_path / "game.jsonl"
    write_record(path, record.header, record.entries)
    return path


def lines_of(path: Path) -> list[str]:
    return path.read_text().splitlines()


def unchain(path: Path) -> None:
    """Strip the hash chain and seal: a hand-written scenario, which the engine still checks."""
    lines = []
    for line in lines_of(path):
        data = json.loads(line)
        if "seal" not in data:
            data.pop("hash", None)
            lines.append(json.dumps(data))
    path.write_text("\n".join(lines) + "\n")


def rewrite(path: Path, number: int, edit, *, keep_chain: bool = False) -> None:
    """Replace file line `number` (1-based) by edit(parsed JSON) or by a raw string.

    Unless `keep_chain`, the record is first unchained, so the edit reaches the engine's own
    checks instead of being caught by the hash chain (see the integrity tests)."""
    if not keep_chain:
        unchain(path)
    lines = lines_of(path)
    new = edit(json.loads(lines[number - 1]))
    lines[number - 1] = new if isinstance(new, str) else json.dumps(new)
    path.write_text("\n".join(lines) + "\n")


def test_a_record_round_trips_and_replays_to_the_same_state(record_file):
    game = simulated()
    record = read_record(record_file)
    assert record.header.game == "skirmish"
    assert record.header.players == {"red": "Ana", "blue": "Ben"}
    assert [e.action for e in record.entries] == [p.action for p in game.history]
    assert [e.events for e in record.entries] == [p.events for p in game.history]
    result = replay(record)
    assert result.ok and result.applied == len(game.history)
    assert result.game.state == game.state
    assert [e.line for e in record.entries] == list(range(2, len(record.entries) + 2))


def test_the_shipped_sample_record_verifies():
    result = replay(read_record(SAMPLE))
    assert result.ok
    assert result.applied > 10
    assert result.game.outcome is not None


def test_at_line_n_shows_the_position_after_that_line(record_file):
    record = read_record(record_file)
    start = replay(record, upto_line=1)
    assert start.applied == 0
    assert start.game.state == start.game.rules.initial_state()
    middle = replay(record, upto_line=6)
    again = Game(SkirmishRules(KIT, {"turns": 30}))
    again.replay([e.action for e in record.entries[:5]])
    assert middle.applied == 5 and middle.game.state == again.state


def test_a_corrupt_line_is_named_by_number(record_file):
    rewrite(record_file, 5, lambda data: json.dumps(data)[:40])
    with pytest.raises(RecordError, match="not valid JSON") as info:
        read_record(record_file)
    assert info.value.line == 5
    assert str(info.value).startswith(f"{record_file}:5:")


def test_a_record_cut_off_mid_line_is_reported_as_truncated(record_file):
    text = record_file.read_text()
    record_file.write_text(text[: len(text) - 1])  # the final newline is lost: write interrupted
    with pytest.raises(RecordError, match="truncated") as info:
        read_record(record_file)
    assert info.value.line == len(lines_of(record_file))


def test_a_newer_format_version_is_refused_clearly(record_file):
    rewrite(record_file, 1, lambda data: {**data, "version": 2})
    with pytest.raises(RecordError, match="newer than this companion reads") as info:
        read_record(record_file)
    assert info.value.line == 1


def test_a_file_that_is_not_a_record_says_so(tmp_path):
    path = tmp_path / "notes.jsonl"
    path.write_text('{"hello": "world"}\n')
    with pytest.raises(RecordError, match="not a game record"):
        read_record(path)
    path.write_text("")
    with pytest.raises(RecordError, match="empty"):
        read_record(path)


def test_a_missing_or_repeated_line_breaks_the_sequence(record_file):
    lines = lines_of(record_file)
    record_file.write_text("\n".join(lines[:3] + lines[4:]) + "\n")
    with pytest.raises(RecordError, match="sequence number 4 where 3 was expected") as info:
        read_record(record_file)
    assert info.value.line == 4


def test_a_bad_action_line_names_the_field(record_file):
    rewrite(record_file, 3, lambda data: {**data, "source": "telepathy"})
    with pytest.raises(RecordError, match="source") as info:
        read_record(record_file)
    assert info.value.line == 3


@pytest.mark.parametrize(("edit", "message"), [
    (lambda h: {**h, "game": "chess"}, "no rules for game 'chess'"),
    (lambda h: {**h, "kit": {"id": "nowhere", "version": "1"}}, "cannot load kit 'nowhere'"),
    (lambda h: {**h, "kit": {"id": "skirmish", "version": "0.9"}}, "version 0.9"),
    (lambda h: {**h, "kit": {"id": "sekigahara", "version": "2011.1"}}, "is for sekigahara"),
    (lambda h: {**h, "options": {"turns": -1}}, "bad options"),
])
def test_a_header_the_engine_cannot_set_up_is_an_error_on_line_1(record_file, edit, message):
    rewrite(record_file, 1, edit)
    with pytest.raises(RecordError, match=message) as info:
        replay(read_record(record_file))
    assert info.value.line == 1


def test_an_action_the_rules_reject_is_pinpointed_with_its_rule(record_file):
    record = read_record(record_file)
    number = next(e.line for e in record.entries if e.action.verb == "move")
    rewrite(record_file, number, lambda data: {
        **data, "action": {**data["action"], "args": {**data["action"]["args"], "to": "moon"}}})
    result = replay(read_record(record_file))
    assert result.problem is not None
    assert (result.problem.line, result.problem.kind, result.problem.rule) == (
        number, "illegal", "S3.1")
    assert result.applied == number - 2


def test_events_that_differ_from_the_engine_are_a_divergence(record_file):
    rewrite(record_file, 2, lambda data: {**data, "events": data["events"][:1]})
    result = replay(read_record(record_file))
    assert result.problem is not None
    assert (result.problem.line, result.problem.kind) == (2, "divergence")


# --- integrity: the hash chain and the seal ----------------------------------------------------


def test_a_written_record_is_hash_chained_and_sealed(record_file):
    record = read_record(record_file)
    assert record.chained and record.sealed
    assert json.loads(lines_of(record_file)[-1])["seal"]["entries"] == len(record.entries)


def test_a_flipped_byte_is_caught_by_the_hash_chain(record_file):
    lines = lines_of(record_file)
    lines[3] = lines[3].replace('"red"', '"blue"', 1)  # still valid JSON, one word changed
    record_file.write_text("\n".join(lines) + "\n")
    with pytest.raises(RecordError, match="hash chain breaks here") as info:
        read_record(record_file)
    assert info.value.line == 4


def test_reordered_lines_are_caught(record_file):
    lines = lines_of(record_file)
    lines[2], lines[3] = lines[3], lines[2]
    record_file.write_text("\n".join(lines) + "\n")
    with pytest.raises(RecordError, match=r"sequence number|hash chain"):
        read_record(record_file)


def test_lines_cut_from_the_end_are_caught_by_the_seal(record_file):
    lines = lines_of(record_file)
    record_file.write_text("\n".join(lines[:-3] + lines[-1:]) + "\n")  # two actions gone
    with pytest.raises(RecordError, match="lines were removed") as info:
        read_record(record_file)
    assert info.value.line == len(lines) - 2


def test_an_unchained_scenario_still_reads_but_says_so(record_file):
    unchain(record_file)
    record = read_record(record_file)
    assert not record.chained and not record.sealed
    assert replay(record).ok


def test_a_line_without_hash_among_hashed_ones_is_caught(record_file):
    rewrite(record_file, 3, lambda data: {k: v for k, v in data.items() if k != "hash"},
            keep_chain=True)
    with pytest.raises(RecordError, match="no hash while others do") as info:
        read_record(record_file)
    assert info.value.line == 3


# --- the command line -----------------------------------------------------------------------

def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_replay_check_prints_ok_and_exits_0(record_file):
    result = run("replay", "--check", str(record_file))
    assert result.exit_code == 0, result.output
    assert "OK" in result.output


def test_replay_check_pinpoints_a_corrupt_line_and_exits_1(record_file):
    rewrite(record_file, 4, lambda data: "{garbage")
    result = run("replay", "--check", str(record_file))
    assert result.exit_code == 1
    assert f"{record_file}:4: not valid JSON" in result.output


def test_replay_check_reports_an_illegal_line_with_rule(record_file):
    rewrite(record_file, 2, lambda data: {**data, "action": {"role": "blue", "verb": "pass"}})
    result = run("replay", "--check", str(record_file))
    assert result.exit_code == 1
    assert ":line 2: illegal (rule S2.1)" in result.output


def test_replay_json_prints_the_final_public_view(record_file):
    result = run("replay", "--json", str(record_file))
    assert result.exit_code == 0
    view = json.loads(result.output)
    assert view["role"] == "public" and view["outcome"] is not None


def test_replay_at_and_role_show_a_players_view(record_file):
    result = run("replay", "--json", "--at", "1", "--role", "red", str(record_file))
    assert result.exit_code == 0
    view = json.loads(result.output)
    assert view["turn"] == 1
    assert len(view["locations"]["red_camp"]["red"]["blocks"]) == 4
    assert view["locations"]["blue_camp"]["blue"]["blocks"] == []


def test_replay_with_an_unknown_role_exits_1(record_file):
    result = run("replay", "--role", "green", str(record_file))
    assert result.exit_code == 1
    assert "no role 'green'" in result.output


def test_simulate_writes_a_record_that_verifies(tmp_path):
    out = tmp_path / "sim.jsonl"
    result = run("simulate", "skirmish", "--seed", "9", "--option", "turns=12",
                 "--player", "red=Ana", "--out", str(out))
    assert result.exit_code == 0, result.output
    record = read_record(out)
    assert record.header.seed == 9 and record.header.options == {"turns": 12}
    assert run("replay", "--check", str(out)).exit_code == 0


def test_simulate_names_an_unknown_game():
    result = run("simulate", "chess")
    assert result.exit_code == 1
    assert "no game called 'chess' (games: " in result.output and "sekigahara" in result.output


@pytest.mark.parametrize("command", [[], ["kit"], ["kit", "check"], ["kit", "list"], ["rules"],
                                     ["games"], ["games", "list"], ["games", "show"],
                                     ["games", "export"], ["games", "import"],
                                     ["games", "delete"], ["games", "repatch"], ["sim"],
                                     ["bench"], ["bench", "engine"], ["bench", "referee"],
                                     ["bench", "record"], ["bench", "web"],
                                     ["bench", "inputs"], ["bench", "vision"],
                                     ["replay"], ["simulate"], ["demo"], ["serve"],
                                     ["calibrate"], ["register"], ["print-tags"],
                                     ["print-card-labels"], ["hardware", "plan"]])
def test_every_command_has_help(command, tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "games.sqlite"))
    result = run(*command, "--help")
    assert result.exit_code == 0
    assert "Usage:" in result.output


def test_the_installed_console_command_runs_the_main_job():
    result = subprocess.run([sys.executable, "-m", "companion", "replay", "--check", str(SAMPLE)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert "OK" in result.stdout
