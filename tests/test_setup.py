"""`companion setup` (#18, #23): the table's address and its tournament broadcast chosen once,
saved in the user's data folder, and used by every `companion serve` after."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import paho.mqtt.client as mqtt
from helpers import free_port, wait_for
from paho.mqtt.enums import CallbackAPIVersion

from companion.broadcast.mosquitto import MONITOR, Broker
from companion.settings import SettingsError, load_settings

ROOT = Path(__file__).parents[1]
EVENT = "club-night"
PASSWORDS = {"t1": "pw-t1", "dashboard": "pw-dash", MONITOR: "pw-mon"}


def companion(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT),
                               "COMPANION_DATA": str(data)})


def test_setup_saves_the_address_and_refuses_what_is_not_one(tmp_path):
    done = companion(tmp_path, "setup", "--yes", "--public-url", "http://table.local:8000/")
    assert done.returncode == 0, done.stderr
    assert "phones reach the table at http://table.local:8000/play" in done.stdout
    assert load_settings(tmp_path / "settings.yaml").public_url == "http://table.local:8000"
    assert (tmp_path / "settings.yaml").stat().st_mode & 0o077 == 0
    link = companion(tmp_path, "referee-link", "--no-qr").stdout.strip()
    assert link.startswith("http://table.local:8000/referee#token=")
    assert link in done.stdout  # the same link setup showed
    bad = companion(tmp_path, "setup", "--yes", "--broadcast", "http://not-mqtt")
    assert bad.returncode == 1 and "mqtt://" in bad.stderr
    assert load_settings(tmp_path / "settings.yaml").broadcast is None  # nothing half-saved


def test_a_settings_file_edited_wrong_is_named_with_its_problem(tmp_path):
    (tmp_path / "settings.yaml").write_text("public_url: 12\ncolour: red\n")
    try:
        load_settings(tmp_path / "settings.yaml")
    except SettingsError as exc:
        assert "settings.yaml" in str(exc) and "colour" in str(exc)
    else:
        raise AssertionError("a wrong settings file was taken")
    served = companion(tmp_path, "referee-link", "--no-qr")
    assert served.returncode == 1 and "settings.yaml" in served.stderr


def test_serve_publishes_to_the_broadcast_chosen_at_setup(tmp_path):
    broker = Broker.for_event(tmp_path / "broker", EVENT, PASSWORDS).start()
    try:
        data = tmp_path / "data"
        chosen = f"mqtt://t1:pw-t1@127.0.0.1:{broker.port}/{EVENT}"
        done = companion(data, "setup", "--yes", "--broadcast", chosen)
        assert done.returncode == 0, done.stderr
        assert "pw-t1" not in done.stdout  # the password is never printed
        heard: list[str] = []
        monitor = mqtt.Client(CallbackAPIVersion.VERSION2)
        monitor.username_pw_set(MONITOR, PASSWORDS[MONITOR])
        monitor.on_message = lambda _c, _u, m: heard.append(m.topic)
        monitor.connect("127.0.0.1", broker.port)
        monitor.subscribe("#")
        monitor.loop_start()
        port = free_port()
        child = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port",
             str(port), "--db", str(tmp_path / "games.sqlite"), "--new", "rumble_nation"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONPATH": str(ROOT), "COMPANION_DATA": str(data)})
        try:
            wait_for(lambda: any("/t1/" in topic for topic in heard), 30,
                     "serve to publish to the broadcast", every=0.2, alive=child)
        finally:
            child.send_signal(signal.SIGTERM)
            child.wait(timeout=15)
            monitor.loop_stop()
            monitor.disconnect()
    finally:
        broker.stop()


def test_setup_checks_the_camera_and_places_the_board(tmp_path):
    """A folder of stills stands for the camera: one synthetic photograph of the table."""
    import random

    import cv2

    from companion.kits import load_kit
    from companion.vision.corpus import random_scene
    from companion.vision.geometry import Geometry
    from companion.vision.synth import Synth, random_camera

    kit = load_kit("sekigahara")
    geometry, rng = Geometry.load(kit), random.Random(1)
    stills = tmp_path / "stills"
    stills.mkdir()
    cv2.imwrite(str(stills / "0001.jpg"), Synth(geometry, kit).photograph(
        random_scene(geometry, rng), random_camera(rng, (4056, 3040))).image)
    data = tmp_path / "data"
    done = companion(data, "setup", "--yes", "--camera", f"folder:{stills}")
    assert done.returncode == 0, done.stderr
    assert "4 corner markers, the board placed within" in done.stdout
    assert (data / "calibration" / "sekigahara" / "overlay.png").is_file()
    empty = tmp_path / "empty"
    empty.mkdir()
    nothing = companion(data, "setup", "--yes", "--camera", f"folder:{empty}")
    assert nothing.returncode == 1 and "no frame from camera" in nothing.stderr


# --- the lens (#19: "setup makes lens calibration part of the first run for wide lenses") -----

def table_photo(folder: Path, distance_mm: float) -> Path:
    """One photograph of the table by a real pinhole camera `distance_mm` from its centre,
    tilted 10 degrees (the board's perspective then fixes the focal length), in `folder`."""
    import random

    import cv2

    from companion.kits import load_kit
    from companion.vision.corpus import random_scene
    from companion.vision.geometry import Geometry
    from companion.vision.room import pinhole
    from companion.vision.synth import Look, Synth

    kit = load_kit("sekigahara")
    geometry = Geometry.load(kit)
    synth = Synth(geometry, kit)
    real = pinhole(synth, (2028, 1520), 10, distance_mm=distance_mm)
    scene = random_scene(geometry, random.Random(3))
    folder.mkdir()
    cv2.imwrite(str(folder / "0001.png"), synth.photograph(
        real.seen(scene, geometry.block_height_mm), real.camera(synth), Look()).image)
    return folder


def test_a_wide_lens_is_told_at_setup_and_measured_there(tmp_path):
    """From 60 cm the table needs a lens seeing 98 degrees across: setup says it must be
    measured and how; given the ChArUco photographs it measures it and keeps it for the
    board's check. From 1 m (69 degrees) nothing is asked."""
    import cv2
    from test_intrinsics import POSES, charuco_view

    from companion.vision.overlay import lens_intrinsics

    plain, wide = table_photo(tmp_path / "plain", 1000), table_photo(tmp_path / "wide", 600)
    data = tmp_path / "data"
    calm = companion(data, "setup", "--yes", "--camera", f"folder:{plain}")
    assert calm.returncode == 0, calm.stderr
    assert "lens: the lens sees 69 degrees across: a plain lens" in calm.stdout
    told = companion(data, "setup", "--yes", "--camera", f"folder:{wide}")
    assert told.returncode == 0, told.stderr
    assert "lens: the lens sees 98 degrees across: a wide lens, so it must be measured" \
        in told.stdout
    assert f"companion setup --camera folder:{wide} --lens-photos FOLDER" in told.stdout
    photos = tmp_path / "charuco"
    photos.mkdir()
    for n, (rotation, distance) in enumerate(POSES):
        cv2.imwrite(str(photos / f"{n}.png"), charuco_view(rotation, distance))
    measured = companion(data, "setup", "--yes", "--camera", f"folder:{wide}",
                         "--lens-photos", str(photos))
    assert measured.returncode == 0, measured.stderr
    assert f"{len(POSES)} of {len(POSES)} photographs used" in measured.stdout
    assert "lens: the lens is measured" in measured.stdout
    folder = data / "calibration" / "sekigahara"
    assert lens_intrinsics(folder) is not None  # kept by the board's check that followed
    missing = companion(data, "setup", "--yes", "--lens-photos", str(tmp_path / "nowhere"))
    assert missing.returncode != 0 and "nowhere" in missing.stderr + missing.stdout


def test_the_lens_advice_reads_the_model_the_pose_and_a_measured_lens():
    from companion.vision.lens_check import field_of_view, lens_advice

    assert round(field_of_view(1473.3, 2028)) == 69
    pose = {"frame": [2028, 1520], "pose": {"focal_px": 875.9}}
    assert lens_advice(pose).needed and lens_advice(pose).degrees == 98.4
    assert not lens_advice({**pose, "intrinsics": {"matrix": []}}).needed
    assert lens_advice({}, model="imx708_wide").needed
    assert not lens_advice({}, model="imx708").needed
    blind = lens_advice({"frame": [2028, 1520], "pose": {"not_found": "looking straight down"}})
    assert not blind.needed and "looking straight down" in blind.reason
