"""La Disfida di Barletta in words (English and Italian), its dice entered by hand, its views,
and whole random games recorded and verified (`companion sim barletta`)."""

from __future__ import annotations

import pytest
import yaml

from companion.engine import CHANCE, PUBLIC, REFEREE, Action, Game, IllegalAction, random_playout
from companion.games import game as game_spec
from companion.games.barletta.rules import BarlettaRules
from companion.games.barletta.rules.words import summaries
from companion.i18n import catalog
from companion.kits import load_kit
from companion.sim import simulate

KIT = load_kit("barletta")


def opening() -> Game:
    game = Game(BarlettaRules(KIT), seed=3)
    game.apply(Action(CHANCE, "initiative", {"italians": [6, 5], "french": [2, 1]}))
    return game


def test_the_game_is_found_by_its_name_and_aliases():
    for name in ("barletta", "disfida", "disfida-di-barletta", "Disfida di Barletta"):
        assert game_spec(name).name == "barletta"
    assert game_spec("disfida").title == "La Disfida di Barletta"


def test_actions_are_said_with_the_knights_names_in_english_and_italian():
    game = opening()
    rules, state = game.rules, game.state
    deploy = Action("italians", "deploy", {"knight": "fieramosca", "hex": "2407"})
    assert rules.say(state, deploy, PUBLIC) == "Fieramosca deploys at 2407"
    assert rules.say(state, deploy, PUBLIC, "it") == "Fieramosca si schiera in 2407"
    dice = Action(CHANCE, "initiative", {"italians": [6, 5], "french": [2, 1]})
    assert rules.say(state, dice, PUBLIC, "it") == \
        "Iniziativa: gli Italiani tirano 6+5, i Francesi 2+1"


def test_an_action_the_words_cannot_say_raises_rather_than_turning_into_its_verb():
    """Issue 30: a wording bug must surface (the host decides what a screen shows instead)."""
    game = opening()
    rules, state = game.rules, game.state
    with pytest.raises(KeyError):
        rules.say(state, Action("italians", "deploy", {"knight": "nobody", "hex": "2407"}),
                  PUBLIC)
    with pytest.raises(ValueError, match="no words for the verb 'fly'"):
        rules.say(state, Action("italians", "fly", {}), PUBLIC)
    with pytest.raises(IllegalAction):  # dice the rules would refuse
        rules.say(state, Action(CHANCE, "initiative", {"italians": (7, 1), "french": (2, 1)}),
                  PUBLIC)
    assert rules.say(state, Action(REFEREE, "correct", {}), PUBLIC) == "Referee's correction"


def test_a_refusal_is_said_in_italian_in_the_rulebooks_terms():
    from companion.engine import say
    from companion.i18n import translator
    game = opening()
    try:
        game.apply(Action("italians", "deploy", {"knight": "miale", "hex": "2406"}))
    except IllegalAction as exc:
        said = say(exc.message, translator("it", "companion.games.barletta"))
        assert said == "i tuoi cavalieri si schierano sulla tua linea di mischia, da 1807 a 3007"
    else:
        raise AssertionError("deploying on the French line was accepted")


def test_every_rule_summary_has_its_italian_and_sub_rules_fall_back():
    italian = catalog("companion.games.barletta", "it")
    for rule, line in summaries().items():
        assert line in italian, rule
    rules = BarlettaRules(KIT)
    assert rules.rule_summary("H2.3", "it").startswith("Un cavaliere costretto")
    assert rules.rule_summary("E1.9") == rules.rule_summary("E")
    assert rules.rule_summary("Z") == ""
    data = yaml.safe_load(game_spec("barletta").path("data/rule_summaries.yaml").read_text())
    for letter in "ABCDEFGHILM":
        assert any(str(k).startswith(letter) for k in data), letter


def test_the_dice_due_are_offered_as_picks_and_taken_as_actions():
    game = Game(BarlettaRules(KIT), seed=1)
    (pick,) = game.rules.picks(game.state, "it")
    assert pick.verb == "initiative" and pick.title == "Tiro per l'iniziativa"
    action = pick.action({"italians": [4, 4], "french": [1, 2]})
    game.apply(action)
    assert game.state.phase == "deploy"


def test_views_show_the_whole_table_to_everyone():
    game = Game(BarlettaRules(KIT), seed=2)
    random_playout(game, max_actions=120)
    public, referee = game.view(PUBLIC), game.view(REFEREE)
    assert public["knights"] == referee["knights"]
    assert public["knights"]["fieramosca"]["vc"] == 7


def test_random_games_end_and_their_records_verify():
    report = simulate("disfida", games=4, seed=11)
    assert report.games == 4 and not report.failures
    assert sum(report.wins.values()) == 4


def test_registering_a_copy_asks_once_for_each_missing_vc_and_the_melee_table(tmp_path):
    """B1, H1.3: the values the rulebook does not give, entered once, become the set's kit."""
    import pytest

    from companion.games.barletta.kit import COLUMNS, ROLLS
    from companion.games.barletta.physical_set import REGISTRATION
    registry = REGISTRATION.open(tmp_path / "club.json", "barletta", "club")
    assert len(registry.problems()) == 21 and "no VC yet for Fanfulla" in registry.problems()
    with pytest.raises(ValueError, match="no knight called 'Bayard'"):
        registry.add("vc Bayard 6")
    with pytest.raises(ValueError, match="a cell reads"):
        registry.add("melee 2R 7 one")
    for knight in KIT.missing_vc():
        registry.add(f"vc {knight} 3")
    registry.add("melee 0 7 -/1")
    assert registry.problems() == ["the melee table has 1 of 121 cells"]
    resumed = REGISTRATION.open(tmp_path / "club.json", "barletta", "club")
    for column in COLUMNS:
        for roll in ROLLS:
            resumed.add(f"melee {column} {roll} 1/1")
    assert resumed.problems() == []
    kit = load_kit(resumed.write_kit(tmp_path / "club-kit"))
    assert kit.id == "barletta_set_club" and not kit.melee.example and not kit.sample
    assert kit.vc("fanfulla") == 3 and kit.vc("fieramosca") == 7 and kit.missing_vc() == []
