"""Issue #16, trust at the table: a leak-and-authority sweep of every route, with every kind of
credential, for every game with a screen (docs/security.md says what it promises).

The routes come from the app's own URL map, so a new route is swept without touching this file
(a route with a placeholder the sweep cannot fill fails, saying so). The credentials are none,
malformed headers, an unknown token, a revoked one, the referee's, each player's, a phone that
claimed a pairing the referee has not confirmed, and a player's token in the query string
(only the live stream may read it). For each, every response must hide what its role may not
see, every refused request must leave the record as it was, and every answer under /api/ is
JSON. Single promises (card codes that cannot be probed, undo, pairing, the Host check,
replays of other games, errors, bounded fields) each have a test of their own below.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from game_hubs import skirmish_hub
from web_helpers import (
    HIDES,
    SCREENS,
    acting_player,
    app_for,
    hidden_from,
    played_hub,
)
from werkzeug.test import TestResponse

from companion.engine import PUBLIC, REFEREE, Alert, Game
from companion.games import all_games, game
from companion.record import read_record, replay
from companion.record.session import import_record
from companion.web.hub import Hub

JSON = "application/json"
REFUSED = range(400, 500)
FOREIGN_HOSTS = ("http://evil.example/", "http://attacker.test:8000/")
OWN_HOSTS = ("http://localhost/", "http://127.0.0.1/", "http://127.0.0.1:8000/")
WRONG_TYPES = "wrong types"
JUNK: tuple[tuple[str, bytes, str], ...] = (
    ("malformed JSON", b'{"text": ', JSON),
    ("a JSON list", b"[]", JSON),
    ("a JSON string", b'"red pass {}"', JSON),
    ("JSON null", b"null", JSON),
    ("NaN", b'{"text": NaN, "choice": NaN, "code": NaN, "pair": NaN}', JSON),
    ("nested lists", b"[" * 3000 + b"]" * 3000, JSON),
    ("bytes that are not UTF-8", b"\xff\xfe\x00{", JSON),
    (WRONG_TYPES, json.dumps({"text": 5, "role": [], "verb": {}, "args": "x", "choice": "0",
                                "code": ["x"], "paused": "yes", "pair": 7, "by": {},
                                "note": [], "seq": "1"}).encode(), JSON),
    ("a form", b"text=red+pass+%7B%7D&code=x", "application/x-www-form-urlencoded"),
)
"""Bodies no route can take: each must be refused, answered in JSON under /api/, and change
nothing."""


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# --- the live table ---------------------------------------------------------------------------


@dataclass
class Credential:
    """One way of asking. `role` is the role the server must treat it as; `issue` names a role
    whose fresh token is sent with each request (so that a rate limit counted per
    token never hides a route from the sweep); `query` is a token sent as `?token=`."""

    name: str
    role: str
    header: str | None = None
    issue: str | None = None
    query: str | None = None
    query_role: str = PUBLIC

    def headers(self, hub: Hub) -> dict[str, str]:
        if self.issue is not None:
            return bearer(hub.tokens.issue(self.issue))
        return {} if self.header is None else {"Authorization": self.header}

    def role_at(self, path: str) -> str:
        """The role of the answer: a query token counts only for the live stream."""
        if self.query is not None and path.split("?")[0] == "/stream":
            return self.query_role
        return self.role


@dataclass
class Table:
    """A game played a few dozen actions in, served by a Flask test client, with another
    unfinished game of the same kind in the same store, a question and a refusal naming the
    acting side's hidden pieces on the screens, one phone pairing on offer (unclaimed) and
    every kind of credential."""

    name: str
    hub: Hub
    app: Flask
    client: FlaskClient
    tokens: dict[str, str]
    actor: str
    other: str
    other_id: int
    other_game: Game[Any]
    credentials: list[Credential] = field(default_factory=list)
    offer_secret: str | None = None
    setup_problems: list[str] = field(default_factory=list)
    addresses: Iterator[int] = field(default_factory=itertools.count)

    @property
    def game_id(self) -> int:
        return self.hub.session.game_id

    def address(self) -> dict[str, str]:
        """A client address of its own for each request, so that a rate limit counted per
        address never hides a route from the sweep."""
        n = next(self.addresses) + 1
        return {"REMOTE_ADDR": f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"}

    def referee(self) -> dict[str, str]:
        return bearer(self.hub.tokens.issue(REFEREE))

    def player(self, role: str) -> dict[str, str]:
        return bearer(self.hub.tokens.issue(role))


def record_of(hub: Hub, game_id: int | None = None) -> list[tuple[Any, ...]]:
    """The stored record of a game, line by line (what an unauthorized request must leave)."""
    record = hub.session.store.load(hub.session.game_id if game_id is None else game_id)
    return [(e.seq, e.source, e.action.text(), e.by, e.note) for e in record.entries]


def state_of(table: Table) -> tuple[Any, ...]:
    """What any request may change only with authority: the record (in memory and stored,
    the other game's too), whether the game is paused."""
    hub = table.hub
    return (len(hub.session.entries), hub.session.store.game(table.game_id).entries,
            hub.session.store.game(table.other_id).entries, hub.paused)


def last_in_force(hub: Hub) -> str | None:
    """The role of the last action not undone (the referee's undo lines take one back)."""
    effective: list[Any] = []
    for entry in hub.session.entries:
        if entry.action.role == REFEREE and entry.action.verb == "undo":
            seq = entry.action.args.get("seq")
            effective = [e for e in effective if e.seq != seq]
        else:
            effective.append(entry)
    return effective[-1].action.role if effective else None


def pairing_secret(url: str) -> str | None:
    return url.split("#pair=", 1)[1] if "#pair=" in url else None


def build_table(tmp_path: Path, name: str) -> Table:
    other_hub = played_hub(tmp_path, name, seed=11)
    other_id = other_hub.session.game_id
    hub = played_hub(tmp_path, name)
    other_game = replay(hub.session.store.load(other_id)).game
    assert other_game.outcome is None, "the other stored game should be unfinished"
    app, tokens = app_for(hub)
    client = app.test_client()
    actor = acting_player(hub)
    other = next(r for r in hub.roles if r != actor)
    table = Table(name, hub, app, client, tokens, actor, other, other_id, other_game)
    ref = bearer(tokens[REFEREE])

    # A revoked token: issued for the acting side, then its devices revoked by the referee.
    revoked = hub.tokens.issue(actor)
    gone = client.delete(f"/api/pair/{actor}", headers=ref, json={})
    if gone.status_code != 200 or hub.tokens.role(revoked) != PUBLIC:
        table.setup_problems.append(f"DELETE /api/pair/{actor} by the referee did not revoke "
                                    f"({gone.status_code} {gone.get_data(as_text=True)[:120]})")
    tokens[actor] = hub.tokens.issue(actor)

    # A phone that claimed the acting side's pairing, not yet confirmed by the referee.
    pending: str | None = None
    offer = client.post(f"/api/pair/{actor}", headers=ref, json={})
    secret = pairing_secret(str((offer.get_json(silent=True) or {}).get("url", "")))
    if secret is None:
        table.setup_problems.append(f"POST /api/pair/{actor} gave no '#pair=' secret: "
                                    f"{offer.status_code} {offer.get_data(as_text=True)[:160]}")
    else:
        claim = client.post("/api/pair/claim", json={"pair": secret})
        pending = (claim.get_json(silent=True) or {}).get("token")
        if claim.status_code != 200 or not pending:
            table.setup_problems.append(f"POST /api/pair/claim: {claim.status_code} "
                                        f"{claim.get_data(as_text=True)[:160]}")
            pending = None
    # And a pairing on offer for the other side, unclaimed: its secret must never be shown.
    open_offer = client.post(f"/api/pair/{other}", headers=ref, json={})
    table.offer_secret = pairing_secret(str((open_offer.get_json(silent=True) or {})
                                            .get("url", "")))

    table.credentials = [
        Credential("no credential", PUBLIC),
        Credential("'Bearer' alone", PUBLIC, header="Bearer"),
        Credential("'Basic abc'", PUBLIC, header="Basic abc"),
        Credential("a 5000-character bearer token", PUBLIC, header="Bearer " + "x" * 5000),
        Credential("an unknown token", PUBLIC, header="Bearer " + "u" * 32),
        Credential("a revoked token", PUBLIC, header=f"Bearer {revoked}"),
        Credential(f"{actor}'s token in the query string", PUBLIC, query=tokens[actor],
                   query_role=actor),
        *([Credential(f"an unconfirmed phone of {actor}", PUBLIC, header=f"Bearer {pending}")]
          if pending else []),
        *(Credential(f"{role}'s token", role, issue=role) for role in hub.roles),
        Credential("the referee's token", REFEREE, issue=REFEREE),
    ]
    # The question and the refusal name the acting side's hidden pieces (as in test_web).
    own = hidden_from(hub, PUBLIC) - hidden_from(hub, actor)
    hub.ask("Which one?", tuple(hub.session.game.legal_actions(actor)[:2]))
    hub.raise_alert(Alert("1.1", "refused: " + " ".join(sorted(own)), (), actor))
    assert hidden_from(hub, PUBLIC) or name not in HIDES, "the position should hide something"
    return table


# --- the routes -------------------------------------------------------------------------------

PLACEHOLDER = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>")


def fills(table: Table, argument: str) -> list[str]:
    """What each placeholder of a route is filled with."""
    known: dict[str, list[str]] = {
        "game_id": [str(table.game_id), str(table.other_id), "99999"],
        "who": [*table.hub.roles, "nobody"],
        "name": sorted(all_games()),
        "filename": ["companion.js"],
        "lang": ["en", "it", "xx"],
        "seq": ["1", "2", "99999"],
    }
    if argument not in known:
        raise AssertionError(f"the sweep does not know how to fill <{argument}>: say so in "
                             f"tests/test_security_sweep.py fills()")
    return known[argument]


@dataclass(frozen=True)
class Route:
    rule: str
    method: str
    path: str


def routes(table: Table) -> list[Route]:
    """Every rule of the app and each of its methods, placeholders filled every way."""
    found = []
    for rule in table.app.url_map.iter_rules():
        names = [m.group(2) for m in PLACEHOLDER.finditer(rule.rule)]
        for values in itertools.product(*(fills(table, n) for n in names)):
            path = rule.rule
            for value in values:
                path = PLACEHOLDER.sub(value, path, count=1)
            for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
                found.append(Route(rule.rule, method, path))
    return found


def extra_reads(table: Table) -> list[Route]:
    """Reads the URL map does not spell: a replay at a past moment, unknown paths."""
    middle = len(table.hub.session.entries) // 2
    return [Route("/api/replay/<int:game_id>", "GET", f"/api/replay/{table.game_id}?at={middle}"),
            Route("/api/replay/<int:game_id>", "GET", f"/api/replay/{table.other_id}?at=5"),
            Route("(none)", "GET", "/nowhere"), Route("(none)", "GET", "/api/nowhere")]


def legal_text(hub: Hub, role: str) -> str | None:
    legal = hub.session.game.legal_actions(role) if role in hub.session.game.to_move() else []
    return legal[0].text() if legal else None


def correction(table: Table) -> dict[str, Any]:
    """A correction the game would take from the referee (where it has corrections)."""
    if table.name == "sekigahara":
        block = sorted(hidden_from(table.hub, PUBLIC) & set(table.hub.session.game.rules.ctx
                                                            .owner))[0]
        return {"block": block, "to": "kiso"}
    return {}


def bodies(table: Table, route: Route, cred: Credential) -> list[tuple[str, Any]]:
    """JSON bodies fit for the route that this credential has no authority to send (a
    player's own legal action, own undo and own answer, and anything the referee may do,
    are left to the dedicated tests: they would change the game under the sweep)."""
    hub, who = table.hub, cred.role
    rule = route.rule
    if rule == "/api/action":
        sent: list[tuple[str, Any]] = []
        for role in hub.roles if who != REFEREE else ():  # the referee may act for anyone
            if role == who:
                sent.append((f"{role} nonsense", {"text": f"{role} nonsense {{}}"}))
                continue
            text = legal_text(hub, role) or f"{role} pass {{}}"
            sent.append((f"{role}'s action", {"text": text}))
            sent.append((f"{role}'s action, source camera", {"text": text, "source": "camera"}))
        sent.append(("the referee's correction as an action",
                     {"role": REFEREE, "verb": "correct", "args": correction(table)}))
        sent.append(("the referee's undo as an action",
                     {"role": REFEREE, "verb": "undo", "args": {"seq": len(hub.session.entries)}}))
        return sent
    if rule == "/api/undo":
        if who == REFEREE or (who in hub.roles and last_in_force(hub) == who):
            return []
        return [("undo", {}), ("undo by the referee from the tablet",
                               {"by": REFEREE, "source": "tablet"})]
    if rule == "/api/answer":
        owner = hub.question[1][0].role if hub.question and hub.question[1] else None
        return [] if who in (REFEREE, owner) else [("answer 0", {"choice": 0})]
    if rule == "/api/scan":
        return [("a card code", {"code": "CARD:x"})]
    if rule == "/api/pause":
        return [] if who == REFEREE else [("pause", {"paused": True})]
    if rule == "/api/correct":
        return [] if who == REFEREE else [("correction", {"args": correction(table), "by": "x",
                                                          "note": "y"})]
    if rule.startswith("/api/pair"):
        if who == REFEREE:
            return []  # pairing is the referee's: test_pairing_* below
        return [("pairing", {}), ("a code", {"code": "ABCD"}), ("a secret", {"pair": "x" * 24})]
    return [("an empty object", {})] if who != REFEREE else []


def junk_for(table: Table, route: Route, cred: Credential) -> tuple[tuple[str, bytes, str], ...]:
    """Junk goes everywhere but to the referee's pairing routes (whose DELETE may take no
    body at all). Where the credential may undo or pause, a JSON object of wrongly typed
    fields may be a request it is allowed to make (those routes read no field, or may
    default one): only what is not a JSON object at all is sent there."""
    if cred.role == REFEREE and (route.rule.startswith("/api/pair")
                                 or not route.rule.startswith("/api/")):
        return ()
    if route.rule in ("/api/undo", "/api/pause") and not bodies(table, route, cred):
        return tuple(j for j in JUNK if j[0] != WRONG_TYPES)
    return JUNK


# --- asking -----------------------------------------------------------------------------------


def ask(table: Table, cred: Credential, method: str, path: str, *,
        headers: dict[str, str] | None = None, base_url: str | None = None,
        **kwargs: Any) -> tuple[TestResponse, str]:
    """One request as `cred`; the response and its text (a stream's first message)."""
    if cred.query is not None:
        path += ("&" if "?" in path else "?") + f"token={cred.query}"
    sent = {**(headers if headers is not None else cred.headers(table.hub))}
    options: dict[str, Any] = {"environ_base": table.address()}
    if base_url is not None:
        options["base_url"] = base_url
    response = table.client.open(path, method=method, headers=sent, buffered=False,
                                 **options, **kwargs)
    return response, read(response)


def read(response: TestResponse) -> str:
    try:
        if response.mimetype == "text/event-stream":
            chunks = iter(response.response)
            text = ""
            for _ in range(5):
                text += next(chunks).decode()
                if "data:" in text:
                    break
            return text
        return response.get_data(as_text=True)
    finally:
        response.close()


def secrets_for(table: Table, role: str, path: str) -> set[str]:
    """What an answer for `role` at `path` may not carry: the role's hidden ids in the game
    the path is about, and the unclaimed pairing secret."""
    if role == REFEREE:
        return set()
    about_other = path.startswith((f"/api/replay/{table.other_id}", f"/replay/{table.other_id}"))
    hidden = (hidden_from(table.hub, PUBLIC, table.other_game) if about_other
              else hidden_from(table.hub, role))
    if "?at=" in path and path.startswith(f"/api/replay/{table.game_id}"):
        at = int(path.split("?at=")[1].split("&")[0])
        past = replay(table.hub.session.store.load(table.game_id), upto_line=at + 1).game
        hidden = hidden_from(table.hub, role, past)
    return hidden | ({table.offer_secret} if table.offer_secret else set())


def answer_problems(table: Table, cred: Credential, route: Route, what: str,
                    response: TestResponse, text: str) -> list[str]:
    """What is wrong with one answer, whoever asked: a leak, not JSON under /api/, a crash."""
    where = f"{route.method} {route.path} ({what}) with {cred.name}"
    problems = []
    role = cred.role_at(route.path)
    leaked = sorted(s for s in secrets_for(table, role, route.path) if s in text)
    if leaked:
        problems.append(f"{where}: the {role} role is shown {leaked[:3]}")
    if route.path.startswith("/api/") and response.mimetype != JSON:
        problems.append(f"{where}: {response.status_code} answered as {response.mimetype!r}, "
                        f"not JSON: {text[:100]!r}")
    if response.status_code >= 500 or "Traceback" in text:
        problems.append(f"{where}: {response.status_code} {text[:160]!r}")
    db = str(table.hub.session.store.path)
    if db in text:
        problems.append(f"{where}: the answer names the database {db}")
    return problems


def fail_on(problems: list[str], what: str) -> None:
    assert not problems, (f"{len(problems)} {what}; first:\n  " + "\n  ".join(problems[:12]))


# --- the sweeps -------------------------------------------------------------------------------


@pytest.fixture(params=SCREENS)
def table(request: pytest.FixtureRequest, tmp_path: Path) -> Table:
    return build_table(tmp_path, request.param)


def test_the_sweep_covers_every_route_and_credential(table: Table) -> None:
    """The sweep's own check: it found the routes of every blueprint, and built every kind
    of credential (a pairing that cannot be claimed leaves one out, and fails here)."""
    found = {r.rule for r in routes(table)}
    for rule in ("/", "/play", "/referee", "/api/view", "/api/action", "/api/undo",
                 "/api/scan", "/api/pair/<who>", "/api/replay/<int:game_id>", "/stream",
                 "/games/<name>/screen.js", "/api/pair/claim", "/api/pair/<who>/confirm"):
        assert rule in found, f"the URL map has no {rule}"
    fail_on(table.setup_problems, "problems building the credentials")
    assert any(c.name.startswith("an unconfirmed phone") for c in table.credentials)


def test_no_read_leaks_hidden_information_to_any_credential(table: Table) -> None:
    """Every GET route (and the stream's first message), with every credential: nothing the
    credential's role may not see, the role the credential is worth, JSON under /api/."""
    reads = [r for r in routes(table) if r.method == "GET"] + extra_reads(table)
    problems: list[str] = []
    for cred in table.credentials:
        for route in reads:
            response, text = ask(table, cred, "GET", route.path)
            problems += answer_problems(table, cred, route, "read", response, text)
            if route.path in ("/api/view", "/stream") and response.status_code == 200:
                data = (json.loads(text.split("data: ", 1)[1]) if route.path == "/stream"
                        else json.loads(text))
                if data.get("role") != cred.role_at(route.path):
                    problems.append(f"GET {route.path} with {cred.name}: role "
                                    f"{data.get('role')!r}, expected {cred.role_at(route.path)!r}")
                if cred.role != REFEREE and data.get("pairing"):
                    problems.append(f"GET {route.path} with {cred.name}: pairings shown to a "
                                    f"{cred.role} screen: {sorted(data['pairing'])}")
    fail_on(problems, f"leaks in {len(reads)} reads x {len(table.credentials)} credentials")


def test_no_change_without_authority_and_no_leak_in_any_answer(table: Table) -> None:
    """Every POST and DELETE route, with every credential, with bodies fit for the route and
    junk: a credential that is not the referee's nor the acting role's own changes nothing
    (the record, the other game's, the pause, the tokens and the pairing on offer); every
    answer hides what the role may not see; junk is refused in JSON; other methods get 405."""
    hub = table.hub
    changes = [r for r in routes(table) if r.method not in ("GET",)]
    sentinels = {role: hub.tokens.issue(role) for role in (*hub.roles, REFEREE)}
    problems: list[str] = []
    sent = 0
    records = (record_of(hub), record_of(hub, table.other_id))
    for cred in table.credentials:
        if (record_of(hub), record_of(hub, table.other_id)) != records:
            problems.append(f"the stored records changed before {cred.name}'s requests")
        for route in changes:
            sendings: list[tuple[str, dict[str, Any], bool]] = [
                (what, {"json": body}, False) for what, body in bodies(table, route, cred)]
            sendings += [(what, {"data": raw, "content_type": kind}, True)
                         for what, raw, kind in junk_for(table, route, cred)]
            for what, payload, junk in sendings:
                before = state_of(table)
                response, text = ask(table, cred, route.method, route.path, **payload)
                sent += 1
                problems += answer_problems(table, cred, route, what, response, text)
                if state_of(table) != before:
                    problems.append(f"{route.method} {route.path} ({what}) with {cred.name} "
                                    f"changed the table: {before} -> {state_of(table)} "
                                    f"({response.status_code} {text[:100]!r})")
                    fail_on(problems, "unauthorized changes (the sweep stops at the first: "
                            "the game moved under it)")
                if junk and response.status_code not in REFUSED:
                    problems.append(f"{route.method} {route.path} ({what}) with {cred.name}: "
                                    f"{response.status_code}, not refused")
                if cred.role not in (REFEREE, *hub.roles) and response.status_code < 400:
                    problems.append(f"{route.method} {route.path} ({what}) with {cred.name}: "
                                    f"{response.status_code}, a change accepted without a "
                                    f"valid credential")
        for rule in {r.rule: r for r in changes + routes(table)}.values():
            if rule.path.startswith("/api/"):
                response, text = ask(table, cred, "PUT", rule.path, json={})
                if response.status_code != 405 or response.mimetype != JSON:
                    problems.append(f"PUT {rule.path} with {cred.name}: {response.status_code} "
                                    f"{response.mimetype}, not a 405 in JSON")
    for role, token in sentinels.items():
        if hub.tokens.role(token) != role:
            problems.append(f"{role}'s token was revoked by a request without authority")
    if table.offer_secret is not None:
        claim = table.client.post("/api/pair/claim", json={"pair": table.offer_secret},
                                  environ_base=table.address())
        if claim.status_code != 200:
            problems.append(f"the pairing on offer for {table.other} did not survive the "
                            f"sweep: claim {claim.status_code} {claim.get_data(as_text=True)}")
    if (record_of(hub), record_of(hub, table.other_id)) != records:
        problems.append("the stored records changed during the sweep")
    fail_on(problems, f"problems in {sent} changes")


def test_every_route_refuses_a_foreign_host_before_anything_else(table: Table) -> None:
    """DNS rebinding: a Host that is not this server's is a 400 on every route and method,
    even with the referee's token and a body that would be obeyed; the server's own names
    are answered."""
    hub = table.hub
    referee = Credential("the referee's token", REFEREE, issue=REFEREE)
    problems: list[str] = []
    fit = {"/api/action": {"text": legal_text(hub, table.actor)}, "/api/pause": {"paused": True},
           "/api/correct": {"args": correction(table), "by": "x", "note": "y"},
           "/api/answer": {"choice": 0}, "/api/undo": {}, "/api/scan": {"code": "CARD:x"}}
    for route in routes(table) + extra_reads(table):
        for base in FOREIGN_HOSTS:
            before = (state_of(table), record_of(hub), dict(hub.tokens.roles))
            body = fit.get(route.rule, {}) if route.method != "GET" else None
            response, text = ask(table, referee, route.method, route.path, base_url=base,
                                 json=body)
            where = f"{route.method} {route.path} with Host {base.split('/')[2]}"
            if response.status_code != 400:
                problems.append(f"{where}: {response.status_code}, not 400: {text[:80]!r}")
            if route.path.startswith("/api/") and response.mimetype != JSON:
                problems.append(f"{where}: answered as {response.mimetype!r}, not JSON")
            after = (state_of(table), record_of(hub), dict(hub.tokens.roles))
            if after[:2] != before[:2] or not set(before[2]) <= set(after[2]):
                problems.append(f"{where}: changed the table")
                fail_on(problems, "foreign hosts answered")
    for base in OWN_HOSTS:
        response, text = ask(table, Credential("no credential", PUBLIC), "GET", "/api/view",
                             base_url=base)
        if response.status_code != 200:
            problems.append(f"GET /api/view with Host {base.split('/')[2]}: "
                            f"{response.status_code}, the server's own name refused")
    fail_on(problems, "foreign hosts answered")


# --- card codes, undo, verbs, pairing, replays --------------------------------------------------


def card_ids(hub: Hub) -> set[str]:
    """Every card of the game's kit (Sekigahara's cards, Rumble Nation's daimyo and tactics)."""
    kit = hub.session.game.rules.kit
    ids = {str(getattr(card, "id", card)) for card in getattr(kit, "cards", ())}
    parts = getattr(kit, "components", None)
    for part in ("daimyo_cards", "tactic_cards"):
        ids |= {str(c) for c in getattr(parts, part, ())}
    return ids


@pytest.mark.parametrize("name", SCREENS)
def test_a_typed_card_code_cannot_be_probed(tmp_path: Path, name: str) -> None:
    """A phone types codes: with no live table attached every code it types (its own cards,
    the other players', unknown codes, garbage, the referee's token) gets the same status and
    the same bytes, a refusal, so no answer tells one code from another; nothing is stored."""
    hub = played_hub(tmp_path, name)
    client = app_for(hub)[0].test_client()
    assert hub.inputs_to is None, "the test client's hub has no live table"
    ids = card_ids(hub) | hidden_from(hub, PUBLIC)
    assert ids or name not in HIDES, "the kit should name cards"  # Barletta has none
    codes = [f"CARD:{i}" for i in sorted(ids)] + [
        "CARD:no-such-card", "CARD:", "hello", "12345678", "CARD:../../etc/passwd", "x" * 64,
        "x" * 65, "x" * 5000, " CARD:x ", "\x00\x07", "\u202eCARD:x", "カード", "",
        hub.tokens.issue(REFEREE)]
    before = record_of(hub)
    for role in hub.roles:
        answers: dict[tuple[int, str, bytes], list[str]] = {}
        for code in codes:
            response = client.post("/api/scan", headers=bearer(hub.tokens.issue(role)),
                                   json={"code": code})
            key = (response.status_code, response.mimetype, response.get_data())
            answers.setdefault(key, []).append(code)
        shown = {f"{k[0]} {k[2][:80]!r}": v[:3] for k, v in answers.items()}
        assert len(answers) == 1, f"{role}'s typed codes get {len(answers)} answers: {shown}"
        status, mimetype, _ = next(iter(answers))
        assert status in REFUSED and mimetype == JSON, \
            f"{role}'s typed code with no live table: {status} {mimetype}, not refused in JSON"
    assert record_of(hub) == before, "a typed code changed the record"


def undo(client: FlaskClient, headers: dict[str, str], body: dict[str, Any] | None = None
         ) -> TestResponse:
    return client.post("/api/undo", headers=headers, json=body or {})


def test_undo_and_actions_are_recorded_with_the_credentials_role_and_device(
        tmp_path: Path) -> None:
    """Skirmish, where a move can be taken back: a player undoes only its own last action,
    never while paused; `by` and `source` come from the credential, never from the body."""
    hub = skirmish_hub(tmp_path)
    app, tokens = app_for(hub)
    client = app.test_client()
    red, blue, ref = (bearer(tokens[r]) for r in ("red", "blue", REFEREE))
    move = 'red move {"block":"red_a","to":"mill"}'
    acted = client.post("/api/action", headers=red, json={"text": move, "source": "camera",
                                                           "by": "blue"})
    assert acted.status_code == 200, acted.get_json()
    assert (hub.session.entries[-1].source, record_of(hub)[-1][1]) == ("phone", "phone"), \
        f"a player's action is recorded from {hub.session.entries[-1].source!r}, not 'phone'"
    before = record_of(hub)
    refused = undo(client, blue, {"by": "red"})
    assert refused.status_code in (403, 422), \
        f"blue undid red's move: {refused.status_code} {refused.get_json()}"
    assert record_of(hub) == before, "blue's refused undo changed the record"
    client.post("/api/pause", headers=ref, json={"paused": True})
    paused = undo(client, red)
    assert paused.status_code in (403, 422), \
        f"red undid its move while paused: {paused.status_code} {paused.get_json()}"
    assert record_of(hub) == before, "an undo while paused changed the record"
    client.post("/api/pause", headers=ref, json={"paused": False})
    taken = undo(client, red, {"by": REFEREE, "source": "referee", "note": "n" * 300})
    assert taken.status_code == 200, f"red could not undo its own move: {taken.get_json()}"
    entry = hub.session.entries[-1]
    assert (entry.action.role, entry.action.verb) == (REFEREE, "undo")
    assert (entry.by, entry.source) == ("red", "phone"), \
        f"red's undo recorded by {entry.by!r} from {entry.source!r}, not 'red' from 'phone'"
    assert record_of(hub)[-1][1:4:2] == ("phone", "red"), "the stored undo line differs"
    again = client.post("/api/action", headers=ref, json={"text": move, "source": "camera"})
    assert again.status_code == 200, again.get_json()
    assert hub.session.entries[-1].source == "tablet", \
        f"the referee's action recorded from {hub.session.entries[-1].source!r}"
    taken = undo(client, ref, {"by": "Mallory", "source": "camera"})
    assert taken.status_code == 200, taken.get_json()
    entry = hub.session.entries[-1]
    assert (entry.by, entry.source) == (REFEREE, "tablet"), \
        f"the referee's undo recorded by {entry.by!r} from {entry.source!r}"
    before = record_of(hub)
    nothing_own = undo(client, red)
    assert nothing_own.status_code in (403, 422), \
        f"red undid an action not its own: {nothing_own.status_code}"
    assert record_of(hub) == before


@pytest.mark.parametrize("name", SCREENS)
def test_a_player_never_undoes_another_roles_action(tmp_path: Path, name: str) -> None:
    hub = played_hub(tmp_path, name)
    app, tokens = app_for(hub)
    client = app.test_client()
    actor = acting_player(hub)
    text = legal_text(hub, actor)
    acted = client.post("/api/action", headers=bearer(tokens[actor]),
                        json={"text": text, "source": "camera"})
    assert acted.status_code == 200, acted.get_json()
    assert hub.session.entries[-1].source == "phone", \
        f"{actor}'s action recorded from {hub.session.entries[-1].source!r}, not 'phone'"
    before = record_of(hub)
    for role in hub.roles:
        if role == actor:
            continue
        response = undo(client, bearer(tokens[role]), {"by": actor})
        assert response.status_code in (403, 422), \
            f"{role} undid {actor}'s {text}: {response.status_code} {response.get_json()}"
        assert record_of(hub) == before, f"{role}'s refused undo changed the record"
    client.post("/api/pause", headers=bearer(tokens[REFEREE]), json={"paused": True})
    response = undo(client, bearer(tokens[actor]))
    assert response.status_code in (403, 422), f"{actor} undid while paused: {response.status_code}"
    assert record_of(hub) == before, "an undo while paused changed the record"


@pytest.mark.parametrize("name", SCREENS)
def test_the_action_route_refuses_corrections_and_undos(tmp_path: Path, name: str) -> None:
    """The referee corrects with /api/correct (author and reason) and undoes with /api/undo:
    the verbs `correct` and `undo` sent as actions are refused, by anyone."""
    table = build_table(tmp_path, name)
    hub = table.hub
    before = record_of(hub)
    seq = len(hub.session.entries)
    sent = [{"role": REFEREE, "verb": "correct", "args": correction(table)},
            {"text": f"{REFEREE} correct {json.dumps(correction(table))}"},
            {"role": REFEREE, "verb": "undo", "args": {"seq": seq}},
            {"text": f'{REFEREE} undo {{"seq":{seq}}}'},
            {"role": table.actor, "verb": "undo", "args": {"seq": seq}}]
    for who, headers in ((REFEREE, table.referee()), (table.actor, table.player(table.actor))):
        for body in sent:
            response = table.client.post("/api/action", headers=headers, json=body)
            assert response.status_code in (403, 422), \
                f"POST /api/action {body} by {who}: {response.status_code} {response.get_json()}"
            assert record_of(hub) == before, f"POST /api/action {body} by {who} changed the record"


@pytest.mark.parametrize("name", SCREENS)
def test_pairing_is_a_one_time_secret_the_referee_confirms(tmp_path: Path, name: str) -> None:
    hub = played_hub(tmp_path, name)
    app, tokens = app_for(hub)
    client = app.test_client()
    ref = bearer(tokens[REFEREE])
    role = hub.roles[0]

    def role_of(token: str) -> str:
        """The role a token reads as: `public` for one that is not (or no longer) valid,
        which the server answers with a 401 saying so rather than the public view."""
        answer = client.get("/api/view", headers=bearer(token))
        if answer.status_code == 401:
            return PUBLIC
        return str(answer.get_json()["role"])

    for who in (PUBLIC, *hub.roles):
        headers = bearer(tokens[who]) if who != PUBLIC else {}
        response = client.post(f"/api/pair/{role}", headers=headers, json={})
        assert response.status_code in (401, 403), f"{who} offered a pairing for {role}"
    offer = client.post(f"/api/pair/{role}", headers=ref, json={})
    assert offer.status_code == 200, offer.get_data(as_text=True)
    data = offer.get_json()
    assert data["role"] == role
    secret = pairing_secret(data["url"])
    assert secret, f"the pairing URL carries no '#pair=' secret: {data['url']}"
    assert "token=" not in data["url"], "the pairing URL carries a token"

    seen = {"/api/view (public)": client.get("/api/view").get_data(as_text=True)}
    for who in hub.roles:
        seen[f"/api/view ({who})"] = client.get("/api/view", headers=bearer(tokens[who])) \
            .get_data(as_text=True)
        seen[f"/api/view?token= ({who})"] = client.get(f"/api/view?token={tokens[who]}") \
            .get_data(as_text=True)
    for who, query in ((PUBLIC, ""), (role, f"?token={tokens[role]}")):
        stream = client.get(f"/stream{query}", buffered=False)
        seen[f"/stream ({who})"] = read(stream)
    for where, text in seen.items():
        assert secret not in text, f"the pairing secret is shown at {where}"
    assert not client.get("/api/view").get_json()["pairing"], "the public view lists pairings"
    assert role in client.get("/api/view", headers=ref).get_json()["pairing"], \
        "the referee's view does not list the pairing on offer"

    claim = client.post("/api/pair/claim", json={"pair": secret})
    assert claim.status_code == 200, claim.get_data(as_text=True)
    device, code = claim.get_json()["token"], claim.get_json()["code"]
    assert role_of(device) == PUBLIC, "a claimed phone acts for its role before confirmation"
    before = record_of(hub)
    text = legal_text(hub, role) or f"{role} pass {{}}"
    acted = client.post("/api/action", headers=bearer(device), json={"text": text})
    assert acted.status_code in (401, 403) and record_of(hub) == before, \
        f"an unconfirmed phone acted: {acted.status_code}"
    again = client.post("/api/pair/claim", json={"pair": secret})
    assert again.status_code == 410, f"a secret claimed twice: {again.status_code}"
    assert again.mimetype == JSON
    for who in hub.roles:
        stolen = client.post(f"/api/pair/{role}/confirm", headers=bearer(tokens[who]),
                             json={"code": code})
        assert stolen.status_code in (401, 403), f"{who} confirmed a pairing"
    wrong = client.post(f"/api/pair/{role}/confirm", headers=ref,
                        json={"code": "0" if code != "0" else "1"})
    assert wrong.status_code in REFUSED, "a wrong confirmation code was taken"
    assert role_of(device) == PUBLIC
    confirmed = client.post(f"/api/pair/{role}/confirm", headers=ref, json={"code": code})
    assert confirmed.status_code == 200, confirmed.get_data(as_text=True)
    assert role_of(device) == role, "the confirmed phone is not the role's"

    first = pairing_secret(client.post(f"/api/pair/{role}", headers=ref, json={})
                           .get_json()["url"])
    second = pairing_secret(client.post(f"/api/pair/{role}", headers=ref, json={})
                            .get_json()["url"])
    assert first and second and first != second
    replaced = client.post("/api/pair/claim", json={"pair": first})
    assert replaced.status_code == 410, f"a replaced offer was claimed: {replaced.status_code}"
    claim = client.post("/api/pair/claim", json={"pair": second}).get_json()
    assert client.post(f"/api/pair/{role}/confirm", headers=ref,
                       json={"code": claim["code"]}).status_code == 200
    assert role_of(claim["token"]) == role
    assert role_of(device) == PUBLIC, "a new phone for the role left the old one paired"
    assert client.delete(f"/api/pair/{role}", headers=ref, json={}).status_code == 200
    assert role_of(claim["token"]) == PUBLIC, "a revoked phone still acts for its role"


@pytest.mark.parametrize("name", SCREENS)
def test_a_player_sees_another_game_as_the_public_does(tmp_path: Path, name: str) -> None:
    """A phone of the live game replays another stored game of the same kind: it is shown
    the public view (that game's hands and hidden blocks are not this phone's), and the full
    view only once that game has ended."""
    table = build_table(tmp_path, name)
    finished = import_record(table.hub.session.store, read_record(game("sekigahara").sample()))
    record = table.hub.session.store.load(table.other_id)
    for role in table.hub.roles:
        headers = table.player(role)
        for at in (None, len(record.entries) // 2):
            query = "" if at is None else f"?at={at}"
            response = table.client.get(f"/api/replay/{table.other_id}{query}", headers=headers)
            assert response.status_code == 200
            data = response.get_json()
            assert data["role"] == PUBLIC, \
                f"{role}'s phone replays game {table.other_id}{query} as {data['role']!r}"
            past = replay(record, upto_line=None if at is None else at + 1).game
            leaked = sorted(s for s in hidden_from(table.hub, PUBLIC, past)
                            if s in response.get_data(as_text=True))
            assert not leaked, f"{role}'s phone sees {leaked[:3]} of game {table.other_id}"
        done = table.client.get(f"/api/replay/{finished}", headers=headers)
        assert done.status_code == 200 and done.get_json()["role"] in (PUBLIC, REFEREE)


# --- limits and errors ------------------------------------------------------------------------


@pytest.fixture
def skirmish(tmp_path: Path) -> tuple[Hub, Flask, dict[str, str]]:
    hub = skirmish_hub(tmp_path)
    app, tokens = app_for(hub)
    return hub, app, tokens


NEST = 100_000
ERRORS: list[tuple[str, str, str, dict[str, Any], set[int]]] = [
    ("malformed JSON", "POST", "/api/action", {"data": b'{"text": "red pass {}"',
                                               "content_type": JSON}, {400}),
    ("100,000 nested lists (over 64 KiB: 400 or 413)", "POST", "/api/action",
     {"data": b"[" * NEST + b"]" * NEST, "content_type": JSON}, {400, 413}),
    ("100,000 nested lists in a field (over 64 KiB: 400 or 413)", "POST", "/api/action",
     {"data": b'{"text": "red pass {}", "x": ' + b"[" * NEST + b"]" * NEST + b"}",
      "content_type": JSON}, {400, 413}),
    ("30,000 nested lists in a field (under 64 KiB)", "POST", "/api/action",
     {"data": b'{"text": "red pass {}", "x": ' + b"[" * 30_000 + b"]" * 30_000 + b"}",
      "content_type": JSON}, {400}),
    ("10,000 nested objects in the args (under 64 KiB)", "POST", "/api/action",
     {"data": b'{"role": "red", "verb": "pass", "args": ' + b'{"a":' * 10_000 + b"1"
      + b"}" * 10_000 + b"}", "content_type": JSON}, {400}),
    ("NaN in the args", "POST", "/api/action",
     {"data": b'{"role": "red", "verb": "pass", "args": {"n": NaN}}', "content_type": JSON},
     {400}),
    ("Infinity beside the action", "POST", "/api/action",
     {"data": b'{"text": "red pass {}", "x": Infinity}', "content_type": JSON}, {400}),
    ("-Infinity in a list", "POST", "/api/action",
     {"data": b'{"text": "red pass {}", "x": [1, -Infinity]}', "content_type": JSON}, {400}),
    ("1e999 (read as infinity)", "POST", "/api/action",
     {"data": b'{"text": "red pass {}", "x": 1e999}', "content_type": JSON}, {400}),
    ("no token", "POST", "/api/action", {"json": {"text": "red pass {}"}, "token": None}, {401}),
    ("an unknown token", "POST", "/api/action", {"json": {"text": "red pass {}"},
                                                 "token": "nonsense"}, {403}),
    ("a player pausing", "POST", "/api/pause", {"json": {"paused": True}}, {403}),
    ("an unknown route under /api/", "GET", "/api/nowhere", {}, {404}),
    ("an unknown route under /api/, posted", "POST", "/api/nowhere", {"json": {}}, {404}),
    ("an unknown game", "GET", "/api/replay/99999", {}, {404}),
    ("an unknown game's board", "GET", "/api/replay/99999/board", {}, {404}),
    ("an unknown game's turns", "GET", "/api/replay/99999/turns", {}, {404}),
    ("GET on a POST route", "GET", "/api/action", {}, {405}),
    ("DELETE on a GET route", "DELETE", "/api/view", {}, {405}),
    ("a body over 64 KiB", "POST", "/api/action",
     {"json": {"text": "red pass {}", "pad": "x" * (65 * 1024)}}, {413}),
    ("a form", "POST", "/api/action", {"data": {"text": "red pass {}"}}, {415}),
    ("an illegal action", "POST", "/api/action",
     {"json": {"role": "red", "verb": "move", "args": {"block": "red_a", "to": "hill"}}}, {422}),
]


@pytest.mark.parametrize(("what", "method", "path", "sent", "status"), ERRORS,
                         ids=[e[0] for e in ERRORS])
def test_every_api_error_is_json_and_changes_nothing(skirmish: tuple[Hub, Flask, dict[str, str]],
                                                     what: str, method: str, path: str,
                                                     sent: dict[str, Any], status: set[int]
                                                     ) -> None:
    hub, app, tokens = skirmish
    sent = dict(sent)
    token = sent.pop("token", tokens["red"])
    headers = bearer(token) if token else {}
    before = record_of(hub)
    response = app.test_client().open(path, method=method, headers=headers, **sent)
    text = response.get_data(as_text=True)
    assert response.status_code in status, f"{what}: {response.status_code}, not {status}: " \
        f"{text[:160]!r}"
    assert response.mimetype == JSON, f"{what}: a {response.status_code} as {response.mimetype!r}"
    assert isinstance(json.loads(text), dict), f"{what}: {text[:80]!r}"
    assert "Traceback" not in text and str(hub.session.store.path) not in text, \
        f"{what}: the answer shows the server's insides: {text[:200]!r}"
    assert record_of(hub) == before, f"{what} changed the record"


def test_a_server_error_is_json_and_shows_no_insides(
        skirmish: tuple[Hub, Flask, dict[str, str]], monkeypatch: pytest.MonkeyPatch) -> None:
    hub, app, tokens = skirmish
    app.config["PROPAGATE_EXCEPTIONS"] = False
    where = str(hub.session.store.path)

    def broken(role: str) -> dict[str, Any]:
        raise RuntimeError(f"cannot read {where}")

    monkeypatch.setattr(hub, "view", broken)
    for headers in ({}, bearer(tokens["red"])):
        response = app.test_client().get("/api/view", headers=headers)
        text = response.get_data(as_text=True)
        assert response.status_code == 500 and response.mimetype == JSON, \
            f"a crash answered {response.status_code} {response.mimetype}: {text[:120]!r}"
        assert where not in text and "Traceback" not in text and "RuntimeError" not in text, \
            f"a crash shows the server's insides: {text[:200]!r}"


def test_a_flood_of_pairing_guesses_is_rate_limited_in_json(
        skirmish: tuple[Hub, Flask, dict[str, str]]) -> None:
    """Guessing pairing secrets from one address: refused (410), then limited (429)."""
    _hub, app, _tokens = skirmish
    client = app.test_client()
    statuses = []
    for n in range(600):
        response = client.post("/api/pair/claim", json={"pair": f"guess-{n:04d}-" + "x" * 16},
                               environ_base={"REMOTE_ADDR": "192.0.2.7"})
        assert response.mimetype == JSON, f"guess {n}: {response.status_code} not JSON"
        statuses.append(response.status_code)
        if response.status_code == 429:
            break
    assert 429 in statuses, f"600 pairing guesses from one address, none limited: " \
        f"{sorted(set(statuses))}"
    assert set(statuses) <= {410, 400, 429}, f"a guess was answered {sorted(set(statuses))}"
    other = client.post("/api/pair/claim", json={"pair": "x" * 24},
                        environ_base={"REMOTE_ADDR": "192.0.2.8"})
    assert other.status_code != 429, "the limit counts every address together"


def test_a_flooding_client_is_limited_in_json(
        skirmish: tuple[Hub, Flask, dict[str, str]]) -> None:
    """Any route: one address asking far faster than a screen does is answered 429 in JSON,
    and another address is not held back with it."""
    _hub, app, _tokens = skirmish
    client = app.test_client()
    statuses = []
    for n in range(400):
        response = client.get("/api/view", environ_base={"REMOTE_ADDR": "192.0.2.9"})
        statuses.append(response.status_code)
        if response.status_code == 429:
            assert response.mimetype == JSON, f"a 429 as {response.mimetype!r}"
            assert isinstance(response.get_json(), dict)
            break
        assert response.status_code == 200, f"request {n}: {response.status_code}"
    assert 429 in statuses, "400 requests at once from one address, none limited"
    assert client.get("/api/view", environ_base={"REMOTE_ADDR": "192.0.2.10"}).status_code \
        == 200, "the limit counts every address together"


@pytest.mark.parametrize("name", SCREENS)
def test_oversized_or_undefined_action_args_are_refused_and_never_stored(
        tmp_path: Path, name: str) -> None:
    hub = played_hub(tmp_path, name)
    app, tokens = app_for(hub)
    client = app.test_client()
    actor = acting_player(hub)
    legal = hub.session.game.legal_actions(actor)[0]
    plain = legal.to_json()["args"]  # as JSON (a nested argument is a frozen mapping)
    bad: list[tuple[str, dict[str, Any]]] = [
        ("an arg the game does not define", {**plain, "zzz": 1}),
        ("args over 4 KiB", {**plain, "pad": "x" * 5000}),
        ("an arg over 4 KiB", {**plain, next(iter(plain), "pad"): "x" * 5000}),
    ]
    before = record_of(hub)
    for who in (actor, REFEREE):
        for what, args in bad:
            body = {"role": actor, "verb": legal.verb, "args": args, "by": "b" * 300,
                    "note": "n" * 300}
            response = client.post("/api/action", headers=bearer(tokens[who]), json=body)
            assert response.status_code in REFUSED, \
                f"{what} sent by {who}: {response.status_code}, not refused"
            assert record_of(hub) == before, f"{what} sent by {who} was stored"
    accepted = client.post("/api/action", headers=bearer(tokens[actor]),
                           json={"role": actor, "verb": legal.verb, "args": plain})
    assert accepted.status_code == 200, f"the legal action itself: {accepted.get_json()}"


def test_a_correction_with_an_overlong_author_or_reason_is_never_stored(tmp_path: Path) -> None:
    hub = played_hub(tmp_path, "sekigahara")
    app, tokens = app_for(hub)
    client = app.test_client()
    ref = bearer(tokens[REFEREE])
    args = {"block": "T-ii-4-1", "to": "kiso"}
    before = record_of(hub)
    for what, body in (("an author of 201 characters", {"args": args, "by": "b" * 201,
                                                         "note": "seen there"}),
                       ("a reason of 201 characters", {"args": args, "by": "Sato",
                                                       "note": "n" * 201}),
                       ("an arg corrections do not define", {"args": {**args, "zzz": 1},
                                                             "by": "Sato", "note": "seen"}),
                       ("args over 4 KiB", {"args": {**args, "to": "k" * 5000}, "by": "Sato",
                                            "note": "seen"})):
        response = client.post("/api/correct", headers=ref, json=body)
        assert response.status_code in REFUSED, f"{what}: {response.status_code}, not refused"
        assert response.mimetype == JSON
        assert record_of(hub) == before, f"a correction with {what} was stored"
    ok = client.post("/api/correct", headers=ref, json={"args": args, "by": "S" * 200,
                                                        "note": "n" * 200})
    assert ok.status_code == 200, f"a correction at the bounds: {ok.get_json()}"
    assert record_of(hub)[-1][3:] == ("S" * 200, "n" * 200)

