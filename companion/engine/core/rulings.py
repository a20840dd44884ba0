"""What a game's table referee says about what the table showed: the one vocabulary the table
session, the tablet and every game share.

A `Proposal` is one action the rules accept (it is recorded); a `Question` offers the actions
that fit when several do (the tablet shows them as choices, the table's buttons can pick one);
an `Alert` says that nothing legal fits, with the rule, in words the acting player understands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.engine.core.rules import REFEREE
from companion.engine.core.sentence import Sentence
from companion.engine.core.values import Action

__all__ = ["Alert", "Proposal", "Question", "Ruling"]


@dataclass(frozen=True)
class Proposal:
    action: Action


@dataclass(frozen=True)
class Question:
    text: str
    options: tuple[Action, ...]


@dataclass(frozen=True)
class Alert:
    """A refusal: the rule, what was wrong, what would have been legal, and whose it is.

    The message and fixes are usually `Sentence`s, so that each screen says them in its own
    language."""

    rule: str
    message: str
    legal: tuple[str, ...] = ()
    role: str | None = None
    """The side whose action it refuses: only it (and the referee) may read the message,
    which can name its hidden pieces and cards. None: the referee only."""
    fix: str = ""
    """What to do about it, in words ("put the 3 blocks back at Gifu"); may name the acting
    side's hidden pieces, so only it and the referee read it."""
    public_fix: str = ""
    """The same fix for everyone else, without hidden identities ("put the 3 blocks back at
    Gifu" rather than naming them); empty: the others are told no fix."""

    def for_role(self, viewer: str) -> dict[str, Any]:
        """The acting role (and the referee) see the message and the fix; others only the
        rule number and the public fix, since a message may name the actor's own hidden
        pieces."""
        role = self.role or REFEREE
        if viewer in (role, REFEREE):
            return {"role": role, "rule": self.rule, "message": self.message,
                    "legal": list(self.legal), "fix": self.fix or self.public_fix}
        return {"role": role, "rule": self.rule,
                "message": Sentence("An action by {role} was refused",
                                    role=Sentence(role.capitalize())),
                "legal": [], "fix": self.public_fix}


Ruling = Proposal | Question | Alert
