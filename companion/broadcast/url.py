"""Where a broadcast goes: the broker, the event, who this client is, and its topics.

`mqtt://table3:secret@broker.local:1883/club-night` names the broker, the event (the tournament)
and the table's broker user, which is also its name in the broadcast: the broker's ACLs let a
user publish only under its own name, so the name a table claims is the name it proved.
`mqtts://` (port 8883 by default) adds TLS; `?ca=PATH` names the CA that signed the broker's
certificate (else the system's), `?cert=PATH&key=PATH` a client certificate. A password may
stay off the command line: `?password_file=PATH`, or `COMPANION_BROADCAST_PASSWORD`.
"""

from __future__ import annotations

import os
import re
import ssl
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

__all__ = ["ROOT", "BroadcastError", "BroadcastURL", "Topics", "parse_url"]

ROOT = "companion"
"""Every event's topics live under `companion/<event>/`."""

NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
"""Event and table names: lower-case words, safe in a topic and in a Mosquitto ACL pattern."""

RESERVED = frozenset({"dashboard", "monitor"})
"""Broker users that are not tables (their names would meet the tables' ACL pattern)."""


class BroadcastError(Exception):
    """A broadcast that cannot be set up as asked: says what to change."""


@dataclass(frozen=True)
class Topics:
    """One table's topics in one event."""

    event: str
    table: str

    @property
    def base(self) -> str:
        return f"{ROOT}/{self.event}/tables/{self.table}"

    @property
    def actions(self) -> str:
        """Every recorded action, in order (QoS 1, not retained)."""
        return f"{self.base}/actions"

    @property
    def state(self) -> str:
        """The table's last state, retained: a dashboard that joins late is current at once."""
        return f"{self.base}/state"

    @property
    def requests(self) -> str:
        """Where the dashboard asks this table to send again what it missed."""
        return f"{self.base}/requests"


def event_filter(event: str, leaf: str) -> str:
    """A subscription to one kind of topic of every table of `event`."""
    return f"{ROOT}/{event}/tables/+/{leaf}"


@dataclass(frozen=True)
class BroadcastURL:
    host: str
    port: int
    event: str
    username: str | None
    password: str | None
    tls: bool = False
    ca: Path | None = None
    cert: Path | None = None
    key: Path | None = None

    @property
    def channel(self) -> str:
        """What the table's outbox is keyed by: the same game broadcast to another event or
        broker is sent again from its start."""
        return f"{self.host}:{self.port}/{self.event}"

    def topics(self, table: str | None = None) -> Topics:
        name = table or self.username
        if name is None:
            raise BroadcastError("a table broadcasts under its broker user name: put it in the "
                                 "URL (mqtt://TABLE:PASSWORD@host:port/event)")
        check_name(name, "table")
        if name in RESERVED:
            raise BroadcastError(f"'{name}' is the dashboard's user, not a table's")
        return Topics(self.event, name)

    def client(self, client_id: str) -> mqtt.Client:
        """A paho client (MQTT 5) with this URL's credentials and TLS, not yet connected."""
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                             protocol=mqtt.MQTTv5)
        if self.username is not None:
            client.username_pw_set(self.username, self.password)
        if self.tls:
            client.tls_set(ca_certs=str(self.ca) if self.ca else None,
                           certfile=str(self.cert) if self.cert else None,
                           keyfile=str(self.key) if self.key else None,
                           cert_reqs=ssl.CERT_REQUIRED)
        client.reconnect_delay_set(1, 4)
        return client

    def redacted(self) -> str:
        """The URL without its password, for messages and logs."""
        who = f"{self.username}@" if self.username else ""
        scheme = "mqtts" if self.tls else "mqtt"
        return f"{scheme}://{who}{self.host}:{self.port}/{self.event}"


def check_name(name: str, what: str) -> str:
    if not NAME.match(name):
        raise BroadcastError(f"the {what} name {name!r} must be 1-40 lower-case letters, digits, "
                             "'-' or '_' (it is part of the broker's topics)")
    return name


def parse_url(text: str) -> BroadcastURL:
    """`mqtt[s]://[user[:password]@]host[:port]/event[?ca=..&cert=..&key=..&password_file=..]`."""
    parts = urlsplit(text)
    if parts.scheme not in ("mqtt", "mqtts"):
        raise BroadcastError(f"{text!r}: a broadcast URL starts mqtt:// or mqtts://")
    if not parts.hostname:
        raise BroadcastError(f"{text!r}: no broker host")
    event = parts.path.strip("/")
    if not event:
        raise BroadcastError(f"{text!r}: name the event after the broker, "
                             "e.g. mqtt://host:1883/club-night")
    check_name(event, "event")
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    tls = parts.scheme == "mqtts"
    password = unquote(parts.password) if parts.password else None
    if password is None and "password_file" in query:
        password = Path(query["password_file"]).read_text(encoding="utf-8").strip()
    if password is None:
        password = os.environ.get("COMPANION_BROADCAST_PASSWORD") or None
    paths = {k: Path(query[k]) for k in ("ca", "cert", "key") if k in query}
    return BroadcastURL(host=parts.hostname, port=parts.port or (8883 if tls else 1883),
                        event=event, username=unquote(parts.username) if parts.username else None,
                        password=password, tls=tls, **paths)
