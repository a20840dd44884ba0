"""One folder per game, hosted by generic layers (issue 15): games are found by looking, the
host never names one, and the layers import only what the design lets them."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.engine import rules_class
from companion.games import GameSpec, MissingCapability, UnknownGameName, all_games, game, names
from companion.kits import load_kit

ROOT = Path(__file__).parents[1] / "companion"
GAMES = ROOT / "games"
IO_LIBRARIES = ("cv2", "flask", "werkzeug", "uvicorn", "a2wsgi", "sqlite3", "serial", "gpiozero",
                "numpy", "PIL", "pyzbar", "segno", "fpdf")
HOST_LAYERS = ("companion.vision", "companion.web", "companion.inputs", "companion.record",
               "companion.table", "companion.live", "companion.demo")


def _modules_after_import(module: str) -> set[str]:
    """What importing `module` in a fresh interpreter pulls in (the real import graph)."""
    code = f"import sys, json, {module}; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    return set(json.loads(out))


def _top(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


def test_every_game_folder_is_found_with_its_name_and_aliases():
    found = all_games()
    assert {"sekigahara", "rumble_nation", "skirmish"} <= set(found)
    for name, spec in found.items():
        assert isinstance(spec, GameSpec) and spec.name == name
        assert rules_class(name) is spec.rules and spec.rules.game_type.name == name
        assert load_kit(spec.kit).game == name
        assert game(name.replace("_", "-")) is spec  # rumble-nation and rumble_nation
    assert game("Rumble-Nation").name == "rumble_nation"
    assert rules_class("rumble-nation") is found["rumble_nation"].rules
    assert load_kit("rumble-nation").game == "rumble_nation"
    assert names() == sorted(found)


def test_an_unknown_game_is_named_with_the_games_there_are():
    with pytest.raises(UnknownGameName, match=r"no game called 'shogi'.*sekigahara"):
        game("shogi")


def test_a_missing_capability_is_said_in_a_sentence():
    with pytest.raises(MissingCapability, match=r"^Skirmish has no table referee yet$"):
        game("skirmish").need_table()
    assert not game("skirmish").has("screen")


@pytest.mark.parametrize("name", sorted(all_games()))
def test_a_games_rules_import_no_io_and_no_host_layer(name):
    """A game's rules are pure: importing them pulls in no OpenCV, Flask, serial, GPIO or
    SQLite, and no vision, web, inputs, record or table layer."""
    loaded = _modules_after_import(f"companion.games.{name}.rules")
    assert not _top(loaded) & set(IO_LIBRARIES), sorted(_top(loaded) & set(IO_LIBRARIES))
    assert not {m for m in loaded if m.startswith(HOST_LAYERS)}
    others = {m for m in loaded if m.startswith("companion.games.")
              and m.split(".")[2] in all_games() and m.split(".")[2] != name}
    assert not others, f"{name}'s rules import another game: {sorted(others)}"


def test_the_engine_core_imports_no_io_library():
    loaded = _modules_after_import("companion.engine")
    assert not _top(loaded) & set(IO_LIBRARIES), sorted(_top(loaded) & set(IO_LIBRARIES))
    assert not {m for m in loaded if m.startswith(HOST_LAYERS)}


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


GAME_FOLDERS = sorted(p.name for p in GAMES.iterdir() if (p / "__init__.py").is_file())


def _games_imported(path: Path) -> set[str]:
    """The games `path` imports: `companion.games.X...`, and `from companion.games import X`."""
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
    games = {m.split(".")[2] for m in modules if m.startswith("companion.games.")}
    return games & set(GAME_FOLDERS)


@pytest.mark.parametrize("name", GAME_FOLDERS)
def test_no_module_of_a_game_imports_another_game(name):
    """Games stand apart: every module in a game's folder (rules, reader, synth, simulator,
    benches), imports at call time included, imports its own game and the host layers only;
    what two games share lives in a host layer (`companion.vision.counted_table`, ...)."""
    problems = [f"{path.relative_to(ROOT)} imports {sorted(others)}"
                for path in sorted((GAMES / name).rglob("*.py"))
                if (others := _games_imported(path) - {name})]
    assert not problems, "\n".join(problems)


def test_the_web_and_the_table_session_do_not_import_each_other():
    for path in (ROOT / "web").rglob("*.py"):
        assert not {m for m in _imports(path)
                    if m.startswith(("companion.table", "companion.live"))}, path
    for path in (ROOT / "table").rglob("*.py"):
        assert not {m for m in _imports(path) if m.startswith("companion.web")}, path


def _outside_game_folders() -> list[Path]:
    return [p for p in ROOT.rglob("*.py") if GAMES not in p.parents]


def _game_words() -> set[str]:
    """Names, aliases and the rules' and kits' class names of every game."""
    words: set[str] = set()
    for spec in all_games().values():
        words |= {spec.name, *spec.aliases, spec.rules.__name__}
        words.add(type(load_kit(spec.kit)).__name__)
    return words


def test_no_layer_outside_a_game_folder_imports_or_checks_for_a_particular_game():
    """No `isinstance(x, SekigaharaRules)`, no `game == "rumble_nation"`, no import of a game's
    package outside its own folder: the host asks the game's spec for what it can do."""
    words = _game_words()
    problems = []
    for path in _outside_game_folders():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for module in _imports(path):
            if module.startswith("companion.games.") and module.split(".")[2] in all_games():
                problems.append(f"{path.relative_to(ROOT)}: imports {module}")
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare):
                for side in (node.left, *node.comparators):
                    if isinstance(side, ast.Constant) and side.value in words:
                        problems.append(f"{path.relative_to(ROOT)}:{node.lineno}: compares "
                                        f"with {side.value!r}")
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "isinstance":
                named = {getattr(n, "id", getattr(n, "attr", "")) for n in ast.walk(node)}
                if named & words:
                    problems.append(f"{path.relative_to(ROOT)}:{node.lineno}: isinstance "
                                    f"{sorted(named & words)}")
    assert not problems, "\n".join(problems)


GENERIC_HELPERS = [Path(__file__).parent / name for name in ("conftest.py", "web_helpers.py")]
"""The test helpers every game's tests use: like the host, they name no game."""


def _named_games(path: Path, words: set[str]) -> list[str]:
    """Each string constant of `path` that is a game's name or alias (`"sekigahara"` as an
    argument, a default, a dict key): the host asks the games' specs instead. Docstrings and
    sentences mention games freely; only a bare name is a choice made for a game."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"{path.name}:{node.lineno}: {node.value!r}" for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and node.value.replace("-", "_") in words]


def test_no_host_module_or_generic_test_helper_names_a_game():
    """Not even as a default or a table entry (a per-game table of player names in the
    broadcast, a bench on one game's kit, a helper per game): what differs by game comes from
    the game's folder through its spec (`default`, `showcase`, `secrets`, `long_game`, ...)."""
    names = {n.replace("-", "_") for spec in all_games().values()
             for n in (spec.name, *spec.aliases)}
    problems = [problem for path in [*_outside_game_folders(), *GENERIC_HELPERS]
                for problem in _named_games(path, names)]
    assert not problems, "\n".join(problems)


def test_no_module_outside_a_game_folder_is_named_for_a_game():
    """A game's module lives in its folder (the kit author's description of Shogun's board
    was `kits/author_shogun.py`)."""
    names = {n.replace("-", "_") for spec in all_games().values()
             for n in (spec.name, *spec.aliases)}
    misplaced = [str(p.relative_to(ROOT)) for p in _outside_game_folders()
                 if any(part in names for part in p.stem.split("_"))
                 or any(p.stem.endswith(f"_{name}") for name in names)]
    assert not misplaced, misplaced


def test_the_page_shell_names_no_game_and_no_role():
    """The tablet's shared JavaScript and templates draw whatever the game's screen module
    draws: no game's name or roles appear in them."""
    words = {w for w in _game_words() if not w[0].isupper()}
    for spec in all_games().values():
        words |= set(rules_class(spec.name)(load_kit(spec.kit)).roles)
    shell = [*(ROOT / "web" / "static").glob("*.js"), *(ROOT / "web" / "templates").glob("*")]
    for path in shell:
        text = path.read_text(encoding="utf-8").lower()
        named = sorted(w for w in words if f'"{w}"' in text or f"'{w}'" in text)
        assert not named, f"{path.name} names {named}"
