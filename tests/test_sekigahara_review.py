"""Regressions for the problems a rules review found (each cites its rule)."""

from __future__ import annotations

import random
from dataclasses import replace

from helpers import refused
from sekigahara_helpers import block, cards_of, move, placed, set_up

from companion.engine import CHANCE, PUBLIC, Action
from companion.games.sekigahara.rules.state import frozen_map

ISH, TOK = "ishida", "tokugawa"
BASE = set_up()


def act(game, side, verb, **args):
    return game.apply(Action(side, verb, args))


def draw_cards(game):
    while CHANCE in game.to_move():
        game.play_chance()


def start(attackers, defenders, *, at="kiso", came=None, side=ISH, hands=None):
    where = {**dict.fromkeys(attackers, came or at), **dict.fromkeys(defenders, at)}
    game = placed(BASE, where, active=side, level="total", clear=True,
                  hands={ISH: [], TOK: [], **(hands or {})})
    if came:
        game.apply(move(side, came, {b: [at] for b in attackers}))
    game.apply(Action(side, "end_movement"))
    game.apply(Action(side, "declare", {"at": at}))
    return game


def test_8_7_2_a_unit_named_twice_among_the_losses_is_refused():
    inside = [block(ISH, "ukita", "2", 1), block(ISH, "ukita", "2", 2)]
    besiegers = [block(TOK, "date", "3", 1), block(TOK, "date", "3", 2), block(TOK, "date", "2", 1)]
    cards = cards_of(TOK, "date", "plain")[:3]
    game = start(besiegers, inside, side=TOK, at="gifu", hands={TOK: cards})
    act(game, ISH, "castle", inside=True)
    act(game, TOK, "deploy", block=besiegers[0], card=cards[0])
    act(game, TOK, "deploy", block=besiegers[1], card=cards[1])  # 3 + 4 = 7: one loss
    act(game, TOK, "done")
    refused(game, Action(ISH, "casualties", {"blocks": [inside[0], inside[0]]}), "8.9.4")


def test_3_3_who_may_act_never_tells_whether_a_loyalty_card_is_held():
    att = [block(ISH, "mori", "cav", 1), block(ISH, "ukita", "2", 1), block(ISH, "ukita", "2", 2)]
    waiting = []
    for hand in (["T-date-plain-1", "T-loyalty-1"], ["T-date-plain-1", "T-date-plain-2"]):
        game = start(att, [block(TOK, "date", "3", 1)],
                     hands={ISH: ["I-mori-plain-1", "I-ukita-plain-1"], TOK: hand})
        act(game, ISH, "deploy", block=att[0], card="I-mori-plain-1")
        act(game, TOK, "deploy", block=block(TOK, "date", "3", 1), card="T-date-plain-1")
        act(game, ISH, "deploy", block=att[1], card="I-ukita-plain-1")
        waiting.append((game.view(PUBLIC)["waiting_for"], game.view(ISH)["waiting_for"]))
    assert waiting[0] == waiting[1]


def test_8_5_acting_without_the_initiative_cites_8_5_and_a_siege_8_9_4():
    game = start([block(ISH, "ukita", "2", 1)], [block(TOK, "date", "3", 1)],
                 hands={TOK: ["T-date-plain-1"]})
    refused(game, Action(TOK, "deploy", {"block": block(TOK, "date", "3", 1),
                                         "card": "T-date-plain-1"}), "8.5")


def test_3_1_a_split_retreat_hides_a_declared_leader():
    lead = block(ISH, "ukita", "leader")
    ish = [lead, block(ISH, "ukita", "2", 1), block(ISH, "ukita", "2", 2)]
    tok = [block(TOK, "date", "3", 1), block(TOK, "date", "3", 2), block(TOK, "date", "2", 1)]
    cards = cards_of(TOK, "date", "plain")[:5]
    game = placed(BASE, {**dict.fromkeys(ish, "sawayama"), **dict.fromkeys(tok, "iwamura")},
                  active=ISH, level="total", clear=True, hands={ISH: [], TOK: cards})
    act(game, ISH, "move", **{"from": "sawayama", "paths": {b: ["gifu"] for b in ish},
                              "leader": lead})
    act(game, ISH, "end_movement")
    act(game, TOK, "movement_level", level="total", cards=cards[:2])
    act(game, TOK, "move", **{"from": "iwamura", "paths": {b: ["gifu"] for b in tok}})
    act(game, TOK, "end_movement")
    act(game, TOK, "declare", at="gifu")
    act(game, TOK, "deploy", block=tok[0], card=cards[2])
    act(game, ISH, "done")
    act(game, TOK, "done")
    draw_cards(game)
    if game.state.battle.stage == "casualties":
        act(game, ISH, "casualties", blocks=[ish[1]])
    act(game, ISH, "retreat", to="sawayama", castle=[lead])
    draw_cards(game)
    assert lead not in str(game.view(TOK)["locations"])


def test_8_8_5_a_retreat_into_a_siege_held_by_a_disk_joins_it_without_a_new_battle():
    ish = [block(ISH, "ukita", "2", 1), block(ISH, "ukita", "2", 2), block(ISH, "ukita", "3", 1),
           block(ISH, "ukita", "3", 2)]
    besiegers = [block(TOK, "tokugawa", "2", 1), block(TOK, "tokugawa", "2", 2)]
    att = [block(TOK, "date", "3", 1), block(TOK, "date", "3", 2), block(TOK, "date", "2", 1)]
    blockers = {block(TOK, "maeda", "2", 1): "ayabe", block(TOK, "maeda", "2", 2): "minakuchi"}
    cards = cards_of(TOK, "date", "plain")
    game = placed(BASE, {**dict.fromkeys(ish, "kyoto"), **dict.fromkeys(besiegers, "osaka"),
                         **dict.fromkeys(att, "sawayama"), **blockers},
                  active=TOK, level="total", clear=True, hands={ISH: [], TOK: cards[:4]})
    act(game, TOK, "move", **{"from": "sawayama", "paths": {b: ["kyoto"] for b in att}})
    act(game, TOK, "end_movement")
    act(game, TOK, "declare", at="osaka")  # the siege of Hideyori first
    act(game, TOK, "done")
    draw_cards(game)
    act(game, TOK, "declare", at="kyoto")
    act(game, TOK, "deploy", block=att[0], card=cards[0])
    act(game, ISH, "done")
    act(game, TOK, "done")
    draw_cards(game)
    while game.state.battle and game.state.battle.stage == "casualties":
        side = game.to_move()[0]
        mine = [b for b in (ish if side == ISH else att) if game.state.positions[b] == "kyoto"]
        act(game, side, "casualties", blocks=mine[:game.state.battle.losses[side]])
    events = act(game, ISH, "retreat", to="osaka")
    assert not [e for e in events if e.type == "BattleFollows"]
    draw_cards(game)
    assert game.state.battle is None and game.state.castle_choice is None


def test_9_3_mori_blocks_brought_by_an_attack_on_osaka_stay_put_that_turn():
    defender = [block(ISH, "ukita", "2", 1)]
    tok = [block(TOK, "date", "2", 1), block(TOK, "date", "2", 2)]
    game = placed(BASE, {**dict.fromkeys(defender, "osaka"), **dict.fromkeys(tok, "kyoto")},
                  active=TOK, level="total", clear=True, hands={ISH: [], TOK: []})
    mori = [block(ISH, "mori", "3", n) for n in range(1, 5)] + [block(ISH, "mori", "leader")]
    state = game.state
    game._state = replace(state, positions=frozen_map({**state.positions,
                                                       **dict.fromkeys(mori, "mori_box")}))
    act(game, TOK, "move", **{"from": "kyoto", "paths": {b: ["osaka"] for b in tok}})
    act(game, TOK, "end_movement")
    act(game, TOK, "declare", at="osaka")
    assert all(game.state.positions[b] == "osaka" for b in mori)
    while game.state.phase == "combat":
        draw_cards(game)
        roles = game.to_move()
        if not roles or game.state.phase != "combat":
            break
        action = game.rules.random_action(game.state, roles[0], random.Random(1))
        game.apply(action)
    assert (game.state.turn, game.state.active) == ("A", ISH)  # the same turn, Ishida's phase
    act(game, ISH, "movement_level", level="minimal", cards=[])
    refused(game, Action(ISH, "move", {"from": "osaka", "paths": {mori[0]: ["wakayama"]}}), "9.3")


def test_7_3_2_a_split_move_does_not_depend_on_the_order_of_place_names():
    ish = [block(ISH, "ukita", "2", 1), block(ISH, "ukita", "2", 2), block(ISH, "ukita", "3", 1),
           block(ISH, "ukita", "3", 2)]
    foe = block(TOK, "date", "2", 1)
    card = "I-ukita-plain-1"
    results = []
    for via_go, via_stop in (("himeji", "kyoto"), ("kyoto", "himeji")):
        game = placed(BASE, {**dict.fromkeys(ish, "osaka"), foe: "ayabe"}, active=ISH,
                      level="total", clear=True, hands={ISH: [card], TOK: []})
        paths = {ish[0]: [via_go, "ayabe", "miyazu"], ish[1]: [via_go, "ayabe", "miyazu"],
                 ish[2]: [via_stop, "ayabe"], ish[3]: [via_stop, "ayabe"]}
        events = act(game, ISH, "move", **{"from": "osaka", "paths": paths,
                                          "forced_march": card, "marching": ish[:2]})
        results.append([e.type for e in events if e.type == "Overrun"])
    assert results == [["Overrun"], ["Overrun"]]
