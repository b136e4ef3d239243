"""A fleet of daemons in poll mode against one server: statements per second, measured beside the arithmetic.

Each simulated daemon is a real `Worker` (its own bot and machine) whose claim loop runs as an asyncio task in
this process: the daemon's own claim and its look at why it took nothing (`Worker._claim_on`), and the daemon's
own wait between looks (`worker.core.poll.next_poll_wait`). They share a few connections, as daemons behind a
transaction pooler share its server connections. The server's count of committed transactions in the scratch
database (`pg_stat_database.xact_commit`; every statement of an empty claim is one) is set against the
arithmetic: daemons x statements per look / mean wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
import time
import uuid
from pathlib import Path

import asyncpg

from worker.core.dsn import parse_database_url
from worker.core.poll import next_poll_wait
from worker.daemon.worker import Worker
from worker.db.connect import create_pool
from worker.db.store import Store
from worker.settings import Settings

STATEMENTS_PER_EMPTY_LOOK = 2  # the claim, and the look at why it took nothing (the bots' switch and brake)
SHARED_CONNECTIONS = 10  # the transaction pooler's server connections the daemons share


async def _committed(conn: asyncpg.Connection) -> int:
    # The statistics a backend sends reach pg_stat_database within a second or so: ask for a fresh snapshot.
    await conn.execute("select pg_stat_clear_snapshot()")
    return int(await conn.fetchval("select xact_commit from pg_stat_database where datname = current_database()"))


async def _daemon(
    worker: Worker, pool: asyncpg.Pool, poll_seconds: float, stop: asyncio.Event, waits: list[float]
) -> int:
    """One daemon's claim loop in poll mode, as the worker runs it: a look, then the wait; returns its looks."""
    wait, looks = 0.0, 0
    while not stop.is_set():
        async with pool.acquire() as conn:
            claim = await worker._claim_on(conn, str(uuid.uuid4()))
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
                worker._store = Store(pool, settings)
                workers.append(worker)
            waits: list[list[float]] = [[] for _ in workers]
            loops = [
                asyncio.create_task(_daemon(w, pool, poll_seconds, stop, waited))
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


async def poll_table(url: str, *, daemons: int, poll_seconds: float = 5.0, seconds: float = 60.0) -> str:
    warm_up = 1 + 2 + 4 + poll_seconds  # 1 s doubling up to TAAK_POLL_SECONDS, and one more wait
    found = await _measure(url, daemons, poll_seconds, warm_up, seconds)
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
        ]
    )
