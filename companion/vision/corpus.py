"""Seeded synthetic corpora: random tables photographed with every perturbation, and
hand-occlusion sequences, for the tests and `companion bench vision`."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from companion.vision.geometry import Geometry
from companion.vision.synth import Camera, Frame, Look, Scene, Synth, place_stacks, random_camera

__all__ = ["Sequence", "random_look", "random_scene", "scenes", "sequences"]


def random_scene(geometry: Geometry, rng: random.Random, tags: int = 30) -> Scene:
    """Up to `tags` blocks in random zones, fewer when every zone is full (a small map with
    large tags: Rumble Nation's 12 provinces at 24 mm)."""
    stacks: dict[str, int] = {}
    zones = [z.id for z in geometry.zones if z.id not in geometry.kept_clear]
    full: set[str] = set()
    while sum(stacks.values()) < tags and len(full) < len(zones):
        zone = rng.choice(zones)
        stacks[zone] = stacks.get(zone, 0) + 1
        try:
            place_stacks(geometry, {zone: stacks[zone]})
        except ValueError:
            stacks[zone] -= 1
            full.add(zone)
    return place_stacks(geometry, {z: n for z, n in stacks.items() if n},
                        first_tag=rng.randrange(10, 400))


def random_look(rng: random.Random, hand: bool = False) -> Look:
    return Look(defocus=rng.uniform(0, 1.2), motion=rng.choice([0, 0, 3, 5]),
                noise=rng.uniform(0, 6), light=rng.uniform(0, 0.4), glare=rng.uniform(0, 0.4),
                hand=(rng.uniform(0.25, 0.75), rng.uniform(0.25, 0.75), rng.uniform(0.08, 0.16))
                if hand else None, seed=rng.randrange(1 << 30))


def scenes(synth: Synth, count: int, size: tuple[int, int], seed: int = 0,
           hands: float = 0.2) -> Iterator[Frame]:
    """`count` frames of random tables, cameras and looks (a share with a hand over them)."""
    rng = random.Random(seed)
    for _ in range(count):
        scene = random_scene(synth.geometry, rng)
        yield synth.photograph(scene, random_camera(rng, size),
                               random_look(rng, hand=rng.random() < hands))


@dataclass(frozen=True)
class Sequence:
    """A still table, a hand coming in, resting and leaving: nothing on the table changes."""

    frames: tuple[Frame, ...]


def sequences(synth: Synth, count: int, size: tuple[int, int], seed: int = 0,
              rest: int = 4) -> Iterator[Sequence]:
    rng = random.Random(seed)
    for _ in range(count):
        scene = random_scene(synth.geometry, rng)
        camera: Camera = random_camera(rng, size)
        look = random_look(rng)
        target = (rng.uniform(0.3, 0.7), rng.uniform(0.3, 0.7), rng.uniform(0.1, 0.16))
        path = [(0.95, 0.95), (0.8, 0.8), (target[0] + 0.1, target[1] + 0.1)]
        path += [target[:2]] * rest + [(0.8, 0.8), (0.95, 0.95)]
        frames = [synth.photograph(scene, camera, look) for _ in range(3)]
        for x, y in path:
            frames.append(synth.photograph(scene, camera, Look(**{
                **look.__dict__, "hand": (x, y, target[2]), "seed": rng.randrange(1 << 30)})))
        frames += [synth.photograph(scene, camera, look) for _ in range(4)]
        yield Sequence(tuple(frames))
