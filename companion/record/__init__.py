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
    RecordValueError,
    integrity_problem,
    read_record,
    write_record,
)
from companion.record.replay import (
    UNDO,
    Repatch,
    Replay,
    Replayer,
    ReplayProblem,
    new_game,
    record_of,
    repatch,
    replay,
)

__all__ = [
    "FORMAT",
    "SOURCES",
    "UNDO",
    "VERSION",
    "Entry",
    "Header",
    "KitRef",
    "Record",
    "RecordError",
    "RecordValueError",
    "Repatch",
    "Replay",
    "ReplayProblem",
    "Replayer",
    "integrity_problem",
    "new_game",
    "read_record",
    "record_of",
    "repatch",
    "replay",
    "write_record",
]
