"""The broadcast says nothing a game hides (issue 35): every registered game, over whole games.

Each message is built as a table builds it (`broadcast.outbox.Outbox`, from a real games
database) for every line of each game's reference records (`spec.samples`) and of seeded random
whole games, and read with a checker built from the game's own statement of what it hides
(`need_secrets()`, the one the web leak sweeps use, `tests/leak_check.py`): no message may say,
as written or in words, anything the public may not see after its line. (Before this, a Shogun
player's secret plan and bid went out in the `actions` message: "Red plan: bid minami 6, spaces
... battle_b kita 9".) `test_broadcast.py` sweeps every topic of a real broker the same way.

The sweep fails on the allow-list it replaced: run with `broadcast/public.py` and `outbox.py` of
commit 4a03920 (a name kept if the public view showed it before or after the line), Shogun's
reference record has 24 messages that say hidden things (line 86, Purple's plan, names
`battle_b nishi_7`: province cards and space names are public, so the card on each space
passed) and Sekigahara's demo 8 (line 53 names block `I-mori-3-1`, which a battle had shown and
the move hid again); both seeded games of each fail too, and skirmish's (a unit a fight had
shown, named as it moved on hidden). Rumble Nation's and Barletta's pass.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from leak_check import checker_for
from web_helpers import HIDES, played_hub

from companion.broadcast.outbox import Outbox
from companion.broadcast.public import strings_in
from companion.engine import PUBLIC
from companion.games import all_games
from companion.record import read_record
from companion.record.replay import Replayer
from companion.record.session import import_record
from companion.record.store import Store

SEEDS = (3, 4)
"""Seeded random whole games per game, besides its reference records."""


def whole_games() -> list[tuple[str, str]]:
    """(game, source): each game's reference records, then seeded random whole games."""
    found = [(name, f"sample:{sample}") for name, spec in sorted(all_games().items())
             for sample in spec.samples]
    return found + [(name, f"seed:{seed}") for name in sorted(all_games()) for seed in SEEDS]


def stored_game(tmp_path: Path, name: str, source: str) -> tuple[Store, int]:
    """The whole game `source` names, in a real games database."""
    kind, _, which = source.partition(":")
    if kind == "sample":
        store = Store(tmp_path / "games.sqlite")
        return store, import_record(store, read_record(all_games()[name].sample(which)))
    hub = played_hub(tmp_path, name, actions=10_000, seed=int(which))
    return hub.session.store, hub.session.game_id


def messages_and_leaks(store: Store, game_id: int, name: str) -> tuple[int, list[str], bool]:
    """Build every message of the game as its table would; (messages, leaks found, whether
    the game hid anything from the public at some moment)."""
    outbox = Outbox(store.path, "sweep", game_id, ("club-night", "t1"))
    try:
        built = outbox.build()
        record = store.load(game_id)
        replayer = Replayer(record.header, "sweep")
        check = checker_for(name, PUBLIC)
        leaks, hid = [], False
        for entry in record.entries:
            assert replayer.feed(entry) is None
            game = replayer.game
            hid = hid or bool(check.secrets(game.rules, game.state))
            [(_seq, payload)] = outbox.payloads(entry.seq, entry.seq)
            found = check.leaks(game.rules, game.state, payload, strings_in(json.loads(payload)))
            leaks += [f"line {entry.seq} ({entry.action.role} {entry.action.verb}): {found[:3]}"
                      for _ in found[:1]]
        retained = json.dumps(outbox.state())
        found = check.leaks(replayer.game.rules, replayer.game.state, retained,
                            strings_in(json.loads(retained)))
        leaks += [f"the retained state: {found[:3]}" for _ in found[:1]]
        return built, leaks, hid
    finally:
        outbox.close()


@pytest.mark.parametrize(("name", "source"), whole_games())
def test_no_broadcast_message_says_what_the_game_hides(tmp_path, name, source):
    store, game_id = stored_game(tmp_path, name, source)
    try:
        built, leaks, hid = messages_and_leaks(store, game_id, name)
        assert built == store.game(game_id).entries > 20
        assert not leaks, f"{name} {source}: {len(leaks)} messages say hidden things: {leaks[:5]}"
        assert hid or name not in HIDES, f"{name} {source} should hide something at some moment"
    finally:
        store.close()


@pytest.mark.parametrize("name", sorted(HIDES))
def test_the_checker_finds_a_secret_written_or_in_words(tmp_path, name):
    """The checker is not blind: each secret of a showcase position is found as the game
    wrote it and as words would put it (`battle_b kita_9` as "battle b kita 9")."""
    hub = played_hub(tmp_path, name)
    game = hub.session.game
    check = checker_for(name, PUBLIC)
    secrets = check.secrets(game.rules, game.state)
    assert secrets
    for secret in sorted(secrets)[:20]:
        spoken = secret.replace('"', " ").replace(":", " ").replace("_", " ")
        assert secret in check.leaks(game.rules, game.state, f'{{"a": 1, {secret}}}'
                                     if secret.startswith('"') else json.dumps([secret]), [])
        assert secret in check.leaks(game.rules, game.state, "{}", [f"So: {spoken}, said."])
    assert check.leaks(game.rules, game.state, json.dumps(game.view(PUBLIC)),
                       strings_in(game.view(PUBLIC))) == []
