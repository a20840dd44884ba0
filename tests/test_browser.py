"""The screens in a real browser: Debian's chromium driven by Playwright (8: Tests).

Each test serves a live table on loopback and opens the pages, for every game with a screen.
Screenshots of every page (the table, each player's phone, the referee, the replay) at the
tablet's 1280x800 and a phone's 390x844 are saved under tests/artifacts/ for people to look at.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from game_hubs import skirmish_hub
from helpers import screenshot, wait_for
from playwright.sync_api import Browser, Page, Response
from web_helpers import HIDES, SCREENS, acting_player, hidden_from, played_hub
from werkzeug.serving import make_server

from companion.engine import CHANCE, PUBLIC, REFEREE, Action
from companion.games import all_games, game
from companion.record import read_record, replay
from companion.record.session import Session, import_record
from companion.web import create_app
from companion.web.hub import Hub

ARTIFACTS = Path(__file__).with_name("artifacts")
SEKIGAHARA_SAMPLE = game("sekigahara").sample()
VIEWPORTS = {"tablet": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def _sekigahara_counts(view: dict[str, Any]) -> dict[tuple[str, str], int]:
    return {(where, side): stack["count"] for where, stacks in view["locations"].items()
            for side, stack in stacks.items() if side != "disks"}


def _rumble_nation_counts(view: dict[str, Any]) -> dict[tuple[str, str], int]:
    """Soldiers per region and colour; a region where only the daimyo or reinforcements stand
    shows that colour with no soldiers."""
    counts = {(where, player): n for where, players in view["soldiers"].items()
              for player, n in players.items()}
    for player, where in view["daimyo_at"].items():
        counts.setdefault((where, player), 0)
    for where, players in view["reinforcements"].items():
        for player in players:
            counts.setdefault((where, player), 0)
    return counts


def _barletta_counts(view: dict[str, Any]) -> dict[tuple[str, str], int]:
    """One knight a hex on the field; each side's knights in camp counted together."""
    counts: dict[tuple[str, str], int] = {}
    for knight in view["knights"].values():
        if knight["where"] and not knight["out"]:
            key = (knight["where"], knight["side"])
            counts[key] = counts.get(key, 0) + 1
    return counts


COUNTS: dict[str, Callable[[dict[str, Any]], dict[tuple[str, str], int]]] = {
    "sekigahara": _sekigahara_counts, "rumble_nation": _rumble_nation_counts,
    "shogun": lambda v: {(p, v["owner"][p]): n for p, n in v["armies"].items() if n},
    "barletta": _barletta_counts}
"""Per game, the pieces a view puts on the board: (where, whose) -> how many. A screen draws each
as an element with `data-where`, `data-side` and `data-count` (docs/web.md)."""


class Served:
    """A hub served on a loopback port by a threaded WSGI server."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.referee = hub.tokens.issue(REFEREE)
        self.server = make_server("127.0.0.1", 0, create_app(hub=hub), threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def post(self, path: str, body: dict, token: str | None = None) -> dict:
        request = urllib.request.Request(
            self.url + path, data=json.dumps(body).encode(), method="POST",
            headers={"Content-Type": "application/json",
                     "Authorization": f"Bearer {token or self.referee}"})
        with urllib.request.urlopen(request, timeout=5) as response:
            return json.loads(response.read())

    def close(self) -> None:
        self.server.shutdown()


class Pages:
    """The pages a test opens, with every console error and every response they received."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.errors: list[str] = []
        self.responses: dict[Page, list[Response]] = {}
        self.pages: list[Page] = []

    def open(self, url: str, viewport: str = "tablet") -> Page:
        page = self.browser.new_page(viewport=VIEWPORTS[viewport])
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        received: list[Response] = []
        self.responses[page] = received
        page.on("response", lambda r: received.append(r))
        page.goto(url)
        page.wait_for_selector("#version[data-version]:not([data-version='-1'])",
                               state="attached")
        self.pages.append(page)
        return page

    def bodies(self, page: Page) -> list[tuple[str, str]]:
        """(url, text) of every finished response `page` received; the endless event stream
        is left out (the DOM shows what it brought, and tests/test_web.py reads it)."""
        return [(r.url, r.text()) for r in self.responses[page] if "/stream" not in r.url]

    def close(self) -> None:
        for page in self.pages:
            page.close()


@pytest.fixture
def pages(browser) -> Iterator[Pages]:
    opened = Pages(browser)
    yield opened
    opened.close()


def shot(page: Page, name: str) -> None:
    screenshot(page, ARTIFACTS / f"{name}.png")


def leaked(secret: set[str], text: str) -> list[str]:
    """Secret ids found in `text`, also as a screen would word them (`oda_nobunaga` as
    "Oda Nobunaga")."""
    low = text.lower()
    return sorted(s for s in secret if s.lower() in low or s.lower().replace("_", " ") in low)


def drawn_counts(page: Page) -> dict[tuple[str, str], int]:
    found = page.eval_on_selector_all(
        "#screen [data-where][data-side][data-count]",
        "nodes => nodes.map(n => [n.dataset.where, n.dataset.side, Number(n.dataset.count)])")
    return {(where, side): count for where, side, count in found}


def expected_counts(name: str, view: dict[str, Any]) -> dict[tuple[str, str], int]:
    if name not in COUNTS:
        raise AssertionError(f"say in tests/test_browser.py which pieces {name}'s view puts "
                             "on the board (COUNTS)")
    return COUNTS[name](view)


def status_says(state: dict[str, Any], status: str) -> bool:
    """The header's status line says, in words, who is to act, or that the game is over and
    who won (the phase is the game's screen's to draw)."""
    view = state["view"]
    if view.get("outcome"):
        winner = view["outcome"]["winner"]
        return "Game over" in status and (winner.capitalize() if winner else "draw") in status
    players = [r for r in state["to_move"] if r != "chance"]
    if not players:
        return "draw" in status or "die" in status or status == ""
    return all(r.replace("_", " ").capitalize() in status for r in players)


def role_label(role: str) -> str:
    """How the header names a screen's role: the side as players write it."""
    return {PUBLIC: "Table", REFEREE: "Referee"}.get(role, role.replace("_", " ").capitalize())


def choice_buttons(page: Any) -> Any:
    return page.locator("#options button.choice")


def page_url(served: Served, page: str, token: str | None = None) -> str:
    return f"{served.url}/{page}" + (f"#token={token}" if token else "")


@pytest.fixture
def table_of(tmp_path) -> Iterator[Callable[[str], Served]]:
    served: list[Served] = []

    def serve(name: str) -> Served:
        table = Served(played_hub(tmp_path / name, name))
        served.append(table)
        return table

    yield serve
    for table in served:
        table.close()


def test_every_game_but_the_reference_game_has_its_screen():
    """The browser tests run for every game with a screen: a screen gone must fail here, not
    leave its game's tests unrun. Skirmish, the reference game, has the shell's panels only."""
    assert set(SCREENS) == set(all_games()) - {"skirmish"}


@pytest.mark.slow  # every page of every role at both sizes: 15-40 s a game
@pytest.mark.parametrize("name", SCREENS)
def test_every_screen_draws_its_view_without_errors_or_leaks(pages, table_of, name):
    """Table, each player's phone and the referee, on a tablet and on a phone: the board shows
    every piece of the role's view, nothing hidden reaches the page or any response it
    received, no page scrolls sideways, and the console stays clean."""
    table = table_of(name)
    hub = table.hub
    tokens = {role: hub.tokens.issue(role) for role in hub.roles}
    screens = {"table": (PUBLIC, page_url(table, "")),
               **{f"play-{role}": (role, page_url(table, "play", tokens[role]))
                  for role in hub.roles},
               "referee": (REFEREE, page_url(table, "referee", table.referee))}
    for viewport in VIEWPORTS:
        for label, (role, url) in screens.items():
            page = pages.open(url, viewport)
            view = hub.view(role)
            assert page.locator("#role").inner_text().startswith(role_label(role))
            assert page.locator("#no-screen").is_hidden()
            assert drawn_counts(page) == expected_counts(name, view["view"]), label
            assert status_says(view, page.locator("#status").inner_text()), label
            if role != REFEREE:
                secret = hidden_from(hub, role)
                assert secret or name not in HIDES, f"{label}: the position should hide something"
                assert not leaked(secret, page.content()), label
                for url, body in pages.bodies(page):
                    assert not leaked(secret, body), f"{label}: {url}"
            if role == acting_player(hub):
                assert choice_buttons(page).count() == min(40, len(view["choices"]))
            if role != REFEREE:  # no raw action text on a player's or the table's screen
                for selector in ("#options button", "#questions button", "#alert", "#log"):
                    for text in page.locator(selector).all_inner_texts():
                        assert "{" not in text, f"{label}: {selector} shows {text!r}"
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= VIEWPORTS[viewport]["width"], f"{label} scrolls sideways ({width})"
            shot(page, f"{name}-{viewport}-{label}")
    referee = pages.pages[-1]
    assert referee.locator("#referee-tools").is_visible()
    pair = referee.eval_on_selector_all("button[data-pair]", "bs => bs.map(b => b.dataset.pair)")
    assert pair == list(hub.roles)
    assert pages.errors == []


@pytest.mark.parametrize("name", SCREENS)
@pytest.mark.timed
def test_an_action_reaches_every_open_page_within_a_second(pages, table_of, name):
    table = table_of(name)
    hub = table.hub
    tokens = {role: hub.tokens.issue(role) for role in hub.roles}
    opened = [pages.open(page_url(table, "")),
              pages.open(page_url(table, "referee", table.referee))]
    opened += [pages.open(page_url(table, "play", tokens[role])) for role in hub.roles]
    player = acting_player(hub)
    action = hub.session.game.legal_actions(player)[0]
    version = hub.version
    start = time.perf_counter()
    table.post("/api/action", {"text": action.text()}, tokens[player])
    for page in opened:
        page.wait_for_selector(f"#version[data-version='{version + 1}']", state="attached",
                               timeout=1000)
    assert time.perf_counter() - start < 1.0
    assert drawn_counts(opened[0]) == expected_counts(name, hub.view(PUBLIC)["view"])
    assert pages.errors == []


@pytest.mark.slow  # every page of every role at both sizes: 15-40 s a game
@pytest.mark.parametrize("name", SCREENS)
def test_every_player_pairs_a_phone_from_the_referee_screen(pages, table_of, name):
    """The referee offers each role a pairing in turn: the QR code is on the referee's screen
    only (never on the shared table display), one at a time (no phone scans another player's);
    the phone that scans it, or types its six digits, shows a code, the referee confirms it,
    and the phone becomes that player's screen (issues 16 and 18)."""
    table = table_of(name)
    hub = table.hub
    shown = pages.open(page_url(table, ""))
    referee = pages.open(page_url(table, "referee", table.referee))
    phone = None
    for index, role in enumerate(hub.roles):
        referee.click(f"button[data-pair='{role}']")
        referee.wait_for_selector(f"#pairing figure[data-role='{role}'] svg", timeout=10000)
        assert referee.locator("#pairing figure svg").count() == 1  # one QR code at a time
        view_box, width, height = referee.eval_on_selector("#pairing figure svg", """c => [
            c.getAttribute("viewBox"), c.getBoundingClientRect().width,
            c.getBoundingClientRect().height]""")
        assert view_box and width >= 100 and abs(width - height) < 1  # whole and large enough
        assert shown.locator("#pairing").is_hidden()  # the shared screen shows no secret
        if index == 0:
            shot(referee, f"{name}-tablet-referee-pairing")
        phone = pages.browser.new_page(viewport=VIEWPORTS["phone"])
        phone.on("pageerror", lambda e: pages.errors.append(str(e)))
        if index % 2 == 0:  # scanned: the QR code's link
            phone.goto(hub.pairing[role]["url"].replace("http://localhost", table.url))
        else:  # typed: the six digits under the QR code, on /play
            digits = referee.locator(f"[data-digits='{role}']").inner_text()
            phone.goto(f"{table.url}/play")
            phone.fill("#pair-digits", digits)
            phone.press("#pair-digits", "Enter")
        code = phone.wait_for_selector("#pair-code", timeout=10000).inner_text()
        referee.wait_for_selector(f"button[data-confirm='{role}']", timeout=10000)
        assert code in referee.locator(f"#pairing figure[data-role='{role}']").inner_text()
        if index == 0:
            shot(phone, f"{name}-phone-pairing-code")
        referee.click(f"button[data-confirm='{role}']")
        phone.wait_for_function(
            f"document.querySelector('#role')?.textContent.startsWith('{role_label(role)}')",
            timeout=5000)
        referee.wait_for_selector(f"#pairing figure[data-role='{role}']", state="detached",
                                  timeout=10000)
        if role == acting_player(hub):
            phone.wait_for_selector("#options button.choice", timeout=10000)
    referee.wait_for_selector("#pairing", state="hidden", timeout=10000)
    assert phone is not None
    hub.card_owner = {"CARD:test-42": hub.roles[-1]}.get  # the table's referee: whose card
    phone.fill("#scan-code", "CARD:test-42")  # the scanners' fallback on a phone
    phone.press("#scan-code", "Enter")
    referee.wait_for_selector("#inputs li", timeout=10000)
    assert "CARD:test-42" in referee.locator("#inputs").inner_text()
    assert pages.errors == []


def _record_to_replay(tmp_path: Path, name: str) -> tuple[Hub, int]:
    """A finished game of `name`: its first shipped sample, or one played to the end."""
    spec = game(name)
    if spec.samples:
        hub = played_hub(tmp_path, name, actions=0, settle=False)
        return hub, import_record(hub.session.store, read_record(spec.sample()))
    hub = played_hub(tmp_path, name, actions=10_000)
    assert hub.session.game.outcome is not None
    return hub, hub.session.game_id


@pytest.mark.parametrize("name", SCREENS)
def test_the_replay_scrubber_reproduces_the_recorded_states(pages, tmp_path, name):
    hub, game_id = _record_to_replay(tmp_path, name)
    record = hub.session.store.load(game_id)
    table = Served(hub)
    try:
        for viewport in VIEWPORTS:
            page = pages.open(f"{table.url}/replay/{game_id}", viewport)
            for at in (1, len(record.entries) // 3, len(record.entries) // 2,
                       len(record.entries)):
                page.eval_on_selector("#scrubber", "(s, at) => { s.value = at; "
                                      "s.dispatchEvent(new Event('input')); }", at)
                page.wait_for_selector(f"#version[data-version='{at}']", state="attached",
                                       timeout=10000)
                past = replay(record, upto_line=at + 1).game
                expected = past.view(REFEREE)  # game over
                assert drawn_counts(page) == expected_counts(name, expected), at
                assert status_says({"view": expected, "to_move": list(past.to_move())},
                                   page.locator("#status").inner_text()), at
            page.click("#turn-back")
            page.wait_for_function("Number(document.querySelector('#scrubber').value) < "
                                   f"{len(record.entries)}")
            page.eval_on_selector("#scrubber", "s => { s.value = Math.floor(s.max / 2); "
                                  "s.dispatchEvent(new Event('input')); }")
            page.wait_for_selector(f"#version[data-version='{len(record.entries) // 2}']",
                                   state="attached", timeout=10000)
            shot(page, f"{name}-{viewport}-replay")
            page.click("#turn-next")
            page.click("#step-next")  # at the end, the turn marks run out: the last position
            page.eval_on_selector("#scrubber", "s => { s.value = s.max; "
                                  "s.dispatchEvent(new Event('input')); }")
            page.wait_for_selector(f"#version[data-version='{len(record.entries)}']",
                                   state="attached", timeout=10000)
            shot(page, f"{name}-{viewport}-replay-end")
    finally:
        table.close()
    assert pages.errors == []


@pytest.mark.parametrize("name", SCREENS)
def test_the_acting_side_answers_a_question_with_a_tap(pages, table_of, name):
    table = table_of(name)
    hub = table.hub
    player = acting_player(hub)
    phone = pages.open(page_url(table, "play", hub.tokens.issue(player)), "phone")
    shown = pages.open(page_url(table, ""))
    options = tuple(hub.session.game.legal_actions(player)[:2])
    assert len(options) == 2
    hub.ask("What did you do?", options)
    phone.wait_for_selector("#questions button[data-choice='1']", timeout=10000)
    shown.wait_for_selector("#questions", timeout=10000)
    assert shown.locator("#questions button").count() == 0  # the table sees only the text
    shot(phone, f"{name}-phone-question")
    phone.click("#questions button[data-choice='1']")
    wait_for(lambda: hub.session.entries[-1].action == options[1] and hub.question is None,
             10, "the tapped answer recorded")
    shown.wait_for_function("(v) => Number(document.getElementById('version').dataset.version)"
                            " >= v", arg=hub.version, timeout=10000)
    assert drawn_counts(shown) == expected_counts(name, hub.view(PUBLIC)["view"])
    assert pages.errors == []


def test_a_game_without_a_screen_says_so_and_keeps_the_shared_panels(pages, tmp_path):
    assert not game("skirmish").has("screen")
    table = Served(skirmish_hub(tmp_path))
    try:
        shown = pages.open(table.url + "/")
        note = shown.locator("#no-screen")
        assert note.is_visible() and "Skirmish has no tablet screen yet" in note.inner_text()
        phone = pages.open(page_url(table, "play", table.hub.tokens.issue("red")), "phone")
        assert "Skirmish has no tablet screen yet" in phone.locator("#no-screen").inner_text()
        phone.click("#options button.choice")
        phone.click("#confirm-yes")  # a tapped action is confirmed before it is sent
        shown.wait_for_selector("#version[data-version='1']", state="attached", timeout=10000)
        assert table.hub.session.entries[-1].action.role == "red"
        referee = pages.open(page_url(table, "referee", table.referee))
        pair = referee.eval_on_selector_all("button[data-pair]",
                                            "bs => bs.map(b => b.dataset.pair)")
        assert pair == list(table.hub.roles)
        shot(shown, "skirmish-tablet-table")
    finally:
        table.close()
    assert pages.errors == []


def test_sekigahara_the_impact_track_follows_a_scripted_battle(pages, tmp_path):
    """The battles of a recorded game, played again action by action through the API."""
    record = read_record(SEKIGAHARA_SAMPLE)
    first = next(i for i, e in enumerate(record.entries) if e.action.verb == "declare")
    end = next(i for i, e in enumerate(record.entries) if i > first
               and any(ev.type == "BattleEnded" for ev in e.events))
    hub = played_hub(tmp_path, "sekigahara", actions=0, settle=False)
    game_id = import_record(hub.session.store, replace(record, entries=record.entries[:first]))
    table = Served(Hub(Session.resume(hub.session.store, game_id)))
    try:
        page = pages.open(table.url + "/")
        for entry in record.entries[first:end]:
            table.post("/api/action", entry.action.to_json())
            battle = table.hub.view(PUBLIC)["view"]["battle"]
            if battle and "impact" in battle:
                for side in table.hub.roles:
                    page.wait_for_selector(
                        f"#impact-{side}[data-impact='{battle['impact'][side]}']",
                        state="attached", timeout=1000)
        shot(page, "sekigahara-tablet-table-battle")
    finally:
        table.close()
    assert pages.errors == []


def test_rumble_nation_the_dice_and_the_soldiers_follow_a_turn(pages, table_of):
    """A roll, the dice, a deployment: the turn box shows the dice rolled and whose turn it is,
    and the region the pair named gains the soldiers."""
    table = table_of("rumble_nation")
    hub = table.hub
    if hub.view(PUBLIC)["view"]["dice"]:  # a turn half done: finish it
        hub.act(REFEREE, next(a for a in hub.session.game.legal_actions()
                              if a.verb == "deploy"), "tablet")
    player = acting_player(hub)
    token = hub.tokens.issue(player)
    shown = pages.open(page_url(table, ""))
    turn = shown.locator("#rn-turn")
    assert turn.get_attribute("data-active") == player
    table.post("/api/action", {"text": f"{player} roll {{}}"}, token)
    assert hub.session.game.to_move() == (CHANCE,)
    table.post("/api/action", Action(CHANCE, "dice", {"values": [2, 3, 5]}).to_json())
    shown.wait_for_selector("#rn-turn[data-dice='2,3,5']", state="attached", timeout=5000)
    assert shown.locator("#rn-turn .die").count() == 3
    where = next(r for r, v in hub.view(PUBLIC)["view"]["castles"].items() if v == 5)
    before = hub.view(PUBLIC)["view"]["soldiers"].get(where, {}).get(player, 0)
    table.post("/api/action", {"role": player, "verb": "deploy",
                               "args": {"pair": [0, 1], "daimyo": False}}, token)
    chip = f"#region-{where} [data-side='{player}']"
    shown.wait_for_selector(f"{chip}[data-count='{before + 3}']", state="attached",
                            timeout=5000)
    assert shown.locator("#rn-turn").get_attribute("data-active") != player
    assert pages.errors == []
