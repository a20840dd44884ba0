"""Every sentence the rules and the table referees say to players can be said in Italian
(issue 17: alerts in the players' language, from message catalogs).

Read from the source, so that a new refusal cannot be added in English only: every message
given to `IllegalAction`, `Alert`, `Question`, `Sentence` or a referee's `_alert` is either a
constant (its own msgid) or a `Sentence` template, never an f-string (which no catalog can
match); every constant and template has an Italian translation in the game's catalog (or the
engine's, or the shell's) naming the same values.
"""

from __future__ import annotations

import ast
import string
from collections.abc import Iterator
from pathlib import Path

import pytest
from web_helpers import acting_player, app_for, played_hub

from companion.engine import REFEREE, Action, Alert, IllegalAction, Sentence, say
from companion.games import all_games
from companion.i18n import catalog, translator

ROOT = Path(__file__).parents[1] / "companion"
SAYERS = {"IllegalAction": (1,), "Alert": (1,), "Question": (0,), "Sentence": (0,),
          "_alert": (1,), "refusal": (1,), "game_ended": (0,)}
"""Calls whose positional arguments (by index) are said to a player."""
SAID_KEYWORDS = ("message", "fix", "public_fix", "text")
ENGINE_FILES = sorted((ROOT / "engine").rglob("*.py"))


def _said(tree: ast.AST) -> Iterator[tuple[int, ast.expr]]:
    """(line, expression) of every argument a player reads."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(
            node.func, "id", "")
        for keyword in node.keywords:  # how a game ended, on its victory banner
            if keyword.arg == "termination":
                yield node.lineno, keyword.value
        if name not in SAYERS:
            continue
        for index in SAYERS[name]:
            if index < len(node.args):
                yield node.lineno, node.args[index]
        for keyword in node.keywords:
            if keyword.arg in SAID_KEYWORDS:
                yield node.lineno, keyword.value


def _constants(expr: ast.expr) -> Iterator[str]:
    """The constant texts an expression may say: `"a" if x else "b"` says both."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str) and expr.value:
        yield expr.value
    elif isinstance(expr, ast.IfExp):
        yield from _constants(expr.body)
        yield from _constants(expr.orelse)
    elif isinstance(expr, ast.BoolOp):
        for value in expr.values:
            yield from _constants(value)


def _messages(files: list[Path]) -> tuple[dict[str, str], list[str]]:
    """Constant messages and templates (text -> where), and every f-string said (where)."""
    found: dict[str, str] = {}
    fstrings: list[str] = []
    for path in files:
        for line, expr in _said(ast.parse(path.read_text(), str(path))):
            where = f"{path.relative_to(ROOT.parent)}:{line}"
            if isinstance(expr, ast.JoinedStr):
                fstrings.append(where)
                continue
            for text in _constants(expr):
                found.setdefault(text, where)
    return found, fstrings


def _names(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def _game_files(name: str) -> list[Path]:
    folder = ROOT / "games" / name
    return sorted(p for p in folder.rglob("*.py") if p.name not in ("synth.py",))


def _check(files: list[Path], packages: tuple[str, ...]) -> list[str]:
    found, fstrings = _messages(files)
    problems = [f"{where}: an f-string is said to players; make it a Sentence" for where in
                fstrings]
    tables = [catalog(package, "it") for package in packages]
    for text, where in sorted(found.items(), key=lambda kv: kv[1]):
        italian = next((table[text] for table in tables if text in table), None)
        if italian is None:
            problems.append(f"{where}: no Italian for {text!r}")
        elif _names(italian) != _names(text):
            problems.append(f"{where}: the Italian of {text!r} names {_names(italian)}")
    return problems


@pytest.mark.parametrize("name", sorted(all_games()))
def test_every_sentence_a_game_says_has_its_italian(name):
    problems = _check(_game_files(name), (f"companion.games.{name}", "companion.engine",
                                          "companion.web"))
    assert not problems, "\n".join(problems)


def test_every_sentence_the_engine_says_has_its_italian():
    problems = _check(ENGINE_FILES, ("companion.engine", "companion.web"))
    assert not problems, "\n".join(problems)


def test_a_sentence_is_said_again_with_its_values_and_its_parts_translated():
    where = Sentence("at {place}", place="Osaka")
    text = Sentence("{block} is not at {place}: it stands {where}", block="Ukita 2",
                    place="Gifu", where=where)
    assert text == "Ukita 2 is not at Gifu: it stands at Osaka"
    italian = {"{block} is not at {place}: it stands {where}":
               "{block} non è a {place}: si trova {where}", "at {place}": "a {place}"}
    assert say(text, lambda s: italian.get(s, s)) == "Ukita 2 non è a Gifu: si trova a Osaka"
    # a catalog entry naming a value the sentence lacks falls back to the English
    assert say(where, lambda s: "a {luogo}") == "at Osaka"


def test_an_alert_for_another_player_is_said_in_their_language():
    alert = Alert("7.3.1", Sentence("{block} has moved", block="Ukita 2"), role="ishida")
    theirs = alert.for_role("tokugawa")
    assert "Ukita" not in theirs["message"]
    assert say(theirs["message"], translator("it", "companion.web")) == \
        "Un'azione di Ishida è stata rifiutata"


def test_a_refusal_keeps_its_sentence_with_its_action():
    refusal = IllegalAction("7.1", Sentence("no movement level {level}", level="huge"))
    again = refusal.with_action(refusal.action) if refusal.action else refusal
    assert isinstance(again.message, Sentence) and again.message.values == {"level": "huge"}


def test_a_refusal_at_the_hub_is_said_in_each_screens_language(tmp_path):
    """A real refusal (acting out of turn, the engine's own sentence) reaches an Italian screen
    in Italian and an English one unchanged."""
    hub = played_hub(tmp_path, "skirmish", actions=3)
    actor = acting_player(hub)
    idle = next(r for r in hub.session.game.rules.roles if r != actor)
    with pytest.raises(IllegalAction):
        hub.act(REFEREE, Action(idle, "pass", {}), "tablet")
    english, italian = hub.view(REFEREE)["alert"], hub.view(REFEREE, "it")["alert"]
    said = {"red": ("Red", "Rosso"), "blue": ("Blue", "Blu")}  # the roles as players say them
    assert english["message"] == \
        f"{said[idle][0]} cannot act now: the game waits for {said[actor][0]}"
    assert italian["message"] == \
        f"{said[idle][1]} non può agire ora: la partita attende {said[actor][1]}"


def test_a_question_kept_over_a_restart_is_still_said_in_italian(tmp_path):
    from companion.record.session import Session
    from companion.web.hub import Hub

    hub = played_hub(tmp_path, "skirmish", actions=3)
    options = tuple(hub.session.game.legal_actions(acting_player(hub)))[:2]
    hub.ask(Sentence("{game} takes no corrections", game="Skirmish"), options)
    again = Hub(Session.resume(hub.session.store, hub.session.game_id))
    assert again.view(REFEREE, "it")["question"]["text"] == \
        "Skirmish non accetta correzioni"


def test_the_legal_words_of_a_table_alert_are_said_in_italian_too(tmp_path):
    """Words with no actions behind them (a table alert's, the movement levels) are said
    through the catalog as the message is."""
    hub = played_hub(tmp_path, "sekigahara")
    actor = acting_player(hub)
    hub.raise_alert(Alert("7.1", Sentence("no movement level {level!r}", level="huge"),
                          (Sentence("minimal"), "none"), actor))
    assert hub.view(actor)["alert"]["legal"] == ["minimal", "none"]
    assert hub.view(actor, "it")["alert"]["legal"][0] == "minimo"


def test_how_a_game_ended_is_said_in_each_screens_language(tmp_path):
    """The victory banner's reason (the rules write it as a Sentence) on an Italian screen, in
    the live view and in the replay."""
    from companion.web.replays import outcome_said

    hub = played_hub(tmp_path, "skirmish", actions=5000)
    game = hub.session.game
    assert game.outcome is not None, "the random game ran to its end"
    english = hub.view(REFEREE)["view"]["outcome"]["termination"]
    italian = hub.view(REFEREE, "it")["view"]["outcome"]["termination"]
    assert english == game.outcome.termination
    assert italian != english and italian in {
        "ultimo turno giocato", *(f"{side} {what}" for side in game.rules.roles
                                  for what in ("non ha più blocchi", "ha preso il campo nemico"))}
    assert outcome_said(game, "it")["termination"] == italian
    client = app_for(hub)[0].test_client()
    replayed = client.get(f"/api/replay/{hub.session.game_id}?lang=it").get_json()
    assert replayed["outcome"]["termination"] == italian


def test_a_kept_or_translated_sentence_that_cannot_be_formatted_is_still_said():
    """A kept question or a catalog line with a field the values cannot give (`{a.b}`,
    `{a[0]}`, a missing name) is said as text, never an error: a server must start."""
    from companion.engine.core.sentence import from_data

    for template in ("{a.b} moved", "{a[0]} moved", "{nobody} moved"):
        assert from_data({"template": template, "values": {"a": 3}}) == template
    said = Sentence("{block} moved", block="Ukita")
    for broken in ("{block.x} mosso", "{block[x]} mosso", "{blocco} mosso"):
        assert say(said, lambda _s, b=broken: b) == "Ukita moved"
