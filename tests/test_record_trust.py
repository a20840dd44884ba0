"""Issue #16, records: no record is cut, half-imported, overwritten or misread unnoticed.

Each test is a way a record or the games database was trusted when it should not have been:
a record cut at the end or stripped of its hashes, an import killed midway or run on a full
disk, an export through a planted symlink, an empty database file, a damaged newest game,
two servers on one game, a lost "finished" mark, and record lines no parser should swallow.
Real SQLite, real files and real processes throughout (kill -9 included).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from helpers import free_port, listening, wait_for

from companion.cli import main
from companion.engine import Action, IllegalAction
from companion.record import RecordError, read_record
from companion.record.format import Entry, RecordValueError, dumps_entry
from companion.record.session import Session, Unrecordable, import_record, resume_newest
from companion.record.store import GameClaimed, Store, StoreError

ROOT = Path(__file__).parents[1]
SKIRMISH = ROOT / "companion/games/skirmish/samples/skirmish-demo.jsonl"
SEKIGAHARA = ROOT / "companion/games/sekigahara/samples/sekigahara-demo.jsonl"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def cli(*args: str, db: Path | None = None) -> Result:
    prefix = ["games", "--db", str(db)] if db is not None else []
    return CliRunner().invoke(main, [*prefix, *args])


def lines_of(path: Path) -> list[str]:
    return path.read_text().splitlines()


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(f"{line}\n" for line in lines))
    return path


@pytest.fixture
def full(tmp_path) -> Path:
    """A whole record, as `games export` writes it: header, chained actions, seal."""
    db = tmp_path / "source.sqlite"
    assert cli("import", str(SKIRMISH), db=db).exit_code == 0
    path = tmp_path / "full.jsonl"
    result = cli("export", "1", str(path), db=db)
    assert result.exit_code == 0, result.output
    return path


def cut(full: Path, tmp_path: Path) -> Path:
    """`head -n -3 full.jsonl > cut.jsonl`: two actions and the seal gone."""
    return write_lines(tmp_path / "cut.jsonl", lines_of(full)[:-3])


def unchained(full: Path, tmp_path: Path) -> Path:
    """The same actions with every hash and the seal stripped."""
    lines = []
    for line in lines_of(full):
        data = json.loads(line)
        if "seal" not in data:
            data.pop("hash", None)
            lines.append(json.dumps(data))
    return write_lines(tmp_path / "unchained.jsonl", lines)


# --- 1. a record cut at the end, or stripped of its hashes, does not verify -------------------


def test_replay_check_reports_a_record_cut_at_the_end(full, tmp_path):
    path = cut(full, tmp_path)
    last = len(lines_of(path))
    result = CliRunner().invoke(main, ["replay", "--check", str(path)])
    assert result.exit_code == 1
    assert "OK" not in result.output
    assert f"{path}:{last}: truncated" in result.output
    assert f"line {last} is the last good line" in result.output


def test_replay_check_reports_a_record_without_hashes(full, tmp_path):
    path = unchained(full, tmp_path)
    result = CliRunner().invoke(main, ["replay", "--check", str(path)])
    assert result.exit_code == 1
    assert "OK" not in result.output
    assert f"{path}:{len(lines_of(path))}: not chained" in result.output


def test_the_whole_exported_record_still_verifies(full):
    result = CliRunner().invoke(main, ["replay", "--check", str(full)])
    assert result.exit_code == 0 and "OK" in result.output


def test_games_import_refuses_a_cut_record(full, tmp_path):
    db = tmp_path / "games.sqlite"
    path = cut(full, tmp_path)
    result = cli("import", str(path), db=db)
    assert result.exit_code == 1
    assert f"{path}:{len(lines_of(path))}: not imported: truncated" in result.output
    assert cli("import", "--unchained", str(path), db=db).exit_code == 1  # never, cut is cut
    assert cli("list", db=db).output == ""


def test_games_import_takes_an_unchained_record_only_when_asked(full, tmp_path):
    db = tmp_path / "games.sqlite"
    path = unchained(full, tmp_path)
    refused = cli("import", str(path), db=db)
    assert refused.exit_code == 1
    assert "not imported: not chained" in refused.output and "--unchained" in refused.output
    assert cli("list", db=db).output == ""
    taken = cli("import", "--unchained", str(path), db=db)
    assert taken.exit_code == 0, taken.output
    assert "not chained" in taken.output  # said, even when accepted
    assert "skirmish" in cli("list", db=db).output


# --- 2. an import is one transaction: all of the game or nothing ------------------------------


def start_import(db: Path, record: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "companion", "games", "--db", str(db),
                             "import", str(record)], env=ENV, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def stored_games(db: Path) -> list[tuple[int, int, str | None]]:
    with sqlite3.connect(db) as reader:
        return reader.execute("SELECT id, entries, outcome FROM games").fetchall()


def assert_no_partial_game(db: Path) -> None:
    """Every game listed is the whole record, finished, and loads with its chain intact."""
    whole = len(read_record(SEKIGAHARA).entries)
    store = Store(db)
    try:
        assert store.games(unfinished=True) == []
        for row in store.games():
            assert row.entries == whole and row.finished
            assert len(store.load(row.id).entries) == whole
    finally:
        store.close()


def test_an_import_killed_once_its_game_shows_leaves_no_partial_game(tmp_path):
    """Kill -9 the importer the moment its game appears in the database: with one transaction
    it appears whole, or not at all."""
    db = tmp_path / "games.sqlite"
    Store(db).close()
    child = start_import(db, SEKIGAHARA)
    deadline = time.monotonic() + 60
    while child.poll() is None and time.monotonic() < deadline:
        if stored_games(db):
            child.send_signal(signal.SIGKILL)
            break
        time.sleep(0.001)
    child.wait(timeout=30)
    assert stored_games(db), "the importer never stored the game"
    assert_no_partial_game(db)


@pytest.mark.slow
def test_imports_killed_at_random_moments_leave_no_partial_game(tmp_path):
    timed = start_import(tmp_path / "timing.sqlite", SEKIGAHARA)
    began = time.monotonic()
    assert timed.wait(timeout=120) == 0
    duration = time.monotonic() - began
    rng = random.Random(16)
    for trial in range(12):
        db = tmp_path / f"trial-{trial}.sqlite"
        Store(db).close()
        child = start_import(db, SEKIGAHARA)
        time.sleep(rng.uniform(0.3, 1.0) * duration)
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        assert_no_partial_game(db)


def test_a_full_disk_imports_nothing_and_says_so(tmp_path):
    store = Store(tmp_path / "games.sqlite")
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count={pages + 3}")  # SQLite's own "disk is full"
    with pytest.raises(StoreError, match="the disk is full: nothing imported"):
        import_record(store, read_record(SEKIGAHARA))
    assert store.games() == []
    store.close()


# --- 3. export never writes through a file planted at its temporary name ---------------------


def test_export_does_not_write_through_a_symlink_at_the_partial_name(tmp_path):
    db = tmp_path / "games.sqlite"
    assert cli("import", str(SKIRMISH), db=db).exit_code == 0
    victim = tmp_path / "victim.txt"
    victim.write_text("my unrelated notes\n")
    target = tmp_path / "out.jsonl"
    (tmp_path / "out.jsonl.partial").symlink_to(victim)
    result = cli("export", "1", str(target), db=db)
    assert result.exit_code == 0, result.output
    assert victim.read_text() == "my unrelated notes\n"
    assert read_record(target).sealed
    assert sorted(p.name for p in tmp_path.iterdir() if "out.jsonl" in p.name) == [
        "out.jsonl", "out.jsonl.partial"]  # no temporary file left behind


# --- 4. an empty database file; a damaged newest game -----------------------------------------


def test_an_empty_database_file_is_refused_by_name_and_left_untouched(tmp_path):
    path = tmp_path / "games.sqlite"
    path.touch()
    with pytest.raises(StoreError, match=r"games\.sqlite: the file is empty \(0 bytes\)"):
        Store(path)
    result = cli("list", db=path)
    assert result.exit_code == 1 and "is empty" in result.output
    assert path.stat().st_size == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.sqlite"]


def test_a_new_database_is_never_left_empty_at_its_name(tmp_path):
    """A new database is made under another name and moved into place once its tables are
    written: what is at the name is whole, so an empty file there is never the companion's."""
    path = tmp_path / "new" / "games.sqlite"
    Store(path).close()
    assert path.stat().st_size > 0
    assert sorted(p.name for p in path.parent.iterdir()) == ["games.sqlite"]
    assert Store(path).games() == []


def test_a_foreign_sqlite_database_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "photos.sqlite"
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE photos (name TEXT)")
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not a games database"):
        Store(path)
    assert path.read_bytes() == before


def test_a_database_symlink_to_a_missing_file_creates_nothing(tmp_path):
    """games.sqlite -> a drive that is not mounted: no new, empty database appears there."""
    mount_point = tmp_path / "usb"
    mount_point.mkdir()
    path = tmp_path / "games.sqlite"
    path.symlink_to(mount_point / "games.sqlite")
    with pytest.raises(StoreError, match="which does not exist"):
        Store(path)
    assert list(mount_point.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.sqlite", "usb"]


def serve(db: Path, *args: str) -> tuple[subprocess.Popen[str], int]:
    """A real `companion serve` in its own process group, once it accepts connections."""
    port = free_port()
    child = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", str(db), *args], env=ENV, text=True, start_new_session=True,
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        wait_for(lambda: listening(port), 30, "serve to listen", every=0.1, alive=child)
    except AssertionError:
        output = stop(child, signal.SIGKILL)
        raise AssertionError(f"serve did not start: {output}") from None
    return child, port


def stop(child: subprocess.Popen[str], sig: int = signal.SIGTERM) -> str:
    """Signal the server's whole process group; its output."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(child.pid, sig)
    child.wait(timeout=20)
    return child.stdout.read() if child.stdout else ""


def game_rows(db: Path, game_id: int) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as reader:
        return [*reader.execute("SELECT * FROM games WHERE id=?", (game_id,)),
                *reader.execute("SELECT * FROM entries WHERE game_id=? ORDER BY seq",
                                (game_id,))]


def test_serve_skips_a_damaged_newest_game_says_why_and_leaves_it_untouched(tmp_path):
    db = tmp_path / "games.sqlite"
    store = Store(db)
    older = Session.start(store, "skirmish")
    older.play(Action("red", "pass"), "tablet")
    newest = Session.start(store, "skirmish")
    newest.play(Action("red", "pass"), "tablet")
    newest.play(Action("blue", "pass"), "tablet")
    store._db.execute("UPDATE entries SET line='{\"seq\":2,' WHERE game_id=? AND seq=2",
                      (newest.game_id,))
    store.close()
    before = game_rows(db, newest.game_id)
    child, port = serve(db)
    with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
        connection.sendall(b"GET /api/view HTTP/1.0\r\n\r\n")
        reply = connection.makefile("rb").read().decode()
    output = stop(child)
    assert f'"game_id":{older.game_id}' in reply.replace(" ", "")
    assert f"warning: game {newest.game_id} cannot be resumed" in output
    assert f"#game{newest.game_id}:3: not valid JSON" in output  # what is wrong, where
    assert f"game {older.game_id}: table display" in output
    assert game_rows(db, newest.game_id) == before


def test_the_choice_skips_a_damaged_game_and_offers_none_when_none_is_left(tmp_path):
    """Only a damaged game unfinished: nothing to resume (serve then starts a new game), the
    reason is said, and the damaged game is left as it is."""
    db = tmp_path / "games.sqlite"
    store = Store(db)
    damaged = Session.start(store, "skirmish")
    damaged.play(Action("red", "pass"), "tablet")
    store._db.execute("UPDATE entries SET line='[[[' WHERE game_id=?", (damaged.game_id,))
    before = game_rows(db, damaged.game_id)
    said: list[str] = []
    assert resume_newest(store, warn=said.append) is None
    assert len(said) == 1 and said[0].startswith(f"game {damaged.game_id} cannot be resumed")
    assert game_rows(db, damaged.game_id) == before
    store.claim(damaged.game_id).release()  # and it was not left claimed
    store.close()


# --- 5. one server per game -------------------------------------------------------------------


def test_a_second_server_refuses_a_game_another_process_serves(tmp_path):
    db = tmp_path / "games.sqlite"
    store = Store(db)
    game_id = Session.start(store, "skirmish").game_id
    store.close()
    first, _ = serve(db, "--game", str(game_id))
    try:
        second = subprocess.run(
            [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port",
             str(free_port()), "--db", str(db), "--game", str(game_id)],
            env=ENV, text=True, capture_output=True, stdin=subprocess.DEVNULL, timeout=60)
        assert second.returncode == 1
        assert (f"game {game_id} is already being served by process {first.pid}"
                in second.stderr)
        automatic = subprocess.run(  # no --game: the unfinished game is the one chosen
            [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port",
             str(free_port()), "--db", str(db)],
            env=ENV, text=True, capture_output=True, stdin=subprocess.DEVNULL, timeout=60)
        assert automatic.returncode == 1
        assert f"already being served by process {first.pid}" in automatic.stderr
    finally:
        stop(first, signal.SIGKILL)  # kill -9: the dead holder must not block forever
    store = Store(db)
    with store.claim(game_id) as claim:
        assert claim.game_id == game_id
    store.close()


def test_a_claim_is_exclusive_and_released(tmp_path):
    store = Store(tmp_path / "games.sqlite")
    game_id = Session.start(store, "skirmish").game_id
    claim = store.claim(game_id)
    with pytest.raises(GameClaimed, match=f"game {game_id} is already being served by "
                       f"process {os.getpid()}"):
        store.claim(game_id)
    claim.release()
    store.claim(game_id).release()
    with pytest.raises(StoreError, match="no game 99"):
        store.claim(99)
    store.close()


# --- 6. the record, not the mark, says whether a game is finished -----------------------------


def test_a_finished_game_whose_mark_was_lost_is_finished_after_resume(tmp_path):
    store = Store(tmp_path / "games.sqlite")
    game_id = import_record(store, read_record(SKIRMISH))
    outcome = store.game(game_id).outcome
    assert outcome is not None
    store._db.execute("UPDATE games SET outcome=NULL WHERE id=?", (game_id,))
    assert [row.id for row in store.games(unfinished=True)] == [game_id]
    Session.resume(store, game_id)
    assert store.games(unfinished=True) == []
    assert store.game(game_id).outcome == outcome
    store.close()


# --- 7. record lines no parser should swallow ------------------------------------------------

BAD_LINES = [
    ('{"seq":6,"deep":' + "[" * 200_000 + "]" * 200_000 + "}", "nested too deeply"),
    ('{"seq":6,"deep":' + "[" * 500 + "]" * 500 + "}", "nested too deeply"),
    ('{"seq":' + "1" * 5000 + "}", "a number with 5000 digits"),
    ('{"seq":6,"x":NaN}', "NaN"),
    ('{"seq":6,"x":-Infinity}', "-Infinity"),
    ('{"seq":6,"x":1e400}', "too large"),
    ('{"seq":6,"note":"' + "x" * (1 << 20) + '"}', "the limit is 1 MiB"),
]


@pytest.fixture(params=BAD_LINES, ids=["deep", "deepish", "digits", "nan", "infinity", "huge",
                                       "long"])
def bad(request, full, tmp_path) -> tuple[Path, str]:
    line, message = request.param
    lines = lines_of(full)
    lines[6] = line  # file line 7
    return write_lines(tmp_path / "bad.jsonl", lines), message


def test_a_hostile_line_is_named_when_reading_a_file(bad):
    path, message = bad
    with pytest.raises(RecordError, match=message) as info:
        read_record(path)
    assert (info.value.path, info.value.line) == (str(path), 7)


def test_a_hostile_line_is_named_by_replay_check_and_import(bad, tmp_path):
    path, message = bad
    for result in (CliRunner().invoke(main, ["replay", "--check", str(path)]),
                   cli("import", str(path), db=tmp_path / "games.sqlite")):
        assert result.exit_code == 1
        assert isinstance(result.exception, SystemExit)  # an error message, not a traceback
        assert f"{path}:7: " in result.output and message in result.output


def test_a_hostile_stored_line_is_named_on_load(bad, tmp_path):
    path, message = bad
    store = Store(tmp_path / "games.sqlite")
    game_id = import_record(store, read_record(path.with_name("full.jsonl")))
    store._db.execute("UPDATE entries SET line=? WHERE game_id=? AND seq=6",
                      (lines_of(path)[6], game_id))
    with pytest.raises(RecordError, match=message) as info:
        store.load(game_id)
    assert info.value.line == 7
    store.close()


def test_nan_is_never_written_and_a_session_refuses_it(tmp_path):
    nan = Action("red", "pass", {"why": float("nan")})
    with pytest.raises(RecordValueError, match="NaN"):
        dumps_entry(Entry(1, "2026-11-22T10:00:00Z", "tablet", nan, ()))
    store = Store(tmp_path / "games.sqlite")
    session = Session.start(store, "skirmish")
    with pytest.raises(Unrecordable, match="NaN") as info:
        session.play(nan, "tablet")
    assert isinstance(info.value, IllegalAction)  # refused at the table like any other
    assert store.game(session.game_id).entries == 0
    assert session.entries == [] and session.game.to_move() == ("red",)
    deep: list[object] = []
    for _ in range(100):
        deep = [deep]
    for args, message in [({"why": float("inf")}, "Infinity"), ({"why": 10**200}, "201 digits"),
                          ({"why": 10**5000}, "digits"), ({"why": deep}, "nested too deeply")]:
        with pytest.raises(Unrecordable, match=message):
            session.play(Action("red", "pass", args), "tablet")
    assert store.game(session.game_id).entries == 0
    session.play(Action("red", "pass"), "tablet")  # the session goes on
    assert store.load(session.game_id).entries[0].action == Action("red", "pass")
    store.close()
    fine = Action("red", "pass", {"why": 1.5, "n": -(10**99)})  # finite, 99 digits: fine
    line = dumps_entry(Entry(1, "2026-11-22T10:00:00Z", "tablet", fine, ()))
    assert json.loads(line)["action"]["args"] == {"why": 1.5, "n": -(10**99)}


def test_a_player_name_with_a_line_separator_round_trips(tmp_path):
    """Lines end at \\n only: U+2028 or U+0085 inside a name do not split a record line."""
    store = Store(tmp_path / "games.sqlite")
    session = Session.start(store, "skirmish", players={"red": "Ana\u2028Maria\x85"})
    session.play(Action("red", "pass"), "tablet")
    assert store.load(session.game_id).header.players["red"] == "Ana\u2028Maria\x85"
    path = tmp_path / "names.jsonl"
    session.export(path)
    assert read_record(path).header.players["red"] == "Ana\u2028Maria\x85"
    store.close()
