"""A camera that is watched (#31): `serve --camera` refuses a source that cannot work before a
game is stored; while a game runs, a camera that stops (a folder deleted, a video played out,
a camera whose device goes away after some frames, black frames) is said once on every screen,
once in the terminal and in the record, and once again when it is back.

Real `python -m companion serve` processes watching stills rendered by the synthetic camera;
the watch's own rules (frozen, black, a recording that waits) on a clock the test turns."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from helpers import screenshot, wait_for
from test_serve_restart import VIEWS_EVERY, pair_phone, put_still, served, view

from companion.kits import load_kit
from companion.vision.geometry import Geometry
from companion.vision.layout import Layout
from companion.vision.synth import Camera, Look, Synth
from companion.vision.watch import STALL_SECONDS, CameraWatch

ROOT = Path(__file__).parents[1]
BANNER = "The camera has stopped: nothing on the table is being read. Check its cable."
SOON = 5.0
"""The banner is on every screen this soon after the camera stops (3 s of silence, then the
next pass of the table loop)."""


# --- the watch's rules -----------------------------------------------------------------------

class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def picture(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(40, 220, (48, 64, 3), dtype=np.uint8)


def test_a_camera_without_frames_stops_after_the_stall_and_is_back_with_the_next_frame():
    clock = Clock()
    watch = CameraWatch(live=True, clock=clock)
    assert watch.see(picture(1), None) is not None and watch.down is None
    clock.now += STALL_SECONDS - 0.1
    assert watch.see(None, "camera 0 not available; retrying in 0.5 s") is None
    assert watch.down is None  # a glitch shorter than the stall says nothing
    clock.now += 0.2
    watch.see(None, "camera 0 not available; retrying in 1.0 s")
    assert watch.down == "camera 0 not available; retrying in 1.0 s"
    assert watch.see(picture(2), None) is not None and watch.down is None


def test_a_frozen_camera_stops_and_moves_again_when_its_picture_changes():
    clock = Clock()
    watch = CameraWatch(live=True, clock=clock)
    frozen = picture(3)
    for _ in range(8):
        watch.see(frozen.copy(), None)
        clock.now += 0.5
    assert watch.down == "the picture is frozen"
    assert watch.see(frozen.copy(), None) is None
    assert watch.see(picture(4), None) is not None and watch.down is None


def test_black_frames_are_not_read_and_stop_any_source_even_a_waiting_folder():
    clock = Clock()
    watch = CameraWatch(live=False, clock=clock)
    assert watch.see(picture(5), None) is not None
    black = np.full((48, 64, 3), 9, np.uint8)
    assert watch.see(black, None) is None and watch.down is None
    clock.now += STALL_SECONDS
    watch.see(None, None)  # the folder waits for its next still: still black
    assert watch.down == "the frames are all black"
    assert watch.see(picture(6), None) is not None and watch.down is None


def test_a_recording_that_waits_for_its_next_still_has_not_stopped():
    """A followed folder (a timelapse) may wait minutes; a repeated still is not frozen."""
    clock = Clock()
    watch = CameraWatch(live=False, clock=clock)
    still = picture(7)
    for _ in range(5):
        assert watch.see(still.copy(), None) is not None
        clock.now += 10
        watch.see(None, None)
    assert watch.down is None
    watch.see(None, "the video v.mp4 has ended")
    assert watch.down == "the video v.mp4 has ended"


def test_a_folder_that_waits_for_its_first_still_has_not_stopped_one_emptied_has(tmp_path):
    from companion.vision.sources import ImageFolder

    source = ImageFolder(tmp_path)
    assert source.next_frame() is None and source.stopped() is None  # a timelapse to come
    put_still(tmp_path, 1, picture(8))
    assert source.next_frame() is not None and source.stopped() is None
    assert source.next_frame() is None and source.stopped() is None  # waits for the next
    (tmp_path / "frame-000001.jpg").unlink()
    assert source.next_frame() is None and "has no images left" in (source.stopped() or "")
    put_still(tmp_path, 1, picture(9))  # filled again: read from its first still
    assert source.next_frame() is not None and source.stopped() is None
    tmp_path.rename(tmp_path.with_name("moved"))
    assert source.next_frame() is None and "is gone" in (source.stopped() or "")


# --- sources refused before a game is stored -------------------------------------------------

def companion(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                          text=True, timeout=120, env=_env(data), check=False)


def _env(data: Path) -> dict[str, str]:
    import os

    return {**os.environ, "PYTHONPATH": str(ROOT), "COMPANION_DATA": str(data)}


@pytest.mark.parametrize(("camera", "said"), [
    ("folder:{tmp}/does-not-exist", "there is no folder {tmp}/does-not-exist"),
    ("usb:5", "there is no camera /dev/video5"),
    ("usb:/dev/video-none", "there is no camera /dev/video-none"),
    ("video:{tmp}/nowhere.mp4", "there is no video file {tmp}/nowhere.mp4"),
    ("video:{tmp}/notes.txt", "{tmp}/notes.txt is not a video that can be played"),
    ("pi", "the Pi camera's library (picamera2) is not installed"),
])
def test_serve_refuses_a_source_that_cannot_work_in_one_sentence(tmp_path, camera, said):
    (tmp_path / "notes.txt").write_text("not a video")
    data = tmp_path / "data"
    ran = companion(data, "serve", "--new", "sekigahara", "--port", "0",
                    "--camera", camera.format(tmp=tmp_path))
    assert ran.returncode == 1, ran.stderr
    lines = ran.stderr.strip().splitlines()
    assert len(lines) == 1 and said.format(tmp=tmp_path) in lines[0], ran.stderr
    assert "Traceback" not in ran.stderr and "WARN" not in ran.stderr
    assert not list(data.rglob("*.sqlite")), "a refused serve stores no game"


@pytest.mark.parametrize("name", ["rumble_nation", "shogun", "barletta"])
def test_every_game_is_refused_the_same_before_anything_is_stored(tmp_path, name):
    data = tmp_path / "data"
    ran = companion(data, "serve", "--new", name, "--port", "0", "--camera", "usb:7")
    assert ran.returncode == 1 and ran.stderr.strip() == (
        "error: camera usb:7: there is no camera /dev/video7 (is it plugged in?)"), ran.stderr
    assert not list(data.rglob("*.sqlite"))


# --- a served table whose camera stops -------------------------------------------------------

class Table:
    """The synthetic camera over Sekigahara's empty map, small frames (quick to read)."""

    def __init__(self) -> None:
        kit = load_kit("sekigahara")
        geometry = Geometry.load(kit)
        self.synth, self.scene = Synth(geometry, kit), Layout(geometry).arrange({})
        self.camera = Camera((1024, 768))
        self.taken = 0

    def frame(self) -> np.ndarray:
        self.taken += 1
        image: np.ndarray = self.synth.photograph(
            self.scene, self.camera, Look(noise=2.0, seed=self.taken)).image
        return image

    def stills(self, folder: Path, count: int, black: bool = False) -> None:
        folder.mkdir(exist_ok=True)
        for _ in range(count):
            image = np.zeros((768, 1024, 3), np.uint8) if black else self.frame()
            self.taken += black
            put_still(folder, self.taken, image)


def stopped(port: int, token: str | None = None) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = view(port, token) if token else view(port)
    return seen["stopped"]  # type: ignore[no-any-return]


def said(log: Path, words: str) -> int:
    """Lines of the server's terminal that say `words`."""
    return sum(words in line for line in log.read_text(errors="replace").splitlines())


def notes(data: Path) -> list[dict[str, Any]]:
    import json

    with sqlite3.connect(data / "games.sqlite") as db:
        rows = db.execute("SELECT value FROM table_state WHERE key = 'stops'").fetchall()
    return json.loads(rows[0][0]) if rows else []


def serve_log(tmp_path: Path) -> Path:
    return next(tmp_path.glob("serve-*.log"))


@pytest.mark.slow
def test_a_folder_deleted_mid_game_stops_the_camera_once_and_it_comes_back(tmp_path):
    table, folder, data = Table(), tmp_path / "camera", tmp_path / "data"
    table.stills(folder, 4)
    with served(tmp_path, data, "--new", "sekigahara", "--camera", f"folder:{folder}") \
            as (child, port):
        wait_for(lambda: said(serve_log(tmp_path), "camera") == 0 and view(port)["version"] >= 0,
                 10, "the table served")
        shutil.rmtree(folder)
        gone = wait_for(lambda: stopped(port), STALL_SECONDS + SOON, "the camera stopped",
                        every=VIEWS_EVERY, alive=child)
        assert gone[0]["device"] == "camera" and "is gone" in gone[0]["reason"]
        assert view(port, None)["stopped"] == [{"device": "camera", "reason": ""}]  # no path
        wait_for(lambda: said(serve_log(tmp_path), "camera stopped"), 5, "the terminal line")
        table.stills(folder, 4)
        wait_for(lambda: not stopped(port), 20, "the camera back", every=VIEWS_EVERY)
        wait_for(lambda: said(serve_log(tmp_path), "camera back"), 5, "the line: back")
        log = serve_log(tmp_path)
        assert said(log, "camera stopped") == 1 and said(log, "camera back") == 1
        assert "WARN" not in log.read_text()
    kept = notes(data)
    assert [n.get("stopped", "back") for n in kept][-2:][1] == "back"
    assert "is gone" in kept[-2]["stopped"]


@pytest.mark.slow
def test_a_video_that_ends_stops_the_camera(tmp_path):
    table, video, data = Table(), tmp_path / "table.avi", tmp_path / "data"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 5, (1024, 768))
    for _ in range(6):
        writer.write(table.frame())
    writer.release()
    with served(tmp_path, data, "--new", "sekigahara", "--camera", f"video:{video}") \
            as (child, port):
        gone = wait_for(lambda: stopped(port), 15, "the camera stopped", every=VIEWS_EVERY,
                        alive=child)
        assert "has ended" in gone[0]["reason"]
        wait_for(lambda: said(serve_log(tmp_path), "camera stopped"), 5, "the terminal line")
        assert said(serve_log(tmp_path), "camera stopped") == 1


@pytest.mark.slow
def test_a_camera_that_fails_after_some_frames_is_retried_quietly_and_comes_back(tmp_path):
    """A camera OpenCV opens (its device: a recorded video, which plays its frames, then no
    more): the device taken away, it is retried with backoff, one line, not one per retry,
    and no OpenCV warning; put back, it is read again."""
    table, data = Table(), tmp_path / "data"
    device, away = tmp_path / "video0.avi", tmp_path / "unplugged.avi"
    writer = cv2.VideoWriter(str(device), cv2.VideoWriter_fourcc(*"MJPG"), 5, (1024, 768))
    for _ in range(5):
        writer.write(table.frame())
    writer.release()
    with served(tmp_path, data, "--new", "sekigahara", "--camera", f"usb:{device}") \
            as (child, port):
        assert not stopped(port)
        device.rename(away)  # unplugged after the frames it gave
        gone = wait_for(lambda: stopped(port), STALL_SECONDS + SOON + 10, "the camera stopped",
                        every=VIEWS_EVERY, alive=child)
        assert "not available" in gone[0]["reason"]
        away.rename(device)
        wait_for(lambda: not stopped(port), 30, "the camera back", every=VIEWS_EVERY)
        wait_for(lambda: said(serve_log(tmp_path), "camera back"), 5, "the line: back")
        log = serve_log(tmp_path)
        assert said(log, "camera stopped") == 1 and said(log, "retrying") <= 1
        assert "WARN" not in log.read_text() and "VIDEOIO" not in log.read_text()


@pytest.mark.slow
def test_black_frames_after_good_ones_stop_the_camera_on_every_screen_in_a_browser(
        tmp_path, browser):
    """The table, the referee's screen and a paired phone show the banner within 5 s of the
    camera stopping (here: black frames after good ones) and drop it once frames come back."""
    table, folder, data = Table(), tmp_path / "camera", tmp_path / "data"
    shots = Path(__file__).with_name("artifacts") / "camera"  # beside the other screenshots
    table.stills(folder, 3)
    with served(tmp_path, data, "--new", "sekigahara", "--camera", f"folder:{folder}") \
            as (_child, port):
        phone = pair_phone(port, "ishida")
        url = f"http://127.0.0.1:{port}"
        pages = {"table": f"{url}/", "referee": f"{url}/referee#token=referee-token-for-the-"
                 "restart", "phone": f"{url}/play#token={phone}"}
        sizes = {"table": (1280, 800), "referee": (1280, 800), "phone": (390, 844)}
        opened = {}
        for name, address in pages.items():
            page = browser.new_page(viewport={"width": sizes[name][0],
                                              "height": sizes[name][1]})
            page.goto(address)
            page.wait_for_selector("#version:not([data-version='-1'])", state="attached",
                                   timeout=10000)
            assert page.locator("#stopped").is_hidden()
            opened[name] = page
        table.stills(folder, 2, black=True)
        for name, page in opened.items():
            page.wait_for_selector("#stopped", state="visible",
                                   timeout=(STALL_SECONDS + SOON) * 1000)
            assert page.locator("#stopped").inner_text().strip() == BANNER
            screenshot(page, shots / f"banner-{name}.png", full_page=False)
        table.stills(folder, 2)
        for page in opened.values():
            page.wait_for_selector("#stopped", state="hidden", timeout=20000)
            page.close()
        assert said(serve_log(tmp_path), "camera stopped") == 1


@pytest.mark.slow
def test_a_card_reader_unplugged_is_said_once_and_back_when_plugged_in(tmp_path):
    """The reader: a pseudo-terminal behind a stable name (as udev's /dev/rfid is); its
    other end closed is the cable pulled, a new one behind the name the reader plugged back."""
    import os
    import tty

    table, folder, data = Table(), tmp_path / "camera", tmp_path / "data"
    table.stills(folder, 3)
    link = tmp_path / "rfid"

    def plug() -> tuple[int, int]:
        controller, device = os.openpty()
        tty.setraw(device)
        link.unlink(missing_ok=True)
        link.symlink_to(os.ttyname(device))
        return controller, device

    ends = plug()
    with served(tmp_path, data, "--new", "sekigahara", "--camera", f"folder:{folder}",
                "--reader", str(link), "--reader-protocol", "line") as (child, port):
        assert not stopped(port)
        link.unlink()
        for end in ends:  # the cable pulled
            os.close(end)
        gone = wait_for(lambda: stopped(port), STALL_SECONDS + SOON + 5, "the reader stopped",
                        every=VIEWS_EVERY, alive=child)
        assert [s["device"] for s in gone] == ["card reader"]
        ends = plug()
        wait_for(lambda: not stopped(port), 20, "the reader back", every=VIEWS_EVERY)
        log = serve_log(tmp_path)
        wait_for(lambda: said(log, "card reader back"), 5, "the line: back")
        assert said(log, "card reader stopped") == 1 and said(log, "retrying") == 0
    for end in ends:
        os.close(end)


@pytest.mark.slow
def test_back_from_a_stop_the_table_is_compared_with_the_record_not_read_as_a_move(tmp_path):
    """A block carried while the camera was away (Osaka to Sendai) was not seen move: back,
    the table is compared with the record (the set-up's alert: the pieces do not stand where
    the record has them), not judged as a march (rule 7), which it would be seen live."""
    from test_live import write_frames

    from companion.games.sekigahara.script import shown
    from companion.live import LiveTable, TableOptions
    from companion.record.session import Session
    from companion.record.store import Store
    from companion.serve import ServeOptions, build_app

    db, frames = tmp_path / "games.sqlite", tmp_path / "frames"
    store = Store(db)
    session = Session.start(store, "sekigahara")
    table = shown(session.game.state, {})
    store.close()
    block = next(b for b, at in sorted(table.items()) if at == "osaka")
    frames.mkdir()
    write_frames(frames, [table])
    app = build_app(ServeOptions(db=db, game_id=session.game_id, referee_token="t",
                                 table=TableOptions(f"folder:{frames}")))
    live: LiveTable = app.extensions["table"]
    lines: list[str] = []
    live.say = lines.append
    hub = app.extensions["hub"]
    try:
        wait_for(lambda: live.session is not None and live.session.counts.stable_states == 1,
                 60, "the table read in order", every=0.2)
        shutil.rmtree(frames)
        wait_for(lambda: "camera" in hub.devices, STALL_SECONDS + SOON, "the camera stopped")
        staged = tmp_path / "staged"  # the folder appears whole, as a camera's card would
        staged.mkdir()
        write_frames(staged, [{**table, block: "sendai"}])
        staged.rename(frames)
        wait_for(lambda: "camera" not in hub.devices, 30, "the camera back")
        alert = wait_for(lambda: hub.alert, 60, "the table compared with the record",
                         every=0.2)
        assert "do not stand where the record has them" in str(alert.message)
        assert not str(alert.rule).startswith("7")
        assert hub.session.entries == [] and lines[0].startswith("camera stopped: the folder")
        assert lines[1:] == ["camera back: reading again"]
    finally:
        live.stop()
