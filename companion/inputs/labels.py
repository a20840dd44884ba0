"""Printable card labels: one QR code per physical card, at exact size, with cut marks.

Each label carries the card's code (`CARD:<card id>`, what the camera and scanners read) and
its printed identity in words (which the game's folder writes: `labels.card_labels`), so a
person can check a label against its card.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import segno

if TYPE_CHECKING:  # fpdf takes 0.3 s to import: only the commands that print load it
    from fpdf import FPDF

__all__ = ["CODE_PREFIX", "card_code", "card_from_code", "write_card_labels"]

CODE_PREFIX = "CARD:"


def card_code(card_id: str) -> str:
    return f"{CODE_PREFIX}{card_id}"


def card_from_code(code: str) -> str | None:
    """The card id a printed label names, or None for another kind of code (an RFID UID)."""
    return code[len(CODE_PREFIX):] if code.startswith(CODE_PREFIX) else None


def write_card_labels(cards: Sequence[tuple[str, str]], path: Path, *, width_mm: float = 50,
                      height_mm: float = 20, margin_mm: float = 10) -> int:
    """Write a PDF of A4 sheets, one label per (card id, identity in words); returns the
    number of labels."""
    from fpdf import FPDF

    pdf = FPDF(unit="mm", format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_font("helvetica", size=7)
    columns = int((210 - 2 * margin_mm) // width_mm)
    rows = int((297 - 2 * margin_mm) // height_mm)
    for index, card in enumerate(cards):
        if index % (columns * rows) == 0:
            pdf.add_page()
        slot = index % (columns * rows)
        x = margin_mm + (slot % columns) * width_mm
        y = margin_mm + (slot // columns) * height_mm
        _label(pdf, card, x, y, width_mm, height_mm)
    pdf.output(str(path))
    return len(cards)


def _label(pdf: FPDF, card: tuple[str, str], x: float, y: float, w: float, h: float) -> None:
    png = io.BytesIO()
    # micro=False: segno picks a Micro QR for a short code, which pyzbar (and most phone
    # scanners) cannot read; a card id as short as `kita_1` would be unreadable.
    segno.make(card_code(card[0]), error="m", micro=False).save(png, kind="png", scale=8, border=2)
    png.seek(0)
    size = h - 2
    pdf.image(png, x=x + 1, y=y + 1, w=size, h=size)
    pdf.set_xy(x + size + 2, y + 3)
    pdf.multi_cell(w - size - 3, 3.2, f"{card[0]}\n{card[1]}")
    mark = 1.5  # cut marks at the corners, outside nothing printed
    for cx, cy in ((x, y), (x + w, y), (x, y + h), (x + w, y + h)):
        pdf.line(cx - mark, cy, cx + mark, cy)
        pdf.line(cx, cy - mark, cx, cy + mark)
