"""The screens in a real browser: Debian's chromium driven by Playwright (8: Tests).

Each test serves a live table on loopback and opens the pages; screenshots are saved under
tests/artifacts/ for people to look at.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright
from web_helpers import hidden_from, sekigahara_hub, skirmish_hub
from werkzeug.serving import make_server

from companion.engine import REFEREE
from companion.record import read_record, replay
from companion.record.format import Record
from companion.record.session import Session, import_record
from companion.web import create_app
from companion.web.hub import Hub

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).with_name("artifacts")
SAMPLE = Path(__file__).parents[1] / "companion/games/sekigahara/samples/sekigahara-demo.jsonl"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"])
        yield browser
        browser.close()


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


@pytest.fixture
def served(tmp_path) -> Iterator[Served]:
    table = Served(skirmish_hub(tmp_path))
    yield table
    table.close()


def open_page(browser: Browser, url: str, errors: list[str]) -> Page:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("#version[data-version]:not([data-version='-1'])", state="attached")
    return page


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_every_screen_loads_without_console_errors(browser, tmp_path):
    table = Served(sekigahara_hub(tmp_path, actions=60))
    player = table.hub.tokens.issue("ishida")
    errors: list[str] = []
    try:
        pages = {
            "table": open_page(browser, table.url + "/", errors),
            "phone-ishida": open_page(browser, f"{table.url}/play#token={player}", errors),
            "referee": open_page(browser, f"{table.url}/referee#token={table.referee}", errors),
        }
        assert pages["table"].locator("#board g[data-location]").count() == 51
        assert pages["phone-ishida"].locator("#role").inner_text() == "ishida"
        mine = pages["phone-ishida"].locator("#mine").inner_text()
        assert "I-ishida-leader-1" in mine  # its own blocks, by name
        for role, page in (("ishida", pages["phone-ishida"]), ("public", pages["table"])):
            html = page.content()
            assert not [b for b in hidden_from(table.hub, role) if b in html]
        assert pages["referee"].locator("#referee-tools").is_visible()
        for name, page in pages.items():
            shot(page, name)
    finally:
        table.close()
    assert errors == []


def test_an_action_reaches_every_open_page_within_a_second(browser, served):
    errors: list[str] = []
    red, blue = served.hub.tokens.issue("red"), served.hub.tokens.issue("blue")
    pages = [open_page(browser, served.url + "/", errors),
             open_page(browser, f"{served.url}/play#token={red}", errors),
             open_page(browser, f"{served.url}/play#token={blue}", errors),
             open_page(browser, f"{served.url}/referee#token={served.referee}", errors)]
    start = time.perf_counter()
    served.post("/api/action", {"text": 'red move {"block":"red_a","to":"mill"}'}, red)
    for page in pages:
        page.wait_for_selector("#version[data-version='1']", state="attached", timeout=1000)
    assert time.perf_counter() - start < 1.0
    mill = pages[0].locator("#loc-mill .stack[data-side='red']")
    assert mill.get_attribute("data-count") == "1"
    assert errors == []


def test_a_phone_pairs_by_the_qr_code_on_the_table(browser, served):
    errors: list[str] = []
    table = open_page(browser, served.url + "/", errors)
    referee = open_page(browser, f"{served.url}/referee#token={served.referee}", errors)
    referee.click("button[data-pair='red']")
    table.wait_for_selector("#pairing figure[data-role='red'] svg", timeout=2000)
    shot(table, "table-pairing")
    url = served.hub.pairing["red"]
    phone = open_page(browser, url.replace("http://localhost", served.url), errors)
    assert phone.locator("#role").inner_text() == "red"
    assert phone.locator("#options button[data-action]").count() > 0  # its legal actions
    table.wait_for_selector("#pairing", state="hidden", timeout=2000)
    phone.fill("#scan-code", "CARD:T-maeda-special-2")  # the scanners' fallback on the phone
    phone.press("#scan-code", "Enter")
    referee.wait_for_selector("#inputs li", timeout=2000)
    assert "CARD:T-maeda-special-2" in referee.locator("#inputs").inner_text()
    assert errors == []


def test_the_impact_track_follows_a_scripted_battle(browser, tmp_path):
    """The battles of a recorded game, played again action by action through the API."""
    record = read_record(SAMPLE)
    first = next(i for i, e in enumerate(record.entries) if e.action.verb == "declare")
    end = next(i for i, e in enumerate(record.entries) if i > first
               and any(ev.type == "BattleEnded" for ev in e.events))
    hub = sekigahara_hub(tmp_path, actions=0)
    game_id = import_record(hub.session.store, replace(record, entries=record.entries[:first]))
    table = Served(Hub(Session.resume(hub.session.store, game_id)))
    errors: list[str] = []
    try:
        page = open_page(browser, table.url + "/", errors)
        for entry in record.entries[first:end]:
            table.post("/api/action", entry.action.to_json())
            battle = table.hub.view("public")["view"]["battle"]
            if battle and "impact" in battle:
                for side in ("ishida", "tokugawa"):
                    page.wait_for_selector(
                        f"#impact-{side}[data-impact='{battle['impact'][side]}']",
                        state="attached", timeout=1000)
        shot(page, "table-battle")
    finally:
        table.close()
    assert errors == []


def test_the_replay_scrubber_reproduces_the_recorded_states(browser, tmp_path):
    hub = sekigahara_hub(tmp_path, actions=0)
    record = read_record(SAMPLE)
    game_id = import_record(hub.session.store, record)
    table = Served(hub)
    errors: list[str] = []
    try:
        page = open_page(browser, f"{table.url}/replay/{game_id}", errors)
        for at in (1, 57, 200, len(record.entries)):
            page.eval_on_selector("#scrubber", "(s, at) => { s.value = at; "
                                  "s.dispatchEvent(new Event('input')); }", at)
            page.wait_for_selector(f"#version[data-version='{at}']", state="attached",
                                   timeout=2000)
            expected = replay(Record(record.path, record.header, record.entries),
                              upto_line=at + 1).game.view(REFEREE)
            facts = page.locator("#facts").inner_text()
            assert f"week {expected['week']}, turn {expected['turn']}" in facts
            assert expected["phase"] in facts
        page.click("#turn-back")
        page.wait_for_function("Number(document.querySelector('#scrubber').value) < "
                               f"{len(record.entries)}")
        shot(page, "replay")
    finally:
        table.close()
    assert errors == []


def test_the_acting_side_answers_a_question_with_a_tap(browser, served):
    errors: list[str] = []
    red = served.hub.tokens.issue("red")
    phone = open_page(browser, f"{served.url}/play#token={red}", errors)
    table = open_page(browser, served.url + "/", errors)
    from companion.engine import Action

    served.hub.ask("From the camp: which way?", (
        Action("red", "move", {"block": "red_a", "to": "mill"}),
        Action("red", "move", {"block": "red_a", "to": "ford"})))
    phone.wait_for_selector("#questions button[data-choice='1']", timeout=2000)
    table.wait_for_selector("#questions", timeout=2000)
    assert table.locator("#questions button").count() == 0  # the table sees only the text
    shot(phone, "phone-question")
    phone.click("#questions button[data-choice='1']")
    table.wait_for_selector("#loc-ford .stack[data-side='red']", state="attached", timeout=2000)
    assert served.hub.session.game.state.positions["red_a"] == "ford"
    assert errors == []
