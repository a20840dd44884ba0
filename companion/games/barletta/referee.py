"""La Disfida di Barletta at the table: what a stable change of the counters or of the dice
tray means.

Each counter carries a tag on each face (`table_state.py`), so the camera tells where every
knight stands and whether it is mounted. The referee compares the table with the record knight
by knight. A knight the table shows elsewhere than the record is either *owed* (the rules moved,
unhorsed, captured or remounted it, and the players have not yet done it on the table: H2, H3.1,
H4.2, H5, E1.2) or *ahead* (a player put it somewhere the record does not have it yet: a
deployment, I1; a move, F, F2; a remount tried, E1.2). A change that brings a knight towards the
record (its hex, its face, or both) is the table catching up and means nothing new; any other
change is a player's doing, explained by the legal actions of the side to act. One fits: a
Proposal; several (a knight stopping next to enemy knights may attack one of them or none): a
Question listing them; none: an Alert naming the knight, the hexes, the rule and how to put the
table back, and the referee waits (desync) until the table matches the record again. A player's
doing while the table still owes the rules' last results is refused the same way: the table
must show what the dice decided first. The state is never changed here: Proposals go to the
record, which alone moves the game on.

The dice are read in the tray, one throw at a time (the tray is seen empty between throws as a
player picks the dice up): the initiative (I1, C1) is the Italians' two dice then the
French's; a melee (H1) the attacker's two then the defender's (the attacker's alone in the
opening charge, I2); the unhorsing (H3.1), surrender (H4.1) and remount (E1.2) tests one die.
A throw of fewer dice than the step wants waits for the rest; more is refused. Faces are read
smallest first: only their sum counts on every table of the game.

Choices the table cannot show are asked on the tablet (`decisions`) when they are the only
thing to do: who plays first (C1), whose VC gives the order points (D1), which knight charges
(I2), and recovering hits rather than remounting (E1.2). An order that moves no counter (an
attack from where the knight stands, a Move order without movement, a Reorganization, a pass:
E, D2) is asked only when the player tells it (the confirm button, or their phone): most
orders move a counter, which the camera reads. Dice thrown while a charge or an attack waits
to be told answer it when only one attack fits: the dice say it is one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.engine.core import (
    CHANCE,
    Action,
    Alert,
    Cause,
    IllegalAction,
    Proposal,
    Question,
    Ruling,
    Sentence,
    fold,
)
from companion.games.barletta.kit import SIDES, BarlettaKit
from companion.games.barletta.rules import BarlettaRules
from companion.games.barletta.rules.state import BState
from companion.games.barletta.table_state import (
    FieldDiff,
    FieldSnapshot,
    area,
    expected_zones,
    knight_of,
    zone_of,
)
from companion.table.registry import TableRegistry

__all__ = ["BarlettaReferee", "Face", "shown_knights", "throws_due"]

Face = tuple[str, bool]
"""Where a knight's counter lies (a hex or an area) and whether its mounted face is up."""

RESERVE, CAMP_AREA, SURRENDERED = "reserve", "camp", "surrendered"


def shown_knights(registry: TableRegistry, zones: Mapping[int, str]) -> dict[str, Face]:
    """Knight -> where its counter lies and which face is up, from the tags seen. A counter
    whose two tags are both read (it cannot be) keeps the first read."""
    found: dict[str, Face] = {}
    for tag, zone in sorted(zones.items()):
        piece = registry.block(tag)
        if piece is None:
            continue
        knight, mounted = knight_of(piece)
        found.setdefault(knight, (zone, mounted))
    return found


def throws_due(state: BState) -> list[tuple[str, int]]:
    """The throws the chance step due now takes, in the order they are thrown: (the name the
    action gives them, how many dice). Empty when no die is due."""
    combat = state.combat
    if state.outcome is not None:
        return []
    if combat is not None:
        if combat.step == "melee":
            return [("attacker", 2)] if combat.charge else [("attacker", 2), ("defender", 2)]
        return [("die", 1)]
    if state.remounting:
        return [("die", 1)]
    if state.phase in ("setup", "initiative"):
        return [(side, 2) for side in SIDES]
    return []


def _chance_action(state: BState, throws: Sequence[tuple[int, ...]]) -> Action:
    """The chance action the collected throws make for the step due."""
    combat = state.combat
    names = [name for name, _ in throws_due(state)]
    if combat is not None and combat.step == "melee":
        return Action(CHANCE, "melee", dict(zip(names, throws, strict=True)))
    if combat is not None:
        verb = "unhorse" if combat.step == "unhorse" else "surrender"
        return Action(CHANCE, verb, {"knight": combat.tests[0], "die": throws[0][0]})
    if state.remounting:
        return Action(CHANCE, "remount_roll", {"knight": state.remounting,
                                               "die": throws[0][0]})
    return Action(CHANCE, "initiative", dict(zip(names, throws, strict=True)))


def _dice_rule(state: BState) -> str:
    combat = state.combat
    if combat is not None:
        if combat.step == "melee":
            return "I2" if combat.charge else "H1"
        return "H3.1" if combat.step == "unhorse" else "H4.1"
    if state.remounting:
        return "E1.2"
    return "I1" if state.phase == "setup" else "C1"


@dataclass
class BarlettaReferee:
    rules: BarlettaRules
    registry: TableRegistry
    desync: Alert | None = None
    ahead: set[str] = field(default_factory=set)
    """Knights a player put where the record does not have them yet (a question waits)."""
    throws: list[tuple[int, ...]] = field(default_factory=list)
    """Throws read for the chance step due (`throws_for`), waiting for the rest."""
    throws_for: tuple[Any, ...] | None = None
    asked: tuple[Action, ...] = ()
    """The options of the last move question: dice thrown meanwhile may answer it."""
    because: dict[str, str] = field(default_factory=dict)
    """Knight -> the rule that last moved, flipped or removed it (for the fix)."""
    behind: set[str] = field(default_factory=set)
    """Knights the table showed behind the record before the change being read."""
    shown: dict[str, Face] = field(default_factory=dict)
    """The table before the change being read, knight by knight."""
    last: dict[int, str] | None = None
    """The tags' zones as last seen here (None: nothing seen yet)."""

    @property
    def kit(self) -> BarlettaKit:
        return self.rules.kit

    # --- the record and the table ---------------------------------------------------------

    def record(self, state: BState) -> dict[str, Face]:
        """Knight -> where the record has its counter and which face is up."""
        side_of = self.kit.side_of
        return {k: (zone_of(state, k, side_of[k]), v.mounted) for k, v in state.knights.items()}

    def _seen(self, state: BState, zones: Mapping[int, str]) -> dict[str, Face]:
        """The table's knights, with those not seen that the record has in their reserve
        taken as there (the reserve may be a box the camera does not see)."""
        seen = shown_knights(self.registry, zones)
        for knight, face in self.record(state).items():
            if knight not in seen and face[0].startswith(RESERVE):
                seen[knight] = face
        return seen

    def _agrees(self, state: BState, knight: str, seen: Face | None, kept: Face) -> bool:
        """Whether the table shows `knight` as the record has it: a knight whose remount roll
        is due may already show its mounted face (E1.2: turned over to try)."""
        if seen == kept:
            return True
        return knight == state.remounting and seen == (kept[0], True)

    def _off(self, state: BState, seen: Mapping[str, Face]) -> list[str]:
        """The knights the table shows otherwise than the record, in the kit's order."""
        kept = self.record(state)
        return [k for k in kept if not self._agrees(state, k, seen.get(k), kept[k])]

    def table_matches(self, state: BState, seen: FieldSnapshot | None) -> bool:
        """Whether every counter lies where the record has it, face up as it says (the way out
        of desync). The dice in the tray do not count: a throw is read when it lands."""
        zones = dict(seen.zones) if seen is not None else {}
        self.last = zones if seen is not None else self.last
        ok = not self._off(state, self._seen(state, zones))
        if ok:
            self.desync = None
            self.ahead.clear()
        return ok

    def expected(self, state: BState) -> FieldSnapshot:
        """The record's table, the tray as last seen (None: the tracker keeps what it saw, so
        dice lying there are not read again as a new throw)."""
        return FieldSnapshot(expected_zones(state, self.registry, self.kit.side_of), None)

    def forget_inputs(self) -> None:
        """An action entered on the tablet: throws and moves waiting went with it."""
        self.throws.clear()
        self.throws_for = None
        self.asked = ()
        self.ahead.clear()

    # --- what the table shows -------------------------------------------------------------

    def on_diff(self, state: BState, diff: FieldDiff) -> list[Ruling]:
        """The actions a stable change means: the counters first (a move before the dice of
        its attack), then a throw in the tray, each judged on the state the one before left."""
        if diff.before is None:
            self.last = dict(diff.after.zones)
            return []  # the first look at the table: the session compares it with the record
        rulings, state = self._counters(state, diff)
        thrown = diff.thrown if diff.before.dice is not None else None  # unread: not new
        if thrown is not None and all(isinstance(r, Proposal | Question) for r in rulings):
            waiting = bool(self.asked)
            dice = self._dice(state, thrown)
            answered = waiting and bool(dice) and isinstance(dice[0], Proposal)
            if answered:  # the dice answered the move's question: it was the attack
                rulings = [r for r in rulings if not isinstance(r, Question)]
                self.ahead.clear()
            if all(isinstance(r, Proposal) for r in rulings):
                rulings += dice
        alert = next((r for r in rulings if isinstance(r, Alert)), None)
        if alert is not None:
            self.desync = alert
        return rulings

    def _counters(self, state: BState, diff: FieldDiff) -> tuple[list[Ruling], BState]:
        """The counters: each change towards the record is the table catching up; any other
        is a player's doing. The table before is the one last seen here: a tracker settled on
        the record (an action entered on the tablet) must not make counters the players have
        not yet moved look moved away from it."""
        last = self.last if self.last is not None else (diff.before.zones if diff.before
                                                         else {})
        self.last = dict(diff.after.zones)
        before = self._seen(state, last)
        after = self._seen(state, diff.after.zones)
        kept = self.record(state)
        self.behind = set(self._off(state, before)) - self.ahead
        self.shown = before
        for knight in kept:
            was, now = before.get(knight), after.get(knight)
            if was != now and not _towards(was, now, kept[knight]):
                self.ahead.add(knight)
        off = self._off(state, after)
        self.ahead &= set(off)
        if not self.ahead:
            return [], state
        owed = [k for k in off if k not in self.ahead]
        misplaced = sorted(self.ahead & self.behind)
        if misplaced:
            return [self._misplaced(state, misplaced[0], after, owed)], state
        if owed:
            return [self._owed(state, owed, after)], state
        return self._explain(state, after)

    def _explain(self, state: BState, after: Mapping[str, Face]
                 ) -> tuple[list[Ruling], BState]:
        """The knights ahead of the record, one after another (the acting side's first): each
        a Proposal judged on the state the one before left, until a Question or an Alert."""
        active = state.active
        order = sorted(self.ahead, key=lambda k: (self.kit.side_of[k] != active,
                                                  list(self.kit.by_id).index(k)))
        rulings: list[Ruling] = []
        for knight in order:
            asked = self.asked
            ruling = self._one(state, knight, after.get(knight))
            if isinstance(ruling, Question) and ruling.options == asked:
                break  # asked already: the tablet still shows it
            rulings.append(ruling)
            if not isinstance(ruling, Proposal):
                break
            state = self._advance(state, ruling.action)
            self.ahead.discard(knight)
        return rulings, state

    def _one(self, state: BState, knight: str, now: Face | None) -> Ruling:
        """What one knight put otherwise than the record means."""
        was = self.record(state)[knight]
        side = self.kit.side_of[knight]
        if now is None:
            return self._refuse(state, knight, was, now, "B1", Sentence(
                "{knight}'s counter was taken off the table", knight=self._name(knight)))
        if now[1] != was[1]:
            return self._flip(state, knight, was, now)
        zone = now[0]
        if not _is_hex(zone):
            return self._refuse(state, knight, was, now, "H4.2" if not zone.startswith(
                RESERVE) else "I1", Sentence(
                "{knight} was put {where}: only the rules send a knight off the field",
                knight=self._name(knight), where=self._at(zone)))
        taken = state.at(zone)
        if taken is not None and taken != knight:
            return self._refuse(state, knight, was, now, "G", Sentence(
                "hex {hex} is taken by {other}: one knight per hex", hex=zone,
                other=self._name(taken)))
        if was[0].startswith(RESERVE):
            return self._judge(state, [Action(side, "deploy", {"knight": knight,
                                                               "hex": zone})], knight, now)
        moves = [a for a in self.rules.legal_actions(state, side)
                 if a.verb == "move" and a.args.get("knight") == knight
                 and a.args.get("to") == zone]
        return self._judge(state, moves or [Action(side, "move", {"knight": knight,
                                                                  "to": zone})], knight, now)

    def _misplaced(self, state: BState, knight: str, after: Mapping[str, Face],
                   owed: Sequence[str] = ()) -> Alert:
        """A knight the rules had moved, turned over or removed, put otherwise than they
        decided (a retreat to the wrong hex, H2.1; an advance, H2.4; a capture, H4.2); the fix
        puts it, and whatever else the table still owes, as the record has them."""
        kept = self.record(state)[knight]
        rule = self._rule_of(state, knight)
        fix = self._fix(state, [knight, *owed], after)
        saw = self._saw(knight, self.shown.get(knight, kept), after.get(knight))
        return Alert(rule, Sentence("{saw}: the rules put {knight} {where}, {face} face up",
                                    saw=saw, knight=self._name(knight),
                                    where=self._at(kept[0]), face=FACE_WORDS[kept[1]]),
                     role=self.kit.side_of[knight], fix=fix, public_fix=fix)

    def _flip(self, state: BState, knight: str, was: Face, now: Face) -> Ruling:
        """A counter turned over: a remount tried (E1.2) when the knight's reorganization
        waits for its owner's choice; else only the dice turn counters over."""
        side = self.kit.side_of[knight]
        head = state.queue[0][0] if state.queue and state.phase == "reorganize" else ""
        if now[1] and now[0] == was[0] and head == knight and state.active == side:
            return self._judge(state, [Action(side, "remount", {"knight": knight})], knight,
                               now)
        if now[1]:
            why = Sentence("{knight}'s counter was turned to its mounted face: a knight "
                           "remounts only by a Reorganization, at the end of the turn",
                           knight=self._name(knight))
            return self._refuse(state, knight, was, now, "E1.2", why)
        why = Sentence("{knight}'s counter was turned to its foot face: a knight is unhorsed "
                       "only by the dice", knight=self._name(knight))
        return self._refuse(state, knight, was, now, "H3.1", why)

    def _judge(self, state: BState, candidates: list[Action], knight: str,
               now: Face) -> Ruling:
        """One legal candidate: a Proposal; several: a Question; none: the rules' refusal."""
        legal = [a for a in candidates if self.rules.accepts(state, a)]
        if len(legal) == 1:
            return Proposal(legal[0])
        if legal:
            options = tuple(sorted(legal, key=lambda a: "attack" not in a.args))
            self.asked = options
            return Question(Sentence("{knight} moved to {hex}: does it attack, and whom "
                                     "(E1.1)?", knight=self._name(knight), hex=now[0]),
                            options, Cause.choice("E1.1"))
        try:
            self.rules.decide(state, candidates[0])
        except IllegalAction as exc:
            return self._refuse(state, knight, self.record(state)[knight], now, exc.rule,
                                exc.message)
        return Proposal(candidates[0])  # pragma: no cover - accepts and decide agree

    def _refuse(self, state: BState, knight: str, was: Face, now: Face | None, rule: str,
                why: str) -> Alert:
        """What the camera saw, why not, and how to put the table back as the record has it
        (everything on the table is public: everyone reads the same fix)."""
        saw = self._saw(knight, was, now)
        fix = self._fix(state, [knight], {knight: now} if now else {})
        return Alert(rule, Sentence("{saw}: {why}", saw=saw, why=why),
                     role=self.kit.side_of[knight], fix=fix, public_fix=fix)

    def _owed(self, state: BState, owed: list[str], after: Mapping[str, Face]) -> Alert:
        """A player's doing while the table does not yet show what the rules decided."""
        moved = sorted(self.ahead, key=list(self.kit.by_id).index)
        kept = self.record(state)
        steps = _clauses([Sentence("{step} ({rule})", step=self._put(k, kept[k], after.get(k)),
                                   rule=self._rule_of(state, k)) for k in owed])
        fix = self._fix(state, [*moved, *owed], after)
        first = self._rule_of(state, owed[0])
        return Alert(first, Sentence(
            "{knights} moved before the table showed what the rules decided: {steps}",
            knights=_both([self._name(k) for k in moved]), steps=steps),
            role=self.kit.side_of[moved[0]], fix=fix, public_fix=fix)

    def _rule_of(self, state: BState, knight: str) -> str:
        """The rule behind an owed change: the one the record's events named, else the usual
        one for that kind of change (from what the table showed before)."""
        if knight in self.because:
            return self.because[knight]
        k = state.knights[knight]
        if k.out:
            return "H5" if k.out == "dead" else "H4.2"
        kept, seen = self.record(state)[knight], self.shown.get(knight)
        if not _is_hex(kept[0]):
            return "H4.2"
        if seen is not None and seen[0] != kept[0]:
            return "H2"  # a retreat (H2.1) or an advance (H2.4)
        return "E1.2" if k.mounted else "H3.1"

    # --- words -------------------------------------------------------------------------------

    def _name(self, knight: str) -> str:
        return self.kit.by_id[knight].name

    def _at(self, zone: str) -> str:
        """A zone said: "on 2307", "in the Italians' camp"."""
        if _is_hex(zone):
            return Sentence("on {hex}", hex=zone)
        return AREAS.get(zone, Sentence("off the table"))

    def _saw(self, knight: str, was: Face, now: Face | None) -> str:
        if now is None:
            return Sentence("{knight} taken off the table", knight=self._name(knight))
        if now[0] == was[0]:
            return Sentence("{knight} turned over {where}", knight=self._name(knight),
                            where=self._at(now[0]))
        return Sentence("{knight} moved from {start} to {end}", knight=self._name(knight),
                        start=_bare(was[0]), end=_bare(now[0]))

    def _put(self, knight: str, kept: Face, now: Face | None) -> str:
        """The step that makes the table show `knight` as the record has it: put back where
        a player took it from, put where the rules send it."""
        name = self._name(knight)
        face = FACE_WORDS[kept[1]]
        if now is not None and now[0] == kept[0]:
            return Sentence("turn {knight} over to its {face} face", knight=name, face=face)
        if now is not None and now[1] == kept[1]:
            if knight in self.behind:
                return Sentence("put {knight} {where}", knight=name, where=self._at(kept[0]))
            return Sentence("put {knight} back {where}", knight=name, where=self._at(kept[0]))
        return Sentence("put {knight} {where}, {face} face up", knight=name,
                        where=self._at(kept[0]), face=face)

    def _fix(self, state: BState, knights: Iterable[str], now: Mapping[str, Face]) -> str:
        kept = self.record(state)
        return _clauses([self._put(k, kept[k], now.get(k)) for k in knights])

    # --- the dice ------------------------------------------------------------------------------

    def _dice(self, state: BState, faces: tuple[int, ...]) -> list[Ruling]:
        """A throw landed: one of the throws the chance step due takes (the action once all
        are in), or the answer to a charge or an attack that waits to be told."""
        rulings: list[Ruling] = []
        if not throws_due(state):
            declared = self._declared(state)
            if declared is None:
                return []
            rulings.append(Proposal(declared))
            state = self._advance(state, declared)
        due = throws_due(state)
        if not due:
            return rulings
        key = _step_key(state)
        if self.throws_for != key:
            self.throws, self.throws_for = [], key
        want = due[len(self.throws)][1]
        if len(faces) < want:
            return rulings  # a die still on its way to the tray
        if len(faces) > want:
            fix = Sentence("take the dice out of the tray and throw {count}", count=want)
            return [*rulings, Alert(_dice_rule(state), Sentence(
                "{count} dice in the tray: this throw takes {want}", count=len(faces),
                want=want), fix=fix, public_fix=fix)]
        self.throws.append(faces)
        if len(self.throws) < len(due):
            return rulings
        action = _chance_action(state, self.throws)
        self.throws, self.throws_for = [], None
        try:
            self.rules.decide(state, action)
        except IllegalAction as exc:  # pragma: no cover - the step due takes these dice
            return [*rulings, Alert(exc.rule, exc.message)]
        return [*rulings, Proposal(action)]

    def _declared(self, state: BState) -> Action | None:
        """Dice thrown while a choice waits say it was an attack: the one charge left (I2),
        or the one attack among the options of the move question asked (E1.1)."""
        if state.phase == "charge" and state.combat is None:
            charges = list(self.rules.legal_actions(state, state.active))
            return charges[0] if len(charges) == 1 else None
        attacks = [a for a in self.asked if "attack" in a.args and self.rules.accepts(state, a)]
        return attacks[0] if len(attacks) == 1 else None

    def _advance(self, state: BState, action: Action) -> BState:
        """The state after an action proposed (to judge the next one), noting the rules that
        moved knights (the fix of a later alert names them)."""
        events = self.rules.decide(state, action)
        for event in events:
            rule = event.data.get("rule")
            if event.type == "RemountTested" and not event.data.get("remounted"):
                self.because[str(event.data["knight"])] = "E1.2"
            if isinstance(rule, str) and "knight" in event.data:
                self.because[str(event.data["knight"])] = rule
                if event.data.get("by"):
                    self.because[str(event.data["by"])] = rule
        self.asked = ()
        return fold(self.rules, state, events)

    # --- cards, buttons and the tablet ------------------------------------------------------

    def on_card(self, state: BState, code: str) -> list[Ruling]:
        """The game has no cards: a scanned code means nothing."""
        return []

    def card_owner(self, state: BState, code: str) -> str | None:
        return None

    def on_button(self, state: BState, name: str) -> list[Ruling]:
        """`confirm` asks what the table cannot show, now: the choice of the phase, or an
        order that moves no counter (E, D2), which is asked only when the player says so
        (the button, or the player's phone lists it)."""
        return self._choices(state) if name == "confirm" else []

    def decisions(self, state: BState) -> list[Ruling]:
        """Choices the table cannot show, asked on the tablet once nothing else waits: who
        plays first (C1), whose VC gives the order points (D1), which knight charges (I2),
        recovering rather than remounting (E1.2). Not an order that moves no counter (an
        attack from where the knight stands, a Reorganization, a pass: E, D2): most orders
        move a counter, which the camera reads, so asking before every order would put a
        question in front of the players that they answer by moving a counter instead, and
        ask about that move again (issue 36). Such an order is told by the player: the
        table's confirm button (`on_button`) or their phone."""
        if state.phase == "orders":
            return []
        return self._choices(state)

    def _choices(self, state: BState) -> list[Ruling]:
        """The choice the side to act has that no counter shows, as a Question."""
        role = state.active
        if state.outcome is not None or not role or role not in self.rules.to_move(state):
            return []
        legal = list(self.rules.legal_actions(state, role))
        if state.phase == "orders":
            legal = sorted((a for a in legal if a.verb != "move" or a.args.get("to") ==
                            state.knights[str(a.args["knight"])].where), key=_likely_order)
        if state.phase == "command":
            legal.sort(key=lambda a: -self.kit.vc(str(a.args["knight"])))
        if not legal or state.phase == "deploy":
            return []
        if state.phase == "orders":
            self.asked = tuple(legal)  # the attacker's dice answer it when one attack fits
        return [Question(QUESTIONS.get(state.phase, Sentence("Which one?")), tuple(legal),
                         Cause.choice(ASKED_RULES.get(state.phase, "E")))]


AREAS = {area(RESERVE, "italians"): Sentence("in the Italians' reserve"),
         area(RESERVE, "french"): Sentence("in the French reserve"),
         area(CAMP_AREA, "italians"): Sentence("in the Italians' camp"),
         area(CAMP_AREA, "french"): Sentence("in the French camp"),
         area(SURRENDERED, "italians"): Sentence("on the Italians' Surrendered table"),
         area(SURRENDERED, "french"): Sentence("on the French Surrendered table")}
"""The mat's areas, said where a knight is to be put."""
FACE_WORDS = {True: Sentence("mounted"), False: Sentence("foot")}
QUESTIONS = {"choose": Sentence("Play first or second this turn (C1)?"),
             "command": Sentence("Whose VC gives the order points this turn (D1)?"),
             "charge": Sentence("Which knight charges (I2)?"),
             "orders": Sentence("Which order, with no counter moved (E, D2)?"),
             "reorganize": Sentence("Recover hits or try to remount (E1.2)?")}
"""What the tablet asks in each phase where the table cannot show the choice."""
ASKED_RULES = {"choose": "C1", "command": "D1", "charge": "I2", "orders": "D2",
                "reorganize": "E1.2"}
"""The rule that leaves each phase's choice to the player (the cause of its question)."""


def _likely_order(action: Action) -> int:
    """The order a player who tells one no counter shows most likely gives first: an attack
    from where the knight stands, a Reorganization, a Move order without movement, a pass."""
    if "attack" in action.args:
        return 0
    return {"reorganize": 1, "move": 2}.get(action.verb, 3)


def _is_hex(zone: str) -> bool:
    return len(zone) == 4 and zone.isdigit()


def _bare(zone: str) -> str:
    """A zone as a start or end of a move: the hex number, or the area said."""
    return zone if _is_hex(zone) else AREAS.get(zone, Sentence("off the table"))


def _towards(was: Face | None, now: Face | None, kept: Face) -> bool:
    """Whether a change brings a counter towards the record: each of its place and face is
    as it was or as the record has it, and one of them moved to the record's."""
    if now is None or was is None:
        return now == kept
    return all(n in (w, k) for w, n, k in zip(was, now, kept, strict=True)) and now != was


def _step_key(state: BState) -> tuple[Any, ...]:
    """Which chance step the throws read so far were for."""
    combat = state.combat
    return (state.turn, state.phase, state.remounting,
            None if combat is None else (combat.attacker, combat.defender, combat.step,
                                         combat.tests))


def _clauses(parts: Sequence[str]) -> str:
    """Steps one after another, "put Fieramosca back on 2307; turn Miale over ..."."""
    text = parts[0] if parts else ""
    for part in parts[1:]:
        text = Sentence("{first}; {second}", first=text, second=part)
    return text


def _both(names: Sequence[str]) -> str:
    text = names[0] if names else ""
    for name in names[1:]:
        text = Sentence("{first} and {last}", first=text, last=name)
    return text
