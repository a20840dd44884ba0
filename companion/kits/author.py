"""Entering a board from a photo (`companion kit author`): areas, links, the draft, the writer.

Some rulebooks do not print their board (Shogun's), so a user enters their own copy once: on a
photo they click each area's centre and outline, link neighbours, and type each area's values.
What an area, a link and the kit need differs by game, so a game describes it as data (an
`AuthorSpec`: its fields, its link kinds, and how the drawn areas become its kit files);
everything else here is generic, for any map of areas and links.

Work is kept as a draft (JSON, validated by `Draft`) after every change, so closing the page
loses nothing. The writer turns a draft into the game's kit files, starting from the files of
the kit already there (the user's, else the example the game ships), runs the kit's own
validation, and pins each problem to the area (and field) it concerns, so the page can show it
next to that area. No web framework here.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import annotated_types
import yaml
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from companion.kits.loader import MANIFEST, load_kit
from companion.kits.problems import KitError, KitProblem

__all__ = ["MAX_AREAS", "MAX_LINKS", "MAX_POINTS", "MAX_TEXT", "AuthorError", "AuthorSpec",
           "Checked", "Draft", "DraftArea", "DraftLink", "Found", "KitField", "Placed",
           "WriteResult", "Written", "author_spec", "authored_games", "bounds_of", "check_draft",
           "draft_folder", "kit_folder", "load_draft", "new_draft", "register_author",
           "save_draft", "write_kit"]

MAX_AREAS = 300
"""Areas in one draft: Shogun's side has 45, the largest printed maps a few hundred."""
MAX_LINKS = 1500
"""Links in one draft (about five per area)."""
MAX_POINTS = 64
"""Corners of one area's outline: enough for a wiggly province, small to store and draw."""
MAX_TEXT = 80
"""Characters of a typed value (a name, an id)."""
MAX_DRAFT_BYTES = 512 * 1024
"""Bytes of a draft file (a full Shogun side with outlines is about 40 KB)."""
ID_PATTERN = r"^[a-z][a-z0-9_]*$"
ID_HELP = "lower-case letters, digits and _, starting with a letter (e.g. kita_1)"

Fraction = Annotated[float, Field(ge=0, le=1)]
Point = tuple[Fraction, Fraction]
Uid = Annotated[str, StringConstraints(pattern=r"^a[0-9]{1,6}$")]
"""A drawn area's own handle (`a12`): it exists before the user has typed the area's id."""
Value = Annotated[str, StringConstraints(max_length=MAX_TEXT)] | int | bool | None
Key = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,31}$")]
KitName = Annotated[str, StringConstraints(pattern=ID_PATTERN, max_length=64)]


class AuthorError(Exception):
    """A draft or an example kit that cannot be used; the message says why and where."""


# --- what a game describes ----------------------------------------------------------------------


@dataclass(frozen=True)
class KitField:
    """One value the user types: for an area (a province's rice) or for the whole kit (which
    side of the board the photo shows). `check` turns what was typed into the value written."""

    key: str
    label: str
    kind: Literal["id", "text", "int", "bool", "choice"] = "text"
    required: bool = False
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    default: str | int | bool | None = None
    help: str = ""

    def check(self, value: Value) -> str | int | bool | None:
        """The value to write, or ValueError saying what is wrong with it (in the user's
        terms: the field's label and the allowed values)."""
        if value is None or value == "":
            if self.required:
                raise ValueError("needed")
            return self.default
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise ValueError("yes or no")
            return value
        if self.kind == "int":
            return self._number(value)
        text = str(value).strip()
        if self.kind == "id" and not re.fullmatch(ID_PATTERN, text):
            raise ValueError(ID_HELP)
        if self.kind == "choice" and text not in self.choices:
            raise ValueError(f"one of {', '.join(self.choices)}")
        return text

    def _number(self, value: Value) -> int:
        if isinstance(value, bool) or not (isinstance(value, int) or (
                isinstance(value, str) and re.fullmatch(r"\s*-?\d{1,9}\s*", value))):
            raise ValueError("a whole number")
        number = int(value)
        if self.minimum is not None and number < self.minimum:
            raise ValueError(f"at least {self.minimum}")
        if self.maximum is not None and number > self.maximum:
            raise ValueError(f"at most {self.maximum}")
        return number

    def describe(self) -> dict[str, Any]:
        """The field as the page needs it to draw its input."""
        return {"key": self.key, "label": self.label, "kind": self.kind,
                "required": self.required, "min": self.minimum, "max": self.maximum,
                "choices": list(self.choices), "default": self.default, "help": self.help}


def bounds_of(model: type[BaseModel], name: str) -> tuple[int | None, int | None]:
    """A model field's (minimum, maximum), read from its pydantic constraints, so that the
    page's bounds are the kit's own and cannot drift from them."""
    low = high = None
    for rule in model.model_fields[name].metadata:
        if isinstance(rule, annotated_types.Ge):
            low = int(str(rule.ge))
        elif isinstance(rule, annotated_types.Le):
            high = int(str(rule.le))
    return low, high


@dataclass(frozen=True)
class Placed:
    """Where the writer put one area (or link) in a kit file, and which data key holds each
    of its fields: a kit problem at `file`:`path`.KEY is then shown at that area's field."""

    file: str
    path: tuple[str | int, ...]
    area: str | None = None
    """The drawn area's uid (None for a link)."""
    link: int | None = None
    """The link's index in the draft (None for an area)."""
    fields: Mapping[str, str] = field(default_factory=dict)
    """Data key in the file -> the description's field key."""


@dataclass(frozen=True)
class Written:
    """What a game's writer makes of a draft: file name -> its whole data, and the places."""

    files: Mapping[str, Any]
    placed: Sequence[Placed] = ()


@dataclass(frozen=True)
class Checked:
    """A draft's typed values, each checked (what a game's writer receives)."""

    kit: Mapping[str, Any]
    areas: Sequence[tuple[DraftArea, Mapping[str, Any]]]
    """Each area with its checked values (field key -> value)."""
    links: Sequence[tuple[int, str, str, str]]
    """(index in the draft, one end's id, the other end's id, kind) of every usable link."""
    id_key: str = "id"
    """The area field that holds each area's id."""

    def area_id(self, values: Mapping[str, Any]) -> str | None:
        found = values.get(self.id_key)
        return str(found) if found else None


Writer = Callable[[Checked, Path], Written]
"""A game's writer: the checked draft and the folder of the kit it starts from -> its files."""


@dataclass(frozen=True)
class AuthorSpec:
    """What a game asks of a drawn board: the fields of an area and of the kit, the kinds of
    link, the kit it starts from and how the areas become its files."""

    game: str
    title: str
    area_fields: tuple[KitField, ...]
    link_kinds: tuple[str, ...]
    example: Path
    """The folder of the kit whose files a new kit starts from (the game's example)."""
    write: Writer
    kit_fields: tuple[KitField, ...] = ()
    area_word: str = "area"
    notes: str = ""

    @property
    def id_field(self) -> KitField:
        """The area field that is the area's id (the first of kind `id`)."""
        return next(f for f in self.area_fields if f.kind == "id")

    def describe(self) -> dict[str, Any]:
        return {"game": self.game, "title": self.title, "area_word": self.area_word,
                "area_fields": [f.describe() for f in self.area_fields],
                "kit_fields": [f.describe() for f in self.kit_fields],
                "link_kinds": list(self.link_kinds), "id_field": self.id_field.key,
                "notes": self.notes}


_AUTHORS: dict[str, AuthorSpec] = {}
"""Descriptions registered by hand (a test's own game), before the games' own."""


def register_author(spec: AuthorSpec) -> AuthorSpec:
    """Make a board enterable with `companion kit author` without a game folder declaring it
    (a test's toy game); a game declares its own as its `author` capability."""
    _AUTHORS[spec.game] = spec
    return spec


def author_spec(game: str) -> AuthorSpec:
    """The description `game` gives (its `author` capability): this layer names no game.
    AuthorError naming the games that have one."""
    from companion.games import all_games

    if game in _AUTHORS:
        return _AUTHORS[game]
    spec = all_games().get(game)
    if spec is None or not spec.has("author"):
        known = ", ".join(authored_games()) or "none"
        lacking = spec.missing("author") if spec else f"{game} is not a game of this companion"
        raise AuthorError(f"{lacking} (games that have one: {known})")
    return spec.need_author()


def authored_games() -> list[str]:
    """The games whose board can be entered: those declaring an `author` capability (and any
    registered by hand)."""
    from companion.games import all_games

    declared = {name for name, spec in all_games().items() if spec.has("author")}
    return sorted(declared | set(_AUTHORS))


# --- the draft ----------------------------------------------------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DraftArea(_Strict):
    uid: Uid
    centre: Point | None = None
    outline: list[Point] = Field(default_factory=list, max_length=MAX_POINTS)
    values: dict[Key, Value] = Field(default_factory=dict, max_length=32)


class DraftLink(_Strict):
    a: Uid
    b: Uid
    kind: Annotated[str, StringConstraints(max_length=32)]


class Draft(_Strict):
    """A board being entered: the JSON kept in the user's data folder after every change."""

    version: Literal[1] = 1
    game: KitName
    name: KitName
    image: str | None = Field(default=None, pattern=r"^board\.(png|jpg)$")
    """The photo's file name beside the draft, once there is one."""
    kit: dict[Key, Value] = Field(default_factory=dict, max_length=32)
    areas: list[DraftArea] = Field(default_factory=list, max_length=MAX_AREAS)
    links: list[DraftLink] = Field(default_factory=list, max_length=MAX_LINKS)


def new_draft(spec: AuthorSpec, name: str) -> Draft:
    """An empty draft for a new kit `name`, the kit fields at their defaults."""
    kit = {f.key: f.default for f in spec.kit_fields if f.default is not None}
    return Draft(game=spec.game, name=name, kit=kit)


def draft_folder(game: str, name: str, data: Path) -> Path:
    """Where the draft of kit `name` and its photo are kept (not created)."""
    return data / "kit-author" / f"{game}-{name}"


def kit_folder(name: str, data: Path) -> Path:
    """Where the kit `name` is written (not created): `companion kit check` takes this path."""
    return data / "kits" / name


def load_draft(folder: Path) -> Draft | None:
    """The draft kept in `folder`, or None when there is none yet; AuthorError naming the file
    and the first problem when it cannot be read (it is left as it is, never overwritten)."""
    path = folder / "draft.json"
    try:
        raw = path.read_bytes()[:MAX_DRAFT_BYTES + 1]
    except FileNotFoundError:
        return None
    if len(raw) > MAX_DRAFT_BYTES:
        raise AuthorError(f"{path}: more than {MAX_DRAFT_BYTES} bytes: not a draft")
    try:
        return Draft.model_validate_json(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise AuthorError(f"{path}: {where}: {first['msg']} (move the file away to start "
                          "again)") from None


def save_draft(folder: Path, draft: Draft) -> Path:
    """Keep `draft` in `folder`, atomically (a crash leaves the old draft or the new one)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "draft.json"
    _atomic_write(path, draft.model_dump_json(indent=1, exclude_none=True).encode())
    return path


def _atomic_write(path: Path, data: bytes) -> None:
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        Path(temporary).replace(path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


# --- checking and writing -----------------------------------------------------------------------


@dataclass(frozen=True)
class Found:
    """One problem, pinned to what it concerns: an area (and its field), a link, or the kit."""

    reason: str
    area: str | None = None
    field: str | None = None
    link: int | None = None
    file: str = ""
    line: int | None = None
    entry: str = ""

    def as_json(self) -> dict[str, Any]:
        return {"reason": self.reason, "area": self.area, "field": self.field,
                "link": self.link, "file": self.file, "line": self.line, "entry": self.entry}


def check_draft(spec: AuthorSpec, draft: Draft) -> tuple[Checked, list[Found]]:
    """Each typed value checked against its field, ids unique, links between known areas:
    what can be said before any file is written, each problem pinned to its area or link."""
    found: list[Found] = []
    kit = {}
    for kit_field in spec.kit_fields:
        try:
            kit[kit_field.key] = kit_field.check(draft.kit.get(kit_field.key))
        except ValueError as exc:
            found.append(Found(f"{kit_field.label}: {exc}", field=kit_field.key))
    areas = [(area, _checked_values(spec, area, found)) for area in draft.areas]
    ids = _unique_ids(spec, areas, found)
    links = _checked_links(spec, draft, ids, found)
    return Checked(kit, areas, links, spec.id_field.key), found


def _checked_values(spec: AuthorSpec, area: DraftArea, found: list[Found]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for area_field in spec.area_fields:
        try:
            values[area_field.key] = area_field.check(area.values.get(area_field.key))
        except ValueError as exc:
            found.append(Found(f"{area_field.label}: {exc}", area=area.uid,
                               field=area_field.key))
    if area.centre is None:
        found.append(Found("no centre yet: click the area's centre on the photo", area=area.uid))
    return values


def _unique_ids(spec: AuthorSpec, areas: Sequence[tuple[DraftArea, Mapping[str, Any]]],
                found: list[Found]) -> dict[str, str]:
    """uid -> the area's id, for the areas with an id; a repeated id is a problem."""
    key = spec.id_field.key
    ids: dict[str, str] = {}
    first: dict[str, str] = {}
    for area, values in areas:
        typed = values.get(key)
        if not typed:
            continue
        if typed in first:
            found.append(Found(f"{spec.id_field.label}: '{typed}' is already the id of another "
                               f"{spec.area_word}", area=area.uid, field=key))
            continue
        first[typed] = area.uid
        ids[area.uid] = typed
    return ids


def _checked_links(spec: AuthorSpec, draft: Draft, ids: Mapping[str, str],
                   found: list[Found]) -> list[tuple[int, str, str, str]]:
    links = []
    seen: set[frozenset[str]] = set()
    for index, link in enumerate(draft.links):
        pair = frozenset((link.a, link.b))
        if link.kind not in spec.link_kinds:
            found.append(Found(f"link kind '{link.kind}': one of {', '.join(spec.link_kinds)}",
                               link=index))
        elif link.a == link.b or pair in seen:
            found.append(Found("a link joins two different areas, once", link=index))
        elif link.a in ids and link.b in ids:
            links.append((index, ids[link.a], ids[link.b], link.kind))
        seen.add(pair)
    return links


@dataclass(frozen=True)
class WriteResult:
    folder: Path
    problems: tuple[Found, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


def write_kit(spec: AuthorSpec, draft: Draft, target: Path) -> WriteResult:
    """Write the draft as a kit in `target`, starting from the kit there (the user's earlier
    one) or else the game's example, then validate it as `companion kit check` does.

    The kit is written even with problems (the draft keeps everything; `kit check` can name
    them again), and each problem comes back pinned to its area, link or field. AuthorError
    when the starting kit's files cannot be read."""
    checked, found = check_draft(spec, draft)
    start = target if (target / MANIFEST).is_file() else spec.example
    try:
        written = spec.write(checked, start)
    except (OSError, yaml.YAMLError, KeyError, TypeError, ValueError) as exc:
        raise AuthorError(f"the kit in {start} cannot be started from: {exc}") from exc
    _write_files(target, start, _manifest(spec, draft, checked, start), written)
    try:
        load_kit(target)
    except KitError as exc:
        said = {(f.area, f.field) for f in found if f.area and f.field}
        pinned = (_pinned(problem, written.placed, checked) for problem in exc.problems)
        found += [f for f in pinned if (f.area, f.field) not in said]  # said once is enough
    return WriteResult(target, tuple(found))


def _manifest(spec: AuthorSpec, draft: Draft, checked: Checked, start: Path) -> dict[str, Any]:
    """kit.yaml: the new kit's id and title; still a sample when the rest is the example's."""
    kept = yaml.safe_load((start / MANIFEST).read_text(encoding="utf-8")) or {}
    title = checked.kit.get("title") or f"{spec.title} ({draft.name})"
    return {"id": draft.name, "game": spec.game, "version": "1", "title": str(title),
            "sample": bool(kept.get("sample", False)),
            "notes": f"Board entered with companion kit author from a photo. Started from "
                     f"the kit {kept.get('id', start.name)}: its other files are that kit's."}


def _write_files(target: Path, start: Path, manifest: Mapping[str, Any],
                 written: Written) -> None:
    target.mkdir(parents=True, exist_ok=True)
    if start != target:
        for path in start.glob("*.yaml"):
            shutil.copyfile(path, target / path.name)
    head = "# Written by companion kit author from a drawn board: edit the draft, not this.\n"
    for name, data in {MANIFEST: manifest, **written.files}.items():
        text = yaml.dump(data, Dumper=_KitDumper, sort_keys=False, allow_unicode=True,
                         width=100)
        _atomic_write(target / name, (head + text).encode("utf-8"))


class _KitDumper(yaml.SafeDumper):
    """YAML as the shipped kits are written: a short list of plain values on one line
    (`xy: [0.2, 0.3]`, `sides: [sun, moon]`), so a written kit reads like a shipped one."""

    def represent_list(self, data: Any) -> yaml.SequenceNode:
        plain = all(isinstance(v, str | int | float | bool) for v in data)
        return self.represent_sequence("tag:yaml.org,2002:seq", data,
                                       flow_style=plain and len(data) <= 8)


_KitDumper.add_representer(list, _KitDumper.represent_list)


_LABEL = re.compile(r"\[(\d+)\]|\.?([^.\[\]]+)")


def entry_path(entry: str) -> tuple[str | int, ...]:
    """`sun.provinces[2].spaces (kita_3)` -> ("sun", "provinces", 2, "spaces")."""
    label = re.sub(r" \([^()]*\)$", "", entry.strip())
    return tuple(int(m[1]) if m[1] else m[2] for m in _LABEL.finditer(label))


def _pinned(problem: KitProblem, placed: Sequence[Placed], checked: Checked) -> Found:
    """A kit problem pinned to the area or link it concerns: by where the writer put it, else
    by an area id the problem names ('kita_1' or (kita_1))."""
    base = Found(problem.reason, file=problem.file, line=problem.line, entry=problem.entry)
    path = entry_path(problem.entry)
    for place in placed:
        if place.file == problem.file and path[:len(place.path)] == place.path:
            rest = path[len(place.path):]
            key = place.fields.get(str(rest[0])) if rest else None
            return Found(**{**base.as_json(), "area": place.area, "link": place.link,
                            "field": key})
    by_id = {checked.area_id(values): area.uid for area, values in checked.areas}
    named = re.findall(r"'([a-z][a-z0-9_]*)'|\(([a-z][a-z0-9_]*)\)",
                       f"{problem.reason} {problem.entry}")
    for quoted, bracketed in named:
        uid = by_id.get(quoted or bracketed)
        if uid is not None:
            return Found(**{**base.as_json(), "area": uid})
    return base
