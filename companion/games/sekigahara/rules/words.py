"""Sekigahara's actions in a player's words, as each viewer may know them (English, Italian).

The tablet's buttons, its questions, the game log and the replay's move list show an action as
a sentence a player at the table would say ("March 3 blocks Osaka → Kyoto by highway"), never
its raw text. Blocks are named as their faces read ("Mōri 3", "Fukushima cavalry", the two
commanders and Mōri Terumoto by name, 3.2, 9.3), places by their printed names, cards by their
mon and kind. A block stays hidden (3.1) from anyone but its owner and the referee unless the
action itself shows it: a deployment (8.2.3), a loss (8.7.2), a recruitment by way A (7.2), a
declared leader (7.3.4), the face-up Mōri blocks (5.1, 9.3). Cards discarded or played are
shown as they are played (3.3); a bid is face down until both are revealed (6.3).

Every sentence is an English template passed to `t(...)` as a literal, so the catalogs
(`locales/<lang>/words.po`) can be checked for every one; the Italian uses the Italian
rulebook's words (blocchi, marcia forzata, strada principale, castello, schierare).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.engine.core import CHANCE, REFEREE, Action
from companion.games.sekigahara.kit import SekigaharaKit
from companion.games.sekigahara.rules.aftermath import retreating, staying_in_castle
from companion.games.sekigahara.rules.battle import (
    challenged_group,
    deployment_impacts,
    open_to_challenge,
)
from companion.games.sekigahara.rules.cards import card_list
from companion.games.sekigahara.rules.combat import fight_place
from companion.games.sekigahara.rules.context import Context, other
from companion.games.sekigahara.rules.forced_march import read_marches
from companion.games.sekigahara.rules.mori import OSAKA, mori_coming
from companion.games.sekigahara.rules.movement import by_highway
from companion.games.sekigahara.rules.names import (
    Translate,
    at_place,
    block_name,
    block_names,
    card_name,
    card_names,
    clan_name,
    clauses,
    count_blocks,
    count_cards,
    listed,
    place_name,
    side_name,
)
from companion.games.sekigahara.rules.recruitment import shown_to_opponent
from companion.games.sekigahara.rules.state import Battle, Deployment, SekigaharaState
from companion.i18n import language, rule_summaries, translator
from companion.i18n import rule_summary as said_summary

__all__ = [
    "PACKAGE", "at_place", "block_name", "block_names", "card_name", "card_names",
    "clan_name", "clauses", "listed", "marks", "place_name", "rule_summary", "say", "side_name",
]

PACKAGE = "companion.games.sekigahara"
"""Where the catalogs live: `companion/games/sekigahara/locales/<lang>/*.po`."""

NAMED_UP_TO = 4
"""A stack is named block by block up to this size; a larger one is said by its count."""


PLAYER_VERBS = frozenset({
    "discard", "bid", "choose_first", "movement_level", "end_movement", "move", "recruit",
    "mori", "declare", "castle", "deploy", "done", "challenge", "prove", "defect", "casualties",
    "retreat"})
"""The players' verbs (rules/__init__.PHASES), each said by the `_Speaker` method of its name."""


# --- saying an action ------------------------------------------------------------------------


def say(kit: SekigaharaKit, state: SekigaharaState, action: Action, viewer: str,
        lang: str = "en") -> str:
    """`action`, taken in `state`, in words for `viewer` (a side, "public" or "referee").

    The acting side reads it as an instruction ("March ..."), everyone else as a report
    ("Tokugawa marches ..."); only the acting side and the referee read the names of the acting
    side's hidden blocks and bid.
    """
    return _Speaker(kit, state, action, viewer, translator(language(lang), PACKAGE)).text()


class _Speaker:
    """One action said to one viewer: who acts, whether the viewer may know its hidden parts."""

    def __init__(self, kit: SekigaharaKit, state: SekigaharaState, action: Action,
                 viewer: str, t: Translate) -> None:
        self.kit, self.state, self.action, self.t = kit, state, action, t
        self.ctx = Context(kit)
        self.args: Mapping[str, Any] = action.args
        if action.role == CHANCE:  # a draw for one side
            self.side = str(self.args["side"])
        elif action.role == REFEREE:  # a correction of one block: whose it is
            self.side = self.kit.block[str(self.args["block"])].side
        else:
            self.side = action.role
        self.me = viewer == action.role and action.role not in (CHANCE, REFEREE)
        self.knows = viewer == REFEREE or (viewer == self.side and bool(self.side))
        self.who = side_name(self.side)

    def text(self) -> str:
        if self.action.role == CHANCE:
            return self._chance()
        if self.action.role == REFEREE and self.action.verb == "correct":
            return self._correct()
        if self.action.verb not in PLAYER_VERBS or self.action.role == REFEREE:
            # a verb of no phase (an old record's, say) is the host's to word, not a guess
            raise ValueError(f"no words for the verb {self.action.verb!r}")
        return str(getattr(self, f"_{self.action.verb}")())

    def pick(self, mine: str, theirs: str, **values: Any) -> str:
        """The instruction for the acting side, the report for anyone else."""
        template = self.t(mine) if self.me else self.t(theirs)
        return template.format(side=self.who, **values)

    # helpers

    def block(self, block: str) -> str:
        return block_name(self.kit, block, self.t)

    def blocks(self, blocks: Sequence[str], *, shown: bool = False) -> str:
        """"3 blocks (Mōri 3, Mōri 2, Ukita 2)" to whoever may know them, else "3 blocks"."""
        count = count_blocks(len(blocks), self.t)
        if (self.knows or shown) and 0 < len(blocks) <= NAMED_UP_TO:
            names = block_names(self.kit, blocks, self.t)
            return self.t("{count} ({names})").format(count=count, names=names)
        return count

    def cards(self, cards: Sequence[str]) -> str:
        return card_names(self.kit, cards, self.t)

    def place(self, place: str) -> str:
        return place_name(self.kit, place, self.t, self.side or None)

    def _cards_named(self, key: str, rule: str) -> list[str]:
        """The cards an argument names, read as the rule `rule` reads them (cards.py)."""
        return card_list(self.args.get(key), rule)

    def _fight_at(self) -> str:
        """Where the fight this action belongs to stands (combat.py); an action of a fight
        said when no fight is under way is a bug, not a sentence."""
        at = fight_place(self.state)
        if at is None:
            raise ValueError(f"'{self.action.verb}' said with no fight under way")
        return at

    def _battle(self) -> Battle:
        if self.state.battle is None:
            raise ValueError(f"'{self.action.verb}' said with no battle under way")
        return self.state.battle

    def _blocks_of(self, group: Sequence[Deployment]) -> str:
        return block_names(self.kit, [d.block for d in group], self.t)

    # 6 the weekly cycle

    def _discard(self) -> str:
        return self.pick("Discard {cards}", "{side} discards {cards}",
                         cards=self.cards(self._cards_named("cards", "6.2")))

    def _bid(self) -> str:
        if not self.knows:
            return self.t("{side} bids a card face down").format(side=self.who)
        (card,) = self._cards_named("card", "6.3")  # a bid is one card (6.3)
        return self.pick("Bid {card}, worth {bid}", "{side} bids {card}, worth {bid}",
                         card=card_name(self.kit, card, self.t), bid=self.kit.card[card].bid)

    def _choose_first(self) -> str:
        first = side_name(str(self.args.get("first") or ""))
        return self.pick("Choose {first} to move first this week",
                         "{side} chooses: {first} moves first this week", first=first)

    # 7 movement

    def _movement_level(self) -> str:
        level = str(self.args.get("level"))
        cards = self.cards(self._cards_named("cards", "7.1"))
        if level == "none" and cards:
            return self.pick("No movement: discard and redraw {cards}",
                             "{side}: no movement, discards and redraws {cards}", cards=cards)
        if level == "none":
            return self.pick("No movement", "{side}: no movement")
        if level == "minimal":
            return self.pick("Minimal movement: one group moves or recruits",
                             "{side}: minimal movement")
        if level == "limited":
            return self.pick("Limited movement: discard {cards}, three groups move",
                             "{side}: limited movement, discards {cards}", cards=cards)
        return self.pick("Total movement: discard {cards}, every group moves",
                         "{side}: total movement, discards {cards}", cards=cards)

    def _end_movement(self) -> str:
        return self.pick("End movement", "{side} ends movement")

    def _move(self) -> str:
        origin = str(self.args.get("from"))
        paths: Mapping[str, Sequence[str]] = self.args["paths"]
        marches = read_marches(self.action, paths)
        ways: dict[tuple[str, ...], list[str]] = {}
        for block, path in paths.items():
            ways.setdefault(tuple(str(p) for p in path), []).append(block)
        groups = []
        for path, blocks in sorted(ways.items()):
            route = " → ".join(self.place(p) for p in (origin, *path))
            group = self.t("{blocks} {route}").format(blocks=self.blocks(blocks), route=route)
            extras = []
            if by_highway(self.kit, origin, path):
                extras.append(self.t("by highway"))
            for card in sorted(c for c, marching in marches.items()
                               if set(marching) & set(blocks)):
                extras.append(self.t("forced march with the {card}").format(
                    card=card_name(self.kit, card, self.t)))
            groups.append(", ".join([group, *extras]) if extras else group)
        text = self.pick("March {groups}", "{side} marches {groups}", groups="; ".join(groups))
        leader = self.args.get("leader")
        if leader:  # declared to the opponent (7.3.4): public
            text += ", " + self.t("led by {leader}").format(leader=self.block(str(leader)))
        return text

    def _recruit(self) -> str:
        blocks = [str(b) for b in self.args.get("blocks") or ()]
        shown = shown_to_opponent(blocks)
        where = at_place(self.kit, str(self.args.get("to")), self.t)
        text = self.pick("Recruit {blocks} {where}", "{side} recruits {blocks} {where}",
                         blocks=self.blocks(blocks, shown=shown), where=where)
        if self.knows:
            text += ", " + (self.t("shown to the opponent") if shown else self.t("face down"))
        return text

    def _mori(self) -> str:
        cards = self._cards_named("cards", "9.3")
        coming = mori_coming(self.ctx, self.state, len(cards))
        return self.pick("Bring {blocks} from the Mōri box to {place}, discarding {cards}",
                         "{side} brings {blocks} from the Mōri box to {place}, "
                         "discarding {cards}",
                         blocks=self.blocks(coming, shown=True), place=self.place(OSAKA),
                         cards=self.cards(cards))

    # 8 combat

    def _declare(self) -> str:
        return self.pick("Declare combat at {place}", "{side} declares combat at {place}",
                         place=self.place(str(self.args.get("at"))))

    def _castle(self) -> str:
        place = self.place(self._fight_at())
        if self.args.get("inside"):
            return self.pick("Stay inside {place} castle", "{side} stays inside {place} castle",
                             place=place)
        return self.pick("Fight outside {place} castle", "{side} fights outside {place} castle",
                         place=place)

    def _deploy(self) -> str:
        block, also = str(self.args.get("block")), self.args.get("also")
        card = self.args.get("card")
        names = self.block(block) if not also else self.t("{first} and {second}").format(
            first=self.block(block), second=self.block(str(also)))
        how = (self.t("with the {card}").format(card=card_name(self.kit, str(card), self.t))
               if card else self.t("without a card"))
        laid = [self.kit.block[b] for b in (block, also) if b]
        impacts = deployment_impacts(self.ctx, self._battle(), self.side, laid,
                                     self.kit.card[str(card)] if card else None)
        impact = sum(base + special for base, special in impacts)
        return self.pick("Deploy {blocks} {how} ({impact} impact)",
                         "{side} deploys {blocks} {how} ({impact} impact)",
                         blocks=names, how=how, impact=impact)

    def _done(self) -> str:
        return self.pick("Done deploying", "{side} is done deploying")

    def _challenge(self) -> str:
        return self.pick("Challenge the loyalty of {blocks} with the {card}",
                         "{side} challenges the loyalty of {blocks} with the {card}",
                         blocks=self._blocks_of(open_to_challenge(self._battle())),
                         card=self.cards(self._cards_named("card", "8.6.1")))

    def _prove(self) -> str:
        return self.pick("Prove the loyalty of {blocks}: show the {card}",
                         "{side} proves the loyalty of {blocks}, showing the {card}",
                         blocks=self._blocks_of(challenged_group(self._battle())),
                         card=self.cards(self._cards_named("card", "8.6.1")))

    def _defect(self) -> str:
        return self.pick("Show no card: {other} takes {blocks} for this battle",
                         "{side} shows no card: {other} takes {blocks} for this battle",
                         blocks=self._blocks_of(challenged_group(self._battle())),
                         other=side_name(other(self.side)))

    def _casualties(self) -> str:  # lost units are revealed (8.7.2, 8.9.4 C)
        units = [str(u) for u in self.args.get("blocks") or ()]
        return self.pick("Lose {units}", "{side} loses {units}",
                         units=block_names(self.kit, units, self.t))

    def _retreat(self) -> str:
        at = self._battle().at
        stay = staying_in_castle(self.action)
        going = retreating(self.ctx, self.state, self.side, stay)
        castle = self.place(at)
        if not going:
            return self.pick("Keep {blocks} inside {place} castle",
                             "{side} keeps {blocks} inside {place} castle",
                             blocks=self.blocks(stay), place=castle)
        text = self.pick("Retreat {blocks} to {place}", "{side} retreats {blocks} to {place}",
                         blocks=self.blocks(going), place=self.place(str(self.args.get("to"))))
        if stay:
            text += "; " + self.t("{blocks} stay inside {place} castle").format(
                blocks=self.blocks(stay), place=castle)
        return text

    # chance and the referee

    def _chance(self) -> str:
        if self.action.verb == "draw_blocks":
            blocks = [str(b) for b in self.args.get("blocks") or ()]
            return self.t("{side} draws {blocks} for {place}").format(
                side=self.who, blocks=self.blocks(blocks),
                place=self.place(str(self.args.get("to"))))
        cards = self._cards_named("cards", "3.3")
        what = count_cards(len(cards), self.t)
        if self.knows and cards:
            what = self.t("{count} ({names})").format(count=what, names=self.cards(cards))
        return self.t("{side} draws {cards}").format(side=self.who, cards=what)

    def _correct(self) -> str:
        block, to = str(self.args.get("block")), str(self.args.get("to"))
        where = at_place(self.kit, to, self.t, self.side or None)
        if self.knows:
            return self.t("Referee: {block} is really {where}").format(
                block=self.block(block), where=where)
        return self.t("Referee: one {side} block is really {where}").format(
            side=self.who, where=where)


# --- what a screen marks ---------------------------------------------------------------------


def marks(kit: SekigaharaKit, state: SekigaharaState, action: Action) -> dict[str, Any]:
    """Locations only, for everyone: a move's arrows from its origin to each final
    destination, a retreat's arrow, the place of a fight, a recruitment or a draw."""
    args = action.args
    arrows: list[list[str]] = []
    places: list[str] = []
    battle_at = fight_place(state)
    if action.verb == "move":
        origin = str(args.get("from"))
        ends = sorted({str(p[-1]) for p in (args.get("paths") or {}).values() if p})
        arrows = [[origin, end] for end in ends]
    elif action.verb == "retreat" and battle_at and args.get("to") in kit.location:
        arrows = [[battle_at, str(args["to"])]]
        places = [battle_at]
    elif action.verb == "declare":
        places = [str(args.get("at"))]
    elif action.verb in ("recruit", "draw_blocks"):
        places = [str(args.get("to"))]
    elif action.verb == "mori":
        places = [OSAKA]
    elif action.verb in ("castle", "deploy", "done", "challenge", "prove", "defect",
                         "casualties") and battle_at:
        places = [battle_at]
    places = [p for p in places if p in kit.location]
    arrows = [a for a in arrows if a[0] in kit.location and a[1] in kit.location]
    return {"arrows": arrows, "places": places}


# --- rule summaries --------------------------------------------------------------------------


def summaries() -> Mapping[str, str]:
    """Rule number -> one line in English (`data/rule_summaries.yaml`)."""
    return rule_summaries(PACKAGE)


def rule_summary(rule: str, lang: str = "en") -> str:
    """Rule `rule` in one line, in `lang`, a rule without its own taking its section's
    (`companion.i18n.rule_summary`); "" when there is none."""
    return said_summary(PACKAGE, rule, lang)
