"""Sekigahara's actions, refusals and alerts in a player's words (issue 17), English and Italian.

Every legal action of simulated games (fixed seeds, both knowledge modes, every verb) is said
to every viewer: never a template brace, a raw id or a location id, never the name of a block
or card hidden from that viewer (3.1, 3.3, 6.3); the Italian catalog covers every template and
every rule summary; the table referee's alerts name what the camera saw, whose it is, and how to
put it back, with a public fix that names no block.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from babel.messages.pofile import read_po
from sekigahara_helpers import KIT, placed, rules, set_up

from companion.engine import CHANCE, REFEREE, Action, Alert, Game, IllegalAction
from companion.engine.core.game import fold
from companion.games.sekigahara.referee import SekigaharaReferee
from companion.games.sekigahara.rules import SekigaharaRules, SekigaharaState
from companion.games.sekigahara.rules import words as words_module
from companion.games.sekigahara.rules.words import block_name, card_name
from companion.table import TableRegistry
from companion.vision.table import TableDiff

PACKAGE = Path(words_module.__file__).resolve().parents[1]
VIEWERS = ("ishida", "tokugawa", "public", REFEREE)
ISH, TOK = "ishida", "tokugawa"
REGISTRY = TableRegistry.in_kit_order(b.id for b in KIT.blocks)
A = "I-ukita-2-1"

RAW_IDS = re.compile(r"\b[IT]-[a-z]")
PLACE_IDS = re.compile(r"\b(" + "|".join(sorted(
    {loc.id for loc in KIT.locations} | {b.id for b in KIT.boxes} | {d.id for d in KIT.disks}))
    + r")\b")
"""Locations, boxes and disks as the data names them ("gifu", "mori_box"), never in words."""
ALL_VERBS = {"bid", "castle", "casualties", "challenge", "choose_first", "declare", "defect",
             "deploy", "discard", "done", "end_movement", "mori", "move", "movement_level",
             "prove", "recruit", "retreat", "draw_blocks", "deal"}
"""Every verb the players and chance use (rules/__init__.PHASES, chance draws and deals)."""


# --- simulated games: every legal action in every position ---------------------------------


def _positions(knowledge: str, seed: int, limit: int) -> Iterator[tuple[SekigaharaRules,
                                                                      SekigaharaState, Action]]:
    """(rules, state, action) for every legal action and chance draw of a random game."""
    game = Game(rules(knowledge), seed=seed)
    rng = random.Random(seed)
    the_rules = game.rules
    assert isinstance(the_rules, SekigaharaRules)
    for _ in range(limit):
        roles = game.to_move()
        if not roles:
            return
        if CHANCE in roles:
            action = the_rules.sample_chance(game.state, rng)
            yield the_rules, game.state, action
        else:
            for role in roles:
                for legal in the_rules.legal_actions(game.state, role):
                    yield the_rules, game.state, legal
            picked = the_rules.random_action(game.state, roles[0], rng)
            assert picked is not None
            action = picked
        game.apply(action)


@pytest.fixture(scope="module")
def said() -> list[tuple[SekigaharaRules, SekigaharaState, Action, SekigaharaState]]:
    """Each action with the state before and after it (seeds chosen so every verb occurs)."""
    found = []
    for knowledge, seed, limit in (("table", 2, 80), ("full", 3, 90)):
        for the_rules, state, action in _positions(knowledge, seed, limit):
            after = fold(the_rules, state, the_rules.decide(state, action))
            found.append((the_rules, state, action, after))
    return found


def _mentioned(value: Any) -> set[str]:
    """Every string an action's arguments hold, keys included (paths are keyed by block)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict) or hasattr(value, "items"):
        return {s for k, v in value.items() for s in (*_mentioned(k), *_mentioned(v))}
    if isinstance(value, tuple | list):
        return {s for v in value for s in _mentioned(v)}
    return set()


def _sees(state: SekigaharaState, viewer: str, block: str) -> bool:
    """What views.py shows a viewer: its own blocks, revealed ones, everything to the referee."""
    return viewer == REFEREE or KIT.block[block].side == viewer or block in state.revealed


def test_the_simulated_games_use_every_verb(said):
    assert {action.verb for _, _, action, _ in said} == ALL_VERBS


def test_every_action_said_to_every_viewer_is_words_not_data(said):
    for the_rules, state, action, _ in said:
        for viewer in VIEWERS:
            text = the_rules.say(state, action, viewer)
            assert text and text[0].isupper(), (action.text(), viewer, text)
            assert "{" not in text and "}" not in text and "_" not in text, text
            assert not RAW_IDS.search(text), (action.text(), text)
            assert not PLACE_IDS.search(text), (action.text(), text)
            assert action.text() not in text


def test_no_viewer_reads_the_name_of_a_block_hidden_from_it(said):
    """A name may show only where the block is visible to the viewer once the action is taken
    (a deployment or a loss reveals it, a march hides the stack again, 3.1, 8.2.3, 8.7.2)."""
    checked = 0
    for the_rules, state, action, after in said:
        blocks = {b for b in _mentioned(action.args) if b in KIT.block}
        for viewer in VIEWERS:
            text = the_rules.say(state, action, viewer)
            shown = {block_name(KIT, b) for b in blocks if _sees(after, viewer, b)}
            hidden = {block_name(KIT, b) for b in blocks if not _sees(after, viewer, b)}
            for name in hidden - shown:
                assert name not in text, (viewer, action.text(), text)
                checked += 1
    assert checked > 1000  # the games really had hidden blocks to keep quiet about


def test_a_bid_and_a_deal_name_no_card_to_the_other_side(said):
    """6.3: bids are face down until both are in; 3.3: a hand is its owner's."""
    checked = 0
    for the_rules, state, action, _ in said:
        if action.verb not in ("bid", "deal"):
            continue
        side = action.args.get("side", action.role)
        cards = [c for c in _mentioned(action.args) if c in KIT.card]
        for viewer in VIEWERS:
            text = the_rules.say(state, action, viewer)
            named = [card_name(KIT, c) for c in cards if card_name(KIT, c) in text]
            if viewer in (side, REFEREE):
                assert named, (viewer, text)  # its own side reads its cards
            else:
                assert not named, (viewer, text)
                checked += 1
    assert checked


def test_the_acting_side_reads_an_instruction_and_the_others_a_report(said):
    for the_rules, state, action, _ in said:
        if action.role == CHANCE:
            continue
        mine = the_rules.say(state, action, action.role)
        other = TOK if action.role == ISH else ISH
        report = the_rules.say(state, action, other)
        side = action.role.capitalize()
        assert report.startswith(side), report
        assert not mine.startswith(f"{side} "), mine


def test_a_deployment_says_the_impact_the_rules_count(said):
    """8.3, 8.4: the words' impact is the sum the BlockDeployed events add to the track."""
    seen = 0
    for the_rules, state, action, _ in said:
        if action.verb != "deploy":
            continue
        events = the_rules.decide(state, action)
        impact = sum(e.data["impact"] for e in events if e.type == "BlockDeployed")
        text = the_rules.say(state, action, "public")
        assert f"({impact} impact)" in text, (text, impact)
        assert block_name(KIT, str(action.args["block"])) in text  # deploying reveals it
        seen += 1
    assert seen > 20


def test_italian_words_differ_from_the_english(said):
    for the_rules, state, action, _ in said[::7]:
        for viewer in (action.role if action.role != CHANCE else ISH, "public"):
            english = the_rules.say(state, action, viewer, "en")
            italian = the_rules.say(state, action, viewer, "it")
            assert italian != english, english
            assert "{" not in italian and not RAW_IDS.search(italian), italian


# --- exact words for a known move -------------------------------------------------------------


def test_a_split_march_is_said_in_full_to_its_side_and_by_counts_to_the_other():
    b = "I-ukita-2-2"
    game = placed(set_up(), {A: "osaka", b: "osaka"}, active=ISH, level="total", clear=True)
    march = Action(ISH, "move", {"from": "osaka", "paths": {A: ["kyoto", "minakuchi"],
                                                            b: ["kyoto"]}})
    state, the_rules = game.state, game.rules
    assert the_rules.say(state, march, ISH) == (
        "March 1 block (Ukita 2) Osaka → Kyoto, by highway; "
        "1 block (Ukita 2) Osaka → Kyoto → Minakuchi, by highway")
    assert the_rules.say(state, march, TOK) == (
        "Ishida marches 1 block Osaka → Kyoto, by highway; "
        "1 block Osaka → Kyoto → Minakuchi, by highway")
    assert the_rules.say(state, march, "public", "it") == (
        "Ishida muove 1 blocco Osaka → Kyoto, su strada principale; "
        "1 blocco Osaka → Kyoto → Minakuchi, su strada principale")
    assert the_rules.marks(state, march) == {
        "arrows": [["osaka", "kyoto"], ["osaka", "minakuchi"]], "places": []}


def test_a_declared_leader_is_named_to_everyone_and_the_forced_march_card_too():
    leader = "I-ukita-leader-1"
    card = "I-ukita-plain-1"
    game = placed(set_up(), {A: "osaka", leader: "osaka"}, active=ISH, level="total",
                  clear=True, hands={ISH: [card]})
    march = Action(ISH, "move", {"from": "osaka", "paths": {A: ["kyoto"], leader: ["kyoto"]},
                                 "leader": leader, "forced_march": card})
    game.rules.decide(game.state, march)  # a legal move
    text = game.rules.say(game.state, march, TOK)
    assert text == ("Ishida marches 2 blocks Osaka → Kyoto, by highway, forced march with the "
                    "Ukita card, led by Ukita leader")  # 7.3.4 declared, 3.3 discarded face up
    assert "Ukita 2" not in text


def test_the_referee_correction_names_the_block_only_to_its_side_and_the_referee():
    fix = Action(REFEREE, "correct", {"block": A, "to": "kiso"})
    the_rules, state = rules(), set_up().state
    assert the_rules.say(state, fix, REFEREE) == "Referee: Ukita 2 is really at Kiso"
    assert the_rules.say(state, fix, ISH) == "Referee: Ukita 2 is really at Kiso"
    assert the_rules.say(state, fix, TOK) == "Referee: one Ishida block is really at Kiso"
    assert the_rules.say(state, fix, "public", "it") == (
        "Arbitro: un blocco Ishida in realtà è a Kiso")


# --- the Italian catalog --------------------------------------------------------------------


def _templates() -> set[str]:
    """Every string literal words.py hands to t(...) or to pick(...) (which passes it to t)."""
    tree = ast.parse((PACKAGE / "rules" / "words.py").read_text("utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name in ("t", "pick"):
                found |= {a.value for a in node.args
                          if isinstance(a, ast.Constant) and isinstance(a.value, str)}
    return found


def _italian() -> dict[str, str]:
    with (PACKAGE / "locales" / "it" / "words.po").open("rb") as handle:
        catalog = read_po(handle, abort_invalid=True)
    return {str(m.id): str(m.string) for m in catalog if m.id}


def _summaries() -> dict[str, str]:
    data = yaml.safe_load((PACKAGE / "data" / "rule_summaries.yaml").read_text("utf-8"))
    return {str(k): str(v) for k, v in data.items()}


FIELDS = re.compile(r"\{(\w*)\}")


def test_every_template_and_summary_has_an_italian_translation_with_the_same_fields():
    italian = _italian()
    templates = _templates()
    assert len(templates) > 60  # the extraction found words.py's templates
    for english in sorted(templates | set(_summaries().values())):
        assert italian.get(english), f"no Italian for {english!r}"
        assert sorted(FIELDS.findall(italian[english])) == sorted(FIELDS.findall(english)), \
            (english, italian[english])


def _cited() -> set[str]:
    """Rule numbers the rules and the referee cite: quoted ("7.3.1") or in a message ("(8.8)")."""
    sources = [*(PACKAGE / "rules").glob("*.py"), PACKAGE / "referee.py"]
    found: set[str] = set()
    for source in sources:
        text = source.read_text("utf-8")
        found |= set(re.findall(r"\"([1-9](?:\.\d+){0,2})\"", text))
        found |= set(re.findall(r"\(([1-9]\.\d+(?:\.\d+)?)\)", text))
    return found


def test_every_rule_cited_has_its_own_summary_in_both_languages():
    cited, summaries = _cited(), _summaries()
    assert {"7.3.1", "8.9.6", "9.3", "8.10", "6.3"} <= cited  # the scan finds them
    the_rules = rules()
    for rule in sorted(cited):
        assert rule in summaries, f"rule {rule} is cited but has no summary"
        english, italian = the_rules.rule_summary(rule), the_rules.rule_summary(rule, "it")
        assert english == summaries[rule] and italian and italian != english


def test_a_summary_falls_back_to_the_rule_it_belongs_to():
    the_rules = rules()
    summaries = _summaries()
    assert the_rules.rule_summary("8.10") == summaries["8.10"] != summaries["8.1"]
    assert the_rules.rule_summary("7.3.3.2") == summaries["7.3.3"]
    assert the_rules.rule_summary("8.11") == summaries["8"]
    assert the_rules.rule_summary("12.1") == ""


# --- refusals and alerts from the camera ----------------------------------------------------


def moved(**moves: tuple[str, str]) -> TableDiff:
    return TableDiff({REGISTRY.tags[b]: (frm, to) for b, (frm, to) in moves.items()}, {}, {})


def _only_alert(rulings: list[Any]) -> Alert:
    assert len(rulings) == 1 and isinstance(rulings[0], Alert), rulings
    return rulings[0]


def test_a_move_too_far_is_refused_naming_the_block_and_both_places():
    game = placed(set_up(), {A: "kiso"}, active=ISH, level="total", clear=True)
    with pytest.raises(IllegalAction) as info:
        game.rules.decide(game.state, Action(ISH, "move", {"from": "kiso",
                                                           "paths": {A: ["matsumoto", "arato"]}}))
    assert info.value.rule == "7.3.3"
    assert "Ukita 2 may move 1 location(s) from Kiso, not 2 to Arato" in info.value.message
    assert A not in info.value.message


def test_a_camera_move_too_far_alerts_its_side_with_the_block_the_places_and_a_fix():
    game = placed(set_up(), {A: "kiso"}, active=ISH, level="total", clear=True)
    alert = _only_alert(SekigaharaReferee(game.rules, REGISTRY).on_diff(
        game.state, moved(**{A: ("kiso", "arato")})))
    assert alert.rule == "7.3.3" and alert.role == ISH
    assert alert.message.startswith("Ukita 2 moved Kiso → Arato: ")
    assert alert.fix == "Put Ukita 2 back at Kiso"
    assert alert.public_fix == "Put the Ishida block back at Kiso"
    shown = alert.for_role(TOK)  # the other side reads the fix, never the block
    assert "Ukita" not in str(shown) and shown["fix"] == "Put the Ishida block back at Kiso"
    assert alert.for_role(ISH)["fix"] == "Put Ukita 2 back at Kiso"


def test_a_camera_move_with_no_road_left_names_the_places_and_the_fix():
    game = placed(set_up(), {A: "osaka", "I-ukita-2-2": "osaka"}, active=ISH, level="total",
                  clear=True)
    alert = _only_alert(SekigaharaReferee(game.rules, REGISTRY).on_diff(
        game.state, moved(**{A: ("osaka", "sendai"), "I-ukita-2-2": ("osaka", "sendai")})))
    assert alert.rule == "7.3.1" and alert.role == ISH
    twice = "Ukita 2 \N{MULTIPLICATION SIGN}2"  # the same face twice
    assert "from Osaka to Sendai" in alert.message and twice in alert.message
    assert alert.fix == f"Put {twice} back at Osaka"
    assert alert.public_fix == "Put the 2 Ishida blocks back at Osaka"


def test_blocks_brought_back_from_the_eliminated_are_an_alert_to_their_side():
    game = placed(set_up(), {A: "eliminated"}, active=ISH, level="total", clear=True)
    alert = _only_alert(SekigaharaReferee(game.rules, REGISTRY).on_diff(
        game.state, moved(**{A: ("eliminated", "osaka")})))
    assert alert.rule == "7.3" and alert.role == ISH and "eliminated" in alert.message
    assert alert.fix == "Put Ukita 2 back among the eliminated blocks"
    assert "Ukita" not in alert.public_fix


def test_a_wrong_draw_alerts_the_drawing_side_not_chance():
    game = Game(rules(), seed=1)
    pending = game.state.pending[0]  # the first set-up draw (5.2.2)
    bag = [b.id for b in KIT.blocks if b.side == pending.side and b.setup is None]
    extra = bag[:pending.count + 1]
    diff = TableDiff({}, {REGISTRY.tags[b]: str(pending.to) for b in extra}, {})
    alert = _only_alert(SekigaharaReferee(game.rules, REGISTRY).on_diff(game.state, diff))
    assert alert.rule == "5.2.2" and alert.role == pending.side
    where = KIT.location[str(pending.to)].name
    assert f"draws {pending.count} block(s) for {where}, not {len(extra)}" in alert.message
    assert alert.fix.startswith("Put ") and alert.fix.endswith(
        f"back in the {pending.side.capitalize()} bag")
    assert not RAW_IDS.search(alert.message + alert.fix + alert.public_fix)
    assert alert.public_fix == (f"Put the {len(extra)} {pending.side.capitalize()} blocks back "
                                f"in the {pending.side.capitalize()} bag")


def test_a_block_laid_out_without_its_card_is_an_alert_naming_it_and_the_battle():
    """8.2.2: a block needs a card of its mon; the fix puts it back in the battle's stack."""
    from test_sekigahara_combat import example_battle  # the rulebook's example at Kiso

    game = example_battle()
    ref = SekigaharaReferee(game.rules, REGISTRY)
    ref.on_card(game.state, "CARD:I-mori-special-1")
    game.apply(_proposal(ref.on_diff(game.state, moved(**{"I-mori-cav-1": ("kiso",
                                                                         "deployment")}))))
    alert = _only_alert(ref.on_diff(game.state, moved(**{"T-maeda-cav-1": ("kiso",
                                                                          "deployment")})))
    assert alert.rule == "8.2.2" and alert.role == TOK
    assert alert.message == ("Maeda cavalry moved Kiso → the deployment area: Maeda cavalry "
                             "needs a card of the Maeda mon")
    assert alert.fix == "Put Maeda cavalry back at Kiso"
    assert alert.public_fix == "Put the Tokugawa block back at Kiso"


def _proposal(rulings: list[Any]) -> Action:
    (ruling,) = rulings
    assert not isinstance(ruling, Alert), ruling
    return ruling.action


def test_every_player_verb_is_worded_and_an_unknown_one_is_the_hosts_to_word(monkeypatch):
    """Issue 30: a verb from no phase (an old record's, say) raises in the game's words rather
    than being guessed at; the host's replay words it by the engine's generic words, which
    name no hidden block."""
    from companion.games.sekigahara.rules import PHASES
    from companion.games.sekigahara.rules.words import PLAYER_VERBS
    from companion.web.replays import say_safely

    phases = ("reinforcements", "bid", "first_player", "movement", "combat")
    assert {verb for phase in phases for verb in PHASES.verbs(phase)} == PLAYER_VERBS
    odd = Action(ISH, "group", {"x": "I-ukita-2-1"})
    with pytest.raises(ValueError, match="no words for the verb 'group'"):
        rules().say(set_up().state, odd, TOK)
    monkeypatch.delenv("COMPANION_STRICT")  # at the table, not in the suite: the host's words
    said = say_safely(rules(), set_up().state, odd, TOK, "en")
    assert said and "ukita" not in said.lower()
