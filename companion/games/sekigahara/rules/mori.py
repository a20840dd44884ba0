"""9.3 Mori Terumoto: cards sacrificed in Ishida's movement phase bring Mori blocks to Osaka."""

from __future__ import annotations

from companion.engine.core import Action, IllegalAction, Sentence
from companion.games.sekigahara.rules.cards import card_list, check_in_hand, discard
from companion.games.sekigahara.rules.context import Batch, Context
from companion.games.sekigahara.rules.locations import update_control
from companion.games.sekigahara.rules.overrun import overrun
from companion.games.sekigahara.rules.state import SekigaharaState

__all__ = ["MORI_SIDE", "OSAKA", "decide_mori", "mori_coming", "mori_order", "mori_to_battle"]

MORI_SIDE = "ishida"
OSAKA = "osaka"


def mori_order(ctx: Context, state: SekigaharaState) -> list[str]:
    """The Mori box's blocks in the order they come out: the Mori leader always last."""
    waiting = state.blocks_at(ctx.mori_box)
    return sorted(waiting, key=lambda b: (ctx.kit.block[b].leader is not None, b))


def mori_coming(ctx: Context, state: SekigaharaState, cards: int) -> list[str]:
    """9.3: the Mōri blocks that `cards` discarded bring to Osaka, one each, in the order they
    come out of the box."""
    return mori_order(ctx, state)[:cards]


def decide_mori(ctx: Context, batch: Batch, action: Action) -> None:
    """One Mori block from the box to Osaka for each card discarded (9.3)."""
    if action.role != MORI_SIDE:
        raise IllegalAction("9.3", "only the Ishida player brings in the Mori")
    cards = card_list(action.args.get("cards"), "9.3")
    waiting = mori_order(ctx, batch.state)
    if not cards:
        raise IllegalAction("9.3", "discard one card for each Mori block to bring in")
    if len(cards) > len(waiting):
        raise IllegalAction("9.3", Sentence("only {count} Mori block(s) wait in the Mori box",
                                            count=len(waiting)))
    check_in_hand(ctx, batch.state, MORI_SIDE, cards, "9.3")
    discard(batch, MORI_SIDE, cards, "mori", "9.3")
    _arrive(ctx, batch, mori_coming(ctx, batch.state, len(cards)), "9.3")


def mori_to_battle(ctx: Context, batch: Batch) -> None:
    """9.3: when Tokugawa attacks Osaka, every block left in the Mori box joins the fight."""
    waiting = mori_order(ctx, batch.state)
    if waiting:
        _arrive(ctx, batch, waiting, "9.3")


def _arrive(ctx: Context, batch: Batch, blocks: list[str], rule: str) -> None:
    batch.emit("MoriArrived", side=MORI_SIDE, to=OSAKA, blocks=blocks, rule=rule)
    overrun(ctx, batch, OSAKA, MORI_SIDE)  # 7.4.1: Mori arrivals can overrun
    update_control(ctx, batch, MORI_SIDE, [OSAKA], [OSAKA])
