"""The owner's channel with real daemons and a local fake of Telegram's Bot API: an urgent question reaches the phone
once, the owner's reply lands as an `antwoord` row, and when the daemon that reads Telegram is killed another takes
over without two ever polling at once. A setting that does not parse stops a daemon at its start, in one line."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from tests.fakes.fake_telegram import OWNER_CHAT, TOKEN, FakeTelegram, fake_telegram
from tests.helpers import ledger_on, session_env, session_run
from tests.system.harness import Daemon, new_task, records, switch_on, wait_for, worker_env
from worker.db.ledger import NewTask


def channel_env(db_url: str, folder: Path, fake: FakeTelegram, bot: str) -> dict[str, str]:
    return worker_env(
        db_url,
        folder,
        TAAK_BOTS=bot,
        TAAK_MACHINE=f"{bot}-box",
        TAAK_TELEGRAM_TOKEN=TOKEN,
        TAAK_TELEGRAM_CHAT=str(OWNER_CHAT),
        TAAK_TELEGRAM_API=fake.root,
        TAAK_OUTBOX_SECONDS="0.2",
        TAAK_OWNER="jamal",
    )


async def ask(conn: asyncpg.Connection, bot: str, question: str) -> str:
    """A task of `bot` whose session asked the owner `question`, marked urgent (as `taak blokkeer --dringend`)."""
    ledger = ledger_on(conn)
    task_id = await ledger.nieuw(NewTask(f"opdracht van {bot}", "jamal", toegewezen_aan=bot))
    claim = await ledger.claim([bot])
    assert claim is not None
    await ledger.blokkeer(task_id, question, token=claim.token, meta={"dringend": True})
    return task_id


async def answers(conn: asyncpg.Connection) -> list[tuple[str, str, str]]:
    rows = await conn.fetch("select taak_id, bot, tekst from agent_taak_log where soort = 'antwoord' order by id")
    return [(r["taak_id"], r["bot"], r["tekst"]) for r in rows]


@pytest.mark.slow
async def test_an_urgent_question_answered_from_the_phone_across_a_killed_reader(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    # The bots stay switched off: the daemons claim nothing, and the test's own claims (ask) race with no one.
    with fake_telegram() as fake:
        first = Daemon(channel_env(db_url, tmp_path / "paco", fake, "paco"), tmp_path / "paco.log")
        second = Daemon(channel_env(db_url, tmp_path / "sjakie", fake, "sjakie"), tmp_path / "sjakie.log")
        try:
            asked = await ask(conn, "paco", "Welk budget voor de speakers?")
            await wait_for(lambda: _sent(fake, 1), timeout=30, what="the urgent question")
            assert fake.texts_to()[0].startswith(f"{asked}: Welk budget voor de speakers?")
            question = fake.sent[0]["message_id"]
            fake.owner_writes("200 euro", reply_to=question)
            await wait_for(lambda: _answered(conn, 1), timeout=30, what="the answer")
            # Its confirmation delivered first: a kill -9 between Telegram taking a message and the database
            # recording it sends that message again (at least once, by design); this test is about the reader.
            await wait_for(lambda: _confirmed(fake, 1), timeout=30, what="the first confirmation")
            await wait_for(lambda: _all_recorded(conn), timeout=30, what="the confirmation recorded as delivered")

            reader = await conn.fetchval("select houder from taak_lezers")
            killed = first if reader.startswith("paco-box") else second
            killed.signal(signal.SIGKILL)
            killed.wait()
            later = await ask(conn, "sjakie", "Mag de foto online?")
            fake.owner_writes(f"{later} ja, vandaag nog")
            await wait_for(lambda: _answered(conn, 2), timeout=60, what="the answer after the reader was killed")
            await wait_for(lambda: _confirmed(fake, 2), timeout=30, what="the second confirmation")
        finally:
            first.stop()
            second.stop()
        assert await answers(conn) == [(asked, "jamal", "200 euro"), (later, "jamal", "ja, vandaag nog")]
        assert await conn.fetchval("select houder from taak_lezers") != reader
        assert fake.conflicts == 0
        assert fake.readers_at_once == 1
        confirmations = [t for t in fake.texts_to() if t.startswith("Antwoord op")]
        assert confirmations == [
            f"Antwoord op {asked} bewaard; de taak staat weer in de wachtrij.",
            f"Antwoord op {later} bewaard; de taak staat weer in de wachtrij.",
        ]


@pytest.mark.slow
async def test_a_session_marks_its_question_urgent_and_the_phone_has_it_at_once(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    await switch_on(conn, "paco")
    task_id = await new_task(conn, "Bestel inkt", toegewezen_aan="paco")
    with fake_telegram() as fake:
        env = channel_env(db_url, tmp_path, fake, "paco")
        env["TAAK_AGENT_ARGS"] = "--fake-mode busy"
        env["TAAK_DIGEST_TIMES"] = "03:00"  # a digest only at night: the question cannot have come with it
        daemon = Daemon(env, tmp_path / "worker.log")
        try:
            (record,) = await wait_for(lambda: _sessions(tmp_path), what="the session")
            typed = ["taak", "blokkeer", "--dringend", "Inkt is op: mag ik bestellen?"]
            done = session_run(typed, env=session_env(record))
            await wait_for(lambda: _sent(fake, 1), timeout=30, what="the urgent question")
        finally:
            daemon.stop()
    assert done.returncode == 0, done.stderr
    assert fake.texts_to() == [
        f"{task_id}: Inkt is op: mag ik bestellen?\n"
        f"Antwoord door op dit bericht te reageren, of: {task_id} <je antwoord>"
    ]
    assert await conn.fetchval("select dringend from taak_meldingen where taak_id = $1", task_id) is True


async def _sessions(folder: Path) -> list[dict[str, object]] | None:
    found = records(folder)
    return found if len(found) >= 1 else None


async def _sent(fake: FakeTelegram, count: int) -> bool:
    return len(fake.texts_to()) >= count


async def _all_recorded(conn: asyncpg.Connection) -> bool:
    """Every message recorded as delivered. Asked of the messages, not of the deliveries: a delivery's row is made
    in the transaction that sends it, so one still being sent is not there to be seen (CI: the reader was killed
    in that moment, and the other daemon sent the confirmation again)."""
    undelivered = """select exists (select 1 from taak_berichten b where not exists
        (select 1 from taak_bezorgingen z where z.bericht_id = b.id and z.verstuurd is not null))"""
    return not await conn.fetchval(undelivered)


async def _confirmed(fake: FakeTelegram, count: int) -> bool:
    return len([t for t in fake.texts_to() if t.startswith("Antwoord op")]) >= count


async def _answered(conn: asyncpg.Connection, count: int) -> bool:
    return len(await answers(conn)) >= count


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("TAAK_DIGEST_TIMES", "25:00"),
        ("TAAK_TELEGRAM_CHAT", "de eigenaar"),
        ("TAAK_QUIET_HOURS", "laat-vroeg"),
        ("TAAK_NOTIFY_URLS", "ntfy"),
        ("TAAK_NOTIFY_URLS", "json://127.0.0.1:9/ nosuchscheme://geheim-token@huis"),
        ("TAAK_DIGEST_TIMES", "08:00,,18:00"),
    ],
)
def test_a_setting_of_the_owners_channel_that_does_not_parse_stops_the_daemon_at_its_start(
    db_url: str, tmp_path: Path, name: str, value: str
) -> None:
    env = worker_env(db_url, tmp_path, **{name: value})
    done = subprocess.run(
        [sys.executable, "-m", "worker.cli.queue_worker", "--once"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    lines = (done.stdout + done.stderr).strip().splitlines()
    assert done.returncode == 2
    assert len(lines) == 1
    assert f"{name}: " in lines[0]
    assert "geheim" not in lines[0]  # an address's token is never said


async def test_the_owner_sees_the_next_digest_and_each_bots_urgent_messages_on_the_command_line(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    from tests.helpers import run_taak

    env = {**cli_env, "TAAK_LANGUAGE": "nl", "TAAK_DIGEST_TIMES": "07:00,19:30", "TAAK_URGENT_PER_BOT_PER_DAY": "2"}
    waiting = await ask(conn, "paco", "Welk budget?")
    # The urgent question went out at once (as a daemon records it): it counts against paco's limit today.
    await conn.execute("update taak_meldingen set route = 'nu', verstuurd = now() where taak_id = $1", waiting)
    preview = run_taak(env, "dagbericht")
    listed = run_taak(env, "bot", "lijst", "--json")
    assert preview.code == 0, preview.err
    first, blank, title, *rest = preview.out.splitlines()
    assert first.startswith("Volgende dagbericht: ")
    assert first.split()[4] in ("07:00", "19:30")  # `Volgende dagbericht: 5 dec 19:30 (zo zou ...`
    assert blank == ""
    assert title.startswith("Dagbericht ")
    assert any(line.startswith(f"{waiting} (paco, wacht ") and line.endswith("Welk budget?") for line in rest)
    paco = next(b for b in json.loads(listed.out) if b["bot"] == "paco")
    assert (paco["dringend_vandaag"], paco["dringend_grens"]) == (1, 2)
    assert await conn.fetchval("select count(*) from taak_dagberichten") == 0  # a preview sends nothing


async def test_blokkeer_dringend_with_a_token_marks_the_question_urgent(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    from tests.helpers import run_taak

    ledger = ledger_on(conn)
    task_id = await ledger.nieuw(NewTask("Bestel inkt", "jamal", toegewezen_aan="paco"))
    claim = await ledger.claim(["paco"])
    assert claim is not None
    env = {**cli_env, "TAAK_ID": task_id, "TAAK_TOKEN": claim.token, "TAAK_BOT": "paco"}
    done = run_taak(env, "blokkeer", "--dringend", "Inkt op: bestellen?")
    assert done.code == 0, done.err
    row = await conn.fetchrow("select dringend, bot from taak_meldingen where taak_id = $1", task_id)
    assert (row["dringend"], row["bot"]) == (True, "paco")
