"""`companion bench vision --game rumble-nation`: soldier counts and dice read on a seeded
synthetic corpus, scored against the renderer's truth, and the reading timed."""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Mapping
from typing import Any

from companion.games.rumble_nation.synth import RumbleFrame, RumbleSynth, frames
from companion.kits import load_kit
from companion.vision.counting import RumbleBoard, RumbleReader
from companion.vision.table import BoardNotFound

__all__ = ["FRAME_SIZE", "bench_rumble_vision", "score_counts", "score_dice"]

FRAME_SIZE = (4056, 3040)
"""The Raspberry Pi HQ camera's full frame (12 MP): what the dice need (see the docs)."""


def score_counts(truth: Mapping[str, Mapping[str, int]], read: Mapping[str, Mapping[str, int]],
                 errors: Counter[tuple[str, int, int]]) -> tuple[int, int, int, int]:
    """Exact (region, colour) counts: (right, cells, right among occupied, occupied);
    each wrong cell is tallied in `errors` as (colour, true count, count read)."""
    right = cells = right_occupied = occupied = 0
    for region, colours in truth.items():
        for colour, count in colours.items():
            seen = read.get(region, {}).get(colour)
            cells += 1
            right += seen == count
            occupied += count > 0
            right_occupied += count > 0 and seen == count
            if seen != count:
                errors[(colour, count, -1 if seen is None else seen)] += 1
    return right, cells, right_occupied, occupied


def score_dice(truth: tuple[int | None, ...], read: tuple[int | None, ...],
               errors: Counter[tuple[int | None, int | None]]) -> int:
    """Dice read right, as multisets (dice have no identity): a covered die read as None is
    right; each miss is tallied in `errors` as (true face, face read)."""
    left, seen = Counter(truth), Counter(read)
    right = sum(min(n, seen[face]) for face, n in left.items())
    missed = sorted((left - seen).elements(), key=_order)
    extra = sorted((seen - left).elements(), key=_order)
    for pair in zip(missed, extra, strict=False):
        errors[pair] += 1
    return right


def _order(face: int | None) -> int:
    return 7 if face is None else face


def bench_rumble_vision(frames_: int = 500, seed: int = 0,
                        size: tuple[int, int] = FRAME_SIZE) -> dict[str, Any]:
    """Figures for `frames_` seeded frames of `size`: accuracies, frames per second of the
    reading alone (rendering excluded), and the commonest errors."""
    kit = load_kit("rumble_nation")
    board = RumbleBoard.load(kit)
    reader = RumbleReader(board)
    synth = RumbleSynth(board, kit)
    times: list[float] = []
    tally = Counter[str]()
    count_errors: Counter[tuple[str, int, int]] = Counter()
    dice_errors: Counter[tuple[int | None, int | None]] = Counter()
    for frame in frames(synth, frames_, size, seed=seed):
        _one(reader, frame, times, tally, count_errors, dice_errors)
    return _figures(tally, times, count_errors, dice_errors, frames_, seed, size)


def _one(reader: RumbleReader, frame: RumbleFrame, times: list[float], tally: Counter[str],
         count_errors: Counter[tuple[str, int, int]],
         dice_errors: Counter[tuple[int | None, int | None]]) -> None:
    start = time.perf_counter()
    try:
        reading = reader.read(frame.image)
    except BoardNotFound:
        tally["board_not_found"] += 1
        counts: Mapping[str, Mapping[str, int]] = {}
        faces: tuple[int | None, ...] = (None,) * len(frame.faces)
    else:
        counts, faces = reading.counts, reading.dice.faces
    times.append(time.perf_counter() - start)
    right, cells, right_occupied, occupied = score_counts(frame.counts, counts, count_errors)
    tally["count_right"] += right
    tally["cells"] += cells
    tally["occupied_right"] += right_occupied
    tally["occupied"] += occupied
    tally["soldiers"] += sum(sum(c.values()) for c in frame.counts.values())
    tally["dice_right"] += score_dice(frame.faces, faces, dice_errors)
    tally["dice"] += len(frame.faces)
    tally["covered"] += frame.faces.count(None)


def _figures(tally: Counter[str], times: list[float],
             count_errors: Counter[tuple[str, int, int]],
             dice_errors: Counter[tuple[int | None, int | None]], frames_: int, seed: int,
             size: tuple[int, int]) -> dict[str, Any]:
    return {
        "count_accuracy": round(tally["count_right"] / max(tally["cells"], 1), 5),
        "occupied_count_accuracy": round(tally["occupied_right"] / max(tally["occupied"], 1), 5),
        "dice_accuracy": round(tally["dice_right"] / max(tally["dice"], 1), 5),
        "fps": round(1 / statistics.mean(times), 2) if times else 0.0,
        "read_ms_p50": round(statistics.median(times) * 1000, 1) if times else 0.0,
        "frames": frames_, "seed": seed, "frame_size": f"{size[0]}x{size[1]}",
        "cells": tally["cells"], "occupied_cells": tally["occupied"],
        "soldiers": tally["soldiers"], "dice": tally["dice"], "covered_dice": tally["covered"],
        "board_not_found": tally["board_not_found"],
        "count_errors": {f"{c} {t}->{r}": n for (c, t, r), n in count_errors.most_common(12)},
        "dice_errors": {f"{t}->{r}": n for (t, r), n in dice_errors.most_common(12)},
    }
