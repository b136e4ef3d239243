"""Sending the outbox (`taak_meldingen`): the owner's questions and reminders to TAAK_NOTIFY_CMD, and a
summary of each finished task to TAAK_ON_KLAAR_CMD. Each message is sent under a row lock and recorded
as sent in the same transaction; a failed command is logged and tried again later, never dropped."""

from __future__ import annotations

import shlex
import subprocess
from datetime import UTC, datetime

import anyio
import asyncpg
import structlog

from worker.core.sink import klaar_summary
from worker.db.ledger import Ledger
from worker.db.sqlfiles import queries
from worker.settings import Settings

log = structlog.get_logger("queue-worker")
COMMAND_TIMEOUT_SECONDS = 60


# What TAAK_NOTIFY_CMD gets: questions and reminders, a failed task, a due date passed, a question past its
# decision deadline (TAAK_BESLIS_UREN), a bot at its daily brake.
OWNER_KINDS = ["vraag", "herinnering", "mislukt", "uiterlijk", "escalatie", "rem"]


def kinds_to_send(settings: Settings) -> list[str]:
    kinds = list(OWNER_KINDS) if settings.notify_cmd else []
    return kinds + (["klaar"] if settings.on_klaar_cmd else [])


# Kinds the ledger writes into the outbox only when a daemon says it delivers them.
DELIVERED_ON_REQUEST = ["klaar"]


async def register_deliveries(db: asyncpg.Pool, settings: Settings, holders: list[str]) -> None:
    """Tell the ledger what this daemon delivers for its bots, so that nothing piles up undelivered."""
    kinds = [kind for kind in kinds_to_send(settings) if kind in DELIVERED_ON_REQUEST]
    await db.execute(queries()["bezorgers_zetten"], holders, kinds)


async def make_reminders(pool: asyncpg.Pool, settings: Settings) -> None:
    if settings.notify_cmd:
        await pool.execute(queries()["herinneringen_maken"], settings.remind_hours * 3600)
        await pool.execute(queries()["escalaties_maken"], settings.beslis_uren * 3600)
        await pool.execute(queries()["uiterlijk_meldingen_maken"])


SEND_DEADLINE_SECONDS = 120


async def send_due(pool: asyncpg.Pool, settings: Settings) -> int:
    """Send every due message this worker is configured for; returns how many went out."""
    kinds = kinds_to_send(settings)
    sent = 0
    while kinds:
        # Shielded: a stop must not fall between a command that took the message and the record that it
        # did, or the message would go out again after the restart. The deadline bounds the wait even on a
        # database that went away mid-send (the transaction then rolls back and the message stays due).
        with anyio.CancelScope(shield=True) as shield:
            shield.deadline = anyio.current_time() + SEND_DEADLINE_SECONDS
            done = await _send_one(pool, settings, kinds)
        if shield.cancelled_caught:
            return sent
        if done is None:
            return sent
        sent += done
    return sent


async def _send_one(pool: asyncpg.Pool, settings: Settings, kinds: list[str]) -> int | None:
    """Send the oldest due message: 1 when it went out, 0 when it failed, None when there was none."""
    async with pool.acquire() as conn, conn.transaction():
        row = await conn.fetchrow(queries()["melding_pakken"], kinds)
        if row is None:
            return None
        if row["soort"] == "klaar":
            ledger = Ledger(conn)
            task = await ledger.toon(row["taak_id"])
            text = klaar_summary(task, await ledger.log_rows(task.id), settings.zone, datetime.now(UTC))
            command = settings.on_klaar_cmd
        else:
            text, command = row["tekst"] + "\n", settings.notify_cmd
        assert command is not None
        error = await _run(command, text, row["taak_id"] or "", row["soort"])
        if error is None:
            await conn.execute(queries()["melding_verstuurd"], row["id"])
            log.info("message_sent", kind=row["soort"], task_id=row["taak_id"])
            return 1
        await conn.execute(queries()["melding_mislukt"], row["id"], error, 30.0, 3600.0)
        log.warning(
            "message_failed", kind=row["soort"], task_id=row["taak_id"], error=error, attempt=row["pogingen"] + 1
        )
        return 0


async def _run(command: str, text: str, task_id: str, kind: str) -> str | None:
    """None when the command took the message (exit 0), else why not, in one line."""
    import os

    env = {**os.environ, "TAAK_ID": task_id, "TAAK_MELDING": kind}
    try:
        with anyio.fail_after(COMMAND_TIMEOUT_SECONDS):
            done = await anyio.run_process(
                shlex.split(command),
                input=text.encode(),
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
