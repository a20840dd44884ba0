"""`companion bench vision --game shogun`: cubes counted per province and colour, and the battle
tower's tray counted by colour, on a seeded synthetic corpus of THE PROJECT'S EXAMPLE BOARD
(not the printed map), scored against the renderer's truth, the reading timed; then the first
tables again under a warm tungsten lamp and in a dim room.

The corpus (`synth.frames`): positions of random legal games (3 to 5 players, on the board's
sun side, each stopped at a tray reading: the moment the camera reads the tray), half of them
with the tray of a large battle instead of the game's own (`synth.random_throw`: the games'
throws are mostly small); random camera poses and looks (blur, noise, uneven light, glare).
Frames are `FRAME_SIZE`: the HQ camera's binned mode, a cube 12 pixels wide.
`python -m companion.games.shogun.vision_bench [--json] [--frames N] [--seed S]` runs it alone.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.games import Benchmark
from companion.games.shogun.kit import ShogunKit
from companion.games.shogun.reader import TRAY, load_board
from companion.games.shogun.synth import ShogunFrame, ShogunSynth
from companion.games.shogun.synth import frames as corpus
from companion.kits import load_kit
from companion.vision.count_scoring import score_counts, share
from companion.vision.counting import CountingReader, CountReading
from companion.vision.piece_synth import DIM_LIGHT, WARM_LIGHT, WHITE_LIGHT, Light
from companion.vision.table import BoardNotFound

__all__ = ["BENCH", "FRAME_SIZE", "bench_shogun_vision", "lines", "run"]

FRAME_SIZE = (2028, 1520)
"""The Raspberry Pi HQ camera's 2x2 binned mode (3 MP): 1.5 px/mm on the table, enough for
8 mm cubes (no dice to read: the full 12 MP frame is not needed, and costs four times)."""
BIG_THROWS = 0.5
"""Share of the corpus whose tray shows a large battle's throw."""


@dataclass
class _Score:
    """Running tallies over one corpus."""

    tally: Counter[str] = field(default_factory=Counter)
    times: list[float] = field(default_factory=list)
    count_errors: Counter[tuple[str, int, int]] = field(default_factory=Counter)
    tray_errors: Counter[tuple[str, int, int]] = field(default_factory=Counter)

    def add(self, reader: CountingReader, frame: ShogunFrame) -> None:
        """Read one frame (timed) and score it."""
        start = time.perf_counter()
        try:
            reading: CountReading | None = reader.read(frame.image)
        except BoardNotFound:
            reading = None
        self.times.append(time.perf_counter() - start)
        t = self.tally
        t["board_not_found"] += reading is None
        right, cells, right_occupied, occupied = score_counts(
            frame.counts, reading.counts if reading else {}, self.count_errors)
        t["count_right"] += right
        t["cells"] += cells
        t["occupied_right"] += right_occupied
        t["occupied"] += occupied
        t["cubes"] += sum(sum(c.values()) for c in frame.counts.values())
        t["provinces"] += len(frame.counts)
        tray = reading.tray if reading else {}
        right, cells, _, _ = score_counts({"tray": frame.tray}, {"tray": tray}, self.tray_errors)
        t["tray_right"] += right
        t["tray_cells"] += cells
        t["trays_exact"] += right == cells
        t["tray_cubes"] += sum(frame.tray.values())
        self._doubts(frame, reading)

    def _doubts(self, frame: ShogunFrame, reading: CountReading | None) -> None:
        """Provinces (and the tray) flagged doubtful, and those wrong without a flag."""
        t = self.tally
        doubts = reading.doubts if reading else {}
        board = self.zones(frame, reading)
        for zone, (truth, read) in board.items():
            wrong = any(read.get(c) != n for c, n in truth.items())
            t["zones"] += 1
            t["doubtful"] += zone in doubts
            t["silent_wrong"] += zone not in doubts and wrong

    @staticmethod
    def zones(frame: ShogunFrame, reading: CountReading | None,
              ) -> dict[str, tuple[Mapping[str, int], Mapping[str, int]]]:
        """Zone -> (truth, read): every province, and the tray under its own name."""
        found = {p: (c, reading.counts.get(p, {}) if reading else {})
                 for p, c in frame.counts.items()}
        found[TRAY] = (frame.tray, reading.tray if reading else {})
        return found

    def figures(self) -> dict[str, Any]:
        t, times = self.tally, self.times
        return {
            "count_accuracy": share(t["count_right"], t["cells"]),
            "occupied_count_accuracy": share(t["occupied_right"], t["occupied"]),
            "tray_accuracy": share(t["tray_right"], t["tray_cells"]),
            "tray_exact": share(t["trays_exact"], len(times)),
            "doubtful_share": share(t["doubtful"], t["zones"]),
            "silent_wrong_zones": t["silent_wrong"],
            "fps": round(1 / statistics.mean(times), 2) if times else 0.0,
            "read_ms_p50": round(statistics.median(times) * 1000, 1) if times else 0.0,
            "frames": len(times), "provinces": t["provinces"],
            "cells": t["cells"], "occupied_cells": t["occupied"], "cubes": t["cubes"],
            "tray_cubes": t["tray_cubes"], "board_not_found": t["board_not_found"],
            "count_errors": {f"{c} {n}->{r}": k
                             for (c, n, r), k in self.count_errors.most_common(12)},
            "tray_errors": {f"{c} {n}->{r}": k
                            for (c, n, r), k in self.tray_errors.most_common(12)},
        }


def _score(reader: CountingReader, synth: ShogunSynth, count: int, size: tuple[int, int],
           seed: int, light: Light, frame_read: Callable[[], None]) -> dict[str, Any]:
    score = _Score()
    for frame in corpus(synth, count, size, seed, light, big_throws=BIG_THROWS):
        score.add(reader, frame)
        frame_read()
    return score.figures()


def bench_shogun_vision(frames: int = 40, seed: int = 0, size: tuple[int, int] = FRAME_SIZE,
                        light_frames: int | None = None,
                        tick: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Figures for `frames` seeded frames of `size` (accuracies, frames per second of the
    reading alone, rendering excluded, the commonest errors), then for the first
    `light_frames` of them (a fifth by default) under a warm lamp and in a dim room.
    `tick(done, total)` after each frame of the three corpora."""
    kit = load_kit("shogun")
    assert isinstance(kit, ShogunKit)
    board = load_board(kit)
    reader = CountingReader(board)
    synth = ShogunSynth(board, kit)
    lit = max(1, frames // 5) if light_frames is None else light_frames
    done = 0

    def frame_read() -> None:
        nonlocal done
        done += 1
        if tick is not None:
            tick(done, frames + 2 * lit)

    figures = _score(reader, synth, frames, size, seed, WHITE_LIGHT, frame_read)
    cast = _score(reader, synth, lit, size, seed, WARM_LIGHT, frame_read)
    dim = _score(reader, synth, lit, size, seed, DIM_LIGHT, frame_read)
    return {**figures, "seed": seed, "frame_size": f"{size[0]}x{size[1]}",
            "count_accuracy_colour_cast": cast["count_accuracy"],
            "tray_accuracy_colour_cast": cast["tray_accuracy"],
            "count_accuracy_dim": dim["count_accuracy"],
            "tray_accuracy_dim": dim["tray_accuracy"],
            "colour_cast": _brief(cast, WARM_LIGHT), "dim": _brief(dim, DIM_LIGHT)}


def _brief(figures: dict[str, Any], light: Light) -> dict[str, Any]:
    keep = ("count_accuracy", "tray_accuracy", "doubtful_share", "silent_wrong_zones",
            "frames", "board_not_found", "count_errors", "tray_errors")
    return {"light_gain_bgr": list(light.gain), **{k: figures[k] for k in keep}}


def run(frames: int = 40, seed: int = 0,
        tick: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """`BENCH.run`: the benchmark at the CLI's settings (`tick`: its progress bar)."""
    return bench_shogun_vision(frames, seed, tick=tick)


def lines(f: dict[str, Any]) -> list[str]:
    """The figures in sentences for a person."""
    cast, dim = f["colour_cast"], f["dim"]
    return [
        f"THE PROJECT'S EXAMPLE BOARD (not the printed map): {f['frames']} frames of "
        f"{f['frame_size']} (seed {f['seed']}), {f['provinces']} province readings, "
        f"{f['cubes']} cubes on the map, {f['tray_cubes']} in the tray",
        f"provinces: exact counts {f['count_accuracy']} of {f['cells']} province-colour cells "
        f"({f['occupied_count_accuracy']} of the {f['occupied_cells']} occupied)",
        f"tray: exact counts {f['tray_accuracy']} of colours; whole tray right "
        f"{f['tray_exact']} of throws",
        f"doubtful: {f['doubtful_share']} of zone readings flagged; "
        f"{f['silent_wrong_zones']} zones wrong and not flagged",
        f"warm tungsten lamp ({cast['frames']} frames): counts {cast['count_accuracy']}, tray "
        f"{cast['tray_accuracy']}; dim room at 35 %: counts {dim['count_accuracy']}, tray "
        f"{dim['tray_accuracy']}",
        f"reading: {f['fps']} frames/s (median {f['read_ms_p50']} ms); board not found "
        f"{f['board_not_found']} times",
        f"count errors (colour true->read): {f['count_errors'] or 'none'}",
        f"tray errors (colour true->read): {f['tray_errors'] or 'none'}"]


BENCH = Benchmark(run=run, lines=lines, settings={"frames": 40, "seed": 0})
"""The game's vision benchmark (for `GameSpec.vision_bench`: "vision_bench:BENCH")."""


def main(argv: list[str] | None = None) -> None:
    """The benchmark alone: its sentences, or its figures as JSON (`--json`)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=BENCH.settings["frames"])
    parser.add_argument("--seed", type=int, default=BENCH.settings["seed"])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = run(args.frames, args.seed)
    print(json.dumps(figures) if args.json else "\n".join(lines(figures)))


if __name__ == "__main__":
    main()
