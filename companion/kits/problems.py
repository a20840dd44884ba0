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

    @classmethod
    def read(cls, path: Path) -> YamlDocument:
        """Parse `path`; raise KitError naming the line when the YAML itself is malformed."""
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise KitError(str(path.parent), [KitProblem(path.name, None, "", str(exc))]) from exc
        try:
            root = yaml.compose(text, Loader=yaml.SafeLoader)
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            line = mark.line + 1 if mark is not None else None
            reason = f"malformed YAML: {getattr(exc, 'problem', None) or exc}"
            raise KitError(str(path.parent), [KitProblem(path.name, line, "", reason)]) from exc
        return cls(path.name, data, root)

    def line_of(self, loc: Loc) -> int | None:
        """The line of the deepest node that `loc` reaches (1-based)."""
        node = self.root
        if node is None:
            return None
        line = node.start_mark.line + 1
        for key in loc:
            node = _child(node, key)
            if node is None:
                break
            line = node.start_mark.line + 1
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


def _child(node: yaml.Node, key: str | int) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        pairs: list[tuple[yaml.Node, yaml.Node]] = node.value
        for key_node, value_node in pairs:
            if key_node.value == str(key):
                return value_node
    elif isinstance(node, yaml.SequenceNode) and isinstance(key, int):
        items: list[yaml.Node] = node.value
        return items[key] if key < len(items) else None
    return None


def entry_label(doc: YamlDocument | None, loc: Loc) -> str:
    """`roads[12] (kiso-sua)`: the path to an entry, plus its id or ends where it has them."""
    parts: list[str] = []
    for key in loc:
        if isinstance(key, int):
            parts.append(f"[{key}]")
        else:
            parts.append(("." if parts else "") + key)
    label = "".join(parts)
    # Name the innermost list entry by its id (or road ends) so a person can find it.
    for cut in range(len(loc), 0, -1):
        if isinstance(loc[cut - 1], int):
            item = doc.get(loc[:cut]) if doc else None
            if isinstance(item, dict):
                name = item.get("id") or (
                    f"{item.get('a')}-{item.get('b')}" if "a" in item and "b" in item else None
                )
                if name:
                    label += f" ({name})"
            break
    return label


@dataclass
class Problems:
    """Collects problems across a kit's files, resolving each to a line at the end."""

    kit: str
    docs: dict[str, YamlDocument] = field(default_factory=dict)
    found: list[KitProblem] = field(default_factory=list)

    def add(self, file: str, loc: Loc, reason: str) -> None:
        doc = self.docs.get(file)
        line = doc.line_of(loc) if doc else None
        self.found.append(KitProblem(file, line, entry_label(doc, loc), reason))

    def __iter__(self) -> Iterator[KitProblem]:
        return iter(self.found)

    def __bool__(self) -> bool:
        return bool(self.found)

    def raise_if_any(self) -> None:
        if self.found:
            raise KitError(self.kit, self.found)
