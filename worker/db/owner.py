"""The owner's name for the whole fleet (`taak eigenaar zet NAME`): one row in the database, so that the rows the
owner writes say the same name on every machine. Without it each machine says its own (local_name). And how long a
lease the owner took back by hand waits before it can be claimed again."""

from __future__ import annotations

import getpass
from typing import TYPE_CHECKING

from worker.core.errors import InvalidInput
from worker.core.model import NAME_MAX_CHARS, shown_name
from worker.core.terminal import is_blank, printable
from worker.db.sqlfiles import Executor, queries

if TYPE_CHECKING:
    from worker.settings import Settings


def local_name(settings: Settings) -> str:
    """This machine's name for the owner: TAAK_OWNER, else the OS user."""
    return settings.owner or getpass.getuser()


def take_back_wait(settings: Settings) -> float:
    """Claimable again once the holding daemon's token checks have stopped its session, with room to spare:
    TAAK_TOKEN_CHECK_SECONDS is at most 10 on every daemon, and a lost lease is killed at once."""
    return max(45.0, 3 * settings.token_check_seconds + settings.kill_grace_seconds)


def check_owner_name(name: str) -> str:
    """One printable line of at most NAME_MAX_CHARS characters, as TAAK_OWNER must be; stripped."""
    if is_blank(name):
        raise InvalidInput("empty", what="NAME")
    if printable(name) != name or any(ch in name for ch in "\t\n\r") or len(name.strip()) > NAME_MAX_CHARS:
        raise InvalidInput("bad_owner_name", value=shown_name(name), limit=NAME_MAX_CHARS)
    return name.strip()


async def fleet_owner(db: Executor) -> str | None:
    """The name set for the whole fleet, or None when none is."""
    name: str | None = await db.fetchval(queries()["vloot_eigenaar"])
    return name


async def set_fleet_owner(db: Executor, name: str) -> str:
    saved: str = await db.fetchval(queries()["vloot_eigenaar_zetten"], check_owner_name(name))
    return saved


async def owner_name(db: Executor, settings: Settings) -> str:
    """The name on the rows the owner writes: the fleet's (the database's) once it is set, else this machine's
    TAAK_OWNER, else its OS user."""
    return await fleet_owner(db) or local_name(settings)
