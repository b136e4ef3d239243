"""The rules of the schema are enforced by the database itself, whoever writes."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from datetime import datetime, timedelta

import asyncpg
import pytest

from worker.core.terminal import is_blank
from worker.db.sqlfiles import queries

INSERT = "insert into agent_taken (opdracht, opdrachtgever) values ($1, $2) returning id"


async def new_task(conn: asyncpg.Connection, opdracht: str = "doe iets") -> str:
    task_id: str = await conn.fetchval(INSERT, opdracht, "jamal")
    return task_id


@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("id", "'HV-20990101-001'"),
        ("opdracht", "'iets anders'"),
        ("opdrachtgever", "'iemand anders'"),
        ("aangemaakt", "now() - interval '1 day'"),
    ],
)
async def test_a_frozen_column_can_never_change(conn: asyncpg.Connection, column: str, value: str) -> None:
    task_id = await new_task(conn)
    with pytest.raises(asyncpg.CheckViolationError, match="are frozen"):
        await conn.execute(f"update agent_taken set {column} = {value} where id = $1", task_id)
    assert await conn.fetchval("select count(*) from agent_taken where id = $1", task_id) == 1


async def test_other_columns_can_change(conn: asyncpg.Connection) -> None:
    task_id = await new_task(conn)
    await conn.execute("update agent_taken set volgende_stap = 'verder', titel = 'kort' where id = $1", task_id)
    after = await conn.fetchrow("select volgende_stap, titel from agent_taken where id = $1", task_id)
    assert (after["volgende_stap"], after["titel"]) == ("verder", "kort")


async def test_a_task_that_stays_in_the_queue_is_not_announced_again(db_url: str, conn: asyncpg.Connection) -> None:
    task_id = await new_task(conn)
    listener = await asyncpg.connect(db_url)
    heard: asyncio.Queue[str] = asyncio.Queue()
    try:
        await listener.add_listener("taak_nieuw", lambda *args: heard.put_nowait(args[3]))
        await conn.execute("update agent_taken set volgende_stap = 'x', status = 'wachtend' where id = $1", task_id)
        await asyncio.sleep(0.3)
    finally:
        await listener.close()
    assert heard.empty()


@pytest.mark.parametrize(
    "statement",
    [
        "update agent_taak_log set tekst = 'anders'",
        "delete from agent_taak_log",
        "truncate agent_taak_log",
    ],
)
async def test_the_log_refuses_every_change(conn: asyncpg.Connection, statement: str) -> None:
    task_id = await new_task(conn)
    await conn.execute("insert into agent_taak_log (taak_id, soort, tekst) values ($1, 'notitie', 'x')", task_id)
    with pytest.raises(asyncpg.InsufficientPrivilegeError, match="append-only"):
        await conn.execute(statement)
    assert await conn.fetchval("select count(*) from agent_taak_log") == 1


async def test_the_log_refuses_an_unknown_kind(conn: asyncpg.Connection) -> None:
    task_id = await new_task(conn)
    with pytest.raises(asyncpg.CheckViolationError, match="soort_geldig"):
        await conn.execute("insert into agent_taak_log (taak_id, soort) values ($1, 'gedaan')", task_id)


async def test_the_log_refuses_a_row_for_a_task_that_does_not_exist(conn: asyncpg.Connection) -> None:
    with pytest.raises(asyncpg.ForeignKeyViolationError):
        await conn.execute("insert into agent_taak_log (taak_id, soort) values ('HV-20260101-001', 'notitie')")


async def test_status_must_be_one_of_the_five(conn: asyncpg.Connection) -> None:
    task_id = await new_task(conn)
    with pytest.raises(asyncpg.CheckViolationError, match="status_geldig"):
        await conn.execute("update agent_taken set status = 'pending' where id = $1", task_id)


async def test_bezig_needs_a_lease_and_a_token(conn: asyncpg.Connection) -> None:
    task_id = await new_task(conn)
    with pytest.raises(asyncpg.CheckViolationError, match="bezig_heeft_lease"):
        await conn.execute("update agent_taken set status = 'bezig' where id = $1", task_id)
    with pytest.raises(asyncpg.CheckViolationError, match="bezig_heeft_lease"):
        await conn.execute("update agent_taken set status = 'bezig', lease_tot = now() where id = $1", task_id)
    await conn.execute(
        "update agent_taken set status = 'bezig', lease_tot = now(), lease_token = gen_random_uuid() where id = $1",
        task_id,
    )


@pytest.mark.parametrize("bewijs", [None, "", "   "])
async def test_klaar_needs_evidence(conn: asyncpg.Connection, bewijs: str | None) -> None:
    task_id = await new_task(conn)
    with pytest.raises(asyncpg.CheckViolationError, match="klaar_heeft_bewijs"):
        await conn.execute("update agent_taken set status = 'klaar', bewijs = $2 where id = $1", task_id, bewijs)


async def test_pogingen_is_never_negative(conn: asyncpg.Connection) -> None:
    task_id = await new_task(conn)
    with pytest.raises(asyncpg.CheckViolationError, match="pogingen_niet_negatief"):
        await conn.execute("update agent_taken set pogingen = -1 where id = $1", task_id)


@pytest.mark.parametrize("opdracht", ["", "   ", "\n\t "])
async def test_a_blank_opdracht_is_refused(conn: asyncpg.Connection, opdracht: str) -> None:
    with pytest.raises(asyncpg.CheckViolationError, match="opdracht_niet_leeg"):
        await new_task(conn, opdracht)


async def test_an_opdracht_of_8000_characters_fits_and_8001_does_not(conn: asyncpg.Connection) -> None:
    await new_task(conn, "é" * 8000)
    with pytest.raises(asyncpg.CheckViolationError, match="opdracht_max_8000"):
        await new_task(conn, "é" * 8001)


@pytest.mark.parametrize("opdrachtgever", ["", "  \t"])
async def test_a_blank_opdrachtgever_is_refused(conn: asyncpg.Connection, opdrachtgever: str) -> None:
    with pytest.raises(asyncpg.CheckViolationError, match="opdrachtgever_niet_leeg"):
        await conn.execute(INSERT, "doe iets", opdrachtgever)


@pytest.mark.parametrize(
    ("assignment", "rule"),
    [
        ("context = '[1, 2]'::jsonb", "context_is_object"),
        ("max_pogingen = 0", "max_pogingen_positief"),
        ("toegewezen_aan = 'pa co'", "toegewezen_aan_naam"),
    ],
)
async def test_a_rule_of_a_column_holds_when_an_update_writes_it(
    conn: asyncpg.Connection, assignment: str, rule: str
) -> None:
    task_id = await new_task(conn)
    with pytest.raises(asyncpg.CheckViolationError, match=rule):
        await conn.execute(f"update agent_taken set {assignment} where id = $1", task_id)
    assert await conn.fetchval("select max_pogingen from agent_taken where id = $1", task_id) == 3


async def test_a_bot_name_is_kept_in_one_spelling_when_an_update_writes_it(conn: asyncpg.Connection) -> None:
    task_id = await new_task(conn)
    await conn.execute("update agent_taken set toegewezen_aan = '  Paco ' where id = $1", task_id)
    assert await conn.fetchval("select toegewezen_aan from agent_taken where id = $1", task_id) == "paco"


async def test_a_failed_task_tells_the_owner_once(conn: asyncpg.Connection) -> None:
    task_id = await new_task(conn)
    await conn.execute("update agent_taken set status = 'mislukt' where id = $1", task_id)
    await conn.execute("update agent_taken set volgende_stap = 'niets', status = 'mislukt' where id = $1", task_id)
    said = await conn.fetch("select soort, tekst from taak_meldingen where taak_id = $1", task_id)
    expected = ("mislukt", f"{task_id}: mislukt na 0 van 3 pogingen: doe iets")
    assert [(r["soort"], r["tekst"]) for r in said] == [expected]


async def test_a_question_tells_the_owner_only_when_the_task_waits_for_him(conn: asyncpg.Connection) -> None:
    waiting, running = await new_task(conn), await new_task(conn)
    token = await conn.fetchval("select gen_random_uuid()")
    for task_id in (waiting, running):
        await conn.execute(
            "update agent_taken set status = 'bezig', lease_tot = now() + interval '1 hour', lease_token = $2 "
            "where id = $1",
            task_id,
            token,
        )
    # `blokkeer` changes the task and logs the question in one statement: the message sees the new status.
    await conn.fetchrow(queries()["blokkeer"], waiting, token, "welk tarief?", None, "{}")
    await conn.execute("insert into agent_taak_log (taak_id, soort, tekst) values ($1, 'vraag', 'en nu?')", running)
    said = await conn.fetch("select taak_id, tekst from taak_meldingen where soort = 'vraag'")
    assert [(r["taak_id"], r["tekst"]) for r in said] == [(waiting, f"{waiting}: welk tarief?")]


async def test_a_refused_log_row_leaves_no_count_behind(conn: asyncpg.Connection) -> None:
    with pytest.raises(asyncpg.ForeignKeyViolationError):
        await conn.execute("insert into agent_taak_log (taak_id, soort) values ('HV-20260101-001', 'notitie')")
    assert await conn.fetchval("select count(*) from agent_taak_telling") == 0


async def test_no_rule_of_the_task_row_or_the_log_is_rebuilt_for_every_statement(conn: asyncpg.Connection) -> None:
    """Postgres rebuilds CHECK constraints and trigger WHEN clauses from their text for every statement that
    writes the table; migration 020 keeps the rules in row triggers, so that the claim, a log row and the finish
    pay for none of that."""
    checks = await conn.fetch(
        "select conrelid::regclass::text as tabel, conname from pg_constraint "
        "where contype = 'c' and conrelid in ('agent_taken'::regclass, 'agent_taak_log'::regclass)"
    )
    assert checks == []
    when_triggers = await conn.fetch(
        "select tgname, tgattr::int2[] as columns from pg_trigger "
        "where tgrelid in ('agent_taken'::regclass, 'agent_taak_log'::regclass) and not tgisinternal "
        "and tgqual is not null"
    )
    by_name = {r["tgname"]: r["columns"] for r in when_triggers}
    # Left: the frozen columns' guard, which only an update naming them looks at; and the announcement of a new
    # task, which only an insert of a task looks at (and which must see whether the insert happened).
    assert sorted(by_name) == ["agent_taken_bevroren", "agent_taken_meld_nieuw"]
    frozen = await conn.fetch(
        "select attname from pg_attribute where attrelid = 'agent_taken'::regclass and attnum = any($1::int2[]) "
        "order by attname",
        by_name["agent_taken_bevroren"],
    )
    assert [r["attname"] for r in frozen] == ["aangemaakt", "id", "opdracht", "opdrachtgever"]
    written = " ".join(queries().values()).lower()
    assert not re.search(r"\bset\b[^;]*\b(opdracht|opdrachtgever|aangemaakt)\s*=", written)


async def test_the_title_defaults_to_the_first_line_of_the_opdracht(conn: asyncpg.Connection) -> None:
    task_id = await new_task(conn, "\n  Maak de blog af  \nmet foto's")
    assert await conn.fetchval("select titel from agent_taken where id = $1", task_id) == "Maak de blog af"


async def test_a_title_made_from_a_first_line_that_ends_in_crlf_keeps_no_cr(conn: asyncpg.Connection) -> None:
    task_id = await new_task(conn, "Maak de blog af\r\nmet foto's")
    assert await conn.fetchval("select titel from agent_taken where id = $1", task_id) == "Maak de blog af"


@pytest.mark.parametrize(
    ("column", "value", "limit", "rule"),
    [
        ("titel", "t", 120, "titel_max_120"),
        ("opdrachtgever", "k", 64, "opdrachtgever_max_64"),
        ("klaar_wanneer", "w", 2000, "klaar_wanneer_max_2000"),
        ("volgende_stap", "v", 2000, "volgende_stap_max_2000"),
    ],
)
async def test_a_new_tasks_text_has_the_limit_the_taak_command_keeps_whoever_inserts_it(
    conn: asyncpg.Connection, column: str, value: str, limit: int, rule: str
) -> None:
    with_column = f"insert into agent_taken (opdracht, opdrachtgever, {column}) values ('doe iets', 'jamal', $1)"
    if column == "opdrachtgever":
        with_column = "insert into agent_taken (opdracht, opdrachtgever) values ('doe iets', $1)"
    await conn.execute(with_column, value * limit)
    with pytest.raises(asyncpg.CheckViolationError, match=rule):
        await conn.execute(with_column, value * (limit + 1))
    named = {"opdracht": "'doe iets'", "opdrachtgever": "'jamal'", column: "$1"}
    call = "select taak_nieuw(" + ", ".join(f"{name} => {given}" for name, given in named.items()) + ")"
    with pytest.raises(asyncpg.CheckViolationError, match=rule):  # the owner's own function makes it the same way
        await conn.execute(call, value * (limit + 1))
    assert await conn.fetchval("select count(*) from agent_taken") == 1


async def test_a_context_has_2000_characters_as_its_json_text(conn: asyncpg.Connection) -> None:
    insert = "insert into agent_taken (opdracht, opdrachtgever, context) values ('doe iets', 'jamal', $1::jsonb)"
    await conn.execute(insert, json.dumps({"k": "x" * 1991}))  # {"k": "..."}: 9 characters around the value
    with pytest.raises(asyncpg.CheckViolationError, match="context_max_2000"):
        await conn.execute(insert, json.dumps({"k": "x" * 1992}))


async def test_an_update_of_the_next_step_has_its_limit_and_one_that_names_it_not_is_not_checked(
    conn: asyncpg.Connection,
) -> None:
    task_id = await new_task(conn)
    with pytest.raises(asyncpg.CheckViolationError, match="volgende_stap_max_2000"):
        await conn.execute("update agent_taken set volgende_stap = $2 where id = $1", task_id, "v" * 2001)
    await conn.execute("update agent_taken set volgende_stap = $2 where id = $1", task_id, "v" * 2000)
    # A row from before the limit, as the fleet's database may hold one: the claim and the finish still work on it.
    await conn.execute("alter table agent_taken disable trigger agent_taken_nakijken_teksten")
    await conn.execute("update agent_taken set volgende_stap = $2 where id = $1", task_id, "v" * 3000)
    await conn.execute("alter table agent_taken enable trigger agent_taken_nakijken_teksten")
    await conn.execute("update agent_taken set prioriteit = 5 where id = $1", task_id)
    assert await conn.fetchval("select prioriteit from agent_taken where id = $1", task_id) == 5


@pytest.mark.parametrize("moment", ["12000-01-01", "infinity", "-infinity", "9999-06-01"])
async def test_a_due_date_the_command_and_the_daemon_cannot_read_is_refused_from_sql(
    conn: asyncpg.Connection, moment: str
) -> None:
    """A year past 9999 crashed the daemon after its claim, again at every restart; infinity too."""
    with pytest.raises(asyncpg.CheckViolationError, match="uiterlijk_leesbaar"):
        await conn.execute("select taak_nieuw('doe iets', 'cron', uiterlijk => $1::text::timestamptz)", moment)
    with pytest.raises(asyncpg.CheckViolationError, match="niet_voor_leesbaar"):
        await conn.execute("select taak_nieuw('doe iets', 'cron', niet_voor => $1::text::timestamptz)", moment)
    task_id = await new_task(conn)
    with pytest.raises(asyncpg.CheckViolationError, match="uiterlijk_leesbaar"):
        await conn.execute("update agent_taken set uiterlijk = $2::text::timestamptz where id = $1", task_id, moment)
    await conn.execute("update agent_taken set uiterlijk = '9998-12-31 23:59:59-05' where id = $1", task_id)


@pytest.mark.parametrize(
    ("assignment", "rule"),
    [
        ("titel = repeat('t', 121)", "titel_max_120"),
        ("klaar_wanneer = repeat('k', 2001)", "klaar_wanneer_max_2000"),
        ("context = jsonb_build_object('k', repeat('c', 3000))", "context_max_2000"),
        ("toegewezen_aan = repeat('a', 65)", "toegewezen_aan_max_64"),
    ],
)
async def test_an_update_that_names_a_text_keeps_its_limit(
    conn: asyncpg.Connection, assignment: str, rule: str
) -> None:
    task_id = await new_task(conn)
    with pytest.raises(asyncpg.CheckViolationError, match=rule):
        await conn.execute(f"update agent_taken set {assignment} where id = $1", task_id)


@pytest.mark.parametrize(
    ("bot", "meta", "rule"),
    [
        ("b" * 65, "{}", "bot_max_64"),
        ("paco", "[1]", "meta_leesbaar"),
        ("paco", '{"resultaat": true, "total_cost_usd": "abc"}', "meta_leesbaar"),
    ],
)
async def test_a_log_row_the_brake_could_not_sum_is_refused(
    conn: asyncpg.Connection, bot: str, meta: str, rule: str
) -> None:
    task_id = await new_task(conn)
    insert = "insert into agent_taak_log (taak_id, bot, soort, tekst, meta) values ($1, $2, 'notitie', 'x', $3::jsonb)"
    with pytest.raises(asyncpg.CheckViolationError, match=rule):
        await conn.execute(insert, task_id, bot, meta)
    await conn.execute(insert, task_id, "paco", '{"resultaat": true, "total_cost_usd": 0.0123}')


async def test_a_log_rows_text_has_100000_characters_at_most(conn: asyncpg.Connection) -> None:
    task_id = await new_task(conn)
    insert = "insert into agent_taak_log (taak_id, soort, tekst) values ($1, 'notitie', $2)"
    await conn.execute(insert, task_id, "é" * 100_000)
    with pytest.raises(asyncpg.CheckViolationError, match="tekst_max_100000"):
        await conn.execute(insert, task_id, "é" * 100_001)


async def test_the_database_sees_blank_text_as_the_taak_command_does(conn: asyncpg.Connection) -> None:
    """Every code point the command calls blank (zero-width, format, other spaces), and none other."""
    blank_in_sql = await conn.fetch(
        "select c from generate_series(1, 1114111) c where c not between 55296 and 57343 and not taak_zichtbaar(chr(c))"
    )
    blank_in_python = [c for c in range(1, sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF and is_blank(chr(c))]
    assert [r["c"] for r in blank_in_sql] == blank_in_python


@pytest.mark.parametrize(
    ("opdracht", "opdrachtgever", "rule"),
    [
        ("\u200b\u2060\ufeff", "jamal", "opdracht_niet_leeg"),
        ("doe iets", "\u200b\u3000", "opdrachtgever_niet_leeg"),
        ("doe iets", "jamal\nof toch", "opdrachtgever_een_regel"),
        ("doe iets", "jamal\u2028", "opdrachtgever_een_regel"),
    ],
)
async def test_a_task_the_taak_command_would_refuse_as_blank_is_refused_from_sql_too(
    conn: asyncpg.Connection, opdracht: str, opdrachtgever: str, rule: str
) -> None:
    with pytest.raises(asyncpg.CheckViolationError, match=rule):
        await conn.execute(INSERT, opdracht, opdrachtgever)
    with pytest.raises(asyncpg.CheckViolationError, match=rule):
        await conn.execute("select taak_nieuw($1, $2)", opdracht, opdrachtgever)
    assert await conn.fetchval("select count(*) from agent_taken") == 0


async def test_a_log_row_names_a_writer_a_reader_can_see_or_none(conn: asyncpg.Connection) -> None:
    task_id = await new_task(conn)
    insert = "insert into agent_taak_log (taak_id, bot, soort, tekst) values ($1, $2, 'notitie', 'x')"
    for invisible in ("", " ", "\u200b\u200d"):
        with pytest.raises(asyncpg.CheckViolationError, match="bot_niet_leeg"):
            await conn.execute(insert, task_id, invisible)
    await conn.execute(insert, task_id, None)
    await conn.execute(insert, task_id, "paco")
    assert await conn.fetchval("select count(*) from agent_taak_log where taak_id = $1", task_id) == 2


async def test_ids_are_readable_and_count_per_day(conn: asyncpg.Connection) -> None:
    first, second = await new_task(conn), await new_task(conn)
    today = await conn.fetchval("select to_char(now() at time zone 'Europe/Amsterdam', 'YYYYMMDD')")
    assert first == f"HV-{today}-001"
    assert second == f"HV-{today}-002"


async def test_fifty_concurrent_inserts_get_fifty_distinct_consecutive_ids(pool: asyncpg.Pool) -> None:
    ids = await asyncio.gather(*(pool.fetchval(INSERT, f"taak {n}", "jamal") for n in range(50)))
    assert len(set(ids)) == 50
    assert all(re.fullmatch(r"HV-\d{8}-\d{3}", task_id) for task_id in ids)
    assert sorted(int(task_id.rsplit("-", 1)[1]) for task_id in ids) == list(range(1, 51))


async def test_the_counter_grows_past_999(conn: asyncpg.Connection) -> None:
    today = await conn.fetchval("select (now() at time zone 'Europe/Amsterdam')::date")
    await conn.execute("insert into agent_taak_teller (dag, laatste) values ($1, 999)", today)
    task_id = await new_task(conn)
    assert task_id.endswith("-1000")


async def test_an_id_is_never_reused_after_its_task_is_gone(conn: asyncpg.Connection) -> None:
    first = await new_task(conn)
    await conn.execute("delete from agent_taken where id = $1", first)
    second = await new_task(conn)
    assert second != first


async def test_the_day_rolls_over_at_midnight_in_the_configured_time_zone(conn: asyncpg.Connection) -> None:
    # Amsterdam is UTC+1 in November: 22:59:59 UTC is still the 29th there, 23:00 UTC is the 30th.
    before = await conn.fetchval("select taak_volgend_id('2026-11-29 22:59:59+00')")
    after = await conn.fetchval("select taak_volgend_id('2026-11-29 23:00:00+00')")
    assert before == "HV-20261129-001"
    assert after == "HV-20261130-001"


async def test_the_time_zone_setting_moves_the_day(conn: asyncpg.Connection) -> None:
    await conn.execute("update taak_instellingen set waarde = 'Asia/Tokyo' where sleutel = 'tijdzone'")
    # 15:30 UTC is already the next day in Tokyo (UTC+9).
    assert await conn.fetchval("select taak_volgend_id('2026-11-29 15:30:00+00')") == "HV-20261130-001"


@pytest.mark.parametrize(
    "task_id",
    [
        "TAAK-1",
        "HV-20261399-001",
        "HV-00000000-000",
        "HV-20261201-01",
        "HV-20260230-001",  # dates the calendar has not (migration 022)
        "HV-20270229-001",
        "HV-20260431-001",
        "HV-00000101-001",
    ],
)
async def test_an_id_of_the_wrong_shape_is_refused(conn: asyncpg.Connection, task_id: str) -> None:
    """The shape the taak command reads: an ID it would refuse to name never gets in (it took `claim` down)."""
    with pytest.raises(asyncpg.CheckViolationError, match="agent_taken_id_check"):
        await conn.execute("insert into agent_taken (id, opdracht, opdrachtgever) values ($1, 'x', 'jamal')", task_id)


@pytest.mark.parametrize(
    "task_id",
    ["HV-20280229-001", "HV-20261231-001", "HV-20260131-999", "HV-00010101-001", "HV-99991231-1000", "HV-20260230-001"],
)
async def test_the_database_and_the_taak_command_agree_on_what_is_a_task_id(
    conn: asyncpg.Connection, task_id: str
) -> None:
    from worker.core.model import is_task_id

    try:
        await conn.execute("insert into agent_taken (id, opdracht, opdrachtgever) values ($1, 'x', 'jamal')", task_id)
        taken = True
    except asyncpg.CheckViolationError:
        taken = False
    assert taken == is_task_id(task_id)


async def test_a_null_opdracht_is_named(conn: asyncpg.Connection) -> None:
    with pytest.raises(asyncpg.NotNullViolationError, match='column "opdracht"'):
        await conn.execute(INSERT, None, "jamal")


async def test_a_log_row_that_turns_into_nothing_is_neither_counted_nor_told(conn: asyncpg.Connection) -> None:
    waiting = await new_task(conn)
    await conn.execute("update agent_taken set status = 'wacht_op_mens' where id = $1", waiting)
    row_id = await conn.fetchval(
        "insert into agent_taak_log (taak_id, soort, tekst) values ($1, 'notitie', 'eerste') returning id", waiting
    )
    for soort in ("vraag", "notitie"):
        await conn.execute(
            "insert into agent_taak_log (id, taak_id, soort, tekst) overriding system value "
            "values ($1, $2, $3, 'nog eens') on conflict do nothing",
            row_id,
            waiting,
            soort,
        )
    counted = await conn.fetch("select soort, aantal from agent_taak_telling where taak_id = $1", waiting)
    assert [(r["soort"], r["aantal"]) for r in counted] == [("notitie", 1)]
    assert await conn.fetchval("select count(*) from taak_meldingen") == 0


async def test_a_question_logged_before_its_task_waits_in_the_same_statement_still_tells_the_owner(
    conn: asyncpg.Connection,
) -> None:
    task_id = await new_task(conn)
    await conn.execute(
        "with l as (insert into agent_taak_log (taak_id, soort, tekst) values ($1, 'vraag', 'welke kleur?') "
        "returning taak_id) update agent_taken t set status = 'wacht_op_mens' from l where t.id = l.taak_id",
        task_id,
    )
    assert await conn.fetchval("select tekst from taak_meldingen where soort = 'vraag'") == f"{task_id}: welke kleur?"


async def test_an_insert_that_turns_into_nothing_announces_nothing(db_url: str, conn: asyncpg.Connection) -> None:
    finished = await conn.fetchval(
        "insert into agent_taken (opdracht, opdrachtgever, status, bewijs) values ('af', 'jamal', 'klaar', 'b') "
        "returning id"
    )
    listener = await asyncpg.connect(db_url)
    heard: asyncio.Queue[str] = asyncio.Queue()
    try:
        await listener.add_listener("taak_nieuw", lambda *args: heard.put_nowait(args[3]))
        await conn.execute(
            "insert into agent_taken (id, opdracht, opdrachtgever) values ($1, 'x', 'y') on conflict do nothing",
            finished,
        )
        await asyncio.sleep(0.3)
    finally:
        await listener.close()
    assert heard.empty()


async def test_a_new_task_is_announced_and_a_log_row_is_not(db_url: str, conn: asyncpg.Connection) -> None:
    """Only a task becoming claimable notifies: a NOTIFY per log row serialised every writer at commit."""
    listener = await asyncpg.connect(db_url)
    heard: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
    try:
        for channel in ("taak_nieuw", "taak_log"):
            await listener.add_listener(channel, lambda _c, _p, ch, payload: heard.put_nowait((ch, payload)))
        await conn.execute("insert into agent_taak_log (taak_id, soort) values ($1, 'notitie')", await new_task(conn))
        task_id = await new_task(conn)  # after the log row: heard only once the row's notification would be
        first = await asyncio.wait_for(heard.get(), 5)
        second = await asyncio.wait_for(heard.get(), 5)
    finally:
        await listener.close()
    assert [first[0], second[0]] == ["taak_nieuw", "taak_nieuw"]
    assert task_id in second[1]


async def test_a_task_put_back_in_the_queue_is_announced_again(db_url: str, conn: asyncpg.Connection) -> None:
    task_id = await new_task(conn)
    await conn.execute(
        "update agent_taken set status = 'bezig', lease_tot = now(), lease_token = gen_random_uuid() where id = $1",
        task_id,
    )
    listener = await asyncpg.connect(db_url)
    heard: asyncio.Queue[str] = asyncio.Queue()
    try:
        await listener.add_listener("taak_nieuw", lambda *args: heard.put_nowait(args[3]))
        await conn.execute("update agent_taken set status = 'wachtend' where id = $1", task_id)
        payload = await asyncio.wait_for(heard.get(), 5)
    finally:
        await listener.close()
    assert task_id in payload


async def index_scans(conn: asyncpg.Connection, indexes: list[str], query: str, *args: object) -> dict[str, int]:
    """How often the statement scanned each index, counted by the server in the statement's own transaction
    (this sees into the functions it calls, where EXPLAIN stops at the call)."""
    async with conn.transaction():
        await conn.fetch(query, *args)
        return {name: await conn.fetchval("select pg_stat_get_xact_numscans($1::regclass)", name) for name in indexes}


async def test_the_claim_query_uses_its_indexes(conn: asyncpg.Connection) -> None:
    await conn.executemany(INSERT, [(f"taak {n}", "jamal") for n in range(300)])
    await conn.execute("analyze agent_taken")
    indexes = ["agent_taken_claim_per_bot", "agent_taken_claim_iedereen", "agent_taken_pkey"]
    scans = await index_scans(conn, indexes, queries()["claim"], ["paco", "coco"], 1200, "vm", None, [], False)
    assert scans["agent_taken_claim_per_bot"] == 2, scans  # one look at the head of each bot's queue
    assert scans["agent_taken_claim_iedereen"] == 1, scans


async def buffers_read(conn: asyncpg.Connection, query: str, *args: object) -> int:
    """Shared buffers the statement touched, executed (EXPLAIN ANALYZE): a count of work that does not
    depend on the machine's speed, unlike a timing."""
    plan = await conn.fetchval("explain (analyze, buffers, format json) " + query, *args)
    found = plan if isinstance(plan, list) else json.loads(plan)
    top = found[0]["Plan"]
    return int(top.get("Shared Hit Blocks", 0)) + int(top.get("Shared Read Blocks", 0))


async def claim_buffers_read(conn: asyncpg.Connection, bots: list[str]) -> int:
    """The claim's buffers once its plan is made: the first call after an ANALYZE plans the function's statements
    afresh and reads the catalog for it, hundreds of buffers when other sessions' DDL has just reset the caches
    (as on a busy CI server). A claim for a bot with no tasks makes the plan and claims nothing. Such catalog
    reads can come back at any call while other runs make and drop databases, and they only ever add: the least
    of three claims counts the claim's own work (the first two are rolled back, the last one claims)."""
    args = (bots, 1200, "vm", None, [], False)
    await conn.fetch(queries()["claim"], ["niemand"], *args[1:])
    counts = []
    for _ in range(2):
        attempt = conn.transaction()
        await attempt.start()
        try:
            counts.append(await buffers_read(conn, queries()["claim"], *args))
        finally:
            await attempt.rollback()
    counts.append(await buffers_read(conn, queries()["claim"], *args))
    return min(counts)


@pytest.mark.slow  # tens of thousands of rows inserted and analyzed: 15-55 s on a busy machine
async def test_the_claim_does_not_grow_with_other_bots_backlogs(conn: asyncpg.Connection) -> None:
    await conn.execute(
        "insert into agent_bots (bot, actief) values ('coco', false), ('paco', false) on conflict do nothing"
    )
    await conn.execute(
        "insert into agent_taken (opdracht, opdrachtgever, toegewezen_aan) "
        "select 'coco ' || n, 'jamal', 'coco' from generate_series(1, 1000) n"
    )
    await conn.execute(
        "insert into agent_taken (opdracht, opdrachtgever, toegewezen_aan) values ('mijn', 'jamal', 'paco')"
    )
    await conn.execute("analyze agent_taken")
    small = await claim_buffers_read(conn, ["paco"])
    await conn.execute("update agent_taken set status = 'wachtend', lease_tot = null, lease_token = null")
    await conn.execute(
        "insert into agent_taken (opdracht, opdrachtgever, toegewezen_aan) "
        "select 'coco ' || n, 'jamal', 'coco' from generate_series(1, 30000) n"
    )
    await conn.execute("analyze agent_taken")
    large = await claim_buffers_read(conn, ["paco"])
    pages = await conn.fetchval("select relpages from pg_class where relname = 'agent_taken'")
    # 31,000 of coco's tasks ahead: a walk past them would read the table's hundreds of pages; the claim reads
    # a deeper index and its own writes, a few dozen buffers either way.
    assert pages > 400
    assert large < min(small + 80, pages // 4), (small, large, pages)


async def many_for_other_skills(conn: asyncpg.Connection, count: int) -> None:
    """`count` waiting tasks for anyone that need beeld, older than any other task: ahead of them in claim order."""
    await conn.execute(
        "insert into agent_taken (opdracht, opdrachtgever, nodig, aangemaakt, prioriteit) "
        "select 'beeld ' || n, 'jamal', 'beeld', now() - interval '1 day', 5 from generate_series(1, $1) n",
        count,
    )
    await conn.execute("analyze agent_taken")


async def test_the_claim_walks_each_skills_queue_on_its_index(conn: asyncpg.Connection) -> None:
    await conn.execute("insert into agent_bots (bot) values ('paco'), ('sjakie')")
    await conn.execute("insert into taak_vaardigheden (vaardigheid) values ('audio'), ('beeld')")
    await conn.execute("insert into taak_bot_vaardigheden values ('paco', 'audio'), ('sjakie', 'beeld')")
    await many_for_other_skills(conn, 3000)
    await conn.execute("insert into agent_taken (opdracht, opdrachtgever, nodig) values ('mix', 'jamal', 'audio')")
    await conn.execute("analyze agent_taken")
    indexes = ["agent_taken_claim_per_bot", "agent_taken_claim_nodig", "agent_taken_claim_iedereen"]
    scans = await index_scans(conn, indexes, queries()["claim"], ["paco"], 1200, "vm", None, [], False)
    # One look at the head of paco's own queue, of the audio queue, and of the queue for anyone with no need.
    assert scans == dict.fromkeys(indexes, 1), scans
    plan = "\n".join(r[0] for r in await conn.fetch("explain " + CLAIM_NODIG_HEAD, "audio"))
    assert "Index Scan using agent_taken_claim_nodig" in plan, plan
    assert "Sort" not in plan, plan


# The claim's walk of one skill's queue (sql/functions/40_taak_claim.sql, `voor_de_vaardigheden`), as it reads it.
CLAIM_NODIG_HEAD = """
select t.id, t.prioriteit, t.aangemaakt from agent_taken t
where t.status = 'wachtend' and t.toegewezen_aan is null and t.nodig = $1
  and not (t.id = any('{}'::text[])) and (t.niet_voor is null or t.niet_voor <= now())
order by t.prioriteit desc, t.aangemaakt, t.id
limit 1
for update skip locked
"""


@pytest.mark.slow  # tens of thousands of rows inserted and analyzed: 15-55 s on a busy machine
async def test_the_claim_does_not_grow_with_other_skills_backlogs(conn: asyncpg.Connection) -> None:
    await conn.execute("insert into agent_bots (bot) values ('paco'), ('sjakie')")
    await conn.execute("insert into taak_vaardigheden (vaardigheid) values ('audio'), ('beeld')")
    await conn.execute("insert into taak_bot_vaardigheden values ('paco', 'audio'), ('sjakie', 'beeld')")
    await conn.execute("insert into agent_taken (opdracht, opdrachtgever, nodig) values ('mix', 'jamal', 'audio')")
    await many_for_other_skills(conn, 1000)
    small = await claim_buffers_read(conn, ["paco"])
    await conn.execute("update agent_taken set status = 'wachtend', lease_tot = null, lease_token = null")
    await many_for_other_skills(conn, 30000)
    large = await claim_buffers_read(conn, ["paco"])
    claimed = await conn.fetch("select opdracht from agent_taken where status = 'bezig'")
    pages = await conn.fetchval("select relpages from pg_class where relname = 'agent_taken'")
    # 31,000 tasks that need beeld ahead of paco's in claim order: a walk past them would read hundreds of pages.
    assert [r["opdracht"] for r in claimed] == ["mix"]
    assert pages > 400
    assert large < min(small + 80, pages // 4), (small, large, pages)


async def test_the_daemons_claim_does_not_grow_with_other_bots_steps_today(conn: asyncpg.Connection) -> None:
    # Every bot has a sessions brake by default, so the daemon's claim counts the claiming bot's day.
    await conn.execute("insert into agent_bots (bot, actief) values ('paco', true), ('coco', true)")
    claim = queries()["claim"]
    args = (["paco"], 1200, "vm", None, [], True)

    async def buffers_of_one_claim() -> int:
        await conn.execute(
            "insert into agent_taken (opdracht, opdrachtgever, toegewezen_aan) values ('mijn', 'jamal', 'paco')"
        )
        touched = await buffers_read(conn, claim, *args)
        waiting = "select count(*) from agent_taken where status = 'wachtend' and toegewezen_aan = 'paco'"
        assert await conn.fetchval(waiting) == 0
        return touched

    await buffers_of_one_claim()  # the first one also plans the function's statements
    small = await buffers_of_one_claim()
    coco = await conn.fetchval(
        "insert into agent_taken (opdracht, opdrachtgever, toegewezen_aan) values ('van coco', 'jamal', 'coco') "
        "returning id"
    )
    await conn.execute(
        "insert into agent_taak_log (taak_id, bot, soort, meta) "
        "select $1, 'coco', case when n % 2 = 0 then 'gestart' else 'notitie' end, "
        '\'{"resultaat": "ok", "total_cost_usd": 0.01}\' from generate_series(1, 20000) n',
        coco,
    )
    await conn.execute("analyze agent_taak_log")
    await buffers_of_one_claim()  # new statistics: planned again
    large = await buffers_of_one_claim()
    # 20,000 of coco's rows today: counting paco's day past them would read a few hundred buffers.
    assert large < small + 30, (small, large)


async def test_the_last_rows_of_a_task_use_the_log_index(conn: asyncpg.Connection) -> None:
    # The adversarial shape: an old task with a long log, then many newer tasks after it.
    old = await new_task(conn)
    insert_row = "insert into agent_taak_log (taak_id, soort) values ($1, 'notitie')"
    await conn.executemany(insert_row, [(old,)] * 2000)
    newer = [await new_task(conn) for _ in range(300)]
    await conn.executemany(insert_row, [(task_id,) for task_id in newer for _ in range(10)])
    await conn.execute("analyze agent_taak_log")
    rows = await conn.fetch("explain " + queries()["laatste_regels"], old, 8)
    assert "agent_taak_log_taak" in "\n".join(r[0] for r in rows)


@pytest.mark.slow  # tens of thousands of rows inserted and analyzed: 15-55 s on a busy machine
async def test_the_last_rows_of_a_task_do_not_grow_with_other_tasks_logs(conn: asyncpg.Connection) -> None:
    old = await new_task(conn)
    insert_row = "insert into agent_taak_log (taak_id, soort) values ($1, 'notitie')"
    await conn.executemany(insert_row, [(old,)] * 20)
    other = await new_task(conn)
    small = await buffers_read(conn, queries()["laatste_regels"], old, 8)
    await conn.execute(
        "insert into agent_taak_log (taak_id, soort) select $1, 'notitie' from generate_series(1, 50000)", other
    )
    await conn.execute("analyze agent_taak_log")
    for _ in range(6):  # past the point where a prepared statement may switch to a generic plan
        large = await buffers_read(conn, queries()["laatste_regels"], old, 8)
    pages = await conn.fetchval("select relpages from pg_class where relname = 'agent_taak_log'")
    assert pages > 200  # a backward walk past the other task's rows would read them
    assert large < min(small + 80, pages // 4), (small, large, pages)


async def test_the_count_per_kind_follows_every_insert(conn: asyncpg.Connection) -> None:
    task_id = await new_task(conn)
    moment = datetime.now().astimezone() - timedelta(seconds=1)
    for soort in ("notitie", "stap_klaar", "stap_klaar"):
        await conn.execute("insert into agent_taak_log (taak_id, soort) values ($1, $2)", task_id, soort)
    counts = {
        r["soort"]: r["aantal"]
        for r in await conn.fetch("select soort, aantal from agent_taak_telling where taak_id = $1", task_id)
    }
    assert counts == {"notitie": 1, "stap_klaar": 2}
    eerste = await conn.fetchval("select min(eerste) from agent_taak_telling where taak_id = $1", task_id)
    assert eerste > moment
