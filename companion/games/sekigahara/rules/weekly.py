"""6 The weekly cycle: reinforcements (6.2), the bid for turn order (6.3), turns A and B (6.4).

`advance` is the engine's clock: after every accepted action it moves the game on through
everything that needs no decision (a phase with nothing to do, the next turn, the next week)
and stops where somebody, or chance, must act.
"""

from __future__ import annotations

from companion.engine.core import Action, IllegalAction, Sentence
from companion.games.sekigahara.kit import SIDES
from companion.games.sekigahara.rules.aftermath import resolve, settle
from companion.games.sekigahara.rules.battle import initiative
from companion.games.sekigahara.rules.cards import card_list, check_in_hand, discard, draw
from companion.games.sekigahara.rules.combat import battles_due, start_fight
from companion.games.sekigahara.rules.context import Batch, Context, other
from companion.games.sekigahara.rules.locations import count_control
from companion.games.sekigahara.rules.names import side_name
from companion.games.sekigahara.rules.state import BAG, Pending
from companion.games.sekigahara.rules.victory import end_of_game

__all__ = [
    "CARDS_PER_WEEK", "advance", "decide_bid", "decide_choose_first",
    "decide_discard", "reinforcements",
]

CARDS_PER_WEEK = 5  # 6.2


def reinforcements(ctx: Context, batch: Batch) -> dict[str, dict[str, object]]:
    """What each side discards and draws this week, with the reasons (6.2), for the tablet."""
    state = batch.state
    castles = count_control(ctx, state, "castles")
    resources = count_control(ctx, state, "resources")
    track = ctx.kit.tracks.reinforcements_per_week[state.week]
    most_castles = _most(castles, ties_to_all=False)
    most_resources = _most(resources, ties_to_all=True)
    castle_text = f"castles {castles['ishida']} ishida vs {castles['tokugawa']} tokugawa"
    resource_text = (f"resources {resources['ishida']} ishida vs "
                     f"{resources['tokugawa']} tokugawa")
    plan: dict[str, dict[str, object]] = {}
    for side in SIDES:
        bonus_card = side in most_castles
        bonus_block = side in most_resources
        plan[side] = {
            "discard": state.week_discards.get(side, state.hands[side].count // 2),
            "cards": CARDS_PER_WEEK + bonus_card,
            "cards_why": f"5{' + 1 for most castles' if bonus_card else ''} ({castle_text})",
            "blocks": track + bonus_block,
            "blocks_why": (f"{track} from the track for week {state.week}"
                           f"{' + 1 for most resource locations' if bonus_block else ''} "
                           f"({resource_text})"),
        }
    return plan


def _most(counts: dict[str, int], *, ties_to_all: bool) -> set[str]:
    """6.2: the most castles gives a card to nobody on a tie; the most resources to both."""
    best = max(counts.values())
    leaders = {side for side, n in counts.items() if n == best}
    return leaders if len(leaders) == 1 or ties_to_all else set()


# --- actions ---------------------------------------------------------------------------------


def decide_discard(ctx: Context, batch: Batch, action: Action) -> None:
    """6.2: discard half the hand, rounded down."""
    side = action.role
    owed = batch.state.owed_discards.get(side, 0)
    cards = card_list(action.args.get("cards"), "6.2")
    if len(cards) != owed:
        raise IllegalAction("6.2", Sentence(
            "{side} must discard {owed} card(s) (half of {held}, rounded down), not {count}",
            side=side_name(side), owed=owed, held=batch.state.hands[side].count,
            count=len(cards)))
    check_in_hand(ctx, batch.state, side, cards, "6.2")
    discard(batch, side, cards, "reinforcements", "6.2")


def decide_bid(ctx: Context, batch: Batch, action: Action) -> None:
    """6.3: each side bids one card face down; both are revealed together."""
    side = action.role
    cards = card_list(action.args.get("card"), "6.3")
    if len(cards) != 1:
        raise IllegalAction("6.3", "a bid is exactly one card")
    check_in_hand(ctx, batch.state, side, cards, "6.3")
    batch.emit("BidPlaced", side=side, card=cards[0], rule="6.3")
    _reveal_bids_if_all_in(ctx, batch)


def _bidders(batch: Batch) -> list[str]:
    """Sides able to bid: a side with no card at all cannot (and so loses the bid)."""
    return [side for side in SIDES if batch.state.hands[side].count > 0]


def _reveal_bids_if_all_in(ctx: Context, batch: Batch) -> None:
    bids = dict(batch.state.bids)
    if set(bids) < set(_bidders(batch)):
        return
    value = {side: ctx.kit.card[card].bid for side, card in bids.items()}
    winner = max(value, key=lambda side: value[side]) if value else SIDES[0]
    batch.emit("BidsRevealed", bids=bids, values=value, winner=winner, rule="6.3")
    for side, card in bids.items():
        discard(batch, side, [card], "bid", "6.3")


def decide_choose_first(ctx: Context, batch: Batch, action: Action) -> None:
    """6.3: the bid's winner decides who moves first in both turns of the week."""
    first = action.args.get("first")
    if first not in SIDES:
        raise IllegalAction("6.3", Sentence("choose Ishida or Tokugawa to move first"))
    batch.emit("FirstPlayerChosen", first=first, by=action.role, rule="6.3")
    batch.emit("PhaseBegan", phase="movement", turn="A", active=first, second_half=False,
               rule="6.4")


# --- the clock -------------------------------------------------------------------------------


def advance(ctx: Context, batch: Batch) -> None:
    """Move the game on until a player or chance must act."""
    while batch.state.outcome is None and not batch.state.pending:
        if not _step(ctx, batch):
            return


def _step(ctx: Context, batch: Batch) -> bool:
    """One automatic step; False when the game waits for someone."""
    state = batch.state
    if state.phase == "setup":
        batch.emit("PhaseBegan", phase="bid", week=1, rule="6.2")  # no reinforcements in week 1
        return True
    if state.phase == "reinforcements":
        if any(state.owed_discards.values()):
            return False
        _draw_reinforcements(ctx, batch)
        batch.emit("PhaseBegan", phase="bid", rule="6.3")
        return True
    if state.phase == "bid" and not _bidders(batch):
        _reveal_bids_if_all_in(ctx, batch)
    if state.phase == "bid" and state.bid_winner is not None and not state.bids:
        batch.emit("PhaseBegan", phase="first_player", active=state.bid_winner, rule="6.3")
        return True
    if state.phase == "combat":
        return _end_of_combat_phase(ctx, batch)
    return False


def _draw_reinforcements(ctx: Context, batch: Batch) -> None:
    plan = reinforcements(ctx, batch)
    for side in SIDES:
        draw(ctx, batch, side, int(str(plan[side]["cards"])), "reinforcements")
    blocks = [Pending("blocks", side, min(int(str(plan[side]["blocks"])),
                                          len(batch.state.blocks_at(BAG, side, ctx.owner))),
                      to=ctx.recruitment_box[side], reason="reinforcements").to_json()
              for side in SIDES]
    batch.emit("DrawsDue", draws=[d for d in blocks if d["count"]], rule="6.2")


def _end_of_combat_phase(ctx: Context, batch: Batch) -> bool:
    """With no battle left to fight, hand over to the next phase, turn or week (6.4)."""
    state = batch.state
    if state.battle is not None:
        return _battle_step(ctx, batch)
    if state.castle_choice is not None:
        return False
    if state.follow_up is not None:
        at, attacker, came = state.follow_up  # 8.8.5: a retreat's battle comes at once
        start_fight(ctx, batch, at, attacker, came)
        return True
    if battles_due(ctx, state):
        return False
    assert state.first is not None
    if not state.second_half:
        batch.emit("PhaseBegan", phase="movement", active=other(state.first), second_half=True,
                   rule="6.4")
    elif state.turn == "A":
        batch.emit("PhaseBegan", phase="movement", turn="B", active=state.first,
                   second_half=False, rule="6.4")
    elif state.week < ctx.kit.tracks.weeks:
        start_week(ctx, batch, state.week + 1)
    else:
        end_of_game(ctx, batch)
    return True


def _battle_step(ctx: Context, batch: Batch) -> bool:
    battle = batch.state.battle
    assert battle is not None
    if battle.stage == "deploy":
        if battle.challenge is None and initiative(battle) is None:
            resolve(ctx, batch)
            return True
        return False
    return settle(ctx, batch)


def start_week(ctx: Context, batch: Batch, week: int) -> None:
    """6.1: a new week opens with its reinforcement phase."""
    discards = {side: batch.state.hands[side].count // 2 for side in SIDES}
    batch.emit("PhaseBegan", phase="reinforcements", week=week, turn="A", active=None,
               second_half=False, discards=discards, rule="6.2")
    batch.emit("ReinforcementsDue", week=week, plan=reinforcements(ctx, batch), rule="6.2")
