"""What the test modules share as pytest fixtures: one Debian chromium per test module."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, sync_playwright

os.environ.setdefault("COMPANION_STRICT", "1")
"""A game's wording failure raises in the tests and in every process they start
(`companion.engine.core.wording`), never falls back to plain text unseen."""

CHROMIUM = "/usr/bin/chromium"
"""Debian's chromium (system-packages-test.txt): Playwright never downloads a browser."""


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
