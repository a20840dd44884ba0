"""Shogun at the table: what a stable change of the counts, a card's label or a button means
(issue #21, "At the table").

The camera counts cubes per province and colour (a player's armies under the player's colour)
and the battle tower's tray by colour (`farmers` for the green cubes), as `CountDiff`s of the
count tracker (`reader.py`, `vision.count_tracker`); the card reader reads the QR labels of the
province cards (their kit id), the event cards (`event:<id>`) and the action cards
(`action:<id>`), `labels.py`. Plans and bids are made on the phones: the referee never sees
them, and nothing here reads or says one before the rules turn it up (3.3, 3.5).

The record leads, the table follows. After an action the rules carry out by themselves what
follows (a deploy, a battle's losses, the next player's action), so the table often owes the
record cubes: a change that only brings the table towards the record (each count moving toward
the record's, none past it) is the players catching up and asks nothing. A change that goes
elsewhere is a choice shown on the table, fitted against the rules' legal actions (armies moved
from the province whose action awaits, a group put on a claimed province, a revolt's armies
thrown), each played forward on a copy of the state: the action's own effect must show whole
(a battle: the attacker's armies gone from the origin and the defender's from the target); the
rest may still lag. One fit: a Proposal; several: a Question listing them in words; an action
half shown (the attacker's cubes gone, the defender's not yet) is waited for until the tray
lands; none: an Alert with the rule, what was seen and how to put it back (desync).

The tray is read when a throw awaits it (a battle, a revolt, the tower's loading, 6): the first
stable count after the throw is chance's `tray`, and the engine decides whether the tower could
give it (an impossible reading is its rule-6 refusal, with the fix). The tray seen empty while a
throw awaits is its cubes taken out to be thrown again (6.1: the tray's cubes go in too); a
reading the camera cannot see change (the same cubes as before, or none at all) is read by
`confirm`. Choices nothing on the table shows (staying after deploy 1, which winter revolt
first, the daimyo cards of tied bidders, the +1 attack and +1 defence cards' extra army: 3.2)
are asked on the tablet; the 6 armies card's 5 or 6 is asked too, and the cubes put on the
province answer it. Drawing from the province deck (2.2) is read from the card's label, or told
with `confirm`. The special cards' order at the lay-out (3.2) and the card each player takes
(3.5) are read from the special cards' labels; a set without them is asked both.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import permutations

from companion.engine.core import (
    CHANCE,
    Action,
    Alert,
    Cause,
    Event,
    IllegalAction,
    Proposal,
    Question,
    Ruling,
    Sentence,
    fold,
)
from companion.games.shogun.kit import ACTIONS, ShogunKit
from companion.games.shogun.labels import ACTION_PREFIX, EVENT_PREFIX, SPECIAL_PREFIX
from companion.games.shogun.reader import TRAY
from companion.games.shogun.rules import PHASE_RULES, ShogunRules, waiting
from companion.games.shogun.rules.context import SPECIAL_NAMES, SPECIALS, Batch
from companion.games.shogun.rules.state import FARMERS, ShogunState
from companion.games.shogun.rules.winter import revolts_due
from companion.games.shogun.rules.words import ACTION_NAMES, COLOURS
from companion.table.registry import TableRegistry
from companion.vision.count_tracker import (
    CountDiff,
    Counts,
    CountSnapshot,
    CountTracker,
    count_changes,
    normalised,
)

__all__ = ["THROWS", "ShogunReferee", "board_of", "own_events"]

Board = dict[str, dict[str, int]]
THROWS = ("battle", "revolt", "load")
"""Pending steps that wait for the tower's tray (6)."""
CHOICE_RULES = {"attack": "4.4", "move": "4.3", "claim": "2.2", "place": "2.2",
                "revolt": "5.2", "deploy": "3.2"}
"""The rule of each choice the table shows with cubes."""
CARDS_DUE = {"deal": 2, "events": 4, "lay_out": 5}
_TURNS = {"deal": "province", "reveal": "province", "drawn": "province", "revolts": "province",
          "events": "event", "event": "event", "lay_out": "action", "turn_card": "action"}
"""The kind of card each chance step turns."""
"""Chance steps that turn several cards: how many labels make the step."""


def board_of(state: ShogunState) -> Board:
    """Zone -> kind -> cubes the record has on the table: each province's armies under its
    owner's colour, and the tower's tray (`TRAY`) by colour."""
    table: Board = {p: {state.owner[p]: n} for p, n in state.armies.items()
                    if n and p in state.owner}
    table[TRAY] = dict(state.tray)
    return normalised(table)


def own_events(events: Sequence[Event]) -> list[Event]:
    """An action's own events: up to the turn passing on (what follows is the rules carrying
    out the next players' actions, which the table may show later)."""
    own: list[Event] = []
    for event in events:
        if event.type == "TurnPassed":
            break
        own.append(event)
    return own


def _provinces(counts: Counts | None) -> Board:
    return normalised({z: dict(k) for z, k in (counts or {}).items() if z != TRAY})


def _tray(counts: Counts | None) -> dict[str, int]:
    return {k: n for k, n in (counts or {}).get(TRAY, {}).items() if n}


def _between(start: Counts, now: Counts, goal: Counts, zones: Iterable[str]) -> bool:
    """Every count in `zones` went from `start` toward `goal` without passing it."""
    for zone in zones:
        a, b, g = start.get(zone, {}), now.get(zone, {}), goal.get(zone, {})
        for kind in set(a) | set(b) | set(g):
            x, y, w = a.get(kind, 0), b.get(kind, 0), g.get(kind, 0)
            if not min(x, w) <= y <= max(x, w):
                return False
    return True


def _shifted(start: Counts, record: Counts, goal: Counts, zone: str) -> dict[str, int]:
    """`zone` in `start` changed as the action changed the record there (a lag left as is)."""
    kinds = set(start.get(zone, {})) | set(record.get(zone, {})) | set(goal.get(zone, {}))
    out = {k: start.get(zone, {}).get(k, 0) + goal.get(zone, {}).get(k, 0)
           - record.get(zone, {}).get(k, 0) for k in kinds}
    return {k: n for k, n in out.items() if n}


@dataclass(frozen=True)
class _Fit:
    """A legal action played forward: the provinces after its own events, and the record
    after all it leads to. Only its own effect is fitted: what follows may carry out the next
    players' secret plans, and a table that guessed them must not be told it is right before
    the rules turn them up (3.3)."""

    action: Action
    own: Board
    after: ShogunState


@dataclass
class ShogunReferee:
    rules: ShogunRules
    registry: TableRegistry
    tracker: CountTracker | None = None
    """The table's tracker: the tray lying there when `confirm` is pressed."""
    desync: Alert | None = None
    turned: list[str] = field(default_factory=list)
    """Cards turned for a chance step that turns several (the deal, the events, the lay-out,
    a player's winter revolts), waiting for the rest."""
    specials: list[str] = field(default_factory=list)
    """The special cards' labels scanned at the lay-out, in the order they lie (3.2)."""
    labelled_specials: bool = False
    """The table has scanned a special card's label (at a lay-out): the card each player
    takes (3.5) is then read from its scan rather than asked beforehand."""
    seen: CountSnapshot | None = None
    """The table as the last stable change showed it (the tray for `confirm` without a
    tracker)."""
    landed: dict[str, int] | None = None
    """A tray that landed with cubes moved that were asked about: read after the answer."""
    held: tuple[ShogunState, Board] | None = None
    """A choice half shown (an attacker's armies gone, the defender's not yet): the record
    it waits on and the provinces before it began."""

    @property
    def kit(self) -> ShogunKit:
        return self.rules.kit

    # --- what the table shows -------------------------------------------------------------

    def on_diff(self, state: ShogunState, diff: CountDiff) -> list[Ruling]:
        """The actions a stable change means: cubes on the provinces first (a choice shown,
        or the table catching up), then the tray on the state they leave."""
        self.seen = diff.after
        if diff.before is None or state.outcome is not None:
            return []
        rulings, state, waits = self._on_provinces(state, diff)
        if not waits and all(isinstance(r, Proposal) for r in rulings):
            rulings += self._on_tray(state, diff)
        alert = next((r for r in rulings if isinstance(r, Alert)), None)
        if alert is not None:
            self.desync = alert
        return rulings

    def _on_provinces(self, state: ShogunState, diff: CountDiff
                      ) -> tuple[list[Ruling], ShogunState, bool]:
        """(rulings, the state they leave, whether a choice is half shown and waits). A
        choice half shown is judged again from the table before it began, with the rest."""
        assert diff.before is not None
        start, now = _provinces(diff.before.counts), _provinces(diff.after.counts)
        if self.held is not None and self.held[0] == state:
            start = self.held[1]
        self.held = None
        doubts = diff.doubtful
        if start == now and not diff.new_doubts:
            return [], state, False
        record = _provinces(board_of(state))
        zones = sorted((set(start) | set(now) | set(record)) - doubts)
        if _between(start, now, record, zones):
            return [], state, False  # the players putting the table as the record has it
        full, half, unsure = self._fits(state, start, now, record, zones, doubts)
        tray = _tray(diff.after.counts)
        landed = bool(tray) and tray != _tray(diff.before.counts)
        if half and not landed:
            self.held = (state, start)
            return [], state, True
        chosen = full or half  # the tray landed: what was thrown is thrown
        options = tuple(f.action for f in chosen)
        if any(f.action in unsure for f in chosen):
            return [Question(_doubt_question(self.kit, state, doubts), options,
                             Cause.doubt(_joined([_zone_name(self.kit, state.side, z)
                                                  for z in sorted(doubts)]),
                                         "cubes too close to count"))], state, True
        if len(full) == 1:
            return [Proposal(full[0].action)], full[0].after, False
        if chosen:
            self.landed = tray if landed else None  # read once the question is answered
            return [Question(_question(chosen[0].action, options), options,
                             Cause.choice(_choice_rule(chosen[0].action, options)))], state, True
        return [self._refusal(state, diff, record)], state, False

    def _fits(self, state: ShogunState, start: Board, now: Board, record: Board,
              zones: list[str], doubts: frozenset[str]
              ) -> tuple[list[_Fit], list[_Fit], list[Action]]:
        """The legal actions whose own effect the table shows whole (full), or in some of
        its provinces and not yet begun in the others (half), one per game left behind; and
        those that change a province the camera could not count (unsure: asked)."""
        full: list[_Fit] = []
        half: list[_Fit] = []
        unsure: list[Action] = []
        for fit in self._played(state):
            mine = [z for z in [*zones, *sorted(doubts)]
                    if fit.own.get(z, {}) != record.get(z, {})]
            rest = [z for z in zones if z not in mine]
            if not mine or not _between(start, now, fit.own, rest):
                continue
            shown = [z in doubts or now.get(z, {}) in (
                fit.own.get(z, {}), _shifted(start, record, fit.own, z)) for z in mine]
            untouched = [now.get(z, {}) == start.get(z, {}) for z in mine]
            begun = all(s or u for s, u in zip(shown, untouched, strict=True)) and any(shown)
            found = full if all(shown) else half if begun else None
            if found is None or any(f.after == fit.after for f in full + half):
                continue
            found.append(fit)
            if set(mine) & doubts:
                unsure.append(fit.action)
        return full, half, unsure

    def _played(self, state: ShogunState) -> list[_Fit]:
        """Each legal action the table shows with cubes, played forward."""
        fits = []
        for action in self._table_choices(state):
            try:
                events = self.rules.decide(state, action)
            except IllegalAction:
                continue
            own = fold(self.rules, state, own_events(events))
            after = fold(self.rules, state, events)
            fits.append(_Fit(action, _provinces(board_of(own)), after))
        return fits

    def _table_choices(self, state: ShogunState) -> list[Action]:
        """The choices cubes show: an attack or a move from the awaiting province (not
        staying: nothing moves), a group put on a province at the claims, the revolt whose
        armies go into the tower first."""
        found: list[Action] = []
        for role, verbs in waiting(state).items():
            if role == CHANCE:
                continue
            found += [a for a in self.rules.legal_actions(state, role)
                      if a.verb in ("attack", "move", "claim", "place", "revolt", "deploy")
                      and a.verb in verbs]
        return found

    def _refusal(self, state: ShogunState, diff: CountDiff, record: Board) -> Alert:
        """Why no legal action leaves the table so: the rule of the choice awaited (or of the
        phase), what the camera saw, how to put the table back as the record has it and what
        the game waits for. Cubes on the board are public: everyone reads the fix."""
        assert diff.before is not None
        kit, side = self.kit, state.side
        seen = count_changes(_provinces(diff.before.counts), _provinces(diff.after.counts))
        back = _put_back(kit, side, count_changes(record, _provinces(diff.after.counts)))
        awaited, rule, role = _awaited(kit, state)
        fix = Sentence("{back}; then {awaited}", back=back, awaited=awaited)
        return Alert(rule, Sentence(
            "the cubes moved ({changes}) are not what the rules allow now: {awaited}",
            changes=_changes(kit, side, seen), awaited=awaited),
            role=_mover(seen, role), fix=fix, public_fix=fix)

    def _on_tray(self, state: ShogunState, diff: CountDiff) -> list[Ruling]:
        """The tray changed: a throw's reading, its cubes taken out to be thrown, or the
        players putting it as the record has it after a battle (6.2), also when the rules
        throw again at once (the next revolt): cubes only taken out, down to the record's
        tray, are no landing (a reading that equal is read by `confirm`)."""
        assert diff.before is not None
        start, now = _tray(diff.before.counts), _tray(diff.after.counts)
        if start == now or TRAY in diff.doubtful:
            return []
        if _throw_awaits(state):
            if not now:
                return []  # taken out to be thrown again with the battle's cubes (6.1)
            if now == _tray(board_of(state)) and all(n <= start.get(k, 0) for k, n in now.items()):
                return []  # the cubes the last throw returned taken out: the record's tray
            return [self._judge(state, Action(CHANCE, "tray", {"tray": now}))]
        if state.pending is not None or _between({TRAY: start}, {TRAY: now},
                                                 {TRAY: dict(state.tray)}, [TRAY]):
            return []  # an attack's cubes on their way, or the tray cleared as the record says
        back = _put_back_tray(count_changes({TRAY: dict(state.tray)}, {TRAY: now}))
        awaited, _, role = _awaited(self.kit, state)
        fix = Sentence("{back}; then {awaited}", back=back, awaited=awaited)
        return [Alert("6.2", Sentence(
            "the tower's tray changed ({changes}) with no battle or revolt thrown: after a "
            "battle only the cubes the rules return leave the tray",
            changes=_changes(self.kit, state.side, count_changes({TRAY: start}, {TRAY: now}))),
            role=role, fix=fix, public_fix=fix)]

    def _judge(self, state: ShogunState, action: Action, confirmed: bool = False) -> Ruling:
        """The action the table showed, or the rules' refusal of it with what to do. A tray
        reading is put to the players with the outcome it gives, to confirm with a tap (or
        the confirm button) or set right in the tray (issue #21), unless `confirmed`: the
        button pressed over a tray the camera cannot see change is the confirmation."""
        try:
            events = self.rules.decide(state, action)
        except IllegalAction as exc:
            fix = Sentence("put the cards back as the game has them and turn the right one")
            if action.verb == "tray":
                fix = Sentence("only cubes thrown into the tower, or held in it, can fall into "
                               "the tray: take out any other cube, then press confirm")
            return Alert(exc.rule, exc.message, exc.legal,
                         None if action.role == CHANCE else action.role, fix=fix,
                         public_fix=fix)
        if action.verb == "tray" and not confirmed:
            return Proposal(action, notice=self._tray_notice(state, action, events))
        return Proposal(action)

    def _tray_notice(self, state: ShogunState, action: Action,
                     events: Sequence[Event]) -> Sentence:
        """What a tray the camera counted with confidence decides, played at once and shown
        big with one tap to take it back (issue 36; it was a question to confirm, issue 21):
        The tower's tray: 3 Red armies, 2 farmers. Red holds Kita 3 with 1 Red army (6.2)."""
        tray = action.args["tray"]
        cubes = _joined([_cubes(kind, n) for kind, n in sorted(tray.items()) if n])
        outcome = next((_outcome(self.kit, state.side, e) for e in events
                        if e.type == "CubesReturned"), Sentence("nothing comes back yet."))
        return Sentence("The tower's tray: {cubes}. {outcome} (6.2)", cubes=cubes,
                        outcome=outcome)

    # --- the record and the table ---------------------------------------------------------

    def table_matches(self, state: ShogunState, seen: CountSnapshot | None) -> bool:
        """Whether every province holds the record's armies and the tray its cubes (the way
        out of desync). While a throw awaits its reading, the tray may also be empty (its
        cubes taken out to be thrown) or show a reading the tower could give, which
        `decisions` then reads. A zone the camera cannot count is not taken as matching."""
        if seen is None or seen.doubtful:
            return False
        record = board_of(state)
        ok = _provinces(seen.counts) == _provinces(record)
        tray = _tray(seen.counts)
        if ok and tray != _tray(record):
            ok = _throw_awaits(state) and (not tray or self._possible(state, tray))
        if ok:
            self.desync = None
        return ok

    def _possible(self, state: ShogunState, tray: Mapping[str, int]) -> bool:
        return self.rules.accepts(state, Action(CHANCE, "tray", {"tray": dict(tray)}))

    def expected(self, state: ShogunState) -> CountSnapshot:
        """The record's table, which the session takes as the table after an answer or an
        action entered on the tablet: the provinces' armies, and the tray's cubes as the
        camera last saw them (the record's before it saw any). A tap moves no cube in the
        tray: a reading that landed while a question waited is read after the answer
        (`decisions`), and must not land a second time for the next throw."""
        table = board_of(state)
        seen = self._table_now()
        if seen is not None:
            table = {**{z: k for z, k in table.items() if z != TRAY},
                     TRAY: dict(seen.counts.get(TRAY, {}))}
        return CountSnapshot(normalised(table), ())

    def forget_inputs(self) -> None:
        self.turned, self.specials = [], []
        self.held = self.landed = None

    # --- cards and buttons ----------------------------------------------------------------

    def on_card(self, state: ShogunState, code: str) -> list[Ruling]:
        """A turned card's label: a province card dealt, revealed or drawn (2.2) or drawn for
        a winter revolt (5.2), an event card (2.4, 3.4), an action card laid out (3.1) or
        turned (3.6). A card the game does not wait for is an alert naming it."""
        card = self.registry.card(code)
        kind = self._kind(card)
        if card is None or kind is None:
            fix = Sentence("scan the label of a Shogun province, event or action card")
            return [Alert("2", Sentence("unknown card code {code}: not a Shogun card label",
                                        code=repr(code)), fix=fix, public_fix=fix)]
        name = self._card_name(state, card)
        verbs = waiting(state).get(CHANCE, ())
        if kind == "special":
            return self._special(state, card, name, "lay_out" in verbs)
        step = next((v for v in verbs if _TURNS.get(v) == kind), None)
        if step is None and kind == "province" and state.phase == "claim":
            return self._claimer_draws(state, card, name)
        if step is None:
            return [self._unexpected(state, name)]
        if step in CARDS_DUE or step == "revolts":
            return self._collect(state, step, card, name)
        if step == "turn_card" and self._behind(state):
            return [self._behind_alert(state)]
        return [self._judge(state, Action(CHANCE, step, {"card": self._bare(card)}))]

    def _table_now(self) -> CountSnapshot | None:
        return self.tracker.stable if self.tracker is not None else self.seen

    def _behind(self, state: ShogunState) -> bool:
        """The provinces do not yet show what the actions carried out so far left (3.6: an
        action is carried out in full before the next card is turned)."""
        seen = self._table_now()
        return seen is not None and not seen.doubtful and \
            _provinces(seen.counts) != _provinces(board_of(state))

    def _behind_alert(self, state: ShogunState) -> Alert:
        seen = self._table_now()
        assert seen is not None
        back = _put_back(self.kit, state.side,
                         count_changes(_provinces(board_of(state)), _provinces(seen.counts)))
        fix = Sentence("{back}; then turn the action card again", back=back)
        return Alert("3.6", Sentence("the table does not show yet what the last actions left: "
                                     "finish them before the next action card is turned"),
                     fix=fix, public_fix=fix)

    def _kind(self, card: str | None) -> str | None:
        if card is None:
            return None
        if card.startswith(EVENT_PREFIX):
            return "event" if card[len(EVENT_PREFIX):] in self.kit.event else None
        if card.startswith(ACTION_PREFIX):
            return "action" if card[len(ACTION_PREFIX):] in ACTIONS else None
        if card.startswith(SPECIAL_PREFIX):
            return "special" if card[len(SPECIAL_PREFIX):] in SPECIALS else None
        return "province" if card in self.kit.card else None

    @staticmethod
    def _bare(card: str) -> str:
        for prefix in (EVENT_PREFIX, ACTION_PREFIX, SPECIAL_PREFIX):
            if card.startswith(prefix):
                return card[len(prefix):]
        return card

    def _card_name(self, state: ShogunState, card: str) -> str:
        bare = self._bare(card)
        if card.startswith(EVENT_PREFIX):
            return self.kit.event[bare].name
        if card.startswith(ACTION_PREFIX):
            return Sentence(ACTION_NAMES[bare])
        if card.startswith(SPECIAL_PREFIX):
            return Sentence(SPECIAL_NAMES[bare])
        return _province_name(self.kit, state.side, bare)

    def _special(self, state: ShogunState, card: str, name: str, laying: bool
                 ) -> list[Ruling]:
        """A special card's label. At the lay-out: its place in the order the cards lie on
        spaces 1 to 5 (3.2), scanned before the action cards are turned, so that the lay-out
        is read whole rather than its 120 orders asked; and the table has shown that its
        special cards carry labels, so the card each player takes is read from its scan
        from then on, not asked (3.5). While players take them: the chooser taking it.
        At any other time: unexpected."""
        bare = self._bare(card)
        if laying:
            self.labelled_specials = True
            if bare not in self.specials:
                self.specials.append(bare)
            return []
        if state.phase == "special" and state.choosing:
            return [self._judge(state, Action(state.choosing[0], "take",
                                              {"card": bare}))]
        return [self._unexpected(state, name)]

    def _claimer_draws(self, state: ShogunState, card: str, name: str) -> list[Ruling]:
        """2.2: at the claims, a face-up card picked up waits for the group put on its
        province; a card from the deck is the claimer drawing it."""
        if card in state.face_up:
            return []
        role = state.players[state.claimer]
        draw = self._judge(state, Action(role, "draw", {}))
        if not isinstance(draw, Proposal):
            return [draw]
        drawn = fold(self.rules, state, self.rules.decide(state, draw.action))
        return [draw, self._judge(drawn, Action(CHANCE, "drawn", {"card": card}))]

    def _collect(self, state: ShogunState, verb: str, card: str, name: str) -> list[Ruling]:
        """A card of a step that turns several: kept until they are all turned, then the
        step. The lay-out takes the special cards' order from their labels scanned before
        (`_special`); a set whose special cards carry no label is asked it (3.2)."""
        pool = self._pool(state, verb)
        bare = self._bare(card)
        if bare not in pool:
            return [self._unexpected(state, name)]
        if bare in self.turned:
            return []  # read twice
        self.turned.append(bare)
        due = self._due(state, verb)
        if len(self.turned) < due:
            return []
        cards, self.turned = self.turned, []
        if verb == "lay_out" and len(self.specials) == len(SPECIALS):
            specials, self.specials = self.specials, []
            return [self._judge(state, Action(CHANCE, "lay_out", {"actions": cards,
                                                                   "specials": specials}))]
        if verb == "lay_out":
            self.specials = []
            options = tuple(Action(CHANCE, "lay_out", {"actions": cards, "specials": list(s)})
                            for s in permutations(SPECIALS))
            return [Question(Sentence("The action cards are laid out: in which order do the "
                                      "special cards lie on their spaces, 1 first (3.2)?"),
                             options, Cause.doubt("the special cards' spaces",
                                                  "card faces are not read"))]
        if verb == "revolts":
            return [self._judge(state, Action(CHANCE, "revolts", {
                "player": state.winter_queue[0], "provinces": cards}))]
        return [self._judge(state, Action(CHANCE, verb, {"cards": cards}))]

    def _pool(self, state: ShogunState, verb: str) -> Sequence[str]:
        if verb == "deal":
            return sorted(state.deck)
        if verb == "events":
            return sorted(state.events_deck)
        if verb == "lay_out":
            return ACTIONS
        return state.provinces_of(state.winter_queue[0])

    def _due(self, state: ShogunState, verb: str) -> int:
        if verb == "revolts":
            return revolts_due(Batch(self.kit, state), state.winter_queue[0])
        return CARDS_DUE[verb]

    def _unexpected(self, state: ShogunState, name: str) -> Alert:
        """A card turned that the game does not wait for now (public: cards are turned in
        the open)."""
        awaited, rule, _ = _awaited(self.kit, state)
        fix = Sentence("put {card} back; the game waits for {awaited}", card=name,
                       awaited=awaited)
        return Alert(rule, Sentence("{card} was turned, but it is not a card the game turns "
                                    "now", card=name), fix=fix, public_fix=fix)

    def card_owner(self, state: ShogunState, code: str) -> str | None:
        """At the claims, a province card is the claimer's to draw (2.2); every other card is
        turned for chance, entered on the referee's screen alone."""
        card = self.registry.card(code)
        if self._kind(card) == "province" and state.outcome is None and \
                state.phase in ("claim", "drawing"):
            return state.players[state.claimer]
        return None

    def on_button(self, state: ShogunState, name: str) -> list[Ruling]:
        """`confirm` while a throw awaits: the cubes lying in the tray are its reading (the
        same cubes as before, or none, show no change to the camera). Otherwise the player
        tells a choice no label showed, drawing from the deck included (`TOLD`)."""
        if name != "confirm":
            return []
        if not _throw_awaits(state):
            return self._choices(state, TOLD)  # a choice the player tells: drawing (2.2)
        stable = self._table_now()
        if stable is None or TRAY in stable.doubtful:
            fix = Sentence("spread the cubes in the tray so that each can be counted, then "
                           "press confirm")
            return [Alert("6", Sentence("confirm: the tray cannot be counted"), fix=fix,
                          public_fix=fix)]
        return [self._judge(state, Action(CHANCE, "tray", {"tray": _tray(stable.counts)}),
                            confirmed=True)]

    def decisions(self, state: ShogunState) -> list[Ruling]:
        """Choices the table cannot show, asked on the tablet once nothing else waits; and a
        tray that landed while a question waited, read now (the camera shows it no more)."""
        if state.outcome is not None:
            return []
        if _throw_awaits(state):
            return self._tray_seen(state)
        return self._choices(state, ASKED - {"take"} if self.labelled_specials else ASKED)

    def _choices(self, state: ShogunState, verbs: frozenset[str]) -> list[Ruling]:
        """The choice of `verbs` waiting (or the daimyo order of a tie), as a Question."""
        asked = [a for role in waiting(state) if role != CHANCE
                 for a in self.rules.legal_actions(state, role) if a.verb in verbs]
        if state.phase == "ties" and CHANCE in waiting(state):
            group = state.ties[0]
            asked = [Action(CHANCE, "daimyo", {"order": list(order)})
                     for order in permutations(group)]
        if not asked:
            return []
        return [Question(_question(asked[0]), tuple(asked),
                         Cause.choice(_choice_rule(asked[0])))]

    def _tray_seen(self, state: ShogunState) -> list[Ruling]:
        """The tray to read once nothing else waits: the one that landed while a question
        waited (the answer put the record's table in the tracker, and the players may have
        emptied the tray since: the camera shows it no more), else the stable table's."""
        landed, self.landed = self.landed, None
        if landed is not None:
            tray = landed
        else:
            stable = self._table_now()
            if stable is None or TRAY in stable.doubtful:
                return []
            tray = _tray(stable.counts)
            if not tray or tray == dict(state.tray):
                return []  # the tray's cubes not thrown yet
        if not self._possible(state, tray):
            return []
        return [self._judge(state, Action(CHANCE, "tray", {"tray": tray}))]


ASKED = frozenset({"stay", "take", "revolt", "deploy", "defend"})
"""The choices asked once nothing else waits: each is the one thing to do then and no cube or
card shows it (3.2, 3.5, 4.3, 5.2)."""
TOLD = ASKED | {"draw"}
"""With the confirm button, also drawing from the deck (2.2): at the claims most players put a
group on a face-up province or scan the card they draw, both read from the table, so the draw
is not put to every claimer beforehand (issue 36); a player drawing a card without a label
presses confirm (or taps it on their phone)."""


def _throw_awaits(state: ShogunState) -> bool:
    """A battle, a revolt or the loading thrown, the tray not read yet (6)."""
    return state.pending is not None and state.pending.get("kind") in THROWS \
        and not state.pending.get("read")


# --- words ------------------------------------------------------------------------------------


def _province_name(kit: ShogunKit, side: str, province: str) -> str:
    found = kit.provinces(side).get(province)
    return found.name if found is not None else province


def _zone_name(kit: ShogunKit, side: str, zone: str) -> str:
    return Sentence("the tower's tray") if zone == TRAY else _province_name(kit, side, zone)


def _colour(kind: str) -> Sentence:
    return Sentence(COLOURS.get(kind, kind))


def _joined(items: Sequence[str], separator: str = ", ") -> str:
    """Items in a list, each said again in a screen's language (a template that only joins
    them: no catalog entry needed)."""
    if not any(isinstance(item, Sentence) for item in items):
        return separator.join(items)
    values = {f"item{n}": item for n, item in enumerate(items)}
    return Sentence(separator.join("{" + name + "}" for name in values), **values)


def _outcome(kit: ShogunKit, side: str, returned: Event) -> Sentence:
    """What a tray reading gives (6.2), from the rules' `CubesReturned`: who holds the province
    and with how many armies, the farmers holding it, a tie emptying it, or (the tower's
    loading, 2.3) the cubes going back to the supplies."""
    data = returned.data
    province = data.get("province")
    if province is None:
        return Sentence("The cubes that fell go back to the supplies.")
    where = _province_name(kit, side, province)
    winner, placed = data.get("winner"), data.get("placed") or {}
    if winner is None:
        return Sentence("A tie: {province} is emptied.", province=where)
    if winner == FARMERS:
        return Sentence("The farmers hold {province}.", province=where)
    armies = int(placed.get("armies", 0))
    return Sentence("{player} holds {province} with {armies}.", player=_colour(winner),
                    province=where, armies=_cubes(winner, armies))


def _cubes(kind: str, n: int) -> Sentence:
    """`n` cubes of a kind: "2 Red armies", "1 farmer"."""
    if kind == FARMERS:
        return Sentence("1 farmer") if n == 1 else Sentence("{count} farmers", count=n)
    if n == 1:
        return Sentence("1 {player} army", player=_colour(kind))
    return Sentence("{count} {player} armies", count=n, player=_colour(kind))


def _changes(kit: ShogunKit, side: str, moved: Mapping[str, Mapping[str, int]]) -> str:
    """What the camera saw change, zone by name: "Kita 3: -2 Red; Naka 1: +2 Red"."""
    return _joined([Sentence("{zone}: {changes}", zone=_zone_name(kit, side, zone),
                             changes=_joined([Sentence("{change} {kind}", change=f"{n:+d}",
                                                       kind=_colour(kind))
                                              for kind, n in sorted(kinds.items())]))
                    for zone, kinds in sorted(moved.items())], "; ") or Sentence("nothing")


def _put_back(kit: ShogunKit, side: str, beyond: Mapping[str, Mapping[str, int]]) -> str:
    """How to make the provinces as the record has them: `beyond` is the table less the
    record ("take 2 Red armies out of Kita 3; put 1 Blue army in Naka 1")."""
    steps: list[str] = []
    for zone, kinds in sorted(beyond.items()):
        where = _zone_name(kit, side, zone)
        for kind, n in sorted(kinds.items()):
            steps.append(Sentence("take {cubes} out of {zone}", cubes=_cubes(kind, n),
                                  zone=where) if n > 0 else
                         Sentence("put {cubes} in {zone}", cubes=_cubes(kind, -n), zone=where))
    return _joined(steps, "; ") or Sentence("leave the cubes as they are")


def _put_back_tray(beyond: Mapping[str, Mapping[str, int]]) -> str:
    steps = [Sentence("take {cubes} out of the tray", cubes=_cubes(kind, n)) if n > 0 else
             Sentence("put {cubes} back in the tray", cubes=_cubes(kind, -n))
             for kinds in beyond.values() for kind, n in sorted(kinds.items())]
    return _joined(steps, "; ") or Sentence("leave the tray as it is")


def _awaited(kit: ShogunKit, state: ShogunState) -> tuple[str, str, str | None]:
    """What the game waits for now, in words, with its rule and the player it waits for
    (None: chance, or everyone). Never a plan or a bid: only that one is awaited."""
    pending = state.pending
    if pending is not None and pending.get("kind") in ("deploy", "defence"):
        player = str(pending["player"])
        return (Sentence("{player} deploys 5 or 6 armies in {province} (the 6 armies card)"
                         if pending["kind"] == "deploy" else
                         "{player} says whether to add an army of the +1 defence card",
                         player=_colour(player),
                         province=_province_name(kit, state.side, str(pending["province"]))),
                "3.2", player)
    if pending is not None and pending.get("kind") in ("attack", "move"):
        player, origin = str(pending["player"]), str(pending["province"])
        most = state.armies.get(origin, 0) - 1
        kind = str(pending["kind"])
        return (Sentence("{player} moves 1 to {most} armies from {origin} to an adjacent "
                         "province (a battle if it is not theirs)" if kind == "attack" else
                         "{player} moves 1 to {most} armies from {origin} to an adjacent "
                         "province of theirs, or stays", player=_colour(player), most=most,
                         origin=_province_name(kit, state.side, origin)),
                CHOICE_RULES[kind], player)
    if _throw_awaits(state):
        return Sentence("the cubes thrown into the tower, and the tray read"), "6.1", None
    verbs = waiting(state)
    role = next((r for r in verbs if r != CHANCE), None)
    rule = PHASE_RULES.get(state.phase, "3")
    if state.phase == "claim" and role is not None:
        groups = ", ".join(str(g) for g in sorted(set(state.groups[role])))
        cards = _joined([_province_name(kit, state.side, c) for c in state.face_up])
        return (Sentence("{player} puts a group of armies ({groups}) on a face-up province "
                         "({cards}) or draws from the deck", player=_colour(role),
                         groups=groups, cards=cards), rule, role)
    if state.phase == "place" and role is not None and state.drawn is not None:
        groups = ", ".join(str(g) for g in sorted(set(state.groups[role])))
        return (Sentence("{player} puts a group of armies ({groups}) on {province}",
                         player=_colour(role), groups=groups,
                         province=_province_name(kit, state.side, state.drawn)), rule, role)
    if state.phase == "revolts" and role is not None:
        return (Sentence("{player}'s armies of the revolt fought first thrown into the tower",
                         player=_colour(role)), rule, role)
    if state.phase == "plan":
        return Sentence("the plans, made on the phones"), rule, None
    if CHANCE in verbs:
        return _chance_step(state, verbs[CHANCE][0]), rule, None
    return Sentence("the table as the record has it"), rule, role


def _chance_step(state: ShogunState, verb: str) -> str:
    """The chance step due, in words: which cards are turned (or the tower's tray)."""
    if verb == "drawn":
        return Sentence("the province card {player} draws from the deck",
                        player=_colour(state.players[state.claimer]))
    if verb == "revolts":
        return Sentence("{player}'s province cards drawn for the revolts",
                        player=_colour(state.winter_queue[0]))
    steps = {"deal": Sentence("2 province cards turned face up from the deck"),
             "reveal": Sentence("a province card turned face up from the deck"),
             "events": Sentence("4 event cards turned face up"),
             "lay_out": Sentence("5 action cards turned face up"),
             "event": Sentence("this round's event drawn from those face up"),
             "turn_card": Sentence("the next face-down action card turned"),
             "daimyo": Sentence("the tied bidders' daimyo cards turned")}
    return steps.get(verb, Sentence("the table as the record has it"))


def _mover(moved: Mapping[str, Mapping[str, int]], default: str | None) -> str | None:
    """The side whose cubes moved (one colour), else `default`."""
    colours = {kind for kinds in moved.values() for kind in kinds if kind != FARMERS}
    return colours.pop() if len(colours) == 1 else default


ASKED_RULES = {"attack": "3.2", "deploy": "3.2", "defend": "3.2", "stay": "4.3",
                "move": "4.3", "draw": "2.2", "take": "3.5", "revolt": "5", "daimyo": "7"}
"""The rule that leaves each asked choice to the player (the cause of its question)."""


def _choice_rule(action: Action, options: Sequence[Action] = ()) -> str:
    """3.2 for the special cards' «può»; 4.4 for an attack that could be on several
    provinces (the cubes alone do not tell which)."""
    if action.verb == "attack" and len({(o.args["to"], o.args["armies"]) for o in options}) > 1:
        return "4.4"
    return ASKED_RULES.get(action.verb, "3")


def _question(action: Action, options: Sequence[Action] = ()) -> str:
    """The tablet's question for choices of `action`'s kind, with its rule (the special
    cards' choices: 3.2)."""
    verb = action.verb
    if verb == "attack" and len({(o.args["to"], o.args["armies"]) for o in options}) == 1:
        return Sentence("{player} holds the +1 army attacking card: does {player} add an army "
                        "from the supply to the battle (3.2)?", player=_colour(action.role))
    if verb == "deploy":
        return Sentence("{player} holds the 6 armies card: how many armies does {player} "
                        "deploy (3.2)?", player=_colour(action.role))
    if verb == "defend":
        return Sentence("{player} holds the +1 army defending card: does {player} add an army "
                        "from the supply to the defence (3.2)?", player=_colour(action.role))
    if verb == "attack":
        return Sentence("Which province did {player} attack, or move to (4.4)?",
                        player=_colour(action.role))
    if verb == "move":
        return Sentence("Where did {player} move (4.3)?", player=_colour(action.role))
    if verb == "stay":
        return Sentence("{player} may move armies to an adjacent province of theirs (move the "
                        "cubes) or stay (4.3): stay?", player=_colour(action.role))
    if verb == "draw":
        return Sentence("{player} claims a face-up province (put a group of armies on it) or "
                        "draws from the deck (2.2): draw?", player=_colour(action.role))
    if verb == "take":
        return Sentence("Which special card does {player} take (3.5)?",
                        player=_colour(action.role))
    if verb == "revolt":
        return Sentence("Which revolt does {player} face first (5.2)?",
                        player=_colour(action.role))
    if verb == "daimyo":
        return Sentence("The tied bidders' daimyo cards: in which order were they turned "
                        "(3.5)?")
    return Sentence("Which was it (2.2)?")


def _doubt_question(kit: ShogunKit, state: ShogunState, doubts: frozenset[str]) -> str:
    """The question when the camera could not count a zone: it names it, and the way out
    that needs no tablet."""
    return Sentence("The camera cannot count {zones}: which was it? (Or set the cubes there "
                    "apart, so the camera can count them.)",
                    zones=_joined([_zone_name(kit, state.side, z) for z in sorted(doubts)]))

