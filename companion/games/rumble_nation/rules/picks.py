"""Rumble Nation's chance steps entered by hand (the tablet alone, no camera reading the tray):
the set-up's shuffles and draws (3, 8) and each roll of the three dice (5.1.1)."""

from __future__ import annotations

from companion.engine.core import Pick, PickField
from companion.games.rumble_nation.kit import RumbleNationKit
from companion.games.rumble_nation.rules.state import RNState
from companion.games.rumble_nation.rules.words import card_name, player_name, region_name
from companion.i18n import translator

__all__ = ["picks"]

FACES = tuple((face, str(face)) for face in range(1, 7))


def picks(kit: RumbleNationKit, state: RNState, players: int, daimyo: bool,
          lang: str = "en") -> list[Pick]:
    """The set-up or the roll due now."""
    t = translator(lang, "companion.games.rumble_nation")
    if state.phase == "setup":
        values = list(kit.components.large_castles)
        castles = PickField(
            "castles", t("Castle value on each region"), tuple((v, str(v)) for v in
                                                                 sorted(set(values))),
            keys=tuple((r, region_name(kit, r)) for r in sorted(kit.neighbours)),
            repeat=len(set(values)) != len(values))
        tactics = PickField("tactics", t("Tactic cards on display"),
                            tuple((c, card_name(c)) for c in kit.components.tactic_cards),
                            count=players + 1)
        fields = [castles, tactics]
        if daimyo:
            fields.append(PickField("daimyo", t("Daimyo cards on offer"),
                                    tuple((c, card_name(c)) for c in
                                          kit.components.daimyo_cards), count=players + 1))
        first = PickField("first", t("First player"), tuple(
            (n, player_name(t, colour)) for n, colour in enumerate(state.players)),
            single=True)
        fields.append(first)
        return [Pick("setup", t("Set up the game"), tuple(fields))]
    player = player_name(t, state.players[state.turn]) if state.players else ""
    return [Pick("dice", t("{player} rolls the three dice").format(player=player),
                 (PickField("values", t("Dice"), FACES, count=3, repeat=True),))]
