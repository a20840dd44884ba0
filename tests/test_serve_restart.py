"""A restart loses nothing a person did (#18): `companion serve` killed (SIGKILL) while a
question waits, the game is paused, a phone is paired (and, in the slow test, the table is out
of order) comes back with the same question and choices, still paused, the phone still paired
(and the same alert, the desync, on the screens); then the question is answered and the game
goes on.

A real `python -m companion serve` process each time, watching a folder of stills rendered by
the synthetic camera (`vision.synth`), on a temporary database and data folder."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2
import pytest
from helpers import wait_for
from test_serve import free_port

from companion.engine import Action, Game, random_playout
from companion.games import game
from companion.games.sekigahara.script import shown
from companion.kits import load_kit
from companion.record.store import Store
from companion.table import TableRegistry
from companion.table.session import DESYNC
from companion.vision.geometry import Geometry
from companion.vision.layout import Layout
from companion.vision.synth import Camera, Look, Synth

ROOT = Path(__file__).parents[1]
REFEREE_TOKEN = "referee-token-for-the-restart"
TABLE_OPTIONS = game("sekigahara").table_options
"""What `serve --new sekigahara --camera ...` plays with (table knowledge: hands counted)."""


# --- a served table --------------------------------------------------------------------------

@contextmanager
def served(tmp_path: Path, data: Path, *args: str) -> Iterator[tuple[subprocess.Popen[bytes],
                                                                    int]]:
    """`python -m companion serve ARGS` on a free port, its data folder at `data` and its
    output in a log file (never a pipe nobody reads); stopped at the end if still running."""
    port = free_port()
    log = (tmp_path / f"serve-{port}.log").open("wb")  # closed when the server is
    child = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--referee-token", REFEREE_TOKEN, *args],
        stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "COMPANION_DATA": str(data)})
    try:
        wait_for(lambda: _answers(port), 30, lambda: f"serve to start: {_said(log.name)}",
                 alive=child, every=VIEWS_EVERY)
        yield child, port
    finally:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
            child.wait(timeout=15)
        log.close()


def _answers(port: int) -> bool:
    try:
        http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/api/view")
        return True
    except OSError:
        return False


def _said(path: str) -> str:
    return Path(path).read_text(errors="replace")[-3000:]


VIEWS_EVERY = 0.25
"""How often a test asks a served table's view: a view costs the server some work, and asked
too often it crowds the table loop under test."""


def call(port: int, method: str, path: str, token: str | None = REFEREE_TOKEN,
         body: Mapping[str, Any] | None = None) -> tuple[int, Any]:
    """One request the way a screen makes it: JSON, with the device's bearer token."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if body is not None:
        headers["Content-Type"] = "application/json"
    connection.request(method, path, json.dumps(body) if body is not None else None, headers)
    response = connection.getresponse()
    raw = response.read()
    try:
        return response.status, json.loads(raw or b"{}")
    except json.JSONDecodeError:
        return response.status, raw.decode(errors="replace")


def view(port: int, token: str | None = REFEREE_TOKEN) -> dict[str, Any]:
    status, seen = call(port, "GET", "/api/view", token)
    assert status == 200, seen
    return seen  # type: ignore[no-any-return]


def enter(port: int, action: Action) -> None:
    """An action entered on the referee's screen (what the table did not show)."""
    status, said = call(port, "POST", "/api/action", body={"text": action.text()})
    assert status == 200, (action.text(), said)


def pair_phone(port: int, role: str) -> str:
    """A phone paired as a player does it: the referee offers, the phone claims the QR
    code's secret, the referee confirms the code the phone shows."""
    status, offer = call(port, "POST", f"/api/pair/{role}", body={})
    assert status == 200, offer
    status, claimed = call(port, "POST", "/api/pair/claim", None,
                           {"pair": offer["url"].split("#pair=")[1]})
    assert status == 200, claimed
    status, said = call(port, "POST", f"/api/pair/{role}/confirm", body={"code": claimed["code"]})
    assert status == 200, said
    return str(claimed["token"])


def stream_status(port: int, token: str) -> int:
    """The status a phone's live stream opens with (401 for a token nobody knows)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", f"/stream?token={token}")
    status = connection.getresponse().status
    connection.close()
    return status


# --- the table, photographed -----------------------------------------------------------------

def table_script(seed: int, kit: str = "sekigahara") -> list[Action]:
    """A random game of Sekigahara as the table plays it (the served game's options)."""
    spec = game("sekigahara")
    played: Game[Any] = Game(spec.rules(load_kit(kit), TABLE_OPTIONS), seed=seed)
    random_playout(played)
    return [ply.action for ply in played.history]


class Photographer:
    """The synthetic camera over the table, writing numbered stills into a folder."""

    def __init__(self, kit: Any, registry: TableRegistry, camera: Camera) -> None:
        self.geometry = Geometry.load(kit)
        self.synth, self.layout = Synth(self.geometry, kit), Layout(self.geometry, crowd=True)
        self.registry, self.camera = registry, camera
        self.taken = 0

    def table(self, folder: Path, blocks: Mapping[str, str]) -> list[Path]:
        """The blocks (id -> zone) put down, a hand over the table, then still frames (the
        tracker wants three that agree)."""
        scene = self.layout.arrange({self.registry.tags[b]: z for b, z in blocks.items()})
        looks = [Look(noise=1.5, hand=(0.5, 0.5, 0.15), seed=self.taken)]
        looks += [Look(noise=1.5, defocus=0.4, seed=self.taken + k) for k in range(1, 5)]
        stills = []
        for look in looks:
            self.taken += 1
            image = self.synth.photograph(scene, self.camera, look).image
            stills.append(put_still(folder, self.taken, image))
        return stills


def put_still(folder: Path, number: int, image: Any) -> Path:
    """Still `number` into `folder` as JPEG, the way a capture program writes it: beside the
    folder's images, then renamed in, so it appears whole."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    path = folder / f"frame-{number:06d}.jpg"
    part = folder / f".{path.name}.part"
    part.write_bytes(data.tobytes())
    part.replace(path)
    return path


# --- the tests -------------------------------------------------------------------------------

class Served:
    """One game served at a watched table, killed and started again on the same database."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path, self.data = tmp_path, tmp_path / "data"
        self.db = tmp_path / "games.sqlite"
        self.kit: Any = load_kit("sekigahara")
        self.shadow: Game[Any] = Game(game("sekigahara").rules(self.kit, TABLE_OPTIONS), seed=3)
        self.script = table_script(seed=3)
        self.game_id = 0

    def start(self, camera: Path, *args: str) -> Any:
        return served(self.tmp_path, self.data, "--db", str(self.db), "--camera",
                      f"folder:{camera}", *args)

    def to_the_question(self, port: int) -> dict[str, Any]:
        """The set-up draws and the bids, entered on the referee's screen, up to 6.3: the
        bid's winner chooses who moves first, which the table cannot show: the live
        referee's question."""
        for action in self.script:
            if self.shadow.state.phase == "first_player":
                break
            enter(port, action)
            self.shadow.apply(action)
        asked: dict[str, Any] = wait_for(lambda: view(port)["question"], 20, "a question (6.3)",
                                         every=VIEWS_EVERY)
        assert asked["by"] in ("ishida", "tokugawa") and len(asked["options"]) == 2
        assert {Action.from_text(o).verb for o in asked["options"]} == {"choose_first"}
        self.game_id = view(port)["game_id"]
        return asked

    def pause_and_pair(self, port: int, role: str) -> tuple[str, dict[str, dict[str, Any]]]:
        """The referee pauses the game and pairs `role`'s phone; the phone, the referee's
        screen and the table display as they are then."""
        assert call(port, "POST", "/api/pause", body={"paused": True})[0] == 200
        phone = pair_phone(port, role)
        seen = {"referee": view(port), "phone": view(port, phone), "public": view(port, None)}
        assert seen["phone"]["role"] == role and seen["phone"]["question"]["options"]
        assert seen["public"]["question"]["options"] == []  # a question is the chooser's
        return phone, seen

    def comes_back(self, port: int, phone: str, was: dict[str, dict[str, Any]]) -> None:
        """Every screen sees what it saw before the kill: the question and its choices, the
        pause, the alert, the record, the paired phones; the phone's token still opens its
        live stream (a stranger's does not)."""
        now = {"referee": view(port), "phone": view(port, phone), "public": view(port, None)}
        for who in ("referee", "phone", "public"):
            for part in ("question", "paused", "alert", "actions", "pairing"):
                assert now[who][part] == was[who][part], (who, part)
        assert now["referee"]["paused"] is True and now["phone"]["role"] == was["phone"]["role"]
        assert stream_status(port, phone) == 200
        assert stream_status(port, "a-token-nobody-gave") == 401

    def answer(self, port: int, phone: str, asked: dict[str, Any]) -> None:
        """The phone may not answer while the game is paused; once the referee goes on, its
        answer is the scripted choice and the game moves on to the first movement (7)."""
        scripted = self.script[len(self.shadow.history)]
        choice = asked["options"].index(scripted.text())
        status, said = call(port, "POST", "/api/answer", phone, {"choice": choice})
        assert status == 403 and "paused" in json.dumps(said)
        assert call(port, "POST", "/api/pause", body={"paused": False})[0] == 200
        status, said = call(port, "POST", "/api/answer", phone, {"choice": choice})
        assert status == 200, said
        self.shadow.apply(scripted)
        going = view(port)
        assert going["question"] is None and going["actions"] == len(self.shadow.history)
        assert going["view"]["phase"] == self.shadow.state.phase == "movement"

    def kept(self) -> dict[str, Any]:
        return _table_state(self.db, self.game_id)


def test_a_killed_serve_comes_back_with_its_question_pause_and_phone(tmp_path: Path) -> None:
    """No frame yet: the live referee asks 6.3 on its own; killed, the server asks it again."""
    table, camera = Served(tmp_path), tmp_path / "camera"
    camera.mkdir()
    with table.start(camera, "--new", "sekigahara") as (child, port):
        asked = table.to_the_question(port)
        phone, was = table.pause_and_pair(port, asked["by"])
        assert table.kept().keys() == {"question", "paused"}
        child.send_signal(signal.SIGKILL)  # no goodbye: the power cut
        child.wait(timeout=10)
    with table.start(camera, "--game", str(table.game_id)) as (_child, port):
        table.comes_back(port, phone, was)
        table.answer(port, phone, asked)
    assert table.kept() == {}


@pytest.mark.slow
def test_a_killed_serve_comes_back_out_of_order_with_its_alert(tmp_path: Path) -> None:
    """The same, with the table out of order when the power goes: a block carried where no
    road leads this phase (7.3). The alert comes back as it was (the block named to its side and the
    referee only, 3.1), stays through the answer, and goes once the block is put back."""
    table = Served(tmp_path)
    before, after = tmp_path / "camera-before", tmp_path / "camera-after"
    before.mkdir()
    after.mkdir()
    camera = Photographer(table.kit, TableRegistry.in_kit_order(b.id for b in table.kit.blocks),
                          Camera((3280, 2464)))
    with table.start(before, "--new", "sekigahara") as (child, port):
        asked = table.to_the_question(port)
        placed = shown(table.shadow.state, {})
        block = next(b for b, at in sorted(placed.items()) if at == "osaka")
        in_order = camera.table(before, placed)
        moved = camera.table(before, {**placed, block: "sendai"})
        alert = wait_for(lambda: view(port)["alert"], 60, "an alert for the carried block",
                         every=VIEWS_EVERY)
        named = alert["message"].split(" moved ")[0]  # the block in words, e.g. its leader
        assert alert["role"] == "ishida" and alert["rule"].startswith("7.3") and named
        phone, was = table.pause_and_pair(port, asked["by"])
        assert named not in json.dumps(was["public"]["alert"])  # 3.1: hidden from the others
        italian = call(port, "GET", "/api/view?lang=it")[1]["alert"]
        assert italian["message"] != alert["message"]  # said in each screen's language
        assert table.kept().keys() == {"question", "paused", DESYNC}
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)

    for n, still in enumerate(moved):  # the camera, started again, sees the table as it is
        shutil.copy(still, after / f"frame-{n:06d}.jpg")
    with table.start(after, "--game", str(table.game_id)) as (_child, port):
        table.comes_back(port, phone, was)
        assert view(port)["alert"] == alert
        assert call(port, "GET", "/api/view?lang=it")[1]["alert"] == italian  # kept as sentences
        table.answer(port, phone, asked)
        # The block still stands where it may not: the alert the accepted answer took off
        # the screens is shown again once the table is looked at.
        wait_for(lambda: view(port)["alert"] == alert, 30, "the table's alert to return",
                 every=VIEWS_EVERY)
        for n, still in enumerate(in_order, start=len(moved)):  # put back: in order again
            shutil.copy(still, after / f"frame-{n:06d}.jpg")
        wait_for(lambda: view(port)["alert"] is None, 60, "the alert to go after the put-back",
                 every=VIEWS_EVERY)
    assert table.kept() == {}


def _table_state(db: Path, game_id: int) -> dict[str, Any]:
    """What the store keeps of the table for the game (the pause, the question, the desync)."""
    store = Store(db)
    try:
        return store.table_state(game_id)
    finally:
        store.close()
