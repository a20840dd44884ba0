"""The printable table mat: the board's corner markers and the off-map areas at exact size.

The camera finds the board by its four corner markers and reads the areas beside the map (the
eliminated blocks, the deployment area, the card scan area, a dice tray) where `board.yaml`
puts them. The mat prints all of it at 1:1 around an outline of the map, tiled over A4 pages
with overlap marks, each page saying "print at 100%" and carrying a 100 mm bar to check that it
was. Cut the pages on their marks, tape them together, lay the map inside its outline.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import cv2

from companion.vision.geometry import Geometry

if TYPE_CHECKING:  # fpdf takes 0.3 s to import: only the commands that print load it
    from fpdf import FPDF

__all__ = ["MatLayout", "layout", "write_mat"]

PAGE = (297.0, 210.0)
"""A4 landscape, mm."""
MARGIN = 12.0
"""What printers cannot print at the page's edge, mm: the tiles overlap by it."""


@dataclass(frozen=True)
class MatLayout:
    """The mat's extent in board millimetres and the pages it is tiled over."""

    left: float
    top: float
    width: float
    height: float
    columns: int
    rows: int

    pages: int = 0
    """Pages printed (tiles wholly inside the map are left out)."""


def layout(geometry: Geometry) -> MatLayout:
    """The mat around the map, its markers and its areas, tiled onto A4 pages."""
    left, top, right, bottom = geometry.extent
    width, height = right - left, bottom - top
    usable_w, usable_h = PAGE[0] - 2 * MARGIN, PAGE[1] - 2 * MARGIN
    columns, rows = math.ceil(width / usable_w), math.ceil(height / usable_h)
    plain = MatLayout(left, top, width, height, columns, rows)
    return MatLayout(left, top, width, height, columns, rows, len(tiles(geometry, plain)))


def tiles(geometry: Geometry, mat: MatLayout) -> list[tuple[int, int]]:
    """(row, column) of the pages to print: every tile but those wholly inside the map, which
    would carry nothing (the map lies on them)."""
    usable_w, usable_h = PAGE[0] - 2 * MARGIN, PAGE[1] - 2 * MARGIN
    board_w, board_h = geometry.board_mm
    kept = []
    for row in range(mat.rows):
        for column in range(mat.columns):
            x0 = mat.left + column * usable_w
            y0 = mat.top + row * usable_h
            inside = x0 > 0 and y0 > 0 and x0 + usable_w < board_w and y0 + usable_h < board_h
            if not inside:
                kept.append((row, column))
    return kept


def off_map_areas(geometry: Geometry) -> list[tuple[str, tuple[float, float, float, float]]]:
    """The areas that lie beside the map (those on it are printed on the map itself)."""
    board_w, board_h = geometry.board_mm
    found = []
    for zone in geometry.zones:
        if zone.rect is None:
            continue
        x, y, w, h = zone.rect
        if x < 0 or y < 0 or x + w > board_w or y + h > board_h:
            found.append((zone.name, zone.rect))
    return found


def write_mat(path: Path, geometry: Geometry, title: str) -> MatLayout:
    """Write the mat's PDF; returns its layout (pages, size)."""
    mat = layout(geometry)
    from fpdf import FPDF

    pdf = FPDF(unit="mm", format="A4", orientation="L")
    pdf.set_auto_page_break(False)
    bank = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h11)
    usable_w, usable_h = PAGE[0] - 2 * MARGIN, PAGE[1] - 2 * MARGIN
    for row, column in tiles(geometry, mat):
        pdf.add_page()
        # Board mm -> page mm: this tile's corner of the mat sits at the margin.
        ox = MARGIN - (mat.left + column * usable_w)
        oy = MARGIN - (mat.top + row * usable_h)
        with pdf.rect_clip(MARGIN, MARGIN, usable_w, usable_h):
            _draw(pdf, geometry, bank, ox, oy)
        _page_furniture(pdf, title, row, column, mat)
    pdf.output(str(path))
    return mat


def _draw(pdf: FPDF, geometry: Geometry, bank: cv2.aruco.Dictionary, ox: float,
          oy: float) -> None:
    board_w, board_h = geometry.board_mm
    pdf.set_draw_color(90, 90, 90)
    pdf.set_dash_pattern(dash=4, gap=3)
    pdf.rect(ox, oy, board_w, board_h)  # the map goes here
    pdf.set_dash_pattern()
    pdf.set_font("helvetica", size=14)
    pdf.set_text_color(120, 120, 120)
    for y in (12.0, board_h - 8.0):  # inside the outline's top and bottom edges
        _centred(pdf, ox + board_w / 2, oy + y, "the map goes here: its edges on this line")
    pdf.set_text_color(0, 0, 0)
    size = geometry.corner_size_mm
    for tag, (cx, cy) in sorted(geometry.corners.items()):
        image = cv2.aruco.generateImageMarker(bank, tag, 400)
        ok, png = cv2.imencode(".png", image)
        assert ok
        pdf.image(io.BytesIO(png.tobytes()), x=ox + cx - size / 2, y=oy + cy - size / 2,
                  w=size, h=size)
    pdf.set_font("helvetica", size=11)
    for name, (x, y, w, h) in off_map_areas(geometry):
        pdf.set_line_width(0.6)
        pdf.rect(ox + x, oy + y, w, h)
        pdf.set_line_width(0.2)
        _centred(pdf, ox + x + w / 2, oy + y + 7, name)


def _centred(pdf: FPDF, x: float, y: float, text: str) -> None:
    """Text centred on x at baseline y, at absolute page coordinates (fpdf's `set_xy` takes a
    negative x from the page's right edge: a tile left of the text would print it)."""
    pdf.text(x - pdf.get_string_width(text) / 2, y, text)


def _page_furniture(pdf: FPDF, title: str, row: int, column: int, mat: MatLayout) -> None:
    """The page's name in the mat, how to print it, a 100 mm bar, and the cut marks."""
    pdf.set_font("helvetica", size=7)
    pdf.set_xy(MARGIN, 3)
    pdf.cell(0, 4, f"{title} table mat, row {row + 1} of {mat.rows}, column {column + 1} of "
                   f"{mat.columns} ({mat.pages} pages). PRINT AT 100% (no 'fit to page'): "
                   "the bar below measures 100 mm. Cut on the marks, overlap, tape.")
    pdf.set_line_width(0.5)
    pdf.line(MARGIN, PAGE[1] - 6, MARGIN + 100, PAGE[1] - 6)
    for x in (MARGIN, MARGIN + 100):
        pdf.line(x, PAGE[1] - 8, x, PAGE[1] - 4)
    pdf.set_xy(MARGIN + 102, PAGE[1] - 8)
    pdf.cell(20, 4, "100 mm")
    pdf.set_line_width(0.2)
    for x in (MARGIN, PAGE[0] - MARGIN):
        for y in (MARGIN, PAGE[1] - MARGIN):
            pdf.line(x - 4, y, x + 4, y)
            pdf.line(x, y - 4, x, y + 4)
