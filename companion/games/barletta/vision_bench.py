"""`companion bench vision --game barletta`: the counters and the dice read on seeded
synthetic frames of positions from random legal games, scored against the renderer's truth,
the reading timed.

The corpus: random games (`random_playout`, seeded) sampled along the way, so the tables are
those the rules reach (knights in reserve, on the field mounted or on foot, in camp, on the
Surrendered tables); each drawn with zero to two dice in the tray, under a random camera pose
(tilt, barrel lens) and the shared mixed looks (defocus, motion blur, noise, uneven light,
glare; `vision.corpus.random_look`), a share in a warm or dim room's light, a share with a
hand over a hex of the field. A counter
under the hand is not scored; the dice are scored on frames without a hand.
`python -m companion.games.barletta.vision_bench --json` prints the figures (`--frames`,
`--seed`, `--size`).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from companion.engine import Game, random_playout
from companion.games import Benchmark
from companion.games.barletta.kit import BarlettaKit
from companion.games.barletta.reader import BarlettaReader, field_geometry
from companion.games.barletta.rules import BarlettaRules
from companion.games.barletta.rules.state import BState
from companion.games.barletta.synth import BarlettaSynth, zones_for
from companion.kits import load_kit
from companion.vision.corpus import random_look
from companion.vision.detect import TagDetector
from companion.vision.geometry import AMBIGUOUS
from companion.vision.synth import Frame, Look, random_camera

__all__ = ["BENCH", "SIZES", "bench_barletta_vision", "lines", "positions", "run"]

SIZES = {"12mp": (4056, 3040), "8mp": (3280, 2464), "5mp": (2592, 1944), "3mp": (2028, 1520),
         "1080p": (1920, 1080)}
"""Frame sizes: the Raspberry Pi HQ camera's full frame, the camera module 2's, a 5 MP
still, the HQ camera's binned mode (the simulated table's, `simulator.py`), a video frame."""
PER_GAME = 6
"""Positions sampled from each random game."""
HANDS = 0.2
"""Share of frames with a hand over the field."""
ROOM = 0.3
"""Share of frames in a room's light besides (issue #19): a warm lamp seen with a daylight
white balance, and a dim room's sensor gain."""
DICE = (0, 1, 2, 2)
"""How many dice lie in the tray, drawn from these (two most often: C1, H1)."""


def positions(kit: BarlettaKit, count: int, seed: int) -> Iterator[BState]:
    """`count` states along random legal games (`PER_GAME` from each, games seeded from
    `seed`), from the first deployment to the end."""
    rules = BarlettaRules(kit)
    rng = random.Random(seed)
    made = 0
    while made < count:
        game = Game(rules, seed=rng.randrange(1 << 30))
        random_playout(game)
        plies = len(game.history)
        for ply in sorted(rng.sample(range(plies), min(PER_GAME, plies))):
            yield game.before(ply)
            made += 1
            if made == count:
                return


class _Tally:
    """Running scores: counters (zone, face), ids, dice, reading times."""

    def __init__(self) -> None:
        self.count: Counter[str] = Counter()
        self.times: list[float] = []

    def score(self, frame: Frame, zones: dict[int, str], dice: tuple[int, ...] | None,
              truth_dice: tuple[int, ...], wrong_face: set[int]) -> None:
        c = self.count
        truth = {t.tag: t for t in frame.truth}
        c["wrong_ids"] += sum(1 for tag in zones if tag not in truth)
        c["wrong_face"] += sum(1 for tag in zones if tag in wrong_face)
        for tag, fact in truth.items():
            if not fact.visible:
                continue
            seen = zones.get(tag)
            c["counters"] += 1
            c["hex_right"] += seen == fact.zone
            c["face_right"] += seen is not None  # its face's own tag read, the other not
            c["wrong_zone"] += seen not in (None, AMBIGUOUS, fact.zone)
            c["ambiguous"] += seen == AMBIGUOUS
            c["missed"] += seen is None
        if not frame.hand:
            c["trays"] += 1
            c["dice_right"] += dice == truth_dice
            c["dice_unread"] += dice is None


def bench_barletta_vision(frames: int = 20, seed: int = 0, size: str = "12mp",
                          tick: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Figures for `frames` seeded frames of `size` (`SIZES`): hex and face accuracy over the
    visible counters, wrong ids, dice read exactly, the reader's frames per second (rendering
    excluded)."""
    kit = load_kit("barletta")
    assert isinstance(kit, BarlettaKit)
    geometry = field_geometry(kit)
    synth = BarlettaSynth(geometry, kit)
    detector = TagDetector()
    known = frozenset(synth.registry.blocks)
    rng = random.Random(seed)
    tally = _Tally()
    for done, state in enumerate(positions(kit, frames, seed), start=1):
        zones = zones_for(state, kit, synth.registry)
        dice = tuple(rng.randint(1, 6) for _ in range(rng.choice(DICE)))
        scene = synth.scene(zones, dice, rng.randrange(1 << 30))
        camera = random_camera(rng, SIZES[size])
        look = random_look(rng)
        if rng.random() < ROOM:
            look = Look(**{**look.__dict__, "warm": rng.uniform(0.3, 1.0),
                           "gain": rng.choice([0.0, 2.0, 4.0, 8.0])})
        if rng.random() < HANDS:
            look = Look(**{**look.__dict__, "hand": synth.hand_over(
                rng.choice(sorted(kit.field)), camera, rng.uniform(0.06, 0.12))})
        frame = synth.photograph(scene, camera, look)
        reader = BarlettaReader(geometry, known, detector=detector)
        start = time.perf_counter()
        reading = reader.read(frame.image)
        tally.times.append(time.perf_counter() - start)
        others = {synth.registry.tags[_other(synth.registry.blocks[t])] for t in zones}
        tally.score(frame, dict(reading.tags.zones), reading.dice, scene.snapshot.dice or (),
                    others)
        if tick is not None:
            tick(done, frames)
    return _figures(tally, frames, seed, size)


def _other(piece: str) -> str:
    """The other face of a counter's face (`fieramosca@mounted` -> `fieramosca@foot`)."""
    knight, _, face = piece.partition("@")
    return f"{knight}@{'foot' if face == 'mounted' else 'mounted'}"


def _figures(tally: _Tally, frames: int, seed: int, size: str) -> dict[str, Any]:
    c, times = tally.count, tally.times
    return {
        "hex_accuracy": _share(c["hex_right"], c["counters"]),
        "face_accuracy": _share(c["face_right"] - c["wrong_face"], c["counters"]),
        "wrong_ids": c["wrong_ids"], "wrong_faces": c["wrong_face"],
        "wrong_zones": c["wrong_zone"], "ambiguous": c["ambiguous"], "missed": c["missed"],
        "dice_accuracy": _share(c["dice_right"], c["trays"]),
        "dice_unread": c["dice_unread"], "trays": c["trays"],
        "fps": round(1 / statistics.mean(times), 2) if times else 0.0,
        "read_ms_p50": round(statistics.median(times) * 1000, 1) if times else 0.0,
        "frames": frames, "counters": c["counters"], "seed": seed,
        "frame_size": "x".join(map(str, SIZES[size])),
    }


def _share(part: int, whole: int) -> float:
    return round(part / max(whole, 1), 5)


def lines(f: dict[str, Any]) -> list[str]:
    """The figures in sentences, for a person."""
    return [
        f"{f['frames']} frames of {f['frame_size']} (seed {f['seed']}), {f['counters']} "
        f"visible counters: hex right {f['hex_accuracy']}, face right {f['face_accuracy']} "
        "(targets 0.995)",
        f"wrong hexes {f['wrong_zones']}, ambiguous {f['ambiguous']}, missed {f['missed']}, "
        f"wrong faces {f['wrong_faces']}, wrong ids {f['wrong_ids']}",
        f"dice: {f['dice_accuracy']} of {f['trays']} trays read exactly "
        f"({f['dice_unread']} not read)",
        f"reading: {f['fps']} frames/s (median {f['read_ms_p50']} ms)"]


def run(frames: int = 20, seed: int = 0, size: str = "12mp",
        tick: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """`BENCH.run`: the benchmark at the CLI's settings (`tick`: its progress bar)."""
    return bench_barletta_vision(frames, seed, size, tick)


BENCH = Benchmark(run=run, lines=lines, settings={"frames": 20, "seed": 0, "size": "12mp"})
"""The game's vision benchmark (`GameSpec.vision_bench`: "vision_bench:BENCH")."""


def main(argv: list[str] | None = None) -> None:
    """`python -m companion.games.barletta.vision_bench [--json]`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", choices=sorted(SIZES), default="12mp")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = run(args.frames, args.seed, args.size)
    print(json.dumps(figures, indent=2) if args.json else "\n".join(lines(figures)))


if __name__ == "__main__":
    main()
