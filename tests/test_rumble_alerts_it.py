"""Rumble Nation's refusals and table alerts said in Italian (issue 17): the rules' messages and
the table referee's alerts, fixes and questions are `Sentence`s, which the hub says again in each
screen's language from `locales/it/alerts.po`, in the terms of the Italian rulebook
(shared/seeds/rumble-nation-rules-it.txt); the English stays as it was, and a daimyo card still
face down (8) is named in no other player's screen, in either language."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path
from typing import cast

import pytest

from companion.engine import (
    CHANCE,
    PUBLIC,
    REFEREE,
    Action,
    Alert,
    IllegalAction,
    Question,
    Ruling,
    Sentence,
    say,
)
from companion.games.rumble_nation.kit import RumbleNationKit
from companion.games.rumble_nation.referee import RumbleReferee, board_of
from companion.games.rumble_nation.rules import RumbleNationRules
from companion.games.rumble_nation.rules.words import PACKAGE, card_name
from companion.i18n import catalog, translator
from companion.kits import load_kit
from companion.record.session import Session
from companion.record.store import Store
from companion.table import TableRegistry
from companion.vision.count_tracker import CountDiff, CountSnapshot
from companion.web.hub import Hub

KIT = cast(RumbleNationKit, load_kit("rumble_nation"))
REGIONS = sorted(KIT.neighbours)
CASTLES = dict(zip(REGIONS, range(2, 13), strict=True))
"""kasugayama 2, kiyosu 3, kyo 4, odawara 5, oko 6, shuri 7, tokuyama 8, tsutsujigasaki 9,
usuki 10, yonezawa 11, yoshida 12."""
RED, BLUE, YELLOW = "red", "blue", "yellow"
DISPLAY = ["esplorazione", "squadra_di_riserva", "supporto", "diversivo"]
OFFER = ["oda_nobunaga", "uesugi_kenshin", "mori_motonari", "takeda_shingen"]
CHOICE = {RED: "oda_nobunaga", BLUE: "uesugi_kenshin", YELLOW: "mori_motonari"}
ENGLISH = re.compile(r"\b(the|and|or|then|soldiers?|take|put|back|out|dice|castle|naming|roll|"
                     r"deploy|card|region|turn|first|play|moved|tray|in full)\b")
"""Words of the English templates: none may be left in an Italian alert (the names said in it
are Italian-free: regions, card titles)."""
PACKAGES = (PACKAGE, "companion.engine", "companion.web")
CATALOG = catalog(PACKAGE, "it")
SAY_IT = translator("it", *PACKAGES)


def known(text: str) -> bool:
    """Whether an Italian catalog the hub reads has `text` (its Italian may be the same)."""
    return any(text in catalog(package, "it") for package in PACKAGES)


def hub_for(tmp_path: Path, daimyo: bool = False) -> Hub:
    """Three players, the castles in alphabetical order of the regions (2-12), red first."""
    session = Session.start(Store(tmp_path / "games.sqlite"), "rumble_nation", seed=1,
                            options={"players": 3, "daimyo": daimyo},
                            players={RED: "Ana", BLUE: "Ben", YELLOW: "Chiara"})
    session.play(Action(CHANCE, "setup", {"castles": CASTLES, "tactics": DISPLAY,
                                          "daimyo": OFFER if daimyo else [], "first": 0}),
                 "referee")
    while session.game.state.phase == "daimyo":
        chooser = session.game.to_move()[0]
        session.play(Action(chooser, "choose_daimyo", {"card": CHOICE[chooser]}), "phone")
    return Hub(session)


def play(hub: Hub, role: str, verb: str, **args: object) -> None:
    hub.session.play(Action(role, verb, args), "phone")


def roll(hub: Hub, role: str, *faces: int) -> None:
    play(hub, role, "roll")
    hub.session.play(Action(CHANCE, "dice", {"values": list(faces)}), "camera")


def referee(hub: Hub) -> RumbleReferee:
    rules = cast(RumbleNationRules, hub.session.game.rules)
    return RumbleReferee(rules, TableRegistry({}, {}), None, daimyo_seen=True)


def seen(hub: Hub, dice: tuple[int, ...], **extra: dict[str, int]) -> CountDiff:
    """The camera's change: the record's table, then `extra` pieces more (or fewer)."""
    state = hub.session.game.state
    before = board_of(state, True)
    after = {region: dict(kinds) for region, kinds in before.items()}
    for region, kinds in extra.items():
        for kind, n in kinds.items():
            after.setdefault(region, {})[kind] = after.get(region, {}).get(kind, 0) + n
    return CountDiff(CountSnapshot(before, dice), CountSnapshot(after, dice))


def untranslated(text: str) -> list[str]:
    """The templates in `text` (and in the sentences it is made of) the Italian catalogs lack;
    a template that only joins its values ("{item0}, {item1}") needs none."""
    if not isinstance(text, Sentence):
        return [] if not text or known(text) else [text]
    missing = [t for value in text.values.values() if isinstance(value, Sentence)
               for t in untranslated(value)]  # plain values are names: said as they are
    names = {f for _, f, _, _ in string.Formatter().parse(text.template) if f}
    joins_only = not re.sub(r"\{\w+\}", "", text.template).strip(", ;")
    if not known(text.template) and not (names and joins_only):
        missing.append(text.template)
    return missing


def assert_italian(said: str, english: str) -> None:
    assert said != english
    assert not ENGLISH.findall(said), said
    assert "{" not in said and "}" not in said, said


# --- a refusal of the rules, through the hub ----------------------------------------------------

def test_a_refused_card_is_said_in_italian_with_its_regions_and_unchanged_in_english(
        tmp_path: Path) -> None:
    hub = hub_for(tmp_path)
    roll(hub, RED, 3, 4, 5)
    play(hub, RED, "deploy", pair=[0, 2])  # 3+5: Tokuyama, 4: 2 soldiers
    for role, faces in ((BLUE, (1, 1, 2)), (YELLOW, (6, 6, 6))):
        roll(hub, role, *faces)
        play(hub, role, "deploy", pair=[0, 1])
    tactic = Action(RED, "tactic", {"card": "esplorazione", "from": "tokuyama", "to": "kyo"})
    with pytest.raises(IllegalAction) as refused:
        hub.act(RED, tactic, "phone")
    assert refused.value.message == "Tokuyama and Kyo are not adjacent"  # the English as ever
    assert refused.value.rule == "5.1.2"

    english, italian = hub.view(RED)["alert"], hub.view(RED, "it")["alert"]
    assert english["message"] == "Tokuyama and Kyo are not adjacent"
    assert italian["message"] == "Tokuyama e Kyo non sono adiacenti"
    assert italian["fix"] == "Scegli una delle azioni consentite"
    assert english["legal"] and all("→" in words for words in english["legal"])
    assert italian["legal"] == [words.replace("soldier", "soldato").replace("Scouting",
                                                                             "Esplorazione")
                                for words in english["legal"]]  # Esplorazione: 1 soldato ...
    assert all(words.startswith("Scouting: ") for words in english["legal"])  # in English
    assert italian["summary"].startswith("Una volta per partita, invece di tirare")
    theirs = hub.view(BLUE, "it")["alert"]
    assert theirs["message"] == "Rosso: questa mossa non è consentita"
    assert theirs["fix"] == "Rosso sceglie un'altra mossa"  # every alert says what to do


# --- the table referee's alerts, through the hub ----------------------------------------------

def test_soldiers_the_dice_do_not_send_there_are_an_italian_alert_naming_the_region(
        tmp_path: Path) -> None:
    hub = hub_for(tmp_path)
    roll(hub, RED, 3, 4, 5)  # 3+4 Shuri, 3+5 Tokuyama, 4+5 Tsutsujigasaki
    (alert,) = referee(hub).on_diff(hub.session.game.state, seen(hub, (3, 4, 5), kyo={RED: 2}))
    assert isinstance(alert, Alert) and alert.rule == "5.1.1" and alert.role == RED
    hub.raise_alert(alert)

    english = hub.view(RED)["alert"]
    assert english["message"] == alert.message == (
        "soldiers put in Kyo (castle 4): the dice 3, 4, 5 make 7, 8, 9, naming Shuri (7), "
        "Tokuyama (8), Tsutsujigasaki (9)")
    assert english["fix"] == alert.fix == (
        "take the 2 red soldiers back out of Kyo; the dice 3, 4, 5 send red's soldiers to "
        "Shuri (7) or Tokuyama (8) or Tsutsujigasaki (9)")

    italian = hub.view(RED, "it")["alert"]
    assert italian["message"] == (
        "soldati collocati a Kyo (castello 4): i dadi 3, 4, 5 fanno 7, 8, 9, cioè Shuri (7), "
        "Tokuyama (8), Tsutsujigasaki (9)")
    assert italian["fix"] == (
        "togli i 2 soldati di Rosso da Kyo; i dadi 3, 4, 5 mandano i soldati di Rosso a "
        "Shuri (7) o Tokuyama (8) o Tsutsujigasaki (9)")
    assert_italian(italian["message"], english["message"])
    assert_italian(italian["fix"], english["fix"])
    assert italian["summary"].startswith("Tira i tuoi 3 dadi")
    # soldiers are public: the others read the fix too, in their language, not the message
    theirs = hub.view(BLUE, "it")["alert"]
    assert theirs["fix"] == italian["fix"]
    assert theirs["message"] == "Rosso: questa mossa non è consentita"
    assert hub.view(BLUE)["alert"]["fix"] == english["fix"]


def test_a_scanned_daimyo_card_the_table_does_not_carry_out_is_named_to_its_holder_only(
        tmp_path: Path) -> None:
    hub = hub_for(tmp_path, daimyo=True)
    roll(hub, RED, 3, 4, 5)
    play(hub, RED, "deploy", pair=[0, 2], daimyo=True)  # Tokuyama: the daimyo and 1 soldier
    for role, faces in ((BLUE, (1, 1, 2)), (YELLOW, (6, 6, 6))):
        roll(hub, role, *faces)
        play(hub, role, "deploy", pair=[0, 1])
    ref = referee(hub)
    state = hub.session.game.state
    assert ref.on_card(state, "CARD:oda_nobunaga") == [] and ref.scanned == "oda_nobunaga"
    (alert,) = ref.on_diff(state, seen(hub, (6, 6, 6), kyo={RED: 2}))
    assert isinstance(alert, Alert) and alert.rule == "8.3" and alert.role == RED
    hub.raise_alert(alert)

    name = card_name("oda_nobunaga")
    mine_en, mine_it = hub.view(RED)["alert"], hub.view(RED, "it")["alert"]
    assert mine_en["message"] == (
        "Oda Nobunaga: no play of this card moves the soldiers as the table shows (Kyo: +2 "
        "red); a card is carried out in full or not at all")
    assert mine_it["message"] == (
        "Oda Nobunaga: nessun uso di questa carta muove i soldati come si vede sul tavolo "
        "(Kyo: +2 Rosso); l'azione di una carta si effettua nella sua totalità o per niente")
    assert mine_it["fix"] == ("togli i 2 soldati di Rosso da Kyo, poi effettua Oda Nobunaga "
                              "nella sua totalità")
    assert_italian(mine_it["fix"], mine_en["fix"])

    for role in (BLUE, YELLOW, PUBLIC):
        for lang in ("en", "it"):
            shown = hub.view(role, lang)
            assert name not in json.dumps(shown, ensure_ascii=False)
            assert "oda_nobunaga" not in json.dumps(shown)
        assert hub.view(role, "it")["alert"]["fix"] == (
            "togli i 2 soldati di Rosso da Kyo, poi effettua la carta daimyo nella sua "
            "totalità")
    assert name in json.dumps(hub.view(REFEREE, "it")["alert"], ensure_ascii=False)


def test_a_question_about_a_region_the_camera_cannot_count_is_asked_in_italian(
        tmp_path: Path) -> None:
    hub = hub_for(tmp_path)
    roll(hub, RED, 3, 4, 5)
    diff = seen(hub, (3, 4, 5), tokuyama={RED: 2})
    diff = CountDiff(diff.before, CountSnapshot(diff.after.counts, diff.after.dice,
                                                frozenset({"tokuyama", "shuri"})))
    (question,) = referee(hub).on_diff(hub.session.game.state, diff)
    assert isinstance(question, Question)
    hub.ask(question.text, question.options)
    assert hub.view(RED)["question"]["text"].startswith("The camera cannot count Shuri and "
                                                        "Tokuyama: which was it?")
    assert hub.view(RED, "it")["question"]["text"] == (
        "La telecamera non riesce a contare Shuri e Tokuyama: com'era? (Oppure separa lì i "
        "soldati, così la telecamera può contarli.)")


# --- every alert of the table referee's kinds is wholly Italian --------------------------------

def alerts_of_every_kind(tmp_path: Path) -> list[Alert]:
    """The referee's alerts for soldiers of the wrong colour, in two regions, of the wrong
    number, taken off, put before a roll, and for cards scanned when they cannot be played."""
    hub = hub_for(tmp_path)
    ref = referee(hub)
    found: list[Ruling] = []
    state = hub.session.game.state
    found += ref.on_diff(state, seen(hub, (2, 3, 5), usuki={RED: 1}))  # no roll yet
    ref.scanned = None
    roll(hub, RED, 3, 4, 5)
    state = hub.session.game.state
    for extra in ({"tokuyama": {BLUE: 2}}, {"tokuyama": {RED: 1}, "shuri": {RED: 1}},
                  {"tokuyama": {RED: 3}}, {"shuri": {RED: 1}}):
        found += ref.on_diff(state, seen(hub, (3, 4, 5), **extra))
    found += ref.on_card(state, "CARD:esplorazione")  # the dice are rolled
    found += ref.on_card(state, "CARD:ninja")  # not on the display
    found += ref.on_card(state, "CARD:nothing")
    play(hub, RED, "deploy", pair=[0, 2])
    state = hub.session.game.state
    found += ref.on_diff(state, seen(hub, (3, 4, 5), tokuyama={RED: -1}))  # not red's turn
    found.append(ref._judge(state, Action(CHANCE, "dice", {"values": [0, 9, 9]})))
    alerts = [a for a in found if isinstance(a, Alert)]
    assert len(alerts) == len(found) == 10
    return alerts


def test_every_kind_of_table_alert_is_wholly_translated(tmp_path: Path) -> None:
    for alert in alerts_of_every_kind(tmp_path):
        for text in (alert.message, alert.fix, alert.public_fix):
            assert isinstance(text, Sentence) or not text, text
            assert not untranslated(text), (text, untranslated(text))
            if text:
                said = text.say(SAY_IT)
                assert "{" not in said and said != text, said


def test_every_player_and_chance_are_named_in_italian() -> None:
    for colour in (*KIT.components.colours, CHANCE):
        assert CATALOG.get(colour), colour
    assert CATALOG["red"] == SAY_IT("Red") == "Rosso"  # as words.po names the players


def test_the_rules_refusals_are_wholly_translated(tmp_path: Path) -> None:
    """A refusal of each kind the rules give a player (5.1, 5.1.1, 5.1.2, 8, 8.3), in Italian
    with no template left in English."""
    hub = hub_for(tmp_path, daimyo=True)
    rules = hub.session.game.rules
    before_roll = [
        Action(RED, "deploy", {"pair": [0, 1]}), Action(RED, "reroll"),
        Action(RED, "roll", {"x": 1}),
        Action(RED, "tactic", {"card": "ninja", "from": "kyo", "to": "oko"}),
        Action(RED, "tactic", {"card": "esplorazione", "from": "kyo", "to": "shuri"}),
        Action(RED, "tactic", {"card": "esplorazione", "from": "kyo", "to": "kiyosu"}),
        Action(RED, "tactic", {"card": "esplorazione", "from": "atlantis", "to": "kyo"}),
        Action(RED, "tactic", {"card": "diversivo", "from": "kyo", "to": "kiyosu",
                               "opponents": [BLUE]}),
        Action(RED, "tactic", {"card": "diversivo", "from": "kyo", "to": "kiyosu",
                               "opponents": [BLUE, "green"]}),
        Action(RED, "tactic", {"card": "supporto", "to": "kyo"}),
        Action(RED, "tactic", {"card": "squadra_di_riserva", "from": "kyo", "to": "kiyosu"}),
        Action(RED, "daimyo", {"to": "kyo"}), Action(BLUE, "roll"),
    ]
    before = hub.session.game.state
    roll(hub, RED, 3, 4, 5)
    rolled = [Action(RED, "deploy", {"pair": [0, 0]}),
              Action(RED, "deploy", {"pair": [0, 1], "daimyo": "yes"}), Action(RED, "roll"),
              Action(RED, "tactic", {"card": "supporto", "to": "kyo"})]
    said = 0
    for state, actions in ((before, before_roll), (hub.session.game.state, rolled)):
        for action in actions:
            with pytest.raises(IllegalAction) as refused:
                rules.decide(state, action)
            message = refused.value.message
            assert not untranslated(message), (message, untranslated(message))
            italian = say(message, SAY_IT)
            assert italian != message and "{" not in italian, italian
            said += 1
    assert said == len(before_roll) + len(rolled)
