"""The chance steps entered by hand (the tablet alone, no camera reading the dice): the roll
for the initiative (I1, C1), the melee dice (H1, I2), the unhorsing (H3.1), surrender (H4.1)
and remount (E1.2) tests."""

from __future__ import annotations

from companion.engine.core import Pick, PickField
from companion.games.barletta.kit import SIDES, BarlettaKit
from companion.games.barletta.rules.combat import defender_rolls
from companion.games.barletta.rules.state import BState
from companion.games.barletta.rules.words import side_name, translate

__all__ = ["picks"]

FACES = tuple((face, str(face)) for face in range(1, 7))


def picks(kit: BarlettaKit, state: BState, lang: str = "en") -> list[Pick]:
    t = translate(lang)
    if state.combat is not None:
        combat = state.combat
        if combat.step == "melee":
            fields = [PickField("attacker", t("The attacker's dice"), FACES, count=2, repeat=True)]
            if defender_rolls(combat):
                fields.append(PickField("defender", t("The defender's dice"), FACES, count=2,
                                        repeat=True))
            return [Pick("melee", t("Roll for the melee"), tuple(fields))]
        knight = combat.tests[0]
        verb = "unhorse" if combat.step == "unhorse" else "surrender"
        title = t("{knight} tests for unhorsing") if verb == "unhorse" else \
            t("{knight} tests for surrender")
        return [Pick(verb, title.format(knight=kit.by_id[knight].name),
                     (PickField("die", t("Die"), FACES, single=True),), {"knight": knight})]
    if state.remounting:
        return [Pick("remount_roll", t("{knight} tries to remount").format(
            knight=kit.by_id[state.remounting].name),
            (PickField("die", t("Die"), FACES, single=True),), {"knight": state.remounting})]
    if state.phase in ("setup", "initiative"):
        return [Pick("initiative", t("Roll for the initiative"), tuple(
            PickField(side, t("Dice of {side}").format(side=side_name(t, side)), FACES,
                      count=2, repeat=True)
            for side in SIDES))]
    return []
