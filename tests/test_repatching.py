"""Many records re-run with today's rules (`companion.record.repatching`): each outcome as it
comes, in words and in JSON, and a record that cannot be read given as its error."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from companion.engine import Game, random_playout
from companion.games import game
from companion.kits import load_kit
from companion.record import Record, RecordError, Repatch, ReplayProblem, record_of
from companion.record.repatching import (
    repatch_files,
    repatch_json,
    repatch_stored,
    repatch_words,
)
from companion.record.session import import_record
from companion.record.store import Store

SAMPLE = game("skirmish").sample()


def _judged_otherwise(folder: Path) -> Path:
    """The sample as if an older engine had given the game to blue (hashes and seal dropped)."""
    edited = []
    for line in SAMPLE.read_text().splitlines()[:-1]:
        data = json.loads(line)
        data.pop("hash", None)
        for event in data.get("events", []):
            if event.get("type") == "GameEnded":
                event["winner"] = "blue"
        edited.append(json.dumps(data))
    path = folder / "old.jsonl"
    path.write_text("\n".join(edited) + "\n")
    return path


def test_each_file_comes_with_its_outcome_then_and_now_or_its_error(tmp_path):
    old, missing = _judged_otherwise(tmp_path), tmp_path / "missing.jsonl"
    found = list(repatch_files([SAMPLE, old, missing]))
    assert [path for path, _ in found] == [SAMPLE, old, missing]
    same, changed, error = (result for _, result in found)
    assert isinstance(same, Repatch) and not same.changed
    assert repatch_words(same) == f"same outcome: {same.now}"
    assert isinstance(changed, Repatch) and changed.changed
    assert repatch_words(changed) == f"CHANGED: was {changed.recorded}, now {changed.now}"
    assert changed.recorded is not None and changed.recorded.startswith("blue")
    assert repatch_json(old, changed) == {"file": str(old), "changed": True,
                                          "recorded": changed.recorded, "now": changed.now,
                                          "problem": None}
    assert isinstance(error, RecordError)


def test_a_record_todays_rules_refuse_is_said_with_its_problem():
    problem = ReplayProblem(7, "illegal", "move a b: no road", "4.1")
    result = Repatch(Record("<memory>", None, ()), "red (5.1: won)", None, problem)
    assert repatch_words(result) == "CHANGED: line 7: illegal (rule 4.1): move a b: no road"
    assert repatch_json(Path("x.jsonl"), result)["problem"] == str(problem)
    unfinished = Repatch(Record("<memory>", None, ()), None, None, None)
    assert repatch_words(unfinished) == "same outcome: unfinished"


def test_every_stored_game_is_re_run_newest_first(tmp_path):
    spec = game("skirmish")
    store = Store(tmp_path / "games.sqlite")
    try:
        kit = load_kit(spec.kit)
        for seed in (1, 2):
            played = Game(spec.rules(kit), seed=seed)
            random_playout(played)
            import_record(store, record_of(played, kit, started_at=datetime.now(UTC),
                                          source="simulator"), unchained=True)
        results = list(repatch_stored(store))
        assert [game_id for game_id, _ in results] == [2, 1]
        assert all(isinstance(r, Repatch) and not r.changed for _, r in results)
        assert [game_id for game_id, _ in repatch_stored(store, [1])] == [1]
    finally:
        store.close()
