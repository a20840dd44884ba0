"""The event store (docs/record-format.md, Storage): durability settings, integrity on load,
corrupted files left untouched, undo and corrections, export/import, snapshots, the CLI."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.cli import main
from companion.engine import CHANCE, REFEREE, Action, IllegalAction
from companion.record import RecordError, read_record, replay
from companion.record.session import Session, UndoRefused, import_record
from companion.record.store import SNAPSHOT_LIMIT, Store, StoreError

SAMPLE = Path(__file__).parents[1] / "companion/games/skirmish/samples/skirmish-demo.jsonl"
JPEG = b"\xff\xd8\xff\xe0" + b"\x00" * 64 + b"\xff\xd9"


@pytest.fixture
def store(tmp_path):
    store = Store(tmp_path / "games.sqlite")
    yield store
    store.close()


def skirmish(store: Store) -> Session:
    clock = iter(f"2026-11-22T10:{m:02d}:00Z" for m in range(60))
    return Session.start(store, "skirmish", players={"red": "Ana", "blue": "Ben"},
                         clock=lambda: next(clock))


def move(role, block, to):
    return Action(role, "move", {"block": block, "to": to})


def test_the_store_runs_in_wal_mode_with_full_sync(store):
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_session_round_trips_through_the_store(store):
    session = skirmish(store)
    session.play(move("red", "red_a", "mill"), "tablet")
    session.play(Action("blue", "pass"), "button")
    record = store.load(session.game_id)
    assert record.chained
    assert [e.source for e in record.entries] == ["tablet", "button"]
    assert Session.resume(store, session.game_id).game.state == session.game.state


def test_an_illegal_action_is_refused_and_nothing_is_stored(store):
    session = skirmish(store)
    with pytest.raises(IllegalAction) as info:
        session.play(move("red", "red_a", "hill"), "camera")
    assert info.value.rule == "S3.1"
    assert store.game(session.game_id).entries == 0


def test_an_edited_row_is_caught_on_load(store):
    session = skirmish(store)
    session.play(move("red", "red_a", "mill"), "tablet")
    session.play(Action("blue", "pass"), "tablet")
    line = store._db.execute("SELECT line FROM entries WHERE seq=1").fetchone()[0]
    store._db.execute("UPDATE entries SET line=? WHERE seq=1",
                      (line.replace("mill", "ford"),))
    with pytest.raises(RecordError, match="hash chain"):
        store.load(session.game_id)


def test_lost_rows_are_caught_on_load(store):
    session = skirmish(store)
    session.play(move("red", "red_a", "mill"), "tablet")
    session.play(Action("blue", "pass"), "tablet")
    store._db.execute("DELETE FROM entries WHERE seq=2")
    with pytest.raises(RecordError, match="actions were lost"):
        store.load(session.game_id)


def test_a_truncated_database_is_reported_and_left_untouched(tmp_path):
    path = tmp_path / "games.sqlite"
    store = Store(path)
    session = skirmish(store)
    for _ in range(3):
        session.play(Action(session.game.to_move()[0], "pass"), "tablet")
    store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    before = path.read_bytes()
    with pytest.raises(StoreError, match="left untouched"):
        Store(path)
    assert path.read_bytes() == before


def test_a_file_that_is_not_a_database_is_left_untouched(tmp_path):
    path = tmp_path / "games.sqlite"
    path.write_text("these are my notes, not a database\n" * 100)
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not a usable games database"):
        Store(path)
    assert path.read_bytes() == before


def test_a_database_from_a_newer_companion_is_refused(tmp_path):
    path = tmp_path / "games.sqlite"
    Store(path).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value='99' WHERE key='schema'")
    with pytest.raises(StoreError, match="newer companion"):
        Store(path)


def test_undo_takes_back_moves_and_is_itself_recorded(store):
    session = skirmish(store)
    start = session.game.state
    session.play(move("red", "red_a", "mill"), "tablet")
    entry = session.undo(by="Ana")
    assert entry.action == Action(REFEREE, "undo", {"seq": 1})
    assert session.game.state == start
    assert [e.seq for e in store.load(session.game_id).entries] == [1, 2]  # nothing deleted
    resumed = Session.resume(store, session.game_id)
    assert resumed.game.state == start
    with pytest.raises(UndoRefused, match="nothing to undo"):
        session.undo(by="Ana")


def test_no_undo_past_a_dice_roll(store):
    """Undo stops where chance acted (Rally the Troops, Yucata, Board Game Arena)."""
    session = skirmish(store)
    for role, block, to in [("red", "red_d", "mill"), ("blue", "blue_d", "bridge"),
                            ("red", "red_d", "hill"), ("blue", "blue_d", "hill")]:
        session.play(move(role, block, to), "tablet")
    session.play(Action(CHANCE, "roll", {"attacker": 3, "defender": 4}), "tablet")
    with pytest.raises(UndoRefused, match="drew at random"):
        session.undo(by="Ana")


def test_a_correction_needs_its_author_and_reason_and_round_trips(store, tmp_path):
    session = Session.start(store, "sekigahara", seed=2)
    while CHANCE in session.game.to_move():
        rng = random.Random(len(session.entries))
        session.play(session.game.rules.sample_chance(session.game.state, rng), "simulator")
    with pytest.raises(IllegalAction, match="author and its reason"):
        session.correct({"block": "T-ii-4-1", "to": "kiso"}, by="", note="")
    events = session.correct({"block": "T-ii-4-1", "to": "kiso"}, by="Referee Sato",
                             note="the camera missed it: it stands in Kiso")
    assert events[0].type == "BlockCorrected"
    assert session.game.state.positions["T-ii-4-1"] == "kiso"
    path = tmp_path / "corrected.jsonl"
    session.export(path)
    last = read_record(path).entries[-1]
    assert (last.by, last.note, last.source) == ("Referee Sato",
                                                 "the camera missed it: it stands in Kiso",
                                                 "referee")
    game_id = import_record(store, read_record(path))
    assert Session.resume(store, game_id).game.state == session.game.state


def test_undo_and_corrections_survive_export_and_import(store, tmp_path):
    session = skirmish(store)
    session.play(move("red", "red_a", "mill"), "tablet")
    session.undo(by="Ana")
    session.play(move("red", "red_b", "ford"), "tablet")
    path = tmp_path / "game.jsonl"
    session.export(path)
    record = read_record(path)
    assert record.chained and record.sealed
    assert replay(record).game.state == session.game.state
    copy = import_record(store, record)
    assert Session.resume(store, copy).game.state == session.game.state


def test_an_import_that_does_not_replay_stores_nothing(store, tmp_path):
    lines = SAMPLE.read_text().splitlines()
    data = json.loads(lines[1])
    data["action"]["args"]["to"] = "moon"
    data.pop("hash")
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join([lines[0], json.dumps(data)]) + "\n")
    with pytest.raises(RecordError, match="not imported"):
        import_record(store, read_record(path))
    assert store.games() == []


def test_frame_snapshots_are_kept_and_checked(store):
    session = skirmish(store)
    session.play(move("red", "red_a", "mill"), "camera", snapshot=JPEG)
    assert store.snapshot(session.game_id, 1) == JPEG
    with pytest.raises(StoreError, match="JPEG"):
        session.play(Action("blue", "pass"), "camera", snapshot=b"GIF89a...")
    with pytest.raises(StoreError, match="limit"):
        session.play(Action("blue", "pass"), "camera",
                     snapshot=JPEG[:4] + b"\x00" * SNAPSHOT_LIMIT + b"\xff\xd9")
    assert store.game(session.game_id).entries == 1  # neither failed append was kept
    session.play(Action("blue", "pass"), "camera")  # the session carries on from the store


# --- the command line -------------------------------------------------------------------------


def cli(db, *args, input=None):
    return CliRunner().invoke(main, ["games", "--db", str(db), *args], input=input)


def test_games_import_list_show_export_delete(tmp_path):
    db = tmp_path / "games.sqlite"
    result = cli(db, "import", str(SAMPLE))
    assert result.exit_code == 0, result.output
    listing = cli(db, "list").output
    assert "skirmish" in listing and "red Ana" in listing and "[red: red took" in listing
    assert "skirmish" in cli(db, "list", "--search", "Ana").output
    assert cli(db, "list", "--search", "Zoe").output == ""
    shown = cli(db, "show", "1")
    assert shown.exit_code == 0 and "35 actions" in shown.output
    out = tmp_path / "out.jsonl"
    assert cli(db, "export", "1", str(out)).exit_code == 0
    assert [e.action for e in read_record(out).entries] == [
        e.action for e in read_record(SAMPLE).entries]
    refused = cli(db, "delete", "1", input="n\n")
    assert refused.exit_code != 0 and "skirmish" in cli(db, "list").output
    assert cli(db, "delete", "1", input="y\n").exit_code == 0
    assert cli(db, "list").output == ""


def test_repatch_reports_a_changed_outcome(tmp_path):
    lines = SAMPLE.read_text().splitlines()[:-1]  # drop the seal
    edited = []
    for line in lines:
        data = json.loads(line)
        data.pop("hash", None)
        for event in data.get("events", []):
            if event.get("type") == "GameEnded":
                event["winner"] = "blue"  # as if an older engine had judged otherwise
        edited.append(json.dumps(data))
    path = tmp_path / "old.jsonl"
    path.write_text("\n".join(edited) + "\n")
    result = CliRunner().invoke(main, ["replay", "--repatch", str(path)])
    assert result.exit_code == 1
    assert "CHANGED: was blue" in result.output and "now red" in result.output
    same = CliRunner().invoke(main, ["replay", "--repatch", str(SAMPLE)])
    assert same.exit_code == 0 and "same outcome" in same.output


def test_the_default_store_lives_in_the_users_data_folder(monkeypatch, tmp_path):
    """COMPANION_DATA moves every file the companion keeps, the game store among them."""
    from companion.record.store import default_path

    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "mine"))
    assert default_path() == tmp_path / "mine" / "games.sqlite"
