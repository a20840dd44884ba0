"""Shogun's card labels (issue #21, "At the table"): every card a table turns over gets a QR
label that reads back to its card through the same pdftoppm + pyzbar path the camera's card
scan uses."""

from __future__ import annotations

import subprocess

from click.testing import CliRunner
from PIL import Image
from pyzbar import pyzbar

from companion.cli import main
from companion.games.shogun.kit import ACTIONS
from companion.games.shogun.labels import ACTION_PREFIX, EVENT_PREFIX, SPECIAL_PREFIX, card_labels
from companion.games.shogun.rules.context import SPECIALS
from companion.inputs.labels import card_code, card_from_code, write_card_labels
from companion.kits import load_kit

KIT = load_kit("shogun")


def test_every_province_card_event_action_and_special_card_has_one_label():
    labels = card_labels(KIT)
    ids = [card for card, _ in labels]
    # transcribed and example provinces, events, actions, the special cards (3.2, issue 36)
    assert len(ids) == len(set(ids)) == 45 + 53 + 12 + 10 + 5
    assert {c.id for c in KIT.cards} <= set(ids)
    assert {f"{EVENT_PREFIX}{e.id}" for e in KIT.events} <= set(ids)
    assert {f"{ACTION_PREFIX}{a}" for a in ACTIONS} <= set(ids)
    assert {f"{SPECIAL_PREFIX}{c}" for c in SPECIALS} <= set(ids)
    words = dict(labels)
    card = KIT.cards[0]
    assert f"rice {card.rice} taxes {card.taxes}" in words[card.id]
    assert words[f"{ACTION_PREFIX}deploy_1"] == "Action - Deploy 1 / move"
    assert words[f"{SPECIAL_PREFIX}six_armies"] == "Special card - 6 armies"


def test_the_sheet_reads_back_to_its_cards(tmp_path):
    pdf = tmp_path / "labels.pdf"
    labels = card_labels(KIT)
    assert write_card_labels(labels, pdf) == 125
    subprocess.run(["pdftoppm", "-r", "300", "-png", str(pdf), str(tmp_path / "page")],
                   check=True)
    codes = set()
    for page in sorted(tmp_path.glob("page*.png")):
        codes |= {s.data.decode() for s in pyzbar.decode(Image.open(page))}
    assert codes == {card_code(card) for card, _ in labels}
    assert {card_from_code(code) for code in codes} == {card for card, _ in labels}


def test_the_label_command_prints_shoguns_sheets(tmp_path):
    out = tmp_path / "shogun.pdf"
    result = CliRunner().invoke(main, ["print-card-labels", "shogun", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "125 labels" in result.output and out.read_bytes().startswith(b"%PDF")
