"""The web layer through Flask's test client: API, tokens, CSRF guard, live stream, pairing,
replay, and a sweep of every route and message for hidden information (8: Security)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from web_helpers import app_for, hidden_from, sekigahara_hub, skirmish_hub

from companion.engine import PUBLIC, REFEREE, Action
from companion.record import read_record, replay
from companion.record.session import import_record

SAMPLE = Path(__file__).parents[1] / "companion/games/sekigahara/samples/sekigahara-demo.jsonl"


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def skirmish(tmp_path):
    hub = skirmish_hub(tmp_path)
    app, tokens = app_for(hub)
    return hub, app.test_client(), tokens


def test_the_public_view_needs_no_token_and_hides_blocks(skirmish):
    _hub, client, _ = skirmish
    data = client.get("/api/view").get_json()
    assert data["role"] == PUBLIC
    assert data["view"]["locations"]["red_camp"]["red"] == {"count": 4, "blocks": []}


def test_a_player_acts_with_its_token_and_the_action_is_recorded(skirmish):
    hub, client, tokens = skirmish
    response = client.post("/api/action", headers=bearer(tokens["red"]),
                           json={"text": 'red move {"block":"red_a","to":"mill"}'})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["events"][0]["type"] == "BlockMoved"
    assert hub.session.store.game(hub.session.game_id).entries == 1


def test_an_illegal_action_returns_its_rule_and_the_legal_ones(skirmish):
    _hub, client, tokens = skirmish
    response = client.post("/api/action", headers=bearer(tokens["red"]),
                           json={"role": "red", "verb": "move",
                                 "args": {"block": "red_a", "to": "hill"}})
    assert response.status_code == 422
    body = response.get_json()
    assert body["rule"] == "S3.1" and "red move red_a to mill" in body["legal"]
    alert = client.get("/api/view").get_json()["alert"]  # the public panel: rule only
    assert alert["rule"] == "S3.1" and "red_a" not in alert["message"]


def test_a_device_cannot_act_for_another_role(skirmish):
    _hub, client, tokens = skirmish
    response = client.post("/api/action", headers=bearer(tokens["blue"]),
                           json={"text": "red pass {}"})
    assert response.status_code == 403
    assert client.post("/api/action", headers=bearer(tokens[REFEREE]),
                       json={"text": "red pass {}"}).status_code == 200  # the referee may


@pytest.mark.parametrize(("headers", "status"), [
    ({}, 401),                                                      # no token
    ({"Authorization": "Bearer nonsense"}, 403),                   # unknown token
    ({"Origin": "http://evil.example"}, 403),                     # cross-site
])
def test_changes_need_a_valid_token_from_this_site(skirmish, headers, status):
    hub, client, tokens = skirmish
    if "Origin" in headers:
        headers = {**headers, **bearer(tokens["red"])}
    response = client.post("/api/action", headers=headers, json={"text": "red pass {}"})
    assert response.status_code == status
    assert hub.session.store.game(hub.session.game_id).entries == 0


def test_a_form_post_is_refused(skirmish):
    _hub, client, tokens = skirmish
    response = client.post("/api/action", headers=bearer(tokens["red"]),
                           data={"text": "red pass {}"})
    assert response.status_code == 415


def test_the_stream_sends_the_role_view_first(skirmish):
    _hub, client, tokens = skirmish
    response = client.get(f"/stream?token={tokens['red']}", buffered=False)
    first = next(response.response).decode()
    response.close()
    assert first.startswith("event: view\ndata: ")
    data = json.loads(first.split("data: ", 1)[1])
    assert data["role"] == "red"
    assert len(data["view"]["locations"]["red_camp"]["red"]["blocks"]) == 4


def test_an_accepted_action_is_pushed_to_every_subscriber(skirmish):
    hub, _client, _tokens = skirmish
    streams = {role: hub.subscribe(role) for role in ("red", "blue", PUBLIC)}
    for stream in streams.values():
        next(stream)  # the current view
    hub.act(REFEREE, Action("red", "move", {"block": "red_a", "to": "mill"}), "tablet")
    pushed = {role: next(stream) for role, stream in streams.items()}
    assert {p["version"] for p in pushed.values()} == {1}
    assert pushed["red"]["view"]["locations"]["mill"]["red"]["blocks"][0]["block"] == "red_a"
    assert pushed["blue"]["view"]["locations"]["mill"]["red"]["blocks"] == []


def test_pairing_offers_a_qr_code_until_the_phone_uses_it(skirmish):
    _hub, client, tokens = skirmish
    offer = client.post("/api/pair/red", headers=bearer(tokens[REFEREE]), json={})
    url = offer.get_json()["url"]
    token = url.split("#token=")[1]
    table = client.get("/api/view").get_json()
    assert "<svg" in table["pairing"]["red"]
    phone = client.get("/api/view", headers=bearer(token)).get_json()
    assert phone["role"] == "red"
    assert client.get("/api/view").get_json()["pairing"] == {}
    assert client.delete("/api/pair/red", headers=bearer(tokens[REFEREE]), json={}) \
        .get_json()["revoked"] >= 1
    assert client.get("/api/view", headers=bearer(token)).get_json()["role"] == PUBLIC
    assert client.post("/api/pair/red", headers=bearer(tokens["red"]), json={}).status_code == 403


def test_undo_and_corrections_through_the_api(tmp_path):
    hub = sekigahara_hub(tmp_path, actions=40)
    client = app_for(hub)[0].test_client()
    tokens = {REFEREE: hub.tokens.issue(REFEREE), "ishida": hub.tokens.issue("ishida")}
    refused = client.post("/api/correct", headers=bearer(tokens["ishida"]),
                          json={"args": {"block": "T-ii-4-1", "to": "kiso"}, "by": "x",
                                "note": "y"})
    assert refused.status_code == 403
    no_reason = client.post("/api/correct", headers=bearer(tokens[REFEREE]),
                            json={"args": {"block": "T-ii-4-1", "to": "kiso"}, "by": "Sato"})
    assert no_reason.status_code == 422
    ok = client.post("/api/correct", headers=bearer(tokens[REFEREE]),
                     json={"args": {"block": "T-ii-4-1", "to": "kiso"}, "by": "Sato",
                           "note": "seen there"})
    assert ok.status_code == 200
    assert hub.session.game.state.positions["T-ii-4-1"] == "kiso"
    undo = client.post("/api/undo", headers=bearer(tokens[REFEREE]), json={})
    assert undo.status_code == 422 and "hidden information" in undo.get_json()["message"]


def test_the_replay_api_steps_through_a_stored_game(tmp_path):
    hub = skirmish_hub(tmp_path)
    game_id = import_record(hub.session.store, read_record(SAMPLE))
    client = app_for(hub)[0].test_client()
    start = client.get(f"/api/replay/{game_id}?at=0").get_json()
    assert start["at"] == 0 and start["view"]["phase"] == "setup"
    later = client.get(f"/api/replay/{game_id}?at=120").get_json()
    assert later["at"] == 120 and later["total"] == len(read_record(SAMPLE).entries)
    assert later["role"] == REFEREE  # the game is over: full information (6)
    assert client.get("/api/replay/999").status_code == 404


def test_pages_load(skirmish):
    hub, client, _ = skirmish
    for path in ("/", "/play", "/referee", f"/replay/{hub.session.game_id}"):
        response = client.get(path)
        assert response.status_code == 200 and b"companion.js" in response.data


def test_no_route_or_message_leaks_hidden_information(tmp_path):
    """Every route and every stream message, for every role: no hidden block or card id."""
    hub = sekigahara_hub(tmp_path, actions=120)
    app, tokens = app_for(hub)
    client = app.test_client()
    unfinished = hub.session.game_id
    for role in (PUBLIC, "ishida", "tokugawa"):
        secret = hidden_from(hub, role)
        assert secret, "the position should hide something"
        headers = bearer(tokens[role]) if role != PUBLIC else {}
        query = f"?token={tokens[role]}" if role != PUBLIC else ""
        bodies = [client.get(path, headers=headers).get_data(as_text=True) for path in (
            "/", "/play", "/referee", f"/replay/{unfinished}", "/api/view", "/api/board",
            f"/api/replay/{unfinished}", "/nowhere")]
        stream = client.get(f"/stream{query}", buffered=False)
        bodies.append(next(stream.response).decode())
        stream.close()
        refused = client.post("/api/action", headers=headers,
                              json={"text": "tokugawa bid {\"card\":\"T-loyalty-1\"}"})
        bodies.append(refused.get_data(as_text=True))
        for body in bodies:
            leaked = [s for s in secret if s in body]
            assert not leaked, f"{role} sees {leaked[:3]}"
        # A replay shows each moment as it was: what was hidden then stays hidden.
        past = replay(hub.session.store.load(unfinished), upto_line=61).game
        body = client.get(f"/api/replay/{unfinished}?at=60", headers=headers).get_data(
            as_text=True)
        assert not [s for s in hidden_from(hub, role, past) if s in body]


def test_the_referee_pauses_and_resumes_the_table(skirmish):
    _hub, client, tokens = skirmish
    assert client.post("/api/pause", headers=bearer(tokens["red"]), json={}).status_code == 403
    assert client.post("/api/pause", headers=bearer(tokens[REFEREE]),
                       json={"paused": True}).get_json() == {"paused": True}
    assert client.get("/api/view").get_json()["paused"] is True
    blocked = client.post("/api/action", headers=bearer(tokens["red"]),
                          json={"text": "red pass {}"})
    assert blocked.status_code == 403 and b"paused" in blocked.data
    client.post("/api/pause", headers=bearer(tokens[REFEREE]), json={"paused": False})
    assert client.post("/api/action", headers=bearer(tokens["red"]),
                       json={"text": "red pass {}"}).status_code == 200


def test_the_replay_lists_where_each_turn_begins(tmp_path):
    hub = skirmish_hub(tmp_path)
    game_id = import_record(hub.session.store, read_record(SAMPLE))
    data = app_for(hub)[0].test_client().get(f"/api/replay/{game_id}/turns").get_json()
    record = read_record(SAMPLE)
    assert data["turns"][0] == next(n for n, e in enumerate(record.entries, start=1)
                                    if e.action.verb == "choose_first")
    assert len(data["turns"]) == 7 * 2 * 2  # seven weeks, turns A and B, both sides


def test_a_card_code_typed_on_a_screen_is_an_input_for_the_referee(skirmish):
    _hub, client, tokens = skirmish
    sent = client.post("/api/scan", headers=bearer(tokens["red"]), json={"code": "CARD:I-x"})
    assert sent.get_json() == {"code": "CARD:I-x", "reader": "tablet:red"}
    assert client.post("/api/scan", headers=bearer(tokens["red"]),
                       json={"code": ""}).status_code == 400
    assert client.post("/api/scan", json={"code": "CARD:I-y"}).status_code == 401
    referee = client.get("/api/view", headers=bearer(tokens[REFEREE])).get_json()
    assert referee["inputs"] == [{"code": "CARD:I-x", "reader": "tablet:red"}]
    assert client.get("/api/view").get_json()["inputs"] == []  # only the referee sees them


def test_a_referee_question_is_answered_by_the_acting_side_with_a_tap(skirmish):
    hub, client, tokens = skirmish
    options = (Action("red", "move", {"block": "red_a", "to": "mill"}),
               Action("red", "move", {"block": "red_a", "to": "ford"}))
    hub.ask("From the camp: which way?", options)
    red = client.get("/api/view", headers=bearer(tokens["red"])).get_json()["question"]
    assert red["by"] == "red" and len(red["options"]) == 2
    for role in ("blue", PUBLIC):  # the options name red's block: never shown to them
        headers = bearer(tokens[role]) if role != PUBLIC else {}
        shown = client.get("/api/view", headers=headers).get_json()["question"]
        assert shown["options"] == [] and "red_a" not in json.dumps(shown)
    assert client.post("/api/answer", headers=bearer(tokens["blue"]),
                       json={"choice": 0}).status_code == 403
    answered = client.post("/api/answer", headers=bearer(tokens["red"]), json={"choice": 1})
    assert answered.status_code == 200
    assert hub.session.game.state.positions["red_a"] == "ford"
    assert client.get("/api/view").get_json()["question"] is None
