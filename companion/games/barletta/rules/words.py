"""Actions said in a player's words, in English or Italian (`locales/it/words.po`, in the
rulebook's own terms): the tablet's buttons, the game log, the replay, a refusal's `legal`
list. Knights by their names as the rulebook writes them, hexes by their numbers. Nothing is
hidden in this game but the dice not yet rolled, so every viewer is told the same.

The words read an action as the rules do (the dice through `context.dice`, a knight staying
put through `orders.stays_put`, a charge through `combat.defender_rolls`), and an action they
cannot say raises: a wording bug must surface, never turn into a verb in plain text. Whether a
screen shows something else instead is the host's decision."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.core import CHANCE, REFEREE, Action, Sentence
from companion.games.barletta.kit import BarlettaKit
from companion.games.barletta.rules.combat import defender_rolls
from companion.games.barletta.rules.context import dice
from companion.games.barletta.rules.orders import stays_put
from companion.games.barletta.rules.state import CAMP, BState
from companion.i18n import Translate, language, rule_summaries, translator
from companion.i18n import rule_summary as said_summary

__all__ = ["PACKAGE", "rule_summary", "say", "side_name", "side_said", "summaries", "translate"]

PACKAGE = "companion.games.barletta"

TESTS = {"unhorse": "H3.1", "surrender": "H4.1", "remount_roll": "E1.2"}
"""The one-die tests and the rule that rolls each."""


def translate(lang: str) -> Translate:
    return translator(language(lang), PACKAGE)


def side_name(t: Translate, side: str) -> str:
    names = {"italians": t("the Italians"), "french": t("the French")}
    return names.get(side, side)


def side_said(role: str) -> Sentence:
    """A side as a refusal names it, said again in each screen's language ("the Italians",
    "gli Italiani"); the dice for the chance role, "nobody" when no one is waited for."""
    names = {"italians": "the Italians", "french": "the French", CHANCE: "the dice",
             REFEREE: "the referee", "": "nobody"}
    return Sentence(names.get(role, "another side"))


def _knight(kit: BarlettaKit, knight: Any) -> str:
    """A knight by name; a knight the kit lacks is a bug to surface, never an id said raw."""
    return kit.by_id[str(knight)].name


def _place(t: Translate, spot: Any) -> str:
    return t("the camp") if spot == CAMP else str(spot)


def _dice(values: Any, rule: str) -> str:
    """Two dice as the rules read them (`context.dice`): "3+5"."""
    return "+".join(str(v) for v in dice(values, 2, rule))


def _chance(kit: BarlettaKit, state: BState, action: Action, t: Translate) -> str:
    args = action.args
    if action.verb == "initiative":
        return t("Initiative: the Italians roll {italians}, the French {french}").format(
            italians=_dice(args["italians"], "C1"), french=_dice(args["french"], "C1"))
    if action.verb == "melee":
        if state.combat is None:
            raise ValueError("melee dice said with no combat under way")
        if defender_rolls(state.combat):
            return t("Melee: the attacker rolls {attacker}, the defender {defender}").format(
                attacker=_dice(args["attacker"], "H1"), defender=_dice(args["defender"], "H1"))
        return t("Charge: the attacker rolls {attacker}").format(
            attacker=_dice(args["attacker"], "I2"))
    what = {"unhorse": t("{knight} tests for unhorsing: {die}"),
            "surrender": t("{knight} tests for surrender: {die}"),
            "remount_roll": t("{knight} tries to remount: {die}")}[action.verb]
    (die,) = dice((args["die"],), 1, TESTS[action.verb])
    return what.format(knight=_knight(kit, args["knight"]), die=die)


def _move(kit: BarlettaKit, state: BState, action: Action, t: Translate) -> str:
    args = action.args
    knight = _knight(kit, args["knight"])
    to = args["to"]
    if stays_put(state, str(args["knight"]), to):
        said = t("{knight} stays at {hex}").format(knight=knight, hex=_place(t, to))
    else:
        said = t("{knight} moves to {hex}").format(knight=knight, hex=_place(t, to))
    if "attack" in args:
        said = t("{move} and attacks {target}").format(move=said,
                                                      target=_knight(kit, args["attack"]))
    return said


def _detail(kit: BarlettaKit, state: BState, action: Action, t: Translate) -> str:
    args, verb = action.args, action.verb
    if action.role == CHANCE:
        return _chance(kit, state, action, t)
    if verb == "deploy":
        return t("{knight} deploys at {hex}").format(knight=_knight(kit, args["knight"]),
                                                     hex=str(args["hex"]))
    if verb == "charge":
        return t("{knight} charges").format(knight=_knight(kit, args["knight"]))
    if verb == "move":
        return _move(kit, state, action, t)
    simple = {"reorganize": t("{knight}: Reorganization"),
              "command": t("Order points from {knight}"),
              "recover": t("{knight} recovers hits"), "remount": t("{knight} remounts")}
    if verb in simple:
        return simple[verb].format(knight=_knight(kit, args["knight"]))
    return _plain(action, t)


def _plain(action: Action, t: Translate) -> str:
    plain = {"go_first": t("Play first"), "go_second": t("Play second"),
             "pass": t("Pass"), "undo": t("Take back an action"),
             "correct": t("Referee's correction")}
    if action.verb in plain:
        return plain[action.verb]
    if action.role == REFEREE:
        return t("Referee's decision")
    raise ValueError(f"no words for the verb {action.verb!r}")


def say(kit: BarlettaKit, state: BState, action: Action, lang: str = "en") -> str:
    """`action`, taken in `state`, in words in `lang`. An action the words cannot say (a
    knight the kit lacks, dice the rules would refuse, a verb of no phase) raises: a wording
    bug surfaces here rather than as a verb in plain text on a screen."""
    return _detail(kit, state, action, translate(lang))


def summaries() -> Mapping[str, str]:
    """Rule number -> one line in English (`data/rule_summaries.yaml`)."""
    return rule_summaries(PACKAGE)


def rule_summary(rule: str, lang: str = "en") -> str:
    """Rule `rule` in one line, in `lang`, a rule without its own taking its section's
    (`companion.i18n.rule_summary`); "" when there is none."""
    return said_summary(PACKAGE, rule, lang)
