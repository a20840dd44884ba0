"""The set-up page (#18): `companion setup --page` serves, for the referee, the camera's live
preview with the calibration drawn on every frame, Save calibration into the user's data
folder, the phones' address, the referee's link and the table mat.

The camera is a folder of photographs of the synthetic table (`companion.vision.synth`); the
page is served by the real command in a child process and opened in Debian's chromium.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest
import yaml
from helpers import screenshot
from playwright.sync_api import Browser, Page, Response
from test_serve import free_port

from companion.i18n import catalog
from companion.kits import load_kit
from companion.vision.corpus import random_scene
from companion.vision.detect import TagDetector
from companion.vision.geometry import Geometry
from companion.vision.preview import (
    PREVIEW_WIDTH,
    LivePreview,
    check_corners,
    draw_preview,
    preview_source,
)
from companion.vision.synth import Synth, random_camera

ROOT = Path(__file__).parents[1]
WEB = ROOT / "companion" / "web"
ARTIFACTS = Path(__file__).with_name("artifacts")
VIEWPORTS = {"tablet": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
GEOMETRY = Geometry.load(load_kit("sekigahara"))
COVERED = 2
"""The corner marker a hand covers in the `covered` photographs."""


@dataclass(frozen=True)
class Stills:
    good: Path
    covered: Path
    empty: Path


@pytest.fixture(scope="module")
def stills(tmp_path_factory: pytest.TempPathFactory) -> Stills:
    """A photograph of the whole table; the same with one corner marker covered; nothing."""
    base = tmp_path_factory.mktemp("stills")
    kit, rng = load_kit("sekigahara"), random.Random(1)
    frame = Synth(GEOMETRY, kit).photograph(random_scene(GEOMETRY, rng),
                                            random_camera(rng, (2028, 1520))).image
    folders = Stills(base / "good", base / "covered", base / "empty")
    for folder in (folders.good, folders.covered, folders.empty):
        folder.mkdir()
    cv2.imwrite(str(folders.good / "0001.jpg"), frame)
    marker = next(r for r in TagDetector().detect(frame) if r.id == COVERED)
    (x0, y0), (x1, y1) = marker.corners.min(axis=0) - 12, marker.corners.max(axis=0) + 12
    covered = frame.copy()
    covered[int(y0):int(y1), int(x0):int(x1)] = (70, 100, 130)  # a hand over it
    cv2.imwrite(str(folders.covered / "0001.jpg"), covered)
    return folders


# --- the preview itself ------------------------------------------------------------------------


def test_the_preview_draws_found_corners_green_and_a_missing_one_red_where_the_fit_puts_it(
        stills):
    whole = cv2.imread(str(stills.good / "0001.jpg"))
    check = check_corners(GEOMETRY, whole)
    assert check.summary()["corners_seen"] == 4 and check.missing == ()
    assert check.calibration is not None and check.calibration.error_mm < 2.0
    covered = cv2.imread(str(stills.covered / "0001.jpg"))
    partial = check_corners(GEOMETRY, covered)
    assert partial.missing == (COVERED,) and partial.calibration is not None
    image = draw_preview(GEOMETRY, covered, partial)
    assert image.shape[1] == PREVIEW_WIDTH  # made small: 2028 -> 960 wide
    scale = PREVIEW_WIDTH / covered.shape[1]
    x, y = (np.array(partial.calibration.frame_point(*GEOMETRY.corners[COVERED])) * scale)
    around = image[int(y) - 15:int(y) + 15, int(x) - 15:int(x) + 15].reshape(-1, 3)
    red = (around[:, 2] > 180) & (around[:, 1] < 90) & (around[:, 0] < 90)
    assert red.sum() > 20, "the missing corner is not drawn in red where the fit puts it"
    x, y = (np.array(partial.calibration.frame_point(*GEOMETRY.corners[0])) * scale)
    around = image[int(y) - 15:int(y) + 15, int(x) - 15:int(x) + 15].reshape(-1, 3)
    green = (around[:, 1] > 170) & (around[:, 0] < 100) & (around[:, 2] < 100)
    assert green.sum() > 20, "a corner found is not drawn in green"


def test_the_preview_is_taken_at_most_fps_times_a_second_and_a_folder_starts_again(stills):
    preview = LivePreview(f"folder:{stills.good}", GEOMETRY, fps=4.0)
    first = preview.latest()
    assert first.problem == "" and first.check is not None and first.number == 1
    assert preview.latest().number == 1  # asked again at once: the same frame, nothing taken
    time.sleep(0.3)
    again = preview.latest()  # the folder's only still, again: a camera that keeps showing
    assert again.number == 2 and again.frame is not None
    preview.close()


def test_a_camera_that_cannot_be_used_is_named(stills, tmp_path):
    with pytest.raises(ValueError, match="there is no folder"):
        preview_source(f"folder:{tmp_path / 'nowhere'}")
    with pytest.raises(ValueError, match="unknown camera 'webcam'"):
        preview_source("webcam")
    with pytest.raises(ValueError, match="at most 300 characters"):
        preview_source("folder:" + "x" * 400)
    empty = LivePreview(f"folder:{stills.empty}", GEOMETRY).latest()
    assert empty.image is None and "no images (JPEG, PNG) in folder" in empty.problem
    absent = LivePreview("usb:63", GEOMETRY).latest()  # a device that is not there
    assert absent.image is None and "there is no camera /dev/video63" in absent.problem


def test_the_preview_shows_the_refusal_of_the_last_source_tried_never_an_older_ones(stills,
                                                                                 tmp_path):
    preview = LivePreview("usb:63", GEOMETRY)
    assert "/dev/video63" in preview.latest().problem
    with pytest.raises(ValueError, match="there is no folder"):
        preview.switch(f"folder:{tmp_path / 'nowhere'}")
    shown = preview.latest()
    assert "there is no folder" in shown.problem and "video63" not in shown.problem
    assert preview.source == f"folder:{tmp_path / 'nowhere'}"
    with pytest.raises(ValueError, match="unknown camera 'webcam'"):
        preview.switch("webcam")
    assert "unknown camera 'webcam'" in preview.latest().problem
    (tmp_path / "nowhere").mkdir()  # made since: the source tried works once it can
    preview.switch(f"folder:{stills.good}")
    assert preview.latest().problem == ""
    preview.close()


def test_a_video_is_a_source_as_serve_takes_it_played_again_from_its_start(stills, tmp_path):
    video = tmp_path / "table.avi"
    frame = cv2.imread(str(stills.good / "0001.jpg"))
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 2,
                             (frame.shape[1], frame.shape[0]))
    writer.write(frame)
    writer.release()
    preview = LivePreview(f"video:{video}", GEOMETRY, fps=5.0)
    first = preview.latest()
    assert first.problem == "" and first.check is not None and first.check.calibration
    time.sleep(0.25)
    assert preview.latest().number == first.number + 1 and preview.latest().problem == ""
    preview.close()
    with pytest.raises(ValueError, match="there is no video file"):
        preview_source(f"video:{tmp_path / 'none.mp4'}")


BOARDS = {"Sekigahara": GEOMETRY,
          "Rumble Nation": Geometry.load(load_kit("rumble_nation"))}


def test_every_games_mat_has_corner_markers_of_its_own_clear_of_the_pieces_tags():
    from companion.games import all_games
    from companion.table.registry import FIRST_PIECE_TAG

    seen: dict[int, str] = {}
    for name, spec in all_games().items():
        if not spec.has("board"):
            continue
        for tag in spec.board_geometry().corners:
            assert tag not in seen, f"corner marker {tag}: {name}'s and {seen[tag]}'s"
            assert tag < FIRST_PIECE_TAG or tag > 500, (name, tag)  # pieces count up from 10
            seen[tag] = name
    assert len(seen) >= 16


def test_another_games_mat_is_refused_by_name_never_fitted(stills):
    frame = cv2.imread(str(stills.good / "0001.jpg"))
    wrong = check_corners(BOARDS["Rumble Nation"], frame, boards=BOARDS)
    assert wrong.calibration is None and len(wrong.found) == 0
    assert wrong.problem.startswith("these corners are Sekigahara's mat, not Rumble Nation's")
    assert wrong.summary()["other_board"] == "Sekigahara"
    right = check_corners(GEOMETRY, frame, boards=BOARDS)
    assert right.calibration is not None and right.problem == ""


# --- the page's server ---------------------------------------------------------------------------


@dataclass
class SetupServer:
    url: str
    token: str
    data: Path
    child: subprocess.Popen[str]

    def call(self, path: str, body: object = None, token: str | None = "", *,
             headers: dict[str, str] | None = None) -> tuple[int, bytes, dict[str, str]]:
        """(status, body, headers); `token` "" is the referee's, None none."""
        sent = {"Content-Type": "application/json"} if body is not None else {}
        if token is not None:
            sent["Authorization"] = f"Bearer {token or self.token}"
        sent |= headers or {}
        data = body if isinstance(body, bytes) else None if body is None \
            else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, headers=sent,
                                         method="POST" if data is not None else "GET")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, response.read(), dict(response.headers)
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read(), dict(exc.headers)


def _companion(data: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "companion", *args], text=True,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT,
                            env={**os.environ, "PYTHONPATH": str(ROOT),
                                 "COMPANION_DATA": str(data)})


@pytest.fixture(scope="module")
def server(stills, tmp_path_factory) -> Iterator[SetupServer]:
    data = tmp_path_factory.mktemp("data")
    port = free_port()
    child = _companion(data, "setup", "--yes", "--page", "--host", "127.0.0.1", "--port",
                       str(port), "--camera", f"folder:{stills.good}",
                       "--public-url", f"http://127.0.0.1:{port}")
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(url + "/setup", timeout=2).close()
            break
        except OSError:
            assert time.monotonic() < deadline, "the set-up page was not served in 30 s"
        with contextlib.suppress(subprocess.TimeoutExpired):  # between tries: the child ending
            child.wait(timeout=0.2)
            raise AssertionError(child.stdout.read() if child.stdout else "setup ended")
    token = (data / "referee-token").read_text().strip()
    yield SetupServer(url, token, data, child)
    child.terminate()
    out, _ = child.communicate(timeout=15)
    assert f"the set-up page (Ctrl-C ends it): {url}/setup#token={token}" in out
    assert "Traceback" not in out, out


def _use(server: SetupServer, source: str) -> None:
    status, body, _ = server.call("/setup/api/camera", {"source": source, "game": "sekigahara"})
    assert status == 200, body


def test_the_api_is_the_referees_and_bounded(server):
    assert server.call("/setup/api/state", token=None)[0] == 401
    assert server.call("/setup/api/preview", token="not-the-referee")[0] == 403
    assert server.call("/setup/api/save", {}, token="x" * 500)[0] == 403
    status, body, _ = server.call("/setup/api/save", b"source=pi",
                                  headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 415  # a change is JSON: a form on another site cannot post one
    status, _, _ = server.call("/setup/api/camera", {"source": "pi"},
                               headers={"Origin": "http://evil.example"})
    assert status == 403
    assert server.call("/setup/api/camera", {"source": "x" * 100_000})[0] == 413
    status, body, _ = server.call("/setup/api/camera", {"source": "usb:" + "9" * 400})
    assert status == 400 and b"at most 300 characters" in body
    status, body, _ = server.call("/setup/api/camera", {"game": "skirmish"})
    assert status == 400 and b"Skirmish has no" in body
    assert server.call("/setup", headers={"Host": "evil.example"}, token=None)[0] == 400


def test_the_page_gets_the_toolkit_and_its_words_as_the_tables_pages_do(server):
    """The front-end toolkit at the URL every page imports it by, as a JavaScript module (a
    browser runs a module only with a JavaScript type); the page's words from the same catalog
    route as the table's; both need no token, as the page itself does not."""
    def kind(headers: dict[str, str]) -> str:
        return next(v for k, v in headers.items() if k.lower() == "content-type")

    status, body, headers = server.call("/common/toolkit.js", token=None)
    assert status == 200 and kind(headers).startswith("text/javascript")
    assert body == (WEB / "static" / "toolkit.js").read_bytes()
    for script in ("setup.js", "referee_page.js"):
        status, _, headers = server.call(f"/static/{script}", token=None)
        assert status == 200 and "javascript" in kind(headers), script
    status, body, _ = server.call("/i18n/it/shell.json", token=None)
    assert status == 200 and json.loads(body)["words"]["Save calibration"] == \
        "Salva la calibrazione"
    assert server.call("/", token=None)[0] == 200  # "/" leads to the page


def test_the_phones_address_is_saved_as_companion_setup_saves_it(server):
    status, body, _ = server.call("/setup/api/public-url", {"public_url": "table.local"})
    assert status == 400 and b"is not an http(s) address" in body
    status, body, _ = server.call("/setup/api/public-url",
                                  {"public_url": "http://table.local:8000/"})
    assert status == 200, body
    state = json.loads(body)
    assert state["play_url"] == "http://table.local:8000/play"
    assert state["referee_link"] == f"http://table.local:8000/referee#token={server.token}"
    assert "<svg" in state["referee_qr"]
    saved = yaml.safe_load((server.data / "settings.yaml").read_text())
    assert saved == {"public_url": "http://table.local:8000"}
    link = subprocess.run([sys.executable, "-m", "companion", "referee-link", "--no-qr"],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT),
                               "COMPANION_DATA": str(server.data)}).stdout.strip()
    assert link == state["referee_link"]  # what the page shows is what the command prints
    server.call("/setup/api/public-url", {"public_url": server.url})


def test_the_command_refuses_a_camera_or_a_game_it_cannot_show(tmp_path):
    bad = _companion(tmp_path, "setup", "--yes", "--page", "--port", str(free_port()),
                     "--camera", "webcam")
    out, _ = bad.communicate(timeout=60)
    assert bad.returncode == 2 and "unknown camera 'webcam'" in out
    assert not (tmp_path / "settings.yaml").exists()  # nothing saved before it was refused
    none = _companion(tmp_path, "setup", "--yes", "--page", "--port", str(free_port()),
                      "--game", "skirmish")
    out, _ = none.communicate(timeout=60)
    assert none.returncode == 1 and "Skirmish has no" in out


# --- in the browser ------------------------------------------------------------------------------


def _open(browser: Browser, url: str, viewport: str = "tablet",
          lang: str = "en") -> tuple[Page, list[Response]]:
    """A new page at `url`, in `lang`, with every response it receives."""
    page = browser.new_page(viewport=VIEWPORTS[viewport])
    page.add_init_script(f"localStorage.setItem('companion.lang', '{lang}')")
    received: list[Response] = []
    page.on("response", lambda response: received.append(response))
    page.goto(url)
    return page, received


def _shot(page: Page, name: str) -> None:
    screenshot(page, ARTIFACTS / f"{name}.png")


def _wait_for_frame(page: Page) -> None:
    page.wait_for_function(
        "() => { const img = document.getElementById('preview');"
        " return !img.hidden && img.complete && img.naturalWidth > 0; }", timeout=15000)


def test_without_the_referees_token_the_page_shows_nothing_of_the_table(browser, server):
    page, received = _open(browser, server.url + "/setup")
    page.wait_for_selector("#refused:not([hidden])")
    assert "open it with the link companion setup --page printed" in \
        page.inner_text("#refused")
    assert [r.status for r in received if "/setup/api/" in r.url] == [401]
    assert page.is_hidden("#setup") and server.token not in page.content()
    page.goto(server.url + "/setup#token=wrong-token")
    page.reload()
    page.wait_for_selector("#refused:not([hidden])")
    assert "token is not the referee's" in page.inner_text("#refused")
    page.close()


def test_the_preview_shows_the_fit_live_and_save_writes_the_calibration(browser, server,
                                                                          stills):
    _use(server, f"folder:{stills.good}")
    page, _ = _open(browser, f"{server.url}/setup#token={server.token}")
    _wait_for_frame(page)
    assert page.eval_on_selector("#preview", "img => img.naturalWidth") == PREVIEW_WIDTH
    page.wait_for_function("() => /4 of 4 corners, fit \\d+\\.\\d mm/"
                           ".test(document.getElementById('check').textContent)")
    first = int(page.get_attribute("#preview", "data-frame") or 0)
    page.wait_for_function(f"() => Number(document.getElementById('preview')"
                           f".dataset.frame) > {first}", timeout=10000)  # live: frames go on
    assert page.input_value("#referee-link") == f"{server.url}/referee#token={server.token}"
    assert page.eval_on_selector("#referee-qr svg", "svg => svg.getBBox().width") > 0
    _shot(page, "setup-page-tablet")
    target = server.data / "calibration" / "sekigahara" / "camera.yaml"
    target.unlink(missing_ok=True)
    page.click("#save")
    page.wait_for_selector("#saved.good")
    assert re.search(r"Saved: 4 corners, fit \d+\.\d mm, in .*camera\.yaml",
                     page.inner_text("#saved"))
    saved = yaml.safe_load(target.read_text())
    assert saved["corner_markers_seen"] == 4 and saved["fit_error_mm"] < 2.0
    assert saved["frame"] == [2028, 1520]  # placed from the camera's frame, not the preview's
    assert (target.parent / "overlay.png").is_file()
    assert not list(ROOT.glob("companion/games/*/calibration/camera.yaml"))
    page.close()


def test_a_covered_corner_and_a_bad_camera_are_said_on_the_page(browser, server, stills):
    page, _ = _open(browser, f"{server.url}/setup#token={server.token}", "phone")
    _wait_for_frame(page)
    page.fill("#source", f"folder:{stills.covered}")
    page.click("#show")
    page.wait_for_function("() => /3 of 4 corners, fit/"
                           ".test(document.getElementById('check').textContent)")
    assert f"corner markers {COVERED}." in page.inner_text("#missing")
    _shot(page, "setup-page-phone-covered")
    page.fill("#source", "folder:/no/such/folder")
    page.click("#show")
    page.wait_for_selector("#camera-problem:not([hidden])")
    assert "there is no folder /no/such/folder" in page.inner_text("#camera-problem")
    page.fill("#source", "usb:63")
    page.click("#show")
    page.wait_for_function("() => document.getElementById('camera-problem').textContent"
                           ".includes('there is no camera /dev/video63')")
    page.wait_for_selector("#preview", state="hidden")  # no stale picture of the last source
    assert "Traceback" not in page.content()
    page.fill("#source", f"folder:{stills.good}")
    page.click("#show")
    _wait_for_frame(page)
    page.wait_for_function("() => /4 of 4 corners/"
                           ".test(document.getElementById('check').textContent)")
    assert page.is_hidden("#camera-problem")
    _shot(page, "setup-page-phone")
    page.close()


def test_the_wrong_board_is_refused_by_name_on_the_page_and_not_saved(browser, server,
                                                                      stills):
    """Sekigahara's mat under the camera, Rumble Nation chosen as the board: no green fit,
    the page names the mat it sees; Save stays off (and the server refuses it)."""
    _use(server, f"folder:{stills.good}")
    shots = Path(__file__).with_name("artifacts") / "camera"  # beside the other screenshots
    for viewport in ("tablet", "phone"):
        page, _ = _open(browser, f"{server.url}/setup#token={server.token}", viewport)
        _wait_for_frame(page)
        page.select_option("#game", "rumble_nation")
        page.wait_for_function("() => document.getElementById('camera-problem').textContent"
                               ".includes(\"these corners are Sekigahara's mat, not Rumble "
                               "Nation's\")", timeout=15000)
        assert page.get_attribute("#check", "class") == "bad"
        assert page.inner_text("#check").startswith("0 of 4 corners")
        assert page.is_disabled("#save")
        assert page.is_hidden("#missing")  # not "move the camera": it is the other mat
        page.wait_for_selector("#camera-problem:not([hidden])")
        screenshot(page, shots / f"setup-wrong-board-{viewport}.png")
        page.close()
    status, said, _ = server.call("/setup/api/save", {})
    assert status == 409 and b"not saved" in said
    _use(server, f"folder:{stills.good}")  # Sekigahara again, for the tests after


def test_the_mat_downloads_and_the_page_speaks_italian(browser, server):
    page, _ = _open(browser, f"{server.url}/setup#token={server.token}", lang="it")
    _wait_for_frame(page)
    page.wait_for_function("() => /4 angoli su 4, scarto \\d+,\\d mm/"
                           ".test(document.getElementById('check').textContent)")
    assert page.inner_text("#save") == "Salva la calibrazione"
    with page.expect_download() as download:
        page.click("#mat")
    path = download.value.path()
    assert download.value.suggested_filename == "sekigahara-mat.pdf"
    pdf = Path(path).read_bytes() if path is not None else b""
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page\n") >= 4  # the mat's pages
    _shot(page, "setup-page-tablet-it")
    page.close()


def test_every_word_of_the_setup_page_has_its_italian():
    script = (WEB / "static" / "setup.js").read_text()
    page = "".join((WEB / "templates" / name).read_text()
                   for name in ("setup.html", "_referee_page.html"))
    source = (WEB / "setup_page.py").read_text()
    found = set(re.findall(r'\b(?:t|fill)\("((?:[^"\\]|\\.)*)"', script))
    found |= set(re.findall(r'data-t(?:-alt)?="([^"]+)"', page))
    found |= set(re.findall(r'^(?:PLACED|NOT_PLACED) = "([^"]+)"', source, re.M))
    assert len(found) > 25 and "{seen} of {total} corners, fit {fit} mm" in found
    italian = catalog("companion.web", "it")
    missing = sorted(m for m in found if not italian.get(m))
    assert not missing, f"no Italian for {missing[:5]} in companion/web/locales/it/setup.po"
