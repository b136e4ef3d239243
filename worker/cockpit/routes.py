"""The cockpit's pages and actions, apart from the application that serves them (worker/cockpit/app.py): each
handler is given the request and the cockpit it runs in, once the guard has let the request through."""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import math
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import jinja2
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from worker.cockpit import charts
from worker.core import daily
from worker.core.briefing import Variant
from worker.core.catalogue import area_words, message
from worker.core.errors import InvalidInput, TaakError
from worker.core.intake import groups, id_order
from worker.core.machines import expand_facts, newest_version, said_version
from worker.core.model import FINAL, Soort, Status
from worker.core.phrases import phrase
from worker.core.row_phrases import said_row
from worker.core.rows import LogRow, Task
from worker.core.show import facts_from_context
from worker.core.table import age, dollars, month_names, when
from worker.core.terminal import is_blank, printable
from worker.db import bots, channel, intake, overview, tail
from worker.db import cockpit as cockpit_rows
from worker.db.bots import Bot
from worker.db.briefing import briefing_for
from worker.db.ledger import json_object
from worker.db.machines import machines_named
from worker.db.owner import owner_name, take_back_wait
from worker.db.sqlfiles import Executor
from worker.db.store import Store
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
CHART_DAYS = 14
STALE_SECONDS = 90  # as `taak overzicht`: a heartbeat older than this is flagged
ENVIRONMENT = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
    # Every value from the database is text, whatever it holds (an opdracht can hold HTML or script), and shows no
    # control character raw; only the pictures drawn here (marked safe) pass as they are.
    autoescape=True,
    finalize=lambda value: value if isinstance(value, Markup) or not isinstance(value, str) else printable(value),
    undefined=jinja2.StrictUndefined,
)


@dataclass
class Cockpit:
    """What every request of one cockpit shares: its settings, its secret, its words, and the store the
    application's start opened (on a pool)."""

    settings: Settings
    token: str
    csrf: str
    words: dict[str, str]
    login: str  # how to get in: `taak cockpit --link` with this cockpit's options
    opened: Store | None = None

    @property
    def store(self) -> Store:
        assert self.opened is not None, "the cockpit's store is opened by the application's start"
        return self.opened

    @property
    def language(self) -> str:
        return self.settings.language

    def html(self, name: str, title: str, status: int = 200, **values: Any) -> HTMLResponse:
        """A page in the run's language: its own words as `w`, and the line an action left as `message`."""
        values = {"w": self.words, "language": self.language, "title": title, "csrf": self.csrf, **values}
        return HTMLResponse(ENVIRONMENT.get_template(name).render({"message": None, **values}), status_code=status)

    def page(self, title: str, text: str, status: int) -> HTMLResponse:
        return self.html("message.html", title, status, text=text)

    def bad_request(self, text: str, status: int) -> HTMLResponse:
        return self.page(self.words["bad_request"], text, status)

    def authorised(self, request: Request) -> bool:
        given = request.cookies.get(COOKIE, "")
        return hmac.compare_digest(given.encode(), self.token.encode())

    def done_mark(self, action: str, task_id: str) -> str:
        signed = hmac.new(self.token.encode(), f"{task_id}:{action}".encode(), hashlib.sha256).hexdigest()[:16]
        return action + "." + signed

    async def guard(self, request: Request) -> Response | None:
        """None when the request may go on; else the answer to give instead."""
        offered = request.query_params.get("token")
        if offered is not None:
            if not hmac.compare_digest(offered.encode(), self.token.encode()):
                return self.bad_request(self.login, 401)
            # Into the cookie, and out of the address bar and the history.
            answer = RedirectResponse(request.url.path, status_code=303)
            answer.set_cookie(COOKIE, self.token, httponly=True, samesite="strict", max_age=90 * 86400)
            return answer
        if not self.authorised(request):
            return self.bad_request(self.login, 401)
        if request.method == "POST":
            form = await self._form(request)
            if isinstance(form, Response):
                return form
            request.state.form = form
            if not _same_origin(request) or not hmac.compare_digest(form.get("csrf", "").encode(), self.csrf.encode()):
                return self.bad_request(self.words["csrf_refused"], 403)
        return None

    async def _form(self, request: Request) -> dict[str, str] | Response:
        """The posted form, as the CLI takes text: UTF-8 or refused, and of a bounded size."""
        body = await request.body()
        if len(body) > FORM_MAX_BYTES:
            return self.bad_request(
                message("too_long", self.language, what="form", length=len(body), limit=FORM_MAX_BYTES), 413
            )
        try:
            return dict(parse_qsl(body.decode("utf-8"), encoding="utf-8", errors="strict", keep_blank_values=True))
        except (UnicodeDecodeError, ValueError):
            return self.bad_request(message("form_not_utf8", self.language), 400)


def _same_origin(request: Request) -> bool:
    here = f"{request.url.scheme}://{request.url.netloc}"
    origin = request.headers.get("origin")
    referer = request.headers.get("referer")
    return origin == here if origin is not None else referer is None or referer.startswith(here + "/")


Handler = Callable[[Request, Cockpit], Awaitable[Response]]


def guarded(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    """The route's endpoint: the guard first, then the handler with the application's cockpit."""

    @functools.wraps(handler)
    async def endpoint(request: Request) -> Response:
        cockpit: Cockpit = request.app.state.cockpit
        if (refused := await cockpit.guard(request)) is not None:
            return refused
        return await handler(request, cockpit)

    return endpoint


async def board(_request: Request, cockpit: Cockpit) -> Response:
    async with cockpit.store.connection() as held:
        page = await _board(held.db, cockpit.settings)
        backlog = await intake.backlog(held.conn, cockpit.settings, intake.Selection())
    waiting = len(backlog.messages) if not isinstance(backlog, str) else 0
    page["backlog"] = message("cockpit.backlog_link", cockpit.language, n=waiting) if waiting else None
    return cockpit.html("board.html", cockpit.words["board"], **page)


async def task_page(request: Request, cockpit: Cockpit) -> Response:
    task_id = request.path_params["id"]
    try:
        async with cockpit.store.connection() as held:
            page = await _task(held, task_id)
    except TaakError as error:
        return cockpit.page(task_id, error.render(cockpit.language), (error.exit_code == 3 and 404) or 400)
    # Only the CLI's own line, and only after an action here did it: the mark is signed with the token.
    mark = request.query_params.get("gedaan", "")
    action = mark.partition(".")[0]
    done = DONE.get(action) if hmac.compare_digest(mark, cockpit.done_mark(action, task_id)) else None
    said = message(done, cockpit.language, id=task_id, soort="notitie") if done else None
    return cockpit.html("task.html", task_id, message=said, **page)


async def log_after(request: Request, cockpit: Cockpit) -> Response:
    try:
        after = int(request.query_params.get("na", "0"))
    except ValueError:
        after = -1
    if not 0 <= after < 2**63:
        return JSONResponse({"error": "na"}, status_code=400)
    async with cockpit.store.connection() as held:
        rows = await tail.after(held.db, after, request.path_params["id"], None)
    return JSONResponse([_log_json(r, cockpit.settings) for r in rows])


async def act(request: Request, cockpit: Cockpit) -> Response:
    form: dict[str, str] = request.state.form
    task_id, action = request.path_params["id"], request.path_params["action"]
    if action not in ACTIONS:
        return cockpit.bad_request(cockpit.words["no_such_action"].format(action=action), 404)
    text = (form.get("tekst") or form.get("reden") or "").strip()
    try:
        async with cockpit.store.connection() as held:
            done = await _act(held, task_id, action, text)
    except TaakError as error:
        return cockpit.bad_request(error.render(cockpit.language), 400)
    return RedirectResponse(f"/taak/{task_id}?gedaan={cockpit.done_mark(done, task_id)}", status_code=303)


async def switch(request: Request, cockpit: Cockpit) -> Response:
    if request.path_params["switch"] not in ("aan", "uit"):
        return cockpit.bad_request(cockpit.words["no_such_action"].format(action=request.path_params["switch"]), 404)
    on = request.path_params["switch"] == "aan"
    try:
        async with cockpit.store.connection() as held:
            await bots.set_active(held.db, request.path_params["bot"], on)
    except TaakError as error:
        return cockpit.bad_request(error.render(cockpit.language), 400)
    return RedirectResponse("/", status_code=303)


async def backlog_page(_request: Request, cockpit: Cockpit, said: str | None = None) -> Response:
    """The skipped backlog as cards, one a sender, recipient and month, each with its checkbox, its messages' IDs
    and what a take-in would do apart from making tasks (the CLI's dry run lines); `said`: what was just done."""
    async with cockpit.store.connection() as held:
        seen = await intake.backlog(held.conn, cockpit.settings, intake.Selection())
    settings, language = cockpit.settings, cockpit.language
    if isinstance(seen, str):
        return cockpit.page(cockpit.words["backlog"], message("intake_off", language, reason=seen), 200)
    by_id = {m.id: m for m in seen.messages}
    cards = []
    for g in groups(seen.messages, settings.zone):
        members = [by_id[i] for i in g.ids]
        cards.append(
            {
                "sender": g.sender,
                "recipient": g.recipient,
                "month": g.month,
                "count": g.count,
                "sample": g.sample,
                "shown_ids": ", ".join(sorted(g.ids, key=id_order)),
                "notes": [note.said(language) for note in seen.notes(members)],
                "ids": json.dumps(list(g.ids)),
            }
        )
    cutoff = _when(seen.rules.cutoff, settings)
    return cockpit.html("backlog.html", cockpit.words["backlog"], cards=cards, cutoff=cutoff, message=said)


async def backlog_decide(request: Request, cockpit: Cockpit) -> Response:
    """The checked cards taken in (`besluit=neem`) or left (`besluit=sla-over`), as `taak intake neem --alle --ja`
    and `taak intake sla-over --alle --ja` do with these messages: one transaction, each message once, what cannot
    come in as it is left in the backlog and said. The page that answers is the backlog as it is now, with the
    CLI's lines (`bericht X -> HV-...`) on top."""
    form: dict[str, str] = request.state.form
    decision = form.get("besluit", "")
    if decision not in ("neem", "sla-over"):
        return cockpit.bad_request(cockpit.words["no_such_action"].format(action=decision), 400)
    ids: list[str] = []
    try:
        for name, value in form.items():
            if name.startswith("kies."):
                chosen = json.loads(value)
                if not isinstance(chosen, list) or not all(isinstance(i, str) for i in chosen):
                    raise ValueError(name)
                ids += chosen
    except ValueError:
        return cockpit.bad_request(cockpit.words["no_such_request"], 400)
    if not ids:
        return cockpit.bad_request(cockpit.words["backlog_none_chosen"], 400)
    selection = intake.Selection(ids=tuple(ids))
    try:
        if decision == "neem":
            done = await intake.take_backlog(cockpit.store, selection)
            said = [line.said(cockpit.language) for line in done.lines()]
        else:
            left = await intake.leave_backlog(cockpit.store, selection)
            said = [message("backlog_left", cockpit.language, n=len(left))]
    except TaakError as error:
        return cockpit.bad_request(error.render(cockpit.language), 400)
    return await backlog_page(request, cockpit, "\n".join(said))


ROUTES = [
    Route("/", guarded(board)),
    Route("/achterstand", guarded(backlog_page)),
    Route("/achterstand", guarded(backlog_decide), methods=["POST"]),
    Route("/taak/{id}", guarded(task_page)),
    Route("/taak/{id}/log", guarded(log_after)),
    Route("/taak/{id}/{action:str}", guarded(act), methods=["POST"]),
    Route("/bot/{bot}/{switch:str}", guarded(switch), methods=["POST"]),
]


async def _act(store: Store, task_id: str, action: str, text: str) -> str:
    """One of the owner's verbs, through the ledger as the CLI does it; returns the mark of what was done (DONE)."""
    ledger, settings = store.tasks, store.settings
    wie = await owner_name(store.db, settings)
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


async def _board(db: Executor, settings: Settings) -> dict[str, Any]:
    now = datetime.now(settings.zone)
    today = {d.bot: d.kosten_vandaag for d in await bots.days(db, None)}
    figures = {r["bot"]: r for r in await overview.per_bot(db)}
    held = list(await overview.held_tasks(db))
    listed = await bots.all_bots(db)
    newest = newest_version(b.versie for b in listed)

    def bot_line(b: Bot) -> dict[str, Any]:
        seen = b.laatst_gezien
        current = [h for h in held if h["bot"] == b.bot]  # every task it holds, from the ledger
        counted: Any = figures.get(b.bot) or {}
        return {
            "bot": b.bot,
            "actief": b.actief,
            "machine": b.machine,
            "version": said_version(b.versie, newest, settings.language),
            "version_other": bool(b.versie and newest and b.versie != newest),
            "huidige_taken": [h["id"] for h in current],
            "lease_left": age(int(current[0]["lease_seconden"]), settings.language) if current else "-",
            "seen": _when(seen, settings) if seen else "-",
            "stale": seen is not None and (now - seen).total_seconds() > STALE_SECONDS,
            "klaar": counted.get("klaar_vandaag", 0),
            "mislukt": counted.get("mislukt_vandaag", 0),
            "wacht": counted.get("wacht_op_mens", 0),
            "kosten": f"${today[b.bot]:.2f}" if b.bot in today else "-",
        }

    shown_bots = [bot_line(b) for b in listed]
    tasks = [_task_line(task, now, settings) for task in await cockpit_rows.board_tasks(db)]
    slot, digest = await channel.preview(db, settings, now)
    next_digest = {"when": _when(slot, settings) if slot is not None else None, "text": digest}
    return {"bots": shown_bots, "tasks": tasks, "charts": await _charts(db, settings), "digest": next_digest}


def _task_line(task: Task, now: datetime, settings: Settings) -> dict[str, Any]:
    due = "-"
    if task.uiterlijk:
        due = _when(task.uiterlijk, settings) + (" !" if task.uiterlijk < now and task.status not in FINAL else "")
    return {
        "id": task.id,
        "status": task.status.value,
        "bot": task.toegewezen_aan or "-",
        "age": age(int((now - task.aangemaakt).total_seconds()), settings.language),
        "due": due,
        "attempts": f"{task.pogingen}/{task.max_pogingen}",
        "titel": task.titel,
    }


async def _charts(db: Executor, settings: Settings) -> list[str]:
    words = area_words("cockpit", settings.language)
    today = datetime.now(settings.zone).date()
    days = [today - timedelta(days=n) for n in range(CHART_DAYS - 1, -1, -1)]
    position = {day: n for n, day in enumerate(days)}
    tally: defaultdict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0] * len(days))
    for row in await cockpit_rows.per_day(db, CHART_DAYS, settings.timezone):
        if (n := position.get(row["dag"])) is not None:
            tally["finished", f"{row['bot']} {words['done_label']}"][n] += row["klaar"]
            tally["cost", row["bot"]][n] += float(row["kosten"])
    for row in await cockpit_rows.failed_per_day(db, CHART_DAYS, settings.timezone):
        if (n := position.get(row["dag"])) is not None:
            tally["finished", f"{row['bot']} {words['failed_label']}"][n] += row["mislukt"]
    months = month_names(settings.language)
    finished = _series(tally, "finished", by_name=True)  # a bot's finished and failed side by side
    return [
        charts.bars(words["finished_failed"], days, finished, months),
        charts.bars(words["cost_per_day"], days, _series(tally, "cost"), months, money=True),
        *await _before_after(db, settings, days, months),
    ]


async def _before_after(db: Executor, settings: Settings, days: list[date], months: Sequence[str]) -> list[str]:
    """Issue 41's two pictures, from `taak overzicht --per-dag`'s rows in the page's days: sessions per finished
    task (before a bot's switch-on the old queue's messages per handled message, lighter) and the median hours a
    question waited, each bot's bar beside the others'."""
    words = area_words("cockpit", settings.language)
    rows = [dict(r) for r in (await overview.per_day(db, len(days), settings)).rows]
    switched = daily.fleet_switch_on(rows)
    mark = (switched, words["switched_on"]) if switched is not None else None
    sessions, before = daily.bot_series(rows, days, "sessies_per_klare_taak"), daily.before_switch_on(rows, days)
    shown = [(v, b) for bot in sessions for v, b in zip(sessions[bot], before[bot], strict=True) if v is not None]
    notes = [words["before_note"]] if any(b for _, b in shown) else []
    notes += [words["none_handled_note"]] if any(math.isinf(v) for v, _ in shown) else []
    return [
        charts.grouped(
            words["sessions_before_after"],
            days,
            sessions,
            months,
            before=before,
            switch_on=mark,
            note="\n".join(notes),
            endless=words["none_handled"],
        ),
        charts.grouped(
            words["question_wait"], days, daily.bot_series(rows, days, "vraag_wacht_uren"), months, switch_on=mark
        ),
    ]


def _series(tally: dict[tuple[str, str], list[float]], kind: str, *, by_name: bool = False) -> dict[str, list[float]]:
    """One picture's series, in the order the rows named them (or by name)."""
    names = [name for kind_, name in tally if kind_ == kind]
    return {name: tally[kind, name] for name in (sorted(names) if by_name else names)}


async def _task(store: Store, task_id: str) -> dict[str, Any]:
    ledger, settings = store.tasks, store.settings
    task = await ledger.toon(task_id)
    rows = await ledger.log_rows(task_id)
    facts = facts_from_context(task.context)
    asked = next((r for r in reversed(rows) if r.soort == Soort.VRAAG), None)
    question = {"bot": asked.bot or "-", "tekst": asked.tekst} if asked is not None else None
    return {
        "task": {**asdict(task), "status": task.status.value},
        "due": _when(task.uiterlijk, settings) if task.uiterlijk else None,
        "context": list(expand_facts(facts, await machines_named(store.db, list(facts.values()))).items()),
        "rows": [_log_json(asdict(r), settings) for r in rows],
        "last_id": max((r.id for r in rows), default=0),
        "question": question if task.status == Status.WACHT_OP_MENS else None,
        "sessions": _sessions(rows, settings),
        "compactions": [said_row(r.tekst, r.meta, settings.language) for r in rows if r.soort == Soort.COMPACT],
        "briefing": await briefing_for(ledger, task_id, settings, Variant.FULL),
    }


def _sessions(rows: list[LogRow], settings: Settings) -> list[dict[str, Any]]:
    """Every session as `taak overzicht` counts them, from its `gestart` row (its start), with what its result row
    says: a session that ended without a result line was left out, and the result's time shown as the start."""
    results = {
        r.meta["sessie"]: r.meta
        for r in rows
        if r.soort == Soort.NOTITIE and r.meta.get("sessie") and "exit_code" in r.meta
    }
    sessions = []
    for started in (r for r in rows if r.soort == Soort.GESTART):
        result = results.get(started.sessie, {})
        turns, cost = result.get("num_turns"), dollars(result.get("total_cost_usd"))
        turns = "-" if turns is None else turns
        sessions.append({"ts": _when(started.ts, settings), "bot": started.bot or "-", "turns": turns, "cost": cost})
    return sessions


def _log_json(row: Any, settings: Settings) -> dict[str, Any]:
    """A log row for the page: its text in the page's language (the system's own rows; see said_row)."""
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
    return when(moment, settings.zone, settings.language)
