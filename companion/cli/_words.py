"""A game's position in a few lines for a person (`replay`, `games show`); `--json` prints
the whole view instead."""

from __future__ import annotations

from typing import Any

from companion.engine import PUBLIC, Game

__all__ = ["describe_view", "summary"]


def summary(game: Game[Any], applied: int, at_line: int | None) -> str:
    """The game, how many actions were replayed (up to which line), and how it stands."""
    game_type = game.rules.game_type
    where = f" up to line {at_line}" if at_line else ""
    outcome = game.outcome
    names = {role: role.replace("_", " ").title() for role in game.rules.roles}
    result = "in progress" if outcome is None else str(outcome.sentence(names))
    return f"{game_type.title}: {applied} actions replayed{where}; {result}"


def describe_view(view: dict[str, Any], game: Game[Any] | None = None, role: str = PUBLIC,
                  last: int = 5) -> str:
    """The position in a few readable lines (--json prints it all): the view's plain facts,
    its larger parts by size, and the last actions in words as `role` may know them."""
    lines = []
    for key, value in view.items():
        label = key.replace("_", " ")
        if value is None or isinstance(value, str | int | float | bool):
            lines.append(f"{label}: {'none' if value is None else value}")
        elif isinstance(value, list) and all(isinstance(v, str | int) for v in value):
            lines.append(f"{label}: {', '.join(str(v) for v in value) or 'none'}")
        elif isinstance(value, dict | list):
            lines.append(f"{label}: {len(value)} entries (--json shows them)")
    if game is not None and game.history:
        lines.append("last actions:")
        first = max(0, len(game.history) - last)
        for n in range(first, len(game.history)):
            said = game.rules.say(game.before(n), game.history[n].action, role)
            lines.append(f"  {n + 1}. {said}")
    return "\n".join(lines)
