"""La Disfida di Barletta's simulated player: acts a scripted game out at a table that exists
only in pixels. Counters (a tag on each face) are put on the field, moved, turned over when a
knight is unhorsed or remounts, and taken to the camp or the Surrendered table; the dice are
picked up out of the tray and thrown again for each chance step, in the order the rules take
them (`script.throws`). What to do for each action is what `script.doing` and
`script.aftermath` say, in the zone-level read-back's order: an action's results are put on
the table once it is in the record. Each change is made by a hand (one frame with the hand
over each place it touched), then photographed still by the synthetic camera
(`synth.BarlettaSynth`), frame by frame until the table session's tracker reports it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from companion.engine import Action
from companion.games.barletta import hexes
from companion.games.barletta.rules import BarlettaRules
from companion.games.barletta.rules.state import BState
from companion.games.barletta.script import (
    FIRST_DICE,
    HIDDEN,
    aftermath,
    answered_by_dice,
    doing,
    read_back_games,
)
from companion.games.barletta.synth import BarlettaSynth, FieldScene
from companion.games.barletta.table import BarlettaParts
from companion.games.barletta.table_state import (
    DICE_TRAY,
    FieldSnapshot,
    expected_zones,
    piece_id,
)
from companion.games.contract import Figures
from companion.table import TableRegistry, TableSetup
from companion.table.acting import OnFrame, Seen, TableInput, Tick
from companion.vision.synth import SLIGHT_TILT, Camera, Look, still_look

__all__ = ["SIMULATOR", "BarlettaPlayer", "Simulator", "illegal_table"]

HANDS = 3
"""Frames with a hand for one change, at most: one over each place it touched (a capture
takes one counter to the Surrendered table and its captor to the camp)."""
MAX_STILL_FRAMES = 8
"""Still frames shown after a change before giving up on a stable table. A counter turned
over needs the most: the tracker keeps its old face two frames (a tag flickering out is not
gone), then three still frames must agree."""
NEAR_MM = 60.0
"""Places touched this close together are under one hand."""


@dataclass
class BarlettaPlayer:
    rules: BarlettaRules
    registry: TableRegistry
    synth: BarlettaSynth
    camera: Camera
    on_frame: Callable[[np.ndarray], Any]
    """The table session's frame input; returns the diff it read (None: no change)."""
    seed: int = 0
    hidden: frozenset[str] = HIDDEN
    crowded: int = 0
    """Counters laid on an area whose grid was full (none in the games tried)."""
    table: FieldSnapshot = field(default_factory=lambda: FieldSnapshot({}, FIRST_DICE))
    """The table as the actions acted out so far leave it (tags by zone, dice in the tray)."""
    _owed: list[TableInput] = field(default_factory=list)
    """The last action's results, put on the table once it is in the record."""
    _scene: FieldScene | None = None
    """The table as last photographed: counters lie where they were put until moved."""
    _look: int = 0

    @property
    def side_of(self) -> Mapping[str, str]:
        return self.rules.kit.side_of

    def begin(self, state: BState) -> None:
        """The knights in their reserves, the dice lying in the tray."""
        self.table = FieldSnapshot(expected_zones(state, self.registry, self.side_of),
                                   FIRST_DICE)
        self._photograph(self.table, hand=False)

    def act_out(self, before: BState, action: Action, after: BState) -> list[TableInput]:
        """The last action's results put on the table (`script.aftermath`: retreats,
        unhorsings, captures, a counter turned over to try a remount), then what shows this
        action (`script.doing`); its own results wait for the next. The players put down
        what the rules decided once the action is in the record: after a tap on the tablet
        (a pass that ends the turn, then the remount tried), never before it."""
        owed, self._owed = self._owed, []
        shown, table = doing(before, action, self.table, self.registry, self.side_of)
        self._owed, self.table = aftermath(after, table, self.registry, self.side_of)
        return [*owed, *shown]

    def show(self, seen: Seen) -> bool:
        return self._photograph(seen.diff.after)

    def answered_at_table(self, action: Action, options: tuple[Action, ...]) -> bool:
        """A knight moved next to the one knight it attacks: the attacker throws the dice
        rather than tap "attack" (E1.1, H1); the referee reads the attack from them."""
        return answered_by_dice(action, options)

    def illegal_move(self, state: BState) -> bool:
        """A knight of the side to act put on an empty hex none of its actions takes it to
        (`illegal_table`: I1, I2 or F); the caller checks the alert, then `undo_illegal`.
        False when none can be made now, or the camera did not report it (then it is put
        back at once, so that play goes on at a table in order)."""
        wrong = illegal_table(self.rules, self.registry, state, self.table)
        if wrong is None:
            return False
        owed, self._owed = self._owed, []
        for seen in owed:  # the table in order first: the last action's results put down
            if isinstance(seen, Seen):
                self.show(seen)
        if self._photograph(wrong):
            return True
        self.undo_illegal()
        return False

    def undo_illegal(self) -> None:
        self._photograph(self.table)

    # --- drawing and photographing ----------------------------------------------------------

    def _photograph(self, table: FieldSnapshot, hand: bool = True) -> bool:
        """The table laid out as `table` says (counters not touched stay put, the dice
        thrown anew when their faces changed); frames until the tracker reports a change."""
        dice = table.dice or ()
        before = self._scene
        self._look += 1
        if before is None:
            scene = self.synth.scene(table.zones, dice, self.seed)
        else:
            scene = self.synth.change(before, table.zones, dice, dice != before.snapshot.dice,
                                      self.seed + self._look)
        self._scene = scene
        self.crowded += max(0, _piled(scene) - (_piled(before) if before is not None else 0))
        looks = [self._hand_look(at) for at in self._touched(before, scene)] if hand else []
        looks += [self._still_look() for _ in range(MAX_STILL_FRAMES)]
        return self.synth.photograph_until(scene, self.camera, looks, self.on_frame)

    def _touched(self, before: FieldScene | None, after: FieldScene
                 ) -> list[tuple[float, float]]:
        """Where a hand went (board mm): each counter put down, turned over or taken away,
        the tray if the dice changed; places close together once, at most `HANDS`."""
        if before is None:
            return []
        was = {p.tag: p.centre for p in before.pieces}
        now = {p.tag: p.centre for p in after.pieces}
        places = [c for t, c in now.items() if was.get(t) != c]
        places += [c for t, c in was.items() if t not in now]
        if before.dice != after.dice:
            places.append(self.synth.geometry.zone(DICE_TRAY).center)
        hands: list[tuple[float, float]] = []
        for place in places:
            if all(math.dist(place, h) > NEAR_MM for h in hands):
                hands.append(place)
        return hands[:HANDS] or [self.synth.geometry.zone(DICE_TRAY).center]

    def _still_look(self) -> Look:
        self._look += 1
        return still_look(self._look)

    def _hand_look(self, at: tuple[float, float]) -> Look:
        """A hand over a board point (frame fractions, as the camera sees the map)."""
        self._look += 1
        fx, fy = self.synth.frame_point(self.camera, *at)
        return Look(noise=1.5, hand=(fx, fy, 0.1), seed=self._look)


def _piled(scene: FieldScene) -> int:
    """Counters lying on another one (an area's grid was full)."""
    spots = [(p.zone, round(p.centre[0]), round(p.centre[1])) for p in scene.pieces]
    return len(spots) - len(set(spots))


def _apart(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Hexes between two axial coordinates."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def illegal_table(rules: BarlettaRules, registry: TableRegistry, state: BState,
                  table: FieldSnapshot) -> FieldSnapshot | None:
    """`table` with one knight of the side to act put where no legal action takes it: on
    the empty field hex farthest from where it stands that none of its side's actions
    reaches: a deployment off the melee line (I1), a move in the opening charge (I2: the
    charge moves no counter), beyond the movement of an order (F). None outside those
    phases, or in a combat."""
    if state.outcome is not None or state.combat is not None \
            or state.phase not in ("deploy", "charge", "orders"):
        return None
    side, kit = state.active, rules.kit
    reached = {(str(a.args.get("knight")), str(a.args.get("hex", a.args.get("to"))))
               for a in rules.legal_actions(state, side)}
    for knight in (k for k in kit.by_id if kit.side_of[k] == side):
        k = state.knights[knight]
        if k.out or (state.phase == "deploy") != (not k.where):
            continue  # deploying: a knight from the reserve; ordering: one on the field
        start = hexes.axial(k.where if k.where in kit.field else kit.sides[side].melee_line[0])
        far = sorted((h for h in kit.field if state.at(h) is None
                      and (knight, h) not in reached),
                     key=lambda h: (-_apart(start, hexes.axial(h)), h))
        if far:
            zones = {t: z for t, z in table.zones.items()
                     if registry.block(t) not in (piece_id(knight, True),
                                                  piece_id(knight, False))}
            zones[registry.tags[piece_id(knight, k.mounted)]] = far[0]
            return FieldSnapshot(zones, table.dice)
    return None


@dataclass(frozen=True)
class Simulator:
    """La Disfida di Barletta's `simulator` capability."""

    camera_size: tuple[int, int] = (2028, 1520)
    """The HQ camera's binned mode, 1.9 px/mm over this table (a 12 mm tag 23 px wide): under
    the demo's mild looks every counter and throw reads, and a frame is drawn in an eighth of
    the time of 12 MP (the bench's harsh looks want 8 MP or more: docs/barletta.md, "The
    simulated table")."""
    tilt: tuple[float, float, float, float, float, float, float, float] = SLIGHT_TILT
    k1: float = 0.02
    seed: int = 0

    def setup(self) -> TableSetup:
        return TableSetup()

    def player(self, rules: BarlettaRules, parts: BarlettaParts,
               on_frame: OnFrame) -> BarlettaPlayer:
        """The player at the table `parts` reads: its geometry, tray and registry (a
        registered set's tags when the demo plays one)."""
        reader, registry = parts.reader, parts.referee.registry
        synth = BarlettaSynth(reader.geometry, rules.kit, registry, reader.tray)
        return BarlettaPlayer(rules, registry, synth,
                              Camera(self.camera_size, self.tilt, self.k1), on_frame,
                              self.seed)

    def bench_referee(self, games: int, seed: int, tick: Tick | None = None) -> Figures:
        """Random games acted out at the level of tags and dice, read back by the referee."""
        return read_back_games(games, seed, tick=tick)


SIMULATOR = Simulator()
