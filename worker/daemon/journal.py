"""The durability point of a session's writes: an append-only local file, fsynced before the session hears
"kept".

Each accepted write is one line (`seq`, a `sleutel` that the database row carries, the operation and
its fields, and when the session said it). When the write reached Postgres, or Postgres refused it
(its token had gone stale), a second line settles it. A daemon that starts reads the file and
forwards what is not settled yet, in order; a write it had sent just before it died is recognised by
its `sleutel` and not written twice. A file with nothing left to settle is started afresh.
"""

from __future__ import annotations

import json
import os
import stat
import uuid
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import structlog

from worker.core.folders import make_folder

log = structlog.get_logger("queue-worker")
Outcome = Literal["geschreven", "geweigerd"]


@dataclass(frozen=True)
class Entry:
    seq: int
    op: str  # log | klaar | blokkeer | vrijgeven | stap
    task_id: str
    token: str
    bot: str
    sessie: str | None
    fields: dict[str, Any]
    gezegd: str = field(default_factory=lambda: datetime.now(UTC).isoformat())
    sleutel: str = field(default_factory=lambda: uuid.uuid4().hex)

    def meta(self) -> dict[str, str]:
        """What the database row carries: the key that makes a replay idempotent, and the session's own time."""
        return {"sleutel": self.sleutel, "gezegd": self.gezegd}


class Journal:
    def __init__(self, path: Path) -> None:
        self.path = path
        make_folder(path.parent)
        entries, settled = _read(path)
        self._pending = [e for e in entries if e.seq not in settled]
        self._next = max((e.seq for e in entries), default=0) + 1
        if not self._pending and path.exists():
            path.unlink()  # everything reached the database (or was refused and logged): start afresh
        # The journal holds lease tokens and what sessions said: the user's alone, like the session socket.
        os.chmod(path.parent, stat.S_IRWXU)
        self._handle = os.fdopen(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600), "ab")
        os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)  # one made by an earlier version may be wider

    def pending(self) -> list[Entry]:
        """Accepted, not yet settled, oldest first."""
        return list(self._pending)

    def append(self, op: str, task_id: str, token: str, bot: str, sessie: str | None, fields: dict[str, Any]) -> Entry:
        entry = Entry(self._next, op, task_id, token, bot, sessie, fields)
        self._write({"entry": asdict(entry)})
        self._next += 1
        self._pending.append(entry)
        return entry

    def settle(self, entry: Entry, outcome: Outcome, reason: str | None = None) -> None:
        self._write({"settled": entry.seq, "uitkomst": outcome, "reden": reason})
        self._pending = [e for e in self._pending if e.seq != entry.seq]

    def close(self) -> None:
        self._handle.close()

    def _write(self, record: dict[str, Any]) -> None:
        self._handle.write(json.dumps(record, ensure_ascii=False).encode("utf-8") + b"\n")
        self._handle.flush()
        os.fsync(self._handle.fileno())


def _read(path: Path) -> tuple[list[Entry], set[int]]:
    entries: list[Entry] = []
    settled: set[int] = set()
    if not path.exists():
        return entries, settled
    lines = path.read_bytes().splitlines()
    unreadable = 0
    for number, line in enumerate(lines, 1):
        try:
            record = json.loads(line)
        except ValueError:
            record = None
        if not isinstance(record, dict):
            # The last line cut off by a crash mid-write was never acknowledged to anyone; any other line is
            # damage (an editor, a disk), said once, as the entry it held may be a write that is now lost.
            if number < len(lines):
                unreadable += 1
            continue
        if "entry" in record:
            entries.append(Entry(**record["entry"]))
        elif "settled" in record:
            settled.add(int(record["settled"]))
    if unreadable:
        log.error("journal_lines_unreadable", path=str(path), lines=unreadable)
    return entries, settled
