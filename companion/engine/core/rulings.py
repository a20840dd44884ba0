"""What a game's table referee says about what the table showed: the one vocabulary the table
session, the tablet and every game share.

A `Proposal` is one action the rules accept (it is recorded); a `Question` offers the actions
that fit when several do (the tablet shows them as choices, the table's buttons can pick one);
an `Alert` says that nothing legal fits, with the rule, in words the acting player understands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from companion.engine.core.rules import REFEREE
from companion.engine.core.sentence import Sentence, from_data, to_data
from companion.engine.core.values import Action

__all__ = ["CAUSES", "Alert", "Cause", "Proposal", "Question", "Ruling"]

CauseKind = Literal["choice", "doubt", "confirmation"]
CAUSES: tuple[CauseKind, ...] = ("choice", "doubt", "confirmation")
"""Why a question is put, in the order the figures list them."""


@dataclass(frozen=True)
class Proposal:
    """An action the rules accept, played at once. `notice`: a reading the referee is sure of
    and the players cannot simply see (a tray's cubes, with what they decide), shown big with
    one tap to take it back, instead of a question asking to confirm it (issue 36: confirm by
    not objecting); empty for a move the table itself shows."""

    action: Action
    notice: str = ""


@dataclass(frozen=True)
class Cause:
    """Why the table asks rather than plays (issue 36): a `choice` the rules leave to a player
    and no camera can see (`rule` says which), a `doubt` of the camera (`zone` it could not
    read, `reason`), or a `confirmation` of what the camera read clearly (`rule`). A
    companion that asks every other move is switched off: the figures count questions by
    cause, so each kind can be measured and reduced on its own terms."""

    kind: CauseKind
    rule: str = ""
    zone: str = ""
    reason: str = ""

    @classmethod
    def choice(cls, rule: str) -> Cause:
        return cls("choice", rule=rule)

    @classmethod
    def doubt(cls, zone: str, reason: str) -> Cause:
        return cls("doubt", zone=zone, reason=reason)

    @classmethod
    def confirmation(cls, rule: str) -> Cause:
        return cls("confirmation", rule=rule)

    def said(self) -> Sentence:
        """The cause as the tablet's log says it ("asked: the camera could not count Kyo");
        `zone` is already in a player's words (the referee names its zones)."""
        if self.kind == "doubt":
            return Sentence("asked: the camera could not read {zone} ({reason})",
                            zone=self.zone, reason=self.reason)
        if self.kind == "confirmation":
            return Sentence("asked: to confirm what the camera read (rule {rule})",
                            rule=self.rule)
        return Sentence("asked: a choice the rules leave to the player (rule {rule})",
                        rule=self.rule)

    def to_data(self) -> dict[str, str]:
        return {"kind": self.kind, "rule": self.rule, "zone": self.zone, "reason": self.reason}

    @classmethod
    def from_data(cls, data: Any) -> Cause | None:
        """`to_data` read back; None for anything else (a question kept by an older
        companion)."""
        if not isinstance(data, dict) or data.get("kind") not in CAUSES:
            return None
        return cls(data["kind"], *(str(data.get(k) or "") for k in ("rule", "zone", "reason")))


@dataclass(frozen=True)
class Question:
    """Several actions fit what the table showed, or a choice waits that it cannot show: the
    options to pick from, and why the table asks (`cause`, which every referee must give)."""

    text: str
    options: tuple[Action, ...]
    cause: Cause


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

    def to_data(self) -> dict[str, Any]:
        """The alert as a store keeps it (JSON-ready): its sentences keep their templates, so
        that each screen still says them in its own language after a restart."""
        return {"rule": self.rule, "message": to_data(self.message),
                "legal": [to_data(text) for text in self.legal], "role": self.role,
                "fix": to_data(self.fix), "public_fix": to_data(self.public_fix)}

    @classmethod
    def from_data(cls, data: Any) -> Alert | None:
        """The alert `to_data` kept; None for anything else (a store written by another
        version: the table's next look says whether it is in order)."""
        if not isinstance(data, dict) or not isinstance(data.get("rule"), str):
            return None
        role, legal = data.get("role"), data.get("legal", [])
        return cls(data["rule"], from_data(data.get("message", "")),
                   tuple(from_data(text) for text in legal) if isinstance(legal, list) else (),
                   role if isinstance(role, str) else None, from_data(data.get("fix", "")),
                   from_data(data.get("public_fix", "")))

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
