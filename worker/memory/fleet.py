"""Fleet-wide recall: each daemon copies its machine's new archive lines to the shared database
(`taak_archief`, TAAK_VLOOT_ARCHIEF), and `taak recall --vloot` searches all machines there, time first.

The local day files stay each machine's source of truth. Lines are copied per day file from the last line
copied (a cursor per file in the local index), keyed by a hash of the line, so a line copied twice is one row
and a copy that is lost can be rebuilt by deleting the cursors."""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from worker.db.sqlfiles import Executor, queries
from worker.memory.index import terms

BATCH = 1000
_CURSORS = "create table if not exists vloot (bestand text primary key, regel integer not null)"


@dataclass(frozen=True)
class Copied:
    lines: int
    removed: int


def pending(index_path: Path, batch: int = BATCH) -> tuple[list[tuple[Any, ...]], dict[str, int]]:
    """Up to `batch` indexed lines not copied yet, and the cursor each file reaches with them."""
    if not index_path.exists():
        return [], {}
    db = sqlite3.connect(index_path)
    try:
        db.execute(_CURSORS)
        rows = db.execute(
            "select r.bestand, r.regel, r.ts, r.actor, r.role, r.type, r.taak, r.session, r.text "
            "from regels r left join vloot v on v.bestand = r.bestand "
            "where r.regel > coalesce(v.regel, 0) order by r.bestand, r.regel limit ?",
            (batch,),
        ).fetchall()
    finally:
        db.close()
    reached: dict[str, int] = {}
    for row in rows:
        reached[row[0]] = max(reached.get(row[0], 0), int(row[1]))
    return rows, reached


def mark_copied(index_path: Path, reached: dict[str, int]) -> None:
    db = sqlite3.connect(index_path)
    try:
        db.execute(_CURSORS)
        db.executemany(
            "insert into vloot (bestand, regel) values (?, ?) "
            "on conflict (bestand) do update set regel = excluded.regel",
            list(reached.items()),
        )
        db.commit()
    finally:
        db.close()


def key(row: tuple[Any, ...]) -> str:
    _file, _line, ts, actor, role, kind, taak, session, text = row
    return hashlib.sha256(f"{ts}\x1f{actor}\x1f{role}\x1f{kind}\x1f{taak}\x1f{session}\x1f{text}".encode()).hexdigest()


async def copy_new(db: Executor, index_path: Path, machine: str, *, keep_days: int) -> Copied:
    """Copy what is new since the last run (in batches), then drop what is older than the retention window."""
    import anyio

    copied = 0
    while True:
        rows, reached = await anyio.to_thread.run_sync(pending, index_path)
        if not rows:
            break
        await db.execute(
            queries()["vloot_schrijven"],
            machine,
            [key(r) for r in rows],
            [datetime.fromtimestamp(int(r[2]) / 1000, UTC) for r in rows],
            [r[3] for r in rows],
            [r[4] for r in rows],
            [r[5] for r in rows],
            [r[6] for r in rows],
            [r[7] for r in rows],
            [r[8] for r in rows],
            [" ".join(terms(str(r[8]))) for r in rows],
        )
        # After the rows are in: a crash in between copies them again, and the key makes that one row.
        await anyio.to_thread.run_sync(mark_copied, index_path, reached)
        copied += len(rows)
        if len(rows) < BATCH:
            break
    status = await db.execute(queries()["vloot_opruimen"], keep_days)
    return Copied(copied, int(status.split()[-1]) if status.startswith("DELETE") else 0)


def windows(start: datetime, end: datetime) -> list[tuple[datetime, datetime]]:
    """The range cut into windows newest first, each four times the one before (a day, then 4, 16, ... days):
    a search that finds enough in the newest lines never sorts every match of the whole copy."""
    found = []
    size = timedelta(days=1)
    upper = end
    while upper > start:
        lower = max(start, upper - size)
        found.append((lower, upper))
        upper, size = lower, size * 4
    return found


async def search(db: Executor, start: datetime, end: datetime, query: str, wanted: int) -> list[Any]:
    """Up to `wanted` lines of the range that match `query`, newest first, window by window."""
    rows: list[Any] = []
    for lower, upper in windows(start, end):
        rows += await db.fetch(queries()["vloot_zoeken"], lower, upper, query, wanted - len(rows))
        if len(rows) >= wanted:
            break
    return rows


def tsquery(words: list[str]) -> str:
    """The words as a tsquery that matches any of them ('' for none), each quoted as a lexeme."""
    return " | ".join("'" + w.replace("'", "''").replace("\\", "\\\\") + "'" for w in dict.fromkeys(words))
