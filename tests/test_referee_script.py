"""Whole simulated games acted out at the table (zones, card scans, buttons) and read back by
the referee: every scripted action is recovered or offered in a question (9, the simulated
table's script, without pixels)."""

from __future__ import annotations

from collections import Counter

from companion.engine import Game, Proposal, Question, random_playout, rules_class
from companion.games.sekigahara.referee import SekigaharaReferee
from companion.games.sekigahara.script import act_out, feed, read_back, shown
from companion.kits import load_kit
from companion.table import TableRegistry

KIT = load_kit("sekigahara")
REGISTRY = TableRegistry.in_kit_order(b.id for b in KIT.blocks)


def _script(seed: int) -> list:
    game = Game(rules_class("sekigahara")(KIT), seed=seed)
    random_playout(game)
    return [ply.action for ply in game.history]


def test_every_action_of_simulated_games_is_read_back_from_the_table():
    seen: Counter[str] = Counter()
    for seed in range(4):
        script = _script(seed)
        result = read_back(script, Game(rules_class("sekigahara")(KIT), seed=seed), REGISTRY)
        summary = result.summary()
        assert summary["missed"] == 0, summary["first_misses"]
        assert summary["actions"] + summary["hidden"] == len(script)
        seen += result.recovered + result.asked
    # the games reach the table actions of 6 (weeks), 7 (movement), 8 (combat) and 9.3 (Mori)
    for verb in ("draw_blocks", "bid", "choose_first", "discard", "movement_level", "move",
                 "recruit", "mori", "end_movement", "declare", "castle", "deploy", "done",
                 "challenge", "prove", "casualties", "retreat"):
        assert seen[verb] > 0, verb


def test_the_referee_reads_the_move_the_table_shows_not_another():
    """Falsifiable: of two legal moves from one place, the one acted out is the one read."""
    script = _script(1)
    at = next(i for i, a in enumerate(script) if a.verb == "move")
    game = Game(rules_class("sekigahara")(KIT), seed=1)
    referee = SekigaharaReferee(game.rules, REGISTRY)
    for action in script[:at]:
        game.apply(action)
    first = script[at]
    ends = {b: p[-1] for b, p in first.args["paths"].items()}
    other = next(a for a in game.rules.legal_actions(game.state, first.role)
                 if a.verb == "move" and a.args["from"] == first.args["from"]
                 and {b: p[-1] for b, p in a.args["paths"].items()} != ends)
    before = game.state
    table = shown(before, {})
    game.apply(other)
    rulings = feed(referee, before, act_out(before, other, game.state, table, REGISTRY))
    offered = [r.action for r in rulings if isinstance(r, Proposal)] + [
        a for r in rulings if isinstance(r, Question) for a in r.options]
    assert other in offered and first not in offered


def test_a_split_stack_force_marching_twice_is_read_back_from_the_table():
    """7.3.3 at the table: the player scans both cards, then parts the Edo stack for Suwa and
    Hamamatsu; the referee reads the one move with a forced march for each group."""
    from sekigahara_helpers import placed, set_up

    from companion.engine import Action

    stack = [b.id for b in KIT.blocks if b.side == "tokugawa" and b.leader is None][:4]
    cards = ["T-tokugawa-plain-1", "T-tokugawa-plain-2"]
    game = placed(set_up(), dict.fromkeys(stack, "edo"), active="tokugawa", level="total",
                  clear=True, hands={"tokugawa": cards})
    suwa, hamamatsu = sorted(stack[:2]), sorted(stack[2:])
    paths = {**dict.fromkeys(suwa, ("oshi", "takasaki", "saku", "suwa")),
             **dict.fromkeys(hamamatsu, ("hakone", "numazu", "sunpu", "hamamatsu"))}
    action = Action("tokugawa", "move", {"from": "edo", "paths": paths,
                                         "forced_marches": {cards[1]: suwa,
                                                            cards[0]: hamamatsu}})
    result = read_back([action], game, REGISTRY)
    assert dict(result.recovered) == {"move": 1}, result.summary()["first_misses"]
    assert {game.state.positions[b] for b in suwa} == {"suwa"}
