"""The owner's `bot_heartbeats`: row-level security only when the owner says so (`taak db heartbeats`).

The seed: switching it on is one line of SQL, but without policies it locks out every bot that writes its
heartbeat with the public key, so the owner must decide it consciously, with the right policies. Migrating
never touches it. The command first shows who can write it today and what would change; `--beveilig` then
does exactly that, in one transaction: every role that writes today keeps reading, inserting and updating
through its own policies, and nobody but the owner may delete or truncate.
"""

from __future__ import annotations

from dataclasses import dataclass

from worker.core.catalogue import message
from worker.db.sqlfiles import Executor, queries

TABLE = "public.bot_heartbeats"


@dataclass(frozen=True)
class State:
    rls: bool
    policies: list[str]
    writers: list[str]  # roles that may insert or update today ("public": everyone)
    deleters: list[str]  # roles that may delete or truncate today


_POLICIES = (("select", "using (true)"), ("insert", "with check (true)"), ("update", "using (true) with check (true)"))


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _role(name: str) -> str:
    return "public" if name == "public" else _ident(name)


async def state(db: Executor, table: str = TABLE) -> State | None:
    """Who may do what with one of the owner's tables today (None: there is no such table)."""
    record = await db.fetchrow(queries()["tabel_stand"], table)
    return State(**dict(record)) if record is not None else None


def plan(current: State) -> list[str]:
    """The statements that switch row-level security on without locking out today's writers. Pure."""
    if current.rls:
        return []
    statements = []
    for role in current.writers:
        for command, check in _POLICIES:
            name = _ident(f"hartslag_{command}_{role}")
            statements.append(f"create policy {name} on {TABLE} for {command} to {_role(role)} {check}")
    for role in current.deleters:
        statements.append(f"revoke delete, truncate on {TABLE} from {_role(role)}")
    statements.append(f"alter table {TABLE} enable row level security")
    return statements


def describe(current: State, language: str) -> list[str]:
    owner = message("heartbeats_owner_only", language)
    return [
        message(
            "heartbeats_rls", language, state=message("heartbeats_on" if current.rls else "heartbeats_off", language)
        ),
        message("heartbeats_writers", language, who=", ".join(current.writers) or owner),
        message("heartbeats_deleters", language, who=", ".join(current.deleters) or owner),
        message("heartbeats_policies", language, names=", ".join(current.policies) or "-"),
    ]


async def secure(db: Executor, current: State) -> None:
    for statement in plan(current):
        await db.execute(statement)
