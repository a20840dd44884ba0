"""Real pixels (issue #33): on each of the 26 real photographs of printed 36h11 tags (a robot's
wide-angle camera: straight, oblique, close, far, turned from -70 to +70 degrees), the
companion's reader finds every tag AprilTag 3 finds, and reads no id that is not there."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision.detect import TagDetector
from companion.vision.peer import AprilTag3, read_truth

PHOTOS = Path(__file__).parent / "data" / "real_photos"
TRUTH = read_truth(PHOTOS)  # the project's truth file: every photo of the folder named
READER = TagDetector()


@pytest.fixture(scope="module")
def peer():
    reader = AprilTag3()
    yield reader
    reader.close()


def test_every_photograph_has_its_truth() -> None:
    assert len(TRUTH) == 26 and sum(len(t.tags) for t in TRUTH.values()) == 71


@pytest.mark.parametrize("name", sorted(TRUTH))
def test_the_reader_finds_what_apriltag3_finds_and_no_wrong_id(name: str, peer: AprilTag3
                                                               ) -> None:
    image = cv2.imread(str(PHOTOS / name), cv2.IMREAD_COLOR)
    truth = TRUTH[name]
    reads = {r.id: r.corners for r in READER.detect(image)}
    found = dict(peer.detect(image))
    ours, theirs = set(reads), set(found)
    assert not ours - truth.tags - truth.also, f"wrong ids {ours - truth.tags - truth.also}"
    assert theirs <= ours, f"AprilTag 3 read {sorted(theirs - ours)} which we missed"
    assert len(ours & truth.tags) >= len(theirs & truth.tags)
    for tag in theirs:  # the same corners in the same order (AprilTag 3 lists them the other
        same = np.roll(found[tag][::-1], 2, axis=0)  # way round, from another corner)
        assert np.abs(reads[tag] - same).max() < 4.0, (tag, reads[tag], same)
