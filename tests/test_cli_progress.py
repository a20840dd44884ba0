"""Every long job draws a progress bar (issue 18): click's bar on standard error when standard
error is a terminal, nothing at all when it is not (a log, a pipe), and standard output keeps
the one JSON document --json promises either way.

The command runs as its own process with a real pseudo-terminal (`os.openpty`) for its standard
error and a pipe for its standard output, as a person's shell gives it; the benchmarks'
`tick(done, total)` contract is checked on the library calls themselves.
"""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.bench import bench_engine, bench_inputs, bench_record, takes_tick
from companion.games import game
from companion.games.rumble_nation.vision_bench import bench_rumble_vision

BAR = re.compile(r"\[[#\- ]+\]\s+(\d+)/(\d+)")
"""click's bar with show_pos: `[####----]  12/40`."""


def _env(folder: Path) -> dict[str, str]:
    return {**os.environ, "COMPANION_DATA": str(folder / "userdata"),
            "COMPANION_DB": str(folder / "games.sqlite")}


def on_a_terminal(*args: str, cwd: Path, timeout: float = 240) -> tuple[int, str, str]:
    """`companion ARGS` with a pseudo-terminal as standard error: (exit code, stdout, what the
    terminal showed). The terminal is read while the command runs, so a long bar never fills
    it and stalls the command."""
    master, slave = os.openpty()
    process = subprocess.Popen([sys.executable, "-m", "companion", *args], cwd=cwd,
                               env=_env(cwd), stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    shown = bytearray()
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if not ready:
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: every writer of the terminal has closed it
                break
            if not chunk:
                break
            shown += chunk
        else:
            process.kill()
            pytest.fail(f"companion {' '.join(args)} did not end in {timeout} s")
        out = process.stdout.read().decode() if process.stdout else ""
        code = process.wait(timeout=30)
    finally:
        os.close(master)
        if process.stdout:
            process.stdout.close()
    return code, out, shown.decode(errors="replace")


def off_a_terminal(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args], cwd=cwd, env=_env(cwd),
                          capture_output=True, text=True, timeout=240, stdin=subprocess.DEVNULL)


def final_bar(shown: str, label: str) -> tuple[int, int]:
    """The last position the bar drew (done, total), after checking its label is there."""
    assert label in shown, shown[-500:]
    drawn = BAR.findall(shown)
    assert drawn, f"no bar drawn: {shown[-500:]!r}"
    done, total = (int(n) for n in drawn[-1])
    return done, total


@pytest.mark.parametrize(("args", "label"), [
    (["bench", "engine", "--game", "skirmish", "--actions", "200", "--json"],
     "Skirmish: actions played, then replayed"),
    pytest.param(["bench", "record", "--game", "skirmish", "--appends", "60", "--json"],
                 "Skirmish: the store's steps", marks=pytest.mark.slow),  # 2,000 fsyncs
    (["sim", "skirmish", "--games", "3", "--json"], "Skirmish: random games"),
], ids=["bench engine", "bench record", "sim"])
def test_a_long_job_draws_a_bar_on_a_terminal_and_keeps_its_json(args: list[str], label: str,
                                                                 tmp_path: Path) -> None:
    code, out, shown = on_a_terminal(*args, cwd=tmp_path)
    assert code == 0, shown[-2000:]
    done, total = final_bar(shown, label)
    assert done == total > 1
    assert isinstance(json.loads(out), dict)  # the bar never reaches standard output
    assert "{" not in shown  # ... and the figures never reach the terminal's stderr


@pytest.mark.parametrize("args", [
    ["bench", "engine", "--game", "skirmish", "--actions", "200", "--json"],
    ["sim", "skirmish", "--games", "3", "--json"],
], ids=["bench engine", "sim"])
def test_without_a_terminal_nothing_is_drawn(args: list[str], tmp_path: Path) -> None:
    result = off_a_terminal(*args, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert isinstance(json.loads(result.stdout), dict)


def test_the_sentences_and_the_bar_do_not_mix(tmp_path: Path) -> None:
    """Without --json the figures are sentences on standard output; the bar stays on the
    terminal's standard error and ends with its own line."""
    code, out, shown = on_a_terminal("bench", "engine", "--game", "skirmish", "--actions",
                                     "100", cwd=tmp_path)
    assert code == 0, shown
    assert out.startswith("skirmish: validate+apply median")
    assert "[" not in out and BAR.search(shown) and shown.endswith("\n")


def test_repatch_of_every_stored_game_keeps_its_lines_whole_beside_the_bar(tmp_path: Path,
                                                                          ) -> None:
    sample = str(game("sekigahara").sample())
    db = str(tmp_path / "games.sqlite")
    for _ in range(2):
        assert off_a_terminal("games", "import", sample, "--db", db, cwd=tmp_path).returncode == 0
    code, out, shown = on_a_terminal("games", "repatch", "--db", db, cwd=tmp_path)
    assert code == 0, shown
    assert final_bar(shown, "games re-run") == (2, 2)
    outcome = "same outcome: ishida (2.2: week 7 is over: 14 to 12 victory points)"
    assert out.splitlines() == [f"game 2: {outcome}", f"game 1: {outcome}"]


@pytest.mark.slow
@pytest.mark.parametrize(("args", "label", "total"), [
    (["bench", "vision", "--game", "rumble", "--frames", "2", "--json"],
     "Rumble Nation: frames read", 2 + 1 + 1),
    (["bench", "inputs", "--json"], "inputs: serial frames, then card decodings", 24),
    (["bench", "web", "--game", "skirmish", "--clients", "1", "--actions", "3",
      "--idle-streams", "50", "--json"], "Skirmish: actions, idle streams, replay steps",
     3 + 1 + 1 + 200),
    (["bench", "broadcast", "--tables", "2", "--actions", "3", "--pace", "0.05", "--json"],
     "Sekigahara: actions recorded at 2 tables", 2 * 3 + 1),
], ids=["bench vision", "bench inputs", "bench web", "bench broadcast"])
def test_every_benchmark_draws_its_bar(args: list[str], label: str, total: int,
                                       tmp_path: Path) -> None:
    code, out, shown = on_a_terminal(*args, cwd=tmp_path)
    assert code == 0, shown[-2000:]
    assert final_bar(shown, label) == (total, total)
    assert isinstance(json.loads(out), dict)


@pytest.mark.slow
def test_measuring_the_lens_moves_the_bar_with_each_photograph(tmp_path: Path) -> None:
    import cv2
    from test_intrinsics import POSES, charuco_view

    photos = tmp_path / "photos"
    photos.mkdir()
    for n, (rotation, distance) in enumerate(POSES[:5]):
        cv2.imwrite(str(photos / f"{n}.png"), charuco_view(rotation, distance))
    (photos / "5.png").write_bytes(b"not a photograph")  # looked at, not used
    code, out, shown = on_a_terminal("calibrate", "--intrinsics", str(photos), "--out",
                                     str(tmp_path / "calibration"), cwd=tmp_path)
    assert code == 0, shown
    assert final_bar(shown, "photographs of the ChArUco board read") == (6, 6)
    assert out.startswith("5 of 6 photographs used")


# --- the benchmarks' tick(done, total) ------------------------------------------------------


def ticks_of(run: Callable[..., Any], **settings: Any) -> list[tuple[int, int]]:
    seen: list[tuple[int, int]] = []
    run(**settings, tick=lambda done, total: seen.append((done, total)))
    return seen


def assert_it_goes_forward_to_the_end(seen: list[tuple[int, int]]) -> None:
    assert seen, "never ticked"
    assert all(0 < done <= total for done, total in seen), seen
    dones = [done for done, _ in seen]
    assert dones == sorted(dones), "the bar went back"
    assert seen[-1][0] == seen[-1][1], "the bar did not end full"


def test_the_engine_benchmark_counts_actions_played_then_replayed() -> None:
    seen = ticks_of(bench_engine, game="skirmish", actions=150, seed=0)
    assert_it_goes_forward_to_the_end(seen)
    figures = bench_engine("skirmish", actions=150, seed=0)
    assert seen[-1] == (2 * figures["actions"], 2 * figures["actions"])


def test_the_record_benchmark_counts_its_steps_and_chunks_of_appends() -> None:
    seen = ticks_of(bench_record, appends=60, long_game=50, game="skirmish")
    assert_it_goes_forward_to_the_end(seen)
    assert seen[-1] == (2 + 4, 2 + 4)  # 60 appends in chunks of 50, and four other steps


@pytest.mark.slow
def test_the_inputs_and_rumble_vision_benchmarks_tick_each_step() -> None:
    assert_it_goes_forward_to_the_end(ticks_of(bench_inputs, frames=200))
    seen = ticks_of(bench_rumble_vision, frames_=2, seed=1, size=(1200, 900), light_frames=1)
    assert_it_goes_forward_to_the_end(seen)
    assert seen[-1] == (4, 4)


def test_every_shipped_vision_benchmark_takes_a_tick() -> None:
    """The CLI gives a bar to a game's benchmark whose `run` takes `tick`; the shipped ones
    all do, so none runs silently."""
    for name in ("sekigahara", "rumble_nation"):
        assert takes_tick(game(name).need_vision_bench().run), name
    assert not takes_tick(len)


@pytest.mark.parametrize("name", ["sekigahara", "rumble_nation"])
def test_the_referee_benchmark_ticks_each_game_read_back(name: str) -> None:
    """`bench referee` gives its bar to each game's read-back: one tick a game, to the end."""
    from companion.bench import bench_referee

    seen = ticks_of(bench_referee, game=name, games=2, seed=5)
    assert_it_goes_forward_to_the_end(seen)
    assert seen[-1] == (2, 2)
