"""Sekigahara set-up (5), cards (3.3), control (4.2, 4.3), the weekly cycle (6) and victory (2).

Rule numbers are those of the 2016 German rulebook
(shared/seeds/sekigahara-rules-de-2016-yucata.txt).
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from helpers import refusal, refused
from sekigahara_helpers import (
    KIT,
    SIDES,
    bag_blocks,
    bid_and_choose,
    block,
    cards_of,
    move,
    placed,
    rules,
    set_up,
)

from companion.engine import CHANCE, PUBLIC, REFEREE, Action, Game
from companion.games.sekigahara.rules import check_setup, setup_actions
from companion.games.sekigahara.rules.state import BAG, ELIMINATED, Hand, frozen_map

ISHIDA, TOKUGAWA = SIDES
MORI = ["I-mori-3-1", "I-mori-3-2", "I-mori-3-3", "I-mori-3-4", "I-mori-leader-1"]
RESOURCES = {"kyoto", "kuwana", "tsuruga", "kiso", "takeda", "takasaki", "edo", "niigata",
             "shirakawa"}
ALLEGIANCE = {"osaka": ISHIDA, "gifu": ISHIDA, "ueda": ISHIDA, "aizu": ISHIDA,
              "miyazu": TOKUGAWA, "anotsu": TOKUGAWA, "okazaki": TOKUGAWA,
              "kanazawa": TOKUGAWA, "hakone": TOKUGAWA}


# --- small helpers ---------------------------------------------------------------------------


def with_state(game: Game, state) -> Game:
    """A game standing at a hand-built `state` (as sekigahara_helpers.placed does)."""
    fresh = Game(game.rules, seed=game.seed)
    fresh._state = state
    return fresh


def quietly(game: Game, stop=lambda g: False, *, redraw: bool = False) -> Game:
    """Play on with no movement at all (7.1 'none', redrawing the whole hand if `redraw`),
    the first legal discard and bid, and Ishida moving first, until `stop` or the end."""
    while game.outcome is None and not stop(game):
        roles = game.to_move()
        if CHANCE in roles:
            game.play_chance()
        elif game.state.phase == "movement" and game.state.movement.level is None:
            cards = sorted(game.state.hands[roles[0]].cards or ()) if redraw else []
            game.apply(Action(roles[0], "movement_level", {"level": "none", "cards": cards}))
        elif game.state.phase == "movement":
            game.apply(Action(roles[0], "end_movement"))
        elif game.state.phase == "first_player":
            game.apply(Action(roles[0], "choose_first", {"first": ISHIDA}))
        else:
            game.apply(game.legal_actions(roles[0])[0])
    return game


def week_starts(week: int):
    return lambda g: g.state.week == week and g.state.phase == "reinforcements"


def last_phase_of_week(week: int, where=None, resources=None, knowledge="full") -> Game:
    """Tokugawa's movement phase, the last phase of turn B of `week` (Ishida moved first)."""
    game = placed(set_up(knowledge), where or {}, active=TOKUGAWA)
    state = replace(game.state, week=week, turn="B", second_half=True, first=ISHIDA)
    if resources is not None:
        state = replace(state, resources=frozen_map(resources))
    return with_state(game, state)


def end_week(game: Game) -> tuple:
    return game.apply(Action(TOKUGAWA, "end_movement"))


def event(events, kind: str):
    return next(e for e in events if e.type == kind)


def shown_blocks(view) -> set[str]:
    stacks = [s for here in view["locations"].values() for k, s in here.items() if k != "disks"]
    stacks += list(view["boxes"].values())
    return {b["block"] for s in stacks for b in s["blocks"]}


def setup_blocks(side: str, kind: str) -> list[str]:
    return sorted(b.id for b in KIT.blocks if b.side == side and b.setup == kind)


# --- 5 set-up --------------------------------------------------------------------------------


@pytest.mark.parametrize(("place", "side", "kind", "count"), [
    ("osaka", ISHIDA, "square", 6), ("aizu", ISHIDA, "round", 3),
    ("edo", TOKUGAWA, "square", 4), ("kiyosu", TOKUGAWA, "star", 3),
    ("kanazawa", TOKUGAWA, "triangle", 4), ("sendai", TOKUGAWA, "round", 3),
    ("mori_box", ISHIDA, "triangle", 5),
])
def test_5_2_1_pre_assigned_blocks_start_at_their_marker(place, side, kind, count):
    state = Game(rules()).state
    assert state.blocks_at(place) == setup_blocks(side, kind)
    assert len(state.blocks_at(place)) == count


def test_5_2_1_osaka_holds_ishida_and_kiyosu_holds_ii():
    state = Game(rules()).state
    assert state.positions["I-ishida-leader-1"] == "osaka"
    assert state.positions[block(TOKUGAWA, "ii", "4")] == "kiyosu"
    assert state.positions["T-tokugawa-leader-1"] == "edo"


def test_5_1_bag_holds_every_block_without_a_set_up_symbol():
    state = Game(rules()).state
    in_bag = {b for b, at in state.positions.items() if at == BAG}
    assert in_bag == {b.id for b in KIT.blocks if b.setup is None}
    assert len(state.blocks_at(BAG)) == 68


@pytest.mark.parametrize("knowledge", ["full", "table"])
def test_5_2_2_and_5_2_3_initial_pending_draws(knowledge):
    state = Game(rules(knowledge)).state
    blocks = {(p.side, p.to): p.count for p in state.pending if p.kind == "blocks"}
    assert blocks == {
        (ISHIDA, "kyoto"): 2, (ISHIDA, "osaka"): 2, (ISHIDA, "gifu"): 2, (ISHIDA, "ueda"): 3,
        (ISHIDA, "aizu"): 1, (ISHIDA, "ishida_recruitment"): 4,
        (TOKUGAWA, "miyazu"): 1, (TOKUGAWA, "anotsu"): 1, (TOKUGAWA, "hakone"): 1,
        (TOKUGAWA, "kiyosu"): 1, (TOKUGAWA, "kanazawa"): 1, (TOKUGAWA, "sendai"): 1,
        (TOKUGAWA, "edo"): 2, (TOKUGAWA, "tokugawa_recruitment"): 4,
    }
    cards = {p.side: p.count for p in state.pending if p.kind == "cards"}
    assert cards == ({ISHIDA: 5, TOKUGAWA: 5} if knowledge == "full" else {})
    assert Game(rules(knowledge)).to_move() == (CHANCE,)


def test_5_1_mori_box_is_public_other_blocks_hidden():
    game = set_up("full", seed=3)
    public = game.view(PUBLIC)
    assert sorted(b["block"] for b in public["boxes"]["mori_box"]["blocks"]) == MORI
    assert shown_blocks(public) == set(MORI)
    assert public["locations"]["osaka"][ISHIDA]["count"] == 8
    assert public["boxes"]["tokugawa_recruitment"]["count"] == 4
    assert public["boxes"]["tokugawa_recruitment"]["blocks"] == []
    tokugawa = game.view(TOKUGAWA)
    assert "I-ishida-leader-1" not in shown_blocks(tokugawa)
    assert "I-ishida-leader-1" in shown_blocks(game.view(ISHIDA))


def test_5_2_2_draw_for_a_marker_not_due_is_illegal():
    game = Game(rules())
    bag = bag_blocks(ISHIDA, 2)
    refused(game, Action(CHANCE, "draw_blocks", {"side": ISHIDA, "to": "kuwana", "blocks": bag}),
            "5.2.2")
    refused(game, Action(CHANCE, "draw_blocks", {"side": ISHIDA, "to": "edo", "blocks": bag}),
            "5.2.2")


def test_5_2_2_draw_of_the_wrong_number_of_blocks_is_illegal():
    game = Game(rules())
    one = bag_blocks(ISHIDA, 1)
    for blocks in (one, bag_blocks(ISHIDA, 3), one * 2):
        refused(game, Action(CHANCE, "draw_blocks",
                             {"side": ISHIDA, "to": "kyoto", "blocks": blocks}), "5.2.2")


@pytest.mark.parametrize("stranger", ["I-ishida-leader-1", "T-date-2-3", "I-mori-3-1"])
def test_5_2_2_draw_of_a_block_not_in_the_bag_is_illegal(stranger):
    game = Game(rules())
    blocks = [bag_blocks(ISHIDA, 1)[0], stranger]
    refused(game, Action(CHANCE, "draw_blocks", {"side": ISHIDA, "to": "kyoto",
                                                 "blocks": blocks}), "5.2.2")


def test_5_2_2_a_marker_is_drawn_for_only_once():
    game = Game(rules())
    first, second = bag_blocks(ISHIDA, 4)[:2], bag_blocks(ISHIDA, 4)[2:]
    game.apply(Action(CHANCE, "draw_blocks", {"side": ISHIDA, "to": "kyoto", "blocks": first}))
    assert game.state.blocks_at("kyoto") == sorted(first)
    refused(game, Action(CHANCE, "draw_blocks", {"side": ISHIDA, "to": "kyoto",
                                                 "blocks": second}), "5.2.2")


@pytest.mark.parametrize("knowledge", ["full", "table"])
def test_6_2_set_up_ends_in_week_1_bid_phase_without_reinforcements(knowledge):
    game = set_up(knowledge, seed=5)
    state = game.state
    assert (state.week, state.turn, state.phase) == (1, "A", "bid")
    assert not state.pending and not any(state.owed_discards.values())
    assert set(game.to_move()) == set(SIDES)
    assert all(state.hands[s].count == 5 for s in SIDES)
    assert all(len(state.blocks_at(f"{s}_recruitment")) == 4 for s in SIDES)
    kinds = {e.type for ply in game.history for e in ply.events}
    assert "ReinforcementsDue" not in kinds
    assert "reinforcements" not in game.view(PUBLIC)


def test_5_1_table_mode_hands_count_five_cards_unknown():
    game = set_up("table", seed=2)
    for side in SIDES:
        assert game.state.hands[side] == Hand(5, None, frozenset())
        mine = game.view(side)["cards"][side]
        assert mine["hand"] == 5 and mine["draw_pile"] == 50
        assert "cards" not in mine
    assert not any(a.verb == "deal" for a in (p.action for p in game.history))


def _observed(seed: int = 4) -> dict[str, str]:
    """Where a correctly set-up table has every block (bag blocks left out)."""
    state = set_up("full", seed).state
    return {b: at for b, at in state.positions.items() if at != BAG}


def test_5_2_check_setup_accepts_a_correct_table():
    assert check_setup(rules("table").ctx, _observed()) == []


def test_5_2_1_check_setup_reports_a_misplaced_pre_assigned_block():
    observed = {**_observed(), "T-ii-4-1": "edo"}
    problems = check_setup(rules("table").ctx, observed)
    assert [p.rule for p in problems] == ["5.2.1"]
    assert "T-ii-4-1" in problems[0].message and "Kiyosu" in problems[0].message


def test_5_2_2_check_setup_reports_a_marker_with_the_wrong_count():
    observed = _observed()
    kyoto = sorted(b for b, at in observed.items() if at == "kyoto")
    del observed[kyoto[0]]
    problems = check_setup(rules("table").ctx, observed)
    assert [p.rule for p in problems] == ["5.2.2"]
    assert "Kyoto" in problems[0].message and "1" in problems[0].message


def test_5_2_3_check_setup_reports_a_recruitment_box_with_the_wrong_count():
    observed = _observed()
    extra = next(b for b in bag_blocks(TOKUGAWA, 34) if b not in observed)  # still in the bag
    problems = check_setup(rules("table").ctx, {**observed, extra: "tokugawa_recruitment"})
    assert [p.rule for p in problems] == ["5.2.3"]
    assert "5 tokugawa" in problems[0].message


def test_5_2_setup_actions_complete_a_table_mode_set_up():
    observed = _observed(seed=6)
    game = Game(rules("table"))
    for action in setup_actions(game.rules.ctx, observed):
        game.apply(action)
    state = game.state
    assert {b: at for b, at in state.positions.items() if at != BAG} == observed
    assert (state.week, state.phase, state.pending) == (1, "bid", ())
    assert set(game.to_move()) == set(SIDES)
    assert state.resources == {"kyoto": ISHIDA, "edo": TOKUGAWA}


# --- 3.3 cards -------------------------------------------------------------------------------


@pytest.mark.parametrize("knowledge", ["full", "table"])
def test_3_3_a_card_of_the_other_deck_is_refused(knowledge):
    game = set_up(knowledge, seed=1)
    error = refusal(game, Action(ISHIDA, "bid", {"card": "T-loyalty-1"}), "6.3")
    assert "Ishida cards" in error.message


def test_3_3_table_mode_refuses_a_card_already_on_the_discard_pile():
    game = set_up("table", seed=1)
    game.apply(Action(ISHIDA, "bid", {"card": "I-loyalty-1"}))
    game.apply(Action(TOKUGAWA, "bid", {"card": "T-date-plain-1"}))
    game.apply(Action(ISHIDA, "choose_first", {"first": ISHIDA}))
    assert "I-loyalty-1" in game.state.hands[ISHIDA].discard
    error = refusal(game, Action(ISHIDA, "movement_level",
                                 {"level": "limited", "cards": ["I-loyalty-1"]}), "7.1")
    assert "discard" in error.message
    game.apply(Action(ISHIDA, "movement_level", {"level": "limited", "cards": ["I-loyalty-2"]}))


def test_3_3_full_mode_hand_seen_by_its_owner_and_the_referee_only():
    game = set_up("full", seed=2)
    for side in SIDES:
        hand = sorted(game.state.hands[side].cards)
        assert len(hand) == 5
        assert game.view(side)["cards"][side]["cards"] == hand
        assert game.view(REFEREE)["cards"][side]["cards"] == hand
        for role in (PUBLIC, *SIDES):
            if role != side:
                assert "cards" not in game.view(role)["cards"][side]
                text = json.dumps(game.view(role))
                assert not any(f'"{card}"' in text for card in hand)
        assert game.view(PUBLIC)["cards"][side]["hand"] == 5


def test_3_3_discard_piles_are_shown_as_counts_only():
    game = set_up("full", seed=2)
    bid_and_choose(game, ISHIDA)
    for side in SIDES:
        (played,) = game.state.hands[side].discard
        for role in (PUBLIC, *SIDES):
            entry = game.view(role)["cards"][side]
            assert entry["discard_pile"] == 1
            assert entry["draw_pile"] == 50
            assert f'"{played}"' not in json.dumps(game.view(role))


def _empty_pile_hands(game: Game, knowledge: str) -> Game:
    """Ishida holds five cards and every other card is on the discard pile."""
    deck = cards_of(ISHIDA)
    hand, discard = deck[:5], frozenset(deck[5:])
    cards = frozenset(hand) if knowledge == "full" else None
    hands = {**game.state.hands, ISHIDA: Hand(5, cards, discard)}
    return with_state(game, replace(game.state, hands=frozen_map(hands)))


def test_3_3_table_mode_empty_draw_pile_is_reshuffled_from_the_discards():
    game = _empty_pile_hands(placed(set_up("table"), {}, active=ISHIDA), "table")
    assert game.view(PUBLIC)["cards"][ISHIDA]["draw_pile"] == 0
    redraw = cards_of(ISHIDA)[:2]
    events = game.apply(Action(ISHIDA, "movement_level", {"level": "none", "cards": redraw}))
    assert [e.type for e in events].count("DiscardReshuffled") == 1
    hand = game.state.hands[ISHIDA]
    assert (hand.count, hand.discard) == (5, frozenset())
    assert game.view(PUBLIC)["cards"][ISHIDA]["draw_pile"] == 50


def test_3_3_full_mode_empty_draw_pile_is_reshuffled_from_the_discards():
    game = _empty_pile_hands(placed(set_up("full"), {}, active=ISHIDA), "full")
    redraw = cards_of(ISHIDA)[:2]
    game.apply(Action(ISHIDA, "movement_level", {"level": "none", "cards": redraw}))
    assert game.to_move() == (CHANCE,)
    _, events = game.play_chance()
    assert "DiscardReshuffled" in [e.type for e in events]
    hand = game.state.hands[ISHIDA]
    assert hand.count == 5 and hand.discard == frozenset()
    assert len(hand.cards) == 5 and set(cards_of(ISHIDA)[2:5]) <= hand.cards


def test_3_3_full_mode_discards_are_not_dealt_while_the_draw_pile_lasts():
    game = placed(set_up("full", seed=3), {}, active=ISHIDA)
    redraw = sorted(game.state.hands[ISHIDA].cards)[:1]
    game.apply(Action(ISHIDA, "movement_level", {"level": "none", "cards": redraw}))
    refused(game, Action(CHANCE, "deal", {"side": ISHIDA, "cards": redraw}), "3.3")


def test_3_3_repeated_whole_hand_redraws_reshuffle_the_discards():
    """7.1 'none' redraws of the whole hand run the full-mode deck dry (3.3)."""
    def reshuffled(game):
        return any(e.type == "DiscardReshuffled" for p in game.history for e in p.events)

    game = quietly(set_up("full", seed=8), reshuffled, redraw=True)
    assert game.outcome is None and reshuffled(game)
    for side in SIDES:
        hand = game.state.hands[side]
        assert hand.count == len(hand.cards) and not hand.cards & hand.discard
        assert hand.count + len(hand.discard) + game.view(REFEREE)["cards"][side][
            "draw_pile"] == 55


# --- 4.2 and 4.3 control ---------------------------------------------------------------------


@pytest.mark.parametrize("knowledge", ["full", "table"])
def test_4_2_set_up_gives_kyoto_to_ishida_and_edo_to_tokugawa(knowledge):
    game = set_up(knowledge, seed=7)
    assert game.rules.ctx.resources == RESOURCES
    assert dict(game.state.resources) == {"kyoto": ISHIDA, "edo": TOKUGAWA}
    control = game.view(PUBLIC)["control"]["resources"]
    assert control == {"kyoto": ISHIDA, "edo": TOKUGAWA}
    assert not (RESOURCES - {"kyoto", "edo"}) & set(control)


def test_4_2_edo_is_occupied_before_the_draws_and_kyoto_by_its_draw():
    """Edo's pre-assigned blocks occupy it from the start; Kyoto is empty until drawn for."""
    game = Game(rules())
    assert dict(game.state.resources) == {"edo": TOKUGAWA}
    blocks = bag_blocks(ISHIDA, 2)
    events = game.apply(Action(CHANCE, "draw_blocks", {"side": ISHIDA, "to": "kyoto",
                                                       "blocks": blocks}))
    changed = event(events, "ResourceControlChanged")
    assert (changed.data["location"], changed.data["side"]) == ("kyoto", ISHIDA)
    assert dict(game.state.resources) == {"edo": TOKUGAWA, "kyoto": ISHIDA}


def test_4_3_castles_start_with_their_allegiance():
    assert dict(Game(rules()).state.castles) == ALLEGIANCE
    assert dict(set_up("full", seed=7).state.castles) == ALLEGIANCE


def test_4_2_moving_through_a_resource_location_takes_control():
    game = placed(set_up(), {}, active=TOKUGAWA, level="minimal")
    game.apply(move(TOKUGAWA, "kiyosu", {"T-ii-4-1": ["kuwana", "minakuchi"]}))
    assert game.state.positions["T-ii-4-1"] == "minakuchi"
    assert game.state.resources["kuwana"] == TOKUGAWA
    assert "minakuchi" not in game.state.resources
    assert game.view(PUBLIC)["control"]["resources"]["kuwana"] == TOKUGAWA


def test_4_2_the_last_side_to_move_in_controls_even_after_leaving():
    game = placed(set_up(), {"T-ii-4-1": "kiyosu"}, active=TOKUGAWA, level="limited",
                  clear=True)
    game = with_state(game, replace(game.state, resources=frozen_map(
        {**game.state.resources, "kuwana": ISHIDA})))
    game.apply(move(TOKUGAWA, "kiyosu", {"T-ii-4-1": ["kuwana"]}))
    assert game.state.resources["kuwana"] == TOKUGAWA
    game = placed(game, {}, active=TOKUGAWA, level="minimal")  # a later movement phase
    game.apply(move(TOKUGAWA, "kuwana", {"T-ii-4-1": ["minakuchi"]}))
    assert game.state.resources["kuwana"] == TOKUGAWA
    assert game.state.resources["kyoto"] == ISHIDA


def test_4_3_a_castle_goes_to_the_only_side_with_blocks_and_back_to_its_allegiance():
    game = placed(set_up(), {"I-ukita-2-1": "kiyosu"}, active=ISHIDA, level="limited",
                  clear=True)
    game.apply(move(ISHIDA, "kiyosu", {"I-ukita-2-1": ["okazaki"]}))
    assert game.state.castles["okazaki"] == ISHIDA
    game = placed(game, {}, active=ISHIDA, level="minimal")
    game.apply(move(ISHIDA, "okazaki", {"I-ukita-2-1": ["hamamatsu"]}))
    assert game.state.castles["okazaki"] == TOKUGAWA
    assert dict(game.state.castles) == ALLEGIANCE


# --- 6.2 reinforcements ----------------------------------------------------------------------


@pytest.mark.parametrize("knowledge", ["full", "table"])
def test_6_2_week_2_discards_half_the_hand_rounded_down(knowledge):
    game = quietly(set_up(knowledge, seed=3), week_starts(2))
    assert {s: game.state.hands[s].count for s in SIDES} == {ISHIDA: 4, TOKUGAWA: 4}
    assert dict(game.state.owed_discards) == {ISHIDA: 2, TOKUGAWA: 2}
    assert set(game.to_move()) == set(SIDES)
    assert game.view(PUBLIC)["reinforcements"]["discards_owed"] == {ISHIDA: 2, TOKUGAWA: 2}


def test_6_2_discard_half_of_an_odd_hand_rounded_down():
    game = last_phase_of_week(1)
    hands = dict(game.state.hands)
    hands[ISHIDA] = replace(hands[ISHIDA], count=7, cards=frozenset(cards_of(ISHIDA)[:7]))
    game = with_state(game, replace(game.state, hands=frozen_map(hands)))
    events = end_week(game)
    assert event(events, "PhaseBegan").data["phase"] == "combat"
    assert dict(game.state.owed_discards) == {ISHIDA: 3, TOKUGAWA: 2}


@pytest.mark.parametrize("count", [1, 3])
def test_6_2_wrong_number_of_discards_is_illegal(count):
    game = quietly(set_up("full", seed=3), week_starts(2))
    hand = sorted(game.state.hands[ISHIDA].cards)
    error = refusal(game, Action(ISHIDA, "discard", {"cards": hand[:count]}), "6.2")
    assert "2" in error.message


def test_6_2_discarding_a_card_not_in_hand_is_illegal():
    game = quietly(set_up("full", seed=3), week_starts(2))
    hand = game.state.hands[ISHIDA].cards
    stranger = next(c for c in cards_of(ISHIDA) if c not in hand)
    refused(game, Action(ISHIDA, "discard", {"cards": [sorted(hand)[0], stranger]}), "6.2")


@pytest.mark.parametrize("knowledge", ["full", "table"])
def test_6_2_week_2_draws_five_cards_plus_one_for_most_castles(knowledge):
    """At set-up Tokugawa holds 5 castles to Ishida's 4: Tokugawa draws a 6th card."""
    game = quietly(set_up(knowledge, seed=3), week_starts(2))
    for side in SIDES:
        game.apply(game.legal_actions(side)[0])
        assert len(game.state.hands[side].discard) == 1 + 2  # the week-1 bid and two discards
    while CHANCE in game.to_move():
        game.play_chance()
    assert game.state.phase == "bid"
    assert {s: game.state.hands[s].count for s in SIDES} == {ISHIDA: 2 + 5, TOKUGAWA: 2 + 6}


@pytest.mark.parametrize("knowledge", ["full", "table"])
def test_6_2_week_2_draws_two_blocks_plus_one_each_on_a_resource_tie(knowledge):
    game = quietly(set_up(knowledge, seed=3), lambda g: g.state.week == 2
                   and g.state.phase == "bid" and not g.state.pending)
    for side in SIDES:
        assert len(game.state.blocks_at(f"{side}_recruitment")) == 4 + 3
    drawn = [e for ply in game.history for e in ply.events
             if e.type == "BlocksDrawn" and e.data["rule"] == "6.2"]
    assert sorted((e.data["side"], len(e.data["blocks"])) for e in drawn) == \
        [(ISHIDA, 3), (TOKUGAWA, 3)]


def test_6_2_plan_states_numbers_and_reasons():
    game = quietly(set_up("full", seed=3), week_starts(2))
    plan = game.view(PUBLIC)["reinforcements"]["plan"]
    assert {s: (plan[s]["discard"], plan[s]["cards"], plan[s]["blocks"]) for s in SIDES} == \
        {ISHIDA: (2, 5, 3), TOKUGAWA: (2, 6, 3)}
    assert "castles 4 ishida vs 5 tokugawa" in plan[TOKUGAWA]["cards_why"]
    assert "most castles" in plan[TOKUGAWA]["cards_why"]
    assert "most castles" not in plan[ISHIDA]["cards_why"]
    for side in SIDES:
        assert "2 from the track for week 2" in plan[side]["blocks_why"]
        assert "most resource locations" in plan[side]["blocks_why"]
        assert "resources 1 ishida vs 1 tokugawa" in plan[side]["blocks_why"]
    due = event(game.history[-1].events, "ReinforcementsDue")
    assert due.data["plan"] == game.view(PUBLIC)["reinforcements"]["plan"]


def test_6_2_strictly_most_castles_and_resources_give_ishida_the_bonuses():
    """Ishida takes Okazaki (5 castles to 4) and Kuwana (2 resources to 1)."""
    game = last_phase_of_week(1, {bag_blocks(ISHIDA, 1)[0]: "okazaki"},
                              resources={"kyoto": ISHIDA, "kuwana": ISHIDA, "edo": TOKUGAWA})
    events = end_week(game)
    plan = event(events, "ReinforcementsDue").data["plan"]
    assert {s: (plan[s]["cards"], plan[s]["blocks"]) for s in SIDES} == \
        {ISHIDA: (6, 3), TOKUGAWA: (5, 2)}
    assert "most resource locations" not in plan[TOKUGAWA]["blocks_why"]
    quietly(game, lambda g: g.state.phase == "bid" and not g.state.pending)
    assert len(game.state.blocks_at("ishida_recruitment")) == 4 + 3
    assert len(game.state.blocks_at("tokugawa_recruitment")) == 4 + 2


@pytest.mark.parametrize(("week", "track"), [(2, 2), (4, 2), (5, 1), (7, 1)])
def test_6_2_blocks_follow_the_reinforcement_track(week, track):
    game = last_phase_of_week(week - 1)
    plan = event(end_week(game), "ReinforcementsDue").data["plan"]
    assert {plan[s]["blocks"] for s in SIDES} == {track + 1}  # a 1-1 resource tie


# --- 6.3 bid for turn order ------------------------------------------------------------------


@pytest.mark.parametrize(("ishida_card", "tokugawa_card", "winner"), [
    ("I-loyalty-1", "T-date-plain-1", ISHIDA),
    ("I-loyalty-1", "T-loyalty-1", TOKUGAWA),
    ("I-mori-special-1", "T-date-plain-1", ISHIDA),
    ("I-mori-plain-1", "T-date-special-1", TOKUGAWA),
])
def test_6_3_the_higher_bid_wins(ishida_card, tokugawa_card, winner):
    game = set_up("table", seed=1)
    game.apply(Action(TOKUGAWA, "bid", {"card": tokugawa_card}))
    events = game.apply(Action(ISHIDA, "bid", {"card": ishida_card}))
    revealed = event(events, "BidsRevealed")
    assert revealed.data["winner"] == winner
    assert dict(revealed.data["bids"]) == {ISHIDA: ishida_card, TOKUGAWA: tokugawa_card}
    assert game.state.phase == "first_player"
    assert game.to_move() == (winner,)


def test_6_3_both_bid_cards_go_to_the_discard_pile():
    game = set_up("full", seed=4)
    bids = {s: sorted(game.state.hands[s].cards)[-1] for s in SIDES}
    for side, card in bids.items():
        game.apply(Action(side, "bid", {"card": card}))
    for side, card in bids.items():
        hand = game.state.hands[side]
        assert hand.discard == {card} and card not in hand.cards and hand.count == 4


@pytest.mark.parametrize("first", [ISHIDA, TOKUGAWA])
def test_6_3_the_winner_chooses_who_moves_first(first):
    game = set_up("table", seed=1)
    game.apply(Action(ISHIDA, "bid", {"card": "I-loyalty-1"}))
    game.apply(Action(TOKUGAWA, "bid", {"card": "T-date-plain-1"}))
    refused(game, Action(TOKUGAWA, "choose_first", {"first": TOKUGAWA}), "6.3")
    refused(game, Action(ISHIDA, "choose_first", {"first": "mori"}), "6.3")
    game.apply(Action(ISHIDA, "choose_first", {"first": first}))
    state = game.state
    assert (state.first, state.active, state.phase, state.turn) == (first, first, "movement", "A")
    assert game.to_move() == (first,)


def test_6_3_a_bid_is_hidden_until_both_bids_are_in():
    game = set_up("full", seed=4)
    card = sorted(game.state.hands[ISHIDA].cards)[0]
    game.apply(Action(ISHIDA, "bid", {"card": card}))
    assert game.view(ISHIDA)["cards"][ISHIDA]["bid"] == card
    assert game.view(REFEREE)["cards"][ISHIDA]["bid"] == card
    for role in (PUBLIC, TOKUGAWA):
        view = game.view(role)
        assert view["cards"][ISHIDA]["bid_placed"] is True
        assert "bid" not in view["cards"][ISHIDA]
        assert f'"{card}"' not in json.dumps(view)
    assert game.to_move() == (TOKUGAWA,)
    refused(game, Action(ISHIDA, "bid", {"card": sorted(game.state.hands[ISHIDA].cards)[1]}),
            "6.3")  # who bids is ruled by 6.3


def test_6_3_bidding_a_card_not_in_hand_is_illegal():
    game = set_up("full", seed=4)
    stranger = next(c for c in cards_of(ISHIDA) if c not in game.state.hands[ISHIDA].cards)
    error = refusal(game, Action(ISHIDA, "bid", {"card": stranger}), "6.3")
    assert "not in the Ishida hand" in error.message


def test_6_3_a_bid_is_exactly_one_card():
    game = set_up("full", seed=4)
    two = sorted(game.state.hands[ISHIDA].cards)[:2]
    refused(game, Action(ISHIDA, "bid", {"card": two}), "6.3")


# --- 6.4 turns A and B -----------------------------------------------------------------------


@pytest.mark.parametrize("first", [ISHIDA, TOKUGAWA])
def test_6_4_turn_sequence_of_a_week(first):
    game = set_up("full", seed=2)
    bid_and_choose(game, first)
    second = TOKUGAWA if first == ISHIDA else ISHIDA
    seen = []
    while game.state.phase == "movement":
        state = game.state
        seen.append((state.week, state.turn, state.active))
        assert game.to_move() == (state.active,)
        game.apply(Action(state.active, "movement_level", {"level": "none", "cards": []}))
        game.apply(Action(state.active, "end_movement"))
    assert seen == [(1, "A", first), (1, "A", second), (1, "B", first), (1, "B", second)]
    assert (game.state.week, game.state.phase, game.state.turn) == (2, "reinforcements", "A")


def test_6_4_movement_is_followed_by_the_combat_phase():
    game = set_up("full", seed=2)
    bid_and_choose(game, ISHIDA)
    events = game.apply(Action(ISHIDA, "end_movement"))
    phases = [e.data["phase"] for e in events if e.type == "PhaseBegan"]
    assert phases == ["combat", "movement"]
    assert event(events, "MovementLevelChosen").data["level"] == "none"


def test_6_4_only_the_active_side_may_act():
    game = set_up("full", seed=2)
    bid_and_choose(game, TOKUGAWA)
    refused(game, Action(ISHIDA, "end_movement"), "6.4")


# --- 2 victory -------------------------------------------------------------------------------


def test_2_2_seven_quiet_weeks_score_castles_and_resources():
    """No moves at all: Ishida 4 castles + Kyoto = 9, Tokugawa 5 castles + Edo = 11."""
    game = quietly(set_up("full", seed=1))
    assert game.state.week == 7 and game.state.phase == "over"
    counted = event(game.history[-1].events, "VictoryPointsCounted")
    assert dict(counted.data["points"]) == {ISHIDA: 9, TOKUGAWA: 11}
    assert game.outcome.winner == TOKUGAWA and game.outcome.rule == "2.2"
    assert game.to_move() == ()
    refused(game, Action(ISHIDA, "end_movement"), "2")


def test_2_2_two_points_per_castle_one_per_resource():
    game = last_phase_of_week(7, {bag_blocks(ISHIDA, 1)[0]: "okazaki"})
    events = end_week(game)
    assert dict(event(events, "VictoryPointsCounted").data["points"]) == \
        {ISHIDA: 2 * 5 + 1, TOKUGAWA: 2 * 4 + 1}
    assert game.outcome.winner == ISHIDA
    assert game.view(PUBLIC)["outcome"]["winner"] == ISHIDA


def test_2_2_a_tie_goes_to_ishida():
    game = last_phase_of_week(7, resources={"kyoto": ISHIDA, "kuwana": ISHIDA, "kiso": ISHIDA,
                                            "edo": TOKUGAWA})
    events = end_week(game)
    assert dict(event(events, "VictoryPointsCounted").data["points"]) == \
        {ISHIDA: 11, TOKUGAWA: 11}
    ended = event(events, "GameEnded")
    assert (ended.data["winner"], ended.data["rule"]) == (ISHIDA, "2.2")
    assert game.outcome.winner == ISHIDA


def test_2_2_the_game_does_not_end_before_week_7():
    game = last_phase_of_week(6)
    end_week(game)
    assert game.outcome is None and game.state.week == 7


def test_2_1_tokugawa_wins_when_ishida_mitsunari_is_overrun():
    """7.4: four blocks sweep away a lone Ishida Mitsunari outside any castle."""
    stack = ["T-tokugawa-3-1", "T-tokugawa-3-2", "T-tokugawa-arq-1", "T-ii-4-1"]
    where = {"I-ishida-leader-1": "kuwana", **dict.fromkeys(stack, "kiyosu")}
    game = placed(set_up(), where, active=TOKUGAWA, level="minimal", clear=True)
    events = game.apply(move(TOKUGAWA, "kiyosu", {b: ["kuwana"] for b in stack}))
    overrun = event(events, "Overrun")
    assert list(overrun.data["blocks"]) == ["I-ishida-leader-1"]
    ended = event(events, "GameEnded")
    assert (ended.data["winner"], ended.data["rule"]) == (TOKUGAWA, "2.1")
    assert game.outcome.winner == TOKUGAWA and game.outcome.rule == "2.1"
    assert game.state.positions["I-ishida-leader-1"] == ELIMINATED
    assert game.to_move() == ()
    refused(game, Action(TOKUGAWA, "end_movement"), "2")


def test_2_1_ishida_wins_when_tokugawa_ieyasu_is_overrun():
    stack = ["I-kobayakawa-3-1", "I-ukita-2-1", "I-mori-cav-1", "I-uesugi-3-1"]
    where = {"T-tokugawa-leader-1": "minakuchi", **dict.fromkeys(stack, "kyoto")}
    game = placed(set_up(), where, active=ISHIDA, level="minimal", clear=True)
    events = game.apply(move(ISHIDA, "kyoto", {b: ["minakuchi"] for b in stack}))
    assert event(events, "GameEnded").data["winner"] == ISHIDA
    assert game.outcome.winner == ISHIDA and game.outcome.rule == "2.1"


def test_2_1_overrunning_another_leader_does_not_end_the_game():
    stack = ["T-tokugawa-3-1", "T-tokugawa-3-2", "T-tokugawa-arq-1", "T-ii-4-1"]
    where = {"I-ukita-leader-1": "kuwana", **dict.fromkeys(stack, "kiyosu")}
    game = placed(set_up(), where, active=TOKUGAWA, level="minimal", clear=True)
    events = game.apply(move(TOKUGAWA, "kiyosu", {b: ["kuwana"] for b in stack}))
    assert "Overrun" in [e.type for e in events]
    assert "GameEnded" not in [e.type for e in events]
    assert game.outcome is None


# --- random play: no crash, no leak of hidden blocks (3.1, 5.1) ------------------------------


def _allowed(game: Game, role: str) -> set[str]:
    state = game.state
    seen = set(state.revealed) | set(state.blocks_at("mori_box")) | set(
        state.blocks_at(ELIMINATED))
    if role in SIDES:
        seen |= {b for b in state.positions if game.rules.ctx.owner[b] == role}
    return seen


@pytest.mark.parametrize("knowledge", ["full", "table"])
@pytest.mark.parametrize("seed", [0, 1, 2, 3, 7, 11])
def test_3_1_random_play_never_shows_hidden_blocks(seed, knowledge):
    game = set_up(knowledge, seed)
    rng = random.Random(seed)
    for _ in range(200):
        if game.outcome is not None or game.state.phase == "combat":
            break  # combat (8) is not implemented: a combat phase that waits ends the run
        for role in (PUBLIC, *SIDES):
            leaked = shown_blocks(game.view(role)) - _allowed(game, role)
            assert not leaked, (role, leaked, len(game.history))
        if CHANCE in game.to_move():
            game.play_chance()
        else:
            choices = game.legal_actions()
            assert choices, f"dead end: waiting for {game.to_move()} in {game.state.phase}"
            game.apply(rng.choice(choices))
    assert game.history


def test_6_2_plan_keeps_the_weeks_discards_after_a_side_has_discarded():
    game = quietly(set_up("full", seed=3), week_starts(2))
    hand = sorted(game.state.hands[ISHIDA].cards)
    game.apply(Action(ISHIDA, "discard", {"cards": hand[:2]}))
    plan = game.view(PUBLIC)["reinforcements"]["plan"]
    assert plan[ISHIDA]["discard"] == 2
    assert game.view(PUBLIC)["reinforcements"]["discards_owed"][ISHIDA] == 0


def test_2_1_the_game_ends_at_once_when_ishida_mitsunari_is_overrun():
    stack = ["T-tokugawa-3-1", "T-tokugawa-3-2", "T-tokugawa-arq-1", "T-ii-4-1"]
    where = {"I-ishida-leader-1": "kuwana", **dict.fromkeys(stack, "kiyosu")}
    game = placed(set_up(), where, active=TOKUGAWA, level="minimal", clear=True)
    events = game.apply(move(TOKUGAWA, "kiyosu", {b: ["kuwana", "minakuchi"] for b in stack}))
    assert events[-1].type == "GameEnded"
    assert all(game.state.positions[b] == "kuwana" for b in stack)  # the march stopped there
