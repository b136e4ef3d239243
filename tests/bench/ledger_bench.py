"""The ledger against a raw asyncpg SKIP LOCKED loop, and briefing cost against log length."""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable

import asyncpg

from worker.core.briefing import Variant
from worker.core.model import Soort
from worker.db.briefing import briefing_for
from worker.db.ledger import Ledger
from worker.settings import Settings

RAW_SETUP = """
drop table if exists raw_jobs;
create table raw_jobs (
    id bigserial primary key, status text not null default 'queued', token uuid, lease timestamptz
);
create index raw_jobs_queued on raw_jobs (id) where status = 'queued';
"""
RAW_CLAIM = """
update raw_jobs set status = 'running', token = gen_random_uuid(), lease = now() + interval '20 minutes'
where id = (select id from raw_jobs where status = 'queued' order by id limit 1 for update skip locked)
returning id, token
"""
RAW_COMPLETE = "update raw_jobs set status = 'done', lease = null where id = $1 and token = $2"

WORKER_COUNTS = (1, 4, 16)


async def _run_workers(pool: asyncpg.Pool, workers: int, step: Callable[[asyncpg.Pool], Awaitable[bool]]) -> float:
    """Seconds for `workers` loops to drain the queue, each calling `step` until it finds nothing."""

    async def loop() -> None:
        while await step(pool):
            pass

    started = time.perf_counter()
    await asyncio.gather(*(loop() for _ in range(workers)))
    return time.perf_counter() - started


async def _raw_step(pool: asyncpg.Pool) -> bool:
    async with pool.acquire() as conn:
        row = await conn.fetchrow(RAW_CLAIM)
        if row is None:
            return False
        await conn.execute(RAW_COMPLETE, row["id"], row["token"])
        return True


def _ledger_step(with_log: bool) -> Callable[[asyncpg.Pool], Awaitable[bool]]:
    async def step(pool: asyncpg.Pool) -> bool:
        async with pool.acquire() as conn:
            ledger = Ledger(conn, machine="bench")
            claim = await ledger.claim(["paco"])
            if claim is None:
                return False
            if with_log:
                await ledger.log(claim.task.id, Soort.STAP_KLAAR, "stap", token=claim.token, bot="paco")
            await ledger.klaar(claim.task.id, "/tmp/bewijs", "klaar", token=claim.token, bot="paco")
            return True

    return step


async def _fill_raw(pool: asyncpg.Pool, jobs: int) -> None:
    await pool.execute(RAW_SETUP)
    await pool.execute("insert into raw_jobs (status) select 'queued' from generate_series(1, $1)", jobs)
    await pool.execute("analyze raw_jobs")


async def _fill_ledger(pool: asyncpg.Pool, jobs: int) -> None:
    await pool.execute(
        "insert into agent_taken (opdracht, opdrachtgever) select 'taak ' || n, 'bench' from generate_series(1, $1) n",
        jobs,
    )
    await pool.execute("analyze agent_taken")


async def throughput_table(url: str, *, jobs: int) -> str:
    lines = [
        f"### Ledger throughput ({jobs} jobs per run, jobs/s; ratio = ledger / raw in the same run)",
        "",
        "| workers | raw claim+complete | ledger claim+klaar | ratio | ledger claim+log+klaar | ratio |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    pool = await asyncpg.create_pool(url, min_size=16, max_size=16)
    try:
        for workers in WORKER_COUNTS:
            rates: list[float] = []
            for fill, step in (
                (_fill_raw, _raw_step),
                (_fill_ledger, _ledger_step(with_log=False)),
                (_fill_ledger, _ledger_step(with_log=True)),
            ):
                await fill(pool, jobs)
                rates.append(jobs / await _run_workers(pool, workers, step))
            raw, plain, logged = rates
            cells = [
                f"{raw:,.0f}",
                f"{plain:,.0f}",
                f"{plain / raw:.2f}x",
                f"{logged:,.0f}",
                f"{logged / raw:.2f}x",
            ]
            lines.append(f"| {workers} | " + " | ".join(cells) + " |")
    finally:
        await pool.close()
    return "\n".join(lines)


async def briefing_table(url: str, *, log_sizes: tuple[int, ...], repeats: int = 50) -> str:
    settings = Settings(_env_file=None)
    lines = [
        "### Briefing build (full variant, from the database; median of "
        f"{repeats}; ratio = time / time at {log_sizes[0]} rows)",
        "",
        "| log rows | median ms | ratio | characters |",
        "|---:|---:|---:|---:|",
    ]
    conn = await asyncpg.connect(url)
    try:
        # Other tasks' rows around the measured one, as in a real ledger.
        await conn.execute(
            "insert into agent_taken (opdracht, opdrachtgever) select 'ander ' || n, 'bench' "
            "from generate_series(1, 200) n"
        )
        baseline = 0.0
        for size in log_sizes:
            task_id = await conn.fetchval(
                "insert into agent_taken (opdracht, opdrachtgever) values ($1, 'jamal') returning id",
                f"Briefing met {size} regels",
            )
            await conn.execute(
                "insert into agent_taak_log (taak_id, bot, soort, tekst) "
                "select $1, 'paco', (array['stap_klaar','notitie','fout'])[1 + n % 3], 'regel ' || n "
                "from generate_series(1, $2) n",
                task_id,
                size - 1,
            )
            await conn.execute("analyze agent_taak_log")
            ledger = Ledger(conn)
            text = await briefing_for(ledger, task_id, settings, Variant.FULL)
            timings = []
            for _ in range(repeats):
                started = time.perf_counter()
                text = await briefing_for(ledger, task_id, settings, Variant.FULL)
                timings.append(time.perf_counter() - started)
            median = statistics.median(timings) * 1000
            baseline = baseline or median
            lines.append(f"| {size:,} | {median:.2f} | {median / baseline:.2f}x | {len(text):,} |")
    finally:
        await conn.close()
    return "\n".join(lines)
