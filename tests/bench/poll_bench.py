"""A fleet of daemons in poll mode against one server: statements per second, measured beside the arithmetic.

Each simulated daemon is a real `Worker` (its own bot and machine) whose claim loop runs as an asyncio task in
this process: the daemon's own claim and its look at why it took nothing (`Worker._claim_on`), and the daemon's
own wait between looks (`worker.core.poll.next_poll_wait`). They share a few connections, as daemons behind a
transaction pooler share its server connections. The server's count of committed transactions in the scratch
database (`pg_stat_database.xact_commit`; every statement of an empty claim is one) is set against the
arithmetic: daemons x statements per look / mean wait. One real daemon process, idle, measures what a daemon
costs in all (its duties too), in each mode, beside the same arithmetic.
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
import time
import uuid
from collections.abc import Awaitable
from pathlib import Path

import asyncpg

from tests.bench.daemon_bench import _env, _reset
from tests.conftest import with_database
from tests.system.harness import Daemon, switch_on, wait_for
from worker.core.dsn import parse_database_url
from worker.core.poll import next_poll_wait
from worker.daemon.worker import Worker
from worker.db.connect import create_pool
from worker.db.store import Store
from worker.settings import Settings

STATEMENTS_PER_EMPTY_LOOK = 2  # the claim, and the look at why it took nothing (the bots' switch and brake)
SHARED_CONNECTIONS = 10  # the transaction pooler's server connections the daemons share
# An idle daemon at the default intervals: the heartbeat, the reaper and the schema watch each once per 30 s (the
# registry's once per 300 s left out); with LISTEN, the listener's check that its connection is alive once per
# TAAK_POLL_SECONDS, beside the looks (which LISTEN keeps as its fallback).
DUTIES_PER_SECOND = 3 / 30
IDLE = {"TAAK_POLL_SECONDS": "5", "TAAK_HEARTBEAT_SECONDS": "30", "TAAK_REAPER_SECONDS": "30"}


async def _committed(conn: asyncpg.Connection) -> int:
    # The statistics a backend sends reach pg_stat_database within a second or so: ask for a fresh snapshot.
    await conn.execute("select pg_stat_clear_snapshot()")
    return int(await conn.fetchval("select xact_commit from pg_stat_database where datname = current_database()"))


async def _daemon(worker: Worker, poll_seconds: float, stop: asyncio.Event, waits: list[float]) -> int:
    """One daemon's claim loop in poll mode, as the worker runs it: a look, then the wait; returns its looks."""
    wait, looks = 0.0, 0
    while not stop.is_set():
        claim = await worker._claim(str(uuid.uuid4()))  # on a connection of the pool all daemons here share
        looks += 1
        wait = next_poll_wait(wait, claim is not None, poll_seconds)
        waits.append(wait)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), wait)
    return looks


async def _measure(url: str, daemons: int, poll_seconds: float, warm_up: float, seconds: float) -> dict[str, float]:
    database = parse_database_url(url)
    admin = await asyncpg.connect(url)
    # The daemon's own pool settings (no reset statement when a connection goes back).
    pool = await create_pool(
        Settings(_env_file=None), database, min_size=SHARED_CONNECTIONS, max_size=SHARED_CONNECTIONS
    )
    stop = asyncio.Event()
    try:
        bots = [f"vloot{n:04d}" for n in range(daemons)]
        await admin.execute(
            "insert into agent_bots (bot, actief) select unnest($1::text[]), true on conflict (bot) do update "
            "set actief = true",
            bots,
        )
        with tempfile.TemporaryDirectory() as folder:
            workers = []
            for n, bot in enumerate(bots):
                settings = Settings(
                    _env_file=None,
                    bots=[bot],
                    machine=f"machine{n:04d}",
                    data_dir=Path(folder) / bot,
                    poll_seconds=poll_seconds,
                    listen=False,
                )
                worker = Worker(settings, database)
                worker._store, worker.pool = Store(pool, settings), pool
                workers.append(worker)
            waits: list[list[float]] = [[] for _ in workers]
            loops = [
                asyncio.create_task(_daemon(w, poll_seconds, stop, waited))
                for w, waited in zip(workers, waits, strict=True)
            ]
            await asyncio.sleep(warm_up)  # the waits have grown to TAAK_POLL_SECONDS
            before, looked_before = await _committed(admin), sum(len(w) for w in waits)
            started = time.monotonic()
            await asyncio.sleep(seconds)
            elapsed = time.monotonic() - started
            after, looked_after = await _committed(admin), sum(len(w) for w in waits)
            stop.set()
            await asyncio.gather(*loops)
    finally:
        stop.set()
        await pool.close()
        await admin.close()
    looks = looked_after - looked_before
    measured_waits = [wait for waited in waits for wait in waited[-max(1, int(seconds / poll_seconds)) :]]
    mean_wait = sum(measured_waits) / len(measured_waits)
    # Less the two statements of the measurement itself (the snapshot's transaction and its read).
    return {
        "server": (after - before - 2) / elapsed,
        "ours": looks * STATEMENTS_PER_EMPTY_LOOK / elapsed,
        "arithmetic": daemons * STATEMENTS_PER_EMPTY_LOOK / mean_wait,
        "mean_wait": mean_wait,
        "looks": looks / elapsed,
    }


async def _one_daemon(url: str, listen: bool, warm_up: float, seconds: float) -> float:
    """Statements per second of one idle daemon process (the server's count, less the measurement's own)."""
    conn = await asyncpg.connect(url)
    try:
        name = await conn.fetchval("select current_database()")
        await switch_on(conn, "paco")
        await _reset(conn)  # idle: a task an earlier section left waiting would be claimed and run in the window
        with tempfile.TemporaryDirectory() as folder:
            env = _env(url, Path(folder), **IDLE, TAAK_LISTEN=str(listen).lower())
            daemon = Daemon(env, Path(folder) / "worker.log")
            try:
                event = "listening" if listen else "listen_unavailable"
                await wait_for(lambda: _has_event(daemon, event), what="the daemon's start")
                await asyncio.sleep(warm_up)
                before = await _committed(conn)
                started = time.monotonic()
                await asyncio.sleep(seconds)
                elapsed = time.monotonic() - started
            finally:
                daemon.stop()  # an idle daemon says nothing to the server as it stops (its log, the server's)
        # Counted once its connections have closed: a backend reports its counts when it has been idle a while or
        # as it exits, and the listener's, asked every few seconds, reported a minute late (LISTEN read 0.48 a
        # second where the server's log showed the 0.70 of the arithmetic).
        await _until_alone(conn, url, name)
        after = await _committed(conn)
    finally:
        await conn.close()
    return (after - before - 2) / elapsed


async def _until_alone(conn: asyncpg.Connection, url: str, name: str) -> None:
    """Until `conn` is the only connection to its database `name`. Asked from the server's `postgres` database, so
    that the asking is not counted among the database's statements."""
    watcher = await asyncpg.connect(with_database(url, "postgres"))
    others = "select count(*) from pg_stat_activity where datname = $1 and pid <> $2"
    try:
        await wait_for(
            lambda: _none(watcher.fetchval(others, name, conn.get_server_pid())), what="the daemon's connections closed"
        )
    finally:
        await watcher.close()


async def _none(count: Awaitable[int]) -> bool:
    return await count == 0


async def _has_event(daemon: Daemon, name: str) -> bool:
    return daemon.has_event(name)


def one_daemon_arithmetic(listen: bool, poll_seconds: float) -> float:
    return (STATEMENTS_PER_EMPTY_LOOK + (1 if listen else 0)) / poll_seconds + DUTIES_PER_SECOND


async def poll_table(url: str, *, daemons: int, poll_seconds: float = 5.0, seconds: float = 60.0) -> str:
    warm_up = 1 + 2 + 4 + poll_seconds  # 1 s doubling up to TAAK_POLL_SECONDS, and one more wait
    found = await _measure(url, daemons, poll_seconds, warm_up, seconds)
    alone = {listen: await _one_daemon(url, listen, warm_up, seconds) for listen in (False, True)}
    ratio = found["server"] / found["arithmetic"]
    return "\n".join(
        [
            f"### {daemons} daemons in poll mode, one process ({seconds:.0f} s after a {warm_up:.0f} s warm-up, "
            f"TAAK_POLL_SECONDS={poll_seconds:g}, {SHARED_CONNECTIONS} shared connections)",
            "",
            "| figure | statements/s | ratio to the arithmetic | goal |",
            "|---|---:|---:|---|",
            f"| arithmetic: {daemons} x {STATEMENTS_PER_EMPTY_LOOK} statements / mean wait {found['mean_wait']:.2f} s "
            f"| {found['arithmetic']:.1f} | 1.00 | |",
            f"| counted by the daemons ({found['looks']:.1f} looks/s) | {found['ours']:.1f} "
            f"| {found['ours'] / found['arithmetic']:.2f} | about 1 |",
            f"| committed on the server (pg_stat_database) | {found['server']:.1f} | {ratio:.2f} | about 1 |",
            "",
            f"One daemon process, idle, default intervals ({seconds:.0f} s after a {warm_up:.0f} s warm-up; the "
            "arithmetic: looks, listener check, heartbeat, reaper, schema watch):",
            "",
            "| mode | arithmetic statements/s | on the server | ratio | x 1,000 machines |",
            "|---|---:|---:|---:|---:|",
            *(
                f"| {'LISTEN' if listen else 'poll'} | {one_daemon_arithmetic(listen, poll_seconds):.2f} "
                f"| {alone[listen]:.2f} | {alone[listen] / one_daemon_arithmetic(listen, poll_seconds):.2f} "
                f"| {alone[listen] * 1000:,.0f} |"
                for listen in (False, True)
            ),
        ]
    )
