"""Sekigahara movement phase: levels (7.1), recruitment (7.2), group moves and their range
(7.3), overrun (7.4), control of locations (4.2, 4.3), the Mori (9.3) and the tablet's view.

The rulebook is shared/seeds/sekigahara-rules-de-2016-yucata.txt (2016, the authority),
cross-checked with the Italian 2011 text and its "ESEMPIO DI MOVIMENTO" (movement example).
Positions are placed by hand (`placed`) and then played on with real actions.
"""

from __future__ import annotations

import json

import pytest
from sekigahara_helpers import KIT, block, cards_of, event_types, move, placed, set_up

from companion.engine import CHANCE, PUBLIC, Action, IllegalAction
from companion.games.sekigahara.rules.state import ELIMINATED

ISHIDA, TOKUGAWA = "ishida", "tokugawa"
BASE = set_up()
BASE_2011 = set_up(edition="2011")
I_BOX = "ishida_recruitment"
MORI_BOX = "mori_box"
MORI_TRIANGLES = [*(block(ISHIDA, "mori", "3", n) for n in range(1, 5)),
                  block(ISHIDA, "mori", "leader")]
MORI_CARDS = cards_of(ISHIDA, "mori", "plain")
T_CARDS = cards_of(TOKUGAWA, "date", "plain")


def soldiers(side: str, n: int) -> list[str]:
    """`n` blocks of `side` that are not leaders (no command of their own, 7.3.4)."""
    found = [b.id for b in KIT.blocks if b.side == side and b.leader is None
             and b.id not in MORI_TRIANGLES]
    assert len(found) >= n
    return found[:n]


def at(where: str, blocks: list[str]) -> dict[str, str]:
    return dict.fromkeys(blocks, where)


def position(game, *, active: str = ISHIDA, level: str | None = "total", base=BASE,
             hands: dict[str, list[str]] | None = None, **stacks: list[str]):
    """A movement phase with only `stacks` (location -> blocks) on the map."""
    where: dict[str, str] = {}
    for loc, blocks in stacks.items():
        where.update(at(loc, blocks))
    return placed(base if game is None else game, where, active=active, level=level,
                  hands=hands, clear=game is None)


def together(side: str, source: str, blocks: list[str], path: list[str], **extra) -> Action:
    return move(side, source, dict.fromkeys(blocks, path), **extra)


def rejected(game, action: Action, rule: str) -> IllegalAction:
    """The action is refused citing `rule`, and nothing changes."""
    before, history = game.state, len(game.history)
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    assert info.value.rule == rule, info.value
    assert game.state is before
    assert len(game.history) == history
    return info.value


def where_is(game, blocks: list[str]) -> set[str]:
    return {game.state.positions[b] for b in blocks}


def of_type(events, kind: str) -> list:
    return [e for e in events if e.type == kind]


# --- 7.1 movement levels ---------------------------------------------------------------------


def test_7_1_limited_movement_costs_exactly_one_card():
    hand = MORI_CARDS[:3]
    game = position(None, level=None, hands={ISHIDA: hand})
    for cards in ([], hand[:2]):
        rejected(game, Action(ISHIDA, "movement_level", {"level": "limited", "cards": cards}),
                 "7.1")
    events = game.apply(Action(ISHIDA, "movement_level", {"level": "limited",
                                                          "cards": hand[:1]}))
    assert of_type(events, "CardsDiscarded")[0].data["cards"] == (hand[0],)
    assert game.state.hands[ISHIDA].count == 2
    assert hand[0] in game.state.hands[ISHIDA].discard
    assert game.state.movement.level == "limited"


def test_7_1_total_movement_costs_two_cards_and_minimal_none():
    hand = MORI_CARDS[:3]
    game = position(None, level=None, hands={ISHIDA: hand})
    rejected(game, Action(ISHIDA, "movement_level", {"level": "total", "cards": hand[:1]}),
             "7.1")
    rejected(game, Action(ISHIDA, "movement_level", {"level": "minimal", "cards": hand[:1]}),
             "7.1")
    game.apply(Action(ISHIDA, "movement_level", {"level": "total", "cards": hand[:2]}))
    assert game.state.hands[ISHIDA].count == 1
    assert set(hand[:2]) <= game.state.hands[ISHIDA].discard

    free = position(None, level=None, hands={ISHIDA: hand})
    events = free.apply(Action(ISHIDA, "movement_level", {"level": "minimal", "cards": []}))
    assert "CardsDiscarded" not in event_types(events)
    assert free.state.hands[ISHIDA].count == 3


def test_7_1_no_movement_discards_any_number_and_draws_as_many():
    hand = MORI_CARDS[:4]
    game = position(None, level=None, hands={ISHIDA: hand})
    game.apply(Action(ISHIDA, "movement_level", {"level": "none", "cards": hand[:3]}))
    assert game.to_move() == (CHANCE,)  # full mode: chance deals the replacements
    _, events = game.play_chance()
    drawn = set(of_type(events, "CardsDrawn")[0].data["cards"])
    cards = game.state.hands[ISHIDA]
    assert len(drawn) == 3 and not drawn & set(hand[:3])
    assert cards.count == 4 and cards.cards == {hand[3], *drawn}
    assert set(hand[:3]) <= cards.discard
    assert game.to_move() == (ISHIDA,)


def test_7_1_no_movement_allows_no_move_and_no_recruitment():
    game = position(None, level="none", osaka=["I-mori-2-1"])
    game = placed(game, {"I-mori-2-2": I_BOX}, level="none")
    rejected(game, move(ISHIDA, "osaka", {"I-mori-2-1": ["kyoto"]}), "7.1")
    rejected(game, Action(ISHIDA, "recruit", {"blocks": ["I-mori-2-2"], "to": "himeji"}),
             "7.2")


def test_7_1_moving_before_choosing_a_level_is_illegal():
    game = position(None, level=None, hands={ISHIDA: MORI_CARDS[:2]}, osaka=["I-mori-2-1"])
    rejected(game, move(ISHIDA, "osaka", {"I-mori-2-1": ["kyoto"]}), "7.1")


SPREAD = {"osaka": "wakayama", "kyoto": "ayabe", "gifu": "iwamura", "aizu": "tsugawa",
          "ueda": "arato"}


def spread(level: str, recruit: bool = False):
    """One Ishida block at each of five locations (and one in the recruitment box)."""
    where = {b: loc for b, loc in zip(soldiers(ISHIDA, 5), SPREAD, strict=True)}
    if recruit:
        where["I-ukita-2-2"] = I_BOX
    return placed(BASE, where, level=level, clear=True)


def step(game, n: int) -> Action:
    """The n-th of the five stacks of `spread` moving one location."""
    b = soldiers(ISHIDA, 5)[n]
    source = game.state.positions[b]
    return move(ISHIDA, source, {b: [SPREAD[source]]})


def test_7_1_minimal_movement_allows_one_group_move():
    game = spread("minimal")
    game.apply(step(game, 0))
    rejected(game, step(game, 1), "7.1")


def test_7_1_limited_movement_allows_three_group_moves():
    game = spread("limited")
    for n in range(3):
        game.apply(step(game, n))
    rejected(game, step(game, 3), "7.1")


def test_7_1_minimal_recruitment_replaces_the_move():
    game = spread("minimal", recruit=True)
    game.apply(Action(ISHIDA, "recruit", {"blocks": ["I-ukita-2-2"], "to": "himeji"}))
    rejected(game, step(game, 0), "7.1")


def test_7_1_limited_recruitment_replaces_one_of_three_moves():
    game = spread("limited", recruit=True)
    game.apply(step(game, 0))
    game.apply(Action(ISHIDA, "recruit", {"blocks": ["I-ukita-2-2"], "to": "himeji"}))
    game.apply(step(game, 1))
    rejected(game, step(game, 2), "7.1")

    full = spread("limited", recruit=True)
    for n in range(3):
        full.apply(step(full, n))
    rejected(full, Action(ISHIDA, "recruit", {"blocks": ["I-ukita-2-2"], "to": "himeji"}),
             "7.1")


def test_7_1_total_movement_moves_every_group_plus_one_recruitment():
    game = spread("total", recruit=True)
    for n in range(5):
        game.apply(step(game, n))
    game.apply(Action(ISHIDA, "recruit", {"blocks": ["I-ukita-2-2"], "to": "himeji"}))
    assert where_is(game, soldiers(ISHIDA, 5)) == set(SPREAD.values())
    assert game.state.positions["I-ukita-2-2"] == "himeji"


# --- 7.2 recruitment -------------------------------------------------------------------------


def recruiting(**stacks: list[str]):
    """Total movement with two Mori and one Ukita block in the Ishida recruitment box."""
    game = position(None, **stacks)
    return placed(game, at(I_BOX, ["I-mori-2-1", "I-mori-2-2", "I-ukita-2-2"]), level="total")


def recruit(blocks: list[str], to: str) -> Action:
    return Action(ISHIDA, "recruit", {"blocks": blocks, "to": to})


def test_7_2_way_a_one_daimyos_blocks_to_its_mon_are_shown():
    game = recruiting()
    events = game.apply(recruit(["I-mori-2-1", "I-mori-2-2"], "himeji"))
    done = of_type(events, "BlocksRecruited")[0].data
    assert done["way"] == "A" and done["shown"] is True
    assert where_is(game, ["I-mori-2-1", "I-mori-2-2"]) == {"himeji"}
    for role in (PUBLIC, TOKUGAWA):
        seen = game.view(role)["locations"]["himeji"][ISHIDA]["blocks"]
        assert {b["block"] for b in seen} == {"I-mori-2-1", "I-mori-2-2"}


def test_7_2_way_b_one_block_to_any_friendly_recruitment_location_is_hidden():
    game = recruiting()
    events = game.apply(recruit(["I-ukita-2-2"], "osaka"))  # Kobayakawa mon: friendly
    done = of_type(events, "BlocksRecruited")[0].data
    assert done["way"] == "B" and done["shown"] is False
    assert game.state.positions["I-ukita-2-2"] == "osaka"
    for role in (PUBLIC, TOKUGAWA):
        assert game.view(role)["locations"]["osaka"][ISHIDA] == {"count": 1, "blocks": []}


def test_7_2_several_daimyos_at_once_is_illegal():
    game = recruiting()
    # Himeji shows both the Mori and the Ukita mon, and still they cannot come together
    rejected(game, recruit(["I-mori-2-1", "I-ukita-2-2"], "himeji"), "7.2")


def test_7_2_way_a_needs_the_daimyos_own_mon():
    game = recruiting()
    rejected(game, recruit(["I-mori-2-1", "I-mori-2-2"], "osaka"), "7.2")


def test_7_2_a_location_without_a_friendly_mon_is_illegal():
    game = recruiting()
    for to in ("kyoto", "edo", "kiyosu"):  # no mon; Tokugawa and Fukushima mons
        rejected(game, recruit(["I-ukita-2-2"], to), "7.2")


def test_7_2_only_one_recruitment_per_turn():
    game = recruiting()
    game.apply(recruit(["I-mori-2-1"], "himeji"))
    rejected(game, recruit(["I-ukita-2-2"], "osaka"), "7.2")


def test_7_2_recruited_blocks_cannot_move_this_turn():
    game = recruiting(himeji=["I-kobayakawa-2-1"])
    game.apply(recruit(["I-mori-2-1", "I-mori-2-2"], "himeji"))
    rejected(game, move(ISHIDA, "himeji", {"I-mori-2-1": ["ayabe"]}), "7.2")
    game.apply(move(ISHIDA, "himeji", {"I-kobayakawa-2-1": ["ayabe"]}))
    assert where_is(game, ["I-mori-2-1", "I-mori-2-2"]) == {"himeji"}


def test_7_2_recruiting_into_a_location_held_only_by_the_enemy_is_illegal():
    game = recruiting(himeji=["T-date-2-1"])
    rejected(game, recruit(["I-ukita-2-2"], "himeji"), "7.2")


def test_7_2_recruiting_into_a_fight_begun_by_friendly_blocks_is_allowed():
    game = recruiting(himeji=["T-date-2-1", "I-kobayakawa-2-1"])
    game.apply(recruit(["I-ukita-2-2"], "himeji"))
    assert game.state.positions["I-ukita-2-2"] == "himeji"
    assert game.state.positions["T-date-2-1"] == "himeji"  # 2 against 1: no overrun


def test_7_2_only_blocks_in_the_recruitment_box():
    game = recruiting(osaka=["I-kobayakawa-2-1"])
    rejected(game, recruit(["I-kobayakawa-2-1"], "himeji"), "7.2")
    rejected(game, recruit(["I-kobayakawa-3-2"], "himeji"), "7.2")  # still in the bag


# --- 7.3.1 movement in general ---------------------------------------------------------------


def test_7_3_1_blocks_move_only_along_roads():
    game = position(None, osaka=["I-mori-2-1"])
    error = rejected(game, move(ISHIDA, "osaka", {"I-mori-2-1": ["minakuchi"]}), "7.3.1")
    assert "Osaka-Kyoto" in error.legal  # the roads that do leave Osaka, each one playable
    for alternative in error.alternatives:
        assert game.rules.accepts(game.state, alternative), alternative


FIVE = soldiers(ISHIDA, 5)


def test_7_3_1_movement_example_group_a_five_blocks_reach_two_locations():
    """ESEMPIO DI MOVIMENTO, A: five blocks in a friendly castle on the highway move
    1 + 1 command + 1 highway - 1 for 5-8 blocks = 2 locations: Minakuchi, not Kuwana."""
    game = position(None, osaka=FIVE)
    rejected(game, together(ISHIDA, "osaka", FIVE, ["kyoto", "minakuchi", "kuwana"]), "7.3.5")
    events = game.apply(together(ISHIDA, "osaka", FIVE, ["kyoto", "minakuchi"]))
    assert of_type(events, "GroupMoveBegan")[0].data["command"] == "castle"
    assert where_is(game, FIVE) == {"minakuchi"}


def test_7_3_1_movement_example_one_block_left_behind_reaches_kuwana():
    game = position(None, osaka=FIVE)
    game.apply(together(ISHIDA, "osaka", FIVE[:4], ["kyoto", "minakuchi", "kuwana"]))
    assert where_is(game, FIVE[:4]) == {"kuwana"}
    assert game.state.positions[FIVE[4]] == "osaka"


@pytest.mark.parametrize(("source", "group_b", "leader"), [
    ("sawayama", ["I-ukita-2-2", "I-ukita-2-3"], None),
    ("ayabe", ["I-ukita-2-2", "I-ukita-leader-1"], "I-ukita-leader-1"),
])
def test_7_3_1_movement_example_group_b_cannot_reuse_the_kyoto_minakuchi_highway(
        source, group_b, leader):
    """ESEMPIO DI MOVIMENTO, B: group A used Kyoto-Minakuchi, so group B must stop at Kyoto
    (it has range 2 either way: all highway from Sawayama, a leader from Ayabe)."""
    game = position(None, osaka=FIVE, **{source: group_b})
    game.apply(together(ISHIDA, "osaka", FIVE, ["kyoto", "minakuchi"]))
    extra = {"leader": leader} if leader else {}
    rejected(game, together(ISHIDA, source, group_b, ["kyoto", "minakuchi"], **extra), "7.3.1")
    game.apply(together(ISHIDA, source, group_b, ["kyoto"], **extra))
    assert where_is(game, group_b) == {"kyoto"}


def test_7_3_1_a_road_is_used_once_in_either_direction():
    game = position(None, osaka=["I-mori-2-1"], kyoto=["I-mori-2-2"])
    game.apply(move(ISHIDA, "osaka", {"I-mori-2-1": ["kyoto"]}))
    rejected(game, move(ISHIDA, "kyoto", {"I-mori-2-2": ["osaka"]}), "7.3.1")


def test_7_3_1_each_stack_moves_once():
    game = position(None, osaka=FIVE)
    game.apply(together(ISHIDA, "osaka", FIVE[:2], ["himeji"]))
    rejected(game, together(ISHIDA, "osaka", FIVE[2:], ["wakayama"]), "7.3.1")
    assert where_is(game, FIVE[2:]) == {"osaka"}


def test_7_3_1_a_block_that_moved_cannot_move_again():
    game = position(None, osaka=["I-mori-2-1"], kyoto=["I-mori-2-2"])
    game.apply(move(ISHIDA, "osaka", {"I-mori-2-1": ["kyoto"]}))
    rejected(game, move(ISHIDA, "kyoto", {"I-mori-2-1": ["ayabe"]}), "7.3.1")
    game.apply(move(ISHIDA, "kyoto", {"I-mori-2-2": ["ayabe"]}))  # Kyoto's own stack may


def test_7_3_1_blocks_may_split_and_be_dropped_off():
    game = position(None, osaka=FIVE[:4])
    a, b, c, d = FIVE[:4]
    events = game.apply(move(ISHIDA, "osaka", {a: ["kyoto", "sawayama"], b: ["kyoto"],
                                               c: ["kyoto", "minakuchi"], d: ["himeji"]}))
    assert [game.state.positions[x] for x in (a, b, c, d)] == \
        ["sawayama", "kyoto", "minakuchi", "himeji"]
    marched = {(e.data["from"], e.data["to"]): set(e.data["blocks"])
               for e in of_type(events, "StackMarched")}
    assert marched[("osaka", "kyoto")] == {a, b, c}


def test_7_3_1_a_stack_cannot_pick_up_blocks_standing_on_its_way():
    game = position(None, osaka=["I-mori-2-1"], kyoto=["I-mori-2-2"])
    rejected(game, move(ISHIDA, "osaka", {"I-mori-2-1": ["kyoto", "minakuchi"],
                                          "I-mori-2-2": ["minakuchi"]}), "7.3.1")


BACK = {"I-mori-2-1": ["kyoto", "minakuchi"], "I-mori-2-2": ["kyoto", "minakuchi", "kyoto"]}


def test_7_3_1_2016_a_block_that_left_its_stack_may_not_travel_its_road_again():
    """2016: no road more than once, no picking up: once split, blocks never share a road."""
    game = position(None, osaka=list(BACK))
    rejected(game, move(ISHIDA, "osaka", BACK), "7.3.1")


def test_7_3_1_2011_split_blocks_may_travel_a_road_again():
    """2011 forbids only a second group on a road; the 2016 no-pick-up rule is new."""
    game = position(None, base=BASE_2011, osaka=list(BACK))
    game.apply(move(ISHIDA, "osaka", BACK))
    assert [game.state.positions[b] for b in BACK] == ["minakuchi", "kyoto"]


# --- 7.3.3 - 7.3.6 range ---------------------------------------------------------------------


def test_7_3_3_base_range_is_one_location():
    game = position(None, minakuchi=["I-mori-2-1"])  # no castle, capital or leader
    rejected(game, move(ISHIDA, "minakuchi", {"I-mori-2-1": ["kuwana", "anotsu"]}), "7.3.3")
    game.apply(move(ISHIDA, "minakuchi", {"I-mori-2-1": ["kuwana"]}))


def test_7_3_3_highways_add_one_only_if_the_whole_path_is_highway():
    game = position(None, minakuchi=["I-mori-2-1"])
    rejected(game, move(ISHIDA, "minakuchi", {"I-mori-2-1": ["kyoto", "ayabe"]}), "7.3.3")
    game.apply(move(ISHIDA, "minakuchi", {"I-mori-2-1": ["kyoto", "sawayama"]}))


def test_7_3_4_command_from_an_own_colour_castle_the_side_controls():
    game = position(None, gifu=["I-mori-2-1"], anotsu=["I-mori-2-2"])
    assert game.state.castles["anotsu"] == ISHIDA  # held, but a Tokugawa castle
    events = game.apply(move(ISHIDA, "gifu", {"I-mori-2-1": ["kiyosu", "okazaki"]}))
    assert of_type(events, "GroupMoveBegan")[0].data["command"] == "castle"
    rejected(game, move(ISHIDA, "anotsu", {"I-mori-2-2": ["kumano", "tanabe"]}), "7.3.3")


def test_7_3_4_an_own_castle_held_by_the_enemy_gives_no_command():
    held = position(None, gifu=["T-date-2-1"])
    assert held.state.castles["gifu"] == TOKUGAWA
    game = placed(held, {"I-mori-2-1": "gifu"}, level="total")  # Ishida besieges Gifu
    assert game.state.castles["gifu"] == TOKUGAWA
    rejected(game, move(ISHIDA, "gifu", {"I-mori-2-1": ["kiyosu", "okazaki"]}), "7.3.3")


def test_7_3_4_command_from_the_sides_own_capital_only():
    game = position(None, kyoto=["I-mori-2-1"], edo=["I-mori-2-2"])
    events = game.apply(move(ISHIDA, "kyoto", {"I-mori-2-1": ["ayabe", "himeji"]}))
    assert of_type(events, "GroupMoveBegan")[0].data["command"] == "capital"
    rejected(game, move(ISHIDA, "edo", {"I-mori-2-2": ["mito", "iwaki"]}), "7.3.3")

    enemy = position(None, active=TOKUGAWA, kyoto=["T-date-2-1"], edo=["T-date-2-2"])
    rejected(enemy, move(TOKUGAWA, "kyoto", {"T-date-2-1": ["ayabe", "himeji"]}), "7.3.3")
    enemy.apply(move(TOKUGAWA, "edo", {"T-date-2-2": ["mito", "iwaki"]}))


def test_7_3_4_a_declared_leader_gives_command_of_any_clan():
    stack = ["I-mori-2-1", "I-ukita-leader-1"]
    game = position(None, minakuchi=stack)
    rejected(game, together(ISHIDA, "minakuchi", stack, ["kyoto", "ayabe"]), "7.3.3")
    events = game.apply(together(ISHIDA, "minakuchi", stack[:1], ["kyoto", "ayabe"],
                                 leader="I-ukita-leader-1"))
    assert of_type(events, "LeaderDeclared")[0].data["block"] == "I-ukita-leader-1"
    assert of_type(events, "GroupMoveBegan")[0].data["command"] == "leader"


@pytest.mark.parametrize("leader", ["I-mori-2-2", "I-kobayakawa-leader-1", "T-date-leader-1"])
def test_7_3_4_only_an_own_leader_at_the_source_can_be_declared(leader):
    """A block without a nobori, a leader elsewhere, an enemy leader: no command."""
    game = position(None, minakuchi=["I-mori-2-1", "I-mori-2-2", "T-date-leader-1"],
                    osaka=["I-kobayakawa-leader-1"])
    rejected(game, move(ISHIDA, "minakuchi", {"I-mori-2-1": ["kyoto", "ayabe"]},
                        leader=leader), "7.3.4")


def test_7_3_4_command_is_plus_one_at_most():
    stack = ["I-mori-2-1", "I-ukita-leader-1"]
    game = position(None, osaka=stack)  # a friendly castle and a leader
    rejected(game, together(ISHIDA, "osaka", stack, ["kyoto", "minakuchi", "kuwana", "kiyosu"],
                            leader="I-ukita-leader-1"), "7.3.3")
    game.apply(together(ISHIDA, "osaka", stack, ["kyoto", "minakuchi", "kuwana"],
                        leader="I-ukita-leader-1"))


def test_7_3_3_forced_march_adds_one_for_a_card_that_is_discarded():
    card = MORI_CARDS[0]
    game = position(None, hands={ISHIDA: MORI_CARDS[:2]}, minakuchi=["I-mori-2-1"])
    rejected(game, move(ISHIDA, "minakuchi", {"I-mori-2-1": ["kyoto", "ayabe"]}), "7.3.3")
    events = game.apply(move(ISHIDA, "minakuchi", {"I-mori-2-1": ["kyoto", "ayabe"]},
                             forced_march=card))
    assert of_type(events, "CardsDiscarded")[0].data["cards"] == (card,)
    hand = game.state.hands[ISHIDA]
    assert card in hand.discard and card not in hand.cards and hand.count == 1


def test_7_3_3_forced_march_card_must_be_in_the_hand():
    game = position(None, hands={ISHIDA: MORI_CARDS[:1]}, minakuchi=["I-mori-2-1"])
    for card in (MORI_CARDS[1], T_CARDS[0]):
        rejected(game, move(ISHIDA, "minakuchi", {"I-mori-2-1": ["kyoto", "ayabe"]},
                            forced_march=card), "7.3.3")


def test_7_3_3_forced_march_blocks_start_move_and_end_together():
    game = position(None, hands={ISHIDA: MORI_CARDS[:1]}, minakuchi=["I-mori-2-1",
                                                                    "I-mori-2-2"])
    rejected(game, move(ISHIDA, "minakuchi", {"I-mori-2-1": ["kyoto", "ayabe"],
                                              "I-mori-2-2": ["kyoto"]},
                        forced_march=MORI_CARDS[0]), "7.3.3")


def test_7_3_3_all_three_bonuses_give_four_locations():
    game = position(None, hands={ISHIDA: MORI_CARDS[:1]}, osaka=FIVE[:4])
    path = ["kyoto", "minakuchi", "kuwana", "kiyosu"]
    rejected(game, together(ISHIDA, "osaka", FIVE[:4], path), "7.3.3")
    game.apply(together(ISHIDA, "osaka", FIVE[:4], path, forced_march=MORI_CARDS[0]))
    assert where_is(game, FIVE[:4]) == {"kiyosu"}


@pytest.mark.parametrize(("count", "reach"), [(4, 3), (5, 2), (8, 2), (9, 1), (12, 1)])
def test_7_3_5_size_penalty_at_the_fifth_and_ninth_block(count, reach):
    path = ["kyoto", "minakuchi", "kuwana", "kiyosu"]
    stack = soldiers(ISHIDA, count)
    game = position(None, osaka=stack)  # 1 + castle + highway = 3 before the penalty
    rejected(game, together(ISHIDA, "osaka", stack, path[:reach + 1]),
             "7.3.3" if count <= 4 else "7.3.5")  # beyond the base range, or the size penalty
    game.apply(together(ISHIDA, "osaka", stack, path[:reach]))
    assert where_is(game, stack) == {path[reach - 1]}


def test_7_3_5_thirteen_blocks_with_every_bonus_move_one():
    stack = soldiers(ISHIDA, 13)
    game = position(None, hands={ISHIDA: MORI_CARDS[:1]}, osaka=stack)
    rejected(game, together(ISHIDA, "osaka", stack, ["kyoto", "minakuchi"],
                            forced_march=MORI_CARDS[0]), "7.3.5")
    game.apply(together(ISHIDA, "osaka", stack, ["kyoto"], forced_march=MORI_CARDS[0]))


def test_7_3_6_seventeen_blocks_cannot_move_at_all():
    stack = soldiers(ISHIDA, 17)
    game = position(None, hands={ISHIDA: MORI_CARDS[:1]}, osaka=stack)
    rejected(game, together(ISHIDA, "osaka", stack, ["kyoto"], forced_march=MORI_CARDS[0]),
             "7.3.5")
    group = game.view(ISHIDA)["options"]["groups"][0]
    assert group["blocks"] == 17 and group["reachable"] == []


def test_7_3_5_penalty_of_the_largest_group_a_block_travelled_in():
    a, b, c, d, e = FIVE
    game = position(None, osaka=FIVE)
    on = ["kyoto", "minakuchi", "kuwana"]
    # e is dropped off at Kyoto: the other four travelled as five, so only 2 locations
    rejected(game, move(ISHIDA, "osaka", {**dict.fromkeys([a, b, c, d], on), e: ["kyoto"]}),
             "7.3.5")
    # e leaves by another road from the start: the four travel as four, 3 locations
    game.apply(move(ISHIDA, "osaka", {**dict.fromkeys([a, b, c, d], on), e: ["himeji"]}))
    assert where_is(game, [a, b, c, d]) == {"kuwana"}


# --- 7.3.2 and 7.4 overrun -------------------------------------------------------------------


def test_7_3_2_moving_into_enemy_units_ends_the_move():
    game = position(None, osaka=FIVE[:3], kyoto=["T-date-2-1"])
    error = rejected(game, together(ISHIDA, "osaka", FIVE[:3], ["kyoto", "minakuchi"]),
                     "7.3.2")
    assert "Kyoto" in error.message
    events = game.apply(together(ISHIDA, "osaka", FIVE[:3], ["kyoto"]))
    assert "Overrun" not in event_types(events)
    assert game.state.positions["T-date-2-1"] == "kyoto"


def test_7_4_1_four_blocks_overrun_one_and_move_on():
    game = position(None, osaka=FIVE[:4], kyoto=["T-date-2-1"])
    events = game.apply(together(ISHIDA, "osaka", FIVE[:4], ["kyoto", "minakuchi"]))
    overrun = of_type(events, "Overrun")[0].data
    assert overrun["at"] == "kyoto" and overrun["blocks"] == ("T-date-2-1",)
    assert game.state.positions["T-date-2-1"] == ELIMINATED
    assert where_is(game, FIVE[:4]) == {"minakuchi"}
    assert "T-date-2-1" in {b["block"] for b in game.view(PUBLIC)["eliminated"]}


def test_7_4_1_eight_blocks_overrun_two():
    stack = soldiers(ISHIDA, 8)
    game = position(None, osaka=stack, kyoto=["T-date-2-1", "T-date-2-2"])
    events = game.apply(together(ISHIDA, "osaka", stack, ["kyoto", "minakuchi"]))
    assert set(of_type(events, "Overrun")[0].data["blocks"]) == {"T-date-2-1", "T-date-2-2"}


def test_7_4_1_seven_against_two_must_stop():
    stack = soldiers(ISHIDA, 7)
    game = position(None, osaka=stack, kyoto=["T-date-2-1", "T-date-2-2"])
    rejected(game, together(ISHIDA, "osaka", stack, ["kyoto", "minakuchi"]), "7.3.2")


def test_7_4_2_blocks_already_there_count_two_stacks_of_two():
    """7.4.2 example: two blocks move in and stop; two more arrive: the enemy block is
    overrun, the second stack moves on, the first has moved and may not move again."""
    first, second = FIVE[:2], FIVE[2:4]
    game = position(None, osaka=first, sawayama=second, kyoto=["T-date-2-1"])
    events = game.apply(together(ISHIDA, "osaka", first, ["kyoto"]))
    assert "Overrun" not in event_types(events)
    events = game.apply(together(ISHIDA, "sawayama", second, ["kyoto", "minakuchi"]))
    assert of_type(events, "Overrun")[0].data["strength"] == 4
    assert game.state.positions["T-date-2-1"] == ELIMINATED
    assert where_is(game, second) == {"minakuchi"}
    rejected(game, together(ISHIDA, "kyoto", first, ["ayabe"]), "7.3.1")


def test_7_4_3_units_controlling_a_castle_cannot_be_overrun():
    stack = [*FIVE[:3], "I-ukita-leader-1"]
    game = position(None, kumano=stack, anotsu=["T-date-2-1"])
    assert game.state.castles["anotsu"] == TOKUGAWA
    error = rejected(game, together(ISHIDA, "kumano", stack, ["anotsu", "kuwana"],
                                    leader="I-ukita-leader-1"), "7.4.3")
    assert "cannot be overrun" in error.message and "too few" not in error.message
    events = game.apply(together(ISHIDA, "kumano", stack, ["anotsu"]))
    assert "Overrun" not in event_types(events)
    assert game.state.positions["T-date-2-1"] == "anotsu"
    assert game.state.castles["anotsu"] == TOKUGAWA


def test_7_4_3_a_disk_alone_holds_its_castle_and_cannot_be_overrun():
    stack = soldiers(TOKUGAWA, 4)
    game = position(None, active=TOKUGAWA, kyoto=stack)  # Osaka: only Hideyori's disk
    events = game.apply(together(TOKUGAWA, "kyoto", stack, ["osaka"]))
    assert "Overrun" not in event_types(events)
    assert game.state.disks["toyotomi_hideyori"] == "osaka"
    assert game.outcome is None
    assert game.state.castles["osaka"] == ISHIDA


def test_7_4_3_the_garrison_counts_when_overrunning_besiegers():
    game = position(None, gifu=FIVE[:2], sawayama=FIVE[2:4])
    game = placed(game, {"T-date-2-1": "gifu"}, level="total")
    assert game.state.castles["gifu"] == ISHIDA  # Tokugawa besieges from outside
    events = game.apply(together(ISHIDA, "sawayama", FIVE[2:4], ["gifu", "iwamura"]))
    assert of_type(events, "Overrun")[0].data["blocks"] == ("T-date-2-1",)
    assert where_is(game, FIVE[2:4]) == {"iwamura"}


def test_7_4_1_a_recruitment_can_overrun():
    game = recruiting(himeji=["T-date-2-1", "I-kobayakawa-2-1"])
    game = placed(game, {"I-mori-2-3": I_BOX}, level="total")
    events = game.apply(recruit(["I-mori-2-1", "I-mori-2-2", "I-mori-2-3"], "himeji"))
    assert of_type(events, "Overrun")[0].data["blocks"] == ("T-date-2-1",)
    assert game.state.positions["T-date-2-1"] == ELIMINATED


def test_7_4_1_mori_arrivals_can_overrun():
    game = position(None, hands={ISHIDA: MORI_CARDS[:3]}, osaka=["I-kobayakawa-2-1",
                                                                  "T-date-2-1"])
    game = placed(game, at(MORI_BOX, MORI_TRIANGLES), level="total")
    assert game.state.castles["osaka"] == ISHIDA
    events = game.apply(Action(ISHIDA, "mori", {"cards": MORI_CARDS[:3]}))
    assert of_type(events, "Overrun")[0].data["blocks"] == ("T-date-2-1",)


def test_2_1_overrunning_ishida_mitsunari_wins_for_tokugawa():
    stack = soldiers(TOKUGAWA, 4)
    game = position(None, active=TOKUGAWA, kuwana=stack, minakuchi=["I-ishida-leader-1"])
    events = game.apply(together(TOKUGAWA, "kuwana", stack, ["minakuchi"]))
    assert "GameEnded" in event_types(events)
    assert game.outcome is not None and game.outcome.winner == TOKUGAWA


# --- 4.2 and 4.3 control ---------------------------------------------------------------------


def test_4_2_moving_through_a_resource_location_takes_control():
    game = position(None, active=TOKUGAWA, sawayama=["T-date-2-1"])
    assert game.state.resources["kyoto"] == ISHIDA
    events = game.apply(move(TOKUGAWA, "sawayama", {"T-date-2-1": ["kyoto", "minakuchi"]}))
    changed = of_type(events, "ResourceControlChanged")
    assert [(e.data["location"], e.data["side"]) for e in changed] == [("kyoto", TOKUGAWA)]
    assert game.state.resources["kyoto"] == TOKUGAWA


def test_4_2_moving_into_an_uncontrolled_resource_location_takes_control():
    game = position(None, minakuchi=["I-mori-2-1"])
    assert "kuwana" not in game.state.resources
    game.apply(move(ISHIDA, "minakuchi", {"I-mori-2-1": ["kuwana"]}))
    assert game.state.resources["kuwana"] == ISHIDA


def test_4_3_a_castle_left_empty_reverts_to_its_allegiance():
    game = position(None, anotsu=["I-mori-2-1"])
    assert game.state.castles["anotsu"] == ISHIDA
    events = game.apply(move(ISHIDA, "anotsu", {"I-mori-2-1": ["kuwana"]}))
    changed = of_type(events, "CastleControlChanged")
    assert [(e.data["location"], e.data["side"]) for e in changed] == [("anotsu", TOKUGAWA)]


def test_4_3_a_castle_keeps_its_holder_while_blocks_stay():
    game = position(None, anotsu=["I-mori-2-1", "I-mori-2-2"])
    events = game.apply(move(ISHIDA, "anotsu", {"I-mori-2-1": ["kuwana"]}))
    assert "CastleControlChanged" not in event_types(events)
    assert game.state.castles["anotsu"] == ISHIDA


def test_4_3_an_enemy_moving_into_an_empty_castle_controls_it():
    game = position(None, active=TOKUGAWA, kiyosu=["T-date-2-1"])
    events = game.apply(move(TOKUGAWA, "kiyosu", {"T-date-2-1": ["gifu"]}))
    changed = of_type(events, "CastleControlChanged")
    assert [(e.data["location"], e.data["side"]) for e in changed] == [("gifu", TOKUGAWA)]
    assert game.state.castles["gifu"] == TOKUGAWA


def test_4_3_passing_through_an_empty_castle_does_not_take_it():
    stack = ["T-date-2-1", "T-fukushima-leader-1"]
    game = position(None, active=TOKUGAWA, kiyosu=stack)
    events = game.apply(together(TOKUGAWA, "kiyosu", stack, ["gifu", "sawayama"],
                                 leader="T-fukushima-leader-1"))
    assert "CastleControlChanged" not in event_types(events)
    assert game.state.castles["gifu"] == ISHIDA


# --- 9.3 Mori Terumoto -----------------------------------------------------------------------


def mori_game(cards: int, level: str = "total", **stacks: list[str]):
    game = position(None, level=level, hands={ISHIDA: MORI_CARDS[:cards]}, **stacks)
    return placed(game, at(MORI_BOX, MORI_TRIANGLES), level=level)


def mori(cards: list[str]) -> Action:
    return Action(ISHIDA, "mori", {"cards": cards})


def test_9_3_one_mori_block_per_card_the_leader_last():
    game = mori_game(5)
    events = game.apply(mori(MORI_CARDS[:4]))
    arrived = set(of_type(events, "MoriArrived")[0].data["blocks"])
    assert arrived == set(MORI_TRIANGLES[:4])
    assert where_is(game, MORI_TRIANGLES[:4]) == {"osaka"}
    assert game.state.positions["I-mori-leader-1"] == MORI_BOX
    game.apply(mori(MORI_CARDS[4:5]))
    assert game.state.positions["I-mori-leader-1"] == "osaka"


def test_9_3_two_cards_bring_two_blocks_not_the_leader():
    game = mori_game(2)
    game.apply(mori(MORI_CARDS[:2]))
    assert len(game.state.blocks_at("osaka")) == 2
    assert game.state.positions["I-mori-leader-1"] == MORI_BOX


def test_9_3_no_more_cards_than_blocks_in_the_mori_box():
    game = mori_game(5)
    game = placed(game, at("osaka", MORI_TRIANGLES[:1]), level="total")
    rejected(game, mori(MORI_CARDS[:5]), "9.3")
    rejected(game, mori([]), "9.3")


def test_9_3_the_cards_go_to_the_discard_pile():
    game = mori_game(3)
    events = game.apply(mori(MORI_CARDS[:2]))
    assert of_type(events, "CardsDiscarded")[0].data["cards"] == tuple(MORI_CARDS[:2])
    hand = game.state.hands[ISHIDA]
    assert set(MORI_CARDS[:2]) <= hand.discard and hand.count == 1


def test_9_3_only_the_ishida_player_brings_in_the_mori():
    game = position(None, active=TOKUGAWA, hands={TOKUGAWA: T_CARDS[:2]})
    game = placed(game, at(MORI_BOX, MORI_TRIANGLES), active=TOKUGAWA, level="total")
    rejected(game, Action(TOKUGAWA, "mori", {"cards": T_CARDS[:1]}), "9.3")


def test_9_3_arrived_mori_blocks_cannot_move_this_turn():
    game = mori_game(1, osaka=["I-kobayakawa-2-1"])
    game.apply(mori(MORI_CARDS[:1]))
    with pytest.raises(IllegalAction):
        game.apply(move(ISHIDA, "osaka", {"I-mori-3-1": ["kyoto"]}))
    game.apply(move(ISHIDA, "osaka", {"I-kobayakawa-2-1": ["kyoto"]}))
    assert game.state.positions["I-mori-3-1"] == "osaka"


def test_9_3_bringing_in_the_mori_is_not_one_of_the_moves():
    game = mori_game(1, level="minimal", kyoto=["I-kobayakawa-2-1"])
    game.apply(mori(MORI_CARDS[:1]))
    game.apply(move(ISHIDA, "kyoto", {"I-kobayakawa-2-1": ["ayabe"]}))


def test_9_3_mori_blocks_arrive_shown():
    game = mori_game(1)
    game.apply(mori(MORI_CARDS[:1]))
    seen = game.view(TOKUGAWA)["locations"]["osaka"][ISHIDA]["blocks"]
    assert [b["block"] for b in seen] == ["I-mori-3-1"]


# --- views -----------------------------------------------------------------------------------


def test_view_offers_the_levels_the_hand_can_pay_for():
    game = position(None, level=None, hands={ISHIDA: MORI_CARDS[:1]}, osaka=FIVE)
    levels = game.view(ISHIDA)["options"]["levels"]
    assert set(levels) == {"none", "minimal", "limited"}
    assert levels["limited"] == 1


def test_view_options_give_each_group_its_range_and_reachable_locations():
    game = position(None, osaka=FIVE, sawayama=["I-ukita-2-2"])
    groups = {g["from"]: g for g in game.view(ISHIDA)["options"]["groups"]}
    a = groups["osaka"]
    assert a["blocks"] == 5 and a["command"] == "castle"
    assert a["range"]["base"] == 1 and a["range"]["command"] == 1
    assert a["range"]["size_penalty"] == -1 and a["range"]["all_highway"] == 2
    assert {"kyoto", "minakuchi", "himeji"} <= set(a["reachable"])
    assert "kuwana" not in a["reachable"] and "kuwana" in a["one_block"]
    assert "minakuchi" in groups["sawayama"]["reachable"]

    game.apply(together(ISHIDA, "osaka", FIVE, ["kyoto", "minakuchi"]))
    groups = {g["from"]: g for g in game.view(ISHIDA)["options"]["groups"]}
    assert set(groups) == {"sawayama"}  # group A has moved
    assert "kyoto" in groups["sawayama"]["reachable"]
    assert "minakuchi" not in groups["sawayama"]["reachable"]  # the road is used


def test_view_reach_stops_at_enemies_it_cannot_overrun():
    game = position(None, osaka=FIVE[:1], kyoto=["T-date-2-1"])
    reachable = game.view(ISHIDA)["options"]["groups"][0]["reachable"]
    assert "kyoto" in reachable and "minakuchi" not in reachable


def test_view_only_the_active_side_gets_movement_options():
    game = position(None, osaka=FIVE, edo=["T-date-2-1"])
    assert "options" in game.view(ISHIDA)
    assert "options" not in game.view(TOKUGAWA)
    assert "options" not in game.view(PUBLIC)


def test_view_the_other_side_sees_counts_not_block_ids():
    game = position(None, osaka=FIVE, kyoto=["I-ukita-leader-1"], edo=["T-date-2-1"])
    for role in (TOKUGAWA, PUBLIC):
        view = game.view(role)
        assert view["locations"]["osaka"][ISHIDA] == {"count": 5, "blocks": []}
        text = json.dumps(view)
        assert not any(b in text for b in [*FIVE, "I-ukita-leader-1"])
    own = game.view(ISHIDA)["locations"]["osaka"][ISHIDA]["blocks"]
    assert {b["block"] for b in own} == set(FIVE)
    assert game.view(ISHIDA)["locations"]["edo"][TOKUGAWA]["blocks"] == []


def test_view_recruitment_and_mori_options_until_used():
    game = recruiting()
    game = placed(game, at(MORI_BOX, MORI_TRIANGLES), level="limited")
    options = game.view(ISHIDA)["options"]
    assert options["recruit"]["whole_clan_to"]["mori"] == ["himeji"]
    assert {"himeji", "osaka"} <= set(options["recruit"]["one_block_to"])
    assert "kyoto" not in options["recruit"]["one_block_to"]
    assert options["mori_waiting"] == 5
    assert game.view(ISHIDA)["movement"]["moves_left"] == 3
    game.apply(recruit(["I-ukita-2-2"], "himeji"))
    assert game.view(ISHIDA)["options"]["recruit"] is None
    assert game.view(ISHIDA)["movement"]["moves_left"] == 2


@pytest.mark.parametrize("side", [ISHIDA, TOKUGAWA])
def test_view_reachable_locations_are_exactly_the_legal_whole_stack_moves(side):
    game = placed(BASE, {}, active=side, level="total")  # the set-up position
    legal: dict[tuple[str, int], set[str]] = {}
    for action in game.legal_actions(side):
        if action.verb == "move":
            paths = action.args["paths"]
            key = (action.args["from"], len(paths))
            legal.setdefault(key, set()).add(next(iter(paths.values()))[-1])
    groups = game.view(side)["options"]["groups"]
    assert groups
    for group in groups:
        assert set(group["reachable"]) == legal[(group["from"], group["blocks"])]


def test_7_2_recruiting_into_a_castle_held_by_its_disk_is_allowed():
    game = position(None, osaka=["T-date-2-1"])
    game = placed(game, at(I_BOX, ["I-kobayakawa-2-1"]), level="total")
    assert game.state.castles["osaka"] == ISHIDA
    game.apply(recruit(["I-kobayakawa-2-1"], "osaka"))
    assert game.state.positions["I-kobayakawa-2-1"] == "osaka"


def test_9_3_arrived_mori_blocks_cannot_move_cites_9_3():
    game = mori_game(1, osaka=["I-kobayakawa-2-1"])
    game.apply(mori(MORI_CARDS[:1]))
    rejected(game, move(ISHIDA, "osaka", {"I-mori-3-1": ["kyoto"]}), "9.3")


def test_7_3_4_a_declared_leader_is_shown_to_the_opponent():
    stack = ["I-mori-2-1", "I-ukita-leader-1"]
    game = position(None, minakuchi=stack)
    game.apply(together(ISHIDA, "minakuchi", stack, ["kyoto", "ayabe"],
                        leader="I-ukita-leader-1"))
    seen = game.view(TOKUGAWA)["locations"]["ayabe"][ISHIDA]["blocks"]
    assert [b["block"] for b in seen] == ["I-ukita-leader-1"]


def test_7_3_3_part_of_a_split_stack_may_force_march():
    game = position(None, hands={ISHIDA: MORI_CARDS[:1]},
                    minakuchi=["I-mori-2-1", "I-mori-2-2"])
    paths = {"I-mori-2-1": ["kyoto", "ayabe"], "I-mori-2-2": ["kuwana"]}
    rejected(game, move(ISHIDA, "minakuchi", paths, forced_march=MORI_CARDS[0]), "7.3.3")
    game.apply(move(ISHIDA, "minakuchi", paths, forced_march=MORI_CARDS[0],
                    marching=["I-mori-2-1"]))
    assert game.state.positions["I-mori-2-1"] == "ayabe"
    assert MORI_CARDS[0] in game.state.hands[ISHIDA].discard
