"""Alerts four players read across the room (issue 32): every alert has a title, what was wrong
and what to do, in each screen's language; a wrong draw or roll never names the chance role
but the entry that was wrong; a change tried while the referee has paused the game is told in
a sentence, never with an HTTP status as its rule."""

from __future__ import annotations

import pytest
from web_helpers import acting_player, app_for, played_hub

from companion.engine import CHANCE, PUBLIC, REFEREE, Action, Alert, IllegalAction
from companion.i18n import translator
from companion.web.hub import PAUSED

GAMES = ["sekigahara", "rumble_nation", "shogun", "barletta"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.parametrize("name", GAMES)
def test_a_wrong_draw_or_roll_says_which_entry_and_who_enters_it_again(tmp_path, name):
    hub = played_hub(tmp_path, name, actions=0, settle=False)
    game = hub.session.game
    pick = game.rules.picks(game.state, "en")[0]
    with pytest.raises(IllegalAction):  # the pick's fixed part alone: what was drawn is missing
        hub.act(REFEREE, Action(CHANCE, pick.verb, dict(pick.fixed)), "tablet")
    for viewer in (PUBLIC, *hub.roles, REFEREE):
        for lang in ("en", "it"):
            alert = hub.view(viewer, lang)["alert"]
            shown = " ".join([alert["title"], alert["message"], alert["fix"], *alert["legal"]])
            assert "chance" not in shown.lower(), alert
            assert alert["title"] and alert["fix"] and alert["summary"] is not None
            if viewer != REFEREE:  # the entry by its title, in the screen's language
                assert game.rules.picks(game.state, lang)[0].title in alert["message"]
    it = translator("it", "companion.web")
    assert hub.view(PUBLIC, "it")["alert"]["fix"] == \
        it("The referee enters it again, as it lies on the table")
    assert hub.view(PUBLIC, "it")["alert"]["title"] == it("Entered wrongly")


@pytest.mark.parametrize("name", GAMES)
def test_a_players_refusal_names_the_side_and_what_to_do_on_every_screen(tmp_path, name):
    hub = played_hub(tmp_path, name)
    actor = acting_player(hub)
    other = next(role for role in hub.roles if role != actor)
    with pytest.raises(IllegalAction):
        hub.act(actor, Action(actor, "no_such_verb", {}), "phone")
    theirs = hub.view(other)["alert"]
    assert theirs["message"] == f"{actor.capitalize()}: this move is not allowed"
    assert theirs["title"] == "Not allowed" and theirs["fix"]
    for viewer in (PUBLIC, actor, other, REFEREE):
        for lang in ("en", "it"):
            alert = hub.view(viewer, lang)["alert"]
            assert alert["fix"] and alert["message"] and alert["title"], (viewer, lang, alert)
            assert "refused" not in alert["message"]


def test_a_table_alert_without_a_fix_of_its_own_still_says_what_to_do(tmp_path):
    hub = played_hub(tmp_path, "sekigahara")
    hub.raise_alert(Alert("7.3.1", "a block has no road there", (), None))
    for viewer in (PUBLIC, REFEREE, *hub.roles):
        alert = hub.view(viewer, "it")["alert"]
        assert alert["fix"] == translator("it", "companion.web")(
            "Put the pieces back as the rule says, then go on")
    assert hub.view(PUBLIC)["alert"]["message"] == \
        "The table shows something the rules do not allow"


def test_a_change_while_paused_is_a_sentence_not_a_status_as_a_rule(tmp_path):
    hub = played_hub(tmp_path, "rumble_nation")
    actor = acting_player(hub)
    app, tokens = app_for(hub)
    client = app.test_client()
    hub.pause(True)
    choice = hub.view(actor)["choices"][0]
    refused = client.post("/api/action", headers=bearer(tokens[actor]),
                          json={"text": choice["text"]})
    assert refused.status_code == 403
    body = refused.get_json()
    assert body["rule"] is None and body["message"] == PAUSED
    undo = client.post("/api/undo", headers=bearer(tokens[actor]), json={})
    assert undo.get_json()["rule"] is None
    assert translator("it", "companion.web")(PAUSED) != PAUSED  # the phone says it in Italian
    assert hub.view(actor)["paused"] is True


def test_the_pairing_offers_the_tables_public_address_to_type_the_digits(tmp_path):
    from companion.web.present import present

    hub = played_hub(tmp_path, "sekigahara", actions=0, settle=False)
    hub.offer_pairing("ishida", "http://192.168.1.20:8101")
    offer = present(REFEREE, hub.view(REFEREE))["pairing"]["ishida"]
    assert offer["address"] == "192.168.1.20:8101/play" and offer["qr"] and offer["digits"]
    hub.claim_pairing(hub._offers["ishida"].secret)  # claimed: nothing left to type
    assert present(REFEREE, hub.view(REFEREE))["pairing"]["ishida"]["address"] is None
