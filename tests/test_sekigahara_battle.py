"""Sekigahara combat rule by rule: chapter 8 (battles, loyalty, losses, retreats, sieges, card
draws) and the special rules of chapter 9 and 2.1 that act in combat.

The rulebook is shared/seeds/sekigahara-rules-de-2016-yucata.txt (2016, the authority),
cross-checked with the Italian 2011 text. Positions are placed by hand (`placed`): the active
side's blocks march in (or both sides already stand together), combat is declared and the fight
is played on with real actions. Full-knowledge mode unless a test says table mode.
"""

from __future__ import annotations

import pytest
from helpers import refused
from sekigahara_helpers import move, placed, set_up

from companion.engine import CHANCE, PUBLIC, Action, IllegalAction

ISH, TOK = "ishida", "tokugawa"
BASE = {"full": set_up(), "table": set_up("table")}
HIDEYORI, SANADA = "toyotomi_hideyori", "sanada_masayuki"


def start(attackers, defenders, *, at="kiso", came=None, side=ISH, hands=None, others=None,
          knowledge="full", declare=True):
    """`side`'s attackers march from `came` (or stand already) at `at` with the defenders."""
    where = {**dict.fromkeys(attackers, came or at), **dict.fromkeys(defenders, at),
             **(others or {})}
    if knowledge == "full":
        hands = {ISH: [], TOK: [], **(hands or {})}
    game = placed(BASE[knowledge], where, active=side, level="total", clear=True, hands=hands)
    if came:
        game.apply(move(side, came, {b: [at] for b in attackers}))
    game.apply(Action(side, "end_movement"))
    if declare:
        game.apply(Action(side, "declare", {"at": at}))
    return game


def siege(inside, besiegers, cards, at="gifu"):
    """Tokugawa attacks Ishida's castle `at`; Ishida stays inside (8.9.2)."""
    game = start(besiegers, inside, side=TOK, at=at, hands={TOK: cards, ISH: ["I-loyalty-1"]})
    act(game, ISH, "castle", inside=True)
    return game


def act(game, side, verb, **args):
    return game.apply(Action(side, verb, args))


def deploy(game, side, block, card=None, also=None):
    args = {"block": block, **({"card": card} if card else {}), **({"also": also} if also else {})}
    return game.apply(Action(side, "deploy", args))


def impact(game):
    track = game.view(PUBLIC)["battle"]["impact"]
    return track[ISH], track[TOK]


def deployed(game):
    """Each deployed block: the side it counts for now (8.6) and its impact."""
    return {d.block: (d.side, d.impact) for d in game.state.battle.deployments}


def found(events, kind):
    return next(e for e in events if e.type == kind)


def due(game):
    return {p.side: p.count for p in game.state.pending if p.kind == "cards"}


def draw_cards(game):
    while CHANCE in game.to_move():
        game.play_chance()


# --- 8.1 declaring combat ------------------------------------------------------------------


def test_8_1_combat_is_declared_only_where_both_sides_stand():
    game = start(["I-ukita-2-1"], ["T-date-2-1"], came="iwamura", declare=False)
    assert game.view(PUBLIC)["battles_due"] == ["kiso"]
    refused(game, Action(ISH, "declare", {"at": "suwa"}), "8.1")
    refused(game, Action(ISH, "declare", {"at": "iwamura"}), "8.1")
    act(game, ISH, "declare", at="kiso")
    assert game.view(PUBLIC)["battle"]["at"] == "kiso"
    # the fight in progress comes first
    refused(game, Action(ISH, "declare", {"at": "kiso"}), "8.1")


def test_8_1_each_location_is_fought_once_and_the_phase_ends_after_the_last():
    game = start(["T-date-2-1"], ["I-ukita-2-1"], side=TOK, at="gifu", came="kiyosu",
                 others={"T-maeda-2-1": "kiso", "I-mori-2-1": "kiso"}, declare=False)
    act(game, TOK, "declare", at="gifu")
    act(game, ISH, "castle", inside=True)
    act(game, TOK, "done")  # a siege without impact: both sides stay at Gifu (8.9.4 E)
    assert game.view(PUBLIC)["battles_due"] == ["kiso"]
    refused(game, Action(TOK, "declare", {"at": "gifu"}), "8.1")
    act(game, TOK, "declare", at="kiso")
    act(game, TOK, "done")
    act(game, ISH, "done")  # the tie is the defender's: Tokugawa's only block falls
    assert (game.state.phase, game.state.active) == ("movement", ISH)
    assert game.state.blocks_at("gifu") == ["I-ukita-2-1", "T-date-2-1"]


# --- 8.2.2, 9.4, 9.5 cards and blocks --------------------------------------------------------


def test_8_2_2_a_card_deploys_only_a_block_of_its_mon_and_loyalty_cards_deploy_nothing():
    game = start(["I-ukita-2-1", "I-mori-2-1"], ["T-date-2-1"],
                 hands={ISH: ["I-mori-plain-1", "I-loyalty-1"]})
    refused(game, Action(ISH, "deploy", {"block": "I-ukita-2-1", "card": "I-mori-plain-1"}),
            "8.2.2")
    refused(game, Action(ISH, "deploy", {"block": "I-mori-2-1", "card": "I-loyalty-1"}), "8.2.2")
    deploy(game, ISH, "I-mori-2-1", "I-mori-plain-1")
    assert impact(game) == (2, 0)


def test_9_5_9_4_any_card_but_loyalty_deploys_ishida_mitsunari_and_ii():
    game = start(["I-ishida-leader-1"], ["T-ii-4-1"],
                 hands={ISH: ["I-loyalty-1", "I-kobayakawa-plain-1"],
                        TOK: ["T-loyalty-1", "T-date-special-1"]})
    refused(game, Action(ISH, "deploy", {"block": "I-ishida-leader-1", "card": "I-loyalty-1"}),
            "8.2.2")
    deploy(game, ISH, "I-ishida-leader-1", "I-kobayakawa-plain-1")
    refused(game, Action(TOK, "deploy", {"block": "T-ii-4-1", "card": "T-loyalty-1"}), "8.2.2")
    deploy(game, TOK, "T-ii-4-1", "T-date-special-1")  # a sword, but Ii has no special symbol
    assert impact(game) == (1, 4)


def test_8_2_2_no_card_is_played_twice_and_no_block_deployed_twice():
    game = start(["I-ukita-2-1", "I-ukita-2-2"], ["T-date-2-1"], knowledge="table")
    deploy(game, ISH, "I-ukita-2-1", "I-ukita-plain-1")
    act(game, TOK, "done")
    refused(game, Action(ISH, "deploy", {"block": "I-ukita-2-2", "card": "I-ukita-plain-1"}),
            "8.2.2")
    refused(game, Action(ISH, "deploy", {"block": "I-ukita-2-1", "card": "I-ukita-plain-2"}),
            "8.2.2")
    deploy(game, ISH, "I-ukita-2-2", "I-ukita-plain-2")
    assert impact(game) == (5, 0)


# --- 8.2.4 leaders without a card -------------------------------------------------------------


def test_8_2_4_leaders_deploy_without_a_card_only_before_the_sides_first_card():
    game = start(["I-ukita-leader-1", "I-ukita-2-1", "I-kobayakawa-leader-1"], ["T-date-2-1"],
                 hands={ISH: ["I-ukita-plain-1"]})
    refused(game, Action(ISH, "deploy", {"block": "I-ukita-2-1"}), "8.2.2")  # not a leader
    deploy(game, ISH, "I-ukita-leader-1")
    act(game, TOK, "done")
    deploy(game, ISH, "I-ukita-2-1", "I-ukita-plain-1")
    refused(game, Action(ISH, "deploy", {"block": "I-kobayakawa-leader-1"}), "8.2.4")
    assert impact(game) == (4, 0)  # 1, then 2 + 1 for the Ukita leader (8.3.3)


def test_8_2_4_the_opponents_card_deployments_do_not_end_a_sides_cardless_leaders():
    game = start(["I-ukita-2-1"], ["T-date-leader-1", "T-date-2-1"],
                 hands={ISH: ["I-ukita-plain-1"]})
    deploy(game, ISH, "I-ukita-2-1", "I-ukita-plain-1")
    deploy(game, TOK, "T-date-leader-1")
    assert impact(game) == (2, 1)


def test_8_2_4_a_leader_deployed_without_a_card_cannot_be_challenged():
    game = start(["I-ukita-leader-1", "I-kobayakawa-leader-1"], ["T-date-2-1"],
                 hands={ISH: ["I-kobayakawa-plain-1"], TOK: ["T-loyalty-1"]})
    deploy(game, ISH, "I-ukita-leader-1")
    refused(game, Action(TOK, "challenge", {"card": "T-loyalty-1"}), "8.2.4")
    act(game, TOK, "done")
    deploy(game, ISH, "I-kobayakawa-leader-1", "I-kobayakawa-plain-1")  # with a card: it can be
    act(game, TOK, "challenge", card="T-loyalty-1")
    act(game, ISH, "defect")
    assert deployed(game)["I-kobayakawa-leader-1"] == (TOK, 1)


# --- 8.3, 8.4 impact, special attacks, double cards ------------------------------------------


def test_8_3_3_one_more_impact_per_block_of_the_same_daimyo_already_deployed():
    game = start(["I-ukita-2-1", "I-kobayakawa-2-1", "I-ukita-2-2", "I-ukita-3-1"],
                 ["T-date-2-1"], hands={ISH: ["I-ukita-plain-1", "I-kobayakawa-plain-1",
                                            "I-ukita-plain-2", "I-ukita-plain-3"]})
    deploy(game, ISH, "I-ukita-2-1", "I-ukita-plain-1")
    act(game, TOK, "done")
    deploy(game, ISH, "I-kobayakawa-2-1", "I-kobayakawa-plain-1")
    deploy(game, ISH, "I-ukita-2-2", "I-ukita-plain-2")
    deploy(game, ISH, "I-ukita-3-1", "I-ukita-plain-3")
    assert deployed(game) == {"I-ukita-2-1": (ISH, 2), "I-kobayakawa-2-1": (ISH, 2),
                              "I-ukita-2-2": (ISH, 3), "I-ukita-3-1": (ISH, 5)}


def test_8_4_1_a_sword_card_adds_2_and_2_more_per_same_type_block_already_deployed():
    blocks = ["I-mori-cav-1", "I-ukita-cav-1", "I-mori-cav-2", "I-mori-arq-1", "I-ukita-cav-2"]
    cards = ["I-mori-special-1", "I-ukita-special-1", "I-mori-plain-1", "I-mori-special-2",
             "I-ukita-special-2"]
    game = start(blocks, ["T-date-2-1"], hands={ISH: cards})
    for block, card in zip(blocks, cards, strict=True):
        deploy(game, ISH, block, card)
        if block == blocks[0]:
            act(game, TOK, "done")
    assert deployed(game) == {
        "I-mori-cav-1": (ISH, 1 + 2),
        "I-ukita-cav-1": (ISH, 1 + 2 + 2),  # one cavalry block before
        "I-mori-cav-2": (ISH, 1 + 1),  # no sword card: no cavalry attack; one Mori before
        "I-mori-arq-1": (ISH, 1 + 2 + 2),  # two Mori before, the first arquebus
        "I-ukita-cav-2": (ISH, 1 + 1 + 2 + 3 * 2),  # one Ukita, three cavalry before
    }


def test_8_4_2_a_double_card_deploys_two_blocks_of_its_mon_the_second_with_1_more():
    game = start(["I-ukita-cav-1", "I-ukita-cav-2", "I-mori-2-1"], ["T-date-2-1"],
                 hands={ISH: ["I-ukita-double-1", "I-ukita-special-1"]})
    refused(game, Action(ISH, "deploy", {"block": "I-ukita-cav-1", "card": "I-ukita-double-1",
                                          "also": "I-mori-2-1"}), "8.4.2")
    refused(game, Action(ISH, "deploy", {"block": "I-ukita-cav-1", "card": "I-ukita-special-1",
                                          "also": "I-ukita-cav-2"}), "8.4.2")
    deploy(game, ISH, "I-ukita-cav-1", "I-ukita-double-1", also="I-ukita-cav-2")
    assert deployed(game) == {"I-ukita-cav-1": (ISH, 1), "I-ukita-cav-2": (ISH, 2)}  # no attack


def test_8_4_2_a_double_card_on_ishida_or_ii_deploys_only_that_block():
    game = start(["I-ishida-leader-1", "I-ukita-2-1"], ["T-ii-4-1", "T-tokugawa-3-1"],
                 hands={ISH: ["I-ukita-double-1"], TOK: ["T-tokugawa-double-1"]})
    refused(game, Action(ISH, "deploy", {"block": "I-ishida-leader-1", "card": "I-ukita-double-1",
                                          "also": "I-ukita-2-1"}), "8.4.2")
    deploy(game, ISH, "I-ishida-leader-1", "I-ukita-double-1")
    refused(game, Action(TOK, "deploy", {"block": "T-ii-4-1", "card": "T-tokugawa-double-1",
                                          "also": "T-tokugawa-3-1"}), "8.4.2")
    deploy(game, TOK, "T-ii-4-1", "T-tokugawa-double-1")
    assert impact(game) == (1, 4)


# --- 8.5 initiative ------------------------------------------------------------------------


def test_8_5_the_side_behind_deploys_and_the_defender_leads_on_a_tie():
    game = start(["I-ukita-2-1", "I-ukita-3-1"], ["T-date-2-1", "T-date-3-1"],
                 hands={ISH: ["I-ukita-plain-1", "I-ukita-plain-2"], TOK: ["T-date-plain-1"]})
    assert game.to_move() == (ISH,)  # 8.2.1: the attacker deploys first
    deploy(game, ISH, "I-ukita-2-1", "I-ukita-plain-1")
    assert game.to_move() == (TOK,)  # 2:0
    deploy(game, TOK, "T-date-2-1", "T-date-plain-1")
    assert game.to_move() == (ISH,)  # 2:2, a tie: the defender leads
    deploy(game, ISH, "I-ukita-3-1", "I-ukita-plain-2")
    assert game.view(PUBLIC)["battle"]["initiative"] == TOK  # 6:2


def test_8_5_a_side_that_is_done_cannot_deploy_again_but_can_still_challenge():
    game = start(["I-ukita-2-1", "I-ukita-3-1"], ["T-date-2-1", "T-date-3-1"],
                 hands={ISH: ["I-ukita-plain-1", "I-ukita-plain-2"],
                        TOK: ["T-date-plain-1", "T-loyalty-1"]})
    deploy(game, ISH, "I-ukita-2-1", "I-ukita-plain-1")
    act(game, TOK, "done")
    deploy(game, ISH, "I-ukita-3-1", "I-ukita-plain-2")  # Ishida keeps the initiative
    refused(game, Action(TOK, "deploy", {"block": "T-date-2-1", "card": "T-date-plain-1"}), "8.5")
    act(game, TOK, "challenge", card="T-loyalty-1")
    act(game, ISH, "defect")
    assert impact(game) == (2, 4)
    won = found(act(game, ISH, "done"), "BattleWon")  # both done: the battle is over
    assert (won.data["winner"], won.data["impact"]) == (TOK, {ISH: 2, TOK: 4})


# --- 8.6 loyalty -----------------------------------------------------------------------------


def test_8_6_1_a_challenge_must_follow_right_after_an_opponents_deployment():
    game = start(["I-ukita-3-1"], ["T-date-2-1", "T-date-3-1"],
                 hands={ISH: ["I-ukita-plain-1"], TOK: ["T-date-plain-1", "T-loyalty-1"]})
    deploy(game, ISH, "I-ukita-3-1", "I-ukita-plain-1")
    deploy(game, TOK, "T-date-2-1", "T-date-plain-1")  # 3:2, Tokugawa still behind
    refused(game, Action(TOK, "challenge", {"card": "T-loyalty-1"}), "8.6.1")


def test_8_6_1_a_matching_card_proves_loyalty_and_goes_back_to_the_hand():
    game = start(["I-ukita-2-1"], ["T-date-2-1"],
                 hands={ISH: ["I-ukita-plain-1", "I-ukita-plain-2", "I-mori-plain-1"],
                        TOK: ["T-loyalty-1"]})
    deploy(game, ISH, "I-ukita-2-1", "I-ukita-plain-1")
    act(game, TOK, "challenge", card="T-loyalty-1")
    assert game.to_move() == (ISH,)
    refused(game, Action(ISH, "prove", {"card": "I-mori-plain-1"}), "8.6.1")
    act(game, ISH, "prove", card="I-ukita-plain-2")
    assert deployed(game) == {"I-ukita-2-1": (ISH, 2)}
    hands = game.state.hands
    assert hands[ISH].cards == {"I-ukita-plain-2", "I-mori-plain-1"}
    assert "T-loyalty-1" in hands[TOK].discard  # the loyalty card stays played


def test_8_6_2_a_defector_changes_sides_without_its_special_attack():
    game = start(["I-mori-cav-1"], ["T-maeda-cav-1", "T-date-2-1"],
                 hands={ISH: ["I-mori-special-1"], TOK: ["T-loyalty-1", "T-maeda-special-1"]})
    deploy(game, ISH, "I-mori-cav-1", "I-mori-special-1")
    assert impact(game) == (3, 0)
    act(game, TOK, "challenge", card="T-loyalty-1")
    act(game, ISH, "defect")
    assert impact(game) == (0, 1)
    act(game, ISH, "done")
    deploy(game, TOK, "T-maeda-cav-1", "T-maeda-special-1")  # the Mori cavalry now counts for it
    assert deployed(game)["T-maeda-cav-1"] == (TOK, 1 + 2 + 2)


def test_8_6_3_a_double_deployment_defects_whole_and_keeps_its_1_bonus():
    game = start(["I-ukita-2-1", "I-ukita-2-2"], ["T-date-2-1", "T-date-3-1"],
                 hands={ISH: ["I-ukita-double-1"], TOK: ["T-loyalty-1"]})
    deploy(game, ISH, "I-ukita-2-1", "I-ukita-double-1", also="I-ukita-2-2")
    act(game, TOK, "challenge", card="T-loyalty-1")
    act(game, ISH, "defect")
    assert deployed(game) == {"I-ukita-2-1": (TOK, 2), "I-ukita-2-2": (TOK, 3)}
    assert impact(game) == (0, 5)


def test_8_6_3_one_card_proves_a_double_deployment():
    game = start(["I-ukita-2-1", "I-ukita-2-2"], ["T-date-2-1", "T-date-3-1"],
                 hands={ISH: ["I-ukita-double-1", "I-ukita-plain-1"], TOK: ["T-loyalty-1"]})
    deploy(game, ISH, "I-ukita-2-1", "I-ukita-double-1", also="I-ukita-2-2")
    act(game, TOK, "challenge", card="T-loyalty-1")
    act(game, ISH, "prove", card="I-ukita-plain-1")
    assert impact(game) == (5, 0)


def test_8_6_1_full_mode_refuses_defect_while_the_hand_holds_a_proof():
    game = start(["I-ishida-leader-1"], ["T-date-2-1"],
                 hands={ISH: ["I-mori-plain-1", "I-kobayakawa-plain-1", "I-loyalty-1"],
                        TOK: ["T-loyalty-1"]})
    deploy(game, ISH, "I-ishida-leader-1", "I-mori-plain-1")
    act(game, TOK, "challenge", card="T-loyalty-1")
    refused(game, Action(ISH, "defect"), "8.6.1")  # any Ishida card but loyalty proves (9.5)
    refused(game, Action(ISH, "prove", {"card": "I-loyalty-1"}), "8.6.1")
    act(game, ISH, "prove", card="I-kobayakawa-plain-1")
    assert deployed(game) == {"I-ishida-leader-1": (ISH, 1)}


def test_8_6_1_table_mode_takes_the_players_word_to_defect_or_prove():
    game = start(["I-ukita-2-1", "I-ukita-2-2"], ["T-date-2-1", "T-date-3-1"],
                 knowledge="table")
    deploy(game, ISH, "I-ukita-2-1", "I-ukita-plain-1")
    act(game, TOK, "challenge", card="T-loyalty-1")
    refused(game, Action(ISH, "prove", {"card": "I-ukita-plain-1"}), "8.6.1")  # played already
    act(game, ISH, "defect")
    deploy(game, ISH, "I-ukita-2-2", "I-ukita-plain-2")  # no bonus: the other Ukita defected
    act(game, TOK, "challenge", card="T-loyalty-2")
    act(game, ISH, "prove", card="I-ukita-plain-3")
    assert deployed(game) == {"I-ukita-2-1": (TOK, 2), "I-ukita-2-2": (ISH, 2)}


# --- 8.7 losses ----------------------------------------------------------------------------


def test_8_7_1_one_loss_per_7_impact_received_and_one_more_for_the_loser():
    game = start(["I-ukita-3-1", "I-ukita-3-2", "I-ukita-2-1"],
                 ["T-ii-4-1", "T-tokugawa-3-1", "T-tokugawa-3-2"],
                 hands={ISH: ["I-ukita-plain-1", "I-ukita-plain-2"],
                        TOK: ["T-date-plain-1", "T-tokugawa-plain-1"]})
    deploy(game, ISH, "I-ukita-3-1", "I-ukita-plain-1")
    deploy(game, TOK, "T-ii-4-1", "T-date-plain-1")
    deploy(game, ISH, "I-ukita-3-2", "I-ukita-plain-2")
    deploy(game, TOK, "T-tokugawa-3-1", "T-tokugawa-plain-1")
    act(game, ISH, "done")
    won = found(act(game, TOK, "done"), "BattleWon")
    assert won.data["impact"] == {ISH: 7, TOK: 7}
    assert won.data["winner"] == TOK  # 8.2.1: a tie is the defender's
    assert won.data["losses"] == {ISH: 7 // 7 + 1, TOK: 7 // 7}


def test_8_7_2_losses_come_from_defectors_then_deployed_blocks_then_the_rest():
    game = start(["I-ukita-2-1", "I-mori-2-1", "I-mori-2-2", "I-kobayakawa-2-1"],
                 ["T-ii-4-1", "T-tokugawa-3-1", "T-date-2-1"],
                 hands={ISH: ["I-ukita-plain-1", "I-mori-plain-1", "I-mori-plain-2"],
                        TOK: ["T-loyalty-1", "T-date-plain-1", "T-tokugawa-plain-1"]})
    deploy(game, ISH, "I-ukita-2-1", "I-ukita-plain-1")
    act(game, TOK, "challenge", card="T-loyalty-1")
    act(game, ISH, "defect")  # 0:2
    deploy(game, ISH, "I-mori-2-1", "I-mori-plain-1")  # 2:2
    deploy(game, ISH, "I-mori-2-2", "I-mori-plain-2")  # 5:2
    deploy(game, TOK, "T-ii-4-1", "T-date-plain-1")  # 5:6
    act(game, ISH, "done")
    deploy(game, TOK, "T-tokugawa-3-1", "T-tokugawa-plain-1")  # 5:9
    act(game, TOK, "done")
    assert game.view(PUBLIC)["battle"]["losses_due"] == {ISH: 9 // 7 + 1, TOK: 5 // 7}
    refused(game, Action(ISH, "casualties", {"blocks": ["I-ukita-2-1", "I-kobayakawa-2-1"]}),
            "8.7.2")
    refused(game, Action(ISH, "casualties", {"blocks": ["I-mori-2-1", "I-mori-2-2"]}), "8.7.2")
    act(game, ISH, "casualties", blocks=["I-ukita-2-1", "I-mori-2-2"])
    eliminated = {e["block"] for e in game.view(TOK)["eliminated"]}  # 8.7.3: face up for all
    assert eliminated == {"I-ukita-2-1", "I-mori-2-2"}


# --- 8.8 retreat -----------------------------------------------------------------------------


def test_8_8_2_the_attacker_retreats_to_a_place_its_forces_came_from():
    where = {"I-ukita-2-1": "iwamura", "I-mori-2-1": "suwa", "T-date-2-1": "kiso",
             "T-date-3-1": "kiso"}
    game = placed(BASE["full"], where, active=ISH, level="total", clear=True,
                  hands={ISH: [], TOK: []})
    game.apply(move(ISH, "iwamura", {"I-ukita-2-1": ["kiso"]}))
    game.apply(move(ISH, "suwa", {"I-mori-2-1": ["kiso"]}))
    act(game, ISH, "end_movement")
    act(game, ISH, "declare", at="kiso")
    act(game, ISH, "done")
    act(game, TOK, "done")
    act(game, ISH, "casualties", blocks=["I-ukita-2-1"])
    assert game.view(PUBLIC)["battle"]["retreat"]["to"] == ["iwamura", "suwa"]
    refused(game, Action(ISH, "retreat", {"to": "matsumoto"}), "8.8.2")
    act(game, ISH, "retreat", to="suwa")
    assert game.state.positions["I-mori-2-1"] == "suwa"


def lost_defence(others, defenders=("T-date-2-1", "T-date-3-1")):
    """Ishida marches from Iwamura into Kiso and wins; Tokugawa loses T-date-2-1."""
    game = start(["I-ukita-2-1"], list(defenders), came="iwamura", others=others,
                 hands={ISH: ["I-ukita-plain-1"]})
    deploy(game, ISH, "I-ukita-2-1", "I-ukita-plain-1")
    act(game, TOK, "done")
    act(game, ISH, "done")
    act(game, TOK, "casualties", blocks=["T-date-2-1"])
    return game


def test_8_8_3_the_defender_retreats_away_from_enemies_and_the_attackers_road():
    game = lost_defence({"I-mori-2-1": "suwa"})
    assert game.view(PUBLIC)["battle"]["retreat"]["to"] == ["matsumoto"]
    refused(game, Action(TOK, "retreat", {"to": "suwa"}), "8.8.3")  # enemy units
    refused(game, Action(TOK, "retreat", {"to": "iwamura"}), "8.8.3")  # where the attack came from
    act(game, TOK, "retreat", to="matsumoto")
    assert game.state.positions["T-date-3-1"] == "matsumoto"


def test_8_8_4_the_castle_holder_may_leave_up_to_two_blocks_in_its_castle():
    ishida = ["I-ukita-2-1", "I-ukita-2-2", "I-ukita-2-3", "I-ukita-3-1"]
    game = start(["T-date-leader-1", "T-date-2-1"], ishida, side=TOK, at="gifu", came="kiyosu")
    assert game.view(PUBLIC)["battle"]["siege"] is False  # 8.9.2: four blocks fight outside
    deploy(game, TOK, "T-date-leader-1")
    act(game, ISH, "done")
    act(game, TOK, "done")
    act(game, ISH, "casualties", blocks=["I-ukita-2-1"])
    assert game.view(PUBLIC)["battle"]["retreat"] == {"to": ["iwamura", "sawayama"],
                                                      "castle_room": 2}
    refused(game, Action(ISH, "retreat", {"to": "sawayama", "castle": ishida[1:]}), "8.8.4")
    act(game, ISH, "retreat", to="sawayama", castle=["I-ukita-2-2", "I-ukita-2-3"])
    assert game.state.positions["I-ukita-3-1"] == "sawayama"
    assert set(game.state.blocks_at("gifu")) == {"I-ukita-2-2", "I-ukita-2-3",
                                                 "T-date-leader-1", "T-date-2-1"}
    assert (game.state.castles["gifu"], game.state.besieged["gifu"]) == (ISH, ISH)


def test_8_8_5_a_retreat_into_enemy_only_ground_is_a_battle_with_the_retreating_side_attacking():
    game = lost_defence({"I-mori-2-1": "suwa", "I-mori-2-2": "matsumoto"})
    assert game.view(PUBLIC)["battle"]["retreat"]["to"] == ["iwamura", "matsumoto", "suwa"]
    events = act(game, TOK, "retreat", to="suwa")
    assert found(events, "BattleFollows").data == {"at": "suwa", "attacker": TOK, "from": "kiso",
                                                   "rule": "8.8.5"}
    assert game.to_move() == (CHANCE,)  # 8.10: the hands are refilled before the new battle
    draw_cards(game)
    battle = game.view(PUBLIC)["battle"]
    assert (battle["at"], battle["attacker"], battle["defender"]) == ("suwa", TOK, ISH)


def test_8_8_5_7_4_a_retreat_overruns_a_quarter_as_many_enemies():
    tokugawa = ["T-date-2-1", "T-date-3-1", "T-maeda-2-1", "T-maeda-2-2", "T-tokugawa-3-1"]
    game = lost_defence({"I-mori-2-1": "suwa", "I-mori-2-2": "matsumoto"}, tokugawa)
    events = act(game, TOK, "retreat", to="suwa")  # four blocks against one
    assert list(found(events, "Overrun").data["blocks"]) == ["I-mori-2-1"]
    assert "BattleFollows" not in [e.type for e in events]
    assert game.state.positions["I-mori-2-1"] == "eliminated"


# --- 8.9 sieges ----------------------------------------------------------------------------


@pytest.mark.parametrize("inside", [True, False])
def test_8_9_2_a_castle_holder_with_one_or_two_blocks_chooses_siege_or_battle(inside):
    game = start(["T-date-2-1", "T-date-3-1"], ["I-ukita-2-1", "I-ukita-2-2"], side=TOK,
                 at="gifu", came="kiyosu")
    assert game.to_move() == (ISH,)
    assert game.view(PUBLIC)["battle"] == {"at": "gifu", "castle_choice_by": ISH}
    act(game, ISH, "castle", inside=inside)
    battle = game.view(PUBLIC)["battle"]
    assert (battle["siege"], battle["attacker"], game.to_move()) == (inside, TOK, (TOK,))


def test_8_9_2_more_than_two_blocks_must_fight_outside():
    game = start(["T-date-2-1"], ["I-ukita-2-1", "I-ukita-2-2", "I-ukita-2-3"], side=TOK,
                 at="gifu", came="kiyosu")
    assert game.view(PUBLIC)["battle"]["siege"] is False
    assert game.to_move() == (TOK,)


def test_8_9_2_the_active_side_staying_in_its_castle_means_no_combat_there_this_phase():
    game = start(["I-ukita-2-1"], ["T-date-2-1", "T-date-3-1"], at="gifu")
    assert game.to_move() == (ISH,)  # Ishida holds Gifu: its choice
    events = act(game, ISH, "castle", inside=True)
    assert "CombatSkipped" in [e.type for e in events]
    assert (game.state.phase, game.state.active) == ("movement", TOK)
    assert len(game.state.blocks_at("gifu")) == 3


def test_8_9_4_8_9_5_in_a_siege_only_the_attacker_deploys_no_special_attack_no_loyalty():
    game = siege(["I-ukita-2-1"], ["T-maeda-cav-1", "T-maeda-cav-2"],
                 ["T-maeda-special-1", "T-maeda-special-2"])
    deploy(game, TOK, "T-maeda-cav-1", "T-maeda-special-1")
    assert game.to_move() == (TOK,)  # Ishida holds I-loyalty-1 but may not play it
    with pytest.raises(IllegalAction) as info:
        game.rules.decide(game.state, Action(ISH, "challenge", {"card": "I-loyalty-1"}))
    assert info.value.rule == "8.9.5"
    deploy(game, TOK, "T-maeda-cav-2", "T-maeda-special-2")
    assert deployed(game) == {"T-maeda-cav-1": (TOK, 1), "T-maeda-cav-2": (TOK, 2)}


def test_8_9_4_all_units_inside_lost_the_castle_falls_to_the_attacker():
    game = siege(["I-ukita-2-1"], ["T-tokugawa-3-1", "T-tokugawa-3-2"],
                 ["T-tokugawa-plain-1", "T-tokugawa-plain-2"])
    deploy(game, TOK, "T-tokugawa-3-1", "T-tokugawa-plain-1")
    deploy(game, TOK, "T-tokugawa-3-2", "T-tokugawa-plain-2")
    events = act(game, TOK, "done")
    assert found(events, "BattleWon").data["losses"] == {TOK: 0, ISH: 7 // 7}
    assert game.state.positions["I-ukita-2-1"] == "eliminated"
    assert found(events, "CastleFell").data["side"] == TOK
    assert game.state.castles["gifu"] == TOK


def test_8_9_4_8_9_6_a_siege_goes_on_the_besieged_stay_and_the_besiegers_may_leave():
    game = siege(["I-ukita-2-1", "I-ukita-2-2"], ["T-tokugawa-3-1", "T-tokugawa-3-2",
                                                  "T-tokugawa-3-3"],
                 ["T-tokugawa-plain-1", "T-tokugawa-plain-2", "T-tokugawa-plain-3"])
    for n in (1, 2, 3):
        deploy(game, TOK, f"T-tokugawa-3-{n}", f"T-tokugawa-plain-{n}")
    act(game, TOK, "done")  # 3 + 4 + 5 = 12: one loss
    act(game, ISH, "casualties", blocks=["I-ukita-2-1"])
    draw_cards(game)
    assert (game.state.castles["gifu"], game.state.besieged["gifu"]) == (ISH, ISH)
    assert (game.state.phase, game.state.active) == ("movement", ISH)
    act(game, ISH, "movement_level", level="minimal", cards=[])
    refused(game, Action(ISH, "move", {"from": "gifu", "paths": {"I-ukita-2-2": ["iwamura"]}}),
            "8.9.6")
    act(game, ISH, "end_movement")
    act(game, ISH, "declare", at="gifu")
    act(game, ISH, "castle", inside=True)  # Tokugawa's turn B follows
    act(game, TOK, "movement_level", level="minimal", cards=[])
    game.apply(move(TOK, "gifu", {"T-tokugawa-3-1": ["kiyosu"]}))
    assert game.state.positions["T-tokugawa-3-1"] == "kiyosu"


# --- 8.10 refilling the hands ----------------------------------------------------------------


def test_8_10_after_a_battle_each_side_draws_its_played_cards_and_1_per_2_blocks_lost():
    game = start(["I-ukita-2-1", "I-ukita-3-1", "I-ukita-3-2"],
                 ["T-ii-4-1", "T-date-2-1", "T-date-3-1"],
                 hands={ISH: ["I-ukita-plain-1", "I-ukita-plain-2", "I-ukita-plain-3"],
                        TOK: ["T-loyalty-1", "T-date-plain-1"]})
    deploy(game, ISH, "I-ukita-2-1", "I-ukita-plain-1")
    act(game, TOK, "challenge", card="T-loyalty-1")
    act(game, ISH, "prove", card="I-ukita-plain-2")  # shown, not played
    deploy(game, TOK, "T-ii-4-1", "T-date-plain-1")  # 2:4
    deploy(game, ISH, "I-ukita-3-1", "I-ukita-plain-2")  # 6:4
    act(game, TOK, "done")
    deploy(game, ISH, "I-ukita-3-2", "I-ukita-plain-3")  # 11:4
    act(game, ISH, "done")
    act(game, TOK, "casualties", blocks=["T-ii-4-1", "T-date-2-1"])  # 11 // 7 + 1
    act(game, TOK, "retreat", to="matsumoto")
    assert due(game) == {ISH: 3, TOK: 2 + 2 // 2}  # the loyalty card counts as played


def test_8_10_after_a_siege_the_defender_draws_1_per_block_lost_none_for_a_disk():
    besiegers = ["T-ii-4-1", "T-tokugawa-3-1", "T-tokugawa-3-2", "T-tokugawa-3-3",
                 "T-tokugawa-3-4"]
    cards = ["T-date-plain-1", *(f"T-tokugawa-plain-{n}" for n in (1, 2, 3, 4))]
    game = siege(["I-uesugi-3-1", "I-uesugi-3-2"], besiegers, cards, at="ueda")
    for block, card in zip(besiegers, cards, strict=True):
        deploy(game, TOK, block, card)
    events = act(game, TOK, "done")  # 4 + 3 + 4 + 5 + 6 = 22: three losses
    assert list(found(events, "CasualtiesTaken").data["disks"]) == [SANADA]
    assert found(events, "CastleFell").data["side"] == TOK
    assert due(game) == {TOK: 5, ISH: 2}


# --- 9.1 - 9.3 -------------------------------------------------------------------------------


def test_9_2_sanada_may_take_a_siege_loss_instead_of_a_block():
    game = siege(["I-uesugi-3-1"], ["T-tokugawa-3-1", "T-tokugawa-3-2"],
                 ["T-tokugawa-plain-1", "T-tokugawa-plain-2"], at="ueda")
    deploy(game, TOK, "T-tokugawa-3-1", "T-tokugawa-plain-1")
    deploy(game, TOK, "T-tokugawa-3-2", "T-tokugawa-plain-2")
    act(game, TOK, "done")
    assert game.to_move() == (ISH,)  # the block or the disk: Ishida chooses
    act(game, ISH, "casualties", blocks=[SANADA])
    assert SANADA not in game.state.disks
    assert game.state.positions["I-uesugi-3-1"] == "ueda"
    assert game.state.besieged["ueda"] == ISH
    assert due(game) == {TOK: 2}  # 8.10: nothing for a disk


def test_9_1_hideyori_is_the_last_unit_lost_in_osaka():
    game = siege(["I-ukita-2-1", "I-ukita-2-2"], ["T-tokugawa-3-1", "T-tokugawa-3-2"],
                 ["T-tokugawa-plain-1", "T-tokugawa-plain-2"], at="osaka")
    deploy(game, TOK, "T-tokugawa-3-1", "T-tokugawa-plain-1")
    deploy(game, TOK, "T-tokugawa-3-2", "T-tokugawa-plain-2")
    act(game, TOK, "done")
    refused(game, Action(ISH, "casualties", {"blocks": [HIDEYORI]}), "9.1")
    act(game, ISH, "casualties", blocks=["I-ukita-2-1"])
    assert HIDEYORI in game.state.disks
    assert game.outcome is None


def test_9_1_2_1_hideyori_captured_ends_the_game_with_a_tokugawa_victory():
    besiegers = ["T-ii-4-1", "T-tokugawa-3-1", "T-tokugawa-3-2", "T-tokugawa-3-3"]
    cards = ["T-date-plain-1", "T-tokugawa-plain-1", "T-tokugawa-plain-2", "T-tokugawa-plain-3"]
    game = siege(["I-ukita-2-1"], besiegers, cards, at="osaka")
    for block, card in zip(besiegers, cards, strict=True):
        deploy(game, TOK, block, card)
    act(game, TOK, "done")  # 4 + 3 + 4 + 5 = 16: two losses, the block and then Hideyori
    assert game.state.positions["I-ukita-2-1"] == "eliminated"
    assert (game.outcome.winner, game.outcome.rule) == (TOK, "2.1")


def test_8_9_3_a_castle_held_by_a_disk_alone_is_besieged_without_a_choice():
    game = start(["T-tokugawa-3-1", "T-tokugawa-3-2"], [], side=TOK, at="osaka", came="kyoto",
                 hands={TOK: ["T-tokugawa-plain-1", "T-tokugawa-plain-2"]})
    battle = game.view(PUBLIC)["battle"]
    assert (battle["siege"], game.state.battle.inside) == (True, (HIDEYORI,))
    deploy(game, TOK, "T-tokugawa-3-1", "T-tokugawa-plain-1")
    deploy(game, TOK, "T-tokugawa-3-2", "T-tokugawa-plain-2")
    act(game, TOK, "done")  # 7: Hideyori is captured (9.1)
    assert (game.outcome.winner, game.outcome.rule) == (TOK, "2.1")


def test_8_9_3_a_battle_outside_osaka_cannot_touch_hideyori():
    tokugawa = ["T-ii-4-1", "T-tokugawa-3-1", "T-tokugawa-3-2", "T-tokugawa-3-3"]
    cards = ["T-date-plain-1", "T-tokugawa-plain-1", "T-tokugawa-plain-2", "T-tokugawa-plain-3"]
    game = start(tokugawa, ["I-ukita-2-1", "I-ukita-2-2", "I-ukita-2-3"], side=TOK, at="osaka",
                 hands={TOK: cards})
    deploy(game, TOK, tokugawa[0], cards[0])
    act(game, ISH, "done")
    for block, card in zip(tokugawa[1:], cards[1:], strict=True):
        deploy(game, TOK, block, card)
    act(game, TOK, "done")  # 16: Ishida loses 16 // 7 + 1 = 3, all its blocks
    assert game.state.blocks_at("osaka") == tokugawa
    assert HIDEYORI in game.state.disks and game.outcome is None
    assert game.state.castles["osaka"] == ISH


def test_9_3_the_mori_box_joins_when_tokugawa_declares_combat_at_osaka():
    mori = ["I-mori-3-1", "I-mori-3-2", "I-mori-leader-1"]
    game = start(["T-date-2-1", "T-date-3-1"], ["I-ukita-2-1"], side=TOK, at="osaka",
                 came="kyoto", others=dict.fromkeys(mori, "mori_box"), declare=False)
    events = act(game, TOK, "declare", at="osaka")
    assert set(found(events, "MoriArrived").data["blocks"]) == set(mori)
    assert set(mori) < set(game.state.blocks_at("osaka"))
    assert game.view(PUBLIC)["battle"]["siege"] is False  # four blocks: outside (8.9.2)


# --- 2.1 commanders ------------------------------------------------------------------------


def test_2_1_tokugawa_ieyasu_killed_in_battle_wins_for_ishida():
    game = start(["I-ukita-2-1"], ["T-tokugawa-leader-1"], hands={ISH: ["I-ukita-plain-1"]})
    deploy(game, ISH, "I-ukita-2-1", "I-ukita-plain-1")
    act(game, TOK, "done")
    act(game, ISH, "done")
    assert game.state.positions["T-tokugawa-leader-1"] == "eliminated"
    assert (game.outcome.winner, game.outcome.rule) == (ISH, "2.1")


def test_2_1_both_commanders_killed_in_one_battle_wins_for_ishida():
    game = start(["I-ishida-leader-1", "I-ukita-2-1", "I-ukita-2-2", "I-ukita-2-3",
                  "I-ukita-3-1"], ["T-tokugawa-leader-1", "T-tokugawa-3-1", "T-tokugawa-3-2"],
                 hands={ISH: [f"I-ukita-plain-{n}" for n in (1, 2, 3, 4)],
                        TOK: ["T-tokugawa-plain-1", "T-tokugawa-plain-2"]})
    deploy(game, ISH, "I-ishida-leader-1")  # 1:0
    deploy(game, TOK, "T-tokugawa-leader-1")  # 1:1
    deploy(game, ISH, "I-ukita-2-1", "I-ukita-plain-1")  # 3:1
    deploy(game, TOK, "T-tokugawa-3-1", "T-tokugawa-plain-1")  # 3:5
    deploy(game, ISH, "I-ukita-2-2", "I-ukita-plain-2")  # 6:5
    deploy(game, TOK, "T-tokugawa-3-2", "T-tokugawa-plain-2")  # 6:10
    deploy(game, ISH, "I-ukita-2-3", "I-ukita-plain-3")  # 10:10
    deploy(game, ISH, "I-ukita-3-1", "I-ukita-plain-4")  # 16:10
    act(game, TOK, "done")
    act(game, ISH, "done")  # Ishida loses 1, Tokugawa 3: all its deployed blocks
    act(game, ISH, "casualties", blocks=["I-ishida-leader-1"])
    assert game.state.positions["T-tokugawa-leader-1"] == "eliminated"
    assert (game.outcome.winner, game.outcome.rule) == (ISH, "2.1")


def test_8_6_1_the_public_view_shows_a_defector_on_the_challengers_side():
    game = start(["I-ukita-2-1"], ["T-date-2-1"],
                 hands={ISH: ["I-ukita-plain-1"], TOK: ["T-loyalty-1"]})
    deploy(game, ISH, "I-ukita-2-1", "I-ukita-plain-1")
    act(game, TOK, "challenge", card="T-loyalty-1")
    act(game, ISH, "defect")
    (shown,) = game.view(PUBLIC)["battle"]["deployed"]
    assert (shown["owner"], shown["side"]) == (ISH, TOK)


def test_8_9_2_a_castle_choice_when_none_is_due_is_refused_with_its_rule():
    game = start(["T-date-2-1"], ["I-ukita-2-1", "I-ukita-2-2", "I-ukita-2-3"], side=TOK,
                 at="gifu", came="kiyosu")
    refused(game, Action(TOK, "castle", {"inside": True}), "8.9.2")


def test_8_8_2_8_8_5_the_attacker_of_a_retreat_battle_retreats_where_it_came_from():
    game = lost_defence({"I-mori-2-1": "suwa", "I-mori-2-2": "matsumoto"},
                        ("T-date-2-1", "T-date-3-1", "T-maeda-2-1"))
    act(game, TOK, "retreat", to="suwa")  # 8.8.5: Tokugawa attacks at Suwa, from Kiso
    draw_cards(game)
    act(game, TOK, "done")
    act(game, ISH, "done")  # a tie: the defender wins, Tokugawa loses one block
    act(game, TOK, "casualties", blocks=["T-date-3-1"])
    assert game.view(PUBLIC)["battle"]["retreat"]["to"] == ["kiso"]
