"""`companion rules`: the games the companion hosts, as `companion.games` finds them."""

from __future__ import annotations

import click

from companion.cli._capabilities import offers
from companion.games import all_games

__all__ = ["rules_command"]


@click.command("rules")
def rules_command() -> None:
    """List the games the companion hosts: names and aliases, rules, and what each can do."""
    for name, spec in all_games().items():
        game_type = spec.rules.game_type
        also = f" (also: {', '.join(spec.aliases)})" if spec.aliases else ""
        click.echo(f"{name:<14} {game_type.title} ({game_type.min_players}-"
                   f"{game_type.max_players} players; rules: {game_type.rulebook}){also}")
        click.echo(f"{'':<14} offers: {', '.join(offers(spec)) or 'rules and kit only'}")
