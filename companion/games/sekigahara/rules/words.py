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

from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import pairwise
from typing import Any

from companion.engine.core import CHANCE, REFEREE, Action, Sentence
from companion.games.sekigahara.kit import SekigaharaKit
from companion.games.sekigahara.rules.context import Context
from companion.games.sekigahara.rules.mori import OSAKA, mori_order
from companion.games.sekigahara.rules.state import BAG, ELIMINATED, SekigaharaState
from companion.i18n import language, rule_summaries, translator
from companion.i18n import rule_summary as said_summary

__all__ = [
    "PACKAGE", "at_place", "block_name", "block_names", "card_name", "card_names",
    "clan_name", "clauses", "listed", "marks", "place_name", "rule_summary", "say", "side_name",
]

PACKAGE = "companion.games.sekigahara"
"""Where the catalogs live: `companion/games/sekigahara/locales/<lang>/*.po`."""

Translate = Callable[[str], str]

NAMED_UP_TO = 4
"""A stack is named block by block up to this size; a larger one is said by its count."""

DEPLOYMENT = "deployment"
"""The table area beside the board where deployed blocks are laid (the referee's zone)."""

CLANS: Mapping[str, str] = {
    "ishida": "Ishida", "kobayakawa": "Kobayakawa", "mori": "Mōri", "uesugi": "Uesugi",
    "ukita": "Ukita", "tokugawa": "Tokugawa", "fukushima": "Fukushima", "date": "Date",
    "maeda": "Maeda", "ii": "Ii",
}
"""Each daimyo as the rulebook spells it (Mōri with its long vowel, 9.3)."""

COMMANDERS: Mapping[str, str] = {"ishida": "Ishida Mitsunari", "tokugawa": "Tokugawa Ieyasu"}
"""The two blocks with the 3-dot nobori (3.2, 2.1)."""

NAMED_LEADERS: Mapping[str, str] = {"mori": "Mōri Terumoto"}
"""Clan leaders the rulebook names (9.3); the others are "Ukita leader" and so on."""

DISKS: Mapping[str, str] = {"toyotomi_hideyori": "Toyotomi Hideyori",
                            "sanada_masayuki": "Sanada Masayuki"}
"""The two disks (3.4, 9.1, 9.2)."""


PLAYER_VERBS = frozenset({
    "discard", "bid", "choose_first", "movement_level", "end_movement", "move", "recruit",
    "mori", "declare", "castle", "deploy", "done", "challenge", "prove", "defect", "casualties",
    "retreat"})
"""The players' verbs (rules/__init__.PHASES), each said by the `_Speaker` method of its name."""


def _english(text: str) -> str:
    return text


# --- names -----------------------------------------------------------------------------------


def side_name(side: str) -> str:
    """A side as players say it: "Ishida", "Tokugawa" (the same in every language)."""
    return side[:1].upper() + side[1:]


def clan_name(clan: str | None) -> str:
    return CLANS.get(clan or "", (clan or "").replace("_", " ").title())


def _in(t: Translate, sentence: Sentence) -> str:
    """The sentence itself in English (a refusal keeps it, so a screen can say it again in
    its language), else said at once with `t`."""
    return sentence if t is _english else sentence.say(t)


def listed(names: Sequence[str]) -> str:
    """Names one after another, "Mōri 3, Ukita leader": a sentence whose parts are said
    again in a screen's language (a name that is words, "Ukita leader", is translated)."""
    if not names:
        return ""
    text = names[0]
    for name in names[1:]:
        text = Sentence("{first}, {second}", first=text, second=name)
    return text


def clauses(parts: Sequence[str]) -> str:
    """Sentences one after another, "put Mōri 3 back at Gifu; put Ukita 2 back at Kiso"."""
    if not parts:
        return ""
    text = parts[0]
    for part in parts[1:]:
        text = Sentence("{first}; {second}", first=text, second=part)
    return text


def block_name(kit: SekigaharaKit, block: str, t: Translate = _english) -> str:
    """A block (or disk) by its face: "Mōri 3", "Fukushima cavalry", "Ishida Mitsunari"."""
    if block in DISKS:
        return DISKS[block]
    face = kit.block.get(block)
    if face is None:
        return _in(t, Sentence("an unknown block"))
    clan = clan_name(face.clan)
    if face.leader == 3:
        return COMMANDERS.get(face.side) or _in(t, Sentence("{clan} leader", clan=clan))
    if face.leader:
        return NAMED_LEADERS.get(face.clan) or _in(t, Sentence("{clan} leader", clan=clan))
    if face.attack == "cavalry":
        return _in(t, Sentence("{clan} cavalry", clan=clan))
    if face.attack == "arquebus":
        return _in(t, Sentence("{clan} arquebus", clan=clan))
    return f"{clan} {face.strength}"


def _collapse(names: Iterable[str], t: Translate) -> str:
    """Names in order, repeats counted with a multiplication sign: "Mōri 3 (times) 2"."""
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    parts = [name if n == 1 else Sentence("{name} \N{MULTIPLICATION SIGN}{count}", name=name,
                                          count=n)
             for name, n in counts.items()]
    text = listed(parts)
    return text.say(t) if isinstance(text, Sentence) and t is not _english else text


def block_names(kit: SekigaharaKit, blocks: Iterable[str], t: Translate = _english) -> str:
    """Several blocks by their faces, strongest first as a player lines them up."""
    def order(block: str) -> tuple[int, int, str]:
        face = kit.block.get(block)
        if face is None:
            return (2, 0, block)
        return (0 if face.leader else 1, -face.strength, block)
    return _collapse((block_name(kit, b) for b in sorted(blocks, key=order)), t)


def card_name(kit: SekigaharaKit, card: str, t: Translate = _english) -> str:
    """A card by its mon and kind: "Mōri card", "Mōri swords card", "loyalty card" (3.3)."""
    face = kit.card.get(card)
    if face is None:
        return _in(t, Sentence("an unknown card"))
    clan = clan_name(face.clan)
    if face.kind == "loyalty":
        return _in(t, Sentence("loyalty card"))
    if face.kind == "special":
        return _in(t, Sentence("{clan} swords card", clan=clan))
    if face.kind == "double":
        return _in(t, Sentence("{clan} double card", clan=clan))
    return _in(t, Sentence("{clan} card", clan=clan))


def card_names(kit: SekigaharaKit, cards: Iterable[str], t: Translate = _english) -> str:
    return _collapse((card_name(kit, c) for c in cards), t)


def place_name(kit: SekigaharaKit, place: str, t: Translate = _english,
               side: str | None = None) -> str:
    """A location by its printed name; a box, a bag or the eliminated blocks in words."""
    loc = kit.location.get(place)
    if loc is not None:
        return loc.name
    if place.endswith("_recruitment"):
        return _in(t, Sentence("the {side} recruitment box", side=side_name(place[:-12])))
    if place == "mori_box":
        return _in(t, Sentence("the Mōri box"))
    if place == BAG:
        return _in(t, Sentence("the {side} bag", side=side_name(side)) if side
                   else Sentence("the bag"))
    if place == ELIMINATED:
        return _in(t, Sentence("the eliminated blocks"))
    if place == DEPLOYMENT:
        return _in(t, Sentence("the deployment area"))
    return _in(t, Sentence("a place off the map"))


def at_place(kit: SekigaharaKit, place: str, t: Translate = _english,
             side: str | None = None) -> str:
    """Where something stands, with its preposition: "at Gifu", "in the Mōri box"."""
    if place in kit.location:
        return _in(t, Sentence("at {place}", place=place_name(kit, place)))
    if place.endswith("_recruitment"):
        return _in(t, Sentence("in the {side} recruitment box", side=side_name(place[:-12])))
    if place == "mori_box":
        return _in(t, Sentence("in the Mōri box"))
    if place == BAG:
        return _in(t, Sentence("in the {side} bag", side=side_name(side)) if side
                   else Sentence("in the bag"))
    if place == ELIMINATED:
        return _in(t, Sentence("among the eliminated blocks"))
    if place == DEPLOYMENT:
        return _in(t, Sentence("in the deployment area"))
    return _in(t, Sentence("off the map"))


def count_blocks(count: int, t: Translate = _english) -> str:
    return _in(t, Sentence("1 block") if count == 1 else Sentence("{count} blocks", count=count))


def count_cards(count: int, t: Translate = _english) -> str:
    return _in(t, Sentence("1 card") if count == 1 else Sentence("{count} cards", count=count))


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
        self.args: Mapping[str, Any] = action.args
        if action.role == CHANCE:
            self.side = str(self.args.get("side") or "")
        elif action.role == REFEREE:
            block = self.kit.block.get(str(self.args.get("block")))
            self.side = block.side if block is not None else ""
        else:
            self.side = action.role
        self.me = viewer == action.role and action.role not in (CHANCE, REFEREE)
        self.knows = viewer == REFEREE or (viewer == self.side and bool(self.side))
        self.who = side_name(self.side)

    def text(self) -> str:
        if self.action.role == CHANCE:
            return self._chance()
        if self.action.role == REFEREE:
            return self._correct()
        if self.action.verb not in PLAYER_VERBS:  # an old record's verb: said, never raw
            return self.t("{side} acts").format(side=self.who)
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

    def _card_args(self, key: str) -> list[str]:
        value = self.args.get(key)
        if isinstance(value, str):
            return [value]
        return [str(c) for c in value] if isinstance(value, Sequence) else []

    def _battle_at(self) -> str:
        if self.state.battle is not None:
            return self.state.battle.at
        if self.state.castle_choice is not None:
            return self.state.castle_choice[0]
        return ""

    # 6 the weekly cycle

    def _discard(self) -> str:
        return self.pick("Discard {cards}", "{side} discards {cards}",
                         cards=self.cards(self._card_args("cards")))

    def _bid(self) -> str:
        cards = self._card_args("card")
        card = self.kit.card.get(cards[0]) if cards else None
        if not self.knows or card is None:
            return self.t("{side} bids a card face down").format(side=self.who)
        return self.pick("Bid {card}, worth {bid}", "{side} bids {card}, worth {bid}",
                         card=card_name(self.kit, card.id, self.t), bid=card.bid)

    def _choose_first(self) -> str:
        first = side_name(str(self.args.get("first") or ""))
        return self.pick("Choose {first} to move first this week",
                         "{side} chooses: {first} moves first this week", first=first)

    # 7 movement

    def _movement_level(self) -> str:
        level = str(self.args.get("level"))
        cards = self.cards(self._card_args("cards"))
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
        paths: Mapping[str, Sequence[str]] = self.args.get("paths") or {}
        marches = _marches(self.args, paths)
        ways: dict[tuple[str, ...], list[str]] = {}
        for block, path in paths.items():
            ways.setdefault(tuple(str(p) for p in path), []).append(block)
        groups = []
        for path, blocks in sorted(ways.items()):
            route = " → ".join(self.place(p) for p in (origin, *path))
            group = self.t("{blocks} {route}").format(blocks=self.blocks(blocks), route=route)
            extras = []
            if _all_highway(self.kit, origin, path):
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
        shown = len(blocks) > 1  # way A shows the blocks; a single block is way B (7.2)
        where = at_place(self.kit, str(self.args.get("to")), self.t)
        text = self.pick("Recruit {blocks} {where}", "{side} recruits {blocks} {where}",
                         blocks=self.blocks(blocks, shown=shown), where=where)
        if self.knows:
            text += ", " + (self.t("shown to the opponent") if shown else self.t("face down"))
        return text

    def _mori(self) -> str:
        cards = self._card_args("cards")
        coming = mori_order(Context(self.kit), self.state)[:len(cards)]
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
        place = self.place(self._battle_at())
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
        impact = _impact(self.kit, self.state, self.side, block, card, also)
        if impact is None:
            return self.pick("Deploy {blocks} {how}", "{side} deploys {blocks} {how}",
                             blocks=names, how=how)
        return self.pick("Deploy {blocks} {how} ({impact} impact)",
                         "{side} deploys {blocks} {how} ({impact} impact)",
                         blocks=names, how=how, impact=impact)

    def _done(self) -> str:
        return self.pick("Done deploying", "{side} is done deploying")

    def _group(self, which: int | None) -> list[str]:
        battle = self.state.battle
        if battle is None or not battle.deployments:
            return []
        group = which if which is not None else max(d.group for d in battle.deployments)
        return [d.block for d in battle.deployments if d.group == group]

    def _challenge(self) -> str:
        battle = self.state.battle
        blocks = self._group(battle.challenge_open if battle is not None else None)
        return self.pick("Challenge the loyalty of {blocks} with the {card}",
                         "{side} challenges the loyalty of {blocks} with the {card}",
                         blocks=block_names(self.kit, blocks, self.t),
                         card=self.cards(self._card_args("card")))

    def _prove(self) -> str:
        return self.pick("Prove the loyalty of {blocks}: show the {card}",
                         "{side} proves the loyalty of {blocks}, showing the {card}",
                         blocks=block_names(self.kit, self._group(None), self.t),
                         card=self.cards(self._card_args("card")))

    def _defect(self) -> str:
        other = "tokugawa" if self.side == "ishida" else "ishida"
        return self.pick("Show no card: {other} takes {blocks} for this battle",
                         "{side} shows no card: {other} takes {blocks} for this battle",
                         blocks=block_names(self.kit, self._group(None), self.t),
                         other=side_name(other))

    def _casualties(self) -> str:  # lost units are revealed (8.7.2, 8.9.4 C)
        units = [str(u) for u in self.args.get("blocks") or ()]
        return self.pick("Lose {units}", "{side} loses {units}",
                         units=block_names(self.kit, units, self.t))

    def _retreat(self) -> str:
        at = self._battle_at()
        stay = [str(b) for b in self.args.get("castle") or ()]
        survivors = self.state.blocks_at(at, self.side, {b.id: b.side for b in self.kit.blocks})
        going = [b for b in survivors if b not in stay]
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
        cards = self._card_args("cards")
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


def _marches(args: Mapping[str, Any], paths: Mapping[str, Any]) -> dict[str, list[str]]:
    """Card -> the blocks its forced march covers (7.3.3), read as forced_march.py reads it."""
    several = args.get("forced_marches")
    if isinstance(several, Mapping):
        return {str(c): [str(b) for b in blocks] for c, blocks in several.items()}
    single = args.get("forced_march")
    if single:
        return {str(single): [str(b) for b in (args.get("marching") or paths)]}
    return {}


def _all_highway(kit: SekigaharaKit, origin: str, path: Sequence[str]) -> bool:
    """7.3.3: the whole way along highways."""
    stops = (origin, *path)
    roads = [kit.road(a, b) for a, b in pairwise(stops)]
    return bool(roads) and all(r is not None and r.kind == "highway" for r in roads)


def _impact(kit: SekigaharaKit, state: SekigaharaState, side: str, block: str,
            card: object, also: object) -> int | None:
    """The impact the deployment adds (8.3, 8.4), or None outside a battle."""
    from companion.games.sekigahara.rules.battle import impact_of  # battle.py names blocks here
    battle = state.battle
    first = kit.block.get(block)
    face = kit.card.get(str(card)) if card else None
    if battle is None or first is None:
        return None
    ctx = Context(kit)
    base, special = impact_of(ctx, battle, side, first, face, double=bool(also))
    total = base + special
    second = kit.block.get(str(also)) if also else None
    if second is not None:
        more, _ = impact_of(ctx, battle, side, second, face, double=True)
        total += more + (second.clan == first.clan)  # the first is already deployed (8.4.2)
    return total


# --- what a screen marks ---------------------------------------------------------------------


def marks(kit: SekigaharaKit, state: SekigaharaState, action: Action) -> dict[str, Any]:
    """Locations only, for everyone: a move's arrows from its origin to each final
    destination, a retreat's arrow, the place of a fight, a recruitment or a draw."""
    args = action.args
    arrows: list[list[str]] = []
    places: list[str] = []
    battle_at = state.battle.at if state.battle is not None else (
        state.castle_choice[0] if state.castle_choice is not None else None)
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
        places = ["osaka"]
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
