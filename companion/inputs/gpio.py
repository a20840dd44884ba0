"""Buttons, lights and a buzzer on the Pi's GPIO (gpiozero), pins from one file.

Buttons: confirm, undo, next phase, leader (7.3.4). Lights: green (accepted), red (illegal),
amber (waiting for a confirmation). Tests drive gpiozero's own mock pin factory.

The default wiring ships with the package (`pins.yaml` here, package data, so an installed
companion has it); a table wired differently puts its own `pins.yaml` in the user's data
folder, which is read instead: the installed package is never edited.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

import yaml
from gpiozero import LED, Button, Buzzer

from companion.inputs.events import ButtonPressed
from companion.userdata import data_dir

__all__ = ["BUTTONS", "DEFAULT_PINS", "LIGHTS", "Pins", "TableHardware", "pins_file"]

BUTTONS = ("confirm", "undo", "next_phase", "leader")
LIGHTS = ("green", "red", "amber")
DEFAULT_PINS = Path(str(files(__package__).joinpath("pins.yaml")))
"""The default wiring (hardware/wiring.md), shipped in the package."""


def pins_file() -> Path:
    """The table's wiring: `pins.yaml` in the user's data folder, else the default."""
    mine = data_dir() / "pins.yaml"
    return mine if mine.is_file() else DEFAULT_PINS


@dataclass(frozen=True)
class Pins:
    """BCM pin numbers, read from one file (`pins_file()`), so wiring is changed once."""

    buttons: Mapping[str, int]
    lights: Mapping[str, int]
    buzzer: int | None

    @classmethod
    def load(cls, path: Path | None = None) -> Pins:
        """The pins in `path` (default: `pins_file()`); ValueError naming the file when a
        button or light has no pin or a pin is used twice."""
        path = path or pins_file()
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        buttons, lights = data.get("buttons", {}), data.get("lights", {})
        missing = [n for n in BUTTONS if n not in buttons] + [n for n in LIGHTS if n not in lights]
        if missing:
            raise ValueError(f"{path}: no pin for {', '.join(missing)}")
        used = [*buttons.values(), *lights.values(), *([data["buzzer"]] if data.get("buzzer")
                                                      else [])]
        if len(used) != len(set(used)):
            raise ValueError(f"{path}: a pin is used twice")
        return cls(dict(buttons), dict(lights), data.get("buzzer"))


class TableHardware:
    """The table's buttons (reported as ButtonPressed) and its lights and buzzer."""

    def __init__(self, pins: Pins, emit: Callable[[ButtonPressed], None],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.buttons = {name: Button(pin, bounce_time=0.05) for name, pin in pins.buttons.items()}
        self.lights = {name: LED(pin) for name, pin in pins.lights.items()}
        self.buzzer = Buzzer(pins.buzzer) if pins.buzzer is not None else None
        for name, button in self.buttons.items():
            button.when_pressed = lambda _b=None, name=name: emit(ButtonPressed(name, clock()))

    def show(self, state: str) -> None:
        """`accepted` (green), `illegal` (red and a beep), `waiting` (amber), `idle`."""
        wanted = {"accepted": "green", "illegal": "red", "waiting": "amber"}.get(state)
        for name, light in self.lights.items():
            light.on() if name == wanted else light.off()
        if state == "illegal" and self.buzzer is not None:
            self.buzzer.beep(on_time=0.15, off_time=0.1, n=2)

    def close(self) -> None:
        for device in [*self.buttons.values(), *self.lights.values(),
                       *([self.buzzer] if self.buzzer else [])]:
            device.close()
