"""The batch of events one action produces, folded as it goes (the engine core's `Batch`),
with what the rules need at hand: the kit and whether the daimyo rules (8) are in play."""

from __future__ import annotations

from companion.engine import core
from companion.games.rumble_nation.kit import RumbleNationKit
from companion.games.rumble_nation.rules.state import RNState, evolve

__all__ = ["Batch", "deployable", "soldiers_for"]


def soldiers_for(die: int) -> int:
    """5.1.1: the single die deploys 1 soldier on 1-2, 2 on 3-4, 3 on 5-6."""
    return (die + 1) // 2


def deployable(state: RNState, player: str, die: int) -> int:
    """How many units the single die deploys: fewer only when the reserve runs short (5.1.1),
    the daimyo counting as a soldier while in the reserve (8)."""
    return min(soldiers_for(die), state.reserve.get(player, 0)
               + (player in state.daimyo_in_reserve))


class Batch(core.Batch[RNState]):
    """Rumble Nation's events for one action, with the kit and the options they depend on."""

    def __init__(self, kit: RumbleNationKit, state: RNState, daimyo: bool = False,
                 checking: bool = False) -> None:
        super().__init__(state, evolve)
        self.kit = kit
        self.daimyo = daimyo
        """Whether the advanced rules are in play (the `daimyo` option, 8)."""
        self.checking = checking
        """Only whether the action is accepted is wanted (`Rules.accepts`)."""

    def active(self) -> str:
        """The player whose turn it is (deployment) or who chooses a daimyo card (8)."""
        return self.state.players[self.state.turn]
