"""The one way to the database in a process.

An entry point (a `taak` verb, the daemon, a hook, the cockpit) builds one store from the settings and hands it to
whatever needs the database. Every statement of `sql/queries.sql` runs in a module of `worker/db`, through the
store's executor: no module outside `worker/db` names a statement, and the values a statement takes from the
settings (the lease, the machine) are read from the one settings object, with no default of its own.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg

from worker.db.ledger import Ledger
from worker.db.sqlfiles import Connected, Executor
from worker.settings import Settings


class Store:
    def __init__(self, db: Executor, settings: Settings) -> None:
        self.db = db
        self.settings = settings
        self.tasks = Ledger(db, lease_seconds=settings.lease_seconds, machine=settings.machine)

    @property
    def conn(self) -> Connected:
        """The store's own connection, for what a pool cannot do (a transaction, a row lock)."""
        assert not isinstance(self.db, asyncpg.Pool), "a store on a pool: use `async with store.connection()`"
        return self.db

    def on(self, db: Executor) -> Store:
        """The same store on one borrowed connection."""
        return Store(db, self.settings)

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[Store]:
        """One connection for several statements (a claim and the look at why it took nothing, a briefing's
        reads): borrowed from the pool for the block, or the store's own when it has one."""
        if isinstance(self.db, asyncpg.Pool):
            async with self.db.acquire() as conn:
                yield self.on(conn)
        else:
            yield self

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Store]:
        """Several statements that stand or fall together, on one connection."""
        async with self.connection() as store, store.conn.transaction():
            yield store
