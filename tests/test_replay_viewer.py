"""The replay viewer a player wants (issue 17): the stored games, the moves in words, snapshots.

The API tests use Flask's client over a real store; the browser tests serve a real table on
loopback and drive Debian's chromium (tests/test_browser.py's harness), stepping with the keys
a player would press and checking that the board, the slider, the highlighted move and the
address always show the same position. Screenshots go to tests/artifacts/*-replay-*.png.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
import test_browser
from game_hubs import skirmish_hub
from test_browser import VIEWPORTS, Pages, Served, drawn_counts, expected_counts, shot
from web_helpers import app_for, hidden_from, played_hub

from companion.engine import CHANCE, PUBLIC, REFEREE, chance_rng, pick_action
from companion.games import game
from companion.record import read_record, replay
from companion.record.session import Session, import_record
from companion.web.hub import Hub


def _jpeg(seq: int) -> bytes:
    """A real (small) camera frame, different for each line."""
    frame = np.full((48, 64, 3), (seq * 37) % 256, dtype=np.uint8)
    ok, data = cv2.imencode(".jpg", frame)
    assert ok
    return data.tobytes()


def _play(session: Session, steps: int, seed: int, camera_every: int = 0) -> None:
    """Random legal actions (chance drawn from the seed); every `camera_every`-th one is read
    by the camera and keeps its frame."""
    step = 0
    while step < steps and session.game.outcome is None:
        game_now = session.game
        roles = game_now.to_move()
        rng = chance_rng(seed, step)
        action = (game_now.rules.sample_chance(game_now.state, rng) if CHANCE in roles
                  else pick_action(game_now, roles, rng))
        assert action is not None
        camera = camera_every and step % camera_every == 0
        session.play(action, "camera" if camera else "simulator",
                     snapshot=_jpeg(len(session.entries) + 1) if camera else None)
        step += 1


def _running_with_snapshots(tmp_path: Path) -> tuple[Hub, dict[str, str]]:
    """The live Sekigahara game, some of its actions read by the camera with their frames."""
    hub = played_hub(tmp_path, "sekigahara", actions=10, settle=False)
    _play(hub.session, 20, seed=9, camera_every=3)
    assert hub.session.game.outcome is None
    _, tokens = app_for(hub)
    return hub, tokens


def _finished_with_snapshots(hub: Hub) -> int:
    """A whole Skirmish game in the same store, every other action from the camera."""
    session = Session.start(hub.session.store, "skirmish", seed=4,
                            players={"red": "Ana", "blue": "Ben"})
    _play(session, 10_000, seed=4, camera_every=2)
    assert session.game.outcome is not None
    return session.game_id


def _get(client: Any, path: str, token: str | None = None) -> Any:
    return client.get(path, headers={"Authorization": f"Bearer {token}"} if token else {})


# --- the API -----------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_moves_of_a_finished_game_are_said_in_words(tmp_path, lang):
    hub = played_hub(tmp_path, "sekigahara", actions=0, settle=False)
    game_id = import_record(hub.session.store, read_record(game("sekigahara").sample()))
    client = app_for(hub)[0].test_client()
    response = client.get(f"/api/replay/{game_id}/moves?lang={lang}")
    assert response.status_code == 200
    data = response.get_json()
    record = hub.session.store.load(game_id)
    assert data["lang"] == lang and data["role"] == REFEREE  # over: everything (6)
    assert [m["seq"] for m in data["moves"]] == [e.seq for e in record.entries]
    assert all(m["words"].strip() for m in data["moves"])
    assert not [m["words"] for m in data["moves"] if "{" in m["words"]], "raw action text"
    assert {m["source"] for m in data["moves"]} <= {"camera", "card_reader", "scanner", "button",
                                                   "tablet", "phone", "referee", "simulator"}
    assert data["outcome"] is not None and data["outcome"]["winner"] in (*hub.roles, None)
    assert data["turns"] and all(0 < n <= len(record.entries) for n in data["turns"])
    assert data["moves"][0]["from"] == {"en": "simulator", "it": "simulatore"}[lang]
    # The position at the end carries the outcome (the victory banner) and its last line.
    end = client.get(f"/api/replay/{game_id}?lang={lang}").get_json()
    assert end["outcome"] == data["outcome"] and end["at"] == len(record.entries)
    assert end["last"]["words"] == data["moves"][-1]["words"] == end["action"]
    assert client.get(f"/api/replay/{game_id}?at=0").get_json()["outcome"] is None


def test_a_running_game_is_said_as_the_public_sees_it(tmp_path):
    """While the game runs, the move list names no hidden piece, and a correction's reason
    (free text, which may name one) is the referee's only; its author is shown to all."""
    hub, tokens = _running_with_snapshots(tmp_path)
    secret = sorted(hidden_from(hub, PUBLIC) & set(hub.session.game.rules.ctx.owner))[0]
    hub.correct({"block": secret, "to": "kiso"}, by="Marta", note=f"{secret} stood at kiso")
    client = app_for(hub)[0].test_client()
    game_id = hub.session.game_id
    public = client.get(f"/api/replay/{game_id}/moves")
    data = public.get_json()
    assert data["role"] == PUBLIC
    text = public.get_data(as_text=True)
    leaked = sorted(s for s in hidden_from(hub, PUBLIC) if s in text)
    assert not leaked, f"the public move list names {leaked[:3]}"
    assert not [m["words"] for m in data["moves"] if "{" in m["words"]]
    fixed = data["moves"][-1]
    assert fixed["correction"] and fixed["by"] == "Marta" and fixed["note"] is None
    assert fixed["source"] == "referee"
    full = _get(client, f"/api/replay/{game_id}/moves", tokens[REFEREE]).get_json()
    assert full["role"] == REFEREE and full["moves"][-1]["note"] == f"{secret} stood at kiso"
    # A player sees its own game as that player: never the other side's hidden pieces.
    for role in hub.roles:
        mine = _get(client, f"/api/replay/{game_id}/moves", tokens[role])
        assert mine.get_json()["role"] == role
        body = mine.get_data(as_text=True)
        assert not sorted(s for s in hidden_from(hub, role) if s in body), role


def test_taken_back_lines_are_marked(tmp_path):
    hub = skirmish_hub(tmp_path)
    _play(hub.session, 3, seed=2)
    undone = hub.session.entries[-1].seq
    hub.session.undo(by="referee")
    client = app_for(hub)[0].test_client()
    moves = client.get(f"/api/replay/{hub.session.game_id}/moves").get_json()["moves"]
    assert [m["seq"] for m in moves if m["undone"]] == [undone]
    assert moves[-1]["undo"] and moves[-1]["words"] == "Taken back: " + moves[undone - 1]["words"]
    assert not any(m["undone"] for m in moves[:undone - 1])


def test_snapshots_are_the_referees_until_the_game_ends(tmp_path):
    """A camera frame shows the tags (hidden identities, decoded): the referee's while the
    game runs, everyone's once it has ended; the move list links only the ones served."""
    hub, tokens = _running_with_snapshots(tmp_path)
    finished = _finished_with_snapshots(hub)
    client = app_for(hub)[0].test_client()
    running = hub.session.game_id
    kept = [e.seq for e in hub.session.entries if e.source == "camera"]
    assert kept
    seq = kept[0]
    url = f"/api/replay/{running}/snapshot/{seq}"
    for who in (None, *(tokens[r] for r in hub.roles)):
        refused = _get(client, url, who)
        assert refused.status_code == 403 and refused.is_json, who
        assert refused.get_json()["message"]
    served = _get(client, url, tokens[REFEREE])
    assert served.status_code == 200 and served.mimetype == "image/jpeg"
    assert served.data == _jpeg(seq)
    assert served.headers["Cache-Control"] == "no-store"
    public_moves = client.get(f"/api/replay/{running}/moves").get_json()["moves"]
    assert all(m["snapshot"] is None for m in public_moves)
    referee_moves = _get(client, f"/api/replay/{running}/moves", tokens[REFEREE]).get_json()
    assert [m["seq"] for m in referee_moves["moves"] if m["snapshot"]] == kept
    # Once the game has ended: anyone.
    ended = [e.seq for e in hub.session.store.load(finished).entries if e.source == "camera"]
    first = client.get(f"/api/replay/{finished}/snapshot/{ended[0]}")
    assert first.status_code == 200 and first.data == _jpeg(ended[0])
    listed = client.get(f"/api/replay/{finished}/moves").get_json()["moves"]
    assert [m["seq"] for m in listed if m["snapshot"]] == ended
    # No frame kept with that line, or no such game: a 404 in JSON.
    plain = next(e.seq for e in hub.session.store.load(finished).entries
                 if e.source != "camera")
    missing = client.get(f"/api/replay/{finished}/snapshot/{plain}")
    assert missing.status_code == 404 and missing.is_json
    assert client.get("/api/replay/99999/snapshot/1").status_code == 404


def test_a_missing_game_is_a_page_and_a_json_404(tmp_path):
    hub = skirmish_hub(tmp_path)
    client = app_for(hub)[0].test_client()
    page = client.get("/replay/99999")
    assert page.status_code == 404 and page.mimetype == "text/html"
    text = page.get_data(as_text=True)
    assert "99999" in text and 'href="/replays"' in text
    for path in ("/api/replay/99999", "/api/replay/99999/moves", "/api/replay/99999/turns",
                 "/api/replay/99999/board"):
        response = client.get(path)
        assert response.status_code == 404 and response.is_json, path
        assert "99999" in response.get_json()["message"], path
    assert str(tmp_path) not in client.get("/api/replay/99999/moves").get_data(as_text=True)


def test_the_list_of_stored_games_is_newest_first(tmp_path):
    hub = played_hub(tmp_path, "sekigahara", actions=4, settle=False)
    sample = import_record(hub.session.store, read_record(game("skirmish").sample()))
    client = app_for(hub)[0].test_client()
    games = client.get("/api/replays").get_json()["games"]
    assert [g["id"] for g in games] == [sample, hub.session.game_id]
    done, live = games
    assert done["title"] == "Skirmish" and done["finished"] and done["result"]
    winner = replay(read_record(game("skirmish").sample())).game.outcome.winner
    assert done["outcome"]["winner"] == winner and done["outcome"]["how"]
    assert done["outcome"]["name"] == {"red": "Ana", "blue": "Ben"}.get(winner, "")
    assert done["actions"] == len(read_record(game("skirmish").sample()).entries)
    assert live["live"] and not live["finished"] and live["result"] is None
    assert {p["name"] for p in live["players"]} == {"Aiko", "Kenji"}
    page = client.get("/replays")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    live_link = f'href="/replay/{hub.session.game_id}"'
    assert html.index(f'href="/replay/{sample}"') < html.index(live_link)
    assert "Kenji" in html and "Sekigahara" in html and "being played now" in html
    italian = client.get("/replays?lang=it").get_data(as_text=True)
    assert 'lang="it"' in italian and "Partite salvate" in italian and "in corso" in italian
    assert "Nessuna partita 99999" in client.get("/replay/99999?lang=it").get_data(as_text=True)


def test_the_list_names_every_winner_of_a_shared_victory(tmp_path):
    """Issue 34, Shogun 7: players level on points and war chests share the victory; the list
    names each of them (and their players), never "a draw"."""
    hub = played_hub(tmp_path, "sekigahara", actions=4, settle=False)
    hub.session.store.finish(hub.session.game_id, "ishida and tokugawa: points")
    client = app_for(hub)[0].test_client()
    (listed,) = client.get("/api/replays").get_json()["games"]
    assert listed["outcome"]["winners"] == ["ishida", "tokugawa"]
    assert listed["outcome"]["winner"] is None and listed["outcome"]["how"] == "points"
    html = client.get("/replays").get_data(as_text=True)
    assert "Ishida (Aiko) and Tokugawa (Kenji) share the victory" in html
    italian = client.get("/replays?lang=it").get_data(as_text=True)
    assert "Ishida (Aiko) e Tokugawa (Kenji) condividono la vittoria" in italian


# --- the browser -------------------------------------------------------------------------------

# the browser comes from conftest.py; the pages from the browser tests
pages = test_browser.pages


STEP_BUTTONS = ("first", "turn-back", "step-back", "step-next", "turn-next", "last")


def _at(page: Any, n: int) -> None:
    page.wait_for_selector(f"#version[data-version='{n}']", state="attached", timeout=5000)


def _shown(page: Any) -> dict[str, Any]:
    """What the page shows as its position: the board's version, the slider, the highlighted
    move and the address."""
    return page.evaluate("""() => ({
        version: Number(document.querySelector('#version').dataset.version),
        slider: Number(document.querySelector('#scrubber').value),
        current: [...document.querySelectorAll('#moves li.current')]
            .map(li => Number(li.dataset.at)),
        hash: location.hash,
        share: document.querySelector('#share').getAttribute('href'),
    })""")


def _same(page: Any, n: int) -> None:
    shown = _shown(page)
    assert shown["version"] == shown["slider"] == n, shown
    assert shown["current"] == [n], shown
    assert shown["hash"].startswith(f"#at={n}"), shown
    assert shown["share"].endswith(f"#at={n}") and "token" not in shown["share"], shown


@pytest.fixture
def sample_table(tmp_path):
    hub = played_hub(tmp_path, "sekigahara", actions=0, settle=False)
    game_id = import_record(hub.session.store, read_record(game("sekigahara").sample()))
    table = Served(hub)
    yield table, game_id, hub.session.store.load(game_id)
    table.close()


@pytest.mark.slow
@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_the_keys_step_the_board_and_the_move_list_together(pages: Pages, sample_table,
                                                            viewport):
    table, game_id, record = sample_table
    total = len(record.entries)
    with urllib.request.urlopen(f"{table.url}/api/replay/{game_id}/turns") as answer:
        turns = json.loads(answer.read())["turns"]
    page = pages.open(f"{table.url}/replay/{game_id}#at=5", viewport)
    _at(page, 5)  # the link opens at its action
    _same(page, 5)
    page.locator("#moves li[data-at='5']").wait_for()
    assert page.locator("#moves li").count() == total + 1  # the start, then every line
    words = page.locator("#moves li").all_inner_texts()
    assert not any("{" in w for w in words)

    def board_is(n: int) -> None:
        expected = replay(record, upto_line=n + 1).game.view(REFEREE)
        assert drawn_counts(page) == expected_counts("sekigahara", expected), n

    board_is(5)
    page.keyboard.press("ArrowRight")
    _at(page, 6)
    _same(page, 6)
    board_is(6)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    _at(page, 4)
    _same(page, 4)
    board_is(4)
    # By turn: Shift+→ and PageDown go to the next turn's start, PageUp back.
    following = [n for n in turns if n > 4]
    page.keyboard.press("Shift+ArrowRight")
    _at(page, following[0])
    _same(page, following[0])
    page.keyboard.press("PageDown")
    _at(page, following[1])
    page.keyboard.press("PageUp")
    _at(page, following[0])
    board_is(following[0])
    # Held keys: many steps asked before any answer; the last asked is the one drawn.
    for _ in range(7):
        page.keyboard.press("ArrowRight")
    _at(page, following[0] + 7)
    page.wait_for_timeout(300)
    _same(page, following[0] + 7)
    board_is(following[0] + 7)
    # A move in the list is a link to its position.
    page.locator(f"#moves li[data-at='{total // 2}']").click()
    _at(page, total // 2)
    _same(page, total // 2)
    assert page.locator("#victory").is_hidden()
    shot(page, f"sekigahara-{viewport}-replay-moves")
    # The end: the victory banner, with who won.
    page.keyboard.press("End")
    _at(page, total)
    _same(page, total)
    banner = page.locator("#victory")
    banner.wait_for(state="visible")
    outcome = replay(record).game.outcome
    assert outcome is not None and outcome.winner is not None
    assert outcome.winner.lower() in banner.inner_text().lower()
    assert "wins" in banner.inner_text()
    shot(page, f"sekigahara-{viewport}-replay-victory")
    page.keyboard.press("Home")
    _at(page, 0)
    _same(page, 0)
    assert page.locator("#victory").is_hidden()
    # The slider's own arrow keys step once, not twice.
    page.focus("#scrubber")
    page.keyboard.press("ArrowRight")
    _at(page, 1)
    page.wait_for_timeout(300)
    _same(page, 1)
    assert pages.errors == []


@pytest.mark.slow
def test_the_step_buttons_show_their_icons(pages: Pages, sample_table):
    table, game_id, record = sample_table
    page = pages.open(f"{table.url}/replay/{game_id}")
    for button in STEP_BUTTONS:
        icon = page.locator(f"#{button} svg")
        box = icon.bounding_box()
        assert box and box["width"] >= 12 and box["height"] >= 12, button
        drawn = page.eval_on_selector(f"#{button} svg path",
                                      "p => { const b = p.getBBox(); return b.width * b.height; }")
        assert drawn > 20, button
        assert page.locator(f"#{button}").inner_text().strip() == "", \
            f"#{button} draws a font glyph, which may be an empty box"
        assert page.locator(f"#{button}").get_attribute("aria-label")
    page.click("#last")
    _at(page, len(record.entries))
    page.click("#step-back")
    _at(page, len(record.entries) - 1)
    page.click("#first")
    _at(page, 0)
    assert pages.errors == []


@pytest.mark.slow
def test_the_list_of_games_opens_a_replay(pages: Pages, sample_table):
    table, game_id, _ = sample_table
    page = pages.browser.new_page(viewport=VIEWPORTS["tablet"])
    try:
        page.goto(f"{table.url}/replays")
        rows = page.locator("#games tbody tr")
        assert rows.count() == 2
        assert rows.first.get_attribute("data-game-id") == str(game_id)  # newest first
        assert "Ishida (Aiko) wins" in rows.first.inner_text()
        shot(page, "games-tablet-replays-list")
        page.set_viewport_size(VIEWPORTS["phone"])
        shot(page, "games-phone-replays-list")
        page.set_viewport_size(VIEWPORTS["tablet"])
        rows.first.locator("a").click()
        _at(page, 0)
        assert page.url.endswith(f"/replay/{game_id}#at=0")
        missing = page.goto(f"{table.url}/replay/99999")
        assert missing is not None and missing.status == 404
        assert "99999" in page.inner_text("main")
        page.click("text=See the stored games")
        page.wait_for_url(f"{table.url}/replays")
    finally:
        page.close()


@pytest.mark.slow
def test_the_referee_sees_the_cameras_snapshots_while_the_game_runs(pages: Pages, tmp_path):
    """The referee's replay of the running game shows each camera frame beside its line,
    fetched with the referee's token; the table's shows none; a link shared from the referee's
    page never carries the token."""
    hub, _ = _running_with_snapshots(tmp_path)
    table = Served(hub)
    try:
        kept = [e.seq for e in hub.session.entries if e.source == "camera"]
        game_id = hub.session.game_id
        referee = pages.open(f"{table.url}/replay/{game_id}#token={table.referee}&at={kept[0]}")
        _at(referee, kept[0])
        thumbs = referee.locator("#moves img.thumb")
        assert thumbs.count() == len(kept)
        referee.locator(f"#moves li[data-at='{kept[0]}'] img.thumb").scroll_into_view_if_needed()
        referee.wait_for_function(
            f"document.querySelector(\"#moves li[data-at='{kept[0]}'] img.thumb\").naturalWidth"
            " === 64")
        referee.keyboard.press("ArrowRight")
        _at(referee, kept[0] + 1)
        assert f"token={table.referee}" in referee.evaluate("location.hash")  # a reload works
        share = referee.locator("#share").get_attribute("href") or ""
        assert share.endswith(f"#at={kept[0] + 1}") and table.referee not in share
        assert referee.locator("#moves li[data-source='camera'] .from").first.inner_text() \
            == "camera"
        shot(referee, "sekigahara-tablet-replay-referee-snapshots")
        public = pages.open(f"{table.url}/replay/{game_id}#at=3")
        _at(public, 3)
        assert public.locator("#moves li").count() == len(hub.session.entries) + 1
        assert public.locator("#moves img.thumb").count() == 0
        text = public.locator("body").inner_text()
        assert not [s for s in hidden_from(hub, PUBLIC) if s in text]
    finally:
        table.close()
    assert pages.errors == []
