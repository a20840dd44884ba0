"""A tournament broadcast over MQTT: each table publishes its public game, a dashboard shows all.

Every table's Pi publishes to an existing broker (Eclipse Mosquitto) what its public screen
shows, after each recorded action, from an outbox kept in its own games database
(`companion.broadcast.publisher`); the dashboard (`companion broadcast URL`) subscribes to every
table, keeps its own store, and serves a page of all tables, one table live, replays, standings
and exports (`companion.broadcast.dashboard`). The broker is optional: a table plays offline
and broadcasts when it can. docs/broadcast.md tells how to set up a club night.
"""

from companion.broadcast.publisher import Publisher, check_broker, start_publisher
from companion.broadcast.url import BroadcastError, BroadcastURL, parse_url

__all__ = ["BroadcastError", "BroadcastURL", "Publisher", "check_broker", "parse_url",
           "start_publisher"]
