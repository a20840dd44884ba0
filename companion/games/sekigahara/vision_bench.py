"""`companion bench vision`: speed and accuracy of the pipeline on seeded synthetic corpora."""

from __future__ import annotations

import statistics
import time
from typing import Any

from companion.kits import load_kit
from companion.vision.corpus import scenes, sequences
from companion.vision.detect import TagDetector
from companion.vision.geometry import AMBIGUOUS, Geometry
from companion.vision.synth import Synth
from companion.vision.table import BoardNotFound, StableTracker, TableReader, calibrate

__all__ = ["bench_vision"]

TWELVE_MP = (4056, 3040)
FULL_HD = (1920, 1080)
FULL_HD_FRAMES = 20
"""1080p frames, timed and scored: with the whole table in view a 14 mm tag is about 20 px
wide there (2.4 px a cell), too few to read reliably, so speed alone would say nothing."""


def _ms(values: list[float]) -> tuple[float, float]:
    ordered = sorted(v * 1000 for v in values)
    return round(statistics.median(ordered), 1), round(ordered[int(0.95 * (len(ordered) - 1))], 1)


def bench_vision(frames: int = 40, sequences_: int = 4, seed: int = 0,
                 sequences: int | None = None) -> dict[str, Any]:
    count = sequences if sequences is not None else sequences_
    kit = load_kit("sekigahara")
    geometry = Geometry.load(kit)
    synth = Synth(geometry, kit)
    detector = TagDetector()
    pipeline, plain = [], []
    tally = {"visible": 0, "right": 0, "wrong": 0, "ambiguous": 0, "wrong_ids": 0,
             "plain_right": 0}
    for frame in scenes(synth, frames, TWELVE_MP, seed=seed):
        reader = TableReader(geometry, detector)
        start = time.perf_counter()
        reading = reader.read(frame.image)
        pipeline.append(time.perf_counter() - start)
        start = time.perf_counter()
        plain_reads = detector.detect_plain(frame.image)
        plain.append(time.perf_counter() - start)
        _score(geometry, frame, reading.zones, plain_reads, tally)
    fps_times = []
    full_hd = {"visible": 0, "right": 0}
    reader = TableReader(geometry, detector)
    for frame in scenes(synth, FULL_HD_FRAMES, FULL_HD, seed=seed + 1):
        start = time.perf_counter()
        reading = reader.read(frame.image)
        fps_times.append(time.perf_counter() - start)
        for fact in frame.truth:  # speed alone says nothing if the tags cannot be read there
            if fact.visible:
                full_hd["visible"] += 1
                full_hd["right"] += reading.zones.get(fact.tag) == fact.zone
    spurious = 0
    for sequence in sequences_of(synth, count, seed):
        tracker = StableTracker()
        sequence_reader = TableReader(geometry, detector)
        diffs = [tracker.feed(sequence_reader.read(f.image)) for f in sequence.frames]
        found = [d for d in diffs if d is not None]
        spurious += len(found[1:])  # the first is the table as first seen
    p50, p95 = _ms(pipeline)
    plain50, _ = _ms(plain)
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
        "frames": frames, "sequences": count,
    }


def sequences_of(synth: Synth, count: int, seed: int) -> Any:
    return sequences(synth, count, TWELVE_MP, seed=seed + 2)


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
