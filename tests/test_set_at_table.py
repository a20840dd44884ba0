"""A registered physical set at the table (#18): its tags, not in kit order, and its cards'
RFID stickers read through a pseudo-terminal are what the table referee reads with, on
`companion demo --set` and `companion serve --set`; a game played on a set resumes on it."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner
from test_inputs import simulated_set
from test_serve import free_port

from companion.cli import main
from companion.demo import DemoOptions, run_demo
from companion.kits import load_kit
from companion.record.session import Session
from companion.record.store import Store
from companion.table import TableRegistry
from companion.table.sets import load_set, newest_set

REGISTERED: dict[int, str] = {}
"""Tag -> what the person said the block is, as registered by the fixture."""


@pytest.fixture
def club(tmp_path, monkeypatch):
    """The set 'club' registered as a person would, its 96 tags shuffled over the blocks and
    half its cards with RFID stickers, in a data folder of its own."""
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))
    blocks, cards = simulated_set()
    tags = random.Random(5).sample([tag for tag, _ in blocks], len(blocks))
    lines = [f"block {tag} {spec}" for tag, (_, spec) in zip(tags, blocks, strict=True)]
    REGISTERED.update({int(tag): spec for tag, (_, spec) in zip(tags, blocks, strict=True)})
    lines += [f"card {code} {spec or ''}".rstrip() for code, spec in cards]
    done = CliRunner().invoke(main, ["register", "club"], input="\n".join(lines))
    assert done.exit_code == 0, done.output
    return load_set("club")


def test_the_set_is_found_with_its_own_kit_and_tags_out_of_kit_order(club):
    assert newest_set() == "club"
    assert club.kit_id == "sekigahara_set_club" and load_kit(club.kit_id).id == club.kit_id
    in_order = TableRegistry.in_kit_order(b.id for b in load_kit(club.kit).blocks)
    moved = sum(1 for tag, block in club.registry.blocks.items()
                if in_order.block(tag) != block)
    assert moved > 80  # read in kit order, nearly every block would be named wrong
    kit = load_kit(club.kit)
    for tag, said in REGISTERED.items():  # each tag names a block of the face registered
        block = kit.block[club.registry.blocks[tag]]
        side, clan, kind = said.split()[:3]
        assert (block.side, block.clan) == (side, clan), tag
        assert kind == ({"cavalry": "cav", "arquebus": "arq"}.get(block.attack or "")
                        or (f"leader{block.leader}" if block.leader else str(block.strength)))
    stickers = [c for c in club.registry.cards if not c.startswith("CARD:")]
    assert len(stickers) == 55 and club.code_of(club.registry.cards[stickers[0]]) == stickers[0]


@pytest.mark.slow
def test_a_game_at_the_table_with_the_set_is_read_whole(club, tmp_path):
    """The simulated table with the set's tags on the blocks and its stickers' codes through
    the reader on a pseudo-terminal: every action read, none entered by hand. Seed 3's first 24
    actions hold every way an action reaches the table (the blocks drawn, the cards dealt and
    bid, a movement level, moves, Mori's card with its blocks); the 21 after them are more
    moves, at 8 MP a frame."""
    db = tmp_path / "demo.sqlite"
    report = run_demo(DemoOptions(seed=3, port=free_port(), max_actions=24, set_name="club",
                                  db=db))
    assert report.record_verified and report.matches_script, report.misses
    assert report.manual == 0 and report.misses == []
    store = Store(db)
    record = store.load(report.game_id)
    store.close()
    assert record.header.kit.id == "sekigahara_set_club"
    scanned = [e for e in record.entries if e.source == "card_reader"]
    assert scanned, "no card was played in the first 24 actions: raise max_actions"
    verbs = {e.action.verb for e in record.entries}
    assert {"draw_blocks", "deal", "bid", "movement_level", "move", "mori"} <= verbs


def test_serve_reads_the_table_with_the_set_and_plays_on_its_kit(club, tmp_path, monkeypatch):
    started = []
    monkeypatch.setattr("companion.serve.run", started.append)
    db = tmp_path / "games.sqlite"
    result = CliRunner().invoke(main, ["serve", "--db", str(db), "--port", str(free_port()),
                                       "--new", "sekigahara", "--camera",
                                       f"folder:{tmp_path}"])
    assert result.exit_code == 0, result.output
    (options,) = started
    assert options.table.registry == club.registry  # the set registered last, by default
    store = Store(db)
    assert store.load(options.game_id).header.kit.id == "sekigahara_set_club"
    Session.resume(store, options.game_id)  # the record's kit is found again
    store.close()
    wrong = CliRunner().invoke(main, ["serve", "--db", str(db), "--port", str(free_port()),
                                      "--set", "nowhere", "--new", "sekigahara"])
    assert wrong.exit_code == 1 and "no registered set 'nowhere'" in wrong.output
    other = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "other.sqlite"),
                                      "--port", str(free_port()), "--new", "sekigahara"])
    assert other.exit_code == 0
    assert started[-1].table is None  # no camera: no set needed


def test_print_tags_for_a_new_set_plans_and_registers_each_tag_on_a_block(tmp_path,
                                                                          monkeypatch):
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))
    out = tmp_path / "home-tags.pdf"
    done = CliRunner().invoke(main, ["print-tags", "--set", "home", "--first", "200",
                                     "--out", str(out)])
    assert done.exit_code == 0, done.output
    assert "96 tags of set home" in done.output and "96 newly planned" in done.output
    assert out.read_bytes().startswith(b"%PDF")
    from companion.games.sekigahara.physical_set import Registry

    registry = Registry.open(tmp_path / "data" / "sets" / "home.json", "sekigahara", "home")
    assert sorted(int(t) for t in registry.blocks) == list(range(200, 296))
    captions = registry.tag_captions()
    assert captions[0] == (200, "Ishida · Ishida leader (3 dots) · square")
    assert [c.split(" · ")[0] for _, c in captions] == ["Ishida"] * 48 + ["Tokugawa"] * 48
    problems = registry.problems()  # the blocks match the kit; only the cards are left
    assert problems and all("deck" in p for p in problems)
    again = CliRunner().invoke(main, ["print-tags", "--set", "home", "--out", str(out)])
    assert again.exit_code == 0 and "newly planned" not in again.output  # printed again, same
