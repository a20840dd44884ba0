"""Sekigahara refusals that would mislead a table (issue 20): a legal play refused, a suggestion
the rules then refuse, a reason that is not the real one; and two readings the rulebook leaves
open (cards after an overrun, a retreat into a much larger force), decided in
docs/sekigahara.md.

The rulebook is shared/seeds/sekigahara-rules-de-2016-yucata.txt (2016, the authority),
cross-checked with the Italian 2011 text. Positions are placed by hand (`placed`) and played on
with real actions; every suggested alternative is played through the real rules.
"""

from __future__ import annotations

import random

import pytest
from sekigahara_helpers import KIT, cards_of, event_types, move, placed, rules, set_up

from companion.engine import CHANCE, Action, Game, IllegalAction
from companion.games.sekigahara.rules import legal
from companion.games.sekigahara.rules.names import card_name
from companion.games.sekigahara.rules.recruitment import recruitment_locations
from companion.games.sekigahara.rules.state import ELIMINATED
from companion.games.sekigahara.rules.words import block_name

ISH, TOK = "ishida", "tokugawa"
BASE = {"full": set_up(), "table": set_up("table")}
T_CARDS = cards_of(TOK, "tokugawa", "plain")
I_CARDS = cards_of(ISH, "ukita", "plain")
EDO_TO_SUWA = ("oshi", "takasaki", "saku", "suwa")  # four highway steps
EDO_TO_HAMAMATSU = ("hakone", "numazu", "sunpu", "hamamatsu")  # four highway steps
IEYASU = "T-tokugawa-leader-1"
ATTACKER = "I-ukita-2-1"  # deployed with an Ukita card (8.2.2)


def soldiers(side: str, n: int, skip: tuple[str, ...] = ()) -> list[str]:
    """`n` blocks of `side` that are not leaders (no command of their own, 7.3.4)."""
    found = [b.id for b in KIT.blocks if b.side == side and b.leader is None
             and b.setup != "triangle" and b.id not in skip]
    return found[:n]


def rejected(game: Game, action: Action, rule: str) -> IllegalAction:
    """The action is refused citing `rule`, nothing changes, and every alternative the
    refusal suggests is one the rules accept, each with its own words."""
    before, history = game.state, len(game.history)
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    error = info.value
    assert error.rule == rule, error
    assert game.state is before and len(game.history) == history
    if error.alternatives:
        assert len(error.legal) == len(error.alternatives)
    for alternative in error.alternatives:
        assert game.rules.accepts(game.state, alternative), alternative
    return error


def where(game: Game, blocks: list[str]) -> set[str]:
    return {game.state.positions[b] for b in blocks}


def found(events, kind: str):
    return [e for e in events if e.type == kind]


# --- 7.3.3 two forced marches from one stack -------------------------------------------------


def edo_stack(cards: int = 2) -> tuple[Game, list[str]]:
    """Four Tokugawa blocks at Edo (their capital: command, 7.3.4) in a total movement phase."""
    four = soldiers(TOK, 4)
    game = placed(BASE["full"], dict.fromkeys(four, "edo"), active=TOK, level="total",
                  clear=True, hands={TOK: T_CARDS[:cards], ISH: []})
    return game, four


def split(four: list[str]) -> dict[str, tuple[str, ...]]:
    """Two blocks to Suwa, two to Hamamatsu: 4 locations each, all by highway."""
    return {**dict.fromkeys(four[:2], EDO_TO_SUWA), **dict.fromkeys(four[2:], EDO_TO_HAMAMATSU)}


def test_7_3_3_two_groups_of_one_stack_each_force_march_with_their_own_card():
    """7.3.3: "Für jeden Block kann zu jedem Zeitpunkt immer nur ein Gewaltmarsch auf einmal
    gelten": a limit per block, not per stack. Base 1, highway +1, command +1 (Edo), forced
    march +1: each group reaches its fourth location."""
    game, four = edo_stack()
    first, second = T_CARDS[:2]
    events = game.apply(move(TOK, "edo", split(four),
                             forced_marches={first: four[:2], second: four[2:]}))
    assert where(game, four[:2]) == {"suwa"} and where(game, four[2:]) == {"hamamatsu"}
    assert set(found(events, "GroupMoveBegan")[0].data["forced_march"]) == set(four)
    assert set(found(events, "CardsDiscarded")[0].data["cards"]) == {first, second}
    hand = game.state.hands[TOK]
    assert hand.count == 0 and {first, second} <= hand.discard


def test_7_3_3_without_a_card_each_a_group_falls_one_location_short():
    game, four = edo_stack()
    error = rejected(game, move(TOK, "edo", split(four)), "7.3.3")
    assert "forced march 0" in error.message
    # only the blocks a card covers get its +1: the Hamamatsu group still falls short
    rejected(game, move(TOK, "edo", split(four), forced_marches={T_CARDS[0]: four[:2]}),
             "7.3.3")


def test_7_3_3_one_card_covers_one_group_not_two_that_part():
    game, four = edo_stack()
    error = rejected(game, move(TOK, "edo", split(four), forced_march=T_CARDS[0]), "7.3.3")
    assert "same path" in error.message


def test_7_3_3_a_block_carries_one_forced_march_and_a_group_is_paid_once():
    game, four = edo_stack()
    first, second = T_CARDS[:2]
    twice = rejected(game, move(TOK, "edo", split(four),
                                forced_marches={first: four[:2], second: four[1:]}), "7.3.3")
    assert block_name(KIT, four[1]) in twice.message  # as the player knows it, not its id
    assert "one forced march at a time" in twice.message and four[1] not in twice.message
    one_group = rejected(game, move(TOK, "edo", split(four),
                                    forced_marches={first: four[:1], second: four[1:2]}),
                         "7.3.3")
    assert "one group" in one_group.message


def test_7_3_3_each_forced_march_card_must_be_in_the_hand():
    game, four = edo_stack(cards=1)
    error = rejected(game, move(TOK, "edo", split(four),
                                forced_marches={T_CARDS[0]: four[:2], T_CARDS[1]: four[2:]}),
                     "7.3.3")
    assert f"{card_name(KIT, T_CARDS[1])} is not in the Tokugawa hand" in error.message


def test_7_3_1_a_second_move_from_the_stack_says_how_to_split_it():
    game, four = edo_stack()
    game.apply(move(TOK, "edo", dict.fromkeys(four[:2], EDO_TO_SUWA),
                    forced_march=T_CARDS[0]))
    error = rejected(game, move(TOK, "edo", dict.fromkeys(four[2:], EDO_TO_HAMAMATSU),
                                forced_march=T_CARDS[1]), "7.3.1")
    assert "in one move" in error.message and "7.3.3" in error.message


# --- alternatives: every suggestion is an action the rules accept ----------------------------


def test_7_3_1_a_used_road_suggests_only_roads_the_move_may_still_take():
    """Ishida moves Kyoto -> Minakuchi; then Osaka -> Kyoto -> Minakuchi reuses that road.
    Kyoto-Osaka is no way on: the move has just travelled it (7.3.1, 2016)."""
    first, second = soldiers(ISH, 2)
    game = placed(BASE["full"], {first: "kyoto", second: "osaka"}, active=ISH, level="total",
                  clear=True)
    game.apply(move(ISH, "kyoto", {first: ["minakuchi"]}))
    error = rejected(game, move(ISH, "osaka", {second: ["kyoto", "minakuchi"]}), "7.3.1")
    assert "Kyoto-Minakuchi" in error.message
    assert set(error.legal) == {"Kyoto-Ayabe", "Kyoto-Sawayama", "stop at Kyoto"}
    rejected(game, move(ISH, "osaka", {second: ["kyoto", "osaka"]}), "7.3.1")
    way = dict(zip(error.legal, error.alternatives, strict=True))["Kyoto-Sawayama"]
    game.apply(way)
    assert game.state.positions[second] == "sawayama"


def test_7_3_1_no_road_suggests_the_roads_that_leave_the_place():
    block = soldiers(ISH, 1)
    game = placed(BASE["full"], dict.fromkeys(block, "osaka"), active=ISH, level="total",
                  clear=True)
    error = rejected(game, move(ISH, "osaka", dict.fromkeys(block, ("minakuchi",))), "7.3.1")
    assert set(error.legal) == {"Osaka-Himeji", "Osaka-Kyoto", "Osaka-Wakayama"}


def test_7_2_a_wrong_recruitment_place_suggests_only_places_open_to_it():
    """7.2: a single block goes to any friendly recruitment location, but not into one held
    by the enemy alone (a fight begun from the box): such a place is not suggested."""
    recruit = soldiers(ISH, 1)[0]
    enemy = soldiers(TOK, 1)[0]
    held, *open_ = recruitment_locations(rules().ctx, ISH)
    game = placed(BASE["full"], {recruit: "ishida_recruitment", enemy: held}, active=ISH,
                  level="total", clear=True)
    error = rejected(game, Action(ISH, "recruit", {"blocks": [recruit], "to": "edo"}), "7.2")
    assert set(error.legal) == {KIT.location[p].name for p in open_}
    refused = rejected(game, Action(ISH, "recruit", {"blocks": [recruit], "to": held}), "7.2")
    assert "fight" in refused.message


def test_8_1_declaring_where_no_combat_is_due_suggests_where_it_is():
    attackers, defenders = soldiers(ISH, 2), soldiers(TOK, 2)
    where_ = {attackers[0]: "kiso", defenders[0]: "kiso", attackers[1]: "gifu",
              defenders[1]: "gifu"}
    game = placed(BASE["full"], where_, active=ISH, level="total", clear=True,
                  hands={ISH: [], TOK: []})
    game.apply(Action(ISH, "end_movement"))
    error = rejected(game, Action(ISH, "declare", {"at": "osaka"}), "8.1")
    assert set(error.legal) == {"Kiso", "Gifu"}


def test_random_play_refusals_suggest_only_legal_actions():
    """Falsifiable over real games: every candidate the rules refuse, and every move pushed
    one location too far, is refused with alternatives that are each accepted."""
    sekigahara = rules()
    suggested = 0
    for seed in (3, 4):
        game = Game(sekigahara, seed=seed)
        rng = random.Random(seed)
        while game.outcome is None and len(game.history) < 400:
            roles = game.to_move()
            if CHANCE in roles:
                game.play_chance()
                continue
            role = roles[0]
            if len(game.history) % 3 == 0:
                suggested += _check_refusals(game, role)
            choice = sekigahara.random_action(game.state, role, rng)
            assert choice is not None
            game.apply(choice)
    assert suggested > 20  # the check saw real suggestions, not only silent refusals


def _check_refusals(game: Game, role: str) -> int:
    state, sekigahara = game.state, game.rules
    candidates = legal.candidates(sekigahara.ctx, state, role)
    tried = candidates + [_farther(a) for a in candidates if a.verb == "move"]
    seen = 0
    for action in tried:
        try:
            sekigahara.decide(state, action)
        except IllegalAction as error:
            assert len(error.legal) == len(error.alternatives) or not error.alternatives
            for alternative in error.alternatives:
                assert sekigahara.accepts(state, alternative), (action, alternative)
            seen += len(error.alternatives)
    return seen


def _farther(action: Action) -> Action:
    """The same move with every block going one road farther (often a refusal)."""
    paths = {b: [*p, _onward(p)] for b, p in action.args["paths"].items()}
    return Action(action.role, "move", {**action.args, "paths": paths})


def _onward(path) -> str:
    here = path[-1]
    back = path[-2] if len(path) > 1 else None
    return next((n for n in sorted(KIT.neighbours[here]) if n != back), here)


# --- the real reason -------------------------------------------------------------------------


def test_7_4_3_blocks_meeting_a_castles_holder_are_told_it_cannot_be_overrun():
    """Eight Ishida blocks (a leader among them) pass through Okazaki, held by one Tokugawa
    block in its castle: eight to one is enough for 7.4.1, but a castle's holder cannot be
    overrun (7.4.3), so the move ends there (7.3.2)."""
    eight = [*soldiers(ISH, 7), "I-ukita-leader-1"]
    holder = soldiers(TOK, 1)[0]
    game = placed(BASE["full"], {**dict.fromkeys(eight, "kiyosu"), holder: "okazaki"},
                  active=ISH, level="total", clear=True)
    assert game.state.castles["okazaki"] == TOK
    error = rejected(game, move(ISH, "kiyosu", dict.fromkeys(eight, ("okazaki", "hamamatsu")),
                                leader="I-ukita-leader-1"), "7.4.3")
    assert "cannot be overrun" in error.message and "Okazaki" in error.message
    assert "four times" not in error.message
    assert error.legal == ("stop at Okazaki",)
    game.apply(error.alternatives[0])
    assert where(game, eight) == {"okazaki"}


def test_7_3_2_too_few_to_overrun_are_told_the_numbers():
    seven, two = soldiers(ISH, 7), soldiers(TOK, 2)
    game = placed(BASE["full"], {**dict.fromkeys(seven, "osaka"), **dict.fromkeys(two, "kyoto")},
                  active=ISH, level="total", clear=True)
    error = rejected(game, move(ISH, "osaka", dict.fromkeys(seven, ("kyoto", "minakuchi"))),
                     "7.3.2")
    assert "7 Ishida block(s) against 2 Tokugawa unit(s)" in error.message
    assert "needs 8" in error.message


def castle_choice() -> Game:
    """Tokugawa marches into Gifu, Ishida's castle held by two Ishida blocks: Ishida chooses
    to stay inside or not (8.9.2)."""
    ishida, tokugawa = soldiers(ISH, 2), soldiers(TOK, 2)
    game = placed(BASE["full"], {**dict.fromkeys(ishida, "gifu"),
                                 **dict.fromkeys(tokugawa, "kiyosu")},
                  active=TOK, level="total", clear=True, hands={ISH: [], TOK: []})
    game.apply(move(TOK, "kiyosu", dict.fromkeys(tokugawa, ("gifu",))))
    game.apply(Action(TOK, "end_movement"))
    game.apply(Action(TOK, "declare", {"at": "gifu"}))
    return game


def test_8_9_2_the_attacker_choosing_for_the_castle_is_refused_under_8_9_2():
    game = castle_choice()
    assert game.to_move() == (ISH,)
    rejected(game, Action(TOK, "castle", {"inside": False}), "8.9.2")
    with pytest.raises(IllegalAction) as info:  # the rules refuse it too, naming the holder
        game.rules.decide(game.state, Action(TOK, "castle", {"inside": True}))
    assert info.value.rule == "8.9.2" and "Ishida decides" in info.value.message
    game.apply(Action(ISH, "castle", {"inside": True}))
    assert game.state.battle is not None and game.state.battle.siege


# --- 8.10 cards after an overrun -------------------------------------------------------------


def overrun_at_kyoto(attackers: int, defenders: int, knowledge: str = "full"):
    """Ishida marches from Osaka through Kyoto to Minakuchi over `defenders` Tokugawa blocks."""
    ishida, tokugawa = soldiers(ISH, attackers), soldiers(TOK, defenders)
    hands = {ISH: [], TOK: []} if knowledge == "full" else None
    game = placed(BASE[knowledge], {**dict.fromkeys(ishida, "osaka"),
                                    **dict.fromkeys(tokugawa, "kyoto")},
                  active=ISH, level="total", clear=True, hands=hands)
    events = game.apply(move(ISH, "osaka", dict.fromkeys(ishida, ("kyoto", "minakuchi"))))
    assert set(found(events, "Overrun")[0].data["blocks"]) == set(tokugawa)
    return game, events


def test_8_10_the_overrun_side_draws_one_card_per_two_blocks_lost():
    """8.10: the hands are refilled "nach einem Überrennen" too; no card was played, so only
    the losses count, at a battle's rate: two blocks lost, one card; the overrunning side
    lost nothing and draws nothing."""
    game, _ = overrun_at_kyoto(8, 2)
    assert [(p.side, p.count, p.reason) for p in game.state.pending] == \
        [(TOK, 1, "after overrun")]
    assert game.to_move() == (CHANCE,)
    before = game.state.hands[TOK].count
    game.play_chance()
    assert game.state.hands[TOK].count == before + 1
    assert game.to_move() == (ISH,)  # the move goes on in the movement phase


def test_8_10_table_mode_counts_the_overrun_sides_card_at_once():
    _, events = overrun_at_kyoto(8, 2, knowledge="table")
    drawn = found(events, "CardsDrawn")
    assert [(e.data["side"], e.data["count"]) for e in drawn] == [(TOK, 1)]


def test_8_10_one_block_overrun_draws_nothing():
    game, events = overrun_at_kyoto(4, 1)
    assert game.state.pending == () and "DrawsDue" not in event_types(events)


# --- 7.4.1, 8.7.1, 8.8.5 a retreat into a much larger force ----------------------------------


def lost_at_kiso(defenders: list[str], around: dict[str, str]) -> Game:
    """Ishida marches from Iwamura into Kiso and wins; Tokugawa loses one block and must
    retreat (8.8.3) with the rest."""
    attacker = ATTACKER
    game = placed(BASE["full"], {attacker: "iwamura", **dict.fromkeys(defenders, "kiso"),
                                 **around},
                  active=ISH, level="total", clear=True, hands={ISH: I_CARDS[:1], TOK: []})
    game.apply(move(ISH, "iwamura", {attacker: ["kiso"]}))
    game.apply(Action(ISH, "end_movement"))
    game.apply(Action(ISH, "declare", {"at": "kiso"}))
    game.apply(Action(ISH, "deploy", {"block": attacker, "card": I_CARDS[0]}))
    game.apply(Action(TOK, "done"))
    game.apply(Action(ISH, "done"))
    lost = next(b for b in defenders if b != IEYASU)
    game.apply(Action(TOK, "casualties", {"blocks": [lost]}))
    return game


def surrounded(suwa: int) -> dict[str, str]:
    """`suwa` Ishida blocks at Suwa and one at Matsumoto: no retreat is clear of enemies."""
    blocks = soldiers(ISH, suwa + 1, skip=(ATTACKER,))
    return {**dict.fromkeys(blocks[:suwa], "suwa"), blocks[suwa]: "matsumoto"}


def test_7_4_1_8_7_1_a_retreat_into_four_times_as_many_is_overrun_not_a_new_battle():
    """7.4.1: an overrun "kann ... nach einem Rückzug passieren"; the note in 8.7.1: troops
    retreating are not overrun before their retreat, "aber nach dem Rückzug kann ein
    Überrennen eintreten"; 8.8.5: a retreat may cause a battle "(oder ein Überrennen)". One
    block retreating into four is swept away; there is no battle with it attacking."""
    defenders = soldiers(TOK, 2)
    game = lost_at_kiso(defenders, surrounded(4))
    survivor = defenders[1]
    events = game.apply(Action(TOK, "retreat", {"to": "suwa"}))
    overrun = found(events, "Overrun")[0].data
    assert (overrun["at"], overrun["by"], list(overrun["blocks"])) == ("suwa", ISH, [survivor])
    assert "BattleFollows" not in event_types(events)
    assert game.state.positions[survivor] == ELIMINATED
    assert game.state.battle is None and game.state.follow_up is None
    assert game.state.resources.get("suwa") != TOK  # swept away: never held Suwa (4.2)


def test_8_8_5_a_retreat_into_fewer_than_four_times_as_many_is_a_battle():
    defenders = soldiers(TOK, 2)
    game = lost_at_kiso(defenders, surrounded(3))
    events = game.apply(Action(TOK, "retreat", {"to": "suwa"}))
    assert "Overrun" not in event_types(events)
    assert found(events, "BattleFollows")[0].data["attacker"] == TOK


def test_2_1_tokugawa_ieyasu_overrun_after_his_retreat_wins_for_ishida():
    defenders = [soldiers(TOK, 1)[0], IEYASU]
    game = lost_at_kiso(defenders, surrounded(4))
    game.apply(Action(TOK, "retreat", {"to": "suwa"}))
    assert game.outcome is not None and game.outcome.winner == ISH
    assert game.outcome.rule == "2.1"


def test_8_10_8_8_5_two_blocks_overrun_after_a_retreat_draw_one_card():
    defenders = soldiers(TOK, 3)
    game = lost_at_kiso(defenders, surrounded(8))
    game.apply(Action(TOK, "retreat", {"to": "suwa"}))
    reasons = {(p.side, p.reason): p.count for p in game.state.pending}
    assert reasons[(TOK, "after overrun")] == 1  # two blocks swept away
    assert reasons[(ISH, "after battle")] == 1  # the card Ishida played at Kiso
