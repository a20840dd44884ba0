"""The referee's reading of the table for Sekigahara: diffs, card scans and buttons become
actions, questions or alerts (9, first part)."""

from __future__ import annotations

from sekigahara_helpers import KIT, placed, set_up

from companion.engine import Action, Alert, Proposal, Question
from companion.games.sekigahara.referee import SekigaharaReferee
from companion.table import TableRegistry
from companion.vision.table import TableDiff, TableSnapshot

REGISTRY = TableRegistry.in_kit_order(b.id for b in KIT.blocks)
TAG = REGISTRY.tags
ISH, TOK = "ishida", "tokugawa"
A, B, C = "I-ukita-2-1", "I-ukita-2-2", "I-ukita-3-1"


def referee(game):
    return SekigaharaReferee(game.rules, REGISTRY)


def moved(**moves):
    return TableDiff({TAG[b]: (frm, to) for b, (frm, to) in moves.items()}, {}, {})


def test_a_bid_is_read_from_the_card_scanned():
    game = set_up()
    card = sorted(game.state.hands[ISH].cards)[0]
    (ruling,) = referee(game).on_card(game.state, f"CARD:{card}")
    assert ruling == Proposal(Action(ISH, "bid", {"card": card}))
    (unknown,) = referee(game).on_card(game.state, "04A1B2C3D4")
    assert isinstance(unknown, Alert) and unknown.rule == "3.3"


def test_the_movement_level_is_the_number_of_cards_scanned_and_zero_asks():
    game = placed(set_up(), {A: "osaka"}, active=ISH, clear=True,
                  hands={ISH: ["I-ukita-plain-1", "I-mori-plain-1"]})
    ref = referee(game)
    (question,) = ref.on_button(game.state, "confirm")
    assert isinstance(question, Question)
    assert {a.args["level"] for a in question.options} == {"minimal", "none"}  # 7.1: ask
    ref.on_card(game.state, "CARD:I-ukita-plain-1")
    (ruling,) = ref.on_button(game.state, "confirm")
    assert ruling == Proposal(Action(ISH, "movement_level",
                                     {"level": "limited", "cards": ["I-ukita-plain-1"]}))


def test_a_stack_seen_at_a_new_place_is_a_group_move_along_the_only_way():
    game = placed(set_up(), {A: "osaka", B: "osaka"}, active=ISH, level="total", clear=True)
    (ruling,) = referee(game).on_diff(game.state, moved(**{A: ("osaka", "minakuchi"),
                                                           B: ("osaka", "kyoto")}))
    assert isinstance(ruling, Proposal)
    assert ruling.action.args["paths"] == {A: ("kyoto", "minakuchi"), B: ("kyoto",)}
    game.apply(ruling.action)  # the engine takes it


def test_two_ways_of_equal_length_become_a_question():
    game = placed(set_up(), {A: "osaka"}, active=ISH, level="total", clear=True)
    (ruling,) = referee(game).on_diff(game.state, moved(**{A: ("osaka", "ayabe")}))
    assert isinstance(ruling, Question)
    ways = {a.args["paths"][A] for a in ruling.options}
    assert ways == {("himeji", "ayabe"), ("kyoto", "ayabe")}


def test_recruits_seen_on_the_map_are_a_recruitment():
    game = placed(set_up(), {C: "ishida_recruitment"}, active=ISH, level="total", clear=True)
    (ruling,) = referee(game).on_diff(game.state, moved(**{C: ("ishida_recruitment",
                                                               "himeji")}))
    assert ruling == Proposal(Action(ISH, "recruit", {"blocks": [C], "to": "himeji"}))


def test_an_illegal_move_is_an_alert_and_desync_until_the_table_is_put_back():
    game = placed(set_up(), {A: "kiso"}, active=ISH, level="total", clear=True)
    ref = referee(game)
    (alert,) = ref.on_diff(game.state, moved(**{A: ("kiso", "arato")}))  # 2 roads, range 1
    assert isinstance(alert, Alert) and alert.rule == "7.3.3"
    assert ref.desync == alert
    assert ref.on_diff(game.state, moved(**{A: ("arato", "suwa")})) == [alert]  # still waiting
    assert not ref.table_matches(game.state, TableSnapshot({TAG[A]: "suwa"}, 1.0))
    assert ref.table_matches(game.state, TableSnapshot({TAG[A]: "kiso"}, 1.0))
    assert ref.desync is None


def test_the_next_phase_button_ends_the_movement_phase():
    game = placed(set_up(), {A: "osaka"}, active=ISH, level="total", clear=True)
    (ruling,) = referee(game).on_button(game.state, "next_phase")
    assert ruling == Proposal(Action(ISH, "end_movement"))


def battle_at_kiso():
    """The rulebook's combat example position: Ishida marched from Iwamura into Kiso."""
    from test_sekigahara_combat import example_battle

    return example_battle()


def test_a_card_then_a_block_in_the_deployment_area_is_a_deployment():
    game = battle_at_kiso()
    ref = referee(game)
    assert ref.on_card(game.state, "CARD:I-mori-special-1") == []  # waits for its block
    (ruling,) = ref.on_diff(game.state, moved(**{"I-mori-cav-1": ("kiso", "deployment")}))
    assert ruling == Proposal(Action(ISH, "deploy", {"block": "I-mori-cav-1",
                                                     "card": "I-mori-special-1"}))
    game.apply(ruling.action)
    (leader,) = ref.on_diff(game.state, moved(**{"T-maeda-cav-1": ("kiso", "deployment")}))
    assert isinstance(leader, Alert) and leader.rule == "8.2.2"  # no card scanned: refused


def test_a_loyalty_card_scanned_after_a_deployment_is_a_challenge():
    game = battle_at_kiso()
    ref = referee(game)
    ref.on_card(game.state, "CARD:I-ukita-double-1")
    (deploy,) = ref.on_diff(game.state, moved(**{"I-ukita-2-1": ("kiso", "deployment"),
                                                 "I-ukita-2-2": ("kiso", "deployment")}))
    assert deploy.action.args["also"] == "I-ukita-2-2"  # a double card, two blocks
    game.apply(deploy.action)
    (challenge,) = ref.on_card(game.state, "CARD:T-loyalty-1")
    assert isinstance(challenge, Alert)  # Tokugawa holds no loyalty card in this example


def test_the_next_phase_button_declares_the_only_battle():
    from sekigahara_helpers import move

    where = {A: "iwamura", "T-date-2-1": "kiso"}
    game = placed(set_up(), where, active=ISH, level="total", clear=True)
    game.apply(move(ISH, "iwamura", {A: ["kiso"]}))
    game.apply(Action(ISH, "end_movement"))
    (ruling,) = referee(game).on_button(game.state, "next_phase")
    assert ruling == Proposal(Action(ISH, "declare", {"at": "kiso"}))


def test_blocks_appearing_at_a_set_up_marker_are_that_marker_s_draw():
    from companion.engine import Game
    from companion.games.sekigahara.rules import SekigaharaRules

    game = Game(SekigaharaRules(KIT, {"knowledge": "table"}))
    bag = [b.id for b in KIT.blocks if b.side == ISH and b.setup is None]
    diff = TableDiff({}, {TAG[bag[0]]: "kyoto", TAG[bag[1]]: "kyoto"}, {})
    (ruling,) = referee(game).on_diff(game.state, diff)
    assert ruling == Proposal(Action("chance", "draw_blocks", {
        "side": ISH, "to": "kyoto", "blocks": sorted(bag[:2])}))
    too_many = TableDiff({}, {TAG[b]: "gifu" for b in bag[2:5]}, {})
    (alert,) = referee(game).on_diff(game.state, too_many)
    assert isinstance(alert, Alert) and alert.rule == "5.2.2"  # the marker calls for 2


def test_mori_blocks_out_of_their_box_after_a_card_each_are_the_mori_arrival():
    mori = "I-mori-3-1"
    game = placed(set_up(), {A: "osaka", mori: "mori_box"}, active=ISH, level="total",
                  clear=True, hands={ISH: ["I-ukita-plain-1", "I-ukita-plain-2"]})
    ref = referee(game)
    assert ref.on_card(game.state, "CARD:I-ukita-plain-1") == []
    (ruling,) = ref.on_diff(game.state, moved(**{mori: ("mori_box", "osaka")}))
    assert ruling == Proposal(Action(ISH, "mori", {"cards": ["I-ukita-plain-1"]}))  # 9.3
    game.apply(ruling.action)
    assert game.state.positions[mori] == "osaka"


def test_blocks_taken_from_the_eliminated_area_onto_the_map_are_an_alert_not_a_crash():
    game = placed(set_up(), {A: "eliminated"}, active=ISH, level="total", clear=True)
    (alert,) = referee(game).on_diff(game.state, moved(**{A: ("eliminated", "osaka")}))
    assert isinstance(alert, Alert) and alert.rule == "7.3" and "eliminated" in alert.message


def test_the_leader_button_declares_command_for_the_next_move():
    leader = "I-ukita-leader-1"
    game = placed(set_up(), {A: "osaka", leader: "osaka"}, active=ISH, level="total",
                  clear=True)
    ref = referee(game)
    (plain,) = ref.on_diff(game.state, moved(**{A: ("osaka", "kyoto")}))
    assert isinstance(plain, Proposal) and "leader" not in plain.action.args
    assert ref.on_button(game.state, "leader") == []
    (declared,) = ref.on_diff(game.state, moved(**{A: ("osaka", "kyoto")}))
    assert isinstance(declared, Proposal) and declared.action.args["leader"] == leader  # 7.3.4
    (after,) = ref.on_diff(game.state, moved(**{A: ("osaka", "kyoto")}))
    assert "leader" not in after.action.args  # one move only


def test_who_moves_first_is_asked_on_the_tablet():
    game = set_up()
    ref = referee(game)
    for side in (ISH, TOK):
        card = sorted(game.state.hands[side].cards)[0]
        game.apply(Action(side, "bid", {"card": card}))
    (question,) = ref.decisions(game.state)
    assert isinstance(question, Question) and "6.3" in question.text
    assert {a.args["first"] for a in question.options} == {ISH, TOK}


def test_a_card_scanned_before_a_move_too_long_without_it_is_a_forced_march():
    card = "I-ukita-plain-1"
    game = placed(set_up(), {A: "osaka"}, active=ISH, level="limited", clear=True,
                  hands={ISH: [card]})
    rules, state = game.rules, game.state
    kit = rules.ctx.kit
    # a place one step beyond A's range: refused without the card, accepted with it (7.3.3)
    far = next(to for to in kit.neighbours
               for path in referee(game)._paths(state, "osaka", to)
               if not rules.accepts(state, Action(ISH, "move", {"from": "osaka",
                                                               "paths": {A: list(path)}}))
               and rules.accepts(state, Action(ISH, "move", {
                   "from": "osaka", "paths": {A: list(path)}, "forced_march": card})))
    (refused,) = referee(game).on_diff(state, moved(**{A: ("osaka", far)}))
    assert isinstance(refused, Alert) and refused.rule.startswith("7.3")
    ref = referee(game)
    ref.on_card(state, f"CARD:{card}")
    (ruling,) = ref.on_diff(state, moved(**{A: ("osaka", far)}))
    assert isinstance(ruling, Proposal) and ruling.action.args["forced_march"] == card
    assert ref.scanned == []
    game.apply(ruling.action)


EDO_STACK = [b.id for b in KIT.blocks if b.side == TOK and b.leader is None][:4]
T_CARDS = ["T-tokugawa-plain-1", "T-tokugawa-plain-2"]


def edo_split():
    """Four Tokugawa blocks at Edo parting for Suwa and Hamamatsu: four highway steps each,
    one beyond their range without a forced march (7.3.3)."""
    game = placed(set_up(), dict.fromkeys(EDO_STACK, "edo"), active=TOK, level="total",
                  clear=True, hands={TOK: T_CARDS})
    diff = moved(**{b: ("edo", "suwa") for b in EDO_STACK[:2]},
                 **{b: ("edo", "hamamatsu") for b in EDO_STACK[2:]})
    return game, diff


def test_two_cards_then_a_stack_splitting_are_a_forced_march_for_each_group():
    """7.3.3: one forced march per block, so each group of a split stack may force-march with
    its own card. Which card paid for which group cannot be seen: they are paired in scan
    order with the destinations in name order (Hamamatsu, then Suwa)."""
    game, diff = edo_split()
    ref = referee(game)
    for card in T_CARDS:
        assert ref.on_card(game.state, f"CARD:{card}") == []
    (ruling,) = ref.on_diff(game.state, diff)
    assert isinstance(ruling, Proposal), ruling
    assert ruling.action.args["forced_marches"] == {T_CARDS[0]: tuple(sorted(EDO_STACK[2:])),
                                                    T_CARDS[1]: tuple(sorted(EDO_STACK[:2]))}
    assert ref.scanned == []
    game.apply(ruling.action)
    assert {game.state.positions[b] for b in EDO_STACK[:2]} == {"suwa"}
    assert {game.state.positions[b] for b in EDO_STACK[2:]} == {"hamamatsu"}
    assert set(T_CARDS) <= game.state.hands[TOK].discard


def test_one_card_for_a_stack_splitting_two_ways_too_far_is_an_alert_keeping_the_card():
    game, diff = edo_split()
    ref = referee(game)
    ref.on_card(game.state, f"CARD:{T_CARDS[0]}")
    (alert,) = ref.on_diff(game.state, diff)
    assert isinstance(alert, Alert) and alert.rule == "7.3.3"
    assert ref.scanned == [T_CARDS[0]]  # kept for the next try
