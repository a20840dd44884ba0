"""The web layer through Flask's test client: API, tokens, CSRF guard, live stream, pairing,
replay, and a sweep of every route and message for hidden information (8: Security)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from game_hubs import sekigahara_hub, skirmish_hub
from web_helpers import (
    HIDES,
    SCREENS,
    acting_player,
    app_for,
    hidden_from,
    played_hub,
)

from companion.broadcast.dashboard import create_dashboard
from companion.broadcast.store import BroadcastStore
from companion.engine import PUBLIC, REFEREE, Action, Alert, Cause
from companion.games import all_games, game
from companion.kits import Kit
from companion.record import read_record, replay
from companion.record.session import Session, import_record
from companion.web.hub import Hub

SAMPLE = game("sekigahara").sample()
WEB = Path(__file__).parents[1] / "companion" / "web"
TOOLKIT = "/common/toolkit.js"


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


def test_pairing_is_one_time_confirmed_by_the_referee_and_revoked_by_a_new_offer(skirmish):
    """Issue 16: the secret is on the referee's screen only, claimed once, valid once the
    referee confirms the code the phone shows; a new offer or pairing revokes the old."""
    _hub, client, tokens = skirmish
    referee = bearer(tokens[REFEREE])
    url = client.post("/api/pair/red", headers=referee, json={}).get_json()["url"]
    secret = url.split("#pair=")[1]
    shown = client.get("/api/view", headers=referee).get_json()["pairing"]
    assert "<svg" in shown["red"]["qr"] and shown["red"]["code"] is None
    for headers in ({}, bearer(tokens["red"]), bearer(tokens["blue"])):
        assert secret not in client.get("/api/view", headers=headers).get_data(as_text=True)
    claimed = client.post("/api/pair/claim", json={"pair": secret}).get_json()
    device, code = claimed["token"], claimed["code"]
    assert client.post("/api/pair/claim", json={"pair": secret}).status_code == 410  # once
    assert not_yet_valid(client, device)  # claimed, not confirmed: no view, and it says why
    assert client.get("/api/view", headers=referee).get_json()["pairing"]["red"] == {
        "qr": None, "digits": None, "code": code, "address": None}
    assert client.post("/api/pair/red/confirm", headers=referee,
                       json={"code": "ZZZZ"}).status_code == 403
    assert client.post("/api/pair/red/confirm", headers=bearer(tokens["red"]),
                       json={"code": code}).status_code == 403
    assert client.post("/api/pair/red/confirm", headers=referee,
                       json={"code": code.lower()}).status_code == 200
    assert client.get("/api/view", headers=bearer(device)).get_json()["role"] == "red"
    assert not_yet_valid(client, tokens["red"])  # the earlier phone is revoked, and told
    assert client.get("/api/view", headers=referee).get_json()["pairing"] == {}
    first = client.post("/api/pair/red", headers=referee, json={}).get_json()["url"]
    client.post("/api/pair/red", headers=referee, json={})  # a new offer revokes the first
    assert client.post("/api/pair/claim",
                       json={"pair": first.split("#pair=")[1]}).status_code == 410
    assert client.delete("/api/pair/red", headers=referee, json={}).get_json()["revoked"] == 1
    assert not_yet_valid(client, device)
    assert client.post("/api/pair/red", headers=bearer(device), json={}).status_code == 403


def not_yet_valid(client, token):
    """A page whose token is not (or no longer) valid gets a 401 saying so, never the
    public view passed off as its own (#17: connection honesty)."""
    response = client.get("/api/view", headers=bearer(token))
    return response.status_code == 401 and "pair it again" in response.get_json()["message"]


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


@pytest.mark.parametrize("name", SCREENS)
def test_no_route_or_message_leaks_hidden_information(tmp_path, name):
    """Every route and every stream message, for every role, with a question and a refusal
    naming the acting side's hidden pieces on the screens: no hidden id anywhere."""
    hub = played_hub(tmp_path, name)
    app, tokens = app_for(hub)
    client = app.test_client()
    unfinished = hub.session.game_id
    actor = acting_player(hub)
    own = hidden_from(hub, PUBLIC) - hidden_from(hub, actor)
    hub.ask("Which one?", tuple(hub.session.game.legal_actions(actor)[:2]))
    hub.raise_alert(Alert("1.1", "refused: " + " ".join(sorted(own)), (), actor))
    assert hidden_from(hub, PUBLIC) or name not in HIDES, "the position should hide something"
    other = next(r for r in hub.roles if r != actor)
    for role in (PUBLIC, *hub.roles):
        secret = hidden_from(hub, role)
        headers = bearer(tokens[role]) if role != PUBLIC else {}
        query = f"?token={tokens[role]}" if role != PUBLIC else ""
        bodies = [client.get(path, headers=headers).get_data(as_text=True) for path in (
            "/", "/play", "/referee", f"/replay/{unfinished}", "/api/view", "/api/board",
            f"/api/replay/{unfinished}", f"/api/replay/{unfinished}/board",
            f"/api/replay/{unfinished}/turns", f"/games/{name}/screen.js",
            "/static/companion.js", "/nowhere")]
        stream = client.get(f"/stream{query}", buffered=False)
        bodies.append(next(stream.response).decode())
        stream.close()
        for actor_text in (f"{other} pass {{}}", f"{role} nonsense {{}}"):
            bodies.append(client.post("/api/action", headers=headers,
                                      json={"text": actor_text}).get_data(as_text=True))
        for body in bodies:
            leaked = [s for s in secret if s in body]
            assert not leaked, f"{role} sees {leaked[:3]}"
        # A replay shows each moment as it was: what was hidden then stays hidden.
        middle = len(hub.session.entries) // 2
        past = replay(hub.session.store.load(unfinished), upto_line=middle + 1).game
        body = client.get(f"/api/replay/{unfinished}?at={middle}", headers=headers).get_data(
            as_text=True)
        assert not [s for s in hidden_from(hub, role, past) if s in body]


@pytest.mark.parametrize("name", sorted(all_games()))
def test_every_view_names_the_game_its_roles_and_its_screen(tmp_path, name):
    """The page shell names no game and no role: every view tells it which game this is, the
    roles to pair and where the game's screen module is (or, in a sentence, that it has none)."""
    hub = played_hub(tmp_path, name, actions=2)
    client = app_for(hub)[0].test_client()
    spec = game(name)
    about = client.get("/api/view").get_json()["game"]
    assert about["name"] == name and about["title"] == spec.title
    assert about["roles"] == list(hub.roles) and about["players"] == dict(hub.session.header
                                                                          .players)
    shipped = client.get(f"/games/{name}/screen.js")
    if spec.has("screen"):
        assert about["screen"] == f"/games/{name}/screen.js" and about["missing"] is None
        assert shipped.status_code == 200 and shipped.mimetype == "text/javascript"
        assert shipped.data == spec.need_screen().read_bytes()
        assert b"export async function mount(shell)" in shipped.data  # the contract
    else:
        assert about["screen"] is None
        assert about["missing"] == f"{spec.title} has no tablet screen yet"
        assert shipped.status_code == 404 and about["missing"].encode() in shipped.data


def test_every_page_and_screen_imports_the_one_toolkit_the_apps_serve(skirmish, tmp_path):
    """One front-end toolkit: the table's app and the broadcast's serve it at the same URL, as a
    JavaScript module (a browser runs a module only with a JavaScript type), and every page script
    and game screen imports it by that URL (one module: the words a page loads are its screen's);
    none keeps a copy of its helpers, and the pages load their scripts as modules."""
    _hub, client, _ = skirmish
    dashboard = create_dashboard(BroadcastStore(tmp_path / "dashboard.sqlite"), "event")
    for served in (client, dashboard.test_client()):
        answer = served.get(TOOLKIT)
        assert answer.status_code == 200 and answer.mimetype == "text/javascript"
        assert answer.data == (WEB / "static" / "toolkit.js").read_bytes()
    assert client.get("/static/companion.js").mimetype == "text/javascript"
    scripts = [*(WEB / "static").glob("*.js"), *(WEB.parent / "broadcast" / "static").glob("*.js"),
               *(game(name).need_screen() for name in SCREENS)]
    for script in scripts:
        if script.name == "toolkit.js":
            continue
        source = script.read_text(encoding="utf-8")
        assert TOOLKIT in re.findall(r'^import \{[^}]*\} from "([^"]+)";', source, re.M), script
        for helper in ("el", "fill", "t", "chosenLanguage", "zoom", "zoomable"):
            assert not re.search(rf"^\s*function {helper}\(", source, re.M), (script, helper)
    for page in (WEB / "templates").glob("*.html"):
        for tag in re.findall(r"<script[^>]*\bsrc=[^>]*>", page.read_text(encoding="utf-8")):
            assert 'type="module"' in tag, (page.name, tag)


def test_every_word_of_the_toolkit_has_its_italian():
    """The toolkit's own words (the zoom's buttons) are the shell's: every page's catalog
    (`/i18n/LANG/NAME.json`) carries them."""
    from companion.i18n import catalog

    source = (WEB / "static" / "toolkit.js").read_text(encoding="utf-8")
    said = set(re.findall(r'\bt\("((?:[^"\\]|\\.)*)"\)', source))
    assert {"Zoom out", "Zoom in"} <= said
    italian = catalog("companion.web", "it")
    assert all(italian.get(text) for text in said), said


def test_only_a_games_declared_screen_is_served(skirmish):
    _hub, client, _ = skirmish
    unknown = client.get("/games/shogi/screen.js")
    assert unknown.status_code == 404 and b"no game called" in unknown.data
    for path in ("/games/sekigahara/__init__.py", "/games/sekigahara/rules/state.py",
                 "/games/sekigahara/../web/api.py", "/games/sekigahara/data/map.yaml"):
        assert client.get(path).status_code == 404, path


@pytest.mark.parametrize("name", sorted(all_games()))
def test_the_board_is_the_kits_map_and_the_parts_a_screen_asks_for(tmp_path, name):
    hub = played_hub(tmp_path, name, actions=0, settle=False)
    client = app_for(hub)[0].test_client()
    kit = hub.session.game.rules.kit
    data = client.get("/api/board").get_json()
    assert (data["kit"], data["game"]) == (kit.id, name)
    assert [loc["id"] for loc in data["locations"]] == [loc.id for loc in kit.locations]
    assert [(r["a"], r["b"]) for r in data["roads"]] == [(r.a, r.b) for r in kit.roads]
    parts = [f for f in type(kit).model_fields if f not in Kit.model_fields]
    for part in parts:
        assert part in client.get(f"/api/board?parts={part}").get_json()
    for wrong in ("nonsense", "id", "neighbours"):  # not a part: unknown, manifest, computed
        refused = client.get(f"/api/board?parts={wrong}")
        assert refused.status_code == 404
        assert f"no part '{wrong}'" in refused.get_json()["message"]


def test_a_replay_draws_the_board_of_its_own_game(tmp_path):
    """The live table plays one game; a stored game of another is replayed with its own kit,
    roles and screen."""
    hub = played_hub(tmp_path, "rumble_nation", actions=0, settle=False)
    game_id = import_record(hub.session.store, read_record(SAMPLE))
    client = app_for(hub)[0].test_client()
    board = client.get(f"/api/replay/{game_id}/board?parts=tracks").get_json()
    assert board["game"] == "sekigahara" and board["tracks"]["impact_track"] == [0, 48]
    about = client.get(f"/api/replay/{game_id}?at=3").get_json()["game"]
    assert about["name"] == "sekigahara" and about["roles"] == ["ishida", "tokugawa"]
    assert client.get(f"/api/replay/{game_id + 1}/board").status_code == 404


@pytest.mark.parametrize("name", SCREENS)
def test_a_replay_lists_the_turns_of_every_game(tmp_path, name):
    hub = played_hub(tmp_path, name)
    client = app_for(hub)[0].test_client()
    data = client.get(f"/api/replay/{hub.session.game_id}/turns").get_json()
    assert data["total"] == len(hub.session.entries)
    assert data["turns"] and data["turns"] == sorted(set(data["turns"]))
    assert data["turns"][0] >= 1 and data["turns"][-1] <= data["total"]


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
    """A phone sends only its own side's cards (issue 16): the table's referee says whose a
    code is; any other code, whatever it is, gets the same refusal, so none can be probed.
    The referee's screen types for anyone."""
    hub, client, tokens = skirmish
    owners = {"CARD:R-1": "red", "CARD:B-1": "blue"}
    hub.card_owner = owners.get
    sent = client.post("/api/scan", headers=bearer(tokens["red"]), json={"code": "CARD:R-1"})
    assert sent.get_json() == {"code": "CARD:R-1", "reader": "tablet:red"}
    refusals = {client.post("/api/scan", headers=bearer(tokens["red"]), json={"code": code})
                .get_data() for code in ("CARD:B-1", "CARD:unknown", "", "x" * 65, "\x07")}
    assert len(refusals) == 1 and b"only its own side's cards" in refusals.pop()
    assert client.post("/api/scan", json={"code": "CARD:R-1"}).status_code == 401
    by_referee = client.post("/api/scan", headers=bearer(tokens[REFEREE]),
                             json={"code": "CARD:B-1"})
    assert by_referee.get_json() == {"code": "CARD:B-1", "reader": "tablet:referee"}
    referee = client.get("/api/view", headers=bearer(tokens[REFEREE])).get_json()
    assert referee["inputs"] == [{"code": "CARD:R-1", "reader": "tablet:red"},
                                 {"code": "CARD:B-1", "reader": "tablet:referee"}]
    assert client.get("/api/view").get_json()["inputs"] == []  # only the referee sees them
    hub.card_owner = None  # no table reads cards: a phone's code goes nowhere
    assert client.post("/api/scan", headers=bearer(tokens["red"]),
                       json={"code": "CARD:R-1"}).status_code == 403


def test_a_question_says_why_it_is_asked_in_the_viewers_language_and_after_a_restart(skirmish):
    """Issue 36: every question carries its cause; the screens say it ("asked: the camera
    could not read ..."), in Italian too, and a restarted table keeps it."""
    hub, client, tokens = skirmish
    options = (Action("red", "move", {"block": "red_a", "to": "mill"}),
               Action("red", "move", {"block": "red_a", "to": "ford"}))
    hub.ask("From the camp: which way?", options, Cause.doubt("the ford", "blocks too close"))
    shown = client.get("/api/view").get_json()["question"]
    assert shown["cause"] == "doubt"
    assert shown["why"] == "asked: the camera could not read the ford (blocks too close)"
    italian = client.get("/api/view?lang=it").get_json()["question"]["why"]
    assert italian.startswith("chiesto: la telecamera non ha potuto leggere the ford")
    restarted = Hub(Session.resume(hub.session.store, hub.session.game_id))
    assert restarted.question_cause == Cause.doubt("the ford", "blocks too close")
    hub.ask("Which one?", options, Cause.choice("7.3"))
    assert client.get("/api/view", headers=bearer(tokens["red"])).get_json()["question"][
        "why"] == "asked: a choice the rules leave to the player (rule 7.3)"


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
