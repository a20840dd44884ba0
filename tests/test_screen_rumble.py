"""Rumble Nation's screen in a real browser (Debian's chromium through Playwright), served live.

The board as players know it (rulebook 4): no two printed region names collide, on the tablet
(1280x800) and on a phone (390x844); a face-down daimyo card (8.3) never reaches another
player's page; a tap on a region lists the choices involving it in words, and one is played after
the confirmation; the shared table screen shows the banner and its turn, dice and turn order at a
size read from 1.5 m; the last move is marked; the toolkit's zoom (pinch on a phone, buttons);
every label in Italian. Screenshots go to tests/artifacts/rumble_nation-*.png.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import screenshot
from playwright.sync_api import Page, Response
from screen_labels import labels, overlapping, too_small
from test_browser import (
    ARTIFACTS,
    VIEWPORTS,
    Served,
    drawn_counts,
    expected_counts,
    leaked,
    page_url,
)
from web_helpers import acting_player, hidden_from, played_hub

from companion.engine import PUBLIC, REFEREE
from companion.i18n import catalog

SCREEN_JS = Path(__file__).parents[1] / "companion/games/rumble_nation/screen.js"
CARD_TITLES = {"takeda_shingen": "Takeda Shingen", "chosokabe_motochika": "Chōsokabe Motochika",
               "uesugi_kenshin": "Uesugi Kenshin", "mori_motonari": "Mōri Motonari",
               "oda_nobunaga": "Oda Nobunaga", "otomo_sorin": "Ōtomo Sōrin"}


@pytest.fixture
def served(tmp_path) -> Iterator[Served]:
    """Seed 3, 30 actions in, 4 players with the daimyo rules: Blue has rolled and deploys,
    Yellow's daimyo card is still face down, Black's is played (docs/rumble-nation.md)."""
    table = Served(played_hub(tmp_path, "rumble_nation"))
    yield table
    table.close()


@pytest.fixture
def open_page(browser) -> Iterator[Callable[..., Page]]:
    opened: list[Page] = []
    errors: list[str] = []
    received: dict[int, list[Response]] = {}

    def open_(url: str, viewport: str = "tablet", locale: str = "en-GB") -> Page:
        context = browser.new_context(viewport=VIEWPORTS[viewport], locale=locale,
                                      has_touch=viewport == "phone")
        page = context.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        responses = received.setdefault(id(page), [])
        page.on("response", lambda r: responses.append(r))
        page.goto(url)
        page.wait_for_selector("#version[data-version]:not([data-version='-1'])",
                               state="attached")
        page.wait_for_selector("#rn-board .region", state="attached")
        opened.append(page)
        return page

    def bodies(page: Page) -> list[tuple[str, str]]:
        """(url, text) of every finished response the page received, the stream left out."""
        return [(r.url, r.text()) for r in received[id(page)] if "/stream" not in r.url]

    open_.bodies = bodies  # type: ignore[attr-defined]
    yield open_
    for page in opened:
        page.context.close()
    assert errors == []


def shot(page: Page, name: str) -> None:
    screenshot(page, ARTIFACTS / f"rumble_nation-{name}.png")


MEASURE = """nodes => nodes.map(n => {
        const b = n.getBBox();
        return {text: n.textContent, x: b.x, y: b.y, w: b.width, h: b.height,
                region: n.closest('[data-region]') && n.closest('[data-region]').dataset.region};
    })"""


def boxes(page: Page, selector: str) -> list[dict[str, Any]]:
    """Each matching SVG element's box in the board's own units (getBBox), with its text."""
    return page.eval_on_selector_all(selector, MEASURE)


def framed(page: Page, box: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A box's frame and its texts, measured together once the frame is laid out (CI once
    read the players' frame as 0x0 a moment before its texts had their places)."""
    page.wait_for_function("""box => { const r = document.querySelector(box + ' rect.frame');
        return r && r.getBBox().width > 0; }""", arg=box, timeout=5000)
    measured = page.eval_on_selector(box, """(g, js) => {
        const measure = eval(js);
        return [measure([g.querySelector('rect.frame')])[0],
                measure(Array.from(g.querySelectorAll('text')))];
    }""", MEASURE)
    return measured[0], measured[1]


def overlaps(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return (a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"]
            and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"])


def regions_of(choice: dict[str, Any], view: dict[str, Any]) -> set[str]:
    """What screen.js's regionsOf says, for the checks: a deployment goes where the pair's sum
    is the castle (5.1.1); a card's regions are the ones its arguments name."""
    args = choice.get("args") or {}
    found: set[str] = set()
    if choice["verb"] == "deploy" and view.get("dice"):
        total = view["dice"][args["pair"][0]] + view["dice"][args["pair"][1]]
        found |= {r for r, v in view["castles"].items() if v == total}
    for key in ("from", "to", "region", "daimyo"):
        if isinstance(args.get(key), str):
            found.add(args[key])
    found |= set(args.get("regions") or [])
    moves = args.get("moves")
    if isinstance(moves, dict):
        found |= set(moves)
    elif isinstance(moves, list):
        found |= {m["to"] for m in moves}
        if choice["verb"] == "daimyo" and view["daimyo_at"].get(choice["role"]):
            found.add(view["daimyo_at"][choice["role"]])
    found |= {s["region"] for s in args.get("swaps") or []}
    return found


@pytest.mark.slow
@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_region_labels_never_collide_and_hidden_cards_stay_hidden(open_page, served, viewport):
    """Every page on a tablet and on a phone: the eleven printed names (4) lie inside their
    regions and no two touch; nothing on the map overflows its region or box; the soldiers
    drawn are the view's; a face-down daimyo card of another player is nowhere in the page,
    while a player's own is shown face up to him (8.3)."""
    hub = served.hub
    tokens = {role: hub.tokens.issue(role) for role in hub.roles}
    pages = {"table": (PUBLIC, page_url(served, "")),
             "referee": (REFEREE, page_url(served, "referee", served.referee)),
             **{f"play-{r}": (r, page_url(served, "play", tokens[r])) for r in hub.roles}}
    elsewhere: list[str] = []
    for label, (role, url) in pages.items():
        page = open_page(url, viewport)
        names = boxes(page, "#rn-board .region .name")
        assert sorted(n["text"] for n in names) == sorted(
            loc.name for loc in hub.session.game.rules.kit.locations)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                assert not overlaps(a, b), f"{label} {viewport}: {a['text']} / {b['text']}"
        tiles = {t["region"]: t for t in boxes(page, "#rn-board .region .land")}
        for i, a in enumerate(tiles.values()):
            for b in list(tiles.values())[i + 1:]:
                assert not overlaps(a, b), f"{label}: regions {a['region']} / {b['region']}"
        for inner in boxes(page, "#rn-board .region .name, #rn-board .region .chip, "
                                 "#rn-board .region .castle circle"):
            tile = tiles[inner["region"]]
            assert tile["x"] <= inner["x"] and inner["x"] + inner["w"] <= tile["x"] + tile["w"] \
                and tile["y"] <= inner["y"] and inner["y"] + inner["h"] <= tile["y"] + tile["h"], \
                f"{label} {viewport}: {inner['text']!r} leaves {inner['region']}"
        for box in ("#rn-turn", "#rn-players"):
            frame, texts = framed(page, box)
            for i, inner in enumerate(texts):
                assert frame["x"] <= inner["x"] + 1 and inner["x"] + inner["w"] <= frame["x"] \
                    + frame["w"] + 1, f"{label} {viewport}: {inner['text']!r} leaves {box}"
                for other in texts[i + 1:]:
                    assert not overlaps(inner, other), \
                        f"{label} {viewport}: {inner['text']!r} / {other['text']!r} in {box}"
            for tile in tiles.values():
                assert not overlaps(frame, tile), f"{label}: {box} covers {tile['region']}"
        view = hub.view(role)["view"]
        assert drawn_counts(page) == expected_counts("rumble_nation", view), label
        if role != REFEREE:
            secret = hidden_from(hub, role)
            assert secret, f"{label}: a daimyo card should be face down"
            drawn = page.inner_html("#screen") + page.inner_html("#game-panels")
            assert not leaked(secret, drawn), f"{label}: the board or its panels"
            for url, body in open_page.bodies(page):
                assert not leaked(secret, body), f"{label}: {url}"
            if found := leaked(secret, page.content()):
                elsewhere.append(f"{label}: {found}")
        own = hub.session.game.state.daimyo_cards.get(role)
        if role in hub.roles and own:
            assert page.locator("#rn-your-daimyo").inner_text() == CARD_TITLES[own]
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= VIEWPORTS[viewport]["width"], f"{label} scrolls sideways ({width})"
        if label in ("table", "referee", "play-yellow"):
            shot(page, f"{viewport}-{label}")
    assert not elsewhere, f"hidden cards on the page outside the board: {elsewhere}"


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_the_table_reads_from_across_the_room(open_page, served, viewport):
    """Issue 32: on the 1280x800 table every visible text of the map (the eleven names, castles,
    soldiers' counts, the daimyo's badge, the turn's and the players' boxes) is drawn at 18 px or
    more, no two overlapping; the colours' letters by the soldiers come back zoomed in. A
    phone's table: nothing overlaps."""
    page = open_page(page_url(served, ""), viewport)
    found = labels(page, "#rn-board")
    assert overlapping(found) == []
    if viewport == "phone":
        return
    assert too_small(found) == []
    assert len([n for n in found if n["cls"] == "name"]) == 11
    assert page.locator("#rn-board .chip .who").first.is_hidden()


@pytest.fixture
def setting_up(tmp_path) -> Iterator[Served]:
    """Rumble Nation before its set-up is entered: the referee's longest first entry."""
    table = Served(played_hub(tmp_path / "setup", "rumble_nation", actions=0, settle=False))
    yield table
    table.close()


def test_the_referees_next_entry_is_above_the_fold(setting_up, open_page):
    """Issue 32: on the referee's 1280x800 screen the set-up to enter comes first in the side
    column, its whole form and its Enter above the fold."""
    page = open_page(page_url(setting_up, "referee", setting_up.referee))
    enter = page.locator("#picks .pick-enter").first
    box = enter.bounding_box()
    assert box and box["y"] + box["height"] <= 800, box
    shot(page, "tablet-referee-set-up")


def test_a_tap_on_a_region_lists_its_choices_in_words_and_plays_one(open_page, served):
    """Blue has rolled: a tap on a region where a pair of his dice deploys (5.1.1) lists those
    deployments, in words (no action text, no braces); a tap on one asks to confirm it, and the
    soldiers stand there. A region with nothing to do says so."""
    hub = served.hub
    player = acting_player(hub)
    token = hub.tokens.issue(player)
    sent = hub.view(player)
    view, choices = sent["view"], sent["choices"]
    assert view["dice"], "the position should have the dice rolled"
    target = next(r for c in choices for r in sorted(regions_of(c, view)))
    wanted = [c for c in choices if target in regions_of(c, view)]
    idle = next(loc.id for loc in hub.session.game.rules.kit.locations
                if not any(loc.id in regions_of(c, view) for c in choices))
    for viewport in ("phone", "tablet"):
        page = open_page(page_url(served, "play", token), viewport)
        assert page.locator(f"#region-{target}.can").count() == 1
        page.click(f"#region-{idle}")
        chooser = page.locator("#rn-chooser")
        assert chooser.is_visible()
        assert chooser.locator("button.choice").count() == 0
        assert chooser.locator("p.none").is_visible()
        page.click(f"#region-{target}")
        assert chooser.get_attribute("data-region") == target
        listed = chooser.locator("button.choice").all_inner_texts()
        assert listed == [c["words"] for c in wanted]
        text = chooser.inner_text()
        assert "{" not in text and all(c["text"] not in text for c in choices)
        box = chooser.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= VIEWPORTS[viewport]["width"]
        shot(page, f"{viewport}-play-{player}-chooser")
    soldiers = view["soldiers"].get(target, {}).get(player, 0)
    version = hub.version
    chooser.locator("button.choice").first.click()
    page.wait_for_selector("#confirm[open]", timeout=10000)
    assert wanted[0]["words"] in page.locator("#confirm").inner_text()
    page.click("#confirm-yes")
    page.wait_for_selector(f"#version[data-version='{version + 1}']", state="attached",
                           timeout=10000)
    after = hub.view(PUBLIC)["view"]["soldiers"][target][player]
    assert after > soldiers
    assert page.locator(f"#region-{target} [data-side='{player}']").get_attribute(
        "data-count") == str(after)


def test_the_referee_taps_a_region_for_any_side(open_page, served):
    """The referee's tap lists every side's choices involving the region, each with its colour,
    in words."""
    hub = served.hub
    sent = hub.view(REFEREE)
    target = next(r for c in sent["choices"] for r in sorted(regions_of(c, sent["view"])))
    wanted = [c for c in sent["choices"] if target in regions_of(c, sent["view"])]
    page = open_page(page_url(served, "referee", served.referee))
    page.click(f"#region-{target}")
    buttons = page.locator("#rn-chooser button.choice")
    assert buttons.count() == len(wanted)
    assert all(c["words"] in b and "{" not in b
               for c, b in zip(wanted, buttons.all_inner_texts(), strict=True))
    assert buttons.first.locator(".rn-swatch").count() == 1
    shot(page, "tablet-referee-chooser")


def test_the_table_shows_the_banner_and_the_turn_large(open_page, served):
    """The shared screen (page table): the banner names the phase and what the player to act
    does (5.1: Blue has rolled and deploys), in Italian on an Italian tablet; whose turn, the
    dice and the turn order are drawn at least as large as a 20 px letter and 60 px dice on
    1280x800."""
    hub = served.hub
    active = hub.view(PUBLIC)["view"]["active"]
    page = open_page(page_url(served, ""))
    banner = page.locator("#banner")
    assert banner.is_visible()
    assert banner.inner_text() == f"DEPLOYMENT · {active.upper()} DEPLOYS"
    turn = page.locator("#rn-turn")
    assert turn.get_attribute("data-active") == active
    dice = turn.locator(".die")
    assert dice.count() == 3
    assert [int(d) for d in dice.evaluate_all("ds => ds.map(d => d.dataset.value)")] \
        == hub.view(PUBLIC)["view"]["dice"]
    for die in dice.all():
        size = die.bounding_box()
        assert size and size["height"] >= 60, size
    who = turn.locator(f".chip[data-colour='{active}'] text").first
    assert who.bounding_box()["height"] >= 20  # type: ignore[index]
    order = turn.locator(".order .chip")
    assert order.count() == len(hub.roles)
    board = page.locator("#rn-board").bounding_box()  # the whole board in sight, no scrolling
    assert board and board["y"] + board["height"] <= 800, board
    assert page.evaluate("document.documentElement.scrollHeight") <= 800
    shot(page, "tablet-table")
    italian = open_page(page_url(served, ""), locale="it-IT")
    assert italian.locator("#banner").inner_text() == "FASE DI SCHIERAMENTO · BLU SCHIERA"
    assert "Giocatori" in (italian.locator("#rn-players").text_content() or "")
    shot(italian, "tablet-table-it")


def test_the_last_move_is_marked_on_the_map(open_page, served):
    """After a deployment, the region it reached is outlined, as `last.marks` says (the rules'
    marks: a deployment's region is a place, and no arrow: nothing moved)."""
    hub = served.hub
    player = acting_player(hub)
    token = hub.tokens.issue(player)
    page = open_page(page_url(served, ""))
    sent = hub.view(player)
    deploy = next(c for c in sent["choices"] if c["verb"] == "deploy")
    target = next(iter(regions_of(deploy, sent["view"])))
    version = hub.version
    served.post("/api/action", {"text": deploy["text"]}, token)
    page.wait_for_selector(f"#version[data-version='{version + 1}']", state="attached",
                           timeout=10000)
    marks = hub.view(PUBLIC)["last"]["marks"]
    # Rules.marks: a deployment's region is a place (5.1.1), and a deployment moves nothing.
    assert marks == {"arrows": [], "places": [target]}
    marked = set(page.eval_on_selector_all("#rn-board .region.marked",
                                           "ns => ns.map(n => n.dataset.region)"))
    assert marked == {target}
    assert page.locator("#rn-marks .arrow").count() == 0
    assert page.locator("#rn-marks").get_attribute("data-seq") == str(len(hub.session.entries))


def test_two_fingers_zoom_the_map_on_a_phone(browser, served):
    """The toolkit's zoom, as on every board: a pinch (two fingers moving apart) widens the map
    in its box, and the page itself keeps its scale; 'Whole map' shows it all again, the
    buttons zoom in and out."""
    context = browser.new_context(viewport=VIEWPORTS["phone"], has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(page_url(served, ""))
        page.wait_for_selector("#rn-board .region", state="attached")
        board = page.locator("#rn-board")
        assert board.get_attribute("data-zoom") == "1.00"
        whole = board.bounding_box()
        box = page.locator("#rn-scroll").bounding_box()
        assert whole and box
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 3
        cdp = context.new_cdp_session(page)
        touch = "touchStart"
        for d in (20, 40, 60, 80):
            cdp.send("Input.dispatchTouchEvent", {"type": touch, "touchPoints": [
                {"x": x - d, "y": y, "id": 0}, {"x": x + d, "y": y, "id": 1}]})
            touch = "touchMove"
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        assert float(board.get_attribute("data-zoom") or 0) > 2.5
        wider = board.bounding_box()
        assert wider and wider["width"] > whole["width"] * 2.5
        assert page.evaluate("window.visualViewport.scale") == 1
        assert page.locator("#rn-scroll").evaluate("s => s.classList.contains('zoomed')")
        shot(page, "phone-table-zoomed")
        page.click("#rn-wrap button[data-zoom='fit']")
        back = board.bounding_box()
        assert board.get_attribute("data-zoom") == "1.00" and back
        assert back["width"] == whole["width"]
        page.click("#rn-wrap button[data-zoom='in']")
        assert board.get_attribute("data-zoom") == "1.50"
        page.click("#rn-wrap button[data-zoom='out']")
        assert board.get_attribute("data-zoom") == "1.00"
    finally:
        context.close()


def test_the_table_shows_the_zoom_buttons_once_zoomed_in(open_page, served):
    """On the shared table at 1280x800 the map fills the screen with no buttons over it until a
    trackpad's pinch (a wheel with Ctrl) zooms in: then 'Whole map' is over its corner, and the
    page still does not scroll."""
    page = open_page(page_url(served, ""))
    bar = page.locator("#rn-wrap .zoom")
    assert bar.count() == 1 and bar.is_hidden()
    page.locator("#rn-scroll").evaluate("""s => {
        const r = s.getBoundingClientRect();
        s.dispatchEvent(new WheelEvent('wheel', {ctrlKey: true, deltaY: -200, bubbles: true,
            cancelable: true, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2}));
    }""")
    assert float(page.get_attribute("#rn-board", "data-zoom") or 0) > 2
    assert bar.is_visible()
    assert page.evaluate("document.documentElement.scrollHeight") <= 800
    page.click("#rn-wrap button[data-zoom='fit']")
    assert page.get_attribute("#rn-board", "data-zoom") == "1.00" and bar.is_hidden()


def test_every_label_of_the_screen_is_in_italian():
    """Every English label screen.js passes to t() (and its phases and colours) has an Italian
    translation in locales/it/screen.po, with the same {placeholders}."""
    source = SCREEN_JS.read_text(encoding="utf-8")
    labels = set(re.findall(r'\bt\("((?:[^"\\]|\\.)*)"\)', source))
    for table in ("PHASES", "COLOUR_NAMES"):
        body = re.search(table + r" = \{(.*?)\};", source, re.S)
        assert body, table
        labels |= set(re.findall(r':\s*"([^"]+)"', body.group(1)))
    italian = catalog("companion.games.rumble_nation", "it")
    assert len(labels) > 40
    missing = sorted(label for label in labels if not italian.get(label))
    assert not missing, missing
    for label in labels:
        slots = set(re.findall(r"\{\w+\}", label))
        assert slots == set(re.findall(r"\{\w+\}", italian[label])), label
