"""Players by number and name, and the tidy edges of starting a table (issue 31).

`serve --new GAME --players N --name ROLE=NAME`: the game starts with N players and keeps their
names with it, shown in the stored games' page and in a replay; a name for a player the game
does not have, a failed start and a `--db` in a folder that does not exist leave nothing
stored and say why. `print-tags --out` writes exactly the file named; `hardware plan` says
when a mount is higher than a usual ceiling and proposes the wider lens.
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
from click.testing import CliRunner
from helpers import free_port, listening, wait_for

from companion.cli import main
from companion.record.store import Store

ROOT = Path(__file__).resolve().parents[1]


def _serve(db: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--db", str(db),
         "--referee-token", "sesame", *args],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)})


def _get(port: int, path: str) -> str:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request("GET", path)
    response = connection.getresponse()
    assert response.status == 200, (path, response.status)
    return response.read().decode()


def test_serve_new_with_players_and_names_shows_them_in_the_stored_games_and_a_replay(
        tmp_path: Path) -> None:
    db, port = tmp_path / "games.sqlite", free_port()
    child = _serve(db, "--port", str(port), "--new", "rumble", "--players", "4",
                   "--name", "red=Ana", "--name", "black=Bruno")
    try:
        wait_for(lambda: listening(port), 20, "serve to listen", every=0.1, alive=child)
        about = json.loads(_get(port, "/api/view"))["game"]
        assert about["roles"] == ["red", "blue", "yellow", "black"]
        assert about["players"] == {"red": "Ana", "black": "Bruno"}
        page = _get(port, "/replays")
        assert "Ana" in page and "Bruno" in page
        listed = json.loads(_get(port, "/api/replays"))["games"]
        assert len(listed) == 1
        replay = json.loads(_get(port, f"/api/replay/{listed[0]['id']}"))
        assert replay["game"]["players"] == {"red": "Ana", "black": "Bruno"}
    finally:
        child.terminate()
        child.wait(timeout=10)
    store = Store(db)
    try:
        (row,) = store.games()
        assert row.players == "red Ana, black Bruno"
    finally:
        store.close()


def test_a_name_for_a_player_the_game_lacks_is_refused_before_anything_is_stored(
        tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    ran = _serve(db, "--port", str(free_port()), "--new", "rumble", "--players", "2",
                 "--name", "yellow=Ana")
    out, _ = ran.communicate(timeout=60)
    assert ran.returncode == 1 and "no player yellow in this game (its players: red, blue)" in out
    store = Store(db)
    try:
        assert store.games() == []
    finally:
        store.close()


def test_a_failed_start_leaves_no_empty_stored_game(tmp_path: Path) -> None:
    """The game is created, then the start fails (a public URL that is not http): it is gone."""
    db = tmp_path / "games.sqlite"
    ran = _serve(db, "--port", str(free_port()), "--new", "rumble",
                 "--public-url", "ftp://table.example")
    out, _ = ran.communicate(timeout=60)
    assert ran.returncode == 1 and "error:" in out
    store = Store(db)
    try:
        assert store.games() == []
    finally:
        store.close()


def test_a_db_in_a_folder_that_does_not_exist_is_a_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "typo" / "games.sqlite"
    result = CliRunner().invoke(main, ["serve", "--new", "rumble", "--port", "0",
                                       "--db", str(missing)])
    assert result.exit_code == 1
    assert f"there is no folder {missing.parent}" in result.output
    assert not missing.parent.exists()


def test_print_tags_writes_exactly_the_file_named(tmp_path: Path) -> None:
    """--corners --out corners.pdf: that one file, holding the board's 4 corner markers."""
    out = tmp_path / "corners.pdf"
    result = CliRunner().invoke(main, ["print-tags", "--corners", "--game", "sekigahara",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["corners.pdf"]
    subprocess.run(["pdftoppm", "-r", "100", "-png", str(out), str(tmp_path / "page")],
                   check=True)
    pages = sorted(tmp_path.glob("page*.png"))
    assert len(pages) == 1
    image = cv2.imread(str(pages[0]), cv2.IMREAD_GRAYSCALE)
    tags = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h11)
    detector = cv2.aruco.ArucoDetector(tags)
    _, ids, _ = detector.detectMarkers(image)
    assert ids is not None and sorted(np.ravel(ids).tolist()) == [0, 1, 2, 3]
    both = CliRunner().invoke(main, ["print-tags", "--corners", "--charuco",
                                     "--out", str(tmp_path / "x.pdf")])
    assert both.exit_code == 1 and "one sheet per command" in both.output
    assert not (tmp_path / "x.pdf").exists()


def test_hardware_plan_says_when_a_mount_is_above_a_usual_ceiling() -> None:
    result = CliRunner().invoke(main, ["hardware", "plan", "--game", "sekigahara"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    twelve = next(n for n, line in enumerate(lines) if "12.0 mm lens: mount 253 cm" in line)
    assert "higher than a usual ceiling" in lines[twelve + 1]
    assert "use the wider 8 mm lens (mount 169 cm above the table)" in lines[twelve + 1]
    eight = next(n for n, line in enumerate(lines) if "8.0 mm lens: mount" in line)
    assert "ceiling" not in lines[eight + 1]


def test_rules_points_at_text_an_installed_companion_has() -> None:
    """No rulebook file of the project's sources: each game's rules one line each, in the
    language asked (the summaries shipped in its package)."""
    listed = CliRunner().invoke(main, ["rules"])
    assert listed.exit_code == 0 and "shared/seeds" not in listed.output
    assert "rules: `companion rules shogun`" in listed.output
    shown = CliRunner().invoke(main, ["rules", "rumble", "--lang", "it"])
    assert shown.exit_code == 0, shown.output
    assert "Rumble Nation: the rules one line each" in shown.output
    assert "La mappa ha 11 regioni" in shown.output
