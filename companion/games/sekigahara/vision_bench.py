"""`companion bench vision --game sekigahara`: speed and accuracy of the tag pipeline on
seeded synthetic corpora (12 MP stills against plain ArUco, 1080p frames, hand-occlusion
sequences). `BENCH` is the game's `vision_bench` capability: the CLI offers its settings as
options and prints its lines, or the figures with --json; its `tick(done, total)` draws the
CLI's progress bar (frames read, then sequences), called outside the timed reading."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from typing import Any

from companion.games.contract import Benchmark
from companion.games.sekigahara.kit import SekigaharaKit
from companion.kits import load_kit
from companion.vision import corpus
from companion.vision.detect import TagDetector
from companion.vision.geometry import AMBIGUOUS, Geometry
from companion.vision.room import CONDITIONS, describe_room, room_report
from companion.vision.synth import Synth
from companion.vision.table import BoardNotFound, StableTracker, TableReader, calibrate

GAME = "sekigahara"
"""This game's name, for the host's benches that draw its table."""

__all__ = ["BENCH", "bench_vision", "describe"]

TWELVE_MP = (4056, 3040)
FULL_HD = (1920, 1080)
FULL_HD_FRAMES = 20
"""1080p frames, timed and scored: with the whole table in view a 14 mm tag is about 20 px
wide there (2.4 px a cell), too few to read reliably, so speed alone would say nothing."""


def _ms(values: list[float]) -> tuple[float, float]:
    """Median and 95th percentile in milliseconds (nearest rank: never below the median)."""
    ordered = sorted(v * 1000 for v in values)
    p95 = ordered[math.ceil(0.95 * len(ordered)) - 1]
    return round(statistics.median(ordered), 1), round(p95, 1)


def bench_vision(frames: int = 40, sequences: int = 4, seed: int = 0, room: int = 8,
                 tick: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Figures for `frames` 12 MP stills, 20 1080p frames and `sequences` hand-occlusion
    sequences, all drawn from `seed`, and the room's conditions (issue 19: low light, cards
    on the map, warm light, blur, glare, tilt, an uncalibrated lens; hands of 8 skin tones)
    with `room` hand-free frames each (0: none); `tick(done, total)` after each still, frame,
    sequence and condition."""
    count = sequences
    total = frames + FULL_HD_FRAMES + count + ((len(CONDITIONS) + 1) if room else 0)
    done = 0

    def progress() -> None:
        nonlocal done
        done += 1
        if tick is not None:
            tick(done, total)

    kit = load_kit(GAME)
    assert isinstance(kit, SekigaharaKit)
    geometry = Geometry.load(kit)
    synth = Synth(geometry, kit)
    detector = TagDetector()
    pipeline, plain = [], []
    tally = {"visible": 0, "right": 0, "wrong": 0, "ambiguous": 0, "wrong_ids": 0,
             "plain_right": 0}
    for frame in corpus.scenes(synth, frames, TWELVE_MP, seed=seed):
        reader = TableReader(geometry, detector)
        start = time.perf_counter()
        reading = reader.read(frame.image)
        pipeline.append(time.perf_counter() - start)
        start = time.perf_counter()
        plain_reads = detector.detect_plain(frame.image)
        plain.append(time.perf_counter() - start)
        _score(geometry, frame, reading.zones, plain_reads, tally)
        progress()
    fps_times = []
    full_hd = {"visible": 0, "right": 0}
    reader = TableReader(geometry, detector)
    for frame in corpus.scenes(synth, FULL_HD_FRAMES, FULL_HD, seed=seed + 1):
        start = time.perf_counter()
        reading = reader.read(frame.image)
        fps_times.append(time.perf_counter() - start)
        for fact in frame.truth:  # speed alone says nothing if the tags cannot be read there
            if fact.visible:
                full_hd["visible"] += 1
                full_hd["right"] += reading.zones.get(fact.tag) == fact.zone
        progress()
    spurious = 0
    for sequence in sequences_of(synth, count, seed):
        tracker = StableTracker()
        sequence_reader = TableReader(geometry, detector)
        diffs = [tracker.feed(sequence_reader.read(f.image)) for f in sequence.frames]
        found = [d for d in diffs if d is not None]
        spurious += len(found[1:])  # the first is the table as first seen
        progress()
    p50, p95 = _ms(pipeline)
    plain50, _ = _ms(plain)
    rooms = {"room": room_report(frames_per_condition=room, seed=seed,
                                 tick=lambda _name: progress(), game=GAME)} if room else {}
    return {
        "pipeline_ms_p50_12mp": p50, "pipeline_ms_p95_12mp": p95,
        "plain_aruco_ms_p50_12mp": plain50, "speedup_12mp": round(plain50 / p50, 2),
        "fps_1080p": round(1 / statistics.median(fps_times), 1),
        "zone_recall_1080p": round(full_hd["right"] / max(full_hd["visible"], 1), 4),
        "visible_tags": tally["visible"],
        "zone_recall": round(tally["right"] / max(tally["visible"], 1), 4),
        "plain_zone_recall": round(tally["plain_right"] / max(tally["visible"], 1), 4),
        "wrong_zones": tally["wrong"], "ambiguous": tally["ambiguous"],
        "wrong_ids": tally["wrong_ids"], "spurious_diffs": spurious,
        "frames": frames, "sequences": count, **rooms,
    }


def sequences_of(synth: Synth, count: int, seed: int) -> Any:
    return corpus.sequences(synth, count, TWELVE_MP, seed=seed + 2)


def describe(f: dict[str, Any]) -> list[str]:
    """The figures in sentences, for a person."""
    return [
        f"12 MP: pipeline median {f['pipeline_ms_p50_12mp']} ms "
        f"(95th {f['pipeline_ms_p95_12mp']}), "
        f"plain full-resolution ArUco {f['plain_aruco_ms_p50_12mp']} ms: "
        f"{f['speedup_12mp']}x; recall {f['zone_recall']} vs {f['plain_zone_recall']}",
        f"1920x1080: {f['fps_1080p']} frames/s through the pipeline, zone recall "
        f"{f['zone_recall_1080p']}",
        f"accuracy over {f['visible_tags']} visible tags: zone recall {f['zone_recall']}, "
        f"wrong zones {f['wrong_zones']}, ambiguous {f['ambiguous']}, wrong ids {f['wrong_ids']}",
        f"hand-occlusion sequences: {f['spurious_diffs']} spurious diffs",
        *(describe_room(f["room"]) if "room" in f else [])]


def _score(geometry: Geometry, frame: Any, zones: Any, plain_reads: list[Any],
           tally: dict[str, int]) -> None:
    truth = {t.tag: t for t in frame.truth}
    try:
        calibration = calibrate(geometry, plain_reads)
        plain_zones = {r.id: geometry.zone_of(*calibration.board_point(*r.center))
                       for r in plain_reads if r.id not in geometry.corners}
    except BoardNotFound:  # the plain detector may miss the corners: it then places nothing
        plain_zones = {}
    tally["wrong_ids"] += sum(1 for tag in zones if tag not in truth)
    for tag, fact in truth.items():
        if not fact.visible:
            continue
        tally["visible"] += 1
        seen = zones.get(tag)
        tally["right"] += seen == fact.zone
        tally["wrong"] += seen not in (None, AMBIGUOUS, fact.zone)
        tally["ambiguous"] += seen == AMBIGUOUS
        tally["plain_right"] += plain_zones.get(tag) == fact.zone


BENCH = Benchmark(run=bench_vision, lines=describe,
                  settings={"frames": 40, "sequences": 4, "seed": 0, "room": 8})
"""Sekigahara's `vision_bench` capability."""
