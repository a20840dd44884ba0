"""7.3.3 Forced marches: a card discarded for +1 location, for one group of a move.

"Ein Gewaltmarsch bezieht sich auf eine Gruppe von Blöcken, die ihre Bewegung zusammen beginnen,
durchführen und beenden. Für jeden Block kann zu jedem Zeitpunkt immer nur ein Gewaltmarsch auf
einmal gelten." A forced march covers a group that starts, moves and ends together, and a block
carries one forced march at most. Nothing limits a move to one forced march: when a stack splits,
each part may force-march with its own card. A move names them in one of two ways:

    forced_march: CARD, marching?: [blocks]      one march (all the move's blocks by default)
    forced_marches: {CARD: [blocks], ...}        one march per card, each for its own group
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from companion.engine.core import Action, IllegalAction, Sentence
from companion.games.sekigahara.rules.names import listed

__all__ = ["Marches", "check_marches", "marching_blocks", "read_marches"]

Marches = Mapping[str, frozenset[str]]
"""Card -> the blocks whose forced march it pays for."""

RULE = "7.3.3"


def read_marches(action: Action, paths: Mapping[str, object]) -> dict[str, frozenset[str]]:
    """The forced marches an action names, card by card; IllegalAction if malformed."""
    single, several = action.args.get("forced_march"), action.args.get("forced_marches")
    if several is not None:
        if single is not None or action.args.get("marching") is not None:
            raise IllegalAction(RULE, "name the forced marches one way: either forced_marches "
                                "{card: blocks}, or forced_march with the marching blocks")
        marches = _read_several(several)
    elif single:
        marches = {str(single): frozenset(action.args.get("marching") or paths)}
    else:
        return {}
    for blocks in marches.values():
        if not blocks <= set(paths):
            raise IllegalAction(RULE, "a forced march covers blocks of this move only")
    return marches


def _read_several(several: object) -> dict[str, frozenset[str]]:
    if not isinstance(several, Mapping) or not several:
        raise IllegalAction(RULE, "forced_marches maps each card discarded to the blocks of "
                            "the group it speeds up")
    marches: dict[str, frozenset[str]] = {}
    for card, blocks in several.items():
        if not isinstance(blocks, tuple) or not blocks \
                or not all(isinstance(b, str) for b in blocks):
            raise IllegalAction(RULE, Sentence("name the blocks that force-march with {card}, "
                                               "got {blocks!r}", card=card, blocks=blocks))
        marches[str(card)] = frozenset(blocks)
    return marches


def check_marches(paths: Mapping[str, tuple[str, ...]], marches: Marches,
                  block: Callable[[str], str] = str, card: Callable[[str], str] = str) -> None:
    """Each march is one group (the same path for all its blocks); no block marches twice;
    two marches are two groups, not one group paid for twice. `block` and `card` name a block
    and a card in the refusal as players know them ("Ukita 2", "Ukita card")."""
    carrying: dict[str, str] = {}
    groups: dict[tuple[str, ...], str] = {}
    for this in sorted(marches):
        blocks = marches[this]
        twice = sorted(b for b in blocks if b in carrying)
        if twice:
            raise IllegalAction(RULE, Sentence(
                "{blocks} would force-march with both the {card} and the {other}: a block "
                "carries one forced march at a time", blocks=listed([block(b) for b in twice]),
                card=card(carrying[twice[0]]), other=card(this)))
        carrying.update(dict.fromkeys(blocks, this))
        ways = {paths[b] for b in blocks}
        if len(ways) != 1:
            raise IllegalAction(RULE, Sentence(
                "a forced march moves one group that starts, moves and ends together: the "
                "blocks marching with the {card} ({blocks}) need the same path", card=card(this),
                blocks=listed([block(b) for b in sorted(blocks)])))
        way = ways.pop()
        if way in groups:
            raise IllegalAction(RULE, Sentence(
                "the blocks marching with the {card} and with the {other} start, move and end "
                "together: they are one group, and one forced march covers it",
                card=card(groups[way]), other=card(this)))
        groups[way] = this


def marching_blocks(marches: Marches) -> frozenset[str]:
    """Every block that gets the forced march's +1."""
    return frozenset().union(*marches.values()) if marches else frozenset()
