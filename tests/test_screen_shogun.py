"""Shogun's screen in a real browser (Debian's chromium through Playwright), served live.

The board as players know it: the kit's provinces in their regions, no two names colliding, each
inside its province, armies drawn as the view counts them, with 3 players the marked provinces
greyed (2); the shared table at 1280x800 shows the banner ("AUTUMN · BATTLE B · BATTLE AT ...")
and the players' points, chests and rice as big numbers, and never scrolls; a player's phone
builds its secret plan and bid (3.3) and sends it as one action, and never shows another
player's plan or bid; winter says the why of every point (5.3); the board zooms as every board
does (the toolkit's zoom: buttons, and pinch on a phone); every label in Italian. Screenshots go
to tests/artifacts/shogun-*.png.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import screenshot, wait_for
from playwright.sync_api import Page
from screen_labels import labels, overlapping, too_small
from test_browser import ARTIFACTS, VIEWPORTS, Served, page_url
from web_helpers import played_hub

from companion.engine import PUBLIC, REFEREE

SCREEN_JS = Path(__file__).parents[1] / "companion/games/shogun/screen.js"
PO = SCREEN_JS.with_name("locales") / "it" / "screen.po"
TABLES = ("COLOUR_NAMES", "ACTION_SHORT", "ACTION_NAMES", "SPECIAL_NAMES", "BUILDING_NAMES",
          "KIND_PLURALS")
POSITIONS = {
    "plan": (4, 120),      # summer, year 1: Red still to plan, the others' plans made (3.3)
    "battle": (4, 164),    # autumn, Battle B: Purple attacks from Higashi 5; cubes in the tray
    "winter": (4, 176),    # the first winter: Purple's two revolts drawn (5.2)
    "three": (3, 215),     # 3 players, year 2: the marked provinces out of play (2)
}


def hub_at(tmp_path: Path, position: str):
    players, actions = POSITIONS[position]
    return played_hub(tmp_path / position, "shogun", actions=actions, seed=3,
                      options={"players": players})


@pytest.fixture
def served(tmp_path) -> Iterator[Callable[[str], Served]]:
    opened: list[Served] = []

    def serve(position: str) -> Served:
        table = Served(hub_at(tmp_path, position))
        opened.append(table)
        return table

    yield serve
    for table in opened:
        table.close()


@pytest.fixture
def open_page(browser) -> Iterator[Callable[..., Page]]:
    opened: list[Page] = []
    errors: list[str] = []
    bodies: dict[int, list[Any]] = {}

    def open_(url: str, viewport: str = "tablet", lang: str = "en") -> Page:
        context = browser.new_context(viewport=VIEWPORTS[viewport],
                                      has_touch=viewport == "phone")
        page = context.new_page()
        page.add_init_script(f"localStorage.setItem('companion.lang', '{lang}')")
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        received = bodies.setdefault(id(page), [])
        page.on("response", lambda r: received.append(r))
        page.goto(url)
        page.wait_for_selector("#version[data-version]:not([data-version='-1'])",
                               state="attached")
        page.wait_for_selector("#sg-board .province .tile", state="attached")
        opened.append(page)
        return page

    def texts(page: Page) -> list[tuple[str, str]]:
        return [(r.url, r.text()) for r in bodies[id(page)] if "/stream" not in r.url]

    open_.texts = texts  # type: ignore[attr-defined]
    yield open_
    for page in opened:
        page.context.close()
    assert errors == []


def shot(page: Page, name: str) -> None:
    screenshot(page, ARTIFACTS / f"shogun-{name}.png")


def boxes(page: Page, selector: str) -> list[dict[str, Any]]:
    return page.eval_on_selector_all(selector, """nodes => nodes.map(n => {
        // The box in the board's viewport units, the element's own transform applied (a
        // rotated region name): the same for every measure, however the page moves meanwhile.
        const b = n.getBBox();
        const m = n.getCTM();
        const pts = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height],
                     [b.x + b.width, b.y + b.height]].map(([x, y]) =>
            [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
        const xs = pts.map(p => p[0]), ys = pts.map(p => p[1]);
        const p = n.closest('[data-province]');
        return {text: n.dataset.name || n.textContent, x: Math.min(...xs), y: Math.min(...ys),
                w: Math.max(...xs) - Math.min(...xs), h: Math.max(...ys) - Math.min(...ys),
                province: p && p.dataset.province};
    })""")


def overlaps(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return (a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"]
            and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"])


def counts(view: dict[str, Any]) -> dict[tuple[str, str], int]:
    """The armies the view puts on the board: (province, owner) -> how many."""
    return {(p, view["owner"][p]): n for p, n in view["armies"].items() if n}


def drawn(page: Page) -> dict[tuple[str, str], int]:
    found = page.eval_on_selector_all(
        "#screen [data-where][data-side][data-count]",
        "ns => ns.map(n => [n.dataset.where, n.dataset.side, Number(n.dataset.count)])")
    return {(w, s): c for w, s, c in found}


def secrets(hub, role: str) -> list[dict[str, Any]]:
    """Every other player's plan and bid while not turned up (3.3, 3.5)."""
    state = hub.session.game.state
    found = [{"player": p, "plan": dict(plan)} for p, plan in state.plans.items() if p != role]
    if not state.bids_shown:
        found += [{"player": p, "bid": b} for p, b in state.bids.items() if p != role]
    return found


def leaked_plans(body: str, hidden: list[dict[str, Any]]) -> list[str]:
    """Another player's plan or bid in a JSON body (as a `plans` or `bids` entry)."""
    try:
        data = json.loads(body)
    except ValueError:
        return []
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key in ("plans", "bids"):
                table = node.get(key)
                if isinstance(table, dict):
                    found.extend(f"{key}:{p}" for p in table
                                 if any(s["player"] == p for s in hidden))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(data)
    return found


def check_board(page: Page, hub, role: str, label: str) -> None:
    """Names inside their provinces and apart; the armies are the view's; no braces."""
    names = boxes(page, "#sg-board .province .name")
    side = hub.session.game.state.side
    kit = hub.session.game.rules.kit
    assert sorted(n["text"] for n in names) == sorted(p.name for p in kit.sides[side].provinces)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert not overlaps(a, b), f"{label}: {a['text']} / {b['text']}"
    tiles = {t["province"]: t for t in boxes(page, "#sg-board .province .tile")}
    for inner in boxes(page, "#sg-board .province .name, #sg-board .province .army, "
                             "#sg-board .province .space, #sg-board .province .marker, "
                             "#sg-board .province .values"):
        if inner["w"] == 0:
            continue  # fine print left out at this zoom (the table's rice and taxes)
        tile = tiles[inner["province"]]
        assert tile["x"] <= inner["x"] + 0.5 and inner["x"] + inner["w"] <= tile["x"] \
            + tile["w"] + 0.5 and tile["y"] <= inner["y"] + 0.5 and inner["y"] + inner["h"] \
            <= tile["y"] + tile["h"] + 0.5, f"{label}: {inner['text']!r} leaves {inner['province']}"
    armies = {a["province"]: a for a in boxes(page, "#sg-board .province .army rect")}
    for space in boxes(page, "#sg-board .province .space"):
        army = armies.get(space["province"])
        assert not army or not overlaps(army, space), f"{label}: {space['province']}"
    labels = boxes(page, "#sg-board .region-name")
    for region in labels:
        for name in names:
            assert not overlaps(region, name), f"{label}: {region['text']} / {name['text']}"
    assert drawn(page) == counts(hub.view(role)["view"]), label
    for selector in ("button", "#questions", "#alert", "#sg-board text", ".sg-panel", "#banner"):
        for text in page.locator(selector).all_text_contents():
            assert "{" not in text, f"{label}: {text!r}"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{label} scrolls sideways ({width})"


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_the_board_and_no_hidden_plan_on_any_page(open_page, served, viewport):
    """Planning (3.3): on every page the names stay apart and inside their provinces, the
    armies are the view's, and no page shows, or receives, another player's plan or bid."""
    table = served("plan")
    hub = table.hub
    tokens = {role: hub.tokens.issue(role) for role in hub.roles}
    pages = {"table": (PUBLIC, page_url(table, "")),
             "referee": (REFEREE, page_url(table, "referee", table.referee)),
             **{f"play-{r}": (r, page_url(table, "play", tokens[r])) for r in hub.roles}}
    for label, (role, url) in pages.items():
        page = open_page(url, viewport)
        check_board(page, hub, role, f"{label} {viewport}")
        if role == REFEREE:
            made = page.locator("#sg-plan #sg-plans-made ul.plan")
            assert made.count() == len(hub.session.game.state.plans)
            continue
        hidden = secrets(hub, role)
        assert hidden, "the others have planned"
        for url_, body in open_page.texts(page):
            assert not leaked_plans(body, hidden), f"{label}: {url_}"
        owners = set(page.eval_on_selector_all("#game-panels [data-space]",
                                               "ns => ns.map(n => n.dataset.player)"))
        assert owners <= {role}, f"{label}: a plan space of {owners - {role}}"
        text = page.inner_text("body")
        for secret in hidden:
            colour = secret["player"].capitalize()
            assert f"{colour} plans" not in text, f"{label}: {colour}'s plan in words"
        if label in ("table", "play-red", "play-blue"):
            shot(page, f"{viewport}-{label}-plan")


def test_the_plan_is_built_on_the_phone_and_sent_as_one_action(open_page, served):
    """Red, still to plan, drags a card onto an action space, taps one onto another, chooses
    the bid, fills the rest, and sends the plan: one `plan` action, accepted (3.3)."""
    table = served("plan")
    hub = table.hub
    token = hub.tokens.issue("red")
    page = open_page(page_url(table, "play", token), "phone")
    form = page.locator("#sg-plan")
    assert form.is_visible()
    assert form.locator(".space").count() == 11
    chips = form.locator("#sg-hand .sg-card")
    own = sorted(p for p, o in hub.session.game.state.owner.items() if o == "red")
    assert chips.count() == len(own) + 5
    first = own[0]
    carried = page.evaluate_handle("() => new DataTransfer()")  # a drag, as the page sees it
    form.locator(f"#sg-hand [data-card='{first}']").dispatch_event(
        "dragstart", {"dataTransfer": carried})
    form.locator(".space[data-space='castle']").dispatch_event("drop", {"dataTransfer": carried})
    assert form.locator(".space[data-space='castle']").get_attribute("data-card") == first
    form.locator("#sg-hand [data-card='chest_0']").click()
    form.locator(".space[data-space='battle_a'] .num").click()
    assert form.locator(".space[data-space='battle_a']").get_attribute("data-card") == "chest_0"
    form.locator(".space[data-space='bid'] select").select_option("chest_1")
    form.locator("#sg-plan-send").click()
    assert "must hold a card" in form.locator("#sg-plan-problem").inner_text()
    form.locator("#sg-plan-fill").click()
    shot(page, "phone-play-red-plan-entry")
    version = hub.version
    form.locator("#sg-plan-send").click()
    page.wait_for_selector("#confirm[open]", timeout=10000)
    said = page.locator("#confirm-text").inner_text()
    assert "{" not in said and "Your plan" in said
    page.click("#confirm-yes")
    page.wait_for_selector(f"#version[data-version='{version + 1}']", state="attached",
                           timeout=10000)
    plan = hub.session.game.state.plans["red"]
    assert plan["castle"] == first and plan["battle_a"] == "chest_0"
    assert hub.session.game.state.bids["red"] == "chest_1"
    page.wait_for_selector("#sg-plan ul.plan", timeout=10000)


def test_the_referee_builds_the_plan_of_a_player_without_a_phone(open_page, served):
    """Issue 32, 3.3: with the tablet alone, the referee picks a player still to plan and
    builds that plan as a phone does (not one of 3 random plans, never raw syntax); it is
    recorded as that player's, and the plans already made still show."""
    table = served("plan")
    hub = table.hub
    state = hub.session.game.state
    waiting = [p for p in state.players if p not in state.plans]
    assert waiting, "a player still to plan"
    player = waiting[0]
    recorded = len(hub.session.entries)
    page = open_page(page_url(table, "referee", table.referee), "tablet")
    box = page.locator("#sg-plan")
    assert box.locator("#sg-plans-made ul.plan").count() == len(state.plans)
    box.locator(f"#sg-plan-for button[data-player='{player}']").click()
    form = box.locator("#sg-plan-entry")
    own = sorted(p for p, o in state.owner.items() if o == player)
    assert form.locator("#sg-hand .sg-card").count() == len(own) + 5
    assert player.capitalize() in form.locator("h2").inner_text()
    form.locator("#sg-plan-fill").click()
    shot(page, "tablet-referee-plan-for-a-player")
    form.locator("#sg-plan-send").click()
    page.wait_for_selector("#confirm[open]", timeout=10000)
    said = page.locator("#confirm-text").inner_text()
    assert "{" not in said and f"{player.capitalize()}'s plan" in said
    page.click("#confirm-yes")
    # The entry, not the state: the rules apply the plan before the record is written and
    # fsynced, and this thread reads without the hub's lock.
    def mine() -> list:
        # the plan is that player's (other players' phones may plan meanwhile, after it)
        return [e for e in hub.session.entries[recorded:]
                if e.action.verb == "plan" and e.action.role == player]
    wait_for(mine, 10, "the plan recorded")
    assert len(mine()) == 1, [e.action.text()[:40] for e in hub.session.entries[-4:]]
    assert player in hub.session.game.state.plans


def test_the_table_reads_from_across_the_room(open_page, served):
    """1280x800 during a battle: the banner, the action track with the current card, the tray,
    the players' points, chests and rice as big numbers; one screenful, no scrolling."""
    table = served("battle")
    hub = table.hub
    view = hub.view(PUBLIC)["view"]
    page = open_page(page_url(table, ""))
    shot(page, "tablet-table")
    names = {p.id: p.name for p in hub.session.game.rules.kit.sides[view["side"]].provinces}
    banner = page.locator("#banner")
    assert banner.is_visible()
    pending = view["pending"]
    assert pending and pending["kind"] == "attack", "the position: an attack or move awaited"
    assert banner.inner_text() == (f"AUTUMN · BATTLE B · {pending['player'].upper()} ATTACKS "
                                   f"FROM {names[pending['province']].upper()}")
    assert page.locator(f"#province-{pending['province']}.pending").count() == 1
    now = page.locator("#sg-track .card.now")
    assert now.count() == 1 and now.get_attribute("data-card") == view["actions"][view["step"]]
    assert page.locator("#sg-track .card.back").count() == 10 - len(view["actions"])
    for colour, n in view["tray"].items():
        assert page.locator(f"#sg-tray [data-colour='{colour}']").get_attribute("data-tray") \
            == str(n)
    for player in hub.roles:
        for key in ("vp", "chests", "rice"):
            number = page.locator(f"#sg-players [data-player='{player}'] [data-key='{key}']")
            assert number.text_content() == str(view[key][player])
            size = number.bounding_box()
            assert size and size["height"] >= 26, (player, key, size)
    board = page.locator("#sg-board").bounding_box()
    assert board and board["y"] + board["height"] <= 800, board
    assert page.evaluate("document.documentElement.scrollHeight") <= 800
    check_board(page, hub, PUBLIC, "table battle")
    shot(page, "tablet-table")
    phone = open_page(page_url(table, ""), "phone")
    check_board(phone, hub, PUBLIC, "phone table battle")
    shot(phone, "phone-table")
    italian = open_page(page_url(table, ""), lang="it")
    assert italian.locator("#banner").inner_text().startswith("AUTUNNO · BATTAGLIA B ·")
    assert "punti" in (italian.locator("#sg-players").text_content() or "")
    shot(italian, "tablet-table-it")


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_every_board_text_on_the_table_reads_at_18_px(open_page, served, viewport):
    """Issue 32: on the 1280x800 table every visible text of the board (provinces' names, armies,
    revolt markers, the regions, the action cards, the tray, the players' numbers and captions)
    is drawn at 18 px or more and no two overlap; the fine print (rice and taxes, the colour's
    letters, a card's place, a player's supply line) comes back zoomed in, as large. A phone's
    table: nothing overlaps."""
    table = served("battle")
    page = open_page(page_url(table, ""), viewport)
    found = labels(page, "#sg-board")
    assert overlapping(found) == []
    if viewport == "phone":
        return
    assert too_small(found) == []
    names = [n for n in found if n["cls"] == "name"]
    assert len(names) == page.locator("#sg-board .province").count()
    assert page.locator("#sg-board .values").first.is_hidden()
    page.locator("#sg-scroll").evaluate("""s => {
        const r = s.getBoundingClientRect();
        s.dispatchEvent(new WheelEvent('wheel', {ctrlKey: true, deltaY: -300, bubbles: true,
            cancelable: true, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2}));
    }""")
    wait_for(lambda: page.locator("#sg-board .values").first.is_visible())
    fine = [n for n in labels(page, "#sg-board") if "fine" in n["cls"]]
    assert fine and too_small(fine) == []


def test_winter_says_the_why_of_every_point_and_the_revolts(open_page, served):
    """The first winter (5): the revolts still to fight are listed, and each player's points
    are said with what they are for; the totals are 5.3's."""
    table = served("winter")
    hub = table.hub
    page = open_page(page_url(table, ""))
    winter = page.locator("#sg-winter")
    assert page.locator("#banner").inner_text().startswith("WINTER · YEAR 1")
    assert winter.locator("#sg-revolts li").count() >= 1
    from companion.games.shogun.rules.context import Batch
    from companion.games.shogun.rules.winter import scores
    game = hub.session.game
    expected = scores(Batch(game.rules.kit, game.state))
    for player, score in expected.items():
        item = winter.locator(f"#sg-why [data-player='{player}']")
        assert item.get_attribute("data-total") == str(score["total"])
        assert f"{score['provinces']} for provinces" in item.inner_text()
    shot(page, "tablet-table-winter")


def test_three_players_grey_the_marked_provinces(open_page, served):
    """With 3 players the 8 marked provinces are out of play (2), drawn greyed and said so."""
    table = served("three")
    hub = table.hub
    page = open_page(page_url(table, ""))
    side = hub.session.game.state.side
    marked = {p.id for p in hub.session.game.rules.kit.sides[side].provinces if p.unused_with_3}
    greyed = set(page.eval_on_selector_all("#sg-board .province.unused",
                                           "ns => ns.map(n => n.dataset.province)"))
    assert greyed == marked
    check_board(page, hub, PUBLIC, "three players")
    assert page.evaluate("document.documentElement.scrollHeight") <= 800
    shot(page, "tablet-table-3-players")


def test_the_board_zooms_with_buttons_and_two_fingers_on_a_phone(browser, served):
    """On a phone the board zooms as every board does: '+' widens it in its box and 'Whole
    board' shows it all again; two fingers moving apart zoom the board, not the page."""
    table = served("plan")
    context = browser.new_context(viewport=VIEWPORTS["phone"], has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(page_url(table, ""))
        page.wait_for_selector("#sg-board .province .tile", state="attached")
        board = page.locator("#sg-board")
        assert board.get_attribute("data-zoom") == "1.00"
        whole = board.bounding_box()
        assert whole
        page.click("#sg-wrap button[data-zoom='in']")
        assert board.get_attribute("data-zoom") == "1.50"
        wider = board.bounding_box()
        assert wider and wider["width"] > whole["width"] * 1.4
        page.click("#sg-wrap button[data-zoom='fit']")
        assert board.get_attribute("data-zoom") == "1.00"
        box = page.locator("#sg-scroll").bounding_box()
        assert box
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 3
        cdp = context.new_cdp_session(page)
        touch = "touchStart"
        for d in (20, 35, 50, 65):
            cdp.send("Input.dispatchTouchEvent", {"type": touch, "touchPoints": [
                {"x": x - d, "y": y, "id": 0}, {"x": x + d, "y": y, "id": 1}]})
            touch = "touchMove"
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        assert float(board.get_attribute("data-zoom") or 0) > 2
        assert page.evaluate("window.visualViewport.scale") == 1
        assert page.locator("#sg-wrap .zoom").is_visible()
        shot(page, "phone-table-zoomed")
    finally:
        context.close()


def test_the_table_shows_the_zoom_buttons_once_zoomed_in(open_page, served):
    """The shared table at 1280x800 keeps its one screenful with no buttons over the board until
    a trackpad's pinch (a wheel with Ctrl) zooms in; then the board scrolls in its box under
    'Whole board', and the page still does not scroll."""
    table = served("battle")
    page = open_page(page_url(table, ""))
    bar = page.locator("#sg-wrap .zoom")
    assert bar.count() == 1 and bar.is_hidden()
    before = page.locator("#sg-board").bounding_box()
    page.locator("#sg-scroll").evaluate("""s => {
        const r = s.getBoundingClientRect();
        s.dispatchEvent(new WheelEvent('wheel', {ctrlKey: true, deltaY: -150, bubbles: true,
            cancelable: true, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2}));
    }""")
    assert float(page.get_attribute("#sg-board", "data-zoom") or 0) > 1.8
    after = page.locator("#sg-board").bounding_box()
    assert before and after and after["width"] > before["width"] * 1.8
    assert bar.is_visible()
    assert page.evaluate("document.documentElement.scrollHeight") <= 800
    shot(page, "tablet-table-zoomed")
    page.click("#sg-wrap button[data-zoom='fit']")
    assert page.get_attribute("#sg-board", "data-zoom") == "1.00" and bar.is_hidden()
    assert page.locator("#sg-board").bounding_box() == before


def screen_labels() -> set[str]:
    source = SCREEN_JS.read_text(encoding="utf-8")
    labels = set(re.findall(r'\bt\("((?:[^"\\]|\\.)*)"\)', source))
    for a, b in re.findall(r'\?\s*"([^"]+)"\s*:\s*"([^"]+)"', source):
        labels |= {a, b}
    for table in TABLES:
        body = re.search(table + r" = \{(.*?)\};", source, re.S)
        assert body, table
        labels |= set(re.findall(r':\s*"([^"]+)"', body.group(1)))
    seasons = re.search(r"SEASONS = \[(.*?)\];", source)
    assert seasons
    labels |= set(re.findall(r'"([^"]+)"', seasons.group(1)))
    return labels


def test_every_screen_label_has_its_italian():
    """locales/it/screen.po translates every label the screen says, keeping its
    {placeholders}."""
    from babel.messages.pofile import read_po

    with PO.open("rb") as handle:
        italian = {m.id: m.string for m in read_po(handle) if m.id}
    labels = screen_labels()
    assert len(labels) > 60
    missing = sorted(label for label in labels if not italian.get(label))
    assert not missing, missing
    for label in labels:
        slots = set(re.findall(r"\{\w+\}", label))
        assert slots == set(re.findall(r"\{\w+\}", italian[label])), label
