"""The durability point of a session's writes: an append-only local file, fsynced before the session hears
"kept".

Each accepted write is one line (`seq`, a `sleutel` that the database row carries, the operation and
its fields, and when the session said it). When the write reached Postgres, or Postgres refused it
(its token had gone stale), a second line settles it. A settle line needs no fsync of its own: it goes
out with the next lines that do (one lost to a crash costs the next start a look-up by `sleutel`).
A daemon that starts reads the file and forwards what is not settled yet, in order; a write it had
sent just before it died is recognised by its `sleutel` and not written twice. A file with nothing
left to settle is started afresh.

An append that cannot be made durable (a full disk, an I/O error) is cut back off the file, so the journal is
as it was and the next line starts clean; the session hears "not kept" and the write goes nowhere.
"""

from __future__ import annotations

import contextlib
import json
import os
import uuid
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, get_args

import anyio
import structlog

from worker.core.errors import ExitCode, TaakError
from worker.core.folders import loads, make_private_folder, open_private, write_all
from worker.core.phrases import OsReason

log = structlog.get_logger("queue-worker")
Outcome = Literal["geschreven", "geweigerd"]


class NotKept(TaakError):
    """A write the journal could not make durable: nothing of it is kept, and it is never forwarded."""

    exit_code = ExitCode.NOT_KEPT

    def __init__(self, exc: OSError) -> None:
        super().__init__("journal_not_kept", reason=OsReason("os", (("errno", exc.errno), ("strerror", exc.strerror))))


@dataclass(frozen=True)
class Entry:
    seq: int
    op: str  # log | klaar | blokkeer | vrijgeven | stap, or one of the daemon's own endings
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
    """Built at the start (it reads the file: build it off the event loop). Appends that arrive together are written
    with one write and one fsync, in a worker thread: the event loop never waits for the disk."""

    def __init__(self, path: Path) -> None:
        self.path = path
        make_private_folder(path.parent)  # it holds lease tokens and what sessions said
        entries, settled = _read(path)
        self._pending = [e for e in entries if e.seq not in settled]
        self._next = max((e.seq for e in entries), default=0) + 1
        if not self._pending and path.exists():
            path.unlink()  # everything reached the database (or was refused and logged): start afresh
        self._fd = open_private(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        self._size = os.fstat(self._fd).st_size  # where the last whole line ends
        self._torn = False  # a failed write that could not be cut back yet
        self._waiting: list[tuple[bytes, anyio.Event, list[OSError | None]]] = []
        self._writing = False
        self._settles: list[bytes] = []  # settle lines not written yet: they go out with the next batch

    def pending(self) -> list[Entry]:
        """Accepted, not yet settled, oldest first."""
        return list(self._pending)

    async def append(
        self, op: str, task_id: str, token: str, bot: str, sessie: str | None, fields: dict[str, Any]
    ) -> Entry:
        """The entry, durable; NotKept when it could not be made so (then nothing of it stays). Entries are numbered
        in the order they are asked for, and kept in that order."""
        entry = Entry(self._next, op, task_id, token, bot, sessie, fields)
        self._next += 1
        await self._durable(_line({"entry": vars(entry)}))  # asdict would copy the fields deep first
        self._pending.append(entry)
        return entry

    async def settle(self, entry: Entry, outcome: Outcome, reason: str | None = None) -> None:
        """Settled, and on disk when this returns (with the settle lines that waited). In memory whatever the disk
        says: the row is in the database (or refused) already. A settle line that cannot be written leaves the
        entry to the next start, which finds its row by its sleutel."""
        self.settled(entry, outcome, reason)
        await self.flush()

    def settled(self, entry: Entry, outcome: Outcome = "geschreven", reason: str | None = None) -> None:
        """Settled in memory now; its line goes out with the next lines written (or `flush`, or `close`)."""
        if self._pending and self._pending[0].seq == entry.seq:  # the forwarder settles the oldest
            del self._pending[0]
        else:
            self._pending = [e for e in self._pending if e.seq != entry.seq]
        self._settles.append(_line({"settled": entry.seq, "outcome": outcome, "reason": reason}))

    async def flush(self) -> None:
        """The settle lines that wait, written and fsynced (with any appends waiting beside them)."""
        if self._settles:
            with contextlib.suppress(NotKept):  # said in the log by the batch that lost them
                await self._durable(b"")

    def close(self) -> None:
        """The settle lines that wait go out first (at shutdown: nothing else waits for the disk then)."""
        if self._settles:
            self._write(b"".join(self._settles), len(self._settles))
            self._settles = []
        os.close(self._fd)

    async def _durable(self, line: bytes) -> None:
        """Written and fsynced together with whatever else waits (and the settle lines not yet written): the first
        caller writes, in a worker thread, batch after batch until nobody waits; the others wait for the batch that
        holds theirs."""
        done = anyio.Event()
        failed: list[OSError | None] = []
        self._waiting.append((line, done, failed))
        if not self._writing:
            self._writing = True
            with anyio.CancelScope(shield=True):  # the others wait on this caller: it finishes what it began
                try:
                    while self._waiting:
                        batch, self._waiting = self._waiting, []
                        settles, self._settles = self._settles, []  # taken here, on the loop that adds them
                        data = b"".join([*settles, *(item[0] for item in batch)])
                        error = await anyio.to_thread.run_sync(self._write, data, len(settles))
                        for _line, event, outcome in batch:
                            outcome.append(error)
                            event.set()
                finally:
                    self._writing = False
        await done.wait()
        if failed[0] is not None:
            raise NotKept(failed[0])

    def _write(self, data: bytes, settles: int = 0) -> OSError | None:
        try:
            if self._torn:
                self._cut_back()
            write_all(self._fd, data)
            os.fsync(self._fd)
        except OSError as exc:
            self._torn = True
            with contextlib.suppress(OSError):  # else tried again before the next write
                self._cut_back()
            if settles:  # their entries are settled in memory: the next start looks their rows up
                log.warning("journal_settle_not_kept", settles=settles, reason=NotKept(exc).render("en"))
            return exc
        self._size += len(data)
        return None

    def _cut_back(self) -> None:
        os.ftruncate(self._fd, self._size)
        os.fsync(self._fd)
        self._torn = False


def _line(record: dict[str, Any]) -> bytes:
    return json.dumps(record, ensure_ascii=False).encode("utf-8") + b"\n"


def _read(path: Path) -> tuple[list[Entry], set[int]]:
    """The journal's entries and the seqs settled. A line that is no record this version writes (an editor, a
    disk, another version) is said once, and what it held is left out: never a reason not to start."""
    try:
        fd = open_private(path, os.O_RDONLY)
    except FileNotFoundError:
        return [], set()
    with os.fdopen(fd, "rb") as handle:
        raw = handle.read()
    lines = raw.splitlines()
    cut_off = not raw.endswith(b"\n")  # a crash mid-write leaves a last line without its end
    entries: list[Entry] = []
    settled: set[int] = set()
    unreadable = 0
    for number, line in enumerate(lines, 1):
        record = _record(line)
        if isinstance(record, Entry):
            entries.append(record)
        elif isinstance(record, int):
            settled.add(record)
        elif number < len(lines) or not cut_off:
            # The last line cut off by a crash mid-write was never acknowledged to anyone; any other line is
            # damage (or another version's record), said once, as the entry it held may be a write now lost.
            unreadable += 1
    if unreadable:
        log.error("journal_lines_unreadable", path=str(path), lines=unreadable)
    return entries, settled


ENTRY_TYPES: dict[str, tuple[type, ...]] = {
    "seq": (int,),
    "op": (str,),
    "task_id": (str,),
    "token": (str,),
    "bot": (str,),
    "sessie": (str, type(None)),
    "fields": (dict,),
    "gezegd": (str,),
    "sleutel": (str,),
}
assert set(ENTRY_TYPES) == {f.name for f in fields(Entry)}


# A settle line's keys; the first daemons wrote them in Dutch, and a journal such a daemon left is still read.
SETTLE_KEYS = {frozenset(keys): keys for keys in (("settled", "outcome", "reason"), ("settled", "uitkomst", "reden"))}


def _record(line: bytes) -> Entry | int | None:
    """An entry, the seq a settle line settles, or None for a line that is neither, exactly as written."""
    try:
        record = loads(line)
    except ValueError:
        return None
    if not isinstance(record, dict):
        return None
    if set(record) == {"entry"}:
        return _entry(record["entry"])
    keys = SETTLE_KEYS.get(frozenset(record))
    if keys is not None:
        seq, outcome, reason = (record[key] for key in keys)
        if _typed(seq, (int,)) and outcome in get_args(Outcome) and _typed(reason, (str, type(None))):
            return int(seq)
    return None


def _entry(raw: object) -> Entry | None:
    """An entry with exactly its fields, each of its type."""
    if not isinstance(raw, dict) or set(raw) != set(ENTRY_TYPES):
        return None
    if any(not _typed(raw[name], types) for name, types in ENTRY_TYPES.items()):
        return None
    return Entry(**raw)


def _typed(value: object, types: tuple[type, ...]) -> bool:
    return isinstance(value, types) and not isinstance(value, bool)  # JSON's true is no seq
