"""Check or rewrite the golden playthroughs: `python -m tests.golden [--update] [GAME...]`.

Without `--update` it compares each reference record's playthrough with its golden file and
exits 1 at any difference (what `tests/test_reference_records.py` does). With `--update` it
says what changed in each file (the first difference and how many lines differ) before
rewriting it, so that the change can be read, and named in the commit, before it is
committed: a rules change must be meant, never regenerated blindly.
"""

from __future__ import annotations

import argparse
import sys
import time

from companion.record import read_record, replay
from tests.golden import Reference, compare, encode, playthrough, read_golden, references


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.golden", description=__doc__)
    parser.add_argument("games", nargs="*", help="only these games (default: every game)")
    parser.add_argument("--update", action="store_true",
                        help="rewrite the golden files that differ (after saying how)")
    args = parser.parse_args(argv)
    chosen = [r for r in references() if not args.games or r.spec.name in args.games]
    if not chosen:
        print(f"no reference record for {', '.join(args.games)}", file=sys.stderr)
        return 2
    outcomes = [_one(reference, args.update) for reference in chosen]
    return 1 if any(outcomes) else 0


def _one(reference: Reference, update: bool) -> bool:
    """Check (and with `update`, rewrite) one golden file; True when it differs and was not
    rewritten (a check, or a record that no longer replays)."""
    started = time.perf_counter()
    lines = list(playthrough(reference.record))
    took = time.perf_counter() - started
    golden = reference.golden
    if not golden.exists():
        print(f"{reference.name}: no golden file yet ({golden})")
        difference = True
    else:
        found = compare(read_golden(golden), lines)
        print(f"{reference.name}: " + ("unchanged" if found is None else
                                       found.report(str(golden))) + f" ({took:.1f} s)")
        difference = found is not None
    if update and difference:
        checked = replay(read_record(reference.record))
        if checked.problem is not None:
            print(f"{reference.name}: not rewritten: the record itself no longer replays "
                  f"({checked.problem}); remake it first (docs/record-format.md)")
            return True
        golden.parent.mkdir(parents=True, exist_ok=True)
        data = encode(lines)
        golden.write_bytes(data)
        print(f"{reference.name}: wrote {golden} ({len(data):,} bytes, {len(lines)} lines)")
        return False
    return difference


if __name__ == "__main__":
    sys.exit(main())
