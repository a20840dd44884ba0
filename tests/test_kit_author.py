"""Entering a board from a photo (#21, `companion kit author`): the generic model and writer, the
draft, the page in Debian's chromium, and the command.

The model is generic, so most of it is tried on a small map game made here ("atlas": areas with
a value, joined by roads or rivers, a kit of two files) whose kits can be checked with three
areas; Shogun's own description is tried on its whole example side and through the command.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, ClassVar

import cv2
import numpy as np
import pytest
import yaml
from helpers import screenshot
from playwright.sync_api import Browser, Page
from pydantic import BaseModel, Field
from test_serve import free_port
from werkzeug.serving import make_server

from companion.i18n import catalog
from companion.kits import Kit, KitManifest, KitSpec, load_kit, register_spec
from companion.kits.author import (
    AuthorError,
    AuthorSpec,
    Checked,
    Draft,
    DraftArea,
    DraftLink,
    KitField,
    Placed,
    Written,
    author_spec,
    bounds_of,
    draft_folder,
    load_draft,
    register_author,
    save_draft,
    write_kit,
)
from companion.kits.board import Frozen, Location, Road, check_graph
from companion.kits.problems import Problems
from companion.web.kit_author import MAX_IMAGE, AuthorOptions, create_kit_author_app

ROOT = Path(__file__).parents[1]
WEB = ROOT / "companion" / "web"
ARTIFACTS = Path(__file__).with_name("artifacts")
TABLET = {"width": 1280, "height": 800}
TOKEN = "referee-token-for-the-kit-author-tests"


# --- a small map game, so that a kit of three areas can check ---------------------------------


class Place(Location):
    value: Annotated[int, Field(ge=0, le=9)]


class AtlasMap(Frozen):
    locations: tuple[Place, ...]
    roads: tuple[Road, ...]


class AtlasRules(Frozen):
    turns: int


class AtlasKit(Kit):
    locations: tuple[Place, ...]
    roads: tuple[Road, ...]
    turns: int


class AtlasSpec(KitSpec):
    game: ClassVar[str] = "atlas"
    files: ClassVar[Mapping[str, type[BaseModel]]] = {"map.yaml": AtlasMap,
                                                      "rules.yaml": AtlasRules}

    def check_file(self, file: str, part: BaseModel, problems: Problems) -> None:
        if isinstance(part, AtlasMap):
            check_graph(problems, file, part.locations, part.roads)

    def build(self, manifest: KitManifest, parts: Mapping[str, BaseModel],
              problems: Problems) -> AtlasKit:
        board, rules = parts["map.yaml"], parts["rules.yaml"]
        assert isinstance(board, AtlasMap) and isinstance(rules, AtlasRules)
        return AtlasKit(id=manifest.id, game=manifest.game, version=manifest.version,
                        title=manifest.title, sample=manifest.sample, locations=board.locations,
                        roads=board.roads, turns=rules.turns)


def write_atlas(checked: Checked, start: Path) -> Written:
    """map.yaml from the drawn areas and links; rules.yaml stays the starting kit's."""
    locations, placed = [], []
    for area, values in checked.areas:
        if checked.area_id(values):
            entry = {k: values[k] for k in ("id", "name", "value") if values.get(k) is not None}
            if area.centre is not None:
                entry["xy"] = list(area.centre)
            placed.append(Placed("map.yaml", ("locations", len(locations)), area=area.uid,
                                 fields={"id": "id", "name": "name", "value": "value"}))
            locations.append(entry)
    roads = [{"a": a, "b": b, "kind": kind} for _, a, b, kind in checked.links]
    placed += [Placed("map.yaml", ("roads", n), link=index)
               for n, (index, *_) in enumerate(checked.links)]
    return Written({"map.yaml": {"locations": locations, "roads": roads}}, placed)


@pytest.fixture(scope="module")
def atlas(tmp_path_factory: pytest.TempPathFactory) -> AuthorSpec:
    """The atlas game registered, with an example kit whose rules.yaml a new kit keeps."""
    example = tmp_path_factory.mktemp("atlas-example")
    (example / "kit.yaml").write_text("id: atlas\ngame: atlas\nversion: '0'\n"
                                      "title: Atlas example\nsample: true\n")
    (example / "map.yaml").write_text("locations: []\nroads: []\n")
    (example / "rules.yaml").write_text("# the example's own rules\nturns: 7\n")
    register_spec(AtlasSpec())
    low, high = bounds_of(Place, "value")
    return register_author(AuthorSpec(
        game="atlas", title="Atlas", example=example, write=write_atlas,
        link_kinds=("road", "river"),
        area_fields=(KitField("id", "Area id", "id", required=True),
                     KitField("name", "Name", "text", required=True),
                     KitField("value", "Value", "int", required=True, minimum=low,
                              maximum=high))))


def _area(uid: str, centre: tuple[float, float], **values: Any) -> DraftArea:
    x, y = centre
    return DraftArea(uid=uid, centre=centre, values=values,
                     outline=[(x - .05, y - .05), (x + .05, y - .05), (x + .05, y + .05)])


def _three(name: str = "mine") -> Draft:
    return Draft(game="atlas", name=name, areas=[
        _area("a1", (.2, .3), id="hill", name="Hill", value=3),
        _area("a2", (.5, .6), id="ford", name="Ford", value="4"),
        _area("a3", (.8, .3), id="tower", name="Tower", value=0)],
        links=[DraftLink(a="a1", b="a2", kind="road"), DraftLink(a="a2", b="a3", kind="river")])


# --- the model and the writer ---------------------------------------------------------------------


def test_a_small_kit_of_three_areas_is_written_and_checks(atlas, tmp_path):
    result = write_kit(atlas, _three(), tmp_path / "kits" / "mine")
    assert result.ok, result.problems
    kit = load_kit(tmp_path / "kits" / "mine")
    assert isinstance(kit, AtlasKit) and kit.id == "mine" and kit.game == "atlas"
    assert [(p.id, p.value, p.xy) for p in kit.locations] == [
        ("hill", 3, (.2, .3)), ("ford", 4, (.5, .6)), ("tower", 0, (.8, .3))]
    assert [(r.a, r.b, r.kind) for r in kit.roads] == [("hill", "ford", "road"),
                                                       ("ford", "tower", "river")]
    assert kit.turns == 7 and "the example's own rules" in \
        (tmp_path / "kits" / "mine" / "rules.yaml").read_text()  # the other file: the example's
    assert kit.sample  # still the example's rules: said so


def test_a_bad_value_is_reported_with_its_area_and_field(atlas, tmp_path):
    draft = _three()
    draft.areas[1].values["value"] = 12
    draft.areas[2].values["id"] = "Tower 2"
    found = write_kit(atlas, draft, tmp_path / "kit").problems
    assert [(f.area, f.field, f.reason) for f in found] == [
        ("a2", "value", "Value: at most 9"),
        ("a3", "id", "Area id: lower-case letters, digits and _, starting with a letter "
                     "(e.g. kita_1)")]  # each said once, though the kit's check says it too
    assert (tmp_path / "kit" / "map.yaml").is_file()  # written all the same: nothing lost
    draft = _three()
    draft.links.pop()  # the tower is cut off: only the kit's own check can say so
    cut_off, = write_kit(atlas, draft, tmp_path / "kit").problems
    assert (cut_off.area, cut_off.field, cut_off.file) == ("a3", None, "map.yaml")
    assert cut_off.reason == "location 'tower' has no roads"
    assert cut_off.entry == "locations[2] (tower)" and cut_off.line == 11


def test_the_kits_own_check_is_pinned_to_the_field_it_concerns(atlas, tmp_path):
    """A value the page lets through but the kit's model refuses comes back at its field."""
    loose = AuthorSpec(**{**atlas.__dict__, "area_fields": (
        *atlas.area_fields[:2], KitField("value", "Value", "int", required=True))})
    draft = _three()
    draft.areas[0].values["value"] = 15
    found = write_kit(loose, draft, tmp_path / "kit").problems
    assert [(f.area, f.field, f.file) for f in found] == [("a1", "value", "map.yaml")]
    assert "less than or equal to 9" in found[0].reason


def test_the_draft_is_kept_and_resumed_and_a_broken_one_is_named(atlas, tmp_path):
    folder = draft_folder("atlas", "mine", tmp_path)
    assert load_draft(folder) is None
    save_draft(folder, _three())
    assert load_draft(folder) == _three()
    app = create_kit_author_app(AuthorOptions(TOKEN, "atlas", "mine", tmp_path))
    state = app.test_client().get("/kit-author/api/state",
                                  headers={"Authorization": f"Bearer {TOKEN}"}).get_json()
    assert [a["values"]["id"] for a in state["draft"]["areas"]] == ["hill", "ford", "tower"]
    (folder / "draft.json").write_text('{"version": 1, "game": "atlas", "name": "mine", '
                                       '"areas": [{"uid": "zz"}]}')
    with pytest.raises(AuthorError, match=r"draft\.json: areas\.0\.uid: String should match"):
        load_draft(folder)
    with pytest.raises(AuthorError, match="move the file away"):
        create_kit_author_app(AuthorOptions(TOKEN, "atlas", "mine", tmp_path))
    assert '"zz"' in (folder / "draft.json").read_text()  # never overwritten


def test_the_page_is_the_referees_own_small_app(atlas, tmp_path):
    """As the set-up page (companion.web.referee_page): "/" leads to the page, the toolkit and
    the words are served as on the table's pages, the API refuses in a JSON sentence without the
    referee's token or with another one, and a page route keeps its HTML error page."""
    client = create_kit_author_app(AuthorOptions(TOKEN, "atlas", "mine", tmp_path)).test_client()
    home = client.get("/")
    assert home.status_code == 302 and home.headers["Location"].endswith("/kit-author")
    assert b'type="module"' in client.get("/kit-author").data
    toolkit = client.get("/common/toolkit.js")
    assert toolkit.status_code == 200 and toolkit.mimetype == "text/javascript"
    words = client.get("/i18n/it/shell.json").get_json()["words"]
    assert words["Write and check the kit"] == "Scrivi e controlla il kit"
    none = client.get("/kit-author/api/state")
    assert none.status_code == 401 and "open it with the link companion kit author printed" \
        in none.get_json()["message"]
    other = client.get("/kit-author/api/state", headers={"Authorization": "Bearer other"})
    assert other.status_code == 403 and "not the referee's" in other.get_json()["message"]
    assert client.get("/kit-author/nowhere").mimetype == "text/html"


def test_the_cameras_view_is_taken_as_the_photo(atlas, tmp_path):
    """--camera: the page's "Take the camera's view" keeps one frame as the draft's photo."""
    stills = tmp_path / "stills"
    stills.mkdir()
    board_photo(stills / "0001.png")
    app = create_kit_author_app(AuthorOptions(TOKEN, "atlas", "mine", tmp_path / "data",
                                              camera=f"folder:{stills}"))
    client, mine = app.test_client(), {"Authorization": f"Bearer {TOKEN}"}
    assert client.get("/kit-author/api/image", headers=mine).status_code == 404
    answer = client.post("/kit-author/api/camera", json={}, headers=mine)
    assert answer.status_code == 200 and answer.get_json()["width"] == 1200
    kept = load_draft(draft_folder("atlas", "mine", tmp_path / "data"))
    assert kept is not None and kept.image == "board.jpg"
    photo = client.get("/kit-author/api/image", headers=mine)
    assert photo.mimetype == "image/jpeg" and photo.data.startswith(b"\xff\xd8\xff")
    none = create_kit_author_app(AuthorOptions(TOKEN, "atlas", "other", tmp_path / "data"))
    refused = none.test_client().post("/kit-author/api/camera", json={}, headers=mine)
    assert refused.status_code == 409 and "--camera" in refused.get_json()["message"]


def test_shoguns_description_writes_its_whole_example_side_back(tmp_path):
    """Shogun's example sun side entered as a drawing writes a kit that checks; a bad number
    of building spaces is pinned to its province and field."""
    spec = author_spec("shogun")
    assert bounds_of(type(load_kit("shogun").locations[0]), "spaces") == (1, 3)
    assert [f.key for f in spec.area_fields] == ["id", "name", "region", "spaces",
                                                 "unused_with_3", "rice", "taxes"]
    assert spec.link_kinds == ("land", "sea")
    draft = _shogun_side("mine")
    result = write_kit(spec, draft, tmp_path / "mine")
    assert result.ok, result.problems[:3]
    kit = load_kit(tmp_path / "mine")
    assert kit.id == "mine" and len(kit.sides["sun"].provinces) == 45  # type: ignore[attr-defined]
    draft.areas[4].values["spaces"] = 5
    draft.areas[6].values["region"] = "Kanto!"
    found = write_kit(spec, draft, tmp_path / "mine").problems
    assert {(f.area, f.field) for f in found} == {("a5", "spaces"), ("a7", "region")}


def _shogun_side(name: str) -> Draft:
    kit: Any = load_kit("shogun")
    uid = {p.id: f"a{n + 1}" for n, p in enumerate(kit.sides["sun"].provinces)}
    areas = [_area(uid[p.id], p.xy, id=p.id, name=p.name, region=p.region, spaces=p.spaces,
                   unused_with_3=p.unused_with_3, rice=kit.card[p.id].rice,
                   taxes=kit.card[p.id].taxes) for p in kit.sides["sun"].provinces]
    links = [DraftLink(a=uid[link.a], b=uid[link.b], kind=link.kind)
             for link in kit.sides["sun"].links]
    return Draft(game="shogun", name=name, kit={"side": "sun"}, areas=areas, links=links)


def test_a_game_without_a_description_is_named():
    with pytest.raises(AuthorError, match=r"Skirmish has no board to trace with the kit author "
                                          r"yet \(games that have one: .*shogun"):
        author_spec("skirmish")


# --- the page, in the browser ---------------------------------------------------------------------


AREAS = {"hill": ((.2, .3), 3), "ford": ((.5, .65), 4), "tower": ((.8, .3), 0)}
"""The photo's three areas: centre (fractions of the photo) and value."""


def board_photo(path: Path) -> Path:
    """A photo of a board of three areas, each a coloured square around its centre."""
    width, height = 1200, 800
    image = np.full((height, width, 3), (205, 228, 238), np.uint8)
    for n, (name, ((x, y), _)) in enumerate(AREAS.items()):
        cx, cy = int(x * width), int(y * height)
        colour = [(90, 160, 90), (200, 150, 60), (80, 90, 190)][n]
        cv2.rectangle(image, (cx - 130, cy - 110), (cx + 130, cy + 110), colour, -1)
        cv2.putText(image, name.upper(), (cx - 60, cy + 10), cv2.FONT_HERSHEY_SIMPLEX, 1.1,
                    (255, 255, 255), 2)
    cv2.imwrite(str(path), image)
    return path


@dataclass
class Served:
    url: str
    data: Path


@pytest.fixture
def served(atlas, tmp_path) -> Iterator[Served]:
    """The page for the atlas game, served here on a real socket (werkzeug, threaded)."""
    port = free_port()
    app = create_kit_author_app(AuthorOptions(TOKEN, "atlas", "mine", tmp_path,
                                              host="127.0.0.1", port=port))
    server = make_server("127.0.0.1", port, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield Served(f"http://127.0.0.1:{port}", tmp_path)
    server.shutdown()
    thread.join(5)


def _open(browser: Browser, url: str, lang: str = "en") -> Page:
    page = browser.new_page(viewport=TABLET)
    page.add_init_script(f"localStorage.setItem('companion.lang', '{lang}')")
    page.goto(url)
    return page


def _at(page: Page, x: float, y: float) -> None:
    """Click the photo at (x, y), fractions of its width and height."""
    box = page.locator("#overlay").bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + x * box["width"], box["y"] + y * box["height"])


def _saved(page: Page) -> None:
    page.wait_for_function("() => document.getElementById('saved').dataset.state === 'saved'")


def _shot(page: Page, name: str) -> None:
    screenshot(page, ARTIFACTS / f"{name}.png", full_page=False)


def _draw_three(page: Page) -> None:
    """Each area: its centre, its outline's four corners, its values."""
    for name, ((x, y), value) in AREAS.items():
        page.click("#tools [data-mode=centre]")
        _at(page, x, y)
        for dx, dy in ((-.1, -.13), (.1, -.13), (.1, .13), (-.1, .13)):
            _at(page, x + dx, y + dy)
        page.click("#finish-outline")
        page.fill("#area-id", name)
        page.fill("#area-name", name.title())
        page.fill("#area-value", str(value))
        _saved(page)


def _link(page: Page, first: tuple[float, float], second: tuple[float, float],
          kind: str) -> None:
    page.click("#tools [data-mode=link]")
    page.select_option("#link-kind", kind)
    _at(page, *first)
    _at(page, *second)
    _saved(page)


def test_a_board_drawn_in_the_browser_writes_a_kit_that_checks(browser, served, tmp_path):
    page = _open(browser, f"{served.url}/kit-author#token={TOKEN}")
    page.wait_for_selector("body[data-ready=true]")
    assert page.is_visible("#no-photo")
    page.set_input_files("#photo-file", str(board_photo(tmp_path / "board.png")))
    page.wait_for_selector("#stage:not([hidden])")
    _draw_three(page)
    hill, ford, tower = (centre for centre, _ in AREAS.values())
    _link(page, hill, ford, "road")
    _link(page, tower, ford, "river")
    assert page.inner_text("#counts") == "Areas: 3 · links: 2"
    assert page.locator("#overlay polygon").count() == 3
    assert page.locator("#overlay line.kind-1").count() == 1  # the river, drawn dashed
    page.click("#write")
    page.wait_for_selector("#write-result.good")
    folder = served.data / "kits" / "mine"
    assert page.inner_text("#write-result") == f"The kit checks: written in {folder}"
    kit: Any = load_kit(folder)
    assert [(p.id, p.name, p.value) for p in kit.locations] == [
        ("hill", "Hill", 3), ("ford", "Ford", 4), ("tower", "Tower", 0)]
    assert {(r.a, r.b, r.kind) for r in kit.roads} == {("hill", "ford", "road"),
                                                       ("tower", "ford", "river")}
    for place, (centre, _) in zip(kit.locations, AREAS.values(), strict=True):
        assert place.xy == pytest.approx(centre, abs=0.01)  # where it was clicked
    saved = json.loads((draft_folder("atlas", "mine", served.data) / "draft.json").read_text())
    assert all(len(area["outline"]) == 4 for area in saved["areas"])
    _shot(page, "kit-author-tablet")
    page.close()


def test_problems_are_shown_beside_their_area_and_the_draft_resumes(browser, served, tmp_path):
    save_draft(draft_folder("atlas", "mine", served.data), _three())
    page = _open(browser, f"{served.url}/kit-author#token={TOKEN}")
    page.wait_for_selector("body[data-ready=true]")
    page.set_input_files("#photo-file", str(board_photo(tmp_path / "board.png")))
    page.wait_for_selector("#stage:not([hidden])")
    assert page.inner_text("#counts") == "Areas: 3 · links: 2"  # resumed from the draft
    page.click("#tools [data-mode=select]")
    _at(page, .5, .6)
    assert page.inner_text("#area-title") == "ford"
    page.click("#area-links li:has-text('tower') .remove")  # the tower is cut off
    _saved(page)
    page.click("#write")
    page.wait_for_selector("#write-result.bad")
    assert page.inner_text("#write-result").endswith("problems to fix: 1")
    assert page.locator("#problems li").all_inner_texts() == [
        "tower location 'tower' has no roads (map.yaml:11 locations[2] (tower))"]
    assert page.locator("#overlay circle.centre.bad").count() == 1  # the tower, in red
    _shot(page, "kit-author-problem")
    page.fill("#area-value", "12")
    _saved(page)
    row = "#area-form [data-field=value]"
    page.wait_for_selector(f"{row}.bad")
    assert page.inner_text(f"{row} .field-problem") == "Value: at most 9"
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.inner_text("#counts") == "Areas: 3 · links: 1"  # every change was kept
    page.click("#problems li:has-text('at most 9') .go")
    assert page.input_value("#area-value") == "12"
    page.close()


SHOGUN_CELL = (.11, .2)
"""The width and height of a province's cell on the drawn Shogun board (fractions)."""


def shogun_photo(path: Path) -> Path:
    """A photo of the example Shogun board's sun side: each province a cell around its
    centre, coloured by region, with its name: something to trace as a user would."""
    kit: Any = load_kit("shogun")
    width, height = 1400, 900
    image = np.full((height, width, 3), (170, 130, 60), np.uint8)  # the sea
    colours = [(120, 180, 200), (110, 170, 120), (150, 190, 220), (100, 150, 180),
               (140, 200, 170)]
    regions = [r.id for r in kit.regions]
    for province in kit.sides["sun"].provinces:
        x, y = province.xy
        w, h = SHOGUN_CELL
        corners = np.array([[(x - w / 2) * width + 4, (y - h / 2) * height + 4],
                            [(x + w / 2) * width - 4, (y - h / 2) * height + 10],
                            [(x + w / 2) * width - 8, (y + h / 2) * height - 4],
                            [(x - w / 2) * width + 8, (y + h / 2) * height - 8]], np.int32)
        cv2.fillPoly(image, [corners], colours[regions.index(province.region) % 5])
        cv2.polylines(image, [corners], True, (40, 50, 60), 2)
        cv2.putText(image, province.name, (int(x * width) - 38, int(y * height) + 30),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.55, (30, 30, 30), 1, cv2.LINE_AA)
    cv2.imwrite(str(path), image)
    return path


def test_a_shogun_province_is_drawn_and_the_kit_check_is_shown(browser, tmp_path):
    """Shogun's page: three provinces traced on the photo, one with too many building spaces;
    the kit's own count checks come back as problems of the whole kit."""
    port = free_port()
    app = create_kit_author_app(AuthorOptions(TOKEN, "shogun", "my_shogun", tmp_path,
                                              host="127.0.0.1", port=port))
    server = make_server("127.0.0.1", port, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        page = _open(browser, f"http://127.0.0.1:{port}/kit-author#token={TOKEN}")
        page.wait_for_selector("body[data-ready=true]")
        assert page.input_value("#kit-side") == "sun"
        page.set_input_files("#photo-file", str(shogun_photo(tmp_path / "shogun.png")))
        page.wait_for_selector("#stage:not([hidden])")
        typed = [("owari", "Owari", "chubu", "2", (.06, .1)),
                 ("mino", "Mino", "chubu", "3", (.17, .1)),
                 ("omi", "Omi", "kinki", "1", (.17, .3))]
        for province, name, region, spaces, (x, y) in typed:
            page.click("#tools [data-mode=centre]")
            _at(page, x, y)
            w, h = SHOGUN_CELL[0] / 2 - .01, SHOGUN_CELL[1] / 2 - .01
            for dx, dy in ((-w, -h), (w, -h), (w, h), (-w, h)):
                _at(page, x + dx, y + dy)
            page.click("#finish-outline")
            for key, value in (("id", province), ("name", name), ("region", region),
                               ("spaces", spaces), ("rice", "3"), ("taxes", "2")):
                page.fill(f"#area-{key}", value)
            _saved(page)
        _link(page, (.06, .1), (.17, .1), "land")
        _link(page, (.17, .1), (.17, .3), "sea")
        page.click("#write")
        page.wait_for_selector("#write-result.bad")
        kit_wide = page.locator("#problems li.of-kit").all_inner_texts()
        assert any("sun and moon sides, not 53 (Componenti)" in i for i in kit_wide)
        assert any("marked unused with 3 players on the sun side, not 8" in i
                   for i in kit_wide)
        _shot(page, "kit-author-shogun-written")
        page.click("#tools [data-mode=select]")
        _at(page, .17, .1)
        page.fill("#area-spaces", "4")
        _saved(page)
        assert page.inner_text("#area-title") == "mino"
        assert page.inner_text("#area-form [data-field=spaces] .field-problem") == \
            "Building spaces: at most 3"
        _shot(page, "kit-author-shogun-tablet")
        page.close()
        page = _open(browser, f"http://127.0.0.1:{port}/kit-author#token={TOKEN}", "it")
        page.wait_for_selector("body[data-ready=true]")
        page.click("#tools [data-mode=select]")
        _at(page, .17, .3)
        assert page.inner_text("#area-form [data-field=rice] label") == \
            "Riso (carta provincia) *"
        _shot(page, "kit-author-shogun-tablet-it")
        page.close()
    finally:
        server.shutdown()
    draft = load_draft(draft_folder("shogun", "my_shogun", tmp_path))
    assert draft is not None and [a.values["id"] for a in draft.areas] == ["owari", "mino",
                                                                           "omi"]
    board: Any = yaml.safe_load((tmp_path / "kits" / "my_shogun" / "board.yaml").read_text())
    assert [p["id"] for p in board["sun"]["provinces"]] == ["owari", "mino", "omi"]
    assert board["sun"]["links"] == [{"a": "owari", "b": "mino", "kind": "land"},
                                     {"a": "mino", "b": "omi", "kind": "sea"}]


def test_the_page_speaks_italian(browser, served):
    save_draft(draft_folder("atlas", "mine", served.data), _three())
    page = _open(browser, f"{served.url}/kit-author#token={TOKEN}", lang="it")
    page.wait_for_selector("body[data-ready=true]")
    assert page.inner_text("#write") == "Scrivi e controlla il kit"
    assert page.inner_text("#counts") == "Aree: 3 · collegamenti: 2"
    page.close()


def test_without_the_referees_token_the_page_shows_nothing(browser, served):
    page = _open(browser, f"{served.url}/kit-author")
    page.wait_for_selector("#refused:not([hidden])")
    assert "open it with the link companion kit author printed" in page.inner_text("#refused")
    page.goto(f"{served.url}/kit-author#token=wrong")
    page.reload()
    page.wait_for_selector("#refused:not([hidden])")
    assert "token is not the referee's" in page.inner_text("#refused")
    assert page.is_hidden("#author")
    page.close()


def test_every_word_of_the_page_has_its_italian():
    script = (WEB / "static" / "kit_author.js").read_text()
    page = "".join((WEB / "templates" / name).read_text()
                   for name in ("kit_author.html", "_referee_page.html"))
    shogun = (ROOT / "companion" / "games" / "shogun" / "author.py").read_text()
    found = set(re.findall(r'\b(?:t|fill)\("((?:[^"\\]|\\.)*)"', script))
    found |= set(re.findall(r'^\s+\w+: "([^"]+)",$', script, re.M))  # the hints
    found |= set(re.findall(r'data-t(?:-alt)?="([^"]+)"', page))
    found |= set(re.findall(r'(?:KitField|_int_field)\("\w+", "([^"]+)"', shogun))
    found |= set(re.findall(r'(?:help=|Province, |ProvinceCard, )"([^"]+)"', shogun))
    model = (ROOT / "companion" / "kits" / "author.py").read_text()
    said = r'ValueError\("([^"{]+)"\)|ID_HELP = "([^"]+)"|Found\("([^"{]+)"'
    for groups in re.findall(said, model):  # the server's words about a typed value
        found |= {g for g in groups if g}
    assert len(found) > 40 and {"Write and check the kit", "Rice (province card)"} <= found
    italian = catalog("companion.web", "it")
    missing = sorted(m for m in found if not italian.get(m))
    assert not missing, f"no Italian for {missing[:5]} in companion/web/locales/it/kit_author.po"


# --- the command --------------------------------------------------------------------------------


def _companion(data: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "companion", *args], text=True,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT,
                            env={**os.environ, "PYTHONPATH": str(ROOT),
                                 "COMPANION_DATA": str(data)})


def _call(url: str, method: str = "GET", body: bytes | None = None,
          headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(url, data=body, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_the_command_serves_shoguns_page_for_the_referee_only(tmp_path):
    port = free_port()
    photo = board_photo(tmp_path / "board.png")
    child = _companion(tmp_path / "data", "kit", "author", "shogun", "--name", "my_board",
                       "--image", str(photo), "--host", "127.0.0.1", "--port", str(port))
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while _reachable(url + "/kit-author") is False:
            assert time.monotonic() < deadline, "the page was not served in 30 s"
            with contextlib.suppress(subprocess.TimeoutExpired):  # between tries: the child ending
                child.wait(timeout=0.2)
                raise AssertionError(child.stdout.read() if child.stdout else "ended")
        token = (tmp_path / "data" / "referee-token").read_text().strip()
        api, mine = url + "/kit-author/api/", {"Authorization": f"Bearer {token}"}
        assert _call(api + "state")[0] == 401
        assert _call(api + "state", headers={"Authorization": "Bearer wrong"})[0] == 403
        status, body = _call(api + "state", headers=mine)
        state = json.loads(body)
        assert status == 200 and state["draft"]["image"] == "board.png"  # --image kept
        assert state["spec"]["link_kinds"] == ["land", "sea"]
        status, body = _too_large(port, token)
        assert status == 413 and b"the photo is 12.5 MB: at most 12 MB" in body
        status, body = _call(api + "image", "POST", b"GIF89a....",
                             {**mine, "Content-Type": "image/png"})
        assert status == 400 and b"not a JPEG or PNG image" in body
        status, body = _call(api + "draft", "PUT", json.dumps({"areas": [
            {"uid": "a1", "outline": [[0.5, 0.5]] * 65}]}).encode(),
            {**mine, "Content-Type": "application/json"})
        assert status == 400 and b"areas.0.outline: List should have at most 64 items" in body
    finally:
        child.terminate()
        out, _ = child.communicate(timeout=15)
    assert f"the kit author page (Ctrl-C ends it): {url}/kit-author#token={token}" in out
    assert "Traceback" not in out, out


def _too_large(port: int, token: str) -> tuple[int, bytes]:
    """A photo of more than MAX_IMAGE bytes: refused from its Content-Length, before the
    server reads it (so only its first bytes are sent here)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    connection.putrequest("POST", "/kit-author/api/image")
    for name, value in {"Authorization": f"Bearer {token}", "Content-Type": "image/jpeg",
                        "Content-Length": str(MAX_IMAGE + 500_000)}.items():
        connection.putheader(name, value)
    connection.endheaders(b"\xff\xd8\xff" + bytes(65_536))
    response = connection.getresponse()
    try:
        return response.status, response.read()
    finally:
        connection.close()


def _reachable(url: str) -> bool:
    try:
        urllib.request.urlopen(url, timeout=2).close()
        return True
    except OSError:
        return False


def test_the_command_refuses_a_game_without_a_description_and_a_bad_name(tmp_path):
    none = _companion(tmp_path, "kit", "author", "skirmish", "--port", str(free_port()))
    out, _ = none.communicate(timeout=60)
    assert none.returncode == 1 and "Skirmish has no board to trace with the kit author" in out
    bad = _companion(tmp_path, "kit", "author", "shogun", "--name", "My Board")
    out, _ = bad.communicate(timeout=60)
    assert bad.returncode == 2 and "--name 'My Board': lower-case letters" in out
    text = tmp_path / "board.png"
    text.write_text("not a photo")
    wrong = _companion(tmp_path, "kit", "author", "shogun", "--image", str(text), "--port",
                       str(free_port()))
    out, _ = wrong.communicate(timeout=60)
    assert wrong.returncode == 1 and out.strip() == \
        f"error: kit author: {text}: this file is not a JPEG or PNG image"
