"""The calibration overlay names each zone as a referee knows it (issue 32): the zone's name,
folded to what OpenCV's font can draw, never its raw id ("card_scan", "mori_box")."""

from __future__ import annotations

from companion.games import all_games
from companion.vision.overlay import _ascii


def test_zone_labels_are_names_drawable_by_the_font_never_raw_ids():
    assert _ascii("Yoshida-Kōriyama") == "Yoshida-Koriyama"
    assert _ascii("Ōsaka") == "Osaka"
    for name, spec in all_games().items():
        if not spec.has("board"):
            continue
        for zone in spec.board_geometry().zones:
            label = _ascii(zone.name)
            assert label and label.isascii(), (name, zone.id)
            assert "_" not in label, (name, zone.id, label)  # an id, not a name
