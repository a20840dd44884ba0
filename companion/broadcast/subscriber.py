"""The dashboard's side of the broker: every table's messages into the broadcast's store.

A message counts for the table whose topic it came on: the broker's ACLs let only that table
publish there, so the topic is the proof of who sent it, and a message naming another table or
event is dropped. Repeats are dropped by the store. A gap (the table's retained state or a later
message says the record goes further than what arrived) is asked for again on the table's
request topic, once a second while it lasts: a broker that restarted, a dropped connection or a
dashboard that joined late all end the same way, with every action once.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.reasoncodes import ReasonCode

from companion.broadcast.store import BroadcastStore
from companion.broadcast.url import ROOT, BroadcastError, BroadcastURL, Topics, event_filter

__all__ = ["Subscriber", "missing"]

log = logging.getLogger(__name__)

MAX_ASK = 500
"""The most messages asked for at once (the publisher's own limit)."""


def missing(seqs: list[int], last: int) -> list[tuple[int, int]]:
    """The runs of sequence numbers 1..`last` not in `seqs` (sorted), as (first, last)."""
    gaps: list[tuple[int, int]] = []
    expected = 1
    for seq in [*seqs, last + 1]:
        if seq > expected:
            gaps.append((expected, min(seq - 1, last)))
        expected = max(expected, seq + 1)
    return [g for g in gaps if g[0] <= g[1]]


class Subscriber:
    """Subscribes to every table of the URL's event (as the dashboard's broker user)."""

    def __init__(self, url: BroadcastURL, store: BroadcastStore, ask_every: float = 1.0,
                 on_change: Callable[[str], None] | None = None) -> None:
        self.url, self.store, self.ask_every = url, store, ask_every
        self.on_change = on_change
        self.connected = threading.Event()
        self.refused: str | None = None
        self.requests = 0
        """Resend requests sent (a figure for the tests and the benchmark)."""
        self._asked: dict[tuple[str, int], float] = {}
        self._stop = threading.Event()
        self.client = url.client(f"dashboard-{url.event}-{int(time.time() * 1000) % 10**9}")
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = lambda *_: self.connected.clear()
        self.client.on_message = self._on_message
        self._gaps = threading.Thread(target=self._ask_loop, name="broadcast-gaps", daemon=True)

    def start(self) -> Subscriber:
        self.client.connect_async(self.url.host, self.url.port, keepalive=5)
        self.client.loop_start()
        self._gaps.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._gaps.join(timeout=5)
        self.client.disconnect()
        self.client.loop_stop()

    def wait_connected(self, timeout: float) -> None:
        """Raise BroadcastError if the broker refused the dashboard or never answered."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not self.connected.is_set():
            if self.refused:
                raise BroadcastError(f"{self.url.redacted()} refused the dashboard: "
                                     f"{self.refused}")
            time.sleep(0.05)
        if not self.connected.is_set():
            raise BroadcastError(f"{self.url.redacted()} did not answer in {timeout} s")

    # --- the broker's callbacks ----------------------------------------------------------------

    def _on_connect(self, client: mqtt.Client, _u: Any, _f: Any, reason: ReasonCode,
                    _p: Any) -> None:
        if reason.is_failure:
            self.refused = str(reason)
            if str(reason) in ("Bad user name or password", "Not authorized"):
                client.disconnect()
            return
        client.subscribe([(event_filter(self.url.event, "state"), 1),
                          (event_filter(self.url.event, "actions"), 1)])
        self.connected.set()

    def _on_message(self, _c: mqtt.Client, _u: Any, message: mqtt.MQTTMessage) -> None:
        received = time.time()
        parts = message.topic.split("/")
        if len(parts) != 5 or parts[0] != ROOT or parts[1] != self.url.event:
            return
        table, leaf = parts[3], parts[4]
        try:
            body = json.loads(message.payload)
        except ValueError:
            return
        if not isinstance(body, dict) or body.get("table") != table \
                or body.get("event") != self.url.event:
            log.warning("broadcast: a message on %s names another table; dropped", message.topic)
            return
        try:
            self._keep(leaf, body, received)
        except (KeyError, TypeError, ValueError) as exc:
            log.warning("broadcast: a malformed message on %s dropped (%s)", message.topic, exc)

    def _keep(self, leaf: str, body: dict[str, Any], received: float) -> None:
        if leaf == "state":
            self.store.game(body)
            latest = body.get("latest")
            if isinstance(latest, dict) and latest.get("table") == body["table"]:
                self.store.add(latest, received)
        elif leaf == "actions":
            self.store.add(body, received)
        else:
            return
        if self.on_change is not None:
            self.on_change(body["table"])

    # --- asking again for what is missing -----------------------------------------------------

    def _ask_loop(self) -> None:
        while not self._stop.wait(min(self.ask_every, 0.25)):
            if self.connected.is_set():
                try:
                    self.ask_for_gaps()
                except Exception:
                    log.exception("broadcast: checking for gaps failed")

    def ask_for_gaps(self) -> int:
        """Ask each table for the first run of messages missing from each of its games."""
        asked = 0
        now = time.monotonic()
        for row in self.store.games():
            if row.received >= row.last_seq:
                continue
            key = (row.table, row.game_id)
            if now - self._asked.get(key, 0.0) < self.ask_every:
                continue
            gaps = missing(self.store.seqs(row.table, row.game_id), row.last_seq)
            if not gaps:
                continue
            first, last = gaps[0]
            request = {"game_id": row.game_id, "from": first, "to": min(last, first + MAX_ASK - 1)}
            self.client.publish(Topics(self.url.event, row.table).requests, json.dumps(request),
                                qos=1)
            self._asked[key] = now
            self.requests += 1
            asked += 1
        return asked
