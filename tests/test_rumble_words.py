"""Rumble Nation in a player's words (issue 17): every action said to every viewer in English
and Italian without raw ids or a template's braces, the daimyo cards named only to whom may
see them (rule 8: chosen face down; 8.3: turned face up when used), a one-line summary for
every rule cited, what the tablet marks on the board, and the table referee's alerts naming
the region with what to do about it (rules: shared/seeds/rumble-nation-rules-it.txt)."""

from __future__ import annotations

import ast
import random
import re
import string
from dataclasses import replace
from pathlib import Path

import pytest

from companion.engine import (
    CHANCE,
    PUBLIC,
    REFEREE,
    Action,
    Alert,
    Game,
    IllegalAction,
    random_playout,
)
from companion.engine.core import Outcome
from companion.games.rumble_nation import rules as rules_package
from companion.games.rumble_nation.referee import RumbleReferee, board_of
from companion.games.rumble_nation.rules import RumbleNationRules, words
from companion.games.rumble_nation.rules.state import frozen
from companion.i18n import catalog
from companion.kits import load_kit
from companion.table import TableRegistry
from companion.vision.count_tracker import CountDiff, CountSnapshot

KIT = load_kit("rumble_nation")
REGIONS = sorted(KIT.neighbours)
CASTLES = dict(zip(REGIONS, range(2, 13), strict=True))
"""kasugayama 2, kiyosu 3, kyo 4, odawara 5, oko 6, shuri 7, tokuyama 8, tsutsujigasaki 9,
usuki 10, yonezawa 11, yoshida 12."""
RED, BLUE, YELLOW = "red", "blue", "yellow"
GAME_DIR = Path(rules_package.__file__).parent.parent
CARD_IDS = (*KIT.components.tactic_cards, *KIT.components.daimyo_cards)
RAW = re.compile(r"\b(" + "|".join(sorted({*REGIONS, *CARD_IDS}, key=len, reverse=True))
                 + r")\b")
"""An id as the code spells it (lower case, underscores): never in words a player reads (every
printed region name and card title begins with a capital)."""
SWEEP = ({"players": 3, "daimyo": True}, {"players": 4, "daimyo": True},
         {"players": 2, "daimyo": False})


def play(options: dict[str, object], seed: int, steps: int = 400):
    """A simulated game (fixed seed): each state with the action taken there."""
    game = Game(RumbleNationRules(KIT, options), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.outcome is not None:
            return
        role = game.to_move()[0]
        action = game.rules.sample_chance(game.state, rng) if role == CHANCE \
            else game.rules.random_action(game.state, role, rng)
        yield game.state, action
        game.apply(action)


def hidden_from(state, action: Action, viewer: str) -> set[str]:
    """The daimyo cards `viewer` may not see named: those of others not yet turned up (8,
    8.3), and the card another player takes face down."""
    hidden = {words.card_name(c) for p, c in state.daimyo_cards.items()
              if p != viewer and p not in state.daimyo_used}
    if action.verb == "choose_daimyo" and action.role != viewer:
        hidden.add(words.card_name(action.args["card"]))
    return set() if viewer == REFEREE else hidden


# --- every action, every viewer, both languages ------------------------------------------------

def test_every_legal_action_is_said_to_every_viewer_without_ids_braces_or_hidden_cards():
    said = hidden_checked = 0
    named_to_holder = named_to_referee = 0
    cards: set[str] = set()
    for options, seed in [(o, s) for o in SWEEP for s in range(1, 7)]:
        rules = RumbleNationRules(KIT, options)
        for state, taken in play(options, seed):
            viewers = (*rules.roles, PUBLIC, REFEREE)
            actions = [taken] if taken.role == CHANCE else \
                list(rules.legal_actions(state, taken.role))
            for action in actions:
                for viewer in viewers:
                    for lang in ("en", "it"):
                        text = rules.say(state, action, viewer, lang)
                        said += 1
                        assert text.strip(), (action, viewer)
                        assert not set("{}") & set(text), (text, action)
                        assert action.text() not in text and "_" not in text, text
                        assert not RAW.search(text), (text, action)
                        for card in hidden_from(state, action, viewer):
                            hidden_checked += 1
                            assert card not in text, (viewer, text)
                cards.add(str(action.args.get("card", state.daimyo_cards.get(action.role))))
                if action.verb in ("daimyo", "choose_daimyo"):
                    mine = state.daimyo_cards.get(action.role) if action.verb == "daimyo" \
                        else action.args["card"]
                    name = words.card_name(mine)
                    named_to_holder += name in rules.say(state, action, action.role)
                    named_to_referee += name in rules.say(state, action, REFEREE, "it")
    assert said > 20000 and hidden_checked > 5000  # the sweep really covered hidden cards
    assert set(KIT.components.daimyo_cards) <= cards  # Diversivo is rare: said below
    assert len(set(KIT.components.tactic_cards) & cards) >= 11
    assert named_to_holder and named_to_holder == named_to_referee  # not just never named


def test_a_daimyo_play_is_named_to_its_holder_and_the_referee_only():
    game = with_daimyo("oda_nobunaga", {"kyo": {RED: 2}}, "kyo")
    action = Action(RED, "daimyo", {"to": "kiyosu", "soldiers": 1})
    assert game.rules.accepts(game.state, action)
    assert game.rules.say(game.state, action, RED) == \
        "Oda Nobunaga: the daimyo and 1 soldier Kyo → Kiyosu"
    assert game.rules.say(game.state, action, REFEREE, "it") == \
        "Oda Nobunaga: il daimyo e 1 soldato Kyo → Kiyosu"
    for viewer in (BLUE, YELLOW, PUBLIC):
        assert game.rules.say(game.state, action, viewer) == "Use the daimyo card"
        assert game.rules.say(game.state, action, viewer, "it") == "Usa la carta daimyo"
    used = replace(game.state, daimyo_used=frozenset({RED}))  # turned face up: public (8.3)
    assert "Oda Nobunaga" in game.rules.say(used, action, PUBLIC)


def test_a_recorded_daimyo_play_is_named_to_everyone_in_the_log():
    """Played, the card is face up (8.3): the game log and the replay say the play by its
    card to every viewer, though it was said in the position before, when it was hidden."""
    game = with_daimyo("oda_nobunaga", {"kyo": {RED: 2}}, "kyo")
    action = Action(RED, "daimyo", {"to": "kiyosu", "soldiers": 1})
    for viewer in (BLUE, PUBLIC):
        assert game.rules.say_recorded(game.state, action, viewer) == \
            "Red plays Oda Nobunaga: the daimyo and 1 soldier Kyo → Kiyosu"
        assert game.rules.say_recorded(game.state, action, viewer, "it").startswith(
            "Rosso gioca Oda Nobunaga: il daimyo")
    choose = Action(RED, "choose_daimyo", {"card": "oda_nobunaga"})  # taking one stays hidden
    assert game.rules.say_recorded(game.state, choose, BLUE) == \
        "Red takes a daimyo card, face down"
    assert game.rules.say_recorded(game.state, choose, RED) == "Red takes Oda Nobunaga"


def test_every_line_of_the_log_names_who_acted(tmp_path):
    """Four players read one log: each player's line names its colour, in both languages
    ("Red rolls the three dice", "Blue deploys 3 soldiers to Kyo"), to every viewer; the
    buttons keep the imperative ("Roll the three dice")."""
    from web_helpers import played_hub

    hub = played_hub(tmp_path, "rumble_nation")
    entries = hub.session.entries
    players = [e for e in entries if e.action.role in hub.roles]
    assert players
    names = {"en": {"red": "Red", "blue": "Blue", "yellow": "Yellow", "black": "Black"},
             "it": {"red": "Rosso", "blue": "Blu", "yellow": "Giallo", "black": "Nero"}}
    for lang, named in names.items():
        for viewer in (PUBLIC, REFEREE, BLUE):
            log = {line["seq"]: line["words"] for line in hub.view(viewer, lang)["log"]}
            for entry in players:
                if entry.seq in log:
                    assert log[entry.seq].startswith(named[entry.action.role] + " "), \
                        log[entry.seq]
    rolls = [e for e in players if e.action.verb == "roll"]
    assert rolls and hub.log.words(rolls[0].seq, PUBLIC, "en") == \
        f"{names['en'][rolls[0].action.role]} rolls the three dice"


def test_each_kind_of_action_reads_in_italian_as_the_rulebook_says_it():
    game = with_daimyo("mori_motonari", {"kyo": {RED: 2, BLUE: 2}, "kiyosu": {RED: 1}}, "kyo",
                       tactics=("diversivo", "ritirata", "ribellione", "ingresso_a_kyo"))
    state = game.state
    said = {
        Action(RED, "roll"): ("Roll the three dice", "Tira i 3 dadi"),
        Action(RED, "tactic", {"card": "diversivo", "from": "kyo", "to": "kiyosu",
                               "opponents": [BLUE, BLUE]}):
            ("Diversion: 1 red soldier and 2 blue soldiers Kyo → Kiyosu",
             "Diversivo: 1 soldato rosso e 2 soldati blu Kyo → Kiyosu"),
        Action(RED, "tactic", {"card": "ritirata", "regions": ["kiyosu", "kyo"]}):
            ("Retreat: 2 soldiers back to the reserve (1 from Kiyosu, 1 from Kyo)",
             "Ritirata: 2 soldati tornano nella riserva (1 da Kiyosu, 1 da Kyo)"),
        Action(RED, "tactic", {"card": "ribellione", "region": "kyo", "opponent": BLUE}):
            ("Rebellion: Kyo: 1 blue soldier back to the reserve, 1 red soldier in its place",
             "Ribellione: Kyo: 1 soldato blu torna nella riserva, 1 soldato rosso al suo "
             "posto"),
        Action(RED, "tactic", {"card": "ingresso_a_kyo", "moves": {"kiyosu": 1}}):
            ("Entering Kyo: 1 soldier → Kyo (1 from Kiyosu)",
             "Ingresso a Kyo: 1 soldato → Kyo (1 da Kiyosu)"),
        Action(RED, "daimyo", {"moves": [{"to": "kiyosu", "soldiers": 1},
                                         {"to": "oko", "soldiers": 1}]}):
            ("Mōri Motonari: 1 soldier from the reserve in each of Kiyosu and Okō",
             "Mōri Motonari: 1 soldato dalla riserva in ciascuna di queste regioni: Kiyosu e "
             "Okō"),
    }
    for action, (english, italian) in said.items():
        assert game.rules.accepts(state, action), action
        assert game.rules.say(state, action, RED, "en") == english
        assert game.rules.say(state, action, RED, "it") == italian
    rolled = replace(state, dice=(3, 4, 5))
    deploy = Action(RED, "deploy", {"pair": [0, 2]})  # 3+5 = 8 Tokuyama, the 4: 2 soldiers
    assert game.rules.say(rolled, deploy, BLUE) == "Deploy 2 soldiers to Tokuyama (3+5 and 4)"
    assert game.rules.say(rolled, deploy, BLUE, "it") == "Schiera 2 soldati a Tokuyama (3+5 e 4)"
    dice = Action(CHANCE, "dice", {"values": [5, 3, 4]})
    assert game.rules.say(replace(state, rolling=True), dice, PUBLIC, "it") == \
        "Rosso ottiene 3, 4 e 5"
    choose = Action(BLUE, "choose_daimyo", {"card": "takeda_shingen"})
    assert game.rules.say(state, choose, BLUE, "it") == "Prendi Takeda Shingen"
    assert game.rules.say(state, choose, RED, "it") == "Prendi una carta daimyo, a faccia in giù"


def test_an_action_the_words_cannot_say_raises_rather_than_turning_into_its_verb():
    """Issue 30: the words read an action as the rules do, so what the rules refuse cannot be
    said either, and a verb of no phase is a bug; neither turns into plain text (the host
    decides what a screen shows instead). The referee's own actions are still said."""
    rules = RumbleNationRules(KIT, {"players": 3})
    state = set_up().state
    for action in (Action(RED, "tactic", {"card": "ninja", "from": "atlantis", "to": "kyo"}),
                   Action(RED, "tactic", {"card": "esilio", "from": "kyo", "to": "oko"}),
                   Action(RED, "deploy", {"pair": [0, 7]})):
        with pytest.raises(IllegalAction):
            rules.say(state, action, PUBLIC)
    with pytest.raises(KeyError):
        rules.say(state, Action(RED, "tactic", {"card": "katana"}), PUBLIC)
    with pytest.raises(ValueError, match="no words for the verb 'fly'"):
        rules.say(state, Action(RED, "fly", {"to": "kyo"}), PUBLIC)
    assert rules.say(state, Action(REFEREE, "undo", {"seq": 4}), PUBLIC, "it") == \
        "Annulla l'azione 4"
    assert rules.say(state, Action(REFEREE, "correct", {"x": 1}), PUBLIC) == \
        "Referee's correction"


# --- the catalog and the rule summaries --------------------------------------------------------

def templates() -> list[str]:
    """Every literal passed to `t(...)` in words.py (each must be in the Italian catalog)."""
    tree = ast.parse((GAME_DIR / "rules" / "words.py").read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "t":
            (arg,) = node.args
            assert isinstance(arg, ast.Constant) and isinstance(arg.value, str), \
                f"t() takes a literal (line {node.lineno}), or the catalog cannot be checked"
            found.append(arg.value)
    return found


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_every_template_and_summary_has_an_italian_translation_with_the_same_fields():
    italian = catalog("companion.games.rumble_nation", "it")
    wanted = [*templates(), *words.summaries().values()]
    assert len(templates()) > 40
    missing = [m for m in wanted if not italian.get(m, "").strip()]
    assert not missing, f"no Italian for: {missing}"
    for message in wanted:
        assert fields(italian[message]) == fields(message), message
    untranslated = [m for m in words.summaries().values() if italian[m] == m]
    assert not untranslated


def cited_rules() -> set[str]:
    """Every rule number the rules and the table referee cite, read from their source."""
    cited: set[str] = set()
    pattern = re.compile(r"""(?:rule=|RULE = |IllegalAction\(|Alert\(|_rule=)\s*"([0-9.]+)\"""")
    for path in [*(GAME_DIR / "rules").glob("*.py"), GAME_DIR / "referee.py"]:
        cited |= set(pattern.findall(path.read_text(encoding="utf-8")))
    from companion.games.rumble_nation.rules import PHASE_RULES
    cited |= set(PHASE_RULES.values())
    return cited


def test_every_cited_rule_has_its_own_summary_in_both_languages():
    cited = cited_rules()
    assert {"3", "5.1", "5.1.1", "5.1.2", "5.2.3", "6", "8", "8.3"} <= cited
    rules = RumbleNationRules(KIT, {"players": 3, "daimyo": True})
    for options, seed in zip(SWEEP, (21, 22, 23), strict=True):  # and what events cite
        game = Game(RumbleNationRules(KIT, options), seed=seed)
        random_playout(game)
        cited |= {str(e.data["rule"]) for ply in game.history for e in ply.events
                  if "rule" in e.data}
    for rule in cited:
        assert rule in words.summaries(), f"rule {rule} is cited but has no summary"
        english, italian = rules.rule_summary(rule), rules.rule_summary(rule, "it")
        assert english and italian and english != italian and "{" not in english


def test_a_sub_rule_without_its_own_line_falls_back_to_its_section():
    rules = RumbleNationRules(KIT, {"players": 3})
    assert rules.rule_summary("5.1.2.4") == rules.rule_summary("5.1.2")
    assert rules.rule_summary("8.1") == rules.rule_summary("8") != rules.rule_summary("8.3")
    assert rules.rule_summary("99") == "" and rules.rule_summary("") == ""
    assert "vetrina" in rules.rule_summary("5.1.2", "it")


# --- marks on the board ------------------------------------------------------------------------

def test_marks_draw_a_move_as_an_arrow_and_a_deployment_as_its_region():
    game = with_daimyo("oda_nobunaga", {"kyo": {RED: 2, BLUE: 1}, "kiyosu": {RED: 1}}, "kyo",
                       tactics=("esplorazione", "supporto", "diversivo", "ritirata"))
    rules, state = game.rules, game.state
    assert rules.marks(state, Action(RED, "tactic", {
        "card": "esplorazione", "from": "kyo", "to": "yoshida"})) == {
        "arrows": [["kyo", "yoshida"]], "places": []}
    assert rules.marks(state, Action(RED, "tactic", {"card": "supporto", "to": "kiyosu"})) \
        == {"arrows": [], "places": ["kiyosu"]}
    assert rules.marks(state, Action(RED, "tactic", {
        "card": "diversivo", "from": "kyo", "to": "oko", "opponents": [BLUE, YELLOW]})) == \
        {"arrows": [], "places": []}  # refused (no yellow soldier in Kyo): nothing to draw
    assert rules.marks(state, Action(RED, "daimyo", {"to": "kiyosu", "soldiers": 0})) == {
        "arrows": [["kyo", "kiyosu"]], "places": []}  # the daimyo alone (8.3)
    rolled = replace(state, dice=(3, 4, 5))
    assert rules.marks(rolled, Action(RED, "deploy", {"pair": [0, 2]})) == {
        "arrows": [], "places": ["tokuyama"]}
    assert rules.marks(state, Action(RED, "roll")) == {"arrows": [], "places": []}
    assert rules.marks(state, Action(CHANCE, "dice", {"values": [1, 2, 3]})) == \
        {"arrows": [], "places": []}


# --- the table referee's alerts ----------------------------------------------------------------

def test_soldiers_where_the_dice_send_none_name_the_region_and_how_to_put_it_right():
    played = rolled(set_up(), RED, 3, 4, 5)  # 7 Shuri, 8 Tokuyama, 9 Tsutsujigasaki
    (alert,) = referee().on_diff(played.state, change(played, (3, 4, 5), kyo={RED: 2}))
    assert isinstance(alert, Alert) and alert.rule == "5.1.1" and alert.role == RED
    assert "Kyo" in alert.message and "kyo" not in alert.message
    assert alert.fix.startswith("take the 2 red soldiers back out of Kyo")
    assert "Shuri (7) or Tokuyama (8) or Tsutsujigasaki (9)" in alert.fix
    assert alert.public_fix == alert.fix  # soldiers are public: everyone may read it
    assert alert.for_role(BLUE)["fix"] == alert.fix
    assert played.rules.rule_summary(alert.rule, "it").startswith("Tira i tuoi 3 dadi")


def test_a_deployment_of_the_wrong_size_says_how_many_to_take_out_or_add():
    played = rolled(set_up(), RED, 3, 4, 5)  # Tokuyama: 3+5, the 4 deploys 2
    (alert,) = referee().on_diff(played.state, change(played, (3, 4, 5), tokuyama={RED: 3}))
    assert alert.fix.startswith("take 1 red soldier back out of Tokuyama") and "takes 2" in \
        alert.fix
    (alert,) = referee().on_diff(played.state, change(played, (3, 4, 5), shuri={RED: 1}))
    assert alert.fix.startswith("put 2 more red soldiers in Shuri")  # 3+4, the 5: 3


def test_another_colours_soldiers_moved_is_that_sides_alert():
    played = rolled(set_up(), RED, 3, 4, 5)
    (alert,) = referee().on_diff(played.state, change(played, (3, 4, 5), tokuyama={BLUE: 2}))
    assert alert.rule == "5.1" and alert.role == BLUE
    assert alert.fix == "take the 2 blue soldiers back out of Tokuyama; it is Red's turn to " \
                        "deploy" == alert.public_fix


def test_soldiers_before_the_roll_and_after_the_war_are_told_to_go_back():
    played = set_up()
    (alert,) = referee().on_diff(played.state, change(played, (2, 3, 5), usuki={RED: 1}))
    assert alert.rule == "5.1.1" and alert.role == RED
    assert alert.fix.startswith("take the 1 red soldier back out of Usuki, then roll")
    over = replace(played.state, phase="over", soldiers=frozen({"oko": frozen({BLUE: 2})}))
    over = replace(over, outcome=Outcome("castles", BLUE, "6"))
    (alert,) = referee().on_diff(over, change_of(over, oko={BLUE: -1}))
    assert alert.rule == "5.2" and alert.role == BLUE and "Okō" in alert.message
    assert alert.fix == "put the 1 blue soldier back in Okō" == alert.public_fix


def test_dice_taken_out_for_a_second_reroll_are_told_to_go_back_with_their_faces():
    played = rolled(set_up(), RED, 1, 2, 3)
    played.apply(Action(RED, "reroll"))
    played.apply(Action(CHANCE, "dice", {"values": [6, 2, 2]}))
    emptied = CountDiff(CountSnapshot({}, (2, 2, 6)), CountSnapshot({}, ()))  # tray emptied
    (alert,) = referee().on_diff(played.state, emptied)
    assert alert.rule == "5.1.1" and alert.role == RED  # all three dice, once per turn
    assert alert.fix == "put the dice back in the tray showing 2, 2, 6, and deploy with them"
    assert alert.for_role(PUBLIC)["fix"] == alert.fix


def test_a_scanned_daimyo_card_of_another_player_is_named_only_to_its_holder():
    game = with_daimyo("oda_nobunaga", {"kyo": {RED: 2}}, "kyo")
    ref = RumbleReferee(game.rules, TableRegistry({}, {}), None, True)
    held_by_blue = game.state.daimyo_cards[BLUE]
    (alert,) = ref.on_card(game.state, f"CARD:{held_by_blue}")
    name = words.card_name(held_by_blue)
    assert alert.rule == "8.3" and alert.role == BLUE
    assert name in alert.message and name in alert.fix
    for viewer in (RED, YELLOW, PUBLIC):
        seen = alert.for_role(viewer)
        assert name not in str(seen) and seen["fix"] == "put the scanned card back: red is " \
                                                        "playing"


# --- helpers -----------------------------------------------------------------------------------

def set_up(players: int = 3, daimyo: bool = False, offer: list[str] | None = None,
           tactics: tuple[str, ...] = ("esplorazione", "squadra_di_riserva", "supporto",
                                       "diversivo")) -> Game:
    game = Game(RumbleNationRules(KIT, {"players": players, "daimyo": daimyo}))
    offer = offer or list(KIT.components.daimyo_cards)[: players + 1]
    game.apply(Action(CHANCE, "setup", {"castles": CASTLES, "tactics": list(tactics),
                                        "daimyo": offer if daimyo else [], "first": 0}))
    return game


def with_daimyo(card: str, soldiers: dict[str, dict[str, int]], home: str,
                tactics: tuple[str, ...] = ("esplorazione", "squadra_di_riserva", "supporto",
                                            "diversivo")) -> Game:
    """Red holds `card` with his daimyo at `home`; blue and yellow hold two others; the
    soldiers as given (reserves adjusted)."""
    others = [c for c in KIT.components.daimyo_cards if c != card][:3]
    game = set_up(daimyo=True, offer=[card, *others], tactics=tactics)
    state = game.state
    reserve = dict(state.reserve)
    for players in soldiers.values():
        for player, n in players.items():
            reserve[player] -= n
    built = Game(game.rules)
    built._state = replace(
        state, phase="deployment", turn=0,
        daimyo_cards=frozen({RED: card, BLUE: others[0], YELLOW: others[1]}),
        daimyo_display=(others[2],),
        soldiers=frozen({r: frozen(p) for r, p in soldiers.items()}),
        reserve=frozen(reserve), daimyo_at=frozen({RED: home}),
        daimyo_in_reserve=frozenset({BLUE, YELLOW}))
    return built


def rolled(game: Game, player: str, *faces: int) -> Game:
    game.apply(Action(player, "roll"))
    game.apply(Action(CHANCE, "dice", {"values": list(faces)}))
    return game


def referee() -> RumbleReferee:
    return RumbleReferee(RumbleNationRules(KIT, {"players": 3}), TableRegistry({}, {}), None,
                         True)


def change(game: Game, dice: tuple[int, ...], **extra: dict[str, int]) -> CountDiff:
    """The record's board, then the same with `extra` pieces (region -> colour -> more)."""
    return change_of(game.state, dice, **extra)


def change_of(state, dice: tuple[int, ...] = (2, 3, 5), **extra: dict[str, int]) -> CountDiff:
    before = board_of(state, True)
    after = {r: dict(k) for r, k in before.items()}
    for region, kinds in extra.items():
        here = after.setdefault(region, {})
        for kind, n in kinds.items():
            here[kind] = here.get(kind, 0) + n
    return CountDiff(CountSnapshot(before, dice), CountSnapshot(after, dice))


@pytest.fixture(autouse=True)
def _fresh_catalog():
    """The Italian catalog is read from the tree as it is now (a cached one from another
    test's tree would hide a missing entry)."""
    catalog.cache_clear()
    yield
