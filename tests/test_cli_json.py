"""`--json` is honest on every command that offers it (issue 18): standard output holds exactly
one JSON document and nothing else (progress, warnings and prompts go to standard error), and a
command that fails exits non-zero with its reason on standard error.

The commands are found by walking the `companion` command's click tree, not listed by hand:
a command given a `--json` flag without a cheap invocation in `CHEAP` fails
`test_every_json_command_has_a_cheap_invocation`, so the audit stays complete. Each command
runs as its own process (`python -m companion`), so that a child process or a C library
writing to the real standard output would be caught too.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.games import game

SLOW = pytest.mark.slow

CHEAP: dict[str, list[list[str]]] = {
    "replay": [["replay", "--json", "{sample}"],
               ["replay", "--check", "--json", "{sample}"],
               ["replay", "--repatch", "--json", "{sample}"]],
    "games show": [["games", "show", "1", "--json", "--db", "{db}"]],
    "bench engine": [["bench", "engine", "--game", "skirmish", "--actions", "20", "--json"]],
    "bench referee": [["bench", "referee", "--games", "1", "--json"]],
    "bench record": [["bench", "record", "--game", "skirmish", "--appends", "10", "--json"]],
    "bench inputs": [["bench", "inputs", "--json"]],
    "bench vision": [["bench", "vision", "--game", "rumble", "--list-settings", "--json"],
                     ["bench", "vision", "--game", "rumble", "--frames", "1", "--json"]],
    "bench web": [["bench", "web", "--game", "skirmish", "--clients", "1", "--actions", "3",
                   "--idle-streams", "50", "--json"]],
    "bench broadcast": [["bench", "broadcast", "--tables", "1", "--actions", "2", "--pace", "0",
                         "--json"]],
    "sim": [["sim", "skirmish", "--games", "2", "--json"]],
    "demo": [["demo", "--game", "rumble", "--headless", "--json", "--port", "0", "--actions",
              "3"]],
    "review": [["review", "{film}", "--game", "rumble", "--db", "{film_db}", "--json"]],
}
"""For every command with --json: invocations that finish in seconds on a CI machine (the demo
at Rumble Nation's 2.7 MP table, a third of Sekigahara's CPU; test_every_command plays every
game's demo with --json)."""

SLOW_RUNS = {"bench web", "bench broadcast", "demo", "bench inputs",
             "bench vision --game rumble --frames 1 --json"}
"""Invocations over ~5 s (a server, a broker, a whole pipeline, a 12 MP corpus): `slow`."""


def json_commands(group: click.Group = main, path: tuple[str, ...] = ()) -> set[str]:
    """Every command of the tree under `group` that takes a --json flag, by its path."""
    found: set[str] = set()
    for name, command in group.commands.items():
        here = (*path, name)
        if isinstance(command, click.Group):
            found |= json_commands(command, here)
        elif any(p.name in ("json", "as_json") or "--json" in getattr(p, "opts", ())
                 for p in command.params):
            found.add(" ".join(here))
    return found


def companion(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COMPANION_DATA": str(cwd / "userdata"),
           "COMPANION_DB": str(cwd / "none.sqlite")}
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                          text=True, timeout=300, cwd=cwd, env=env, stdin=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def places(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The sample record, and a database holding it as game 1 (read only by the tests)."""
    sample = str(game("sekigahara").sample())
    folder = tmp_path_factory.mktemp("json")
    db = folder / "games.sqlite"
    imported = companion("games", "import", sample, "--db", str(db), cwd=folder)
    assert imported.returncode == 0, (imported.stdout, imported.stderr)
    film = folder / "film.avi"  # four frames of an empty table: a review that asks at once
    writer = cv2.VideoWriter(str(film), cv2.VideoWriter_fourcc(*"MJPG"), 2, (320, 240))
    for _ in range(4):
        writer.write(np.full((240, 320, 3), 90, np.uint8))
    writer.release()
    return {"sample": sample, "db": str(db), "film": str(film),
            "film_db": str(folder / "reviewed.sqlite")}


def one_document(result: subprocess.CompletedProcess[str]) -> object:
    """The JSON document standard output holds, failing if there is anything else."""
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    try:
        return json.loads(result.stdout)  # a second document or a stray line fails here
    except ValueError as exc:
        raise AssertionError(f"stdout is not one JSON document ({exc}): "
                             f"{result.stdout[:500]!r}") from None


def test_every_json_command_has_a_cheap_invocation() -> None:
    found = json_commands()
    assert found, "the walk found no --json command at all"
    assert found - set(CHEAP) == set(), "a --json command without a cheap invocation in CHEAP"
    assert set(CHEAP) - found == set(), "CHEAP lists a command that has no --json any more"
    assert {"replay", "games show", "sim", "demo", "bench engine", "bench vision"} <= found


def _runs() -> list[Any]:
    params = []
    for command, invocations in sorted(CHEAP.items()):
        for args in invocations:
            words = " ".join(args)
            slow = command in SLOW_RUNS or words in SLOW_RUNS
            params.append(pytest.param(args, id=words, marks=[SLOW] if slow else []))
    return params


@pytest.mark.parametrize("args", _runs())
def test_json_output_is_one_document(args: list[str], places: dict[str, str],
                                     tmp_path: Path) -> None:
    result = companion(*(a.format(**places) for a in args), cwd=tmp_path)
    figures = one_document(result)
    assert isinstance(figures, dict) and figures


def test_the_repatch_of_a_record_is_said_in_json(places: dict[str, str],
                                                tmp_path: Path) -> None:
    said: Any = one_document(companion("replay", "--repatch", "--json", places["sample"],
                                  cwd=tmp_path))
    assert said == {"records": [{"file": places["sample"], "changed": False,
                                 "recorded": said["records"][0]["recorded"],
                                 "now": said["records"][0]["recorded"], "problem": None}],
                    "changed": 0}
    assert said["records"][0]["now"].startswith("ishida")


def test_the_vision_settings_are_listed_in_json_with_their_defaults(tmp_path: Path) -> None:
    settings = one_document(companion("bench", "vision", "--game", "sekigahara",
                                      "--list-settings", "--json", cwd=tmp_path))
    assert settings == {"frames": 40, "sequences": 4, "seed": 0, "room": 8}


@pytest.mark.parametrize(("args", "code", "said"), [
    (["games", "show", "99", "--json", "--db", "{db}"], 1, "no game 99"),
    (["bench", "referee", "--game", "skirmish", "--games", "1", "--json"], 1,
     "Skirmish has no simulated player yet"),
    (["bench", "vision", "--game", "rumble", "--frames", "many", "--json"], 2,
     "'many' is not like the default 500"),
    (["bench", "engine", "--game", "chess", "--json"], 1, "chess"),
    (["replay", "--json", "{db}"], 1, "error:"),
], ids=["no such game", "no simulator", "bad setting", "unknown game", "not a record"])
def test_a_failing_json_command_says_why_on_stderr_and_prints_nothing(
        args: list[str], code: int, said: str, places: dict[str, str], tmp_path: Path) -> None:
    result = companion(*(a.format(**places) for a in args), cwd=tmp_path)
    assert result.returncode == code, (result.stdout, result.stderr)
    assert result.stdout == ""
    assert said in result.stderr and "Traceback" not in result.stderr
