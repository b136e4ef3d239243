"""The ledger against a raw asyncpg SKIP LOCKED loop, and briefing cost against log length."""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable

import asyncpg

from tests.helpers import ledger_on
from worker.core.briefing import Variant
from worker.core.model import Soort
from worker.db.briefing import briefing_for
from worker.settings import Settings

# Made once and kept, like the ledger's tables: both sides carry what earlier runs left (deeper indexes), so
# neither is measured on a fresher table than the other.
RAW_SETUP = """
create table if not exists raw_jobs (
    id bigserial primary key, status text not null default 'queued', token uuid, lease timestamptz
);
create index if not exists raw_jobs_queued on raw_jobs (id) where status = 'queued';
create table if not exists raw_log (id bigserial primary key, job_id bigint not null, text text not null);
"""
RAW_CLAIM = """
update raw_jobs set status = 'running', token = gen_random_uuid(), lease = now() + interval '20 minutes'
where id = (select id from raw_jobs where status = 'queued' order by id limit 1 for update skip locked)
returning id, token
"""
RAW_COMPLETE = "update raw_jobs set status = 'done', lease = null where id = $1 and token = $2"
RAW_LOG = "insert into raw_log (job_id, text) values ($1, $2)"

# The ledger's task row alone: raw's two statements on `agent_taken`, with no log row, no attempt count, no
# function. Not a path the system takes; it shows what the contract's table costs before the ledger adds
# anything (design section 4: 21 columns, the readable text ID, the claim order and its indexes).
TABLE_CLAIM = """
update agent_taken set status = 'bezig', lease_token = gen_random_uuid(), lease_tot = now() + interval '20 minutes'
where id = (
    select id from agent_taken where status = 'wachtend' and toegewezen_aan is null and nodig is null
    order by prioriteit desc, aangemaakt, id limit 1 for update skip locked
)
returning id, lease_token
"""
TABLE_COMPLETE = """
update agent_taken set status = 'klaar', bewijs = 'bench', lease_tot = null, lease_token = null
where id = $1 and lease_token = $2
"""
# And raw's log row on the ledger's log: its foreign key, its two triggers (the kind and the clock; the count).
TABLE_LOG = "insert into agent_taak_log (taak_id, bot, soort, tekst) values ($1, 'paco', 'stap_klaar', $2)"

# The ledger's three statements as `Ledger` sends them in the loops below (queries.sql: claim, log_fenced, klaar).
LEDGER_CLAIM = "select * from taak_claim(array['paco'], 1200, 'bench', null, '{}', false)"
LEDGER_LOG = "select * from taak_log_met_token($1, $2, 'stap_klaar', 'stap', null, '{}', 1200)"
LEDGER_KLAAR = "select * from taak_klaar($1, $2, '/tmp/bewijs', 'klaar', null, '{}')"

WORKER_COUNTS = (1, 4, 16)


async def _run_workers(pool: asyncpg.Pool, workers: int, step: Callable[[asyncpg.Pool], Awaitable[bool]]) -> float:
    """Seconds for `workers` loops to drain the queue, each calling `step` until it finds nothing."""

    async def loop() -> None:
        while await step(pool):
            pass

    started = time.perf_counter()
    await asyncio.gather(*(loop() for _ in range(workers)))
    return time.perf_counter() - started


def _raw_step(with_log: bool) -> Callable[[asyncpg.Pool], Awaitable[bool]]:
    """The floor: a SKIP LOCKED claim, (one log row,) a fenced complete, each its own statement."""

    async def step(pool: asyncpg.Pool) -> bool:
        async with pool.acquire() as conn:
            row = await conn.fetchrow(RAW_CLAIM)
            if row is None:
                return False
            if with_log:
                await conn.execute(RAW_LOG, row["id"], "stap")
            await conn.execute(RAW_COMPLETE, row["id"], row["token"])
            return True

    return step


def _table_step(with_log: bool) -> Callable[[asyncpg.Pool], Awaitable[bool]]:
    """Raw's own statements on the ledger's tables, triggers and foreign key included."""

    async def step(pool: asyncpg.Pool) -> bool:
        async with pool.acquire() as conn:
            row = await conn.fetchrow(TABLE_CLAIM)
            if row is None:
                return False
            if with_log:
                await conn.execute(TABLE_LOG, row["id"], "stap")
            await conn.execute(TABLE_COMPLETE, row["id"], row["lease_token"])
            return True

    return step


def _ledger_step(with_log: bool) -> Callable[[asyncpg.Pool], Awaitable[bool]]:
    async def step(pool: asyncpg.Pool) -> bool:
        async with pool.acquire() as conn:
            ledger = ledger_on(conn, machine="bench")
            claim = await ledger.claim(["paco"])
            if claim is None:
                return False
            if with_log:
                await ledger.log(claim.task.id, Soort.STAP_KLAAR, "stap", token=claim.token, bot="paco")
            await ledger.klaar(claim.task.id, "/tmp/bewijs", "klaar", token=claim.token)
            return True

    return step


# Each run starts on vacuumed tables, both sides alike, as the fleet's database (autovacuum on) would between
# bursts. This machine's server runs with autovacuum off: without it every run walked the dead rows of all the
# runs before it, and the ledger's 21-column row with four indexes paid more for that than raw's four columns.
async def _fill_raw(pool: asyncpg.Pool, jobs: int) -> None:
    await pool.execute(RAW_SETUP)
    await pool.execute("insert into raw_jobs (status) select 'queued' from generate_series(1, $1)", jobs)
    await pool.execute("vacuum analyze raw_jobs, raw_log")


async def _fill_ledger(pool: asyncpg.Pool, jobs: int) -> None:
    await pool.execute(
        "insert into agent_taken (opdracht, opdrachtgever) select 'taak ' || n, 'bench' from generate_series(1, $1) n",
        jobs,
    )
    await pool.execute("vacuum analyze agent_taken, agent_taak_log, agent_taak_telling")


async def throughput_table(url: str, *, jobs: int, rounds: int = 2) -> str:
    """Ledger beside raw, interleaved on the same server (raw, ledger, raw, ledger ...), the best round of each:
    claim + fenced finish, and claim + one log row + fenced finish. Raw twice: on a bare table of its own (the
    goal's baseline) and with the same statements on the ledger's own tables, triggers and foreign key included
    (what the contract's tables alone leave the ledger)."""
    lines = [
        f"### Ledger throughput ({jobs} jobs per run, jobs/s, best of {rounds} interleaved rounds; "
        "ratio = ledger / raw on a bare table; / it = ledger / raw's same statements on the ledger's tables; "
        "goal: ratio >= 0.6x at every worker count)",
        "",
        "| workers | raw claim+complete | ledger claim+klaar | ratio | raw claim+log+complete | ledger claim+log+klaar "
        "| ratio | raw claim+complete on agent_taken | / it | raw claim+log+complete on the ledger's tables | / it |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    pool = await asyncpg.create_pool(url, min_size=16, max_size=16)
    try:
        for workers in WORKER_COUNTS:
            best = {"raw": 0.0, "plain": 0.0, "raw_log": 0.0, "logged": 0.0, "table": 0.0, "table_log": 0.0}
            for _ in range(rounds):
                for name, fill, step in (
                    ("raw", _fill_raw, _raw_step(with_log=False)),
                    ("plain", _fill_ledger, _ledger_step(with_log=False)),
                    ("table", _fill_ledger, _table_step(with_log=False)),
                    ("raw_log", _fill_raw, _raw_step(with_log=True)),
                    ("logged", _fill_ledger, _ledger_step(with_log=True)),
                    ("table_log", _fill_ledger, _table_step(with_log=True)),
                ):
                    await fill(pool, jobs)
                    best[name] = max(best[name], jobs / await _run_workers(pool, workers, step))
            cells = [
                f"{best['raw']:,.0f}",
                f"{best['plain']:,.0f}",
                f"{best['plain'] / best['raw']:.2f}x",
                f"{best['raw_log']:,.0f}",
                f"{best['logged']:,.0f}",
                f"{best['logged'] / best['raw_log']:.2f}x",
                f"{best['table']:,.0f}",
                f"{best['plain'] / best['table']:.2f}x",
                f"{best['table_log']:,.0f}",
                f"{best['logged'] / best['table_log']:.2f}x",
            ]
            lines.append(f"| {workers} | " + " | ".join(cells) + " |")
    finally:
        await pool.close()
    return "\n".join(lines)


async def _server_us(conn: asyncpg.Connection, statement: str, *args: object) -> float:
    """The server's execution time of one statement in microseconds: EXPLAIN ANALYZE's, which takes in its
    triggers and foreign-key checks and leaves out planning (the loops send prepared statements)."""
    plan = await conn.fetch(f"explain (analyze, timing off) {statement}", *args)
    last = next(r[0] for r in plan if r[0].startswith("Execution Time:"))
    return float(last.split()[2]) * 1000


async def server_time_table(url: str, *, tasks: int, warm_up: int = 20) -> str:
    """Where a task's server time goes at one worker: each of raw's and the ledger's statements timed by the
    server itself, one task after the other on one connection, as the loops above send them."""
    times: dict[str, list[float]] = {name: [] for name in ("claim", "log", "finish", "rclaim", "rlog", "rfinish")}
    conn = await asyncpg.connect(url)
    try:
        await _fill_raw(conn, tasks + warm_up)
        await _fill_ledger(conn, tasks + warm_up)
        for n in range(tasks + warm_up):
            kept = n >= warm_up
            spent = await _server_us(conn, RAW_CLAIM)
            job_id, token = await conn.fetchrow(
                "select id, token from raw_jobs where status = 'running' order by lease desc limit 1"
            )
            spent_log = await _server_us(conn, RAW_LOG, job_id, "stap")
            spent_finish = await _server_us(conn, RAW_COMPLETE, job_id, token)
            if kept:
                times["rclaim"].append(spent)
                times["rlog"].append(spent_log)
                times["rfinish"].append(spent_finish)
            spent = await _server_us(conn, LEDGER_CLAIM)
            task_id, token = await conn.fetchrow(
                "select id, lease_token from agent_taken where status = 'bezig' order by bijgewerkt desc limit 1"
            )
            spent_log = await _server_us(conn, LEDGER_LOG, task_id, token)
            spent_finish = await _server_us(conn, LEDGER_KLAAR, task_id, token)
            if kept:
                times["claim"].append(spent)
                times["log"].append(spent_log)
                times["finish"].append(spent_finish)
    finally:
        await conn.close()
    median = {name: statistics.median(values) for name, values in times.items()}
    lines = [
        f"### Server time per task at one worker (us, median of {tasks}; the server's execution time of each "
        "statement, triggers and foreign keys included; ratio = ledger / raw on a bare table)",
        "",
        "| statement | raw | ledger | ratio |",
        "|---|---:|---:|---:|",
    ]
    for label, ours, theirs in (
        ("claim", "claim", "rclaim"),
        ("log row", "log", "rlog"),
        ("finish (complete / klaar)", "finish", "rfinish"),
    ):
        lines.append(f"| {label} | {median[theirs]:.0f} | {median[ours]:.0f} | {median[ours] / median[theirs]:.2f}x |")
    ours, theirs = (
        median["claim"] + median["log"] + median["finish"],
        median["rclaim"] + median["rlog"] + median["rfinish"],
    )
    lines.append(f"| claim + log row + finish | {theirs:.0f} | {ours:.0f} | {ours / theirs:.2f}x |")
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
            ledger = ledger_on(conn)
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
