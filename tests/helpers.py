"""What many test modules share besides fixtures (those are in conftest.py): waiting for a
condition instead of sleeping, a loopback port for a server, an action the rules must refuse
without changing the game, and the screenshots a person asks for."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from companion.engine import Action, Game, IllegalAction

T = TypeVar("T")


def wait_for(condition: Callable[[], T], timeout: float = 5.0,
             what: str | Callable[[], str] = "the condition", *, every: float = 0.02,
             alive: subprocess.Popen[Any] | None = None) -> T:
    """Ask `condition` every `every` seconds until it gives something truthy, and return that.
    Fail saying `what` (a callable: worked out when failing, e.g. a server's log) once `timeout`
    seconds have passed, or as soon as `alive`, a child the condition waits on, has exited."""
    deadline = time.monotonic() + timeout
    while True:
        found = condition()
        if found:
            return found
        if alive is not None and alive.poll() is not None:
            raise AssertionError(f"{_said(what)} (the child exited with {alive.returncode})")
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {_said(what)}")
        time.sleep(every)


def _said(what: str | Callable[[], str]) -> str:
    return what if isinstance(what, str) else what()


def free_port() -> int:
    """A loopback port nothing listens on now, for a server a test starts."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def listening(port: int) -> bool:
    """Whether a server accepts connections on loopback `port`."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
    except OSError:
        return False
    return True


def refusal(game: Game[Any], action: Action, rule: str | None = None) -> IllegalAction:
    """`action` is refused (IllegalAction) and leaves `game` as it was: the same state, the same
    history. Returns the refusal, checked to name `rule` when that is given."""
    before, history = game.state, len(game.history)
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    error = info.value
    assert game.state is before and len(game.history) == history, f"{action} changed the game"
    if rule is not None:
        assert error.rule == rule, error.describe()
    return error


def refused(game: Game[Any], action: Action, rule: str | None = None) -> str:
    """The rule `refusal` names: `assert refused(game, action) == "7.3.1"`."""
    return refusal(game, action, rule).rule


SHOTS_WANTED = os.environ.get("COMPANION_SHOTS", "") not in ("", "0")
"""`make shots` (COMPANION_SHOTS=1): the browser tests save a screenshot of each screen they
check, under tests/artifacts/, for a person to look at. Off in `make test`: 160 full-page
screenshots took a minute of the suite and asserted nothing."""


def screenshot(page: Any, path: Path, *, full_page: bool = True) -> None:
    """Save `page` (a Playwright page) as `path` when screenshots are wanted."""
    if SHOTS_WANTED:
        path.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path), full_page=full_page)
