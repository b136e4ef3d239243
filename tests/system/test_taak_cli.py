"""The real `taak` command: what it prints, its exit codes, and that refused input changes nothing."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import anyio
import asyncpg
import pytest

from tests.helpers import Result, ledger_on, run_taak, snapshot
from worker.db.ledger import NewTask

SQL_TRICKS = "'; drop table agent_taken; -- $1 \\x00 %s {0} \" `rm -rf` $(id)"


def one_line(result: Result) -> str:
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, result.err
    return lines[0]


async def test_nieuw_prints_only_the_new_id(cli_env: dict[str, str]) -> None:
    result = run_taak(cli_env, "nieuw", "Schrijf de blog", "--aan", "paco", "--van", "jamal")
    assert result.code == 0, result.err
    assert re.fullmatch(r"HV-\d{8}-001\n", result.out)


async def test_a_session_logs_and_finishes_with_its_environment(cli_env: dict[str, str]) -> None:
    task_id = run_taak(cli_env, "nieuw", "Schrijf de blog", "--aan", "paco", "--van", "jamal").out.strip()
    claim = run_taak(cli_env, "claim", "--bot", "paco", "--json")
    assert claim.code == 0, claim.err
    claimed = json.loads(claim.out)
    assert claimed["id"] == task_id
    assert claimed["briefing"].startswith(f"=== TASK {task_id} (attempt 1 of 3) ===")
    session = {**cli_env, "TAAK_ID": task_id, "TAAK_TOKEN": claimed["lease_token"], "TAAK_BOT": "paco"}
    logged = run_taak(session, "log", "stap_klaar", "concept staat in /tmp/blog.md")
    assert (logged.code, logged.out) == (0, f"{task_id}: stap_klaar logged\n")
    assert run_taak(session, "stap", "zet de blog online").out == f"{task_id}: next step set\n"
    done = run_taak(session, "klaar", "--bewijs", "https://blog.example/veranda", "online")
    assert (done.code, done.out) == (0, f"{task_id}: done, with evidence\n")  # every changing verb says so
    shown = json.loads(run_taak(cli_env, "toon", task_id, "--json").out)
    assert shown["status"] == "klaar"
    assert shown["bewijs"] == "https://blog.example/veranda"
    assert shown["volgende_stap"] == "zet de blog online"
    assert [r["soort"] for r in shown["log"]] == ["notitie", "gestart", "stap_klaar", "notitie", "klaar"]
    assert shown["log"][2]["bot"] == "paco"


async def test_claim_with_nothing_waiting_exits_3(cli_env: dict[str, str]) -> None:
    result = run_taak(cli_env, "claim", "--bot", "paco")
    assert result.code == 3
    assert "paco" in one_line(result)


async def test_an_explicit_id_wins_over_the_environment(cli_env: dict[str, str]) -> None:
    first = run_taak(cli_env, "nieuw", "een", "--van", "jamal").out.strip()
    second = run_taak(cli_env, "nieuw", "twee", "--van", "jamal").out.strip()
    env = {**cli_env, "TAAK_ID": first}
    assert run_taak(env, "log", second, "notitie", "voor de tweede").code == 0
    log = json.loads(run_taak(cli_env, "toon", second, "--json").out)["log"]
    assert log[-1]["tekst"] == "voor de tweede"


async def test_sql_metacharacters_are_stored_verbatim(cli_env: dict[str, str], conn: asyncpg.Connection) -> None:
    text = SQL_TRICKS.replace("\\x00", "")
    task_id = run_taak(
        cli_env,
        "nieuw",
        text,
        "--van",
        text,
        "--aan",
        "paco",
        "--klaar-wanneer",
        text,
        "--volgende-stap",
        text,
        "--titel",
        text,
        "--context",
        f"k={text}",
    ).out.strip()
    assert run_taak(cli_env, "log", task_id, "notitie", text).code == 0
    assert run_taak(cli_env, "antwoord", task_id, text).code == 0
    row = await conn.fetchrow("select * from agent_taken where id = $1", task_id)
    for column in ("opdracht", "opdrachtgever", "klaar_wanneer", "volgende_stap", "titel"):
        assert row[column] == text
    assert run_taak(cli_env, "nieuw", "x", "--aan", text).code == 2  # a bot's name is a name, not text
    assert json.loads(row["context"]) == {"k": text}
    assert await conn.fetchval("select count(*) from agent_taak_log where tekst = $1", text) == 2


BAD_INPUT = [
    pytest.param(["nieuw", ""], None, 2, id="empty opdracht"),
    pytest.param(["nieuw", "   \n\t"], None, 2, id="blank opdracht"),
    pytest.param(["nieuw", "x" * 8001], None, 2, id="8001 characters"),
    pytest.param(["nieuw", "-"], b"voor\x00na", 2, id="NUL byte on stdin"),
    pytest.param(["nieuw", "-"], b"\xff\xfe kapot", 2, id="invalid UTF-8 on stdin"),
    pytest.param(["nieuw", "x", "--context", "geen-sleutel"], None, 2, id="context without ="),
    pytest.param(["nieuw", "x", "--max-pogingen", "0"], None, 2, id="zero attempts"),
    pytest.param(["nieuw", "x", "--van", ""], None, 2, id="empty --van"),
    pytest.param(["log", "{id}", "gedaan", "x"], None, 2, id="unknown soort"),
    pytest.param(["log", "HV-1", "notitie", "x"], None, 2, id="malformed id"),
    pytest.param(["toon", "HV-2026-01"], None, 2, id="malformed id toon"),
    pytest.param(["toon", "HV-20200101-999"], None, 3, id="unknown id"),
    pytest.param(["antwoord", "HV-20200101-999", "ja"], None, 3, id="answer to unknown id"),
    pytest.param(["log", "{id}", "stap_klaar", "x"], None, 1, id="step without token"),
    pytest.param(["klaar", "{id}", "--bewijs", "/tmp/x"], None, 1, id="klaar without token"),
    pytest.param(["klaar", "--bewijs", "  ", "af"], "session", 1, id="klaar without evidence"),
    pytest.param(["klaar", "af"], "session", 1, id="klaar without --bewijs"),
    pytest.param(["klaar", "{id}", "--bewijs", "", "af"], "session", 1, id="klaar with empty --bewijs"),
    pytest.param(["klaar", "--bewijs"], "session", 1, id="klaar with --bewijs and no value"),
    pytest.param(["log", "stap_klaar", "  "], "session", 2, id="log with blank text"),
    pytest.param(["vrijgeven", "{id}", "te", "veel"], "session", 2, id="vrijgeven with stray words"),
    pytest.param(["lijst", "--limiet", "0"], None, 2, id="zero limit"),
    pytest.param(["klaar", "--bewijs", "/tmp/x"], "stale", 1, id="klaar with a stale token"),
    pytest.param(["klaar", "--bewijs", "/tmp/x"], "bad token", 2, id="klaar with a malformed token"),
    pytest.param(["log", "stap_klaar"], "session", 2, id="log without text"),
    pytest.param(["frobnicate"], None, 2, id="unknown command"),
    pytest.param(["lijst", "--status", "pending"], None, 2, id="unknown status"),
    pytest.param(["nieuw", "x", "--titel", "t" * 121], None, 2, id="--titel over 120"),
    pytest.param(["nieuw", "x", "--van", "v" * 65], None, 2, id="--van over 64"),
    pytest.param(["nieuw", "x", "--klaar-wanneer", "k" * 2001], None, 2, id="--klaar-wanneer over 2000"),
    pytest.param(["nieuw", "x", "--context", "k=" + "c" * 2000], None, 2, id="--context over 2000 as JSON"),
    pytest.param(["toon", "HV-20260230-001"], None, 2, id="30 February"),
    pytest.param(["log", "HV-20250229-001", "notitie", "x"], None, 2, id="29 February of a common year"),
    pytest.param(["klaar", "HV-20260431-001", "--bewijs", "/tmp/x"], "session", 2, id="31 April"),
]


FINISH_ORDERS = [
    pytest.param(["klaar", "{id}", "--bewijs", "/tmp/x", "wat ik deed"], id="ID --bewijs B TEKST"),
    pytest.param(["klaar", "--bewijs", "/tmp/x", "{id}", "wat ik deed"], id="--bewijs B ID TEKST"),
    pytest.param(["klaar", "{id}", "wat ik deed", "--bewijs", "/tmp/x"], id="ID TEKST --bewijs B"),
    pytest.param(["klaar", "--bewijs", "/tmp/x", "wat ik deed"], id="--bewijs B TEKST, ID from TAAK_ID"),
    pytest.param(["klaar", "{id}", "--bewijs=/tmp/x"], id="ID --bewijs=B, no text"),
    pytest.param(["klaar", "--bewijs", "/tmp/x", "wat", "ik", "deed"], id="unquoted text"),
]


@pytest.mark.parametrize("args", FINISH_ORDERS)
async def test_a_session_finishes_its_task_in_every_order_people_type(
    cli_env: dict[str, str], conn: asyncpg.Connection, args: list[str]
) -> None:
    task_id = run_taak(cli_env, "nieuw", "doe het", "--van", "jamal", "--aan", "paco").out.strip()
    claimed = json.loads(run_taak(cli_env, "claim", "--bot", "paco", "--json").out)
    env = {**cli_env, "TAAK_ID": task_id, "TAAK_TOKEN": claimed["lease_token"], "TAAK_BOT": "paco"}
    result = run_taak(env, *[a.replace("{id}", task_id) for a in args])
    assert result.code == 0, result.err
    row = await conn.fetchrow("select status, bewijs from agent_taken where id = $1", task_id)
    assert (row["status"], row["bewijs"]) == ("klaar", "/tmp/x")
    text = await conn.fetchval("select tekst from agent_taak_log where taak_id = $1 and soort = 'klaar'", task_id)
    assert text == ("wat ik deed" if len(args) > 3 else "")


@pytest.mark.parametrize(("args", "stdin_or_env", "code"), BAD_INPUT)
async def test_bad_input_gets_one_line_its_exit_code_and_changes_nothing(
    cli_env: dict[str, str], conn: asyncpg.Connection, args: list[str], stdin_or_env: object, code: int
) -> None:
    task_id = run_taak(cli_env, "nieuw", "bestaande taak", "--van", "jamal", "--aan", "paco").out.strip()
    claimed = json.loads(run_taak(cli_env, "claim", "--bot", "paco", "--json").out)
    env = dict(cli_env)
    stdin = stdin_or_env if isinstance(stdin_or_env, bytes) else None
    if stdin_or_env in ("session", "stale", "bad token"):
        token = {
            "session": claimed["lease_token"],
            "stale": "00000000-0000-4000-8000-000000000000",
            "bad token": "geen-token",
        }[stdin_or_env]
        env.update(TAAK_ID=task_id, TAAK_TOKEN=token, TAAK_BOT="paco")
    before = await snapshot(conn)
    result = run_taak(env, *[a.replace("{id}", task_id) for a in args], stdin=stdin)
    assert result.code == code, result.err
    one_line(result)
    assert result.out == ""
    assert await snapshot(conn) == before


async def test_nieuw_names_the_option_over_its_limit_and_the_limit(cli_env: dict[str, str]) -> None:
    refused = run_taak(cli_env, "nieuw", "Vervang de lamp", "--titel", "t" * 100_000)
    assert (refused.code, one_line(refused)) == (2, "taak: --titel has 100000 characters; at most 120 are allowed")
    assert run_taak(cli_env, "nieuw", "Vervang de lamp", "--titel", "t" * 120).code == 0


async def test_a_klaar_text_or_a_reden_that_shows_nothing_counts_as_left_out(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    invisible = "\u200b\ufeff"
    for verb, words in (("klaar", ["--bewijs", "/tmp/x", invisible]), ("vrijgeven", ["--reden", invisible])):
        task_id = run_taak(cli_env, "nieuw", "doe het", "--aan", "paco").out.strip()
        claimed = json.loads(run_taak(cli_env, "claim", "--bot", "paco", "--json").out)
        session = {**cli_env, "TAAK_ID": task_id, "TAAK_TOKEN": claimed["lease_token"], "TAAK_BOT": "paco"}
        done = run_taak(session, verb, *words)
        assert done.code == 0, done.err
        last = await conn.fetchval("select tekst from agent_taak_log where taak_id = $1 order by id desc", task_id)
        assert last == {"klaar": "", "vrijgeven": "vrijgegeven door de sessie"}[verb]
    owner = run_taak(cli_env, "vrijgeven", task_id, "--reden", " ")  # the owner takes a lease back by hand
    assert owner.code == 1  # given back already: refused, and not for its blank reason
    assert "wachtend" in one_line(owner)


async def test_a_bot_name_is_refused_on_every_way_in_as_taak_bots_refuses_it_and_shown_cut(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    long_name = "a" * 300
    for words in (
        ["nieuw", "x", "--aan", long_name, "--nieuwe-bot"],
        ["bot", "aan", long_name, "--nieuwe-bot"],
        ["claim", "--bot", long_name, "--nieuwe-bot"],
        ["bot", "aan", "..", "--nieuwe-bot"],  # what a daemon could never serve (a file name)
    ):
        refused = run_taak(cli_env, *words)
        assert refused.code == 2, (words[:2], refused.err)
        assert "at most 64 characters" in one_line(refused)
        assert len(one_line(refused)) < 200  # the name is cut
    assert await conn.fetchval("select count(*) from agent_bots where length(bot) > 64 or bot = '..'") == 0
    assert await conn.fetchval("select count(*) from agent_taken") == 0
    assert run_taak(cli_env, "bot", "aan", "a" * 64, "--nieuwe-bot").code == 0


async def test_klaar_on_a_task_that_is_not_bezig_exits_1_naming_its_status(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    task_id = run_taak(cli_env, "nieuw", "x", "--van", "jamal").out.strip()
    claimed = json.loads(run_taak(cli_env, "claim", "--bot", "paco", "--json").out)
    env = {**cli_env, "TAAK_ID": task_id, "TAAK_TOKEN": claimed["lease_token"]}
    assert run_taak(env, "blokkeer", "welke kleur?").code == 0
    before = await snapshot(conn)
    result = run_taak(env, "klaar", "--bewijs", "/tmp/x")
    assert result.code == 1
    assert "wacht_op_mens" in one_line(result)
    assert await snapshot(conn) == before


async def test_an_answer_says_whether_it_reopened_the_task_and_a_finished_task_takes_none(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    task_id = run_taak(cli_env, "nieuw", "x", "--van", "jamal", "--aan", "paco").out.strip()
    claimed = json.loads(run_taak(cli_env, "claim", "--bot", "paco", "--json").out)
    session = {**cli_env, "TAAK_ID": task_id, "TAAK_TOKEN": claimed["lease_token"], "TAAK_BOT": "paco"}
    assert run_taak(session, "blokkeer", "welke kleur?").code == 0
    reopened = run_taak(cli_env, "antwoord", task_id, "blauw")
    assert reopened.out == f"{task_id}: answer stored, the task is back in the queue\n", reopened.err
    again = run_taak(cli_env, "antwoord", task_id, "of groen")
    assert again.out == f"{task_id}: answer stored (the task was not waiting for it; its briefing shows it)\n"
    claimed = json.loads(run_taak(cli_env, "claim", "--bot", "paco", "--json").out)
    session["TAAK_TOKEN"] = claimed["lease_token"]
    assert run_taak(session, "klaar", "--bewijs", "/tmp/x").code == 0
    before = await snapshot(conn)
    late = run_taak(cli_env, "antwoord", task_id, "toch rood")
    assert late.code == 1
    assert one_line(late).startswith(f"taak: {task_id} is klaar: nobody will read an answer there")
    assert await snapshot(conn) == before


async def test_messages_are_dutch_by_default(cli_env: dict[str, str]) -> None:
    env = {**cli_env, "TAAK_LANGUAGE": "nl"}
    assert one_line(run_taak(env, "toon", "HV-20200101-999")) == "taak: taak HV-20200101-999 bestaat niet"


async def test_brief_prints_the_compact_briefing_under_its_cap(cli_env: dict[str, str]) -> None:
    task_id = run_taak(cli_env, "nieuw", "-", "--van", "jamal", stdin=("lang " * 1599).encode()).out.strip()
    result = run_taak(cli_env, "brief", task_id, "--compact")
    assert result.code == 0
    assert len(result.out.rstrip("\n")) <= 9500
    assert ("lang " * 1599) in result.out


async def test_lijst_filters_by_status_and_bot(cli_env: dict[str, str]) -> None:
    paco = run_taak(cli_env, "nieuw", "voor paco", "--aan", "paco", "--van", "jamal").out.strip()
    run_taak(cli_env, "nieuw", "voor coco", "--aan", "coco", "--van", "jamal")
    listed = json.loads(run_taak(cli_env, "lijst", "--aan", "paco", "--status", "wachtend", "--json").out)
    assert [t["id"] for t in listed] == [paco]


async def test_blokkeer_and_vrijgeven_by_a_session_say_what_they_did(cli_env: dict[str, str]) -> None:
    for verb, words, said in (
        ("blokkeer", ["welk album?"], "waits for the owner's answer"),
        ("vrijgeven", ["--reden", "lukt nu niet"], "given back to the queue"),
    ):
        task_id = run_taak(cli_env, "nieuw", f"taak voor {verb}", "--aan", "paco").out.strip()
        claimed = json.loads(run_taak(cli_env, "claim", "--bot", "paco", "--json").out)
        session = {**cli_env, "TAAK_ID": task_id, "TAAK_TOKEN": claimed["lease_token"], "TAAK_BOT": "paco"}
        done = run_taak(session, verb, *words)
        assert (done.code, done.out) == (0, f"{task_id}: {said}\n"), done.err


async def test_a_session_giving_back_its_last_attempt_is_told_the_task_failed(cli_env: dict[str, str]) -> None:
    """ "given back to the queue" while the ledger had failed the task (tester 20): the session's direct path."""
    task_id = run_taak(cli_env, "nieuw", "laatste poging", "--aan", "paco", "--max-pogingen", "1").out.strip()
    claimed = json.loads(run_taak(cli_env, "claim", "--bot", "paco", "--json").out)
    session = {**cli_env, "TAAK_ID": task_id, "TAAK_TOKEN": claimed["lease_token"], "TAAK_BOT": "paco"}
    done = run_taak(session, "vrijgeven", "--reden", "geen toegang")
    assert (done.code, done.out) == (0, f"{task_id}: given back; its attempts are used up, so the task failed\n")
    assert json.loads(run_taak(cli_env, "toon", task_id, "--json").out)["status"] == "mislukt"


@pytest.mark.parametrize(
    "option",
    [
        ["--titel", "\u200b"],
        ["--titel", "\u3164"],  # a Hangul filler: a letter that draws nothing
        ["--klaar-wanneer", "\u115f\u034f"],
        ["--klaar-wanneer", " \u200b "],
        ["--volgende-stap", "\u2060"],
        ["--context", "machine=\u200b"],
        ["--context", "\u200b=veranda"],
    ],
)
async def test_an_option_given_with_only_invisible_text_is_refused(cli_env: dict[str, str], option: list[str]) -> None:
    refused = run_taak({**cli_env, "TAAK_LANGUAGE": "en"}, "nieuw", "Vervang de lamp", "--aan", "paco", *option)
    assert refused.code == 2, refused.out
    assert len(refused.err.strip().splitlines()) == 1
    assert option[0] in refused.err  # named by its option, in either language (not `titel is empty`)
    assert json.loads(run_taak(cli_env, "lijst", "--json").out) == []


@pytest.mark.slow
async def test_tail_and_machine_refuse_a_bot_nobody_knows(cli_env: dict[str, str]) -> None:
    for words in (["tail", "--bot", "nobody"], ["machine", "zet", "m3", "--bot", "nobody"]):
        refused = run_taak(cli_env, *words, timeout=20)
        assert refused.code != 0
        assert "nobody" in refused.err
        assert "--nieuwe-bot" not in refused.err  # neither verb can register one
    assert run_taak(cli_env, "tail", "--bot", "", timeout=20).code == 2
    assert run_taak(cli_env, "tail", "-n", "-1", timeout=20).code == 2  # not a database error
    assert run_taak(cli_env, "machine", "zet", "\u200b").code == 2
    assert run_taak(cli_env, "machine", "wie", "\u200b").code == 2  # no name can be that: bad input, not unknown
    typo = run_taak(cli_env, "lijst", "--aan", "pacoo")
    assert typo.code == 1
    assert "pacoo" in one_line(typo)
    assert run_taak(cli_env, "lijst", "--aan", "paco").code == 0  # known, nothing for it yet: an empty list
    assert "m3" not in run_taak(cli_env, "machine", "lijst").out


async def test_the_line_end_after_piped_text_is_not_part_of_it(cli_env: dict[str, str]) -> None:
    made = run_taak(cli_env, "nieuw", "-", "--aan", "paco", stdin=("a" * 8000 + "\n").encode())
    assert made.code == 0, made.err  # 8,000 characters and the newline echo adds: at the limit, not over
    shown = json.loads(run_taak(cli_env, "toon", made.out.strip(), "--json").out)
    assert shown["opdracht"] == "a" * 8000
    kept = run_taak(cli_env, "nieuw", "-", "--aan", "paco", stdin=b"twee regels\nen een lege\n\n")
    assert json.loads(run_taak(cli_env, "toon", kept.out.strip(), "--json").out)["opdracht"] == (
        "twee regels\nen een lege\n"
    )  # only the last line end goes


async def test_an_id_with_a_month_or_day_that_cannot_be_is_malformed_not_unknown(cli_env: dict[str, str]) -> None:
    for wrong in ("HV-20991301-001", "HV-20260132-001", "HV-20260000-001", "HV-\uff12\uff10\uff12\uff161201-001"):
        refused = run_taak(cli_env, "toon", wrong)
        assert refused.code == 2, (wrong, refused.err)


@pytest.mark.parametrize("wrong", ["HV-20260230-001", "HV-20250229-001", "HV-20260431-001", "HV-00000101-001"])
async def test_an_id_with_a_date_the_calendar_has_not_is_malformed_not_unknown(
    cli_env: dict[str, str], wrong: str
) -> None:
    refused = run_taak(cli_env, "toon", wrong)
    assert (refused.code, one_line(refused)) == (2, f"taak: {wrong!r} is not a task ID (expected HV-YYYYMMDD-NNN)")
    assert run_taak(cli_env, "toon", "HV-20280229-001").code == 3  # a leap day: a real date, no such task


@pytest.mark.parametrize("count", ["\u0663", "1_0", "\uff13", "-2147483649"])
async def test_a_count_is_written_in_plain_digits(cli_env: dict[str, str], count: str) -> None:
    refused = run_taak(cli_env, "lijst", "-n", count)
    assert refused.code == 2, refused.out
    assert len(refused.err.strip().splitlines()) == 1


async def test_recall_of_the_database_is_refused_inside_a_queue_session(
    cli_env: dict[str, str], tmp_path: Path
) -> None:
    data = tmp_path / "sessie"
    session = {k: v for k, v in cli_env.items() if k != "TAAK_DATABASE_URL"} | {
        "TAAK_SOCKET": str(tmp_path / "weg.sock"),
        "TAAK_ID": "HV-20261201-001",
        "TAAK_TOKEN": "x",
        "TAAK_BOT": "paco",
        "TAAK_DATA_DIR": str(data),
        "TAAK_SEMANTIC": "false",  # no model helper left running after the test
    }
    for option in ("--taken", "--vloot"):
        refused = run_taak(session, "recall", "appel", option)
        assert refused.code == 1, refused.err
        assert option in refused.err
    assert run_taak(session, "recall", "appel").code == 0  # this machine's archive needs no database
    assert not (data / "postgres").exists()  # no embedded server was started to answer wrongly


async def test_lll_and_toon_keep_a_line_break_inside_its_entry(cli_env: dict[str, str]) -> None:
    assert run_taak(cli_env, "lll", "echt\n- NEP onderwerp").code == 0
    shown = run_taak(cli_env, "lll", "toon").out.splitlines()
    assert not any(line.startswith("- NEP") for line in shown), shown
    task_id = run_taak(cli_env, "nieuw", "Eerste regel\nstatus          klaar\nlog:", "--aan", "paco").out.strip()
    toon = run_taak(cli_env, "toon", task_id).out.splitlines()
    assert not any(line.startswith("status          klaar") for line in toon), toon
    assert sum(line == "log:" for line in toon) == 1, toon
    # Indenting alone passed the two lines above before; the bar is what marks them as the opdracht's own.
    assert [line.lstrip() for line in toon if "klaar" in line and "status" in line] == ["│ status          klaar"]


async def test_a_database_never_migrated_gets_the_migrate_hint(cli_env: dict[str, str], empty_db_url: str) -> None:
    env = {**cli_env, "TAAK_DATABASE_URL": empty_db_url}
    for words in (["lijst"], ["nieuw", "Vervang de lamp"]):  # a missing table, a missing function
        refused = run_taak(env, *words)
        assert refused.code == 1
        assert one_line(refused) == "taak: the database lacks taak's tables or functions: run `taak db migrate`"


@pytest.mark.parametrize("path_in_url", ["search_path=nergens", "options=-c%20search_path%3Dnergens"])
async def test_a_search_path_that_passes_the_tables_by_is_named_and_migrate_still_works(
    cli_env: dict[str, str], server_url: str, path_in_url: str
) -> None:
    """taak's tables live in public: a URL whose search_path leaves it out is told so, whether the tables are
    there or not, and `taak db migrate` (which the line names) makes them there, where the path can find them."""
    from tests.conftest import with_database

    url = cli_env["TAAK_DATABASE_URL"]
    admin = await asyncpg.connect(server_url)
    empty = f"taak_test_leeg_{os.getpid()}"
    await admin.execute(f'create database "{empty}"')
    try:
        for database in (url, with_database(url, empty)):  # migrated, and never migrated
            with_path = database + ("&" if "?" in database else "?") + path_in_url
            refused = run_taak({**cli_env, "TAAK_DATABASE_URL": with_path}, "lijst")
            assert refused.code == 1
            assert "search_path=nergens" in one_line(refused)
            assert "put public in the path" in refused.err
        migrated = run_taak({**cli_env, "TAAK_DATABASE_URL": with_path}, "db", "migrate")
        assert migrated.code == 0, migrated.err
        with_public = with_database(url, empty) + ("&" if "?" in url else "?") + "search_path=nergens,public"
        assert run_taak({**cli_env, "TAAK_DATABASE_URL": with_public}, "lijst").code == 0
    finally:
        await admin.execute(f'drop database if exists "{empty}" with (force)')
        await admin.close()


async def test_a_text_that_starts_with_a_dash_goes_in_after_double_dash(cli_env: dict[str, str]) -> None:
    task_id = run_taak(cli_env, "nieuw", "--van", "jamal", "--", "-5 graden: verwarming aan").out.strip()
    assert task_id.startswith("HV-"), task_id
    logged = run_taak(cli_env, "log", task_id, "notitie", "--", "-x")
    assert logged.code == 0, logged.err
    shown = json.loads(run_taak(cli_env, "toon", task_id, "--json").out)
    assert shown["opdracht"] == "-5 graden: verwarming aan"
    assert shown["log"][-1]["tekst"] == "-x"
    assert run_taak(cli_env, "lll", "--", "-z").code == 0  # a verb whose words are one or more
    assert "-z" in run_taak(cli_env, "lll", "toon").out
    unknown = run_taak(cli_env, "toon", "--", task_id, "-y")
    assert unknown.code == 2
    assert "-y" in one_line(unknown)  # the word as typed, not what stood in for it


async def test_every_text_has_a_limit_and_one_within_it_is_kept_whole(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    task_id = run_taak(cli_env, "nieuw", "Plak de testuitvoer", "--van", "jamal").out.strip()
    before = await snapshot(conn)
    for verb in (
        ["log", task_id, "notitie", "-"],
        ["antwoord", task_id, "-"],
        ["annuleer", task_id, "--reden", "y" * 100_001],
    ):
        refused = run_taak(cli_env, *verb, stdin=b"y" * 100_001)  # "-" reads the text from stdin
        assert refused.code == 2, (verb, refused)
        assert "100001" in one_line(refused)
        assert "100000" in refused.err
    assert await snapshot(conn) == before
    assert run_taak(cli_env, "log", task_id, "notitie", "-", stdin=b"z" * 100_000).code == 0
    shown = json.loads(run_taak(cli_env, "toon", task_id, "--json").out)
    assert shown["log"][-1]["tekst"] == "z" * 100_000


async def test_a_claim_refused_for_one_of_its_names_registers_none_of_them(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    before = await snapshot(conn)
    bots_before = await conn.fetch("select bot from agent_bots order by bot")
    for bad in ("bad name!", "", "b" * 70):
        refused = run_taak(cli_env, "claim", "--bot", "nieuwbot", "--nieuwe-bot", "--bot", bad)
        assert refused.code == 2, refused
    assert await conn.fetch("select bot from agent_bots order by bot") == bots_before
    assert await snapshot(conn) == before


async def test_recall_of_the_task_log_refuses_a_name_nobody_logged_under(cli_env: dict[str, str]) -> None:
    assert run_taak(cli_env, "nieuw", "Vervang de lamp", "--van", "jamal", "--aan", "paco").code == 0
    assert run_taak(cli_env, "claim", "--bot", "paco").code == 0
    typo = run_taak(cli_env, "recall", "lamp", "--taken", "--bot", "pacoo")
    assert typo.code == 1, typo
    assert "pacoo" in one_line(typo)
    assert "paco" in typo.err.split("pacoo", 1)[1]  # the bots there are, to pick from
    # A name with rows but none that match is an empty answer, not a typo: jamal is no bot, and has a row.
    nothing = run_taak(cli_env, "recall", "olifant", "--taken", "--bot", "jamal")
    assert nothing.code == 0, nothing


async def test_recall_of_the_task_log_says_a_word_missing_from_a_day_is_not_in_the_range(
    cli_env: dict[str, str],
) -> None:
    """The log counts the words inside the range, also when the range holds nothing: `album` logged today is not
    yesterday, not "found nowhere"."""
    task_id = run_taak(cli_env, "nieuw", "Maak het album af", "--van", "jamal").out.strip()
    assert run_taak(cli_env, "log", task_id, "notitie", "de foto's voor het album").code == 0
    found = run_taak(cli_env, "recall", "--taken", "yesterday album")
    assert found.code == 0, found
    assert found.out.splitlines()[0].endswith("words: album 0 (not in the range)")
    anywhere = run_taak(cli_env, "recall", "--taken", "album olifant")
    assert anywhere.out.splitlines()[0].endswith("words: album 1, olifant 0 (found nowhere)")


async def test_a_text_taken_for_an_option_gets_the_command_that_takes_it_as_text(cli_env: dict[str, str]) -> None:
    import shlex

    refused = run_taak(cli_env, "lll", "-5C")
    assert refused.code == 2
    (hint,) = re.findall(r"`(taak [^`]*)`", one_line(refused))
    assert run_taak(cli_env, *shlex.split(hint)[1:]).code == 0  # as the person types what it says
    assert "-5C" in run_taak(cli_env, "lll", "toon").out
    # The words around it stay where they were typed: the ID and the kind of `taak log` too.
    task_id = run_taak(cli_env, "nieuw", "Meet de temperatuur", "--van", "jamal").out.strip()
    (hint,) = re.findall(r"`(taak [^`]*)`", one_line(run_taak(cli_env, "log", task_id, "notitie", "-5C")))
    assert run_taak(cli_env, *shlex.split(hint)[1:]).code == 0
    assert json.loads(run_taak(cli_env, "toon", task_id, "--json").out)["log"][-1]["tekst"] == "-5C"
    # A value missing after an option is not that case: no hint that would file the value as the text.
    assert "--:" not in one_line(run_taak(cli_env, "nieuw", "--titel", "-x", "foo"))
    assert "--:" not in one_line(run_taak(cli_env, "toon", task_id, "-n"))  # toon takes no text


@pytest.mark.parametrize(
    ("reason", "said"),
    [(None, "taak annuleer needs a reason (--reden R)"), ("\u200b ", "--reden is empty")],
)
async def test_a_cancel_without_a_reason_says_the_reason_is_missing(
    cli_env: dict[str, str], conn: asyncpg.Connection, reason: str | None, said: str
) -> None:
    task_id = run_taak(cli_env, "nieuw", "Blijft staan").out.strip()
    before = await snapshot(conn)
    refused = run_taak(cli_env, "annuleer", task_id, *(["--reden", reason] if reason is not None else []))
    assert (refused.code, one_line(refused)) == (2, f"taak: {said}")
    assert await snapshot(conn) == before


async def test_a_list_cut_at_its_limit_says_so_and_one_that_is_whole_does_not(cli_env: dict[str, str]) -> None:
    for n in range(3):
        assert run_taak(cli_env, "nieuw", f"Taak {n}").code == 0
    cut = run_taak(cli_env, "lijst", "-n", "2").out.splitlines()
    assert len(cut) == 1 + 2 + 1  # the header, two tasks, and the line that says there are more
    assert cut[-1] == "(2 tasks shown, there are more: --limiet N shows more, --status, --aan and --nodig fewer)"
    whole = run_taak(cli_env, "lijst", "-n", "3").out.splitlines()
    assert len(whole) == 1 + 3
    assert len(json.loads(run_taak(cli_env, "lijst", "-n", "2", "--json").out)) == 2


def test_a_wide_name_keeps_the_columns_after_it_in_line() -> None:
    from worker.core.table import columns, table

    lines = table(("naam", "alias", "ip"), [("Ω-mac", "ＭＡＣ", "::1"), ("veranda", "ver", "192.168.1.2")]).splitlines()
    assert len({columns(line[: line.index(ip)]) for line, ip in zip(lines, ("ip", "::1", "192"), strict=True)}) == 1


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (["--van", "j" * 65], "--van has 65 characters"),
        (["--van", "\u200b"], "--van is empty"),
        (["--van", "jan\nklaas"], "--van is one line of text"),
        # frozen in the opdrachtgever for good: refused as TAAK_OWNER refuses it (tester 20)
        (["--van", "v\x1b]0;pwned\x07\x1b[2Jw"], "--van is a name without control or invisible characters, not"),
        (["--van", "jan\u202eklaas"], "--van is a name without control or invisible characters, not jan\\u202eklaas"),
        (["--van", "jan\tklaas"], "--van is a name without control or invisible characters, not jan\\tklaas"),
        (["--max-pogingen", "0"], "--max-pogingen"),
    ],
)
async def test_a_new_tasks_option_is_named_as_typed_whatever_is_wrong_with_it(
    cli_env: dict[str, str], conn: asyncpg.Connection, given: list[str], said: str
) -> None:
    before = await snapshot(conn)
    refused = run_taak(cli_env, "nieuw", "Doe iets", *given)
    assert refused.code == 2
    assert one_line(refused).startswith(f"taak: {said}")
    assert await snapshot(conn) == before


@pytest.mark.parametrize(
    "verb",
    [["eigenaar", "zet"], ["bot", "kan", "paco"], ["vaardigheid"], ["machine", "zet"], ["toon"]],
    ids=" ".join,
)
async def test_a_refused_name_with_a_tab_shows_the_tab_as_backslash_t_once(
    cli_env: dict[str, str], conn: asyncpg.Connection, verb: list[str]
) -> None:
    """Python's repr wrote the `\\t` an error line gives a tab with its backslash twice: `'a\\\\tb'` (tester 61)."""
    before = await snapshot(conn)
    refused = run_taak(cli_env, *verb, "a\tb")
    assert refused.code == 2
    assert "'a\\tb'" in one_line(refused)
    assert await snapshot(conn) == before


async def _blocked_on_a_lock(conn: asyncpg.Connection) -> bool:
    waiting = "select count(*) from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()"
    return bool(await conn.fetchval(waiting))


async def _interrupted_while_the_ledger_waits(
    conn: asyncpg.Connection, env: dict[str, str], words: list[str], presses: int
) -> tuple[int, str, str]:
    """`taak WORDS` in Dutch while the task table is locked (its change waits, as on a slow server), given
    `presses` Ctrl-Cs once it waits; its exit code, stdout and stderr."""
    import signal
    import subprocess
    import sys

    from tests.system.harness import wait_for

    holder = await asyncpg.connect(env["TAAK_DATABASE_URL"])
    locking = holder.transaction()
    await locking.start()
    await holder.execute("lock table agent_taken in exclusive mode")
    command = [sys.executable, "-m", "worker.cli.taak", *words]
    typed = subprocess.Popen(
        command, env={**env, "TAAK_LANGUAGE": "nl"}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        await wait_for(lambda: _blocked_on_a_lock(conn), timeout=30, what=f"{words[0]} to wait")
        for _ in range(presses):
            typed.send_signal(signal.SIGINT)
            await anyio.sleep(0.3)
    finally:
        await locking.rollback()
        await holder.close()
    out, err = await anyio.to_thread.run_sync(lambda: typed.communicate(timeout=30))
    return typed.returncode, out, err


@pytest.mark.parametrize("presses", [1, 2])
async def test_a_ctrl_c_once_the_new_task_is_on_its_way_is_taken_after_it_is_made_and_said(
    cli_env: dict[str, str], conn: asyncpg.Connection, presses: int
) -> None:
    """`ID=$(taak nieuw ...) || taak nieuw ...`: a Ctrl-C in the last moment made the task, printed nothing and
    exited 130, so the script made it again. Once the insert is on its way, one Ctrl-C waits for it (exit 0,
    the ID printed); a second stops at once (130), and then nothing was made."""
    code, out, err = await _interrupted_while_the_ledger_waits(
        conn, cli_env, ["nieuw", "Een taak onder Ctrl-C"], presses
    )
    made = await conn.fetch("select id from agent_taken where opdracht = 'Een taak onder Ctrl-C'")
    assert err.startswith("taak: Ctrl-C: wat al onderweg is naar de database wordt afgemaakt en gemeld;")
    if presses == 1:
        assert code == 0, err
        assert out.strip() == made[0]["id"]
    else:
        assert code == 130, err
        assert (out, made) == ("", [])


async def _a_task_for(verb: str, cli_env: dict[str, str]) -> tuple[dict[str, str], list[str], str]:
    """A task as the verb needs it, the environment and words to type, and a query that says it was done."""
    task_id = run_taak(cli_env, "nieuw", f"een taak voor {verb}", "--aan", "paco", "--van", "jamal").out.strip()
    done_when = f"select status from agent_taken where id = '{task_id}'"
    if verb == "claim":
        return cli_env, ["claim", "--bot", "paco"], done_when
    if verb == "annuleer":
        return cli_env, ["annuleer", task_id, "--reden", "niet meer nodig"], done_when
    if verb == "stap":
        return (
            cli_env,
            ["stap", task_id, "eerst koffie"],
            f"select volgende_stap from agent_taken where id = '{task_id}'",
        )
    claimed = json.loads(run_taak(cli_env, "claim", "--bot", "paco", "--json").out)
    session = {**cli_env, "TAAK_ID": task_id, "TAAK_TOKEN": claimed["lease_token"], "TAAK_BOT": "paco"}
    if verb == "klaar":
        return session, ["klaar", "--bewijs", "/tmp/bewijs"], done_when
    assert run_taak(session, "blokkeer", "welke kleur?").code == 0
    return cli_env, ["antwoord", task_id, "blauw"], done_when


@pytest.mark.parametrize("verb", ["antwoord", "annuleer", "stap", "klaar", "claim"])
async def test_a_ctrl_c_once_any_change_is_on_its_way_is_taken_after_it_is_made_and_said(
    cli_env: dict[str, str], conn: asyncpg.Connection, verb: str
) -> None:
    """As `nieuw` above: an answer whose Ctrl-C made it and said nothing was typed again and stored twice; a claim
    interrupted so held a task whose token nobody had until its lease ran out."""
    env, words, done_when = await _a_task_for(verb, cli_env)
    before = await conn.fetchval(done_when)
    code, out, err = await _interrupted_while_the_ledger_waits(conn, env, words, presses=1)
    assert err.startswith("taak: Ctrl-C: wat al onderweg is naar de database wordt afgemaakt en gemeld;")
    assert (code, out != "") == (0, True), err
    assert await conn.fetchval(done_when) != before


@pytest.mark.slow
@pytest.mark.parametrize(
    "verb", ["nieuw", "log", "claim", "bot aan", "machine zet", "lll", "archief bijwerken", "hooks install"]
)
async def test_a_ctrl_c_after_the_change_is_said_leaves_the_command_done(
    cli_env: dict[str, str], conn: asyncpg.Connection, verb: str, tmp_path: Path
) -> None:
    """Between the printed line and the process's end (closing the connection, the interpreter's exit) a Ctrl-C
    ended a done command with 130 or by the signal itself: `ID=$(taak nieuw ...) || taak nieuw ...` made the
    task twice, `eval "$(taak claim ...)" && ...` left the claimed task held; a script took a bot switched on, a
    topic opened or an archive brought up to date for a failure (tester L)."""
    import signal
    import subprocess
    import sys

    codes = []
    for attempt in range(8):
        task_id = await ledger_on(conn).nieuw(NewTask(f"taak {attempt}", "jamal", toegewezen_aan="paco"))
        words = {
            "nieuw": ["nieuw", "nog een"],
            "log": ["log", task_id, "notitie", "regel"],
            "claim": ["claim", "--bot", "paco"],
            "bot aan": ["bot", "aan", "paco"],
            "machine zet": ["machine", "zet", f"kast-{attempt}", "--bot", "paco"],
            "lll": ["lll", f"onderwerp {attempt}"],
            "archief bijwerken": ["archief", "bijwerken"],
            "hooks install": ["hooks", "install", "--settings", str(tmp_path / f"settings-{attempt}.json")],
        }
        command = [sys.executable, "-m", "worker.cli.taak", *words[verb]]
        typed = subprocess.Popen(command, env=cli_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert typed.stdout is not None
        said = await anyio.to_thread.run_sync(typed.stdout.readline)
        assert said.strip()
        await anyio.sleep(0.005 * attempt)
        typed.send_signal(signal.SIGINT)
        _out, err = await anyio.to_thread.run_sync(lambda: typed.communicate(timeout=30))  # noqa: B023
        # A Ctrl-C a moment before the deferral ends is said (the change was still being finished), not after.
        codes.append((typed.returncode, err if not err.startswith("taak: Ctrl-C: ") else ""))
    assert codes == [(0, "")] * 8


@pytest.mark.parametrize(
    ("program", "words", "code"),
    [("taak", ["lijst"], 130), ("taak", ["tail"], 0), ("queue-worker", [], 130)],
    ids=["taak", "taak-tail", "queue-worker"],
)
def test_a_ctrl_c_while_the_command_still_loads_ends_it_quietly(program: str, words: list[str], code: int) -> None:
    """The console script imports worker.cli.entry first; a Ctrl-C landing in its imports (or right after,
    before the command's guard) printed Python's KeyboardInterrupt traceback."""
    import subprocess
    import sys

    script = (
        f"import sys; sys.argv = [{program!r}, *{words!r}]; import os, signal, time; import worker.cli.entry; "
        "os.kill(os.getpid(), signal.SIGINT); time.sleep(10)"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=30)
    assert (done.returncode, done.stdout, done.stderr) == (code, "", "")


@pytest.mark.parametrize("end", ["klaar", "annuleer"])
async def test_a_step_for_a_finished_task_is_refused_and_changes_nothing(
    cli_env: dict[str, str], conn: asyncpg.Connection, end: str
) -> None:
    """`taak stap` set a next step on a finished or cancelled task that nobody will take up, and said it did;
    `antwoord` and `annuleer` refuse such a task."""
    task_id = run_taak(cli_env, "nieuw", "lamp vervangen", "--aan", "paco", "--van", "jamal").out.strip()
    if end == "klaar":
        claimed = json.loads(run_taak(cli_env, "claim", "--bot", "paco", "--json").out)
        session = {**cli_env, "TAAK_ID": task_id, "TAAK_TOKEN": claimed["lease_token"], "TAAK_BOT": "paco"}
        assert run_taak(session, "klaar", "--bewijs", "/tmp/foto.jpg").code == 0
    else:
        assert run_taak(cli_env, "annuleer", task_id, "--reden", "niet meer nodig").code == 0
    before = await snapshot(conn)
    refused = run_taak({**cli_env, "TAAK_LANGUAGE": "nl"}, "stap", task_id, "eerst de trap pakken")
    assert refused.code == 1
    status = "klaar" if end == "klaar" else "geannuleerd"
    assert one_line(refused).startswith(f"taak: {task_id} is {status}: daar zet niemand nog een stap;")
    assert await snapshot(conn) == before


async def test_a_log_line_without_its_text_is_said_so_with_a_command_that_works(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    """`taak log HV-... notitie` answered only with the usage line (tester M)."""
    import shlex

    task_id = run_taak(cli_env, "nieuw", "lamp vervangen", "--van", "jamal").out.strip()
    before = await snapshot(conn)
    refused = run_taak({**cli_env, "TAAK_LANGUAGE": "nl"}, "log", task_id, "notitie")
    assert refused.code == 2
    said = one_line(refused)
    assert said == f'taak: de tekst ontbreekt na notitie: taak log {task_id} notitie "wat er gebeurde"'
    assert await snapshot(conn) == before
    typed = shlex.split(said.split(": ", 2)[2])
    assert run_taak(cli_env, *typed[1:]).code == 0
    assert await conn.fetchval("select tekst from agent_taak_log where taak_id = $1 order by id desc", task_id) == (
        "wat er gebeurde"
    )


@pytest.mark.slow
async def test_a_ctrl_c_at_any_moment_of_a_file_change_leaves_it_made_and_said_or_neither(
    cli_env: dict[str, str], tmp_path: Path
) -> None:
    """asyncio holds a Ctrl-C until the command's next wait; `lll` writes its file without one, so a Ctrl-C
    before its change went on to make it, print it, and end with 130 (tester N: 25 such runs). Whenever it
    comes, the topic is opened and said with exit 0, or neither with 130."""
    import signal
    import subprocess
    import sys

    env = {**cli_env, "TAAK_DATA_DIR": str(tmp_path / "lll-data")}
    outcomes = []
    # From while it loads to well after it is done, however slow the machine: the later moments reach past the change.
    moments = [0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.65, 0.8, 1.0, 1.5, 2.5, 4.0]
    for attempt, moment in enumerate(moments):
        typed = subprocess.Popen(
            [sys.executable, "-m", "worker.cli.taak", "lll", f"onderwerp {attempt}"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        await anyio.sleep(moment)
        typed.send_signal(signal.SIGINT)
        out, err = await anyio.to_thread.run_sync(lambda: typed.communicate(timeout=30))  # noqa: B023
        shown = run_taak(env, "lll", "toon").out
        # -2, or 1 with the interpreter's own fatal line (its site module or `python -m`'s runpy interrupted): the
        # interpreter itself was still starting, before taak's first line
        starting = "init_import_site" in err or "Could not import runpy module" in err
        code = -2 if (typed.returncode, starting) == (1, True) else typed.returncode
        outcomes.append((attempt, code, out.strip(), f"onderwerp {attempt}" in shown))
    for attempt, code, out, opened in outcomes:
        # nothing done and nothing said, or done and said
        assert (code, out, opened) in ((0, f"open: onderwerp {attempt}", True), (130, "", False), (-2, "", False)), (
            outcomes
        )
    assert {code for _, code, _, _ in outcomes} >= {0}  # the moments reached past the change too


async def test_a_cancel_with_its_reason_typed_without_reden_names_the_words(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    """`taak annuleer ID toch niet` said only the usage, where `vrijgeven` names the words it did not expect."""
    task_id = run_taak(cli_env, "nieuw", "Vervang de lamp", "--aan", "paco").out.strip()
    before = await snapshot(conn)
    refused = run_taak(cli_env, "annuleer", task_id, "toch", "niet")
    assert (refused.code, one_line(refused)) == (2, "taak: usage: taak annuleer ID --reden R (unexpected: toch niet)")
    assert await snapshot(conn) == before


async def test_bot_lijst_shows_every_task_a_bot_holds_and_none_once_they_are_given_back(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    """The heartbeat's column named one of a daemon's two tasks, and still named it after a clean stop gave both
    back (tester 21): the list reads what the bot holds from the ledger."""
    first = run_taak(cli_env, "nieuw", "eerste", "--aan", "paco").out.strip()
    second = run_taak(cli_env, "nieuw", "tweede", "--aan", "paco").out.strip()
    for _ in range(2):
        assert run_taak(cli_env, "claim", "--bot", "paco").code == 0
    await conn.execute("update agent_bots set huidige_taak = $1 where bot = 'paco'", first)  # as a heartbeat left it

    def held() -> object:
        (paco,) = [b for b in json.loads(run_taak(cli_env, "bot", "lijst", "--json").out) if b["bot"] == "paco"]
        return paco["huidige_taak"]

    assert held() == f"{first}, {second}"
    for task_id in (first, second):
        assert run_taak(cli_env, "vrijgeven", task_id).code == 0  # the owner takes each back
    assert held() is None
