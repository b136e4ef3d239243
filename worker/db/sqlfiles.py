"""Where the `sql/` folder is: inside the installed wheel, or beside the package in a checkout."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import asyncpg
import asyncpg.pool

# Where a statement can be sent: a pool, a connection, or a connection borrowed from a pool.
Executor = asyncpg.Pool | asyncpg.Connection | asyncpg.pool.PoolConnectionProxy
# One connection (a transaction, a row lock): its own, or one borrowed from a pool.
Connected = asyncpg.Connection | asyncpg.pool.PoolConnectionProxy

_PACKAGE = Path(__file__).resolve().parent.parent


def sql_dir() -> Path:
    for candidate in (_PACKAGE / "sql", _PACKAGE.parent / "sql"):
        if (candidate / "migrations").is_dir():
            return candidate
    raise FileNotFoundError(f"the sql/ folder is missing next to {_PACKAGE}")


_BLOCK = re.compile(r"^-- name: (?P<name>[a-z_]+)\s*$", re.MULTILINE)


@cache
def queries() -> dict[str, str]:
    """Every runtime statement from `sql/queries.sql`, by its `-- name:` header."""
    parts = _BLOCK.split((sql_dir() / "queries.sql").read_text(encoding="utf-8"))  # before, name, body, name, ...
    named: dict[str, str] = {}
    for name, body in zip(parts[1::2], parts[2::2], strict=True):
        if name in named:
            raise ValueError(f"queries.sql names {name!r} twice")
        named[name] = body.strip()
    return named
