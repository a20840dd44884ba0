"""What the inputs report: small timestamped events. The referee decides what they mean."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ButtonPressed", "CardScanned", "InputEvent", "ReadProblem"]


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
