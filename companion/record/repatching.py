"""Re-running many records with today's rules (`replay --repatch`, `games repatch`): after a
rules fix, which recorded games now end differently, or no longer replay at all.

`repatch` (in `replay`) re-runs one record; here are the many: record files one by one, or
every stored game, each outcome given as it comes (a long run shows its progress), with the
sentence and the JSON object a person or a script reads it in.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from companion.record.format import RecordError, read_record
from companion.record.replay import Repatch, repatch
from companion.record.store import Store

__all__ = ["repatch_files", "repatch_json", "repatch_stored", "repatch_words"]


def repatch_files(files: Iterable[Path],
                  kit: str | None = None) -> Iterator[tuple[Path, Repatch | RecordError]]:
    """Each record file re-run with today's rules (on `kit` instead of its own, if given): its
    Repatch, or the RecordError that kept it from being read or replayed."""
    for path in files:
        try:
            yield path, repatch(read_record(path), kit=kit)
        except RecordError as exc:
            yield path, exc


def repatch_stored(store: Store, ids: Iterable[int] | None = None,
                   ) -> Iterator[tuple[int, Repatch | RecordError]]:
    """Each stored game (`ids`, default every game, newest first) re-run with today's rules:
    its Repatch, or the RecordError that kept it from being loaded or replayed."""
    for game_id in (row.id for row in store.games()) if ids is None else ids:
        try:
            yield game_id, repatch(store.load(game_id))
        except RecordError as exc:
            yield game_id, exc


def repatch_words(result: Repatch) -> str:
    """What a re-run found, in words: `same outcome: ...`, or `CHANGED: ...` with the outcome
    then and now, or the problem that stopped today's rules."""
    if result.problem is not None:
        return f"CHANGED: {result.problem}"
    if result.changed:
        return f"CHANGED: was {result.recorded}, now {result.now}"
    return f"same outcome: {result.now or 'unfinished'}"


def repatch_json(path: Path, result: Repatch) -> dict[str, Any]:
    """One record's re-run for scripts: its file, whether it changed, its outcome as recorded
    and now, and the problem that stopped it (None when it replays)."""
    return {"file": str(path), "changed": result.changed, "recorded": result.recorded,
            "now": result.now, "problem": None if result.problem is None else str(result.problem)}
