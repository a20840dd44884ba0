"""Registering a physical set: which tag is on which block, which code is on which card.

Blocks: each block is put in the registration zone, its tag is read, and the person says what
the block is (`tokugawa maeda 2`, `ishida mori cav`, `tokugawa tokugawa leader3 square`).
Cards: a printed label's code names its card; an RFID sticker's code is scanned and the person
says what the card is (`tokugawa maeda special`). The registry is saved after every entry (so a
registration can be resumed), checked against the kit, and turned into the set's own kit,
whose block manifest replaces the kit's sample.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from companion.games import Registration
from companion.games.sekigahara.kit import BLOCKS_PER_SIDE, SekigaharaKit
from companion.inputs.events import unusable_code
from companion.inputs.labels import card_from_code
from companion.kits import load_kit
from companion.kits.loader import shipped_folder
from companion.table.registry import TableRegistry

__all__ = ["REGISTRATION", "RegistrationError", "Registry", "parse_block", "parse_card",
           "parse_tag", "tag_range"]

SETUP_SYMBOLS = ("square", "round", "star", "triangle")
ENTRIES = """\
One line per piece:
  block TAG SPEC     SPEC: side clan strength|cav|arq|leader1|leader3 [set-up symbol]
                     (e.g. 'block 101 tokugawa maeda 2', 'block 102 ishida ishida leader1 square')
  card CODE [SPEC]   a printed label's code names its card itself; for an RFID sticker's code
                     SPEC is 'side clan plain|special|double' or 'side loyalty'
Lines starting with # are skipped. When the set matches the kit, its own kit is written beside
the registry and replaces the sample block manifest."""


class RegistrationError(ValueError):
    """A registration entry that cannot be taken as said: names what is wrong."""


@cache
def tag_range() -> range:
    """The ids a block tag can have: those of the dictionary the camera reads (AprilTag 36h11,
    587 ids), asked of the detector itself so the two can never disagree."""
    import cv2

    from companion.vision.detect import DetectorConfig

    bank = cv2.aruco.getPredefinedDictionary(DetectorConfig().dictionary)
    return range(len(bank.bytesList))


def parse_tag(tag: str) -> str:
    """A block tag as typed -> its id in plain digits (`0101` is tag 101).

    Only ASCII digits count (`int` would also take `-5`, `+7`, `1_0` and other scripts'
    digits), and the length is checked before the value, so no line is too long to refuse."""
    ids = tag_range()
    last = ids[-1]
    if re.fullmatch(r"[0-9]+", tag) and len(tag.lstrip("0")) <= len(str(last)) \
            and int(tag) in ids:
        return str(int(tag))
    shown = tag if len(tag) <= 24 else tag[:24] + "…"
    raise RegistrationError(f"block tag {shown!r} is not a tag: a tag is a whole number from "
                            f"{ids[0]} to {last} (an id of the camera's AprilTag 36h11 "
                            "dictionary)")


def parse_block(kit: SekigaharaKit, spec: str) -> dict[str, Any]:
    """`side clan strength|cav|arq|leader1|leader3 [setup symbol]` -> a block face."""
    words = spec.lower().split()
    if len(words) < 3:
        raise RegistrationError(f"say side, clan and strength (or cav/arq/leader1/leader3), "
                                f"and a set-up symbol if it has one: got {spec!r}")
    side, clan, kind, *rest = words
    if clan not in kit.clans.get(side, ()):  # type: ignore[call-overload]
        raise RegistrationError(f"{clan!r} is not a clan of {side!r}")
    face: dict[str, Any] = {"side": side, "clan": clan, "strength": 1, "attack": None,
                            "leader": None, "any_card": clan in ("ishida", "ii"),
                            "setup": None}
    if kind in ("cav", "arq"):
        face["attack"] = {"cav": "cavalry", "arq": "arquebus"}[kind]
    elif kind in ("leader1", "leader3"):
        face["leader"] = int(kind[-1])
    elif kind in ("1", "2", "3", "4"):
        face["strength"] = int(kind)
    else:
        raise RegistrationError(f"{kind!r}: a strength 1-4, cav, arq, leader1 or leader3")
    if rest:
        if rest[0] not in SETUP_SYMBOLS:
            raise RegistrationError(
                f"{rest[0]!r} is not a set-up symbol ({', '.join(SETUP_SYMBOLS)})")
        face["setup"] = rest[0]
    return face


def parse_card(kit: SekigaharaKit, spec: str) -> tuple[str, str | None, str]:
    """`side clan plain|special|double` or `side loyalty` -> (side, clan, kind)."""
    words = spec.lower().split()
    if len(words) == 2 and words[1] == "loyalty":
        return words[0], None, "loyalty"
    if len(words) != 3 or words[2] not in ("plain", "special", "double"):
        raise RegistrationError(f"say side, clan and plain/special/double, or side and "
                                f"loyalty: got {spec!r}")
    return words[0], words[1], words[2]


@dataclass
class Registry:
    kit: str
    name: str
    path: Path
    blocks: dict[str, dict[str, Any]] = field(default_factory=dict)
    cards: dict[str, str] = field(default_factory=dict)

    @classmethod
    def open(cls, path: Path, kit: str, name: str) -> Registry:
        """The registry at `path`, resumed if it exists."""
        if path.exists():
            data = json.loads(path.read_text(encoding="utf-8"))
            if data["kit"] != kit:
                raise RegistrationError(f"{path} registers a {data['kit']} set, not {kit}")
            return cls(kit, data["name"], path, data["blocks"], data["cards"])
        return cls(kit, name, path)

    def save(self) -> None:
        """Write atomically: a crash mid-registration keeps the previous save."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_suffix(".partial")
        text = json.dumps({"kit": self.kit, "name": self.name, "blocks": self.blocks,
                           "cards": self.cards}, indent=1, sort_keys=True)
        with partial.open("w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        partial.replace(self.path)

    def _kit(self) -> SekigaharaKit:
        kit = load_kit(self.kit)
        assert isinstance(kit, SekigaharaKit)
        return kit

    def add(self, line: str) -> str:
        """One entry as typed: `block TAG SPEC` or `card CODE [SPEC]` (see ENTRIES)."""
        words = line.strip().split(maxsplit=2)
        if len(words) == 3 and words[0] == "block":
            face = self.add_block(words[1], words[2])
            return f"tag {words[1]}: {face['side']} {face['clan']}"
        if len(words) >= 2 and words[0] == "card":
            spec = words[2] if len(words) == 3 else None
            return f"code {words[1]}: card {self.add_card(words[1], spec)}"
        raise RegistrationError(f"expected 'block TAG SPEC' or 'card CODE [SPEC]': got "
                                f"{line.strip()!r}")

    def progress(self) -> str:
        return f"{len(self.blocks)} blocks and {len(self.cards)} cards"

    def add_block(self, tag: str, spec: str) -> dict[str, Any]:
        """Register the block carrying `tag` as the face `spec` says (see `parse_block`)."""
        tag = parse_tag(tag)
        if tag in self.blocks:
            raise RegistrationError(f"tag {tag} is already registered as {self.blocks[tag]}")
        face = parse_block(self._kit(), spec)
        self.blocks[tag] = face
        self.save()
        return face

    def add_card(self, code: str, spec: str | None = None) -> str:
        """Register a card by its label (no spec needed) or by what the person says it is."""
        reason = unusable_code(code)
        if reason is not None:
            raise RegistrationError(f"{reason}: not a card's code")
        if code in self.cards:
            raise RegistrationError(f"code {code} is already registered as {self.cards[code]}")
        kit = self._kit()
        card_id = card_from_code(code)
        if card_id is None:
            if spec is None:
                raise RegistrationError(f"{code}: say which card this is")
            side, clan, kind = parse_card(kit, spec)
            taken = set(self.cards.values())
            card_id = next((c.id for c in kit.cards if (c.side, c.clan, c.kind) ==
                            (side, clan, kind) and c.id not in taken), None)
            if card_id is None:
                raise RegistrationError(f"every {spec} card of the set is already registered")
        elif card_id not in kit.card:
            raise RegistrationError(f"label {code}: no card {card_id} in {self.kit}")
        elif card_id in self.cards.values():
            self._make_room(kit, code, card_id)
        self.cards[code] = card_id
        self.save()
        return card_id

    def _make_room(self, kit: SekigaharaKit, code: str, card_id: str) -> None:
        """A label names a card that an RFID sticker was given as 'one of that face': cards of
        one face are interchangeable, so the sticker moves to another free card of the face."""
        holder = next(c for c, i in self.cards.items() if i == card_id)
        face = (kit.card[card_id].side, kit.card[card_id].clan, kit.card[card_id].kind)
        taken = set(self.cards.values())
        free = next((c.id for c in kit.cards if (c.side, c.clan, c.kind) == face
                     and c.id not in taken), None)
        if card_from_code(holder) is not None or free is None:
            raise RegistrationError(f"label {code}: card {card_id} is already registered")
        self.cards[holder] = free

    def problems(self) -> list[str]:
        """Every mismatch with the kit: block counts, set-up blocks, decks by face."""
        kit = self._kit()
        found: list[str] = []
        sides = Counter(face["side"] for face in self.blocks.values())
        for side in kit.clans:
            if sides[side] != BLOCKS_PER_SIDE:
                found.append(f"{side}: {sides[side]} blocks registered, {BLOCKS_PER_SIDE} wanted")
        wanted = Counter((b.side, b.setup) for b in kit.blocks if b.setup)
        have = Counter((f["side"], f["setup"]) for f in self.blocks.values() if f["setup"])
        for key in sorted(set(wanted) | set(have)):
            if wanted[key] != have[key]:
                found.append(f"{key[0]} {key[1]} set-up blocks: {have[key]} registered, "
                             f"{wanted[key]} on the map's markers")
        for block in kit.blocks:
            if block.setup and block.guess is None and not any(
                    _same_face(block, f) for f in self.blocks.values()):
                found.append(f"set-up block {block.id} ({block.clan}, {block.setup}) not "
                             "registered")
        decks = Counter(kit.card[c].side for c in self.cards.values())
        for side in kit.clans:
            if decks[side] != sum(1 for c in kit.cards if c.side == side):
                found.append(f"{side} deck: {decks[side]} cards registered, "
                             f"{sum(1 for c in kit.cards if c.side == side)} wanted")
        return found

    def write_kit(self, folder: Path) -> Path:
        """The set's own kit: the shipped kit with this set's blocks (manifest: registered)."""
        problems = self.problems()
        if problems:
            raise RegistrationError("the set does not match the kit: " + "; ".join(problems))
        if folder.exists():
            shutil.rmtree(folder)
        shutil.copytree(shipped_folder(self.kit), folder)
        manifest = yaml.safe_load((folder / "kit.yaml").read_text(encoding="utf-8"))
        # Its own id, which a game's record names: resuming the game finds this kit again
        # (companion.kits looks for registered sets' kits by id), not the shipped sample.
        manifest.update(id=set_kit_id(manifest["id"], self.name), sample=False,
                        notes=f"registered physical set '{self.name}'")
        (folder / "kit.yaml").write_text(yaml.safe_dump(manifest, sort_keys=False))
        (folder / "blocks.yaml").write_text(yaml.safe_dump(self._blocks_file(),
                                                           sort_keys=False))
        load_kit(folder)  # the registered kit passes every kit check
        return folder

    def _blocks_file(self) -> dict[str, Any]:
        kit = self._kit()
        groups: dict[str, dict[str, Counter[tuple[Any, ...]]]] = {
            "setup_blocks": {s: Counter() for s in kit.clans},
            "bag_blocks": {s: Counter() for s in kit.clans}}
        for face in self.blocks.values():
            group = "setup_blocks" if face["setup"] else "bag_blocks"
            groups[group][face["side"]][_key(face)] += 1
        data: dict[str, Any] = {"manifest": "registered", "clans": {
            side: list(clans) for side, clans in kit.clans.items()}}
        for group, sides in groups.items():
            data[group] = {side: [_face_entry(key, count) for key, count in sorted(
                counts.items(), key=lambda kc: tuple(str(v) for v in kc[0]))]
                for side, counts in sides.items()}
        return data

    def plan_tags(self, first: int) -> int:
        """Give the kit's blocks tags `first`, `first + 1`, ... in the order they come out of
        the box (side, clan, face), as a registration would: the tag sheet (`print-tags
        --set`) then says which tag goes on which block. Blocks already registered keep
        theirs. Returns how many were planned."""
        kit = self._kit()
        have = Counter(_face_key(face) for face in self.blocks.values())
        planned, tag = 0, first
        for block in sorted(kit.blocks, key=_box_order):
            key = _face_key(block.model_dump())
            if have[key] > 0:
                have[key] -= 1
                continue
            while str(tag) in self.blocks:
                tag += 1
            self.blocks[parse_tag(str(tag))] = {
                "side": block.side, "clan": block.clan, "strength": block.strength,
                "attack": block.attack, "leader": block.leader, "any_card": block.any_card,
                "setup": block.setup}
            planned += 1
        self.save()
        return planned

    def tag_captions(self) -> list[tuple[int, str]]:
        """Each registered tag and the block it goes on, in words, in the box's order."""
        rows = [(int(tag), face) for tag, face in self.blocks.items()]
        rows.sort(key=lambda row: (_box_order(row[1]), row[0]))
        return [(tag, _caption(face)) for tag, face in rows]

    def table_registry(self, kit: SekigaharaKit) -> TableRegistry:
        """What the table referee reads this set with: each tag's block in the set's kit,
        each RFID sticker's card."""
        return TableRegistry({int(tag): block for tag, block in self.tag_to_block(kit).items()},
                             dict(self.cards))

    def tag_to_block(self, kit: SekigaharaKit) -> dict[str, str]:
        """Tag -> block id in the set's registered kit (`write_kit`): the referee's registry."""
        by_face: dict[tuple[Any, ...], list[str]] = {}
        for block in kit.blocks:
            by_face.setdefault((block.side, *_key(block.model_dump())), []).append(block.id)
        mapping = {}
        for tag in sorted(self.blocks, key=lambda t: (len(t), t)):
            face = self.blocks[tag]
            ids = by_face.get((face["side"], *_key(face)), [])
            if ids:
                mapping[tag] = ids.pop(0)
        return mapping


def _face_key(face: dict[str, Any]) -> tuple[Any, ...]:
    return (face["side"], *_key(face))


def _box_order(block: Any) -> tuple[Any, ...]:
    """Side, clan, then leaders, specials and strengths: how a person sorts the blocks."""
    face = block if isinstance(block, dict) else block.model_dump()
    return (face["side"], face["clan"], -(face["leader"] or 0), str(face["attack"] or ""),
            face["strength"], str(face["setup"] or ""))


def _caption(face: dict[str, Any]) -> str:
    """"Ishida · Mōri 3 · square": the side, the clan's mon and what the block shows."""
    from companion.games.sekigahara.rules.words import clan_name, side_name

    dots = "1 dot" if face["leader"] == 1 else f"{face['leader']} dots"
    shows = (f"leader ({dots})" if face["leader"] else
             str(face["attack"]) if face["attack"] else str(face["strength"]))
    setup = f" · {face['setup']}" if face["setup"] else ""
    return f"{side_name(face['side'])} · {clan_name(face['clan'])} {shows}{setup}"


def set_kit_id(kit_id: str, name: str) -> str:
    """A registered set's kit id: the shipped kit's and the set's name (`sekigahara_set_club`),
    in the lower-case snake case every kit id has."""
    return f"{kit_id}_set_{re.sub(r'[^a-z0-9]+', '_', name.lower()).strip('_') or 'unnamed'}"


def _key(face: dict[str, Any]) -> tuple[Any, ...]:
    return (face["clan"], face["strength"], face["attack"], face["leader"],
            face["any_card"], face["setup"])


def _face_entry(key: tuple[Any, ...], count: int) -> dict[str, Any]:
    clan, strength, attack, leader, any_card, setup = key
    entry: dict[str, Any] = {"clan": clan, "strength": strength}
    if attack:
        entry["attack"] = attack
    if leader:
        entry["leader"] = leader
    if any_card:
        entry["any_card"] = True
    if setup:
        entry["setup"] = setup
    entry["count"] = count
    return entry


def _same_face(block: Any, face: dict[str, Any]) -> bool:
    return _key(block.model_dump()) == _key(face) and block.side == face["side"]


REGISTRATION = Registration(open=Registry.open, entries=ENTRIES)
"""Sekigahara's `register` capability."""
