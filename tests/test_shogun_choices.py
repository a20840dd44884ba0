"""Shogun: a player's choice stays the player's (issue 34), read against the Italian rulebook
(shared/seeds/shogun-rules-it.txt, sections numbered in docs/shogun.md).

- 3.2 «6 Eserciti - ... il giocatore **può** schierare 6 eserciti»: 5 or 6, asked;
- 3.2 «+1 esercito con attacco - ... **può** piazzare 1 esercito extra»: the attack's `extra`;
- 3.2 «+1 esercito con difesa - Un giocatore in difesa **può** piazzare 1 esercito extra»: the
  defender is asked (`defend`), before the throw;
- 6: a real tray is checked only against what went in (the kit's capacity is the simulated
  tower's);
- 2: a province left out with 3 players is refused citing the set-up, where the rule is;
- 7: players level on points and war chests share the victory, the others ranked.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from test_shogun_rules import KIT, acting, at, battle_state, own, rules, run_action

from companion.engine import CHANCE, PUBLIC, Action, Game, IllegalAction
from companion.games.shogun.rules import waiting
from companion.games.shogun.rules.context import Batch
from companion.games.shogun.rules.state import FARMERS, frozen
from companion.games.shogun.rules.winter import end_of_winter


def _holding(game: Game[Any], **cards: str) -> dict[str, int]:
    """`taken` with each player holding the special card named (player=card)."""
    specials = game.state.specials
    return {player: specials.index(card) for player, card in cards.items()}


# --- 3.2: 6 armies ------------------------------------------------------------------------------

def test_3_2_six_armies_is_the_holders_choice_of_6_or_5() -> None:
    """3.2 «il giocatore può schierare 6 eserciti»: with 9 armies in supply the holder is
    asked, 6 first (the default), and may keep one back for a later deploy."""
    game = acting()
    p = own(game, "red")
    reserve = frozen({**game.state.reserve, "red": 9})
    state, events = run_action(game, "deploy_5", "red", p, event=None, reserve=reserve,
                               taken=frozen(_holding(game, red="six_armies")))
    assert events[-1] == "ChoiceAwaited" and waiting(state) == {"red": ("deploy",)}
    g = Game.from_state(game.rules, state, seed=1)
    assert [a.args["armies"] for a in g.legal_actions("red")] == [6, 5]
    with pytest.raises(IllegalAction, match="deploy 6 or 5 armies") as refused:
        g.apply(Action("red", "deploy", {"armies": 7}))
    assert refused.value.rule == "3.2" and g.state == state
    assert g.rules.say(g.state, Action("red", "deploy", {"armies": 5}), PUBLIC) == \
        f"Red deploys 5 armies in {KIT.provinces('sun')[p].name}"
    g.apply(Action("red", "deploy", {"armies": 5}))
    assert g.state.armies[p] == state.armies[p] + 5 and g.state.reserve["red"] == 4
    assert g.state.chests["red"] == state.chests["red"] - 3


def test_3_2_six_armies_with_exactly_5_in_supply_deploys_5_unasked() -> None:
    """3.2, interpretation 14: no sixth army in the supply, no question."""
    game = acting()
    p = own(game, "red")
    state, events = run_action(game, "deploy_5", "red", p, event=None,
                               reserve=frozen({**game.state.reserve, "red": 5}),
                               taken=frozen(_holding(game, red="six_armies")))
    assert "ArmiesDeployed" in events and "ChoiceAwaited" not in events
    assert state.armies[p] == game.state.armies[p] + 5


# --- 3.2: +1 attacking --------------------------------------------------------------------------

def test_3_2_the_attack_card_army_is_a_choice_so_a_later_deploy_5_is_not_lost() -> None:
    """3.2 «può piazzare 1 esercito extra»: with exactly 5 armies in supply, the holder of
    +1 attack who attacks first keeps them for the deploy 5 planned later (3.6 would skip
    it with 4)."""
    game = acting()
    g, _, q = battle_state(game, None, 0)
    state = replace(g.state, taken=frozen(_holding(game, red="attack")),
                    reserve=frozen({**g.state.reserve, "red": 5}))
    g = Game.from_state(g.rules, state, seed=1)
    legal = [a for a in g.legal_actions("red") if a.args["to"] == q and a.args["armies"] == 2]
    assert [a.args.get("extra") for a in legal] == [None, False]  # the default first
    said = g.rules.say(g.state, legal[1], PUBLIC)
    assert said.endswith("adding no army of the +1 attack card")
    g.apply(Action("red", "attack", {"to": q, "armies": 2, "extra": False}))
    assert dict(g.state.pending["thrown"]) == {"red": 2, FARMERS: 1}
    assert g.state.reserve["red"] == 5
    g2 = Game.from_state(g.rules, state, seed=1)
    g2.apply(Action("red", "attack", {"to": q, "armies": 2}))  # the default: with the army
    assert dict(g2.state.pending["thrown"]) == {"red": 3, FARMERS: 1}
    assert g2.state.reserve["red"] == 4


def test_3_2_only_the_holder_adds_the_attack_army() -> None:
    """3.2: the extra army is the +1 attack card's; refused to others, and never into an own
    province (no battle); the state is untouched."""
    g, _, q = battle_state(acting(), "blue", 2)
    before = g.state
    with pytest.raises(IllegalAction, match="only the holder") as refused:
        g.apply(Action("red", "attack", {"to": q, "armies": 2, "extra": True}))
    assert refused.value.rule == "3.2" and g.state == before
    with pytest.raises(IllegalAction, match="say yes or no to the extra army"):
        g.apply(Action("red", "attack", {"to": q, "armies": 2, "extra": "yes"}))
    g.apply(Action("red", "attack", {"to": q, "armies": 2, "extra": False}))  # no card: none


# --- 3.2: +1 defending --------------------------------------------------------------------------

@pytest.mark.parametrize("extra", [True, False])
def test_3_2_the_defender_is_asked_for_the_defence_army(extra: bool) -> None:
    """3.2 «Un giocatore in difesa può piazzare 1 esercito extra»: the defender's question,
    asked of the defender before the throw; the armies leave their provinces at the attack
    (the table shows them picked up)."""
    game = acting()
    g, p, q = battle_state(game, "blue", 2)
    state = replace(g.state, taken=frozen(_holding(game, red="attack", blue="defence")))
    g = Game.from_state(g.rules, state, seed=1)
    events = g.apply(Action("red", "attack", {"to": q, "armies": 2}))
    assert [e.type for e in events] == ["BattleDeclared"]
    assert waiting(g.state) == {"blue": ("defend",)}
    assert g.state.armies[p] == 4 and q not in g.state.armies
    assert [a.args for a in g.legal_actions("blue")] == [{"extra": True}, {"extra": False}]
    with pytest.raises(IllegalAction):
        g.apply(Action("red", "defend", {"extra": True}))  # the defender's question
    g.apply(Action("blue", "defend", {"extra": extra}))
    assert dict(g.state.pending["thrown"]) == {"red": 3, "blue": 2 + extra}
    assert g.state.reserve["blue"] == state.reserve["blue"] - extra
    assert g.state.reserve["red"] == state.reserve["red"] - 1


def test_3_2_no_question_without_the_defence_card_or_an_army_in_supply() -> None:
    """3.2: the defender holding +1 defence with an empty supply has nothing to add."""
    game = acting()
    g, _, q = battle_state(game, "blue", 2)
    state = replace(g.state, taken=frozen(_holding(game, blue="defence")),
                    reserve=frozen({**g.state.reserve, "blue": 0}))
    g = Game.from_state(g.rules, state, seed=1)
    g.apply(Action("red", "attack", {"to": q, "armies": 2}))
    assert g.state.pending["kind"] == "battle"
    assert dict(g.state.pending["thrown"]) == {"red": 2, "blue": 2}


# --- 6: the tower -------------------------------------------------------------------------------

def test_6_a_real_tray_is_checked_only_against_what_went_in() -> None:
    """6: with 5 players the loading throws 45 cubes; a true tray of 4 cubes leaves 41 in a
    tower the simulation holds to 40. The capacity is the simulation's, never a refusal."""
    game = at(5, "load")
    thrown = sum(game.state.pending["thrown"].values())
    assert thrown == 45 > KIT.components.tower.capacity + 4
    game.apply(Action(CHANCE, "tray", {"tray": {"red": 2, FARMERS: 2}}))
    assert sum(game.state.tower.values()) == 41


# --- 2: the provinces out of play -----------------------------------------------------------

def test_2_a_province_out_of_play_with_3_players_is_refused_citing_2() -> None:
    """2 «Con solo 3 giocatori, 8 carte provincia non saranno necessarie ... nessun esercito
    può essere spostato in queste province»: the refusal cites the set-up, not 4.4."""
    game = acting(3)
    marked = {p.id for p in KIT.sides["sun"].provinces if p.unused_with_3}
    p, q = next((p, q) for p in KIT.provinces("sun") if p not in marked
                for q in KIT.neighbours("sun", p) if q in marked)
    g, _, _ = battle_state(game, None, 0)
    state = replace(g.state, owner=frozen({**g.state.owner, p: "red"}),
                    armies=frozen({**g.state.armies, p: 4}),
                    pending=frozen({**g.state.pending, "province": p}))
    g = Game.from_state(g.rules, state, seed=1)
    with pytest.raises(IllegalAction, match="not in play with 3 players") as refused:
        g.apply(Action("red", "attack", {"to": q, "armies": 2}))
    assert refused.value.rule == "2" and g.state == state


# --- 7: the end ---------------------------------------------------------------------------------

def test_7_players_level_on_points_and_chests_share_the_victory() -> None:
    """7 «Il giocatore con il maggior numero di punti vittoria vince. In caso di parità, vince
    il giocatore con il maggior numero di casse di guerra»: Red and Blue level on 58 points
    and their chests both win; Yellow (55) lost; Purple (55, more chests) is third."""
    game = at(4, "revolts", seed=3)
    state = replace(game.state, year=2, owner=frozen(), buildings=frozen(),
                    vp=frozen({"red": 58, "blue": 58, "yellow": 55, "purple": 55}),
                    chests=frozen({"red": 4, "blue": 4, "yellow": 2, "purple": 6}))
    batch = Batch(KIT, state)
    end_of_winter(batch)
    outcome = batch.state.outcome
    assert outcome is not None and outcome.rule == "7"
    assert outcome.winner is None and outcome.winners == ("red", "blue")
    assert outcome.ranking == (("red", "blue"), ("purple",), ("yellow",))
    assert not outcome.draw and outcome.place("yellow") == 3
    assert outcome.sentence({"red": "Ada", "blue": "Bo"}) == \
        "Ada and Bo share the victory: level on victory points and war chests (rule 7)"
    ended = batch.events[-1].to_json()  # the record says it too
    assert ended["winners"] == ["red", "blue"] and ended["ranking"][0] == ["red", "blue"]


def test_7_equal_points_more_chests_wins_alone() -> None:
    game = at(4, "revolts", seed=3)
    state = replace(game.state, year=2, owner=frozen(), buildings=frozen(),
                    vp=frozen({"red": 58, "blue": 58, "yellow": 55, "purple": 1}),
                    chests=frozen({"red": 4, "blue": 5, "yellow": 9, "purple": 0}))
    batch = Batch(KIT, state)
    end_of_winter(batch)
    outcome = batch.state.outcome
    assert outcome is not None and outcome.winner == "blue" and outcome.winners == ("blue",)
    assert outcome.termination == "war chests, victory points level"
    assert [p for place in outcome.ranking for p in place] == ["blue", "red", "yellow",
                                                               "purple"]
    assert rules().game_type.end_rule == "7"
