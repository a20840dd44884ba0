"""Where the camera cannot see, every screen says so (issue #19): a lamp's saturated
reflection over the map is named on the tablet by the places under it, once a few frames
agree, and the notice goes when the reflection does. Real frames through the real reader,
tracker, table session and hub."""

from __future__ import annotations

import random
from dataclasses import replace

from companion.games.sekigahara.referee import SekigaharaReferee
from companion.kits import load_kit
from companion.record.session import Session
from companion.record.store import Store
from companion.table import TableParts, TableRegistry
from companion.table.session import BLIND_FRAMES, TableSession
from companion.vision.corpus import random_scene
from companion.vision.geometry import Geometry
from companion.vision.room import STILL
from companion.vision.synth import Camera, Synth
from companion.vision.table import StableTracker, TableReader
from companion.web.hub import Hub

KIT = load_kit("sekigahara")
GEOMETRY = Geometry.load(KIT)
SYNTH = Synth(GEOMETRY, KIT)
SCENE = random_scene(GEOMETRY, random.Random(5))
CAMERA = Camera((2028, 1520))
NAMES = {loc.id: loc.name for loc in KIT.locations}


def test_a_reflection_over_the_map_is_named_on_every_screen_and_goes_with_it(tmp_path):
    hub = Hub(Session.start(Store(tmp_path / "g.sqlite"), "sekigahara"))
    registry = TableRegistry.in_kit_order(b.id for b in KIT.blocks)
    table = TableSession(hub, TableParts(TableReader(GEOMETRY), StableTracker(),
                                         SekigaharaReferee(hub.session.game.rules, registry)))
    for seed in range(4):
        table.on_frame(SYNTH.photograph(SCENE, CAMERA, replace(STILL, seed=seed)).image)
    assert table.tracker.stable is not None and hub.view("public")["blind"] == []

    on_map = sorted((z, w) for _, (z, w) in SCENE.tags.items() if z in NAMES)
    zone, where = on_map[0]
    x, y = SYNTH.frame_point(CAMERA, *where)
    glare = replace(STILL, spot=(x, y, 0.06))
    for seed in range(20, 20 + BLIND_FRAMES):
        assert hub.view("public")["blind"] == []  # not before the frames agree
        table.on_frame(SYNTH.photograph(SCENE, CAMERA, replace(glare, seed=seed)).image)
    said = {role: hub.view(role)["blind"] for role in ("public", "referee", "ishida")}
    assert NAMES[zone] in said["public"] and said["public"] == said["referee"] == said["ishida"]

    version = hub.version
    for seed in range(40, 40 + BLIND_FRAMES):
        table.on_frame(SYNTH.photograph(SCENE, CAMERA, replace(STILL, seed=seed)).image)
    assert hub.view("public")["blind"] == [] and hub.version == version + 1
