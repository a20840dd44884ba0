"""Rumble Nation at the table: what a stable change of the counts, a card scan or a button press
means.

The camera counts soldiers per region and colour and reads the dice in the tray (`reader.py`,
`vision.count_tracker`); the card reader reads the tactic and daimyo cards' labels
(`CARD:<card id>`). Soldiers carry no identity, so the referee does not guess a move from the
pieces: it asks the rules. Every legal action of the player whose turn it is (a deployment with
the dice rolled, else a tactic or daimyo card, only the scanned card's if one was scanned) is
played forward on a copy of the state, and those whose effect on the board is exactly what the
table now shows beyond the record are the candidates. One candidate, or several that leave the
same game behind: a Proposal. Several that leave different games (a daimyo deployed or a soldier
in its place, where the camera does not tell them apart; two cards moving one soldier alike with
no card scanned): a Question on the tablet. None: an Alert naming the rule (5.1.1 for soldiers
put where the dice do not send them), and desync until the table stands as the record has it.
A region the camera cannot count (soldiers leaning on each other, a heap) is left out of the
fit: the actions that match everywhere else and change that region are asked as a Question
that names it ("The camera cannot count Kyo: which was it?"), never guessed.

The dice lie in the tray between rolls. Taking them out is asking to roll (`roll`, or `reroll`
once the dice are rolled, 5.1.1); the faces they land on are chance's `dice`, smallest first
(three dice of one colour have no order). Dice thrown again without the tray seen empty are the
roll and its faces at once. The `next_phase` button asks to roll as taking the dice out does;
`confirm` takes the dice lying in the tray as the roll (faces equal to the last throw's, which
the camera cannot tell from no throw). The war (5.2) and the scoring (6) follow the last
deployment in the rules: nothing is read there but the soldiers staying as the record has them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
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
from companion.games.rumble_nation.kit import RumbleNationKit
from companion.games.rumble_nation.reader import REINFORCEMENT, kind_of_daimyo
from companion.games.rumble_nation.rules import RumbleNationRules
from companion.games.rumble_nation.rules.context import deployable
from companion.games.rumble_nation.rules.moves import no_more_cards
from companion.games.rumble_nation.rules.names import player_said
from companion.games.rumble_nation.rules.state import RNState
from companion.games.rumble_nation.rules.words import (
    both,
    card_name,
    either,
    joined,
    region_name,
)
from companion.games.rumble_nation.rules.words import (
    player as player_of,
)
from companion.table.registry import TableRegistry
from companion.vision.count_tracker import (
    CountDiff,
    Counts,
    CountSnapshot,
    CountTracker,
    count_changes,
    normalised,
)

__all__ = ["RumbleReferee", "board_of"]

MAX_OPTIONS = 12
"""Options a question offers at most (the tablet's list)."""
DICE = 3


def board_of(state: RNState, daimyo_seen: bool) -> dict[str, dict[str, int]]:
    """Region -> kind -> pieces the record has on the map: each colour's soldiers, and its
    daimyo as its own kind when the camera tells it apart (else as one more soldier)."""
    pieces = {region: dict(players) for region, players in state.soldiers.items()}
    for player, region in state.daimyo_at.items():
        kind = kind_of_daimyo(player) if daimyo_seen else player
        here = pieces.setdefault(region, {})
        here[kind] = here.get(kind, 0) + 1
    return normalised(pieces)


def pieces_of(counts: Counts) -> dict[str, dict[str, int]]:
    """The soldiers and daimyo the camera counted: reinforcements left out (they come in the
    war, which the rules play, and leave as castles fall: 5.2.3)."""
    return normalised({region: {k: n for k, n in kinds.items() if k != REINFORCEMENT}
                       for region, kinds in counts.items()})


@dataclass
class RumbleReferee:
    rules: RumbleNationRules
    registry: TableRegistry
    tracker: CountTracker | None = None
    """The table's tracker: the dice lying in the tray when `confirm` is pressed."""
    daimyo_seen: bool = False
    """Whether the camera tells a daimyo from a soldier of its colour."""
    desync: Alert | None = None
    scanned: str | None = None
    """A tactic or daimyo card scanned and not yet used by a move."""

    # --- what the table shows -------------------------------------------------------------

    def on_diff(self, state: RNState, diff: CountDiff) -> list[Ruling]:
        """The actions a stable change means: soldiers first, then the dice (the dice first
        while a roll waits for its faces), each judged on the state the one before left."""
        if diff.before is None:
            return []  # the first look at the table: the session compares it with the record
        steps = ("dice", "pieces") if state.rolling else ("pieces", "dice")
        behind = self._behind(state, diff)
        rulings: list[Ruling] = []
        for step in steps:
            if step == "dice" and behind:
                continue  # soldiers wait for an answer: dice thrown meanwhile are read when
                # they land again as the roll and its faces at once
            found = (self._pieces(state, diff) if step == "pieces"
                     else self._dice(state, diff.after.dice) if diff.dice_changed else [])
            rulings += found
            if any(not isinstance(r, Proposal) for r in found):
                break
            for ruling in found:
                assert isinstance(ruling, Proposal)
                state = self._advance(state, ruling.action)
        alert = next((r for r in rulings if isinstance(r, Alert)), None)
        if alert is not None:
            self.desync = alert
        return rulings

    def _behind(self, state: RNState, diff: CountDiff) -> bool:
        """The table showed soldiers the record does not have before this change (a question
        about them waits on the tablet)."""
        before = pieces_of(diff.before.counts) if diff.before is not None else {}
        return before != board_of(state, self.daimyo_seen)

    def _pieces(self, state: RNState, diff: CountDiff) -> list[Ruling]:
        """Soldiers changed: what the table shows beyond the record, explained by one action.
        Regions the camera could not count (`diff.doubtful`) are left out of the fit and
        asked about."""
        doubts = diff.doubtful
        if not count_changes(pieces_of(diff.before.counts if diff.before else {}),
                             pieces_of(diff.after.counts)) and not diff.new_doubts:
            return []
        moved = _outside(count_changes(board_of(state, self.daimyo_seen),
                                       pieces_of(diff.after.counts)), doubts)
        if not moved and not (doubts and state.phase == "deployment"
                              and state.outcome is None):
            return []  # put back as the record has them
        kit = self.rules.kit
        if state.outcome is not None:
            fix = _put_back(kit, moved)
            return [Alert("5.2", Sentence(
                "soldiers moved after the war ({changes}): the war is fought with the soldiers "
                "as they were deployed", changes=_changes(kit, moved)),
                role=_mover(moved), fix=fix, public_fix=fix)]
        if state.phase != "deployment":
            rule = "8" if state.phase == "daimyo" else "3"
            first = Sentence("the daimyo cards are chosen") if rule == "8" \
                else Sentence("the castles and cards are laid out")
            fix = Sentence("{back}; {step} first", back=_put_back(kit, moved), step=first)
            return [Alert(rule, Sentence(
                "soldiers moved before the deployment began ({changes}): {step} first",
                changes=_changes(kit, moved), step=first),
                role=_mover(moved), fix=fix, public_fix=fix)]
        role = state.players[state.turn]
        return self._explain(state, role, moved, doubts)

    def _explain(self, state: RNState, role: str, moved: Mapping[str, Mapping[str, int]],
                 doubts: frozenset[str] = frozenset()) -> list[Ruling]:
        """The actions whose effect is what the table shows. Where the camera could not count
        a region, an action that changes it fits if it matches everywhere else; the player
        is then asked, the region named, even when only one fits (the camera saw nothing
        to confirm it)."""
        fits: list[tuple[Action, RNState]] = []
        unsure = False
        for action in self._candidates(state, role):
            after = self._advance(state, action)
            effect = count_changes(board_of(state, self.daimyo_seen),
                                   board_of(after, self.daimyo_seen))
            touches = bool(doubts & set(effect))
            if (effect == moved or (touches and _outside(effect, doubts) == moved)) \
                    and all(after != other for _, other in fits):
                fits.append((action, after))  # one action per game it leaves behind
                unsure |= touches
        options = tuple(action for action, _ in fits[:MAX_OPTIONS])
        if unsure:
            return [Question(_doubt_question(self.rules.kit, doubts), options,
                             Cause.doubt(both([region_name(self.rules.kit, r)
                                               for r in sorted(doubts)]),
                                         "soldiers too close to count"))]
        if len(fits) == 1:
            self.scanned = None
            return [Proposal(fits[0][0])]
        if fits:
            return [Question(_question(options), options, Cause.choice(_choice_rule(options)))]
        if not moved:
            return []  # nothing seen elsewhere, and nothing legal lands where it is unsure
        return [self._refusal(state, role, moved)]

    def _candidates(self, state: RNState, role: str) -> list[Action]:
        """The actions that put soldiers on the map now: deployments once the dice are rolled,
        else the cards (only the scanned card's plays if one was scanned)."""
        if state.rolling:
            return []
        verbs = ("deploy",) if state.dice else ("tactic", "daimyo")
        found = [a for a in self.rules.legal_actions(state, role) if a.verb in verbs]
        if self.scanned is not None:
            found = [a for a in found if self._card(state, a) == self.scanned]
        return found

    @staticmethod
    def _card(state: RNState, action: Action) -> str | None:
        if action.verb == "tactic":
            return str(action.args.get("card"))
        return state.daimyo_cards.get(action.role) if action.verb == "daimyo" else None

    def _refusal(self, state: RNState, role: str, moved: Mapping[str, Mapping[str, int]]
                 ) -> Alert:
        """Why nothing legal leaves the table so, in the rulebook's terms, with what to do:
        the soldiers seen put back as the record has them, then the legal way. Soldiers on
        the map are public (only the daimyo cards are hidden, 8), so everyone may read the
        fix; one naming a daimyo card not yet turned up has a public fix without it."""
        kit = self.rules.kit
        strangers = sorted({kind.split()[0] for kinds in moved.values() for kind in kinds}
                           - {role})
        back = _put_back(kit, moved)
        if state.rolling:
            fix = Sentence("{back}, then let {player}'s dice land in the tray", back=back,
                           player=player_of(role))
            return Alert("5.1.1", Sentence(
                "soldiers moved while {player}'s dice are being rolled ({changes}): the dice "
                "are read in the tray first", player=player_of(role), changes=_changes(kit, moved)),
                role=_mover(moved, role), fix=fix, public_fix=fix)
        if state.dice:
            return self._deploy_refusal(state, role, moved, strangers)
        if self.scanned is not None:
            tactic = self.scanned in kit.components.tactic_cards
            name = card_name(self.scanned)
            return Alert("5.1.2" if tactic else "8.3", Sentence(
                "{card}: no play of this card moves the soldiers as the table shows "
                "({changes}); a card is carried out in full or not at all", card=name,
                changes=_changes(kit, moved)), role=role,
                fix=Sentence("{back}, then carry out {card} in full", back=back, card=name),
                public_fix=Sentence("{back}, then carry out {card} in full", back=back,
                                    card=name if tactic else Sentence("the daimyo card")))
        if not strangers and all(n > 0 for kinds in moved.values() for n in kinds.values()) \
                and len(moved) == 1:
            fix = Sentence("{back}, then roll the dice first (take them from the tray)",
                           back=back)
            return Alert("5.1.1", Sentence(
                "soldiers put in {regions} before the dice were rolled: roll first (take the "
                "dice from the tray)", regions=_where(kit, moved)), role=role, fix=fix,
                public_fix=fix)
        fix = Sentence("{back}; to play a card, scan it before moving the soldiers", back=back)
        return Alert("5.1.2", Sentence(
            "soldiers moved ({changes}), but no card {player} may play moves them so: scan the "
            "card before moving", changes=_changes(kit, moved), player=player_of(role)),
            role=_mover(moved, role), fix=fix, public_fix=fix)

    def _deploy_refusal(self, state: RNState, role: str, moved: Mapping[str, Mapping[str, int]],
                        strangers: list[str]) -> Alert:
        kit = self.rules.kit
        dice = ", ".join(map(str, state.dice))
        back = _put_back(kit, moved)
        named = sorted({state.dice[i] + state.dice[j] for i in range(DICE)
                        for j in range(i + 1, DICE)})
        regions = [f"{region_name(kit, r)} ({v})" for v in named
                   for r, c in state.castles.items() if c == v]
        nowhere = Sentence("no region with a castle")
        go = Sentence("the dice {dice} send {player}'s soldiers to {regions}", dice=dice,
                      player=player_of(role), regions=either(regions) or nowhere)
        if strangers:
            fix = Sentence("{back}; it is {player}'s turn to deploy", back=back,
                           player=player_said(role))
            return Alert("5.1", Sentence(
                "{players} soldiers moved ({changes}): it is {player}'s turn to deploy (dice "
                "{dice})", players=joined([player_of(s) for s in strangers]),
                changes=_changes(kit, moved), player=player_said(role), dice=dice),
                role=_mover(moved, role), fix=fix, public_fix=fix)
        if any(n < 0 for kinds in moved.values() for n in kinds.values()):
            return Alert("5.1.1", Sentence(
                "soldiers taken off the map ({changes}): a deployment only adds soldiers",
                changes=_changes(kit, moved)), role=role, fix=back, public_fix=back)
        if len(moved) > 1:
            fix = Sentence("{back}; {go}, all into one region", back=back, go=go)
            return Alert("5.1.1", Sentence(
                "soldiers put in {regions}: one deployment goes into one region",
                regions=_where(kit, moved)), role=role, fix=fix, public_fix=fix)
        (where, kinds), = moved.items()
        value = state.castles.get(where)
        if value not in named:
            fix = Sentence("{back}; {go}", back=back, go=go)
            return Alert("5.1.1", Sentence(
                "soldiers put in {region} (castle {value}): the dice {dice} make {sums}, naming "
                "{regions}", region=region_name(kit, where), value=value, dice=dice,
                sums=", ".join(map(str, named)), regions=", ".join(regions) or nowhere),
                role=role, fix=fix, public_fix=fix)
        seen = sum(kinds.values())
        i, j = next((i, j) for i in range(DICE) for j in range(i + 1, DICE)
                    if state.dice[i] + state.dice[j] == value)
        die = state.dice[3 - i - j]
        units = deployable(state, role, die)
        fix = Sentence("{recount}: with {pair} and {die}, {region} takes {count}",
                       recount=_recount(kit, where, role, seen, units),
                       pair=f"{state.dice[i]}+{state.dice[j]}", die=die,
                       region=region_name(kit, where), count=units)
        return Alert("5.1.1", Sentence(
            "{count} soldier(s) put in {region}: with the dice {dice} the single die sets how "
            "many (1-2: 1, 3-4: 2, 5-6: 3; fewer only when the reserve runs out)", count=seen,
            region=region_name(kit, where), dice=dice), role=role, fix=fix, public_fix=fix)

    def _dice(self, state: RNState, faces: tuple[int, ...] | None) -> list[Ruling]:
        """The tray changed: emptied (a roll asked), or dice landed (chance's faces)."""
        if faces is None or state.phase != "deployment" or state.outcome is not None:
            return []
        role = state.players[state.turn]
        if not faces:
            return [] if state.rolling else [self._judge(state, self._roll(state, role))]
        if len(faces) != DICE:
            return []  # a die still out of the tray: wait for three
        landed = Action(CHANCE, "dice", {"values": list(faces)})
        if state.rolling:
            return [self._judge(state, landed)]
        if state.dice and tuple(sorted(state.dice)) == faces:
            return []
        asked = self._judge(state, self._roll(state, role))  # thrown straight back in
        if not isinstance(asked, Proposal):
            return [asked]
        return [asked, self._judge(self._advance(state, asked.action), landed)]

    @staticmethod
    def _roll(state: RNState, role: str) -> Action:
        return Action(role, "reroll" if state.dice else "roll")

    def _judge(self, state: RNState, action: Action) -> Ruling:
        """The action the table showed, or the rules' refusal of it; dice taken out of the
        tray when no roll is allowed are told to go back (everyone sees the tray: the fix is
        public)."""
        try:
            self.rules.decide(state, action)
        except IllegalAction as exc:
            fix = ""
            if action.verb in ("roll", "reroll") and state.dice:
                fix = Sentence("put the dice back in the tray showing {faces}, and deploy with "
                               "them", faces=", ".join(map(str, sorted(state.dice))))
            return Alert(exc.rule, exc.message, exc.legal,
                         None if action.role == CHANCE else action.role, fix=fix,
                         public_fix=fix)
        return Proposal(action)

    def _advance(self, state: RNState, action: Action) -> RNState:
        return fold(self.rules, state, self.rules.decide(state, action))

    # --- the record and the table -----------------------------------------------------------

    def table_matches(self, state: RNState, seen: CountSnapshot | None) -> bool:
        """Whether the soldiers (and daimyo) stand as the record has them, and the dice rolled
        this turn lie in the tray (the way out of desync). A region the camera cannot count
        is not taken as matching: the way out needs every region seen."""
        pieces = pieces_of(seen.counts) if seen is not None else {}
        ok = pieces == board_of(state, self.daimyo_seen) and not (seen and seen.doubtful)
        if ok and state.dice and not state.rolling and seen is not None \
                and seen.dice is not None:
            ok = seen.dice == tuple(sorted(state.dice))
        if ok:
            self.desync = None
        return ok

    def expected(self, state: RNState) -> CountSnapshot:
        """The record's table: the tray as the record has it only while this turn's dice lie
        there (else as last seen)."""
        dice = tuple(sorted(state.dice)) if state.dice and not state.rolling else None
        return CountSnapshot(board_of(state, self.daimyo_seen), dice)

    def forget_inputs(self) -> None:
        self.scanned = None

    # --- cards and buttons ------------------------------------------------------------------

    def on_card(self, state: RNState, code: str) -> list[Ruling]:
        """A daimyo card scanned while they are chosen is that choice (8); a tactic card, or a
        player's own daimyo card turned face up, waits for the soldiers it moves."""
        card = self.registry.card(code)
        components = self.rules.kit.components
        if card is None or card not in (*components.tactic_cards, *components.daimyo_cards):
            fix = Sentence("scan the label of a Rumble Nation tactic or daimyo card")
            return [Alert("3", Sentence("unknown card code {code}: not a Rumble Nation card "
                                        "label", code=repr(code)), fix=fix, public_fix=fix)]
        if state.phase == "daimyo" and card in components.daimyo_cards:
            role = state.players[state.turn]
            return [self._judge(state, Action(role, "choose_daimyo", {"card": card}))]
        if state.phase != "deployment" or state.outcome is not None:
            owner = self.card_owner(state, code)
            fix = Sentence("put the card back: cards are played during the deployment")
            return [Alert("5.1.2", Sentence("{card} scanned outside the deployment phase",
                                            card=card_name(card)),
                          role=owner, fix=fix, public_fix=fix)]
        role = state.players[state.turn]
        verb = "tactic" if card in components.tactic_cards else "daimyo"
        plays = [a for a in self.rules.legal_actions(state, role)
                 if a.verb == verb and self._card(state, a) == card]
        if not plays:
            return [self._unplayable(state, role, verb, card)]
        self.scanned = card
        return []

    def card_owner(self, state: RNState, code: str) -> str | None:
        """The tactic cards on the display are the current player's to play (5.1.2), as are
        the daimyo cards while they are chosen (8); a daimyo card chosen is its holder's."""
        card = self.registry.card(code)
        components = self.rules.kit.components
        if card is None or state.outcome is not None or not state.players:
            return None
        holder = next((p for p, c in state.daimyo_cards.items() if c == card), None)
        if holder is not None:
            return holder
        if card in components.tactic_cards or card in components.daimyo_cards:
            return state.players[state.turn]
        return None

    @staticmethod
    def _unplayable(state: RNState, role: str, verb: str, card: str) -> Alert:
        """Why the rules list no play of a scanned card now (5.1.2, 8.3), in their terms. A
        daimyo card is named only to its holder (the alert is his) and the referee: others
        read a fix that does not name it (8: chosen face down)."""
        rule = "5.1.2" if verb == "tactic" else "8.3"
        used = state.tactic_used if verb == "tactic" else state.daimyo_used
        name = card_name(card)
        shown = name if verb == "tactic" else Sentence("the card")
        owner: str | None = role
        if verb == "daimyo" and state.daimyo_cards.get(role) != card:
            owner = next((p for p, c in state.daimyo_cards.items() if c == card), None)
            why = Sentence("{card} is not {player}'s daimyo card", card=name,
                           player=player_of(role))
            fix = Sentence("put {card} back face down: {player} is playing", card=name,
                           player=player_of(role))
            public = Sentence("put the scanned card back: {player} is playing",
                              player=player_of(role))
        elif verb == "tactic" and card not in state.tactics:
            display = ", ".join(card_name(c) for c in state.tactics)
            why = Sentence("{card} is not on the display ({cards})", card=name,
                           cards=display or Sentence("empty"))
            fix = public = Sentence(
                "put {card} back: only a card on the display may be played ({cards})",
                card=name, cards=display or Sentence("none is left"))
        elif state.dice or state.rolling:
            why = Sentence("{player} has rolled the dice: this turn deploys soldiers",
                           player=player_of(role))
            fix, public = (Sentence("put {card} back and deploy with the dice", card=c)
                           for c in (name, shown))
        elif role in used:
            why = Sentence("{player} has used a tactic card", player=player_of(role)) \
                if verb == "tactic" else \
                Sentence("{player} has used the daimyo card", player=player_of(role))
            fix, public = (Sentence("put {card} back and roll the dice", card=c)
                           for c in (name, shown))
        elif state.katana:
            why = no_more_cards(state.katana)
            fix, public = (Sentence("put {card} back and roll the dice", card=c)
                           for c in (name, shown))
        else:
            why = Sentence("{card} cannot be carried out in full now, so it cannot be chosen",
                           card=name)
            fix, public = (Sentence("put {card} back and choose another play", card=c)
                           for c in (name, shown))
        return Alert(rule, why, role=owner, fix=fix, public_fix=public)

    def on_button(self, state: RNState, name: str) -> list[Ruling]:
        """`next_phase`: the player asks to roll (or reroll); `confirm` while a roll waits:
        the dice lying in the tray are its faces."""
        if state.phase != "deployment" or state.outcome is not None:
            return []
        role = state.players[state.turn]
        if name == "next_phase" and not state.rolling:
            return [self._judge(state, self._roll(state, role))]
        if name == "confirm" and state.rolling:
            stable = self.tracker.stable if self.tracker is not None else None
            faces = stable.dice if stable is not None else None
            if faces is None or len(faces) != DICE:
                fix = Sentence("lay the three dice in the tray, each face up, then press "
                               "confirm")
                return [Alert("5.1.1", Sentence("confirm: three dice must lie in the tray, "
                                                "each read"),
                              role=role, fix=fix, public_fix=fix)]
            return [self._judge(state, Action(CHANCE, "dice", {"values": list(faces)}))]
        return []

    def decisions(self, state: RNState) -> list[Ruling]:
        """Nothing the table cannot show: every choice is soldiers, dice or a card."""
        return []


def _question(options: tuple[Action, ...]) -> str:
    verbs = {a.verb for a in options}
    if verbs == {"deploy"}:
        return Sentence("Did the daimyo go in place of a soldier (8)?")
    cards = {str(a.args.get("card", a.verb)) for a in options}
    if len(cards) > 1:
        return Sentence("Which card was played (5.1.2)?")
    return Sentence("Which move was it?")


def _choice_rule(options: tuple[Action, ...]) -> str:
    """The rule that leaves to the player what the table cannot tell apart: the daimyo in
    place of a soldier (8), which card (5.1.2), else the deployment (5)."""
    if {a.verb for a in options} == {"deploy"}:
        return "8"
    return "5.1.2" if len({str(a.args.get("card", a.verb)) for a in options}) > 1 else "5"


def _doubt_question(kit: RumbleNationKit, doubts: frozenset[str]) -> str:
    """The question when the camera could not count a region: it names it, and the way out
    that needs no tablet (set the soldiers apart, so the camera counts them)."""
    return Sentence("The camera cannot count {regions}: which was it? (Or set the soldiers "
                    "there apart, so the camera can count them.)",
                    regions=both([region_name(kit, r) for r in sorted(doubts)]))


def _outside(changes: Mapping[str, Mapping[str, int]], doubts: frozenset[str]
             ) -> dict[str, dict[str, int]]:
    """The changes in the regions the camera counted with confidence."""
    return {region: dict(kinds) for region, kinds in changes.items() if region not in doubts}


def _kind(kind: str) -> Sentence:
    """A kind the camera counts, said: "red" (a player's soldiers), "red daimyo"."""
    colour, _, daimyo = kind.partition(" ")
    if daimyo:
        return Sentence("{player} daimyo", player=player_of(colour))
    return player_of(colour)


def _changes(kit: RumbleNationKit, moved: Mapping[str, Mapping[str, int]]) -> str:
    """What the camera saw beyond the record, region by printed name: "Kyo: +2 red"."""
    return joined([Sentence("{region}: {changes}", region=region_name(kit, region),
                            changes=joined([Sentence("{change} {pieces}", change=f"{n:+d}",
                                                     pieces=_kind(kind))
                                            for kind, n in sorted(kinds.items())]))
                   for region, kinds in sorted(moved.items())], "; ")


def _where(kit: RumbleNationKit, moved: Mapping[str, Any]) -> str:
    return ", ".join(region_name(kit, r) for r in sorted(moved))


def _pieces(kind: str, n: int) -> Sentence:
    """A kind the camera counts, said: "the 2 red soldiers", "the red daimyo"."""
    colour, _, daimyo = kind.partition(" ")
    if daimyo:
        return Sentence("the {player} daimyo", player=player_of(colour))
    if n == 1:
        return Sentence("the 1 {player} soldier", player=player_of(colour))
    return Sentence("the {count} {player} soldiers", count=n, player=player_of(colour))


def _put_back(kit: RumbleNationKit, moved: Mapping[str, Mapping[str, int]]) -> str:
    """How to make the table as the record has it again: "take the 2 red soldiers back out
    of Kyo; put the 1 blue soldier back in Okō"."""
    steps: list[str] = []
    for region, kinds in sorted(moved.items()):
        name = region_name(kit, region)
        for kind, n in sorted(kinds.items()):
            steps.append(Sentence("take {pieces} back out of {region}", pieces=_pieces(kind, n),
                                  region=name) if n > 0 else
                         Sentence("put {pieces} back in {region}", pieces=_pieces(kind, -n),
                                  region=name))
    return joined(steps, "; ") or Sentence("put the soldiers back as the record has them")


def _recount(kit: RumbleNationKit, where: str, colour: str, seen: int, units: int) -> str:
    """A deployment of the wrong size set right: the difference taken out or added."""
    name = region_name(kit, where)
    if seen > units:
        n = seen - units
        if n == 1:
            return Sentence("take 1 {player} soldier back out of {region}",
                            player=player_of(colour), region=name)
        return Sentence("take {count} {player} soldiers back out of {region}", count=n,
                        player=player_of(colour), region=name)
    n = units - seen
    if n == 1:
        return Sentence("put 1 more {player} soldier in {region}", player=player_of(colour),
                        region=name)
    return Sentence("put {count} more {player} soldiers in {region}", count=n,
                    player=player_of(colour), region=name)


def _mover(moved: Mapping[str, Mapping[str, int]], default: str | None = None) -> str | None:
    """The side whose soldiers moved (one colour), else `default` (the player whose turn it
    is; None: the referee's alone)."""
    colours = {kind.split()[0] for kinds in moved.values() for kind in kinds}
    return colours.pop() if len(colours) == 1 else default

