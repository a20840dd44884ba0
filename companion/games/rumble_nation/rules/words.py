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

The words say what the rules make of an action, never a reading of their own: a deployment is
`turn.deployment`, a card's play the very moves `tactics.tactic_moves` and
`daimyo.daimyo_moves` carry out, a roll `setup.dice_rolled`. What they cannot say raises (the
rules' IllegalAction, or a KeyError or ValueError naming what is missing): a wording bug must
surface, never turn into a verb in plain text. Whether a screen shows something else instead
is the host's decision.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.engine.core import CHANCE, REFEREE, Action
from companion.games.rumble_nation.kit import RumbleNationKit
from companion.games.rumble_nation.rules.context import Batch
from companion.games.rumble_nation.rules.daimyo import daimyo_moves
from companion.games.rumble_nation.rules.moves import Move
from companion.games.rumble_nation.rules.names import (
    CARD_NAMES,
    both,
    card_name,
    either,
    joined,
    player,
    region_name,
)
from companion.games.rumble_nation.rules.setup import dice_rolled
from companion.games.rumble_nation.rules.state import RNState
from companion.games.rumble_nation.rules.tactics import tactic_moves
from companion.games.rumble_nation.rules.turn import deployment
from companion.i18n import Translate, language, rule_summaries, translator
from companion.i18n import rule_summary as said_summary

__all__ = ["PACKAGE", "both", "card_name", "either", "joined", "player", "player_name",
           "region_name", "rule_summary", "said_done", "say", "summaries", "translate"]

PACKAGE = "companion.games.rumble_nation"
"""Where the catalogs (`locales/<lang>/*.po`) and the rule summaries (`data/`) live."""

RESERVE = "reserve"
"""Where a card's move starts or ends when the soldiers come from or go back to a reserve
(`moves.Move`)."""


def translate(lang: str) -> Translate:
    """English template -> `lang` ("it", "it-IT": this game's catalog; the English where
    none is known)."""
    return translator(language(lang), PACKAGE)


def player_name(t: Translate, colour: str) -> str:
    """A player by his colour, as the players call each other at the table (3 ⑤)."""
    names = {"red": t("Red"), "blue": t("Blue"), "yellow": t("Yellow"), "black": t("Black")}
    return names.get(colour, colour.replace("_", " ").capitalize())


def _tactic_titles(t: Translate) -> dict[str, str]:
    """The tactic cards' titles in the screen's language: English in English, the Italian
    edition's printed titles in Italian (`locales/it/words.po`)."""
    return {"esplorazione": t("Scouting"), "oltre_le_montagne": t("Over the Mountains"),
            "marina": t("Navy"), "squadra_di_riserva": t("Reserve Squad"), "ninja": t("Ninja"),
            "ingresso_a_kyo": t("Entering Kyo"), "supporto": t("Support"),
            "ribellione": t("Rebellion"), "esilio": t("Exile"), "prigionia": t("Imprisonment"),
            "diversivo": t("Diversion"), "ritirata": t("Retreat")}


def _card(card: Any, t: Translate) -> str:
    """A card by its title in the screen's language (a daimyo card by its daimyo's name); an
    id no card has is a bug to surface, never said raw."""
    return _tactic_titles(t).get(str(card)) or CARD_NAMES[str(card)]


def _place(kit: RumbleNationKit, region: Any) -> str:
    """A region by its printed name; an id the map lacks is a bug to surface, never said raw."""
    name = next((loc.name for loc in kit.locations if loc.id == region), None)
    if name is None:
        raise ValueError(f"no region {region!r} on the map")
    return name


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


# --- deploying (5.1.1) -------------------------------------------------------------------------

def _units(t: Translate, units: int, daimyo: bool) -> str:
    """What one deployment puts down: the daimyo goes in place of a soldier (8)."""
    if not daimyo:
        return soldiers(t, units)
    if units <= 1:
        return t("the daimyo")
    return t("the daimyo and {soldiers}").format(soldiers=soldiers(t, units - 1))


def _deploy(kit: RumbleNationKit, state: RNState, role: str, args: Mapping[str, Any],
            t: Translate, done: bool = False) -> str:
    """A deployment as its button offers it ("Deploy 3 soldiers to Kyo") or, `done`, as the
    log tells it, naming who ("Red deploys 3 soldiers to Kyo")."""
    placed = deployment(state, role, args.get("pair"))
    i, j = placed.pair
    said = {"units": _units(t, placed.units, bool(args.get("daimyo"))),
            "region": _place(kit, placed.region), "pair": f"{state.dice[i]}+{state.dice[j]}",
            "die": placed.die}
    if done:
        return t("{player} deploys {units} to {region} ({pair} and {die})").format(
            player=player_name(t, role), **said)
    return t("Deploy {units} to {region} ({pair} and {die})").format(**said)


# --- what a card's moves look like (5.1.2, 8.3) ------------------------------------------------

Sayer = Callable[[RumbleNationKit, Translate, str, list[Move]], str]
"""A card's moves in words, for the player who plays it."""


def _along(kit: RumbleNationKit, t: Translate, role: str, moves: list[Move]) -> str:
    """Soldiers going one way together: "2 soldiers Kyo → Oko", "1 blue soldier Kyo → Oko";
    each colour named where the card moves more than the player's own (Diversivo)."""
    if len(moves) == 1 and moves[0]["player"] == role:
        what = soldiers(t, moves[0]["soldiers"])
    else:
        what = listing(t, [soldiers(t, m["soldiers"], m["player"]) for m in moves])
    return _route(kit, t, what, moves[0]["from"], moves[0]["to"])


def _sources(kit: RumbleNationKit, t: Translate, moves: list[Move]) -> dict[str, str]:
    """How many soldiers the moves take in all, and from where: "3 soldiers", "2 from Kiyosu,
    1 from Yoshida"."""
    return {"soldiers": soldiers(t, sum(m["soldiers"] for m in moves)),
            "sources": ", ".join(t("{count} from {origin}").format(
                count=m["soldiers"], origin=_place(kit, m["from"])) for m in moves)}


def _gathered(kit: RumbleNationKit, t: Translate, role: str, moves: list[Move]) -> str:
    """Soldiers from several regions into one (Ingresso a Kyo)."""
    return t("{soldiers} → {to} ({sources})").format(to=_place(kit, moves[0]["to"]),
                                                     **_sources(kit, t, moves))


def _from_reserve(kit: RumbleNationKit, t: Translate, role: str, moves: list[Move]) -> str:
    """One soldier from the reserve into each of one or more regions (Supporto, Mōri
    Motonari)."""
    places = [_place(kit, m["to"]) for m in moves]
    if len(places) == 1:
        return t("1 soldier from the reserve → {to}").format(to=places[0])
    return t("1 soldier from the reserve in each of {regions}").format(
        regions=listing(t, places))


def _swaps(kit: RumbleNationKit, t: Translate, role: str, moves: list[Move]) -> str:
    """Ribellione and Ōtomo Sōrin: each opponent's soldier out, one of yours in its place."""
    return "; ".join(
        t("{region}: {theirs} back to the reserve, {ours} in its place").format(
            region=_place(kit, m["from"]), theirs=soldiers(t, 1, m["player"]),
            ours=soldiers(t, 1, role))
        for m in moves if m["to"] == RESERVE)


def _back_to_reserve(kit: RumbleNationKit, t: Translate, role: str, moves: list[Move]) -> str:
    """Ritirata: soldiers back to the reserve from one region or two."""
    return t("{soldiers} back to the reserve ({sources})").format(**_sources(kit, t, moves))


TACTIC_WORDS: dict[str, Sayer] = {
    "esplorazione": _along, "oltre_le_montagne": _along, "marina": _along,
    "squadra_di_riserva": _along, "ninja": _along, "esilio": _along, "prigionia": _along,
    "diversivo": _along, "ingresso_a_kyo": _gathered, "supporto": _from_reserve,
    "ribellione": _swaps, "ritirata": _back_to_reserve,
}
"""How each tactic card's moves are said (its text's shape: 5.1.2)."""


def _tactic(kit: RumbleNationKit, state: RNState, role: str, args: Mapping[str, Any],
            t: Translate) -> str:
    """What the card does, said from the moves the rules make of it (5.1.2)."""
    card = str(args.get("card"))
    moves = tactic_moves(Batch(kit, state), role, args)
    return f"{_card(card, t)}: {TACTIC_WORDS[card](kit, t, role, moves)}"


# --- the daimyo cards (8) ----------------------------------------------------------------------

def _spread(kit: RumbleNationKit, t: Translate, role: str, home: str, moves: list[Move],
            daimyo: Mapping[str, str]) -> str:
    """Uesugi Kenshin, Takeda Shingen, Chōsokabe Motochika: 1-3 units from the daimyo's region
    to adjacent regions, not necessarily the same one (an opponent's by colour)."""
    parts = [t("{soldiers} → {to}").format(
        soldiers=soldiers(t, m["soldiers"], None if m["player"] == role else m["player"]),
        to=_place(kit, m["to"])) for m in moves]
    if role in daimyo:
        parts.append(t("the daimyo → {to}").format(to=_place(kit, daimyo[role])))
    return t("from {origin}: {moves}").format(origin=_place(kit, home), moves=", ".join(parts))


def _escorted(kit: RumbleNationKit, t: Translate, role: str, home: str, moves: list[Move],
              daimyo: Mapping[str, str]) -> str:
    """Oda Nobunaga: the daimyo to an adjacent region, with a soldier if the player likes."""
    escort = sum(m["soldiers"] for m in moves)
    what = t("the daimyo and {soldiers}").format(soldiers=soldiers(t, escort)) \
        if escort else t("the daimyo")
    return _route(kit, t, what, home, daimyo[role])


def _daimyo_play(kit: RumbleNationKit, state: RNState, role: str, args: Mapping[str, Any],
                 t: Translate) -> str:
    """What the player's daimyo card does from his daimyo's region, said from the moves the
    rules make of it (8.3)."""
    card, home = state.daimyo_cards[role], state.daimyo_at[role]
    moves, daimyo = daimyo_moves(Batch(kit, state), role, args)
    if card in ("uesugi_kenshin", "takeda_shingen", "chosokabe_motochika"):
        said = _spread(kit, t, role, home, moves, daimyo)
    elif card == "oda_nobunaga":
        said = _escorted(kit, t, role, home, moves, daimyo)
    elif card == "mori_motonari":
        said = _from_reserve(kit, t, role, moves)
    else:
        said = _swaps(kit, t, role, moves)
    return f"{_card(card, t)}: {said}"


# --- chance and the referee --------------------------------------------------------------------

def _setup(state: RNState, args: Mapping[str, Any], t: Translate, knows: bool) -> str:
    """3 ② ③ ⑥ and 8: the castles, the tactic display, the daimyo offer, the first player.

    The offer is said to the referee only: the screens' views never show it (which cards were
    offered narrows down which one each player took face down), and the log says no more than
    the views do."""
    parts = [t("Castles shuffled onto the regions"),
             t("tactic cards on display: {cards}").format(
                 cards=", ".join(_card(c, t) for c in args["tactics"]))]
    offer = [_card(c, t) for c in args.get("daimyo", ())] if knows else []
    if offer:
        parts.append(t("daimyo cards on offer: {cards}").format(cards=", ".join(offer)))
    parts.append(t("first player: {player}").format(
        player=player_name(t, state.players[args["first"]])))
    return "; ".join(parts)


def _dice(state: RNState, args: Mapping[str, Any], t: Translate) -> str:
    """5.1.1: the faces of the three dice of the player who asked to roll."""
    faces = listing(t, [str(v) for v in dice_rolled(args.get("values"))])
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
    raise ValueError(f"no words for the verb {action.verb!r}")


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
    if verb == "choose_daimyo" and knows:
        return t("Take {card}").format(card=_card(args["card"], t))
    return _plain(action, t)


def say(kit: RumbleNationKit, state: RNState, action: Action, viewer: str | None = None,
        lang: str = "en") -> str:
    """`action`, taken in `state`, in words for `viewer` (the actor when None) in `lang`: the
    daimyo cards named only to their holder and the referee. An action the words cannot say
    raises (the rules' refusal of it, or a KeyError or ValueError): a wording bug surfaces here
    rather than as a verb in plain text on a screen."""
    knows = viewer is None or viewer in (action.role, REFEREE)
    return _detail(kit, state, action, knows, translate(lang))


def _done(kit: RumbleNationKit, state: RNState, action: Action, knows: bool,
          t: Translate) -> str:
    """A player's recorded action as the log tells it, naming who acted, as the players call
    each other: "Red rolls the three dice", "Red deploys 3 soldiers to Kyo (3+4 and 5)"."""
    args, verb, who = action.args, action.verb, player_name(t, action.role)
    if verb == "roll":
        return t("{player} rolls the three dice").format(player=who)
    if verb == "reroll":
        return t("{player} rerolls all three dice").format(player=who)
    if verb == "deploy":
        return _deploy(kit, state, action.role, args, t, done=True)
    if verb == "tactic":
        return t("{player} plays {play}").format(
            player=who, play=_tactic(kit, state, action.role, args, t))
    if verb == "daimyo" and (knows or action.role in state.daimyo_used):
        return t("{player} plays {play}").format(
            player=who, play=_daimyo_play(kit, state, action.role, args, t))
    if verb == "daimyo":
        return t("{player} uses the daimyo card").format(player=who)
    if verb == "choose_daimyo" and knows:
        return t("{player} takes {card}").format(player=who, card=_card(args["card"], t))
    if verb == "choose_daimyo":
        return t("{player} takes a daimyo card, face down").format(player=who)
    return t("{player}: {action}").format(player=who, action=_plain(action, t))


def said_done(kit: RumbleNationKit, state: RNState, action: Action, viewer: str,
              lang: str = "en") -> str:
    """A recorded action (the game log, the replay's moves) for `viewer` in `lang`: a
    player's action names who acted; chance's and the referee's read as `say` has them. A
    daimyo card is face up once played (8.3): its play is named to everyone."""
    if action.role in (CHANCE, REFEREE) or action.role not in state.players:
        return say(kit, state, action, viewer, lang)
    knows = viewer in (action.role, REFEREE) or action.verb == "daimyo"
    return _done(kit, state, action, knows, translate(lang))


# --- the rules in one line ---------------------------------------------------------------------

def summaries() -> Mapping[str, str]:
    """Rule number -> one line in English (`data/rule_summaries.yaml`)."""
    return rule_summaries(PACKAGE)


def rule_summary(rule: str, lang: str = "en") -> str:
    """Rule `rule` in one line, in `lang`, a rule without its own taking its section's
    (`companion.i18n.rule_summary`); "" when there is none."""
    return said_summary(PACKAGE, rule, lang)
