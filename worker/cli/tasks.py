"""The verbs of one task: nieuw, claim, log, klaar, blokkeer, antwoord, vrijgeven, stap, toon, lijst, brief, tail."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime

from worker.cli import args as a
from worker.cli.guard import discard_output
from worker.core.catalogue import message, written
from worker.core.errors import ExitCode, InvalidInput, Misconfigured, NotFound, Refused, Unreachable
from worker.core.model import FINAL, INT_MAX, OWNER_KINDS, SESSION_KINDS, Status, check_task_id
from worker.core.terminal import is_blank

TYPE_CHECKING = False
if TYPE_CHECKING:  # the parsers are read by the in-session client, which loads no settings class
    from typing import Any

    from worker.settings import Settings


async def nieuw(args: argparse.Namespace, settings: Settings) -> int:
    import dataclasses  # start-up: the in-session client reads the parsers only (worker/core/rows.py)

    from worker.core.due import parse_due  # start-up: as above

    # start-up: asyncpg, for the verbs that use the database
    from worker.db.bots import check_bot_name, check_skill_name, known_bot, known_skill
    from worker.db.ledger import NewTask  # start-up: asyncpg, for the verbs that use the database

    aan = check_bot_name(args.aan) if args.aan is not None else None
    nodig = check_skill_name(args.nodig) if args.nodig is not None else None
    now = datetime.now(settings.zone)
    uiterlijk = parse_due(args.uiterlijk, now, settings.zone) if args.uiterlijk is not None else None
    new = NewTask(
        opdracht=a.read_text(a.joined(args.opdracht)),
        opdrachtgever=args.van if args.van is not None else "",  # given empty: refused; not given: the owner (below)
        toegewezen_aan=aan,
        uiterlijk=uiterlijk,
        klaar_wanneer=args.klaar_wanneer,
        context=a.context_pairs(args.context),
        volgende_stap=args.volgende_stap,
        titel=args.titel,
        prioriteit=args.prioriteit,
        max_pogingen=args.max_pogingen,
        nodig=nodig,
    )
    async with a.store_for_a_change(settings) as store:
        if args.van is None:
            new = dataclasses.replace(new, opdrachtgever=await a.who(store, settings))
        async with store.conn.transaction():
            if aan is not None:
                await known_bot(store.db, aan, new=args.nieuwe_bot)
            if nodig is not None:
                await known_skill(store.db, nodig)
            task_id = await store.tasks.nieuw(new)
        print(json.dumps({"id": task_id}) if args.json else task_id)
    return ExitCode.OK


async def claim(args: argparse.Namespace, settings: Settings) -> int:
    from worker.core.briefing import Variant  # start-up: only for the verbs that use it
    from worker.db.bots import known_bots  # start-up: as above
    from worker.db.briefing import briefing_for  # start-up: asyncpg, for the verbs that use the database

    async with a.store(settings) as store:
        bots = await known_bots(store.db, args.bot, new=args.nieuwe_bot)
        ledger = store.tasks
        # A claim whose token nobody saw holds the task until its lease runs out: once asked, it is said.
        with a.ctrl_c_after_it_is_done(settings):
            claimed = await ledger.claim(bots)
            if claimed is None:
                raise NotFound("nothing_to_claim", bots=", ".join(args.bot))
            briefing = await briefing_for(ledger, claimed.task.id, settings, Variant.FULL)
            if args.json:
                shown = {"id": claimed.task.id, "lease_token": claimed.token, "bot": claimed.bot, "briefing": briefing}
                print(json.dumps(shown, ensure_ascii=False))
            else:
                # Exported: `eval "$(taak claim ...)"` hands them to the commands that follow, as a session has them.
                print(f"export TAAK_ID={claimed.task.id} TAAK_TOKEN={claimed.token} TAAK_BOT={claimed.bot}")
    return ExitCode.OK


async def log(args: argparse.Namespace, settings: Settings) -> int:
    explicit, rest = a.split_id(args.words)
    task_id, token = a.session_task(settings, explicit)
    soort, tekst = a.log_words(explicit, rest)
    session_id = settings.sessie if token is not None else None
    async with a.store_for_a_change(settings) as store:
        await store.tasks.log(task_id, soort, tekst, token=token, bot=await a.who(store, settings), sessie=session_id)
        print(written("log", settings.language, task_id, soort.value))
    return ExitCode.OK


async def klaar(args: argparse.Namespace, settings: Settings) -> int:
    explicit, rest = a.split_id(args.words)
    task_id, token = a.session_task(settings, explicit)
    if args.bewijs is None or is_blank(args.bewijs):
        raise Refused("no_evidence", id=task_id)
    token = a.need_token(task_id, token, "klaar")
    async with a.store_for_a_change(settings) as store:
        await store.tasks.klaar(task_id, args.bewijs, a.joined(rest), token=token, sessie=settings.sessie)
        print(written("klaar", settings.language, task_id))
    return ExitCode.OK


async def blokkeer(args: argparse.Namespace, settings: Settings) -> int:
    explicit, question = a.task_and_text(args.words, BLOKKEER_USAGE, text=True)
    task_id, token = a.session_task(settings, explicit)
    token = a.need_token(task_id, token, "blokkeer")
    meta = {"dringend": True} if args.dringend else None
    async with a.store_for_a_change(settings) as store:
        await store.tasks.blokkeer(task_id, question, token=token, sessie=settings.sessie, meta=meta)
        print(written("blokkeer", settings.language, task_id))
    return ExitCode.OK


async def vrijgeven(args: argparse.Namespace, settings: Settings) -> int:
    explicit, _ = a.task_and_text(args.words, VRIJGEVEN_USAGE, text=False)
    task_id, token = a.session_task(settings, explicit)
    reden = a.unless_blank(args.reden)
    from worker.core.phrases import phrase  # start-up: the in-session client reads the parsers only (a dataclass)

    if token is None:  # the owner, by hand
        from worker.db.owner import take_back_wait  # start-up: the in-session client reads the parsers only

        wait = take_back_wait(settings)
        async with a.store_for_a_change(settings) as store:
            wie = await a.who(store, settings)
            await store.tasks.terugnemen(task_id, reden or phrase("row_by_hand"), wie=wie, wait_seconds=wait)
            print(a.said(settings, "taken_back", id=task_id))
        return ExitCode.OK
    async with a.store_for_a_change(settings) as store:
        given = await store.tasks.vrijgeven(task_id, token, reden or phrase("row_released_by_session"))
        print(written("vrijgeven", settings.language, task_id, used_up=given.mislukt))
    return ExitCode.OK


async def annuleer(args: argparse.Namespace, settings: Settings) -> int:
    # a reason typed without --reden, most likely: named, as vrijgeven names it
    explicit, _ = a.task_and_text(args.words, "taak annuleer ID --reden R", text=False)
    if explicit is None:
        a.fail("usage: taak annuleer ID --reden R", ExitCode.USAGE)
    check_task_id(explicit)
    if args.reden is None:
        a.fail(a.said(settings, "reason_required", verb="taak annuleer"), ExitCode.USAGE)
    if is_blank(args.reden):
        raise InvalidInput("empty", what="--reden")
    async with a.store_for_a_change(settings) as store:
        await store.tasks.annuleer(explicit, args.reden, wie=await a.who(store, settings))
        print(a.said(settings, "cancelled", id=explicit))
    return ExitCode.OK


async def antwoord(args: argparse.Namespace, settings: Settings) -> int:
    explicit, rest = a.split_id(args.words)
    if explicit is None or not rest:
        a.fail("usage: taak antwoord ID TEXT", ExitCode.USAGE)
    check_task_id(explicit)
    text = a.read_text(a.joined(rest))  # stdin is read first: a Ctrl-C while it is typed stops at once
    async with a.store_for_a_change(settings) as store:
        answer = await store.tasks.antwoord(explicit, text, wie=await a.who(store, settings))
        print(a.said(settings, "answered_reopened" if answer.heropend else "answered", id=explicit))
    return ExitCode.OK


async def stap(args: argparse.Namespace, settings: Settings) -> int:
    explicit, step = a.task_and_text(args.words, STAP_USAGE, text=True)
    task_id, token = a.session_task(settings, explicit)
    async with a.store_for_a_change(settings) as store:
        await store.tasks.stap(task_id, step, token=token, bot=await a.who(store, settings))
        print(a.said(settings, "step_set", id=task_id))
    return ExitCode.OK


async def toon(args: argparse.Namespace, settings: Settings) -> int:
    from dataclasses import asdict  # start-up: the in-session client reads the parsers only

    from worker.core.show import plain, show_task, task_json  # start-up: as above

    args.id, _token = a.session_task(settings, args.id)
    async with a.store(settings) as store:
        ledger = store.tasks
        task = await ledger.toon(args.id)
        rows = await ledger.log_rows(args.id)
    if args.json:
        return a.print_json({**task_json(task), "log": [plain(asdict(row)) for row in rows]})
    print(show_task(task, rows, settings.zone, settings.language))
    return ExitCode.OK


async def lijst(args: argparse.Namespace, settings: Settings) -> int:
    from worker.core.show import task_json  # start-up: the in-session client reads the parsers only
    from worker.core.table import header_row, table  # start-up: as above
    from worker.db.bots import check_bot_name, known_bot, known_skill  # start-up: asyncpg, as above

    limit = a.positive(args.limiet, "--limiet")
    status = Status(args.status) if args.status else None
    aan = check_bot_name(args.aan) if args.aan is not None else None
    async with a.store(settings) as store:
        nodig = await known_skill(store.db, args.nodig) if args.nodig is not None else None
        # One more than shown, to know whether the list was cut (it stopped at 50 without a word).
        tasks = await store.tasks.lijst(status=status, toegewezen_aan=aan, nodig=nodig, limit=min(limit + 1, INT_MAX))
        if not tasks and aan is not None:
            # Nothing for a name the fleet does not know is most likely a typo (`pacoo`): say so rather than
            # answer an empty list. Tasks given by SQL to a bot never registered are still listed.
            await known_bot(store.db, aan, may_be_new=False)
    more = len(tasks) > limit
    tasks = tasks[:limit]
    if args.json:
        return a.print_json([task_json(t) for t in tasks])
    now = datetime.now(settings.zone)
    headers = header_row(
        "list.tasks", ("id", "status", "assigned", "needs", "attempts", "due", "title"), settings.language
    )
    rows = [
        (
            t.id,
            t.status.value,
            t.toegewezen_aan,
            t.nodig,
            f"{t.pogingen}/{t.max_pogingen}",
            _due(t, now, settings),
            t.titel,
        )
        for t in tasks
    ]
    print(table(headers, rows) if rows else message("list.no_tasks", settings.language))
    if more:
        print(a.said(settings, "list_cut", limit=limit))
    return ExitCode.OK


def _due(task: Any, now: datetime, settings: Settings) -> str | None:
    from worker.core.table import when  # start-up: the in-session client reads the parsers only

    if task.uiterlijk is None:
        return None
    late = task.uiterlijk < now and task.status not in FINAL
    return when(task.uiterlijk, settings.zone, settings.language) + (" TE LAAT" if late else "")


async def brief(args: argparse.Namespace, settings: Settings) -> int:
    from worker.core.briefing import Variant  # start-up: only for the verbs that use it
    from worker.db.briefing import briefing_for  # start-up: asyncpg, for the verbs that use the database

    args.id, _token = a.session_task(settings, args.id)
    variant = Variant.COMPACT if args.compact else Variant.FULL
    async with a.store(settings) as store:
        text = await briefing_for(store.tasks, args.id, settings, variant)
    print(json.dumps({"id": args.id, "briefing": text}, ensure_ascii=False) if args.json else text)
    return ExitCode.OK


TAIL_POLL_SECONDS = 1.0
TAIL_RECONNECT_SECONDS = 2.0
TAIL_LOOK_BEHIND = 1000  # log ids: how far behind the newest one a late commit is still looked for


async def _reconnected(settings: Settings, lost: BaseException) -> Any:
    """A new connection for `taak tail` once the database answers again; said once on stderr when it went and
    when it came back. A setting that no waiting mends (a database that is gone) ends tail as any command."""
    import anyio

    # start-up: asyncpg, for the verbs that use the database
    from worker.db.connect import connect_one, resolve_database, unreachable

    database = await resolve_database(settings)
    said = unreachable(database, lost).render(settings.language)
    print(f"taak: {message('tail_waits', settings.language, said=said)}", file=sys.stderr, flush=True)
    while True:
        await anyio.sleep(TAIL_RECONNECT_SECONDS)
        try:
            again = await connect_one(settings, database)
        except Misconfigured:
            raise
        except Unreachable:
            continue
        print(f"taak: {message('tail_goes_on', settings.language)}", file=sys.stderr, flush=True)
        return again


async def tail(args: argparse.Namespace, settings: Settings) -> int:
    from worker.core.row_phrases import said_row  # start-up: the in-session client reads the parsers only
    from worker.core.table import month_names, stamp  # start-up: as above
    from worker.core.terminal import hanging, padded  # start-up: as above
    from worker.db import tail as log  # start-up: asyncpg, for the verbs that use the database
    from worker.db.bots import known_bot  # start-up: as above
    from worker.db.ledger import json_object  # start-up: as above

    a.positive(args.limiet, "--limiet", minimum=0)  # 0: only what is written from now on
    if args.id is not None:
        check_task_id(args.id)
    months = month_names(settings.language)

    def show(row: Any) -> None:
        when = stamp(row["ts"], datetime.now(settings.zone), settings.zone, months, always_date=True)
        who = padded(row["bot"] or "-", 10)
        text = said_row(row["tekst"], json_object(row["meta"]), settings.language)
        print(hanging(f"{when}  {row['taak_id']}  {row['soort']:12} {who} ", text), flush=True)

    async with a.store(settings) as store:
        if args.id is not None:  # an ID that is not there would be waited for forever
            await store.tasks.toon(args.id)
        if args.bot is not None:  # a bot nobody knows would be followed forever too
            args.bot = await known_bot(store.db, args.bot, may_be_new=False)
        # No notification per log row (they serialised every writer at commit, issue 16): a look every second
        # by id. A row whose transaction took its id earlier but committed later is caught by looking a little
        # behind the newest id, and shown once. What was already there when tail started counts as seen, shown
        # or not (`-n 0` shows nothing old): one snapshot for the first rows and that window.
        async with store.conn.transaction(isolation="repeatable_read", readonly=True):
            rows = await log.newest(store.db, args.id, args.bot, args.limiet)
            last = await log.last_id(store.db)
            there = await log.after(store.db, last - TAIL_LOOK_BEHIND, args.id, args.bot)
        for row in reversed(rows):
            show(row)
        return await _follow(store, settings, args, last, {int(r["id"]) for r in there}, show)


async def _follow(
    store: Any, settings: Settings, args: argparse.Namespace, last: int, shown: set[int], show: Any
) -> int:
    """Every row written after `last`, once, until the reader has had enough (or Ctrl-C)."""
    import anyio

    from worker.db import tail as log  # start-up: asyncpg, for the verbs that use the database
    from worker.db.connect import CONNECTION_ERRORS  # start-up: asyncpg, for the verbs that use the database
    from worker.proc import reader_gone  # start-up: only for the verbs that use it

    following = store.db
    try:
        while True:
            await anyio.sleep(TAIL_POLL_SECONDS)
            if reader_gone(sys.stdout):  # `| head` had enough while nothing new was written
                discard_output()
                return ExitCode.OK
            try:
                found = await log.after(following, last - TAIL_LOOK_BEHIND, args.id, args.bot)
            except CONNECTION_ERRORS as lost:
                # A restart of the database ended the owner's live view; by id, nothing is missed meanwhile.
                following = await _reconnected(settings, lost)
                continue
            for row in found:
                if row["id"] in shown:
                    continue
                show(row)
                shown.add(int(row["id"]))
                last = max(last, int(row["id"]))
            shown = {n for n in shown if n > last - TAIL_LOOK_BEHIND}
    finally:
        if following is not store.db:
            await following.close()


SESSION_WORDS = ", ".join(sorted(SESSION_KINDS))
OWNER_WORDS = ", ".join(sorted(OWNER_KINDS))
TASK = "the task (default TAAK_ID)"
BLOKKEER_USAGE = "taak blokkeer [ID] [--dringend] QUESTION"
VRIJGEVEN_USAGE = "taak vrijgeven [ID] [--reden R]"
STAP_USAGE = "taak stap [ID] TEXT"
URGENT_HELP = "urgent: to the owner at once, not in the next digest (at most TAAK_URGENT_PER_BOT_PER_DAY a day)"
PARSERS = {
    "nieuw": a.Verb(
        "create a task; prints only its ID",
        "taak nieuw OPDRACHT [--aan BOT] [--nodig SKILL] [--van WHO] [--klaar-wanneer T] [--context KEY=VALUE ...] ...",
        a.arg(
            "opdracht", "OPDRACHT", "the instruction, verbatim (unquoted words are joined); - reads stdin", nargs="+"
        ),
        a.arg("--aan", "BOT", "the bot that must do it (default: any bot); a known bot"),
        a.flag("--nieuwe-bot", "the --aan bot is new: register it (switched off)"),
        a.arg("--nodig", "SKILL", "the skill it needs: without --aan only a bot that has it takes it"),
        a.arg("--uiterlijk", "WHEN", "due date: 2026-12-05, '2026-12-05 17:00', morgen, +3d, 2w"),
        a.arg("--van", "WHO", "who asks (default: TAAK_BOT or your user name)"),
        a.arg("--klaar-wanneer", "T", "what done means, in plain words"),
        a.arg("--context", "KEY=VALUE", "a fixed fact (repeatable)", action="append", default=[]),
        a.arg("--volgende-stap", "T", "the first thing to do"),
        a.arg("--titel", "T", "a short title (default: the opdracht's first line)"),
        a.arg("--prioriteit", "N", "higher is claimed first (default 0)", type=a.whole_number, default=0),
        a.arg("--max-pogingen", "N", "attempts allowed (default 3)", type=a.whole_number, default=3),
        a.JSON,
        handler=nieuw,
    ),
    "claim": a.Verb(
        "take the best waiting task for a bot",
        "taak claim --bot BOT [--nieuwe-bot] [--json]",
        a.arg("--bot", "BOT", "a bot to claim for (repeatable)", action="append", required=True),
        a.flag("--nieuwe-bot", "the bot is new: register it"),
        a.flag("--json", "id, lease_token, bot and briefing as JSON"),
        handler=claim,
    ),
    "log": a.Verb(
        "append a row to a task's log",
        "taak log [ID] SOORT TEXT",
        a.arg("words", "[ID] SOORT TEXT", "the task (default TAAK_ID), the kind, the text", nargs="*"),
        description=f"SOORT, inside a session (with TAAK_TOKEN): {SESSION_WORDS}; the lease is extended. "
        f"Without a token (the owner): {OWNER_WORDS}.",
        handler=log,
    ),
    "klaar": a.Verb(
        "finish a held task with evidence",
        'taak klaar [ID] --bewijs B ["what you did"]',
        a.arg("words", "[ID] [TEXT]", f"{TASK} and what was done", nargs="*"),
        a.arg("--bewijs", "B", "required: a link, a path, a test result (--bewijs=-x)", nargs="?", const=""),
        handler=klaar,
    ),
    "blokkeer": a.Verb(
        "the task waits for the owner's answer",
        BLOKKEER_USAGE,
        a.arg("words", "[ID] QUESTION", f"{TASK} and the question", nargs="*"),
        a.flag("--dringend", URGENT_HELP),
        handler=blokkeer,
    ),
    "antwoord": a.Verb(
        "the owner answers a task's question",
        "taak antwoord ID TEXT",
        a.arg("words", "ID TEXT", "the task and the answer (- reads it from stdin)", nargs="*"),
        handler=antwoord,
    ),
    "vrijgeven": a.Verb(
        "give a held task back to the queue (the owner: take a lease back by hand)",
        VRIJGEVEN_USAGE,
        a.arg("words", "[ID]", TASK, nargs="*"),
        a.arg("--reden", "R", "why, for the log"),
        description="Inside a session: give the task back (the attempt stays used). The owner, without a token: "
        "take the lease back; the attempt is given back, the daemon that runs its session stops it, and then the "
        "task can be claimed again.",
        handler=vrijgeven,
    ),
    "annuleer": a.Verb(
        "the owner cancels a task (a running session is stopped)",
        "taak annuleer ID --reden R",
        a.arg("words", "ID", "the task", nargs="*"),
        a.arg("--reden", "R", "why, for the log (required)"),
        handler=annuleer,
    ),
    "stap": a.Verb(
        "set the task's next step",
        STAP_USAGE,
        a.arg("words", "[ID] TEXT", f"{TASK} and the next step", nargs="*"),
        handler=stap,
    ),
    "toon": a.Verb(
        "show a task and its whole log",
        "taak toon [ID] [--json]",
        a.arg("id", "ID", TASK, nargs="?"),
        a.flag("--json", "column names as keys, the log under `log`"),
        handler=toon,
    ),
    "lijst": a.Verb(
        "tasks, newest first",
        "taak lijst [--status S] [--aan BOT] [--nodig SKILL] [--limiet N] [--json]",
        a.arg("--status", None, "only tasks with this status", choices=[s.value for s in Status]),
        a.arg("--aan", "BOT", "only tasks assigned to this bot"),
        a.arg("--nodig", "SKILL", "only tasks that need this skill (a known skill)"),
        *a.limit(50, "at most this many tasks"),
        a.JSON,
        handler=lijst,
    ),
    "brief": a.Verb(
        "print the briefing a session would get",
        "taak brief [ID] [--compact] [--json]",
        a.arg("id", "ID", TASK, nargs="?"),
        a.flag("--compact", "the variant re-injected after a compaction"),
        a.JSON,
        handler=brief,
    ),
    "tail": a.Verb(
        "follow the log live, like tail -f (Ctrl-C ends it)",
        "taak tail [--bot B] [-n N] [ID]",
        a.arg("id", "ID", "only this task", nargs="?"),
        a.arg("--bot", "B", "only rows of this bot"),
        *a.limit(10, "rows to show first"),
        a.arg("--regels", None, argparse.SUPPRESS, dest="limiet", type=a.whole_number),
        handler=tail,
        ends_with_ctrl_c=True,
    ),
}
