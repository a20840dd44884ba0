"""The table's own settings, chosen once at set-up (`companion setup`) and used by every
`companion serve` after: where the phones reach the table, the tournament broadcast.

Kept as `settings.yaml` in the user's data folder, validated (pydantic) when read, so a file
edited by hand that says something wrong is named with its problem, never half-used. An option
on the command line (or its environment variable) still wins over the file.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from companion.userdata import data_dir

__all__ = ["Settings", "SettingsError", "load_settings", "save_settings", "settings_file"]


class SettingsError(ValueError):
    """The settings file cannot be used: names the file and what is wrong."""


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    public_url: str | None = None
    """Where the phones reach the table (pairing links and QR codes)."""
    broadcast: str | None = None
    """The tournament broadcast: mqtt[s]://TABLE:PASSWORD@HOST:PORT/EVENT."""

    @field_validator("public_url")
    @classmethod
    def _http(cls, value: str | None) -> str | None:
        if value is not None:
            parts = urlsplit(value)
            if parts.scheme not in ("http", "https") or not parts.hostname:
                raise ValueError(f"{value!r} is not an http(s) address such as "
                                 "http://192.168.1.20:8000")
            return value.rstrip("/")
        return value

    @field_validator("broadcast")
    @classmethod
    def _mqtt(cls, value: str | None) -> str | None:
        if value is not None and urlsplit(value).scheme not in ("mqtt", "mqtts"):
            raise ValueError("the broadcast is an mqtt:// or mqtts:// address "
                             "(docs/broadcast.md)")
        return value


def settings_file() -> Path:
    return data_dir() / "settings.yaml"


def load_settings(path: Path | None = None) -> Settings:
    """The saved settings (none saved: the defaults); SettingsError naming the problem."""
    path = path or settings_file()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Settings()
    try:
        data = yaml.safe_load(text) or {}
        if not isinstance(data, dict):
            raise SettingsError(f"{path}: expected settings as 'name: value' lines")
        return Settings.model_validate(data)
    except yaml.YAMLError as exc:
        raise SettingsError(f"{path}: not YAML: {exc}") from None
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}"
                             for e in exc.errors())
        raise SettingsError(f"{path}: {problems}") from None


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write the settings (mode 0600: the broadcast address carries the table's password),
    atomically: a crash keeps the previous file."""
    path = path or settings_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write("# The table's settings (companion setup); command-line options win.\n")
        out.write(yaml.safe_dump(settings.model_dump(exclude_none=True), sort_keys=True))
        out.flush()
        os.fsync(out.fileno())
    partial.replace(path)
    return path
