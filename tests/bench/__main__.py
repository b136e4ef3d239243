"""Benchmarks: `python -m tests.bench` prints a markdown table of figures measured in this run.

Each figure that has a goal is measured beside its baseline on the same database in the same run and
reported as a ratio, because this machine is shared and noisy: absolute numbers drift, ratios less.
Database: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local server; a scratch database is
created on it and dropped afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg

from tests.bench import daemon_bench, hooks_bench, instructions_bench, ledger_bench, memory_bench, poll_bench
from tests.conftest import db_prefix, with_database
from worker.db.migrate import migrate


@asynccontextmanager
async def scratch_database(server_url: str) -> AsyncIterator[str]:
    name = f"{db_prefix()}_bench_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(server_url)
    await admin.execute(f'create database "{name}"')
    await admin.close()
    url = with_database(server_url, name)
    conn = await asyncpg.connect(url)
    await migrate(conn)
    await conn.close()
    try:
        yield url
    finally:
        admin = await asyncpg.connect(server_url)
        await admin.execute(f'drop database if exists "{name}" with (force)')
        await admin.close()


async def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench")
    parser.add_argument("--jobs", type=int, default=3000, help="jobs per throughput run")
    parser.add_argument("--quick", action="store_true", help="smaller runs, for a smoke test")
    parser.add_argument(
        "--only",
        action="append",
        choices=[
            "ledger",
            "instructions",
            "briefing",
            "daemon",
            "journal",
            "poll",
            "hooks",
            "memory",
            "fleet",
            "semantic",
        ],
        help="run only this section (repeatable)",
    )
    args = parser.parse_args(argv)
    server = (
        os.environ.get("BENCH_DATABASE_URL")
        or os.environ.get("TEST_DATABASE_URL")
        or "postgresql://postgres@127.0.0.1:5432/postgres"
    )
    jobs = 300 if args.quick else args.jobs
    log_sizes = (10, 1_000, 10_000) if args.quick else (10, 1_000, 100_000)
    everything = [
        "ledger",
        "instructions",
        "briefing",
        "daemon",
        "journal",
        "poll",
        "hooks",
        "memory",
        "fleet",
        "semantic",
    ]
    sections = set(args.only or everything)
    async with scratch_database(server) as url:
        if "ledger" in sections:
            print(await ledger_bench.throughput_table(url, jobs=jobs), end="\n\n", flush=True)
            tasks = 100 if args.quick else 500
            print(await ledger_bench.server_time_table(url, tasks=tasks), end="\n\n", flush=True)
        if "instructions" in sections:  # a Postgres of its own under valgrind, not the scratch database
            counts = {"short": 2, "long": 6} if args.quick else {}
            for table in await instructions_bench.tables(**counts):
                print(table, end="\n\n", flush=True)
        if "briefing" in sections:
            print(await ledger_bench.briefing_table(url, log_sizes=log_sizes), end="\n\n", flush=True)
        if "daemon" in sections:
            print(
                await daemon_bench.pickup_table(url, samples=20 if args.quick else 200),
                end="\n\n",
                flush=True,
            )
            print(
                await daemon_bench.throughput_table(url, tasks=20 if args.quick else 200),
                end="\n\n",
                flush=True,
            )
            print(await daemon_bench.idle_table(url, seconds=3 if args.quick else 60), end="\n\n", flush=True)
        if "journal" in sections:
            print(await daemon_bench.journal_table(url, writes=300 if args.quick else 3000), end="\n\n", flush=True)
        if "poll" in sections:
            poll = {"daemons": 50, "seconds": 10} if args.quick else {"daemons": 200, "seconds": 60}
            print(await poll_bench.poll_table(url, **poll), end="\n\n", flush=True)
        if "hooks" in sections:
            print(await hooks_bench.startup_table(url, repeats=3 if args.quick else 20), end="\n\n", flush=True)
            print(await hooks_bench.hooks_table(url, repeats=3 if args.quick else 20), end="\n\n", flush=True)
            print(await hooks_bench.session_table(url, repeats=3 if args.quick else 20), end="\n\n", flush=True)
            lines = 20_000 if args.quick else 1_000_000  # the recall's archive
            waiting = await hooks_bench.waiting_table(url, repeats=3 if args.quick else 20, recall_lines=lines)
            print(waiting, end="\n\n", flush=True)
        if "fleet" in sections:
            print(await memory_bench.fleet_table(url, 20_000 if args.quick else 1_000_000), end="\n\n", flush=True)
    if "memory" in sections:
        print(memory_bench.memory_table(20_000 if args.quick else 1_000_000), end="\n\n", flush=True)
    if "semantic" in sections:
        embedded, searched = (200, 5_000) if args.quick else (5_000, 200_000)
        print(memory_bench.semantic_table(embedded, searched), end="\n\n", flush=True)
        imported, embedded = (5_000, 200) if args.quick else (200_000, 2_000)
        print(memory_bench.semantic_process_table(imported, embedded), end="\n\n", flush=True)
        print(memory_bench.semantic_question_table(*((2_000, 200) if args.quick else (20_000, 2_000))), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
