"""The owner's channel on a real database and a local fake of Telegram's Bot API: urgent at once and the rest in the
digest, quiet hours, one digest for two daemons, a missed digest sent late once, answers from the phone as `antwoord`
rows, a stranger's chat ignored, one reader at a time, and a channel that is down losing nothing."""

from __future__ import annotations

import re
import shlex
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import anyio
import asyncpg
import pytest

from tests.fakes.fake_telegram import OWNER_CHAT, TOKEN, FakeTelegram, fake_telegram
from tests.system.harness import wait_for
from worker.daemon.channel import OwnerChannel, channels_of
from worker.daemon.outbox import make_reminders
from worker.db import bots
from worker.db.channel import preview as channel_preview
from worker.db.ledger import NewTask
from worker.db.store import Store
from worker.settings import Settings

AMS = ZoneInfo("Europe/Amsterdam")


def clock_of(moment: datetime) -> str:
    """A time of day as TAAK_DIGEST_TIMES and TAAK_QUIET_HOURS write it."""
    return moment.astimezone(AMS).strftime("%H:%M")


def said_at(moment: datetime) -> str:
    """A pattern for a moment as the digest says it: its time of day, with the date before it when it is not today
    (the slot three hours from now falls on tomorrow from 21:00 in Amsterdam on)."""
    return rf"(\d{{1,2}} \w+ )?{clock_of(moment)}"


def minutes(n: float) -> datetime:
    """A moment n minutes from now (the database's now() and the daemon's clock are the same real clock: the
    tests put the digest's times and the quiet hours around it)."""
    return datetime.now(UTC) + timedelta(minutes=n)


@pytest.fixture
def telegram() -> Iterator[FakeTelegram]:
    with fake_telegram() as fake:
        yield fake


def settings_for(db_url: str, tmp_path: Path, fake: FakeTelegram | None, **changes: Any) -> Settings:
    values: dict[str, Any] = {
        "database_url": db_url,
        "data_dir": tmp_path / "data",
        "timezone": "Europe/Amsterdam",
        "owner": "jamal",
        "outbox_seconds": 0.2,
        "digest_times": clock_of(minutes(180)),  # the next digest in three hours, none due
        "quiet_hours": "",
    }
    if fake is not None:
        values.update(telegram_token=TOKEN, telegram_chat=str(OWNER_CHAT), telegram_api=fake.root)
    return Settings(_env_file=None, **{**values, **changes})  # type: ignore[call-arg]


class Daemon:
    """One daemon's owner's channel, in the test's loop; its channels known to the fleet since an hour ago."""

    def __init__(self, pool: asyncpg.Pool, settings: Settings, holder: str = "testbox:1") -> None:
        self.store = Store(pool, settings)
        self.channel = OwnerChannel(self.store, _direct, channels_of(settings), holder)

    async def route_and_deliver(self) -> None:
        await make_reminders(self.store.db, self.store.settings)
        for channel in self.channel.channels:
            await self.store.db.execute(
                "insert into taak_kanalen (kanaal, sinds) values ($1, now() - interval '1 hour') "
                "on conflict do nothing",
                channel.key,
            )
        await self.channel.route_due()
        await self.channel.digest_due()
        for channel in self.channel.channels:
            while await self.channel.deliver_one(channel):
                pass


async def _direct(what: str, operation: Any) -> Any:
    return await operation()


async def _is(read: Any, expected: object) -> bool:
    return bool(await read() == expected)


async def sent_before(pool: asyncpg.Pool, moment: datetime) -> None:
    """A digest another daemon sent at `moment`: the one before those the test is about."""
    await pool.execute("insert into taak_dagberichten (moment, machine, laat) values ($1, 'elders', false)", moment)


async def question(store: Store, bot: str, text: str, *, urgent: bool = False) -> str:
    """A task of `bot` that asks the owner `text`."""
    task_id = await store.tasks.nieuw(
        NewTask(opdracht=f"opdracht voor {bot}", opdrachtgever="jamal", toegewezen_aan=bot, titel=f"taak van {bot}")
    )
    claim = await store.tasks.claim([bot])
    assert claim is not None
    assert claim.task.id == task_id
    await store.tasks.blokkeer(task_id, text, token=claim.token, meta={"dringend": True} if urgent else None)
    return task_id


async def failed(store: Store, bot: str) -> str:
    """A task of `bot` that failed its last attempt."""
    task_id = await store.tasks.nieuw(
        NewTask(opdracht="render", opdrachtgever="jamal", toegewezen_aan=bot, titel="render de video", max_pogingen=1)
    )
    claim = await store.tasks.claim([bot])
    assert claim is not None
    await store.tasks.poging_mislukt(
        task_id, claim.token, reden="exit 1", notitie=None, sessie=None, meta={}, backoff_base=1, backoff_max=1
    )
    return task_id


async def test_urgent_at_once_the_rest_in_the_digest(
    db_url: str, pool: asyncpg.Pool, tmp_path: Path, known_bots: None, telegram: FakeTelegram
) -> None:
    settings = settings_for(db_url, tmp_path, telegram)
    daemon = Daemon(pool, settings)
    await sent_before(pool, minutes(-60))
    plain = await question(daemon.store, "paco", "Welk budget, 150 of 200?")
    urgent = await question(daemon.store, "sjakie", "De printer is leeg: nu bestellen?", urgent=True)
    broken = await failed(daemon.store, "coco")
    await daemon.route_and_deliver()
    sent = telegram.texts_to()
    assert len(sent) == 2
    assert sent[0].startswith(f"{urgent}: De printer is leeg: nu bestellen?")
    assert broken in sent[1]
    assert not any(plain in text for text in sent)

    due = minutes(-1)
    daemon.channel.store = Store(pool, settings.replaced(digest_times=clock_of(due)))
    await daemon.route_and_deliver()
    digest = telegram.texts_to()[2]
    assert len(telegram.texts_to()) == 3
    assert digest.startswith(f"Dagbericht {clock_of(due)}")
    assert "(te laat" not in digest
    assert f"{plain} (paco, wacht " in digest
    assert "Welk budget, 150 of 200?" in digest
    assert f"{broken} (coco): render de video, na 1 van 1 pogingen" in digest
    assert await pool.fetchval("select count(*) from taak_meldingen where verstuurd is null") == 0


async def test_the_digest_says_what_failed_and_finished_since_the_digest_before(
    db_url: str, pool: asyncpg.Pool, tmp_path: Path, known_bots: None, telegram: FakeTelegram
) -> None:
    settings = settings_for(db_url, tmp_path, telegram, digest_times=clock_of(minutes(-1)))
    daemon = Daemon(pool, settings)
    await sent_before(pool, minutes(-60))
    before = await failed(daemon.store, "coco")
    broken = await failed(daemon.store, "coco")
    # One closed before the digest before this one (it said so then), one between the two (this one says so).
    await pool.execute("update agent_taken set afgerond = now() - interval '90 minutes' where id = $1", before)
    await pool.execute("update agent_taken set afgerond = now() - interval '10 minutes' where id = $1", broken)
    await daemon.route_and_deliver()
    digest = next(text for text in telegram.texts_to() if text.startswith("Dagbericht"))
    assert f"{broken} (coco): render de video, na 1 van 1 pogingen" in digest
    assert before not in digest


async def test_a_bot_past_its_urgent_limit_waits_for_the_digest_which_says_so(
    db_url: str, pool: asyncpg.Pool, tmp_path: Path, known_bots: None, telegram: FakeTelegram
) -> None:
    settings = settings_for(db_url, tmp_path, telegram, urgent_per_bot_per_day=2)
    daemon = Daemon(pool, settings)
    await sent_before(pool, minutes(-60))
    asked = [await question(daemon.store, "paco", f"vraag {n}", urgent=True) for n in range(3)]
    await daemon.route_and_deliver()
    assert [text.split(":")[0] for text in telegram.texts_to()] == asked[:2]
    daemon.channel.store = Store(pool, settings.replaced(digest_times=clock_of(minutes(-1))))
    await daemon.route_and_deliver()
    digest = telegram.texts_to()[-1]
    assert f"{asked[2]} (paco, wacht" in digest
    assert "dringend, maar de bot had zijn 2 dringende berichten van vandaag al gestuurd" in digest
    assert "paco: 3 sessies, 0 klaar, $0.00, 2 van 2 dringend" in digest


async def test_quiet_hours_hold_urgent_messages_but_not_a_failure(
    db_url: str, pool: asyncpg.Pool, tmp_path: Path, known_bots: None, telegram: FakeTelegram
) -> None:
    ends = minutes(90)
    settings = settings_for(db_url, tmp_path, telegram, quiet_hours=f"{clock_of(minutes(-90))}-{clock_of(ends)}")
    daemon = Daemon(pool, settings)
    urgent = await question(daemon.store, "paco", "Mag de deur open?", urgent=True)
    broken = await failed(daemon.store, "coco")
    await daemon.route_and_deliver()
    assert [broken in text for text in telegram.texts_to()] == [True]
    held = await pool.fetchval("select volgende_poging from taak_meldingen where taak_id = $1", urgent)
    assert held == ends.replace(second=0, microsecond=0)
    # The hold is in the database: a daemon asks again only then. Here the quiet hours end at once instead.
    await pool.execute("update taak_meldingen set volgende_poging = now() where taak_id = $1", urgent)
    daemon.channel.store = Store(pool, settings.replaced(quiet_hours=""))
    await daemon.route_and_deliver()
    assert telegram.texts_to()[1].startswith(f"{urgent}: Mag de deur open?")


async def test_two_daemons_send_one_digest_on_each_channel(
    db_url: str, pool: asyncpg.Pool, tmp_path: Path, known_bots: None, telegram: FakeTelegram
) -> None:
    received = tmp_path / "cmd.txt"
    copy = (
        f'{shlex.quote(sys.executable)} -c \'import sys; open(sys.argv[1], "a").write(sys.stdin.read() + "\\n--\\n")\''
    )
    command = f"{copy} {shlex.quote(str(received))}"
    due = clock_of(minutes(-1))
    first = Daemon(pool, settings_for(db_url, tmp_path / "a", telegram, notify_cmd=command, digest_times=due), "a:1")
    second = Daemon(pool, settings_for(db_url, tmp_path / "b", telegram, notify_cmd=command, digest_times=due), "b:2")
    await sent_before(pool, minutes(-60 * 24))
    await question(first.store, "paco", "Welke kleur?")
    async with anyio.create_task_group() as both:
        both.start_soon(first.route_and_deliver)
        both.start_soon(second.route_and_deliver)
    await first.route_and_deliver()
    await second.route_and_deliver()
    assert len([t for t in telegram.texts_to() if t.startswith(f"Dagbericht {due}")]) == 1
    assert received.read_text().count(f"Dagbericht {due}") == 1
    assert await pool.fetchval("select count(*) from taak_dagberichten") == 2  # yesterday's and this one


async def test_a_missed_digest_is_sent_once_and_says_it_is_late(
    db_url: str, pool: asyncpg.Pool, tmp_path: Path, known_bots: None, telegram: FakeTelegram
) -> None:
    missed = minutes(-120)  # every daemon was down when it was due, two hours ago
    daemon = Daemon(
        pool, settings_for(db_url, tmp_path, telegram, digest_times=f"{clock_of(missed)},{clock_of(minutes(240))}")
    )
    await sent_before(pool, minutes(-60 * 20))
    assert await daemon.channel.digest_due()
    assert not await daemon.channel.digest_due()
    await daemon.route_and_deliver()
    sent_at = datetime.now(UTC)
    (said,) = telegram.texts_to()
    late = rf"\(te laat: verstuurd {clock_of(sent_at)}; een daemon was uit toen het moest\)"
    assert re.fullmatch(rf"Dagbericht {said_at(missed)}: niets te melden\. {late}", said)


async def reader_until(daemon: Daemon, done: Any, timeout: float = 15) -> None:
    """Run the daemon's Telegram reader until `done()` holds."""
    channel = next(c for c in daemon.channel.channels if c.key.startswith("telegram"))
    with anyio.fail_after(timeout):
        async with anyio.create_task_group() as reading:
            reading.start_soon(daemon.channel.reader, channel)
            await wait_for(done, what="the reader")
            reading.cancel_scope.cancel()


async def test_answers_from_the_phone_become_antwoord_rows(
    db_url: str, pool: asyncpg.Pool, tmp_path: Path, known_bots: None, telegram: FakeTelegram
) -> None:
    daemon = Daemon(pool, settings_for(db_url, tmp_path, telegram))
    by_reply = await question(daemon.store, "paco", "Welk budget?", urgent=True)
    by_id = await question(daemon.store, "sjakie", "Welke foto?")
    await daemon.route_and_deliver()
    asked = telegram.sent[0]["message_id"]
    telegram.owner_writes("200 euro", reply_to=asked)
    telegram.owner_writes(f"{by_id} de tweede, met de hond")
    telegram.owner_writes("hoi")

    async def answered() -> bool:
        return len(telegram.texts_to()) >= 4

    await reader_until(daemon, answered)
    rows = await pool.fetch("select taak_id, bot, tekst from agent_taak_log where soort = 'antwoord' order by id")
    assert [(r["taak_id"], r["bot"], r["tekst"]) for r in rows] == [
        (by_reply, "jamal", "200 euro"),
        (by_id, "jamal", "de tweede, met de hond"),
    ]
    statuses = await pool.fetch("select status from agent_taken where id = any($1::text[])", [by_reply, by_id])
    assert {r["status"] for r in statuses} == {"wachtend"}
    replies = telegram.texts_to()[1:]
    assert replies[0] == f"Antwoord op {by_reply} bewaard; de taak staat weer in de wachtrij."
    assert replies[1] == f"Antwoord op {by_id} bewaard; de taak staat weer in de wachtrij."
    assert replies[2] == "Er wacht geen taak op je antwoord."


async def test_a_reply_that_names_no_waiting_task_says_which_wait(
    db_url: str, pool: asyncpg.Pool, tmp_path: Path, known_bots: None, telegram: FakeTelegram
) -> None:
    daemon = Daemon(pool, settings_for(db_url, tmp_path, telegram))
    one = await question(daemon.store, "paco", "A?")
    two = await question(daemon.store, "sjakie", "B?")
    telegram.owner_writes("ja")

    async def replied() -> bool:
        return len(telegram.texts_to()) >= 1

    await reader_until(daemon, replied)
    assert telegram.texts_to() == [
        f"Welke taak? Er wachten: {one}, {two}. Schrijf het ID voor je antwoord (HV-... je antwoord), "
        "of reageer op het bericht van die taak."
    ]
    assert await pool.fetchval("select count(*) from agent_taak_log where soort = 'antwoord'") == 0


async def test_a_strangers_chat_is_ignored(
    db_url: str, pool: asyncpg.Pool, tmp_path: Path, known_bots: None, telegram: FakeTelegram
) -> None:
    daemon = Daemon(pool, settings_for(db_url, tmp_path, telegram))
    waiting = await question(daemon.store, "paco", "A?")
    stranger = telegram.owner_writes(f"{waiting} ja hoor", chat=999)

    async def passed() -> bool:
        return bool(await pool.fetchval("select volgende_update > $1 from taak_lezers", stranger))

    await reader_until(daemon, passed)
    assert await pool.fetchval("select count(*) from agent_taak_log where soort = 'antwoord'") == 0
    assert telegram.sent == []


async def test_one_reader_at_a_time_and_another_takes_over(
    db_url: str, pool: asyncpg.Pool, tmp_path: Path, known_bots: None, telegram: FakeTelegram
) -> None:
    first = Daemon(pool, settings_for(db_url, tmp_path / "a", telegram), "a:1")
    second = Daemon(pool, settings_for(db_url, tmp_path / "b", telegram), "b:2")
    waiting = [await question(first.store, "paco", f"vraag {n}") for n in range(2)]
    channel = next(c for c in first.channel.channels if c.key.startswith("telegram"))
    other = next(c for c in second.channel.channels if c.key.startswith("telegram"))

    async def answers() -> int:
        return int(await pool.fetchval("select count(*) from agent_taak_log where soort = 'antwoord'"))

    async def holder() -> str | None:
        found: str | None = await pool.fetchval("select houder from taak_lezers")
        return found

    with anyio.fail_after(30):
        async with anyio.create_task_group() as both:
            reading_first = anyio.CancelScope()

            async def run_first() -> None:
                with reading_first:
                    await first.channel.reader(channel)

            both.start_soon(run_first)
            await wait_for(lambda: _is(holder, "a:1"), what="the first reader")
            both.start_soon(second.channel.reader, other)  # it finds the lease taken, and waits
            telegram.owner_writes(f"{waiting[0]} ja")
            await wait_for(lambda: _is(answers, 1), what="the first answer")
            assert await holder() == "a:1"
            reading_first.cancel()  # the first daemon stops: it lets go, and the second reads from there
            telegram.owner_writes(f"{waiting[1]} nee")
            await wait_for(lambda: _is(answers, 2), what="the second answer")
            assert await holder() == "b:2"
            both.cancel_scope.cancel()
    assert telegram.conflicts == 0
    assert telegram.readers_at_once == 1
    assert await answers() == 2


@pytest.mark.slow
async def test_a_reader_waiting_out_a_refusing_telegram_stays_the_reader_and_says_when_it_is_back(
    db_url: str, pool: asyncpg.Pool, tmp_path: Path, known_bots: None, telegram: FakeTelegram
) -> None:
    """Its wait between polls outgrew its lease of three polls: another daemon took the channel over in the middle
    of the trouble, and nobody ever said `telegram_back` (outside tester 60)."""
    from structlog.testing import capture_logs

    first = Daemon(pool, settings_for(db_url, tmp_path / "a", telegram), "a:1")
    second = Daemon(pool, settings_for(db_url, tmp_path / "b", telegram), "b:2")
    channel = next(c for c in first.channel.channels if c.key.startswith("telegram"))
    other = next(c for c in second.channel.channels if c.key.startswith("telegram"))

    async def holder() -> str | None:
        found: str | None = await pool.fetchval("select houder from taak_lezers")
        return found

    telegram.refusing = True
    with capture_logs() as said, anyio.fail_after(60):

        async def back() -> bool:
            return any(e["event"] == "telegram_back" for e in said)

        async with anyio.create_task_group() as both:
            both.start_soon(first.channel.reader, channel)
            await wait_for(lambda: _is(holder, "a:1"), what="the first reader")
            both.start_soon(second.channel.reader, other)  # it finds the lease taken, and waits
            # Refused at about 0, 2, 6 and 14 s (a poll every second, the wait doubling): then a wait of 16 s, twice
            # a lease of three polls.
            await anyio.sleep(25)
            assert await holder() == "a:1"
            telegram.refusing = False
            await wait_for(back, timeout=20, what="telegram_back")
            both.cancel_scope.cancel()
    assert [e["event"] for e in said if e["event"].startswith("telegram_")] == ["telegram_unreachable", "telegram_back"]
    assert telegram.conflicts == 0


async def test_a_channel_that_is_down_holds_up_no_other_and_loses_nothing(
    db_url: str, pool: asyncpg.Pool, tmp_path: Path, known_bots: None, telegram: FakeTelegram
) -> None:
    received = tmp_path / "cmd.txt"
    copy = f'{shlex.quote(sys.executable)} -c \'import sys; open(sys.argv[1], "a").write(sys.stdin.read() + "\\n")\''
    daemon = Daemon(pool, settings_for(db_url, tmp_path, telegram, notify_cmd=f"{copy} {shlex.quote(str(received))}"))
    asked = [await question(daemon.store, "paco", f"vraag {n}", urgent=True) for n in range(3)]
    telegram.down = True
    await daemon.route_and_deliver()
    assert telegram.texts_to() == []
    assert [line.split(":")[0] for line in received.read_text().splitlines() if line.startswith("HV-")] == asked
    failed_rows = await pool.fetch("select laatste_fout from taak_bezorgingen where kanaal like 'telegram:%'")
    assert len(failed_rows) == 3
    assert all("Bad Gateway" in r["laatste_fout"] for r in failed_rows)
    telegram.down = False
    await pool.execute("update taak_bezorgingen set volgende_poging = now() where verstuurd is null")
    await daemon.route_and_deliver()
    assert [text.split(":")[0] for text in telegram.texts_to()] == asked
    await daemon.route_and_deliver()
    assert len(telegram.texts_to()) == 3  # nothing twice
    assert await pool.fetchval("select count(*) from taak_bezorgingen where verstuurd is null") == 0


async def test_the_preview_is_the_next_digest_unsent(
    db_url: str, pool: asyncpg.Pool, tmp_path: Path, known_bots: None, telegram: FakeTelegram
) -> None:
    from worker.db.channel import preview

    daemon = Daemon(pool, settings_for(db_url, tmp_path, telegram))
    asked = await question(daemon.store, "paco", "Welk budget?")
    slot, text = await preview(pool, daemon.store.settings, datetime.now(UTC))
    assert slot is not None
    assert clock_of(slot) == clock_of(minutes(180))
    assert re.fullmatch(f"Dagbericht {said_at(slot)}", text.splitlines()[0])
    assert f"{asked} (paco, wacht" in text
    assert await pool.fetchval("select count(*) from taak_dagberichten") == 0
    assert telegram.sent == []


def test_telegram_refusing_is_said_once_and_polled_ever_less_often() -> None:
    from structlog.testing import capture_logs

    from worker.daemon.channel import Trouble

    trouble = Trouble()
    with capture_logs() as said:
        for _ in range(30):
            trouble.failed("telegram_unreachable", "Unauthorized")
        waits = [trouble.wait(1.0)]
        trouble.failed("telegram_unreachable", "Bad Gateway")
        trouble.over()
    assert [(e["event"], e.get("error")) for e in said] == [
        ("telegram_unreachable", "Unauthorized"),
        ("telegram_unreachable", "Bad Gateway"),
        ("telegram_back", None),
    ]
    assert waits == [300.0]
    assert trouble.wait(1.0) == 1.0


async def test_a_confirmation_telegram_did_not_take_is_sent_when_it_is_back(
    db_url: str, pool: asyncpg.Pool, tmp_path: Path, known_bots: None, telegram: FakeTelegram
) -> None:
    daemon = Daemon(pool, settings_for(db_url, tmp_path, telegram))
    asked = await question(daemon.store, "paco", "Welk budget?")
    telegram.down = True
    telegram.owner_writes(f"{asked} 200 euro")

    async def tried() -> bool:
        return bool(await pool.fetchval("select count(*) from taak_bezorgingen where laatste_fout is not null"))

    await reader_until(daemon, tried)
    assert await pool.fetchval("select count(*) from agent_taak_log where soort = 'antwoord'") == 1
    assert telegram.texts_to() == []
    telegram.down = False
    await pool.execute("update taak_bezorgingen set volgende_poging = now() where verstuurd is null")
    channel = next(c for c in daemon.channel.channels if c.key.startswith("telegram"))
    while await daemon.channel.deliver_one(channel):
        pass
    assert telegram.texts_to() == [f"Antwoord op {asked} bewaard; de taak staat weer in de wachtrij."]
    assert await pool.fetchval("select count(*) from taak_bezorgingen where verstuurd is null") == 0


async def unserved(store: Store) -> str:
    """A task for anyone that needs a skill only sjakie has, while sjakie is switched off."""
    await bots.set_skills(store.db, "sjakie", ["beeld"])
    return await store.tasks.nieuw(
        NewTask(opdracht="Bewerk de foto", opdrachtgever="jamal", nodig="beeld", titel="bewerk de foto")
    )


async def test_a_need_no_switched_on_bot_has_is_said_once_in_the_digest(
    db_url: str, pool: asyncpg.Pool, tmp_path: Path, known_bots: None, telegram: FakeTelegram
) -> None:
    settings = settings_for(db_url, tmp_path, telegram)
    daemon = Daemon(pool, settings)
    await sent_before(pool, minutes(-60))
    task_id = await unserved(daemon.store)
    await daemon.route_and_deliver()
    await daemon.route_and_deliver()  # every turn looks again: the message is made once
    assert telegram.texts_to() == []
    assert await pool.fetchval("select count(*) from taak_meldingen where soort = 'vaardigheid'") == 1

    daemon.channel.store = Store(pool, settings.replaced(digest_times=clock_of(minutes(-1))))
    await daemon.route_and_deliver()
    digest = telegram.texts_to()[-1]
    assert "Wacht op een vaardigheid die geen bot heeft die aan staat (1):" in digest
    assert f"{task_id}: bewerk de foto (nodig: beeld)" in digest
    # The next digest (as `taak dagbericht` shows it) does not say it again, though the task still waits.
    _slot, preview = await channel_preview(pool, settings.replaced(digest_times=clock_of(minutes(60))), minutes(0))
    assert task_id not in preview
    assert await pool.fetchval("select status from agent_taken where id = $1", task_id) == "wachtend"


async def test_without_a_digest_a_need_nobody_has_is_said_at_once_in_the_owners_language(
    db_url: str, pool: asyncpg.Pool, tmp_path: Path, known_bots: None, telegram: FakeTelegram
) -> None:
    daemon = Daemon(pool, settings_for(db_url, tmp_path, telegram, digest_times="", language="en"))
    task_id = await unserved(daemon.store)
    await daemon.route_and_deliver()
    await daemon.route_and_deliver()
    assert telegram.texts_to() == [
        f"{task_id}: waits for a bot that can do beeld (no switched-on bot has that skill): bewerk de foto"
    ]


async def test_without_a_digest_the_tasks_of_a_skill_nobody_has_are_said_in_one_message(
    db_url: str, pool: asyncpg.Pool, tmp_path: Path, known_bots: None, telegram: FakeTelegram
) -> None:
    # Fifty tasks that needed tekst were fifty messages; each task is still told of once.
    daemon = Daemon(pool, settings_for(db_url, tmp_path, telegram, digest_times="", language="en"))
    await bots.set_words(daemon.store.db, "tekst", None)
    poems = [
        await daemon.store.tasks.nieuw(NewTask(opdracht=f"Gedicht {n}", opdrachtgever="jamal", nodig="tekst"))
        for n in range(7)
    ]
    photo = await unserved(daemon.store)
    await daemon.route_and_deliver()
    await daemon.route_and_deliver()
    assert sorted(telegram.texts_to()) == sorted(
        [
            "7 tasks wait for a bot that can do tekst (no switched-on bot has that skill): "
            f"{', '.join(poems[:5])} (+2)",
            f"{photo}: waits for a bot that can do beeld (no switched-on bot has that skill): bewerk de foto",
        ]
    )
    assert await pool.fetchval("select count(*) from taak_meldingen where verstuurd is null") == 0
    assert await pool.fetchval("select count(*) from taak_meldingen where soort = 'vaardigheid'") == 8


async def test_a_need_a_switched_on_bot_has_is_not_said(
    db_url: str, pool: asyncpg.Pool, tmp_path: Path, known_bots: None, telegram: FakeTelegram
) -> None:
    daemon = Daemon(pool, settings_for(db_url, tmp_path, telegram, digest_times=""))
    await pool.execute("update agent_bots set actief = true where bot = 'sjakie'")
    await unserved(daemon.store)
    await daemon.route_and_deliver()
    assert telegram.texts_to() == []
    assert await pool.fetchval("select count(*) from taak_meldingen") == 0
