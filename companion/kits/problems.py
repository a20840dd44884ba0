"""Problems found in a kit, each pinned to its file, line and entry.

A kit is edited by hand (a user's copy of a game's components), so a broken one must say
exactly where it is broken: `map.yaml:87: roads[12] (kiso-sua): unknown location 'sua'`,
never a bare traceback. Checks collect problems instead of stopping at the first, so one
run of `companion kit check` lists everything that needs fixing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import yaml

__all__ = ["KitError", "KitProblem", "Problems", "YamlDocument", "entry_label"]

Loc = tuple[str | int, ...]
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser when PyYAML has it (ten times faster), the pure-Python one otherwise."""


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
        """Parse `path`; raise KitError naming the line when the YAML itself is malformed."""
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise KitError(str(path.parent), [KitProblem(path.name, None, "", str(exc))]) from exc
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
            in_dict = isinstance(value, dict) and key in value
            in_list = isinstance(value, list) and isinstance(key, int) and 0 <= key < len(value)
            if in_dict or in_list:
                value = value[key]  # type: ignore[index]
            else:
                return None
        return value


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
