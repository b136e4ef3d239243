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
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import asyncpg
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from worker.cockpit import charts
from worker.cockpit.pages import render
from worker.core.errors import TaakError
from worker.core.folders import make_folder
from worker.core.model import FINAL, Soort, Status
from worker.core.phrases import area_words, phrase
from worker.core.row_phrases import said_row
from worker.core.table import age, month_names
from worker.core.terminal import is_blank, printable
from worker.db.connect import CONNECTION_ERRORS
from worker.db.sqlfiles import queries

if TYPE_CHECKING:
    from worker.settings import Settings

COOKIE = "taak_cockpit"
FORM_MAX_BYTES = 64 * 1024  # an answer or a note, not a document
ACTIONS = ("antwoord", "notitie", "annuleer", "terugnemen")
# What the page says after an action, by the mark the action's redirect carries.
DONE = {
    "antwoord": "answered",
    "antwoord_heropend": "answered_reopened",
    "notitie": "logged",
    "annuleer": "cancelled",
    "terugnemen": "taken_back",
}
TOKEN_FILE = "cockpit.token"
CHART_DAYS = 14
STALE_SECONDS = 90  # as `taak overzicht`: a heartbeat older than this is flagged


def token_path(settings: Settings) -> Path:
    return settings.data_dir / TOKEN_FILE


# What a token may be: token_urlsafe(32) makes 43 of these characters; one the owner wrote must be as hard to guess.
TOKEN = re.compile(r"[A-Za-z0-9_-]{32,}")


def ensure_token(settings: Settings) -> str:
    """The cockpit's secret: read, or made on first start with mode 0600 (created so, never widened). A token
    file that is empty or holds no token is refused, not served: an empty token would let anyone in; one that
    others may read is refused as ssh refuses such a key."""
    from worker.core.errors import Refused

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
    state: dict[str, Any] = {}

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        from worker.db.connect import create_pool, resolve_database
        from worker.db.migrate import migrate, set_timezone
        from worker.logs import quiet_pool_retries

        database = await resolve_database(settings)
        if settings.database is None:  # the embedded database is this machine's own: kept migrated
            from worker.db.connect import connect_one

            conn = await connect_one(settings, database)
            try:
                await migrate(conn)
                await set_timezone(conn, settings.timezone)
            finally:
                await conn.close()
        state["pool"] = await create_pool(settings, database, min_size=1, max_size=4)
        quiet_pool_retries()  # an outage is said on the page that could not be served
        try:
            yield
        finally:
            await state["pool"].close()

    language = settings.language
    words = area_words("cockpit", language)
    login = words["login"].format(options=link_options)
    csrf = csrf_value(token)

    def done_mark(action: str, task_id: str) -> str:
        return action + "." + hmac.new(token.encode(), f"{task_id}:{action}".encode(), hashlib.sha256).hexdigest()[:16]

    def authorised(request: Request) -> bool:
        given = request.cookies.get(COOKIE, "")
        return hmac.compare_digest(given.encode(), token.encode())

    async def guarded(request: Request) -> Response | None:
        """None when the request may go on; else the answer to give instead."""
        offered = request.query_params.get("token")
        if offered is not None:
            if not hmac.compare_digest(offered.encode(), token.encode()):
                return _message(language, words["bad_request"], login, 401)
            # Into the cookie, and out of the address bar and the history.
            answer = RedirectResponse(request.url.path, status_code=303)
            answer.set_cookie(COOKIE, token, httponly=True, samesite="strict", max_age=90 * 86400)
            return answer
        if not authorised(request):
            return _message(language, words["bad_request"], login, 401)
        if request.method == "POST":
            here = f"{request.url.scheme}://{request.url.netloc}"
            origin = request.headers.get("origin")
            referer = request.headers.get("referer")
            same_origin = origin == here if origin is not None else referer is None or referer.startswith(here + "/")
            form = await _form(request)
            if isinstance(form, Response):
                return form
            request.state.form = form
            if not same_origin or not hmac.compare_digest(form.get("csrf", "").encode(), csrf.encode()):
                return _message(language, words["bad_request"], words["csrf_refused"], 403)
        return None

    async def _form(request: Request) -> dict[str, str] | Response:
        """The posted form, as the CLI takes text: UTF-8 or refused, and of a bounded size."""
        from urllib.parse import parse_qsl

        from worker.core.phrases import message

        body = await request.body()
        if len(body) > FORM_MAX_BYTES:
            detail = message("too_long", language, what="form", length=len(body), limit=FORM_MAX_BYTES)
            return _message(language, words["bad_request"], detail, 413)
        try:
            return dict(parse_qsl(body.decode("utf-8"), encoding="utf-8", errors="strict", keep_blank_values=True))
        except (UnicodeDecodeError, ValueError):
            return _message(language, words["bad_request"], message("form_not_utf8", language), 400)

    async def board(request: Request) -> Response:
        if (refused := await guarded(request)) is not None:
            return refused
        async with state["pool"].acquire() as conn:
            page = await _board(conn, settings)
        return HTMLResponse(render("board.html", language, title=words["board"], csrf=csrf, **page))

    async def task_page(request: Request) -> Response:
        if (refused := await guarded(request)) is not None:
            return refused
        from worker.db.store import Store

        task_id = request.path_params["id"]
        try:
            async with state["pool"].acquire() as conn:
                page = await _task(conn, Store(conn, settings).tasks, task_id, settings)
        except TaakError as error:
            return _message(language, task_id, error.render(language), (error.exit_code == 3 and 404) or 400)
        from worker.core.phrases import message

        # Only the CLI's own line, and only after an action here did it: the mark is signed with the token.
        action, _, _signed = request.query_params.get("gedaan", "").partition(".")
        done = (
            DONE.get(action)
            if hmac.compare_digest(request.query_params.get("gedaan", ""), done_mark(action, task_id))
            else None
        )
        said = message(done, language, id=task_id, soort="notitie") if done else None
        return HTMLResponse(render("task.html", language, title=task_id, csrf=csrf, message=said, **page))

    async def log_after(request: Request) -> Response:
        if (refused := await guarded(request)) is not None:
            return refused
        try:
            after = int(request.query_params.get("na", "0"))
        except ValueError:
            return JSONResponse({"error": "na"}, status_code=400)
        if not 0 <= after < 2**63:
            return JSONResponse({"error": "na"}, status_code=400)
        async with state["pool"].acquire() as conn:
            rows = await conn.fetch(queries()["tail_na"], after, request.path_params["id"], None)
        return JSONResponse([_log_json(r, settings) for r in rows])

    async def act(request: Request) -> Response:
        if (refused := await guarded(request)) is not None:
            return refused
        form: dict[str, str] = request.state.form
        task_id, action = request.path_params["id"], request.path_params["action"]
        if action not in ACTIONS:
            return _message(language, words["bad_request"], words["no_such_action"].format(action=action), 404)
        text = (form.get("tekst") or form.get("reden") or "").strip()
        try:
            async with state["pool"].acquire() as conn:
                done = await _act(conn, settings, task_id, action, text)
        except TaakError as error:
            return _message(language, words["bad_request"], error.render(language), 400)
        return RedirectResponse(f"/taak/{task_id}?gedaan={done_mark(done, task_id)}", status_code=303)

    async def switch(request: Request) -> Response:
        if (refused := await guarded(request)) is not None:
            return refused
        from worker.db import bots

        if request.path_params["switch"] not in ("aan", "uit"):
            said = words["no_such_action"].format(action=request.path_params["switch"])
            return _message(language, words["bad_request"], said, 404)
        on = request.path_params["switch"] == "aan"
        try:
            async with state["pool"].acquire() as conn:
                await bots.set_active(conn, request.path_params["bot"], on)
        except TaakError as error:
            return _message(language, words["bad_request"], error.render(language), 400)
        return RedirectResponse("/", status_code=303)

    routes = [
        Route("/", board),
        Route("/taak/{id}", task_page),
        Route("/taak/{id}/log", log_after),
        Route("/taak/{id}/{action:str}", act, methods=["POST"]),
        Route("/bot/{bot}/{switch:str}", switch, methods=["POST"]),
    ]

    def owner_only(title: str, text: str, status: int) -> Callable[[Request, Exception], Awaitable[Response]]:
        """Starlette's own answers (404, 405) are English plain text: said to the owner in the run's language, and
        to anyone without the token as 401, so that not even which pages exist is told."""

        async def answer(request: Request, _error: Exception) -> Response:
            if not authorised(request):
                return _message(language, words["bad_request"], login, 401)
            return _message(language, words[title], words[text], status)

        return answer

    async def database_away(request: Request, error: Exception) -> Response:
        """The database went away under a page or an action (a restart, a failover, an outage): said as the CLI
        says it, in the run's language, instead of Starlette's English "Internal Server Error" with a traceback
        on the console. The pool connects again by itself; an action is not retried (it may have been done)."""
        if not authorised(request):
            return _message(language, words["bad_request"], login, 401)
        from worker.db.failures import failure_text

        return _message(language, words["database_away"], f"{failure_text(error, settings)}. {words['try_again']}", 503)

    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        404: owner_only("not_found", "no_such_page", 404),
        405: owner_only("not_allowed", "no_such_request", 405),  # a page asked the wrong way (GET of an action)
        **dict.fromkeys(CONNECTION_ERRORS, database_away),
    }
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers=handlers)


def _message(language: str, title: str, text: str, status: int) -> HTMLResponse:
    return HTMLResponse(render("message.html", language, title=title, text=text), status_code=status)


async def _act(conn: asyncpg.Connection, settings: Settings, task_id: str, action: str, text: str) -> str:
    """One of the owner's verbs, through the ledger as the CLI does it; returns the mark of what was done (DONE)."""
    from worker.core.errors import InvalidInput
    from worker.db.store import Store
    from worker.owner import owner_name, take_back_wait

    ledger = Store(conn, settings).tasks
    wie = owner_name(settings)
    if action != "terugnemen" and is_blank(text):
        raise InvalidInput("empty", what="tekst" if action != "annuleer" else "reden")
    if action == "antwoord":
        answer = await ledger.antwoord(task_id, text, wie=wie)
        return "antwoord_heropend" if answer.heropend else action
    if action == "notitie":
        await ledger.log(task_id, Soort.NOTITIE, text, bot=wie)
    elif action == "annuleer":
        await ledger.annuleer(task_id, text, wie=wie)
    else:
        await ledger.terugnemen(task_id, text or phrase("row_by_hand"), wie=wie, wait_seconds=take_back_wait(settings))
    return action


async def _board(conn: asyncpg.Connection, settings: Settings) -> dict[str, Any]:
    from worker.db import bots as bot_rows
    from worker.db import overview as fleet_overview
    from worker.db.ledger import task_from_record

    now = datetime.now(settings.zone)
    listed = await bot_rows.all_bots(conn)
    today = {d.bot: d for d in await bot_rows.days(conn, None)}
    overview = {r["bot"]: r for r in await fleet_overview.per_bot(conn)}
    held = {r["id"]: r for r in await fleet_overview.held_tasks(conn)}
    shown_bots = []
    for b in listed:
        seen = b.laatst_gezien
        figures = overview.get(b.bot)
        current = [h["id"] for h in held.values() if h["bot"] == b.bot]  # every task it holds, from the ledger
        lease = held.get(current[0]) if current else None
        shown_bots.append(
            {
                "bot": b.bot,
                "actief": b.actief,
                "machine": b.machine,
                "huidige_taken": current,
                "lease_left": age(int(lease["lease_seconden"]), settings.language) if lease else "-",
                "seen": _when(seen, settings) if seen else "-",
                "stale": seen is not None and (now - seen).total_seconds() > STALE_SECONDS,
                "klaar": figures["klaar_vandaag"] if figures else 0,
                "mislukt": figures["mislukt_vandaag"] if figures else 0,
                "wacht": figures["wacht_op_mens"] if figures else 0,
                "kosten": f"${today[b.bot].kosten_vandaag:.2f}" if b.bot in today else "-",
            }
        )
    tasks = []
    for record in await conn.fetch(queries()["cockpit_taken"], 200):
        task = task_from_record(record)
        tasks.append(
            {
                "id": task.id,
                "status": task.status.value,
                "bot": task.toegewezen_aan or "-",
                "age": age(int((now - task.aangemaakt).total_seconds()), settings.language),
                "due": _when(task.uiterlijk, settings)
                + (" !" if task.uiterlijk < now and task.status not in FINAL else "")
                if task.uiterlijk
                else "-",
                "attempts": f"{task.pogingen}/{task.max_pogingen}",
                "titel": task.titel,
            }
        )
    return {"bots": shown_bots, "tasks": tasks, "charts": await _charts(conn, settings)}


async def _charts(conn: asyncpg.Connection, settings: Settings) -> list[str]:
    words = area_words("cockpit", settings.language)
    today = datetime.now(settings.zone).date()
    days = [today - timedelta(days=n) for n in range(CHART_DAYS - 1, -1, -1)]
    per_day = await conn.fetch(queries()["cockpit_per_dag"], CHART_DAYS, settings.timezone)
    failed = await conn.fetch(queries()["cockpit_mislukt_per_dag"], CHART_DAYS, settings.timezone)
    finished: dict[str, list[float]] = defaultdict(lambda: [0.0] * len(days))
    cost: dict[str, list[float]] = defaultdict(lambda: [0.0] * len(days))
    sessions: dict[str, list[float]] = defaultdict(lambda: [0.0] * len(days))
    done: dict[str, list[float]] = defaultdict(lambda: [0.0] * len(days))
    position = {day: n for n, day in enumerate(days)}
    for row in per_day:
        n = position.get(row["dag"])
        if n is None:
            continue
        finished[f"{row['bot']} {words['done_label']}"][n] += row["klaar"]
        cost[row["bot"]][n] += float(row["kosten"])
        sessions[row["bot"]][n] += row["sessies_van_klare"]
        done[row["bot"]][n] += row["klaar"]
    for row in failed:
        n = position.get(row["dag"])
        if n is not None:
            finished[f"{row['bot']} {words['failed_label']}"][n] += row["mislukt"]
    ratio = {
        bot: [sessions[bot][n] / done[bot][n] if done[bot][n] else 0.0 for n in range(len(days))] for bot in sessions
    }
    months = month_names(settings.language)
    by_bot = {name: finished[name] for name in sorted(finished)}  # a bot's finished and failed side by side
    return [
        charts.bars(words["finished_failed"], days, by_bot, months),
        charts.bars(words["cost_per_day"], days, dict(cost), months, money=True),
        charts.bars(words["sessions_per_task"], days, ratio, months),
    ]


async def _task(conn: asyncpg.Connection, ledger: Any, task_id: str, settings: Settings) -> dict[str, Any]:
    from dataclasses import asdict

    from worker.core.briefing import Variant
    from worker.core.machines import expand_facts
    from worker.core.show import facts_from_context
    from worker.core.table import dollars
    from worker.db.briefing import briefing_for
    from worker.db.machines import machines_named

    task = await ledger.toon(task_id)
    rows = await ledger.log_rows(task_id)
    facts = facts_from_context(task.context)
    question = next((r.tekst for r in reversed(rows) if r.soort == Soort.VRAAG), None)
    # Every session as `taak overzicht` counts them, from its `gestart` row (its start), with what its result row
    # says: a session that ended without a result line was left out, and the result's time shown as the start.
    results = {
        r.meta["sessie"]: r.meta
        for r in rows
        if r.soort == Soort.NOTITIE and r.meta.get("sessie") and "exit_code" in r.meta
    }
    sessions = []
    for started in (r for r in rows if r.soort == Soort.GESTART):
        result = results.get(started.sessie, {})
        turns = result.get("num_turns")
        sessions.append(
            {
                "ts": _when(started.ts, settings),
                "bot": started.bot or "-",
                "turns": "-" if turns is None else turns,
                "cost": dollars(result.get("total_cost_usd")),
            }
        )
    return {
        "task": {**asdict(task), "status": task.status.value},
        "due": _when(task.uiterlijk, settings) if task.uiterlijk else None,
        "context": list(expand_facts(facts, await machines_named(conn, list(facts.values()))).items()),
        "rows": [_log_json(asdict(r), settings) for r in rows],
        "last_id": max((r.id for r in rows), default=0),
        "question": question if task.status == Status.WACHT_OP_MENS else None,
        "sessions": sessions,
        "compactions": [r.said(settings.language) for r in rows if r.soort == Soort.COMPACT],
        "briefing": await briefing_for(ledger, task_id, settings, Variant.FULL),
    }


def _log_json(row: Any, settings: Settings) -> dict[str, Any]:
    """A log row for the page: its text in the page's language (the system's own rows; see said_row)."""
    from worker.db.ledger import json_object

    soort = row["soort"]
    text = said_row(row["tekst"], json_object(row["meta"]), settings.language)
    return {
        "id": int(row["id"]),
        "ts": _when(row["ts"], settings),
        "soort": soort.value if hasattr(soort, "value") else str(soort),
        "bot": row["bot"] or "-",
        "tekst": printable(text),  # for the page, like every value on it: no control characters raw
    }


def _when(moment: datetime | None, settings: Settings) -> str:
    from worker.core.table import when

    return when(moment, settings.zone, settings.language)
