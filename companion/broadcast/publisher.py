"""A table's publisher: drains its outbox to the broker, in order, acknowledged one by one.

The table never waits for the broadcast: an action is recorded and acknowledged at the table
as always, and the publisher (its own thread) follows the record. The broker is optional: while
it is down the outbox grows and the table plays on; once it is back the outbox drains. Every
message is QoS 1 (the broker acknowledges it); the table's last state is retained, and published
again on every connection, so a dashboard that joins late, or a broker that restarted empty, is
current at once. A dashboard that missed messages asks for them again on the table's request
topic; the table answers from its outbox.

A broker that refuses the table's credentials is an error at start (`check_broker`): a table
never broadcasts to a broker it cannot authenticate to. A broker that cannot be reached is not:
the table starts offline and connects when it can.

Only a message paho took while connected is waited for. paho notices a lost connection on its
own thread, and tells the publisher (`on_disconnect`) a moment later; a message handed to it in
between comes back with `MQTT_ERR_NO_CONN`, and its `is_published()` raises for ever after, even
once paho has sent it again. Counting on it wedged the publisher (issue 23: "NOT drained" under
load). Such a message is not waited for: the next connection sends everything unacknowledged
from the outbox again, as after any reconnection.
"""

from __future__ import annotations

import json
import logging
import ssl
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.reasoncodes import ReasonCode

from companion.broadcast.outbox import Outbox
from companion.broadcast.url import BroadcastError, BroadcastURL, parse_url

__all__ = ["Publisher", "check_broker", "start_publisher"]

log = logging.getLogger(__name__)

REFUSED = {"Bad user name or password", "Not authorized", "Banned", "Client identifier not valid"}
"""CONNACK reasons that say the broker will not take this table, however often it asks."""

MAX_RESEND = 500
"""The most messages one resend request may ask for (a dashboard asks again for the rest)."""

MAX_ASKS = 16
"""The most resend requests waiting to be answered: more are dropped (a dashboard asks again a
second later), so that no flood on the request topic can grow a table's memory."""


def _refused(reason: ReasonCode) -> bool:
    return reason.is_failure and str(reason) in REFUSED


def check_broker(url: BroadcastURL, timeout: float = 5.0) -> bool:
    """Connect once with the table's credentials: True if the broker took them, False if it
    could not be reached (the table then starts offline); BroadcastError if it refused them."""
    topics = url.topics()
    answer: list[ReasonCode] = []
    done = threading.Event()

    def connected(client: mqtt.Client, _u: Any, _f: Any, reason: ReasonCode, _p: Any) -> None:
        answer.append(reason)
        done.set()

    client = url.client(f"{topics.table}-check")
    client.on_connect = connected
    try:
        client.connect(url.host, url.port, keepalive=10)
    except ssl.SSLError as exc:
        raise BroadcastError(f"{url.redacted()}: the broker's TLS certificate cannot be "
                             f"trusted ({exc}): give its CA with ?ca=PATH") from exc
    except (OSError, ValueError) as exc:
        log.warning("broadcast: %s cannot be reached (%s): the table plays offline and "
                    "publishes when it can", url.redacted(), exc)
        return False
    client.loop_start()
    try:
        if not done.wait(timeout):
            return False
    finally:
        client.disconnect()
        client.loop_stop()
    if answer[0].is_failure:
        raise BroadcastError(f"{url.redacted()} refused table '{topics.table}': {answer[0]} "
                             "(check the table's broker user and password)")
    return True


class Publisher:
    """Follows one game's record and broadcasts it; `wake()` after each recorded action."""

    def __init__(self, db: Path, game_id: int, url: BroadcastURL, poll: float = 1.0) -> None:
        self.url, self.topics = url, url.topics()
        self.outbox = Outbox(db, url.channel, game_id, (url.event, self.topics.table))
        self.poll = poll
        self.connected = threading.Event()
        self.refused: str | None = None
        """Why the broker refused the table, once it has: publishing has stopped."""
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._inflight: list[tuple[mqtt.MQTTMessageInfo, int]] = []
        """Actions handed to the client and not yet acknowledged (the publishing thread's
        own: the client's callbacks never touch it, so no lock is held across a call into the
        client, whose own locks its callbacks run under)."""
        self._refused_mids: set[int] = set()
        self._sent = 0
        """The last sequence number handed to the client in this connection."""
        self._resend: list[tuple[int, int]] = []
        self._state_due = True
        self._restart = True
        self._connection = 0
        """Counts the broker's CONNACKs: tells a stale `connected` from a new connection."""
        self.figures = {"connections": 0, "sent": 0, "acked": 0, "not_taken": 0, "asked": 0}
        """What the publisher did (the tests' and a diagnosis's): connections made, actions
        handed to the client, acknowledged, not taken by it (no connection), requests."""
        self._thread = threading.Thread(target=self._run, name=f"broadcast-{self.topics.table}",
                                        daemon=True)
        self.client = url.client(f"table-{self.topics.table}")
        self.client.max_inflight_messages_set(100)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.client.on_message = self._on_message

    # --- life -------------------------------------------------------------------------------

    def start(self) -> Publisher:
        self.client.connect_async(self.url.host, self.url.port, keepalive=5)
        self.client.loop_start()
        self._thread.start()
        return self

    def stop(self, drain: float = 0.0) -> None:
        """Stop publishing; with `drain`, first wait up to that long for the outbox to empty."""
        if drain:
            self.wait_drained(drain)
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout=5)
        self.client.disconnect()
        self.client.loop_stop()
        self.outbox.close()

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def wake(self) -> None:
        """A new action was recorded (or anything else to send)."""
        self._wake.set()

    def wait_drained(self, timeout: float) -> bool:
        """Whether every recorded action was built and acknowledged within `timeout` s."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.outbox.built == self.outbox.recorded() and not self.outbox.pending():
                return True
            self.wake()
            time.sleep(0.05)
        return False

    # --- the broker's callbacks (paho's network thread) -------------------------------------

    def _on_connect(self, client: mqtt.Client, _u: Any, _f: Any, reason: ReasonCode,
                    _p: Any) -> None:
        if _refused(reason):
            self.refused = str(reason)
            log.error("broadcast: %s refused table '%s' (%s): publishing stopped",
                      self.url.redacted(), self.topics.table, reason)
            self._stop.set()
            client.disconnect()
            return
        if reason.is_failure:
            return
        client.subscribe(self.topics.requests, qos=1)
        # Everything unacknowledged goes again, in order, from the outbox (paho also sends
        # again what it had in flight: the dashboard drops the repeats).
        with self._lock:
            self._restart = self._state_due = True
            self._connection += 1
            self.figures["connections"] += 1
            self.connected.set()
        self._wake.set()

    def _on_disconnect(self, _c: mqtt.Client, _u: Any, _f: Any, _r: Any, _p: Any) -> None:
        self.connected.clear()

    def _on_publish(self, _c: mqtt.Client, _u: Any, mid: int, reason: ReasonCode,
                    _p: Any) -> None:
        if reason.is_failure:
            # The broker's ACL refused it: a misconfigured broker, said loudly, kept unacked.
            self._refused_mids.add(mid)
            log.error("broadcast: the broker refused message %s of table '%s': %s", mid,
                      self.topics.table, reason)
        self._wake.set()

    def _on_message(self, _c: mqtt.Client, _u: Any, message: mqtt.MQTTMessage) -> None:
        """A dashboard asks for messages again: `{"game_id": G, "from": A, "to": B}`."""
        try:
            asked = json.loads(message.payload)
            first, last = int(asked["from"]), int(asked["to"])
            game_id = int(asked["game_id"])
        except (ValueError, KeyError, TypeError):
            return
        if game_id != self.outbox.game_id or last < first:
            return
        with self._lock:
            if len(self._resend) >= MAX_ASKS:
                return
            self._resend.append((max(first, 1), min(last, first + MAX_RESEND - 1)))
            self.figures["asked"] += 1
        self._wake.set()

    # --- the publishing thread ----------------------------------------------------------------

    def _run(self) -> None:
        self._sent = 0
        while not self._stop.is_set():
            self._wake.wait(self.poll)
            self._wake.clear()
            try:
                self._step()
            except Exception:  # the broadcast must never stop the table: log, retry later
                log.exception("broadcast: publishing failed; retrying")
                time.sleep(self.poll)

    def _step(self) -> None:
        built = self.outbox.build()
        self._collect_acks()
        with self._lock:
            if not self.connected.is_set():
                return  # the next on_connect sends everything again, and the state
            connection = self._connection
            due, self._state_due = self._state_due or built > 0, False
            restart, self._restart = self._restart, False
        if not self._send_unacked(restart) or not self._answer_requests():
            self._lost_connection(connection, due)
            return
        if due and not self._publish(self.topics.state, json.dumps(self.outbox.state()), None,
                                     retain=True):
            self._lost_connection(connection, due)

    def _lost_connection(self, connection: int, state_due: bool) -> None:
        """The client took no message: its connection is gone, and paho has not said so yet.

        `connected` is cleared unless a new connection came in the meantime (whose
        `on_connect` sends everything again anyway); the state is published on the next one.
        """
        with self._lock:
            self._state_due = self._state_due or state_due
            if self._connection == connection:
                self.connected.clear()

    def _collect_acks(self) -> None:
        """Mark in the outbox what the broker acknowledged."""
        done = [(info, seq) for info, seq in self._inflight if info.is_published()]
        if not done:
            return
        self._inflight = [(i, s) for i, s in self._inflight if not i.is_published()]
        acked = [seq for info, seq in done if info.mid not in self._refused_mids]
        self.outbox.acked(acked)
        self.figures["acked"] += len(acked)

    def _send_unacked(self, restart: bool) -> bool:
        """Every message not yet acknowledged and not yet sent on this connection, in order;
        False if the client took one no more (it has no connection): the rest wait."""
        if restart:
            self._sent, self._inflight = 0, []
            self._refused_mids.clear()
        while True:
            batch = self.outbox.unacked(after=self._sent)
            if not batch:
                return True
            for seq, payload in batch:
                if not self._publish(self.topics.actions, payload, seq):
                    return False
                self._sent = seq

    def _answer_requests(self) -> bool:
        with self._lock:
            asked, self._resend = self._resend, []
        for first, last in asked:
            for _seq, payload in self.outbox.payloads(first, last):
                if not self._publish(self.topics.actions, payload, None):
                    return False  # the dashboard asks again once it sees the table again
        return True

    def _publish(self, topic: str, payload: str, seq: int | None, retain: bool = False) -> bool:
        """Hand one message to the client; whether it took it on a live connection.

        Only a message taken so is waited for (`seq`): one refused with `MQTT_ERR_NO_CONN` is
        kept by paho for its next connection, but its `is_published()` raises for ever, and
        the outbox sends it again on the next connection anyway.
        """
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        if info.rc != mqtt.MQTT_ERR_SUCCESS:
            if seq is not None:
                self.figures["not_taken"] += 1
            return False
        if seq is not None:
            self._inflight.append((info, seq))
            self.figures["sent"] += 1
        return True


def start_publisher(hub: Any, url_text: str) -> Publisher:
    """Broadcast the hub's game (`companion serve --broadcast URL`): the publisher is woken
    after every change at the table, and follows the record on its own thread."""
    url = parse_url(url_text)
    session = hub.session
    publisher = Publisher(session.store.path, session.game_id, url).start()

    def follow() -> None:
        for _view in hub.subscribe("public"):
            if publisher.stopped:
                return
            publisher.wake()

    threading.Thread(target=follow, name="broadcast-follow", daemon=True).start()
    return publisher
