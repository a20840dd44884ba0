"""The engine's errors: a small typed hierarchy whose messages a player can act on."""

from __future__ import annotations

from collections.abc import Sequence

from companion.engine.core.values import Action

__all__ = ["EngineError", "IllegalAction", "UnknownGame", "UnknownRole"]


class EngineError(Exception):
    """Base of everything the engine raises on purpose."""


class IllegalAction(EngineError):
    """An action the rules forbid. The game state is untouched when this is raised.

    `rule` is the rulebook's number (`"7.3.1"`), `message` says what was wrong in a player's
    words, and `legal` lists (as text) what would have been allowed, where that is known.
    `alternatives` are the actions behind those words where the refusal suggests concrete
    actions: each one must be accepted by `decide` when played (a suggestion the rules then
    refuse misleads a table), which the every-game property test checks.
    """

    def __init__(
        self,
        rule: str,
        message: str,
        *,
        action: Action | None = None,
        legal: Sequence[str] = (),
        alternatives: Sequence[Action] = (),
    ) -> None:
        self.rule = rule
        self.message = message
        self.action = action
        self.legal = tuple(legal)
        self.alternatives = tuple(alternatives)
        super().__init__(self.describe())

    def describe(self) -> str:
        text = f"{self.message} (rule {self.rule})"
        if self.legal:
            shown = ", ".join(self.legal[:8])
            more = f" and {len(self.legal) - 8} more" if len(self.legal) > 8 else ""
            text += f"; legal: {shown}{more}"
        return text

    def with_action(self, action: Action) -> IllegalAction:
        """The same error, remembering the action that caused it."""
        return IllegalAction(self.rule, self.message, action=action, legal=self.legal,
                             alternatives=self.alternatives)


class UnknownGame(EngineError):
    """No rules are registered under that game name."""


class UnknownRole(EngineError):
    """A role the game does not have (views and actions both check)."""
