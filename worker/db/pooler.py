"""Is there a transaction pooler between us and Postgres? (`TAAK_POOLER=auto|session|transaction`)

A transaction pooler (pgbouncer in `pool_mode = transaction` on any port, Supabase's on 6543) hands each
transaction to whichever server connection is free: named prepared statements and LISTEN do not survive
that. `auto` knows Supabase's port, and otherwise asks the pooler's behaviour: two client connections open
at once that share one server backend, or a session setting made on one that the other sees, can only be a
transaction pooler. The probe cannot prove the opposite on a pool that happens to hand out different
backends, so `TAAK_POOLER=transaction` is the way to be sure.
"""

from __future__ import annotations

import secrets
from dataclasses import replace

import structlog

from worker.core.catalogue import message
from worker.core.dsn import SUPABASE_TRANSACTION_POOLER_PORT, DatabaseUrl, Pooler
from worker.db.connect import connect_one
from worker.db.sqlfiles import queries
from worker.settings import Settings

log = structlog.get_logger(__name__)


async def resolve_pooler(settings: Settings, database: DatabaseUrl) -> DatabaseUrl:
    """The database with what sits in front of it decided: the setting, the port, or the probe."""
    if database.pooler is not None:
        return database
    if settings.pooler != "auto":
        mode: Pooler = settings.pooler
        how = "TAAK_POOLER"
    elif database.port == SUPABASE_TRANSACTION_POOLER_PORT:
        mode, how = "transaction", f"port {SUPABASE_TRANSACTION_POOLER_PORT}"
    else:
        mode, how = await probe(settings, database), "probe"
    if mode == "transaction":
        log.warning(
            "transaction_pooler",
            where=database.where,
            recognised_by=how,
            effect=message("pooler_effect", settings.language),
        )
    return replace(database, pooler=mode)


async def probe(settings: Settings, database: DatabaseUrl) -> Pooler:
    # Connected as every other connection is (its TLS, its timeouts), and failing as they do: in one line.
    first = await connect_one(settings, database, application_name="taak-pooler-probe")
    try:
        second = await connect_one(settings, database, application_name="taak-pooler-probe")
        try:
            if await first.fetchval(queries()["sonde_backend"]) == await second.fetchval(queries()["sonde_backend"]):
                return "transaction"
            mark = secrets.token_hex(8)
            await first.execute(queries()["sonde_zetten"], mark)
            if (
                await second.fetchval(queries()["sonde_lezen"]) == mark
                or await first.fetchval(queries()["sonde_lezen"]) != mark
            ):
                return "transaction"
            return "session"
        finally:
            await second.close()
    finally:
        await first.close()
