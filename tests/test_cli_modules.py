"""The command line as a registry of small modules (#30): each command group in a module of
its own under `companion/cli/`, none over 300 lines, and `companion --help` offering the very
commands the single `cli.py` offered before."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import click
from click.testing import CliRunner

from companion.cli import COMMANDS, main

CLI = Path(__file__).parents[1] / "companion" / "cli"
LONGEST = 300

BEFORE = {
    "bench": ["broadcast", "engine", "inputs", "record", "referee", "vision", "web"],
    "broadcast": None, "calibrate": None, "demo": None,
    "games": ["delete", "export", "import", "list", "repatch", "show"],
    "hardware": ["plan"], "kit": ["author", "check", "list"],
    "print-card-labels": None, "print-mat": None, "print-tags": None, "referee-link": None,
    "register": None, "replay": None, "rules": None, "serve": None, "setup": None, "sim": None,
    "simulate": None,
}
"""Every command and subcommand of companion/cli.py as it was (main, before the split)."""
ADDED = {"review": None}
"""Commands added since the split, each in its own module: `review` (issue 33)."""
NOW = {**BEFORE, **ADDED}


def test_every_module_of_the_command_line_is_short():
    long = {p.name: n for p in CLI.glob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > LONGEST}
    assert not long, f"over {LONGEST} lines: {long}"


def test_help_lists_the_same_commands_as_before():
    result = CliRunner().invoke(main, ["--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    listed = re.findall(r"^  ([a-z][a-z-]*)  ", result.output.split("Commands:")[1], re.M)
    assert listed == sorted(NOW)
    for name, subcommands in NOW.items():
        command = main.commands[name]
        if subcommands is None:
            assert not isinstance(command, click.Group), name
        else:
            assert isinstance(command, click.Group) and sorted(command.commands) == subcommands


def test_each_command_comes_from_its_own_module_and_modules_share_only_helpers():
    """The registry names every command once; a command module imports the shared helpers
    (`_common`, `_capabilities`, ...), never another command's module."""
    assert sorted(c.name or "" for c in COMMANDS) == sorted(NOW)
    for path in CLI.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {node.module for node in ast.walk(tree)
                    if isinstance(node, ast.ImportFrom) and node.module}
        siblings = {m.rsplit(".", 1)[1] for m in imported if m.startswith("companion.cli.")}
        if path.name != "__init__.py":
            assert all(s.startswith("_") for s in siblings), (path.name, siblings)
