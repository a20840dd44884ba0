"""The Raspberry Pi build: the camera placement calculator, the install script (shellcheck),
the service unit as installed (systemd-analyze verify), the pins file (6, 9)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from companion.cli import main
from companion.hardware import CAMERAS, MIN_PX_PER_MODULE, plan
from companion.inputs.gpio import DEFAULT_PINS, Pins, pins_file

HARDWARE = Path(__file__).parents[1] / "hardware"


def test_the_pinhole_plan_fits_the_area_and_counts_pixels_per_module():
    result = plan(CAMERAS["hq"], 6.0, (1000.0, 600.0), tag_mm=16.0, margin=0.0)
    assert result.height_mm == pytest.approx(6.0 * 1000 / 6.287)  # the long side decides
    assert result.px_per_mm == pytest.approx(4056 / 1000)
    assert result.px_per_module == pytest.approx(16 / 8 * 4056 / 1000)
    assert result.readable


def test_a_tall_narrow_area_is_limited_by_its_short_side():
    result = plan(CAMERAS["hq"], 6.0, (800.0, 790.0), tag_mm=14.0, margin=0.0)
    assert result.height_mm == pytest.approx(6.0 * 790 / 4.712)


def test_tags_too_small_for_the_sensor_are_flagged_with_the_smallest_readable_size():
    result = plan(CAMERAS["module3"], 4.74, (3000.0, 2000.0), tag_mm=10.0)
    assert not result.readable
    bigger = plan(CAMERAS["module3"], 4.74, (3000.0, 2000.0), tag_mm=result.smallest_tag_mm)
    assert bigger.px_per_module >= MIN_PX_PER_MODULE


def test_the_plan_refuses_nonsense():
    with pytest.raises(ValueError, match="positive"):
        plan(CAMERAS["hq"], 0, (1000.0, 600.0), 14)


def test_the_plan_command_covers_the_sekigahara_table():
    result = CliRunner().invoke(main, ["hardware", "plan", "--camera", "hq", "--lens", "6"])
    assert result.exit_code == 0, result.output
    assert "1204 x 699 mm" in result.output and "readable" in result.output


def test_the_install_script_passes_shellcheck():
    assert shutil.which("shellcheck"), "shellcheck comes with system-packages-test.txt"
    subprocess.run(["shellcheck", str(HARDWARE / "install-pi.sh")], check=True)


def test_the_installed_service_unit_verifies(tmp_path):
    prefix = tmp_path / "companion"
    executable = prefix / ".venv" / "bin" / "companion"
    executable.parent.mkdir(parents=True)
    executable.write_text("#!/bin/sh\n")
    executable.chmod(0o755)
    unit = (HARDWARE / "companion.service.in").read_text()
    unit = unit.replace("@PREFIX@", str(prefix)).replace("@USER@", "root")
    path = tmp_path / "companion.service"
    path.write_text(unit)
    result = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True,
                            text=True, check=False)
    problems = [line for line in (result.stdout + result.stderr).splitlines()
                if "companion.service" in line]
    assert result.returncode == 0 and not problems, result.stderr


def test_the_wiring_document_matches_the_pins_file():
    pins = yaml.safe_load(DEFAULT_PINS.read_text())
    wiring = (HARDWARE / "wiring.md").read_text()
    for group in ("buttons", "lights"):
        for pin in pins[group].values():
            assert f"| {pin} |" in wiring
    assert f"| {pins['buzzer']} |" in wiring


def test_the_default_pins_ship_in_the_package_and_a_tables_own_wiring_wins(tmp_path,
                                                                         monkeypatch):
    """An installed companion has its default wiring (package data); a table wired otherwise
    keeps its pins.yaml in the user's data folder, never in the package."""
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path))
    assert DEFAULT_PINS.parent.name == "inputs" and DEFAULT_PINS.is_file()
    assert pins_file() == DEFAULT_PINS and Pins.load().buttons["confirm"] == 17
    text = DEFAULT_PINS.read_text().replace("confirm: 17", "confirm: 26")
    (tmp_path / "pins.yaml").write_text(text)
    assert pins_file() == tmp_path / "pins.yaml" and Pins.load().buttons["confirm"] == 26
