"""Fleet-wide recall: two data folders stand in for two machines on one database. Each machine's daemon copies
its new archive lines to the shared database (TAAK_FLEET_ARCHIVE); the owner, on a third machine, asks
`taak recall --vloot` and sees both, each line saying where it came from."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg
import pytest

from tests.system.harness import Daemon, wait_for, worker_env


def transcript(home: Path, lines: list[tuple[datetime, str]]) -> None:
    folder = home / ".claude" / "projects" / "-srv"
    folder.mkdir(parents=True, exist_ok=True)
    records = [
        {
            "type": "user",
            "uuid": f"u{n}-{home.name}",
            "sessionId": f"s-{home.name}",
            "timestamp": moment.isoformat().replace("+00:00", "Z"),
            "message": {"role": "user", "content": text},
        }
        for n, (moment, text) in enumerate(lines)
    ]
    (folder / f"s-{home.name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))


@pytest.mark.slow
async def test_the_owner_asks_every_machine_at_once_and_each_line_says_where_it_came_from(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    evening = (datetime.now(UTC) - timedelta(days=1)).replace(hour=19, minute=30, second=0, microsecond=0)
    lines = {
        "mac-paco": [(evening, "het budget voor de veranda is 4000"), (evening - timedelta(days=5), "oud budget")],
        "mini-coco": [(evening + timedelta(minutes=10), "budget goedgekeurd door jamal")],
    }
    daemons = []
    try:
        for machine, said in lines.items():
            home = tmp_path / machine
            transcript(home, said)
            env = worker_env(
                db_url,
                tmp_path / f"{machine}-daemon",
                HOME=str(home),
                TAAK_MACHINE=machine,
                TAAK_FLEET_ARCHIVE="true",
                TAAK_INDEX_SECONDS="1",
                TAAK_TIMEZONE="UTC",
            )
            daemons.append(Daemon(env, tmp_path / f"{machine}.log"))
        await wait_for(
            lambda: conn.fetchval("select count(distinct machine) = 2 from taak_archief"),
            timeout=90,
            what="both machines' lines in the shared copy",
        )
        rows_once = await conn.fetchval("select count(*) from taak_archief")
        await wait_for(lambda: _indexer_ran_again(daemons), timeout=30, what="another indexer run")
        assert await conn.fetchval("select count(*) from taak_archief") == rows_once == 3  # copied once
    finally:
        for daemon in daemons:
            daemon.stop()
    laptop = worker_env(db_url, tmp_path / "laptop", HOME=str(tmp_path / "laptop-home"), TAAK_TIMEZONE="UTC")
    done = subprocess.run(
        [sys.executable, "-m", "worker.cli.taak", "recall", "--vloot", "gisteravond budget", "--json"],
        env=laptop,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    found = [(r["actor"], r["text"]) for r in json.loads(done.stdout)["regels"]]
    assert found == [
        ("mac-paco/user", "het budget voor de veranda is 4000"),
        ("mini-coco/user", "budget goedgekeurd door jamal"),
    ]  # yesterday evening only, in time order; the line of five days ago is outside the range
    shown = subprocess.run(
        [sys.executable, "-m", "worker.cli.taak", "recall", "--vloot", "gisteravond budget"],
        env=laptop,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    assert "] mac-paco/user: het budget voor de veranda is 4000" in shown
    assert "de gedeelde kopie is leeg" not in shown


async def test_recall_of_an_empty_shared_copy_says_no_machine_copies_to_it(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    """`TAAK_FLEET_ARCHIVE` is off by default: "lamp 0 (found nowhere)" over a copy nobody fills misled."""
    laptop = worker_env(db_url, tmp_path / "laptop", HOME=str(tmp_path / "laptop-home"))
    for language, said in (
        ("nl", "de gedeelde kopie is leeg: een daemon met TAAK_FLEET_ARCHIVE=true"),
        ("en", "the shared copy is empty: a daemon with TAAK_FLEET_ARCHIVE=true"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "worker.cli.taak", "recall", "--vloot", "lamp"],
            env={**laptop, "TAAK_LANGUAGE": language},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        assert said in done.stdout.splitlines()[0]


async def _indexer_ran_again(daemons: list[Daemon]) -> bool:
    return all(sum(e.get("event") == "archive_updated" for e in d.events()) >= 1 for d in daemons) and all(
        d.has_event("fleet_archive_copied") for d in daemons
    )
