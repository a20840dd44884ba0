"""Problems found in a kit, each pinned to its file, line and entry.

A kit is edited by hand (a user's copy of a game's components), so a broken one must say
exactly where it is broken: `map.yaml:87: roads[12] (kiso-sua): unknown location 'sua'`,
never a bare traceback. Checks collect problems instead of stopping at the first, so one
run of `companion kit check` lists everything that needs fixing.

A kit file is read within bounds, so that no file, however made, takes minutes or all memory
(issue 16): at most `MAX_FILE_BYTES`; and before it is built into objects its YAML events are
counted, stopping at the first of: nesting deeper than `MAX_DEPTH` (libyaml's time grows steeply
with depth: 2.6 s at 20,000 levels, and its composer crashes the process past ~100,000), more
than `MAX_ALIASES` aliases, more than `MAX_NODES` values once aliases are expanded (the
"billion laughs": a few lines that expand to billions of values), an alias inside its own
anchor, or a number too long to read. Each names the file and line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

__all__ = ["MAX_ALIASES", "MAX_DEPTH", "MAX_FILE_BYTES", "MAX_NODES", "KitError", "KitProblem",
           "Problems", "YamlDocument", "entry_label"]

Loc = tuple[str | int, ...]
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser when PyYAML has it (ten times faster), the pure-Python one otherwise."""
MAX_FILE_BYTES = 1_048_576
"""1 MiB: the largest shipped kit file is under 10 KB."""
MAX_DEPTH = 64
"""Nesting levels; a kit's entries nest five or six deep."""
MAX_ALIASES = 64
"""YAML aliases (`*name`) in one file; the shipped kits use none."""
MAX_NODES = 100_000
"""Values in one file once aliases are expanded; Sekigahara's map has about 2,000."""
MAX_NUMBER = 100
"""Characters in a plain number: a longer one is no kit's number (and past 4,300 digits
Python refuses to read it at all)."""
_NUMBER = re.compile(r"[-+]?(0[xob])?[0-9][0-9_a-fA-F.:eE+-]*")
_OPEN = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
_CLOSE = (yaml.SequenceEndEvent, yaml.MappingEndEvent)


@dataclass(frozen=True)
class KitProblem:
    """One thing wrong with a kit: where it is and why it is wrong."""

    file: str
    line: int | None
    entry: str
    reason: str

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.entry}: {self.reason}" if self.entry else f"{where}: {self.reason}"


class KitError(Exception):
    """A kit that cannot be used; carries every problem found, not just the first."""

    def __init__(self, kit: str, problems: Sequence[KitProblem]) -> None:
        self.kit = kit
        self.problems = tuple(problems)
        lines = "\n".join(f"  {p}" for p in self.problems)
        super().__init__(f"kit {kit}: {len(self.problems)} problem(s)\n{lines}")


@dataclass
class YamlDocument:
    """A parsed YAML file that remembers the line of every node, for error messages."""

    name: str
    data: object
    root: yaml.Node | None
    duplicate_keys: list[tuple[Loc, str]] = field(default_factory=list)

    @classmethod
    def read(cls, path: Path) -> YamlDocument:
        """Parse `path`; raise KitError naming the line when the YAML itself is malformed, or
        when the file is beyond the bounds above."""
        text = _read_text(path)
        _check_bounds(path, text)
        loader = _Loader(text)
        try:
            root = loader.get_single_node()
            data = loader.construct_document(root) if root is not None else None
        except yaml.YAMLError as exc:
            raise KitError(str(path.parent), [_malformed(path.name, exc)]) from exc
        finally:
            loader.dispose()
        doc = cls(path.name, data, root)
        if root is not None:
            _find_duplicate_keys(root, (), doc.duplicate_keys)
        return doc

    def line_of(self, loc: Loc) -> int | None:
        """The line of the deepest entry that `loc` reaches (1-based).

        A mapping's value is placed on its key's line, so a problem with a whole list points
        at the list's name rather than its first item.
        """
        node = self.root
        if node is None:
            return None
        line = node.start_mark.line + 1
        for key in loc:
            found = _child(node, key)
            if found is None:
                break
            node, line = found
        return line

    def get(self, loc: Loc) -> object:
        """The plain value at `loc`, or None where the path does not exist."""
        value = self.data
        for key in loc:
            if isinstance(value, dict) and key in value:
                value = value[key]
                continue
            if not (isinstance(value, list) and isinstance(key, int) and 0 <= key < len(value)):
                return None
            value = value[key]
        return value


def _read_text(path: Path) -> str:
    """The file's text, refused unread when it is larger than any kit file needs to be."""
    try:
        with path.open("rb") as file:
            raw = file.read(MAX_FILE_BYTES + 1)
        if len(raw) > MAX_FILE_BYTES:
            raise _beyond(path, None, f"the file is {path.stat().st_size} bytes; a kit file is "
                          f"at most {MAX_FILE_BYTES} bytes")
        return raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise KitError(str(path.parent), [KitProblem(path.name, None, "", str(exc))]) from exc


def _beyond(path: Path, mark: Any, reason: str) -> KitError:
    """A bound crossed at `mark` (a pure-Python or libyaml mark, or None for the whole file)."""
    line = mark.line + 1 if mark is not None else None
    return KitError(str(path.parent), [KitProblem(path.name, line, "", reason)])


def _check_bounds(path: Path, text: str) -> None:
    """Walk the file's YAML events (lazily: a refusal stops the parser where it is) and raise
    KitError at the first bound crossed; malformed YAML is left to the full parse to report.

    Aliases are counted as the values they stand for, from the sizes of their anchors, so
    the expanded size is known without expanding anything."""
    loader = _Loader(text)
    sizes: dict[str, int] = {}
    open_: list[tuple[str | None, int]] = []  # (anchor, values counted when it opened)
    total = aliases = 0
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, yaml.AliasEvent):
                aliases += 1
                if aliases > MAX_ALIASES:
                    raise _beyond(path, event.start_mark, f"more than {MAX_ALIASES} aliases "
                                  "(*name): a kit file needs few or none")
                if any(anchor == event.anchor for anchor, _ in open_):
                    raise _beyond(path, event.start_mark, f"alias *{event.anchor} refers to "
                                  "itself (it is inside its own anchor)")
                total += sizes.get(event.anchor or "", 1)
            elif isinstance(event, _OPEN):
                total += 1
                open_.append((event.anchor, total))
                if len(open_) > MAX_DEPTH:
                    raise _beyond(path, event.start_mark,
                                  f"nested deeper than {MAX_DEPTH} levels")
            elif isinstance(event, _CLOSE):
                anchor, start = open_.pop()
                if anchor is not None:
                    sizes[anchor] = total - start + 1
            elif isinstance(event, yaml.ScalarEvent):
                total += 1
                _check_scalar(path, event)
                if event.anchor is not None:
                    sizes[event.anchor] = 1
            if total > MAX_NODES:
                raise _beyond(path, event.start_mark, f"more than {MAX_NODES} values once "
                              "aliases are expanded: far more than any kit holds")
    except yaml.YAMLError as exc:
        if "nesting depth" in str(getattr(exc, "problem", "")):
            # libyaml from PyYAML 6.0.4 stops its scanner at 1000 levels, before the events
            # reach our bound: the same refusal, where it stopped
            raise _beyond(path, getattr(exc, "problem_mark", None),
                          f"nested deeper than {MAX_DEPTH} levels") from None
        return
    finally:
        loader.dispose()


def _check_scalar(path: Path, event: yaml.ScalarEvent) -> None:
    if not event.style and len(event.value) > MAX_NUMBER and _NUMBER.fullmatch(event.value):
        raise _beyond(path, event.start_mark, f"a number of {len(event.value)} characters: "
                      f"a kit's numbers have at most {MAX_NUMBER}")


def _malformed(name: str, exc: yaml.YAMLError) -> KitProblem:
    mark = getattr(exc, "problem_mark", None)
    line = mark.line + 1 if mark is not None else None
    reason = f"malformed YAML: {getattr(exc, 'problem', None) or exc}"
    context, context_mark = getattr(exc, "context", None), getattr(exc, "context_mark", None)
    if context_mark is not None and context_mark.line + 1 != line:
        reason += f" ({context or 'started'} at line {context_mark.line + 1})"
    return KitProblem(name, line, "", reason)


def _child(node: yaml.Node, key: str | int) -> tuple[yaml.Node, int] | None:
    if isinstance(node, yaml.MappingNode):
        pairs: list[tuple[yaml.Node, yaml.Node]] = node.value
        for key_node, value_node in pairs:
            if key_node.value == str(key):
                return value_node, key_node.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode) and isinstance(key, int):
        items: list[yaml.Node] = node.value
        if key < len(items):
            return items[key], items[key].start_mark.line + 1
    return None


def _find_duplicate_keys(node: yaml.Node, loc: Loc, found: list[tuple[Loc, str]]) -> None:
    """PyYAML keeps the last of two equal keys silently; a hand-edited kit wants to know."""
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        pairs: list[tuple[yaml.Node, yaml.Node]] = node.value
        for key_node, value_node in pairs:
            key = str(key_node.value)
            if key in seen:
                found.append(((*loc, key), key))
            seen.add(key)
            _find_duplicate_keys(value_node, (*loc, key), found)
    elif isinstance(node, yaml.SequenceNode):
        items: list[yaml.Node] = node.value
        for index, item in enumerate(items):
            _find_duplicate_keys(item, (*loc, index), found)


def entry_label(doc: YamlDocument | None, loc: Loc) -> str:
    """`roads[12] (kiso-sua)`: the path to an entry, plus the id of the entry it is in."""
    parts: list[str] = []
    for key in loc:
        if key == "[key]":  # pydantic's marker for a bad mapping key: the path already names it
            continue
        if isinstance(key, int):
            parts.append(f"[{key}]")
        else:
            parts.append(("." if parts else "") + key)
    label = "".join(parts)
    name = _enclosing_name(doc, loc)
    return f"{label} ({name})" if name else label


def _enclosing_name(doc: YamlDocument | None, loc: Loc) -> str | None:
    """The id (or a road's two ends) of the innermost list entry around `loc` that has one."""
    if doc is None:
        return None
    for cut in range(len(loc), 0, -1):
        if not isinstance(loc[cut - 1], int):
            continue
        item = doc.get(loc[:cut])
        if isinstance(item, dict):
            if item.get("id"):
                return str(item["id"])
            if "a" in item and "b" in item:
                return f"{item['a']}-{item['b']}"
    return None


@dataclass
class Problems:
    """Collects problems across a kit's files, resolving each to a line at the end."""

    kit: str
    docs: dict[str, YamlDocument] = field(default_factory=dict)
    found: list[KitProblem] = field(default_factory=list)

    def add(self, file: str, loc: Loc, reason: str, *, entry: str | None = None) -> None:
        """Record a problem at `loc` in `file`; `entry` replaces the label made from `loc`."""
        doc = self.docs.get(file)
        line = doc.line_of(loc) if doc else None
        self.found.append(KitProblem(file, line, entry or entry_label(doc, loc), reason))

    def add_document(self, doc: YamlDocument) -> None:
        """Track a file's lines, and report the keys it repeats."""
        self.docs[doc.name] = doc
        for loc, key in doc.duplicate_keys:
            self.add(doc.name, loc, f"key '{key}' appears twice: only the last would count")

    def __iter__(self) -> Iterator[KitProblem]:
        return iter(self.found)

    def __bool__(self) -> bool:
        return bool(self.found)

    def raise_if_any(self) -> None:
        if self.found:
            raise KitError(self.kit, self.found)
