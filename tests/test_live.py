"""The live table on `companion serve` (9): frames from a folder (recorded camera stills),
through the table loop in the server's process, to the tablet and the lights."""

from __future__ import annotations

import cv2
import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from helpers import wait_for

from companion.games.sekigahara.referee import SekigaharaReferee
from companion.games.sekigahara.script import shown
from companion.kits import load_kit
from companion.live import LiveTable, TableOptions, frame_source
from companion.record.session import Session
from companion.record.store import Store
from companion.serve import ServeOptions, build_app
from companion.table import TableParts, TableRegistry
from companion.vision.geometry import Geometry
from companion.vision.layout import Layout
from companion.vision.synth import Camera, Look, Synth

KIT = load_kit("sekigahara")
GEOMETRY = Geometry.load(KIT)
REGISTRY = TableRegistry.in_kit_order(b.id for b in KIT.blocks)
TOKEN = "referee-token-for-tests"


def write_frames(folder, tables: list[dict[str, str]]) -> None:
    """Each table (block -> zone) as a hand frame then four still frames, as JPEG stills."""
    synth, layout, camera = Synth(GEOMETRY, KIT), Layout(GEOMETRY), Camera((3280, 2464))
    n = 0
    for table in tables:
        scene = layout.arrange({REGISTRY.tags[b]: z for b, z in table.items()})
        looks = [Look(hand=(0.5, 0.5, 0.15), seed=n)] + [Look(noise=1.5, seed=n + k)
                                                          for k in range(1, 5)]
        for look in looks:
            image = synth.photograph(scene, camera, look).image
            cv2.imwrite(str(folder / f"{n:04d}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
            n += 1


def test_a_block_carried_off_the_roads_raises_the_alert_on_the_tablet_and_the_red_light(
        tmp_path):
    db = tmp_path / "games.sqlite"
    store = Store(db)
    session = Session.start(store, "sekigahara")
    table = shown(session.game.state, {})
    store.close()
    block = next(b for b, at in sorted(table.items()) if at == "osaka")
    frames = tmp_path / "frames"
    frames.mkdir()
    write_frames(frames, [table, {**table, block: "sendai"}])  # Osaka to Sendai: no march

    Device.pin_factory = MockFactory()
    app = build_app(ServeOptions(db=db, game_id=session.game_id, referee_token=TOKEN,
                                 table=TableOptions(f"folder:{frames}", gpio=True)))
    live: LiveTable = app.extensions["table"]
    client = app.test_client()
    try:
        wait_for(lambda: live.source is not None and live.source.status == "no more images", 60,
                 "the table loop to read the frames", every=0.2)
        assert live.session is not None and live.session.counts.stable_states == 2
        view = client.get("/api/view", headers={"Authorization": f"Bearer {TOKEN}"}).json
        assert view["alert"] is not None and view["alert"]["rule"].startswith("7")
        assert view["actions"] == 0  # nothing illegal is recorded
        public = client.get("/api/view").json
        assert public["alert"]["rule"] == view["alert"]["rule"]
        assert public["alert"]["message"] != view["alert"]["message"]  # the rule number only
        other = app.extensions["hub"].tokens.issue("tokugawa")  # not the side that moved
        theirs = client.get("/api/view", headers={"Authorization": f"Bearer {other}"}).json
        assert theirs["alert"]["message"] == public["alert"]["message"]
        hardware = live.session.hardware
        assert hardware is not None
        assert hardware.lights["red"].is_lit and not hardware.lights["green"].is_lit
        assert live.session.referee.desync is not None
    finally:
        live.stop()
        if live.session is not None and live.session.hardware is not None:
            live.session.hardware.close()


def test_an_unknown_camera_is_named():
    with pytest.raises(ValueError, match="unknown camera 'webcam'"):
        frame_source("webcam")
    assert type(frame_source("usb:0")).__name__ == "CameraSource"
    assert type(frame_source("pi")).__name__ == "PiCameraSource"


def test_a_card_refused_raises_the_alert_but_leaves_the_board_in_order(tmp_path):
    """An unknown card (3.3) changes nothing on the board: no desync, the next move is read."""
    from companion.inputs.events import CardScanned
    from companion.table.session import TableSession
    from companion.vision.table import StableTracker, TableReader
    from companion.web.hub import Hub

    hub = Hub(Session.start(Store(tmp_path / "g.sqlite"), "sekigahara"))
    table = TableSession(hub, TableParts(TableReader(GEOMETRY), StableTracker(stacks=GEOMETRY),
                                         SekigaharaReferee(hub.session.game.rules, REGISTRY)))
    hub.pause(True)  # while the referee has paused the game, inputs wait
    table.on_input(CardScanned("NOT-A-CARD", "rfid", 0.0))
    assert hub.alert is None and table.counts.alerts == 0
    hub.pause(False)
    table.recheck()  # the live loop's next pass: the table in order, the held scan read
    assert hub.alert is not None and hub.alert.rule == "3.3"
    assert table.referee.desync is None and table.counts.alerts == 1


def test_a_question_is_answered_with_the_table_buttons(tmp_path):
    """Next phase moves the tablet's highlight, confirm answers (9: a tap or a button)."""
    from companion.inputs.events import ButtonPressed
    from companion.table.session import TableSession
    from companion.vision.table import StableTracker, TableReader
    from companion.web.hub import Hub

    hub = Hub(Session.start(Store(tmp_path / "g.sqlite"), "sekigahara"))
    table = TableSession(hub, TableParts(TableReader(GEOMETRY), StableTracker(stacks=GEOMETRY),
                                         SekigaharaReferee(hub.session.game.rules, REGISTRY)))
    from companion.demo import script_for
    from companion.games import game

    # on to the first choice between two actions
    for action in script_for(game("sekigahara"), 290, 40):
        if len(hub.session.game.legal_actions()) >= 2:
            break
        hub.session.play(action, "simulator")
    played = len(hub.session.entries)
    options = tuple(hub.session.game.legal_actions()[:2])
    assert len(options) == 2
    hub.ask("Which one?", options)
    table.on_input(ButtonPressed("next_phase", 0.0))
    assert hub.view("referee")["question"]["highlighted"] == 1
    assert hub.view("public")["question"]["highlighted"] is None  # options are not public
    table.on_input(ButtonPressed("confirm", 0.1))
    assert hub.question is None
    assert [(e.action, e.source) for e in hub.session.entries[played:]] == [
        (options[1], "button")]
