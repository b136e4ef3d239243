"""`taak cockpit`: the fleet on one web page, served from the ledger (optional extra `cockpit`).

Safe by default: it binds 127.0.0.1 unless told otherwise; a secret token (made on first start, mode 0600,
in the data folder) is needed for every page and action, given once in the link `taak cockpit --link`
prints and then kept in an HttpOnly, SameSite=Strict cookie; every action is a POST carrying a CSRF value
derived from the token; every value from the database is escaped by the templates. The owner's actions go
through the same ledger functions as the CLI, with the same rules and the same log rows."""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import re
import secrets
import shlex
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response

from worker.cockpit.routes import ROUTES, Cockpit
from worker.core.catalogue import area_words
from worker.core.errors import Refused
from worker.core.folders import make_folder
from worker.db.connect import CONNECTION_ERRORS, connect_one, create_pool, resolve_database
from worker.db.failures import failure_text
from worker.db.migrate import migrate, set_timezone
from worker.db.store import Store
from worker.logs import quiet_pool_retries
from worker.settings import Settings

TOKEN_FILE = "cockpit.token"
# What a token may be: token_urlsafe(32) makes 43 of these characters; one the owner wrote must be as hard to guess.
TOKEN = re.compile(r"[A-Za-z0-9_-]{32,}")


def token_path(settings: Settings) -> Path:
    return settings.data_dir / TOKEN_FILE


def ensure_token(settings: Settings) -> str:
    """The cockpit's secret: read, or made on first start with mode 0600 (created so, never widened). A token
    file that is empty or holds no token is refused, not served: an empty token would let anyone in; one that
    others may read is refused as ssh refuses such a key."""
    path = token_path(settings)
    if path.exists():
        if path.stat().st_mode & 0o077:
            raise Refused("cockpit_token_readable", path=str(path), typed=shlex.quote(str(path)))
        token = path.read_text(encoding="utf-8", errors="replace").strip()
        if not TOKEN.fullmatch(token):
            raise Refused("cockpit_token_bad", path=str(path), typed=shlex.quote(str(path)))
        return token
    make_folder(path.parent, mode=0o700)
    token = secrets.token_urlsafe(32)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(token + "\n")
    return token


def csrf_value(token: str) -> str:
    return hmac.new(token.encode(), b"taak-cockpit-csrf", hashlib.sha256).hexdigest()


def create_app(settings: Settings, token: str, link_options: str = "") -> Starlette:
    """`link_options`: what `taak cockpit --link` needs to name this cockpit (its --host and --port)."""
    words = area_words("cockpit", settings.language)
    cockpit = Cockpit(settings, token, csrf_value(token), words, words["login"].format(options=link_options))

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        database = await resolve_database(settings)
        if settings.database is None:  # the embedded database is this machine's own: kept migrated
            conn = await connect_one(settings, database)
            try:
                await migrate(conn)
                await set_timezone(conn, settings.timezone)
            finally:
                await conn.close()
        pool = await create_pool(settings, database, min_size=1, max_size=4)
        cockpit.opened = Store(pool, settings)
        quiet_pool_retries()  # an outage is said on the page that could not be served
        try:
            yield
        finally:
            await pool.close()

    def owner_only(title: str, text: str, status: int) -> Callable[[Request, Exception], Awaitable[Response]]:
        """Starlette's own answers (404, 405) are English plain text: said to the owner in the run's language, and
        to anyone without the token as 401, so that not even which pages exist is told."""

        async def answer(request: Request, _error: Exception) -> Response:
            if not cockpit.authorised(request):
                return cockpit.bad_request(cockpit.login, 401)
            return cockpit.page(words[title], words[text], status)

        return answer

    async def database_away(request: Request, error: Exception) -> Response:
        """The database went away under a page or an action (a restart, a failover, an outage): said as the CLI
        says it, in the run's language, instead of Starlette's English "Internal Server Error" with a traceback
        on the console. The pool connects again by itself; an action is not retried (it may have been done)."""
        if not cockpit.authorised(request):
            return cockpit.bad_request(cockpit.login, 401)
        return cockpit.page(words["database_away"], f"{failure_text(error, settings)}. {words['try_again']}", 503)

    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        404: owner_only("not_found", "no_such_page", 404),
        405: owner_only("not_allowed", "no_such_request", 405),  # a page asked the wrong way (GET of an action)
        **dict.fromkeys(CONNECTION_ERRORS, database_away),
    }
    app = Starlette(routes=ROUTES, lifespan=lifespan, exception_handlers=handlers)
    app.state.cockpit = cockpit
    return app
