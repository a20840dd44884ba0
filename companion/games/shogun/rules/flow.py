"""What happens by itself between decisions (3.6, 5): after every action, the game goes on
until somebody (a player, or chance) must decide: the bids revealed once the event is drawn,
each action carried out in card and turn order, the round's end, winter's steps, the end."""

from __future__ import annotations

from companion.games.shogun.rules.actions import pass_turn, start_action
from companion.games.shogun.rules.context import Batch
from companion.games.shogun.rules.round import reveal_bids
from companion.games.shogun.rules.setup import end_claims
from companion.games.shogun.rules.winter import begin_winter, end_of_winter, fight_revolt

__all__ = ["advance", "cards_due"]


def cards_due(step: int) -> int:
    """3.6: 5 action cards are face up at first; one more after each action is done."""
    return min(10, 5 + step)


def advance(b: Batch) -> None:
    """Carry on until a decision is due."""
    while not b.ended() and b.state.pending is None and _step(b):
        pass


def _step(b: Batch) -> bool:
    """One automatic step; False when the game waits for a decision."""
    state = b.state
    phase = state.phase
    if phase == "claim":
        if any(state.groups.values()):
            return False
        end_claims(b)
    elif phase == "event":
        if state.event is None or state.bids_shown:
            return False
        reveal_bids(b)
    elif phase == "actions":
        if state.step >= 10:
            b.emit("RoundEnded", year=state.year, season=state.season, event=state.event)
        elif len(state.row) < cards_due(state.step):
            return False
        else:
            start_action(b, state.order[state.turn], state.row[state.step])
            if b.state.pending is None:
                pass_turn(b)
    elif phase == "winter":
        begin_winter(b)
    elif phase == "revolts":
        if not state.winter_queue:
            end_of_winter(b)
            return True
        player = state.winter_queue[0]
        left = state.revolts.get(player)
        if left is None or len(left) != 1:
            return False
        fight_revolt(b, player, left[0])
    else:
        return False
    return True
