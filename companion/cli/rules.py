"""`companion rules`: the games the companion hosts, as `companion.games` finds them, and each
game's rules one line each (the summaries shipped in its package: text an installed companion
has, unlike the rulebook files the project was written from)."""

from __future__ import annotations

import click

from companion.cli._capabilities import offers
from companion.cli._common import spec_of
from companion.games import all_games
from companion.i18n import LANGUAGES, rule_summaries, translator

__all__ = ["rules_command"]


@click.command("rules")
@click.argument("game_name", metavar="[GAME]", required=False)
@click.option("--lang", type=click.Choice(sorted(LANGUAGES)), default="en", show_default=True,
              help="The language of a game's rules.")
def rules_command(game_name: str | None, lang: str) -> None:
    """List the games the companion hosts: names and aliases, players and what each can do;
    with GAME, that game's rules one line each, as the screens cite them."""
    if game_name is not None:
        _summaries(game_name, lang)
        return
    for name, spec in all_games().items():
        game_type = spec.rules.game_type
        also = f" (also: {', '.join(spec.aliases)})" if spec.aliases else ""
        rules = (f"rules: `companion rules {name}`" if rule_summaries(spec.package)
                 else f"rules: {game_type.rulebook} in the project's repository"
                 if game_type.rulebook.startswith("docs/") else "rules: the rulebook in your box")
        click.echo(f"{name:<14} {game_type.title} ({game_type.min_players}-"
                   f"{game_type.max_players} players; {rules}){also}")
        click.echo(f"{'':<14} offers: {', '.join(offers(spec)) or 'rules and kit only'}")


def _summaries(game_name: str, lang: str) -> None:
    """Each rule the referee cites, by the number the screens show, in the project's words."""
    spec = spec_of(game_name)
    known = rule_summaries(spec.package)
    said = translator(lang, spec.package)
    click.echo(f"{spec.title}: the rules one line each, in the project's own words (the full "
               "text is the rulebook in your box; the screens cite these numbers).")
    if not known:
        click.echo("  (no summaries for this game yet)")
    width = max((len(rule) for rule in known), default=0)
    for rule, line in known.items():
        click.echo(f"  {rule:<{width}}  {said(line)}")
