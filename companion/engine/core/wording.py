"""When a game's words fail: loud in development, a logged fallback at the table.

A game's `say` and `marks` call its rules and raise on anything they cannot word (issue 30):
a wording bug must surface, not degrade to plain text. The host still words an old record's
line it can no longer read (a verb renamed since, a correction the rules do not expect) with
the engine's generic sentence rather than break a replay page in front of players; it logs the
failure with its traceback. Under `COMPANION_STRICT=1` (the test suite sets it for itself and
every process it starts) it raises instead, so no test passes over a wording bug.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import TypeVar

__all__ = ["STRICT", "strict", "worded"]

T = TypeVar("T")
STRICT = "COMPANION_STRICT"
"""The environment variable that makes a wording failure raise."""

log = logging.getLogger(__name__)


def strict() -> bool:
    return os.environ.get(STRICT, "") not in ("", "0")


def worded(say: Callable[[], T], fallback: Callable[[], T], what: str) -> T:
    """`say()`, or, when it raises, `fallback()` with the failure logged (raised when
    strict). `what` says which line or mark it was, for the log."""
    try:
        return say()
    except Exception:
        if strict():
            raise
        log.exception("could not word %s: said plainly instead", what)
        return fallback()
