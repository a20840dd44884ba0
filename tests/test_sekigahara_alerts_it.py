"""Sekigahara's refusals and table alerts in the screen's language (issue 17): a refused action
and an alert from the table referee (a camera diff that breaks a rule) read in Italian on an
Italian screen, with the blocks and places they name, and in English, unchanged, on an English
one; the other side reads neither the block nor its name, in either language (3.1)."""

from __future__ import annotations

import re
from collections import deque
from pathlib import Path

import pytest
from web_helpers import acting_player, hidden_from, played_hub

from companion.engine import Action, Alert, IllegalAction, Sentence
from companion.games.sekigahara.referee import SekigaharaReferee
from companion.games.sekigahara.rules import SekigaharaRules
from companion.games.sekigahara.rules.movement import movable_blocks
from companion.games.sekigahara.rules.words import block_name, side_name
from companion.i18n import translator
from companion.table import TableRegistry
from companion.vision.table import TableDiff
from companion.web.hub import Hub

ENGLISH = re.compile(r"\b(no road|joins|cannot|go that way|moved|may move|location\(s\)|"
                     r"blocks together|highway|command|forced march|back at|Put|put)\b")
"""Words of the English templates that an Italian alert must not show."""


def _rules(hub: Hub) -> SekigaharaRules:
    rules = hub.session.game.rules
    assert isinstance(rules, SekigaharaRules)
    return rules


def _mover(hub: Hub) -> tuple[str, str, str]:
    """(side, block, where it stands): a block of the acting side that may move now, one whose
    name is words ("Maeda arquebus", "comandante Maeda") where the game offers one."""
    rules, state = _rules(hub), hub.session.game.state
    side = acting_player(hub)
    assert state.phase == "movement" and state.active == side, "the played game moved on"
    found = [(block, source) for source in sorted(rules.kit.neighbours)
             for block in movable_blocks(rules.ctx, state, side, source)]
    assert found, "no block of the acting side may move"
    worded = [(b, s) for b, s in found if rules.piece_name(b, "it") != rules.piece_name(b)]
    block, source = (worded or found)[0]
    return side, block, source


def _far(hub: Hub, source: str, steps: int) -> str:
    """A location `steps` roads from `source` (and no nearer), by the map's roads."""
    neighbours = _rules(hub).kit.neighbours
    distance = {source: 0}
    queue = deque([source])
    while queue:
        here = queue.popleft()
        for there in sorted(neighbours[here]):
            if there not in distance:
                distance[there] = distance[here] + 1
                queue.append(there)
    return next(place for place, d in sorted(distance.items()) if d == steps)


def _other(hub: Hub, side: str) -> str:
    return next(role for role in hub.roles if role != side)


def test_a_refused_move_reads_in_italian_with_its_block_and_places(tmp_path: Path) -> None:
    hub = played_hub(tmp_path, "sekigahara")
    rules = _rules(hub)
    side, block, source = _mover(hub)
    target = _far(hub, source, 2)  # no road joins the two (7.3.1)
    with pytest.raises(IllegalAction) as refused:
        hub.act(side, Action(side, "move", {"from": source, "paths": {block: [target]}}),
                "phone")
    assert refused.value.rule == "7.3.1" and isinstance(refused.value.message, Sentence)
    start, end = rules.ctx.name(source), rules.ctx.name(target)
    english, italian = block_name(rules.kit, block), rules.piece_name(block, "it")

    mine = hub.view(side)["alert"]  # the English screen: as the rules said it
    assert mine["message"] == f"no road joins {start} and {end}: {english} cannot go that way"
    assert mine["fix"] == "Choose one of the legal actions" and mine["legal"]

    mine_it = hub.view(side, "it")["alert"]
    assert mine_it["message"] == (f"nessuna strada collega {start} e {end}: {italian} non può "
                                  "passare di lì")
    assert not ENGLISH.search(mine_it["message"]), mine_it["message"]
    assert mine_it["fix"] == translator("it", "companion.web")("Choose one of the legal actions")
    assert mine_it["fix"] != mine["fix"] and mine_it["summary"] != mine["summary"]
    assert all(words and "{" not in words for words in mine_it["legal"])

    other = _other(hub, side)
    for lang in ("en", "it"):
        theirs = hub.view(other, lang)["alert"]
        text = str(theirs)
        assert block not in text and english not in text and italian not in text
        assert not [s for s in hidden_from(hub, other) if s in text]
    assert hub.view(other, "it")["alert"]["message"] == \
        f"{side_name(side)}: questa mossa non è consentita"


def test_a_table_alert_reads_in_italian_and_the_other_side_reads_no_block(tmp_path: Path) -> None:
    hub = played_hub(tmp_path, "sekigahara")
    rules = _rules(hub)
    side, block, source = _mover(hub)
    target = _far(hub, source, 5)  # farther than any group moves (7.3.3)
    registry = TableRegistry.in_kit_order(b.id for b in rules.kit.blocks)
    referee = SekigaharaReferee(rules, registry)
    diff = TableDiff({registry.tags[block]: (source, target)}, {}, {})
    rulings = referee.on_diff(hub.session.game.state, diff)
    assert len(rulings) == 1 and isinstance(rulings[0], Alert), rulings
    alert = rulings[0]
    assert alert.role == side and alert.rule.startswith("7.3")
    hub.raise_alert(alert)
    start, end = rules.ctx.name(source), rules.ctx.name(target)
    english, italian = block_name(rules.kit, block), rules.piece_name(block, "it")
    who = side_name(side)

    mine = hub.view(side)["alert"]  # the English screen: unchanged
    assert mine["message"] == str(alert.message)
    assert mine["message"].startswith(f"{english} moved {start} → {end}: ")
    assert mine["fix"] == alert.fix == f"Put {english} back at {start}"

    mine_it = hub.view(side, "it")["alert"]
    assert mine_it["message"].startswith(f"{italian}: spostamento {start} → {end}: ")
    assert not ENGLISH.search(mine_it["message"]), mine_it["message"]
    assert "{" not in mine_it["message"]
    if alert.rule in ("7.3.3", "7.3.5"):  # the reach, said part by part (7.3.3-7.3.6)
        assert f"{italian} può muovere di " in mine_it["message"]
        assert "strada principale" in mine_it["message"] and "marcia forzata" in \
            mine_it["message"]
    assert mine_it["fix"] == f"Rimettere {italian} a {start}"

    other = _other(hub, side)
    theirs, theirs_it = hub.view(other)["alert"], hub.view(other, "it")["alert"]
    assert theirs["fix"] == alert.public_fix == f"Put the {who} block back at {start}"
    assert theirs_it["fix"] == f"Rimettere il blocco {who} a {start}"
    assert theirs_it["message"] == f"{who}: questa mossa non è consentita"
    for shown in (theirs, theirs_it):
        text = str(shown)
        assert block not in text and english not in text and italian not in text
        assert not [s for s in hidden_from(hub, other) if s in text]
