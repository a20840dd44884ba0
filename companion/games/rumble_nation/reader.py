"""Rumble Nation's table read for the count tracker: soldiers per region and colour, the daimyo
and the white reinforcements, the regions in doubt and the dice in the tray. Reading, counting
and the watch for hands and motion are the counted table's (`vision.counted_table`); what is
Rumble's here is what the tracker calls each piece (`DAIMYO`, `REINFORCEMENT`).
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.vision.counted_table import CountedTableReader
from companion.vision.counting import CountReading

__all__ = ["DAIMYO", "REINFORCEMENT", "RumbleTableReader", "kind_of_daimyo"]

DAIMYO = "daimyo"
"""Kinds the tracker counts: a colour's soldiers under the colour's name, its daimyo (the
calibration's large piece) as `<colour> daimyo`, the white reinforcements (its neutral piece)
as `reinforcement`."""
REINFORCEMENT = "reinforcement"


def kind_of_daimyo(colour: str) -> str:
    return f"{colour} {DAIMYO}"


class RumbleTableReader(CountedTableReader):
    """Frames to `FrameCounts`s (the table's `reader` part), in Rumble's kinds."""

    @property
    def tells_daimyo(self) -> bool:
        """Whether a daimyo is counted apart from its colour's soldiers (the calibration
        describes the large piece)."""
        return self.board.large is not None

    def kinds(self, reading: CountReading) -> dict[str, dict[str, int]]:
        """The reader's counts in the tracker's kinds (see DAIMYO)."""
        return _kinds(reading.counts, reading.large, reading.neutral)


def _kinds(counts: Mapping[str, Mapping[str, int]], large: Mapping[str, Mapping[str, int]],
           neutral: Mapping[str, int]) -> dict[str, dict[str, int]]:
    kinds = {region: dict(colours) for region, colours in counts.items()}
    for region, colours in large.items():
        for colour, n in colours.items():
            kinds.setdefault(region, {})[kind_of_daimyo(colour)] = n
    for region, n in neutral.items():
        kinds.setdefault(region, {})[REINFORCEMENT] = n
    return kinds
