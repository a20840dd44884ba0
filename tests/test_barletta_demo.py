"""La Disfida di Barletta at the simulated table (`companion demo --game barletta`): counters
drawn from above with a tag on each face, put down, moved and turned over by a hand, dice
thrown in the tray, read by the real reader, tracker and referee (issue #22)."""

import json

import pytest
from click.testing import CliRunner

from companion.cli import main
from companion.demo import script_for
from companion.engine import Alert, Game
from companion.games import game
from companion.games.barletta.referee import BarlettaReferee
from companion.games.barletta.rules import BarlettaRules
from companion.games.barletta.rules.state import BState
from companion.games.barletta.script import FIRST_DICE, act_out
from companion.games.barletta.simulator import illegal_table
from companion.games.barletta.table_state import (
    FieldDiff,
    FieldSnapshot,
    expected_zones,
    simulated_registry,
)
from companion.kits import load_kit
from companion.record.store import Store
from companion.web.hub import Hub

SEED = 1
ACTIONS = 31
"""The initiative, the 26 deployments, La Motte's opening charge with its melee and the
unhorsing test that turns Giovenale to its foot face, Riccio's charge (seed 1)."""
ILLEGAL_AT = 30
"""Before Riccio's charge: Fieramosca carried across the field in the opening charge (I2)."""


@pytest.mark.slow
def test_a_short_game_from_frames_to_record_matches_the_simulator(tmp_path, monkeypatch):
    """The CLI demo: the initiative's dice, the deployments, a melee and an unhorsing test
    read from the synthetic camera, Giovenale's counter turned over; the charges asked on
    the tablet; a counter moved during the opening charge raises the I2 alert, not one for
    a result the table still owes (Giovenale's counter was seen turned over), and is put
    back."""
    raised: list[str] = []
    shown = Hub.raise_alert

    def raise_alert(hub: Hub, alert: Alert) -> None:
        raised.append(alert.rule)
        shown(hub, alert)

    monkeypatch.setattr(Hub, "raise_alert", raise_alert)
    db = tmp_path / "demo.sqlite"
    result = CliRunner().invoke(main, [
        "demo", "--game", "barletta", "--headless", "--json", "--port", "0",
        "--seed", str(SEED), "--actions", str(ACTIONS), "--illegal-at", str(ILLEGAL_AT),
        "--db", str(db)])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    report = json.loads(result.output.strip().splitlines()[-1])
    assert report["record_verified"] and report["matches_script"], report["misses"]
    assert report["misses"] == [] and report["manual"] == report["undone"] == 0
    assert report["illegal_corrected"] is True and report["alerts"] == 1
    assert raised == ["I2"]
    script = script_for(game("barletta"), SEED, ACTIONS)
    record = Store(db).load(report["game_id"])
    assert [entry.action for entry in record.entries] == script
    from_camera = {e.action.verb for e in record.entries if e.source == "camera"}
    assert from_camera == {"initiative", "deploy", "melee", "unhorse"}
    # Who charges moves no counter (I2): the two charges are the only taps on the tablet.
    assert report["answered"] == report["questions"] == 2
    assert report["questions_by_cause"] == {"choice": 2, "doubt": 0, "confirmation": 0}
    assert report["questions_asked_again"] == 0  # each choice asked once
    assert {e.action.verb for e in record.entries if e.source != "camera"} == {"charge"}
    # Put right means the table matched the record again: Giovenale's counter on its foot face.
    assert not _played(ILLEGAL_AT)[1].knights["giovenale"].mounted


# --- the illegal move, at the level of tags (no pixels) -----------------------------------

def _played(upto: int) -> tuple[BarlettaRules, BState, FieldSnapshot]:
    """Seed 1's game acted out at the table up to action `upto`: the rules, the state, the
    table the simulated player leaves."""
    rules = BarlettaRules(load_kit("barletta"))
    registry = simulated_registry(list(rules.kit.by_id))
    played: Game[BState] = Game(rules, seed=SEED)
    table = FieldSnapshot(expected_zones(played.state, registry, rules.kit.side_of), FIRST_DICE)
    for action in script_for(game("barletta"), SEED, upto):
        before = played.state
        played.apply(action)
        _, table = act_out(before, action, played.state, table, registry)
    return rules, played.state, table


@pytest.mark.parametrize(("upto", "rule"), [(5, "I1"), (ILLEGAL_AT, "I2"), (74, "F")])
def test_the_illegal_move_is_refused_with_its_rule(upto, rule):
    """The simulated player's illegal move is one the referee refuses, with the rule: a
    knight deployed off the melee line (I1), a counter moved in the opening charge (I2),
    a knight given a Move order beyond its movement (F: Fieramosca from 3007 to 1200)."""
    rules, state, table = _played(upto)
    registry = simulated_registry(list(rules.kit.by_id))
    wrong = illegal_table(rules, registry, state, table)
    assert wrong is not None and wrong.dice == table.dice
    moved = {t: z for t, z in wrong.zones.items() if table.zones.get(t) != z}
    assert len(moved) == 1 and next(iter(moved.values())) in rules.kit.field
    said = BarlettaReferee(rules, registry).on_diff(state, FieldDiff(table, wrong))
    assert [(type(r), r.rule) for r in said] == [(Alert, rule)]


def test_no_illegal_move_during_a_combat():
    """A combat's dice are due: nobody moves a counter (the demo then makes none)."""
    rules, state, table = _played(ILLEGAL_AT - 2)
    assert state.combat is not None
    assert illegal_table(rules, simulated_registry(list(rules.kit.by_id)), state,
                         table) is None


# --- the hand's changes, drawn --------------------------------------------------------------

def test_a_hand_moves_and_turns_over_only_what_the_change_names():
    """Counters not touched lie where they lay, a counter turned over keeps its spot and
    turn, one taken to an area lies on a free place of its grid; the dice stay unless
    thrown again."""
    from companion.games.barletta.reader import field_geometry
    from companion.games.barletta.synth import BarlettaSynth

    kit = load_kit("barletta")
    synth = BarlettaSynth(field_geometry(kit), kit)
    tags = synth.registry.tags
    zones = {tags["fieramosca@mounted"]: "2407", tags["la_motte@mounted"]: "2406",
             tags["miale@mounted"]: "camp_italians"}
    first = synth.scene(zones, (3, 4), seed=1)
    laid = {p.tag: p for p in first.pieces}
    turned = {tags["fieramosca@mounted"]: "2407", tags["la_motte@foot"]: "2406",
              tags["miale@mounted"]: "camp_italians", tags["riccio@foot"]: "camp_italians"}
    then = synth.change(first, turned, (3, 4), throw=False, seed=2)
    now = {p.tag: p for p in then.pieces}
    assert now[tags["fieramosca@mounted"]] == laid[tags["fieramosca@mounted"]]
    foot, mounted = now[tags["la_motte@foot"]], laid[tags["la_motte@mounted"]]
    assert (foot.centre, foot.angle, foot.mounted) == (mounted.centre, mounted.angle, False)
    assert now[tags["riccio@foot"]].centre != now[tags["miale@mounted"]].centre
    assert then.dice == first.dice and then.snapshot.zones == turned
    thrown = synth.change(then, turned, (3, 4), throw=True, seed=3)
    assert thrown.snapshot.dice == (3, 4) and thrown.dice != then.dice
