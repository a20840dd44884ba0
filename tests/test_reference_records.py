"""Every game ships reference records, and they play through as their golden files say.

1. Each registered game (`companion.games.all_games()`, so a new game is covered the day it
   declares `GAME`) ships at least one sample record (`samples=` in its spec), and each one
   verifies through the command line: `python -m companion replay --check FILE`.
2. Each sample replays, step by step, exactly as its golden playthrough in `tests/golden/`
   records it: the action, the events, the action in each viewer's words, who may act, the
   legal actions, every role's view and the outcome (OpenSpiel's playthrough tests). A change
   that `replay --check` cannot see (a view that shows a hidden piece, a legal action gone)
   fails here, naming the first step, role and field that differ, with a diff.
3. The comparison itself catches changes: Skirmish's rules are perturbed in memory (a view
   that leaks, a legal action dropped, a battle's events changed) and the failure must name
   where the change first shows. The playthrough runs the actions through today's rules and
   keeps today's events, so a change of events shows as the events (and whatever follows from
   them) at each step, while the command-line check reports it as a divergence.

A difference that is meant (a rules fix) is taken in with `python -m tests.golden --update`
(docs/record-format.md, "Reference records and golden playthroughs").
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from golden import Reference, compare, playthrough, read_golden, references

from companion.engine import CHANCE, PUBLIC, REFEREE, Action, Event
from companion.games import all_games
from companion.games.skirmish.rules import SkirmishRules
from companion.record import new_game, read_record

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(all_games())
REFERENCES = references()


def _golden_or_fail(reference: Reference) -> list[dict[str, Any]]:
    if not reference.golden.is_file():
        pytest.fail(f"{reference.name} has no golden playthrough ({reference.golden}): run "
                    f"`python -m tests.golden --update {reference.spec.name}`, read what it "
                    "says and commit the file", pytrace=False)
    return read_golden(reference.golden)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_ships_reference_records_that_verify_on_the_command_line(name, tmp_path):
    spec = all_games()[name]
    if not spec.samples:
        pytest.fail(f"{spec.title} ships no reference record: make one with `companion "
                    f"simulate {name} --seed N --out companion/games/{name}/samples/X.jsonl` "
                    "and name it in its GameSpec's samples=", pytrace=False)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COMPANION_DATA": str(tmp_path)}
    for sample in spec.samples:
        path = spec.sample(sample)
        done = subprocess.run([sys.executable, "-m", "companion", "replay", "--check",
                               str(path)], capture_output=True, text=True, check=False,
                              env=env, cwd=ROOT, timeout=600)
        assert done.returncode == 0, f"{path}:\n{done.stdout}{done.stderr}"
        entries = sum(1 for line in path.read_text(encoding="utf-8").splitlines()
                      if line.startswith('{"action"'))
        assert f"OK: {path} verifies ({entries} actions)" in done.stdout, done.stdout
        assert "warning" not in done.stdout + done.stderr


def test_every_reference_record_has_a_golden_playthrough_and_no_golden_is_left_over():
    wanted = {r.golden for r in REFERENCES}
    found = set(Path(__file__).parent.joinpath("golden").glob("*/*.jsonl.gz"))
    assert found - wanted == set(), "golden files of records no game ships any more"
    assert {r.spec.name for r in REFERENCES} == set(GAMES)


@pytest.mark.parametrize("reference", REFERENCES, ids=lambda r: r.name)
def test_the_reference_record_plays_through_as_its_golden_file_says(reference):
    golden = _golden_or_fail(reference)
    difference = compare(golden, list(playthrough(reference.record)))
    if difference is not None:
        pytest.fail(f"{reference.name} no longer plays through as {reference.golden.name} "
                    f"records it.\n{difference.report(reference.golden.name)}\nIf the change "
                    f"is meant: `python -m tests.golden --update {reference.spec.name}` "
                    "(docs/record-format.md)", pytrace=False)


def test_the_golden_playthrough_holds_every_field_of_every_step():
    """What the golden files hold is what the docs promise: a line per field, every role's
    view at every step, the legal actions of each role that may act, and the end."""
    reference = next(r for r in REFERENCES if r.spec.name == "rumble_nation")
    golden = _golden_or_fail(reference)
    header = golden[0]
    steps = header["steps"]
    roles = header["roles"]
    record = read_record(reference.record)
    assert steps == len(record.entries)
    assert roles == [PUBLIC, *new_game(record.header, reference.name).rules.roles, REFEREE]
    for step in range(steps + 1):
        fields = [(line["field"], line.get("role")) for line in golden
                  if line.get("step") == step]
        assert {r for f, r in fields if f == "view"} == set(roles)
        waiting = next(line["value"] for line in golden
                       if line.get("step") == step and line["field"] == "to_move")
        assert [r for f, r in fields if f == "legal"] == waiting
        if step:
            assert [f for f, _ in fields[:3]] == ["action", "events", "said"]
    (ended,) = [e for e in record.entries[-1].events if e.type == "GameEnded"]
    last = golden[-1]  # the outcome: the event's fields, and the winners and ranking
    assert (last["step"], last["field"]) == (steps, "outcome")
    assert {k: v for k, v in last["value"].items() if k in ended.data} == {
        k: v for k, v in ended.data.items() if k in last["value"]}
    assert last["value"]["winners"] == [ended.data["winner"]]


# --- the comparison catches a change (Skirmish's rules perturbed in memory) -------------------

SKIRMISH = next(r for r in REFERENCES if r.spec.name == "skirmish")


def _skirmish_difference() -> Any:
    return compare(_golden_or_fail(SKIRMISH), list(playthrough(SKIRMISH.record)))


def test_a_view_that_shows_the_other_sides_blocks_fails_at_the_first_step_it_shows(
        monkeypatch):
    original = SkirmishRules.view

    def leaky(self: SkirmishRules, state: Any, role: str) -> dict[str, Any]:
        seen = original(self, state, REFEREE if role == "blue" else role)
        return {**seen, "role": role}

    monkeypatch.setattr(SkirmishRules, "view", leaky)
    difference = _skirmish_difference()
    assert difference is not None
    where = difference.where()
    assert where.startswith("step 0, role blue, field view, at /locations/red_camp/red/blocks")
    report = difference.report()
    assert '+       "block": "red_a",' in report.splitlines()  # what blue now sees
    assert difference.differing == sum(1 for line in _golden_or_fail(SKIRMISH)
                                       if line.get("role") == "blue" and line["field"] == "view")


def test_a_legal_action_gone_fails_at_the_first_step_that_offered_it(monkeypatch):
    original = SkirmishRules.legal_actions

    def fewer(self: SkirmishRules, state: Any, role: str) -> list[Action]:
        offered = list(original(self, state, role))
        return offered[:-1] if role != CHANCE else offered

    monkeypatch.setattr(SkirmishRules, "legal_actions", fewer)
    golden = _golden_or_fail(SKIRMISH)
    first = next(line for line in golden
                 if line["field"] == "legal" and line["role"] != CHANCE and line["count"])
    difference = _skirmish_difference()
    assert difference is not None
    assert difference.expected == first
    assert difference.actual is not None
    assert difference.actual["value"] == first["value"][:-1]
    assert difference.where() == (f"step {first['step']}, role {first['role']}, field legal, "
                                  f"at /{len(first['value']) - 1}")
    gone = json.dumps(first["value"][-1], ensure_ascii=False)
    assert [line for line in difference.report().splitlines()
            if line.startswith("-") and line.strip("- ,") == gone]


def test_a_battle_that_records_other_events_fails_at_the_first_battle(monkeypatch):
    original = SkirmishRules.decide

    def louder(self: SkirmishRules, state: Any, action: Action) -> list[Event]:
        events = list(original(self, state, action))
        return [Event(e.type, {**e.data, "total": sum(e.data.values())})
                if e.type == "DiceRolled" else e for e in events]

    monkeypatch.setattr(SkirmishRules, "decide", louder)
    golden = _golden_or_fail(SKIRMISH)
    battle = next(line for line in golden
                  if line["field"] == "action" and line["value"].startswith(f"{CHANCE} "))
    difference = _skirmish_difference()
    assert difference is not None
    assert difference.where() == f"step {battle['step']}, field events, at /0"
    assert difference.expected is not None and difference.actual is not None
    assert [e.replace('"total"', "") == e for e in difference.actual["value"]] == \
        [not e.startswith("DiceRolled ") for e in difference.expected["value"]]
    assert difference.report().count('"total\\":') == 1
    battles = sum(1 for line in golden if line["field"] == "action"
                  and line["value"].startswith(f"{CHANCE} "))
    assert difference.differing == battles  # the events only: nothing else follows from it
