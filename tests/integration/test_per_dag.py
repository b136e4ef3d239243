"""`taak overzicht --per-dag` (issue 41, before and after) against rows made for known days: every figure of the
day table, the old queue before the switch-on and never after it, and the table without an old queue at all."""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import asyncpg
import pytest

from tests.helpers import run_taak

ZONE = "Europe/Amsterdam"  # the test database's household zone (taak_instellingen)


async def at(conn: asyncpg.Connection, day: date, clock: str) -> Any:
    """A moment on a day of the household's calendar."""
    return await conn.fetchval("select ($1::date + $2::text::time) at time zone $3", day, clock, ZONE)


async def seed(conn: asyncpg.Connection, today: date) -> None:
    """paco: switched on (its first session) the day before yesterday; sjakie: never switched on. Four days back
    and three days back only the old queue ran."""
    d4, d3, d2, d1 = (today - timedelta(days=n) for n in (4, 3, 2, 1))
    # Rows with the days' own times: the triggers that stamp the database's clock are off for this connection.
    await conn.execute("set session_replication_role = replica")
    await conn.execute(
        "create table public.agent_messages (id serial primary key, content text, sender text, recipient text, "
        "created_at timestamptz, status text, task_id text)"
    )
    messages = [
        *[(d4, "paco", "done")] + [(d4, "Paco ", "pending")] * 3,  # a quarter handled; the spelling of a bot is one
        (d4, "sjakie", "done"),
        (d4, "sjakie", "DONE"),
        (d3, "paco", "done"),
        (d3, "paco", "pending"),
        (d3, "jamal", "pending"),  # the owner is no bot of the fleet: not counted
        (d2, "paco", "pending"),  # after paco's switch-on intake takes these: counted as its tasks, not here
        (d1, "sjakie", "pending"),  # sjakie is still on the old queue
    ]
    for day, recipient, status in messages:
        await conn.execute(
            "insert into agent_messages (content, sender, recipient, created_at, status) "
            "values ('x', 'jamal', $1, $2, $3)",
            recipient,
            await at(conn, day, "10:00"),
            status,
        )
    tasks = [  # id, status, created, finished
        ("HV-20261201-001", "klaar", (d2, "10:00"), (d2, "12:00")),
        ("HV-20261201-002", "wacht_op_mens", (d2, "13:00"), None),
        ("HV-20261201-003", "mislukt", (d1, "08:00"), (d1, "15:00")),
        ("HV-20261201-004", "geannuleerd", (d1, "08:00"), (d1, "17:00")),
    ]
    for task_id, status, created, finished in tasks:
        await conn.execute(
            "insert into agent_taken (id, titel, opdracht, opdrachtgever, toegewezen_aan, status, bewijs, aangemaakt, "
            "bijgewerkt, afgerond) values ($1, 't', 'o', 'jamal', 'paco', $2, $3, $4, $4, $5)",
            task_id,
            status,
            "/tmp/bewijs" if status == "klaar" else None,
            await at(conn, *created),
            await at(conn, *finished) if finished else None,
        )
    rows = [  # task, day, clock, soort, sessie, meta; in time order per task (the log's ids order it)
        ("001", d2, "10:01", "gestart", "s1", {}),  # a session that logged no step
        ("001", d2, "11:00", "gestart", "s2", {}),
        ("001", d2, "11:10", "stap_klaar", "s2", {}),
        ("001", d2, "11:30", "compact", "s2", {"rapport": "/r", "trigger": "auto"}),
        ("001", d2, "11:59", "notitie", "s2", {"resultaat": True, "total_cost_usd": 0.3}),
        ("001", d2, "12:00", "klaar", "s2", {}),
        ("002", d1, "09:00", "gestart", "s3", {}),
        ("002", d1, "09:05", "stap_klaar", "s3", {}),
        ("002", d1, "09:30", "vraag", "s3", {}),
        ("002", d1, "11:30", "antwoord", None, {}),  # waited 2 hours
        ("002", d1, "12:00", "vraag", "s3", {}),  # still waits: its hours so far, over 12
        ("003", d1, "13:00", "gestart", "s4", {}),
        ("003", d1, "14:00", "vraag", "s4", {}),
        ("003", d1, "14:59", "notitie", "s4", {"resultaat": True, "total_cost_usd": 0.2}),
        ("003", d1, "18:00", "antwoord", None, {}),  # waited 4 hours
        ("004", d1, "16:00", "vraag", None, {}),  # cancelled unanswered: asked, but no wait
    ]
    for task, day, clock, soort, sessie, meta in rows:
        await conn.execute(
            "insert into agent_taak_log (taak_id, ts, bot, soort, tekst, sessie, meta) "
            "values ($1, $2, 'paco', $3, 'x', $4, $5::jsonb)",
            f"HV-20261201-{task}",
            await at(conn, day, clock),
            soort,
            sessie,
            json.dumps(meta),
        )
    await conn.execute("set session_replication_role = origin")


def per_dag(env: dict[str, str], *options: str) -> dict[tuple[int, str | None], dict[str, Any]]:
    """The JSON rows by (days ago, bot), for the last five days."""
    result = run_taak(env, "overzicht", "--per-dag", "--dagen", "5", "--json", *options)
    assert result.code == 0, result.err
    rows = json.loads(result.out)["dagen"]
    last = date.fromisoformat(rows[-1]["dag"])
    return {((last - date.fromisoformat(r["dag"])).days, r["bot"]): r for r in rows}


async def test_the_day_table_counts_each_figure_on_its_day_and_the_old_queue_before_the_switch_on(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    today = await conn.fetchval("select taak_dag(now())")
    await seed(conn, today)
    rows = per_dag(cli_env)
    assert sorted(rows, key=lambda key: (key[0], key[1] or "")) == [
        (0, None),
        (1, None),
        (1, "paco"),
        (1, "sjakie"),
        (2, None),
        (2, "paco"),
        (3, None),
        (3, "paco"),
        (4, None),
        (4, "paco"),
        (4, "sjakie"),
    ]
    switched_on = (today - timedelta(days=2)).isoformat()

    def figures(row: dict[str, Any], *names: str) -> tuple[Any, ...]:
        return tuple(row[name] for name in names)

    old = ("berichten", "afgehandeld", "voor_aanzetten", "aangezet")  # counts: the share is theirs to make
    assert figures(rows[4, "paco"], *old) == (4, 1, True, switched_on)
    assert figures(rows[4, "sjakie"], *old) == (2, 2, True, None)
    assert figures(rows[4, None], *old) == (6, 3, True, switched_on)
    assert figures(rows[3, "paco"], *old) == (2, 1, True, switched_on)
    assert figures(rows[3, None], *old) == (2, 1, True, switched_on)  # the owner's message is no bot's
    # paco's message of that day is intake's; sjakie, never switched on, still has the old queue: read, none.
    assert figures(rows[2, None], *old) == (0, 0, False, switched_on)
    assert figures(rows[2, "paco"], "berichten", "afgehandeld") == (None, None)  # after its switch-on: not read
    assert figures(rows[1, "sjakie"], *old) == (1, 0, True, None)

    new = ("nieuw", "klaar", "mislukt", "sessies", "sessies_per_klare_taak", "sessies_zonder_stap")
    assert figures(rows[2, "paco"], *new) == (2, 1, 0, 2, 2.0, 1)
    assert figures(rows[1, "paco"], *new) == (2, 0, 1, 2, None, 1)
    assert figures(rows[2, "paco"], "compacties", "kosten_usd", "vragen") == (1, 0.3, 0)
    # Three waits: 2 h, 4 h, and the open question's hours so far (over 12); the cancelled one has none.
    assert figures(rows[1, "paco"], "vragen", "vraag_wacht_uren", "kosten_usd") == (4, 4.0, 0.2)
    assert figures(rows[1, None], "vragen", "vraag_wacht_uren", "berichten") == (4, 4.0, 1)
    assert figures(rows[0, None], *new, "berichten") == (0, 0, 0, 0, None, 0, 0)

    # Without a status column the share handled is unknown, not none; the messages are counted all the same.
    unknown = per_dag({**cli_env, "TAAK_INTAKE_STATUS_COLUMN": ""})
    assert figures(unknown[4, "paco"], "berichten", "afgehandeld") == (4, None)


async def test_the_text_shows_the_old_queue_exactly_where_the_json_does_the_fleets_too(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    """paco switched on first while sjakie still had the old queue: the text's fleet row said `-  -` on those
    days where --json said `"berichten": 1` (the text looked at the fleet's switch-on, the JSON at the counts)."""
    await seed(conn, await conn.fetchval("select taak_dag(now())"))
    text = run_taak(cli_env, "overzicht", "--per-dag", "--dagen", "5")
    given = run_taak(cli_env, "overzicht", "--per-dag", "--dagen", "5", "--json")
    assert text.code == given.code == 0, text.err + given.err
    rows = json.loads(given.out)["dagen"]
    lines = text.out.splitlines()[1:-1]  # one line per row, in the rows' order
    assert len(lines) == len(rows)
    for line, r in zip(lines, rows, strict=True):
        messages, handled = r["berichten"], r["afgehandeld"]
        share = f"{round(100 * handled / messages)}%" if messages and handled is not None else "-"
        assert line.split()[-2:] == ["-" if messages is None else str(messages), share], (line, r)
    yesterday = next(r for r in reversed(rows) if r["bot"] is None and r["berichten"])
    assert (yesterday["voor_aanzetten"], yesterday["berichten"], yesterday["afgehandeld"]) == (False, 1, 0)


async def test_the_days_are_the_runs_time_zone_as_the_cockpits_whatever_zone_the_database_keeps(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    """The command took the database's zone and the cockpit its own TAAK_TIMEZONE: with the same TAAK_TIMEZONE
    they showed different days. Both take the run's, as `taak toon` writes times and the cockpit's other pictures
    count days."""
    today = await conn.fetchval("select (now() at time zone 'UTC')::date")
    for zone in ("Etc/GMT-14", "Etc/GMT+12"):  # one of the two is on another day than UTC at any hour
        if await conn.fetchval("select (now() at time zone $1)::date <> $2", zone, today):
            await conn.execute(
                "insert into taak_instellingen (sleutel, waarde) values ('tijdzone', $1) "
                "on conflict (sleutel) do update set waarde = excluded.waarde",
                zone,
            )
            break
    assert await conn.fetchval("select taak_dag(now()) <> $1", today)  # the database's day is another
    result = run_taak({**cli_env, "TAAK_TIMEZONE": "UTC"}, "overzicht", "--per-dag", "--dagen", "1", "--json")
    assert result.code == 0, result.err
    assert [r["dag"] for r in json.loads(result.out)["dagen"]] == [today.isoformat()]


async def test_the_day_table_reads_no_old_queue_where_there_is_none(cli_env: dict[str, str]) -> None:
    result = run_taak(cli_env, "overzicht", "--per-dag", "--dagen", "3")
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert lines[0].split()[:3] == ["day", "bot", "new"]
    assert [line.split()[2] for line in lines[1:4]] == ["fleet"] * 3  # every day has the fleet's row
    assert [line.split()[-2:] for line in lines[1:4]] == [["-", "-"]] * 3  # not read: no count, not 0
    # It said that the days counted the messages in agent_messages, a table that is not there.
    assert lines[-1] == (
        "(no bot switched on yet (no session): the old queue is not counted: there is no agent_messages table)"
    )
    given = run_taak(cli_env, "overzicht", "--per-dag", "--dagen", "3", "--json")
    assert [(r["berichten"], r["afgehandeld"]) for r in json.loads(given.out)["dagen"]] == [(None, None)] * 3


async def test_an_old_queue_without_its_recipient_column_is_said_not_left_out_in_silence(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    """Every old-queue row vanished without a word when agent_messages had no recipient column."""
    await conn.execute(
        "create table public.agent_messages (id serial primary key, content text, created_at timestamptz)"
    )
    await conn.execute("insert into agent_messages (content, created_at) values ('x', now())")
    result = run_taak(cli_env, "overzicht", "--per-dag", "--dagen", "2")
    assert result.code == 0, result.err
    assert result.out.splitlines()[-1] == (
        "(no bot switched on yet (no session): the old queue is not counted: agent_messages has no column "
        "recipient (TAAK_INTAKE_*_COLUMN))"
    )


async def test_an_old_queue_without_its_status_column_is_counted_and_the_share_said_unknown(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    """A status column the table does not have is said, as intake says it; one switched off ("") is no news."""
    await conn.execute(
        "create table public.agent_messages (id serial primary key, content text, recipient text, "
        "created_at timestamptz)"
    )
    await conn.execute("insert into agent_messages (content, recipient, created_at) values ('x', 'paco', now())")
    result = run_taak(cli_env, "overzicht", "--per-dag", "--dagen", "1")
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert lines[1].split()[-2:] == ["1", "-"]
    assert lines[-1] == (
        "(no bot switched on yet (no session): every day also counts the messages in the old queue agent_messages; "
        "handled unknown: agent_messages has no column status (TAAK_INTAKE_*_COLUMN))"
    )
    switched_off = run_taak({**cli_env, "TAAK_INTAKE_STATUS_COLUMN": ""}, "overzicht", "--per-dag", "--dagen", "1")
    assert switched_off.out.splitlines()[-1] == (
        "(no bot switched on yet (no session): every day also counts the messages in the old queue agent_messages)"
    )


@pytest.mark.parametrize("given", ["0", "-3", "abc", "3661"])
def test_a_number_of_days_that_is_none_is_refused_in_one_line(cli_env: dict[str, str], given: str) -> None:
    """Named as argparse names every option's bad value; `3661 is too large` did not say which option."""
    result = run_taak(cli_env, "overzicht", "--per-dag", "--dagen", given)
    assert result.code == 2
    assert result.out == ""
    assert len(result.err.strip().splitlines()) == 1, result.err
    assert "argument --dagen: " in result.err


@pytest.mark.parametrize("given", ["3661", "99999999999999999999"])
def test_too_many_days_names_the_tables_own_limit(cli_env: dict[str, str], given: str) -> None:
    """Past the integer's range it named the integer's limit, 2147483647, not the table's (tester 61)."""
    result = run_taak(cli_env, "overzicht", "--per-dag", "--dagen", given)
    assert result.code == 2
    assert f"argument --dagen: {given} is too large (at most 3660)" in result.err


@pytest.mark.parametrize("zone", ["Pacific/Kiritimati", "Pacific/Pago_Pago"])
async def test_today_begins_at_the_households_midnight_on_the_overview_day(conn: asyncpg.Connection, zone: str) -> None:
    """The brake, the urgent questions and the digest count from taak_dag_begin, the overview by taak_dag: one day.
    Zones 25 hours apart, so that one of them is on another date than UTC whenever the test runs."""
    await conn.execute("update taak_instellingen set waarde = $1 where sleutel = 'tijdzone'", zone)
    begin = await conn.fetchval("select taak_dag_begin()")
    now = await conn.fetchval("select now()")
    local_today = now.astimezone(ZoneInfo(zone)).date()
    assert begin == datetime.combine(local_today, datetime.min.time(), ZoneInfo(zone))
    same_day, day_before = await conn.fetchrow(
        "select taak_dag(taak_dag_begin()), taak_dag(taak_dag_begin() - interval '1 microsecond')"
    )
    assert (same_day, day_before) == (local_today, local_today - timedelta(days=1))
