"""Winter (rule 5): the rice lost by the event card left, one rice per province, revolts from
the supply table in provinces drawn at random, scoring; the second year's reset (5.3) and the
end after the second winter (7)."""

from __future__ import annotations

from companion.engine.core import (
    Action,
    IllegalAction,
    Outcome,
    Ranking,
    Sentence,
    rank,
    refuse_unknown_args,
)
from companion.games.shogun.rules.context import Batch, province_said
from companion.games.shogun.rules.state import ShogunState
from companion.games.shogun.rules.tower import throw_revolt

__all__ = ["MAJORITIES", "begin_winter", "decide_revolt", "decide_revolts", "end_of_winter",
           "fight_revolt", "revolts_due", "scores"]

MAJORITIES = {"castle": 3, "temple": 2, "theatre": 1}
"""5.3: the most castles, temples and Nô theatres in a region."""


def shortfall(state: ShogunState, player: str) -> int:
    """5.1: provinces without a unit of rice."""
    return max(0, len(state.provinces_of(player)) - state.rice[player])


def revolts_due(b: Batch, player: str) -> int:
    """5.2: the supply table's number of revolts, at most one per province card."""
    row = b.kit.supply_row(shortfall(b.state, player))
    return min(row.revolts, len(b.state.provinces_of(player))) if row else 0


def begin_winter(b: Batch) -> None:
    """5.1: every player loses the rice the event card left shows; those short of one rice per
    province face revolts, in the last round's turn order."""
    left = b.state.events_up[0] if b.state.events_up else None
    loss = b.kit.event[left].rice_loss if left else 0
    order = b.state.order or b.state.players
    after = {p: max(0, b.state.rice[p] - loss) for p in order}
    queue = []
    for p in order:
        row = b.kit.supply_row(max(0, len(b.state.provinces_of(p)) - after[p]))
        if row and b.state.provinces_of(p):
            queue.append(p)
    b.emit("RiceLost", card=left, rice=loss, queue=queue)


def decide_revolts(b: Batch, action: Action) -> None:
    """5.2: the left neighbour draws the player's province cards at random, one per revolt."""
    refuse_unknown_args(action.args, ("player", "provinces"), "5.2", "revolts")
    player = b.state.winter_queue[0]
    provinces = action.args.get("provinces")
    due = revolts_due(b, player)
    mine = set(b.state.provinces_of(player))
    if action.args.get("player") != player or not isinstance(provinces, tuple | list) or \
            not all(isinstance(p, str) for p in provinces) or len(provinces) != due or \
            len(set(provinces)) != due or not set(provinces) <= mine:
        raise IllegalAction("5.2", Sentence("{count} of {player}'s province cards are drawn",
                                            count=due, player=player))
    row = b.kit.supply_row(shortfall(b.state, player))
    b.emit("RevoltsDrawn", player=player, provinces=[str(p) for p in provinces],
           farmers=row.farmers if row else 0)


def fight_revolt(b: Batch, player: str, province: str) -> None:
    """5.2 and 6.1: a winter revolt, joined by the supply table's extra farmers."""
    b.emit("RevoltChosen", player=player, province=province)
    throw_revolt(b, player, province, b.state.strength, {"then": "winter"})


def decide_revolt(b: Batch, action: Action) -> None:
    """5.2: a player facing more than one revolt chooses their order."""
    refuse_unknown_args(action.args, ("province",), "5.2", "revolt")
    left = b.state.revolts.get(action.role, ())
    province = action.args.get("province")
    if province not in left:
        raise IllegalAction("5.2", Sentence("{province} is not one of your revolts",
                                            province=province_said(b.kit, b.state, province)))
    fight_revolt(b, action.role, str(province))


def scores(b: Batch) -> dict[str, dict[str, int]]:
    """5.3: 1 per province, 1 per building; the most castles (3), temples (2), Nô theatres
    (1) in each region, tied players each the value less 1."""
    state = b.state
    found = {p: {"provinces": len(state.provinces_of(p)), "buildings": 0, "majorities": 0}
             for p in state.players}
    counts: dict[tuple[str, str], dict[str, int]] = {}
    for province, kinds in state.buildings.items():
        owner = state.owner.get(province)
        if owner is None:
            continue
        region = b.kit.provinces(state.side)[province].region
        for kind in kinds:
            found[owner]["buildings"] += 1
            table = counts.setdefault((region, kind), {})
            table[owner] = table.get(owner, 0) + 1
    for (_, kind), table in sorted(counts.items()):
        best = max(table.values())
        leaders = [p for p, n in table.items() if n == best]
        value = MAJORITIES[kind] - (len(leaders) > 1)
        for p in leaders:
            found[p]["majorities"] += value
    for s in found.values():
        s["total"] = s["provinces"] + s["buildings"] + s["majorities"]
    return found


def end_of_winter(b: Batch) -> None:
    """5.3 and 7: scoring; after the first winter, rice to 0 and revolt markers off (new
    event cards follow); after the second, the most victory points win, ties by chests; the
    players still level share the victory, and the others are ranked the same way."""
    b.emit("Scored", scores=scores(b), year=b.state.year)
    if b.state.year == 1:
        b.emit("YearEnded", year=1)
        return
    state = b.state
    ranking = rank({p: (state.vp[p], state.chests[p]) for p in state.players})
    outcome = Outcome.ranked(_termination(state, ranking), "7", ranking)
    b.emit("GameEnded", termination=outcome.termination, winner=outcome.winner,
           winners=list(outcome.winners), ranking=[list(p) for p in outcome.ranking],
           rule="7")


def _termination(state: ShogunState, ranking: Ranking) -> str:
    """7: won on points, on war chests with points level, or level on both (the players
    level share the victory; all level, a draw)."""
    if len(ranking[0]) > 1:
        return "level on victory points and war chests"
    if len(ranking) > 1 and state.vp[ranking[0][0]] == state.vp[ranking[1][0]]:
        return "war chests, victory points level"
    return "victory points"
