"""The page shell as a player meets it, in Debian's chromium (#17): a lost server and a stale
pairing are said on screen, a tapped action is confirmed in words and lands in the game log,
the language switches to Italian, and the shared table shows its big banner."""
# ruff: noqa: F811  (the browser fixtures are imported from test_browser and named as arguments)

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from test_browser import (  # noqa: F401  (the fixtures are used by name)
    VIEWPORTS,
    Served,
    page_url,
    pages,
    shot,
)
from test_serve import free_port
from web_helpers import acting_player, played_hub

ROOT = Path(__file__).parents[1]


def serve(db: Path, port: int, *args: str) -> subprocess.Popen[str]:
    """`companion serve` as a user starts it, on `port`, until it answers."""
    child = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", str(db), "--referee-token", "sesame", *args],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return child
        except OSError:
            pass
        try:  # between two tries, wait for the child to end (it failed), not a fixed time
            child.wait(timeout=0.1)
            break
        except subprocess.TimeoutExpired:
            continue
    child.kill()
    raise AssertionError(child.stdout.read() if child.stdout else "serve did not start")


def pause(port: int, paused: bool) -> None:
    """The referee's pause, through the API (a change every page's stream carries)."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/pause", method="POST",
        data=b'{"paused": true}' if paused else b'{"paused": false}',
        headers={"Content-Type": "application/json", "Authorization": "Bearer sesame"})
    urllib.request.urlopen(request, timeout=5).close()


def stop(child: subprocess.Popen[str]) -> None:
    child.send_signal(signal.SIGTERM)
    try:
        child.wait(timeout=15)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()


@pytest.mark.slow
def test_the_banner_says_when_the_server_is_gone_and_goes_when_it_is_back(pages, tmp_path):
    db, port = tmp_path / "games.sqlite", free_port()
    child = serve(db, port, "--new", "rumble_nation")
    try:
        table = pages.open(f"http://127.0.0.1:{port}/")
        referee = pages.open(f"http://127.0.0.1:{port}/referee#token=sesame", "phone")
        for page in (table, referee):
            assert page.locator("#connection").is_hidden()
        for paused in (True, False, True, False):  # the pages reach version 4 on this server
            pause(port, paused)
        referee.wait_for_selector("#version[data-version='4']", state="attached", timeout=5000)
        stop(child)
        for page in (table, referee):
            page.wait_for_selector("#connection:not([hidden])", timeout=10_000)
            assert "lost" in page.locator("#connection").inner_text()
        shot(referee, "shell-phone-connection-lost")
        child = serve(db, port, "--game", "1")
        for page in (table, referee):
            page.wait_for_selector("#connection", state="hidden", timeout=20_000)
        assert referee.locator("#role").inner_text() == "Referee"
        # The restarted server counts its versions from 0 again: its views are still drawn.
        pause(port, True)  # version 1 on the new server, below the pages' 4
        for page in (table, referee):
            page.wait_for_function("document.body.classList.contains('paused')",
                                   timeout=5000)
    finally:
        stop(child)
    pages.errors.clear()  # the browser logs the refused reconnections while the server is down


def test_a_stale_pairing_is_told_to_pair_again_not_shown_the_public_view(pages, tmp_path):
    hub = played_hub(tmp_path, "rumble_nation")
    table = Served(hub)
    try:
        token = hub.tokens.issue("red")
        phone = pages.open(page_url(table, "play", token), "phone")
        assert phone.locator("#role").inner_text().startswith("Red")
        hub.revoke("red")
        phone.reload()
        phone.wait_for_selector("#connection:not([hidden])", timeout=5000)
        assert "pair it again" in phone.locator("#connection").inner_text()
        assert phone.locator("#role").inner_text() != "Table"  # never the public view as its own
        shot(phone, "shell-phone-stale-pairing")
    finally:
        table.close()
    pages.errors.clear()  # the refused view is logged by the browser as a 401


def test_a_tapped_action_is_confirmed_in_words_then_said_in_the_log(pages, tmp_path):
    hub = played_hub(tmp_path, "sekigahara")
    table = Served(hub)
    try:
        actor = acting_player(hub)
        phone = pages.open(page_url(table, "play", hub.tokens.issue(actor)), "phone")
        sent: list[str] = []
        phone.on("request", lambda r: sent.append(r.method) if r.url.endswith("/api/action")
                 else None)
        entries = len(hub.session.entries)
        button = phone.locator("#options button.choice").first
        words = button.inner_text()
        assert words and "{" not in words
        button.click()
        assert phone.locator("#confirm-text").inner_text() == words
        shot(phone, "shell-phone-confirm")
        phone.click("#confirm-no")
        phone.wait_for_selector("#confirm:not([open])", state="attached")
        assert len(hub.session.entries) == entries  # cancelled: nothing sent
        button.click()
        phone.click("#confirm-yes")
        phone.wait_for_function(f"document.querySelector('#log li[data-seq=\"{entries + 1}\"]')",
                                timeout=10000)
        # One action sent, the confirmed one: the cancelled tap sent nothing before it, nor after.
        assert sent == ["POST"] and len(hub.session.entries) == entries + 1
        line = phone.locator(f"#log li[data-seq='{entries + 1}']").inner_text()
        assert "phone" in line and "{" not in line
        assert hub.session.entries[-1].source == "phone"
        assert hub.session.entries[-1].action.role == actor
        assert pages.errors == []
    finally:
        table.close()


def test_an_illegal_tap_names_the_rule_and_the_table_and_the_phone_read_it(pages, tmp_path):
    hub = played_hub(tmp_path, "rumble_nation")
    table = Served(hub)
    try:
        actor = acting_player(hub)
        token = hub.tokens.issue(actor)
        shared = pages.open(page_url(table, ""))
        phone = pages.open(page_url(table, "play", token), "phone")
        action = hub.session.game.legal_actions(actor)[0]
        bad = {"role": actor, "verb": action.verb, "args": {**action.to_json()["args"],
                                                           "pair": [0, 0]}}
        with contextlib.suppress(urllib.error.HTTPError):  # 422: refused, as expected
            table.post("/api/action", bad, token)
        for page in (shared, phone):
            page.wait_for_selector("#alert:not([hidden])", timeout=10000)
            text = page.locator("#alert").inner_text()
            assert "rule" in text and "{" not in text
        assert hub.alert is not None and hub.alert.rule in phone.locator("#alert").inner_text()
        shot(phone, "shell-phone-alert")
        shot(shared, "shell-tablet-table-alert")
    finally:
        table.close()


def in_italian(page):
    """The device's language switched to Italian (kept by that browser, as on a phone)."""
    page.select_option("#lang", "it")
    page.wait_for_function("document.documentElement.lang === 'it' && "
                           "document.querySelector('#version').dataset.version !== '-1'",
                           timeout=5000)
    return page


def test_the_screens_switch_to_italian_and_the_table_shows_its_banner(pages, tmp_path):
    hub = played_hub(tmp_path, "sekigahara")
    table = Served(hub)
    try:
        shared = pages.open(page_url(table, ""))
        assert shared.locator("#banner").is_visible()
        assert shared.locator("#banner").inner_text().strip()
        in_italian(shared)
        assert shared.locator("#games-link").inner_text() == "Partite"
        assert shared.locator("#role").inner_text() == "Tavolo"
        shared.reload()  # the choice is the device's: kept across a reload
        shared.wait_for_function("document.documentElement.lang === 'it'", timeout=5000)
        shot(shared, "shell-tablet-table-italian")
        referee = in_italian(pages.open(page_url(table, "referee", table.referee)))
        assert referee.locator("#log h2").inner_text() == "Registro della partita"
        shot(referee, "shell-tablet-referee-italian")
        for viewport in VIEWPORTS:
            phone = in_italian(pages.open(
                page_url(table, "play", hub.tokens.issue(acting_player(hub))), viewport))
            assert phone.locator("#options h2").inner_text() == "Cosa puoi fare"
            shot(phone, f"shell-{viewport}-play-italian")
        assert pages.errors == []
    finally:
        table.close()


def test_a_short_sekigahara_game_is_played_with_the_tablet_alone(pages, tmp_path):
    """No camera, no reader (#18): the referee enters every bag draw with the pickers of what
    the bag holds, and the players act on their phones in words; everything is recorded."""
    from companion.record.session import Session
    from companion.record.store import Store
    from companion.web.hub import Hub

    hub = Hub(Session.start(Store(tmp_path / "games.sqlite"), "sekigahara",
                            options={"knowledge": "table"},
                            players={"ishida": "Aiko", "tokugawa": "Kenji"}))
    table = Served(hub)
    try:
        referee = pages.open(page_url(table, "referee", table.referee))
        phones = {role: pages.open(page_url(table, "play", hub.tokens.issue(role)), "phone")
                  for role in hub.roles}
        draws = played = 0
        while played < 6:
            version = hub.version
            if "chance" in hub.session.game.to_move():
                form = referee.locator("#picks form").first
                if draws == 0:
                    shot(referee, "shell-tablet-referee-picks")
                form.locator(".pick-random").click()
                form.locator(".pick-enter").click()
                assert "draws" in referee.locator("#confirm-text").inner_text()
                referee.click("#confirm-yes")
                draws += 1
            else:
                actor = next(r for r in hub.session.game.to_move() if r in phones)
                phone = phones[actor]
                phone.wait_for_selector(f"#version[data-version='{version}']",
                                        state="attached", timeout=5000)
                phone.locator("#options button.choice").first.click()
                phone.click("#confirm-yes")
                played += 1
            referee.wait_for_selector(f"#version[data-version='{version + 1}']",
                                      state="attached", timeout=5000)
        entries = hub.session.entries
        chance = [e for e in entries if e.action.role == "chance"]
        assert len(chance) == draws >= 10 and {e.source for e in chance} == {"tablet"}
        assert [e.source for e in entries if e.action.role in hub.roles] == ["phone"] * played
        assert hub.alert is None and pages.errors == []
        shot(phones["ishida"], "shell-phone-play-tablet-alone")
    finally:
        table.close()


def test_the_referee_unpairs_a_phone_in_one_tap_and_the_phone_is_told_at_once(pages, tmp_path):
    hub = played_hub(tmp_path, "rumble_nation")
    table = Served(hub)
    try:
        token = hub.tokens.issue("blue")
        phone = pages.open(page_url(table, "play", token), "phone")
        referee = pages.open(page_url(table, "referee", table.referee))
        referee.click("button[data-unpair='blue']")
        assert "Blue" in referee.locator("#confirm-text").inner_text()
        referee.click("#confirm-yes")
        phone.wait_for_selector("#connection.credential:not([hidden])", timeout=5000)
        assert "pair it again" in phone.locator("#connection").inner_text()
        assert hub.tokens.role(token) == "public"
    finally:
        table.close()
    pages.errors.clear()  # the refused reconnection is logged by the browser as a 401


def test_an_illegal_move_names_the_block_and_its_place_to_the_mover_only(pages, tmp_path):
    """A Sekigahara move along no road (7.3.1): the mover's phone reads the block and the
    places, the rule's summary and what to do instead; the other side's phone reads the rule
    and no block name."""
    from companion.engine import Action
    from companion.games.sekigahara.rules.words import block_name

    hub = played_hub(tmp_path, "sekigahara")
    table = Served(hub)
    try:
        actor = acting_player(hub)
        other = next(r for r in hub.roles if r != actor)
        mine = pages.open(page_url(table, "play", hub.tokens.issue(actor)), "phone")
        theirs = pages.open(page_url(table, "play", hub.tokens.issue(other)), "phone")
        move = next(a for a in hub.session.game.legal_actions(actor) if a.verb == "move")
        args = move.to_json()["args"]
        block = next(iter(args["paths"]))
        kit = hub.session.game.rules.kit
        origin = kit.location[args["from"]].name
        far = next(loc for loc in kit.locations
                   if loc.id != args["from"] and loc.id not in kit.neighbours[args["from"]])
        with contextlib.suppress(urllib.error.HTTPError):  # 422: refused
            table.post("/api/action", Action(actor, "move", {
                **args, "paths": {block: [far.id]}}).to_json(), hub.tokens.issue(actor))
        mine.wait_for_selector("#alert:not([hidden])", timeout=5000)
        said = mine.locator("#alert").inner_text()
        name = block_name(kit, block)
        assert name in said and origin in said and far.name in said and "7.3.1" in said
        assert "{" not in said and hub.session.game.rules.rule_summary("7.3.1") in said
        theirs.wait_for_selector("#alert:not([hidden])", timeout=5000)
        told = theirs.locator("#alert").inner_text()
        assert "7.3.1" in told and name not in told
        shot(mine, "shell-phone-illegal-move")
    finally:
        table.close()
