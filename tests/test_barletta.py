"""La Disfida di Barletta (rules: shared/seeds/disfida-di-barletta-rules-it.txt; the
interpretations in docs/barletta.md). Each test names the rule or worked example it checks."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from helpers import refused

from companion.engine import CHANCE, Action, Game, IllegalAction
from companion.games.barletta import hexes
from companion.games.barletta.rules import BarlettaRules
from companion.games.barletta.rules.combat import column_shift, roll_modifier, take_hits
from companion.games.barletta.rules.context import Batch
from companion.games.barletta.rules.orders import reach
from companion.games.barletta.rules.state import CAMP, KnightState, frozen
from companion.kits import load_kit

KIT = load_kit("barletta")
IT, FR = "italians", "french"


def position(knights: dict[str, dict[str, Any]], options: dict[str, Any] | None = None,
             **changes: Any) -> Game:
    """A hand-built position in turn 1's orders: the named knights as given, every other one
    in its camp with its order spent (so it neither acts nor counts on the field)."""
    rules = BarlettaRules(KIT, options or {})
    base = rules.initial_state()
    built = {k: KnightState(where=CAMP, ordered=True) for k in base.knights}
    for name, fields in knights.items():
        built[name] = KnightState(**fields)
    settings: dict[str, Any] = {"phase": "orders", "turn": 1, "active": IT, "first": IT,
                                "initiative": IT, "order_points": frozen({IT: 5, FR: 5}),
                                "passes": frozen({IT: 0, FR: 0}),
                                "commanders": frozen({IT: "fieramosca", FR: "la_motte"})}
    settings.update(changes)
    for key in ("order_points", "passes", "commanders", "gone", "attacks"):
        if key in settings:
            settings[key] = frozen(settings[key])
    state = replace(base, knights=frozen(built), **settings)
    return Game.from_state(rules, state, seed=1)


def kinds(events) -> list[str]:
    return [e.type for e in events]


def move(side: str, knight: str, to: str, attack: str | None = None) -> Action:
    args = {"knight": knight, "to": to}
    if attack:
        args["attack"] = attack
    return Action(side, "move", args)


def melee(attacker: list[int], defender: list[int] | None = None) -> Action:
    args: dict[str, Any] = {"attacker": attacker}
    if defender is not None:
        args["defender"] = defender
    return Action(CHANCE, "melee", args)


def batch(game: Game) -> Batch:
    return Batch(KIT, game.state, game.rules.options)


# --- B, the kit: the field, the knights, the tables --------------------------------------------

def test_b_the_field_is_numbered_column_and_row_and_its_adjacency_is_computed():
    assert hexes.parse("1807") == (18, 7)
    assert set(hexes.neighbours("2407")) == {"2406", "2408", "2307", "2308", "2507", "2508"}
    assert all(a in hexes.neighbours(b) for link in KIT.roads for a, b in [(link.a, link.b)])
    assert len(KIT.knights[IT]) == len(KIT.knights[FR]) == 13


def test_example_4_fanfulla_enters_from_the_camp_or_the_shield():
    """F2, example 4: from the camp 1512 to 1914, from the shield 2114, 2213 or 2314."""
    assert KIT.camp_entries(IT) == ("1512", "1612", "1713", "1813", "1914")
    assert KIT.shield_entries(IT) == ("2114", "2213", "2314")


def test_i1_the_french_line_printed_806_is_read_as_1806():
    french = KIT.sides[FR].melee_line
    assert french[0] == "1806" and french[-1] == "3006" and len(french) == 13
    for mine, theirs in zip(KIT.sides[IT].melee_line, french, strict=True):
        assert KIT.front(IT, mine) == theirs and theirs in hexes.neighbours(mine)


def test_b1_the_rulebook_gives_five_vc_and_kit_check_names_the_rest():
    assert {k: KIT.vc(k) for k in ("fieramosca", "la_motte", "miale", "de_sachet",
                                   "fontaines")} == {"fieramosca": 7, "la_motte": 6,
                                                     "miale": 6, "de_sachet": 4,
                                                     "fontaines": 4}
    missing = KIT.missing_vc()
    assert len(missing) == 21 and "Fanfulla" in missing and "d'Aste" in missing
    rows = dict(KIT.summary())
    assert "Fanfulla" in rows["knights"] and "EXAMPLE" in rows["melee"]


def test_the_melee_table_is_validated_cell_by_cell(tmp_path):
    import shutil

    from companion.kits import KitError
    for bad, said in (('"-/1", "x/1", "-/2", "-/2D"', "columns.1L[8]: String should match"),
                      ('"-/1", "-/1", "-/2"', "columns.1L: 10 cells, not 11")):
        folder = tmp_path / str(len(bad))
        shutil.copytree(KIT_FOLDER, folder)
        table = folder / "melee_table.yaml"
        table.write_text(table.read_text().replace('"-/1", "-/1", "-/2", "-/2D"', bad, 1))
        with pytest.raises(KitError) as info:
            load_kit(folder)
        assert "melee_table.yaml:" in str(info.value) and said in str(info.value)


KIT_FOLDER = __import__("pathlib").Path(__file__).parents[1] / "companion" / "games" / \
    "barletta" / "data"


# --- C, D: turns, initiative, order points and passes ------------------------------------------

def test_c1_the_higher_roll_chooses_to_play_second_and_a_tie_is_rolled_again():
    game = position({"fieramosca": {"where": "2407"}, "la_motte": {"where": "2406"}},
                    phase="initiative", active="", first="", order_points={}, passes={},
                    commanders={})
    events = game.apply(Action(CHANCE, "initiative", {IT: [3, 3], FR: [2, 4]}))
    assert game.state.phase == "initiative" and events[0].data["winner"] == ""
    game.apply(Action(CHANCE, "initiative", {IT: [1, 2], FR: [6, 5]}))
    assert game.to_move() == (FR,)
    game.apply(Action(FR, "go_second"))
    assert game.state.first == IT and game.to_move() == (IT,)


def test_example_1_and_2_order_points_and_passes():
    """D1 example 1: Italians lost 3 (Fieramosca 7 - 1 = 6), French 4 (La Motte 6 - 2 = 4);
    D2 example 2: 1 pass and 2 passes."""
    gone = {IT: ("abignente", "salomone", "romanello"),
            FR: ("de_baraut", "de_sachet", "de_forges", "de_pises")}
    knights = {k: {"out": "captured", "where": ""} for side in gone.values() for k in side}
    knights.update({"fieramosca": {"where": "2407"}, "la_motte": {"where": "2406"}})
    game = position(knights, phase="command", gone=gone, order_points={}, passes={},
                    commanders={}, turn=3)
    game.apply(Action(IT, "command", {"knight": "fieramosca"}))
    game.apply(Action(FR, "command", {"knight": "la_motte"}))
    assert dict(game.state.order_points) == {IT: 6, FR: 4}
    assert dict(game.state.passes) == {IT: 1, FR: 2}


def test_d1_the_player_picks_the_knight_whose_vc_counts():
    game = position({"fieramosca": {"where": "2407"}, "miale": {"where": "2307"},
                     "la_motte": {"where": "2406"}}, phase="command", order_points={},
                    passes={}, commanders={})
    game.apply(Action(IT, "command", {"knight": "miale"}))
    assert game.state.order_points[IT] == 6
    assert refused(game, Action(FR, "command", {"knight": "fieramosca"})) == "D1"


def test_c1_activations_alternate_and_cost_an_order_point_each():
    game = position({"fieramosca": {"where": "2410"}, "miale": {"where": "2010"},
                     "la_motte": {"where": "2403"}, "fontaines": {"where": "2003"}})
    game.apply(move(IT, "fieramosca", "2411"))
    assert game.state.order_points[IT] == 4 and game.to_move() == (FR,)
    game.apply(move(FR, "la_motte", "2402"))
    assert game.to_move() == (IT,)


def test_d1_1_no_order_without_an_order_point_and_d2_a_pass_instead():
    game = position({"fieramosca": {"where": "2410"}, "miale": {"where": "2010"},
                     "la_motte": {"where": "2403"}, "fontaines": {"where": "2003"}},
                    order_points={IT: 0, FR: 3},
                    passes={IT: 1, FR: 0})
    assert refused(game, move(IT, "fieramosca", "2411")) == "D1.1"
    game.apply(Action(IT, "pass"))
    assert game.state.passes[IT] == 0 and game.to_move() == (FR,)
    game.apply(move(FR, "la_motte", "2402"))
    assert game.to_move() == (FR,)  # the Italians can no longer act: the French go on


# --- E: orders ---------------------------------------------------------------------------------

def test_e_one_order_per_knight_per_turn():
    game = position({"fieramosca": {"where": "2410"}, "miale": {"where": "2010"},
                     "la_motte": {"where": "2403"}})
    game.apply(move(IT, "fieramosca", "2411"))
    game.apply(move(FR, "la_motte", "2402"))
    assert refused(game, move(IT, "fieramosca", "2410")) == "E"


def test_e1_1_attack_from_adjacency_without_moving_and_at_most_five_a_turn():
    game = position({"fieramosca": {"where": "2407"}, "la_motte": {"where": "2406"}})
    events = game.apply(move(IT, "fieramosca", "2407", attack="la_motte"))
    assert "KnightMoved" not in kinds(events) and game.state.combat is not None
    tired = position({"fieramosca": {"where": "2407"}, "la_motte": {"where": "2406"}},
                     attacks={IT: 5})
    assert refused(tired, move(IT, "fieramosca", "2407", attack="la_motte")) == "E1.1"


def test_e1_1_one_target_adjacent_to_where_the_move_ends():
    game = position({"fieramosca": {"where": "2410"}, "la_motte": {"where": "2406"}})
    assert refused(game, move(IT, "fieramosca", "2410", attack="la_motte")) == "E1.1"
    game.apply(move(IT, "fieramosca", "2407", attack="la_motte"))
    assert game.state.combat.defender == "la_motte"


def test_e1_2_reorganization_only_on_foot_or_with_hits_and_not_when_attacked():
    game = position({"fieramosca": {"where": "2410"}, "miale": {"where": "2010",
                                                               "mounted": False},
                     "riccio": {"where": "1810", "attacked_by": ("la_motte",)},
                     "la_motte": {"where": "2403"}})
    assert refused(game, Action(IT, "reorganize", {"knight": "fieramosca"})) == "E1.2"
    assert refused(game, Action(IT, "reorganize", {"knight": "riccio"})) == "E1.2"
    game.apply(Action(IT, "reorganize", {"knight": "miale"}))
    assert game.state.knights["miale"].reorganizing


def test_e1_2_a_reorganization_is_lost_when_the_knight_is_attacked():
    game = position({"miale": {"where": "2407", "hits": 1, "ordered": True,
                               "reorganizing": True},
                     "la_motte": {"where": "2406"}}, active=FR)
    game.apply(move(FR, "la_motte", "2406", attack="miale"))
    assert not game.state.knights["miale"].reorganizing


def end_of_turn(knights: dict[str, dict[str, Any]]) -> Game:
    """Every knight has its order: the French pass the turn to its end."""
    knights = {**knights, "la_motte": {"where": "2403", "ordered": True}}
    game = position(knights, active=FR, order_points={IT: 0, FR: 0}, passes={IT: 0, FR: 1})
    game.apply(Action(FR, "pass"))
    return game


def test_e1_2_at_the_end_of_the_turn_recover_up_to_two_hits():
    game = end_of_turn({"fieramosca": {"where": "2410", "hits": 3, "ordered": True,
                                       "reorganizing": True}})
    assert game.state.knights["fieramosca"].hits == 1 and game.state.turn == 2


def test_example_3_a_knight_on_foot_with_a_wound_and_a_hit_subtracts_two():
    game = end_of_turn({"miale": {"where": "2410", "mounted": False, "hits": 1, "wounds": 1,
                                  "ordered": True, "reorganizing": True}})
    assert game.to_move() == (IT,)  # recover or remount: the owner chooses
    game.apply(Action(IT, "remount", {"knight": "miale"}))
    events = game.apply(Action(CHANCE, "remount_roll", {"knight": "miale", "die": 3}))
    assert events[0].data["total"] == 1 and not game.state.knights["miale"].mounted
    again = end_of_turn({"miale": {"where": "2410", "mounted": False, "hits": 1, "wounds": 1,
                                   "ordered": True, "reorganizing": True}})
    again.apply(Action(IT, "remount", {"knight": "miale"}))
    again.apply(Action(CHANCE, "remount_roll", {"knight": "miale", "die": 4}))
    assert again.state.knights["miale"].mounted


def test_e1_3_a_paid_reorganization_in_the_camp_remounts_unrolled_too():
    """E1.3 «Se il cavaliere decide di rimontare l'azione avviene automaticamente, non è
    necessario tirare il dado» (E1.2: «vedi anche E1.3»): in its own camp a knight remounts
    without a roll whether its Reorganization was paid for (E1.2) or free; a paid order is
    never worse than none (docs/barletta.md, Interpretations)."""
    game = end_of_turn({"miale": {"where": CAMP, "mounted": False, "ordered": True,
                                  "reorganizing": True},
                        "fieramosca": {"where": "2410", "ordered": True}})
    assert game.state.knights["miale"].mounted and game.state.turn == 2
    assert not game.state.remounting
    chooses = end_of_turn({"miale": {"where": CAMP, "mounted": False, "hits": 1,
                                     "ordered": True, "reorganizing": True},
                           "fieramosca": {"where": "2410", "ordered": True}})
    assert chooses.to_move() == (IT,)  # recover or remount: the owner's choice
    events = chooses.apply(Action(IT, "remount", {"knight": "miale"}))
    assert [e.data.get("rule") for e in events if e.type == "KnightRemounted"] == ["E1.3"]
    assert chooses.state.knights["miale"].mounted and chooses.state.turn == 2


def test_e1_3_a_knight_in_its_camp_without_an_order_reorganizes_free_and_remounts_unrolled():
    game = end_of_turn({"miale": {"where": CAMP, "mounted": False},
                        "riccio": {"where": CAMP, "hits": 2},
                        "fieramosca": {"where": "2410", "ordered": True}})
    assert game.state.knights["miale"].mounted and game.state.knights["riccio"].hits == 0
    assert game.state.turn == 2


# --- F, G: movement and stacking ---------------------------------------------------------------

def test_f_five_movement_points_mounted_three_on_foot():
    game = position({"fieramosca": {"where": "2410"}, "miale": {"where": "2010",
                                                               "mounted": False},
                     "la_motte": {"where": "2403"}})
    mounted, on_foot = reach(KIT, game.state, "fieramosca"), reach(KIT, game.state, "miale")
    assert max(mounted.values()) == 5 and max(on_foot.values()) == 3
    assert mounted["2405"] == 5 and "2404" not in mounted
    assert refused(game, move(IT, "miale", "2006")) == "F"


def test_f1_declaring_an_attack_costs_a_movement_point():
    game = position({"fieramosca": {"where": "2411"}, "la_motte": {"where": "2405"}})
    assert reach(KIT, game.state, "fieramosca")["2406"] == 5  # next to La Motte, no point left
    assert refused(game, move(IT, "fieramosca", "2406", attack="la_motte")) == "F1"
    closer = position({"fieramosca": {"where": "2410"}, "la_motte": {"where": "2405"}})
    closer.apply(move(IT, "fieramosca", "2406", attack="la_motte"))


def test_f2_a_knight_in_its_camp_enters_for_one_point():
    game = position({"fanfulla": {"where": CAMP, "mounted": False},
                     "la_motte": {"where": "2403"}})
    costs = reach(KIT, game.state, "fanfulla")
    assert costs["1512"] == costs["2314"] == 1 and costs[CAMP] == 0
    assert max(costs.values()) == 3
    game.apply(move(IT, "fanfulla", "2213"))
    assert game.state.knights["fanfulla"].where == "2213"


def test_g_one_knight_per_hex_and_no_passing_through():
    # 2407 is walled in by its six neighbours but one, far side
    ring = dict(zip(["miale", "riccio", "capoccio", "brancaleone", "corollario"],
                    ["2406", "2307", "2308", "2507", "2508"], strict=True))
    knights = {k: {"where": h} for k, h in ring.items()}
    knights.update({"fieramosca": {"where": "2407"}, "la_motte": {"where": "2403"}})
    game = position(knights)
    costs = reach(KIT, game.state, "fieramosca")
    assert "2406" not in costs and costs["2408"] == 1 and costs.get("2405", 99) > 2
    assert refused(game, move(IT, "fieramosca", "2406")) == "G"  # taken by Miale
    assert refused(game, move(IT, "fieramosca", "2405")) == "G"  # only through the ring


def test_g_a_taken_entry_hex_cites_g_and_the_enemys_entry_hexes_f2():
    """G «Non può mai esserci più di un cavaliere in un esagono»: a knight entering from its
    camp onto an entry hex another knight holds is refused under G, not F; F2 «può partire
    da un esagono del campo o dall'esagono in cui si trova il proprio scudo»: the enemy's
    entry hexes are refused under F2; too far is F."""
    game = position({"fanfulla": {"where": CAMP}, "miale": {"where": "2213"},
                     "la_motte": {"where": "2403"}})
    with pytest.raises(IllegalAction, match="taken by Miale") as taken:
        game.apply(move(IT, "fanfulla", "2213"))
    assert taken.value.rule == "G"
    french = KIT.entries(FR)[0]
    with pytest.raises(IllegalAction, match="own camp or shield") as enemy:
        game.apply(move(IT, "fanfulla", french))
    assert enemy.value.rule == "F2"
    assert refused(game, move(IT, "fanfulla", "2405")) == "F"


# --- H: combat ---------------------------------------------------------------------------------

def test_h_a_knight_attacked_and_not_yet_activated_attacks_only_its_attackers():
    game = position({"fieramosca": {"where": "2407", "attacked_by": ("fontaines",)},
                     "la_motte": {"where": "2406"}, "fontaines": {"where": "2507"}})
    assert refused(game, move(IT, "fieramosca", "2407", attack="la_motte")) == "H"
    game.apply(move(IT, "fieramosca", "2407", attack="fontaines"))


def test_h1_both_roll_in_a_melee():
    game = position({"fieramosca": {"where": "2407"}, "la_motte": {"where": "2406"}})
    game.apply(move(IT, "fieramosca", "2407", attack="la_motte"))
    assert refused(game, melee([3, 4])) == "H1"
    events = game.apply(melee([3, 4], [3, 4]))
    assert len(events[0].data["rolls"]) == 2


def test_h1_1_column_shifts_vc_numbers_mount_and_wounds_capped_at_five():
    game = position({"fieramosca": {"where": "2407", "wounds": 1},
                     "la_motte": {"where": "2406", "mounted": False, "wounds": 2,
                                  "attacked_by": ("miale", "riccio", "fieramosca")}})
    b = batch(game)
    # 7 - 6 VC, +2 earlier attackers, +1 mounted against on foot, +2 - 1 wounds = 5
    assert column_shift(b, "fieramosca", "la_motte", attacking=True) == 5
    # the defender's own roll: 6 - 7, -1 on foot against mounted, 1 - 2 wounds = -3
    assert column_shift(b, "la_motte", "fieramosca", attacking=False) == -3
    capped = position({"fieramosca": {"where": "2407"},
                       "de_sachet": {"where": "2406", "mounted": False, "wounds": 3}})
    assert column_shift(batch(capped), "fieramosca", "de_sachet", attacking=True) == 5
    assert column_shift(batch(capped), "de_sachet", "fieramosca", attacking=False) == -5


def test_h1_2_die_modifiers_for_hits_capped_at_five_and_rolls_kept_2_to_12():
    game = position({"fieramosca": {"where": "2407", "hits": 1},
                     "la_motte": {"where": "2406", "hits": 5}})
    assert roll_modifier(batch(game), "fieramosca", "la_motte") == 4
    game = position({"fieramosca": {"where": "2407", "hits": 0},
                     "la_motte": {"where": "2406", "hits": 5, "wounds": 0}})
    assert roll_modifier(batch(game), "fieramosca", "la_motte") == 5
    game.apply(move(IT, "fieramosca", "2407", attack="la_motte"))
    events = game.apply(melee([6, 6], [1, 1]))
    attacker, defender = events[0].data["rolls"]
    assert attacker["roll"] == 12 and defender["roll"] == 2


def test_example_5_fontaines_takes_three_hits_with_a_wound_and_two_hits():
    game = position({"fontaines": {"where": "2406", "wounds": 1, "hits": 2}})
    b = batch(game)
    take_hits(b, "fontaines", 3)
    assert (b.state.knights["fontaines"].wounds, b.state.knights["fontaines"].hits) == (2, 1)


def fight(knights: dict[str, dict[str, Any]], attacker: str, defender: str, at: str,
          options: dict[str, Any] | None = None) -> Game:
    game = position(knights, options)
    side = KIT.side_of[attacker]
    game = Game.from_state(game.rules, replace(game.state, active=side), seed=1)
    game.apply(move(side, attacker, at, attack=defender))
    return game


def test_h2_the_defender_with_more_hits_retreats_away_and_the_attacker_advances():
    # 7 - 4 = 3R for Fieramosca: 8 reads -/2D; 3L for de Sachet: 11 reads -/1 (1 to Fieramosca)
    game = fight({"fieramosca": {"where": "2407"}, "de_sachet": {"where": "2406"}},
                 "fieramosca", "de_sachet", "2407")
    game.apply(melee([4, 4], [5, 6]))
    while game.state.combat is not None:  # unhorsing tests that change nothing
        game.apply(Action(CHANCE, "unhorse", {"knight": game.state.combat.tests[0], "die": 1}))
    assert game.state.knights["de_sachet"].where == "2405"  # H2.1: away from 2407
    assert game.state.knights["fieramosca"].where == "2406"  # H2.4


def test_h2_2_a_blocked_retreat_costs_a_hit_and_h2_4_no_advance():
    game = fight({"fieramosca": {"where": "2407"}, "de_sachet": {"where": "2406"},
                  "fontaines": {"where": "2405"}}, "fieramosca", "de_sachet", "2407")
    events = game.apply(melee([4, 4], [5, 6]))
    while game.state.combat is not None:
        events = game.apply(Action(CHANCE, "unhorse", {"knight": game.state.combat.tests[0],
                                                       "die": 1}))
    assert "RetreatBlocked" in kinds(events)
    assert game.state.knights["de_sachet"].where == "2406"
    assert game.state.knights["de_sachet"].hits == 3
    assert game.state.knights["fieramosca"].where == "2407"


def test_h2_3_a_knight_pushed_off_the_field_surrenders_and_its_captor_goes_to_camp():
    game = fight({"fieramosca": {"where": "2401"}, "de_sachet": {"where": "2400"},
                  "miale": {"where": "2010"}, "fontaines": {"where": "2003"}},
                 "fieramosca", "de_sachet", "2401")
    events = game.apply(melee([4, 4], [5, 6]))
    while game.state.combat is not None:
        events = game.apply(Action(CHANCE, "unhorse", {"knight": game.state.combat.tests[0],
                                                       "die": 1}))
    assert game.state.knights["de_sachet"].out == "captured"
    assert game.state.knights["fieramosca"].where == CAMP
    assert game.state.gone[FR] == ("de_sachet",)
    assert "KnightCaptured" in kinds(events)


def test_h3_1_unhorsed_when_die_plus_hits_and_wounds_exceed_the_vc():
    knights = {"fieramosca": {"where": "2407"}, "de_sachet": {"where": "2406"}}
    for die, unhorsed in ((2, False), (3, True)):
        game = fight(knights, "fieramosca", "de_sachet", "2407")
        game.apply(melee([4, 4], [5, 6]))  # Fieramosca 1 hit, de Sachet 2 hits and a D
        assert game.state.combat.tests == ("fieramosca", "de_sachet")
        game.apply(Action(CHANCE, "unhorse", {"knight": "fieramosca", "die": 1}))
        game.apply(Action(CHANCE, "unhorse", {"knight": "de_sachet", "die": die}))
        sachet = game.state.knights["de_sachet"]
        assert sachet.mounted is not unhorsed and sachet.hits == 2 + unhorsed  # 2 + 2 > 4


def test_h3_1_an_unhorsed_attacker_does_not_advance():
    game = fight({"de_sachet": {"where": "2406"}, "capoccio": {"where": "2407"}},
                 "de_sachet", "capoccio", "2406")
    # 1L for de Sachet: 12 reads -/2D; 1R for Capoccio: 6 reads 1/1
    game.apply(melee([6, 6], [3, 3]))
    game.apply(Action(CHANCE, "unhorse", {"knight": "de_sachet", "die": 4}))  # 4 + 1 > 4
    game.apply(Action(CHANCE, "unhorse", {"knight": "capoccio", "die": 1}))
    assert not game.state.knights["de_sachet"].mounted
    assert game.state.knights["capoccio"].where == "2408"  # 3 hits against 2: retreats
    assert game.state.knights["de_sachet"].where == "2406"  # unhorsed: no advance


def test_example_6_the_surrender_table_modifier_after_five_french():
    assert KIT.surrender_modifier(FR, 5) == 2
    gone = ("de_baraut", "de_forges", "de_pises", "de_frignes", "de_lambris")
    knights = {k: {"out": "captured", "where": ""} for k in gone}
    knights.update({"fieramosca": {"where": "2407"}, "de_sachet": {"where": "2406",
                                                                  "wounds": 1}})
    game = position(knights, gone={FR: gone, IT: ()})
    game.apply(move(IT, "fieramosca", "2407", attack="de_sachet"))
    game.apply(melee([2, 2], [6, 6]))  # one hit each: the wounded de Sachet tests
    while game.state.combat.step == "unhorse":
        game.apply(Action(CHANCE, "unhorse", {"knight": game.state.combat.tests[0], "die": 1}))
    assert game.state.combat.step == "surrender" and game.state.combat.tests == ("de_sachet",)
    events = game.apply(Action(CHANCE, "surrender", {"knight": "de_sachet", "die": 1}))
    tested = next(e for e in events if e.type == "SurrenderTested").data
    assert tested["modifier"] == 2 and not tested["surrendered"]  # never on a 1


def test_h4_1_above_the_vc_surrenders_and_h4_2_the_captor_goes_to_its_camp():
    game = fight({"fieramosca": {"where": "2407"}, "de_sachet": {"where": "2406", "wounds": 1},
                  "miale": {"where": "2010"}, "fontaines": {"where": "2003"}},
                 "fieramosca", "de_sachet", "2407")
    game.apply(melee([2, 2], [6, 6]))
    while game.state.combat.step == "unhorse":
        game.apply(Action(CHANCE, "unhorse", {"knight": game.state.combat.tests[0], "die": 1}))
    game.apply(Action(CHANCE, "surrender", {"knight": "de_sachet", "die": 4}))  # 4+1+0 > 4
    assert game.state.knights["de_sachet"].out == "captured"
    assert game.state.knights["fieramosca"].where == CAMP
    assert game.state.knights["fieramosca"].ordered


def test_h4_when_both_are_wounded_and_hit_only_the_more_hit_tests_and_a_tie_none():
    game = fight({"fieramosca": {"where": "2407", "wounds": 1},
                  "la_motte": {"where": "2406", "wounds": 1, "mounted": False},
                  "miale": {"where": "2010"}, "fontaines": {"where": "2003"}},
                 "fieramosca", "la_motte", "2407")
    # 7 - 6 + 1 mounted = 2R for Fieramosca: 5 reads 1/1; 2L for La Motte: 8 reads 1/-
    game.apply(melee([2, 3], [4, 4]))  # Fieramosca 1 hit, La Motte 2
    game.apply(Action(CHANCE, "unhorse", {"knight": "fieramosca", "die": 1}))
    assert game.state.combat is not None and game.state.combat.tests == ("la_motte",)
    tie = fight({"fieramosca": {"where": "2407", "wounds": 1},
                 "la_motte": {"where": "2406", "wounds": 1, "mounted": False},
                 "miale": {"where": "2010"}, "fontaines": {"where": "2003"}},
                "fieramosca", "la_motte", "2407")
    tie.apply(melee([2, 3], [4, 5]))  # 2L: 9 reads 1/1: two hits each
    tie.apply(Action(CHANCE, "unhorse", {"knight": "fieramosca", "die": 1}))
    assert tie.state.combat is None


def test_h5_death_when_wounds_reach_the_vc_and_the_killer_takes_the_hex():
    game = fight({"fieramosca": {"where": "2407"}, "de_sachet": {"where": "2406",
                                                                "wounds": 3, "hits": 3,
                                                                "mounted": False},
                  "miale": {"where": "2010"}, "fontaines": {"where": "2003"}},
                 "fieramosca", "de_sachet", "2407")
    events = game.apply(melee([4, 4], [1, 1]))
    while game.state.combat is not None:
        events = game.apply(Action(CHANCE, "unhorse", {"knight": game.state.combat.tests[0],
                                                       "die": 1}))
    assert game.state.knights["de_sachet"].out == "dead"
    assert game.state.knights["fieramosca"].where == "2406"
    assert "KnightKilled" in kinds(game.history[-1].events) or "KnightKilled" in kinds(events)


# --- I: the opening clash ----------------------------------------------------------------------

def test_i1_deployment_one_knight_then_two_at_a_time():
    game = Game(BarlettaRules(KIT), seed=1)
    game.apply(Action(CHANCE, "initiative", {IT: [6, 6], FR: [1, 1]}))
    order = []
    lines = {s: list(KIT.sides[s].melee_line) for s in (IT, FR)}
    while game.state.phase == "deploy":
        side = game.to_move()[0]
        order.append(side)
        knight = next(k.id for k in KIT.knights[side] if not game.state.knights[k.id].where)
        game.apply(Action(side, "deploy", {"knight": knight, "hex": lines[side].pop()}))
    assert order[:5] == [IT, FR, FR, IT, IT] and len(order) == 26
    assert order.count(IT) == order.count(FR) == 13 and game.state.phase == "charge"


def test_i1_a_knight_deploys_only_on_its_own_side_of_the_melee_line():
    game = Game(BarlettaRules(KIT), seed=1)
    game.apply(Action(CHANCE, "initiative", {IT: [6, 6], FR: [1, 1]}))
    assert refused(game, Action(IT, "deploy", {"knight": "miale", "hex": "2406"})) == "I1"
    game.apply(Action(IT, "deploy", {"knight": "miale", "hex": "2407"}))
    game.apply(Action(FR, "deploy", {"knight": "de_sachet", "hex": "2406"}))
    assert refused(game, Action(FR, "deploy", {"knight": "fontaines", "hex": "2406"})) == "G"


def test_example_7_miale_unhorses_de_sachet_in_the_charge_and_rides_to_2405():
    game = position({"miale": {"where": "2407"}, "de_sachet": {"where": "2406"}},
                    phase="charge", turn=0, active=IT)
    game.apply(Action(IT, "charge", {"knight": "miale"}))
    assert refused(game, melee([3, 4], [1, 1])) == "I2"  # only the attacker rolls
    events = game.apply(melee([3, 4]))
    rolled = events[0].data["rolls"][0]
    assert (rolled["column"], rolled["roll"], rolled["result"]) == ("2R", 7, "-/1")
    assert game.state.knights["de_sachet"].hits == 1
    events = game.apply(Action(CHANCE, "unhorse", {"knight": "de_sachet", "die": 4}))
    sachet = game.state.knights["de_sachet"]
    assert not sachet.mounted and sachet.hits == 2 and sachet.where == "2406"
    assert game.state.knights["miale"].where == "2405"
    assert "ChargeEnded" in kinds(events) and game.state.turn == 1


def test_i2_each_side_in_turn_charges_with_a_knight_that_has_not_fought():
    game = position({"miale": {"where": "2407"}, "de_sachet": {"where": "2406"},
                     "riccio": {"where": "2007"}, "fontaines": {"where": "2006"}},
                    phase="charge", turn=0, active=IT)
    game.apply(Action(IT, "charge", {"knight": "miale"}))
    game.apply(melee([1, 1]))
    while game.state.combat is not None:
        game.apply(Action(CHANCE, "unhorse", {"knight": game.state.combat.tests[0], "die": 1}))
    assert game.to_move() == (FR,)
    assert refused(game, Action(FR, "charge", {"knight": "de_sachet"})) == "I2"
    game.apply(Action(FR, "charge", {"knight": "fontaines"}))


# --- L: victory --------------------------------------------------------------------------------

def test_l1_twice_the_vc_of_each_captured_knight_the_vc_of_each_killed_one():
    from companion.games.barletta.rules.victory import points
    state = position({"fieramosca": {"where": "2407"},
                      "de_sachet": {"out": "captured"}, "la_motte": {"out": "dead"},
                      "miale": {"out": "dead"}},
                     gone={FR: ("de_sachet", "la_motte"), IT: ("miale",)}).state
    assert points(KIT, state, IT) == 2 * 4 + 6 and points(KIT, state, FR) == 6


def test_l1_after_the_fifth_turn_the_higher_points_win():
    game = end_of_turn({"fieramosca": {"where": "2410", "ordered": True},
                        "de_sachet": {"out": "captured", "where": ""}})
    game = Game.from_state(game.rules, replace(game.state, gone=frozen({IT: (), FR: (
        "de_sachet",)})), seed=1)
    state = game.state
    assert state.turn == 2
    last = end_of_turn({"fieramosca": {"where": "2410", "ordered": True},
                        "de_sachet": {"out": "captured", "where": ""}})
    last = Game.from_state(last.rules, replace(last.state, turn=5), seed=1)
    assert last.state.outcome is None
    final = position({"fieramosca": {"where": "2410", "ordered": True},
                      "la_motte": {"where": "2403", "ordered": True},
                      "de_sachet": {"out": "captured", "where": ""}},
                     turn=5, active=FR, order_points={IT: 0, FR: 0}, passes={IT: 0, FR: 1},
                     gone={IT: (), FR: ("de_sachet",)})
    final.apply(Action(FR, "pass"))
    assert final.outcome.winner == IT and final.outcome.rule == "L1"


def test_l2_a_side_with_no_knight_on_the_field_loses_at_once_the_camp_not_counting():
    game = fight({"fieramosca": {"where": "2401"}, "de_sachet": {"where": "2400"},
                  "miale": {"where": "2010"}},
                 "fieramosca", "de_sachet", "2401")
    game.apply(melee([4, 4], [5, 6]))
    while game.state.combat is not None and game.outcome is None:
        game.apply(Action(CHANCE, "unhorse", {"knight": game.state.combat.tests[0], "die": 1}))
    # de Sachet captured: the French have only knights in their camp left
    assert game.outcome.winner == IT and game.outcome.rule == "L2"


# --- M: optional rules -------------------------------------------------------------------------

def test_m1_grajano_takes_a_wound_instead_of_surrendering():
    knights = {"fieramosca": {"where": "2407"}, "d_aste": {"where": "2406", "wounds": 1},
               "miale": {"where": "2010"}, "fontaines": {"where": "2003"}}
    for grajano, captured in ((True, False), (False, True)):
        game = fight(knights, "fieramosca", "d_aste", "2407", {"grajano": grajano})
        game.apply(melee([2, 3], [6, 6]))
        while game.state.combat.step == "unhorse":
            game.apply(Action(CHANCE, "unhorse", {"knight": game.state.combat.tests[0],
                                                  "die": 1}))
        game.apply(Action(CHANCE, "surrender", {"knight": "d_aste", "die": 6}))
        assert (game.state.knights["d_aste"].out == "captured") is captured
        if grajano:
            assert game.state.knights["d_aste"].wounds == 2


def test_h5_and_h2_4_a_killer_after_a_retreat_moves_once():
    """H2.1, M1, H5, H2.4: d'Aste retreats, then fails his surrender test and dies of the
    wound M1 gives instead: Fieramosca moves once, into the hex attacked (H2.4), not to the
    retreat hex (H5) and back."""
    vc = KIT.vc("d_aste")
    knights = {"fieramosca": {"where": "2407"},
               "d_aste": {"where": "2406", "wounds": vc - 1, "mounted": False},
               "miale": {"where": "2010"}, "fontaines": {"where": "2003"}}
    game = fight(knights, "fieramosca", "d_aste", "2407", {"grajano": True})
    events = game.apply(melee([1, 2], [1, 5]))
    assert "KnightRetreated" in kinds(events) and game.state.combat.step == "surrender"
    events = game.apply(Action(CHANCE, "surrender", {"knight": "d_aste", "die": 6}))
    killed = next(e for e in events if e.type == "KnightKilled")
    assert killed.data["to"] == ""  # H5 moves nobody: the advance follows
    moves = [e for e in events if e.type in ("KnightAdvanced", "KnightMoved")]
    assert [(e.type, e.data["to"]) for e in moves] == [("KnightAdvanced", "2406")]
    assert game.state.knights["fieramosca"].where == "2406"
    assert game.state.knights["d_aste"].out == "dead"


def test_m2_an_italian_dismounts_to_fight_a_knight_on_foot():
    knights = {"fieramosca": {"where": "2407"}, "la_motte": {"where": "2406",
                                                            "mounted": False}}
    game = fight(knights, "fieramosca", "la_motte", "2407", {"italian_courtesy": True})
    assert not game.state.knights["fieramosca"].mounted
    assert column_shift(batch(game), "fieramosca", "la_motte", attacking=True) == 1
    plain = fight(knights, "fieramosca", "la_motte", "2407")
    assert plain.state.knights["fieramosca"].mounted
