"""The table across the room (issue 32), in a real browser (Debian's chromium, Playwright):
an alert is a band in type read from 1.5 m on the 1280x800 table page (its title at least 32 px,
its text at least 22 px, the log at least 18 px), with what was wrong and what to do, in the
screen's language; a paused game says so in a big banner on the table and every phone, the
phones list no actions, and a tap that races the pause is answered with a sentence, never an
HTTP status as a rule; the log numbers each line by its action's own number."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import screenshot
from playwright.sync_api import Page
from test_browser import VIEWPORTS, Served
from web_helpers import acting_player, played_hub

from companion.engine import PUBLIC, Action, IllegalAction
from companion.i18n import translator
from companion.web.hub import PAUSED

GAMES = ["sekigahara", "rumble_nation", "shogun", "barletta"]
SHOTS = Path(__file__).with_name("artifacts")
LOCALES = {"en": "en-GB", "it": "it-IT"}


@pytest.fixture
def open_page(browser) -> Iterator:
    opened: list[Page] = []
    errors: list[str] = []

    def open_(url: str, viewport: str = "tablet", lang: str = "en") -> Page:
        context = browser.new_context(viewport=VIEWPORTS[viewport], locale=LOCALES[lang],
                                      has_touch=viewport == "phone")
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        page.wait_for_selector("#version[data-version]:not([data-version='-1'])",
                               state="attached")
        opened.append(page)
        return page

    yield open_
    for page in opened:
        page.context.close()
    assert errors == []


def px(page: Page, selector: str) -> float:
    """The computed font size of the first element `selector` finds, in CSS pixels; waited
    for, since a view arriving on the stream may redraw the element while it is measured (a
    detached element has no computed size)."""
    size = page.wait_for_function(
        """s => { const n = document.querySelector(s);
                  const v = n && n.isConnected ? parseFloat(getComputedStyle(n).fontSize) : NaN;
                  return isNaN(v) ? null : v; }""", arg=selector, timeout=10000)
    return float(size.json_value())


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_an_alert_stops_the_table_in_type_read_across_the_room(tmp_path, open_page, name):
    served = Served(played_hub(tmp_path, name))
    try:
        hub = served.hub
        actor = acting_player(hub)
        with pytest.raises(IllegalAction):
            hub.act(actor, Action(actor, "no_such_verb", {}), "phone")
        for lang in ("en", "it"):
            page = open_page(served.url + "/", "tablet", lang)
            page.wait_for_selector("#alert h2", state="visible")
            assert px(page, "#alert h2") >= 32
            assert px(page, "#alert .message") >= 22 and px(page, "#alert .fix") >= 22
            box = page.eval_on_selector("#alert", "n => n.getBoundingClientRect().toJSON()")
            assert box["width"] >= 1200 and box["top"] < 260  # across the page, at its top
            shown = page.inner_text("#alert")
            alert = hub.view(PUBLIC, lang)["alert"]
            assert alert["message"] in shown and alert["fix"] in shown
            assert "chance" not in shown.lower() and "403" not in shown
            if lang == "it":
                assert translator("it", "companion.web")("What to do:") in shown
            assert px(page, "#log li") >= 18 and px(page, "#log .log-meta") >= 18
            screenshot(page, SHOTS / f"room-alert-{name}-{lang}.png", full_page=False)
    finally:
        served.close()


@pytest.mark.slow
def test_a_paused_game_says_so_everywhere_and_a_racing_tap_gets_a_sentence(tmp_path, open_page):
    served = Served(played_hub(tmp_path, "rumble_nation"))
    try:
        hub = served.hub
        actor = acting_player(hub)
        token = hub.tokens.issue(actor)
        phone = open_page(f"{served.url}/play#token={token}", "phone", "it")
        table = open_page(served.url + "/", "tablet", "it")
        phone.wait_for_selector("#options button.choice", state="visible")
        phone.locator("#options button.choice").first.click()
        phone.wait_for_selector("#confirm[open]")
        played = len(hub.session.entries)
        hub.pause(True)  # the referee pauses while the player is confirming
        it = translator("it", "companion.web")
        for page in (phone, table):
            page.wait_for_selector("#banner.paused", state="visible")
            assert it("PAUSED · the referee has paused the game") in page.inner_text("#banner")
        assert px(table, "#banner") >= 32
        assert phone.locator("#options").is_hidden()  # nothing to tap while paused
        phone.click("#confirm-yes")
        phone.wait_for_selector("#alert .message", state="visible")
        said = phone.inner_text("#alert")
        assert it(PAUSED) in said and it("Wait until the referee resumes the game") in said
        assert "403" not in said and it("rule {rule}").split(" ")[0] not in said.lower()
        assert len(hub.session.entries) == played  # nothing was played
        hub.pause(False)
        phone.wait_for_selector("#options button.choice", state="visible")
        table.wait_for_selector("#banner.paused", state="hidden")
    finally:
        served.close()


@pytest.mark.slow
def test_the_log_numbers_each_line_by_its_actions_own_number(tmp_path, open_page):
    served = Served(played_hub(tmp_path, "shogun", actions=90))
    try:
        hub = served.hub
        assert len(hub.session.entries) > 60  # more than the log's 60 lines
        page = open_page(served.url + "/", "tablet")
        page.wait_for_selector("#log li", state="attached")
        numbers = page.eval_on_selector_all(
            "#log li", "items => items.map(li => [li.value, Number(li.dataset.seq)])")
        assert numbers and all(value == seq for value, seq in numbers)
        assert numbers[0][1] == hub.session.entries[-1].seq
    finally:
        served.close()


@pytest.mark.slow
def test_the_stored_games_and_a_replay_follow_the_language_chosen_on_their_menu(tmp_path,
                                                                               browser):
    served = Served(played_hub(tmp_path, "rumble_nation"))
    context = browser.new_context(viewport=VIEWPORTS["tablet"], locale="en-GB")
    try:
        it = translator("it", "companion.web")
        page = context.new_page()
        page.goto(served.url + "/replays")
        assert page.inner_text("header h1").endswith("Stored games")
        page.select_option("#lang", "it")
        page.wait_for_url("**/replays?lang=it")
        assert page.inner_text("header h1").endswith(it("Stored games"))
        game_id = served.hub.session.game_id
        page.goto(f"{served.url}/replay/{game_id}")  # no ?lang: the device's choice holds
        page.wait_for_url(f"**/replay/{game_id}?lang=it")
        page.wait_for_selector("#game-title", state="attached")
        title = it("Replay of game %(n)s") % {"n": game_id}
        assert title != f"Replay of game {game_id}" and title in page.inner_text("header h1")
        assert page.eval_on_selector("#lang", "s => s.value") == "it"
    finally:
        context.close()
        served.close()
