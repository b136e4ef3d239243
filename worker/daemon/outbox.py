"""The outbox (`taak_meldingen`): reminders, escalations and due dates made into it, a summary of each finished task
sent to TAAK_ON_KLAAR_CMD, and the words of a message to the owner as it goes out (the owner's channel,
worker/daemon/channel.py, routes and delivers those). A summary is sent under a row lock and recorded as sent in the
same transaction; a failed command is logged and tried again later, never dropped."""

from __future__ import annotations

import re
import shlex
import subprocess
import tempfile
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import anyio
import asyncpg
import structlog

from worker.core.phrases import Phrase, phrase
from worker.core.sink import klaar_summary
from worker.db import bots, outbox
from worker.db.sqlfiles import Executor
from worker.db.store import Store
from worker.settings import Settings

log = structlog.get_logger("queue-worker")
COMMAND_TIMEOUT_SECONDS = 60


# What this module sends itself: a finished task's summary to TAAK_ON_KLAAR_CMD. The owner's messages (questions,
# reminders, failures, due dates, escalations, brakes) go through the owner's channel (worker/daemon/channel.py).
def kinds_to_send(settings: Settings) -> list[str]:
    return ["klaar"] if settings.on_klaar_cmd else []


async def register_deliveries(db: asyncpg.Pool, settings: Settings, holders: list[str]) -> None:
    """Tell the ledger what this daemon delivers for its bots (the ledger writes a `klaar` into the outbox only when
    a daemon delivers it), so that nothing piles up undelivered."""
    await outbox.set_deliverers(db, holders, kinds_to_send(settings))


async def make_reminders(pool: Executor, settings: Settings) -> None:
    """Reminders, escalations and due dates passed, into the outbox (the owner's channel routes them)."""
    await outbox.make_reminders(pool, settings.remind_hours * 3600, settings.decide_hours * 3600)


SEND_DEADLINE_SECONDS = 120


async def send_due(store: Store, settings: Settings) -> int:
    """Send every due message this worker is configured for; returns how many went out."""
    kinds = kinds_to_send(settings)
    sent = 0
    while kinds:
        # Shielded: a stop must not fall between a command that took the message and the record that it
        # did, or the message would go out again after the restart. The deadline bounds the wait even on a
        # database that went away mid-send (the transaction then rolls back and the message stays due).
        with anyio.move_on_after(SEND_DEADLINE_SECONDS, shield=True) as shield:
            done = await _send_one(store, settings, kinds)
        if shield.cancelled_caught or done is None:
            return sent
        sent += done
    return sent


async def _send_one(store: Store, settings: Settings, kinds: list[str]) -> int | None:
    """Send the oldest due summary of a finished task: 1 when it went out, 0 when it failed, None when there was
    none."""
    async with store.transaction() as held:
        conn, ledger = held.conn, held.tasks
        row = await outbox.take_due(conn, kinds)
        if row is None:
            return None
        task = await ledger.toon(row["taak_id"])
        text = klaar_summary(task, await ledger.log_rows(task.id), settings.zone, datetime.now(UTC))
        assert settings.on_klaar_cmd is not None
        error = await run_command(settings.on_klaar_cmd, text, row["taak_id"] or "", row["soort"], settings.environ)
        if error is None:
            await outbox.sent(conn, row["id"])
            log.info("message_sent", kind=row["soort"], task_id=row["taak_id"])
            return 1
        await outbox.failed(conn, row["id"], error)
        log.warning(
            "message_failed", kind=row["soort"], task_id=row["taak_id"], error=error, attempt=row["pogingen"] + 1
        )
        return 0


async def owner_text(conn: Executor, row: asyncpg.Record, language: str) -> str | None:
    """A message to the owner as it goes out, in the sender's language; None when it is no longer true (it is
    then settled unsent, and says why)."""
    found = await outbox.facts(conn, row["taak_id"], _question_row(row["sleutel"]))
    facts = dict(found) if found is not None else None
    why = outdated_why(row["soort"], facts)
    if why is None and row["soort"] == "rem" and not await _still_braked(conn, row["sleutel"]):
        why = phrase("outdated_brake_off")
    if why is not None:  # the outbox keeps the Dutch, as the rest of the ledger's words; the log says the run's
        await outbox.outdated(conn, row["id"], str(why))
        log.info("message_outdated", kind=row["soort"], task_id=row["taak_id"], reason=why.said(language))
        return None
    said = said_again(row["soort"], row["sleutel"], row["tekst"], facts)
    return (said.said(language) if said is not None else row["tekst"]) + "\n"


QUESTION_KINDS = ("vraag", "herinnering", "escalatie")
CLOSED = ("klaar", "mislukt", "geannuleerd")


def _question_row(sleutel: str) -> int | None:
    """The log row of the question a message is about: `vraag:123`, `herinnering:vraag:123:2`."""
    found = re.search(r"(?:^|:)vraag:(\d+)", sleutel)
    return int(found.group(1)) if found else None


def outdated_why(kind: str, facts: Mapping[str, Any] | None) -> Phrase | None:
    """Why a message made earlier would tell the owner something no longer true (a question answered, or its
    task closed, before any daemon sent it; a task past its due date finished since); None: it is still news."""
    if facts is None:
        return None
    if kind in QUESTION_KINDS and (facts["beantwoord"] or facts["status"] != "wacht_op_mens"):
        return phrase("outdated_question", status=facts["status"])
    if kind == "uiterlijk" and facts["status"] in CLOSED:
        return phrase("outdated_closed", status=facts["status"])
    if kind == "vaardigheid" and (facts["status"] != "wachtend" or facts["vaardig"]):
        return phrase("outdated_served", status=facts["status"])
    return None


# The words the database writes into a message of each kind (`mislukt` apart), and the phrase that says them again.
_WRITTEN = {
    "herinnering": ("notify_reminder", r"herinnering: (?P<text>.*)"),
    "escalatie": ("notify_escalation", r"beslistermijn verstreken \((?P<hours>\d+) uur\): (?P<text>.*)"),
    "uiterlijk": (
        "notify_due_passed",
        r"(?P<id>\S+): over de uiterlijke datum \((?P<when>[^,]+), (?P<status>[a-z_]+)\): (?P<title>.*)",
    ),
    "vaardigheid": (
        "notify_unserved",
        r"(?P<id>\S+): wacht op een bot die (?P<skill>\S+) kan \(geen bot die aan staat heeft die vaardigheid\): "
        r"(?P<title>.*)",
    ),
}


def said_again(kind: str, sleutel: str, tekst: str, facts: Mapping[str, Any] | None) -> Phrase | None:
    """The words the database put in a message (Dutch, as every row it writes), as a phrase the sender says in
    its own language; None when they are not the words this version writes (then they go as they are)."""
    said = None
    if kind == "mislukt" and facts is not None:
        attempt = sleutel.rsplit(":", 1)[-1]
        said = phrase("notify_failed", id=facts["id"], attempt=attempt, of=facts["max_pogingen"], title=facts["titel"])
    elif kind in _WRITTEN and (found := re.fullmatch(_WRITTEN[kind][1], tekst, re.DOTALL)):
        said = phrase(_WRITTEN[kind][0], **found.groupdict())
    return said if said is not None and str(said) == tekst else None


async def _still_braked(conn: Executor, sleutel: str) -> bool:
    bot = sleutel.split(":")[1]
    return any(day.geremd for day in await bots.days(conn, [bot]))


async def run_command(command: str, text: str, task_id: str, kind: str, environ: Mapping[str, str]) -> str | None:
    """None when the command took the message (exit 0), else why not, in one line. `environ`: the daemon's (the one
    its settings were read from), with the task and the kind of message added."""
    env = {**environ, "TAAK_ID": task_id, "TAAK_MELDING": kind}
    # The message on stdin from a file, not a pipe: a command that exits without reading it (it sends a fixed text)
    # broke the pipe, and every try ended in a traceback.
    with tempfile.TemporaryFile() as message_file:
        message_file.write(text.encode())
        message_file.seek(0)
        try:
            with anyio.fail_after(COMMAND_TIMEOUT_SECONDS):
                done = await anyio.run_process(
                    shlex.split(command),
                    stdin=message_file,
                    env=env,
                    check=False,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                )
        except TimeoutError:
            return f"no answer within {COMMAND_TIMEOUT_SECONDS} s"
        except OSError as exc:
            return f"{command.split()[0]}: {exc.strerror or exc}"
    if done.returncode != 0:
        tail = done.stderr.decode(errors="replace").strip().splitlines()
        return f"exit {done.returncode}" + (f": {tail[-1]}" if tail else "")
    return None
