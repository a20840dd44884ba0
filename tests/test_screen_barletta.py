"""La Disfida di Barletta's screen in a real browser (Debian's chromium driven by Playwright): the
field drawn as a hex grid numbered as the rulebook numbers it, every knight as a counter at its
hex with its face (mounted or on foot, H3), its hits and wounds; a tap on a knight rings where it
may go and offers its orders in words; the melee's columns and modifiers (H1.1, H1.2) as the rules
compute them; the shared table's banner, one screenful at 1280x800; every label in Italian.

Each test serves a live game on loopback (tests/test_browser.py's `Served`). Screenshots go to
tests/artifacts/barletta-*.png for people to look at.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from screen_labels import READ_AT_TABLE, labels, overlapping, too_small
from test_browser import VIEWPORTS, Pages, Served, drawn_counts, page_url
from test_browser import shot as save
from web_helpers import acting_player, played_hub

from companion.engine import PUBLIC, REFEREE
from companion.games.barletta.rules.combat import column_shift, roll_modifier
from companion.games.barletta.rules.context import Batch
from companion.i18n import catalog

SCREEN = Path(__file__).parents[1] / "companion/games/barletta/screen.js"
LOOKED_UP = ("SIDE_WORDS", "SIDE_UPPER", "STEP_WORDS", "OUT_WORDS", "PHASE_WORDS")
"""The screen's tables of words looked up by a value from the view (each value goes to t)."""
ORDERS_AT = 120
"""Seed 1, 120 actions in: turn 2, the Italians act with 4 order points; knights on foot, with
hits and wounds, in camp and on both Surrended tables."""
MELEE_AT = 74
"""Seed 1, 74 actions in: turn 1, Riccio attacks de Landes and the melee dice are due."""


def expected_counts(view: dict[str, Any]) -> dict[tuple[str, str], int]:
    """The pieces the view puts on the board, as tests/test_browser.py's COUNTS reads them: one
    knight per hex, and each side's knights in camp counted together."""
    counts: dict[tuple[str, str], int] = {}
    for k in view["knights"].values():
        if k["where"] and not k["out"]:
            key = (k["where"], k["side"])
            counts[key] = counts.get(key, 0) + 1
    return counts


def shot(page: Page, name: str) -> None:
    save(page, f"barletta-{name}")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    table = Served(played_hub(tmp_path_factory.mktemp("orders"), "barletta", actions=ORDERS_AT,
                              seed=1))
    yield table
    table.close()


@pytest.fixture(scope="module")
def melee(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    table = Served(played_hub(tmp_path_factory.mktemp("melee"), "barletta", actions=MELEE_AT,
                              seed=1, settle=False))
    yield table
    table.close()


@pytest.fixture
def pages(browser: Browser) -> Iterator[Pages]:
    opened = Pages(browser)
    yield opened
    opened.close()


def screen_labels() -> set[str]:
    """Every English label screen.js passes to t: literal calls, both arms of a conditional
    call, and the values of its tables of words."""
    source = SCREEN.read_text(encoding="utf-8")
    found = set(re.findall(r'\bt\("((?:[^"\\]|\\.)*)"\)', source))
    for pair in re.findall(r'\bt\("([^"]*)"\)\s*:\s*t\("([^"]*)"\)', source):
        found.update(pair)
    for table in LOOKED_UP:
        body = re.search(table + r" = \{(.*?)\};", source, re.S)
        assert body, table
        found.update(re.findall(r':\s*"([^"]*)"', body.group(1)))
    return found


def test_every_screen_label_has_its_italian() -> None:
    """locales/it/screen.po translates every label, keeping its {placeholders}, and holds
    nothing the screen no longer says."""
    from babel.messages.pofile import read_po

    po = SCREEN.with_name("locales") / "it" / "screen.po"
    with po.open("rb") as handle:
        italian = {str(m.id): str(m.string) for m in read_po(handle) if m.id}
    labels = screen_labels()
    assert len(labels) > 60
    assert sorted(labels - set(italian)) == []
    assert sorted(set(italian) - labels) == [], "no stale entries"
    merged = catalog("companion.games.barletta", "it")
    for label in labels:
        assert italian[label] and merged.get(label) == italian[label], label
        slots = set(re.findall(r"\{\w+\}", label))
        assert slots == set(re.findall(r"\{\w+\}", italian[label])), label


def counters(page: Page) -> dict[str, dict[str, Any]]:
    return {c["knight"]: c for c in page.eval_on_selector_all(
        "#bar-field .counter", """ns => ns.map(n => ({knight: n.dataset.knight,
        face: n.dataset.face, where: n.dataset.where || null, side: n.dataset.side || null,
        camp: n.classList.contains('camp'), vc: Number(n.querySelector('.vc').textContent),
        hits: Number((n.querySelector('[data-hits]') || {dataset: {hits: 0}}).dataset.hits),
        wounds: Number((n.querySelector('[data-wounds]') || {dataset: {wounds: 0}}).dataset.wounds),
        markers: [...n.querySelectorAll('[data-marker]')].map(m => m.dataset.marker)}))""")}


def no_braces(page: Page, label: str) -> None:
    """No raw action text on a player's or the table's screen."""
    for selector in ("#options button", "#questions button", "#alert", "#bar-chooser",
                     "#game-panels"):
        for text in page.locator(selector).all_inner_texts():
            assert "{" not in text, f"{label}: {selector} shows {text!r}"


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_every_knight_is_drawn_at_its_hex_with_its_face(pages: Pages, served: Served,
                                                        viewport: str) -> None:
    """The table and each side's phone: every knight on the field is one counter at its hex,
    with its face, VC, hits and wounds; the knights in camp stand in their camp's corner, the
    Surrended tables hold the knights out of the fight; the Attack and Reorganization markers
    sit where the view says; no raw action text anywhere; no page scrolls sideways."""
    hub = served.hub
    screens = {"table": (PUBLIC, page_url(served, "")),
               **{f"play-{r}": (r, page_url(served, "play", hub.tokens.issue(r)))
                  for r in hub.roles}}
    for label, (role, url) in screens.items():
        page = pages.open(url, viewport)
        view = hub.view(role)["view"]
        drawn = counters(page)
        assert drawn_counts(page) == expected_counts(view), label
        attacking = {a for k in view["knights"].values() for a in k["attacked_by"]}
        for knight, k in view["knights"].items():
            if k["out"] or not k["where"]:
                assert knight not in drawn, knight
                continue
            c = drawn[knight]
            assert c["face"] == ("mounted" if k["mounted"] else "foot"), knight
            assert (c["vc"], c["hits"], c["wounds"]) == (k["vc"], k["hits"], k["wounds"]), knight
            assert ("attack" in c["markers"]) == (knight in attacking), knight
            assert ("reorganize" in c["markers"]) == k["reorganizing"], knight
            if k["where"] == "camp":
                assert c["camp"], knight
            else:
                assert (c["where"], c["side"]) == (k["where"], k["side"]), knight
        faces = {c["face"] for c in drawn.values()}
        assert faces == {"mounted", "foot"}, "the position has both faces"
        for side in hub.roles:
            gone = page.get_attribute(f".bar-gone[data-side='{side}']", "data-count")
            assert gone == str(len(view["surrendered"][side]))
            camp = sum(1 for k in view["knights"].values()
                       if k["side"] == side and k["where"] == "camp" and not k["out"])
            if camp:
                assert page.get_attribute(f".in-camp[data-side='{side}']", "data-count") \
                    == str(camp)
        numbers = page.eval_on_selector_all("#bar-field .cell[data-hex] .num",
                                            "ns => ns.map(n => n.textContent)")
        assert len(numbers) == len(hub.session.game.rules.kit.locations)
        assert "1807" in numbers and "3006" in numbers
        no_braces(page, label)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= VIEWPORTS[viewport]["width"], f"{label} scrolls sideways ({width})"
        shot(page, f"{viewport}-{label}")
    assert pages.errors == []


def _moves(state: dict[str, Any], knight: str) -> list[dict[str, Any]]:
    return [c for c in state["choices"] if c["args"].get("knight") == knight]


def tap_knight(page: Page, knight: str) -> None:
    """Tap a knight's counter once the board has laid it out (a page just opened on a busy
    machine may still be drawing: the counter is there but has no size yet)."""
    counter = f"#bar-field .counter[data-knight='{knight}']"
    page.wait_for_selector(counter, state="visible", timeout=10000)
    page.click(counter, force=True)


def test_a_tap_on_a_knight_rings_its_orders_and_offers_them_in_words(pages: Pages,
                                                                    served: Served) -> None:
    """The acting side taps a knight: the hexes it may move to are ringed green, the knights it
    may attack red; a tap on a green hex lists the orders that end there, in words; choosing
    one (confirmed) plays it."""
    hub = served.hub
    role = acting_player(hub)
    token = hub.tokens.issue(role)
    state = hub.view(role)
    view = state["view"]
    knight = next(k for k in view["knights"] if view["knights"][k]["side"] == role
                  and any(c["args"].get("attack") for c in _moves(state, k))
                  and view["knights"][k]["where"] not in (None, "camp"))
    here = view["knights"][knight]["where"]
    orders = _moves(state, knight)
    green = {c["args"]["to"] for c in orders if c["verb"] == "move" and c["args"]["to"] != here}
    red = {view["knights"][c["args"]["attack"]]["where"] for c in orders if c["args"].get("attack")}
    for viewport in ("tablet", "phone"):
        page = pages.open(page_url(served, "play", token), viewport)
        tap_knight(page, knight)
        page.wait_for_selector("#bar-field .dest", state="attached", timeout=5000)
        rings = page.eval_on_selector_all(
            "#bar-field .dest",
            "ns => ns.map(n => [n.dataset.dest, n.classList.contains('attack')])")
        assert {h for h, attack in rings if not attack} == green
        assert {h for h, attack in rings if attack} == red
        chooser = page.locator("#bar-chooser")
        assert chooser.is_visible() and view["knights"][knight]["name"] in chooser.inner_text()
        no_braces(page, viewport)
        shot(page, f"{viewport}-play-{role}-tap")
    dest = sorted(green)[0]
    page = pages.open(page_url(served, "play", token), "tablet")
    tap_knight(page, knight)
    page.click(f"#bar-field .dest[data-dest='{dest}']", force=True)
    page.wait_for_selector("#bar-chooser:not([hidden]) button[data-choice-id]", timeout=5000)
    offered = page.eval_on_selector_all("#bar-chooser button[data-choice-id]",
                                        "bs => bs.map(b => [b.dataset.choiceId, b.textContent])")
    wanted = {str(c["id"]): c["words"] for c in orders if c["args"].get("to") == dest}
    assert dict(offered) == wanted
    no_braces(page, "chooser")
    shot(page, "tablet-play-chooser")
    version = hub.version
    page.click(f"#bar-chooser button[data-choice-id='{offered[0][0]}']")
    page.click("#confirm-yes")
    page.wait_for_selector(f"#version[data-version='{version + 1}']", state="attached",
                           timeout=10000)
    assert hub.session.entries[-1].action.args["to"] == dest
    assert pages.errors == []


def test_the_referee_taps_any_knight_with_an_order(pages: Pages, served: Served) -> None:
    """The referee's screen takes a tap on the acting side's knights and rings their orders."""
    hub = served.hub
    state = hub.view(REFEREE)
    knight = next(c["args"]["knight"] for c in state["choices"] if c["verb"] == "move"
                  and state["view"]["knights"][c["args"]["knight"]]["where"] not in (None, "camp"))
    page = pages.open(page_url(served, "referee", served.referee), "tablet")
    tap_knight(page, knight)
    page.wait_for_selector("#bar-field .dest", state="attached", timeout=5000)
    assert page.locator("#bar-field .dest").count() >= 1
    shot(page, "tablet-referee")
    assert pages.errors == []


def _banner(view: dict[str, Any]) -> str:
    """The table's big line, written here from the view (C, D1)."""
    assert view["phase"] == "orders"
    n = view["order_points"][view["active"]]
    return (f"TURN {view['turn']} · {view['active'].upper()} ACT · {n} ORDER POINT"
            + ("" if n == 1 else "S"))


def test_the_table_is_one_screenful_with_its_banner(pages: Pages, served: Served) -> None:
    """The shared screen at 1280x800: the banner ("TURN 2 · ITALIANS ACT · 4 ORDER POINTS"),
    the whole field in sight without scrolling, the turn's numbers large, the Order Track's
    chits on their boxes."""
    hub = served.hub
    page = pages.open(page_url(served, ""), "tablet")
    view = hub.view(PUBLIC)["view"]
    assert page.inner_text("#banner") == _banner(view)
    page.wait_for_timeout(200)  # the field is fitted after the first view is drawn
    assert page.evaluate("document.documentElement.scrollHeight") <= 800
    field = page.locator("#bar-field").bounding_box()
    assert field and field["y"] + field["height"] <= 800 and field["width"] >= 600, field
    for side in hub.roles:
        cell = page.locator(f"#bar-turn tr[data-key='order_points'] td[data-side='{side}']")
        assert cell.inner_text() == str(view["order_points"][side])
        size = cell.evaluate("n => parseFloat(getComputedStyle(n).fontSize)")
        assert size >= 28, "big enough to read from 1.5 m"
        chit = page.get_attribute(f".bar-track [data-chit='{side}-points']", "data-value")
        assert chit == str(min(view["order_points"][side], 9))
        points = page.inner_text(f"#bar-turn tr[data-key='points'] td[data-side='{side}']")
        assert points == str(view["points"][side])
    shot(page, "tablet-table")
    assert pages.errors == []


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_the_field_on_the_table_reads_from_across_the_room(pages: Pages, served: Served,
                                                            viewport: str) -> None:
    """Issue 32: on the 1280x800 table every visible text of the field (each counter's VC, its
    hits and wounds on a badge, the camps' names) is drawn at 18 px or more and no two overlap;
    zoomed in, the counters' names, markers, small hits and wounds and the hexes' numbers come
    back, each as large, and the badges step aside. A phone's table: every text shown and
    nothing overlaps (a hex's number under a counter is left out)."""
    page = pages.open(page_url(served, ""), viewport)
    found = labels(page, "#bar-field")
    assert overlapping(found) == []
    if viewport == "phone":
        assert any(n["cls"] == "name fine" for n in found)
        return
    assert too_small(found) == []
    knights = [k for k in served.hub.view(PUBLIC)["view"]["knights"].values()
               if not k.get("out") and k.get("where")]
    assert len([n for n in found if n["cls"] == "vc"]) == len(knights)
    told = sorted(n["text"] for n in found if n["cls"] in ("n hits-n", "n wounds-n"))
    assert told == sorted(str(k[kind]) for k in knights for kind in ("hits", "wounds") if k[kind])
    page.locator("#bar-scroll").evaluate("""s => {
        const r = s.getBoundingClientRect();
        s.dispatchEvent(new WheelEvent('wheel', {ctrlKey: true, deltaY: -400, bubbles: true,
            cancelable: true, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2}));
    }""")
    page.wait_for_selector("#bar-field .counter .name", state="visible")
    zoomed = labels(page, "#bar-field")
    names = [n for n in zoomed if n["cls"] == "name fine"]
    assert len(names) == len(knights) and too_small(names) == []
    assert not [n for n in zoomed if n["cls"].startswith("n ")], "the badges step aside"
    pips = page.eval_on_selector_all("#bar-field .pip", """ps => ps.map(p => [
        p.checkVisibility(), parseFloat(getComputedStyle(p).fontSize) * p.getScreenCTM().a])""")
    assert pips and all(shown and size >= READ_AT_TABLE for shown, size in pips), pips
    assert overlapping(zoomed) == []
    assert pages.errors == []


BADGES = """field => Array.from(field.querySelectorAll('.counter')).map(c => {
    const box = n => { const r = n.getBoundingClientRect();
                       return {x: r.x, y: r.y, w: r.width, h: r.height}; };
    const badge = c.querySelector('.badge');
    const shown = badge && badge.checkVisibility({checkVisibilityCSS: true});
    const numbers = shown ? Array.from(badge.querySelectorAll('text')).map(t => ({
        kind: t.classList.contains('hits-n') ? 'hits' : 'wounds', n: Number(t.textContent),
        size: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a, x: box(t).x,
        fill: getComputedStyle(t).fill,
        under: getComputedStyle(t.parentNode.querySelector('.' + (t.classList.contains('hits-n')
            ? 'hits' : 'wounds'))).fill})) : [];
    return {knight: c.dataset.knight, face: box(c.querySelector('rect.face')),
            vc: box(c.querySelector('.vc')), shape: shown ? box(badge.querySelector('.rim')) : null,
            shapes: shown ? badge.querySelectorAll('.rim').length : 0, numbers};
})"""
"""Per counter on the field: its face's and VC's boxes on the screen, and its hits-and-wounds
badge's outline box and numbers (kind, count, size as drawn, colours) while it is shown."""


def _meets(a: dict[str, float], b: dict[str, float], slack: float = 0.5) -> bool:
    """Whether two boxes on the screen overlap by more than `slack` px both ways."""
    across = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
    down = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
    return across > slack and down > slack


def test_hits_and_wounds_read_from_across_the_table(pages: Pages, served: Served) -> None:
    """Issue 32 (H3.1, H4.1, the melee read them): on the 1280x800 table at its whole-field zoom,
    each knight with hits or wounds wears a badge 18 px tall with each count in its colour (hits
    green on the left, wounds red on the right, one pill for both) in type of 18 px and more; the
    badge stands clear of its own VC, of every other counter and of every other badge. The
    position (seed 1, 120 actions played) has knights with hits, with wounds, with both, and one
    in camp."""
    view = served.hub.view(PUBLIC)["view"]
    standing = {k: v for k, v in view["knights"].items() if v["where"] and not v["out"]}
    marked = {k: v for k, v in standing.items() if v["hits"] or v["wounds"]}
    assert any(v["hits"] and v["wounds"] for v in marked.values()), "a knight with both"
    assert any(v["hits"] and not v["wounds"] for v in marked.values())
    assert any(v["wounds"] and not v["hits"] for v in marked.values())
    assert any(v["where"] == "camp" for v in marked.values()), "a knight in camp with hits"
    page = pages.open(page_url(served, ""), "tablet")
    page.wait_for_selector("#bar-field .counter .badge", state="visible")
    drawn = {c["knight"]: c for c in page.eval_on_selector("#bar-field", BADGES)}
    assert set(drawn) == set(standing)
    green, red = "rgb(27, 127, 42)", "rgb(198, 40, 40)"
    for knight, k in standing.items():
        c = drawn[knight]
        if knight not in marked:
            assert c["shape"] is None, knight
            continue
        assert c["shape"] and c["shape"]["h"] >= READ_AT_TABLE and c["shapes"] == 1, (knight, c)
        told = {n["kind"]: n for n in c["numbers"]}
        assert {kind: n["n"] for kind, n in told.items()} == \
            {kind: k[kind] for kind in ("hits", "wounds") if k[kind]}, knight
        for n in told.values():
            assert n["size"] >= READ_AT_TABLE, (knight, n)
            assert n["fill"] == "rgb(255, 255, 255)", (knight, n)
            assert n["under"] == (green if n["kind"] == "hits" else red), (knight, n)
        if len(told) == 2:
            assert told["hits"]["x"] < told["wounds"]["x"], knight
        assert not _meets(c["shape"], c["vc"]), f"{knight}'s badge over its VC"
        for other, o in drawn.items():
            if other == knight:
                continue
            assert not _meets(c["shape"], o["face"]), f"{knight}'s badge over {other}"
            assert not (o["shape"] and _meets(c["shape"], o["shape"])), f"{knight} / {other}"
    save(page, "barletta-tablet-table-badges")
    assert pages.errors == []


def test_the_table_in_italian(browser: Browser, served: Served) -> None:
    """A device set to Italian reads the banner and the panels in the rulebook's words."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script("localStorage.setItem('companion.lang', 'it')")
    try:
        page.goto(page_url(served, ""))
        page.wait_for_selector("#bar-turn .bar-sides", state="attached")
        view = served.hub.view(PUBLIC)["view"]
        who = {"italians": "GLI ITALIANI", "french": "I FRANCESI"}[view["active"]]
        n = view["order_points"][view["active"]]
        assert page.inner_text("#banner") == \
            f"TURNO {view['turn']} · AGISCONO {who} · {n} PUNT{'O' if n == 1 else 'I'} ORDINE"
        panels = page.inner_text("#game-panels")
        assert "Punti Ordine" in panels and "fuori combattimento" in panels
        shot(page, "tablet-table-it")
    finally:
        page.close()
    assert errors == []


def test_the_melee_shows_each_knights_column_and_modifier(pages: Pages, melee: Served) -> None:
    """While the melee dice are due, the panel names the attack and, for each knight, the
    column it reads and its roll modifier with why, as rules/combat.py computes them (H1.1,
    H1.2); both knights are ringed on the field and the banner names the attack."""
    hub = melee.hub
    game = hub.session.game
    state = game.state
    combat = state.combat
    assert combat is not None and combat.step == "melee" and not combat.charge
    batch = Batch(game.rules.kit, state, game.rules.options)
    for viewport in VIEWPORTS:
        page = pages.open(page_url(melee, ""), viewport)
        for me, foe, attacking in ((combat.attacker, combat.defender, True),
                                   (combat.defender, combat.attacker, False)):
            line = page.locator(f"#bar-melee [data-reads='{me}']")
            shift = column_shift(batch, me, foe, attacking)
            column = "0" if shift == 0 else f"{abs(shift)}{'R' if shift > 0 else 'L'}"
            assert line.get_attribute("data-column") == column
            assert line.get_attribute("data-modifier") == str(roll_modifier(batch, me, foe))
        rings = page.eval_on_selector_all("#bar-field .combat-ring",
                                          "ns => ns.map(n => n.dataset.combat)")
        assert sorted(rings) == sorted([combat.attacker, combat.defender])
        names = {k: game.rules.kit.by_id[k].name.upper() for k in (combat.attacker,
                                                                   combat.defender)}
        assert f"{names[combat.attacker]} ATTACKS {names[combat.defender]}" \
            in page.inner_text("#banner")
        no_braces(page, viewport)
        shot(page, f"{viewport}-table-melee")
    assert pages.errors == []


@pytest.mark.parametrize(("actions", "phase"), [(6, "deploy"), (40, "charge"), (None, "over")])
def test_every_step_of_the_game_draws_without_errors(pages: Pages, tmp_path: Path,
                                                     actions: int | None, phase: str) -> None:
    """The deployment (the knights still to place listed beside the field, I1), the opening
    charge (I2) and the end of the game (L) each draw on the table and on the acting side's
    phone, with a banner in words and no console error."""
    hub = played_hub(tmp_path, "barletta", seed=1, actions=10_000 if actions is None else actions)
    table = Served(hub)
    try:
        view = hub.view(PUBLIC)["view"]
        assert view["phase"] == phase
        page = pages.open(page_url(table, ""), "tablet")
        words = page.inner_text("#banner")
        assert words and "{" not in words
        if phase == "deploy":
            waiting = sum(1 for k in view["knights"].values() if not k["where"])
            drawn = page.eval_on_selector_all("#bar-deploy [data-where='unplaced']",
                                              "ns => ns.map(n => Number(n.dataset.count))")
            assert sum(drawn) == waiting > 0
            role = acting_player(hub)
            play = pages.open(page_url(table, "play", hub.tokens.issue(role)), "tablet")
            knight = next(c["args"]["knight"] for c in hub.view(role)["choices"])
            play.click(f"#bar-deploy button[data-knight='{knight}']")
            play.wait_for_selector("#bar-field .dest", state="attached", timeout=5000)
            shot(play, "tablet-play-deploy")
        if phase == "over":
            winner = view["outcome"]["winner"]
            assert words == (f"{winner.upper()} WIN" if winner else "THE GAME IS A DRAW")
        shot(page, f"tablet-table-{phase}")
    finally:
        table.close()
    assert pages.errors == []
