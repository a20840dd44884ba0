"""What a side may not see in Sekigahara, from the rules (the `secrets` capability): the
other side's blocks standing face down (3.2: blocks are hidden from the opponent until revealed
in battle, eliminated or in the Mori box), the cards it holds (3.3), and the bid card it has
put face down until the bids are revealed (6.3). The leak sweeps of the web and the broadcast
look for these ids in everything a side or the public may see."""

from __future__ import annotations

from companion.games.sekigahara.rules import SekigaharaRules
from companion.games.sekigahara.rules.state import SekigaharaState

__all__ = ["secrets"]


def secrets(rules: SekigaharaRules, state: SekigaharaState, role: str) -> set[str]:
    """The ids `role` may not see now (`public`: every side's)."""
    ctx = rules.ctx
    shown = set(state.revealed) | set(state.blocks_at("eliminated")) \
        | set(state.blocks_at(ctx.mori_box))
    blocks = {b for b, side in ctx.owner.items() if side != role and b not in shown}
    cards = {c for side, hand in state.hands.items() if side != role
             for c in (hand.cards or ())}
    bids = {card for side, card in state.bids.items() if side != role}
    return blocks | cards | bids
