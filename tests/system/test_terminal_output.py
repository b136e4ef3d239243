"""What reaches the owner's terminal (issue 16): text from the ledger never drives the terminal, JSON stays
exact, and bad input of the kinds a shell can produce ends in one clear line with exit 2 and changes nothing."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import asyncpg
import pytest

from tests.helpers import Result, ledger_on, run_taak, snapshot
from worker.db.ledger import NewTask

# Sets the window title, rings the bell, clears the screen, returns the carriage, reverses what follows.
HOSTILE = "Hoi \x1b]0;gekaapt\x07\x1b[2J wereld\r regel \u202eomgekeerd\x9b31m \u200fmark\u2028"
RAW = ("\x1b", "\x07", "\r", "\u202e", "\x9b", "\u200f", "\u2028")


def strings(value: object) -> list[str]:
    """Every string in a JSON value, keys and values, however deep."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for key, item in value.items() for text in (key, *strings(item))]
    if isinstance(value, list):
        return [text for item in value for text in strings(item)]
    return []


def raw_controls(text: str) -> list[str]:
    return [ch for ch in RAW if ch in text]


async def test_a_hostile_opdracht_is_shown_escaped_by_every_human_view(cli_env: dict[str, str]) -> None:
    task_id = run_taak(cli_env, "nieuw", HOSTILE, "--aan", "paco").out.strip()
    assert run_taak(cli_env, "log", task_id, "notitie", HOSTILE).code == 0
    for verb in (["toon", task_id], ["lijst"], ["overzicht"], ["recall", "--taken", "wereld"]):
        shown = run_taak(cli_env, *verb)
        assert shown.code == 0, shown.err
        assert raw_controls(shown.out) == [], verb
    toon = run_taak(cli_env, "toon", task_id).out
    assert "Hoi \\x1b]0;gekaapt\\x07\\x1b[2J wereld\\x0d regel \\u202eomgekeerd\\x9b31m \\u200fmark" in toon


@pytest.mark.slow
async def test_json_output_keeps_the_opdracht_exactly_and_escaped_the_json_way(cli_env: dict[str, str]) -> None:
    task_id = run_taak(cli_env, "nieuw", HOSTILE, "--aan", "paco").out.strip()
    assert run_taak(cli_env, "log", task_id, "notitie", HOSTILE).code == 0
    for verb in (["toon", task_id], ["lijst"], ["brief", task_id], ["recall", "--taken", "wereld"]):
        shown = run_taak(cli_env, *verb, "--json")
        assert shown.code == 0, shown.err
        assert raw_controls(shown.out) == [], verb  # C1 and the bidi controls too, which json.dumps leaves raw
        assert any(HOSTILE in text for text in strings(json.loads(shown.out))), verb
    assert json.loads(run_taak(cli_env, "toon", task_id, "--json").out)["opdracht"] == HOSTILE


def tail_until(env: dict[str, str], task_id: str, seen: str, out: Path) -> str:
    """What `taak tail ID` printed once `seen` is in it (or after 30 s), ended with Ctrl-C as a person does."""
    with out.open("wb") as sink:
        tail = subprocess.Popen(
            [sys.executable, "-m", "worker.cli.taak", "tail", task_id], env=env, stdout=sink, stderr=sink
        )
        try:
            deadline = time.monotonic() + 30
            while seen not in out.read_text(errors="replace") and time.monotonic() < deadline:
                time.sleep(0.2)
        finally:
            tail.send_signal(signal.SIGINT)
            tail.wait(timeout=10)
    return out.read_text()


async def test_tail_shows_a_hostile_log_line_escaped(cli_env: dict[str, str], tmp_path: Path) -> None:
    task_id = run_taak(cli_env, "nieuw", "gewone taak", "--aan", "paco").out.strip()
    assert run_taak(cli_env, "log", task_id, "notitie", HOSTILE).code == 0
    shown = tail_until(cli_env, task_id, "wereld", tmp_path / "tail.out")
    assert "gekaapt" in shown
    assert raw_controls(shown) == []


async def test_log_rows_of_wide_and_escaped_names_stand_in_line_in_toon_and_tail(
    cli_env: dict[str, str], conn: asyncpg.Connection, tmp_path: Path
) -> None:
    """A bot name of wide characters takes two columns each, an escaped one four or more: the text after the
    name starts in the same terminal column on every row."""
    from worker.core.terminal import columns

    task_id = run_taak(cli_env, "nieuw", "gewone taak", "--aan", "paco").out.strip()
    for bot, text in (("ＭＡＣ", "breed"), ("p\x1bco", "ontsnapt"), ("paco", "smal")):
        await conn.execute(
            "insert into agent_taak_log (taak_id, bot, soort, tekst) values ($1, $2, 'notitie', $3)",
            task_id,
            bot,
            text,
        )
    toon = run_taak(cli_env, "toon", task_id).out
    tail = tail_until(cli_env, task_id, "smal", tmp_path / "tail.out")
    for shown in (toon, tail):
        starts = {
            columns(line[: line.index(text)])
            for line in shown.splitlines()
            for text in ("breed", "ontsnapt", "smal")
            if line.endswith(text)
        }
        assert len(starts) == 1, shown


async def test_tail_of_an_unknown_task_exits_3_at_once(cli_env: dict[str, str]) -> None:
    started = time.monotonic()
    result = run_taak(cli_env, "tail", "HV-20261201-999", timeout=30)
    assert result.code == 3
    assert "HV-20261201-999" in result.err
    assert time.monotonic() - started < 25


def with_query(url: str, pair: str) -> str:
    return url + ("&" if "?" in url else "?") + pair


def run_bytes(env: dict[str, str], *args: bytes) -> Result:
    done = subprocess.run(
        [sys.executable.encode(), b"-m", b"worker.cli.taak", *args], env=env, capture_output=True, timeout=60
    )
    return Result(done.returncode, done.stdout.decode(), done.stderr.decode())


@pytest.mark.slow
async def test_bad_input_from_a_shell_is_one_line_and_exit_2_and_changes_nothing(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    run_taak(cli_env, "nieuw", "bestaande taak", "--aan", "paco")
    before = await snapshot(conn)
    cases = [
        run_bytes(cli_env, b"nieuw", b"--aan", b"paco", b"caf\xe9 in latin-1"),
        run_taak(cli_env, "lijst", "--limiet", "99999999999999999999"),
        run_taak(cli_env, "nieuw", "--aan", "paco", "--prioriteit", "3000000000", "te hoge prioriteit"),
        run_taak(cli_env, "nieuw", "--aan", "paco", "\u200b\u200d\ufeff \u2060"),
        run_taak(
            {**cli_env, "TAAK_DATABASE_URL": with_query(cli_env["TAAK_DATABASE_URL"], "sslmode=verplicht")}, "lijst"
        ),
        run_taak(cli_env, "nieuw", "--aan", "paco", "--prioriteit", "-2147483649", "te lage prioriteit"),
        run_taak({**cli_env, "TAAK_LEASE_SECONDS": "99999999999"}, "claim", "--bot", "paco"),
        # past the 4,300 digits Python's int() takes: no message of its own, no screenful of digits
        run_taak(cli_env, "lijst", "--limiet", "9" * 5000),
        run_taak({**cli_env, "TAAK_LANGUAGE": "nl", "TAAK_LEASE_SECONDS": "9" * 5000}, "claim", "--bot", "paco"),
        run_taak({**cli_env, "TAAK_DATABASE_URL": "postgresql://postgres@127.0.0.1:" + "9" * 5000 + "/x"}, "lijst"),
        run_taak(cli_env, "nieuw", "--aan", "paco", "x", "--uiterlijk", "+" + "9" * 5000 + "d"),
        run_taak(cli_env, "cockpit", "--port", "9" * 5000),
        run_bytes(cli_env, b"nieuw", b"--aan", b"paco", b"\xff\n\xfe" + b"x" * 5000),
    ]
    for result in cases:
        assert result.code == 2, result
        assert len(result.err.strip().splitlines()) == 1, result.err
        assert "Traceback" not in result.err
        assert "internal error" not in result.err
    assert "UTF-8" in cases[0].err
    assert "caf\\xe9" in cases[0].err
    assert "2147483647" in cases[1].err
    assert "leeg" in cases[3].err or "empty" in cases[3].err
    assert "sslmode=verplicht" in cases[4].err
    assert "-2147483648" in cases[5].err  # Postgres' smallest integer is the limit, and allowed
    assert "TAAK_LEASE_SECONDS" in cases[6].err
    assert "2147483647" in cases[7].err
    assert len(cases[7].err) < 300
    assert "TAAK_LEASE_SECONDS: is te groot voor een geheel getal" in cases[8].err
    assert "TAAK_DATABASE_URL" in cases[9].err
    for long_value in cases[10:]:  # what was typed is quoted cut, on one line
        assert len(long_value.err) < 400, long_value.err
        assert "…" in long_value.err
    assert "\\xff ⏎ \\xfe" in cases[12].err
    assert await snapshot(conn) == before


@pytest.mark.parametrize(
    "words",
    [
        ["lijst", "--status", "w" * 500],
        ["w" * 500],
        ["db", "w" * 500],
        ["lijst", "--bogus" + "w" * 500],
        ["nieuw", "x", "--json=" + "w" * 500],
    ],
)
def test_a_long_word_argparse_quotes_is_cut_as_every_error_line_cuts_it(
    cli_env: dict[str, str], words: list[str]
) -> None:
    """argparse's own messages quoted a pasted value whole (tester 22)."""
    refused = run_taak(cli_env, *words)
    assert refused.code == 2, refused
    assert len(refused.err.strip().splitlines()) == 1
    assert max(len(run) for run in re.findall("w+", refused.err)) <= 200, refused.err
    assert "w…" in refused.err


async def test_the_smallest_and_largest_postgres_integers_are_a_priority(cli_env: dict[str, str]) -> None:
    for priority in ("-2147483648", "2147483647"):
        made = run_taak(cli_env, "nieuw", "--aan", "paco", "--prioriteit", priority, f"prioriteit {priority}")
        assert made.code == 0, made.err
        shown = json.loads(run_taak(cli_env, "toon", made.out.strip(), "--json").out)
        assert shown["prioriteit"] == int(priority)


async def test_a_reader_that_stops_early_ends_the_command_quietly(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    for n in range(40):  # more than a pipe holds; made through the ledger, as `taak nieuw` makes them
        await ledger_on(conn).nieuw(NewTask(f"taak {n} " + "x" * 3000, "jamal", toegewezen_aan="paco"))
    lijst = subprocess.Popen(
        [sys.executable, "-m", "worker.cli.taak", "lijst", "--json"],
        env=cli_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert lijst.stdout is not None
    lijst.stdout.read(100)  # like `| head -c 100`: read a little, then go away
    lijst.stdout.close()
    _, err = lijst.communicate(timeout=60)
    assert lijst.returncode == 0
    assert err.decode() == ""


@pytest.mark.slow
async def test_tail_into_a_reader_that_went_away_ends_while_nothing_new_comes(cli_env: dict[str, str]) -> None:
    task_id = run_taak(cli_env, "nieuw", "stille taak", "--aan", "paco").out.strip()
    for n in range(5):
        assert run_taak(cli_env, "log", task_id, "notitie", f"regel {n}").code == 0
    tail = subprocess.Popen(
        [sys.executable, "-m", "worker.cli.taak", "tail", "-n", "50", task_id],
        env=cli_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert tail.stdout is not None
    # Like `| head -n 6` with six rows there: every row is read, so tail has nothing left to write, then go away.
    assert [task_id.encode() in tail.stdout.readline() for _ in range(6)] == [True] * 6
    tail.stdout.close()
    try:
        _, err = tail.communicate(timeout=30)  # no row is written after this: only the closed pipe can end it
    finally:
        tail.kill()
    assert tail.returncode == 0
    assert err.decode() == ""


FAKE_ROW = "echt\n  1 dec 18:40  klaar        paco       nep-klaar"


async def test_a_line_break_in_a_log_row_cannot_print_a_row_of_its_own(cli_env: dict[str, str], tmp_path: Path) -> None:
    task_id = run_taak(cli_env, "nieuw", "gewone taak", "--aan", "paco").out.strip()
    assert run_taak(cli_env, "log", task_id, "notitie", FAKE_ROW).code == 0
    toon = run_taak(cli_env, "toon", task_id).out.splitlines()
    (fake,) = [line for line in toon if "nep-klaar" in line]
    assert fake.lstrip().startswith("│ ")  # under the row it belongs to, behind the bar
    assert not any(line.startswith("  1 dec 18:40") for line in toon)
    said = tmp_path / "said.jsonl"
    said.write_text(
        json.dumps({"ts": "2026-11-28T10:00:00Z", "role": "user", "text": "budget multi\n[2026-12-01 10:00] paco: nep"})
        + "\n"
    )
    quiet = {**cli_env, "TAAK_SEMANTIC": "false"}  # no model helper left running after the test
    assert run_taak(quiet, "archief", "import", "--simple", str(said)).code == 0
    recall = run_taak(quiet, "recall", "budget").out.splitlines()
    assert not any(line.startswith("[2026-12-01 10:00] paco: nep") for line in recall), recall
    assert any(line.lstrip().startswith("│ [2026-12-01 10:00] paco: nep") for line in recall), recall


async def test_a_line_break_in_a_name_or_a_context_value_cannot_print_a_field_of_its_own(
    cli_env: dict[str, str], conn: asyncpg.Connection, tmp_path: Path
) -> None:
    fake = "\nstatus          klaar"
    refused = run_taak(cli_env, "nieuw", "taak", "--van", f"jan{fake}")
    assert (refused.code, refused.err.strip()) == (2, "taak: --van is one line of text")
    task_id = run_taak(
        cli_env, "nieuw", "taak", "--aan", "paco", "--context", f"a=b{fake}", "--context", f"k{fake}=v"
    ).out
    task_id = task_id.strip()
    # What other writers (the owner's SQL, an older client) can still store: a log row's writer with a line
    # break; and what a database held from before migration 024: a task's opdrachtgever with one.
    await conn.execute(
        "insert into agent_taak_log (taak_id, bot, soort, tekst) values ($1, $2, 'notitie', 'x')", task_id, f"jan{fake}"
    )
    await conn.execute("alter table agent_taken disable trigger agent_taken_nakijken_nieuw")
    other = await conn.fetchval(
        "select taak_nieuw('andere taak', $1, 'paco', null, '{}'::jsonb, null, null, 0, 3, null, null)", f"piet{fake}"
    )
    await conn.execute("alter table agent_taken enable trigger agent_taken_nakijken_nieuw")
    for verb in (["toon", task_id], ["brief", task_id], ["brief", other], ["toon", other]):
        shown = run_taak(cli_env, *verb)
        assert shown.code == 0, (verb, shown.err)
        assert not any(line.startswith(fake.strip()) for line in shown.out.splitlines()), (verb, shown.out)
    tailed = tail_until(cli_env, task_id, "⏎", tmp_path / "tail.out")
    assert not any(line.startswith(fake.strip()) for line in tailed.splitlines()), tailed
    toon = run_taak(cli_env, "toon", task_id).out
    assert "a = b ⏎ status          klaar" in toon


async def test_a_context_from_sql_is_shown_as_json_values_as_the_briefing_shows_it(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    context = {"nul": None, "lijst": ["x", "y"], "genest": {"b": [1, 2, None], "c": True}, "tekst": "gewoon"}
    task_id = await conn.fetchval(
        "select taak_nieuw('sql ctx', 'cron', 'paco', null, $1::jsonb, null, null, 0, 3, null, null)",
        json.dumps(context),
    )
    shown = run_taak(cli_env, "toon", task_id)
    assert shown.code == 0, shown.err
    lines = shown.out.splitlines()
    for line in (
        "  nul = null",
        '  lijst = ["x", "y"]',
        '  genest = {"b": [1, 2, null], "c": true}',
        "  tekst = gewoon",
    ):
        assert line in lines, shown.out
    briefed = run_taak(cli_env, "brief", task_id).out
    assert '["x", "y"]' in briefed
    assert "None" not in briefed


def test_why_a_connection_failed_is_said_in_the_runs_language(cli_env: dict[str, str], tmp_path: Path) -> None:
    from tests.conftest import with_database

    dutch = {**cli_env, "TAAK_LANGUAGE": "nl", "TAAK_CONNECT_ATTEMPTS": "1"}
    missing = run_taak(
        {**dutch, "TAAK_DATABASE_URL": with_database(cli_env["TAAK_DATABASE_URL"], "taak_nergens")}, "lijst"
    )
    assert (missing.code, missing.err.strip().endswith("(database taak_nergens bestaat niet)")) == (4, True), missing
    refused = run_taak({**dutch, "TAAK_DATABASE_URL": "postgresql://postgres@127.0.0.1:1/taak"}, "lijst")
    assert (refused.code, refused.err.strip()) == (
        4,
        "taak: database niet bereikbaar op 127.0.0.1:1 (verbinding geweigerd)",
    )
    session = {
        **dutch,
        "TAAK_SOCKET": "/tmp/taak-test-geen-daemon.sock",
        "TAAK_ID": "HV-20261202-001",
        "TAAK_TOKEN": "00000000-0000-4000-8000-000000000000",
    }
    gone = run_taak(session, "log", "notitie", "x")
    assert gone.code == 4
    assert gone.err.strip().endswith("(het socket bestaat niet: draait de daemon nog?)"), gone.err
    # A Unix socket folder without Postgres in it: the system's reason, in Dutch too.
    no_socket = {**dutch, "TAAK_DATABASE_URL": f"postgresql://postgres@/taak?host={tmp_path}&port=5439"}
    nobody = run_taak(no_socket, "lijst")
    assert (nobody.code, nobody.err.strip()) == (
        4,
        f"taak: database niet bereikbaar op {tmp_path}:5439 (daar is geen socket van Postgres)",
    )


@pytest.mark.slow
def test_a_database_url_that_can_never_connect_as_it_is_is_bad_input_in_one_line(
    cli_env: dict[str, str], tmp_path: Path
) -> None:
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(cli_env["TAAK_DATABASE_URL"])
    netloc = f"{parts.username}:geheim@{parts.netloc.rpartition('@')[2]}"  # the test servers trust: never used
    base = urlunsplit(parts._replace(netloc=netloc))
    separator = "&" if "?" in base else "?"
    # HOME without ~/.postgresql/root.crt: verify-full has no root certificate to check the server against.
    env = {**cli_env, "TAAK_LANGUAGE": "nl", "TAAK_CONNECT_ATTEMPTS": "1", "HOME": str(tmp_path)}
    cases = {
        "connect_timeout=3": (
            "TAAK_DATABASE_URL noemt een parameter die asyncpg niet kent en Postgres als instelling niet: "
            "connect_timeout ("
        ),
        "options=-c%20geen_instelling%3D1": (
            "TAAK_DATABASE_URL zet in options een instelling die Postgres niet kent: geen_instelling ("
        ),
        "sslmode=": "TAAK_DATABASE_URL is ongeldig: ",
        "target_session_attrs=primair": "TAAK_DATABASE_URL is ongeldig: ",
        "sslmode=verify-full": "TAAK_DATABASE_URL is zo niet te gebruiken: sslmode verify-ca of verify-full vraagt",
        "sslmode=verify-ca&sslrootcert=/nergens/root.crt": "TAAK_DATABASE_URL noemt een bestand dat er niet is: "
        "sslrootcert=/nergens/root.crt (",
    }
    for parameter, said in cases.items():
        done = run_taak({**env, "TAAK_DATABASE_URL": base + separator + parameter}, "lijst")
        assert done.code == 2, (parameter, done)
        assert done.err.startswith("taak: " + said), (parameter, done.err)
        assert len(done.err.strip().splitlines()) == 1
        assert "geheim" not in done.err
    attrs = run_taak({**env, "TAAK_DATABASE_URL": base + separator + "target_session_attrs=primair"}, "lijst")
    assert "(target_session_attrs=primair; kan zijn: any, primary, standby" in attrs.err, attrs.err
    doctor = run_taak({**env, "TAAK_DATABASE_URL": base + separator + "connect_timeout=3"}, "doctor")
    assert any(line.startswith("fail  database: ") and "connect_timeout" in line for line in doctor.out.splitlines()), (
        doctor
    )


def interrupted(env: dict[str, str], *words: str, after: float) -> subprocess.CompletedProcess[str]:
    """A command given Ctrl-C `after` seconds in, as a person at the terminal does."""
    process = subprocess.Popen(
        [sys.executable, "-m", "worker.cli.taak", *words],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(after)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def test_a_command_interrupted_while_it_waits_for_the_database_did_not_succeed(cli_env: dict[str, str]) -> None:
    # A port nobody listens on, and attempts enough to be still waiting when Ctrl-C comes.
    away = {**cli_env, "TAAK_DATABASE_URL": "postgresql://postgres@127.0.0.1:1/x", "TAAK_CONNECT_ATTEMPTS": "50"}
    done = interrupted(away, "nieuw", "wordt nooit gemaakt", after=2)
    assert (done.returncode, done.stdout) == (130, "")
    assert "Traceback" not in done.stderr


def sigint_at_first_import(env: dict[str, str], load: str, call: str) -> subprocess.CompletedProcess[str]:
    """Run `call` after `load` in a fresh Python whose next import (the command's own) gets SIGINT first: the
    moment Python is still loading the command."""
    script = (
        "import builtins, os, signal, sys\n"
        f"{load}\n"
        "real = builtins.__import__\n"
        "def once(*args, **kwargs):\n"
        "    builtins.__import__ = real\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    return real(*args, **kwargs)\n"
        "builtins.__import__ = once\n"
        f"{call}\n"
    )
    return subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True)


@pytest.mark.parametrize(("verb", "code"), [("lijst", 130), ("tail", 0)])  # tail is ended by Ctrl-C: always 0
def test_ctrl_c_while_the_command_is_still_loading_prints_no_traceback(
    cli_env: dict[str, str], verb: str, code: int
) -> None:
    done = sigint_at_first_import(cli_env, "from worker.cli.taak import main", f"main([{verb!r}])")
    assert (done.returncode, done.stderr) == (code, "")


@pytest.mark.parametrize("entry", ["taak", "queue_worker"])
def test_ctrl_c_while_the_console_script_loads_its_command_prints_no_traceback(
    cli_env: dict[str, str], entry: str
) -> None:
    # What pyproject's console scripts call: the signal comes while the command's module itself is imported.
    done = sigint_at_first_import(
        cli_env, f"from worker.cli.entry import {entry}", f"sys.argv = ['x', '--help']\n{entry}()"
    )
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "")


@pytest.mark.slow
def test_ctrl_c_ends_tail_as_its_way_to_stop(cli_env: dict[str, str]) -> None:
    done = interrupted(cli_env, "tail", after=3)
    assert (done.returncode, done.stderr) == (0, "")


async def test_text_that_draws_nothing_is_shown_escaped_to_people_and_kept_exact_in_json(
    cli_env: dict[str, str],
) -> None:
    # A zero-width space, a soft hyphen and Unicode's tag characters hide words a session's model still reads.
    hidden = "Ruim de schuur op\u200b\u00ad\U000e0069\U000e0067\U000e006e"
    task_id = run_taak(cli_env, "nieuw", hidden).out.strip()
    shown = run_taak(cli_env, "toon", task_id).out
    assert "Ruim de schuur op\\u200b\\xad\\U000e0069\\U000e0067\\U000e006e" in shown
    assert not any(ch in shown for ch in "\u200b\u00ad\U000e0069")
    as_json = run_taak(cli_env, "toon", task_id, "--json").out
    assert json.loads(as_json)["opdracht"] == hidden  # exact for a program
    assert not any(ch in as_json for ch in "\u200b\u00ad\U000e0069")  # and nothing hidden on a terminal


@pytest.mark.parametrize("line", ["dit is geen regel", 'TAAK_LANGUAGE="en'])
def test_a_dotenv_line_that_cannot_be_read_is_a_bad_setting_not_a_warning(
    cli_env: dict[str, str], tmp_path: Path, line: str
) -> None:
    (tmp_path / ".env").write_text(f"TAAK_POLL_SECONDS=2\n{line}\n", encoding="utf-8")
    refused = run_taak({**cli_env, "TAAK_LANGUAGE": "nl"}, "lijst", cwd=tmp_path)
    assert (refused.code, refused.out) == (2, "")
    assert (
        refused.err
        == "taak: ongeldige instelling: .env: regel 2 is geen NAAM=WAARDE (een aanhalingsteken dat niet sluit?)\n"
    )
