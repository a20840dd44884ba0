"""Shogun's rules, section by section (shared/seeds/shogun-rules-it.txt; the project's numbers
for its sections are in docs/shogun.md), for 3, 4 and 5 players, on the example kit."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, cast

import pytest

from companion.engine import CHANCE, PUBLIC, REFEREE, Action, Game, IllegalAction, pick_action
from companion.engine.core import chance_rng
from companion.games.shogun.kit import ShogunKit
from companion.games.shogun.rules import ShogunRules, waiting
from companion.games.shogun.rules.state import FARMERS, ShogunState, frozen
from companion.kits import load_kit

KIT = cast(ShogunKit, load_kit("shogun"))


def rules(players: int = 4, side: str = "sun") -> ShogunRules:
    return ShogunRules(KIT, {"players": players, "side": side})


def play_until(game: Game[Any], done: Any, limit: int = 3000) -> Game[Any]:
    """Random play (as the simulator plays) until `done(state)`."""
    while not done(game.state) and game.outcome is None and len(game.history) < limit:
        roles = game.to_move()
        if CHANCE in roles:
            game.play_chance()
        else:
            action = pick_action(game, roles, chance_rng(game.seed, -1 - len(game.history)))
            assert action is not None
            game.apply(action)
    assert done(game.state), "never reached"
    return game


def at(players: int, phase: str, seed: int = 1) -> Game[Any]:
    return play_until(Game(rules(players), seed=seed), lambda s: s.phase == phase)


# --- 2: set-up ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "chests", "groups", "deck"),
                         [(3, 18, 9, 37), (4, 15, 8, 45), (5, 12, 7, 45)])
def test_2_set_up_by_player_count(players: int, chests: int, groups: int, deck: int) -> None:
    """2, 2.1: the side's cards, without the 8 marked provinces with 3 players; 62 armies;
    18/15/12 chests; 9, 8 or 7 groups on the individual board."""
    state = rules(players).initial_state()
    assert len(state.deck) == deck
    marked = {p.id for p in KIT.sides["sun"].provinces if p.unused_with_3}
    assert (not state.deck & marked) == (players == 3)
    for p in state.players:
        assert state.chests[p] == chests and len(state.groups[p]) == groups
        assert state.reserve[p] + sum(state.groups[p]) == 62
    assert state.farmers == 20 and len(state.events_deck) == 12


def test_2_the_moon_side_has_its_own_cards() -> None:
    """2: only the province cards with the chosen side's symbol."""
    sun, moon = rules(4, "sun").initial_state(), rules(4, "moon").initial_state()
    assert len(sun.deck) == len(moon.deck) == 45 and sun.deck != moon.deck
    assert all("moon" in KIT.card[c].sides for c in moon.deck)


def test_2_2_claiming_starting_provinces() -> None:
    """2.2: a face-up card (replaced from the deck) or the top of the deck, a group moved to
    its province, in turn from the first player, until every group is placed."""
    game = Game(rules(3), seed=4)
    game.apply(Action(CHANCE, "deal", {"cards": ["kita_2", "kita_3"]}))
    assert waiting(game.state) == {"red": ("claim", "draw")}
    with pytest.raises(IllegalAction, match="not face up"):
        game.apply(Action("red", "claim", {"card": "kita_4", "group": 5}))
    with pytest.raises(IllegalAction, match="no group of 6"):
        game.apply(Action("red", "claim", {"card": "kita_2", "group": 6}))
    game.apply(Action("red", "claim", {"card": "kita_2", "group": 5}))
    assert game.state.owner["kita_2"] == "red" and game.state.armies["kita_2"] == 5
    assert game.state.groups["red"] == (4, 4, 3, 3, 3, 2, 2, 2)
    assert waiting(game.state) == {CHANCE: ("reveal",)}  # the face-up card is replaced
    game.apply(Action(CHANCE, "reveal", {"card": "kita_5"}))
    assert game.state.face_up == ("kita_3", "kita_5")
    game.apply(Action("blue", "draw", {}))  # blue draws the top card of the deck
    game.apply(Action(CHANCE, "drawn", {"card": "naka_2"}))
    game.apply(Action("blue", "place", {"group": 2}))
    assert game.state.owner["naka_2"] == "blue" and game.state.armies["naka_2"] == 2
    assert waiting(game.state) == {"yellow": ("claim", "draw")}


def test_2_2_with_3_players_no_army_enters_a_marked_province() -> None:
    """2: with 3 players the marked provinces are out of play: never drawn, never a target."""
    game = at(3, "over")
    marked = {p.id for p in KIT.sides["sun"].provinces if p.unused_with_3}
    for ply in game.history:
        for e in ply.events:
            assert e.data.get("province") not in marked and e.data.get("to") not in marked


@pytest.mark.parametrize("players", [3, 4, 5])
def test_2_3_the_tower_is_loaded_and_the_tray_goes_back(players: int) -> None:
    """2.2-2.3: the remaining cards are neutral; 7 armies each and 10 farmers are thrown in;
    what falls into the tray goes back to its supply."""
    game = at(players, "load")
    state = game.state
    assert state.pending is not None and state.pending["kind"] == "load"
    assert dict(state.pending["thrown"]) == {**dict.fromkeys(state.players, 7), FARMERS: 10}
    tray = {"red": 3, FARMERS: 4}
    game.apply(Action(CHANCE, "tray", {"tray": tray}))
    after = game.state
    assert not after.tray and after.tower["red"] == 4 and after.tower[FARMERS] == 6
    assert after.farmers == 20 - 6 and after.reserve["red"] == state.reserve["red"] + 3
    assert not after.deck and not after.face_up and waiting(after) == {CHANCE: ("events",)}


def test_6_an_impossible_tray_reading_is_refused() -> None:
    """6: the tray shows no more cubes of a colour than went in (the tower's capacity is the
    simulation's, never a refusal: tests/test_shogun_choices.py)."""
    game = at(4, "load")
    with pytest.raises(IllegalAction, match="cannot hold 8 red"):
        game.apply(Action(CHANCE, "tray", {"tray": {"red": 8}}))
    with pytest.raises(IllegalAction, match="not a number"):
        game.apply(Action(CHANCE, "tray", {"tray": {"red": -1}}))
    game.apply(Action(CHANCE, "tray", {"tray": {"red": 7, "blue": 0}}))


# --- 3: the action rounds ----------------------------------------------------------------------

def test_3_3_plans_and_bids_are_secret() -> None:
    """3.3: a plan and a bid are seen by their player and the referee only, and said to
    others as a secret plan; the public screen shows only who has planned."""
    game = at(4, "plan")
    r = cast(ShogunRules, game.rules)
    plan = r.random_action(game.state, "red", random.Random(1))
    assert plan is not None
    game.apply(plan)
    for role in ("blue", "yellow", PUBLIC):
        view = game.view(role)
        assert view["planned"] == ["red"] and view["plans"] == {} and view["bids"] == {}
    assert game.view("red")["plans"]["red"] == dict(plan.args["spaces"])
    assert game.view(REFEREE)["bids"]["red"] == plan.args["bid"]
    said = r.say(game.state, plan, "blue")
    assert said == "Red makes a secret plan and bid"
    assert "Rosso pianifica in segreto" in r.say(game.state, plan, "blue", "it")
    assert "bid" in r.say(game.state, plan, "red")


def test_3_3_a_plan_uses_each_card_once_and_fills_what_it_can() -> None:
    """3.3: each card on one space at most, as many of the 11 spaces filled as the cards
    allow, a war-chest bid no higher than the player's chests."""
    game = at(4, "plan")
    state = game.state
    mine = state.provinces_of("red")
    chests = ["chest_0", "chest_1", "chest_2", "chest_3", "chest_4"]
    cards = mine + chests
    actions = ["castle", "temple", "theatre", "rice", "taxes", "deploy_5", "deploy_3",
               "deploy_1", "battle_a", "battle_b"]
    spaces = dict(zip(actions, cards, strict=False))
    rest = cards[len(spaces):]
    good = Action("red", "plan", {"spaces": spaces, "bid": rest[0]})
    game.rules.decide(state, good)
    twice = Action("red", "plan", {"spaces": {**spaces, "castle": spaces["temple"]},
                                   "bid": rest[0]})
    with pytest.raises(IllegalAction, match="two spaces"):
        game.rules.decide(state, twice)
    short = Action("red", "plan", {"spaces": dict(list(spaces.items())[:9]), "bid": rest[0]})
    with pytest.raises(IllegalAction, match="of the 11 spaces"):
        game.rules.decide(state, short)
    other = next(p for p in state.owner if state.owner[p] != "red")
    with pytest.raises(IllegalAction, match="not one of your cards") as refused:
        game.rules.decide(state, Action("red", "plan", {"spaces": {**spaces, "castle": other},
                                                        "bid": rest[0]}))
    # named as printed on the card, never by its id (issue 32: "kita_1 is not one of ...")
    name = KIT.provinces(state.side)[other].name
    assert str(refused.value.message).startswith(f"{name} is not") and other not in str(
        refused.value.message)
    poor = replace(state, chests=frozen({**state.chests, "red": 1}))
    spaces4 = {k: v for k, v in spaces.items()}
    bid = "chest_4" if "chest_4" not in spaces4.values() else None
    if bid:
        with pytest.raises(IllegalAction, match="more than you have"):
            game.rules.decide(poor, Action("red", "plan", {"spaces": spaces4, "bid": bid}))


def test_3_5_bids_order_and_ties_by_daimyo_cards() -> None:
    """3.5: the highest chest bid first, then province cards, then 0 chests, then no bid;
    bids paid (a province pays nothing); equal bids ordered by drawing daimyo cards; the
    special card's space is the turn order."""
    game = at(4, "event")
    state = game.state
    prov = state.provinces_of("yellow")[0]
    bids = {"red": "chest_3", "blue": prov and state.provinces_of("blue")[0],
            "yellow": "chest_0", "purple": "chest_3"}
    state = replace(state, bids=frozen(bids), chests=frozen(dict.fromkeys(state.players, 9)))
    g = Game.from_state(game.rules, state, seed=1)
    g.apply(Action(CHANCE, "event", {"card": state.events_up[0]}))
    s = g.state
    assert s.bids_shown and s.chests["red"] == 6 and s.chests["purple"] == 6
    assert s.chests["blue"] == 9 and s.chests["yellow"] == 9
    assert s.ties == (("red", "purple"),) and waiting(s) == {CHANCE: ("daimyo",)}
    g.apply(Action(CHANCE, "daimyo", {"order": ["purple", "red"]}))
    assert g.state.choosing == ("purple", "red", "blue", "yellow")
    specials = g.state.specials
    g.apply(Action("purple", "take", {"card": specials[2]}))
    with pytest.raises(IllegalAction, match="already taken"):
        g.apply(Action("red", "take", {"card": specials[2]}))
    g.apply(Action("red", "take", {"card": specials[4]}))
    g.apply(Action("blue", "take", {"card": specials[0]}))
    g.apply(Action("yellow", "take", {"card": specials[1]}))
    assert g.state.order == ("blue", "yellow", "purple", "red")


def test_3_5_players_without_a_bid_choose_last() -> None:
    game = at(4, "event")
    state = replace(game.state, bids=frozen({"red": "chest_0", "blue": "chest_1"}))
    g = Game.from_state(game.rules, state, seed=1)
    g.apply(Action(CHANCE, "event", {"card": state.events_up[0]}))
    assert g.state.choosing[:2] == ("blue", "red")
    assert set(g.state.choosing[2:]) == {"yellow", "purple"} and g.state.ties


# --- 3.6 and 4: the actions ------------------------------------------------------------------

def acting(players: int = 4, seed: int = 2) -> Game[Any]:
    """A game at the start of the actions, every card laid out (nothing carried out yet)."""
    return at(players, "actions", seed)


def run_action(game: Game[Any], action: str, player: str, card: str,
               **changes: Any) -> tuple[ShogunState, list[str]]:
    """`player` carries out `action` on `card` alone (the other players hold chest cards)."""
    state = game.state
    plans = {p: frozen({}) for p in state.players}
    plans[player] = frozen({action: card})
    row = (action, *[a for a in ("castle", "temple", "theatre", "rice", "taxes", "deploy_5",
                                  "deploy_3", "deploy_1", "battle_a", "battle_b")
                       if a != action][:4])
    state = replace(state, plans=frozen(plans), row=row, step=0, turn=0, pending=None,
                    order=(player, *[p for p in state.players if p != player]), **changes)
    return _first_action(Game.from_state(game.rules, state, seed=1))


def _first_action(g: Game[Any]) -> tuple[ShogunState, list[str]]:
    """Carry out the first action card for the first player (as `advance` does)."""
    from companion.games.shogun.rules.actions import start_action
    from companion.games.shogun.rules.context import Batch

    b = Batch(g.rules.kit, g.state)
    start_action(b, g.state.order[0], g.state.row[0])
    return b.state, [e.type for e in b.events]


def own(game: Game[Any], player: str) -> str:
    return str(game.state.provinces_of(player)[0])


@pytest.mark.parametrize(("kind", "cost"), [("castle", 3), ("temple", 2), ("theatre", 1)])
def test_4_1_buildings_cost_and_take_a_free_space(kind: str, cost: int) -> None:
    """4.1: castle 3 chests, temple 2, Nô theatre 1; on a free building space; one of each
    kind per province; a player who cannot pay skips (3.6)."""
    game = acting()
    p = own(game, "red")
    state, evs = run_action(game, kind, "red", p, event=None)
    assert "BuildingBuilt" in evs and state.buildings[p] == (kind,)
    assert state.chests["red"] == game.state.chests["red"] - cost
    _, evs = run_action(game, kind, "red", p, event=None,
                        buildings=frozen({p: (kind,)}), built=frozen({kind: 1}))
    assert "BuildingBuilt" not in evs and "ActionSkipped" in evs
    _, evs = run_action(game, kind, "red", p, event=None,
                        chests=frozen({**game.state.chests, "red": cost - 1}))
    assert "ActionSkipped" in evs
    spaces = KIT.provinces("sun")[p].spaces
    full = tuple(k for k in ("castle", "temple", "theatre") if k != kind)[:spaces]
    if len(full) >= spaces:
        _, evs = run_action(game, kind, "red", p, event=None, buildings=frozen({p: full}))
        assert "ActionSkipped" in evs


@pytest.mark.parametrize("what", ["rice", "taxes"])
def test_4_2_rice_and_taxes_place_a_marker_and_a_marker_means_revolt(what: str) -> None:
    """4.2: the province card's value (the +1 special card adds one); a revolt marker placed;
    with a marker already there, a revolt through the tower (6.1: a farmer per marker)."""
    game = acting()
    p = own(game, "red")
    card = KIT.card[p]
    state, evs = run_action(game, what, "red", p, event=None, markers=frozen())
    value = card.rice if what == "rice" else card.taxes
    if what == "rice":
        assert state.rice["red"] == game.state.rice["red"] + value
    else:
        assert state.chests["red"] == game.state.chests["red"] + value
    assert state.markers[p] == 1
    state, evs = run_action(game, what, "red", p, event=None, markers=frozen({p: 2}))
    assert evs[-1] == "CubesThrown" and state.pending is not None
    assert state.pending["kind"] == "revolt"
    assert dict(state.pending["thrown"]) == {"red": game.state.armies[p], FARMERS: 2}


def test_4_2_a_revolt_put_down_pays_and_adds_a_marker_a_lost_one_empties_the_province() -> None:
    game = acting()
    p = own(game, "red")
    state, _ = run_action(game, "taxes", "red", p, event=None, markers=frozen({p: 1}),
                          tray=frozen(), tower=frozen())
    g = Game.from_state(game.rules, state, seed=1)
    armies = game.state.armies[p]
    g.apply(Action(CHANCE, "tray", {"tray": {"red": armies, FARMERS: 1}}))
    s = g.state
    assert s.owner[p] == "red" and s.armies.get(p, 0) == armies - 1 and s.markers[p] == 2
    assert s.chests["red"] == game.state.chests["red"] + KIT.card[p].taxes
    g = Game.from_state(game.rules, state, seed=1)
    g.apply(Action(CHANCE, "tray", {"tray": {FARMERS: 1}}))
    s = g.state
    assert p not in s.owner and p not in s.armies and p not in s.markers
    assert s.chests["red"] == game.state.chests["red"]


@pytest.mark.parametrize(("action", "armies", "cost"),
                         [("deploy_5", 5, 3), ("deploy_3", 3, 2), ("deploy_1", 1, 1)])
def test_4_3_deploying_and_a_partial_action_is_skipped(action: str, armies: int, cost: int) -> None:
    """4.3: 5 armies for 3 chests, 3 for 2, 1 for 1; too few armies in the supply: skipped
    entirely (3.6)."""
    game = acting()
    p = own(game, "red")
    state, evs = run_action(game, action, "red", p, event=None)
    assert state.armies[p] == game.state.armies[p] + armies
    assert state.chests["red"] == game.state.chests["red"] - cost
    _, evs = run_action(game, action, "red", p, event=None,
                        reserve=frozen({**game.state.reserve, "red": armies - 1}))
    assert "ArmiesDeployed" not in evs and "ActionSkipped" in evs


def test_4_3_six_armies_with_the_special_card() -> None:
    """3.2: the holder deploys 6 with deploy 5 (the default of its choice of 6 or 5)."""
    game = acting()
    p = own(game, "red")
    space = game.state.specials.index("six_armies")
    state, _ = run_action(game, "deploy_5", "red", p, event=None,
                          taken=frozen({"red": space}))
    g = Game.from_state(game.rules, state, seed=1)
    g.apply(g.legal_actions("red")[0])
    assert g.state.armies[p] == game.state.armies[p] + 6


def test_4_3_deploy_1_then_move_to_an_own_neighbour_without_battle() -> None:
    game = acting()
    state = game.state
    p, q = _own_pair(game, "red")
    state = replace(state, owner=frozen({**state.owner, q: "red"}),
                    armies=frozen({**state.armies, p: 3, q: 1}))
    g = Game.from_state(game.rules, state, seed=1)
    s, evs = run_action(g, "deploy_1", "red", p, event=None)
    assert evs[-1] == "ChoiceAwaited" and s.pending is not None
    assert s.pending["kind"] == "move"
    g2 = Game.from_state(g.rules, s, seed=1)
    with pytest.raises(IllegalAction, match="at least one stays"):
        g2.apply(Action("red", "move", {"to": q, "armies": 4}))
    g2.apply(Action("red", "move", {"to": q, "armies": 3}))
    assert g2.state.armies[p] == 1 and g2.state.armies[q] == 4


def _own_pair(game: Game[Any], player: str) -> tuple[str, str]:
    """A province of the player and a neighbour in play of it (any owner)."""
    p = own(game, player)
    q = next(n for n in KIT.neighbours("sun", p) if not KIT.provinces("sun")[n].unused_with_3)
    return p, q


def battle_state(game: Game[Any], defender: str | None, defending: int, markers: int = 0
                 ) -> tuple[Game[Any], str, str]:
    """Red attacks from p (6 armies) into q held by `defender` (None: neutral)."""
    p, q = _own_pair(game, "red")
    state = game.state
    owner = {k: v for k, v in state.owner.items() if k != q}
    armies = {k: v for k, v in state.armies.items() if k != q}
    if defender:
        owner[q] = defender
        armies[q] = defending
    owner[p] = "red"
    armies[p] = 6
    state = replace(state, owner=frozen(owner), armies=frozen(armies),
                    markers=frozen({q: markers} if markers else {}), tray=frozen(),
                    tower=frozen(), taken=frozen(), event=None)
    g = Game.from_state(game.rules, state, seed=1)
    s, _ = run_action(g, "battle_a", "red", p)
    assert s.pending is not None and s.pending["kind"] == "attack"
    return Game.from_state(g.rules, s, seed=1), p, q


def test_4_4_a_battle_against_a_neutral_province_throws_one_farmer() -> None:
    """4.4 and 6.1: the moved armies, 1 farmer for a neutral province, and the tray's cubes;
    at least one army stays behind."""
    g, p, q = battle_state(acting(), None, 0)
    with pytest.raises(IllegalAction, match="at least one stays"):
        g.apply(Action("red", "attack", {"to": q, "armies": 6}))
    g.apply(Action("red", "attack", {"to": q, "armies": 4}))
    assert dict(g.state.pending["thrown"]) == {"red": 4, FARMERS: 1}
    assert g.state.armies[p] == 2
    g.apply(Action(CHANCE, "tray", {"tray": {"red": 3, FARMERS: 1}}))
    s = g.state
    assert s.owner[q] == "red" and s.armies[q] == 2 and not s.tray  # 3 less the 1 farmer


def test_6_2_the_defender_wins_losing_farmers_first() -> None:
    """6.2: farmers in the tray count for the defender when the province has no revolt
    marker; the winner loses as many as the loser had (farmers first), the rest return."""
    g, _, q = battle_state(acting(), "blue", 2)
    g = Game.from_state(g.rules, replace(g.state, tower=frozen({"yellow": 1})), seed=1)
    g.apply(Action("red", "attack", {"to": q, "armies": 3}))
    assert dict(g.state.pending["thrown"]) == {"red": 3, "blue": 2}
    g.apply(Action(CHANCE, "tray", {"tray": {"red": 2, "blue": 1, "yellow": 1}}))
    s = g.state  # no farmers went in: red 2 against blue 1, red wins, loses 1
    assert s.owner[q] == "red" and s.armies[q] == 1 and dict(s.tray) == {"yellow": 1}
    g, _, q = battle_state(acting(), "blue", 2)
    state = replace(g.state, tower=frozen({FARMERS: 3}))
    g = Game.from_state(g.rules, state, seed=1)
    g.apply(Action("red", "attack", {"to": q, "armies": 3}))
    g.apply(Action(CHANCE, "tray", {"tray": {"red": 2, "blue": 1, FARMERS: 2}}))
    s = g.state  # blue 1 + 2 farmers beat red 2: blue loses 2, farmers first
    assert s.owner[q] == "blue" and s.armies[q] == 1 and not s.tray
    assert s.farmers == state.farmers + 2


def test_6_2_farmers_do_not_count_with_a_revolt_marker_and_stay_in_the_tray() -> None:
    g, _, q = battle_state(acting(), "blue", 1, markers=1)
    g = Game.from_state(g.rules, replace(g.state, tower=frozen({FARMERS: 2})), seed=1)
    g.apply(Action("red", "attack", {"to": q, "armies": 2}))
    g.apply(Action(CHANCE, "tray", {"tray": {"red": 1, FARMERS: 2}}))
    s = g.state
    assert s.owner[q] == "red" and s.armies[q] == 1 and dict(s.tray) == {FARMERS: 2}
    assert s.markers[q] == 1


def test_6_2_a_tie_removes_armies_buildings_markers_and_the_card() -> None:
    g, _, q = battle_state(acting(), "blue", 2, markers=1)
    state = replace(g.state, buildings=frozen({q: ("temple",)}), built=frozen({"temple": 1}))
    g = Game.from_state(g.rules, state, seed=1)
    g.apply(Action("red", "attack", {"to": q, "armies": 3}))
    g.apply(Action(CHANCE, "tray", {"tray": {"red": 1, "blue": 1}}))
    s = g.state
    assert q not in s.owner and q not in s.armies and q not in s.buildings
    assert q not in s.markers and not s.tray


def test_4_4_the_attack_and_defence_special_cards_add_an_army() -> None:
    game = acting()
    specials = game.state.specials
    g, _, q = battle_state(game, "blue", 2)
    state = replace(g.state, taken=frozen({"red": specials.index("attack"),
                                           "blue": specials.index("defence")}))
    g = Game.from_state(g.rules, state, seed=1)
    g.apply(Action("red", "attack", {"to": q, "armies": 2}))
    g.apply(Action("blue", "defend", {"extra": True}))  # 3.2: the defender's choice
    assert dict(g.state.pending["thrown"]) == {"red": 3, "blue": 3}


def test_4_4_moving_into_an_own_province_is_no_battle() -> None:
    g, _, q = battle_state(acting(), "red", 1)
    g.apply(Action("red", "attack", {"to": q, "armies": 2}))
    assert g.state.armies[q] == 3 and g.state.pending is None


# --- 5 and 7: winter and the end ----------------------------------------------------------------

def test_5_1_winter_rice_loss_is_the_event_card_left() -> None:
    """5.1: the event card left face up says the rice each player loses (never below 0);
    the players short of one rice per province face revolts, in turn order."""
    game = at(4, "revolts", seed=3)
    ply = next(p for p in reversed(game.history) if any(e.type == "RiceLost" for e in p.events))
    lost = next(e for e in ply.events if e.type == "RiceLost")
    ended = next(e for e in ply.events if e.type == "RoundEnded")
    assert ended.data["season"] == 2 and lost.data["card"] == game.state.events_up[0]
    assert lost.data["rice"] == KIT.event[lost.data["card"]].rice_loss
    state = game.state
    assert all(n >= 0 for n in state.rice.values())
    assert list(state.winter_queue) == [p for p in state.order if p in state.winter_queue]
    for p in state.winter_queue:
        assert len(state.provinces_of(p)) > state.rice[p]


def test_5_3_scoring_majorities_and_ties() -> None:
    """5.3: 1 per province, 1 per building; majorities per region 3/2/1, tied players each
    the value less 1."""
    from companion.games.shogun.rules.context import Batch
    from companion.games.shogun.rules.winter import scores

    game = acting()
    kita = [p.id for p in KIT.sides["sun"].provinces if p.region == "kita"][:4]
    owner = {kita[0]: "red", kita[1]: "red", kita[2]: "blue", kita[3]: "yellow"}
    buildings = {kita[0]: ("castle", "temple"), kita[1]: ("castle",), kita[2]: ("castle",
                                                                                 "temple"),
                 kita[3]: ("theatre",)}
    state = replace(game.state, owner=frozen(owner), buildings=frozen(buildings))
    found = scores(Batch(KIT, state))
    assert found["red"] == {"provinces": 2, "buildings": 3, "majorities": 3 + 1, "total": 9}
    assert found["blue"] == {"provinces": 1, "buildings": 2, "majorities": 1, "total": 4}
    assert found["yellow"]["majorities"] == 1 and found["purple"]["total"] == 0


def test_5_2_winter_revolts_are_drawn_then_ordered_by_the_player() -> None:
    game = at(4, "revolts", seed=3)
    state = game.state
    player = state.provinces_of("red")
    state = replace(state, winter_queue=("red",), rice=frozen(dict.fromkeys(state.players, 0)),
                    revolts=frozen(), pending=None)
    g = Game.from_state(game.rules, state, seed=1)
    due = min(len(player), max(r.revolts for r in KIT.components.supply
                               if r.shortfall <= len(player)))
    with pytest.raises(IllegalAction, match="province cards are drawn"):
        g.apply(Action(CHANCE, "revolts", {"player": "red", "provinces": player[:due + 1]}))
    g.apply(Action(CHANCE, "revolts", {"player": "red", "provinces": player[:due]}))
    if due > 1:
        assert waiting(g.state) == {"red": ("revolt",)}
        g.apply(Action("red", "revolt", {"province": player[1]}))
    assert g.state.pending["kind"] == "revolt"
    row = KIT.supply_row(len(player))
    assert row is not None
    assert g.state.pending["thrown"].get(FARMERS, 0) == min(
        state.farmers, state.markers.get(player[1 if due > 1 else 0], 0) + row.farmers)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_7_the_game_ends_after_the_second_winter(players: int) -> None:
    """7 and 5.3: two years; the second year starts with 4 new events, rice at 0 and no
    revolt markers; most victory points win, ties by chests."""
    game = at(players, "over", seed=players)
    years = [e for ply in game.history for e in ply.events if e.type == "Scored"]
    assert [e.data["year"] for e in years] == [1, 2]
    turned = [e for ply in game.history for e in ply.events if e.type == "EventCardsTurned"]
    assert len(turned) == 2 and not set(turned[0].data["cards"]) & set(turned[1].data["cards"])
    ended = next(i for i, ply in enumerate(game.history)
                 if any(e.type == "YearEnded" for e in ply.events))
    replayed = Game(rules(players), seed=players)
    replayed.replay([ply.action for ply in game.history[:ended + 1]])
    assert not replayed.state.markers and set(replayed.state.rice.values()) == {0}
    s = game.state
    best = max((s.vp[p], s.chests[p]) for p in s.players)
    assert game.outcome is not None
    if game.outcome.winner:
        assert (s.vp[game.outcome.winner], s.chests[game.outcome.winner]) == best


# --- the transcribed event cards (data/events.yaml; docs/shogun.md, "The event cards") ---------


@pytest.mark.parametrize(("event", "what", "printed", "gets"),
                         [("event_7", "taxes", 7, 5), ("event_8", "taxes", 3, 6),
                          ("event_10", "rice", 1, 4), ("event_11", "rice", 5, 3)])
def test_events_bound_what_rice_and_taxes_give_the_special_card_adds_after(
        event: str, what: str, printed: int, gets: int) -> None:
    """Events 7 and 8 (taxes at most 5, at least 6), 10 and 11 (rice at least 4, at most 3);
    the +1 special card (3.2) is added to the bounded value: the rulebook grants it always."""
    game = acting()
    p = own(game, "red")
    cards = tuple(c.model_copy(update={what: printed}) if c.id == p else c for c in KIT.cards)
    kit = ShogunKit(**{**{f: getattr(KIT, f) for f in ShogunKit.model_fields}, "cards": cards})
    assert getattr(kit.card[p], what) == printed
    g = Game.from_state(ShogunRules(kit, {"players": 4, "side": "sun"}), game.state, seed=1)
    before = game.state.chests["red"] if what == "taxes" else game.state.rice["red"]
    state, _ = run_action(g, what, "red", p, event=event, markers=frozen())
    after = state.chests["red"] if what == "taxes" else state.rice["red"]
    assert after - before == gets
    bonus = "chest" if what == "taxes" else "rice"
    taken = frozen({"red": game.state.specials.index(bonus)})
    state, _ = run_action(g, what, "red", p, event=event, markers=frozen(), taken=taken)
    after = state.chests["red"] if what == "taxes" else state.rice["red"]
    assert after - before == gets + 1


@pytest.mark.parametrize("event", ["event_6", "event_9"])
def test_events_6_and_9_a_temple_guards_against_a_revolt_at_rice_or_taxes(event: str) -> None:
    game = acting()
    p = own(game, "red")
    guarded, evs = run_action(game, "taxes", "red", p, event=event, markers=frozen({p: 1}),
                              buildings=frozen({p: ("temple",)}))
    assert "CubesThrown" not in evs and guarded.markers[p] == 2
    _, evs = run_action(game, "taxes", "red", p, event=event, markers=frozen({p: 1}))
    assert evs[-1] == "CubesThrown"  # no temple: the revolt as usual (4.2)


@pytest.mark.parametrize("event", ["event_4", "event_5"])
def test_events_4_and_5_a_defender_with_a_castle_throws_one_army_more(event: str) -> None:
    g, _, q = battle_state(acting(), "blue", 2)
    for castle, blue in ((("castle",), 3), ((), 2)):
        state = replace(g.state, event=event, buildings=frozen({q: castle} if castle else {}))
        h = Game.from_state(g.rules, state, seed=1)
        h.apply(Action("red", "attack", {"to": q, "armies": 2}))
        assert dict(h.state.pending["thrown"]) == {"red": 2, "blue": blue}


def test_event_12_deploys_3_and_2_armies() -> None:
    game = acting()
    p = own(game, "red")
    for action, armies in (("deploy_5", 3), ("deploy_3", 2)):
        state, _ = run_action(game, action, "red", p, event="event_12", taken=frozen())
        assert state.armies[p] == game.state.armies[p] + armies
