"""Rumble Nation on the same core (rules: shared/seeds/rumble-nation-rules-it.txt)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import pytest

from companion.engine import CHANCE, PUBLIC, Action, Game, IllegalAction, random_playout
from companion.games.rumble_nation.rules import RumbleNationRules
from companion.games.rumble_nation.rules.context import Batch, soldiers_for
from companion.games.rumble_nation.rules.state import RNState, frozen
from companion.games.rumble_nation.rules.war import war
from companion.kits import load_kit
from companion.record import read_record, record_of, replay, write_record

KIT = load_kit("rumble_nation")
REGIONS = sorted(KIT.neighbours)
RED, BLUE, YELLOW = "red", "blue", "yellow"


def game_at_deployment(players=3, daimyo=False, first=0, offer=None) -> Game:
    game = Game(RumbleNationRules(KIT, {"players": players, "daimyo": daimyo}))
    castles = dict(zip(REGIONS, range(2, 13), strict=True))
    cards = list(KIT.components.tactic_cards)[: players + 1]
    game.apply(Action(CHANCE, "setup", {
        "castles": castles, "tactics": cards, "first": first,
        "daimyo": (offer or list(KIT.components.daimyo_cards)[: players + 1])
        if daimyo else []}))
    return game


def placed(game: Game, soldiers: dict[str, dict[str, int]], **changes) -> Game:
    """A hand-built position (soldiers by region and player), the reserves adjusted."""
    state = game.state
    reserve = dict(state.reserve)
    for players in soldiers.values():
        for player, n in players.items():
            reserve[player] -= n
    built = Game(game.rules, seed=game.seed)
    built._state = replace(state, soldiers=frozen({r: frozen(p) for r, p in soldiers.items()}),
                           reserve=frozen(reserve), **changes)
    return built


def refused(game, action) -> str:
    before = game.state
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    assert game.state == before
    return info.value.rule


def roll(game, player, *values):
    game.apply(Action(player, "roll"))
    game.apply(Action(CHANCE, "dice", {"values": list(values)}))


@pytest.mark.parametrize(("players", "katana", "display"), [(2, (1, 2), 3), (3, (1, 2, 3), 4),
                                                            (4, (1, 2, 3, 4), 5)])
def test_3_setup_per_number_of_players(players, katana, display):
    game = game_at_deployment(players)
    assert game.rules.katana_values() == katana  # 3 ④
    assert len(game.state.tactics) == display  # 3 ③: players + 1
    assert set(game.state.reserve.values()) == {18}  # 3 ⑤
    assert sorted(game.state.castles.values()) == list(range(2, 13))  # 3 ②


def test_3_setup_refuses_a_wrong_castle_layout():
    game = Game(RumbleNationRules(KIT, {"players": 3}))
    bad = dict(zip(REGIONS, [2] * 11, strict=True))
    assert refused(game, Action(CHANCE, "setup", {"castles": bad, "tactics": [], "first": 0})) \
        == "3"


@pytest.mark.parametrize(("die", "soldiers"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_5_1_the_single_die_sets_how_many_soldiers(die, soldiers):
    assert soldiers_for(die) == soldiers


def test_5_1_the_pair_names_the_region_by_its_castle():
    """Annarosa rolls 3, 4, 5, pairs 3+5: two soldiers to region 8 (the rulebook's example)."""
    game = game_at_deployment()
    roll(game, RED, 3, 4, 5)
    events = game.apply(Action(RED, "deploy", {"pair": [0, 2]}))
    region = next(r for r, v in game.state.castles.items() if v == 8)
    assert events[0].data["region"] == region and game.state.count(region, RED) == 2
    assert game.to_move() == (BLUE,)  # clockwise


def test_5_1_one_reroll_of_all_three_dice_and_no_change_of_mind():
    game = game_at_deployment()
    roll(game, RED, 1, 1, 1)
    assert refused(game, Action(RED, "tactic", {"card": "supporto", "to": REGIONS[0]})) \
        == "5.1.2"  # dice rolled: no tactic card now
    game.apply(Action(RED, "reroll"))
    game.apply(Action(CHANCE, "dice", {"values": [6, 6, 5]}))
    assert refused(game, Action(RED, "reroll")) == "5.1.1"
    assert refused(game, Action(CHANCE, "dice", {"values": [7, 1, 1]})) == "5.1"


def test_5_1_fewer_soldiers_only_when_the_reserve_runs_out_then_the_highest_katana():
    game = placed(game_at_deployment(), {REGIONS[0]: {RED: 17}})
    roll(game, RED, 1, 1, 6)
    events = game.apply(Action(RED, "deploy", {"pair": [0, 1]}))
    assert events[0].data["soldiers"] == 1  # three due, one left
    assert [e.data for e in events if e.type == "KatanaTaken"] == [
        {"player": RED, "value": 3, "rule": "5.1"}]
    roll(game, BLUE, 2, 2, 2)
    game.apply(Action(BLUE, "deploy", {"pair": [0, 1]}))
    assert game.to_move() == (YELLOW,)
    roll(game, YELLOW, 2, 2, 2)
    game.apply(Action(YELLOW, "deploy", {"pair": [0, 1]}))
    assert game.to_move() == (BLUE,)  # red sits out from now on


def test_5_1_2_no_tactic_cards_once_a_player_has_placed_all():
    game = placed(game_at_deployment(), {REGIONS[0]: {BLUE: 18, RED: 1}},
                  katana=frozen({BLUE: 3}))
    assert refused(game, Action(RED, "tactic", {"card": "supporto", "to": REGIONS[0]})) \
        == "5.1.2"


def neighbours_by(kind):
    return next((r.a, r.b) for r in KIT.roads if r.kind == kind)


@pytest.mark.parametrize(("card", "args", "expect"), [
    ("esplorazione", lambda a, b: {"from": a, "to": b}, {"a": 1, "b": 1}),
    ("oltre_le_montagne", lambda a, b: {"from": a, "to": b}, {"a": 0, "b": 2}),
    ("squadra_di_riserva", lambda a, b: {"from": a, "to": b}, {"a": 1, "b": 1}),
    ("supporto", lambda a, b: {"to": a}, {"a": 3, "b": 0}),
    ("ritirata", lambda a, b: {"regions": [a, a]}, {"a": 0, "b": 0}),
])
def test_5_1_2_own_soldier_tactic_cards(card, args, expect):
    a, b = neighbours_by("land")
    game = placed(game_at_deployment(), {a: {RED: 2}, "shuri": {RED: 1}},
                  tactics=(card,))
    game.apply(Action(RED, "tactic", {"card": card, **args(a, b)}))
    assert (game.state.count(a, RED), game.state.count(b, RED)) == (expect["a"], expect["b"])
    assert RED in game.state.tactic_used and card not in game.state.tactics


def test_5_1_2_ninja_goes_anywhere_red_already_stands():
    a, b = neighbours_by("land")
    game = placed(game_at_deployment(), {a: {RED: 2}, "shuri": {RED: 1}}, tactics=("ninja",))
    assert refused(game, Action(RED, "tactic", {"card": "ninja", "from": a, "to": b})) \
        == "5.1.2"  # no red soldier there
    game.apply(Action(RED, "tactic", {"card": "ninja", "from": a, "to": "shuri"}))
    assert (game.state.count(a, RED), game.state.count("shuri", RED)) == (1, 2)


def test_5_1_2_a_card_that_cannot_be_carried_out_in_full_cannot_be_taken():
    game = placed(game_at_deployment(), {"shuri": {RED: 2}},
                  tactics=("oltre_le_montagne", "ritirata", "marina"))
    usuki = "usuki"
    assert refused(game, Action(RED, "tactic", {"card": "oltre_le_montagne", "from": "shuri",
                                                "to": usuki})) == "5.1.2"  # Shuri: sea only
    game.apply(Action(RED, "tactic", {"card": "marina", "from": "shuri", "to": usuki}))
    assert game.state.count(usuki, RED) == 2
    lonely = placed(game_at_deployment(), {"shuri": {RED: 1}}, tactics=("ritirata",))
    assert refused(lonely, Action(RED, "tactic", {"card": "ritirata",
                                                  "regions": ["shuri", "shuri"]})) == "5.1.2"


def test_5_1_2_opponent_tactic_cards():
    a, b = neighbours_by("land")
    game = placed(game_at_deployment(), {a: {RED: 1, BLUE: 3}, b: {RED: 1}},
                  tactics=("ribellione", "esilio", "prigionia", "diversivo"))
    game.apply(Action(RED, "tactic", {"card": "ribellione", "region": a, "opponent": BLUE}))
    assert (game.state.count(a, BLUE), game.state.count(a, RED)) == (2, 2)
    assert game.state.reserve[BLUE] == 16  # the rebel goes back to blue's reserve
    again = replace(game.state, turn=0)  # were it red's turn again: once a game (5.1.2)
    with pytest.raises(IllegalAction, match="once per game") as info:
        game.rules.decide(again, Action(RED, "tactic", {"card": "esilio", "from": a, "to": b,
                                                        "opponent": BLUE}))
    assert info.value.rule == "5.1.2"


def test_5_2_the_rulebooks_war_example_regions_2_to_5():
    """Annarosa (red, katana 3), Edoardo (blue, 2), Serena (yellow, 1): regions 2-5 resolved
    as the rulebook tells it, reinforcements included."""
    castles = {"kyo": 2, "odawara": 3, "tsutsujigasaki": 4, "kasugayama": 5, "yoshida": 12}
    others = [r for r in REGIONS if r not in castles]
    castles.update(zip(others, range(6, 12), strict=True))
    state = RNState(players=(RED, BLUE, YELLOW), phase="deployment", castles=frozen(castles),
                    soldiers=frozen({
                        "kyo": frozen({YELLOW: 2, BLUE: 1}),
                        "odawara": frozen({RED: 2, YELLOW: 2}),
                        "tsutsujigasaki": frozen({RED: 1, BLUE: 1, YELLOW: 1}),
                        "kasugayama": frozen({RED: 2, YELLOW: 4}),
                        "yoshida": frozen({YELLOW: 1})}),
                    katana=frozen({RED: 3, BLUE: 2, YELLOW: 1}))
    batch = Batch(KIT, state)
    war(batch)
    resolved = [e.data for e in batch.events if e.type == "RegionResolved"]
    assert [(r["value"], r["winner"], r["runner_up"]) for r in resolved[:4]] == [
        (2, YELLOW, BLUE), (3, RED, YELLOW), (4, RED, BLUE), (5, RED, YELLOW)]
    assert resolved[2]["strength"][RED] == 3  # 1 soldier + 2 reinforcements
    assert resolved[3]["strength"] == {RED: 6, YELLOW: 6}  # a tie: the katana decides
    sent = [(e.data["from"], e.data["regions"]) for e in batch.events
            if e.type == "ReinforcementsSent"]
    assert sent[:3] == [("kyo", ("kasugayama", "yoshida")),
                        ("odawara", ("tsutsujigasaki", "kasugayama")),
                        ("tsutsujigasaki", ("kasugayama",))]
    assert not any(e.type == "ReinforcementsSent" and e.data["from"] == "kasugayama"
                   for e in batch.events)
    scores = batch.events[-1].data["scores"]
    assert scores == {RED: 3 + 4 + 5, BLUE: 1 + 2, YELLOW: 2 + 1 + 2 + 12}


def test_5_2_empty_regions_lose_their_castles_and_a_lone_player_takes_only_the_large():
    state = RNState(players=(RED, BLUE), phase="deployment",
                    castles=frozen(dict(zip(REGIONS, range(2, 13), strict=True))),
                    soldiers=frozen({REGIONS[0]: frozen({RED: 1})}),
                    katana=frozen({RED: 2, BLUE: 1}))
    batch = Batch(KIT, state)
    war(batch)
    assert sum(e.type == "CastleRemoved" for e in batch.events) == 11
    assert [e.data for e in batch.events if e.type == "CastleTaken"] == [
        {"player": RED, "region": REGIONS[0], "value": 2, "size": "large", "rule": "5.2.2"}]


def test_6_a_tied_score_goes_to_the_higher_katana():
    state = RNState(players=(RED, BLUE), phase="deployment", castles=frozen({}),
                    won=frozen({RED: (5,), BLUE: (5,)}), katana=frozen({RED: 1, BLUE: 2}))
    batch = Batch(KIT, state)
    war(batch)
    assert batch.events[-1].data["winner"] == BLUE


def test_8_daimyo_choice_order_deployment_and_war_strength():
    game = game_at_deployment(players=3, daimyo=True, first=0)
    assert game.to_move() == (YELLOW,)  # from the first player's right, counter-clockwise
    for player in (YELLOW, BLUE, RED):
        game.apply(Action(player, "choose_daimyo",
                          {"card": game.state.daimyo_display[0]}))
    assert game.to_move() == (RED,) and game.state.phase == "deployment"
    assert game.view(BLUE)["daimyo_cards"].keys() == {BLUE}  # face down for the others
    assert set(game.state.reserve.values()) == {16}
    roll(game, RED, 1, 1, 3)  # two units: the daimyo and one soldier
    game.apply(Action(RED, "deploy", {"pair": [0, 1], "daimyo": True}))
    region = game.state.daimyo_at[RED]
    assert game.state.count(region, RED) == 1 and game.state.units(region, RED) == 2


def test_8_oda_nobunaga_moves_the_daimyo_with_one_soldier():
    game = game_at_deployment(players=2, daimyo=True, first=0,
                              offer=["uesugi_kenshin", "oda_nobunaga", "otomo_sorin"])
    game.apply(Action(BLUE, "choose_daimyo", {"card": "uesugi_kenshin"}))
    game.apply(Action(RED, "choose_daimyo", {"card": "oda_nobunaga"}))
    a, b = neighbours_by("land")
    game = placed(game, {a: {RED: 2}}, daimyo_at=frozen({RED: a}),
                  daimyo_in_reserve=frozenset({BLUE}))
    game.apply(Action(RED, "daimyo", {"to": b, "soldiers": 1}))
    assert game.state.daimyo_at[RED] == b and game.state.count(b, RED) == 1
    assert game.view(BLUE)["daimyo_cards"] == {BLUE: "uesugi_kenshin",
                                               RED: "oda_nobunaga"}  # red's: shown once used


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("daimyo", [False, True])
def test_random_games_end_with_scores_and_a_verifying_record(players, daimyo, tmp_path):
    for seed in range(3):
        game = Game(RumbleNationRules(KIT, {"players": players, "daimyo": daimyo}), seed=seed)
        random_playout(game)
        ended = game.history[-1].events[-1]
        assert ended.type == "GameEnded"
        scores = ended.data["scores"]
        assert game.outcome.winner == max(scores, key=lambda p: (
            scores[p], game.state.katana[p]))
        record = record_of(game, KIT, started_at=datetime(2026, 1, 1), source="simulator")
        path = tmp_path / f"{players}-{daimyo}-{seed}.jsonl"
        write_record(path, record.header, record.entries)
        assert replay(read_record(path)).ok
        assert game.view(PUBLIC)["outcome"]["winner"] == game.outcome.winner
