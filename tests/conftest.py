"""What the test modules share as pytest fixtures: one Debian chromium per test module, and a user
data folder of each test's own. Helpers that are not fixtures are in helpers.py."""

from __future__ import annotations

import itertools
import os
import resource
import time
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

os.environ.setdefault("COMPANION_STRICT", "1")
"""A game's wording failure raises in the tests and in every process they start
(`companion.engine.core.wording`), never falls back to plain text unseen."""

CHROMIUM = "/usr/bin/chromium"
"""Debian's chromium (system-packages-test.txt): Playwright never downloads a browser."""

OUTSIDE = ("COMPANION_DB", "COMPANION_PUBLIC_URL", "COMPANION_SET", "COMPANION_BROADCAST",
           "COMPANION_BROADCAST_PASSWORD", "COMPANION_HOSTS")
"""The companion's environment variables a developer's shell may hold: never seen by a test."""


@pytest.fixture(scope="session", autouse=True)
def _session_user_data(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The whole session (with xdist: this worker) keeps what the companion writes in the user's
    data folder (`COMPANION_DATA`: calibrations, sets, settings, the referee's token, the game
    store) in a folder of its own, never the developer's nor another worker's; module fixtures
    see this one."""
    folder = tmp_path_factory.mktemp("userdata")
    saved = {name: os.environ.get(name) for name in ("COMPANION_DATA", *OUTSIDE)}
    for name in OUTSIDE:
        os.environ.pop(name, None)
    os.environ["COMPANION_DATA"] = str(folder)
    yield folder
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


_numbers = itertools.count(1)


@pytest.fixture(autouse=True)
def _user_data(_session_user_data: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test (and every `companion` it starts) has a user data folder of its own, not made
    until the companion makes it: no test sees what another left there, in whatever order or
    worker they run. A test that sets `COMPANION_DATA` itself overrides this."""
    folder = _session_user_data / str(next(_numbers))
    monkeypatch.setenv("COMPANION_DATA", str(folder))
    return folder


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under xdist's `--dist loadgroup` (`make test`), the tests that share a module-scoped
    fixture (a chromium, a broker, a served table, a measured board) run on one worker, which
    builds it once; every other test goes to whichever worker is free."""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None or item.get_closest_marker("xdist_group"):
            continue
        if any(definition.scope in ("module", "class", "package")
               for name in info.names_closure
               for definition in info.name2fixturedefs.get(name, ())):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
    items[:] = _longest_first(items)


def _longest_first(items: list[pytest.Item]) -> list[pytest.Item]:
    """The long tests that need no shared fixture (marked slow, the longest allowed first by
    their own time limit) go first, the rest after in their files' order: xdist hands out the
    tests in this order (after the groups), so a 3-minute test no longer starts last while the
    other worker sits idle. A group's tests keep their order and stay together."""
    def limit(item: pytest.Item) -> float:
        marker = item.get_closest_marker("timeout")
        if marker is not None and marker.args:
            return float(marker.args[0])
        return float(item.config.getini("timeout") or 0)

    first = [item for item in items
             if item.get_closest_marker("slow") and not item.get_closest_marker("xdist_group")]
    chosen = set(first)
    return (sorted(first, key=limit, reverse=True)
            + [item for item in items if item not in chosen])


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Chromium driven by Playwright, for the tests of one module (the browser tests)."""
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"])
        yield launched
        launched.close()


CPU_LOG = os.environ.get("COMPANION_CPU_LOG", "")
"""A file to append each test's CPU seconds to (its process and the children it waited for, a
module's browser when its last test ends), with its wall seconds: where the suite's time goes
(`COMPANION_CPU_LOG=/tmp/cpu.tsv make test`). Empty: not measured."""


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None
                            ) -> Generator[None, None, None]:
    if not CPU_LOG:
        yield
        return
    before, start = _cpu_seconds(), time.perf_counter()
    yield
    cpu, wall = _cpu_seconds() - before, time.perf_counter() - start
    with Path(CPU_LOG).open("a", encoding="utf-8") as log:
        log.write(f"{cpu:.2f}\t{wall:.2f}\t{item.nodeid}\n")


def _cpu_seconds() -> float:
    mine, waited = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                        resource.RUSAGE_CHILDREN))
    return mine.ru_utime + mine.ru_stime + waited.ru_utime + waited.ru_stime
