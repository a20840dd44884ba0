"""A registered physical set at a real `companion serve` (#18): its tags shuffled over the blocks
(not in kit order) and an RFID sticker on every card; the table photographed by the synthetic
camera into a folder the server follows as it grows, the stickers read by an RDM6300 reader on
a pseudo-terminal. Every move the frames show and every card read is recognised: the record is
the simulator's game, nothing refused, nothing entered by hand that the table showed.

Also here: the folder source follows a folder that grows (`folder:PATH` on a timelapse)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
import tty
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from helpers import wait_for
from test_inputs import rdm_frame
from test_serve_restart import (
    TABLE_OPTIONS,
    VIEWS_EVERY,
    call,
    enter,
    put_still,
    served,
    table_script,
    view,
)

from companion.engine import Action, Game
from companion.games import game
from companion.games.sekigahara.script import act_out
from companion.kits import load_kit
from companion.record.store import Store
from companion.table import TableRegistry, TableSetup
from companion.table.acting import Press, Scan, Seen
from companion.table.sets import PhysicalSet, load_set
from companion.vision.sources import ImageFolder

ROOT = Path(__file__).parents[1]
KIT: Any = load_kit("sekigahara")
CAMERA_HEIGHT_MM = 900.0
"""Where the simulated camera hangs; said to `companion calibrate` as a person would."""
PLAYED = 29
"""Scripted actions played (seed 3): the set-up draws, both bids, 6.3, two movement phases
with moves and a recruitment, and Mōri's first block (9.3), before any leader is declared
with a button (7.3.4: this table has none)."""


def registration_lines(seed: int) -> list[str]:
    """What a person types for a whole set: 96 block tags shuffled over the blocks, and an
    RFID sticker on each of the 110 cards, in no particular order."""
    tags = random.Random(seed).sample(range(200, 296), len(KIT.blocks))
    lines = []
    for tag, block in zip(tags, KIT.blocks, strict=True):
        kind = (f"leader{block.leader}" if block.leader
                else {"cavalry": "cav", "arquebus": "arq"}.get(block.attack or "",
                                                              str(block.strength)))
        setup = f" {block.setup}" if block.setup else ""
        lines.append(f"block {tag} {block.side} {block.clan} {kind}{setup}")
    for number, card in enumerate(random.Random(seed + 1).sample(list(KIT.cards),
                                                                  len(KIT.cards))):
        face = (f"{card.side} loyalty" if card.kind == "loyalty"
                else f"{card.side} {card.clan} {card.kind}")
        lines.append(f"card {0xB0000000 + number:010X} {face}")
    return lines


def companion(data: Path, *args: str, stdin: str = "") -> str:
    """The `companion` command, as the person at the table runs it."""
    done = subprocess.run([sys.executable, "-m", "companion", *args], input=stdin,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT),
                               "COMPANION_DATA": str(data)})
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@contextmanager
def rfid_reader() -> Iterator[tuple[str, int]]:
    """A serial RFID reader on a pseudo-terminal: its device path, and the end the tags'
    frames are written to (as the RDM6300 module sends them)."""
    controller, device = os.openpty()
    tty.setraw(device)
    try:
        yield os.ttyname(device), controller
    finally:
        os.close(controller)
        os.close(device)


class Table:
    """The simulated player at the set's table: blocks photographed into the camera's
    folder, cards held to the reader."""

    def __init__(self, club: PhysicalSet, frames: Path, reader: int) -> None:
        spec = game("sekigahara")
        self.rules = spec.rules(load_kit(club.kit), TABLE_OPTIONS)
        parts = spec.need_table()(self.rules, TableSetup(
            registry=club.registry, camera_height_mm=CAMERA_HEIGHT_MM, crowd=True))
        self.player = spec.need_simulator().player(self.rules, parts, self._frame)
        assert self.player.camera.height_mm == CAMERA_HEIGHT_MM
        self.club, self.frames, self.reader = club, frames, reader
        self.taken = 0

    def _frame(self, image: np.ndarray) -> bool | None:
        """A still into the folder; after a hand and four stills, enough for the tracker."""
        self.taken += 1
        put_still(self.frames, self.taken, image)
        return True if self.taken % 5 == 0 else None

    def card(self, card: str) -> None:
        code = self.club.code_of(card)
        assert code is not None and not code.startswith("CARD:"), card
        os.write(self.reader, rdm_frame(code))


@pytest.mark.slow
def test_a_set_out_of_kit_order_is_read_whole_at_a_real_serve(tmp_path: Path) -> None:
    data, db, frames = tmp_path / "data", tmp_path / "games.sqlite", tmp_path / "camera"
    frames.mkdir()
    said = companion(data, "register", "club", stdin="\n".join(registration_lines(7)) + "\n")
    assert "club" in said
    club = load_set("club", data / "sets")
    set_kit: Any = load_kit(club.kit)
    in_order = TableRegistry.in_kit_order(b.id for b in set_kit.blocks)
    assert sum(in_order.block(t) != b for t, b in club.registry.blocks.items()) > 90
    assert all(not code.startswith("CARD:") for code in club.registry.cards)

    script = table_script(seed=3, kit=str(club.kit))[:PLAYED]
    with rfid_reader() as (device, reader):
        table = Table(club, frames, reader)
        shadow: Game[Any] = Game(table.rules, seed=3)
        table.player.begin(shadow.state)
        first = sorted(frames.glob("*.jpg"))[0]
        companion(data, "calibrate", "--game", "sekigahara", "--source", "image", "--image",
                  str(first), "--camera-height-mm", str(CAMERA_HEIGHT_MM))
        with served(tmp_path, data, "--db", str(db), "--new", "sekigahara", "--set", "club",
                    "--camera", f"folder:{frames}", "--reader", device,
                    "--reader-protocol", "rdm6300") as (_child, port):
            how = [_play(table, shadow, action, port) for action in script]
            game_id = view(port)["game_id"]
    record = Store(db).load(game_id)
    assert record.header.kit.id == club.kit_id == "sekigahara_set_club"
    assert [e.action for e in record.entries] == script  # the simulator's game, read whole
    sources = [e.source for e in record.entries]
    assert sources == [_source(kind) for kind in how], list(zip(how, sources, strict=True))
    assert how.count("card") == 2 and how.count("card+camera") >= 1  # the bids, Mōri (9.3)
    assert how.count("camera") >= 20 and "answered" in how  # draws, moves, recruits; 6.3


def _source(how: str) -> str:
    """What the record names as the source of an action read the way `how` says."""
    return {"camera": "camera", "card": "card_reader", "card+camera": "camera",
            "answered": "tablet", "tablet": "tablet"}[how]


def _play(table: Table, shadow: Game[Any], action: Action, port: int) -> str:
    """One scripted action at the table; how the companion came to record it. Buttons (the
    movement level's confirm, ending a movement) this table has none of: the referee enters
    those actions on the tablet, with the cards played for them."""
    before = shadow.state
    shadow.apply(action)
    inputs = act_out(before, action, shadow.state, table.player.table, table.club.registry)
    done = len(shadow.history)
    if any(isinstance(i, Press) for i in inputs):
        enter(port, action)
        how = "tablet"
    else:
        cards = [i.code.removeprefix("CARD:") for i in inputs if isinstance(i, Scan)]
        for card in cards:
            table.card(card)
        if cards and any(isinstance(i, Seen) for i in inputs):
            # The card is read before the blocks are put down: the reader's serial line
            # and the camera's folder are separate inputs, and nothing the server shows says
            # that a card is read but not yet acted on, so the player waits as a person does.
            time.sleep(0.5)
        for item in inputs:
            if isinstance(item, Seen):
                table.player.show(item)
        how = ("card+camera" if cards else "camera") if any(
            isinstance(i, Seen) for i in inputs) else "card" if cards else "answered"
    seen = wait_for(lambda: _recorded_or_asked(port, done), 90,
                    f"action {done} ({action.text()}) to be read", every=VIEWS_EVERY)
    assert seen["alert"] is None, (action.text(), seen["alert"])
    if seen["actions"] < done:  # several actions fit: the referee's question, answered
        options = seen["question"]["options"]
        assert action.text() in options, (action.text(), options)
        status, answer = call(port, "POST", "/api/answer", body={
            "choice": options.index(action.text())})
        assert status == 200, answer
        how = "answered"
    return how


def _recorded_or_asked(port: int, done: int) -> dict[str, Any] | None:
    seen = view(port)
    if seen["actions"] >= done or seen["question"] is not None or seen["alert"] is not None:
        return seen
    return None


# --- the folder source follows a growing folder -----------------------------------------------

def test_the_folder_source_follows_a_folder_that_grows(tmp_path: Path) -> None:
    """`folder:PATH` on a capture program's folder: the stills there are read in name order,
    then the ones added later, each once; a half-written file is skipped with its name."""
    still = np.full((48, 64, 3), 90, np.uint8)
    cv2.imwrite(str(tmp_path / "frame-0002.jpg"), still)
    cv2.imwrite(str(tmp_path / "frame-0001.png"), still)
    (tmp_path / "notes.txt").write_text("not a frame")
    source = ImageFolder(tmp_path)
    assert source.next_frame() is not None and source.status == "image frame-0001.png"
    assert source.next_frame() is not None and source.status == "image frame-0002.jpg"
    assert source.next_frame() is None and source.status == "no more images"
    cv2.imwrite(str(tmp_path / "frame-0003.jpg"), still)
    (tmp_path / "frame-0004.jpg").write_bytes(b"\xff\xd8 half written")
    cv2.imwrite(str(tmp_path / "frame-0000.jpg"), still)  # older than what was read: not new
    assert source.next_frame() is not None and source.status == "image frame-0003.jpg"
    assert source.next_frame() is None and source.status == "no more images"
    cv2.imwrite(str(tmp_path / "frame-0005.jpg"), still)
    assert source.next_frame() is not None and source.status == "image frame-0005.jpg"
    missing = ImageFolder(tmp_path / "nowhere")
    assert missing.next_frame() is None and "nowhere" in missing.status
