"""Day one on the owner's real fleet (issue 14), against a database made to look like the owner's before it
is migrated: Supabase's roles and default privileges, an old `agent_messages` with months of history (handled
and pending, addressed in three spellings), and an open `bot_heartbeats`. Everything goes through the real
commands (`taak`, `queue-worker`) and a real daemon."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from tests.helpers import run_taak
from tests.integration.test_security import as_role
from tests.system.harness import InProcess, wait_for, worker_env

OLD_TABLES = [
    """create table agent_messages (
        id serial primary key, sender text, recipient text, content text, status text default 'pending',
        metadata jsonb, created_at timestamptz default now())""",
    "create table bot_heartbeats (bot text primary key, seen timestamptz default now())",
    "grant all on bot_heartbeats to anon, authenticated",
]
SUPABASE_DEFAULT_PRIVILEGES = [
    f"alter default privileges in schema public grant all on {kind} to anon, authenticated, service_role"
    for kind in ("tables", "sequences", "functions")
]


async def history(conn: asyncpg.Connection) -> dict[str, list[int]]:
    """Months of the old worker's traffic: handled and silent pendings, in the seed's spellings of a name."""
    now = datetime.now(UTC)
    rows: list[tuple[str, str, str, str, datetime]] = []
    for day in range(150, 0, -10):
        moment = now - timedelta(days=day)
        rows.append(("conductor", "paco", f"oude opdracht van dag -{day}", "done", moment))
        rows.append(("Conductor", "Paco", f"stille pending van dag -{day}", "pending", moment))
        rows.append(("jamal", "paco ", f"nog een oude van dag -{day}", "failed", moment))
        rows.append(("kimi", "sjakie", f"voor sjakie, dag -{day}", "pending", moment))
    ids = await conn.fetch(
        "insert into agent_messages (sender, recipient, content, status, created_at) "
        "select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[]) returning id, "
        "recipient, status",
        *[list(column) for column in zip(*rows, strict=True)],
    )
    return {
        "old_paco": [r["id"] for r in ids if r["recipient"].strip().lower() == "paco"],
        "old_sjakie": [r["id"] for r in ids if r["recipient"] == "sjakie"],
    }


@pytest.fixture
async def owners_db(empty_db_url: str, server_url: str) -> str:
    """The owner's database before day one: Supabase-like, with the old tables and their history, migrated
    with the real `taak db migrate`."""
    admin = await asyncpg.connect(server_url)
    try:
        for role in ("anon", "authenticated", "service_role"):
            if not await admin.fetchval("select 1 from pg_roles where rolname = $1", role):
                with contextlib.suppress(asyncpg.DuplicateObjectError):
                    await admin.execute(f"create role {role} nologin")
    finally:
        await admin.close()
    conn = await asyncpg.connect(empty_db_url)
    try:
        for statement in [*SUPABASE_DEFAULT_PRIVILEGES, *OLD_TABLES]:
            await conn.execute(statement)
        await history(conn)
    finally:
        await conn.close()
    return empty_db_url


def cli_env(db_url: str, folder: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_") and k != "CLAUDECODE"}
    env.update(
        TAAK_DATABASE_URL=db_url,
        TAAK_DATA_DIR=str(folder / "cli-data"),
        TAAK_LOCK_DIR=str(folder / "locks"),
        TAAK_LANGUAGE="nl",
        TAAK_SEMANTIC="false",
        TAAK_CONNECT_ATTEMPTS="2",
        HOME=str(folder / "home"),
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    )
    env.update(extra)
    (folder / "home").mkdir(parents=True, exist_ok=True)
    return env


def taak(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    done = run_taak(env, *args, timeout=120)
    return subprocess.CompletedProcess(["taak", *args], done.code, done.out, done.err)


def ok(env: dict[str, str], *args: str) -> str:
    done = taak(env, *args)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout


async def snapshot(conn: asyncpg.Connection) -> list[tuple[Any, ...]]:
    rows = await conn.fetch("select * from agent_messages order by id")
    tasks = await conn.fetch("select id, status from agent_taken order by id")
    logs = await conn.fetchval("select count(*) from agent_taak_log")
    return [tuple(r) for r in rows] + [tuple(t) for t in tasks] + [("log", logs)]


async def new_messages(conn: asyncpg.Connection) -> list[int]:
    """Day one's own traffic, after the migration: two open ones for paco, one the old worker already did."""
    rows = await conn.fetch(
        "insert into agent_messages (sender, recipient, content, status) values "
        "('jamal', 'Paco', 'Zet de foto''s online', 'pending'), ('conductor', 'paco ', 'Maak de blog af', 'pending'), "
        "('jamal', 'paco', 'al gedaan door de oude worker', 'done') returning id"
    )
    return [r["id"] for r in rows]


# --- intake: a preview first, then only what is new and open ----------------------------------------------


async def test_the_preview_counts_what_paco_would_get_and_changes_nothing(owners_db: str, tmp_path: Path) -> None:
    env = cli_env(owners_db, tmp_path)
    ok(env, "db", "migrate")
    conn = await asyncpg.connect(owners_db)
    try:
        await new_messages(conn)
        before = await snapshot(conn)
        shown = json.loads(ok(env, "intake", "voorbeeld", "--bot", "Paco", "--json"))
        text = ok(env, "intake", "voorbeeld")
        assert await snapshot(conn) == before
    finally:
        await conn.close()
    assert shown["totaal"] == {"taak": 2, "afgehandeld": 1, "te_oud": 45}
    assert shown["per_ontvanger"] == {"paco": {"taak": 2, "afgehandeld": 1, "te_oud": 45}}
    assert shown["per_afzender"]["Conductor"] == {"te_oud": 15}
    moments = [datetime.fromisoformat(shown[k]) for k in ("oudste", "vanaf", "nieuwste")]
    assert moments == sorted(moments)
    assert "per afzender" in text
    assert "sjakie" in text  # without --bot: every recipient
    assert "er is niets veranderd" in text


async def test_a_preview_for_a_name_that_is_no_bot_and_no_recipient_is_refused_as_a_typo(
    owners_db: str, tmp_path: Path
) -> None:
    """It answered an empty preview, exit 0: a typo read as "no backlog for this bot" (tester 61)."""
    env = cli_env(owners_db, tmp_path)
    ok(env, "db", "migrate")
    ok(env, "bot", "uit", "coco", "--nieuwe-bot")
    conn = await asyncpg.connect(owners_db)
    try:
        await new_messages(conn)
        before = await snapshot(conn)
        typo = taak(env, "intake", "voorbeeld", "--bot", "pacoo")
        assert await snapshot(conn) == before
    finally:
        await conn.close()
    assert (typo.returncode, typo.stdout) == (1, "")
    assert typo.stderr.strip() == "taak: bot pacoo is onbekend (bekend: coco)"
    assert "sjakie" in ok(env, "intake", "voorbeeld", "--bot", "sjakie")  # a recipient the fleet does not know yet


@pytest.mark.slow
async def test_switching_paco_on_runs_only_new_open_messages_and_old_ones_come_in_by_hand(
    owners_db: str, tmp_path: Path
) -> None:
    env = cli_env(owners_db, tmp_path)
    ok(env, "db", "migrate")
    conn = await asyncpg.connect(owners_db)
    daemon = InProcess(worker_env(owners_db, tmp_path / "paco", TAAK_POLL_SECONDS="0.5"), tmp_path / "paco.log")
    try:
        fresh = await new_messages(conn)
        await wait_for(lambda: _has(daemon, "intake_on"), timeout=60, what="the intake to start")
        ok(env, "bot", "aan", "paco")
        await wait_for(
            lambda: conn.fetchval("select count(*) = 2 from agent_taken where status = 'klaar'"),
            timeout=90,
            what="the two new messages to run",
        )
        marks = dict(
            (r["id"], r["task_id"])
            for r in await conn.fetch("select id, task_id from agent_messages where recipient <> 'sjakie'")
        )
        assert all(marks[m] is not None and marks[m].startswith("HV-") for m in fresh[:2])
        assert marks[fresh[2]] == "overgeslagen"  # handled by the old worker
        old = [m for m in marks if m not in fresh]
        assert {marks[m] for m in old} == {"overgeslagen"}  # history is never run again
        assert await conn.fetchval("select count(*) from agent_taken") == 2
        sjakie = "select count(*) from agent_messages where recipient = 'sjakie' and task_id is not null"
        assert await conn.fetchval(sjakie) == 0  # not switched on here: untouched
        assert {r["toegewezen_aan"] for r in await conn.fetch("select toegewezen_aan from agent_taken")} == {"paco"}
        # The owner pulls one old silent pending in by hand; a second time is refused.
        silent = await conn.fetchval("select id from agent_messages where content like 'stille pending%' limit 1")
        said = ok(env, "intake", "neem", str(silent))
        task_id = said.split("-> ")[1].strip()
        assert await conn.fetchval("select opdracht from agent_taken where id = $1", task_id) == (
            await conn.fetchval("select content from agent_messages where id = $1", silent)
        )
        again = taak(env, "intake", "neem", str(silent))
        assert again.returncode == 1
        assert task_id in again.stderr
        assert taak(env, "intake", "neem", "999999").returncode == 3
    finally:
        await daemon.stop()
        await conn.close()


async def _has(daemon: InProcess, event: str) -> bool:
    return daemon.has_event(event)


@pytest.mark.slow
async def test_the_owner_takes_part_of_the_old_backlog_in_paco_runs_it_and_the_rest_is_left(
    owners_db: str, tmp_path: Path
) -> None:
    """Issue 41: the silent pendings the daemon skipped, reviewed by sender, recipient and month; the last month
    of conductor's taken in and run by paco's daemon, once; sjakie's left for good."""
    env = cli_env(owners_db, tmp_path)
    ok(env, "db", "migrate")
    conn = await asyncpg.connect(owners_db)
    daemon = InProcess(worker_env(owners_db, tmp_path / "paco", TAAK_POLL_SECONDS="0.5"), tmp_path / "paco.log")
    try:
        await wait_for(lambda: _has(daemon, "intake_on"), timeout=60, what="the intake to start")
        ok(env, "bot", "aan", "paco")
        unmarked = "select count(*) = 0 from agent_messages where taak_botnaam(recipient) = 'paco' and task_id is null"
        await wait_for(lambda: conn.fetchval(unmarked), timeout=60, what="paco's history to be skipped")
        groups = json.loads(ok(env, "intake", "voorbeeld", "--json"))["achterstand"]
        per_bot = {bot: sum(g["aantal"] for g in groups if g["ontvanger"] == bot) for bot in ("paco", "sjakie")}
        assert per_bot == {"paco": 15, "sjakie": 15}  # the silent pendings; not what the old worker handled
        assert {g["afzender"] for g in groups} == {"conductor", "kimi"}
        assert all(g["voorbeeld"].startswith(("stille pending", "voor sjakie")) for g in groups)
        since = (datetime.now(UTC) - timedelta(days=35)).date().isoformat()
        taken = ok(env, "intake", "neem", "--alle", "--van", "Conductor", "--sinds", since, "--ja")
        assert taken.splitlines()[-1] == "3 berichten binnengehaald"
        await wait_for(
            lambda: conn.fetchval("select count(*) = 3 from agent_taken where status = 'klaar'"),
            timeout=90,
            what="paco to run the three",
        )
        again = taak(env, "intake", "neem", "--alle", "--van", "Conductor", "--sinds", since, "--ja")
        assert again.returncode == 3
        ok(env, "intake", "sla-over", "--alle", "--aan", "sjakie", "--ja")
        left = json.loads(ok(env, "intake", "voorbeeld", "--json"))["achterstand"]
        assert {(g["afzender"], g["ontvanger"]) for g in left} == {("conductor", "paco")}
        assert sum(g["aantal"] for g in left) == 12
        assert await conn.fetchval("select count(*) from agent_taken") == 3
    finally:
        await daemon.stop()
        await conn.close()


# --- one spelling of a bot ---------------------------------------------------------------------------------


@pytest.mark.slow
async def test_paco_is_one_bot_however_it_is_spelled_and_typos_are_refused(owners_db: str, tmp_path: Path) -> None:
    env = cli_env(owners_db, tmp_path)
    ok(env, "db", "migrate")
    ok(env, "bot", "uit", "paco", "--nieuwe-bot")
    conn = await asyncpg.connect(owners_db)
    try:
        first = ok(env, "nieuw", "Eerste", "--aan", "Paco ").strip()
        second = await conn.fetchval("select taak_nieuw('Via Supabase', 'telegram', ' PACO')")
        assert {r["toegewezen_aan"] for r in await conn.fetch("select toegewezen_aan from agent_taken")} == {"paco"}
        before = await snapshot(conn)
        typo = taak(env, "bot", "aan", "pacoo")
        assert typo.returncode == 1
        assert "pacoo" in typo.stderr
        assert "bekend: paco" in typo.stderr
        for args, code in (
            (("nieuw", "Iets", "--aan", "pacoo"), 1),
            (("nieuw", "Iets", "--aan", ""), 2),
            (("nieuw", "Iets", "--aan", "  "), 2),
            (("claim", "--bot", ""), 2),
            (("claim", "--bot", "pacoo"), 1),
            (("bot", "aan", ""), 2),
        ):
            done = taak(env, *args)
            assert done.returncode == code, (args, done.stderr)
            assert len(done.stderr.strip().splitlines()) == 1
        assert await snapshot(conn) == before  # refused means: nothing changed
        with pytest.raises(asyncpg.CheckViolationError):
            await conn.fetchval("select taak_nieuw('Leeg', 'telegram', '  ')")
        claimed = ok(env, "claim", "--bot", "PACO", "--json")
        assert json.loads(claimed)["id"] == first
        ok(env, "bot", "aan", "Paco")
        assert await conn.fetchval("select actief from agent_bots where bot = 'paco'") is True
        assert await conn.fetchval("select count(*) from agent_bots") == 1
        assert second.startswith("HV-")
    finally:
        await conn.close()


# --- bot_heartbeats: the owner's decision ------------------------------------------------------------------


async def test_heartbeats_get_row_level_security_only_when_the_owner_says_so_and_the_bots_keep_writing(
    owners_db: str, tmp_path: Path, server_url: str
) -> None:
    env = cli_env(owners_db, tmp_path)
    ok(env, "db", "migrate")
    login = f"taak_t_{os.urandom(4).hex()}_bot"
    admin = await asyncpg.connect(server_url)
    await admin.execute(f'create role "{login}" login in role anon')
    conn = await asyncpg.connect(owners_db)
    try:
        assert await conn.fetchval("select relrowsecurity from pg_class where relname = 'bot_heartbeats'") is False
        doctor = taak(env, "doctor").stdout
        open_to = "anon, authenticated, service_role kan het lezen en veranderen"  # a Dutch run
        assert f"bot_heartbeats: row-level security staat uit: {open_to}" in doctor
        shown = ok(env, "db", "heartbeats")
        assert "mag er vandaag in schrijven: anon, authenticated, service_role" in shown  # a Dutch run says it so
        assert "alter table public.bot_heartbeats enable row level security;" in shown
        assert await conn.fetchval("select relrowsecurity from pg_class where relname = 'bot_heartbeats'") is False
        ok(env, "db", "heartbeats", "--beveilig")
        assert await conn.fetchval("select relrowsecurity from pg_class where relname = 'bot_heartbeats'") is True
        bot = await asyncpg.connect(as_role(owners_db, login))
        try:
            await bot.execute("insert into bot_heartbeats (bot) values ('paco')")
            await bot.execute("update bot_heartbeats set seen = now() where bot = 'paco'")
            assert await bot.fetchval("select count(*) from bot_heartbeats") == 1
            for statement in ("delete from bot_heartbeats", "truncate bot_heartbeats"):
                with pytest.raises(asyncpg.InsufficientPrivilegeError):
                    await bot.execute(statement)
        finally:
            await bot.close()
        assert "niets te veranderen" in ok(env, "db", "heartbeats", "--beveilig")
        english = ok({**env, "TAAK_LANGUAGE": "en"}, "db", "heartbeats")
        assert "may delete or truncate today: only its owner" in english
        assert "row-level security aan" in taak(env, "doctor").stdout
    finally:
        await conn.close()
        with contextlib.suppress(asyncpg.PostgresError):
            owner = await asyncpg.connect(owners_db)
            await owner.execute(f'drop owned by "{login}"')
            await owner.close()
        await admin.execute(f'drop role if exists "{login}"')
        await admin.close()


# --- the owner's verbs ------------------------------------------------------------------------------------


async def _running(conn: asyncpg.Connection, daemon: InProcess, task_id: str) -> bool:
    return bool(
        await conn.fetchval("select status = 'bezig' from agent_taken where id = $1", task_id)
        and daemon.has_event("session_start")
    )


# Taking back waits out the 45 s in which nobody may claim the task again: not in the fast loop.
@pytest.mark.parametrize("verb", ["annuleer", pytest.param("vrijgeven", marks=pytest.mark.slow)])
async def test_the_owner_cancels_or_takes_back_a_running_task_and_its_daemon_stops_the_session(
    owners_db: str, tmp_path: Path, verb: str
) -> None:
    env = cli_env(owners_db, tmp_path, TAAK_OWNER="jamal")
    ok(env, "db", "migrate")
    ok(env, "bot", "aan", "paco", "--nieuwe-bot")
    task_id = ok(env, "nieuw", "Blijft hangen", "--aan", "paco").strip()
    daemon = InProcess(
        worker_env(owners_db, tmp_path / "paco", mode="hang", TAAK_POLL_SECONDS="0.5", TAAK_LEASE_EXTEND_SECONDS="1"),
        tmp_path / "paco.log",
    )
    conn = await asyncpg.connect(owners_db)
    try:
        await wait_for(lambda: _running(conn, daemon, task_id), timeout=60, what="the session to run")
        if verb == "annuleer":
            assert taak(env, "annuleer", task_id).returncode == 2  # a reason is required
            said = ok(env, "annuleer", task_id, "--reden", "niet meer nodig")
            assert "geannuleerd" in said
        else:
            said = ok(env, "vrijgeven", task_id, "--reden", "hangt")
            assert "teruggenomen" in said
        # A cancel or a take-back is the owner's doing, not a lost lease: the daemon's log and the result row say which.
        stopped_because = "task_geannuleerd" if verb == "annuleer" else "lease_teruggenomen"
        await wait_for(lambda: _has(daemon, stopped_because), timeout=30, what="the daemon to stop the session")
        result = await wait_for(
            lambda: conn.fetchval(
                "select tekst from agent_taak_log where taak_id = $1 and tekst like 'sessie-resultaat:%'", task_id
            ),
            timeout=30,
            what="the session's result row",
        )
        why = "de eigenaar annuleerde de taak" if verb == "annuleer" else "de eigenaar nam de taak terug"
        assert result == f"sessie-resultaat: geen resultaatregel (signaal SIGKILL, gestopt: {why})"
        assert not daemon.has_event("lease_lost")  # the owner's doing is no error of the daemon's (tester 23)
        row = await conn.fetchrow(
            "select bot, soort, tekst from agent_taak_log where taak_id = $1 and bot = 'jamal' "
            "order by id desc limit 1",
            task_id,
        )
        assert row is not None
        if verb == "annuleer":
            assert await conn.fetchval("select status from agent_taken where id = $1", task_id) == "geannuleerd"
            assert (row["soort"], row["tekst"]) == ("notitie", "geannuleerd door jamal: niet meer nodig")
            again = taak(env, "annuleer", task_id, "--reden", "nog eens")
            assert again.returncode == 1
            assert "geannuleerd" in again.stderr
        else:
            assert row["soort"] == "vrijgegeven"
            assert row["tekst"].startswith("lease teruggenomen door jamal (van paco@testbox): hangt")
            # Claimable again once the session is surely stopped, with the attempt given back.
            await wait_for(
                lambda: conn.fetchval(
                    "select count(*) >= 2 from agent_taak_log where taak_id = $1 and soort = 'gestart'", task_id
                ),
                timeout=90,
                what="the task to be claimed again",
            )
            assert await conn.fetchval("select pogingen from agent_taken where id = $1", task_id) == 1
            back, again = await conn.fetch(
                "select ts from agent_taak_log where taak_id = $1 and soort in ('gestart', 'vrijgegeven') "
                "order by id offset 1",
                task_id,
            )
            assert (again["ts"] - back["ts"]).total_seconds() >= 44  # nobody could take it while it still ran
    finally:
        await daemon.stop()
        await conn.close()


@pytest.mark.slow
async def test_a_due_date_is_shown_everywhere_and_the_owner_hears_when_it_passes_a_deadline_or_a_failure(
    owners_db: str, tmp_path: Path
) -> None:
    env = cli_env(owners_db, tmp_path)
    ok(env, "db", "migrate")
    ok(env, "bot", "uit", "paco", "--nieuwe-bot")
    due = ok(env, "nieuw", "Offerte aanvragen", "--aan", "paco", "--uiterlijk", "2099-12-05").strip()
    assert "Uiterlijk: 5 dec 2099 23:59" in ok(env, "brief", due)
    header, row = ok(env, "lijst").splitlines()
    assert "uiterlijk" in header.split()
    assert "  5 dec 2099 23:59  Offerte aanvragen" in row
    for bad in ("gisteren", "2020-01-01", "31-31-2026"):
        refused = taak(env, "nieuw", "Te laat", "--uiterlijk", bad)
        assert refused.returncode == 2, refused.stderr
    conn = await asyncpg.connect(owners_db)
    sent = tmp_path / "meldingen.txt"
    notify = tmp_path / "notify.sh"
    notify.write_text(f'#!/bin/sh\nprintf "%s %s\\n" "$TAAK_MELDING" "$(cat)" >> {sent}\n')
    notify.chmod(0o755)
    try:
        late = ok(env, "nieuw", "Belasting", "--aan", "paco", "--uiterlijk", "12u").strip()
        await conn.execute("update agent_taken set uiterlijk = now() - interval '1 hour' where id = $1", late)
        assert "TE LAAT" in ok(env, "lijst")
        overzicht = json.loads(ok(env, "overzicht", "--json"))
        assert next(b for b in overzicht["bots"] if b["bot"] == "paco")["over_tijd"] == 1
        waiting = ok(env, "nieuw", "Kies een scherm", "--aan", "paco").strip()
        failing = ok(env, "nieuw", "Gaat mis", "--aan", "paco").strip()
        await conn.execute("update agent_taken set max_pogingen = 1 where id = $1", failing)
        held = await conn.fetchrow(
            "update agent_taken set status = 'bezig', lease_token = gen_random_uuid(), lease_tot = now() + "
            "interval '1 hour', pogingen = 1 where id = $1 returning lease_token",
            waiting,
        )
        await conn.execute("select taak_sessie_blokkeer($1, $2, 'scherm v9 of v10?')", waiting, held["lease_token"])
        await conn.execute(
            "update taak_meldingen set aangemaakt = now() - interval '3 days', verstuurd = now() where taak_id = $1",
            waiting,
        )
        daemon = InProcess(
            worker_env(
                owners_db,
                tmp_path / "paco",
                mode="error",
                TAAK_NOTIFY_CMD=str(notify),
                TAAK_OUTBOX_SECONDS="0.5",
                TAAK_DECIDE_HOURS="48",
                TAAK_POLL_SECONDS="0.5",
            ),
            tmp_path / "paco.log",
        )
        try:
            ok(env, "bot", "aan", "paco")
            await wait_for(
                lambda: _kinds(sent, {"uiterlijk", "escalatie", "mislukt"}),
                timeout=60,
                what="the due date, the escalation and the failure messages",
            )
        finally:
            await daemon.stop()
    finally:
        await conn.close()
    said = sent.read_text()
    assert f"uiterlijk {late}: over de uiterlijke datum" in said
    assert f"escalatie beslistermijn verstreken (48 uur): {waiting}: scherm v9 of v10?" in said
    assert f"mislukt {failing}: mislukt na 1 van 1 pogingen: Gaat mis" in said
    assert said.count("uiterlijk ") == 1  # once, not on every outbox round


async def _kinds(path: Path, wanted: set[str]) -> bool:
    return path.exists() and wanted <= {line.split(" ", 1)[0] for line in path.read_text().splitlines()}


# --- the brake -------------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("brake", ["sessions", "cost"])
async def test_the_brake_stops_claiming_for_a_bot_at_its_daily_limit_and_tells_the_owner_once(
    owners_db: str, tmp_path: Path, brake: str
) -> None:
    env = cli_env(owners_db, tmp_path)
    ok(env, "db", "migrate")
    ok(env, "bot", "aan", "paco", "--nieuwe-bot")
    assert "max 50 sessies" in ok(env, "bot", "lijst")  # every bot starts with a brake
    if brake == "cost":
        said = ok(env, "bot", "rem", "paco", "--kosten", "0.02", "--sessies", "geen")  # $0.0123 a fake session
        assert said.strip() == "paco: rem max $0.02"
    else:
        assert ok(env, "bot", "rem", "paco", "--sessies", "2").strip() == "paco: rem max 2 sessies"
    for bad in (["--sessies", "-1"], ["--kosten", "veel"], ["--kosten", "NaN"], []):
        assert taak(env, "bot", "rem", "paco", *bad).returncode == 2
    assert "dollars" not in taak(env, "bot", "rem", "paco", "--sessies", "1.5").stderr  # a count, not money
    tasks = [ok(env, "nieuw", f"Taak {n}", "--aan", "paco").strip() for n in range(4)]
    sent = tmp_path / "meldingen.txt"
    notify = tmp_path / "notify.sh"
    notify.write_text(f'#!/bin/sh\nprintf "%s %s\\n" "$TAAK_MELDING" "$(cat)" >> {sent}\n')
    notify.chmod(0o755)
    daemon = InProcess(
        worker_env(
            owners_db,
            tmp_path / "paco",
            TAAK_NOTIFY_CMD=str(notify),
            TAAK_OUTBOX_SECONDS="0.5",
            TAAK_POLL_SECONDS="0.3",
        ),
        tmp_path / "paco.log",
    )
    conn = await asyncpg.connect(owners_db)
    try:
        await wait_for(lambda: _has(daemon, "bot_braked"), timeout=60, what="the brake")
        await wait_for(lambda: _kinds(sent, {"rem"}), timeout=30, what="the owner to be told")
        await _settle(daemon)
        statuses = [await conn.fetchval("select status from agent_taken where id = $1", t) for t in tasks]
    finally:
        await daemon.stop()
        await conn.close()
    assert statuses.count("klaar") == 2
    assert statuses.count("wachtend") == 2
    (braked,) = [e for e in daemon.events() if e["event"] == "bot_braked"]
    assert braked["cost"].startswith("$")  # cents, as the reason beside it says them (it was 0.617280)
    assert braked["cost"] in braked["reason"]
    said = sent.read_text().splitlines()
    assert len(said) == 1
    assert said[0].startswith("rem paco staat op de rem tot middernacht: vandaag 2 sessies")
    listed = ok(env, "bot", "lijst")
    assert "GEREMD tot middernacht" in listed
    assert json.loads(ok(env, "bot", "lijst", "--json"))[0]["vandaag"]["geremd"] is True


async def _settle(daemon: InProcess) -> None:
    """Give the braked daemon a few more claim rounds, to see that it really takes nothing more."""
    import anyio

    await anyio.sleep(2)


# --- one path: the old hooks and the old worker ------------------------------------------------------------


def test_doctor_finds_the_old_hooks_by_name_and_by_what_they_do_and_the_fix_removes_them_with_a_backup(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    scripts = home / ".claude" / "scripts"
    scripts.mkdir(parents=True)
    (scripts / "session-compact-report.py").write_text("print('verslag opgeslagen')\n")
    (scripts / "session-start-context.py").write_text("print(open('MEMORY.md').read()[:3000])\n")
    (scripts / "mijn-verslag.sh").write_text("#!/bin/sh\n# write a compact report of the transcript\ncat > r.md\n")
    (scripts / "iets-anders.sh").write_text("#!/bin/sh\necho hoi\n")
    settings = home / ".claude" / "settings.json"
    hooks = {
        "PreCompact": [{"hooks": [{"type": "command", "command": f"python3 {scripts}/session-compact-report.py"}]}],
        "SessionStart": [
            {"hooks": [{"type": "command", "command": f"python3 {scripts}/session-start-context.py"}]},
            {"hooks": [{"type": "command", "command": f"sh {scripts}/iets-anders.sh"}]},
        ],
        "PostCompact": [{"hooks": [{"type": "command", "command": f"sh {scripts}/mijn-verslag.sh"}]}],
        # Working hooks in shell forms: a builtin first, a relative path after cd. They stay.
        "Stop": [
            {"hooks": [{"type": "command", "command": f"cd {tmp_path} && echo werkt >> {tmp_path}/stop.log"}]},
            {"hooks": [{"type": "command", "command": f"cd {scripts} && sh iets-anders.sh"}]},
        ],
        # The old script behind a cd or inside an inline script is still the old script.
        "UserPromptSubmit": [
            {"hooks": [{"type": "command", "command": f"cd {scripts} && python3 session-compact-report.py"}]},
            {"hooks": [{"type": "command", "command": f"bash -c 'python3 {scripts}/session-compact-report.py'"}]},
        ],
    }
    settings.write_text(json.dumps({"hooks": hooks}))
    env = cli_env("postgresql://postgres@127.0.0.1:1/nergens", tmp_path)
    ok(env, "hooks", "install")
    doctor = taak(env, "doctor").stdout
    old_line = next(line for line in doctor.splitlines() if "oude hooks:" in line)
    assert old_line.startswith("fail")
    for name in ("session-compact-report.py", "session-start-context.py", "mijn-verslag.sh"):
        assert name in old_line
    assert "iets-anders.sh" not in old_line
    assert old_line.endswith("-> taak hooks check --fix")
    # Why each is old, in the run's language too (it was English inside a Dutch line: tester M)
    assert "(het oude compactieverslag (schreef 'verslag opgeslagen' bij lege bestanden))" in old_line
    assert "the old" not in old_line
    assert "(oud: de oude context bij de sessiestart" in taak(env, "hooks", "check").stdout
    ok(env, "hooks", "check", "--fix")
    after = json.loads(settings.read_text())["hooks"]
    commands = [h["command"] for groups in after.values() for g in groups for h in g["hooks"]]
    remaining = " ".join(commands)
    assert not any(name in remaining for name in ("session-compact-report", "session-start-context", "verslag"))
    assert any("iets-anders.sh" in c for c in commands)
    assert sum("echo werkt" in c for c in commands) == 1
    assert sum("iets-anders.sh" in c for c in commands) == 2
    assert sum(" hook " in c for c in commands) == 4  # ours stay
    backups = list(settings.parent.glob("settings.json.bak-*"))
    assert any("session-compact-report.py" in b.read_text() for b in backups)
    assert next(line for line in taak(env, "doctor").stdout.splitlines() if "oude hooks:" in line).startswith("ok")


def test_doctor_warns_when_the_old_node_queue_worker_runs_on_this_machine(
    tmp_path: Path, machine_processes: None
) -> None:
    env = cli_env("postgresql://postgres@127.0.0.1:1/nergens", tmp_path, TAAK_BOTS="paco")
    quiet = taak(env, "doctor").stdout
    assert next(line for line in quiet.splitlines() if "oude queue worker" in line).startswith("ok")
    old = subprocess.Popen(
        ["bash", "-c", 'exec -a "node /Users/macbookjamal/conductor-queue/queue-worker.js" sleep 60'],
        start_new_session=True,
    )
    try:
        line = next(line for line in taak(env, "doctor").stdout.splitlines() if "oude queue worker" in line)
    finally:
        old.kill()
        old.wait()
    assert line.startswith("warn")
    assert f"pid {old.pid}" in line
    assert "paco" in line


# --- the demo ---------------------------------------------------------------------------------------------


@pytest.mark.slow
async def test_the_demo_never_touches_a_configured_queue(db_url: str, tmp_path: Path) -> None:
    from worker.db.embedded import stop_embedded

    # The embedded server's folder outside pytest's private one: run as root, pgserver hands it to its own user.
    data = Path(tempfile.mkdtemp(prefix="taak-demo-"))
    env = cli_env(db_url, tmp_path, TAAK_DATA_DIR=str(data))
    conn = await asyncpg.connect(db_url)
    try:
        before = await snapshot_of_queue(conn)
        done = subprocess.run(
            ["queue-worker", "demo"], env=env, capture_output=True, text=True, timeout=300, check=False
        )
        assert done.returncode == 0, done.stderr
        assert "nooit op je wachtrij" in done.stderr
        assert await snapshot_of_queue(conn) == before
        again = done.stderr.split("Bekijk het nog eens met: ")[1].strip()
        shown = subprocess.run(["bash", "-c", again], env=env, capture_output=True, text=True, timeout=120)
        assert shown.returncode == 0, shown.stderr
        assert "klaar" in shown.stdout
    finally:
        await conn.close()
        stop_embedded(data / "postgres")
        shutil.rmtree(data, ignore_errors=True)


@pytest.mark.slow
def test_a_demo_after_one_whose_agent_never_ran_runs_its_own_task_in_the_runs_language(tmp_path: Path) -> None:
    from worker.db.embedded import stop_embedded

    data = Path(tempfile.mkdtemp(prefix="taak-demo-"))
    bare_path = f"{Path(sys.executable).parent}{os.pathsep}/usr/bin{os.pathsep}/bin"
    if shutil.which("claude", path=bare_path):
        pytest.skip("a claude is on this machine's bare PATH: the first demo would run it")
    env = {**cli_env("", tmp_path, TAAK_DATA_DIR=str(data), PATH=bare_path), "TAAK_LANGUAGE": "en"}
    del env["TAAK_DATABASE_URL"]
    demo = ["queue-worker", "demo"]
    try:
        failed = subprocess.run([*demo, "--agent", "claude"], env=env, capture_output=True, text=True, timeout=300)
        done = subprocess.run(demo, env=env, capture_output=True, text=True, timeout=300)
        first = re.search(r"task (HV-\d{8}-\d{3}) created", failed.stderr)
        second = re.search(r"task (HV-\d{8}-\d{3}) created", done.stderr)
        assert first, failed.stderr
        assert second, done.stderr
        task = json.loads(ok(env, "toon", second[1], "--json"))
        # Its last line typed as printed, where TAAK_DATA_DIR was given for the demo alone (not exported).
        again = done.stderr.split("See it again with: ")[1].strip()
        alone = {k: v for k, v in env.items() if k != "TAAK_DATA_DIR"}
        shown = subprocess.run(["bash", "-c", again], env=alone, capture_output=True, text=True, timeout=120)
    finally:
        stop_embedded(data / "postgres")
        shutil.rmtree(data, ignore_errors=True)
    assert failed.returncode == 1  # its agent never ran: the task is left waiting
    assert done.returncode == 0, done.stderr
    assert f"earlier demo task {first[1]} cancelled" in done.stderr
    assert f"{second[1]}: klaar (evidence: " in done.stdout
    assert "result written to" in done.stdout  # the stand-in agent's own lines in the run's language
    assert task["opdracht"].startswith("Write down in one sentence")
    assert shown.returncode == 0, shown.stderr
    assert second[1] in shown.stdout


@pytest.mark.slow
def test_the_demo_runs_only_the_task_it_made_and_leaves_no_bot_switched_on_behind(tmp_path: Path) -> None:
    """Tried as a new user would (twice): the owner's task for any bot, made before the demo, was claimed by the
    demo, logged with its scripted steps and finished with its evidence, while the demo's own task stayed waiting;
    and the bot `demo` stayed switched on, its heartbeat going stale, in `taak bot lijst` and the overview."""
    from worker.db.embedded import stop_embedded

    data = Path(tempfile.mkdtemp(prefix="taak-demo-"))
    env = cli_env("", tmp_path, TAAK_DATA_DIR=str(data))
    del env["TAAK_DATABASE_URL"]
    try:
        owners = ok(env, "nieuw", "--van", "jamal", "Bestel nieuwe filters voor de afzuigkap").strip()
        done = subprocess.run(["queue-worker", "demo"], env=env, capture_output=True, text=True, timeout=300)
        demo = re.search(r"taak (HV-\d{8}-\d{3}) gemaakt", done.stderr)
        owners_task = json.loads(ok(env, "toon", owners, "--json"))
        demos_task = json.loads(ok(env, "toon", demo[1], "--json")) if demo else {}
        bots = json.loads(ok(env, "bot", "lijst", "--json"))
        overview = json.loads(ok(env, "overzicht", "--json"))
    finally:
        stop_embedded(data / "postgres")
        shutil.rmtree(data, ignore_errors=True)
    assert done.returncode == 0, done.stderr
    assert demo, done.stderr
    assert owners_task["status"] == "wachtend"
    assert [row["soort"] for row in owners_task["log"]] == ["notitie"]  # its creation note, and nothing else
    assert (demos_task["status"], Path(demos_task["bewijs"]).name) == ("klaar", f"demo-{demo[1]}.txt")
    assert [b["bot"] for b in bots] == []
    assert [(b["bot"], b["actief"], b["worker_verouderd"]) for b in overview["bots"]] == [
        ("-", None, False),
        ("demo", None, False),
    ]


async def snapshot_of_queue(conn: asyncpg.Connection) -> tuple[int, int, int]:
    return (
        await conn.fetchval("select count(*) from agent_taken"),
        await conn.fetchval("select count(*) from agent_taak_log"),
        await conn.fetchval("select count(*) from agent_bots"),
    )


async def test_the_preview_reads_a_table_the_intake_never_touched_and_still_changes_nothing(
    db_url: str, tmp_path: Path
) -> None:
    env = cli_env(db_url, tmp_path)
    ok(env, "bot", "uit", "paco", "--nieuwe-bot")
    assert "agent_messages" in ok(env, "intake", "voorbeeld")  # no table yet: said, exit 0
    conn = await asyncpg.connect(db_url)
    try:
        await conn.execute(OLD_TABLES[0])  # made after the migration: no task_id column
        await conn.execute("insert into agent_messages (sender, recipient, content) values ('jamal', 'paco', 'Nieuw')")
        shown = json.loads(ok(env, "intake", "voorbeeld", "--json"))
        columns = await conn.fetch(
            "select column_name from information_schema.columns where table_name = 'agent_messages'"
        )
    finally:
        await conn.close()
    assert shown["totaal"] == {"taak": 1}
    assert "task_id" not in {c["column_name"] for c in columns}
    done = taak(env, "intake", "neem", "1")  # pulling one in does change the table: its columns are added
    assert done.returncode == 0, done.stderr


async def test_pulling_a_message_in_by_hand_needs_a_bot_the_fleet_knows(owners_db: str, tmp_path: Path) -> None:
    env = cli_env(owners_db, tmp_path)
    ok(env, "db", "migrate")
    ok(env, "bot", "uit", "paco", "--nieuwe-bot")
    conn = await asyncpg.connect(owners_db)
    try:
        ids = {
            name: await conn.fetchval(
                "insert into agent_messages (sender, recipient, content) values ('jamal', $1, $2) returning id",
                recipient,
                f"bericht voor {name}",
            )
            for name, recipient in (("coco", "coco"), ("niemand", None), ("raar", "pacó"), ("paco", " Paco"))
        }
        before = await snapshot(conn)
        for name, code, said in (("coco", 1, "coco is onbekend"), ("niemand", 1, "--aan BOT"), ("raar", 2, "pacó")):
            refused = taak(env, "intake", "neem", str(ids[name]))
            assert refused.returncode == code, refused.stderr
            assert said in refused.stderr
            assert len(refused.stderr.strip().splitlines()) == 1
        assert taak(env, "intake", "neem", "").returncode == 2
        assert await snapshot(conn) == before
        task = ok(env, "intake", "neem", str(ids["niemand"]), "--aan", "paco").split("-> ")[1].strip()
        assert await conn.fetchval("select toegewezen_aan from agent_taken where id = $1", task) == "paco"
        ok(env, "intake", "neem", str(ids["paco"]))
    finally:
        await conn.close()


def test_settings_that_would_quietly_mean_something_else_are_refused(tmp_path: Path) -> None:
    env = cli_env("postgresql://postgres@127.0.0.1:1/nergens", tmp_path)
    for name, value in (
        ("TAAK_INTAKE_VANAF", "20261201"),  # would be read as seconds since 1970
        ("TAAK_INTAKE_VANAF", "-5"),
        ("TAAK_INTAKE_OPEN_STATUS", " , "),  # would mean: nothing is open
        ("TAAK_OWNER", "jamal\nroot"),
    ):
        done = taak({**env, name: value}, "lijst")
        assert done.returncode == 2, (name, value, done.stderr)
        assert name in done.stderr


async def test_a_brake_out_of_range_is_refused_in_one_line(db_url: str, tmp_path: Path) -> None:
    env = cli_env(db_url, tmp_path)
    ok(env, "bot", "uit", "paco", "--nieuwe-bot")
    for bad in (
        ["--sessies", "99999999999999999999"],
        ["--kosten", "1e308"],
        ["--kosten", "5,50"],
        ["--sessies", "x"],
        ["--sessies", "\u0661\u0660"],  # Arabic-Indic digits: int() takes them, a keyboard does not type them
        ["--kosten", "1_0"],
        ["--kosten", "5.555"],  # no whole cent: the line says why
    ):
        done = taak(env, "bot", "rem", "paco", *bad)
        assert done.returncode == 2, done.stderr
        said = "een geheel aantal sessies van 0 tot" if bad[0] == "--sessies" else "in hele centen"
        assert said in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
    assert ok(env, "bot", "rem", "paco", "--kosten", "5.5").strip() == "paco: rem max 50 sessies, max $5.50"


async def test_a_status_column_that_is_not_there_or_a_cut_off_in_the_future_keeps_intake_off(
    owners_db: str, tmp_path: Path
) -> None:
    env = cli_env(owners_db, tmp_path)
    ok(env, "db", "migrate")
    conn = await asyncpg.connect(owners_db)
    try:
        await new_messages(conn)
        before = await snapshot(conn)
        for name, value, said in (
            ("TAAK_INTAKE_STATUS_COLUMN", "Status", "geen kolom Status"),
            ("TAAK_INTAKE_VANAF", "2099-01-01", "ligt in de toekomst"),
        ):
            shown = ok({**env, name: value}, "intake", "voorbeeld")
            assert said in shown
            assert "taak:" not in shown
        assert await snapshot(conn) == before
        refused = taak(env, "intake", "neem", "1", "--aan", "")
        assert refused.returncode == 2
    finally:
        await conn.close()
