"""Shogun's simulated player: acts a scripted game out at a table that exists only in pixels
(THE PROJECT'S EXAMPLE BOARD, `synth.py`). Armies are put down in their province's circle as
cubes of their owner's colour, the cubes the tower lets fall lie in its tray (farmers green),
card labels are scanned and the confirm button pressed where `script.acted` says; each
change is photographed with a hand over it, then still, by the synthetic camera, frame by
frame until the table session's tracker reports it. Plans and bids are made on the phones
(3.3): nothing of them is shown at the table (`hidden`).

Counts are kept as the referee keeps them, by kind (a player's role is its colour, the green
cubes are `farmers`); the drawing is by colour (`synth.colour_of`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from companion.engine import Action
from companion.games.contract import Figures
from companion.games.shogun.reader import TRAY
from companion.games.shogun.referee import board_of
from companion.games.shogun.rules import ShogunRules, ShogunState
from companion.games.shogun.script import HIDDEN, SHOWN_LATER, acted, read_back_games
from companion.games.shogun.synth import ShogunSynth, colour_of, place_tray
from companion.games.shogun.table import ShogunParts
from companion.table import TableSetup
from companion.table.acting import OnFrame, Seen, TableInput, Tick
from companion.vision.count_tracker import CountSnapshot
from companion.vision.counting import CountingBoard
from companion.vision.piece_synth import Cube, PieceScene, place_pieces
from companion.vision.synth import SLIGHT_TILT, Camera, Look, hand_look, still_look

__all__ = ["SIMULATOR", "ShogunPlayer", "Simulator"]

HAND_FRAMES = 1
"""Frames with a hand over the table for each change (the reader sees it; the tracker waits)."""
DOUBT_MARGIN = 2
"""Still frames shown after a change beyond the tracker's `doubt_after` before giving up on a
stable snapshot. The tracker wants 3 that agree; but a province whose cubes the camera cannot
count (cubes pushed together) holds it back until `doubt_after` still frames show the same
doubt, and only then is the change handed on for the referee to ask about: fewer frames and
the change would never be seen."""
SPREAD_MM = 6.0
"""How much wider than its circle a player spreads a province's armies when the circle is full
(the reader counts `reach_mm` beyond it)."""
TRIES = 3
"""Attempts at laying a province's armies out in its circle, then as many spread wider."""
TOUCH = 0.1
"""The share of a province's cubes put against another of its colour (`place_pieces`): a player
who knows the camera counts them sets them a little apart, as the referee's question about a
province it cannot count asks. Grouped as `place_pieces` groups by default (0.4), a province
of 12 to 16 armies was doubtful in 4 of 6 layouts late in a game (seed 1, action 226), and a
doubt that moves from province to province between frames holds the tracker back for good."""
ILLEGAL_ARMIES = 2
"""Armies a player puts, for the illegal move, in a province another player holds."""


@dataclass
class ShogunPlayer:
    rules: ShogunRules
    synth: ShogunSynth
    camera: Camera
    on_frame: Callable[[np.ndarray], Any]
    """The table session's frame input; returns the diff it read (None: no change)."""
    seed: int = 0
    still_frames: int = 8 + DOUBT_MARGIN
    """Still frames after a change, at most (`Simulator.player`: the tracker's `doubt_after`
    and the margin)."""
    touch: float = TOUCH
    hidden: frozenset[str] = HIDDEN
    shown_later: frozenset[str] = SHOWN_LATER
    """Choices the table may show only in part (`script.SHOWN_LATER`: a battle for a neutral
    province or half a move, read once the tray lands; a draw, read from the card scanned):
    `companion demo` settles them after the next action's inputs."""
    shown_inputs: int = 0
    """How many of the last `act_out`'s inputs show the action; the rest put the table as the
    record has it after what the rules carried out. A question the tablet asked beforehand
    (stay, draw) is answered in between, as the referee's read-back does: the table cannot
    follow a record that waits for it."""
    crowded: int = 0
    """Provinces whose armies had to be spread beyond their circle, or did not all fit."""
    table: CountSnapshot = field(default_factory=CountSnapshot)
    """The table as the actions acted out so far leave it (zone -> kind -> cubes)."""
    _cubes: dict[str, tuple[Cube, ...]] = field(default_factory=dict)
    """What is drawn now, zone by zone (cubes stay put while their zone is unchanged)."""
    _counts: dict[str, dict[str, int]] = field(default_factory=dict)
    _look: int = 0

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)
        board = self.board
        self._roomy = replace(board, regions=tuple(replace(z, radius=(z.radius or 0) + SPREAD_MM)
                                                   for z in board.regions))

    @property
    def board(self) -> CountingBoard:
        return self.synth.counting

    def begin(self, state: ShogunState) -> None:
        """The board as the game starts (no army out yet), the tray empty."""
        self.table = CountSnapshot(board_of(state), ())
        self._photograph(self.table, hand=False)

    def act_out(self, before: ShogunState, action: Action, after: ShogunState
                ) -> list[TableInput]:
        """What the players do at the table for `action`: the script's inputs (its own
        events tell which cubes the action itself moves)."""
        events = self.rules.decide(before, action)
        shown, settled, self.table = acted(before, action, after, self.table, events)
        self.shown_inputs = len(shown)
        return [*shown, *settled]

    def show(self, seen: Seen) -> bool:
        return self._photograph(seen.diff.after)

    def illegal_move(self, state: ShogunState) -> bool:
        """The player whose armies stand in the fewest provinces puts two more of them in
        another player's province (the one with fewest armies): no rule sends armies among
        someone else's (4.4 throws both sides into the tower). The caller checks the alert,
        then `undo_illegal`."""
        if state.outcome is not None:
            return False
        held = [(n, p, owner) for p, n in state.armies.items()
                if n and (owner := state.owner.get(p)) is not None]
        players = {owner for _, _, owner in held}
        if len(players) < 2:
            return False
        mover = min(sorted(players), key=lambda r: len(state.provinces_of(r)))
        _, province, _ = min((h for h in held if h[2] != mover), key=lambda h: (h[0], h[1]))
        counts = {z: dict(k) for z, k in self.table.counts.items()}
        here = counts.setdefault(province, {})
        here[mover] = here.get(mover, 0) + ILLEGAL_ARMIES
        return self._photograph(CountSnapshot(counts, ()))

    def undo_illegal(self) -> None:
        """The armies taken back: the table as the record has it."""
        self._photograph(self.table)

    # --- drawing and photographing ----------------------------------------------------------

    def _photograph(self, table: CountSnapshot, hand: bool = True) -> bool:
        """The table laid out as `table` says; frames until the tracker reports a change."""
        changed = self._lay_out(table)
        provinces = tuple(c for z, cubes in sorted(self._cubes.items()) if z != TRAY
                          for c in cubes)
        scene = PieceScene({}, cubes=provinces, tray=self._cubes.get(TRAY, ()))
        looks = [self._hand_look(changed)] * HAND_FRAMES if hand else []
        looks += [self._still_look() for _ in range(self.still_frames)]
        return self.synth.photograph_until(scene, self.camera, looks, self.on_frame)

    def _lay_out(self, table: CountSnapshot) -> list[tuple[float, float]]:
        """Zones whose counts changed are laid out again (the tray as cubes fall from the
        tower); returns where the hand went (board millimetres)."""
        changed = []
        tray = self.board.tray
        for zone in (*self.board.regions, tray):
            wanted = self._colours(table.counts.get(zone.id, {}))
            if wanted == self._counts.get(zone.id, {}):
                continue
            if zone is tray:
                self._cubes[zone.id] = place_tray(self.board, wanted, self._rng)
            else:
                self._cubes[zone.id] = self._place(zone.id, wanted)
            self._counts[zone.id] = wanted
            changed.append(zone.center)
        return changed

    def _colours(self, kinds: Mapping[str, int]) -> dict[str, int]:
        """Kind -> cubes as colour -> cubes (the cubes the synth draws)."""
        return {colour_of(self.board, kind): n for kind, n in sorted(kinds.items()) if n}

    def _place(self, province: str, wanted: Mapping[str, int]) -> tuple[Cube, ...]:
        """A province's cubes in its circle; spread wider when the circle is full (counted in
        `crowded`); the truth is what was placed."""
        total = sum(wanted.values())
        placed: tuple[Cube, ...] = ()
        for attempt in range(2 * TRIES):
            board = self.board if attempt < TRIES else self._roomy
            placed = place_pieces(board, {province: wanted}, self._rng, touch=self.touch)[0]
            if len(placed) == total:
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
    """Shogun's `simulator` capability."""

    camera_size: tuple[int, int] = (2028, 1520)
    """The HQ camera's binned mode, where the vision bench measured the counts (1.5 px/mm
    over this table: a cube 12 pixels wide)."""
    tilt: tuple[float, float, float, float, float, float, float, float] = SLIGHT_TILT
    k1: float = 0.02
    seed: int = 0

    def setup(self) -> TableSetup:
        return TableSetup()

    def player(self, rules: ShogunRules, parts: ShogunParts, on_frame: OnFrame) -> ShogunPlayer:
        board = parts.reader.board
        synth = ShogunSynth(board, rules.kit, str(rules.options["side"]))
        doubt_after = parts.tracker.doubt_after
        return ShogunPlayer(rules, synth, Camera(self.camera_size, self.tilt, self.k1),
                            on_frame, self.seed, still_frames=doubt_after + DOUBT_MARGIN)

    def bench_referee(self, games: int, seed: int, tick: Tick | None = None) -> Figures:
        """Random games (3, 4 and 5 players, both sides) acted out at the level of counts and
        read back by the referee."""
        return read_back_games(games, seed, tick=tick)


SIMULATOR = Simulator()
