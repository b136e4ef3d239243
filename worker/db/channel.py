"""The owner's channel in Postgres: routing the outbox's messages, claiming a digest's time, each channel's
deliveries, and the lease of the one daemon that reads Telegram's updates (migration 002)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import asyncpg

from worker.core.catalogue import message
from worker.core.digest import BotToday, Closed, DigestFacts, Due, Unserved, Waiting, render_digest
from worker.core.owner_channel import next_slot
from worker.db.sqlfiles import Connected, Executor, queries
from worker.settings import Settings

# The messages to the owner that are routed (a finished task's summary, `klaar`, goes to TAAK_ON_KLAAR_CMD as before).
MESSAGE_KINDS = ["vraag", "herinnering", "mislukt", "uiterlijk", "escalatie", "rem", "vaardigheid"]


async def next_to_route(conn: Connected) -> asyncpg.Record | None:
    """The oldest owner's message not yet routed, locked for this transaction, with `dringend_vandaag`."""
    return await conn.fetchrow(queries()["melding_te_routeren"], MESSAGE_KINDS)


async def send_now(conn: Connected, melding_id: int, text: str) -> None:
    await conn.execute(queries()["melding_nu"], melding_id, text)


async def unserved_together(conn: Connected, melding_id: int) -> tuple[str, list[str]] | None:
    """The other unrouted messages of tasks that wait for the same skill as message `melding_id`'s, settled as said
    by it: the skill and their tasks, oldest first; None when there are none."""
    rows = sorted(await conn.fetch(queries()["melding_vaardigheid_samen"], melding_id), key=lambda r: r["id"])
    return (rows[0]["nodig"], [r["taak_id"] for r in rows]) if rows else None


async def hold(conn: Connected, melding_id: int, until: datetime) -> None:
    await conn.execute(queries()["melding_vasthouden"], melding_id, until)


async def to_digest(conn: Connected, melding_id: int) -> None:
    await conn.execute(queries()["melding_naar_dagbericht"], melding_id)


async def claim_digest(conn: Connected, moment: datetime, machine: str, late: bool) -> bool:
    """True when this daemon has the digest of `moment` to send (in the caller's transaction)."""
    return await conn.fetchval(queries()["dagbericht_claimen"], moment, machine, late) is not None


async def record_digest(conn: Connected, moment: datetime, text: str) -> int:
    """The claimed digest's text; returns how many waiting messages it settled."""
    return int(await conn.fetchval(queries()["dagbericht_vastleggen"], moment, text))


async def last_digest(db: Executor) -> datetime | None:
    found: datetime | None = await db.fetchval(queries()["dagbericht_laatste"])
    return found


async def first_channel(db: Executor, now: datetime) -> datetime:
    """Since when the fleet has had a channel to the owner (`now` when it has none yet)."""
    found: datetime | None = await db.fetchval(queries()["kanaal_eerste"])
    return found if found is not None else now


async def digest_text(
    db: Executor, settings: Settings, slot: datetime, now: datetime, *, late: bool, last: datetime | None
) -> str:
    """The digest of `slot` as it reads at `now`: what waits, what closed since the `last` digest (none: the last
    day), what is due by the end of today, each bot's day. The caller reads `last` before it claims `slot`, which is
    then the last digest itself."""
    since, today = last or now - timedelta(days=1), now.astimezone(settings.zone).date()
    facts = DigestFacts(
        waiting=[Waiting(**dict(r)) for r in await db.fetch(queries()["dagbericht_wacht"])],
        closed=[Closed(**dict(r)) for r in await db.fetch(queries()["dagbericht_afgerond"], since)],
        due=[Due(**dict(r)) for r in await db.fetch(queries()["dagbericht_uiterlijk"], today)],
        bots=[BotToday(**dict(r)) for r in await db.fetch(queries()["dagbericht_per_bot"])],
        unserved=[Unserved(**dict(r)) for r in await db.fetch(queries()["dagbericht_vaardigheid"])],
        slot=slot,
        now=now,
        late=late,
        urgent_limit=settings.urgent_per_bot_per_day,
    )
    return render_digest(facts, settings.zone, settings.language)


async def preview(db: Executor, settings: Settings, now: datetime) -> tuple[datetime | None, str]:
    """The next digest and when it goes, as it would read if it were due now (`taak dagbericht`, the cockpit)."""
    slot = next_slot(now, settings.digest_times, settings.zone)
    if slot is None:
        return None, message("digest.off", settings.language)
    return slot, await digest_text(db, settings, slot, now, late=False, last=await last_digest(db))


async def waiting_tasks(db: Executor) -> frozenset[str]:
    return frozenset(r["id"] for r in await db.fetch(queries()["wachtende_taken"]))


async def urgent_today(db: Executor) -> dict[str, int]:
    """Per bot: its questions marked urgent that went to the owner at once today."""
    return {r["bot"]: int(r["dringend"]) for r in await db.fetch(queries()["dringend_vandaag_per_bot"])}


async def register_channel(db: Executor, key: str) -> None:
    await db.execute(queries()["kanaal_zetten"], key)


@dataclass(frozen=True)
class Delivery:
    bericht_id: int
    pogingen: int
    soort: str
    taak_id: str | None
    tekst: str
    antwoord_op: int | None


async def next_delivery(conn: Connected, key: str) -> Delivery | None:
    """The oldest message the channel still owes the owner, locked for this transaction (its rows made first)."""
    await conn.execute(queries()["bezorgingen_maken"], key)
    found = await conn.fetchrow(queries()["bezorging_pakken"], key)
    return Delivery(**dict(found)) if found is not None else None


async def confirm(conn: Connected, key: str, task_id: str | None, text: str, reply_to: int | None) -> None:
    """A reply to the owner on the channel the owner wrote in, delivered (and retried) as every message is."""
    await conn.execute(queries()["bevestiging_maken"], key, task_id, text, reply_to)


async def delivered(conn: Connected, delivery: Delivery, key: str, extern_id: str | None) -> None:
    await conn.execute(queries()["bezorging_verstuurd"], delivery.bericht_id, key, extern_id)


async def not_delivered(conn: Connected, delivery: Delivery, key: str, error: str, *, base: float, most: float) -> None:
    await conn.execute(queries()["bezorging_mislukt"], delivery.bericht_id, key, error, base, most)


async def take_reader(db: Executor, key: str, holder: str, lease_seconds: float) -> int | None:
    """The next update to ask for when this daemon reads the channel now; None while another reads it."""
    found: int | None = await db.fetchval(queries()["lezer_nemen"], key, holder, lease_seconds)
    return found


async def read_up_to(db: Executor, key: str, holder: str, next_update: int) -> bool:
    """Record that updates before `next_update` were handled; False when the lease was lost meanwhile."""
    return await db.fetchval(queries()["lezer_verder"], key, holder, next_update) is not None


async def let_go_reader(db: Executor, key: str, holder: str) -> None:
    await db.execute(queries()["lezer_loslaten"], key, holder)
