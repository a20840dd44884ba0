"""AprilTag 3 beside the companion's reader, on the same frames in the same run (issue #33).

The peer is AprilTag 3 itself: the C library of the University of Michigan through
`pupil-apriltags` (a dev/bench dependency, `pip install pupil-apriltags`; the Pi does not need
it). It runs with 2 threads (the Pi's budget for vision) and `quad_decimate` chosen by the rule
the companion's reader follows for its own search: the frame halved until its longer side is at
most 2048 px (a 12 MP still: 2, as AprilTag 3's own examples use; 1080p and smaller: 1, since
decimating a 640 px photograph loses every tag under about 20 px). Both readers see each frame
once, one after the other; times are the median wall clock per frame and process CPU.

Two kinds of frames:
- synthetic: the game's table drawn by the renderer under the conditions of
  `decode.CONDITIONS` (12 MP sharp, motion blur, defocus; 1080p with tags of 14 to 24 mm), the
  truth the renderer's;
- photographs: a folder of real photographs and a truth file naming, for each photo, the ids
  whole in it (`read_truth`). An id read that is not in its photo's list is a wrong id.

`python -m companion.vision.peer --photos DIR [--json]` runs the photographs alone.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from companion.vision.detect import DetectorConfig, TagDetector, to_grey

__all__ = ["OBLIQUE", "PEER_ALL", "PEER_CONDITIONS", "PHOTO_TRUTH", "TRUTH_NAME", "AprilTag3",
           "PeerMissing", "Truth", "bench_peer", "compare_photos", "compare_synthetic",
           "describe", "peer_available", "read_truth"]

TRUTH_NAME = "truth.json"
"""The truth file looked for beside the photographs when none is given."""

PHOTO_TRUTH = Path(__file__).parent / "data" / "real_photos_truth.json"
"""The truth of the real photographs of issue #33 (duckietown's test images), by file name:
used for a folder of photos that has no truth file beside it, when it names them all."""

PHOTO_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff")

OBLIQUE = {"12 MP, camera at 30 degrees": 30.0, "12 MP, camera at 45 degrees": 45.0,
           "12 MP, camera at 60 degrees": 60.0}
"""Oblique conditions: the 12 MP camera a metre from the table's centre, tilted this far from
looking straight down (`room.oblique_table`: the far edge smaller, each tag on its piece's
top at the piece's height, a phone's depth of field focused on the table's centre), 14 mm
tags, a little noise. Besides tag recall, the frame is read by the `TableReader` as a live
camera's and scored as the table needs it (`room.ZoneTally`): zone recall, wrong zones, the
calibration's error on the map's plane and the camera's pose."""

PEER_ALL = ("sharp", "10 px motion blur", "hard defocus", "1080p, 14 mm tags",
            "1080p, 22 mm tags", *OBLIQUE)
"""The synthetic conditions of `--peer-condition all` (docs/vision.md's table): the straight
12 MP still, the hardest blur and defocus, 1080p with the tags the sheet recommends and with
14 mm tags, and the oblique cameras."""

PEER_CONDITIONS = ("sharp", "12 MP, camera at 45 degrees", "1080p, 22 mm tags")
"""The conditions `companion bench vision` compares by default: one straight 12 MP still, one
oblique, one 1080p (a few seconds each on a Pi-class machine; `PEER_ALL` for the table)."""


class PeerMissing(RuntimeError):
    """AprilTag 3 (pupil-apriltags) is not installed."""


def peer_available() -> bool:
    """Whether AprilTag 3 can be imported here (never on a bare Pi install)."""
    try:
        import pupil_apriltags  # noqa: F401
    except ImportError:
        return False
    return True


class Reader(Protocol):
    """What the comparison calls: a frame in, the ids read out."""

    def __call__(self, frame: np.ndarray) -> Sequence[int]: ...


class AprilTag3:
    """AprilTag 3's detector for 36h11, two threads, `quad_decimate` by the companion's rule.

    It runs in a worker process of its own: the C library corrupts its heap on some frames
    (pupil-labs/apriltags#39, "corrupted size vs. prev_size"; here a 1080p Rumble Nation frame
    aborted the next allocation), and a crash there must neither kill the bench nor leave our
    process's heap damaged. The time is measured in the worker, around the library's call
    alone; a frame on which the worker dies counts as read by AprilTag 3 with nothing, and
    `crashes` counts them (the worker is started again for the next frame)."""

    def __init__(self, threads: int = 2, max_side: int = DetectorConfig().max_side) -> None:
        if not peer_available():
            raise PeerMissing("AprilTag 3 is not installed: pip install pupil-apriltags "
                              "(or the dev extra: pip install -e '.[dev]')")
        self.threads = threads
        self.max_side = max_side
        self.crashes = 0
        self.seconds = 0.0
        """The library's own time on the last frame (wall clock, in the worker)."""
        self.cpu_seconds = 0.0
        self._worker: Any = None
        self._pipe: Any = None

    def decimation(self, shape: tuple[int, ...]) -> float:
        """2 for each halving the companion's search makes of a frame of this shape."""
        longest, factor = max(shape[:2]), 1
        while longest > self.max_side:
            longest //= 2
            factor *= 2
        return float(factor)

    def detect(self, frame: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """(id, 4x2 corners) of each tag AprilTag 3 reads in `frame`."""
        grey = np.ascontiguousarray(to_grey(frame))
        if self._worker is None or not self._worker.is_alive():
            self._start()
        try:
            self._pipe.send((grey, self.decimation(grey.shape)))
            found, self.seconds, self.cpu_seconds = self._pipe.recv()
        except (EOFError, OSError):  # the library crashed on this frame
            self.crashes += 1
            self.close()
            self.seconds = self.cpu_seconds = 0.0
            return []
        return [(int(tag), np.asarray(corners, np.float32)) for tag, corners in found]

    def __call__(self, frame: np.ndarray) -> list[int]:
        return [tag for tag, _ in self.detect(frame)]

    def _start(self) -> None:
        import multiprocessing

        context = multiprocessing.get_context("spawn")  # no fork of a threaded process
        self._pipe, theirs = context.Pipe()
        self._worker = context.Process(target=_serve, args=(theirs, self.threads),
                                       daemon=True)
        self._worker.start()
        theirs.close()

    def close(self) -> None:
        """Stop the worker (a new one starts at the next frame)."""
        if self._worker is not None:
            try:
                self._pipe.close()
            finally:
                self._worker.join(timeout=5)
                if self._worker.is_alive():
                    self._worker.kill()
                    self._worker.join()
            self._worker = None

    def __del__(self) -> None:
        self.close()


def _serve(pipe: Any, threads: int) -> None:
    """The worker: frames in, (id, corners) out with the library's time, until the pipe
    closes."""
    import pupil_apriltags

    detectors: dict[float, Any] = {}
    while True:
        try:
            grey, decimate = pipe.recv()
        except EOFError:
            return
        if decimate not in detectors:
            detectors[decimate] = pupil_apriltags.Detector(
                families="tag36h11", nthreads=threads, quad_decimate=decimate)
        start, started = time.perf_counter(), time.process_time()
        found = detectors[decimate].detect(grey)
        spent, cpu = time.perf_counter() - start, time.process_time() - started
        pipe.send(([(d.tag_id, d.corners.tolist()) for d in found], spent, cpu))


def companion_reader(detector: TagDetector | None = None) -> Reader:
    """The companion's reader as the comparison calls it."""
    chosen = detector or TagDetector()
    return lambda frame: [r.id for r in chosen.detect(frame)]


@dataclass
class _Tally:
    """One reader's running figures."""

    found: int = 0
    wrong: int = 0
    wall: list[float] | None = None
    cpu: list[float] | None = None

    def read(self, reader: Reader, frame: np.ndarray) -> set[int]:
        """The ids `reader` reads in `frame`, timed: AprilTag 3 times itself in its worker
        (the frame's trip to it is not its time)."""
        crashes = reader.crashes if isinstance(reader, AprilTag3) else 0
        start, started = time.perf_counter(), time.process_time()
        ids = set(reader(frame))
        wall, cpu = time.perf_counter() - start, time.process_time() - started
        if isinstance(reader, AprilTag3):
            if reader.crashes > crashes:
                return ids  # no time: the library never finished this frame
            wall, cpu = reader.seconds, reader.cpu_seconds
        (self.wall if self.wall is not None else []).append(wall)
        (self.cpu if self.cpu is not None else []).append(cpu)
        return ids

    def figures(self, present: int) -> dict[str, Any]:
        wall, cpu = self.wall or [0.0], self.cpu or [0.0]
        return {"recall": round(self.found / max(present, 1), 4), "found": self.found,
                "wrong_ids": self.wrong,
                "ms_median": round(1000 * statistics.median(wall), 1),
                "cpu_ms_median": round(1000 * statistics.median(cpu), 1)}


def _tallies() -> dict[str, _Tally]:
    return {key: _Tally(wall=[], cpu=[]) for key in ("companion", "apriltag3")}


def _side_by_side(tallies: dict[str, _Tally], present: int) -> dict[str, Any]:
    """Both readers' figures and the ratios: recall and time, companion over AprilTag 3."""
    ours, peer = (tallies[k].figures(present) for k in ("companion", "apriltag3"))
    return {"companion": ours, "apriltag3": peer,
            "recall_ratio": round(ours["recall"] / peer["recall"], 3) if peer["recall"]
            else None,
            "time_ratio": round(ours["ms_median"] / peer["ms_median"], 3) if peer["ms_median"]
            else None}


def _crash_count(peer: Reader) -> int:
    return peer.crashes if isinstance(peer, AprilTag3) else 0


def _crashes(peer: Reader, since: int) -> dict[str, int]:
    """{"apriltag3_crashes": n} when AprilTag 3 crashed on n frames since it had crashed
    `since` times (its figures count those frames as read with nothing), else nothing."""
    now = _crash_count(peer)
    return {"apriltag3_crashes": now - since} if now > since else {}


def compare_synthetic(game: str | None = None, frames: int = 3, seed: int = 0,
                      conditions: Iterable[str] | None = None,
                      peer: Reader | None = None, ours: Reader | None = None,
                      tick: Callable[[], None] | None = None) -> dict[str, Any]:
    """For each condition of `decode.CONDITIONS` or `OBLIQUE` (`PEER_CONDITIONS` by default):
    `frames` frames of the game's table, each read by both; tag recall over the visible tags
    (the board's corner tags left out), wrong ids (ids not on the table), median time per
    frame; and `zones`: the frame read by the `TableReader` as a live camera's, scored as the
    table needs it (zone recall, wrong zones; for the oblique cameras the calibration's error
    on the map and the pose's), untimed. `tick()` after each frame, outside the timing."""
    import random
    from dataclasses import replace

    from companion.games import default_game
    from companion.games import game as game_spec
    from companion.vision.corpus import random_look, random_scene
    from companion.vision.decode import CONDITIONS
    from companion.vision.room import ZoneTally, oblique_table
    from companion.vision.synth import Look, Synth, random_camera
    from companion.vision.table import TableReader

    spec = game_spec(game) if game else default_game()
    if not spec.has("board"):
        spec = default_game()  # a game without a board of tags: the default game's table
    kit = spec.load_kit()
    geometry = spec.board_geometry(kit)
    readers = {"companion": ours or companion_reader(), "apriltag3": peer or AprilTag3()}
    results: dict[str, Any] = {}
    for name in conditions or PEER_CONDITIONS:
        size, tag_mm, look = CONDITIONS["sharp"] if name in OBLIQUE else CONDITIONS[name]
        synth = Synth(replace(geometry, tag_mm=tag_mm), kit)
        rng = random.Random(seed)
        tallies, visible = _tallies(), 0
        zones = ZoneTally()
        since = _crash_count(readers["apriltag3"])
        for _ in range(frames):
            scene = random_scene(synth.geometry, rng)
            drawn = random_look(rng) if look is None else Look(
                motion=look[0], defocus=look[1], noise=1.5, seed=rng.randrange(1 << 30))
            table = oblique_table(synth, scene, size, OBLIQUE[name]) if name in OBLIQUE \
                else None
            frame = table.photograph(drawn) if table is not None \
                else synth.photograph(scene, random_camera(rng, size), drawn)
            truth = {t.tag for t in frame.truth if t.visible}
            visible += len(truth)
            for key, reader in readers.items():
                ids = tallies[key].read(reader, frame.image) - set(geometry.corners)
                tallies[key].found += len(ids & truth)
                tallies[key].wrong += len(ids - set(scene.tags))
            # what the table needs: each piece's zone (and, seen by a pinhole, the pose)
            table_reader = TableReader(synth.geometry)
            zones.add(frame, scene, table_reader, table_reader.read(frame.image),
                      None if table is None else table.real)
            if tick is not None:
                tick()
        results[name] = {"table": spec.name, "frames": frames,
                         "frame": f"{size[0]}x{size[1]}", "tag_mm": tag_mm,
                         "visible_tags": visible, **_side_by_side(tallies, visible),
                         **_crashes(readers["apriltag3"], since)}
        if zones.frames:
            results[name]["zones"] = zones.figures()
    return results


@dataclass(frozen=True)
class Truth:
    """The ids of one photograph."""

    tags: frozenset[int]
    """Whole in the photo and read by someone: recall counts these."""
    also: frozenset[int] = frozenset()
    """Seen whole by eye but read by no reader yet: neither counted nor wrong."""


def _truth_of(value: Any) -> Truth:
    if isinstance(value, dict):
        return Truth(frozenset(int(t) for t in value["tags"]),
                     frozenset(int(t) for t in value.get("also", ())))
    return Truth(frozenset(int(t) for t in value))


def read_truth(photos: Path, truth: Path | None = None) -> dict[str, Truth]:
    """The ids in each photograph, by file name: from `truth` when given, else the
    `truth.json` beside the photos, else the project's own file for the photographs of issue
    #33 (`PHOTO_TRUTH`) when it names every photo of the folder. A truth file is a JSON
    object of file name -> list of ids, or -> {"tags": ids, "also": ids} (`Truth`); keys
    starting with `_` are notes. ValueError when no truth is found or a photo of the folder
    has none."""
    names = sorted(p.name for p in photos.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)
    if not names:
        raise ValueError(f"{photos}: no photographs ({', '.join(PHOTO_SUFFIXES)})")
    candidates = [truth] if truth is not None else [photos / TRUTH_NAME, PHOTO_TRUTH]
    for path in candidates:
        if not path.is_file():
            continue
        known = {name: _truth_of(value) for name, value in json.loads(path.read_text()).items()
                 if not name.startswith("_")}
        missing = [name for name in names if name not in known]
        if not missing:
            return {name: known[name] for name in names}
        if truth is not None:
            raise ValueError(f"{truth} names no ids for {', '.join(missing[:5])}"
                             + (" ..." if len(missing) > 5 else ""))
    raise ValueError(f"{photos}: no truth file (--truth FILE, or {TRUTH_NAME} beside the "
                     "photographs: a JSON object of file name -> ids in that photo)")


def compare_photos(photos: Path, truth: Path | None = None, peer: Reader | None = None,
                   ours: Reader | None = None, tick: Callable[[], None] | None = None) \
        -> dict[str, Any]:
    """Each photograph of the folder read by both: per photo the ids each found and its wrong
    ids, and in all recall over the ids of the truth, wrong ids and median time per photo;
    `short` lists the photos where the companion missed an id AprilTag 3 read."""
    known = read_truth(photos, truth)
    readers = {"companion": ours or companion_reader(), "apriltag3": peer or AprilTag3()}
    tallies = _tallies()
    since = _crash_count(readers["apriltag3"])
    each: dict[str, Any] = {}
    short = []
    for name, facts in known.items():
        present = facts.tags
        image = cv2.imread(str(photos / name), cv2.IMREAD_COLOR)
        if image is None:
            raise ValueError(f"{photos / name}: not an image OpenCV reads")
        seen = {}
        for key, reader in readers.items():
            ids = tallies[key].read(reader, image)
            tallies[key].found += len(ids & present)
            tallies[key].wrong += len(ids - present - facts.also)
            seen[key] = ids
        each[name] = {"present": sorted(present),
                      **{key: sorted(ids & present) for key, ids in seen.items()},
                      **{f"{key}_wrong": sorted(ids - present - facts.also)
                         for key, ids in seen.items()}}
        if seen["apriltag3"] - seen["companion"]:
            short.append(name)
        if tick is not None:
            tick()
    present_tags = sum(len(facts.tags) for facts in known.values())
    return {"folder": str(photos), "photos": len(known), "present_tags": present_tags,
            **_side_by_side(tallies, present_tags), **_crashes(readers["apriltag3"], since),
            "short": short, "per_photo": each}


def describe(f: dict[str, Any]) -> list[str]:
    """The peer's figures in sentences: one a synthetic condition, one the photographs."""
    lines = [f"AprilTag 3 beside the companion (same frames, same run; {f['peer']}):"]
    for name, c in f.get("synthetic", {}).items():
        lines.append(f"  {name} ({c['frame']}, {c['visible_tags']} tags): "
                     + _pair(c))
        if "zones" in c:
            lines.append("    " + _zones(c["zones"]))
    if "photos" in f:
        p = f["photos"]
        lines.append(f"  {p['photos']} photographs ({p['present_tags']} tags): " + _pair(p))
        lines.append("  photographs where the companion missed a tag AprilTag 3 read: "
                     + (", ".join(p["short"]) or "none"))
    return lines


def _zones(z: dict[str, Any]) -> str:
    """An oblique setting's table figures in a sentence."""
    said = (f"the table read: zone recall {z['zone_recall']} over {z['visible_pieces']} "
            f"pieces, {z['wrong_zones']} wrong zones, {z['ambiguous']} ambiguous")
    if "board_error_mm_max" not in z:
        return said
    return (f"{said}; the calibration within {z['board_error_mm_max']} mm on the map, the "
            f"pose found in {z['frames_with_pose']} frames (the point under the camera within "
            f"{z['under_camera_error_mm_max']} mm, its height within "
            f"{z['camera_height_error_mm_max']} mm)")


def _pair(c: dict[str, Any]) -> str:
    ours, peer = c["companion"], c["apriltag3"]
    crashed = (f" (it crashed on {c['apriltag3_crashes']} frames: read as nothing)"
               if c.get("apriltag3_crashes") else "")
    return (f"companion recall {ours['recall']}, {ours['wrong_ids']} wrong, "
            f"{ours['ms_median']} ms; AprilTag 3 recall {peer['recall']}, "
            f"{peer['wrong_ids']} wrong, {peer['ms_median']} ms{crashed}; time ratio "
            f"{c['time_ratio']}, recall ratio {c['recall_ratio']}")


PEER_NOTE = "pupil-apriltags, 2 threads, quad_decimate 2 above 2048 px, else 1"


def bench_peer(game: str | None = None, frames: int = 3, seed: int = 0,
               conditions: Iterable[str] | None = None, photos: Path | None = None,
               truth: Path | None = None, tick: Callable[[], None] | None = None) \
        -> dict[str, Any]:
    """The peer's figures for `companion bench vision`: the synthetic conditions (none with
    `frames` 0) and the photographs of `photos`. PeerMissing without pupil-apriltags."""
    peer = AprilTag3()
    ours = companion_reader()
    figures: dict[str, Any] = {"peer": PEER_NOTE}
    if frames:
        figures["synthetic"] = compare_synthetic(game, frames, seed, conditions, peer, ours,
                                                 tick)
    if photos is not None:
        figures["photos"] = compare_photos(photos, truth, peer, ours, tick)
    return figures


def main(argv: list[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m companion.vision.peer",
                                     description=compare_photos.__doc__)
    parser.add_argument("--photos", type=Path, required=True)
    parser.add_argument("--truth", type=Path)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures: dict[str, Any] = {"peer": PEER_NOTE,
                               "photos": compare_photos(args.photos, args.truth)}
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print("\n".join(describe(figures)))
    for name, p in figures["photos"]["per_photo"].items():
        print(f"  {name}: present {p['present']}; companion {p['companion']} "
              f"(wrong {p['companion_wrong']}); AprilTag 3 {p['apriltag3']} "
              f"(wrong {p['apriltag3_wrong']})")


if __name__ == "__main__":
    main()
