"""The broadcast dashboard in a real browser (Debian's chromium, driven by Playwright).

Three real tables (a store, a recorded session, a hub each: Sekigahara under way, Rumble Nation
under way, Rumble Nation finished) broadcast with the publisher `companion serve --broadcast`
starts, to a real mosquitto with passwords and ACLs on; the dashboard is the real subscriber,
store and Flask app `companion broadcast` serves. The page of every table must show each table
with its board drawn as a thumbnail, whose turn it is and the result; one table opened live
must follow the table as it plays on; and nothing the games hid may reach the DOM or any
response the pages received. Screenshots at a tablet's 1280x800 and a phone's 390x844 go to
tests/artifacts/broadcast-*.png for people to look at.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from helpers import screenshot, wait_for
from playwright.sync_api import Browser, Frame, Page, Response
from test_browser import VIEWPORTS, drawn_counts, expected_counts, leaked
from web_helpers import hidden_from, played_hub
from werkzeug.serving import make_server

from companion.broadcast import start_publisher
from companion.broadcast.dashboard import create_dashboard
from companion.broadcast.mosquitto import DASHBOARD, Broker
from companion.broadcast.publisher import Publisher
from companion.broadcast.store import BroadcastStore
from companion.broadcast.subscriber import Subscriber
from companion.broadcast.url import parse_url
from companion.engine import CHANCE, PUBLIC, REFEREE, chance_rng, pick_action
from companion.record.replay import Replayer
from companion.web.hub import Hub

pytestmark = pytest.mark.slow

EVENT = "club-night"
ARTIFACTS = Path(__file__).with_name("artifacts")
PASSWORDS = {"t1": "pw-t1", "t2": "pw-t2", "t3": "pw-t3", DASHBOARD: "pw-dash"}
GAMES = {"t1": ("sekigahara", None), "t2": ("rumble_nation", None),
         "t3": ("rumble_nation", 10_000)}
"""Each table's game and how far it is played (None: the tests' usual way in; a big number: to
its end, so that the dashboard has a result to show)."""


def _url(port: int, user: str) -> str:
    return f"mqtt://{user}:{PASSWORDS[user]}@127.0.0.1:{port}/{EVENT}"


class Event:
    """A broker, three broadcasting tables and the dashboard served on loopback."""

    def __init__(self, folder: Path) -> None:
        self.broker = Broker.for_event(folder / "broker", EVENT, PASSWORDS).start()
        self.hubs: dict[str, Hub] = {}
        self.publishers: dict[str, Publisher] = {}
        for table, (name, actions) in GAMES.items():
            (folder / table).mkdir()
            self.hubs[table] = played_hub(folder / table, name, actions=actions)
            self.publishers[table] = start_publisher(self.hubs[table],
                                                     _url(self.broker.port, table))
        self.store = BroadcastStore(folder / "dashboard.sqlite")
        self.subscriber = Subscriber(parse_url(_url(self.broker.port, DASHBOARD)), self.store,
                                     ask_every=0.3).start()
        self.subscriber.wait_connected(10)
        self.server = make_server("127.0.0.1", 0, create_dashboard(self.store, EVENT, {}),
                                  threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        for table in GAMES:
            self.wait_arrived(table)

    def wait_arrived(self, table: str) -> None:
        """Until the dashboard's store holds the table's whole record."""
        hub = self.hubs[table]
        count = len(hub.session.entries)
        wait_for(lambda: self.store.seqs(table, hub.session.game_id) == list(range(1, count + 1)),
                 30, f"{table}'s {count} actions to reach the dashboard")

    def play_on(self, table: str, actions: int) -> None:
        """The table's players act again (until a player, not chance, is to act)."""
        hub = self.hubs[table]
        step = 0
        while step < actions or CHANCE in hub.session.game.to_move():
            game = hub.session.game
            rng = chance_rng(11, len(hub.session.entries))
            roles = game.to_move()
            hub.act(REFEREE, game.rules.sample_chance(game.state, rng) if CHANCE in roles
                    else pick_action(game, roles, rng), "simulator")
            step += 1

    def close(self) -> None:
        self.server.shutdown()
        for publisher in self.publishers.values():
            publisher.stop()
        self.subscriber.stop()
        self.store.close()
        self.broker.stop()


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Event]:
    running = Event(tmp_path_factory.mktemp("broadcast"))
    yield running
    running.close()


class Pages:
    """Pages opened on the dashboard, with every console error and every response received."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.errors: list[str] = []
        self.responses: list[Response] = []
        self.pages: list[Page] = []

    def open(self, url: str, viewport: str) -> Page:
        page = self.browser.new_page(viewport=VIEWPORTS[viewport])
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("response", lambda r: self.responses.append(r))
        page.goto(url)
        self.pages.append(page)
        return page

    def bodies(self) -> list[tuple[str, str]]:
        """(url, text) of every response the pages received (their frames' too), but images."""
        found = []
        for response in self.responses:
            kind = response.headers.get("content-type", "")
            if kind.startswith("image/") or response.status in (204, 304):
                continue
            try:
                found.append((response.url, response.text()))
            except Exception:  # a response the page dropped (it left while it loaded)
                continue
        return found

    def close(self) -> None:
        for page in self.pages:
            page.close()


@pytest.fixture
def pages(browser: Browser) -> Iterator[Pages]:
    opened = Pages(browser)
    yield opened
    opened.close()


def shot(page: Page, name: str) -> None:
    screenshot(page, ARTIFACTS / f"broadcast-{name}.png")


def never_public(hub: Hub) -> set[str]:
    """What the table hides now and has hidden at every moment since it first hid it (a card
    dealt face down and never shown since): derived from the game's hidden state after every
    record line (tests/web_helpers.py), not from the views. A name shown for a while (a block
    revealed in a battle) may stay in the words of the actions listed; a name in here may
    appear nowhere."""
    replayer = Replayer(hub.session.header, "check")
    secret = hidden_from(hub, PUBLIC, replayer.game)
    seen: set[str] = set(secret)
    for entry in hub.session.entries:
        assert replayer.feed(entry) is None
        hidden = hidden_from(hub, PUBLIC, replayer.game)
        secret = (secret & hidden) | (hidden - seen)
        seen |= hidden
    return secret


def _names(hub: Hub, table: str, roles: list[str]) -> list[str]:
    """How the dashboard names the players (the record's names, else the table and role)."""
    return [hub.session.header.players.get(r) or f"{table} {r}" for r in roles]


def _fact(card: Any, name: str) -> str:
    """The value of the card's fact `name` ("Turn", "Result"), '' when it shows none."""
    terms = card.locator("dt")
    for index in range(terms.count()):
        if terms.nth(index).inner_text() == name:
            return str(card.locator("dd").nth(index).inner_text())
    return ""


def _thumbnail(page: Page, table: str) -> Frame:
    handle = page.locator(f"#table-{table} iframe").element_handle()
    frame = handle.content_frame() if handle is not None else None
    assert frame is not None, f"{table}: no thumbnail frame"
    return frame


def _frame_counts(frame: Frame) -> dict[tuple[str, str], int]:
    found = frame.eval_on_selector_all(
        "#screen [data-where][data-side][data-count]",
        "nodes => nodes.map(n => [n.dataset.where, n.dataset.side, Number(n.dataset.count)])")
    return {(where, side): count for where, side, count in found}


def test_the_page_of_every_table_shows_each_board_turn_and_result(event, pages):
    """Each table in a card: its board drawn as a thumbnail by the game's own screen (every
    piece of the table's public view), whose turn it is, and the result of the finished game
    (its card framed); the standings rank the finished game's winner; nothing hidden reaches
    the page, its thumbnails, or any response they received."""
    for viewport in VIEWPORTS:
        page = pages.open(event.url + "/", viewport)
        page.wait_for_selector(".table-card", state="attached")
        wait_for(lambda p=page: p.locator(".table-card").count() == len(GAMES), 15,
                 "every table's card")
        assert page.locator("#count").inner_text() == f"{len(GAMES)} tables"
        for table, hub in event.hubs.items():
            card = page.locator(f"#table-{table}")
            card.scroll_into_view_if_needed()  # the thumbnails load as they come into view
            frame = _thumbnail(page, table)
            view = hub.view(PUBLIC)["view"]
            name = hub.session.game.rules.game_type.name
            wait_for(lambda f=frame, n=name, v=view: _frame_counts(f) == expected_counts(n, v),
                     15, f"{table}'s thumbnail to draw its board")
            assert frame.locator("#no-screen").is_hidden()
            outcome = hub.session.game.outcome
            if outcome is None:
                roles = [r for r in hub.session.game.to_move() if r != CHANCE]
                turn = _fact(card, "Turn")
                assert turn.endswith(" to act"), turn
                assert all(n in turn for n in _names(hub, table, roles)), (table, turn)
                assert _fact(card, "Result") == ""
                assert "finished" not in (card.get_attribute("class") or "")
            else:
                assert outcome.winner is not None  # Rumble Nation always has one
                winner = _names(hub, table, [outcome.winner])[0]
                assert _fact(card, "Result").startswith(f"{winner} won"), _fact(card, "Result")
                assert "finished" in (card.get_attribute("class") or "")
                assert page.locator("#standings tbody tr").first.inner_text().startswith(winner)
            count = len(hub.session.entries)
            assert _fact(card, "Record") == f"{count} of {count} actions"
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= VIEWPORTS[viewport]["width"], f"{viewport}: scrolls sideways ({width})"
        page.wait_for_timeout(300)  # the last thumbnails' fonts and frames settle
        shot(page, f"index-{viewport}")
        _no_secret_in(page, event, pages)
    assert pages.errors == []


def test_one_table_opened_live_follows_its_game(event, pages):
    """`/tables/t1` draws the table's board and its last actions in words; as the table plays
    on, the page follows within seconds: the board, the count of actions, the log."""
    hub = event.hubs["t1"]
    name = hub.session.game.rules.game_type.name
    live = {vp: pages.open(event.url + "/tables/t1", vp) for vp in VIEWPORTS}
    for page in live.values():
        wait_for(lambda p=page: drawn_counts(p) == expected_counts(name, hub.view(PUBLIC)["view"]),
                 15, "the live board")
        assert page.locator("#progress").inner_text() == f"{len(hub.session.entries)} actions"
        assert page.locator("#log li").count() == 12
    shot(live["tablet"], "live-tablet-before")
    before = len(hub.session.entries)
    event.play_on("t1", 4)
    event.wait_arrived("t1")
    after = len(hub.session.entries)
    assert after > before
    for viewport, page in live.items():
        page.wait_for_function(
            "n => document.getElementById('progress').textContent === n + ' actions'",
            arg=after, timeout=5000)
        wait_for(lambda p=page: drawn_counts(p) == expected_counts(name, hub.view(PUBLIC)["view"]),
                 5, f"{viewport}: the live board to follow the table")
        newest = page.locator("#log li").first
        assert newest.get_attribute("data-seq") == str(after)
        assert "{" not in newest.inner_text()  # words, not raw action text
        turn = page.locator("#turn").inner_text()
        roles = [r for r in hub.session.game.to_move() if r != CHANCE]
        assert all(n in turn for n in _names(hub, "t1", roles)), turn
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= VIEWPORTS[viewport]["width"], f"{viewport}: scrolls sideways ({width})"
        shot(page, f"live-{viewport}")
        _no_secret_in(page, event, pages)
    assert pages.errors == []


def _no_secret_in(page: Page, event: Event, pages: Pages) -> None:
    """No name a table has kept hidden all its game long is in what the dashboard shows of that
    table: its card, its thumbnail or live page (DOM), or any answer about it the pages
    received. Checked table by table: two games of one kind share names (a daimyo card hidden
    at one table may be face up at another, whose game ended)."""
    secrets = {table: never_public(hub) for table, hub in event.hubs.items()}
    assert all(secrets[t] for t, hub in event.hubs.items() if hub.session.game.outcome is None), \
        "every game under way here should hide something"
    anything = set().union(*secrets.values())

    def clean(text: str, secret: set[str], where: str) -> None:
        found = leaked(secret, text)
        assert not found, f"{where} shows {found[:5]}"

    for frame in page.frames:
        path = urlsplit(frame.url).path
        table = _table_of(path)
        if table is not None:
            clean(frame.content(), secrets[table], frame.url)
            continue
        for name, secret in secrets.items():
            card = frame.locator(f"#table-{name}")
            if card.count():
                clean(card.inner_html(), secret, f"{frame.url} card {name}")
        for panel in ("#standings-panel", "#games-panel"):
            if frame.locator(panel).count():
                clean(frame.locator(panel).inner_html(), anything, f"{frame.url} {panel}")
    for url, body in pages.bodies():
        path = urlsplit(url).path
        if path == "/api/tables":
            data = json.loads(body)
            for row in data["tables"]:
                clean(json.dumps(row), secrets[row["table"]], f"{url} {row['table']}")
            clean(json.dumps([data["standings"], data["games"]]), anything, url)
        elif (table := _table_of(path)) is not None:
            clean(body, secrets[table], url)
        elif path in ("/", "/api/standings"):
            clean(body, anything, url)
        # else the dashboard's and the games' code, and a kit's printed board: the same for
        # every game, they carry no game's state


def _table_of(path: str) -> str | None:
    """The table a dashboard path is about (`/tables/t1...`, `/api/tables/t1/...`)."""
    found = re.match(r"^/(?:api/)?tables/([^/?]+)", path)
    return found[1] if found else None
