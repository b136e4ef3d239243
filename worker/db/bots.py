"""The per-bot switch (`agent_bots.actief`) and the daemon's heartbeat."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from worker.core.errors import InvalidInput
from worker.db.sqlfiles import Executor, queries


@dataclass(frozen=True)
class Bot:
    bot: str
    actief: bool
    machine: str | None
    pid: int | None
    versie: str | None
    huidige_taak: str | None
    laatst_gezien: datetime | None
    bijgewerkt: datetime


def check_bot_name(name: str) -> str:
    if not name or not all(c.isalnum() or c in "_.-" for c in name):
        raise InvalidInput("bad_bot", value=name)
    return name


async def set_active(db: Executor, bot: str, active: bool) -> Bot:
    record = await db.fetchrow(queries()["bot_zet"], check_bot_name(bot), active)
    assert record is not None  # an upsert always returns its row
    return Bot(**dict(record))


async def all_bots(db: Executor) -> list[Bot]:
    return [Bot(**dict(r)) for r in await db.fetch(queries()["bots_lijst"])]


async def active_bots(db: Executor, bots: Sequence[str]) -> list[str]:
    return [r["bot"] for r in await db.fetch(queries()["bots_actief"], list(bots))]


async def register(db: Executor, bots: Sequence[str]) -> None:
    await db.execute(queries()["bots_aanmelden"], list(bots))


async def heartbeat(
    db: Executor, bots: Sequence[str], current: Sequence[str | None], *, machine: str, pid: int, version: str
) -> None:
    await db.execute(queries()["hartslag"], list(bots), machine, pid, version, list(current))
