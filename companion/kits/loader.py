"""Load a kit folder: a `kit.yaml` manifest plus the game's component files.

Each game registers a `KitSpec` saying which files it has and which pydantic model reads each;
the spec's `build` then checks what spans files (a road's ends, a marker's blocks) and assembles
the frozen kit object the engine uses. Every problem is collected with its file, line and entry.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import ClassVar, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from companion.kits.board import Frozen, Id
from companion.kits.problems import KitError, KitProblem, Problems, YamlDocument

__all__ = ["Kit", "KitManifest", "KitSpec", "load_kit", "register_spec", "shipped_folder",
           "shipped_kits"]

MANIFEST = "kit.yaml"
M = TypeVar("M", bound=BaseModel)


class KitManifest(Frozen):
    """`kit.yaml`: which game a kit is for, its version, and its component files."""

    id: Id
    game: Id
    version: str
    title: str
    sample: bool = False
    notes: str = ""


class Kit(Frozen):
    """Base of every game's assembled kit: the manifest facts every consumer needs."""

    id: str
    game: str
    version: str
    title: str
    sample: bool

    def summary(self) -> list[tuple[str, str]]:
        """(label, value) rows for `companion kit check`."""
        return [("kit", f"{self.id} {self.version} ({self.game})")]


class KitSpec(ABC):
    """How one game's kit is read: its files, their models, and the checks across them."""

    game: ClassVar[str]
    files: ClassVar[Mapping[str, type[BaseModel]]]

    def check_file(  # noqa: B027 - an optional hook: most games check within build
        self, file: str, part: BaseModel, problems: Problems
    ) -> None:
        """Checks that need only this one file, run even when another file is broken."""

    @abstractmethod
    def build(
        self, manifest: KitManifest, parts: Mapping[str, BaseModel], problems: Problems
    ) -> Kit:
        """Check what spans files, adding to `problems`, and assemble the kit."""


_SPECS: dict[str, KitSpec] = {}
_SHIPPED: dict[str, Path] = {}
"""Shipped kit name -> its folder inside its game's package."""


def register_spec(spec: KitSpec, shipped: Path | None = None) -> KitSpec:
    """Make a game's kits loadable; called once by each game's kit module, with the folder of
    the kit its package ships (named after the game)."""
    _SPECS[spec.game] = spec
    if shipped is not None:
        _SHIPPED[spec.game] = shipped
    return spec


def _discover() -> None:
    """Import every game package (their kit modules register here). Imported when first
    needed, so that this generic layer names no game."""
    importlib.import_module("companion.games").all_games()


def shipped_kits() -> list[str]:
    """Names of the kits that ship inside the game packages."""
    _discover()
    return sorted(name for name, folder in _SHIPPED.items() if (folder / MANIFEST).is_file())


def shipped_folder(name: str) -> Path:
    """The folder of a shipped kit (to copy it for editing); KitError if there is none."""
    return _find(name)


def load_kit(name_or_path: str | Path) -> Kit:
    """A shipped kit by name, or a folder holding a (possibly edited) copy of one.

    Raises KitError listing every problem found, each with file, line and entry. Shipped kits
    are read once per process (they cannot change under it, and kits are immutable).
    """
    folder = _find(name_or_path)
    shipped = next((name for name, where in _SHIPPED.items() if where == folder), None)
    if shipped is not None:
        return _load_shipped(shipped)
    return _load(folder, str(name_or_path))


@cache
def _load_shipped(name: str) -> Kit:
    return _load(_SHIPPED[name], name)


def _load(folder: Path, label: str) -> Kit:
    manifest_doc = YamlDocument.read(folder / MANIFEST)
    problems = Problems(label)
    problems.add_document(manifest_doc)
    manifest = _parse(problems, manifest_doc, KitManifest)
    problems.raise_if_any()
    assert isinstance(manifest, KitManifest)
    _discover()
    spec = _SPECS.get(manifest.game)
    if spec is None:
        problems.add(MANIFEST, ("game",), f"no rules for game '{manifest.game}' "
                     f"(known: {', '.join(sorted(_SPECS))})")
        problems.raise_if_any()
    assert spec is not None
    parts = _read_parts(folder, spec, problems)
    if len(parts) < len(spec.files):  # cross-file checks need every part: report what we have
        problems.raise_if_any()
    kit = spec.build(manifest, parts, problems)
    problems.raise_if_any()
    return kit


def _read_parts(folder: Path, spec: KitSpec, problems: Problems) -> dict[str, BaseModel]:
    """Parse every file the spec names; check each one that parsed on its own."""
    parts: dict[str, BaseModel] = {}
    for file, model in spec.files.items():
        path = folder / file
        if not path.is_file():
            problems.found.append(KitProblem(file, None, "", "file is missing from the kit"))
            continue
        try:
            doc = YamlDocument.read(path)
        except KitError as exc:
            problems.found.extend(exc.problems)
            continue
        problems.add_document(doc)
        part = _parse(problems, doc, model)
        if part is not None:
            parts[file] = part
            spec.check_file(file, part, problems)
    return parts


def _find(name_or_path: str | Path) -> Path:
    """A bare name is a shipped kit when one has that name; anything else is a folder."""
    text = str(name_or_path)
    _discover()
    if "/" not in text and text not in (".", ".."):
        shipped = _SHIPPED.get(text.strip().lower().replace("-", "_"))
        if shipped is not None and (shipped / MANIFEST).is_file():
            return shipped
    path = Path(name_or_path)
    if path.is_dir():
        if not (path / MANIFEST).is_file():
            raise KitError(text, [KitProblem(MANIFEST, None, "", f"no {MANIFEST} in {path}")])
        return path
    registered = _registered_set_kit(text)
    if registered is not None:
        return registered
    known = ", ".join(shipped_kits())
    raise KitError(str(name_or_path), [KitProblem(
        str(name_or_path), None, "", f"no such kit folder, and no shipped kit of that name "
        f"(shipped: {known})")])


def _registered_set_kit(kit_id: str) -> Path | None:
    """The kit of a set registered in the user's data folder whose id is `kit_id` (a game's
    record names it, `sekigahara_set_club`), if there is one."""
    if "/" in kit_id or "_set_" not in kit_id:
        return None
    from companion.userdata import sets_folder

    for folder in sorted(sets_folder().glob("*-kit")):
        try:
            manifest = yaml.safe_load((folder / MANIFEST).read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError):
            continue
        if isinstance(manifest, dict) and manifest.get("id") == kit_id:
            return folder
    return None


def _parse(problems: Problems, doc: YamlDocument, model: type[M]) -> M | None:
    """Validate one file against its model, turning pydantic's errors into kit problems."""
    if not isinstance(doc.data, dict):
        problems.add(doc.name, (), "expected a mapping at the top of the file")
        return None
    try:
        return model.model_validate(doc.data)
    except ValidationError as exc:
        for error in exc.errors():
            loc = tuple(error["loc"])
            reason = error["msg"]
            if error["type"] == "value_error":  # our validators' own words, no prefix
                reason = str(error.get("ctx", {}).get("error", reason))
            if error["type"] == "extra_forbidden":
                reason = f"unknown field '{loc[-1]}'"
            elif error["type"] == "missing":
                reason = f"missing field '{loc[-1]}'"
            elif "input" in error and not isinstance(error["input"], dict | list):
                reason = f"{reason} (got {error['input']!r})"
            problems.add(doc.name, loc, reason)
        return None
