"""A scripted Shogun game acted out at the table, and how much of it the referee reads back.

`act_out` turns one scripted action into what the players do at the table, at the level of
counts (no pixels): cards' labels read as they are turned, a group of armies put on a claimed
province, armies taken from a province for a battle (the defender's too) or moved to another,
the tower's tray emptied to be thrown again and landing, and then the players putting the table
as the record has it (losses back to the supply, the winner's armies into the province, a
deploy's new armies, the tray cleared of what the rules return). `read_back` runs a whole script
through a `ShogunReferee` and counts, verb by verb, the actions it recovers, asks about on the
tablet, misses, and those nobody shows at the table: the plans and bids, made on the phones
(3.3), never seen by the referee.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from companion.engine.core import (
    Action,
    Alert,
    Event,
    Game,
    Proposal,
    Question,
    Ruling,
    random_playout,
)
from companion.games.shogun.kit import SIDES, ShogunKit
from companion.games.shogun.labels import ACTION_PREFIX, EVENT_PREFIX, SPECIAL_PREFIX
from companion.games.shogun.reader import TRAY
from companion.games.shogun.referee import ShogunReferee, board_of, own_events
from companion.games.shogun.rules import ShogunRules
from companion.games.shogun.rules.state import ShogunState, evolve
from companion.inputs.labels import card_code
from companion.kits import load_kit
from companion.table.acting import Press, Scan, Seen, TableInput
from companion.table.readback import MISSES_KEPT, ReadBack
from companion.table.registry import TableRegistry
from companion.vision.count_tracker import CountDiff, CountSnapshot, normalised

__all__ = ["HIDDEN", "PLAYERS", "SHOWN_LATER", "ReadBack", "act_out", "acted", "read_back",
           "read_back_games", "variant"]

HIDDEN = frozenset({"plan"})
"""Made on the phones, never shown at the table: each player's plan and bid (3.3)."""
PLAYERS = (3, 4, 5)
"""The bench's games go round the player counts."""
SHOWN_LATER = frozenset({"attack", "move", "draw"})
"""Player actions the table shows only with the next action's inputs: armies gone from the
origin alone are a battle for a neutral province or half a move (the tray then lands); a draw
from the deck is the drawn card's label scanned (2.2)."""
TABLE_VERBS = ("claim", "place", "attack", "move", "revolt", "deploy")
"""Choices the players show with cubes on the provinces."""


def act_out(before: ShogunState, action: Action, after: ShogunState, table: CountSnapshot,
            events: Sequence[Event] = ()) -> tuple[list[TableInput], CountSnapshot]:
    """What the players do at the table for `action` (`events`: what it produced), and the
    table once done: the action shown, then the table put as the record has it."""
    shown, settled, table = acted(before, action, after, table, events)
    return [*shown, *settled], table


def acted(before: ShogunState, action: Action, after: ShogunState, table: CountSnapshot,
          events: Sequence[Event] = ()
          ) -> tuple[list[TableInput], list[TableInput], CountSnapshot]:
    """`act_out` in two parts: the inputs that show the action (labels read, cubes moved, the
    tray thrown), and the players then putting the table as the record has it after the
    rules carried out what follows (losses, the winner's armies, the next deploys)."""
    shown: list[TableInput] = [Scan(card_code(c)) for c in _labels(action)]
    now = table
    if action.verb in TABLE_VERBS:
        moved = _fold(before, own_events(events))
        now = _show(shown, now, {**board_of(moved), TRAY: dict(now.counts.get(TRAY, {}))})
    elif action.verb == "tray":
        now = _throw(shown, now, dict(action.args["tray"]))
    settled: list[TableInput] = []
    return shown, settled, _show(settled, now, board_of(after))


def _labels(action: Action) -> list[str]:
    """The labels read for a chance step that turns cards, in the order turned, and for a
    special card taken."""
    args = action.args
    if action.verb in ("deal", "revolts"):
        return [str(c) for c in args["cards" if action.verb == "deal" else "provinces"]]
    if action.verb in ("reveal", "drawn"):
        return [str(args["card"])]
    if action.verb in ("events", "event"):
        cards = args["cards"] if action.verb == "events" else [args["card"]]
        return [f"{EVENT_PREFIX}{c}" for c in cards]
    if action.verb == "lay_out":  # the special cards in their order first (3.2)
        return [*(f"{SPECIAL_PREFIX}{c}" for c in args["specials"]),
                *(f"{ACTION_PREFIX}{c}" for c in args["actions"])]
    if action.verb == "take":  # the special card taken, its label scanned (3.5)
        return [f"{SPECIAL_PREFIX}{args['card']}"]
    if action.verb == "turn_card":
        return [f"{ACTION_PREFIX}{args['card']}"]
    return []


def _fold(state: ShogunState, events: Iterable[Event]) -> ShogunState:
    for event in events:
        state = evolve(state, event)
    return state


def _show(inputs: list[TableInput], table: CountSnapshot, counts: Any) -> CountSnapshot:
    """The table changed to `counts` (a change the camera sees, if any)."""
    now = CountSnapshot(normalised(counts), table.dice)
    if now != table:
        inputs.append(Seen(CountDiff(table, now)))
    return now


def _throw(inputs: list[TableInput], table: CountSnapshot, reading: dict[str, int]
           ) -> CountSnapshot:
    """The tray's cubes thrown again with the battle's (6.1) and the reading landing: taken out
    first when the camera would otherwise see no change; `confirm` for a reading it cannot
    see (an empty tray)."""
    counts = {z: dict(k) for z, k in table.counts.items()}
    leftovers = dict(counts.get(TRAY, {}))
    if leftovers and reading in (leftovers, {}):
        table = _show(inputs, table, {**counts, TRAY: {}})
    table = _show(inputs, table, {**counts, TRAY: reading})
    if not reading:
        inputs.append(Press("confirm"))
    return table


def read_back(script: Iterable[Action], game: Game[ShogunState],
              referee: ShogunReferee) -> ReadBack:
    """Act `script` out from `game`'s position and count what `referee` reads back.

    The referee is asked what the tablet would ask once nothing waits (`decisions`), then
    given the inputs, each judged on the record as it stands: the state before the action
    until the referee has proposed it or asked about it, the state after once it has (the
    tablet's answer). An alert at any point is a miss. The scripted action is applied
    whatever the referee said, so one miss does not hide the rest of the game."""
    table = CountSnapshot(board_of(game.state), ())
    result = ReadBack()
    waited: list[tuple[Action, ShogunState]] = []
    for action in script:
        before = game.state
        events = game.apply(action)
        shown, settled, table = acted(before, action, game.state, table, events)
        if action.verb in HIDDEN:
            result.hidden[action.verb] += 1
            referee.seen = table
            continue
        judged = [*waited, (action, before)]
        said = _said(referee, judged, game.state, shown, settled)
        if not said and action.verb in SHOWN_LATER and not waited:
            waited = judged  # half shown: the table shows the rest with the next action
            continue
        for done, _ in judged:
            _count(result, done, said)
        waited = []
        referee.desync = None
        referee.forget_inputs()
    return result


def _said(referee: ShogunReferee, judged: list[tuple[Action, ShogunState]],
          after: ShogunState, shown: Sequence[TableInput], settled: Sequence[TableInput]
          ) -> list[Ruling]:
    """What the referee says for the inputs of the `judged` actions (one, or one the table
    half showed and the next), as a session would judge them: each input on the record as it
    stands (before an action until the referee proposes it or a question about it is
    answered, after it once it has). A question the table's inputs raised is answered at
    once; one the tablet asked beforehand (`decisions`: stay, draw, a revolt) waits for the
    table to show the choice (`shown`), and is answered if it does not, before the players
    put the table as the record then has it (`settled`). After an answer the session asks
    what is left to ask (`decisions` again)."""
    states = [*(before for _, before in judged), after]
    said: list[Ruling] = []
    named = 0

    def hear(out: Sequence[Ruling], answer: bool = True) -> bool:
        """Whether a question `out` raised for the action awaited is left unanswered."""
        nonlocal named
        said.extend(out)
        while named < len(judged) and _names(judged[named][0], out):
            if not answer and not _proposes(judged[named][0], out):
                return True
            asked = not _proposes(judged[named][0], out)
            named += 1
            if asked:
                out = list(referee.decisions(states[named]))
                said.extend(out)
        return False

    def feed(item: TableInput) -> None:
        state = states[named]
        if isinstance(item, Scan):
            hear(referee.on_card(state, item.code))
        elif isinstance(item, Press):
            hear(referee.on_button(state, item.name))
        else:
            hear(referee.on_diff(state, item.diff))

    waiting = hear(referee.decisions(states[0]), answer=False)
    for item in shown:
        feed(item)
    if waiting and named == 0:
        hear(referee.decisions(states[0]))  # nothing on the table showed it: answered
    for item in settled:
        feed(item)
    return said


def _proposes(action: Action, rulings: Iterable[Ruling]) -> bool:
    return any(isinstance(r, Proposal) and r.action == action for r in rulings)


def _names(action: Action, rulings: Iterable[Ruling]) -> bool:
    return any((isinstance(r, Proposal) and r.action == action) or
               (isinstance(r, Question) and action in r.options) for r in rulings)


def _count(result: ReadBack, action: Action, said: list[Ruling]) -> None:
    """As `ReadBack.count`, but any alert is a miss (the table was in order)."""
    alert = next((r for r in said if isinstance(r, Alert)), None)
    if alert is None:
        result.count(action, said)
        return
    result.missed[action.verb] += 1
    if len(result.first_misses) < MISSES_KEPT:
        result.first_misses.append(f"{action.text()[:120]} -> Alert: {alert.rule} "
                                   f"{alert.message}"[:320])


def variant(n: int) -> dict[str, Any]:
    """The bench's n-th game: 3, 4 and 5 players in turn, each side of the kit in turn."""
    return {"players": PLAYERS[n % len(PLAYERS)], "side": SIDES[n // 3 % len(SIDES)]}


def read_back_games(games: int, seed: int, tick: Callable[[int, int], None] | None = None
                    ) -> dict[str, Any]:
    """Random games (3, 4 and 5 players, both sides) acted out at the table (counts, labels,
    the confirm button) and read back by the referee: how many actions it recovers, asks
    about or misses, and how fast. `tick(done, games)` after each game, outside the timed
    part (a progress bar)."""
    kit = load_kit("shogun")
    assert isinstance(kit, ShogunKit)
    total = ReadBack()
    elapsed = 0.0
    for n in range(games):
        rules = ShogunRules(kit, variant(n))
        played: Game[ShogunState] = Game(rules, seed=seed + n)
        random_playout(played)
        script = [ply.action for ply in played.history]
        referee = ShogunReferee(rules, TableRegistry({}, {}))
        start = time.perf_counter()
        total.add(read_back(script, Game(rules, seed=seed + n), referee))
        elapsed += time.perf_counter() - start
        if tick:
            tick(n + 1, games)
    figures = total.summary()
    figures.update(games=games, recovered_by_verb=dict(total.recovered),
                   hidden_by_verb=dict(total.hidden),
                   ms_per_action=round(1000 * elapsed / max(1, figures["actions"]), 3))
    return figures
