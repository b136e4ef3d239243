"""`taak recall --vloot` follows the local recall's policy over the shared copy: what matched comes first, the
header counts each word and says plainly when one matched nothing, filters count too, and a word in no line
of a large copy answers through the word index."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import asyncpg


def fleet_recall(env: dict[str, str], *words: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "worker.cli.taak", "recall", "--vloot", *words],
        env={**env, "TAAK_LANGUAGE": "nl", "TAAK_TIMEZONE": "UTC"},
        capture_output=True,
        text=True,
        timeout=60,
    )


async def said(conn: asyncpg.Connection, lines: list[tuple[str, str, datetime, str]]) -> None:
    await conn.executemany(
        "insert into taak_archief (machine, sleutel, ts, actor, role, type, tekst, termen) "
        "values ($1, md5($3::timestamptz::text || $4), $3::timestamptz, $2, 'user', 'text', $4, lower($4))",
        lines,
    )


def yesterday_evening() -> datetime:
    return (datetime.now(UTC) - timedelta(days=1)).replace(hour=19, minute=0, second=0, microsecond=0)


async def test_the_one_matching_line_of_the_evening_comes_first_and_marked(
    conn: asyncpg.Connection, cli_env: dict[str, str]
) -> None:
    evening = yesterday_evening()
    chatter = [("mac-paco", "paco", evening + timedelta(minutes=n), f"we praten over de tuin {n}") for n in range(8)]
    needle = ("mini-coco", "coco", evening + timedelta(minutes=50), "het budget is rond")
    decoy = ("mini-coco", "coco", evening - timedelta(days=3), "ander budget, andere dag")
    await said(conn, [*chatter, needle, decoy])
    done = fleet_recall(cli_env, "gisteravond budget")
    assert done.returncode == 0, done.stderr
    header, first, *rest = done.stdout.splitlines()
    assert "] » mini-coco/coco: het budget is rond" in first  # line 9 of the evening, shown first
    assert len(rest) == 8
    assert all("we praten over de tuin" in line for line in rest)
    assert "woorden: budget 1" in header
    assert "het hele bereik op tijd" in header
    assert "andere dag" not in done.stdout


async def test_a_word_that_matched_nothing_is_said_plainly(conn: asyncpg.Connection, cli_env: dict[str, str]) -> None:
    evening = yesterday_evening()
    await said(conn, [("mac-paco", "paco", evening, "het budget voor de veranda")])
    header = fleet_recall(cli_env, "gisteravond budget olifant").stdout.splitlines()[0]
    assert "budget 1, olifant 0 (niet in het bereik)" in header


async def test_a_bot_filter_narrows_the_lines_and_the_counts(conn: asyncpg.Connection, cli_env: dict[str, str]) -> None:
    evening = yesterday_evening()
    await said(
        conn,
        [
            ("mac-paco", "paco", evening, "budget van paco"),
            ("mini-coco", "coco", evening + timedelta(minutes=1), "budget van coco"),
            ("mini-coco", "coco", evening + timedelta(minutes=2), "nog een budget van coco"),
        ],
    )
    done = fleet_recall(cli_env, "gisteravond budget", "--bot", "paco")
    assert done.returncode == 0, done.stderr
    assert "budget van coco" not in done.stdout
    assert "mac-paco/paco: budget van paco" in done.stdout
    assert "woorden: budget 1" in done.stdout.splitlines()[0]


async def test_a_rare_word_is_found_among_many_lines_without_a_time_phrase(
    conn: asyncpg.Connection, cli_env: dict[str, str]
) -> None:
    now = datetime.now(UTC)
    await conn.execute(
        "insert into taak_archief (machine, sleutel, ts, actor, role, type, tekst, termen) "
        "select 'mac-paco', 'k' || g, $1::timestamptz - g * interval '5 minutes', 'paco', 'user', 'text', "
        "'tuin en keuken ' || g, 'tuin en keuken ' || g from generate_series(1, 20000) g",
        now,
    )
    await said(conn, [("mini-coco", "coco", now - timedelta(days=60), "de olifant staat in de kamer")])
    await conn.execute("analyze taak_archief")
    done = fleet_recall(cli_env, "olifant")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1].endswith("mini-coco/coco: de olifant staat in de kamer")
    assert len(lines) == 2
    assert "olifant 1" in lines[0]


async def test_an_edited_day_file_replaces_its_lines_in_the_shared_copy(
    conn: asyncpg.Connection, tmp_path: Path
) -> None:
    import json

    from worker.memory import fleet
    from worker.memory.archive import Archive
    from worker.memory.index import Index

    zone = ZoneInfo("Europe/Amsterdam")
    archive = Archive(tmp_path / "archief", zone)
    said = tmp_path / "said.jsonl"
    moment = yesterday_evening()
    said.write_text(
        "\n".join(
            json.dumps({"ts": (moment + timedelta(minutes=n)).isoformat(), "role": "user", "text": f"regel {n} schuur"})
            for n in range(3)
        )
        + "\n"
    )
    archive.import_simple(said)
    index_path = tmp_path / "index.sqlite"

    def indexed() -> None:
        index = Index(index_path)
        index.update(archive.day_files())
        index.close()

    indexed()
    assert (await fleet.copy_new(conn, index_path, "mac-paco", keep_days=30)).lines == 3
    (day_file,) = archive.day_files()
    lines = day_file.read_text().splitlines()
    edited = json.loads(lines[1])
    edited["text"] = "regel 1 kas"
    lines[1] = json.dumps(edited, ensure_ascii=False)
    day_file.write_text("\n".join(lines) + "\n")  # the same number of lines
    indexed()
    await fleet.copy_new(conn, index_path, "mac-paco", keep_days=30)
    texts = await conn.fetch("select tekst from taak_archief where machine = 'mac-paco' order by ts")
    assert [r["tekst"] for r in texts] == ["regel 0 schuur", "regel 1 kas", "regel 2 schuur"]
    assert (await fleet.copy_new(conn, index_path, "mac-paco", keep_days=30)).lines == 0  # nothing new since


async def test_vloot_opnieuw_rebuilds_this_machines_copy_from_its_day_files(
    conn: asyncpg.Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    import json

    from worker.memory import fleet
    from worker.memory.archive import bring_up_to_date
    from worker.memory.layout import Layout

    env = {**cli_env, "TAAK_MACHINE": "mac-paco", "TAAK_TIMEZONE": "UTC", "HOME": str(tmp_path / "home")}
    layout = Layout(Path(env["TAAK_DATA_DIR"]))
    source = tmp_path / "said.jsonl"
    source.write_text(json.dumps({"ts": yesterday_evening().isoformat(), "role": "user", "text": "de schuur"}) + "\n")
    bring_up_to_date(layout, ZoneInfo("UTC"), [], simple=[source])
    await fleet.copy_new(conn, layout.index, "mac-paco", keep_days=30)
    assert await conn.fetchval("select count(*) from taak_archief") == 1
    await conn.execute("update taak_archief set tekst = 'verminkt' where machine = 'mac-paco'")
    await said(conn, [("mini-coco", "coco", yesterday_evening(), "van een andere machine")])
    done = subprocess.run(
        [sys.executable, "-m", "worker.cli.taak", "archief", "vloot-opnieuw"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "1 line of mac-paco" in done.stdout
    assert await conn.fetchval("select count(*) from taak_archief where machine = 'mac-paco'") == 0
    await fleet.copy_new(conn, layout.index, "mac-paco", keep_days=30)
    rows = await conn.fetch("select machine, tekst from taak_archief order by machine")
    assert [(r["machine"], r["tekst"]) for r in rows] == [
        ("mac-paco", "de schuur"),
        ("mini-coco", "van een andere machine"),
    ]
