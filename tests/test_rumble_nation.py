"""Rumble Nation on the same core (rules: shared/seeds/rumble-nation-rules-it.txt)."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime
from itertools import combinations, product

import pytest
from helpers import refusal, refused

from companion.engine import CHANCE, PUBLIC, Action, Game, IllegalAction, random_playout
from companion.games.rumble_nation.rules import RumbleNationRules
from companion.games.rumble_nation.rules.context import Batch, soldiers_for
from companion.games.rumble_nation.rules.daimyo import DAIMYO
from companion.games.rumble_nation.rules.state import RNState, frozen
from companion.games.rumble_nation.rules.tactics import TACTICS
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


# --- issue 15: the rulebook read again against the engine -------------------------------------

DAIMYO_CARDS = list(KIT.components.daimyo_cards)


def with_daimyo(card, soldiers, at, players=2, **changes) -> Game:
    """A daimyo game (8) at red's first turn: red holds `card` and his daimyo stands at `at`
    (None: in his reserve); the others chose other cards and keep their daimyo in reserve."""
    others = [c for c in DAIMYO_CARDS if c != card]
    game = game_at_deployment(players=players, daimyo=True, first=0,
                              offer=[card, *others[:players]])
    while game.state.phase == "daimyo":
        chooser = game.to_move()[0]
        pick = card if chooser == RED else next(c for c in game.state.daimyo_display
                                                if c != card)
        game.apply(Action(chooser, "choose_daimyo", {"card": pick}))
    return placed(game, soldiers, daimyo_at=frozen({RED: at} if at else {}),
                  daimyo_in_reserve=frozenset(game.rules.roles) - ({RED} if at else set()),
                  **changes)


def plays(game, role, card=None):
    return [a for a in game.legal_actions(role)
            if card is None or a.args.get("card") == card or (
                a.verb == "daimyo" and game.state.daimyo_cards[role] == card)]


def test_5_1_2_ingresso_a_kyo_brings_any_number_from_the_regions_next_to_kyo():
    """"Muovi un qualsiasi numero di tuoi soldati dalle regioni adiacenti a Kyo alla regione di
    Kyo": the card's moves arrive as a frozen mapping and used to be refused every time."""
    game = placed(game_at_deployment(), {"kiyosu": {RED: 2}, "oko": {RED: 1}, "usuki": {RED: 3}},
                  tactics=("ingresso_a_kyo",))
    offered = plays(game, RED, "ingresso_a_kyo")
    assert len(offered) == 3 * 2 - 1  # 0-2 from Kiyosu and 0-1 from Okō, but not none at all
    assert all(set(a.args["moves"]) <= {"kiyosu", "oko"} for a in offered)  # Usuki: not next
    assert refused(game, Action(RED, "tactic", {"card": "ingresso_a_kyo",
                                                "moves": {"usuki": 1}})) == "5.1.2"
    assert refused(game, Action(RED, "tactic", {"card": "ingresso_a_kyo",
                                                "moves": {"kiyosu": 3}})) == "5.1.2"
    game.apply(Action(RED, "tactic", {"card": "ingresso_a_kyo",
                                      "moves": {"oko": 1, "kiyosu": 2}}))
    assert [game.state.count(r, RED) for r in ("kyo", "kiyosu", "oko", "usuki")] == [3, 0, 0, 3]


def test_8_3_chosokabe_motochika_moves_units_the_daimyo_among_them():
    """"Muovi 1-3 tue unità (soldati e/o daimyo) ... collegata via mare": the daimyo may go too,
    not necessarily where the soldiers go."""
    game = with_daimyo("chosokabe_motochika", {"yoshida": {RED: 3}}, "yoshida")
    card = "chosokabe_motochika"
    assert {"daimyo": "oko"} in [dict(a.args) for a in plays(game, RED, card)]  # alone
    assert refused(game, Action(RED, "daimyo", {"daimyo": "kyo"})) == "8.3"  # by land
    four = {"moves": [{"to": "usuki", "soldiers": 3}], "daimyo": "oko"}
    assert refused(game, Action(RED, "daimyo", four)) == "8.3"  # 4 units
    game.apply(Action(RED, "daimyo", {"moves": [{"to": "usuki", "soldiers": 2}],
                                      "daimyo": "oko"}))
    assert game.state.daimyo_at[RED] == "oko"
    assert [game.state.count(r, RED) for r in ("yoshida", "usuki", "oko")] == [1, 2, 0]


def test_8_the_daimyo_counts_as_a_soldier_so_the_die_is_not_dodged():
    """"È possibile schierare un numero di soldati minore ... solo se il giocatore non possiede
    soldati a sufficienza" (5.1.1) and the daimyo "è considerato un soldato" while deploying (8):
    leaving him in reserve to deploy fewer units than the die says is refused."""
    game = with_daimyo("oda_nobunaga", {"shuri": {RED: 16}}, None)
    assert game.state.reserve[RED] == 0
    roll(game, RED, 1, 1, 5)  # three due; only the daimyo is left
    error = refusal(game, Action(RED, "deploy", {"pair": [0, 1]}))
    assert error.rule == "8" and "daimyo" in error.message
    assert error.alternatives == (Action(RED, "deploy", {"pair": [0, 1], "daimyo": True}),
                                  Action(RED, "deploy", {"pair": [0, 2], "daimyo": True}))
    assert all(a.args.get("daimyo") for a in game.legal_actions(RED) if a.verb == "deploy")
    game.apply(Action(RED, "deploy", {"pair": [0, 1], "daimyo": True}))
    region = next(r for r, v in game.state.castles.items() if v == 2)
    assert game.state.daimyo_at[RED] == region and RED in game.state.katana


def test_8_one_soldier_left_and_a_die_of_three_deploys_the_daimyo_with_it():
    game = with_daimyo("oda_nobunaga", {"shuri": {RED: 15}}, None)
    roll(game, RED, 1, 1, 6)
    assert refused(game, Action(RED, "deploy", {"pair": [0, 1], "daimyo": False})) == "8"
    events = game.apply(Action(RED, "deploy", {"pair": [0, 1], "daimyo": True}))
    assert (events[0].data["soldiers"], events[0].data["daimyo"]) == (1, True)


def test_5_1_2_every_legal_tactic_play_is_listed_once_and_only_with_its_own_arguments():
    """Ninja between two regions of one's own that are not adjacent, Ritirata taking both
    soldiers from one region: accepted by the rules, so offered; and nothing twice."""
    game = placed(game_at_deployment(), {"tokuyama": {RED: 1}, "shuri": {RED: 2},
                                         "kyo": {BLUE: 2, YELLOW: 1}},
                  tactics=("ninja", "ritirata", "diversivo", "supporto"))
    legal = game.legal_actions(RED)
    assert len(set(legal)) == len(legal)
    ninja = {(a.args["from"], a.args["to"]) for a in legal if a.args.get("card") == "ninja"}
    assert ninja == {("tokuyama", "shuri"), ("shuri", "tokuyama")}
    retreat = {tuple(a.args["regions"]) for a in legal if a.args.get("card") == "ritirata"}
    assert retreat == {("shuri", "shuri"), ("shuri", "tokuyama")}
    keys = {"ninja": {"from", "to"}, "ritirata": {"regions"}, "supporto": {"to"}}
    for action in legal:
        if action.verb == "tactic":
            assert set(action.args) - {"card"} == keys[action.args["card"]], action
    assert not [a for a in legal if a.args.get("card") == "diversivo"]  # no red soldier in Kyo


def test_5_1_1_equal_dice_do_not_offer_the_same_deployment_twice():
    game = game_at_deployment()
    roll(game, RED, 3, 3, 5)
    deploys = [a.args["pair"] for a in game.legal_actions(RED) if a.verb == "deploy"]
    assert deploys == [(0, 1), (0, 2)]  # 1+2 pairs 3+5 with a 3 as 0+2 does
    game.apply(Action(RED, "deploy", {"pair": [2, 1]}))  # still accepted, in either order
    region = next(r for r, v in game.state.castles.items() if v == 8)
    assert game.state.count(region, RED) == 2


@pytest.mark.parametrize(("action", "key", "rule"), [
    (Action(RED, "tactic", {"card": "supporto", "to": "shuri", "from": "kyo"}), "'from'",
     "5.1.2"),
    (Action(RED, "tactic", {"card": "esplorazione", "form": "shuri", "to": "usuki"}), "'form'",
     "5.1.2"),
    (Action(RED, "roll", {"dice": 3}), "'dice'", "5.1.1"),
])
def test_5_1_unknown_arguments_are_refused_by_name(action, key, rule):
    game = placed(game_at_deployment(), {"shuri": {RED: 2}},
                  tactics=("supporto", "esplorazione"))
    error = refusal(game, action)
    assert error.rule == rule and key in error.message


def test_5_1_1_deploy_takes_no_daimyo_without_the_daimyo_rules():
    game = game_at_deployment()
    roll(game, RED, 1, 2, 3)
    error = refusal(game, Action(RED, "deploy", {"pair": [0, 1], "daimyo": False}))
    assert error.rule == "5.1.1" and "'daimyo'" in error.message
    error = refusal(game, Action(RED, "daimyo", {"to": "kyo", "soldiers": 0}))
    assert error.rule == "5.1" and "'daimyo' is not possible" in error.message


def test_8_3_a_daimyo_cards_moves_take_only_a_region_and_a_number():
    game = with_daimyo("uesugi_kenshin", {"kyo": {RED: 3}}, "kyo")
    error = refusal(game, Action(RED, "daimyo", {"moves": [{"to": "kiyosu", "soldiers": 1,
                                                           "via": "kasugayama"}]}))
    assert error.rule == "8.3" and "'via'" in error.message


def test_5_1_a_refusal_offers_the_plays_of_the_same_card_each_accepted():
    game = placed(game_at_deployment(), {"tokuyama": {RED: 1}, "shuri": {RED: 2}},
                  tactics=("ninja", "supporto"))
    error = refusal(game, Action(RED, "tactic", {"card": "ninja", "from": "shuri",
                                                 "to": "usuki"}))  # no red soldier there
    assert error.rule == "5.1.2"
    assert {(a.args["from"], a.args["to"]) for a in error.alternatives} == {
        ("tokuyama", "shuri"), ("shuri", "tokuyama")}
    assert "Ninja: 1 soldier Tokuyama → Shuri" in error.legal
    assert all(game.rules.accepts(game.state, a) for a in error.alternatives)


def test_5_1_the_phase_table_cites_the_phase_and_the_turn():
    game = game_at_deployment(players=3, daimyo=True, first=0)
    assert refused(game, Action(YELLOW, "roll")) == "8"  # daimyo cards are chosen first
    assert refused(game, Action(RED, "choose_daimyo", {"card": DAIMYO_CARDS[0]})) == "8"
    deploying = game_at_deployment()
    deploying.apply(Action(RED, "roll"))
    assert refused(deploying, Action(RED, "deploy", {"pair": [0, 1]})) == "5.1.1"
    with pytest.raises(IllegalAction) as info:  # straight to the rules, not through Game
        deploying.rules.decide(deploying.state, Action(BLUE, "roll"))
    assert info.value.rule == "5.1.1"
    assert refused(deploying, Action(CHANCE, "dice", {"values": [True, 1, 1]})) == "5.1.1"


def test_5_1_2_diversivo_takes_two_opponents_soldiers_in_either_order():
    game = placed(game_at_deployment(), {"kyo": {RED: 1, BLUE: 1, YELLOW: 1}},
                  tactics=("diversivo",))
    one = game.rules.decide(game.state, Action(RED, "tactic", {
        "card": "diversivo", "from": "kyo", "to": "oko", "opponents": [YELLOW, BLUE]}))
    other = game.rules.decide(game.state, Action(RED, "tactic", {
        "card": "diversivo", "from": "kyo", "to": "oko", "opponents": [BLUE, YELLOW]}))
    assert one == other
    assert refused(game, Action(RED, "tactic", {"card": "diversivo", "from": "kyo", "to": "oko",
                                                "opponents": [BLUE, BLUE]})) == "5.1.2"
    offered = [a.args["opponents"] for a in plays(game, RED, "diversivo")]
    assert offered == [(BLUE, YELLOW)] * len(KIT.neighbours["kyo"])


def test_8_squadra_di_riserva_counts_the_daimyo_but_leaves_him_behind():
    """The daimyo is a soldier "ai fini di qualsiasi regola" while deploying, but a card naming
    soldiers never takes him (8): 3 soldiers and the daimyo make 4, so 2 soldiers go."""
    game = with_daimyo("oda_nobunaga", {"kyo": {RED: 3}}, "kyo", tactics=("squadra_di_riserva",))
    game.apply(Action(RED, "tactic", {"card": "squadra_di_riserva", "from": "kyo",
                                      "to": "kiyosu"}))
    assert (game.state.count("kyo", RED), game.state.count("kiyosu", RED)) == (1, 2)
    assert game.state.daimyo_at[RED] == "kyo"


def test_8_3_takeda_uesugi_mori_and_otomo_in_full():
    takeda = with_daimyo("takeda_shingen", {"kyo": {RED: 1, BLUE: 3}}, "kyo")
    takeda.apply(Action(RED, "daimyo", {"opponent": BLUE, "moves": [
        {"to": "oko", "soldiers": 1}, {"to": "kiyosu", "soldiers": 2}]}))
    assert [takeda.state.count(r, BLUE) for r in ("kyo", "oko", "kiyosu")] == [0, 1, 2]
    uesugi = with_daimyo("uesugi_kenshin", {"kyo": {RED: 3}}, "kyo")
    assert refused(uesugi, Action(RED, "daimyo", {"moves": [{"to": "oko", "soldiers": 1}]})) \
        == "8.3"  # Okō: by sea
    mori = with_daimyo("mori_motonari", {}, "kyo")
    assert refused(mori, Action(RED, "daimyo", {"moves": [{"to": "oko", "soldiers": 2}]})) \
        == "8.3"  # at most 1 per region
    assert len(plays(mori, RED, "mori_motonari")) == 4 + 6 + 4  # 1, 2 or 3 of 4 regions
    otomo = with_daimyo("otomo_sorin", {"oko": {BLUE: 1}, "kiyosu": {YELLOW: 2}}, "kyo",
                        players=3)
    otomo.apply(Action(RED, "daimyo", {"swaps": [{"region": "oko", "opponent": BLUE},
                                                 {"region": "kiyosu", "opponent": YELLOW}]}))
    assert (otomo.state.count("oko", RED), otomo.state.count("kiyosu", YELLOW)) == (1, 1)
    assert otomo.state.reserve[BLUE] == 16  # 16 with the daimyo rules: 1 placed, 1 back


def war_of(reinforcements):
    """Red alone in Kyo (castle 2) with soldiers next door in Kiyosu (3) and Yoshida (4)."""
    castles = {"kyo": 2, "kiyosu": 3, "yoshida": 4, "shuri": 12}
    state = RNState(players=(RED, BLUE, YELLOW), phase="deployment", castles=frozen(castles),
                    soldiers=frozen({"kyo": frozen({RED: 1}), "kiyosu": frozen({RED: 1}),
                                     "yoshida": frozen({RED: 1}),
                                     "shuri": frozen({BLUE: 1})}),
                    reinforcements=frozen({r: frozen(p) for r, p in reinforcements.items()}),
                    katana=frozen({RED: 3, BLUE: 2, YELLOW: 1}))
    batch = Batch(KIT, state)
    war(batch)
    return next(e.data["regions"] for e in batch.events if e.type == "ReinforcementsSent")


def test_5_2_3_reinforcements_run_out_only_counting_those_still_in_play():
    """30 reinforcements, 2 to each region (3 players); with 28 standing in Shuri, still to be
    fought, only one region gets its 2 (the engine used to send 2 to each, 32 in all); those
    standing in the region being fought are free again once its castle is taken (5.2.3), where
    the engine used to send none."""
    assert war_of({"shuri": {BLUE: 28}}) == ("kiyosu",)
    assert war_of({"shuri": {BLUE: 28}, "kyo": {RED: 2}}) == ("kiyosu",)
    assert war_of({"shuri": {BLUE: 26}}) == ("kiyosu", "yoshida")


def brute_force_tactics(game, role):
    """Every spelling of each tactic card's own arguments over the whole map (a superset)."""
    others = [p for p in game.rules.roles if p != role]
    spellings = [{"to": a} for a in REGIONS]
    spellings += [{"region": a, "opponent": f} for a in REGIONS for f in others]
    for a in REGIONS:
        for b in REGIONS:
            spellings += [{"from": a, "to": b}, {"regions": [a, b]}]
            spellings += [{"from": a, "to": b, "opponent": f} for f in others]
            spellings += [{"from": a, "to": b, "opponents": [f, g]} for f in others
                          for g in others]
    for card in game.state.tactics:
        keys = set(TACTICS[card].keys)
        yield from ({"card": card, **args} for args in spellings if set(args) == keys)


def test_5_1_2_whatever_tactic_play_is_accepted_is_offered():
    """legal_actions lists every play the rules accept, by its effect, for the eleven cards
    spelt with regions and opponents (Ingresso a Kyo's counts are listed in full by
    construction), and nothing more."""
    game = placed(game_at_deployment(), {
        "kyo": {RED: 2, BLUE: 1, YELLOW: 2}, "oko": {RED: 1, BLUE: 2}, "shuri": {YELLOW: 1},
        "tokuyama": {RED: 3}, "kiyosu": {BLUE: 1}}, tactics=tuple(KIT.components.tactic_cards))
    offered = {tuple(game.rules.decide(game.state, a)) for a in game.legal_actions(RED)
               if a.verb == "tactic" and a.args["card"] != "ingresso_a_kyo"}
    accepted = set()
    for args in brute_force_tactics(game, RED):
        action = Action(RED, "tactic", args)
        if game.rules.accepts(game.state, action):
            accepted.add(tuple(game.rules.decide(game.state, action)))
    assert accepted == offered and len(offered) > 50


def brute_force_daimyo(places):
    """Spellings of the daimyo cards' arguments over `places` (destinations named once, in
    order: the rules sort them anyway)."""
    spreads = [[{"to": p, "soldiers": n} for p, n in zip(chosen, counts, strict=True)]
               for k in (1, 2, 3) for chosen in combinations(places, k)
               for counts in product((1, 2, 3), repeat=k)]
    swaps = [[{"region": p, "opponent": BLUE} for p in chosen]
             for k in (1, 2) for chosen in combinations(places, k)]
    yield from ({"moves": m} for m in spreads)
    yield from ({"moves": m, "opponent": BLUE} for m in spreads)
    yield from ({"moves": m, "daimyo": p} for m in spreads for p in places)
    yield from ({"daimyo": p} for p in places)
    yield from ({"to": p, "soldiers": n} for p in places for n in (0, 1))
    yield from ({"swaps": s} for s in swaps)


@pytest.mark.parametrize("card", DAIMYO_CARDS)
def test_8_3_whatever_daimyo_card_play_is_accepted_is_offered(card):
    game = with_daimyo(card, {"yoshida": {RED: 3, BLUE: 2}, "oko": {BLUE: 1},
                              "kyo": {BLUE: 1}}, "yoshida")
    offered = {tuple(game.rules.decide(game.state, a)) for a in game.legal_actions(RED)
               if a.verb == "daimyo"}
    accepted = set()
    for args in brute_force_daimyo(["kyo", "oko", "usuki", "shuri"]):
        action = Action(RED, "daimyo", args)
        if set(args) <= set(DAIMYO[card].keys) and game.rules.accepts(game.state, action):
            accepted.add(tuple(game.rules.decide(game.state, action)))
    assert accepted == offered and offered


def test_5_1_1_the_dice_have_no_order_so_they_are_recorded_ascending():
    """Three dice of one colour cannot be told apart on the table (nor by a camera reading the
    tray): the faces are recorded in ascending order, and `pair` names them in that order."""
    game = game_at_deployment()
    roll(game, RED, 5, 1, 3)
    assert game.state.dice == (1, 3, 5)
    events = game.apply(Action(RED, "deploy", {"pair": [0, 1]}))  # 1+3, and the 5: 3 soldiers
    region = next(r for r, v in game.state.castles.items() if v == 4)
    assert (events[0].data["region"], events[0].data["soldiers"]) == (region, 3)
    drawn = game.rules.sample_chance(game.state, random.Random(1))
    assert list(drawn.args["values"]) == sorted(drawn.args["values"])
