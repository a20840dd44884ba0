"""Confirm by not objecting (issue 36): a reading the referee is sure of is played at once and
shown big with what it decides, with one tap to take it back; no question asks to confirm it.

Shogun's tower tray (6.2) is the case: the cubes that fall are chance's, the camera counts
them, and the players see what they decide. A real store, the real table session, the game's
own referee and the HTTP API a phone uses."""

from __future__ import annotations

from pathlib import Path

from web_helpers import app_for

from companion.engine import CHANCE, REFEREE, Action, Proposal, chance_rng, pick_action
from companion.games.shogun.reader import TRAY
from companion.games.shogun.referee import ShogunReferee, board_of
from companion.games.shogun.rules import ShogunState
from companion.record.session import Session
from companion.record.store import Store
from companion.table import TableParts, TableRegistry
from companion.table.session import TableSession
from companion.vision.count_tracker import CountDiff, CountSnapshot, normalised
from companion.web.hub import Hub

SEED = 3


def _throw_awaits(state: ShogunState) -> bool:
    pending = state.pending
    return pending is not None and pending.get("kind") == "battle" and not pending.get("read")


def _at_a_battles_throw(tmp_path: Path) -> tuple[Hub, Action]:
    """A 4-player game in a real store, played (chance from the seed) up to a battle whose
    cubes are in the tower; and the tray chance throws next."""
    session = Session.start(Store(tmp_path / "games.sqlite"), "shogun", seed=SEED,
                            options={"players": 4})
    for step in range(2_000):
        game = session.game
        rng = chance_rng(SEED, step)
        if CHANCE in game.to_move():
            action = game.rules.sample_chance(game.state, rng)
            if action.verb == "tray" and _throw_awaits(game.state) \
                    and action.args["tray"] != dict(game.state.tray):
                return Hub(session), action
        else:
            action = pick_action(game, game.to_move(), rng)
        session.play(action, "simulator")
    raise AssertionError("no battle's throw in the seeded game")


def test_a_clear_tray_is_played_without_a_tap_and_a_wrong_one_is_taken_back_in_one_tap(
        tmp_path):
    hub, tray = _at_a_battles_throw(tmp_path)
    rules = hub.session.game.rules
    table = TableSession(hub, TableParts(None, None,
                                         ShogunReferee(rules, TableRegistry({}, {}))))
    state = hub.session.game.state
    start = CountSnapshot(board_of(state), ())
    landed = CountSnapshot(normalised({**start.counts, TRAY: tray.args["tray"]}), ())
    rulings = table.referee.on_diff(state, CountDiff(start, landed))
    assert [type(r) for r in rulings] == [Proposal] and rulings[0].action == tray
    table._rule(rulings, "camera")  # as the session does with what the camera showed

    # Played at once, from the camera, with no question and no tap.
    played = hub.session.entries[-1]
    assert played.action == tray and played.source == "camera"
    assert hub.question is None and table.counts.questions == 0
    assert table.counts.asked == {}

    app, tokens = app_for(hub)
    client = app.test_client()
    player = state.players[0]
    mine = client.get("/api/view", headers={"Authorization": f"Bearer {tokens[player]}"})
    notice = mine.get_json()["notice"]
    assert notice["seq"] == played.seq and notice["take_back"]
    assert notice["text"].startswith("The tower's tray: ") and notice["text"].endswith("(6.2)")
    shared = client.get("/api/view").get_json()["notice"]
    assert shared["text"] == notice["text"] and not shared["take_back"]  # the display: no tap
    italian = client.get("/api/view?lang=it").get_json()["notice"]["text"]
    assert italian.startswith("Il vassoio della torre: ")

    # The shared display cannot take it back; a late tap naming another line does nothing.
    assert client.post("/api/take-back", json={"seq": played.seq}).status_code == 401
    late = client.post("/api/take-back", json={"seq": played.seq - 1},
                       headers={"Authorization": f"Bearer {tokens[player]}"})
    assert late.status_code == 409 and hub.session.entries[-1] is played

    # One tap by any player: the reading is taken back, the throw awaits its tray again.
    tapped = client.post("/api/take-back", json={"seq": played.seq},
                         headers={"Authorization": f"Bearer {tokens[player]}"})
    assert tapped.status_code == 200, tapped.get_data(as_text=True)
    undone = hub.session.entries[-1]
    assert undone.action.verb == "undo" and undone.action.args == {"seq": played.seq}
    assert undone.by == player
    assert hub.session.game.state == state and _throw_awaits(hub.session.game.state)
    assert client.get("/api/view").get_json()["notice"] is None
    again = client.post("/api/take-back", json={"seq": played.seq},
                        headers={"Authorization": f"Bearer {tokens[REFEREE]}"})
    assert again.status_code == 409  # taken back once: nothing more to take
