"""Rumble Nation's simulated player: acts a scripted game out at a table that exists only in
pixels. Soldiers, daimyo and the war's white reinforcements are put down in their region's
circle (`synth.place_pieces`), the dice are
taken out of the tray to roll and thrown back in (`synth.place_dice`), card labels are scanned;
each change is photographed with a hand over it, then still, by the synthetic camera, frame by
frame until the table session's tracker reports it. What to do for each action is
`script.act_out`'s (the same changes the zone-level bench reads back).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from companion.engine import Action
from companion.games.contract import Figures
from companion.games.rumble_nation.reader import DAIMYO, REINFORCEMENT
from companion.games.rumble_nation.referee import board_of
from companion.games.rumble_nation.rules import RumbleNationRules
from companion.games.rumble_nation.rules.state import RNState
from companion.games.rumble_nation.script import FIRST_DICE, HIDDEN, act_out, read_back_games
from companion.games.rumble_nation.synth import (
    Daimyo,
    Reinforcement,
    RumbleScene,
    RumbleSynth,
    Soldier,
    place_dice,
    place_pieces,
)
from companion.games.rumble_nation.table import RumbleParts
from companion.table import TableSetup
from companion.table.acting import OnFrame, Seen, TableInput, Tick
from companion.vision.count_tracker import CountSnapshot
from companion.vision.counting import CountingBoard
from companion.vision.piece_synth import Die
from companion.vision.synth import SLIGHT_TILT, Camera, Look, hand_look, still_look

__all__ = ["SIMULATOR", "RumblePlayer", "Simulator"]

HAND_FRAMES = 1
"""Frames with a hand over the table for each change (the reader sees it; the tracker waits)."""
MAX_STILL_FRAMES = 6
"""Still frames shown after a change before giving up on a stable snapshot."""
SPREAD_MM = 6.0
"""How much wider than its circle a player spreads a region's soldiers when the circle is full
(the rulebook allows it for Shuri; the reader counts `reach_mm` beyond the circle)."""
TRIES = 3
"""Attempts at laying a region's soldiers out in its circle, then as many spread wider."""

Pieces = tuple[tuple[Soldier, ...], tuple[Daimyo, ...], tuple[Reinforcement, ...]]
"""A region's soldiers, daimyo and reinforcements as drawn."""


@dataclass
class RumblePlayer:
    rules: RumbleNationRules
    synth: RumbleSynth
    camera: Camera
    on_frame: Callable[[np.ndarray], Any]
    """The table session's frame input; returns the diff it read (None: no change)."""
    daimyo_seen: bool = False
    seed: int = 0
    hidden: frozenset[str] = HIDDEN
    crowded: int = 0
    """Regions whose soldiers had to be spread beyond their circle, or did not all fit."""
    table: CountSnapshot = field(default_factory=CountSnapshot)
    """The table as the actions acted out so far leave it (counts and dice)."""
    _pieces: dict[str, Pieces] = field(default_factory=dict)
    _counts: dict[str, dict[str, int]] = field(default_factory=dict)
    """What is drawn now, region by region (soldiers stay put while their region is unchanged)."""
    _dice: tuple[Die, ...] = ()
    _faces: tuple[int, ...] | None = None
    _look: int = 0

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)
        board = self.synth.counting
        self._roomy = replace(board, regions=tuple(replace(z, radius=(z.radius or 0) + SPREAD_MM)
                                                   for z in board.regions))

    @property
    def board(self) -> CountingBoard:
        return self.synth.counting

    def begin(self, state: RNState) -> None:
        """The board as the game starts, the dice lying in the tray."""
        self.table = CountSnapshot(board_of(state, self.daimyo_seen), FIRST_DICE)
        self._photograph(self.table, hand=False)

    def act_out(self, before: RNState, action: Action, after: RNState) -> list[TableInput]:
        events = self.rules.decide(before, action) if after.outcome is not None else ()
        inputs, self.table = act_out(before, action, after, self.table, self.daimyo_seen,
                                     events, self.rules.kit.components.reinforcements)
        return inputs

    def show(self, seen: Seen) -> bool:
        return self._photograph(seen.diff.after)

    def illegal_move(self, state: RNState) -> bool:
        """Two soldiers of the player whose turn it is put in a region the dice do not name
        (5.1.1), or before any roll; the caller checks the alert, then `undo_illegal`."""
        if state.phase != "deployment" or state.outcome is not None:
            return False
        role = state.players[state.turn]
        named = {state.dice[i] + state.dice[j] for i in range(len(state.dice))
                 for j in range(i + 1, len(state.dice))}
        counts = {r: dict(k) for r, k in self.table.counts.items()}
        free = [r for r, v in sorted(state.castles.items(), key=lambda item: item[1])
                if v not in named and sum(counts.get(r, {}).values()) <= 10]
        if not free:
            return False
        here = counts.setdefault(free[0], {})
        here[role] = here.get(role, 0) + 2
        return self._photograph(CountSnapshot(counts, self.table.dice))

    def undo_illegal(self) -> None:
        self._photograph(self.table)

    # --- drawing and photographing ----------------------------------------------------------

    def _photograph(self, table: CountSnapshot, hand: bool = True) -> bool:
        """The table laid out as `table` says; frames until the tracker reports a change."""
        changed = self._lay_out(table)
        laid = [self._pieces[region] for region in sorted(self._pieces)]
        scene = RumbleScene({}, cubes=tuple(s for p in laid for s in p[0]), dice=self._dice,
                            large=tuple(d for p in laid for d in p[1]),
                            neutral=tuple(r for p in laid for r in p[2]))
        looks = [self._hand_look(changed)] * HAND_FRAMES if hand else []
        looks += [self._still_look() for _ in range(MAX_STILL_FRAMES)]
        return self.synth.photograph_until(scene, self.camera, looks, self.on_frame)

    def _lay_out(self, table: CountSnapshot) -> list[tuple[float, float]]:
        """Regions whose counts changed are laid out again, the dice thrown if they changed;
        returns where the hand went (board millimetres)."""
        changed = []
        for zone in self.board.regions:
            wanted = dict(table.counts.get(zone.id, {}))
            if wanted != self._counts.get(zone.id, {}):
                self._pieces[zone.id] = self._place(zone.id, wanted)
                self._counts[zone.id] = wanted
                changed.append(zone.center)
        if table.dice is not None and table.dice != self._faces:
            self._dice = place_dice(self.board, list(table.dice), self._rng)
            self._faces = table.dice
            changed.append(self.board.tray.center)
        return changed

    def _place(self, region: str, wanted: Mapping[str, int]) -> Pieces:
        """A region's pieces (kinds as the tracker counts them) in its circle; spread wider
        when the circle is full (counted in `crowded`); the truth is what was placed."""
        soldiers = {k: n for k, n in wanted.items() if k != REINFORCEMENT
                    and not k.endswith(f" {DAIMYO}")}
        leaders = {k.split()[0]: region for k, n in wanted.items()
                   if k.endswith(f" {DAIMYO}") and n}
        white = {region: wanted.get(REINFORCEMENT, 0)}
        total = sum(wanted.values())
        placed: Pieces = ((), (), ())
        for attempt in range(2 * TRIES):
            board = self.board if attempt < TRIES else self._roomy
            placed = place_pieces(board, {region: soldiers}, self._rng, leaders, white)
            if sum(map(len, placed)) == total:
                break
        if attempt >= TRIES:
            self.crowded += 1
        return placed

    def _still_look(self) -> Look:
        self._look += 1
        return still_look(self._look)

    def _hand_look(self, changed: list[tuple[float, float]]) -> Look:
        """A hand over what changed (the tray when nothing did)."""
        self._look += 1
        return hand_look(self.board.geometry.extent, changed or [self.board.tray.center],
                         self._look)


@dataclass(frozen=True)
class Simulator:
    """Rumble Nation's `simulator` capability."""

    camera_size: tuple[int, int] = (1920, 1440)
    """1.5 px/mm over this table: soldiers and dice both read at 1.0 from here up
    (docs/rumble-nation-vision.md), and a frame is drawn in half the time of 5 MP."""
    tilt: tuple[float, float, float, float, float, float, float, float] = SLIGHT_TILT
    k1: float = 0.02
    seed: int = 0

    def setup(self) -> TableSetup:
        return TableSetup()

    def player(self, rules: RumbleNationRules, parts: RumbleParts,
               on_frame: OnFrame) -> RumblePlayer:
        board = parts.reader.board
        daimyo_seen = bool(parts.referee.daimyo_seen)
        return RumblePlayer(rules, RumbleSynth(board, rules.kit),
                            Camera(self.camera_size, self.tilt, self.k1), on_frame,
                            daimyo_seen, self.seed)

    def bench_referee(self, games: int, seed: int, tick: Tick | None = None) -> Figures:
        """Random games (2-4 players, with and without daimyo) acted out at the level of counts
        and read back by the referee."""
        return read_back_games(games, seed, tick=tick)


SIMULATOR = Simulator()
