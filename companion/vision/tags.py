"""Printable tag sheets at exact physical size, with cut marks; ids only in the margin."""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import cv2

from companion.vision.geometry import Board

if TYPE_CHECKING:  # fpdf takes 0.3 s to import: only the commands that print load it
    from fpdf import FPDF

__all__ = ["FULL_HD", "FULL_HD_ZONE_RECALL", "SIZE_FOR_1080P", "camera_note", "camera_warning",
           "resolution_warning",
           "write_tag_list", "write_tag_sheet"]

SIZE_FOR_1080P = 22.0
"""The smallest tag a 1080p camera framing the whole table reads (0.998 of the pieces in their
zone: `FULL_HD_ZONE_RECALL`, docs/vision.md); 14 mm tags need 12 MP stills."""


def camera_note(size_mm: float) -> str:
    """The camera these tags want, printed on every sheet (issue #19: the recommended
    configuration on the tag sheet)."""
    if size_mm >= SIZE_FOR_1080P:
        return (f"{size_mm:g} mm tags: print at 100 %. A 1080p camera framing the whole table "
                "reads them, and so do 12 MP stills.")
    return (f"{size_mm:g} mm tags: print at 100 %. Read from 12 MP stills (the Pi camera's "
            f"default, companion serve --camera pi); a 1080p camera needs "
            f"{SIZE_FOR_1080P:g} mm tags (companion print-tags --size {SIZE_FOR_1080P:g}).")


FULL_HD = (1920, 1080)

FULL_HD_ZONE_RECALL = {14.0: 0.859, 22.0: 0.998}
"""Zone recall measured at 1080p with the whole table in view, by tag size (mm): Sekigahara's
table, 20 frames with every perturbation of the corpus (`companion bench vision`'s 1080p
frames; docs/vision.md, Honest 1080p)."""


RESOLUTION_WARNING = ("A {width}x{height} camera with {tag} mm tags: a tag is about {px} px "
                      "wide, too few to read every piece (at 1080p with {measured} mm tags "
                      "{recall}% of the pieces were read in their zone). Print {size} mm tags "
                      "(companion print-tags --size {size}) or use a 12 MP camera.")
"""The set-up's warning, a message of the set-up page's catalog (companion.web)."""


def resolution_warning(frame_size: tuple[int, int], tag_mm: float,
                       table_mm: tuple[float, float],
                       translate: Callable[[str], str] = str) -> str | None:
    """A sentence for the set-up when this camera's frames cannot read tags this small (issue
    #33, honest 1080p), else None. With the table of `table_mm` filling the frame, a tag gets
    tag_mm * min(width / table width, height / table height) pixels; fewer than a
    `SIZE_FOR_1080P` tag gets at 1080p and the tags are misread: the sentence names the
    resolution, the tag size, the zone recall measured at 1080p for that size (or the nearest
    smaller size measured) and what to do, in the language `translate` gives."""
    def pixels(size: tuple[int, int], mm: float) -> float:
        return mm * min(size[0] / table_mm[0], size[1] / table_mm[1])

    if pixels(frame_size, tag_mm) >= pixels(FULL_HD, SIZE_FOR_1080P) * 0.98:
        return None
    measured = [mm for mm in FULL_HD_ZONE_RECALL if mm <= tag_mm] or [min(FULL_HD_ZONE_RECALL)]
    recall = FULL_HD_ZONE_RECALL[max(measured)]
    return translate(RESOLUTION_WARNING).format(
        width=frame_size[0], height=frame_size[1], tag=f"{tag_mm:g}",
        px=f"{pixels(frame_size, tag_mm):.0f}", measured=f"{max(measured):g}",
        recall=f"{recall * 100:.0f}", size=f"{SIZE_FOR_1080P:g}")


def camera_warning(board: Board, size: tuple[int, int],
                   translate: Callable[[str], str] = str) -> str | None:
    """`resolution_warning` for a camera of frame `size` over this board (its extent, corner
    markers included, filling the frame): what the set-up says, or None."""
    left, top, right, bottom = board.extent
    return resolution_warning(size, board.tag_mm, (right - left, bottom - top), translate)


def _page_note(pdf: FPDF, size_mm: float) -> None:
    """The camera note along the page's foot."""
    pdf.set_font_size(7)
    pdf.set_xy(15, 297 - 12)
    pdf.cell(180, 4, camera_note(size_mm))


def write_tag_sheet(path: Path, ids: Iterable[int], size_mm: float, *, gap_mm: float = 6,
                    dictionary: int = cv2.aruco.DICT_APRILTAG_36h11) -> int:
    """A4 sheets of tags `size_mm` wide (the black square), each with a white quiet zone and
    cut marks; each tag's id is printed in the sheet margin beside its row, never on the tag,
    so a stuck tag tells a person nothing. Returns the number of tags."""
    from fpdf import FPDF

    pdf = FPDF(unit="mm", format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_font("helvetica", size=6)
    quiet = size_mm * 0.25
    cell = size_mm + 2 * quiet + gap_mm
    margin = 18.0
    columns = int((210 - 2 * margin) // cell)
    rows = int((297 - 2 * margin) // cell)
    chosen = list(ids)
    bank = cv2.aruco.getPredefinedDictionary(dictionary)
    for index, tag in enumerate(chosen):
        if index % (columns * rows) == 0:
            pdf.add_page()
            _page_note(pdf, size_mm)
            pdf.set_font_size(6)
        slot = index % (columns * rows)
        x = margin + (slot % columns) * cell + quiet
        y = margin + (slot // columns) * cell + quiet
        image = cv2.aruco.generateImageMarker(bank, tag, 200)
        ok, png = cv2.imencode(".png", image)
        assert ok
        pdf.image(io.BytesIO(png.tobytes()), x=x, y=y, w=size_mm, h=size_mm)
        _cut_marks(pdf, x - quiet, y - quiet, size_mm + 2 * quiet)
        if slot % columns == 0:  # the row's ids, left to right, in the margin
            row = chosen[index:index + columns]
            pdf.set_xy(1, y)
            pdf.multi_cell(margin - 3, 2.4, "\n".join(str(t) for t in row), align="R")
    pdf.output(str(path))
    return len(chosen)


def write_tag_list(path: Path, rows: Sequence[tuple[int, str]], size_mm: float, *,
                   dictionary: int = cv2.aruco.DICT_APRILTAG_36h11) -> int:
    """A4 sheets of a set's tags, each with the piece it goes on written beside it (outside
    its cut marks, so the stuck tag still tells nothing): two columns, in the order given (a
    set's pieces sorted the way they are taken out of the box). Returns the number of tags."""
    from fpdf import FPDF

    pdf = FPDF(unit="mm", format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_font("helvetica", size=8)
    quiet = size_mm * 0.25
    cell = size_mm + 2 * quiet + 4
    margin, column = 15.0, 90.0
    per_column = int((297 - 2 * margin) // cell)
    bank = cv2.aruco.getPredefinedDictionary(dictionary)
    for index, (tag, caption) in enumerate(rows):
        if index % (2 * per_column) == 0:
            pdf.add_page()
            _page_note(pdf, size_mm)
            pdf.set_font_size(8)
        slot = index % (2 * per_column)
        x = margin + (slot // per_column) * column + quiet
        y = margin + (slot % per_column) * cell + quiet
        image = cv2.aruco.generateImageMarker(bank, tag, 200)
        ok, png = cv2.imencode(".png", image)
        assert ok
        pdf.image(io.BytesIO(png.tobytes()), x=x, y=y, w=size_mm, h=size_mm)
        _cut_marks(pdf, x - quiet, y - quiet, size_mm + 2 * quiet)
        pdf.set_xy(x + size_mm + quiet + 3, y + size_mm / 2 - 2)
        pdf.cell(column - size_mm - 2 * quiet - 6, 4, _latin(f"{tag}  {caption}"))
    pdf.output(str(path))
    return len(rows)


def _latin(text: str) -> str:
    """The PDF's built-in font writes Latin-1 only: "Mōri" is written "Mori"."""
    plain = unicodedata.normalize("NFKD", text)
    return "".join(c for c in plain if not unicodedata.combining(c)).encode(
        "latin-1", "replace").decode("latin-1")


def _cut_marks(pdf: FPDF, x: float, y: float, side: float) -> None:
    mark = 1.5
    for cx, cy in ((x, y), (x + side, y), (x, y + side), (x + side, y + side)):
        pdf.line(cx - mark, cy, cx + mark, cy)
        pdf.line(cx, cy - mark, cx, cy + mark)
