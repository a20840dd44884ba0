"""The `companion` command: a registry of command modules, one per command group (as pip's
`commands/`), each holding option parsing and printing only.

A command reads its options, calls the layer that does the work (`companion.record`,
`.vision`, `.table`, `.bench`, ...) and says the answer in words, or as one JSON object with
`--json`; its exit code is 0 when all is well, 1 when the input has a problem, 2 for a usage
error. No command names a game except as a default (`DEFAULT_GAME`): a game or kit argument
is a name or an alias (`rumble-nation`, `rumble`), looked up through `companion.games`, and
what a game can do is asked of its spec in one module (`_capabilities`). A game without a
capability a command needs makes the command exit 1 with the spec's sentence ("Skirmish has
no table referee yet").
"""

from __future__ import annotations

import click

from companion import __version__
from companion.cli._common import DEFAULT_GAME
from companion.cli.bench import bench
from companion.cli.broadcast import broadcast_command
from companion.cli.calibrate import calibrate_command
from companion.cli.demo import demo_command
from companion.cli.games import games
from companion.cli.hardware import hardware_group
from companion.cli.kit import kit
from companion.cli.printing import print_card_labels, print_mat, print_tags
from companion.cli.register import register
from companion.cli.replay import replay_command, sim_command, simulate
from companion.cli.review import review_command
from companion.cli.rules import rules_command
from companion.cli.serve import serve_command
from companion.cli.setup import referee_link_command, setup_command

__all__ = ["COMMANDS", "DEFAULT_GAME", "main"]

COMMANDS: tuple[click.Command, ...] = (
    kit, rules_command, replay_command, simulate, sim_command, bench, games, demo_command,
    serve_command, setup_command, referee_link_command, calibrate_command, print_tags,
    print_mat, print_card_labels, register, hardware_group, broadcast_command, review_command)
"""The registry: every command and command group `companion` offers, each from its module."""


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="companion")
def main() -> None:
    """Tabletop Companion: watches a board wargame, referees it and records it."""


for _command in COMMANDS:
    main.add_command(_command)
