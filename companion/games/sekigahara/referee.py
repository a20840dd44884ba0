"""Sekigahara at the table: what a stable diff, a card scan or a button press means.

Each input gives a Proposal (one action the rules accept), a Question (several actions fit:
the tablet offers them as buttons), or an Alert (nothing legal fits: the rule and the message).
After an alert the referee is in desync until the blocks stand where the record says again.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, product
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
)
from companion.games.sekigahara.kit import SekigaharaKit
from companion.games.sekigahara.rules import SekigaharaRules, SekigaharaState
from companion.games.sekigahara.rules.aftermath import loss_order
from companion.games.sekigahara.rules.battle import initiative
from companion.games.sekigahara.rules.combat import battles_due
from companion.games.sekigahara.rules.mori import MORI_SIDE
from companion.games.sekigahara.rules.state import BAG, ELIMINATED
from companion.games.sekigahara.rules.words import (
    at_place,
    block_names,
    clauses,
    listed,
    place_name,
    side_name,
)
from companion.table.registry import TableRegistry
from companion.vision.table import TableDiff, TableSnapshot

__all__ = ["SekigaharaReferee"]

MAX_PATHS = 12
DEPLOYMENT = "deployment"
"""The table area beside the board where deployed blocks are laid (calibration board.yaml)."""


@dataclass(frozen=True)
class Seen:
    """What the camera saw that a ruling is about: whose blocks went from where to where.

    An alert names them (to their side and the referee: they are that side's own blocks) and
    says how to put the table back; everyone else reads the same fix without the names (3.1).
    """

    side: str
    moves: Mapping[str, tuple[str, str]]
    """Block -> (from, to), zones as the tracker names them."""


@dataclass
class SekigaharaReferee:
    rules: SekigaharaRules
    registry: TableRegistry
    scanned: list[str] = field(default_factory=list)
    """Cards scanned and not yet used by an action (movement level, forced march, Mori)."""
    desync: Alert | None = None
    command: bool = False
    """The `leader` button was pressed: the next group move declares its leader (7.3.4)."""

    # --- what the table shows -------------------------------------------------------------

    def on_diff(self, state: SekigaharaState, diff: TableDiff) -> list[Ruling]:
        """The actions a stable diff means, in the order the table did them."""
        drawn = self._draws(state, diff)
        if drawn:
            return drawn
        moves = self._moves(diff)
        if not moves:
            return []
        if self.desync is not None:
            return self._check_back(state)
        # Blocks put back where the record has them (after a battle) mean nothing new.
        moves = {b: m for b, m in moves.items() if state.positions.get(b) != m[1]}
        if state.phase == "combat":
            return self._combat_diff(state, moves)
        rulings: list[Ruling] = []
        recruits = {b: to for b, (frm, to) in moves.items()
                    if frm == self.rules.ctx.recruitment_box.get(self._side(b))}
        for to in sorted(set(recruits.values())):
            blocks = sorted(b for b, dest in recruits.items() if dest == to)
            rulings.append(self._judge([Action(self._side(blocks[0]), "recruit",
                                               {"blocks": blocks, "to": to})], state,
                                       self._seen(blocks, moves)))
        mori = sorted(b for b, (frm, _) in moves.items() if frm == self.rules.ctx.mori_box)
        if mori:
            rulings.append(self._mori(state, mori, self._seen(mori, moves)))
        # Enemy blocks taken off to the eliminated area were overrun (7.4) by the move that
        # passed: the engine decides that from the move itself.
        overrun = {b for b, (_, to) in moves.items() if to == ELIMINATED}
        marches = {b: m for b, m in moves.items()
                   if b not in recruits and b not in mori and b not in overrun}
        off_map = sorted({frm for frm, _ in marches.values()
                          if frm not in self.rules.ctx.kit.neighbours})
        if off_map:
            strays = sorted(b for b, (frm, _) in marches.items() if frm in off_map)
            for side in sorted({self._side(b) for b in strays}):
                rulings.append(self._alert(
                    "7.3", "only recruitment (7.2) and Mōri (9.3) bring blocks onto the map "
                    "during movement", (), self._seen([b for b in strays
                                                       if self._side(b) == side], moves)))
            marches = {b: m for b, m in marches.items() if m[0] not in off_map}
        by_origin: dict[str, dict[str, str]] = {}
        for block, (frm, to) in marches.items():
            by_origin.setdefault(frm, {})[block] = to
        for origin, destinations in sorted(by_origin.items()):
            rulings.append(self._march(state, origin, destinations))
            self.command = False
        if any(isinstance(r, Alert) for r in rulings):
            self.desync = next(r for r in rulings if isinstance(r, Alert))
        return rulings

    def _waiting(self, side: str) -> list[str]:
        """`side`'s cards scanned and not yet used, in scan order."""
        return [c for c in self.scanned if self.rules.ctx.card_side[c] == side]

    def _use(self, cards: list[str]) -> None:
        """Cards an action has taken: no longer waiting."""
        for card in cards:
            self.scanned.remove(card)

    def _mori(self, state: SekigaharaState, blocks: list[str], seen: Seen) -> Ruling:
        """Mori blocks out of their box: one Ishida card scanned for each (9.3)."""
        cards = self._waiting(MORI_SIDE)[-len(blocks):]
        self._use(cards)
        return self._judge([Action(MORI_SIDE, "mori", {"cards": cards})], state, seen)

    def _combat_diff(self, state: SekigaharaState,
                     moves: Mapping[str, tuple[str, str]]) -> list[Ruling]:
        """Blocks to the deployment area are deployed (with the card scanned before them),
        blocks to the eliminated area are losses, blocks leaving the battle retreat (8)."""
        rulings: list[Ruling] = []
        deployed = sorted(b for b, (_, to) in moves.items() if to == DEPLOYMENT)
        if deployed:
            side = self._side(deployed[0])
            card = self._waiting(side)[-1:]  # the card scanned just before its block
            self._use(card)
            args: dict[str, Any] = {"card": card[0]} if card else {}
            seen = self._seen(deployed, moves)
            if len(deployed) == 2:  # a double card (8.4.2): either order sums the same impact,
                first, second = (Action(side, "deploy", {**args, "block": a, "also": b})
                                 for a, b in (deployed, deployed[::-1]))
                ruling = self._judge([first], state, seen)  # the other only if refused
                if isinstance(ruling, Alert):
                    ruling = self._judge([second], state, seen)
            else:
                ruling = self._judge([Action(side, "deploy", {**args, "block": deployed[0]})],
                                     state, seen)
            rulings.append(ruling)
        lost = sorted(b for b, (_, to) in moves.items() if to == ELIMINATED)
        for side in sorted({self._side(b) for b in lost}):
            order = ([u for tier in loss_order(self.rules.ctx, state, side) for u in tier]
                     if state.battle is not None else [])
            blocks = sorted((b for b in lost if self._side(b) == side),  # 8.7.2's order
                            key=lambda b: order.index(b) if b in order else len(order))
            rulings.append(self._judge([Action(side, "casualties", {"blocks": blocks})], state,
                                       self._seen(blocks, moves)))
        battle = state.battle
        at = battle.at if battle is not None else None
        leaving = sorted(b for b, (frm, to) in moves.items()
                         if frm == at and to in self.rules.kit.location)
        if leaving:
            places = {moves[b][1] for b in leaving}
            side = self._side(leaving[0])
            staying = sorted(b for b in state.blocks_at(at or "", side, self.rules.ctx.owner)
                             if b not in leaving and state.positions.get(b) != ELIMINATED
                             and moves.get(b, ("", ""))[1] != ELIMINATED)
            rulings += [self._judge([Action(side, "retreat", {"to": to, "castle": staying})],
                                    state, self._seen([b for b in leaving if moves[b][1] == to],
                                                      moves))
                        for to in sorted(places)]
        if any(isinstance(r, Alert) for r in rulings):
            self.desync = next(r for r in rulings if isinstance(r, Alert))
        return rulings

    def _draws(self, state: SekigaharaState, diff: TableDiff) -> list[Ruling]:
        """Blocks coming out of a bag (they appear: the bag is not watched) fill the draws due
        there: the set-up's markers (5.2.2, 5.2.3) and the recruitment boxes (6.2)."""
        rulings: list[Ruling] = []
        appeared: dict[str, list[str]] = {}
        for tag, zone in diff.appeared.items():
            block = self.registry.block(tag)
            if block is not None and state.positions.get(block) == BAG:
                appeared.setdefault(zone, []).append(block)
        for zone, blocks in sorted(appeared.items()):
            side = self._side(blocks[0])
            action = Action(CHANCE, "draw_blocks", {"side": side, "to": zone,
                                                    "blocks": sorted(blocks)})
            seen = Seen(side, {b: (BAG, zone) for b in sorted(blocks)})
            rulings.append(self._judge([action], state, seen))
        return rulings

    def _moves(self, diff: TableDiff) -> dict[str, tuple[str, str]]:
        found = {}
        for tag, (frm, to) in diff.moved.items():
            block = self.registry.block(tag)
            if block is not None:
                found[block] = (frm, to)
        return found

    def _side(self, block: str) -> str:
        return self.rules.ctx.owner[block]

    def _march(self, state: SekigaharaState, origin: str,
               destinations: Mapping[str, str]) -> Ruling:
        """The group move from `origin`, with the cards scanned before it as forced marches
        (7.3.3): two cards and a stack splitting are a forced march for each of two of its
        groups, else one card is one forced march; a refused move keeps its cards for the
        next try. Without cards, the move alone."""
        side = self._side(next(iter(destinations)))
        seen = Seen(side, {b: (origin, to) for b, to in sorted(destinations.items())})
        waiting = self._waiting(side)
        tiers = [waiting[-2:], waiting[-1:]] if len(waiting) > 1 else [waiting]
        rulings: list[tuple[Ruling, list[str]]] = []
        for cards in tiers:
            candidates = list(self._group_moves(state, origin, destinations, cards))
            if candidates:
                rulings.append((self._judge(candidates, state, seen), cards))
        if not rulings:  # no way there over the roads left this phase
            kit = self.rules.kit
            cut = sorted({to for to in destinations.values()
                          if not self._paths(state, origin, to)}, key=lambda p: place_name(kit, p))
            where = listed([place_name(kit, p) for p in cut]) or Sentence("there")
            return self._alert("7.3.1", Sentence(
                "no road left this phase leads from {place} to {where} (each road is used once "
                "per movement phase)", place=place_name(kit, origin), where=where), (), seen)
        ruling, cards = next(((r, c) for r, c in rulings if not isinstance(r, Alert)),
                             rulings[0])
        if not isinstance(ruling, Alert):
            self._use(cards)
        return ruling

    def _group_moves(self, state: SekigaharaState, origin: str,
                     destinations: Mapping[str, str], cards: list[str]) -> Iterator[Action]:
        """Every way the blocks could have gone: a path per block, combined, with each way
        the scanned cards could be forced marches (`_marches`)."""
        side = self._side(next(iter(destinations)))
        options = [[(block, path) for path in self._paths(state, origin, to)]
                   for block, to in sorted(destinations.items())]
        leaders: list[str | None] = [None]
        if self.command:  # 7.3.4: a leader at the origin declared for command
            leaders = [b for b in state.blocks_at(origin, side, self.rules.ctx.owner)
                       if self.rules.kit.block[b].leader]
        for combination in list(product(*options))[:MAX_PATHS * 4]:
            for leader, marches in product(leaders, _marches(destinations, cards)):
                args: dict[str, Any] = {"from": origin,
                                        "paths": {b: list(p) for b, p in combination},
                                        **marches}
                if leader:
                    args["leader"] = leader
                yield Action(side, "move", args)

    def _paths(self, state: SekigaharaState, origin: str, to: str) -> list[tuple[str, ...]]:
        """Simple paths from `origin` to `to` over roads not used this phase, shortest first."""
        kit = self.rules.ctx.kit
        used = state.movement.roads
        found: list[tuple[str, ...]] = []
        frontier: list[tuple[str, ...]] = [()]
        for _ in range(5):  # no stack moves farther (7.3.3)
            grown = []
            for path in frontier:
                here = path[-1] if path else origin
                for nxt in kit.neighbours[here]:
                    if nxt == origin or nxt in path or frozenset((here, nxt)) in used:
                        continue
                    if nxt == to:
                        found.append((*path, nxt))
                    else:
                        grown.append((*path, nxt))
            frontier = grown
            if found:
                break  # the shortest paths only: a longer way round is never guessed
        return found

    def _judge(self, candidates: list[Action], state: SekigaharaState,
               seen: Seen | None = None) -> Ruling:
        """One accepted action, a question among several, or an alert; `seen` (the blocks the
        camera saw move) makes the alert name them and say how to put them back."""
        legal = [a for a in candidates if self.rules.accepts(state, a)]
        if len(legal) == 1:
            return Proposal(legal[0])
        if legal:
            return Question(_question(self.rules.kit, legal[0]), tuple(legal[:MAX_PATHS]),
                            Cause.choice(_choice_rule(legal[0])))
        if not candidates:
            if seen is not None:
                return self._alert("7.3.1", "no road leads there this phase", (), seen)
            return Alert("7.3.1", "no road leads there this phase")
        role = candidates[0].role if candidates[0].role != CHANCE else None
        try:
            self.rules.decide(state, candidates[0])
        except IllegalAction as exc:
            if seen is not None:
                return self._alert(exc.rule, exc.message, exc.legal, seen)
            return Alert(exc.rule, exc.message, exc.legal, role)
        if seen is not None:
            return self._alert("7.3", "the move fits no legal action", (), seen)
        return Alert("7.3", "the move fits no legal action", (), role)

    def _seen(self, blocks: list[str], moves: Mapping[str, tuple[str, str]]) -> Seen:
        return Seen(self._side(blocks[0]), {b: moves[b] for b in sorted(blocks)})

    def _alert(self, rule: str, message: str, legal: Sequence[str], seen: Seen) -> Alert:
        """A refusal of what the camera saw: what moved, why not, and how to put it back.

        The message and `fix` name the blocks (only their side and the referee read them,
        `Alert.for_role`); `public_fix` says the same with counts, for everyone else."""
        kit = self.rules.kit
        by_way: dict[tuple[str, str], list[str]] = {}
        by_origin: dict[str, list[str]] = {}
        for block, (frm, to) in seen.moves.items():
            by_way.setdefault((frm, to), []).append(block)
            by_origin.setdefault(frm, []).append(block)
        saw = clauses([
            Sentence("{blocks} drawn for {place}", blocks=block_names(kit, blocks),
                     place=place_name(kit, to, side=seen.side)) if frm == BAG else
            Sentence("{blocks} moved {start} → {end}", blocks=block_names(kit, blocks),
                     start=place_name(kit, frm, side=seen.side),
                     end=place_name(kit, to, side=seen.side))
            for (frm, to), blocks in sorted(by_way.items())])
        side = side_name(seen.side)
        fix: list[str] = []
        public: list[str] = []
        for frm, blocks in sorted(by_origin.items()):  # the first one capitalised: a sentence
            names, where = block_names(kit, blocks), at_place(kit, frm, side=seen.side)
            fix.append(Sentence("put {blocks} back {where}", blocks=names, where=where) if fix
                       else Sentence("Put {blocks} back {where}", blocks=names, where=where))
            if len(blocks) == 1:
                public.append(
                    Sentence("put the {side} block back {where}", side=side, where=where)
                    if public else
                    Sentence("Put the {side} block back {where}", side=side, where=where))
            else:
                public.append(
                    Sentence("put the {count} {side} blocks back {where}", count=len(blocks),
                             side=side, where=where) if public else
                    Sentence("Put the {count} {side} blocks back {where}", count=len(blocks),
                             side=side, where=where))
        said = message if isinstance(message, Sentence) else Sentence(message)  # a constant
        return Alert(rule, Sentence("{saw}: {message}", saw=saw, message=said), tuple(legal),
                     seen.side, fix=clauses(fix), public_fix=clauses(public))

    def _check_back(self, state: SekigaharaState) -> list[Ruling]:
        return [self.desync] if self.desync else []

    def expected(self, state: SekigaharaState) -> dict[int, str]:
        """Tag -> zone where the record has each block (the tracker settles on it)."""
        tags = self.registry.tags
        return {tags[b]: at for b, at in state.positions.items() if b in tags}

    def forget_inputs(self) -> None:
        self.scanned.clear()
        self.command = False

    def table_matches(self, state: SekigaharaState, seen: TableSnapshot | None) -> bool:
        """Whether the blocks stand where the record has them (the way out of desync): every
        block out of the bag seen where the record has it (a block deployed in the running
        battle may lie in the deployment area), and no other block where the record has none.
        A block taken off the table does not put it back in order."""
        zones = seen.zones if seen is not None else {}
        placed = {b: zone for tag, zone in zones.items()
                  if (b := self.registry.block(tag)) is not None}
        deployed = set(state.battle.deployed()) if state.battle is not None else set()
        for block, at in state.positions.items():
            where = placed.get(block)
            if at == BAG:
                continue  # drawn at the table, not yet recorded: the draw will say
            if where != at and not (where == DEPLOYMENT and block in deployed):
                return False
        self.desync = None
        return True

    # --- cards and buttons ------------------------------------------------------------------

    def on_card(self, state: SekigaharaState, code: str) -> list[Ruling]:
        card = self.registry.card(code)
        if card is None or card not in self.rules.ctx.card_side:
            return [Alert("3.3", Sentence("unknown card code {code!r}: register it first",
                                          code=code))]
        side = self.rules.ctx.card_side[card]
        if state.phase == "bid":
            return [self._judge([Action(side, "bid", {"card": card})], state)]
        if state.phase in ("movement", "reinforcements"):
            self.scanned.append(card)  # used by the level, a forced march, Mori or discards
            return []
        if state.phase == "combat" and state.battle is not None:
            return self._combat_card(state, side, card)
        return [Alert("3.3", Sentence("a card scanned in the {phase} phase is not used yet",
                                      phase=state.phase))]

    def card_owner(self, state: SekigaharaState, code: str) -> str | None:
        """Every card belongs to one side's deck (3.3): its side plays it, whatever the
        phase (the phase decides whether it is taken)."""
        card = self.registry.card(code)
        return self.rules.ctx.card_side.get(card) if card is not None else None

    def _combat_card(self, state: SekigaharaState, side: str, card: str) -> list[Ruling]:
        """A loyalty card challenges (8.6); a card shown to a challenge proves loyalty; any
        other card waits for its block to reach the deployment area."""
        battle = state.battle
        assert battle is not None
        if battle.challenge is not None and battle.challenge[0] != side:
            return [self._judge([Action(side, "prove", {"card": card})], state)]
        if self.rules.kit.card[card].kind == "loyalty":
            return [self._judge([Action(side, "challenge", {"card": card})], state)]
        self.scanned.append(card)
        return []

    def on_button(self, state: SekigaharaState, name: str) -> list[Ruling]:
        """`confirm` in a movement phase fixes the level from the cards scanned (7.1);
        `next_phase` ends the movement phase."""
        side = state.active
        if state.phase == "movement" and side and name == "confirm" \
                and state.movement.level is None:
            cards = list(self.scanned)
            self.scanned.clear()
            levels: dict[int, list[str]] = {0: ["minimal", "none"], 1: ["limited"],
                                            2: ["total"]}
            options = [Action(side, "movement_level", {"level": level, "cards": cards})
                       for level in levels.get(len(cards), [])]
            if not options:
                fix = Sentence("Scan 0, 1 or 2 cards for the movement level, then press confirm")
                return [Alert("7.1", Sentence("{count} cards scanned: movement costs 0, 1 or 2",
                                              count=len(cards)),
                              role=side, fix=fix, public_fix=fix)]
            return [self._judge(options, state)]
        if state.phase == "reinforcements" and name == "confirm":
            return self._discards(state)
        if state.phase == "movement" and name == "leader":
            self.command = True
            return []
        if state.phase == "movement" and side and name == "next_phase":
            return [self._judge([Action(side, "end_movement")], state)]
        if state.phase == "combat" and side and name == "next_phase" and state.battle is None:
            due = battles_due(self.rules.ctx, state)
            return [self._judge([Action(side, "declare", {"at": at}) for at in due], state)]
        if state.phase == "combat" and state.battle is not None and name == "confirm":
            holder = initiative(state.battle)  # the side to deploy says it is done (8.5)
            return [self._judge([Action(holder, "done")], state)] if holder else []
        return []


    def _discards(self, state: SekigaharaState) -> list[Ruling]:
        """Cards scanned in the reinforcement phase are the discards over the hand limit (6.2),
        side by side: `confirm` judges the sides that scanned theirs."""
        rulings: list[Ruling] = []
        for side in sorted(s for s, owed in state.owed_discards.items() if owed):
            cards = self._waiting(side)
            if not cards:
                continue  # this side has not scanned its discards yet
            self._use(cards)
            rulings.append(self._judge([Action(side, "discard", {"cards": cards})], state))
        return rulings

    def decisions(self, state: SekigaharaState) -> list[Ruling]:
        """Choices the table cannot show, asked on the tablet: who moves first (the bid's
        winner, 6.3), whether the castle's holder stays inside (8.9.2), and a challenged
        side's admission that it cannot prove loyalty (8.6.1: a proof is a card scanned), and
        a retreat where every survivor stays in the castle (nothing moves on the table)."""
        battle = state.battle
        challenged = battle is not None and battle.challenge is not None
        staying = battle is not None and battle.stage == "retreat"
        choosing = state.phase == "first_player" or challenged or staying or (
            state.phase == "combat" and state.castle_choice is not None)
        if not choosing:
            return []
        options = tuple(a for role in self.rules.to_move(state)
                        for a in self.rules.legal_actions(state, role)
                        if (not challenged or a.verb == "defect")  # a proof is a card scanned
                        and (not staying or self._all_stay(state, a)))
        return [Question(_question(self.rules.kit, options[0]), options,
                         Cause.choice(_choice_rule(options[0])))] if options else []


    def _all_stay(self, state: SekigaharaState, retreat: Action) -> bool:
        """A retreat leaving nobody on the road: every survivor stays in the castle (8.8),
        which the table cannot show, so the tablet asks."""
        battle = state.battle
        assert battle is not None
        survivors = state.blocks_at(battle.at, retreat.role, self.rules.ctx.owner)
        return sorted(retreat.args.get("castle") or []) == survivors


def _marches(destinations: Mapping[str, str], cards: list[str]) -> list[dict[str, Any]]:
    """How the scanned `cards` may be forced marches (7.3.3) of blocks going to
    `destinations`: no card, no march; one card, for the whole group or for the blocks of one
    destination; two cards, one for each of two destinations' groups. Which card paid for
    which group cannot be seen and changes nothing (each is discarded, each group gets +1), so
    the cards are paired in scan order with the destinations in the order of their names."""
    places = sorted(set(destinations.values()))
    groups = [sorted(b for b, to in destinations.items() if to == place) for place in places]
    if not cards:
        return [{}]
    if len(cards) == 1:
        return [{"forced_march": cards[0]}] + [
            {"forced_march": cards[0], "marching": group} for group in groups if len(groups) > 1]
    return [{"forced_marches": dict(zip(cards, pair, strict=True))}
            for pair in combinations(groups, 2)]


def _question(kit: SekigaharaKit, example: Action) -> str:
    """What the tablet asks when several actions fit what the table showed."""
    if example.verb == "move":
        origin = place_name(kit, str(example.args.get("from")))
        return Sentence("From {place}: which way did they go?", place=origin)
    return {"movement_level": Sentence("No movement, or minimal movement?"),
            "declare": Sentence("Where is combat declared first?"),
            "choose_first": Sentence("Who moves first this week (6.3)?"),
            "castle": Sentence("Does the castle's holder stay inside (8.9.2)?"),
            "retreat": Sentence("Do all the survivors stay in the castle?"),
            "defect": Sentence("No loyalty card to show: do the blocks defect (8.6.1)?"),
            }.get(example.verb, Sentence("Which one?"))


ASKED_RULES = {"move": "7.3", "movement_level": "7.1", "declare": "8.1", "choose_first": "6.3",
                "castle": "8.9.2", "retreat": "8.8", "defect": "8.6.1"}
"""The rule that leaves each asked choice to the player (the cause of its question)."""


def _choice_rule(example: Action) -> str:
    return ASKED_RULES.get(example.verb, "7")


def describe(ruling: Ruling) -> dict[str, Any]:
    """For the tablet and logs of the acting side (may name that side's blocks)."""
    if isinstance(ruling, Proposal):
        return {"action": ruling.action.text()}
    if isinstance(ruling, Question):
        return {"question": ruling.text, "options": [a.text() for a in ruling.options]}
    return {"alert": ruling.rule, "message": ruling.message}
