"""The machine registry in Postgres."""

from __future__ import annotations

from collections.abc import Sequence

import asyncpg

from worker.core.errors import InvalidInput, NotFound
from worker.core.machines import Machine
from worker.core.model import NAME_MAX_CHARS, shown_name
from worker.core.terminal import is_blank, printable
from worker.db.bots import known_bot
from worker.db.sqlfiles import Connected, Executor, queries


def check_name(name: str, what: str) -> None:
    """A machine's name or alias: shown in every list and briefing, so one printable line of bounded length.
    A name that cannot be is bad input (exit 2), not a machine that is not there."""
    if is_blank(name):
        raise InvalidInput("empty", what=what)
    # printable() leaves tab and newline alone (they are text in a log line); a name is one line without them.
    if printable(name) != name or any(ch in name for ch in "\t\n") or len(name) > NAME_MAX_CHARS:
        raise InvalidInput("bad_machine_name", value=shown_name(name), limit=NAME_MAX_CHARS)


def _machine(record: asyncpg.Record) -> Machine:
    return Machine(
        naam=record["naam"], ip=record["ip"], aliassen=tuple(record["aliassen"]), bots=tuple(record["bots"] or ())
    )


async def set_machine(
    conn: Connected, naam: str, *, ip: str | None, aliassen: Sequence[str], bots: Sequence[str]
) -> Machine:
    check_name(naam, "naam")
    for alias in aliassen:
        check_name(alias, "alias")
    bots = [await known_bot(conn, bot, may_be_new=False) for bot in bots]  # a typo is refused, as everywhere else
    async with conn.transaction():
        try:
            await conn.execute(queries()["machine_zet"], naam, ip, list(bots))
        except asyncpg.DataError:
            raise InvalidInput("bad_ip", value=ip) from None
        for alias in aliassen:
            try:
                status = await conn.execute(queries()["machine_alias"], alias, naam)
            except asyncpg.UniqueViolationError:
                raise InvalidInput("alias_taken", alias=alias) from None
            if status.endswith(" 0"):
                raise InvalidInput("alias_taken", alias=alias)
    return await who(conn, naam)


async def who(db: Executor, name: str) -> Machine:
    check_name(name, "naam")
    record = await db.fetchrow(queries()["machine_wie"], name)
    if record is None:
        raise NotFound("no_machine", name=name)
    return _machine(record)


async def all_machines(db: Executor) -> list[Machine]:
    return [_machine(r) for r in await db.fetch(queries()["machines_lijst"])]


async def machines_named(db: Executor, names: Sequence[str]) -> dict[str, Machine]:
    """The machines these names (fixed facts) stand for, keyed by the lower-cased name used."""
    if not names:
        return {}
    records = await db.fetch(queries()["machines_voor_namen"], list(names))
    return {r["gezocht"]: _machine(r) for r in records}
