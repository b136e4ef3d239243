"""Intake from the old queue table: two daemons, 1,000 messages, each message taken exactly once."""

from __future__ import annotations

from pathlib import Path

import asyncpg
import pytest

from tests.helpers import ledger_on
from tests.system.harness import Daemon, InProcess, wait_for, worker_env
from worker.db.ledger import NewTask

OLD_TABLE = """
create table agent_messages (
    id serial primary key, sender text, recipient text, content text, created_at timestamptz default now()
)
"""


@pytest.mark.slow
async def test_two_daemons_take_each_of_1000_messages_exactly_once(
    db_url: str, pool: asyncpg.Pool, tmp_path: Path
) -> None:
    ledger = ledger_on(pool)
    waiting = await ledger.nieuw(NewTask("Kies een kleur", "jamal", toegewezen_aan="sjakie"))
    claim = await ledger.claim(["sjakie"])
    assert claim is not None
    await ledger.blokkeer(waiting, "rood of blauw?", token=claim.token)
    other = await ledger.nieuw(NewTask("Iets anders", "jamal", toegewezen_aan="sjakie"))
    await pool.execute(OLD_TABLE)
    messages = (
        [("kimi", "paco", f"nieuwe opdracht {n}") for n in range(900)]
        + [("jamal", "paco", f"{waiting}: blauw ({n})") for n in range(50)]
        + [("conductor", "paco", f"over {other}: nog iets ({n})") for n in range(50)]
        + [("kimi", "coco", "voor een bot die hier niet draait")]
    )
    await pool.executemany("insert into agent_messages (sender, recipient, content) values ($1, $2, $3)", messages)
    await pool.execute("insert into agent_bots (bot, actief) values ('paco', true)")
    daemons = [
        Daemon(
            worker_env(
                db_url,
                tmp_path / name,
                mode="hang",
                TAAK_MACHINE=name,
                TAAK_SILENCE_TIMEOUT_SECONDS="300",
                TAAK_SHUTDOWN_GRACE_SECONDS="0.2",
                TAAK_KILL_GRACE_SECONDS="1",
                TAAK_INTAKE_STATUS_COLUMN="",  # this old table has no status column
            ),
            tmp_path / f"{name}.log",
        )
        for name in ("mac-a", "mac-b")
    ]
    try:
        await wait_for(lambda: _taken(pool, 1000), timeout=120, what="1,000 messages taken")
    finally:
        for daemon in daemons:
            daemon.stop()
    assert await pool.fetchval("select count(*) from agent_messages where task_id is null") == 1  # coco's
    new_tasks = await pool.fetch("select id, opdracht, opdrachtgever from agent_taken where opdrachtgever = 'kimi'")
    assert len(new_tasks) == 900
    assert len({t["opdracht"] for t in new_tasks}) == 900
    kinds = await pool.fetch(
        "select soort, count(*) from agent_taak_log where taak_id = $1 and soort in "
        "('antwoord', 'notitie') and tekst like '%blauw (%' group by soort",
        waiting,
    )
    assert dict((r["soort"], r["count"]) for r in kinds) == {"antwoord": 1, "notitie": 49}
    assert (
        await pool.fetchval("select count(*) from agent_taak_log where taak_id = $1 and bot = 'conductor'", other) == 50
    )
    joined = await pool.fetchval("select count(*) from agent_messages where parent_id is not null")
    assert joined == 100
    assert all(d.has_event("worker_started") for d in daemons)
    assert sum(1 for d in daemons if d.has_event("intake")) == 2


async def test_without_the_old_table_intake_is_off_and_says_so_once(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    daemon = InProcess(worker_env(db_url, tmp_path, TAAK_POLL_SECONDS="0.2"), tmp_path / "worker.log")
    try:
        await wait_for(lambda: _event(daemon, "intake_off"), what="the notice")
        import anyio

        await anyio.sleep(1)
    finally:
        await daemon.stop()
    assert [e.get("event") for e in daemon.events()].count("intake_off") == 1


async def _taken(pool: asyncpg.Pool, count: int) -> bool:
    try:
        return await pool.fetchval("select count(*) from agent_messages where task_id is not null") >= count
    except asyncpg.UndefinedColumnError:  # the daemons add the column when they start
        return False


async def _event(daemon: Daemon | InProcess, name: str) -> bool:
    return daemon.has_event(name)


async def test_a_message_whose_sender_is_too_long_for_a_name_is_unusable_and_makes_no_task(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    from tests.helpers import run_taak

    await conn.execute(OLD_TABLE)
    message_id = await conn.fetchval(
        "insert into agent_messages (sender, recipient, content) values ($1, 'paco', 'Vervang de lamp') returning id",
        "k" * 65,  # the ledger takes a name (--van) of 64 characters at most
    )
    refused = run_taak({**cli_env, "TAAK_INTAKE_STATUS_COLUMN": ""}, "intake", "neem", str(message_id))
    assert refused.code == 1, refused.err  # the intake's own word for it, with the ledger's reason
    assert f"{message_id}" in refused.err
    assert "--van" in refused.err
    assert await conn.fetchval("select count(*) from agent_taken") == 0


async def test_a_message_to_a_task_longer_than_any_text_is_unusable_and_adds_no_row(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    from tests.helpers import run_taak

    task_id = run_taak(cli_env, "nieuw", "Vervang de lamp", "--van", "jamal").out.strip()
    rows = await conn.fetchval("select count(*) from agent_taak_log")
    await conn.execute(OLD_TABLE)
    message_id = await conn.fetchval(
        "insert into agent_messages (sender, recipient, content) values ('jamal', 'paco', $1) returning id",
        f"{task_id}: " + "lang " * 20_001,  # past the 100,000 characters of a log line
    )
    refused = run_taak(
        {**cli_env, "TAAK_INTAKE_STATUS_COLUMN": "", "TAAK_LANGUAGE": "nl"}, "intake", "neem", str(message_id)
    )
    assert refused.code == 1, refused.err
    assert refused.err == (  # why, in the run's language, and nothing else
        f"taak: bericht {message_id} kan geen taak worden en bij geen taak horen: "
        "tekst heeft 100022 tekens; maximaal 100000\n"
    )
    assert await conn.fetchval("select count(*) from agent_taak_log") == rows


async def test_the_preview_judges_a_message_of_invisible_characters_blank_as_the_ledger_does(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    """A zero-width space and a soft hyphen draw nothing: the ledger refuses such an opdracht, so the preview
    must not count it as a task to be."""
    import json

    from tests.helpers import run_taak

    await conn.execute(OLD_TABLE)
    await conn.executemany(
        "insert into agent_messages (sender, recipient, content) values ('jamal', 'paco', $1)",
        [("Vervang de lamp",), ("\u200b\u00ad",), (" \u3000\n",), ("\ufeff\u2060",)],
    )
    env = {**cli_env, "TAAK_INTAKE_STATUS_COLUMN": "", "TAAK_INTAKE_VANAF": "2000-01-01T00:00:00+00:00"}
    shown = run_taak(env, "intake", "voorbeeld", "--json")
    assert shown.code == 0, shown.err
    assert json.loads(shown.out)["totaal"] == {"taak": 1, "onbruikbaar": 3}
    text = run_taak({**env, "TAAK_LANGUAGE": "en"}, "intake", "voorbeeld").out
    lines = text.splitlines()
    table = lines[lines.index("per recipient:") + 1 :]
    header, paco = table[0], table[1]
    # A header row whose numbers stand right-aligned under it, in the run's language around it.
    assert paco.split()[:3] == ["paco", "1", "0"]
    assert paco.index("1") + 1 == header.index("taak") + len("taak")
    assert "(nothing was changed" in text


# --- the skipped backlog: the owner decides (issue 41) ------------------------------------------------------

BACKLOG_TABLE = """
create table agent_messages (
    id serial primary key, sender text, recipient text, content text, status text, created_at timestamptz,
    task_id text, parent_id text
)
"""


async def backlog(conn: asyncpg.Connection, count: int = 6) -> list[int]:
    """Messages the old worker left open long before the cut-off, for paco and sjakie, and one it handled, in a
    table the baseline migration gave its columns."""
    await conn.execute(BACKLOG_TABLE)
    rows = [
        ("conductor", "Paco", f"stille pending {n}", "pending", f"2026-0{7 + n % 2}-1{n % 10}") for n in range(count)
    ]
    rows += [
        ("kimi", "sjakie", "voor sjakie", "pending", "2026-08-01"),
        ("jamal", "paco", "gedaan", "done", "2026-07-02"),
    ]
    ids = await conn.fetch(
        "insert into agent_messages (sender, recipient, content, status, created_at) "
        "select s, r, c, st, t::timestamptz from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) "
        "as m(s, r, c, st, t) returning id",
        *[list(column) for column in zip(*rows, strict=True)],
    )
    return [r["id"] for r in ids]


async def state(conn: asyncpg.Connection) -> list[tuple[object, ...]]:
    messages = await conn.fetch("select id, task_id from agent_messages order by id")
    tasks = await conn.fetch("select id, opdracht from agent_taken order by id")
    return [tuple(r) for r in messages] + [tuple(t) for t in tasks]


async def test_the_bulk_intake_takes_each_backlog_message_once_and_a_second_run_takes_nothing(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    from tests.helpers import run_taak

    await backlog(conn)
    shown = run_taak(cli_env, "intake", "neem", "--alle", "--aan", "paco")
    assert shown.code == 0, shown.err
    assert "conductor  paco  2026-07" in shown.out
    assert "stille pending 0" in shown.out
    assert shown.out.splitlines()[-1] == "(nothing was changed: --ja takes in 6 messages, each once)"
    assert await conn.fetchval("select count(*) from agent_taken") == 0  # shown, not done
    first = run_taak(cli_env, "intake", "neem", "--alle", "--aan", "paco", "--ja")
    assert first.code == 0, first.err
    assert first.out.splitlines()[-1] == "6 messages taken in"
    second = run_taak(cli_env, "intake", "neem", "--alle", "--aan", "paco", "--ja")
    assert (second.code, second.err) == (3, "taak: no message of the skipped backlog matches; nothing was changed\n")
    tasks = await conn.fetch("select opdracht, opdrachtgever, toegewezen_aan from agent_taken order by id")
    assert sorted(t["opdracht"] for t in tasks) == [f"stille pending {n}" for n in range(6)]
    assert {(t["opdrachtgever"], t["toegewezen_aan"]) for t in tasks} == {("conductor", "paco")}
    marks = dict(await conn.fetch("select content, task_id from agent_messages"))
    assert marks["gedaan"] is None  # handled by the old worker
    assert marks["voor sjakie"] is None  # not chosen


async def test_two_bulk_intakes_at_the_same_time_take_each_message_once(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    import subprocess
    import sys

    await backlog(conn, count=200)
    command = [sys.executable, "-m", "worker.cli.taak", "intake", "neem", "--alle", "--van", "Conductor", "--ja"]
    runs = [subprocess.Popen(command, env=cli_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    codes = sorted(run.wait(timeout=120) for run in runs)
    assert codes == [0, 3]  # one took them all, the other found them taken
    assert await conn.fetchval("select count(*) from agent_taken") == 200
    assert await conn.fetchval("select count(distinct opdracht) from agent_taken") == 200
    taken = await conn.fetch("select task_id from agent_messages where content like 'stille pending %'")
    assert len({t["task_id"] for t in taken}) == 200
    assert all(t["task_id"].startswith("HV-") for t in taken)


async def test_messages_left_with_sla_over_are_not_taken_by_a_later_bulk_intake_only_by_their_id(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    from tests.helpers import run_taak

    ids = await backlog(conn, count=4)
    july = run_taak(cli_env, "intake", "sla-over", "--alle", "--sinds", "2026-07", "--tot", "2026-07", "--ja")
    assert july.code == 0, july.err
    assert july.out.startswith("2 messages left (afgewezen)")
    assert await conn.fetchval("select count(*) from agent_messages where task_id = 'afgewezen'") == 2
    shown = run_taak(cli_env, "intake", "voorbeeld")
    assert "skipped backlog (left open by the old worker, from before the cut-off): 3 messages" in shown.out
    taken = run_taak(cli_env, "intake", "neem", "--alle", "--aan", "paco", "--ja")
    assert taken.out.splitlines()[-1] == "2 messages taken in"  # August's, not July's that were left
    left = await conn.fetchval("select id from agent_messages where task_id = 'afgewezen' order by id limit 1")
    by_id = run_taak(cli_env, "intake", "neem", str(left))
    assert by_id.code == 0, by_id.err
    assert await conn.fetchval("select count(*) from agent_taken") == 3
    assert left in ids


@pytest.mark.slow
async def test_bad_filters_are_refused_in_one_line_and_change_nothing(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    from tests.helpers import run_taak

    await backlog(conn)
    before = await state(conn)
    example = "not a day or month (for example 2026-07-14 or 2026-07)"
    nothing = "taak: no message of the skipped backlog matches; nothing was changed\n"
    for words, code, line in [
        (["--sinds", "juli"], 2, f"taak: --sinds 'juli': {example}\n"),
        (["--tot", "2026-02-30"], 2, f"taak: --tot '2026-02-30': {example}\n"),
        (["--van", "niemand"], 3, nothing),
        (["--sinds", "2026-09"], 3, nothing),
        (["--aan", "Paco ", "--tot", "2026-06"], 3, nothing),
    ]:
        for verb in ("neem", "sla-over"):
            for ja in ([], ["--ja"]):
                done = run_taak(cli_env, "intake", verb, "--alle", *words, *ja)
                assert (done.code, done.err) == (code, line), (verb, words, ja)
    assert await state(conn) == before


async def test_a_bulk_intake_takes_in_what_can_come_in_and_names_what_stays_in_the_backlog_and_why(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    """Issue 41, an outside try: one message for nobody refused every other, so `neem --alle --ja` could not run
    until each was left by hand. What cannot come in as it is (for no bot the fleet knows, for nobody, empty) now
    stays in the backlog, named in numeric order with its reason, before (`--ja` absent) and after; the rest comes
    in, and `sla-over --alle` with the same options then leaves exactly what stayed."""
    from tests.helpers import run_taak

    await backlog(conn, count=2)
    odd = await conn.fetch(
        "insert into agent_messages (sender, recipient, content, status, created_at) values "
        "('kimi', 'niemand', 'voor niemand', 'pending', '2026-07-05'), "
        "('kimi', null, 'aan niemand 1', 'pending', '2026-07-06'), "
        "('kimi', '', 'aan niemand 2', 'pending', '2026-07-07'), "
        "('kimi', 'paco', '   ', 'pending', '2026-07-08') returning id"
    )
    nobody, empty = [str(odd[1]["id"]), str(odd[2]["id"])], str(odd[3]["id"])
    await conn.execute("update agent_messages set id = id + 100 where content = 'aan niemand 1'")  # 9 before 10
    nobody = [str(int(nobody[0]) + 100), nobody[1]]
    before = await state(conn)
    shown = run_taak(cli_env, "intake", "neem", "--alle")
    assert shown.code == 0, shown.err
    assert "niemand (?)" in shown.out
    assert f"cannot be taken in as it is: 2 messages ({nobody[1]}, {nobody[0]}), addressed to nobody (" in shown.out
    assert f"cannot be taken in as it is: 1 message ({odd[0]['id']}), for niemand, no bot the fleet knows" in shown.out
    assert f"cannot be taken in as it is: 1 message ({empty}), empty, or too long" in shown.out
    assert "--ja takes in 3 messages, each once; what cannot be taken in as it is, above, stays" in shown.out
    assert await state(conn) == before
    taken = run_taak(cli_env, "intake", "neem", "--alle", "--ja")
    assert taken.code == 0, taken.err
    lines = taken.out.splitlines()
    assert len([line for line in lines if " -> HV-" in line]) == 3
    assert f"stays in the backlog: 2 messages ({nobody[1]}, {nobody[0]}), addressed to nobody (" in taken.out
    assert lines[-1] == "3 messages taken in"
    still = await conn.fetch("select id::text from agent_messages where task_id is null and status = 'pending'")
    assert sorted(r["id"] for r in still) == sorted([str(odd[0]["id"]), *nobody, empty])
    left = run_taak(cli_env, "intake", "sla-over", "--alle", "--ja")
    assert left.out.startswith("4 messages left (afgewezen)"), left.out
    refused = run_taak(cli_env, "intake", "neem", "--alle", "--ja")
    assert (refused.code, refused.err) == (3, "taak: no message of the skipped backlog matches; nothing was changed\n")


async def test_a_bulk_intake_of_which_nothing_can_come_in_is_refused_in_one_line_and_changes_nothing(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    from tests.helpers import run_taak

    await backlog(conn, count=1)
    await conn.execute(
        "insert into agent_messages (sender, recipient, content, status, created_at) "
        "values ('kimi', 'niemand', 'voor niemand', 'pending', '2026-07-05')"
    )
    before = await state(conn)
    refused = run_taak(cli_env, "intake", "neem", "--alle", "--aan", "niemand", "--ja")
    assert refused.code == 1
    assert refused.err.startswith("taak: none of these 1 message can be taken in as it is, such as 4: for niemand, ")
    assert refused.err.endswith("; nothing was changed\n")
    assert refused.err.count("\n") == 1
    assert await state(conn) == before


async def test_a_backlog_message_that_names_a_finished_task_is_said_to_join_it_not_to_become_a_task(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    """Issue 41, an outside try: "Antwoord op HV-...: ..." to a klaar task was reported as taken in like a new
    task, though it only became a notitie in that task's log."""
    from tests.helpers import run_taak

    ledger = ledger_on(conn)
    finished = await ledger.nieuw(NewTask("Vervang de lamp", "jamal", toegewezen_aan="paco"))
    await conn.execute("update agent_bots set actief = true where bot = 'paco'")
    claimed = await ledger.claim(["paco"])
    assert claimed is not None
    await ledger.klaar(finished, "/tmp/bewijs", "de lamp brandt", token=claimed.token)
    await backlog(conn, count=1)
    joining = await conn.fetchval(
        "insert into agent_messages (sender, recipient, content, status, created_at) "
        "values ('jamal', 'paco', $1, 'pending', '2026-07-05') returning id",
        f"Antwoord op {finished}: hij doet het",
    )
    shown = run_taak(cli_env, "intake", "neem", "--alle", "--aan", "paco")
    assert shown.code == 0, shown.err
    joins = f"joins the existing task {finished} (klaar) as a line in its log, not as a new task: 1 message ({joining})"
    assert joins in shown.out
    assert shown.out.splitlines()[-1] == "(nothing was changed: --ja takes in 2 messages, each once)"
    taken = run_taak(cli_env, "intake", "neem", "--alle", "--aan", "paco", "--ja")
    assert taken.code == 0, taken.err
    said = f"message {joining} -> {finished}, an existing task (klaar): a notitie in its log, no new task"
    assert said in taken.out.splitlines()
    assert taken.out.splitlines()[-1] == "2 messages taken in: 1 new task, 1 joined an existing task"
    assert await conn.fetchval("select status::text from agent_taken where id = $1", finished) == "klaar"


async def test_one_message_is_said_in_the_singular_and_a_missing_one_in_one_wording_by_either_verb(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    from tests.helpers import run_taak

    await backlog(conn, count=1)
    shown = run_taak({**cli_env, "TAAK_LANGUAGE": "nl"}, "intake", "neem", "--alle", "--aan", "paco")
    assert shown.out.splitlines()[-1] == "(er is niets veranderd: --ja haalt 1 bericht binnen, elk één keer)"
    for verb in ("neem", "sla-over"):
        missing = run_taak(cli_env, "intake", verb, "4660")
        assert (missing.code, missing.err) == (3, "taak: message 4660 is not in agent_messages\n"), verb


@pytest.mark.parametrize(
    ("words", "matched"),
    [
        (["--sinds", "0001-01"], 7),  # the first month of the calendar, wherever the household lives
        (["--sinds", "0001-01-01", "--tot", "0001-01"], 0),
        (["--tot", "9999-12"], 7),  # its last month and day
        (["--tot", "9999-12-31"], 7),
        (["--aan", "coco", "--sinds", "0001-01"], 0),
    ],
)
async def test_the_first_and_last_days_of_the_calendar_are_days_like_any(
    cli_env: dict[str, str], conn: asyncpg.Connection, words: list[str], matched: int
) -> None:
    from tests.helpers import run_taak

    await backlog(conn)
    shown = run_taak(cli_env, "intake", "neem", "--alle", *words)
    if matched:
        assert shown.code == 0, shown.err
        assert f"--ja takes in {matched} messages" in shown.out
    else:
        assert (shown.code, shown.err) == (3, "taak: no message of the skipped backlog matches; nothing was changed\n")


async def test_a_period_that_ends_before_it_starts_is_refused_as_bad_input_naming_both_options(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    from tests.helpers import run_taak

    await backlog(conn)
    before = await state(conn)
    line = "taak: --tot '2026-09' is before --sinds '2026-11': no message can lie between them\n"
    for verb in ("neem", "sla-over"):
        for ja in ([], ["--ja"]):
            done = run_taak(cli_env, "intake", verb, "--alle", "--sinds", "2026-11", "--tot", "2026-09", *ja)
            assert (done.code, done.err) == (2, line), (verb, ja)
    assert run_taak(cli_env, "intake", "neem", "--alle", "--sinds", "2026-07-12", "--tot", "2026-07").code == 0
    assert await state(conn) == before


async def test_an_id_and_the_whole_backlog_are_one_of_the_two_and_the_filters_go_with_the_whole(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    from tests.helpers import run_taak

    await backlog(conn, count=2)
    before = await state(conn)
    for words, line in [
        (["neem"], "give a MESSAGE_ID or --alle: one of the two"),
        (["neem", "1", "--alle"], "give a MESSAGE_ID or --alle: one of the two"),
        (["neem", "1", "--van", "conductor"], "--van goes with --alle"),
        (["neem", "1", "--ja"], "--ja goes with --alle"),
        (["sla-over", "1", "--aan", "paco"], "--aan goes with --alle"),
        (["neem", "--alle", "--nieuwe-bot"], "--nieuwe-bot goes with one message"),
    ]:
        done = run_taak(cli_env, "intake", *words)
        assert done.code == 2, words
        assert done.err.startswith(f"taak: {line}"), done.err
    assert await state(conn) == before
