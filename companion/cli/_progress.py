"""How a long command shows it is working without spoiling what it prints: a progress bar on
standard error (when that is a terminal), and standard output kept for the one JSON document
`--json` promises.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any

import click

__all__ = ["Progress", "stdout_to_stderr"]


@contextlib.contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """Standard output sent to standard error for a while, at the file descriptor, so that a
    child process started meanwhile (a browser, which may print as it starts) cannot write
    into the one JSON document --json promises on standard output."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


class Progress:
    """A progress bar on the terminal for a long job (click's own), on standard error so that
    --json output stays one clean object; nothing at all when standard error is not a terminal
    (a log, a pipe, a test), where a redrawn line would only be noise.

    `tick(total)` counts one more step (the simulator, the demo); `at(done, total)` puts the
    bar where a benchmark says it is (`companion.bench.Tick`), and `callback` is that, or None
    when no bar is drawn, so that a benchmark does no work for one. `say(line)` prints a line
    on standard output without leaving the bar's half-drawn line in front of it. As a context
    manager it closes the bar however the job ends."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.bar: Any = None
        self.shown = sys.stderr.isatty()

    @property
    def callback(self) -> Callable[[int, int], None] | None:
        return self.at if self.shown else None

    def tick(self, total: int = 0) -> None:
        if self.shown:
            self.at((0 if self.bar is None else self.bar.pos) + 1, total)

    def at(self, done: int, total: int) -> None:
        if not self.shown:
            return
        if self.bar is None:
            self.bar = click.progressbar(length=max(total, 1), label=self.label,
                                         file=sys.stderr, show_pos=True)
            self.bar.__enter__()
        elif total > 0 and total != self.bar.length:
            self.bar.length = total  # a total learnt on the way (games played, then replayed)
        if done > self.bar.pos:
            self.bar.update(done - self.bar.pos)

    def say(self, line: str) -> None:
        if self.bar is not None:
            sys.stderr.write("\r\033[K")  # the bar is drawn again at its next step
            sys.stderr.flush()
        click.echo(line)

    def done(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.done()
