"""Rumble Nation at the table (issue 15): the referee reads stable changes of the counts, card
scans and buttons as Rumble Nation actions (rules: shared/seeds/rumble-nation-rules-it.txt),
the generic count tracker waits for a still table, the reader sees hands, and a short game
played from synthetic frames ends in a verified record equal to the simulator's."""

from __future__ import annotations

import json
import random

from click.testing import CliRunner

from companion.cli import main
from companion.demo import script_for
from companion.engine import CHANCE, Action, Alert, Game, Proposal, Question
from companion.games import game
from companion.games.rumble_nation.reader import REINFORCEMENT, RumbleTableReader
from companion.games.rumble_nation.referee import RumbleReferee, board_of
from companion.games.rumble_nation.rules import RumbleNationRules
from companion.games.rumble_nation.script import read_back_games
from companion.games.rumble_nation.synth import RumbleScene, RumbleSynth, place_pieces
from companion.kits import load_kit
from companion.record.store import Store
from companion.table import TableRegistry
from companion.vision.count_tracker import CountDiff, CountSnapshot, CountTracker, FrameCounts
from companion.vision.counting import CountingBoard, CountingReader
from companion.vision.synth import Camera, Look

KIT = load_kit("rumble_nation")
REGIONS = sorted(KIT.neighbours)
CASTLES = dict(zip(REGIONS, range(2, 13), strict=True))
"""kasugayama 2, kiyosu 3, kyo 4, odawara 5, oko 6, shuri 7, tokuyama 8, tsutsujigasaki 9,
usuki 10, yonezawa 11, yoshida 12."""
RED, BLUE, YELLOW = "red", "blue", "yellow"
DISPLAY = ["esplorazione", "squadra_di_riserva", "supporto", "diversivo"]


def set_up(daimyo: bool = False, players: int = 3) -> Game:
    played = Game(RumbleNationRules(KIT, {"players": players, "daimyo": daimyo}))
    offer = list(KIT.components.daimyo_cards)[: players + 1] if daimyo else []
    played.apply(Action(CHANCE, "setup", {"castles": CASTLES, "tactics": DISPLAY[: players + 1],
                                          "daimyo": offer, "first": 0}))
    return played


def rolled(played: Game, player: str, *faces: int) -> Game:
    played.apply(Action(player, "roll"))
    played.apply(Action(CHANCE, "dice", {"values": list(faces)}))
    return played


def deployed_round() -> Game:
    """Red 2 in Tokuyama (3+5, 4), blue 1 in Kasugayama (1+1, 2), yellow 3 in Yoshida (6+6,
    6): red's turn again, no dice rolled."""
    played = rolled(set_up(), RED, 3, 4, 5)
    played.apply(Action(RED, "deploy", {"pair": [0, 2]}))
    rolled(played, BLUE, 1, 1, 2).apply(Action(BLUE, "deploy", {"pair": [0, 1]}))
    rolled(played, YELLOW, 6, 6, 6).apply(Action(YELLOW, "deploy", {"pair": [0, 1]}))
    return played


def referee(played: Game, daimyo_seen: bool = True,
            tracker: CountTracker | None = None) -> RumbleReferee:
    return RumbleReferee(played.rules, TableRegistry({}, {}), tracker, daimyo_seen)


def table(played: Game, dice: tuple[int, ...] = (2, 3, 5), daimyo_seen: bool = True,
          **extra: dict[str, int]) -> CountSnapshot:
    """The record's board with `extra` pieces (region -> kind -> more or fewer)."""
    counts = board_of(played.state, daimyo_seen)
    for region, kinds in extra.items():
        here = counts.setdefault(region, {})
        for kind, n in kinds.items():
            here[kind] = here.get(kind, 0) + n
    return CountSnapshot(counts, dice)


def change(played: Game, before_dice: tuple[int, ...] = (2, 3, 5),
           after_dice: tuple[int, ...] | None = None, daimyo_seen: bool = True,
           **extra: dict[str, int]) -> CountDiff:
    before = table(played, before_dice, daimyo_seen)
    after = table(played, before_dice if after_dice is None else after_dice, daimyo_seen,
                  **extra)
    return CountDiff(before, after)


# --- the dice (5.1.1) ------------------------------------------------------------------------

def test_dice_taken_from_the_tray_ask_to_roll_and_their_faces_are_chances_roll():
    played = set_up()
    ref = referee(played)
    (ruling,) = ref.on_diff(played.state, change(played, (2, 3, 5), ()))
    assert ruling == Proposal(Action(RED, "roll"))
    played.apply(ruling.action)
    (ruling,) = ref.on_diff(played.state, change(played, (), (4, 4, 1)))
    assert ruling == Proposal(Action(CHANCE, "dice", {"values": [4, 4, 1]}))
    (ruling,) = ref.on_diff(played.state, change(played, (), (1, 4, 4)))
    assert ruling == Proposal(Action(CHANCE, "dice", {"values": [1, 4, 4]}))  # no order


def test_a_reroll_is_allowed_once_and_a_second_is_refused_with_its_rule():
    played = rolled(set_up(), RED, 1, 2, 3)
    ref = referee(played)
    (ruling,) = ref.on_diff(played.state, change(played, (1, 2, 3), ()))
    assert ruling == Proposal(Action(RED, "reroll"))
    rolled_again = played
    rolled_again.apply(ruling.action)
    rolled_again.apply(Action(CHANCE, "dice", {"values": [2, 2, 6]}))
    (ruling,) = ref.on_diff(played.state, change(played, (2, 2, 6), ()))
    assert isinstance(ruling, Alert) and ruling.rule == "5.1.1"  # all three, once per turn


def test_dice_thrown_straight_back_are_the_roll_and_its_faces_at_once():
    played = set_up()
    rulings = referee(played).on_diff(played.state, change(played, (2, 3, 5), (1, 1, 6)))
    assert rulings == [Proposal(Action(RED, "roll")),
                       Proposal(Action(CHANCE, "dice", {"values": [1, 1, 6]}))]


def test_next_phase_asks_to_roll_and_confirm_takes_the_dice_lying_in_the_tray():
    played = set_up()
    tracker = CountTracker(stable=CountSnapshot({}, (3, 3, 5)))
    ref = referee(played, tracker=tracker)
    (ruling,) = ref.on_button(played.state, "next_phase")
    assert ruling == Proposal(Action(RED, "roll"))
    played.apply(ruling.action)
    (ruling,) = ref.on_button(played.state, "confirm")  # the same faces as the last throw
    assert ruling == Proposal(Action(CHANCE, "dice", {"values": [3, 3, 5]}))
    tracker.stable = CountSnapshot({}, (3, 5))
    (ruling,) = ref.on_button(played.state, "confirm")
    assert isinstance(ruling, Alert) and ruling.rule == "5.1.1"


# --- deployment (5.1.1) ----------------------------------------------------------------------

def test_soldiers_in_the_region_a_pair_names_are_that_deployment():
    played = rolled(set_up(), RED, 3, 4, 5)  # 3+5 = 8 Tokuyama with 4: 2 soldiers
    (ruling,) = referee(played).on_diff(played.state,
                                        change(played, (3, 4, 5), tokuyama={RED: 2}))
    assert ruling == Proposal(Action(RED, "deploy", {"pair": [0, 2]}))
    (ruling,) = referee(played).on_diff(played.state,
                                        change(played, (3, 4, 5), shuri={RED: 3}))
    assert ruling == Proposal(Action(RED, "deploy", {"pair": [0, 1]}))  # 3+4 = 7, 5: 3


def test_equal_dice_make_one_deployment_not_a_question():
    played = rolled(set_up(), RED, 2, 2, 5)  # 2+5 twice: Shuri with 2 soldiers
    (ruling,) = referee(played).on_diff(played.state,
                                        change(played, (2, 2, 5), shuri={RED: 1}))
    assert isinstance(ruling, Proposal) and ruling.action.verb == "deploy"


def test_soldiers_where_the_dice_name_no_region_are_refused_by_5_1_1_until_put_back():
    played = rolled(set_up(), RED, 3, 4, 5)
    ref = referee(played)
    (alert,) = ref.on_diff(played.state, change(played, (3, 4, 5), kyo={RED: 2}))
    assert isinstance(alert, Alert) and alert.rule == "5.1.1"
    assert "Kyo" in alert.message and "castle 4" in alert.message
    assert ref.desync is alert
    assert not ref.table_matches(played.state, table(played, (3, 4, 5), kyo={RED: 2}))
    assert ref.desync is alert
    assert ref.table_matches(played.state, table(played, (3, 4, 5)))
    assert ref.desync is None


def test_the_wrong_number_the_wrong_colour_and_two_regions_each_name_their_rule():
    played = rolled(set_up(), RED, 3, 4, 5)
    too_many = referee(played).on_diff(played.state,
                                       change(played, (3, 4, 5), tokuyama={RED: 3}))
    assert [(type(r), r.rule) for r in too_many] == [(Alert, "5.1.1")]
    assert "single die" in too_many[0].message
    stranger = referee(played).on_diff(played.state,
                                       change(played, (3, 4, 5), tokuyama={BLUE: 2}))
    assert [(type(r), r.rule) for r in stranger] == [(Alert, "5.1")]
    split = referee(played).on_diff(played.state, change(
        played, (3, 4, 5), tokuyama={RED: 1}, shuri={RED: 1}))
    assert [(type(r), r.rule) for r in split] == [(Alert, "5.1.1")]


def test_soldiers_before_any_roll_are_refused():
    played = set_up()
    (alert,) = referee(played).on_diff(played.state, change(played, kyo={RED: 2}))
    assert isinstance(alert, Alert) and alert.rule == "5.1.1" and "roll" in alert.message


def test_dice_moved_while_a_deployment_waits_for_an_answer_are_left_to_the_buttons():
    played = daimyo_game_rolled()
    role = played.state.players[played.state.turn]
    waiting = table(played, (3, 4, 5), daimyo_seen=False, tokuyama={role: 2})
    ref = referee(played, daimyo_seen=False)
    assert ref.on_diff(played.state, CountDiff(waiting, CountSnapshot(waiting.counts, ()))) \
        == []  # not a reroll of the player whose deployment is asked about


# --- tactic cards (5.1.2) --------------------------------------------------------------------

def test_a_scanned_tactic_then_soldiers_moved_is_that_card_with_the_move_seen():
    played = deployed_round()
    ref = referee(played)
    assert ref.on_card(played.state, "CARD:esplorazione") == []  # waits for the move
    (ruling,) = ref.on_diff(played.state, change(
        played, (6, 6, 6), tokuyama={RED: -1}, yonezawa={RED: 1}))
    assert ruling == Proposal(Action(RED, "tactic", {"card": "esplorazione",
                                                     "from": "tokuyama", "to": "yonezawa"}))
    assert ref.scanned is None


def test_without_a_scan_two_cards_that_move_alike_are_asked_about():
    played = deployed_round()  # red has 2 in Tokuyama: Squadra di Riserva moves 1, as does
    (question,) = referee(played).on_diff(played.state, change(  # Esplorazione
        played, (6, 6, 6), tokuyama={RED: -1}, yonezawa={RED: 1}))
    assert isinstance(question, Question)
    assert {a.args["card"] for a in question.options} == {"esplorazione", "squadra_di_riserva"}


def test_supporto_is_read_from_one_soldier_more_where_the_player_stands():
    played = deployed_round()
    (ruling,) = referee(played).on_diff(played.state, change(played, (6, 6, 6),
                                                             tokuyama={RED: 1}))
    assert ruling == Proposal(Action(RED, "tactic", {"card": "supporto", "to": "tokuyama"}))


def test_a_card_off_the_display_or_unplayable_is_refused_when_scanned():
    played = deployed_round()
    (alert,) = referee(played).on_card(played.state, "CARD:ninja")
    assert isinstance(alert, Alert) and alert.rule == "5.1.2"
    (unknown,) = referee(played).on_card(played.state, "04A1B2C3D4")
    assert isinstance(unknown, Alert) and unknown.rule == "3"
    rolled(played, RED, 1, 2, 3)
    (late,) = referee(played).on_card(played.state, "CARD:supporto")
    assert isinstance(late, Alert) and late.rule == "5.1.2"  # the dice are rolled


def test_a_scanned_card_whose_play_the_table_does_not_show_is_refused():
    played = deployed_round()
    ref = referee(played)
    ref.on_card(played.state, "CARD:esplorazione")
    (alert,) = ref.on_diff(played.state, change(  # two soldiers: not Esplorazione
        played, (6, 6, 6), tokuyama={RED: -2}, yonezawa={RED: 2}))
    assert isinstance(alert, Alert) and alert.rule == "5.1.2"
    assert "Esplorazione" in alert.message


# --- daimyo (8) ------------------------------------------------------------------------------

def test_daimyo_cards_are_chosen_by_scanning_them():
    played = set_up(daimyo=True, players=2)
    chooser = played.state.players[played.state.turn]
    card = played.state.daimyo_display[0]
    (ruling,) = referee(played).on_card(played.state, f"CARD:{card}")
    assert ruling == Proposal(Action(chooser, "choose_daimyo", {"card": card}))


def daimyo_game_rolled() -> Game:
    played = set_up(daimyo=True, players=2)
    while played.state.phase == "daimyo":
        chooser = played.state.players[played.state.turn]
        played.apply(Action(chooser, "choose_daimyo", {"card": played.state.daimyo_display[0]}))
    return rolled(played, played.state.players[played.state.turn], 3, 4, 5)


def test_a_daimyo_told_apart_is_read_and_one_counted_as_a_soldier_is_asked_about():
    played = daimyo_game_rolled()
    role = played.state.players[played.state.turn]
    (ruling,) = referee(played).on_diff(played.state, change(
        played, (3, 4, 5), tokuyama={role: 1, f"{role} daimyo": 1}))
    assert ruling == Proposal(Action(role, "deploy", {"pair": [0, 2], "daimyo": True}))
    (question,) = referee(played, daimyo_seen=False).on_diff(played.state, change(
        played, (3, 4, 5), daimyo_seen=False, tokuyama={role: 2}))
    assert isinstance(question, Question)  # 8: the daimyo may go in place of a soldier
    assert {a.args.get("daimyo", False) for a in question.options} == {True, False}


# --- the war, the record, and the tracker -----------------------------------------------------

def test_reinforcements_are_not_read_and_soldiers_moved_after_the_war_are_refused():
    played = deployed_round()
    ref = referee(played)
    assert ref.on_diff(played.state, change(played, (6, 6, 6), kyo={REINFORCEMENT: 2})) == []
    assert ref.table_matches(played.state, table(played, (6, 6, 6), kyo={REINFORCEMENT: 2}))
    finished = Game(played.rules, seed=3)
    while finished.outcome is None:
        roles = finished.to_move()
        if CHANCE in roles:
            finished.play_chance()
        else:
            finished.apply(finished.legal_actions()[0])
    region = next(iter(finished.state.soldiers))
    colour = next(iter(finished.state.soldiers[region]))
    (alert,) = referee(finished).on_diff(finished.state, change(
        finished, (6, 6, 6), **{region: {colour: -1}}))
    assert isinstance(alert, Alert) and alert.rule == "5.2"


def test_the_expected_table_is_the_records_and_the_tray_is_kept_while_not_this_turns():
    played = rolled(set_up(), RED, 3, 4, 5)
    assert referee(played).expected(played.state) == CountSnapshot({}, (3, 4, 5))
    played.apply(Action(RED, "deploy", {"pair": [0, 2]}))
    expected = referee(played).expected(played.state)
    assert expected == CountSnapshot({"tokuyama": {RED: 2}}, None)
    tracker = CountTracker(stable=CountSnapshot({}, (3, 4, 5)))
    tracker.settle(expected)
    assert tracker.stable == CountSnapshot({"tokuyama": {RED: 2}}, (3, 4, 5))


def frame(dice=(1, 2, 3), moving=False, doubtful=(), **counts):
    return FrameCounts(counts, dice, moving, frozenset(doubtful))


def test_the_tracker_waits_for_agreeing_still_frames_and_ignores_hands_and_doubt():
    tracker = CountTracker()
    assert tracker.feed(frame(kyo={RED: 1})) is None
    assert tracker.feed(frame(kyo={RED: 1})) is None
    first = tracker.feed(frame(kyo={RED: 1, BLUE: 0}))
    assert first is not None and first.before is None
    assert tracker.stable == CountSnapshot({"kyo": {RED: 1}}, (1, 2, 3))
    for reading in (frame(kyo={RED: 3}), frame(kyo={RED: 3}),
                    frame(moving=True, kyo={RED: 7}), frame(kyo={RED: 3}),
                    frame(doubtful=("kyo",), kyo={RED: 3}), frame(kyo={RED: 3}),
                    frame(dice=(1, None, 3), kyo={RED: 3}), frame(kyo={RED: 3})):
        assert tracker.feed(reading) is None  # never three trusted frames in a row
    assert tracker.untrusted == 3
    assert tracker.feed(frame(kyo={RED: 3})) is None
    diff = tracker.feed(frame(kyo={RED: 3}))
    assert diff is not None and diff.changes == {"kyo": {RED: 2}} and not diff.dice_changed
    for _ in range(3):
        diff = tracker.feed(frame(dice=(), kyo={RED: 3}))
    assert diff is not None and diff.changes == {} and diff.dice_changed and diff


def test_a_settled_table_that_the_camera_shows_gives_no_diff():
    tracker = CountTracker()
    for _ in range(3):
        tracker.feed(frame(kyo={RED: 1}))
    tracker.settle(CountSnapshot({"kyo": {RED: 2}}, None))
    assert tracker.feed(frame(kyo={RED: 2})) is None  # history restarts from this frame
    tracker.feed(frame(kyo={RED: 2}))
    assert tracker.feed(frame(kyo={RED: 2})) is None


# --- pixels: hands ---------------------------------------------------------------------------

def test_a_hand_over_the_table_makes_the_frame_untrusted_and_a_still_one_is_counted():
    board = CountingBoard.load(KIT)
    synth = RumbleSynth(board, KIT)
    soldiers, _, _ = place_pieces(board, {"kyo": {RED: 6}, "usuki": {YELLOW: 2}},
                                  random.Random(4))
    scene = RumbleScene({}, soldiers)
    camera = Camera((1920, 1440))
    reader = RumbleTableReader(CountingReader(board))
    still = reader.read(synth.photograph(scene, camera, Look(noise=1.5, seed=1)).image)
    assert still.trusted and still.counts["kyo"][RED] == 6 and still.counts["usuki"][YELLOW] == 2
    hand = reader.read(synth.photograph(scene, camera, Look(noise=1.5, hand=(0.8, 0.2, 0.1),
                                                            seed=2)).image)
    assert hand.moving and not hand.trusted  # far from Kyo and Usuki, over the tray's side
    reader.read(synth.photograph(scene, camera, Look(noise=1.5, seed=3)).image)
    again = reader.read(synth.photograph(scene, camera, Look(noise=1.5, seed=4)).image)
    assert again.trusted


# --- whole games -----------------------------------------------------------------------------

def test_random_games_acted_out_at_zone_level_are_read_back():
    """Two games (2 players; 3 with daimyo) at the level of counts: every action is read,
    none asked (the calibration tells the daimyo apart), none missed."""
    figures = read_back_games(games=2, seed=11)
    assert figures["actions"] > 100 and figures["hidden"] == 2
    assert figures["missed"] == 0, figures["first_misses"]
    assert figures["recovered"] == figures["actions"]
    blind = read_back_games(games=2, seed=11, daimyo_seen=False)  # a daimyo looks a soldier
    assert blind["asked_by_verb"].get("deploy", 0) > 0 and blind["missed"] == 0
    assert set(blind["asked_by_verb"]) <= {"deploy", "daimyo"}
    # Issue 36: a daimyo that looks a soldier is the player's to say (8): a choice, with no
    # doubt of the camera and nothing to confirm.
    assert blind["asked_by_cause"] == {"choice": blind["asked"], "doubt": 0, "confirmation": 0}
    assert figures["asked_by_cause"] == {"choice": 0, "doubt": 0, "confirmation": 0}


SEED, ACTIONS, ILLEGAL_AT = 1, 12, 5


def test_a_short_game_from_frames_to_record_matches_the_simulator(tmp_path):
    """The CLI demo: setup dealt by the companion, rolls, rerolls and deployments read from
    the synthetic camera; before action 5 a player puts two soldiers where the dice do not
    send them, sees the 5.1.1 alert and takes them back."""
    db = tmp_path / "demo.sqlite"
    result = CliRunner().invoke(main, [
        "demo", "--game", "rumble_nation", "--headless", "--json", "--port", "0",
        "--seed", str(SEED), "--actions", str(ACTIONS), "--illegal-at", str(ILLEGAL_AT),
        "--db", str(db)])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    report = json.loads(result.output.strip().splitlines()[-1])
    assert report["record_verified"] and report["matches_script"], report["misses"]
    assert report["illegal_corrected"] is True and report["alerts"] >= 1
    assert report["hidden"] == 1  # the set-up, drawn by the companion
    script = script_for(game("rumble_nation"), SEED, ACTIONS)
    record = Store(db).load(report["game_id"])
    assert [entry.action for entry in record.entries] == script
    from_camera = [e for e in record.entries if e.source == "camera"]
    assert {e.action.verb for e in from_camera} >= {"roll", "dice", "deploy"}
    # Everything was read from the table: three dice have no order, and the rules list a roll
    # smallest first as the camera reads it.
    assert report["manual"] == report["undone"] == report["questions"] == 0, report["misses"]


# --- a region the camera cannot count (issue 15: "say so as a question") ----------------------

def test_a_doubt_that_stays_is_handed_on_once_with_the_region_marked_and_its_last_count():
    tracker = CountTracker(doubt_after=4)
    for _ in range(3):
        tracker.feed(frame(kyo={RED: 1}, oko={BLUE: 1}))
    assert tracker.stable == CountSnapshot({"kyo": {RED: 1}, "oko": {BLUE: 1}}, (1, 2, 3))
    # two soldiers leaning on each other in Kyo (read 3, unsure), one more blue in Oko
    heaped = frame(doubtful=("kyo",), kyo={RED: 3}, oko={BLUE: 2})
    assert [tracker.feed(heaped) for _ in range(3)] == [None] * 3
    diff = tracker.feed(heaped)
    assert diff is not None and diff.doubtful == {"kyo"} and diff.new_doubts == {"kyo"}
    assert diff.after.count("kyo", RED) == 1  # the last known count, never the unsure one
    assert diff.changes == {"oko": {BLUE: 1}}
    assert all(tracker.feed(heaped) is None for _ in range(10))  # handed on once


def test_a_passing_doubt_is_waited_out_and_a_new_doubt_alone_is_handed_on():
    tracker = CountTracker(doubt_after=4)
    for _ in range(3):
        tracker.feed(frame(kyo={RED: 1}))
    for _ in range(3):  # a piece settling: three doubtful frames, then read with confidence
        assert tracker.feed(frame(doubtful=("kyo",), kyo={RED: 2})) is None
    assert [tracker.feed(frame(kyo={RED: 2})) for _ in range(2)] == [None, None]
    diff = tracker.feed(frame(kyo={RED: 2}))
    assert diff is not None and diff.changes == {"kyo": {RED: 1}} and not diff.doubtful
    unsure = [frame(doubtful=("kyo",), kyo={RED: 2}), frame(doubtful=("kyo",), kyo={RED: 3})]
    for reading in unsure + unsure[:1]:  # the unsure count may flicker
        assert tracker.feed(reading) is None
    diff = tracker.feed(unsure[1])
    assert diff is not None and not diff.changes and diff.new_doubts == {"kyo"} and diff
    assert diff.after.count("kyo", RED) == 2  # the last known count


def test_a_doubt_that_flickers_between_regions_is_one_doubt_over_both():
    """Cubes the reader parts in one frame and not in the next move the doubt from region to
    region: it never stays the same, and waiting for it to would stall the table for good (a
    whole Shogun game at the simulated table did). It is handed on once, over both regions,
    each with its last known count; a change elsewhere that does not hold still is not."""
    tracker = CountTracker(doubt_after=4)
    for _ in range(3):
        tracker.feed(frame(kyo={RED: 2}, kiyosu={BLUE: 1}, oko={RED: 1}))
    flicker = [frame(doubtful=("kyo",), kyo={RED: 5}, kiyosu={BLUE: 1}, oko={RED: 1}),
               frame(doubtful=("kiyosu",), kyo={RED: 3}, kiyosu={BLUE: 4}, oko={RED: 1})]
    said = [tracker.feed(reading) for reading in flicker * 5]
    handed = [diff for diff in said if diff is not None]
    assert len(handed) == 1 and said[3] is handed[0]
    assert handed[0].doubtful == {"kyo", "kiyosu"} and not handed[0].changes
    assert handed[0].after.count("kyo", RED) == 2 and handed[0].after.count("kiyosu", BLUE) == 1
    moving = CountTracker(doubt_after=4, stable=tracker.stable)
    elsewhere = [frame(doubtful=("kyo",), kyo={RED: 5}, oko={RED: n}) for n in (1, 2)]
    assert all(moving.feed(reading) is None for reading in elsewhere * 5)


def test_a_doubt_asked_about_is_not_asked_again_and_clearing_it_shows_the_count():
    tracker = CountTracker(doubt_after=2)
    for _ in range(3):
        tracker.feed(frame(kyo={RED: 1}))
    heaped = frame(doubtful=("kyo",), kyo={RED: 2})
    tracker.feed(heaped)
    assert tracker.feed(heaped) is not None
    tracker.settle(CountSnapshot({"kyo": {RED: 3}}, None))  # the answer: two more in Kyo
    assert tracker.stable == CountSnapshot({"kyo": {RED: 3}}, (1, 2, 3), frozenset({"kyo"}))
    assert all(tracker.feed(heaped) is None for _ in range(5))
    assert [tracker.feed(frame(kyo={RED: 3})) for _ in range(3)] == [None] * 3  # as answered
    assert tracker.stable == CountSnapshot({"kyo": {RED: 3}}, (1, 2, 3))
    for _ in range(2):
        tracker.feed(frame(kyo={RED: 2}))
    wrong = tracker.feed(frame(kyo={RED: 2}))  # set apart, one fewer than answered
    assert wrong is not None and wrong.changes == {"kyo": {RED: -1}}


def doubtful_change(played: Game, dice: tuple[int, ...], doubtful: tuple[str, ...],
                    **extra: dict[str, int]) -> CountDiff:
    before = table(played, dice)
    after = table(played, dice, **extra)
    return CountDiff(before, CountSnapshot(after.counts, dice, frozenset(doubtful)))


def test_soldiers_the_camera_cannot_count_are_asked_about_naming_the_region():
    played = rolled(set_up(), RED, 1, 3, 4)  # 1+3 = 4 Kyo (with 4: 2 soldiers)
    (question,) = referee(played).on_diff(played.state,
                                          doubtful_change(played, (1, 3, 4), ("kyo",)))
    assert isinstance(question, Question)
    assert question.text.startswith("The camera cannot count Kyo: which was it?")
    assert question.options == (Action(RED, "deploy", {"pair": [0, 1]}),)  # even alone
    played.apply(question.options[0])
    assert played.state.soldiers["kyo"] == {RED: 2}


def test_a_doubt_elsewhere_does_not_stop_a_move_the_camera_saw_clearly():
    played = rolled(set_up(), RED, 1, 3, 4)  # 1+4 = 5 Odawara (with 3: 2 soldiers)
    (ruling,) = referee(played).on_diff(played.state, doubtful_change(
        played, (1, 3, 4), ("kyo",), odawara={RED: 2}))
    assert ruling == Proposal(Action(RED, "deploy", {"pair": [0, 2]}))
    # a doubt where nothing legal can land, and nothing else seen: nothing to ask, no alert
    assert referee(played).on_diff(played.state, doubtful_change(
        played, (1, 3, 4), ("usuki",))) == []
    # what the camera did see still has to be legal: 5.1.1
    (alert,) = referee(played).on_diff(played.state, doubtful_change(
        played, (1, 3, 4), ("usuki",), yoshida={RED: 2}))
    assert isinstance(alert, Alert) and alert.rule == "5.1.1"


def test_overlapping_soldiers_on_camera_become_a_question_on_the_tablet(tmp_path):
    """Pixels to the tablet: red deploys two soldiers into Kyo and sets them down leaning on
    each other. The reader flags Kyo, the tracker hands the change on once the doubt stays,
    and the tablet asks, naming Kyo; the answer is recorded and nothing is asked again."""
    from companion.games.rumble_nation.synth import Soldier, place_dice
    from companion.games.rumble_nation.table import build
    from companion.record.session import Session
    from companion.table import TableSetup
    from companion.table.session import TableSession
    from companion.web.hub import Hub

    hub = Hub(Session.start(Store(tmp_path / "g.sqlite"), "rumble_nation",
                            options={"players": 3, "daimyo": False}))
    for action in _opening(RED, 1, 3, 4):
        hub.session.play(action, "tablet")
    parts = build(hub.session.game.rules, TableSetup())
    parts.tracker.doubt_after = 3
    table_session = TableSession(hub, parts)
    board = CountingBoard.load(KIT)
    synth = RumbleSynth(board, KIT)
    camera = Camera((1920, 1440))
    dice = place_dice(board, [1, 3, 4], random.Random(1))
    kyo = board.geometry.zone("kyo").center

    def look(soldiers: tuple, frames: int) -> None:
        for seed in range(frames):
            image = synth.photograph(RumbleScene({}, soldiers, dice), camera,
                                     Look(noise=1.5, seed=seed)).image
            table_session.on_frame(image)

    look((), 3)
    assert table_session.tracker.stable is not None and hub.question is None
    leaning = (Soldier(RED, "kyo", kyo, 10), Soldier(RED, "kyo", (kyo[0] + 4, kyo[1]), 10))
    look(leaning, 5)
    assert hub.question is not None, table_session.tracker.stable
    text, options = hub.question
    assert "cannot count Kyo" in text and options == (Action(RED, "deploy", {"pair": [0, 1]}),)
    assert hub.alert is None and table_session.referee.desync is None
    shown = hub.view("public")["question"]
    assert shown["options"] == [] and "Kyo" in shown["text"]  # the options are red's
    hub.answer(RED, 0)
    table_session.recheck()
    look(leaning, 5)
    assert hub.question is None and hub.alert is None
    assert [e.action.verb for e in hub.session.entries][-1] == "deploy"
    assert hub.session.game.state.soldiers["kyo"] == {RED: 2}


def _opening(player: str, *faces: int) -> list[Action]:
    """The set-up of `set_up()` and `player`'s roll with these faces, as actions."""
    return [Action(CHANCE, "setup", {"castles": CASTLES, "tactics": DISPLAY[:4], "daimyo": [],
                                     "first": 0}),
            Action(player, "roll"), Action(CHANCE, "dice", {"values": list(faces)})]
