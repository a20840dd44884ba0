"""Game records: the versioned JSON Lines format, reading, writing and replay.

The durable SQLite event store (crash safety, hash chain, resume) builds on this format.
"""

from companion.record.format import (
    FORMAT,
    SOURCES,
    VERSION,
    Entry,
    Header,
    KitRef,
    Record,
    RecordError,
    read_record,
    write_record,
)
from companion.record.replay import Replay, ReplayProblem, new_game, record_of, replay

__all__ = [
    "FORMAT", "SOURCES", "VERSION", "Entry", "Header", "KitRef", "Record", "RecordError",
    "Replay", "ReplayProblem", "new_game", "read_record", "record_of", "replay", "write_record",
]
