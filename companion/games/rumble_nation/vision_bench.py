"""`companion bench vision --game rumble-nation`: soldiers, daimyo and reinforcements counted
and dice read on a seeded synthetic corpus, scored against the renderer's truth, the reading
timed; then the same tables again under a warm tungsten lamp and in a dim room.

The corpus (`synth.frames`): random tables of two to four players, half of them with the
daimyo of the advanced rules on the map, half at war with reinforcements beside the soldiers;
random camera poses and looks (blur, noise, uneven light, glare). The lamp corpora are the
first quarter of the same tables, cameras and looks, lit by `WARM_LIGHT` and `DIM_LIGHT`.
`run`'s `tick(done, total)` draws the CLI's progress bar: frames read over the three corpora,
called after each frame's reading is timed and scored.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.games import Benchmark
from companion.games.rumble_nation.synth import RumbleFrame, RumbleSynth
from companion.games.rumble_nation.synth import frames as corpus
from companion.kits import load_kit
from companion.vision.count_scoring import score_counts, score_dice, share
from companion.vision.counting import CountingBoard, CountingReader, CountReading
from companion.vision.piece_synth import DIM_LIGHT, WARM_LIGHT, WHITE_LIGHT, Light
from companion.vision.table import BoardNotFound

__all__ = ["BENCH", "FRAME_SIZE", "bench_rumble_vision", "lines", "run"]

FRAME_SIZE = (4056, 3040)
"""The Raspberry Pi HQ camera's full frame (12 MP): what the dice need (see the docs)."""
DAIMYO = 0.5
"""Share of the corpus's tables played with the daimyo (rule 8)."""
WAR = 0.5
"""Share of the corpus's tables at war, with reinforcements on the map (rule 6.3)."""


@dataclass
class _Score:
    """Running tallies over one corpus."""

    tally: Counter[str] = field(default_factory=Counter)
    times: list[float] = field(default_factory=list)
    count_errors: Counter[tuple[str, int, int]] = field(default_factory=Counter)
    dice_errors: Counter[tuple[int | None, int | None]] = field(default_factory=Counter)

    def add(self, reader: CountingReader, frame: RumbleFrame) -> None:
        """Read one frame (timed) and score it."""
        start = time.perf_counter()
        try:
            reading: CountReading | None = reader.read(frame.image)
        except BoardNotFound:
            reading = None
        self.times.append(time.perf_counter() - start)
        t = self.tally
        t["board_not_found"] += reading is None
        counts = reading.counts if reading else {}
        right, cells, right_occupied, occupied = score_counts(frame.counts, counts,
                                                              self.count_errors)
        t["count_right"] += right
        t["cells"] += cells
        t["occupied_right"] += right_occupied
        t["occupied"] += occupied
        t["soldiers"] += sum(sum(c.values()) for c in frame.counts.values())
        faces = reading.dice.faces if reading else (None,) * len(frame.faces)
        t["dice_right"] += score_dice(frame.faces, faces, self.dice_errors)
        t["dice"] += len(frame.faces)
        t["covered"] += frame.faces.count(None)
        self._pieces(frame, reading)

    def _pieces(self, frame: RumbleFrame, reading: CountReading | None) -> None:
        """Daimyo and reinforcements, and the doubtful regions: how many were flagged, and how
        many were wrong (soldiers, daimyo or reinforcements) without being flagged."""
        t = self.tally
        doubts = reading.doubts if reading else {}
        for region, colours in frame.counts.items():
            read = reading.counts.get(region, {}) if reading else {}
            large = reading.large.get(region, {}) if reading else {}
            neutral = reading.neutral.get(region) if reading else None
            wrong = (any(read.get(c) != n for c, n in colours.items())
                     or any(large.get(c) != n for c, n in frame.daimyo[region].items())
                     or neutral != frame.reinforcements[region])
            t["regions"] += 1
            t["doubtful"] += region in doubts
            t["doubtful_wrong"] += region in doubts and wrong
            t["silent_wrong"] += region not in doubts and wrong
            t["confident_cells"] += (region not in doubts) * len(colours)
            t["confident_right"] += (region not in doubts) * sum(
                read.get(c) == n for c, n in colours.items())
            for colour, n in frame.daimyo.get(region, {}).items():
                t["daimyo_cells"] += 1
                t["daimyo"] += n
                t["daimyo_right"] += large.get(colour) == n
            t["reinforcement_regions"] += 1
            t["reinforcements"] += frame.reinforcements.get(region, 0)
            t["reinforcement_right"] += neutral == frame.reinforcements.get(region, 0)

    def figures(self) -> dict[str, Any]:
        t, times = self.tally, self.times
        return {
            "count_accuracy": share(t["count_right"], t["cells"]),
            "occupied_count_accuracy": share(t["occupied_right"], t["occupied"]),
            "dice_accuracy": share(t["dice_right"], t["dice"]),
            "daimyo_accuracy": share(t["daimyo_right"], t["daimyo_cells"]),
            "reinforcement_accuracy": share(t["reinforcement_right"],
                                             t["reinforcement_regions"]),
            "doubtful_share": share(t["doubtful"], t["regions"]),
            "confident_count_accuracy": share(t["confident_right"], t["confident_cells"]),
            "silent_wrong_regions": t["silent_wrong"],
            "doubtful_wrong_regions": t["doubtful_wrong"],
            "fps": round(1 / statistics.mean(times), 2) if times else 0.0,
            "read_ms_p50": round(statistics.median(times) * 1000, 1) if times else 0.0,
            "frames": len(times), "cells": t["cells"], "occupied_cells": t["occupied"],
            "regions": t["regions"], "soldiers": t["soldiers"], "daimyo": t["daimyo"],
            "reinforcements": t["reinforcements"], "dice": t["dice"],
            "covered_dice": t["covered"], "board_not_found": t["board_not_found"],
            "count_errors": {f"{c} {n}->{r}": k
                             for (c, n, r), k in self.count_errors.most_common(12)},
            "dice_errors": {f"{n}->{r}": k for (n, r), k in self.dice_errors.most_common(12)},
        }


def _score(reader: CountingReader, synth: RumbleSynth, count: int, size: tuple[int, int],
           seed: int, light: Light = WHITE_LIGHT,
           frame_read: Callable[[], None] = lambda: None) -> dict[str, Any]:
    score = _Score()
    for frame in corpus(synth, count, size, seed, light, daimyo=DAIMYO, reinforcements=WAR):
        score.add(reader, frame)
        frame_read()
    return score.figures()


def bench_rumble_vision(frames_: int = 500, seed: int = 0, size: tuple[int, int] = FRAME_SIZE,
                        light_frames: int | None = None,
                        tick: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Figures for `frames_` seeded frames of `size` (accuracies, frames per second of the
    reading alone, rendering excluded, the commonest errors), then for the first
    `light_frames` of them (a quarter by default) under a warm lamp and in a dim room: the
    top-level `count_accuracy_colour_cast` and `count_accuracy_dim`, details in `colour_cast`
    and `dim`. `tick(done, total)` after each frame of the three corpora."""
    kit = load_kit("rumble_nation")
    board = CountingBoard.load(kit)
    reader = CountingReader(board)
    synth = RumbleSynth(board, kit)
    lit = max(1, frames_ // 4) if light_frames is None else light_frames
    frame_read = _counter(frames_ + 2 * lit, tick)
    figures = _score(reader, synth, frames_, size, seed, frame_read=frame_read)
    cast = _score(reader, synth, lit, size, seed, WARM_LIGHT, frame_read)
    dim = _score(reader, synth, lit, size, seed, DIM_LIGHT, frame_read)
    return {**figures, "seed": seed, "frame_size": f"{size[0]}x{size[1]}",
            "count_accuracy_colour_cast": cast["count_accuracy"],
            "count_accuracy_dim": dim["count_accuracy"],
            "dice_accuracy_colour_cast": cast["dice_accuracy"],
            "dice_accuracy_dim": dim["dice_accuracy"],
            "colour_cast": _brief(cast, WARM_LIGHT), "dim": _brief(dim, DIM_LIGHT)}


def _counter(total: int, tick: Callable[[int, int], None] | None) -> Callable[[], None]:
    """One more frame read, told to `tick` as (done, total)."""
    done = 0

    def frame_read() -> None:
        nonlocal done
        done += 1
        if tick is not None:
            tick(done, total)
    return frame_read


def _brief(figures: dict[str, Any], light: Light) -> dict[str, Any]:
    keep = ("count_accuracy", "dice_accuracy", "daimyo_accuracy", "reinforcement_accuracy",
            "doubtful_share", "silent_wrong_regions", "frames", "cells", "board_not_found",
            "count_errors")
    return {"light_gain_bgr": list(light.gain), **{k: figures[k] for k in keep}}


def run(frames: int = 500, seed: int = 0,
        tick: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """`BENCH.run`: the benchmark at the CLI's settings (`tick`: its progress bar)."""
    return bench_rumble_vision(frames, seed, tick=tick)


def lines(f: dict[str, Any]) -> list[str]:
    """The figures in sentences for a person."""
    cast, dim = f["colour_cast"], f["dim"]
    return [
        f"{f['frames']} frames of {f['frame_size']} (seed {f['seed']}), {f['soldiers']} "
        f"soldiers: exact counts {f['count_accuracy']} of {f['cells']} region-colour cells "
        f"({f['occupied_count_accuracy']} of the {f['occupied_cells']} occupied)",
        f"daimyo: {f['daimyo_accuracy']} of region-colour cells right ({f['daimyo']} daimyo); "
        f"reinforcements: {f['reinforcement_accuracy']} of regions right "
        f"({f['reinforcements']} reinforcements)",
        f"doubtful: {f['doubtful_share']} of {f['regions']} region readings flagged "
        f"({f['doubtful_wrong_regions']} of them wrong); {f['silent_wrong_regions']} regions "
        f"wrong and not flagged; counts in unflagged regions {f['confident_count_accuracy']}",
        f"dice: {f['dice_accuracy']} of {f['dice']} faces right ({f['covered_dice']} covered, "
        "right when read as unknown)",
        f"warm tungsten lamp ({cast['frames']} frames): counts {cast['count_accuracy']}, "
        f"dice {cast['dice_accuracy']}; dim room at 35 %: counts {dim['count_accuracy']}, "
        f"dice {dim['dice_accuracy']}",
        f"reading: {f['fps']} frames/s (median {f['read_ms_p50']} ms); board not found "
        f"{f['board_not_found']} times",
        f"count errors (colour true->read): {f['count_errors'] or 'none'}",
        f"dice errors (true->read): {f['dice_errors'] or 'none'}"]


BENCH = Benchmark(run=run, lines=lines, settings={"frames": 500, "seed": 0})
"""The game's vision benchmark (`GameSpec.vision_bench`: "vision_bench:BENCH")."""
