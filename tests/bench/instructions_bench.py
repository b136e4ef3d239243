"""The server's work per task counted in instructions: a Postgres of its own under valgrind's callgrind.

Wall time on this shared machine moves by a factor of two within minutes, and a change that saves a fifth of the
server's work can hide in that. An instruction count does not move: the same statements on the same data count
the same whatever else the machine does. What it leaves out is the same for both sides (the kernel's share of a
round trip and of a commit, and the client), so the ratio it prints is the ratio of the server's own work.

Each figure is the difference between a run of `long` tasks and one of `short` tasks, each on a fresh connection
whose backend reports its count when it exits, divided by the difference in tasks: connecting, warming the caches
and filling the queue cancel out. Before each run the tables are vacuumed from another connection.
"""

from __future__ import annotations

import asyncio
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg

from tests.bench.ledger_bench import RAW_CLAIM, RAW_COMPLETE, RAW_LOG, RAW_SETUP, TABLE_CLAIM, TABLE_COMPLETE
from tests.conftest import with_database
from tests.helpers import ledger_on
from worker.core.model import Soort
from worker.db.embedded import server_binary
from worker.db.migrate import migrate

Step = Callable[[], Awaitable[None]]
# Quiet and repeatable: no checkpoint, no full-page image and no autovacuum in the middle of a count.
SERVER_SETTINGS = {
    "fsync": "off",
    "full_page_writes": "off",
    "checkpoint_timeout": "1d",
    "max_wal_size": "20GB",
    "autovacuum": "off",
}


def _binary(name: str) -> str:
    """The machine's own Postgres where it has one (the server the other benchmarks run on), else the embedded one's."""
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else server_binary(name)


def _as_postgres_user() -> list[str]:
    """initdb and postgres refuse to run as root: there they run as the `postgres` user."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--"]
    return []


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@asynccontextmanager
async def counting_server() -> AsyncIterator[tuple[str, Path]]:
    """A Postgres under callgrind on a port of its own: its URL and the folder of the backends' counts."""
    folder = Path(tempfile.mkdtemp(prefix="taak-callgrind-"))
    data, counts = folder / "data", folder / "counts"
    counts.mkdir()
    user = _as_postgres_user()
    if user:
        shutil.chown(folder, "postgres")
        shutil.chown(counts, "postgres")
    port = _free_port()
    subprocess.run(
        [*user, _binary("initdb"), "-D", str(data), "-U", "postgres", "--auth=trust"], check=True, capture_output=True
    )
    options = [f"-c{name}={value}" for name, value in SERVER_SETTINGS.items()]
    server = subprocess.Popen(
        [
            *user,
            "valgrind",
            "--tool=callgrind",
            "--vgdb=no",
            "--trace-children=yes",
            f"--callgrind-out-file={counts}/%p",
            _binary("postgres"),
            "-D",
            str(data),
            "-p",
            str(port),
            "-c",
            "listen_addresses=127.0.0.1",
            "-c",
            f"unix_socket_directories={folder}",
            *options,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"postgresql://postgres@127.0.0.1:{port}/postgres"
    try:
        await _wait_for(url, server)
        yield url, counts
    finally:
        subprocess.run(
            [*user, _binary("pg_ctl"), "-D", str(data), "stop", "-m", "immediate"], capture_output=True, check=False
        )
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(folder, ignore_errors=True)


async def _wait_for(url: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 180  # a server under valgrind takes half a minute to start here
    while True:
        if server.poll() is not None:
            raise RuntimeError(f"postgres under valgrind exited with {server.returncode}")
        try:
            conn = await asyncpg.connect(url, timeout=10)
        except (OSError, asyncpg.PostgresError):
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(1)
            continue
        await conn.close()
        return


def _count_of(counts: Path, pid: int) -> int:
    """The instructions a backend ran, from the file callgrind writes when it exits."""
    path = counts / str(pid)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if path.exists():
            for line in path.read_text().splitlines():
                if line.startswith(("summary:", "totals:")):
                    return int(line.split()[1])
        time.sleep(0.2)
    raise RuntimeError(f"callgrind wrote no count for backend {pid}")


async def _run(
    url: str, counts: Path, fill: str, make_step: Callable[[asyncpg.Connection], Step], tasks: int, queued: int
) -> int:
    admin = await asyncpg.connect(url, command_timeout=600)
    try:
        await admin.execute(fill, queued)
        # Only the tables the loops write: the catalogs too would take minutes under valgrind.
        await admin.execute("vacuum analyze agent_taken, agent_taak_log, agent_taak_telling, raw_jobs, raw_log")
    finally:
        await admin.close()
    conn = await asyncpg.connect(url, command_timeout=600)
    pid = await conn.fetchval("select pg_backend_pid()")
    step = make_step(conn)
    for _ in range(tasks):
        await step()
    await conn.close()
    return await asyncio.to_thread(_count_of, counts, pid)


# Runs not counted before a count in a database of its own: a new database's first runs pay more (raw's first
# count after one such run was 1.6x its later ones); after two, the counts repeat.
WARM_UP_RUNS = 2


async def _warm_up(
    url: str, counts: Path, fill: str, make_step: Callable[[asyncpg.Connection], Step], short: int, long: int
) -> None:
    for _ in range(WARM_UP_RUNS):
        await _run(url, counts, fill, make_step, short, long + 10)


async def _per_task(
    url: str, counts: Path, fill: str, make_step: Callable[[asyncpg.Connection], Step], short: int, long: int
) -> float:
    # The same queue for both runs, so that the planner sees the same statistics in both.
    first = await _run(url, counts, fill, make_step, short, long + 10)
    second = await _run(url, counts, fill, make_step, long, long + 10)
    return (second - first) / (long - short)


RAW_FILL = "insert into raw_jobs (status) select 'queued' from generate_series(1, $1)"
LEDGER_FILL = (
    "insert into agent_taken (opdracht, opdrachtgever) select 'taak ' || n, 'bench' from generate_series(1, $1) n"
)


def _raw(with_log: bool) -> Callable[[asyncpg.Connection], Step]:
    def make(conn: asyncpg.Connection) -> Step:
        async def step() -> None:
            row = await conn.fetchrow(RAW_CLAIM)
            if with_log:
                await conn.execute(RAW_LOG, row["id"], "stap")
            await conn.execute(RAW_COMPLETE, row["id"], row["token"])

        return step

    return make


def _ledger(with_log: bool) -> Callable[[asyncpg.Connection], Step]:
    def make(conn: asyncpg.Connection) -> Step:
        ledger = ledger_on(conn, machine="bench")

        async def step() -> None:
            claim = await ledger.claim(["paco"])
            assert claim is not None
            if with_log:
                await ledger.log(claim.task.id, Soort.STAP_KLAAR, "stap", token=claim.token, bot="paco")
            await ledger.klaar(claim.task.id, "/tmp/bewijs", "klaar", token=claim.token)

        return step

    return make


# The ledger taken apart: raw's claim and complete on the ledger's task table, then the same two statements writing
# the two log rows the contract asks for (`gestart` with the claim, `klaar` with the finish; design section 5) on
# `agent_taak_log`, and that again on scratch copies that each lack one part of what the log pays for. Not paths the
# system takes; each row of the table says what one part costs the server.
ROWS_CLAIM = """
with geclaimd as (
    update agent_taken
    set status = 'bezig', lease_token = gen_random_uuid(), lease_tot = now() + interval '20 minutes',
        pogingen = pogingen + 1, geclaimd_door = 'paco@bench', bijgewerkt = now()
    where id = (
        select id from agent_taken where status = 'wachtend' and toegewezen_aan is null and nodig is null
        order by prioriteit desc, aangemaakt, id limit 1 for update skip locked
    )
    returning *
), gestart as (
    insert into agent_taak_log (taak_id, bot, soort, tekst) select id, 'paco', 'gestart', 'poging' from geclaimd
)
select * from geclaimd
"""
ROWS_FINISH = """
with afgerond as (
    update agent_taken
    set status = 'klaar', bewijs = 'bench', afgerond = now(), lease_tot = null, lease_token = null, bijgewerkt = now()
    where id = $1 and lease_token = $2
    returning id
)
insert into agent_taak_log (taak_id, bot, soort, tekst) select id, 'paco', 'klaar', 'klaar' from afgerond
returning id, ts
"""
# raw's own loop writing the same two rows, on raw's tables (no foreign key, no trigger, one index).
RAW_ROWS_CLAIM = """
with c as (
    update raw_jobs set status = 'running', token = gen_random_uuid(), lease = now() + interval '20 minutes'
    where id = (select id from raw_jobs where status = 'queued' order by id limit 1 for update skip locked)
    returning id, token
), l as (insert into raw_log (job_id, text) select id, 'gestart' from c)
select id, token from c
"""
RAW_ROWS_COMPLETE = """
with d as (update raw_jobs set status = 'done', lease = null where id = $1 and token = $2 returning id)
insert into raw_log (job_id, text) select id, 'klaar' from d
"""
WITHOUT = {
    "its foreign key": "alter table agent_taak_log drop constraint agent_taak_log_taak_id_fkey",
    "its two triggers (the kind and the clock; counts and messages)": (
        "alter table agent_taak_log disable trigger agent_taak_log_bijschrijven; "
        "alter table agent_taak_log disable trigger agent_taak_log_na_insert"
    ),
    "its four indexes beyond the task's rows (time, attempts, a bot's day, answers)": (
        "drop index agent_taak_log_ts, agent_taak_log_beurten, agent_taak_log_gebruik, agent_taak_log_antwoord"
    ),
}


def _two(claim: str, finish: str, token: str) -> Callable[[asyncpg.Connection], Step]:
    def make(conn: asyncpg.Connection) -> Step:
        async def step() -> None:
            row = await conn.fetchrow(claim)
            assert row is not None, "the queue ran dry"
            await conn.execute(finish, row["id"], row[token])

        return step

    return make


_table = _two(TABLE_CLAIM, TABLE_COMPLETE, "lease_token")


TEMPLATE = "migrated"


async def _database(server_url: str, name: str, change: str = "") -> str:
    """A database of its own, cloned from one migrated once per server: migrating under valgrind takes about
    half a minute, and the parts table wants eight databases."""
    conn = await asyncpg.connect(server_url)
    try:
        if not await conn.fetchval("select 1 from pg_database where datname = $1", TEMPLATE):
            await conn.execute(f"create database {TEMPLATE}")
            migrated = await asyncpg.connect(with_database(server_url, TEMPLATE))
            try:
                await migrate(migrated)
                await migrated.execute(RAW_SETUP)
            finally:
                await migrated.close()
        await conn.execute(f"create database {name} template {TEMPLATE}")
    finally:
        await conn.close()
    url = with_database(server_url, name)
    if change:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(change)
        finally:
            await conn.close()
    return url


async def tables(*, short: int = 20, long: int = 120) -> list[str]:
    """The server's instructions per task, and where they go, from one Postgres under callgrind (it takes half a
    minute to start)."""
    if shutil.which("valgrind") is None:
        missing = "not measured: valgrind is missing (Debian: apt-get install valgrind)"
        return [f"### Server instructions per task\n\n{missing}", f"### Where the server's work goes\n\n{missing}"]
    async with counting_server() as (server_url, counts):
        return [
            await _instructions_table(server_url, counts, short=short, long=long),
            await _parts_table(server_url, counts, short=short, long=long),
        ]


async def _parts_table(server_url: str, counts: Path, *, short: int, long: int) -> str:
    """What each part of the ledger costs the server, per task (claim + finish), in instructions."""
    raw_rows = _two(RAW_ROWS_CLAIM, RAW_ROWS_COMPLETE, "token")
    log_rows = _two(ROWS_CLAIM, ROWS_FINISH, "lease_token")
    rows: list[tuple[str, str, str, Callable[[asyncpg.Connection], Step]]] = [
        ("raw claim + complete (raw_jobs)", "", RAW_FILL, _raw(with_log=False)),
        ("raw, writing the contract's two log rows (raw_log)", "", RAW_FILL, raw_rows),
        ("raw's two statements on agent_taken", "", LEDGER_FILL, _table),
        ("the same, writing the two log rows to agent_taak_log", "", LEDGER_FILL, log_rows),
    ]
    rows += [(f"the same, the log without {part}", change, LEDGER_FILL, log_rows) for part, change in WITHOUT.items()]
    rows.append(("the ledger's claim and klaar (`Ledger`, `taak_claim`)", "", LEDGER_FILL, _ledger(with_log=False)))
    figures = []
    for number, (_, change, fill, make) in enumerate(rows):
        url = await _database(server_url, f"deel_{number}", change)
        await _warm_up(url, counts, fill, make, short, long)
        figures.append(await _per_task(url, counts, fill, make, short, long))
    with_rows = figures[3]
    lines = [
        f"### Where the server's work goes (callgrind, one backend, instructions per task; {long} - {short} tasks)",
        "",
        "| what | instructions per task | against the log rows on agent_taak_log |",
        "|---|---:|---:|",
    ]
    for (name, _, _, _), figure in zip(rows, figures, strict=True):
        lines.append(f"| {name} | {figure:,.0f} | {figure - with_rows:+,.0f} |")
    return "\n".join(lines)


async def _instructions_table(server_url: str, counts: Path, *, short: int, long: int) -> str:
    url = await _database(server_url, "bench")
    rows = [
        ("raw claim + complete", RAW_FILL, _raw(with_log=False)),
        ("ledger claim + klaar", LEDGER_FILL, _ledger(with_log=False)),
        ("raw claim + log + complete", RAW_FILL, _raw(with_log=True)),
        ("ledger claim + log + klaar", LEDGER_FILL, _ledger(with_log=True)),
        ("raw's two statements on agent_taken", LEDGER_FILL, _table),
    ]
    # One uncounted pass of each row, in turn, before any count: the procedure the README's before/after
    # figures were measured with (the rows share one database, so each count follows the others' passes).
    for _, fill, make in rows:
        await _run(url, counts, fill, make, short, long + 10)
    figures = [await _per_task(url, counts, fill, make, short, long) for _, fill, make in rows]
    baselines = [figures[0], figures[0], figures[2], figures[2], figures[0]]
    lines = [
        f"### Server instructions per task (callgrind, one backend; {long} - {short} tasks; ratio = raw / this)",
        "",
        "| what | instructions per task | ratio |",
        "|---|---:|---:|",
    ]
    for (name, _, _), figure, baseline in zip(rows, figures, baselines, strict=True):
        lines.append(f"| {name} | {figure:,.0f} | {baseline / figure:.2f}x |")
    return "\n".join(lines)
