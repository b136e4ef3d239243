"""Fleet-wide recall: each daemon copies its machine's new archive lines to the shared database
(`taak_archief`, TAAK_FLEET_ARCHIVE), and `taak recall --vloot` searches all machines there, time first.

The local day files stay each machine's source of truth. Lines are copied per day file from the last line
copied (a cursor per file in the local index), keyed by a hash of the line, so a line copied twice is one row.
A day file indexed again (edited) has its rows replaced, and `taak archief vloot-opnieuw` rebuilds a machine's
whole copy from its files."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import anyio

from worker.core.phrases import Phrase, phrase
from worker.core.timephrase import TimeRange, database_bounds, parse_time
from worker.db import fleet_archive
from worker.db.sqlfiles import Connected, Executor
from worker.memory.index import terms
from worker.memory.recall import COUNT_BOUND, Extra, Hit, Recall, fallback_step, query_terms, ranked

BATCH = 1000
# Also in the index's own schema (worker/memory/index.py); here for an index file made before they were.
_CURSORS = (
    "create table if not exists vloot (bestand text primary key, regel integer not null);"
    "create table if not exists vloot_opnieuw (bestand text primary key);"
)


@dataclass(frozen=True)
class Copied:
    lines: int
    removed: int


@contextmanager
def _cursors(index_path: Path) -> Iterator[sqlite3.Connection]:
    """The local index with the fleet's cursor tables, committed and closed after use."""
    with closing(sqlite3.connect(index_path)) as db, db:
        db.executescript(_CURSORS)
        yield db


def pending(index_path: Path, batch: int = BATCH) -> tuple[list[tuple[Any, ...]], dict[str, int]]:
    """Up to `batch` indexed lines not copied yet, and the cursor each file reaches with them."""
    if not index_path.exists():
        return [], {}
    with _cursors(index_path) as db:
        rows = db.execute(
            "select r.bestand, r.regel, r.ts, r.actor, r.role, r.type, r.taak, r.session, r.text "
            "from regels r left join vloot v on v.bestand = r.bestand "
            "where r.regel > coalesce(v.regel, 0) order by r.bestand, r.regel limit ?",
            (batch,),
        ).fetchall()
    return rows, {row[0]: int(row[1]) for row in rows}  # in line order: each file's last row is the furthest


def mark_copied(index_path: Path, reached: dict[str, int]) -> None:
    with _cursors(index_path) as db:
        db.executemany(
            "insert into vloot (bestand, regel) values (?, ?) "
            "on conflict (bestand) do update set regel = excluded.regel",
            list(reached.items()),
        )


def edited_files(index_path: Path) -> list[str]:
    """Day files indexed again since the last copy (edited): their lines in the shared copy are replaced."""
    if not index_path.exists():
        return []
    with _cursors(index_path) as db:
        return [str(row[0]) for row in db.execute("select bestand from vloot_opnieuw").fetchall()]


def mark_replaced(index_path: Path, files: list[str]) -> None:
    with _cursors(index_path) as db:
        db.executemany("delete from vloot_opnieuw where bestand = ?", [(f,) for f in files])


async def forget_machine(db: Executor, index_path: Path, machine: str) -> int:
    """Every line of `machine` out of the shared copy, and this index's cursors back to the start: the next
    copy brings the day files over as they are now. Returns the rows deleted."""
    deleted = await fleet_archive.forget_machine(db, machine)
    await anyio.to_thread.run_sync(_rewind, index_path)
    return deleted


def _rewind(index_path: Path) -> None:
    if index_path.exists():
        with _cursors(index_path) as db:
            db.executescript("delete from vloot; delete from vloot_opnieuw;")


async def copy_new(db: Executor, index_path: Path, machine: str, *, keep_days: int) -> Copied:
    """Copy what is new since the last run (in batches), then drop what is older than the retention window."""
    edited = await anyio.to_thread.run_sync(edited_files, index_path)
    for bestand in edited:  # gone first; the file's lines are then copied again from its first line
        await fleet_archive.forget_file(db, machine, Path(bestand).name)
    await anyio.to_thread.run_sync(mark_replaced, index_path, edited)
    copied = 0
    while True:
        rows, reached = await anyio.to_thread.run_sync(pending, index_path)
        if not rows:
            break
        await fleet_archive.write(db, machine, [_line(r) for r in rows])
        # After the rows are in: a crash in between copies them again, and the key makes that one row.
        await anyio.to_thread.run_sync(mark_copied, index_path, reached)
        copied += len(rows)
        if len(rows) < BATCH:
            break
    return Copied(copied, await fleet_archive.drop_older(db, keep_days))


def _line(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """An indexed line as the shared copy holds it, keyed by a hash of the line."""
    bestand, _line, ts, actor, role, kind, taak, session, text = row
    key = hashlib.sha256(f"{ts}\x1f{actor}\x1f{role}\x1f{kind}\x1f{taak}\x1f{session}\x1f{text}".encode()).hexdigest()
    moment = datetime.fromtimestamp(int(ts) / 1000, UTC)
    words = " ".join(terms(str(text), indexed=True))
    return key, moment, actor, role, kind, taak, session, text, words, Path(bestand).name


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


@dataclass(frozen=True)
class Scope:
    """What a fleet search is limited to: the range, and optionally one actor or one task."""

    start: datetime
    end: datetime
    actor: str | None = None
    taak: str | None = None


async def matches(db: Executor, scope: Scope, query: str, wanted: int, bound: int) -> tuple[list[Any], int]:
    """Up to `wanted` lines of the range that match `query` (a tsquery; '' is every line), newest first, and
    how many matched (up to `bound`), window by window: each window is counted first through the word index,
    which also says which way to fetch its lines cheaply."""
    rows: list[Any] = []
    counted = 0
    for lower, upper in windows(scope.start, scope.end):
        left = bound - counted
        found = await fleet_archive.count_window(db, lower, upper, query, left, scope.actor, scope.taak)
        counted += found
        if found and len(rows) < wanted:
            rows += await fleet_archive.search_window(
                db, lower, upper, query, wanted - len(rows), scope.actor, scope.taak, common=found >= left
            )
        if counted >= bound:
            break
    return rows, counted


async def count(db: Executor, scope: Scope, query: str, bound: int) -> int:
    """Spoken lines of the range that match `query` (every one for ''), newest window first, up to `bound`."""
    return (await matches(db, scope, query, 0, bound))[1]


def tsquery(words: list[str]) -> str:
    """The words as a tsquery that matches any of them ('' for none), each quoted as a lexeme."""
    return " | ".join("'" + w.replace("'", "''").replace("\\", "\\\\") + "'" for w in dict.fromkeys(words))


async def recall(
    conn: Connected,
    query: str,
    now: datetime,
    zone: ZoneInfo,
    *,
    limit: int,
    language: str,
    actor: str | None = None,
    taak: str | None = None,
    keep_days: int | None = None,
) -> Recall:
    """`taak recall --vloot`: the local recall's phrases, fallback policy, ranking, header and caps, over every
    machine's lines in the shared copy (newest first instead of bm25: Postgres ranks only what it sorts).
    One read-only transaction; its statements are planned for their values every time, because a generic
    plan cannot tell a word in every line from a word in none (the two want opposite plans)."""
    parsed = parse_time(query, now, zone, language)
    words = query_terms(parsed.words)
    bound = limit + COUNT_BOUND
    scope = Scope(*database_bounds(parsed.range, now), actor, taak)
    async with conn.transaction(readonly=True):
        await fleet_archive.plan_per_value(conn)
        in_range = await count(conn, scope, "", bound)
        range_empty = parsed.range is not None and in_range == 0
        if range_empty:
            start, end = database_bounds(None, now)
            scope = replace(scope, start=start, end=end)
        rows, candidates = await matches(conn, scope, tsquery(words), limit, bound) if words else ([], 0)
        found = ranked([_hit(r, matched=True) for r in rows])
        per_word = {word: await count(conn, scope, tsquery([word]), bound) for word in dict.fromkeys(words)}
        step = fallback_step(
            has_range=parsed.range is not None,
            range_empty=range_empty,
            has_words=bool(words),
            hits=candidates,
            spoken_in_range=in_range if parsed.range is not None else 0,  # an empty range's is 0 all the same
            limit=limit,
            semantic=False,
        )
        found.sort(key=lambda h: h.ts)
        if step.extra is Extra.RANGE_IN_ORDER:
            found, candidates = await _with_the_range(conn, scope, found, limit), in_range
    numbered = [replace(h, id=n) for n, h in enumerate(found)]
    notes = _notes(step.semantic_missed, parsed.range, now, keep_days)
    cut = max(0, candidates - len(numbered))
    fallback = phrase("recall_fleet", step=step.fallback)
    return Recall(now, parsed.range, fallback, numbered, in_range, cut, notes, per_word, bound)


def _notes(semantic_missed: bool, asked: TimeRange | None, now: datetime, keep_days: int | None) -> list[Phrase]:
    """What the header adds: no meaning search over the fleet, and a range older than the shared copy keeps."""
    notes = [phrase("recall_not_with_fleet")] if semantic_missed else []
    if keep_days is not None and (asked is None or asked.start < now - timedelta(days=keep_days)):
        notes.append(phrase("recall_fleet_keeps", days=keep_days))
    return notes


async def _with_the_range(db: Executor, scope: Scope, found: list[Hit], limit: int) -> list[Hit]:
    """The words found too few lines: the range's other lines after them, in time order."""
    seen = {(h.actor, h.ts, h.text) for h in found}
    rows = await fleet_archive.whole_range(db, scope.start, scope.end, scope.actor, scope.taak, limit)
    rest = [h for h in map(_hit, rows) if (h.actor, h.ts, h.text) not in seen]
    return (found + ranked(rest, after=len(found)))[:limit]


def _hit(row: Any, *, matched: bool = False) -> Hit:
    return Hit(
        0,
        int(row["ts"].timestamp() * 1000),
        f"{row['machine']}/{row['actor']}",
        row["role"] or "",
        row["type"] or "text",
        row["tekst"],
        row["sessie"],
        row["taak"],
        matched=matched,
        machine=row["machine"],
    )
