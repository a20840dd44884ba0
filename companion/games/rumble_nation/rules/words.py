"""Actions said in a player's words, in English or Italian: the tablet's buttons, questions,
game log and replay, and the `legal` list of a refusal.

Regions by their printed names, cards by their printed titles (the Italian edition's, in either
language), soldiers by their colour, so a refusal reads "legal: Ninja: 1 soldier Kyo → Okō"
rather than a line of JSON. Every English template goes through `t` (`companion.i18n`), so the
Italian catalog (`locales/it/words.po`) can give it in the rulebook's own terms
("Schiera 2 soldati a Kiyosu (3+5 e 4)").

Hidden information: only the daimyo cards are hidden (8: chosen face down, turned face up when
used, 8.3). To a viewer other than their holder and the referee, a daimyo card is never named,
and neither is the play of one not yet turned up: its moves would tell the card (a question may
offer a daimyo play that the table turns out not to have made). The daimyo cards on offer at the
set-up lie face up (8), so they are named to all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.engine.core import CHANCE, REFEREE, Action, Sentence
from companion.games.rumble_nation.kit import RumbleNationKit
from companion.games.rumble_nation.rules.context import deployable
from companion.games.rumble_nation.rules.state import RNState
from companion.i18n import Translate, language, rule_summaries, translator
from companion.i18n import rule_summary as said_summary

__all__ = ["PACKAGE", "both", "card_name", "either", "joined", "player", "player_name",
           "region_name", "rule_summary", "say", "summaries", "translate"]

PACKAGE = "companion.games.rumble_nation"
"""Where the catalogs (`locales/<lang>/*.po`) and the rule summaries (`data/`) live."""

CARD_NAMES = {
    "esplorazione": "Esplorazione", "oltre_le_montagne": "Oltre le Montagne",
    "marina": "Marina", "squadra_di_riserva": "Squadra di Riserva", "ninja": "Ninja",
    "ingresso_a_kyo": "Ingresso a Kyo", "supporto": "Supporto", "ribellione": "Ribellione",
    "esilio": "Esilio", "prigionia": "Prigionia", "diversivo": "Diversivo",
    "ritirata": "Ritirata",
    "uesugi_kenshin": "Uesugi Kenshin", "mori_motonari": "Mōri Motonari",
    "takeda_shingen": "Takeda Shingen", "chosokabe_motochika": "Chōsokabe Motochika",
    "oda_nobunaga": "Oda Nobunaga", "otomo_sorin": "Ōtomo Sōrin",
}
"""The cards' printed titles (5.1.2, 8.3)."""


class _Unsayable(Exception):
    """An action too malformed to say in detail (said by its verb alone instead)."""


def translate(lang: str) -> Translate:
    """English template -> `lang` ("it", "it-IT": this game's catalog; the English where
    none is known)."""
    return translator(language(lang), PACKAGE)


def card_name(card: Any) -> str:
    return CARD_NAMES.get(str(card), str(card))


def region_name(kit: RumbleNationKit, region: Any) -> str:
    return next((loc.name for loc in kit.locations if loc.id == region), str(region))


def player(colour: str) -> Sentence:
    """A player named in a refusal or an alert, by his colour as the code spells it ("red"),
    said again as the players call each other ("Rosso": `locales/it/alerts.po`)."""
    return Sentence(colour)


def joined(items: Sequence[str], separator: str = ", ") -> str:
    """Items in a list ("a, b, c"): where any is a `Sentence`, a sentence whose template only
    joins them (no catalog entry: it is said again as it is), so each item is said again in
    a screen's language; else the plain text."""
    if not any(isinstance(item, Sentence) for item in items):
        return separator.join(items)
    values = {f"item{n}": item for n, item in enumerate(items)}
    return Sentence(separator.join("{" + name + "}" for name in values), **values)


def either(items: Sequence[str]) -> str:
    """"a or b or c", said again in a screen's language ("a o b o c"); "" for none."""
    said = items[0] if items else ""
    for item in items[1:]:
        said = Sentence("{first} or {last}", first=said, last=item)
    return said


def both(items: Sequence[str]) -> str:
    """"a and b and c", said again in a screen's language ("a e b e c"); "" for none."""
    said = items[0] if items else ""
    for item in items[1:]:
        said = Sentence("{first} and {last}", first=said, last=item)
    return said


def player_name(t: Translate, colour: str) -> str:
    """A player by his colour, as the players call each other at the table (3 ⑤)."""
    names = {"red": t("Red"), "blue": t("Blue"), "yellow": t("Yellow"), "black": t("Black")}
    return names.get(colour, colour.replace("_", " ").capitalize())


def _place(kit: RumbleNationKit, region: Any) -> str:
    """A region's printed name; an id the map lacks is not said raw."""
    if not any(loc.id == region for loc in kit.locations):
        raise _Unsayable(region)
    return region_name(kit, region)


def _count(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _Unsayable(value)
    return value


def soldiers(t: Translate, n: int, colour: str | None = None) -> str:
    """`n` soldiers, of one colour when it matters (a card moving an opponent's: 5.1.2)."""
    if colour is None:
        if n == 0:
            return t("no soldiers")
        return t("1 soldier") if n == 1 else t("{count} soldiers").format(count=n)
    if n == 1:
        one = {"red": t("1 red soldier"), "blue": t("1 blue soldier"),
               "yellow": t("1 yellow soldier"), "black": t("1 black soldier")}
        if colour in one:
            return one[colour]
    else:
        many = {"red": t("{count} red soldiers"), "blue": t("{count} blue soldiers"),
                "yellow": t("{count} yellow soldiers"), "black": t("{count} black soldiers")}
        if colour in many:
            return many[colour].format(count=n)
    return t("{soldiers} of {player}").format(soldiers=soldiers(t, n),
                                              player=player_name(t, colour))


def listing(t: Translate, items: Sequence[str]) -> str:
    """"a, b and c" ("a, b e c")."""
    if len(items) <= 1:
        return "".join(items)
    return t("{first} and {last}").format(first=", ".join(items[:-1]), last=items[-1])


def _route(kit: RumbleNationKit, t: Translate, what: str, frm: Any, to: Any) -> str:
    return t("{what} {origin} → {to}").format(what=what, origin=_place(kit, frm),
                                              to=_place(kit, to))


def _swap(kit: RumbleNationKit, t: Translate, where: Any, foe: str, role: str) -> str:
    """Ribellione and Ōtomo Sōrin: an opponent's soldier out, one of yours in its place."""
    return t("{region}: {theirs} back to the reserve, {ours} in its place").format(
        region=_place(kit, where), theirs=soldiers(t, 1, foe), ours=soldiers(t, 1, role))


# --- deploying (5.1.1) -------------------------------------------------------------------------

def _units(t: Translate, units: int, daimyo: bool) -> str:
    """What one deployment puts down: the daimyo goes in place of a soldier (8)."""
    if not daimyo:
        return soldiers(t, units)
    if units <= 1:
        return t("the daimyo")
    return t("the daimyo and {soldiers}").format(soldiers=soldiers(t, units - 1))


def _deploy(kit: RumbleNationKit, state: RNState, role: str, args: Mapping[str, Any],
            t: Translate) -> str:
    pair = args.get("pair")
    if not isinstance(pair, Sequence) or len(pair) != 2 or len(state.dice) != 3 \
            or not all(isinstance(i, int) and 0 <= i <= 2 for i in pair) or pair[0] == pair[1]:
        raise _Unsayable(pair)
    i, j = pair
    total, die = state.dice[i] + state.dice[j], state.dice[3 - i - j]
    where = next((r for r, v in state.castles.items() if v == total), None)
    units = _units(t, deployable(state, role, die), bool(args.get("daimyo")))
    return t("Deploy {units} to {region} ({pair} and {die})").format(
        units=units, region=_place(kit, where), pair=f"{state.dice[i]}+{state.dice[j]}",
        die=die)


# --- the tactic cards (5.1.2) ------------------------------------------------------------------

def _foe(state: RNState, role: str, value: Any) -> str:
    """An opponent named by a card's arguments (his colour, never a stray string)."""
    if not isinstance(value, str) or value not in state.players or value == role:
        raise _Unsayable(value)
    return value


def _foes_of(args: Mapping[str, Any], state: RNState, role: str) -> list[tuple[str, int]]:
    """Diversivo's two opponent soldiers: each owner once, in seat order."""
    named = args.get("opponents")
    if not isinstance(named, Sequence) or isinstance(named, str):
        raise _Unsayable(named)
    for foe in named:
        _foe(state, role, foe)
    return [(p, list(named).count(p)) for p in state.players if p in named]


def _tactic(kit: RumbleNationKit, state: RNState, role: str, args: Mapping[str, Any],
            t: Translate) -> str:
    """What each card does, as its text says (5.1.2)."""
    card = args.get("card")
    frm, to = args.get("from"), args.get("to")
    if card in ("esplorazione", "ninja"):
        said = _route(kit, t, soldiers(t, 1), frm, to)
    elif card in ("oltre_le_montagne", "marina"):
        said = _route(kit, t, soldiers(t, 2), frm, to)
    elif card == "squadra_di_riserva":
        said = _route(kit, t, soldiers(t, state.units(str(frm), role) // 2), frm, to)
    elif card == "ingresso_a_kyo":
        moves = args.get("moves")
        if not isinstance(moves, Mapping) or not moves:
            raise _Unsayable(moves)
        sources = [t("{count} from {origin}").format(count=_count(n), origin=_place(kit, r))
                   for r, n in sorted(moves.items())]
        said = t("{soldiers} → {to} ({sources})").format(
            soldiers=soldiers(t, sum(_count(n) for n in moves.values())),
            to=_place(kit, kit.components.kyo), sources=", ".join(sources))
    elif card == "supporto":
        said = t("1 soldier from the reserve → {to}").format(to=_place(kit, to))
    elif card == "ribellione":
        said = _swap(kit, t, args.get("region"), _foe(state, role, args.get("opponent")), role)
    elif card in ("esilio", "prigionia"):
        foe = _foe(state, role, args.get("opponent"))
        said = _route(kit, t, soldiers(t, 1, foe), frm, to)
    elif card == "diversivo":
        groups = [soldiers(t, 1, role),
                  *(soldiers(t, n, p) for p, n in _foes_of(args, state, role))]
        said = _route(kit, t, listing(t, groups), frm, to)
    elif card == "ritirata":
        regions = args.get("regions")
        if not isinstance(regions, Sequence) or len(regions) != 2:
            raise _Unsayable(regions)
        a, b = regions
        sources = [t("{count} from {origin}").format(count=2, origin=_place(kit, a))] \
            if a == b else [t("{count} from {origin}").format(count=1, origin=_place(kit, r))
                            for r in (a, b)]
        said = t("{soldiers} back to the reserve ({sources})").format(
            soldiers=soldiers(t, 2), sources=", ".join(sources))
    else:
        raise _Unsayable(card)
    return f"{card_name(card)}: {said}"


# --- the daimyo cards (8) ----------------------------------------------------------------------

def _spread(kit: RumbleNationKit, t: Translate, moves: Any, colour: str | None) -> list[str]:
    """Uesugi Kenshin, Takeda Shingen, Chōsokabe Motochika: 1-3 soldiers to adjacent regions,
    not necessarily the same one."""
    if not isinstance(moves, Sequence):
        raise _Unsayable(moves)
    return [t("{soldiers} → {to}").format(soldiers=soldiers(t, _count(m.get("soldiers")), colour),
                                          to=_place(kit, m.get("to")))
            for m in moves if isinstance(m, Mapping)]


def _daimyo_play(kit: RumbleNationKit, state: RNState, role: str, args: Mapping[str, Any],
                 t: Translate) -> str:
    """What the player's daimyo card does from his daimyo's region (8.3)."""
    card = state.daimyo_cards.get(role)
    home = state.daimyo_at.get(role)
    if card in ("uesugi_kenshin", "takeda_shingen", "chosokabe_motochika"):
        colour = _foe(state, role, args.get("opponent")) if card == "takeda_shingen" else None
        parts = _spread(kit, t, args.get("moves", ()), colour)
        if card == "chosokabe_motochika" and "daimyo" in args:
            parts.append(t("the daimyo → {to}").format(to=_place(kit, args["daimyo"])))
        if not parts:
            raise _Unsayable(args)
        said = t("from {origin}: {moves}").format(origin=_place(kit, home),
                                                  moves=", ".join(parts))
    elif card == "mori_motonari":
        moves = args.get("moves")
        if not isinstance(moves, Sequence) or not moves:
            raise _Unsayable(moves)
        places = [_place(kit, m.get("to")) for m in moves if isinstance(m, Mapping)]
        said = t("1 soldier from the reserve → {to}").format(to=places[0]) \
            if len(places) == 1 else \
            t("1 soldier from the reserve in each of {regions}").format(
                regions=listing(t, places))
    elif card == "oda_nobunaga":
        escort = _count(args.get("soldiers", 0))
        what = t("the daimyo and {soldiers}").format(soldiers=soldiers(t, escort)) \
            if escort else t("the daimyo")
        said = _route(kit, t, what, home, args.get("to"))
    elif card == "otomo_sorin":
        swaps = args.get("swaps")
        if not isinstance(swaps, Sequence) or not swaps:
            raise _Unsayable(swaps)
        said = "; ".join(_swap(kit, t, s.get("region"), _foe(state, role, s.get("opponent")),
                               role)
                         for s in swaps if isinstance(s, Mapping))
    else:
        raise _Unsayable(card)
    return f"{card_name(card)}: {said}"


# --- chance and the referee --------------------------------------------------------------------

def _setup(state: RNState, args: Mapping[str, Any], t: Translate, knows: bool) -> str:
    """3 ② ③ ⑥ and 8: the castles, the tactic display, the daimyo offer, the first player.

    The offer is said to the referee only: the screens' views never show it (which cards were
    offered narrows down which one each player took face down), and the log says no more than
    the views do."""
    parts = [t("Castles shuffled onto the regions")]
    tactics = [card_name(c) for c in args.get("tactics", ()) if c in CARD_NAMES]
    if tactics:
        parts.append(t("tactic cards on display: {cards}").format(cards=", ".join(tactics)))
    offer = [card_name(c) for c in args.get("daimyo", ()) if c in CARD_NAMES] if knows else []
    if offer:
        parts.append(t("daimyo cards on offer: {cards}").format(cards=", ".join(offer)))
    first = args.get("first")
    if isinstance(first, int) and 0 <= first < len(state.players):
        parts.append(t("first player: {player}").format(
            player=player_name(t, state.players[first])))
    return "; ".join(parts)


def _dice(state: RNState, args: Mapping[str, Any], t: Translate) -> str:
    """5.1.1: the faces of the three dice of the player who asked to roll."""
    values = args.get("values")
    if not isinstance(values, Sequence) or not all(isinstance(v, int) for v in values):
        raise _Unsayable(values)
    faces = listing(t, [str(v) for v in sorted(values)])
    if state.players and state.phase == "deployment":
        return t("{player} rolls {faces}").format(
            player=player_name(t, state.players[state.turn]), faces=faces)
    return t("Dice: {faces}").format(faces=faces)


def _plain(action: Action, t: Translate) -> str:
    """The action by its verb alone: what may be said of any action, whoever looks."""
    plain = {
        "roll": t("Roll the three dice"), "reroll": t("Reroll all three dice"),
        "deploy": t("Deploy soldiers"), "tactic": t("Use a tactic card"),
        "daimyo": t("Use the daimyo card"), "choose_daimyo": t("Take a daimyo card, face down"),
        "setup": t("Castles shuffled onto the regions"), "dice": t("The dice are rolled"),
        "undo": t("Take back an action"), "correct": t("Referee's correction"),
    }
    if action.verb in plain:
        return plain[action.verb]
    if action.role == REFEREE:
        return t("Referee's decision")
    return action.verb.replace("_", " ")


def _detail(kit: RumbleNationKit, state: RNState, action: Action, knows: bool,
            t: Translate) -> str:
    args, verb = action.args, action.verb
    if action.role == CHANCE:
        return _setup(state, args, t, knows) if verb == "setup" else \
            _dice(state, args, t) if verb == "dice" else _plain(action, t)
    if action.role == REFEREE:
        seq = args.get("seq")
        if verb == "undo" and isinstance(seq, int) and not isinstance(seq, bool):
            return t("Take back action {seq}").format(seq=seq)
        return _plain(action, t)
    if verb == "deploy":
        return _deploy(kit, state, action.role, args, t)
    if verb == "tactic":
        return _tactic(kit, state, action.role, args, t)
    if verb == "daimyo":
        revealed = action.role in state.daimyo_used
        return _daimyo_play(kit, state, action.role, args, t) if knows or revealed \
            else _plain(action, t)
    if verb == "choose_daimyo":
        card = args.get("card")
        if knows and card in CARD_NAMES:
            return t("Take {card}").format(card=card_name(card))
        return _plain(action, t)
    return _plain(action, t)


def say(kit: RumbleNationKit, state: RNState, action: Action, viewer: str | None = None,
        lang: str = "en") -> str:
    """`action`, taken in `state`, in words for `viewer` (the actor when None) in `lang`: the
    daimyo cards named only to their holder and the referee. Never raises: an action too
    malformed to say in detail is said by its verb."""
    t = translate(lang)
    knows = viewer is None or viewer in (action.role, REFEREE)
    try:
        return _detail(kit, state, action, knows, t)
    except (_Unsayable, AttributeError, KeyError, TypeError, ValueError, IndexError):
        return _plain(action, t)


# --- the rules in one line ---------------------------------------------------------------------

def summaries() -> Mapping[str, str]:
    """Rule number -> one line in English (`data/rule_summaries.yaml`)."""
    return rule_summaries(PACKAGE)


def rule_summary(rule: str, lang: str = "en") -> str:
    """Rule `rule` in one line, in `lang`, a rule without its own taking its section's
    (`companion.i18n.rule_summary`); "" when there is none."""
    return said_summary(PACKAGE, rule, lang)
