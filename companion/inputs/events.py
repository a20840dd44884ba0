"""What the inputs report: small timestamped events. The referee decides what they mean."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MAX_CODE_LENGTH", "ButtonPressed", "CardScanned", "InputEvent", "ReadProblem",
           "unusable_code"]

MAX_CODE_LENGTH = 64
"""The longest card code any reader passes on. Real codes are far shorter (`CARD:<card id>`,
ten hex digits of an RFID UID); anything longer is noise, a misread or a foreign code, and a
bound keeps a reader's memory small whatever arrives."""


@dataclass(frozen=True)
class CardScanned:
    """A card code read by a reader (`rfid`, `scanner`, `camera`, `tablet`)."""

    code: str
    reader: str
    at: float


@dataclass(frozen=True)
class ButtonPressed:
    name: str
    at: float


@dataclass(frozen=True)
class ReadProblem:
    """Something unreadable arrived: said plainly, logged, and nothing else happens."""

    reader: str
    message: str
    at: float


InputEvent = CardScanned | ButtonPressed | ReadProblem


def unusable_code(code: str, what: str = "code", longest: int = MAX_CODE_LENGTH) -> str | None:
    """Why `code` cannot name a card (too long, blank, unprintable), or None when it can.

    Every reader asks the same question, so a code refused by one is refused by all, and the
    reason reads the same on the tablet whichever reader it came from."""
    if len(code) > longest:
        return f"a {what} of {len(code)} characters is too long for a card code"
    if not code.strip():
        return f"a blank {what}"
    if not code.isprintable():
        return f"a {what} with unprintable characters: {code!r}"
    return None
