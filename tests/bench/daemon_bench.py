"""The daemon as a process: pickup latency, end-to-end rate with a no-op agent, and idle cost."""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from functools import partial
from pathlib import Path
from typing import Any

import anyio
import asyncpg
import psutil

from tests.bench.ledger_bench import _fill_raw, _raw_step, _run_workers
from tests.helpers import in_session, session_env
from tests.system.harness import Daemon, new_task, records, switch_on, wait_for, worker_env

NOOP = Path(__file__).resolve().parents[1] / "fakes" / "noop_agent.sh"


def _env(url: str, folder: Path, **overrides: str) -> dict[str, str]:
    return worker_env(url, folder, TAAK_AGENT_CMD=str(NOOP), TAAK_AGENT_ARGS="", **overrides)


async def _reset(conn: asyncpg.Connection) -> None:
    await conn.execute(
        "update agent_taken set status = 'mislukt', lease_tot = null, lease_token = null "
        "where status in ('wachtend', 'bezig')"
    )


PICKUP_INSERT = (
    "insert into agent_taken (opdracht, opdrachtgever, toegewezen_aan, max_pogingen) "
    "values ('pickup', 'bench', 'paco', 1) returning id"
)
PICKUP_DONE = "update agent_taken set status = 'mislukt', lease_tot = null, lease_token = null where id = $1"


async def _pickup_samples(url: str, conn: asyncpg.Connection, samples: int, **overrides: str) -> list[float]:
    """Milliseconds from a task's insert to its claim, by the database's own clock."""
    await _reset(conn)
    with tempfile.TemporaryDirectory() as folder:
        daemon = Daemon(_env(url, Path(folder), **overrides), Path(folder) / "worker.log")
        try:
            await wait_for(lambda: _started(daemon), what="start-up")
            latencies = []
            for _ in range(samples):
                task_id = await conn.fetchval(PICKUP_INSERT)
                ms = await wait_for(partial(_pickup_ms, conn, task_id), timeout=30, interval=0.002)
                latencies.append(float(ms))
                await wait_for(partial(_ended, conn, task_id), timeout=30)
        finally:
            daemon.stop()
    return latencies


async def _pickup_ms(conn: asyncpg.Connection, task_id: str) -> float | None:
    value: float | None = await conn.fetchval(
        "select extract(epoch from l.ts - t.aangemaakt) * 1000 from agent_taken t "
        "join agent_taak_log l on l.taak_id = t.id and l.soort = 'gestart' where t.id = $1",
        task_id,
    )
    return value


async def _ended(conn: asyncpg.Connection, task_id: str) -> bool:
    return bool(await conn.fetchval("select status = 'mislukt' from agent_taken where id = $1", task_id))


async def _started(daemon: Daemon) -> bool:
    return daemon.has_event("worker_started")


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


# `made` is the inserting statement's start, as the ledger's `aangemaakt` (now()) is: both latencies are then
# measured from the same point (with clock_timestamp() the raw side started its clock after its own insert had
# been parsed and planned).
RAW_PICKUP_SETUP = """
drop table if exists raw_pickup;
create table raw_pickup (
    id bigserial primary key, status text not null default 'queued',
    made timestamptz not null default now(), taken timestamptz
);
create index raw_pickup_queued on raw_pickup (id) where status = 'queued';
"""
RAW_PICKUP_INSERT = (
    "with n as (insert into raw_pickup default values returning id) select pg_notify('raw_nieuw', '') from n"
)
RAW_PICKUP_CLAIM = """
update raw_pickup set status = 'taken', taken = clock_timestamp()
where id = (select id from raw_pickup where status = 'queued' order by id limit 1 for update skip locked)
returning id
"""


async def _interleaved_samples(url: str, conn: asyncpg.Connection, samples: int) -> dict[str, list[float]]:
    """Milliseconds from insert to claim for three listeners taking turns, one sample each in rotation, so that the
    machine's load moves all three alike:
    - raw: an asyncpg listener that claims on each notification over a second connection (a claim cannot run on
      the connection that listens without delaying the next notification), on a bare table;
    - schema: the same few lines inserting and claiming through the ledger's own statements (the readable ID, the
      triggers, the claim function and its `gestart` row), timed as the daemon is: the floor the ledger's tables
      leave the daemon (what the daemon takes beyond it is its own code, what it takes beyond raw the schema's);
    - daemon: the daemon with LISTEN, a process of its own."""
    await _reset(conn)
    listener, claimer, inserter, schema_listener, schema_claimer = [await asyncpg.connect(url) for _ in range(5)]
    pending: list[asyncio.Task[object]] = []

    def schema_heard(*args: object) -> None:  # the notices of the daemon's tasks are not this listener's
        if f'"{SCHEMA_BOT}"' in str(args[-1]):
            pending.append(asyncio.ensure_future(schema_claimer.fetchval(SCHEMA_PICKUP_CLAIM)))

    latencies: dict[str, list[float]] = {"raw": [], "schema": [], "daemon": []}
    with tempfile.TemporaryDirectory() as folder:
        daemon = Daemon(_env(url, Path(folder), TAAK_POLL_SECONDS="30"), Path(folder) / "worker.log")
        try:
            await inserter.execute(RAW_PICKUP_SETUP)
            await listener.add_listener(
                "raw_nieuw", lambda *_args: pending.append(asyncio.ensure_future(claimer.fetchval(RAW_PICKUP_CLAIM)))
            )
            await schema_listener.add_listener("taak_nieuw", schema_heard)
            await wait_for(lambda: _started(daemon), what="start-up")
            for _ in range(samples):
                await inserter.execute(RAW_PICKUP_INSERT)
                ms = await wait_for(lambda: _raw_taken_ms(inserter), timeout=30, interval=0.002)
                latencies["raw"].append(float(ms))
                await inserter.execute("update raw_pickup set status = 'seen' where status = 'taken'")

                task_id = await conn.fetchval(SCHEMA_PICKUP_INSERT)
                ms = await wait_for(partial(_pickup_ms, conn, task_id), timeout=30, interval=0.002)
                latencies["schema"].append(float(ms))
                await conn.execute(PICKUP_DONE, task_id)

                task_id = await conn.fetchval(PICKUP_INSERT)
                ms = await wait_for(partial(_pickup_ms, conn, task_id), timeout=30, interval=0.002)
                latencies["daemon"].append(float(ms))
                await wait_for(partial(_ended, conn, task_id), timeout=30)
            await asyncio.gather(*pending)
        finally:
            daemon.stop()
            for own in (listener, claimer, inserter, schema_listener, schema_claimer):
                await own.close()
    return latencies


# The ledger's own claim, as the daemon sends it: for the bots switched on and not at their brake. Its bot is one the
# daemon beside it does not serve, so that both listen at once and their samples can take turns.
SCHEMA_BOT = "bench"
SCHEMA_PICKUP_CLAIM = f"select id from taak_claim(array['{SCHEMA_BOT}'], 1200, 'bench', null, '{{}}', true)"
SCHEMA_PICKUP_INSERT = PICKUP_INSERT.replace("'paco'", f"'{SCHEMA_BOT}'")


async def _raw_taken_ms(conn: asyncpg.Connection) -> float | None:
    value: float | None = await conn.fetchval(
        "select extract(epoch from taken - made) * 1000 from raw_pickup where status = 'taken'"
    )
    return value


async def pickup_table(url: str, *, samples: int) -> str:
    conn = await asyncpg.connect(url)
    try:
        await switch_on(conn, "paco", SCHEMA_BOT)
        turns = await _interleaved_samples(url, conn, samples)
        raw, schema, listen = turns["raw"], turns["schema"], turns["daemon"]
        poll = await _pickup_samples(url, conn, max(5, samples // 5), TAAK_LISTEN="false", TAAK_POLL_SECONDS="1")
    finally:
        await conn.close()
    rows = [
        "### Pickup latency, insert -> claim (ms, database clock; the first three take turns, one sample each; "
        "ratio = p50 / the raw listener's p50; goal: the daemon with LISTEN <= 2x)",
        "",
        "| mode | samples | p50 | p95 | p99 | ratio |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    floor = statistics.median(raw)
    for name, values in (
        ("raw asyncpg listener", raw),
        ("the same listener on the ledger's tables and claim", schema),
        ("daemon, LISTEN/NOTIFY", listen),
        ("daemon, poll every 1 s", poll),
    ):
        rows.append(
            f"| {name} | {len(values)} | {statistics.median(values):.1f} | "
            f"{_percentile(values, 0.95):.1f} | {_percentile(values, 0.99):.1f} | "
            f"{statistics.median(values) / floor:.2f}x |"
        )
    return "\n".join(rows)


async def throughput_table(url: str, *, tasks: int) -> str:
    rows = [
        f"### End to end, no-op agent ({tasks} tasks per run; ratio = daemon / raw claim loop, same run)",
        "",
        "| concurrency | daemon tasks/s | raw claim+complete jobs/s | ratio |",
        "|---:|---:|---:|---:|",
    ]
    conn = await asyncpg.connect(url)
    pool = await asyncpg.create_pool(url, min_size=4, max_size=4)
    try:
        await switch_on(conn, "paco")
        for concurrency in (1, 4):
            await _reset(conn)
            await conn.execute(
                "insert into agent_taken (opdracht, opdrachtgever, toegewezen_aan, max_pogingen) "
                "select 'noop ' || n, 'bench', 'paco', 1 from generate_series(1, $1) n",
                tasks,
            )
            with tempfile.TemporaryDirectory() as folder:
                started = time.perf_counter()
                daemon = Daemon(_env(url, Path(folder), TAAK_CONCURRENCY=str(concurrency)), Path(folder) / "worker.log")
                try:
                    await wait_for(lambda: _none_waiting(conn), timeout=600, interval=0.05)
                    await wait_for(lambda: _none_held(conn), timeout=60, interval=0.01)
                    elapsed = time.perf_counter() - started
                finally:
                    daemon.stop()
            await _fill_raw(pool, tasks * 10)
            raw = tasks * 10 / await _run_workers(pool, concurrency, _raw_step(with_log=False))
            rate = tasks / elapsed
            rows.append(f"| {concurrency} | {rate:,.1f} | {raw:,.0f} | {rate / raw:.3f}x |")
    finally:
        await pool.close()
        await conn.close()
    rows.append("")
    rows.append("(daemon time includes its start-up; each task is a real process and a session file)")
    return "\n".join(rows)


async def _none_waiting(conn: asyncpg.Connection) -> bool:
    return not await conn.fetchval("select exists (select 1 from agent_taken where status = 'wachtend')")


async def _none_held(conn: asyncpg.Connection) -> bool:
    return not await conn.fetchval("select exists (select 1 from agent_taken where status = 'bezig')")


async def idle_table(url: str, *, seconds: float) -> str:
    baseline = subprocess.Popen([sys.executable, "-c", "import asyncio; asyncio.run(asyncio.sleep(3600))"])
    with tempfile.TemporaryDirectory() as folder:
        idle = {"TAAK_POLL_SECONDS": "5", "TAAK_HEARTBEAT_SECONDS": "30", "TAAK_REAPER_SECONDS": "30"}
        daemon = Daemon(_env(url, Path(folder), **idle), Path(folder) / "worker.log")
        try:
            await wait_for(lambda: _started(daemon), what="start-up")
            await anyio.sleep(3)
            process, bare = psutil.Process(daemon.process.pid), psutil.Process(baseline.pid)
            cpu_before, bare_before = sum(process.cpu_times()[:2]), sum(bare.cpu_times()[:2])
            await anyio.sleep(seconds)
            cpu = sum(process.cpu_times()[:2]) - cpu_before
            bare_cpu = sum(bare.cpu_times()[:2]) - bare_before
            rss, bare_rss = process.memory_info().rss, bare.memory_info().rss
        finally:
            daemon.stop()
            baseline.kill()
            baseline.wait()
    mib = 1024 * 1024
    return "\n".join(
        [
            f"### Idle daemon ({seconds:.0f} s, one bot, default intervals, poll every 5 s, LISTEN on)",
            "",
            "| figure | daemon | bare asyncio python | goal |",
            "|---|---:|---:|---|",
            f"| resident memory | {rss / mib:.1f} MiB | {bare_rss / mib:.1f} MiB | <= 80 MiB |",
            f"| CPU seconds used | {cpu:.3f} s | {bare_cpu:.3f} s | close to 0 |",
            f"| CPU share of one core | {cpu / seconds * 100:.2f} % | {bare_cpu / seconds * 100:.2f} % | |",
        ]
    )


# A session's writes as `taak log` sends them, one connection each, in a loop inside the session (its own tree: the
# daemon answers no other). All writers start at the same moment; each prints when it started and ended.
WRITER = """
import json, os, socket, sys, time
count, start = int(sys.argv[1]), float(sys.argv[2])
request = {"op": "log", "id": os.environ["TAAK_ID"], "token": os.environ["TAAK_TOKEN"], "soort": "notitie"}
time.sleep(max(0.0, start - time.time()))
begun = time.time()
for n in range(count):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.connect(os.environ["TAAK_SOCKET"])
        client.sendall(json.dumps({**request, "tekst": f"schrijf {n}"}).encode() + b"\\n")
        raw = b""
        while not raw.endswith(b"\\n"):
            chunk = client.recv(65536)
            if not chunk:
                break
            raw += chunk
    if json.loads(raw)["code"] != 0:
        sys.exit(raw.decode())
print(json.dumps([begun, time.time()]))
"""


def _raw_journal_rate(folder: Path, writes: int) -> float:
    """The disk's own limit for the journal: a line appended and fsynced, and its settle line after it, per write."""
    fd = os.open(folder / "raw-journal.jsonl", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    line = json.dumps({"entry": {"seq": 1, "op": "log", "tekst": "schrijf 1", "sleutel": uuid.uuid4().hex}}).encode()
    try:
        started = time.perf_counter()
        for _ in range(writes):
            os.write(fd, line + b"\n")
            os.fsync(fd)
            os.write(fd, b'{"settled": 1, "uitkomst": "geschreven", "reden": null}\n')
            os.fsync(fd)
        return writes / (time.perf_counter() - started)
    finally:
        os.close(fd)


async def _session_writes(envs: list[dict[str, str]], writes: int) -> float:
    """Writes a second, all sessions together, each writing `writes` in a loop."""
    start = time.time() + 1.0  # after the fake sessions (polling their inbox every 0.1 s) have all begun

    async def one(env: dict[str, str], spans: list[list[float]]) -> None:
        argv = [sys.executable, "-c", WRITER, str(writes), str(start)]
        done = await anyio.to_thread.run_sync(partial(in_session, env, argv, timeout=600))
        assert done.code == 0, done.err
        spans.append(json.loads(done.out))

    spans: list[list[float]] = []
    async with anyio.create_task_group() as group:
        for env in envs:
            group.start_soon(one, env, spans)
    return writes * len(envs) / (max(end for _, end in spans) - min(begun for begun, _ in spans))


async def journal_table(url: str, *, writes: int) -> str:
    """A session's writes through the daemon's gate (journal fsync, the forwarder's insert, its answer) against the
    disk's limit for the journal alone, measured on the same folder in the same run."""
    rows = [
        f"### Session writes through the daemon ({writes} `taak log` per session; ratio = writes/s / the raw journal"
        " limit, append+fsync twice a write, same disk and run; goal: >= 0.5x with 4 sessions)",
        "",
        "| sessions | writes/s | raw journal limit writes/s | ratio |",
        "|---:|---:|---:|---:|",
    ]
    conn = await asyncpg.connect(url)
    try:
        await switch_on(conn, "paco")
        await _reset(conn)
        for _ in range(4):
            await new_task(conn, "schrijf", toegewezen_aan="paco")
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            env = worker_env(url, folder, mode="busy", TAAK_CONCURRENCY="4")
            daemon = Daemon(env, folder / "worker.log")
            try:
                found = await wait_for(lambda: _busy(folder, 4), timeout=60, what="four sessions")
                envs = [session_env(record) for record in found]
                for sessions in (1, 4):
                    rate = await _session_writes(envs[:sessions], writes)
                    raw = _raw_journal_rate(folder / "data", writes * 2)
                    rows.append(f"| {sessions} | {rate:,.0f} | {raw:,.0f} | {rate / raw:.2f}x |")
            finally:
                daemon.stop()
    finally:
        await conn.close()
    return "\n".join(rows)


async def _busy(folder: Path, count: int) -> list[dict[str, Any]] | None:
    found = records(folder)
    return found if len(found) >= count else None
