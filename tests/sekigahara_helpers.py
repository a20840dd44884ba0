"""Building Sekigahara positions for tests: real games advanced by real actions, or states
placed by hand (blocks where a test needs them) and then played on with real actions."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from companion.engine import CHANCE, Action, Game
from companion.games.sekigahara.rules import SekigaharaRules
from companion.games.sekigahara.rules.locations import castle_controller
from companion.games.sekigahara.rules.state import BAG, Hand, MovementPhase, frozen_map
from companion.kits import load_kit

KIT = load_kit("sekigahara")
SIDES = ("ishida", "tokugawa")


def rules(knowledge: str = "full", edition: str = "2016") -> SekigaharaRules:
    return SekigaharaRules(KIT, {"knowledge": knowledge, "edition": edition})


def set_up(knowledge: str = "full", seed: int = 1, edition: str = "2016") -> Game:
    """A game whose set-up draws (5.2.2, 5.2.3, 5.1) chance has made: week 1, bid phase."""
    game = Game(rules(knowledge, edition), seed=seed)
    while CHANCE in game.to_move():
        game.play_chance()
    return game


def bid_and_choose(game: Game, first: str = "ishida") -> None:
    """Both sides bid their first card (full mode) and the winner lets `first` move first."""
    for side in SIDES:
        card = sorted(game.view(side)["cards"][side]["cards"])[0]
        game.apply(Action(side, "bid", {"card": card}))
    winner = game.to_move()[0]
    game.apply(Action(winner, "choose_first", {"first": first}))


def block(side: str, clan: str, face: str, n: int = 1) -> str:
    """`block("ishida", "mori", "3", 2)` -> the id `I-mori-3-2`."""
    return f"{side[0].upper()}-{clan}-{face}-{n}"


def bag_blocks(side: str, count: int, clan: str | None = None) -> list[str]:
    """Ids of `count` of a side's bag blocks (of one clan if given), for placing by hand."""
    found = [b.id for b in KIT.blocks if b.side == side and b.setup is None
             and (clan is None or b.clan == clan)]
    return found[:count]


def placed(game: Game, where: Mapping[str, str], *, active: str = "ishida",
           level: str | None = None, hands: Mapping[str, list[str]] | None = None,
           clear: bool = False) -> Game:
    """A game in `active`'s movement phase with blocks placed by hand.

    `where` moves blocks (block -> location or box); `clear` first sends every block on the map
    and in the boxes back to its bag, so only the named blocks stand anywhere. Castle control
    is recomputed (4.3). `hands` replaces full-mode hands.
    """
    state = game.state
    positions = dict(state.positions)
    if clear:
        positions = {b: BAG for b in positions}
    positions.update(where)
    state = replace(state, positions=frozen_map(positions), phase="movement", active=active,
                    first=active, movement=MovementPhase(level=level), pending=(),
                    revealed=frozenset())
    ctx = game.rules.ctx
    castles = {loc: castle_controller(ctx, state, loc) for loc in ctx.castle}
    state = replace(state, castles=frozen_map(castles))
    if hands is not None:
        new = {side: Hand(len(cards), frozenset(cards), frozenset())
               for side, cards in hands.items()}
        state = replace(state, hands=frozen_map({**state.hands, **new}))
    fresh = Game(game.rules, seed=game.seed)
    fresh._state = state  # a hand-built position: the tests' only way in, never the product's
    return fresh


def cards_of(side: str, clan: str | None = None, kind: str | None = None) -> list[str]:
    return [c.id for c in KIT.cards if c.side == side
            and (clan is None or c.clan == clan) and (kind is None or c.kind == kind)]


def move(side: str, source: str, paths: Mapping[str, list[str]], **extra: object) -> Action:
    return Action(side, "move", {"from": source, "paths": dict(paths), **extra})


def event_types(events) -> list[str]:
    return [e.type for e in events]
