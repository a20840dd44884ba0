"""Golden playthroughs of the reference records (OpenSpiel's `integration_tests/playthroughs`).

Every game ships reference records (`samples=` in its `GameSpec`). For each one, a golden file
here (`tests/golden/<game>/<sample>.jsonl.gz`) holds, step by step, everything a change in the
rules would alter: the action's text, the events' text, the action in each viewer's words, who
may act, each acting role's legal actions (count and texts), each role's view (`public`, every
player, `referee`) and the outcome. `tests/test_reference_records.py` replays each record and
compares the result with its golden file line by line; the first line that differs is reported
with its step, role and field, the path of the first differing value and a unified diff.

The file is gzip'd JSON Lines (canonical JSON, one line per step, field and role), so that full
views at every step stay small enough for git: a whole game's views are megabytes as text and
a few hundred kilobytes compressed. `python -m tests.golden` checks them all and
`python -m tests.golden --update` rewrites them on purpose (docs/record-format.md).
"""

from __future__ import annotations

import difflib
import gzip
import hashlib
import io
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.engine import PUBLIC, REFEREE, Action, IllegalAction, canonical_json
from companion.games import GameSpec, all_games
from companion.record import UNDO, Replayer, read_record

__all__ = ["FORMAT", "HERE", "LEGAL_TEXTS_LIMIT", "VERSION", "Difference", "Reference",
           "compare", "encode", "playthrough", "read_golden", "references"]

HERE = Path(__file__).resolve().parent
FORMAT = "tabletop-companion-playthrough"
VERSION = 1
LEGAL_TEXTS_LIMIT = 5000
"""Beyond this many legal actions at one step, a golden keeps their count and a SHA-256 of
their texts instead of the texts (still failing on any change, but without a readable diff).
No reference record comes near it today (Barletta's most is under 900)."""
DIFF_LINES = 80
"""The most lines of a unified diff a failure shows."""

Line = dict[str, Any]


@dataclass(frozen=True)
class Reference:
    """One shipped sample record of a game, and where its golden playthrough lives."""

    spec: GameSpec
    sample: str

    @property
    def name(self) -> str:
        return f"{self.spec.name}/{self.sample}"

    @property
    def record(self) -> Path:
        return self.spec.sample(self.sample)

    @property
    def golden(self) -> Path:
        return HERE / self.spec.name / f"{Path(self.sample).stem}.jsonl.gz"


def references() -> list[Reference]:
    """Every sample of every registered game, in name order."""
    return [Reference(spec, sample) for spec in all_games().values() for sample in spec.samples]


def _json(value: Any) -> Any:
    """`value` as it reads back from JSON (tuples become lists, mappings dicts)."""
    return json.loads(canonical_json(value))


def _legal(step: int, role: str, actions: Sequence[Action]) -> Line:
    texts = [a.text() for a in actions]
    line: Line = {"step": step, "field": "legal", "role": role, "count": len(texts)}
    if len(texts) > LEGAL_TEXTS_LIMIT:
        line["sha256"] = hashlib.sha256("\n".join(texts).encode()).hexdigest()
    else:
        line["value"] = texts
    return line


def playthrough(record_path: Path) -> Iterator[Line]:
    """The lines of a record's playthrough: a header, then for step 0 (the position before the
    first action) and each record line after it, the action and what the rules made of it.

    The actions are run through today's rules and the events are today's, not the recorded
    ones (as `companion replay --repatch` does), so that a rules change that alters events
    shows in the comparison as the events, views and legal actions it changes, step by step;
    `replay --check` reports the same change as a divergence from the record. Where today's
    rules refuse an action (or an undo), the step's last line says why and the playthrough
    stops there, so that a comparison names that step instead of failing with a traceback.
    """
    record = read_record(record_path)
    replayer = Replayer(record.header, str(record_path))
    game = replayer.game
    roles = [PUBLIC, *game.rules.roles, REFEREE]
    yield {"field": "header", "format": FORMAT, "version": VERSION, "game": record.header.game,
           "options": _json(record.header.options), "roles": roles,
           "steps": len(record.entries)}
    yield from _position(game, roles, 0)
    for step, entry in enumerate(record.entries, start=1):
        before = game.state
        yield {"step": step, "field": "action", "line": entry.line,
               "value": entry.action.text()}
        if entry.action.role == REFEREE and entry.action.verb == UNDO:
            problem = replayer.feed(entry)
            if problem is not None:
                yield {"step": step, "field": "replay", "value": str(problem)}
                return
            yield {"step": step, "field": "events", "value": []}
        else:
            try:
                events = game.apply(entry.action)
            except IllegalAction as exc:
                yield {"step": step, "field": "replay", "value":
                       f"line {entry.line}: illegal (rule {exc.rule}): {exc.describe()}"}
                return
            replayer.effective.append(entry)
            yield {"step": step, "field": "events", "value": [e.text() for e in events]}
            yield {"step": step, "field": "said", "value": {
                role: game.rules.say_recorded(before, entry.action, role, "en")
                for role in roles}}
        yield from _position(game, roles, step)


def _position(game: Any, roles: list[str], step: int) -> Iterator[Line]:
    """Where the game stands after `step`: who may act, what each may do, what each sees."""
    waiting = list(game.to_move())
    yield {"step": step, "field": "to_move", "value": waiting}
    for role in waiting:
        yield _legal(step, role, game.legal_actions(role))
    for role in roles:
        yield {"step": step, "field": "view", "role": role, "value": _json(game.view(role))}
    outcome = game.outcome
    yield {"step": step, "field": "outcome",
           "value": None if outcome is None else _json(outcome.to_json())}


def encode(lines: Sequence[Line]) -> bytes:
    """The golden file's bytes: canonical JSON lines, gzip'd without a name or a time in its
    header, so that the same playthrough always gives the same bytes on one machine."""
    text = "".join(canonical_json(line) + "\n" for line in lines).encode("utf-8")
    out = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, compresslevel=9, mtime=0) as gz:
        gz.write(text)
    return out.getvalue()


def read_golden(path: Path) -> list[Line]:
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


@dataclass(frozen=True)
class Difference:
    """The first line where a playthrough and its golden file disagree, and how many do."""

    expected: Line | None
    """The golden file's line (None: the golden file has no such line)."""
    actual: Line | None
    """Today's line (None: today's playthrough has no such line)."""
    differing: int
    """How many lines differ in all (or are on one side only)."""
    steps: tuple[int, int]
    """The first and last step where a line differs."""

    def where(self) -> str:
        """`step 40, role red, field view, at /board/kyo`: what a reader looks up first."""
        line = self.expected or self.actual or {}
        parts = [f"step {line.get('step', '-')}"]
        if "role" in line:
            parts.append(f"role {line['role']}")
        parts.append(f"field {line.get('field')}")
        if self.expected is not None and self.actual is not None:
            path = (first_path(self.expected.get("value"), self.actual.get("value"))
                    or first_path(self.expected, self.actual))
            if path:
                parts.append(f"at {path}")
        return ", ".join(parts)

    def report(self, golden: str = "golden") -> str:
        """A failure message: where, how much, and a unified diff of the two JSON texts."""
        first, last = self.steps
        span = f"step {first}" if first == last else f"steps {first} to {last}"
        diff = list(difflib.unified_diff(
            _pretty(self.expected).splitlines(), _pretty(self.actual).splitlines(),
            fromfile=f"{golden} (expected)", tofile="today's rules (actual)", lineterm=""))
        if len(diff) > DIFF_LINES:
            diff = [*diff[:DIFF_LINES], f"... ({len(diff) - DIFF_LINES} more diff lines)"]
        return "\n".join([f"first difference: {self.where()}",
                          f"{self.differing} line(s) of the playthrough differ, over {span}",
                          *diff])


def _pretty(line: Line | None) -> str:
    if line is None:
        return "(no such line)\n"
    return json.dumps(line, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def first_path(expected: Any, actual: Any, path: str = "") -> str:
    """The JSON path (`/board/kyo`) of the first place two values differ, or ''; where one
    list is the other and more, the index where the shorter ends."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual)):
            if expected.get(key, _MISSING) != actual.get(key, _MISSING):
                return first_path(expected.get(key), actual.get(key), f"{path}/{key}")
        return ""
    if isinstance(expected, list) and isinstance(actual, list):
        for index, (old, new) in enumerate(zip(expected, actual, strict=False)):
            if old != new:
                return first_path(old, new, f"{path}/{index}")
        shorter = min(len(expected), len(actual))
        return f"{path}/{shorter}" if len(expected) != len(actual) else ""
    return path if expected != actual else ""


_MISSING = object()


def _key(line: Line) -> tuple[int, str, str]:
    return (line.get("step", -1), str(line.get("field")), str(line.get("role", "")))


def _ranks(lines: Sequence[Line]) -> dict[tuple[int, str, str], int]:
    """Each line's place among the lines of its step."""
    ranks: dict[tuple[int, str, str], int] = {}
    starts: dict[int, int] = {}
    for index, line in enumerate(lines):
        key = _key(line)
        ranks[key] = index - starts.setdefault(key[0], index)
    return ranks


def compare(expected: Sequence[Line], actual: Sequence[Line]) -> Difference | None:
    """None when the two playthroughs are equal, else their first difference.

    Lines are matched by (step, field, role), not by position, so that a line one side has and
    the other lacks (a role that may act at one step only) shows as that line alone."""
    wanted = {_key(line): line for line in expected}
    got = {_key(line): line for line in actual}
    rank = {**_ranks(actual), **_ranks(expected)}  # where the golden has a line, its place
    differing = sorted((key for key in rank if wanted.get(key) != got.get(key)),
                       key=lambda key: (key[0], rank[key]))
    if not differing:
        return None
    first = differing[0]
    return Difference(wanted.get(first), got.get(first), len(differing),
                      (differing[0][0], differing[-1][0]))
