"""Card readers on real pseudo-terminals, keyboard wedges, camera barcodes, GPIO on gpiozero's
mock pins, label sheets read back, and the registration of a whole simulated set (6)."""

from __future__ import annotations

import io
import os
import subprocess
import threading
import time
from pathlib import Path

import pytest
import segno
from click.testing import CliRunner
from evdev import ecodes
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from helpers import wait_for
from PIL import Image, ImageDraw, ImageFilter
from pyzbar import pyzbar

from companion.cli import main
from companion.games.sekigahara.labels import card_labels
from companion.games.sekigahara.physical_set import RegistrationError, Registry
from companion.inputs.barcode import CardArea, decode_codes, read_card
from companion.inputs.events import ButtonPressed, CardScanned, ReadProblem
from companion.inputs.gpio import Pins, TableHardware
from companion.inputs.labels import card_code, write_card_labels
from companion.inputs.scanner import WedgeParser, read_device
from companion.inputs.serial_readers import LineParser, Rdm6300Parser, SerialReader
from companion.kits import load_kit

KIT = load_kit("sekigahara")


def rdm_frame(code: str, checksum: int | None = None) -> bytes:
    data = bytes.fromhex(code)
    xor = 0
    for byte in data:
        xor ^= byte
    return b"\x02" + code.encode() + f"{xor if checksum is None else checksum:02X}".encode() \
        + b"\x03"


class Pty:
    """A pseudo-terminal whose slave is reached through a stable path (like a udev symlink)."""

    def __init__(self, link: Path) -> None:
        self.link = link
        self.master, slave = os.openpty()
        self.slave_name = os.ttyname(slave)
        os.close(slave)
        if link.exists() or link.is_symlink():
            link.unlink()
        link.symlink_to(self.slave_name)

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def unplug(self) -> None:
        os.close(self.master)
        self.link.unlink()


def reading(port: Path, parser) -> tuple[SerialReader, list]:
    seen: list = []
    reader = SerialReader(str(port), parser, seen.append, backoff=(0.05, 0.2))
    threading.Thread(target=reader.run, daemon=True).start()
    return reader, seen


# --- RDM6300 frames -----------------------------------------------------------------------


def test_rdm6300_frames_over_a_real_pty_count_a_held_card_once(tmp_path):
    pty = Pty(tmp_path / "rfid")
    reader, seen = reading(pty.link, Rdm6300Parser(hold_gap=0.4))
    wait_for(lambda: reader.status == "connected")
    for _ in range(5):  # the card rests on the antenna: the frame repeats
        pty.write(rdm_frame("0A00C2B3D4"))
        time.sleep(0.05)  # timing under test: repeats closer than hold_gap are one scan ...
    time.sleep(0.6)  # lifted longer than hold_gap ...
    pty.write(rdm_frame("0A00C2B3D4"))  # ... and put back: a new scan
    wait_for(lambda: len(seen) == 2)
    assert [e.code for e in seen] == ["0A00C2B3D4", "0A00C2B3D4"]
    reader.stop()
    pty.unplug()


def test_rdm6300_bad_input_is_reported_and_never_a_scan():
    clock = iter(range(100)).__next__
    parser = Rdm6300Parser(clock=lambda: float(clock()))
    garbage = b"\xff\x13noise" + rdm_frame("0A00C2B3D4", checksum=0x00) \
        + rdm_frame("0000000000") + b"\x02ZZZZZZZZZZZZ\x03"
    events = list(parser.feed(garbage))
    assert not any(isinstance(e, CardScanned) for e in events)
    messages = " | ".join(e.message for e in events if isinstance(e, ReadProblem))
    assert "stray byte" in messages and "checksum" in messages
    assert "phantom" in messages and "not hexadecimal" in messages
    half = rdm_frame("0B11223344")
    assert list(parser.feed(half[:6])) == []  # half a frame waits for the rest
    (scan,) = parser.feed(half[6:])
    assert scan.code == "0B11223344"


def test_a_reader_unplugged_and_replugged_reconnects(tmp_path, caplog):
    caplog.set_level("DEBUG", logger="companion.inputs.serial_readers")  # the retries: quiet
    pty = Pty(tmp_path / "rfid")
    reader, seen = reading(pty.link, Rdm6300Parser())
    wait_for(lambda: reader.status == "connected")
    pty.write(rdm_frame("0A00C2B3D4"))
    wait_for(lambda: len(seen) == 1)
    pty.unplug()
    wait_for(lambda: reader.status.startswith("disconnected"))
    again = Pty(tmp_path / "rfid")  # plugged back in, under the same name
    wait_for(lambda: reader.status == "connected")
    again.write(rdm_frame("0B11223344"))
    wait_for(lambda: len(seen) == 2)
    assert seen[1].code == "0B11223344"
    assert "unavailable" in caplog.text
    reader.stop()
    again.unplug()


def test_line_readers_take_one_code_per_line_over_a_pty(tmp_path):
    pty = Pty(tmp_path / "scanner")
    reader, seen = reading(pty.link, LineParser(reader="serial", terminator=b"\r\n"))
    wait_for(lambda: reader.status == "connected")
    pty.write(b"CARD:T-maeda-special-2\r\n\r\nCARD:I-lo")
    pty.write(b"yalty-1\r\n\xff\xfe\x00garbled\r\n")
    wait_for(lambda: len(seen) == 3)
    assert [e.code for e in seen if isinstance(e, CardScanned)] == [
        "CARD:T-maeda-special-2", "CARD:I-loyalty-1"]
    assert isinstance(seen[2], ReadProblem) and "garbled" in seen[2].message
    reader.stop()
    pty.unplug()


# --- keyboard wedges ------------------------------------------------------------------------


def typed(text: str, layout: str = "us") -> list[tuple[int, int, int]]:
    """The key events a wedge sends for `text` on a keyboard of `layout` (a recording)."""
    keys = {"us": {"-": ("MINUS", False), ":": ("SEMICOLON", True), "_": ("MINUS", True)},
            "de": {"-": ("SLASH", False), ":": ("DOT", True), "y": ("Z", False),
                   "z": ("Y", False)},
            "it": {"-": ("SLASH", False), ":": ("DOT", True)}}[layout]
    events = []
    for char in text:
        name, shift = keys.get(char.lower() if char.isalpha() else char, (char.upper(), False))
        shift = shift or char.isupper()
        code = getattr(ecodes, f"KEY_{name}")
        if shift:
            events.append((ecodes.EV_KEY, ecodes.KEY_LEFTSHIFT, 1))
        events += [(ecodes.EV_KEY, code, 1), (ecodes.EV_SYN, 0, 0), (ecodes.EV_KEY, code, 0)]
        if shift:
            events.append((ecodes.EV_KEY, ecodes.KEY_LEFTSHIFT, 0))
    return [*events, (ecodes.EV_KEY, ecodes.KEY_ENTER, 1), (ecodes.EV_KEY, ecodes.KEY_ENTER, 0)]


@pytest.mark.parametrize("layout", ["us", "de", "it"])
def test_a_wedge_scan_is_read_in_the_scanners_keyboard_layout(layout):
    (scan,) = WedgeParser(layout=layout).feed(typed("CARD:T-maeda-special-2", layout))
    assert scan.code == "CARD:T-maeda-special-2"


def test_a_german_wedge_read_as_us_gets_y_and_z_wrong():
    (scan,) = WedgeParser(layout="us").feed(typed("yz", "de"))
    assert scan.code == "zy"


def test_autorepeat_is_ignored_and_unknown_keys_are_reported():
    events = [(ecodes.EV_KEY, ecodes.KEY_A, 1), (ecodes.EV_KEY, ecodes.KEY_A, 2),
              (ecodes.EV_KEY, ecodes.KEY_F5, 1), (ecodes.EV_KEY, ecodes.KEY_B, 1),
              (ecodes.EV_KEY, ecodes.KEY_ENTER, 1)]
    found = list(WedgeParser().feed(events))
    assert isinstance(found[0], ReadProblem) and "KEY_F5" in found[0].message
    assert found[1] == CardScanned("b", "scanner", found[1].at)


class RecordedDevice:
    """Stands in for the kernel's input device only (no /dev/input here): replays real evdev
    InputEvent objects and records the exclusive grab."""

    def __init__(self, keys):
        from evdev.events import InputEvent

        self.events = [InputEvent(0, n, kind, code, value)
                       for n, (kind, code, value) in enumerate(keys)]
        self.grabbed = []

    def grab(self):
        self.grabbed.append(True)

    def ungrab(self):
        self.grabbed.append(False)

    def read_loop(self):
        yield from self.events


def test_a_scanner_device_is_grabbed_while_read():
    device = RecordedDevice(typed("CARD:I-loyalty-1") + typed("CARD:T-ii"))
    seen = []
    read_device(device, WedgeParser(), seen.append)
    assert [e.code for e in seen] == ["CARD:I-loyalty-1", "CARD:T-ii"]
    assert device.grabbed == [True, False]  # grabbed exclusively, released at the end


# --- the camera's card scan area --------------------------------------------------------------


def label_image(text: str) -> Image.Image:
    out = io.BytesIO()
    segno.make(text, error="h").save(out, kind="png", scale=6, border=4)
    out.seek(0)
    return Image.open(out).convert("RGB")


@pytest.mark.parametrize(("angle", "blur", "cover"), [
    (0, 0, False), (27, 0, False), (90, 0, False), (41, 1.6, False), (0, 0, True),
    (63, 1.2, True)])
def test_a_card_label_is_read_in_the_scan_area(angle, blur, cover):
    label = label_image("CARD:I-mori-special-3")
    if cover:  # a fingertip over part of the code (its error correction copes)
        ImageDraw.Draw(label).ellipse((label.width * 0.5, label.height * 0.45,
                                       label.width * 0.68, label.height * 0.62),
                                      fill=(180, 140, 120))
    label = label.rotate(angle, expand=True, fillcolor=(255, 255, 255))
    if blur:
        label = label.filter(ImageFilter.GaussianBlur(blur))
    frame = Image.new("RGB", (1920, 1080), (90, 120, 80))
    frame.paste(label, (1400, 500))
    scan = read_card(frame, CardArea(1350, 450, 520, 560))
    assert scan is not None and scan.code == "CARD:I-mori-special-3"


def test_nothing_in_the_scan_area_reads_nothing():
    frame = Image.new("RGB", (1920, 1080), (90, 120, 80))
    frame.paste(label_image("CARD:I-mori-special-3"), (100, 100))
    assert read_card(frame, CardArea(1350, 450, 520, 560)) is None
    assert decode_codes(frame) == ["CARD:I-mori-special-3"]


# --- buttons and lights -----------------------------------------------------------------------


@pytest.fixture
def mock_pins():
    Device.pin_factory = MockFactory()
    yield Device.pin_factory
    Device.pin_factory.reset()


def test_buttons_report_presses_and_lights_show_the_table_state(mock_pins):
    pins = Pins.load()
    pressed: list[ButtonPressed] = []
    hardware = TableHardware(pins, pressed.append)
    for name in ("confirm", "undo", "next_phase"):
        pin = mock_pins.pin(pins.buttons[name])
        pin.drive_low()
        time.sleep(0.06)  # timing under test: a press held past the 50 ms debounce
        pin.drive_high()
        time.sleep(0.06)
    assert [p.name for p in pressed] == ["confirm", "undo", "next_phase"]
    lit = lambda: {n for n, p in pins.lights.items() if mock_pins.pin(p).state}  # noqa: E731
    hardware.show("accepted")
    assert lit() == {"green"}
    hardware.show("illegal")
    assert lit() == {"red"}
    wait_for(lambda: mock_pins.pin(pins.buzzer).state, timeout=1)
    hardware.show("waiting")
    assert lit() == {"amber"}
    hardware.show("idle")
    assert lit() == set()
    hardware.close()


def test_a_pin_wired_twice_is_refused(tmp_path):
    bad = tmp_path / "pins.yaml"
    bad.write_text("buttons: {confirm: 17, undo: 17, next_phase: 22, leader: 23}\n"
                   "lights: {green: 5, red: 6, amber: 13}\n")
    with pytest.raises(ValueError, match="used twice"):
        Pins.load(bad)


# --- label sheets and registration --------------------------------------------------------------


def test_label_sheets_read_back_to_their_cards(tmp_path):
    pdf = tmp_path / "labels.pdf"
    assert write_card_labels(card_labels(KIT), pdf) == 110
    subprocess.run(["pdftoppm", "-r", "200", "-f", "1", "-l", "1", "-png", str(pdf),
                    str(tmp_path / "page")], check=True)
    page = Image.open(next(tmp_path.glob("page*.png")))
    codes = {symbol.data.decode() for symbol in pyzbar.decode(page)}
    per_page = ((210 - 20) // 50) * ((297 - 20) // 20)
    assert codes == {card_code(card.id) for card in KIT.cards[:per_page]}


def simulated_set() -> tuple[list[tuple[str, str]], list[tuple[str, str | None]]]:
    """96 block tags with what a person would say of each, 110 card codes (half RFID, half
    printed labels), for the sample set."""
    blocks = []
    for number, block in enumerate(KIT.blocks, start=1):
        kind = (f"leader{block.leader}" if block.leader
                else {"cavalry": "cav", "arquebus": "arq"}.get(block.attack or "",
                                                              str(block.strength)))
        spec = f"{block.side} {block.clan} {kind}" + (f" {block.setup}" if block.setup else "")
        blocks.append((str(100 + number), spec))
    cards: list[tuple[str, str | None]] = []
    for number, card in enumerate(KIT.cards):
        if number % 2:
            cards.append((card_code(card.id), None))  # a printed label names its card
        else:
            spec = f"{card.side} loyalty" if card.kind == "loyalty" \
                else f"{card.side} {card.clan} {card.kind}"
            cards.append((f"{0xA0000000 + number:010X}", spec))  # an RFID sticker's UID
    return blocks, cards


def test_a_whole_simulated_set_registers_through_the_readers_and_verifies(tmp_path):
    blocks, cards = simulated_set()
    registry = Registry.open(tmp_path / "mine.json", "sekigahara", "mine")
    pty = Pty(tmp_path / "tags")
    tags, seen_tags = reading(pty.link, LineParser(reader="registration"))
    rfid = Pty(tmp_path / "rfid")
    cards_reader, seen_cards = reading(rfid.link, Rdm6300Parser())
    wait_for(lambda: tags.status == cards_reader.status == "connected")
    for tag, _ in blocks:
        pty.write(f"{tag}\n".encode())
    for code, spec in cards:
        if spec is not None:
            rfid.write(rdm_frame(code))
    wait_for(lambda: len(seen_tags) == 96 and len(seen_cards) == 55)
    said = dict(blocks)
    for event in seen_tags:
        registry.add_block(event.code, said[event.code])
    for event in seen_cards:
        registry.add_card(event.code, dict(cards)[event.code])
    area = CardArea(1350, 450, 520, 560)
    for code, _ in (c for c in cards if c[1] is None):  # each label shown to the camera
        frame = Image.new("RGB", (1920, 1080), (90, 120, 80))
        frame.paste(label_image(code), (1400, 500))
        scan = read_card(frame, area)
        assert scan is not None
        registry.add_card(scan.code)
    assert registry.problems() == []
    resumed = Registry.open(tmp_path / "mine.json", "sekigahara", "mine")
    assert len(resumed.blocks) == 96 and len(resumed.cards) == 110
    kit = load_kit(resumed.write_kit(tmp_path / "mine-kit"))
    assert not kit.sample and kit.block_manifest == "registered"
    mapping = resumed.tag_to_block(kit)
    assert len(set(mapping.values())) == 96
    for tag, block_id in mapping.items():
        assert said[tag].split()[:2] == [kit.block[block_id].side, kit.block[block_id].clan]
    for reader, link in ((tags, pty), (cards_reader, rfid)):
        reader.stop()
        link.unplug()


def test_registration_mismatches_are_all_listed(tmp_path):
    registry = Registry.open(tmp_path / "short.json", "sekigahara", "short")
    registry.add_block("1", "tokugawa maeda 2")
    with pytest.raises(RegistrationError, match="already registered"):
        registry.add_block("1", "tokugawa maeda 3")
    with pytest.raises(RegistrationError, match="not a clan of"):
        registry.add_block("2", "tokugawa mori 2")
    registry.add_card(card_code(KIT.cards[0].id))
    with pytest.raises(RegistrationError, match="already registered"):
        registry.add_card(card_code(KIT.cards[0].id))
    problems = registry.problems()
    assert any("ishida: 0 blocks registered, 48 wanted" in p for p in problems)
    assert any("set-up block I-ishida-leader-1" in p for p in problems)
    assert any("tokugawa deck: 0 cards registered, 55 wanted" in p for p in problems)
    with pytest.raises(RegistrationError, match="does not match the kit"):
        registry.write_kit(tmp_path / "kit")


def test_the_register_command_reads_entries_and_reports(tmp_path):
    blocks, cards = simulated_set()
    lines = [f"block {tag} {spec}" for tag, spec in blocks]
    lines += [f"card {code} {spec or ''}".rstrip() for code, spec in cards]
    half = len(lines) // 2
    runner = CliRunner()
    first = runner.invoke(main, ["register", "club", "--dir", str(tmp_path)],
                          input="\n".join(lines[:half]))
    assert first.exit_code == 1 and "does not match the kit yet" in first.output
    second = runner.invoke(main, ["register", "club", "--dir", str(tmp_path)],
                           input="\n".join(["block 101 ishida mori 9", *lines[half:]]))
    assert second.exit_code == 0, second.output
    assert "line 1:" in second.output and "complete" in second.output
    assert load_kit(tmp_path / "club-kit").block_manifest == "registered"


def test_the_label_command_writes_the_sheets(tmp_path):
    out = tmp_path / "labels.pdf"
    result = CliRunner().invoke(main, ["print-card-labels", "sekigahara", "--out", str(out)])
    assert result.exit_code == 0 and "110 labels" in result.output
    assert out.read_bytes().startswith(b"%PDF")
