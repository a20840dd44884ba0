"""The screens in words (#17): choices, questions, alerts, the game log and the last move are
said by the game's rules per role and language; a stale credential is told, not hidden; a
player's undo goes to the referee when the phone may not do it alone; the catalogs are whole."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from web_helpers import SCREENS, acting_player, app_for, hidden_from, played_hub

from companion.engine import PUBLIC, REFEREE, Action, Alert
from companion.i18n import catalog, language, translator
from companion.record.session import UndoRefused
from companion.web.hub import Hub

WEB = Path(__file__).parent.parent / "companion" / "web"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def shell_messages() -> set[str]:
    """Every English text the page shell translates: t("...") and fill("...") in the script,
    data-t attributes in the page, the record sources' names."""
    script = (WEB / "static" / "companion.js").read_text()
    page = (WEB / "templates" / "table.html").read_text()
    found = set(re.findall(r'\b(?:t|fill)\("((?:[^"\\]|\\.)*)"', script))
    found |= set(re.findall(r'confirmDialog\([^;]*?, "([^"]+)"\)', script))
    found |= set(re.findall(r't\(muted\(\) \? "([^"]+)" : "([^"]+)"\)', script)[0])
    sources = re.search(r"const SOURCES = \{(.*?)\};", script, re.S)
    assert sources is not None
    found |= set(re.findall(r':\s*"([^"]+)"', sources.group(1)))
    found |= set(re.findall(r'data-t(?:-placeholder)?="([^"]+)"', page))
    return found


def test_every_word_of_the_shell_has_its_italian():
    messages = shell_messages()
    assert len(messages) > 50 and "Game log" in messages and "Sounds off" in messages
    italian = catalog("companion.web", "it")
    missing = sorted(m for m in messages if not italian.get(m))
    assert not missing, f"no Italian for {missing[:5]} in companion/web/locales/it/shell.po"
    for message, translated in italian.items():  # a placeholder survives translation
        assert set(re.findall(r"\{\w+\}", message)) == set(re.findall(r"\{\w+\}", translated)), \
            message


def test_a_language_is_chosen_from_what_a_device_asks_and_falls_back_to_english():
    assert language("it-IT") == "it" and language("IT") == "it"
    assert language("de") == "en" and language(None) == "en" and language("") == "en"
    t = translator("it", "companion.web")
    assert t("Game log") == "Registro della partita"
    assert t("a sentence nobody wrote") == "a sentence nobody wrote"
    assert translator("en", "companion.web")("Game log") == "Game log"


def test_the_browser_gets_the_shell_and_the_game_words_in_one_catalog(tmp_path):
    hub = played_hub(tmp_path, "sekigahara")
    client = app_for(hub)[0].test_client()
    words = client.get("/i18n/it/sekigahara.json").get_json()
    assert words["lang"] == "it" and words["words"]["Game log"] == "Registro della partita"
    assert client.get("/i18n/en/sekigahara.json").get_json()["words"] == {}
    assert client.get("/i18n/xx/sekigahara.json").status_code == 404
    assert client.get("/i18n/it/no_such_game.json").status_code == 404
    assert client.get("/i18n/it/shell.json").get_json()["words"]["Games"] == "Partite"


@pytest.mark.parametrize("name", SCREENS)
def test_every_choice_question_and_log_line_is_in_words_and_hides_what_it_must(tmp_path, name):
    hub = played_hub(tmp_path, name, actions=60)
    game = hub.session.game
    actor = acting_player(hub)
    options = tuple(game.legal_actions(actor)[:2])
    hub.ask("Which was it?", options)
    for role in (PUBLIC, REFEREE, *hub.roles):
        shown = hub.view(role)
        legal = game.legal_actions() if role == REFEREE else \
            game.legal_actions(role) if role in game.to_move() else []
        assert [c["text"] for c in shown["choices"]] == [a.text() for a in legal]
        assert shown["log"] and len(shown["log"]) <= 60
        said = [c["words"] for c in shown["choices"]] + shown["question"]["words"] \
            + [line["words"] for line in shown["log"]] + [shown["last"]["words"]]
        for words in said:
            assert words and "{" not in words, f"{role}: {words!r}"
        if role in (actor, REFEREE):
            assert len(shown["question"]["words"]) == len(options)
        else:
            assert shown["question"]["words"] == [] and shown["question"]["options"] == []
        if role != REFEREE:
            secret = hidden_from(hub, role)
            text = " ".join(said)
            assert not [s for s in secret if s in text], f"{role} reads hidden ids"


def test_the_log_marks_what_an_undo_took_back_and_says_the_undo(tmp_path):
    hub = played_hub(tmp_path, "rumble_nation", actions=30)
    actor = acting_player(hub)
    action = hub.session.game.legal_actions(actor)[0]
    hub.act(actor, action, "phone")
    seq = hub.session.entries[-1].seq
    said = hub.view(REFEREE)["log"][-1]["words"]
    hub.undo(REFEREE)
    log = hub.view(REFEREE)["log"]
    taken = next(line for line in log if line["seq"] == seq)
    assert taken["undone"] and log[-1]["words"] == f"Taken back: {said}"
    assert hub.view(REFEREE, "it")["log"][-1]["words"].startswith("Annullata: ")
    assert log[-1]["source"] == "tablet" and log[-2]["source"] == "phone"
    assert hub.view(REFEREE)["last"]["seq"] != seq


def test_the_log_is_kept_as_recorded_and_rebuilt_for_a_resumed_game(tmp_path):
    from companion.record.session import Session

    hub = played_hub(tmp_path, "sekigahara", actions=40)
    before = [line["words"] for line in hub.view(REFEREE)["log"]]
    again = Hub(Session.resume(hub.session.store, hub.session.game_id))
    assert [line["words"] for line in again.view(REFEREE)["log"]] == before


def test_an_alert_carries_its_rule_summary_and_fix_and_the_others_read_no_hidden_fix(tmp_path):
    hub = played_hub(tmp_path, "sekigahara")
    actor = acting_player(hub)
    other = next(r for r in hub.roles if r != actor)
    hub.raise_alert(Alert("7.3.1", "the Fukushima cavalry has no road to Gifu", (), actor,
                          fix="put the Fukushima cavalry back at Kiyosu",
                          public_fix="put the block back at Kiyosu"))
    mine, theirs = hub.view(actor)["alert"], hub.view(other)["alert"]
    assert mine["fix"] == "put the Fukushima cavalry back at Kiyosu"
    assert "Fukushima" not in str(theirs) and theirs["fix"] == "put the block back at Kiyosu"
    assert theirs["message"] == f"{actor.capitalize()}: this move is not allowed"
    assert hub.view(other, "it")["alert"]["message"] == \
        f"{actor.capitalize()}: questa mossa non è consentita"
    assert mine["summary"] == hub.session.game.rules.rule_summary("7.3.1")


def test_a_refused_tap_reports_its_rule_and_offers_the_fix(tmp_path):
    hub = played_hub(tmp_path, "rumble_nation")
    actor = acting_player(hub)
    app, tokens = app_for(hub)
    client = app.test_client()
    refused = client.post("/api/action", headers=bearer(tokens[actor]),
                          json={"role": actor, "verb": "no_such_verb", "args": {}})
    assert refused.status_code == 422
    alert = hub.view(actor)["alert"]
    assert alert["rule"] and alert["role"] == actor


def test_a_stale_token_is_told_it_is_stale_not_shown_the_public_view(tmp_path):
    hub = played_hub(tmp_path, "rumble_nation")
    app, tokens = app_for(hub)
    client = app.test_client()
    hub.revoke("red")
    response = client.get("/api/view", headers=bearer(tokens["red"]))
    assert response.status_code == 401 and "pair it again" in response.get_json()["message"]
    assert client.get("/api/view").status_code == 200  # no token at all: the public view


def test_a_player_undoes_its_own_action_at_once_and_asks_the_referee_after_a_draw(tmp_path):
    hub = played_hub(tmp_path, "rumble_nation", actions=20)
    actor = acting_player(hub)
    action = hub.session.game.legal_actions(actor)[0]
    hub.act(actor, action, "phone")
    seq = hub.session.entries[-1].seq
    assert hub.ask_undo(actor) is False  # nothing drawn since: at once
    assert hub.session.last_in_force is None or hub.session.last_in_force.seq != seq
    # A step that may not be undone alone: the request goes to the referee.
    hub.act(actor, action, "phone")
    barrier = hub.session.game.rules.undo_barrier
    hub.session.game.rules.undo_barrier = lambda a, e: True  # type: ignore[method-assign]
    try:
        assert hub.ask_undo(actor) is True
        request = hub.view(REFEREE)["undo_request"]
        assert request["role"] == actor and request["words"]
        assert hub.view(next(r for r in hub.roles if r != actor))["undo_request"] is None
        with pytest.raises(UndoRefused):  # the referee cannot undo past a draw either
            hub.settle_undo_request(True)
        assert hub.undo_request is None
    finally:
        hub.session.game.rules.undo_barrier = barrier  # type: ignore[method-assign]
    hub.ask_undo(actor)
    assert hub.undo_request is None  # at once again once nothing forbids it


def test_the_referee_settles_a_players_undo_request_through_the_api(tmp_path):
    hub = played_hub(tmp_path, "rumble_nation", actions=20)
    app, tokens = app_for(hub)
    client = app.test_client()
    actor = acting_player(hub)
    hub.act(actor, hub.session.game.legal_actions(actor)[0], "phone")
    hub.undo_request = (actor, hub.session.entries[-1].seq)
    assert client.post("/api/undo/request", headers=bearer(tokens[actor]),
                       json={"allow": True}).status_code == 403
    assert client.post("/api/undo/request", headers=bearer(tokens[REFEREE]),
                       json={"allow": "yes"}).status_code == 400
    assert client.post("/api/undo/request", headers=bearer(tokens[REFEREE]),
                       json={"allow": True}).status_code == 200
    assert hub.session.entries[-1].action == Action(REFEREE, "undo",
                                                    {"seq": hub.session.entries[-2].seq})
    assert client.post("/api/undo/request", headers=bearer(tokens[REFEREE]),
                       json={"allow": False}).status_code == 409  # none waiting now
