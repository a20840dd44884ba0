"""Lines a person typed (or a file of them), read so that one bad line costs that line only.

`companion register` reads its entries here: a line with a byte that is not UTF-8, or a line
longer than any entry can be, is reported by number and skipped, and every other line is still
taken. Reading bytes and decoding line by line is what makes that possible (a text stream
stops the whole read at the first undecodable byte), and reading at most `longest` bytes of a
line at a time keeps a line without an end from filling memory.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

__all__ = ["LONGEST_ENTRY", "EntryLine", "entry_lines"]

LONGEST_ENTRY = 1024
"""Characters in the longest line taken; a real entry (`card 0A00C2B3D4 tokugawa maeda
special`) is a few dozen."""
_CHUNK = 65_536


@dataclass(frozen=True)
class EntryLine:
    """Line `number` (1-based): its text, or why it was skipped (`problem`, text empty)."""

    number: int
    text: str
    problem: str | None = None


def entry_lines(stream: BinaryIO, longest: int = LONGEST_ENTRY) -> Iterator[EntryLine]:
    """Every line of `stream`, decoded as UTF-8; undecodable and over-long lines come with
    their problem instead of their text."""
    number = 0
    while line := stream.readline(longest + 1):
        number += 1
        if len(line) > longest and not line.endswith(b"\n"):
            length = len(line) + _rest_of_line(stream)
            yield EntryLine(number, "", f"a line of {length} characters is too long for an "
                            f"entry (at most {longest}): skipped")
            continue
        try:
            yield EntryLine(number, line.decode("utf-8"))
        except UnicodeDecodeError as exc:
            yield EntryLine(number, "", f"not UTF-8 text (byte 0x{line[exc.start]:02x} at "
                            f"column {exc.start + 1}): skipped")


def _rest_of_line(stream: BinaryIO) -> int:
    """Read past the rest of an over-long line; its length without the line end."""
    length = 0
    while part := stream.readline(_CHUNK):
        if part.endswith(b"\n"):
            return length + len(part.rstrip(b"\r\n"))
        length += len(part)
    return length
