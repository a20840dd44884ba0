"""The set check (#18), as a chess e-board's: each block held under the camera and each card at
the reader is named on the referee's screen, what is unseen is listed, a tag on two blocks is
flagged; the game is not touched meanwhile, and no other screen sees any of it."""

from __future__ import annotations

import cv2
from helpers import wait_for
from test_browser import pages  # noqa: F401  (a fixture)
from test_live import GEOMETRY, KIT, REGISTRY, TOKEN
from web_helpers import app_for

from companion.engine import PUBLIC, REFEREE
from companion.inputs.events import CardScanned
from companion.inputs.labels import card_code
from companion.live import LiveTable, TableOptions
from companion.record.session import Session
from companion.record.store import Store
from companion.serve import ServeOptions, build_app
from companion.table.setcheck import SetCheck
from companion.vision.layout import Layout
from companion.vision.synth import Camera, Look, Synth


def test_the_check_names_counts_and_flags(tmp_path):
    rules = Session.start(Store(tmp_path / "g.sqlite"), "sekigahara").game.rules
    check = SetCheck(REGISTRY, rules.piece_name)
    first, second = sorted(REGISTRY.blocks)[:2]
    assert check.saw([first, first, second])  # one frame: `first` read on two blocks
    assert not check.saw([second])  # nothing new
    check.scanned(card_code(KIT.cards[0].id))
    check.scanned("NOT-A-CODE")
    report = check.report(c.id for c in KIT.cards)
    assert report["blocks_seen"] == 2 and report["blocks"] == 96
    assert report["cards_seen"] == 1 and report["cards"] == 110
    assert report["doubled"] == [f"tag {first}: {rules.piece_name(REGISTRY.blocks[first])}"]
    assert report["unknown"] == ["code NOT-A-CODE"]
    assert report["recent"][0] == rules.piece_name(KIT.cards[0].id)
    unseen = sum(int(n.rsplit("(", 1)[1][:-1]) if n.endswith(")") else 1
                 for n in report["unseen_blocks"])
    assert unseen == 94


def test_blocks_held_under_the_camera_are_named_on_the_referees_screen(tmp_path):
    """Frames rendered by the synthetic camera of three blocks in the hand's zone, then a card
    at the reader: the live table feeds the check, the game records nothing."""
    db = tmp_path / "games.sqlite"
    store = Store(db)
    session = Session.start(store, "sekigahara")
    store.close()
    shown = sorted(REGISTRY.blocks)[40:43]
    frames = tmp_path / "frames"
    frames.mkdir()
    synth, layout, camera = Synth(GEOMETRY, KIT), Layout(GEOMETRY), Camera((3280, 2464))
    scene = layout.arrange(dict.fromkeys(shown, "card_scan"))
    for n in range(2):
        cv2.imwrite(str(frames / f"{n:04d}.jpg"),
                    synth.photograph(scene, camera, Look(noise=1.0, seed=n)).image)
    app = build_app(ServeOptions(db=db, game_id=session.game_id, referee_token=TOKEN,
                                 table=TableOptions(f"folder:{frames}")))
    live: LiveTable = app.extensions["table"]
    hub = app.extensions["hub"]
    client = app.test_client()
    referee = {"Authorization": f"Bearer {TOKEN}"}
    try:
        assert hub.view(REFEREE)["set_check"] == {"available": True, "running": False}
        assert client.post("/api/setcheck", headers=referee, json={"on": True}).status_code \
            == 200
        live.events.put(CardScanned(card_code(KIT.cards[3].id), "rfid", 0.0))
        wait_for(lambda: hub.view(REFEREE)["set_check"]["blocks_seen"] >= 3
                 and hub.view(REFEREE)["set_check"]["cards_seen"] >= 1, 60,
                 lambda: f"3 blocks and a card seen: {hub.view(REFEREE)['set_check']}",
                 every=0.2)
        report = hub.view(REFEREE)["set_check"]
        rules = hub.session.game.rules
        for tag in shown:
            assert any(rules.piece_name(REGISTRY.blocks[tag]) in line
                       for line in report["recent"])
        assert report["doubled"] == [] and hub.session.entries == []  # the game waits
        for role in (PUBLIC, *hub.roles):  # true identities: the referee's screen only
            assert hub.view(role)["set_check"] is None
        player = app_for(hub)[1]["ishida"]
        assert client.post("/api/setcheck", headers={"Authorization": f"Bearer {player}"},
                           json={"on": False}).status_code == 403
        assert client.post("/api/setcheck", headers=referee, json={"on": False}).status_code \
            == 200
        assert hub.set_check is None
    finally:
        live.stop()


def test_without_a_table_the_check_is_refused_by_name(tmp_path):
    hub_app, tokens = app_for(__import__("web_helpers").played_hub(tmp_path, "rumble_nation"))
    answer = hub_app.test_client().post("/api/setcheck", json={"on": True},
                                        headers={"Authorization": f"Bearer {tokens[REFEREE]}"})
    assert answer.status_code == 409 and "serve --camera" in answer.get_json()["message"]


def test_the_referee_runs_the_set_check_in_the_browser(tmp_path, pages):  # noqa: F811
    import threading

    from test_browser import shot
    from werkzeug.serving import make_server

    db = tmp_path / "games.sqlite"
    store = Store(db)
    session = Session.start(store, "sekigahara")
    store.close()
    frames = tmp_path / "frames"
    frames.mkdir()  # no frame yet: the reader alone
    app = build_app(ServeOptions(db=db, game_id=session.game_id, referee_token=TOKEN,
                                 table=TableOptions(f"folder:{frames}")))
    live: LiveTable = app.extensions["table"]
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        page = pages.open(f"http://127.0.0.1:{server.server_port}/referee#token={TOKEN}")
        page.click("button[data-set-check='on']")
        page.wait_for_selector("#set-check .check-counts", timeout=5000)
        for card in KIT.cards[:3]:
            live.events.put(CardScanned(card_code(card.id), "rfid", 0.0))
        page.wait_for_function("document.querySelector('#set-check .check-counts')"
                               ".textContent.includes('cards: 3 of 110')", timeout=10_000)
        named = app.extensions["hub"].session.game.rules.piece_name(KIT.cards[2].id)
        assert page.locator("#set-check .check-recent li").first.inner_text() == named
        shot(page, "sekigahara-tablet-referee-set-check")
        page.click("button[data-set-check='off']")
        page.wait_for_selector("button[data-set-check='on']", timeout=5000)
        assert pages.errors == []
    finally:
        server.shutdown()
        live.stop()
