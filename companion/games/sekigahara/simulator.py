"""Sekigahara's simulated player: acts a scripted game out at a table that exists only in
pixels. Blocks are carried by a hand and put down in tidy stacks (`vision.layout`), then
photographed by the synthetic camera frame by frame (`vision.synth`); cards and buttons are
what `script.act_out` says. The host (`companion demo`) feeds the frames to the table session.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from companion.engine import Action
from companion.games.contract import Figures
from companion.games.sekigahara.rules import SekigaharaRules, SekigaharaState
from companion.games.sekigahara.script import HIDDEN, act_out, read_back_games, shown
from companion.games.sekigahara.table import SekigaharaParts
from companion.table import TableRegistry, TableSetup
from companion.table.acting import OnFrame, Seen, TableInput, Tick
from companion.vision.geometry import Geometry
from companion.vision.layout import Layout
from companion.vision.synth import Camera, Look, Synth, hand_look, still_look

__all__ = ["SIMULATOR", "SekigaharaPlayer", "Simulator"]

HAND_FRAMES = 1
"""Frames with a hand over the table for each change (the tracker ignores them)."""
MAX_STILL_FRAMES = 12
"""Still frames shown after a change before giving up on a stable snapshot. A stack moved
as a whole changes more of the table than `Occlusion.occluder_blocks` footprints, so the
reader takes it as something over the table until it has lain still `Occlusion.settle` (8)
frames, and the tracker wants 3 that agree after that: with 6, as before occlusion by
change, such moves were never reported (9 entered by hand in seed 1's game)."""


@dataclass
class SekigaharaPlayer:
    rules: SekigaharaRules
    registry: TableRegistry
    geometry: Geometry
    camera: Camera
    on_frame: Callable[[np.ndarray], Any]
    """The table session's frame input; returns the diff it read (None: no change)."""
    hidden: frozenset[str] = frozenset(HIDDEN)
    table: dict[str, str] = field(default_factory=dict)
    """Where each block stands on the table now (block -> zone)."""
    _look: int = 0

    def __post_init__(self) -> None:
        self.synth = Synth(self.geometry, self.rules.kit)
        self.layout = Layout(self.geometry, crowd=True)

    @property
    def crowded(self) -> int:
        return self.layout.crowded

    def begin(self, state: SekigaharaState) -> None:
        self.table = shown(state, {})
        self._photograph(dict(self.table), hand=False)

    def act_out(self, before: SekigaharaState, action: Action,
                after: SekigaharaState) -> list[TableInput]:
        return act_out(before, action, after, self.table, self.registry)

    def show(self, seen: Seen) -> bool:
        """The table once this diff is done (a battle's end is two: blocks back from the
        deployment area, then the retreat), photographed."""
        block = self.registry.blocks
        view = dict(self._photographed)
        view.update({block[t]: to for t, (_, to) in seen.diff.moved.items()})
        view.update({block[t]: zone for t, zone in seen.diff.appeared.items()})
        for t in seen.diff.disappeared:
            view.pop(block[t], None)
        return self._photograph(view)

    def _photograph(self, blocks: dict[str, str], hand: bool = True) -> bool:
        """Blocks (id -> zone) put down as `blocks` says; frames until a stable snapshot."""
        tags = self.registry.tags
        self._photographed = dict(blocks)
        before = dict(self.layout.placed)
        scene = self.layout.arrange({tags[b]: zone for b, zone in blocks.items()})
        looks = [self._hand_look(before)] * HAND_FRAMES if hand else []
        looks += [self._still_look() for _ in range(MAX_STILL_FRAMES)]
        return self.synth.photograph_until(scene, self.camera, looks, self.on_frame)

    def _still_look(self) -> Look:
        self._look += 1
        return still_look(self._look)

    def _hand_look(self, before: dict[int, tuple[str, tuple[float, float]]]) -> Look:
        """A hand over the blocks that changed (in frame fractions, roughly)."""
        self._look += 1
        changed = [at for t, (zone, at) in self.layout.placed.items()
                   if before.get(t) != (zone, at)] or [at for _, at in before.values()]
        return hand_look(self.geometry.extent, changed, self._look)

    def illegal_move(self, state: SekigaharaState) -> bool:
        """A block carried two roads away and photographed; the caller checks the alert,
        then `undo_illegal` puts it back."""
        neighbours = self.rules.ctx.kit.neighbours
        for block, at in sorted(self.table.items()):
            if at not in neighbours or self.rules.ctx.owner[block] != state.active:
                continue
            far = _farthest(neighbours, at)
            if far is not None:
                self._photograph({**self.table, block: far})
                return True
        return False

    def undo_illegal(self) -> None:
        self._photograph(dict(self.table))


def _farthest(neighbours: Any, start: str) -> str | None:
    """The location the most roads away from `start` (beyond any march)."""
    distance = {start: 0}
    todo = [start]
    while todo:
        here = todo.pop(0)
        for there in neighbours[here]:
            if there not in distance:
                distance[there] = distance[here] + 1
                todo.append(there)
    far = max(distance, key=lambda z: (distance[z], z))
    return far if distance[far] >= 4 else None


@dataclass(frozen=True)
class Simulator:
    """Sekigahara's `simulator` capability."""

    camera_size: tuple[int, int] = (3280, 2464)
    """An 8 MP still: 14 mm tags stay readable."""
    camera_height_mm: float = 900.0
    """Tags on blocks are seen with parallax from this height."""

    def setup(self) -> TableSetup:
        return TableSetup(camera_height_mm=self.camera_height_mm, crowd=True)

    def player(self, rules: SekigaharaRules, parts: SekigaharaParts,
               on_frame: OnFrame) -> SekigaharaPlayer:
        return SekigaharaPlayer(rules, parts.referee.registry, parts.reader.geometry,
                                Camera(self.camera_size, height_mm=self.camera_height_mm),
                                on_frame)

    def bench_referee(self, games: int, seed: int, tick: Tick | None = None) -> Figures:
        """Random games acted out at zone level and read back by the referee."""
        return read_back_games(games, seed, tick=tick)


SIMULATOR = Simulator()
