"""A wording failure raises in the tests and is logged, never silent, at the table (issue 30:
"a wording failure raises in tests rather than falling back to plain text")."""

from __future__ import annotations

import logging

import pytest

from companion.engine.core.wording import STRICT, worded


def _broken() -> str:
    raise KeyError("kita_1")


def test_a_wording_failure_raises_under_the_tests_strict_setting(monkeypatch):
    monkeypatch.setenv(STRICT, "1")
    with pytest.raises(KeyError, match="kita_1"):
        worded(_broken, lambda: "plain", "a move")


def test_at_the_table_it_falls_back_and_logs_the_failure(monkeypatch, caplog):
    monkeypatch.setenv(STRICT, "0")
    with caplog.at_level(logging.ERROR, logger="companion.engine.core.wording"):
        assert worded(_broken, lambda: "plain", "a move") == "plain"
    assert "could not word a move" in caplog.text and "KeyError" in caplog.text


def test_the_suite_runs_strict():
    import os

    assert os.environ.get(STRICT) == "1"
