"""Chapter 8 combat, starting with the rulebook's combat example, deployment by deployment."""

from __future__ import annotations

import pytest
from sekigahara_helpers import move, placed, set_up

from companion.engine import PUBLIC, Action, IllegalAction

ISHIDA = ["I-mori-leader-1", "I-ukita-2-1", "I-ukita-2-2", "I-uesugi-arq-1", "I-mori-cav-1",
          "I-kobayakawa-3-1", "I-uesugi-3-1"]
TOKUGAWA = ["T-maeda-cav-1", "T-tokugawa-3-1", "T-tokugawa-arq-1", "T-tokugawa-3-2",
            "T-date-2-1", "T-fukushima-2-1"]
ISHIDA_HAND = ["I-ukita-double-1", "I-uesugi-plain-1", "I-mori-special-1", "I-ukita-plain-1",
               "I-mori-plain-1"]
TOKUGAWA_HAND = ["T-maeda-special-1", "T-tokugawa-plain-1", "T-tokugawa-plain-2",
                 "T-tokugawa-plain-3", "T-date-plain-1"]


def example_battle():
    """Seven Ishida blocks march from Iwamura into six Tokugawa blocks at Kiso."""
    where = {b: "iwamura" for b in ISHIDA} | {b: "kiso" for b in TOKUGAWA}
    game = placed(set_up(), where, active="ishida", level="total", clear=True,
                  hands={"ishida": ISHIDA_HAND, "tokugawa": TOKUGAWA_HAND})
    game.apply(move("ishida", "iwamura", {b: ["kiso"] for b in ISHIDA}))
    game.apply(Action("ishida", "end_movement"))
    game.apply(Action("ishida", "declare", {"at": "kiso"}))
    return game


def deploy(game, side, block, card=None, also=None):
    args = {"block": block}
    if card:
        args["card"] = card
    if also:
        args["also"] = also
    return game.apply(Action(side, "deploy", args))


def impact(game):
    track = game.view(PUBLIC)["battle"]["impact"]
    return track["ishida"], track["tokugawa"]


def test_8_the_rulebook_combat_example_deployment_by_deployment():
    game = example_battle()
    battle = game.view(PUBLIC)["battle"]
    assert (battle["attacker"], battle["defender"], battle["initiative"]) == (
        "ishida", "tokugawa", "ishida")  # 8.2.1: the attacker deploys first
    deploy(game, "ishida", "I-mori-leader-1")  # 8.2.4: a leader without a card
    assert impact(game) == (1, 0)
    assert game.view(PUBLIC)["battle"]["initiative"] == "tokugawa"  # 8.5
    deploy(game, "tokugawa", "T-maeda-cav-1", "T-maeda-special-1")  # 8.4.1: 1 + 2 cavalry
    assert impact(game) == (1, 3)
    deploy(game, "ishida", "I-ukita-2-1", "I-ukita-double-1", also="I-ukita-2-2")  # 8.4.2
    assert impact(game) == (6, 3)  # 2, then 2 + 1 for the Ukita block before it
    deploy(game, "tokugawa", "T-tokugawa-3-1", "T-tokugawa-plain-1")
    assert impact(game) == (6, 6)
    assert game.view(PUBLIC)["battle"]["initiative"] == "ishida"  # 8.5: a tie is the defender's
    deploy(game, "ishida", "I-uesugi-arq-1", "I-uesugi-plain-1")  # no sword: no arquebus bonus
    assert impact(game) == (7, 6)
    deploy(game, "tokugawa", "T-tokugawa-arq-1", "T-tokugawa-plain-2")  # 1 + 1 Tokugawa before
    assert impact(game) == (7, 8)
    deploy(game, "ishida", "I-mori-cav-1", "I-mori-special-1")  # 1 + 2 cavalry + 1 Mori before
    assert impact(game) == (11, 8)
    deploy(game, "tokugawa", "T-tokugawa-3-2", "T-tokugawa-plain-3")  # 3 + 2 Tokugawa before
    assert impact(game) == (11, 13)
    with pytest.raises(IllegalAction) as info:  # the remaining cards match no remaining block
        deploy(game, "ishida", "I-kobayakawa-3-1", "I-ukita-plain-1")
    assert info.value.rule == "8.2.2"
    game.apply(Action("ishida", "done"))
    events = game.apply(Action("tokugawa", "done"))
    won = next(e for e in events if e.type == "BattleWon")
    assert won.data["winner"] == "tokugawa"
    assert won.data["losses"] == {"ishida": 2, "tokugawa": 1}  # 8.7.1: 13//7 + 1, 11//7


def test_8_7_2_losses_come_from_deployed_blocks_first_and_attacker_first():
    game = example_battle()
    for side, block, card, also in [
        ("ishida", "I-mori-leader-1", None, None),
        ("tokugawa", "T-maeda-cav-1", "T-maeda-special-1", None),
        ("ishida", "I-ukita-2-1", "I-ukita-double-1", "I-ukita-2-2"),
        ("tokugawa", "T-tokugawa-3-1", "T-tokugawa-plain-1", None),
        ("ishida", "I-uesugi-arq-1", "I-uesugi-plain-1", None),
        ("tokugawa", "T-tokugawa-arq-1", "T-tokugawa-plain-2", None),
        ("ishida", "I-mori-cav-1", "I-mori-special-1", None),
        ("tokugawa", "T-tokugawa-3-2", "T-tokugawa-plain-3", None),
    ]:
        deploy(game, side, block, card, also)
    game.apply(Action("ishida", "done"))
    game.apply(Action("tokugawa", "done"))
    assert game.to_move() == ("ishida",)  # 8.7.2: the attacker takes his losses first
    with pytest.raises(IllegalAction) as info:
        game.apply(Action("ishida", "casualties", {"blocks": ["I-kobayakawa-3-1", "I-ukita-2-1"]}))
    assert info.value.rule == "8.7.2"
    game.apply(Action("ishida", "casualties", {"blocks": ["I-ukita-2-1", "I-uesugi-arq-1"]}))
    game.apply(Action("tokugawa", "casualties", {"blocks": ["T-tokugawa-arq-1"]}))
    public = game.view(PUBLIC)
    eliminated = {e["block"] for e in public["eliminated"]}
    assert eliminated == {"I-ukita-2-1", "I-uesugi-arq-1", "T-tokugawa-arq-1"}  # 8.7.3: public
    retreat = public["battle"]["retreat"]
    assert retreat["to"] == ["iwamura"]  # 8.8.2: back where the attacker came from
    with pytest.raises(IllegalAction) as info:
        game.apply(Action("ishida", "retreat", {"to": "suwa"}))
    assert info.value.rule == "8.8.2"
    game.apply(Action("ishida", "retreat", {"to": "iwamura"}))
    assert set(game.state.blocks_at("iwamura")) == set(ISHIDA) - eliminated
    # 8.2.1: deployed blocks are hidden again
    assert "I-mori-cav-1" not in str(game.view("tokugawa")["locations"])
    # 8.10: each side draws the cards it played, plus one per two blocks lost
    due = {p.side: p.count for p in game.state.pending if p.kind == "cards"}
    assert due == {"ishida": 3 + 2 // 2, "tokugawa": 4 + 1 // 2}  # Ishida's leader: no card
