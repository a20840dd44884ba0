"""No bad input kills a reader (issue 16, inputs): malformed RFID frames and over-long lines
through real pseudo-terminals, floods that must not grow memory, wedge and camera codes that
cannot be card codes, registration lines with bad tags or bytes, and kits that would take
minutes (huge counts, YAML alias bombs, huge files) refused at once with file and line."""

from __future__ import annotations

import io
import os
import threading
import time
from pathlib import Path

import pytest
import segno
from click.testing import CliRunner
from evdev import ecodes
from helpers import wait_for
from PIL import Image

from companion.cli import main
from companion.games.sekigahara.physical_set import RegistrationError, Registry
from companion.inputs.barcode import CardArea, read_card
from companion.inputs.events import CardScanned, InputEvent, ReadProblem
from companion.inputs.scanner import WedgeParser
from companion.inputs.serial_readers import LineParser, Rdm6300Parser, SerialReader
from companion.kits import KitError, load_kit
from companion.kits.loader import shipped_folder

MAX_CODE_LENGTH = 64  # LineParser's max_length, and every reader's longest code
MAX_ALIASES = 64  # the bounds docs/kits.md names
MAX_NODES = 100_000
MAX_FILE_BYTES = 1_048_576

# --- helpers ------------------------------------------------------------------------------


def rdm_frame(code: str, checksum: int | None = None) -> bytes:
    """An RDM6300 frame for a ten-character code (its checksum computed unless given)."""
    xor = 0
    for byte in bytes.fromhex(code.replace(" ", "0")):
        xor ^= byte
    return b"\x02" + code.encode("latin-1") \
        + f"{xor if checksum is None else checksum:02X}".encode() + b"\x03"


class Pty:
    """A real pseudo-terminal: bytes written to the master arrive through pyserial at the slave."""

    def __init__(self) -> None:
        self.master, slave = os.openpty()
        self.port = os.ttyname(slave)
        os.close(slave)

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self.master, view):]

    def close(self) -> None:
        os.close(self.master)


class Running:
    """A SerialReader on its own thread, reading a real pty, collecting what it emits."""

    def __init__(self, parser: Rdm6300Parser | LineParser) -> None:
        self.pty = Pty()
        self.seen: list[InputEvent] = []
        self.reader = SerialReader(self.pty.port, parser, self.seen.append, backoff=(0.05, 0.2))
        self.thread = threading.Thread(target=self.reader.run, daemon=True)
        self.thread.start()
        wait_for(lambda: self.reader.status == "connected")

    def problems(self) -> list[ReadProblem]:
        return [e for e in self.seen if isinstance(e, ReadProblem)]

    def scans(self) -> list[CardScanned]:
        return [e for e in self.seen if isinstance(e, CardScanned)]

    def close(self) -> None:
        self.reader.stop()
        self.thread.join(timeout=2)
        self.pty.close()


@pytest.fixture
def running():
    started: list[Running] = []

    def start(parser: Rdm6300Parser | LineParser) -> Running:
        started.append(Running(parser))
        return started[-1]

    yield start
    for each in started:
        each.close()


# --- 1. RFID frames: every malformed class through a real pty --------------------------------

GOOD = "0A00C2B3D4"
MALFORMED: list[tuple[str, bytes, str]] = [
    ("non-hex characters", b"\x02ZZZZZZZZZZZZ\x03", "not hexadecimal"),
    ("spaces inside", b"\x02" + b"12 3456 78" + b"08" + b"\x03",
     "not hexadecimal: '12 3456 7808'"),
    ("spaces at the ends", rdm_frame(" 12345678 "), "not hexadecimal: ' 12345678 "),
    ("bad checksum", rdm_frame("0B11223344", checksum=0x00), "checksum"),
    ("missing end byte", rdm_frame("0B11223344")[:-1] + b"X", "end byte"),
    ("stray bytes", b"\xff\x13noise", "stray byte"),
    ("all-zero id", rdm_frame("0000000000"), "phantom"),
    ("lowercase hex", rdm_frame("0a00c2b3d4"), "lowercase"),
    ("very long garbage", b"\xaa" * 50_000 + bytes(range(256)) * 40, "skipped"),
    ("non-ASCII in a frame", b"\x02" + "é".encode() * 6 + b"\x03", "not hexadecimal: '\ufffd"),
    ("non-ASCII outside a frame", "カード".encode() * 50, "stray byte"),
]


def test_every_malformed_rfid_frame_is_reported_and_the_reader_reads_on(running):
    """Each bad input gives a problem and never a scan; the thread survives them all. A good
    card follows each one: once it is read, everything before it was judged."""
    run = running(Rdm6300Parser(hold_gap=0.0))
    for count, (name, data, words) in enumerate(MALFORMED, start=1):
        before = len(run.problems())
        run.pty.write(data)
        wait_for(lambda before=before, words=words: any(
            words in p.message for p in run.problems()[before:]))
        run.pty.write(rdm_frame(GOOD))
        wait_for(lambda count=count: len(run.scans()) >= count, what=name)
        assert [scan.code for scan in run.scans()] == [GOOD] * count, name
        assert run.thread.is_alive() and run.reader.status == "connected", name
    before, read = len(run.problems()), len(run.scans())
    run.pty.write(rdm_frame(GOOD)[:7] + rdm_frame("0B11223344"))  # truncated, then a good one
    wait_for(lambda: len(run.scans()) == read + 1)
    assert run.scans()[-1].code == "0B11223344"
    assert any("end byte" in p.message for p in run.problems()[before:])
    run.pty.write(rdm_frame(GOOD))
    wait_for(lambda: len(run.scans()) == read + 2)
    assert run.scans()[-1].code == GOOD
    assert run.thread.is_alive() and run.reader.status == "connected"


def test_a_parse_error_in_one_chunk_is_reported_and_the_reader_reads_on(running):
    """Whatever goes wrong parsing one chunk costs that chunk only (here the parser's clock,
    a dependency it is given, fails once)."""
    calls = {"n": 0}

    def clock_failing_once() -> float:
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("clock unavailable")
        return time.monotonic()

    run = running(Rdm6300Parser(clock=clock_failing_once))
    run.pty.write(rdm_frame(GOOD))
    wait_for(lambda: len(run.problems()) == 1)
    assert "could not be read" in run.problems()[0].message
    assert "clock unavailable" in run.problems()[0].message
    run.pty.write(rdm_frame("0B11223344"))
    wait_for(lambda: len(run.scans()) == 1)
    assert run.scans()[0].code == "0B11223344"
    assert run.reader.status == "connected"


# --- 2. lines and frames that must be refused whole; bounded memory ---------------------------


def test_an_rfid_frame_with_spaces_never_yields_a_code():
    parser = Rdm6300Parser()
    for frame in (rdm_frame(" 12345678 "), b"\x02" + b"12 3456 78" + b"08" + b"\x03"):
        events = list(parser.feed(frame))
        assert not any(isinstance(e, CardScanned) for e in events)
        assert any(isinstance(e, ReadProblem) and "not hexadecimal" in e.message
                   for e in events)


def test_a_10000_character_line_is_refused_whole_over_a_pty(running):
    run = running(LineParser(reader="serial"))
    run.pty.write(b"A" * 10_000 + b"\n")
    wait_for(lambda: any("a line of 10000 characters is too long for a card code" in p.message
                         for p in run.problems()))
    run.pty.write(b"CARD:T-ii\n")
    wait_for(lambda: len(run.scans()) == 1)
    assert [s.code for s in run.scans()] == ["CARD:T-ii"]  # never the line's tail


def test_a_line_one_character_too_long_is_refused_in_one_chunk_or_many():
    line = b"B" * (MAX_CODE_LENGTH + 1) + b"\r\n"
    for size in (1, 7, 64, len(line)):
        parser = LineParser(terminator=b"\r\n")
        events = [e for start in range(0, len(line), size)
                  for e in parser.feed(line[start:start + size])]
        assert [type(e) for e in events] == [ReadProblem], size
        assert f"a line of {MAX_CODE_LENGTH + 1} characters" in events[0].message


def test_the_repeat_map_stays_small_after_a_flood_of_30000_cards():
    for step in (0.0, 0.001):  # all at once, and at the line's real pace
        now = [0.0]

        def clock(now=now, step=step) -> float:
            now[0] += step
            return now[0]

        parser = Rdm6300Parser(clock=clock)
        scans = 0
        for n in range(30_000):
            scans += sum(isinstance(e, CardScanned)
                         for e in parser.feed(rdm_frame(f"{0x0A00000000 + n:010X}")))
        assert scans == 30_000
        assert len(parser._last) <= 256, step
    held = Rdm6300Parser(clock=lambda: 5.0)  # a card held still counts once
    assert len([e for _ in range(3) for e in held.feed(rdm_frame(GOOD))]) == 1


def test_streams_without_line_ends_or_frame_starts_keep_memory_bounded():
    megabytes = 4
    chunk = b"x" * 65_536
    for parser in (LineParser(), Rdm6300Parser()):
        events = []
        for _ in range(megabytes * 16):
            events += parser.feed(chunk)
            assert len(parser._buffer) <= 128
        events += parser.feed(b"")  # the line goes quiet
        assert 1 <= len(events) <= 3, (parser, len(events))
        assert all(isinstance(e, ReadProblem) for e in events)
    starts = Rdm6300Parser()  # frame starts without frame ends, megabytes of them
    events = [e for _ in range(64) for e in starts.feed(b"\x02" * 65_536)]
    assert len(starts._buffer) <= 128 and len(events) <= 3


def test_a_line_reader_without_a_line_end_is_refused():
    with pytest.raises(ValueError, match="line end"):
        LineParser(terminator=b"")


# --- 3. keyboard wedges and the camera ------------------------------------------------------


def keys(text: str) -> list[tuple[int, int, int]]:
    """A US wedge typing `text` (letters, digits, '-' and ':') and Enter."""
    events = []
    for char in text:
        name = {"-": "MINUS", ":": "SEMICOLON"}.get(char, char.upper())
        shift = char.isupper() or char == ":"
        code = getattr(ecodes, f"KEY_{name}")
        if shift:
            events.append((ecodes.EV_KEY, ecodes.KEY_LEFTSHIFT, 1))
        events += [(ecodes.EV_KEY, code, 1), (ecodes.EV_KEY, code, 0)]
        if shift:
            events.append((ecodes.EV_KEY, ecodes.KEY_LEFTSHIFT, 0))
    return [*events, (ecodes.EV_KEY, ecodes.KEY_ENTER, 1), (ecodes.EV_KEY, ecodes.KEY_ENTER, 0)]


def test_an_over_long_wedge_code_is_refused_whole_and_memory_stays_bounded():
    parser = WedgeParser()
    events = list(parser.feed(keys("7" * 10_000)))
    assert [type(e) for e in events] == [ReadProblem]
    assert "a code of 10000 characters is too long for a card code" in events[0].message
    assert len(parser._typed) <= MAX_CODE_LENGTH
    (scan,) = parser.feed(keys("CARD:T-ii"))
    assert scan.code == "CARD:T-ii"


def test_a_wedge_code_of_spaces_or_unprintable_characters_is_refused():
    space = [(ecodes.EV_KEY, ecodes.KEY_SPACE, 1), (ecodes.EV_KEY, ecodes.KEY_SPACE, 0)] * 3
    enter = [(ecodes.EV_KEY, ecodes.KEY_ENTER, 1)]
    events = list(WedgeParser().feed(space + enter))
    assert not any(isinstance(e, CardScanned) for e in events)
    (scan,) = WedgeParser().feed(space[:2] + keys("CARD:T-ii")[:-2] + space[:2] + enter)
    assert scan.code == "CARD:T-ii"  # spaces around a code are not part of it


def label(text: str | bytes) -> Image.Image:
    out = io.BytesIO()
    segno.make_qr(text, error="m").save(out, kind="png", scale=6, border=4)
    out.seek(0)
    frame = Image.new("RGB", (800, 600), (90, 120, 80))
    frame.paste(Image.open(out).convert("RGB"), (100, 100))
    return frame


@pytest.mark.parametrize("text", ["CARD:" + "x" * 300, "CARD:\x07bell\x1b[31m"])
def test_a_camera_code_that_cannot_be_a_card_code_is_not_a_scan(text):
    assert read_card(label(text), CardArea(0, 0, 800, 600)) is None
    scan = read_card(label("CARD:T-ii"), CardArea(0, 0, 800, 600))
    assert scan is not None and scan.code == "CARD:T-ii"


# --- 4. register: block tags and undecodable bytes -------------------------------------------


def register(tmp_path: Path, data: bytes):
    return CliRunner().invoke(main, ["register", "club", "--dir", str(tmp_path)], input=data)


def test_tags_are_the_cameras_dictionary():
    import cv2

    from companion.games.sekigahara.physical_set import tag_range
    from companion.vision.detect import DetectorConfig

    bank = cv2.aruco.getPredefinedDictionary(DetectorConfig().dictionary)
    assert tag_range() == range(len(bank.bytesList)) == range(587)


@pytest.mark.parametrize("tag", ["abc", "-5", "99999999999999999999", "587", "1.5", "٣",
                                 "1_0", "+7", "9" * 500])
def test_register_refuses_a_tag_that_is_not_a_whole_number_in_the_dictionary(tmp_path, tag):
    result = register(tmp_path, f"block 101 tokugawa maeda 2\nblock {tag} tokugawa maeda 2\n"
                      .encode())
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"line 2: block tag {tag[:24]!r}"[:-1] in result.output, result.output
    assert "a tag is a whole number from 0 to 586" in result.output
    assert "Traceback" not in result.output
    registry = Registry.open(tmp_path / "club.json", "sekigahara", "club")
    assert list(registry.blocks) == ["101"]


def test_a_tag_with_leading_zeros_is_the_same_tag(tmp_path):
    registry = Registry.open(tmp_path / "club.json", "sekigahara", "club")
    registry.add("block 0101 tokugawa maeda 2")
    assert list(registry.blocks) == ["101"]
    with pytest.raises(RegistrationError, match="already registered"):
        registry.add("block 101 tokugawa maeda 2")
    with pytest.raises(RegistrationError, match="a tag is a whole number from 0 to 586"):
        registry.add_block("9" * 5000, "tokugawa maeda 2")  # past int()'s own digit limit
    assert list(registry.blocks) == ["101"]


def test_register_skips_an_undecodable_line_and_takes_every_other(tmp_path):
    data = (b"block 101 tokugawa maeda 2\n"
            b"block 1\xff2 tokugawa maeda 2\n"
            b"block 103 tokugawa maeda 2\n"
            b"card 0A00C2B3D4 tokugawa maeda plain\n")
    result = register(tmp_path, data)
    assert result.exit_code == 1  # four pieces are not a set: the usual report
    assert "line 2: not UTF-8 text (byte 0xff at column 8): skipped" in result.output
    assert "Traceback" not in result.output and "codec" not in result.output
    registry = Registry.open(tmp_path / "club.json", "sekigahara", "club")
    assert sorted(registry.blocks) == ["101", "103"] and list(registry.cards) == ["0A00C2B3D4"]


def test_register_skips_an_over_long_line(tmp_path):
    data = b"block 101 tokugawa maeda 2\n" + b"x" * 1_000_000 + b"\nblock 103 tokugawa maeda 2\n"
    result = register(tmp_path, data)
    assert "line 2: a line of 1000000 characters is too long for an entry" in result.output
    registry = Registry.open(tmp_path / "club.json", "sekigahara", "club")
    assert sorted(registry.blocks) == ["101", "103"]


# --- 5. kit check: counts, alias bombs and huge files fail fast --------------------------------


def kit_copy(tmp_path: Path, kit: str = "sekigahara") -> Path:
    import shutil

    folder = tmp_path / kit
    shutil.copytree(shipped_folder(kit), folder)
    return folder


def edit(folder: Path, file: str, old: str, new: str) -> int:
    """Replace text found once in `file`; returns the line it is on (1-based)."""
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    return text[:text.index(old)].count("\n") + 1


def check_fast(folder: Path) -> str:
    """`companion kit check` on `folder`: must fail, and in well under a second."""
    start = time.perf_counter()
    result = CliRunner().invoke(main, ["kit", "check", str(folder)])
    spent = time.perf_counter() - start
    assert result.exit_code == 1, result.output
    assert spent < 1.0, f"kit check took {spent:.1f} s"
    return result.output


@pytest.mark.parametrize(("file", "old", "bound"), [
    ("cards.yaml", "{clan: fukushima, kind: double,  bid: 6, count: 1}", "at most 55"),
    ("blocks.yaml", "count: 1", "at most 48"),
    ("map.yaml", "{side: ishida, kind: square, count: 6}", "at most 48"),
    ("map.yaml", "weeks: 7", "at most 1000"),
])
def test_a_huge_count_is_refused_at_once_naming_file_line_and_bound(tmp_path, file, old, bound):
    folder = kit_copy(tmp_path)
    path = folder / file
    text = path.read_text(encoding="utf-8")
    index = text.index(old)
    line = text[:index].count("\n") + 1
    huge = old.replace("count: 1", "count: 100000000").replace("count: 6", "count: 100000000") \
        .replace("weeks: 7", "weeks: 100000000")
    path.write_text(text[:index] + huge + text[index + len(old):], encoding="utf-8")
    output = check_fast(folder)
    assert f"{file}:{line}:" in output and bound in output and "100000000" in output


def test_a_huge_rumble_nation_count_is_refused(tmp_path):
    folder = kit_copy(tmp_path, "rumble_nation")
    line = edit(folder, "components.yaml", "soldiers_per_player: 18",
                "soldiers_per_player: 100000000")
    output = check_fast(folder)
    assert f"components.yaml:{line}:" in output and "at most 1000" in output


BILLION_LAUGHS = """\
a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]
"""


@pytest.mark.parametrize("file", ["kit.yaml", "map.yaml", "cards.yaml"])
def test_a_yaml_alias_bomb_is_refused_at_once(tmp_path, file):
    folder = kit_copy(tmp_path)
    path = folder / file
    path.write_text(path.read_text(encoding="utf-8") + BILLION_LAUGHS, encoding="utf-8")
    first = len(path.read_text(encoding="utf-8").splitlines()) - 9 + 1
    output = check_fast(folder)
    assert f"more than {MAX_NODES} values once aliases are expanded" in output
    line = int(output.split(f"{file}:")[1].split(":")[0])
    assert first <= line < first + 9


def test_more_aliases_than_a_kit_needs_are_refused_at_the_one_too_many(tmp_path):
    folder = kit_copy(tmp_path, "skirmish")
    text = (folder / "map.yaml").read_text()
    lines = ["one: &one x"] + [f"use_{n}: *one" for n in range(MAX_ALIASES + 1)]
    (folder / "map.yaml").write_text(text + "\n".join(lines) + "\n")
    output = check_fast(folder)
    line = len(text.splitlines()) + 1 + MAX_ALIASES + 1  # the alias past the bound
    assert f"map.yaml:{line}: more than {MAX_ALIASES} aliases" in output


def test_a_wide_alias_expansion_below_the_alias_limit_is_refused(tmp_path):
    """Few aliases, each repeating a large list: the expanded size is what is bounded."""
    folder = kit_copy(tmp_path, "skirmish")
    big = "[" + ", ".join(["x"] * 5_000) + "]"
    extra = f"big: &big {big}\nmore: [{', '.join(['*big'] * 50)}]\n"
    (folder / "map.yaml").write_text((folder / "map.yaml").read_text() + extra)
    output = check_fast(folder)
    assert f"more than {MAX_NODES} values" in output and "map.yaml:" in output


def test_a_self_referring_alias_is_refused(tmp_path):
    folder = kit_copy(tmp_path, "skirmish")
    (folder / "map.yaml").write_text((folder / "map.yaml").read_text() + "loop: &loop [*loop]\n")
    output = check_fast(folder)
    assert "map.yaml:" in output and "refers to itself" in output


@pytest.mark.parametrize("depth", [5_000, 200_000])  # 200,000: libyaml alone would crash
def test_deeply_nested_yaml_is_refused(tmp_path, depth):
    folder = kit_copy(tmp_path, "skirmish")
    (folder / "map.yaml").write_text((folder / "map.yaml").read_text()
                                     + "deep: " + "[" * depth + "]" * depth + "\n")
    output = check_fast(folder)
    assert "map.yaml:" in output and "nested deeper than" in output


def test_a_5000_digit_count_is_refused_with_its_line_not_a_traceback(tmp_path):
    folder = kit_copy(tmp_path)
    line = edit(folder, "cards.yaml", "{clan: fukushima, kind: double,  bid: 6, count: 1}",
                "{clan: fukushima, kind: double,  bid: 6, count: " + "9" * 5000 + "}")
    output = check_fast(folder)
    assert f"cards.yaml:{line}: a number of 5000 characters" in output


def test_a_huge_kit_file_is_refused_before_it_is_read(tmp_path):
    folder = kit_copy(tmp_path, "skirmish")
    with (folder / "armies.yaml").open("a", encoding="utf-8") as out:
        out.write("# " + "x" * MAX_FILE_BYTES + "\n")
    output = check_fast(folder)
    assert "armies.yaml:" in output and f"at most {MAX_FILE_BYTES} bytes" in output


def test_the_shipped_kits_are_within_every_bound():
    for kit in ("sekigahara", "rumble_nation", "skirmish"):
        assert load_kit(shipped_folder(kit)) is not None


def test_a_kit_error_from_the_loader_carries_the_bound(tmp_path):
    folder = kit_copy(tmp_path)
    edit(folder, "cards.yaml", "{clan: fukushima, kind: double,  bid: 6, count: 1}",
         "{clan: fukushima, kind: double,  bid: 6, count: 56}")
    with pytest.raises(KitError, match="at most 55"):
        load_kit(folder)
