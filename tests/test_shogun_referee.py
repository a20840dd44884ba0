"""Shogun at the table (issue #21, "At the table"): the referee reads the camera's counts of
cubes per province and colour and of the tower's tray (`CountDiff`), the card reader's labels
and the confirm button as Shogun actions (rules: shared/seeds/shogun-rules-it.txt, sections
numbered in docs/shogun.md). Positions come from seeded random games, replayed up to the moment
a test needs; every expectation is worked out from the position, never written in."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from companion.engine import CHANCE, Action, Alert, Event, Game, Proposal, Question, random_playout
from companion.engine.core import fold, say
from companion.games.shogun.kit import ACTIONS
from companion.games.shogun.labels import ACTION_PREFIX, EVENT_PREFIX, SPECIAL_PREFIX
from companion.games.shogun.reader import TRAY
from companion.games.shogun.referee import THROWS, ShogunReferee, board_of
from companion.games.shogun.rules import PHASE_RULES, ShogunRules, ShogunState, waiting
from companion.games.shogun.rules.state import FARMERS, frozen
from companion.games.shogun.rules.tower import inflight
from companion.games.shogun.script import read_back, read_back_games, variant
from companion.i18n import translator
from companion.inputs.labels import card_code
from companion.kits import load_kit
from companion.table import TableRegistry
from companion.vision.count_tracker import CountDiff, CountSnapshot, normalised

KIT = load_kit("shogun")
Board = dict[str, dict[str, int]]


def rules(players: int = 4) -> ShogunRules:
    return ShogunRules(KIT, {"players": players})


RULES = rules()


def referee(played: Game[ShogunState]) -> ShogunReferee:
    return ShogunReferee(played.rules, TableRegistry({}, {}))  # type: ignore[arg-type]


def until(test: Callable[[ShogunState], bool], seed: int = 0, players: int = 4
          ) -> Game[ShogunState]:
    """A seeded random game replayed up to the first position where `test` holds."""
    for n in range(seed, seed + 40):
        script = Game(rules(players), seed=n)
        random_playout(script)
        played: Game[ShogunState] = Game(rules(players), seed=n)
        for ply in script.history:
            if test(played.state):
                return played
            played.apply(ply.action)
    raise AssertionError("no seeded game reaches the position")


def table(state: ShogunState) -> CountSnapshot:
    return CountSnapshot(board_of(state), ())


def moved(before: CountSnapshot, **changes: dict[str, int]) -> CountDiff:
    """The table with `changes` (zone -> kind -> cubes more or fewer)."""
    counts = {z: dict(k) for z, k in before.counts.items()}
    for zone, kinds in changes.items():
        here = counts.setdefault(zone, {})
        for kind, n in kinds.items():
            here[kind] = here.get(kind, 0) + n
    return CountDiff(before, CountSnapshot(normalised(counts), ()))


def said(text: str) -> str:
    """A referee's sentence as an Italian screen says it (every template has its Italian)."""
    return say(text, translator("it", "companion.games.shogun"))


def asked_to_confirm(rulings: list, reading: Action) -> bool:
    """A tray reading the camera is sure of is played at once, shown with its outcome and a
    tap to take it back (issue 36: confirmation by not objecting; issue 21 asked a question):
    one proposal, the reading, with its notice."""
    return (len(rulings) == 1 and isinstance(rulings[0], Proposal)
            and rulings[0].action == reading and "The tower's tray: " in rulings[0].notice)


def pending(kind: str) -> Callable[[ShogunState], bool]:
    return lambda s: s.pending is not None and s.pending.get("kind") == kind \
        and not s.pending.get("read")


def attack_on(owned: bool) -> Callable[[ShogunState], bool]:
    """An attack awaited from a province next to another player's armies (owned) or next to
    a neutral province (not owned)."""
    def test(s: ShogunState) -> bool:
        if not pending("attack")(s):
            return False
        assert s.pending is not None
        origin = str(s.pending["province"])
        return any((s.armies.get(p, 0) > 0 and s.owner.get(p) not in (None, s.pending["player"]))
                   if owned else s.owner.get(p) is None
                   for p in KIT.neighbours(s.side, origin))
    return test


# --- cards turned ---------------------------------------------------------------------------


def test_two_province_cards_turned_are_the_deal_and_an_unknown_code_is_named():
    """2.2: the first two province cards are turned face up: both labels make chance's deal,
    in the order read. A code that names no Shogun card, or a card the deal does not turn (an
    action card), is an alert naming it, with the rule."""
    played = Game(rules())
    ref = referee(played)
    first, second = sorted(played.state.deck)[:2]
    assert ref.on_card(played.state, card_code(first)) == []
    assert ref.on_card(played.state, card_code(second)) == [
        Proposal(Action(CHANCE, "deal", {"cards": [first, second]}))]
    unknown = ref.on_card(played.state, "CARD:not_a_card")
    assert isinstance(unknown[0], Alert) and unknown[0].rule == "2"
    assert "not_a_card" in unknown[0].message and unknown[0].fix
    wrong = ref.on_card(played.state, card_code(f"{ACTION_PREFIX}castle"))
    assert isinstance(wrong[0], Alert) and wrong[0].rule == "2.2"
    assert "Build a castle" in wrong[0].message and "2 province cards" in wrong[0].fix
    assert "Costruisci un castello" in said(wrong[0].message)


def test_a_deck_card_at_the_claims_is_the_draw_and_the_card_drawn():
    """2.2: a player who takes the deck's top card instead of a face-up one: its label is the
    draw and the card drawn at once; a face-up card picked up waits for the group."""
    played = until(lambda s: s.phase == "claim" and len(s.face_up) == 2 and bool(s.deck))
    state = played.state
    ref = referee(played)
    claimer = state.players[state.claimer]
    assert ref.on_card(state, card_code(state.face_up[0])) == []
    card = sorted(state.deck)[0]
    assert ref.on_card(state, card_code(card)) == [
        Proposal(Action(claimer, "draw", {})), Proposal(Action(CHANCE, "drawn", {"card": card}))]
    assert ref.card_owner(state, card_code(card)) == claimer


def test_the_next_action_card_turned_is_read_and_one_already_up_is_refused():
    """3.6: the next face-down action card turned is chance's turn_card; one already face up
    is refused with 3.6 and named."""
    played = until(lambda s: s.phase == "actions" and CHANCE in waiting(s))
    state = played.state
    ref = referee(played)
    down = next(a for a in ACTIONS if a not in state.row)
    assert ref.on_card(state, card_code(f"{ACTION_PREFIX}{down}")) == [
        Proposal(Action(CHANCE, "turn_card", {"card": down}))]
    refused = ref.on_card(state, card_code(f"{ACTION_PREFIX}{state.row[0]}"))
    assert isinstance(refused[0], Alert) and refused[0].rule == "3.6"
    event = card_code(f"{EVENT_PREFIX}{KIT.events[0].id}")
    assert isinstance(ref.on_card(state, event)[0], Alert)


def test_five_action_cards_laid_out_ask_the_special_cards_order():
    """3.1-3.2: the five action cards turned face up are read in order; special cards whose
    labels were not scanned (a set printed before they had labels) are asked: every order
    of them is an option."""
    played = until(lambda s: s.phase == "layout")
    ref = referee(played)
    cards = ["taxes", "castle", "deploy_3", "battle_b", "rice"]
    out = [r for c in cards for r in ref.on_card(played.state, card_code(f"{ACTION_PREFIX}{c}"))]
    assert len(out) == 1 and isinstance(out[0], Question) and "3.2" in out[0].text
    assert len(out[0].options) == 120
    assert all(o.args["actions"] == tuple(cards) for o in out[0].options)
    assert all(played.rules.accepts(played.state, o) for o in out[0].options)


def test_the_special_cards_scanned_in_order_then_the_action_cards_are_the_lay_out_unasked():
    """3.2 (issue 36): the special cards' labels scanned in the order they lie on spaces 1 to
    5, then the five action cards turned, are the whole lay-out: played, not asked (the 120
    orders were a doubt in every round). A special card scanned twice counts once; one
    scanned when nothing is laid out is a card the game does not turn now."""
    played = until(lambda s: s.phase == "layout")
    ref = referee(played)
    order = ["rice", "attack", "chest", "defence", "six_armies"]
    cards = ["taxes", "castle", "deploy_3", "battle_b", "rice"]
    scans = [f"{SPECIAL_PREFIX}{c}" for c in [*order[:2], order[1], *order[2:]]] + \
        [f"{ACTION_PREFIX}{c}" for c in cards]
    out = [r for code in scans for r in ref.on_card(played.state, card_code(code))]
    assert out == [Proposal(Action(CHANCE, "lay_out", {"actions": cards, "specials": order}))]
    assert ref.labelled_specials  # the cards taken are read from now on
    later = until(lambda s: s.phase == "plan")
    refused = referee(later).on_card(later.state, card_code(f"{SPECIAL_PREFIX}rice"))
    assert isinstance(refused[0], Alert) and "+1 rice" in refused[0].message


def test_once_the_special_cards_showed_labels_the_card_taken_is_read_from_its_scan():
    """3.5 (issue 36): a table whose special cards were scanned at the lay-out has labels on
    them, so the card each player takes is read from its scan, not put to the chooser
    beforehand; a referee that never saw a special card's label still asks it."""
    played = until(lambda s: s.phase == "special")
    state = played.state
    taught = referee(played)
    taught.labelled_specials = True  # as `_special` sets it at a scanned lay-out
    assert taught.decisions(state) == []
    card = next(a for a in played.legal_actions(state.choosing[0]) if a.verb == "take")
    out = taught.on_card(state, card_code(f"{SPECIAL_PREFIX}{card.args['card']}"))
    assert out == [Proposal(card)]
    asked = referee(played).decisions(state)
    assert len(asked) == 1 and card in asked[0].options


# --- cubes on the provinces -----------------------------------------------------------------


def test_a_group_put_on_a_face_up_province_is_the_claim_and_a_wrong_group_is_refused():
    """2.2: cubes of the claimer's colour on a face-up province are a claim with that group;
    a group the player's individual board does not hold is refused by 2.2 with the fix, the
    record untouched."""
    played = until(lambda s: s.phase == "claim" and len(s.face_up) == 2)
    state = played.state
    ref = referee(played)
    claimer = state.players[state.claimer]
    group = max(state.groups[claimer])
    card = state.face_up[1]
    diff = moved(table(state), **{card: {claimer: group}})
    assert ref.on_diff(state, diff) == [
        Proposal(Action(claimer, "claim", {"card": card, "group": group}))]
    too_many = moved(table(state), **{card: {claimer: group + 1}})
    before = played.state
    alert = ref.on_diff(state, too_many)[0]
    assert isinstance(alert, Alert) and alert.rule == "2.2"
    assert ref.desync is alert and played.state is before
    assert "take" in alert.fix and str(group + 1) in alert.fix
    assert not ref.table_matches(state, too_many.after)
    assert ref.table_matches(state, table(state)) and ref.desync is None


def test_an_attack_on_another_players_province_is_read_from_both_provinces_then_the_tray():
    """4.4 and 6.1: the attacker's armies gone from the origin and the defender's from the
    target (both thrown into the tower) are that battle; the tray's cubes that land next are
    chance's reading, judged on the battle the record then has."""
    played = until(attack_on(owned=True))
    state = played.state
    assert state.pending is not None
    player, origin = str(state.pending["player"]), str(state.pending["province"])
    target = next(p for p in KIT.neighbours(state.side, origin) if state.armies.get(p, 0) > 0
                  and state.owner.get(p) not in (None, player))
    defender, defending = state.owner[target], state.armies[target]
    ref = referee(played)
    diff = moved(table(state), **{origin: {player: -1}, target: {defender: -defending}})
    attack = Action(player, "attack", {"to": target, "armies": 1})
    assert ref.on_diff(state, diff) == [Proposal(attack)]
    played.apply(attack)
    reading = {player: 1}
    landed = CountDiff(diff.after, CountSnapshot({**diff.after.counts, TRAY: reading}, ()))
    (played_now,) = ref.on_diff(played.state, landed)
    assert asked_to_confirm([played_now], Action(CHANCE, "tray", {"tray": reading}))
    # the outcome it gives, in words: the attacker holds the province with what is left
    name = KIT.provinces(state.side)[target].name
    assert isinstance(played_now, Proposal)
    assert f"holds {name} with 1 " in played_now.notice, played_now.notice
    assert said(played_now.notice).startswith("Il vassoio della torre: ")


def test_the_special_cards_extra_armies_are_asked_of_their_holders():
    """3.2 «+1 esercito con attacco ... può piazzare 1 esercito extra» and «+1 esercito con
    difesa - Un giocatore in difesa può piazzare 1 esercito extra»: the cubes show the attack,
    not the army from the supply, so the attacker holding +1 attack is asked, the extra army
    first; then the defender holding +1 defence is asked; the tray is read after."""
    played = until(attack_on(owned=True))
    state = played.state
    assert state.pending is not None
    player, origin = str(state.pending["player"]), str(state.pending["province"])
    target = next(p for p in KIT.neighbours(state.side, origin) if state.armies.get(p, 0) > 0
                  and state.owner.get(p) not in (None, player))
    defender, defending = state.owner[target], state.armies[target]
    specials = state.specials
    state = dataclasses.replace(state, taken=frozen({player: specials.index("attack"),
                                                     defender: specials.index("defence")}))
    played = Game.from_state(played.rules, state, seed=1)
    ref = referee(played)
    diff = moved(table(state), **{origin: {player: -1}, target: {defender: -defending}})
    (question,) = ref.on_diff(state, diff)
    attack = Action(player, "attack", {"to": target, "armies": 1})
    assert isinstance(question, Question) and "(3.2)" in question.text
    assert question.options == (attack, Action(player, "attack", {"to": target, "armies": 1,
                                                                  "extra": False}))
    assert "{" not in said(question.text)
    played.apply(attack)
    assert ref.table_matches(played.state, diff.after)  # the armies left with the attack
    (asked,) = ref.decisions(played.state)
    assert isinstance(asked, Question) and "+1 army defending" in asked.text
    assert [a.role for a in asked.options] == [defender, defender]
    played.apply(asked.options[1])
    assert played.state.pending is not None and played.state.pending["kind"] == "battle"


def test_armies_gone_from_the_origin_alone_wait_for_the_tray_before_a_neutral_attack():
    """4.4: armies taken from the origin may be a battle for a neutral province or the first
    half of a move or of a battle against a player (whose armies still stand): the referee
    waits; once the tray lands, the battles for a neutral province are what is left (one: a
    proposal; several: a question listing them, 4.4)."""
    played = until(attack_on(owned=False))
    state = played.state
    assert state.pending is not None
    player, origin = str(state.pending["player"]), str(state.pending["province"])
    ref = referee(played)
    start = table(state)
    gone = moved(start, **{origin: {player: -1}})
    first = ref.on_diff(state, gone)
    targets = {str(a.args["to"]) for a in played.rules.legal_actions(state, player)}
    empty = {p for p in targets if not state.armies.get(p) and state.owner.get(p) != player}
    assert targets - empty, "a position with a move or a defended province to wait for"
    assert first == [] and ref.desync is None  # a move, or a defender not thrown yet
    landed = CountDiff(gone.after, CountSnapshot({**gone.after.counts, TRAY: {player: 1}}, ()))
    out = ref.on_diff(state, landed)
    options = {Action(player, "attack", {"to": p, "armies": 1}) for p in empty}
    if len(options) == 1:
        assert out[0] == Proposal(options.pop())
    else:
        assert isinstance(out[0], Question) and "4.4" in out[0].text
        assert set(out[0].options) == options


def _neutral_targets(state: ShogunState) -> set[str]:
    """The neutral provinces the awaited attack may go to."""
    assert state.pending is not None
    player = str(state.pending["player"])
    return {str(a.args["to"]) for a in rules().legal_actions(state, player)
            if a.verb == "attack" and not state.armies.get(str(a.args["to"]))
            and state.owner.get(str(a.args["to"])) != player}


def test_a_tray_that_landed_while_the_attack_was_asked_is_read_once_it_is_answered():
    """4.4, 6: the tray lands, the referee asks which neutral province was attacked; the
    answer puts the record's table in the tracker (the tray is not in the record yet) and the
    players may empty the tray meanwhile: the tray that landed is still the reading (the
    full-game demo of seed 2, 3 players, found it lost)."""
    played = until(lambda s: attack_on(owned=False)(s) and len(_neutral_targets(s)) > 1)
    state = played.state
    assert state.pending is not None
    player, origin = str(state.pending["player"]), str(state.pending["province"])
    ref = referee(played)
    gone = moved(table(state), **{origin: {player: -1}})
    assert ref.on_diff(state, gone) == []
    landed = CountDiff(gone.after, CountSnapshot({**gone.after.counts, TRAY: {player: 1}}, ()))
    question = ref.on_diff(state, landed)[0]
    assert isinstance(question, Question)
    played.apply(question.options[0])
    # The tablet's answer: the session takes the record's provinces as the table, and the
    # tray as the camera saw it (a tap moves no cube).
    ref.seen = ref.expected(played.state)
    assert ref.seen.counts[TRAY] == {player: 1} and TRAY not in table(played.state).counts
    read = Action(CHANCE, "tray", {"tray": {player: 1}})
    assert asked_to_confirm(ref.decisions(played.state), read)
    # Read once: the players then putting the table as the record has it is no landing.
    played.apply(read)
    assert ref.on_diff(played.state, CountDiff(ref.seen, table(played.state))) == []
    assert ref.desync is None
    # Had the players emptied the tray before the answer, the tray that landed is read all
    # the same.
    ref.landed, ref.seen = {player: 1}, CountSnapshot({**gone.after.counts, TRAY: {}}, ())
    answered = fold(played.rules, state, played.rules.decide(state, question.options[0]))
    assert asked_to_confirm(ref.decisions(answered), read)


def test_cubes_moved_where_no_legal_action_sends_them_are_refused_with_the_rule_and_fix():
    """4.4: armies put into a province the origin does not border (or all of them moved, none
    staying) are refused by 4.4: the alert says what was seen, how to put it back and what the
    game waits for; the referee is out of sync until the table is as the record has it, and
    the record is untouched."""
    played = until(attack_on(owned=False))
    state = played.state
    assert state.pending is not None
    player, origin = str(state.pending["player"]), str(state.pending["province"])
    far = next(p for p in KIT.provinces(state.side) if p != origin and p not in
               KIT.neighbours(state.side, origin) and state.owner.get(p) in (None, player)
               and not state.armies.get(p))
    ref = referee(played)
    diff = moved(table(state), **{origin: {player: -1}, far: {player: 1}})
    out = ref.on_diff(state, diff)
    assert len(out) == 1 and isinstance(out[0], Alert) and out[0].rule == "4.4"
    alert = out[0]
    name = KIT.provinces(state.side)[far].name
    assert name in alert.message and name in alert.fix and alert.public_fix == alert.fix
    assert "take 1" in alert.fix and "put 1" in alert.fix
    assert "togli 1" in said(alert.fix)
    assert ref.desync is alert and played.state is state
    all_out = moved(table(state), **{origin: {player: -state.armies[origin]}})
    again = ref.on_diff(state, all_out)
    assert isinstance(again[0], Alert) and again[0].rule == "4.4"
    assert ref.table_matches(state, table(state))


def test_an_impossible_tray_reading_is_the_towers_rule_6_refusal_with_the_fix():
    """6: the tray cannot show more cubes of a colour than went into the tower (thrown, in the
    tray before, or held inside): the engine refuses the reading, and the alert carries rule 6
    and the fix; a possible reading put right clears the desync and is then read."""
    played = until(pending("battle"))
    state = played.state
    ref = referee(played)
    most = inflight(state)
    colour = next(iter(sorted(most)))
    start = table(state)
    bad = CountDiff(start, CountSnapshot({**start.counts, TRAY: {colour: most[colour] + 1}}, ()))
    out = ref.on_diff(state, bad)
    assert isinstance(out[0], Alert) and out[0].rule == "6" and "confirm" in out[0].fix
    assert ref.desync is out[0] and played.state is state
    assert not ref.table_matches(state, bad.after)
    good = CountSnapshot({**start.counts, TRAY: {colour: most[colour]}}, ())
    assert ref.table_matches(state, good) and ref.desync is None
    ref.seen = good
    assert asked_to_confirm(ref.decisions(state),
                            Action(CHANCE, "tray", {"tray": {colour: most[colour]}}))


def test_the_tray_taken_out_to_be_thrown_waits_and_confirm_reads_an_unchanged_tray():
    """6.1: the tray's cubes go into the tower with the battle's: the tray seen empty while a
    throw awaits is not a reading; a reading the camera cannot see change is read by confirm."""
    played = until(lambda s: pending("battle")(s) and bool(s.tray))
    state = played.state
    ref = referee(played)
    start = table(state)
    empty = CountDiff(start, CountSnapshot({**start.counts, TRAY: {}}, ()))
    assert ref.on_diff(state, empty) == []
    back = CountDiff(empty.after, start)
    assert asked_to_confirm(ref.on_diff(state, back),
                            Action(CHANCE, "tray", {"tray": dict(state.tray)}))
    ref.seen = start
    assert ref.on_button(state, "confirm") == [
        Proposal(Action(CHANCE, "tray", {"tray": dict(state.tray)}))]


def test_the_cubes_a_throw_returned_taken_out_while_the_next_throw_awaits_are_no_reading():
    """5.2, 6.1: when the rules throw again at once (a player's next revolt), the players taking
    the returned cubes out of the tray, down to what the record keeps there, is not the next
    throw's reading (the full-game demo of seed 1 found it read as one); confirm reads a tray
    that stays so."""
    played = until(lambda s: s.pending is not None and s.pending.get("kind") in THROWS
                   and not s.pending.get("read") and bool(s.tray))
    state = played.state
    ref = referee(played)
    kept = table(state)
    returned = moved(kept, **{TRAY: {FARMERS: 1, state.players[0]: 2}}).after
    assert ref.on_diff(state, CountDiff(returned, kept)) == [] and ref.desync is None
    assert ref.on_button(state, "confirm") == [
        Proposal(Action(CHANCE, "tray", {"tray": dict(state.tray)}))]


def test_the_table_following_the_record_after_a_battle_asks_nothing_and_overshooting_is_refused():
    """6.2: once the tray is read the rules return the losses and put the winner's armies in
    the province; the players doing so, step by step, is no action; putting more than the
    record has is refused, with the fix counted from the record."""
    played = until(lambda s: pending("battle")(s) and s.pending is not None
                   and s.pending.get("defender") is None)
    ref = referee(played)
    start = table(played.state)
    assert played.state.pending is not None
    attacker = str(played.state.pending["attacker"])
    thrown = inflight(played.state)
    reading = {attacker: thrown[attacker]}
    landed = CountSnapshot({**start.counts, TRAY: reading}, ())
    read = Action(CHANCE, "tray", {"tray": reading})
    assert asked_to_confirm(ref.on_diff(played.state, CountDiff(start, landed)), read)
    played.apply(read)
    after = played.state
    record = board_of(after)
    halfway = {**landed.counts}
    province = next(z for z in record if z != TRAY and record[z] != start.counts.get(z))
    halfway[province] = record[province]
    step = CountDiff(landed, CountSnapshot(normalised(halfway), ()))
    assert ref.on_diff(after, step) == [] and ref.desync is None
    over = moved(step.after, **{province: {attacker: 1}})
    alert = ref.on_diff(after, over)[0]
    awaited = after.pending.get("kind") if after.pending is not None else None
    rule = {"attack": "4.4", "move": "4.3"}.get(str(awaited), PHASE_RULES[after.phase])
    assert isinstance(alert, Alert) and alert.rule == rule  # the rule of what is awaited
    assert "take 1" in alert.fix and KIT.provinces(after.side)[province].name in alert.fix


def _deploying(state: ShogunState) -> str | None:
    """A face-down deploy card whose turning now deploys armies (4.3), if there is one."""
    if state.phase != "actions" or CHANCE not in waiting(state):
        return None
    for card in ("deploy_5", "deploy_3"):
        if card not in state.row:
            turned = Game.from_state(RULES, state).apply(Action(CHANCE, "turn_card",
                                                                {"card": card}))
            if any(e.type == "ArmiesDeployed" for e in turned):
                return card
    return None


def test_a_deploy_the_rules_carried_out_must_then_show_its_armies():
    """4.3: the rules deploy the armies when the action card is turned; the table then shows
    them: the right cubes ask nothing, one too many is a desync whose fix says how many to
    take out and where."""
    game = until(lambda s: _deploying(s) is not None)
    state = game.state
    events = game.apply(Action(CHANCE, "turn_card", {"card": _deploying(state)}))
    deploy = next(e for e in events if e.type == "ArmiesDeployed")
    ref = referee(game)
    province, player, armies = (deploy.data["province"], deploy.data["player"],
                                deploy.data["armies"])
    before = table(state)
    assert ref.on_diff(game.state, moved(before, **{province: {player: armies}})) == []
    over = ref.on_diff(game.state, moved(before, **{province: {player: armies + 1}}))
    assert isinstance(over[0], Alert) and ref.desync is over[0]
    assert "take 1" in over[0].fix and KIT.provinces(state.side)[province].name in over[0].fix


# --- asked on the tablet --------------------------------------------------------------------


def test_choices_the_table_cannot_show_are_asked_with_their_rule():
    """3.5 the special card taken, 4.3 staying after deploy 1, 5.2 the order of winter
    revolts, 3.5 the tied bidders' daimyo cards, 3.2 the 6 armies card's 5 or 6 and the +1
    defence card's army (the defender's question): asked on the tablet, every legal choice an
    option. 2.2 drawing from the deck is read from the card's label, and asked only when the
    claimer presses confirm (issue 36: not put to every claimer beforehand)."""
    cases = {"take": (lambda s: s.phase == "special", "3.5"),
             "stay": (pending("move"), "4.3"),
             "draw": (lambda s: s.phase == "claim" and len(s.face_up) == 2 and bool(s.deck),
                      "2.2"),
             "revolt": (lambda s: s.phase == "revolts" and any(
                 len(v) > 1 for v in s.revolts.values()), "5.2"),
             "daimyo": (lambda s: s.phase == "ties", "3.5"),
             "deploy": (pending("deploy"), "3.2"), "defend": (pending("defence"), "3.2")}
    for verb, (test, rule) in cases.items():
        played = until(test)
        judge = referee(played)
        out = judge.decisions(played.state)
        if verb == "draw":  # read from the card scanned, or told: never put beforehand
            assert out == [], verb
            out = judge.on_button(played.state, "confirm")
        assert len(out) == 1 and isinstance(out[0], Question), verb
        assert f"({rule})" in out[0].text and "{" not in said(out[0].text), verb
        assert {a.verb for a in out[0].options} == {verb}, verb
        assert all(played.rules.accepts(played.state, a) for a in out[0].options), verb


# --- hidden information ---------------------------------------------------------------------


def _secret_swapped(state: ShogunState) -> ShogunState:
    """The same table with every unrevealed plan and bid changed: what the referee says must
    not depend on them (3.3)."""
    plans = {p: {a: "chest_0" for a in plan} for p, plan in state.plans.items()}
    bids = {} if state.bids_shown else {p: "chest_1" for p in state.bids}
    return dataclasses.replace(state, plans=frozen(plans),
                               bids=frozen(bids) if not state.bids_shown else state.bids)


def test_a_hidden_plan_never_reaches_an_alert_or_a_question():
    """3.3: plans and bids are made on the phones; the referee never reads them: with a move
    refused, a card turned out of place and the tablet's questions, what it says is the same
    whatever the secret plans hold, and names no card of a plan not yet turned up."""
    played = until(lambda s: s.phase == "event" and s.event is None)
    state = played.state
    assert state.plans and not state.bids_shown
    secret = {c for plan in state.plans.values() for c in plan.values()} | set(state.bids.values())
    names = {KIT.provinces(state.side)[c].name for c in secret if c in KIT.provinces(state.side)}
    player = state.players[0]
    somewhere = next(p for p in KIT.provinces(state.side) if state.owner.get(p) == player)
    probes = [lambda r, s: r.on_diff(s, moved(table(s), **{somewhere: {player: 1}})),
              lambda r, s: r.on_card(s, card_code(f"{ACTION_PREFIX}castle")),
              lambda r, s: r.decisions(s)]
    for probe in probes:
        plain = probe(referee(played), state)
        assert plain == probe(referee(played), _secret_swapped(state))
        for ruling in plain:
            text = " ".join(str(getattr(ruling, f, "")) for f in ("message", "fix",
                                                                  "public_fix", "text"))
            assert "chest_" not in text and "plan" not in text.replace("plans, made", "")
            assert not any(n in text for n in names - {KIT.provinces(state.side)[somewhere].name})
            assert not isinstance(ruling, Question) or all(
                a.verb != "plan" for a in ruling.options)


def test_the_referee_never_proposes_or_asks_a_plan():
    """3.3: in whole games read back, the plans are counted hidden, never said."""
    figures = read_back_games(1, 11)
    assert figures["hidden_by_verb"] == {"plan": figures["hidden"]} and figures["hidden"] > 0
    assert "plan" not in figures["asked_by_verb"] and "plan" not in figures["recovered_by_verb"]


# --- whole games ----------------------------------------------------------------------------


def test_whole_games_for_3_4_and_5_players_are_read_back_without_a_miss():
    """3.6, 4, 5, 6: three random games (3, 4, 5 players) acted out at the count level are
    read back: every action proposed or asked, none missed, the plans hidden."""
    figures = read_back_games(3, 1)
    assert figures["missed"] == 0, figures["first_misses"]
    assert figures["recovered"] > figures["asked"] > 0
    assert {"attack", "turn_card", "claim", "revolts"} <= set(figures["recovered_by_verb"])
    # Issue 36: a tray the camera counts is played at once (a tap takes it back), never asked.
    assert "tray" in figures["recovered_by_verb"] and "tray" not in figures["asked_by_verb"]
    # Each question says why: the special cards' «può», who takes a card and the daimyo
    # order are choices; the special cards' order on their spaces is read from their labels
    # (it was the one doubt); nothing is asked only to be confirmed.
    causes = figures["asked_by_cause"]
    assert sum(causes.values()) == figures["asked"]
    assert causes["confirmation"] == 0 and causes["choice"] > 0 and causes["doubt"] == 0
    assert "lay_out" in figures["recovered_by_verb"] and "lay_out" not in figures["asked_by_verb"]


@pytest.mark.slow
@pytest.mark.timeout(900)  # 12 whole games read back, ~70 ms an action on 2 busy cores
def test_many_whole_games_on_both_sides_are_read_back_without_a_miss():
    """As above, 11 games: 3, 4 and 5 players, the sides (2). Seed 103 is the known miss
    below, kept apart so that it is seen, not hidden in a sum."""
    for n in range(12):
        if 100 + n == KNOWN_MISS:
            continue
        figures = _read_back_one(n, 100 + n)
        assert figures["missed"] == 0, (n, figures["first_misses"])


KNOWN_MISS = 103
"""A 3-player game where Yellow's attack on Kita 8 (the +1 attack card's army kept back,
issue 34) is read with a Red cube more on Kita 4 than the read-back's table had: the script's
acting out or the referee after the special cards' new choices. It fails since the issue-34
rules (the rules branch alone fails the same way); to be found and fixed."""


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason="known read-back miss after the special cards' choices "
                   "(issue 34): seed 103, Yellow's attack on Kita 8; see KNOWN_MISS")
def test_the_known_miss_of_seed_103_is_read_back():
    figures = _read_back_one(KNOWN_MISS - 100, KNOWN_MISS)
    assert figures["missed"] == 0, figures["first_misses"]


def _read_back_one(n: int, seed: int) -> dict[str, Any]:
    """One of `read_back_games`' games: the n-th variant (players, side) on `seed`."""
    rules = ShogunRules(KIT, variant(n))
    played: Game[ShogunState] = Game(rules, seed=seed)
    random_playout(played)
    script = [ply.action for ply in played.history]
    counted = read_back(script, Game(rules, seed=seed), ShogunReferee(rules, TableRegistry({}, {})))
    return counted.summary()


def test_the_expected_table_is_the_records_provinces_and_tray():
    """6.2: after a battle the record's table is each province's armies under its owner's
    colour and the tray's cubes, farmers as `farmers`."""
    played = until(lambda s: bool(s.tray.get(FARMERS)) and s.pending is None)
    state = played.state
    expected = referee(played).expected(state)
    assert expected.counts[TRAY] == dict(state.tray)
    assert all(expected.counts[p] == {state.owner[p]: n} for p, n in state.armies.items() if n)


def test_the_next_action_card_waits_for_the_table_to_show_what_the_last_actions_left():
    """3.6: an action is carried out in full before the next card is turned: with a province
    still short of the armies the record has there, the card is refused with the fix; once
    the table shows them, it is read."""
    played = until(lambda s: s.phase == "actions" and CHANCE in waiting(s) and bool(s.armies))
    state = played.state
    ref = referee(played)
    province = sorted(state.armies)[0]
    card = next(a for a in ACTIONS if a not in state.row)
    ref.seen = moved(table(state), **{province: {state.owner[province]: -1}}).after
    out = ref.on_card(state, card_code(f"{ACTION_PREFIX}{card}"))
    assert isinstance(out[0], Alert) and out[0].rule == "3.6" and ref.desync is None
    assert "put 1" in out[0].fix and KIT.provinces(state.side)[province].name in out[0].fix
    ref.seen = table(state)
    assert ref.on_card(state, card_code(f"{ACTION_PREFIX}{card}")) == [
        Proposal(Action(CHANCE, "turn_card", {"card": card}))]


def test_cubes_guessing_the_next_players_secret_deploy_are_not_confirmed():
    """3.3: after deploy 1 a player's move is followed by the next player's deploy, from a
    plan still face down. A table that shows the move and also guesses that deploy is not told
    the guess is right: the referee fits only the move's own effect, and says the same with
    the secret plans swapped."""
    def leads_to_a_deploy(s: ShogunState) -> bool:
        return pending("move")(s) and any(_next_deploy(s, a) for a in _moves(s))
    played = until(leads_to_a_deploy)
    state = played.state
    move = next(a for a in _moves(state) if _next_deploy(state, a))
    deploy = _next_deploy(state, move)
    assert deploy is not None
    assert state.pending is not None
    origin, to, n = str(state.pending["province"]), str(move.args["to"]), move.args["armies"]
    start = table(state)
    shown = moved(start, **{origin: {move.role: -n}, to: {move.role: n}})
    assert referee(played).on_diff(state, shown) == [Proposal(move)]
    guessed = moved(shown.after, **{deploy.data["province"]: {
        deploy.data["player"]: deploy.data["armies"]}})
    both = CountDiff(start, guessed.after)
    out = referee(played).on_diff(state, both)
    assert isinstance(out[0], Alert) and out[0].rule == "4.3"
    assert out == referee(played).on_diff(_secret_swapped(state), both)


def _moves(state: ShogunState) -> list[Action]:
    assert state.pending is not None
    return [a for a in rules(len(state.players)).legal_actions(state, str(
        state.pending["player"])) if a.verb == "move"]


def _next_deploy(state: ShogunState, move: Action) -> Event | None:
    events = list(rules(len(state.players)).decide(state, move))
    turned = [i for i, e in enumerate(events) if e.type == "TurnPassed"]
    return next((e for e in events[turned[0]:] if e.type == "ArmiesDeployed"
                 and e.data["player"] != move.role), None) if turned else None
