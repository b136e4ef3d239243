"""`taak`: the command the bots and the owner use to read and write the task ledger.

Inside a queue session the task ID, lease token and bot come from TAAK_ID, TAAK_TOKEN and TAAK_BOT,
so `taak log stap_klaar "..."` is enough; an ID given on the command line wins.
Exit codes: 0 done; 1 refused by a rule; 2 usage or invalid input; 3 not found or nothing to claim;
4 database unreachable.
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from worker.cli.common import connection, fail, load_settings_or_exit, run
from worker.core.errors import ExitCode, InvalidInput, NotFound, Refused
from worker.core.model import TASK_ID, Soort, Status, Task
from worker.db.ledger import check_text
from worker.settings import Settings


class _Parser(argparse.ArgumentParser):
    """argparse that fails with one line and exit code 2, like every other refusal."""

    def error(self, text: str) -> Any:
        fail(text, ExitCode.USAGE)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="taak", description="The task ledger of the bot fleet.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    nieuw = sub.add_parser("nieuw", help="create a task; prints only its ID")
    nieuw.add_argument("opdracht", help="the instruction, verbatim; - reads it from stdin")
    nieuw.add_argument("--aan", help="the bot that must do it (default: any bot)")
    nieuw.add_argument("--van", help="who asks (default: TAAK_BOT or your user name)")
    nieuw.add_argument("--klaar-wanneer", help="what done means, in plain words")
    nieuw.add_argument("--context", action="append", default=[], metavar="KEY=VALUE", help="a fixed fact")
    nieuw.add_argument("--volgende-stap", help="the first thing to do")
    nieuw.add_argument("--titel")
    nieuw.add_argument("--prioriteit", type=int, default=0)
    nieuw.add_argument("--max-pogingen", type=int, default=3)
    nieuw.add_argument("--json", action="store_true")

    claim = sub.add_parser("claim", help="take the best waiting task for a bot")
    claim.add_argument("--bot", action="append", required=True, help="a bot to claim for (repeatable)")
    claim.add_argument("--json", action="store_true")

    log = sub.add_parser("log", help="append a row to a task's log: taak log [ID] SOORT TEKST")
    log.add_argument("words", nargs="+", metavar="[ID] SOORT TEKST")

    klaar = sub.add_parser("klaar", help="finish a task with evidence: taak klaar [ID] --bewijs B [TEKST]")
    klaar.add_argument("words", nargs="*", metavar="[ID] [TEKST]")
    klaar.add_argument("--bewijs", required=True, help="a link, a path, a test result")

    blokkeer = sub.add_parser("blokkeer", help="wait for the owner: taak blokkeer [ID] VRAAG")
    blokkeer.add_argument("words", nargs="+", metavar="[ID] VRAAG")

    antwoord = sub.add_parser("antwoord", help="answer a task's question: taak antwoord ID TEKST")
    antwoord.add_argument("id")
    antwoord.add_argument("tekst")

    vrijgeven = sub.add_parser("vrijgeven", help="give a claimed task back to the queue")
    vrijgeven.add_argument("id", nargs="?")
    vrijgeven.add_argument("--reden", default="vrijgegeven door de sessie")

    stap = sub.add_parser("stap", help="set the next step: taak stap [ID] TEKST")
    stap.add_argument("words", nargs="+", metavar="[ID] TEKST")

    toon = sub.add_parser("toon", help="show a task and its log")
    toon.add_argument("id")
    toon.add_argument("--json", action="store_true")

    lijst = sub.add_parser("lijst", help="list tasks, newest first")
    lijst.add_argument("--status", choices=[s.value for s in Status])
    lijst.add_argument("--aan")
    lijst.add_argument("--limiet", type=int, default=50)
    lijst.add_argument("--json", action="store_true")

    brief = sub.add_parser("brief", help="print the briefing a session would get")
    brief.add_argument("id")
    brief.add_argument("--compact", action="store_true", help="the variant re-injected after a compaction")
    brief.add_argument("--json", action="store_true")

    hook = sub.add_parser("hook", help="a Claude Code hook handler (reads the hook JSON on stdin)")
    hook.add_argument("name", choices=["session-start", "pre-compact", "post-compact", "prompt"])

    hooks = sub.add_parser("hooks", help="our hooks in ~/.claude/settings.json: install, check")
    hooks_sub = hooks.add_subparsers(dest="hooks_command", required=True, parser_class=_Parser)
    install = hooks_sub.add_parser("install", help="merge the hooks in (backup first; twice changes nothing)")
    install.add_argument("--settings", type=Path, help="the settings file (default ~/.claude/settings.json)")
    install.add_argument("--dry-run", action="store_true", help="print the result, write nothing")
    check = hooks_sub.add_parser("check", help="list hook commands whose script is missing")
    check.add_argument("--settings", type=Path)
    check.add_argument("--fix", action="store_true", help="remove them (after a backup)")

    claude_md = sub.add_parser("claude-md", help='add or refresh the "Compact instructions" in a CLAUDE.md')
    claude_md.add_argument("path", nargs="?", type=Path, help="default ~/.claude/CLAUDE.md")
    claude_md.add_argument("--write", action="store_true", help="write it (otherwise print the result)")

    geheugen = sub.add_parser("geheugen", help="the memory folder: taak geheugen check [DIR]")
    geheugen_sub = geheugen.add_subparsers(dest="geheugen_command", required=True, parser_class=_Parser)
    geheugen_check = geheugen_sub.add_parser("check", help="MEMORY.md size, what reaches a session, unindexed files")
    geheugen_check.add_argument("dir", nargs="?", type=Path)
    geheugen_check.add_argument("--json", action="store_true")

    recall_parser = sub.add_parser("recall", help='search the archive: taak recall "gisteravond budget"')
    recall_parser.add_argument("query")
    recall_parser.add_argument("--limit", type=int, default=40)
    recall_parser.add_argument("--taak", help="only lines of this task")
    recall_parser.add_argument("--bot", help="only lines of this bot (the task log) or actor (the archive)")
    recall_parser.add_argument("--taken", action="store_true", help="search the task log in the database instead")
    recall_parser.add_argument("--json", action="store_true")

    archief = sub.add_parser("archief", help="the lossless archive: import, bijwerken, herbouw")
    archief_sub = archief.add_subparsers(dest="archief_command", required=True, parser_class=_Parser)
    archief_import = archief_sub.add_parser(
        "import", help="import transcripts (default: ~/.claude/projects and the daemon's captures)"
    )
    archief_import.add_argument("paths", nargs="*", type=Path)
    archief_import.add_argument("--simple", action="store_true", help="the files are {ts, role, text} JSONL")
    bijwerken = archief_sub.add_parser("bijwerken", help="import new lines and update the indexes")
    herbouw = archief_sub.add_parser("herbouw", help="delete the indexes and rebuild them from the day files")
    for archief_parser in (archief_import, bijwerken, herbouw):
        archief_parser.add_argument("--json", action="store_true", help="the counts as one JSON object")

    lll_parser = sub.add_parser("lll", help='"where are we now": taak lll ONDERWERP | klaar ONDERWERP | toon')
    lll_parser.add_argument("words", nargs="+", metavar="ONDERWERP | klaar ONDERWERP | toon")

    sub.add_parser("doctor", help="check this machine's setup: ok / warn / fail with the fix")

    overzicht = sub.add_parser("overzicht", help="per bot: held, waiting, done today, sessions, cost, workers")
    overzicht.add_argument("--json", action="store_true")

    tail = sub.add_parser("tail", help="follow the log live, like tail -f: taak tail [--bot B] [ID]")
    tail.add_argument("id", nargs="?")
    tail.add_argument("--bot")
    tail.add_argument("-n", "--regels", type=int, default=10, help="rows to show first (default 10)")

    machine = sub.add_parser("machine", help="the machine registry: zet, wie, lijst")
    machine_sub = machine.add_subparsers(dest="machine_command", required=True, parser_class=_Parser)
    zet = machine_sub.add_parser("zet", help="add or update a machine: taak machine zet NAAM [--alias A] [--ip IP]")
    zet.add_argument("naam")
    zet.add_argument("--alias", action="append", default=[], help="another name for it (repeatable)")
    zet.add_argument("--ip", help="its LAN IP")
    zet.add_argument("--bot", action="append", default=[], help="a bot that runs there (repeatable)")
    wie = machine_sub.add_parser("wie", help="all the names of the machine a name or alias stands for")
    wie.add_argument("naam")
    wie.add_argument("--json", action="store_true")
    machine_list = machine_sub.add_parser("lijst", help="every machine with all its names")
    machine_list.add_argument("--json", action="store_true")

    bot = sub.add_parser("bot", help="the per-bot switch: taak bot aan|uit BOT, taak bot lijst")
    bot_sub = bot.add_subparsers(dest="bot_command", required=True, parser_class=_Parser)
    for verb, text in (
        ("aan", "let the daemons claim for this bot"),
        ("uit", "claim nothing new for this bot"),
    ):
        switch = bot_sub.add_parser(verb, help=text)
        switch.add_argument("naam")
    bot_list = bot_sub.add_parser("lijst", help="every bot with its switch and heartbeat")
    bot_list.add_argument("--json", action="store_true")

    db = sub.add_parser("db", help="the database: migrate, status")
    db_sub = db.add_subparsers(dest="db_command", required=True, parser_class=_Parser)
    db_sub.add_parser("migrate", help="apply pending migrations")
    db_status = db_sub.add_parser("status", help="list applied and pending migrations")
    db_status.add_argument("--json", action="store_true")
    db_sub.add_parser("stop", help="stop the embedded server (it is otherwise left running)")
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    words = list(sys.argv[1:] if argv is None else argv)
    if len(words) == 2 and words[0] == "hook":
        from worker.cli.entry import HOOK_NAMES
        from worker.hooks.entry import main as hook_main

        if words[1] in HOOK_NAMES:
            raise SystemExit(hook_main(words[1]))
    args = build_parser().parse_args(words)
    settings = load_settings_or_exit()
    handler = _HANDLERS[args.command]
    code = run(settings, lambda: handler(args, settings))
    raise SystemExit(int(code))


# --- reading the command line -------------------------------------------------------------------


def _session_task(settings: Settings, explicit: str | None) -> tuple[str, str | None]:
    """The task to act on and the token that goes with it (only the session's own task has one)."""
    task_id = explicit or settings.id
    if task_id is None:
        raise InvalidInput("no_id")
    if not TASK_ID.match(task_id):
        raise InvalidInput("bad_id", value=task_id)
    token = settings.token if task_id == settings.id else None
    return task_id, token


def _split_id(words: list[str], rest: int) -> tuple[str | None, list[str]]:
    """`[ID] A B`: the first word is the ID when there is one word more than the command's `rest`."""
    if len(words) > rest:
        return words[0], words[1:]
    return None, words


def _who(settings: Settings) -> str:
    return settings.bot or getpass.getuser()


def _read_text(value: str) -> str:
    if value != "-":
        return value
    raw = sys.stdin.buffer.read()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInput("not_utf8") from None


def _context(pairs: list[str]) -> dict[str, str]:
    context: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InvalidInput("bad_context", value=pair)
        context[key.strip()] = value
    return context


def _soort(value: str) -> Soort:
    try:
        return Soort(value)
    except ValueError:
        raise InvalidInput("unknown_soort", value=value, allowed=", ".join(s.value for s in Soort)) from None


def _exactly(words: list[str], count: int, usage: str) -> list[str]:
    if len(words) != count:
        fail(f"usage: {usage}", ExitCode.USAGE)
    return words


# --- the commands -------------------------------------------------------------------------------


async def _nieuw(args: argparse.Namespace, settings: Settings) -> int:
    from worker.db.ledger import Ledger, NewTask

    new = NewTask(
        opdracht=_read_text(args.opdracht),
        opdrachtgever=args.van or _who(settings),
        toegewezen_aan=args.aan,
        klaar_wanneer=args.klaar_wanneer,
        context=_context(args.context),
        volgende_stap=args.volgende_stap,
        titel=args.titel,
        prioriteit=args.prioriteit,
        max_pogingen=args.max_pogingen,
    )
    async with connection(settings) as conn:
        task_id = await Ledger(conn).nieuw(new)
    print(json.dumps({"id": task_id}) if args.json else task_id)
    return ExitCode.OK


async def _claim(args: argparse.Namespace, settings: Settings) -> int:
    from worker.core.briefing import Variant
    from worker.db.briefing import briefing_for
    from worker.db.ledger import Ledger

    async with connection(settings) as conn:
        ledger = Ledger(conn, lease_seconds=settings.lease_seconds, machine=settings.machine)
        claim = await ledger.claim(args.bot)
        if claim is None:
            raise NotFound("nothing_to_claim", bots=", ".join(args.bot))
        briefing = await briefing_for(ledger, claim.task.id, settings, Variant.FULL)
    if args.json:
        print(
            json.dumps(
                {"id": claim.task.id, "lease_token": claim.token, "bot": claim.bot, "briefing": briefing},
                ensure_ascii=False,
            )
        )
    else:
        print(f"TAAK_ID={claim.task.id}\nTAAK_TOKEN={claim.token}\nTAAK_BOT={claim.bot}")
    return ExitCode.OK


async def _log(args: argparse.Namespace, settings: Settings) -> int:
    from worker.db.ledger import Ledger

    explicit, rest = _split_id(args.words, 2)
    soort_text, tekst = _exactly(rest, 2, "taak log [ID] SOORT TEKST")
    soort = _soort(soort_text)
    task_id, token = _session_task(settings, explicit)
    async with connection(settings) as conn:
        ledger = Ledger(conn, lease_seconds=settings.lease_seconds)
        sessie = settings.sessie if token is not None else None
        await ledger.log(task_id, soort, _read_text(tekst), token=token, bot=_who(settings), sessie=sessie)
    return ExitCode.OK


async def _klaar(args: argparse.Namespace, settings: Settings) -> int:
    from worker.db.ledger import Ledger

    words = list(args.words)
    if len(words) > 2:
        fail("usage: taak klaar [ID] --bewijs B [TEKST]", ExitCode.USAGE)
    explicit = words.pop(0) if len(words) == 2 or (words and TASK_ID.match(words[0])) else None
    tekst = words[0] if words else ""
    task_id, token = _session_task(settings, explicit)
    token = _need_token(task_id, token, "klaar")
    async with connection(settings) as conn:
        await Ledger(conn).klaar(task_id, args.bewijs, tekst, token=token, bot=_who(settings), sessie=settings.sessie)
    _session_stand(settings, task_id, Status.KLAAR)
    return ExitCode.OK


async def _blokkeer(args: argparse.Namespace, settings: Settings) -> int:
    from worker.db.ledger import Ledger

    explicit, rest = _split_id(args.words, 1)
    (vraag,) = _exactly(rest, 1, "taak blokkeer [ID] VRAAG")
    task_id, token = _session_task(settings, explicit)
    token = _need_token(task_id, token, "blokkeer")
    async with connection(settings) as conn:
        await Ledger(conn).blokkeer(task_id, vraag, token=token, bot=_who(settings), sessie=settings.sessie)
    _session_stand(settings, task_id, Status.WACHT_OP_MENS)
    return ExitCode.OK


async def _antwoord(args: argparse.Namespace, settings: Settings) -> int:
    from worker.db.ledger import Ledger, check_task_id

    check_task_id(args.id)
    async with connection(settings) as conn:
        await Ledger(conn).antwoord(args.id, _read_text(args.tekst), wie=_who(settings))
    return ExitCode.OK


async def _vrijgeven(args: argparse.Namespace, settings: Settings) -> int:
    from worker.db.ledger import Ledger

    task_id, token = _session_task(settings, args.id)
    token = _need_token(task_id, token, "vrijgeven")
    async with connection(settings) as conn:
        await Ledger(conn).vrijgeven(task_id, token, args.reden, bot=_who(settings))
    _session_stand(settings, task_id, Status.WACHTEND)
    return ExitCode.OK


async def _stap(args: argparse.Namespace, settings: Settings) -> int:
    from worker.db.ledger import Ledger

    explicit, rest = _split_id(args.words, 1)
    (tekst,) = _exactly(rest, 1, "taak stap [ID] TEKST")
    task_id, token = _session_task(settings, explicit)
    async with connection(settings) as conn:
        ledger = Ledger(conn, lease_seconds=settings.lease_seconds)
        await ledger.stap(task_id, tekst, token=token, bot=_who(settings))
        if token is not None:
            task = await ledger.toon(task_id)
            _session_stand(settings, task_id, task.status, task.volgende_stap)
    return ExitCode.OK


async def _toon(args: argparse.Namespace, settings: Settings) -> int:
    from worker.db.ledger import Ledger, check_task_id

    check_task_id(args.id)
    async with connection(settings) as conn:
        ledger = Ledger(conn)
        task = await ledger.toon(args.id)
        rows = await ledger.log_rows(args.id)
    if args.json:
        shown = _task_json(task)
        shown["log"] = [_plain(asdict(row)) for row in rows]
        print(json.dumps(shown, ensure_ascii=False, indent=2))
        return ExitCode.OK
    from worker.core.briefing import WORDS, stamp

    months = WORDS[settings.language].months
    now = datetime.now(settings.zone)
    for key, value in _task_json(task).items():
        if value not in (None, {}, ""):
            print(f"{key:15} {value}")
    print("log:")
    for row in rows:
        when = stamp(row.ts, now, settings.zone, months, always_date=True)
        print(f"  {when}  {row.soort.value:12} {row.bot or '-':10} {row.tekst}")
    return ExitCode.OK


async def _lijst(args: argparse.Namespace, settings: Settings) -> int:
    from worker.db.ledger import Ledger

    if args.limiet < 1:
        raise InvalidInput("bad_number", what="--limiet", minimum=1)
    status = Status(args.status) if args.status else None
    async with connection(settings) as conn:
        tasks = await Ledger(conn).lijst(status=status, toegewezen_aan=args.aan, limit=args.limiet)
    if args.json:
        print(json.dumps([_task_json(t) for t in tasks], ensure_ascii=False, indent=2))
        return ExitCode.OK
    for task in tasks:
        aan = task.toegewezen_aan or "-"
        print(f"{task.id}  {task.status.value:13} {aan:10} {task.pogingen}/{task.max_pogingen}  {task.titel}")
    return ExitCode.OK


async def _brief(args: argparse.Namespace, settings: Settings) -> int:
    from worker.core.briefing import Variant
    from worker.db.briefing import briefing_for
    from worker.db.ledger import Ledger, check_task_id

    check_task_id(args.id)
    variant = Variant.COMPACT if args.compact else Variant.FULL
    async with connection(settings) as conn:
        text = await briefing_for(Ledger(conn), args.id, settings, variant)
    print(json.dumps({"id": args.id, "briefing": text}, ensure_ascii=False) if args.json else text)
    return ExitCode.OK


async def _hooks(args: argparse.Namespace, settings: Settings) -> int:
    from worker.hooks import settings_file

    path = args.settings or settings.claude_settings
    try:
        current = settings_file.load(path)
    except ValueError as exc:
        raise InvalidInput("bad_settings_file", path=path, detail=str(exc).splitlines()[0]) from None
    if args.hooks_command == "install":
        wanted = settings_file.merged(current)
        if args.dry_run:
            print(json.dumps(wanted, indent=2, ensure_ascii=False))
        elif wanted == current:
            print(f"{path}: hooks already installed, nothing changed")
        else:
            backup = settings_file.save_with_backup(path, wanted)
            print(f"{path}: hooks installed" + (f" (backup: {backup})" if backup else ""))
        return ExitCode.OK
    dead = settings_file.dead_hooks(current)
    for hook in dead:
        print(f"{hook.event}: {hook.command}  (missing: {hook.missing})")
    if not dead:
        print(f"{path}: every hook command points to something that exists")
    elif args.fix:
        backup = settings_file.save_with_backup(path, settings_file.without_dead(current, dead))
        print(f"{path}: removed {len(dead)} dead hook(s) (backup: {backup})")
    return ExitCode.OK


async def _claude_md(args: argparse.Namespace, settings: Settings) -> int:
    from worker.hooks.memory import with_compact_instructions

    path = args.path or Path.home() / ".claude" / "CLAUDE.md"
    current = path.read_text(encoding="utf-8") if path.exists() else ""
    wanted = with_compact_instructions(current)
    if not args.write:
        print(wanted, end="")
    elif wanted == current:
        print(f"{path}: compact instructions already up to date")
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(wanted, encoding="utf-8")
        print(f"{path}: compact instructions written")
    return ExitCode.OK


async def _geheugen(args: argparse.Namespace, settings: Settings) -> int:
    from worker.hooks.memory import memory_health

    folder = args.dir or settings.memory_dir
    if not folder.is_dir():
        raise NotFound("no_folder", path=folder)
    health = memory_health(folder)
    if args.json:
        print(
            json.dumps(
                {
                    "index": str(health.index),
                    "index_bytes": health.index_bytes,
                    "injected_chars": health.injected_chars,
                    "index_lines": health.index_lines,
                    "injected_lines": health.injected_lines,
                    "share": round(health.share, 3),
                    "files": health.files,
                    "unindexed": health.unindexed,
                },
                ensure_ascii=False,
            )
        )
        return ExitCode.OK
    print(
        f"{health.index}: {health.index_bytes:,} bytes; {health.injected_lines} of {health.index_lines} index lines "
        f"({health.share:.0%}, {health.injected_chars:,} characters) reach a session, whole lines, with a pointer "
        "to the rest"
    )
    print(f"{health.files} memory files, {len(health.unindexed)} in no index:")
    for name in health.unindexed:
        print(f"  {name}")
    return ExitCode.OK


async def _recall(args: argparse.Namespace, settings: Settings) -> int:
    from datetime import UTC

    from worker.memory.archive import Layout, open_vectors
    from worker.memory.index import Index
    from worker.memory.recall import NOT_INSTALLED, SWITCHED_OFF, as_json, recall, render

    if args.limit < 1:
        raise InvalidInput("bad_number", what="--limit", minimum=1)
    if args.taken:
        result = await _recall_taken(args, settings)
    else:
        layout = Layout(settings.data_dir)
        index = Index(layout.index)
        vectors = open_vectors(layout) if settings.semantic else None
        try:
            result = recall(
                index,
                args.query,
                datetime.now(UTC),
                settings.zone,
                limit=args.limit,
                taak=args.taak,
                actor=args.bot,
                vectors=vectors,
                why_no_vectors=NOT_INSTALLED if settings.semantic else SWITCHED_OFF,
            )
        finally:
            index.close()
            if vectors is not None:
                vectors.close()
    print(as_json(result, settings.zone) if args.json else render(result, settings.zone))
    return ExitCode.OK


async def _recall_taken(args: argparse.Namespace, settings: Settings) -> Any:
    """The same time-first search over agent_taak_log: the range from the time phrase, then the words."""
    from datetime import UTC

    from worker.core.timephrase import parse_time
    from worker.db.sqlfiles import queries
    from worker.memory.recall import Hit, Recall

    now = datetime.now(UTC)
    parsed = parse_time(args.query, now, settings.zone)
    start = parsed.range.start if parsed.range else datetime(1970, 1, 1, tzinfo=UTC)
    end = parsed.range.end if parsed.range else now + timedelta(days=1)
    patterns = ["%" + w.replace("%", r"\%").replace("_", r"\_") + "%" for w in parsed.words]
    async with connection(settings) as conn:
        rows = await conn.fetch(queries()["log_zoeken"], start, end, patterns, args.bot, args.taak, args.limit)
    hits = [
        Hit(
            r["id"],
            int(r["ts"].timestamp() * 1000),
            r["actor"],
            "log",
            r["soort"],
            r["tekst"],
            r["sessie"],
            r["taak_id"],
        )
        for r in rows
    ]
    hits.sort(key=lambda h: h.ts)
    return Recall(now, parsed.range, "geen (takenlog)", hits, len(hits))


async def _archief(args: argparse.Namespace, settings: Settings) -> int:
    from worker.memory.archive import Layout, bring_up_to_date

    layout = Layout(settings.data_dir)
    rows = settings.semantic_rows if settings.semantic else 0
    paths: list[Path] = getattr(args, "paths", None) or []
    for path in paths:
        if not path.is_file():
            raise NotFound("no_file", path=path)
    if args.archief_command == "herbouw":
        update = bring_up_to_date(layout, settings.zone, [], semantic_rows=rows, rebuild=True)
    elif args.archief_command == "import" and args.simple:
        update = bring_up_to_date(layout, settings.zone, [], simple=paths, semantic_rows=rows)
    else:
        update = bring_up_to_date(layout, settings.zone, paths or None, semantic_rows=rows)
    print(update.as_json() if args.json else update.summary())
    return ExitCode.OK


async def _lll(args: argparse.Namespace, settings: Settings) -> int:
    from datetime import UTC

    from worker.memory import lll

    path = lll.lll_path(settings.data_dir)
    now = datetime.now(UTC)
    words = list(args.words)
    if words == ["toon"]:
        print(lll.render(lll.load(path), now, settings.zone, settings.language) or "(niets open)")
        return ExitCode.OK
    closing = words[0] == "klaar" and len(words) > 1
    topic = check_text(" ".join(words[1:] if closing else words), "onderwerp", max_chars=300)
    if closing:
        if topic.strip().lower() not in lll.open_topics(lll.load(path)):
            raise NotFound("no_topic", topic=topic)
        lll.append(path, "klaar", topic.strip(), now)
    else:
        lll.append(path, "open", topic.strip(), now)
    return ExitCode.OK


async def _doctor(args: argparse.Namespace, settings: Settings) -> int:
    from worker.cli.doctor import run_checks

    checks = await run_checks(settings)
    for check in checks:
        print(check.line())
    return ExitCode.REFUSED if any(c.level == "fail" for c in checks) else ExitCode.OK


async def _overzicht(args: argparse.Namespace, settings: Settings) -> int:
    from worker.db.sqlfiles import queries

    async with connection(settings) as conn:
        bots = [dict(r) for r in await conn.fetch(queries()["overzicht"])]
        held = [dict(r) for r in await conn.fetch(queries()["overzicht_bezig"])]
    if args.json:
        print(
            json.dumps(
                {"bots": [_plain(b) for b in bots], "bezig": [_plain(h) for h in held]},
                ensure_ascii=False,
                indent=2,
                default=str,
            )
        )
        return ExitCode.OK
    print(
        f"{'bot':10} {'bezig':>5} {'wacht':>5} {'mens':>4} {'oudste':>8} {'klaar':>5} {'mislukt':>7} "
        f"{'sess/klaar':>10} {'met stap':>8} {'kosten $':>9} {'$/taak':>7}  worker"
    )
    for b in bots:
        oldest = _age(b["oudste_wacht_seconden"])
        worker = "-"
        if b["laatst_gezien"] is not None:
            seen = int((datetime.now(b["laatst_gezien"].tzinfo) - b["laatst_gezien"]).total_seconds())
            worker = f"{b['machine']} {_age(seen)}" + (" VEROUDERD" if b["worker_verouderd"] else "")
        print(
            f"{b['bot']:10} {b['bezig']:>5} {b['wachtend']:>5} {b['wacht_op_mens']:>4} {oldest:>8} "
            f"{b['klaar_vandaag']:>5} {b['mislukt_vandaag']:>7} {_num(b['sessies_per_klare_taak']):>10} "
            f"{_num(b['aandeel_sessies_met_stap']):>8} {_num(b['kosten_usd']):>9} {_num(b['kosten_per_taak_usd']):>7}"
            f"  {worker}"
        )
    for h in held:
        print(f"  bezig: {h['id']} {h['bot']} lease nog {_age(h['lease_seconden'])}  {h['titel']}")
    return ExitCode.OK


def _age(seconds: int | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 120:
        return f"{seconds}s"
    if seconds < 7200:
        return f"{seconds // 60}m"
    return f"{seconds // 3600}u" if seconds < 172800 else f"{seconds // 86400}d"


def _num(value: object) -> str:
    return "-" if value is None else f"{value}"


async def _tail(args: argparse.Namespace, settings: Settings) -> int:
    import anyio

    from worker.core.briefing import WORDS, stamp
    from worker.db.sqlfiles import queries

    if args.id is not None:
        from worker.db.ledger import check_task_id

        check_task_id(args.id)
    months = WORDS[settings.language].months

    def show(row: Any) -> None:
        when = stamp(row["ts"], datetime.now(settings.zone), settings.zone, months, always_date=True)
        print(f"{when}  {row['taak_id']}  {row['soort']:12} {row['bot'] or '-':10} {row['tekst']}", flush=True)

    async with connection(settings) as conn:
        rows = await conn.fetch(queries()["tail_start"], args.id, args.bot, max(args.regels, 0))
        last = max((r["id"] for r in rows), default=await conn.fetchval(queries()["log_laatste_id"]) or 0)
        for row in reversed(rows):
            show(row)
        woken = anyio.Event()

        def wake(*_args: object) -> None:
            woken.set()

        await conn.add_listener("taak_log", wake)
        while True:
            with anyio.move_on_after(5):  # a missed notification is caught by the next look
                await woken.wait()
            woken = anyio.Event()
            for row in await conn.fetch(queries()["tail_na"], last, args.id, args.bot):
                show(row)
                last = row["id"]


async def _machine(args: argparse.Namespace, settings: Settings) -> int:
    from worker.db import machines

    async with connection(settings) as conn:
        if args.machine_command == "zet":
            found = [await machines.set_machine(conn, args.naam, ip=args.ip, aliassen=args.alias, bots=args.bot)]
        elif args.machine_command == "wie":
            found = [await machines.who(conn, args.naam)]
        else:
            found = await machines.all_machines(conn)
    if getattr(args, "json", False):
        shown = [asdict(m) for m in found]
        print(json.dumps(shown[0] if args.machine_command == "wie" else shown, ensure_ascii=False, indent=2))
        return ExitCode.OK
    for m in found:
        print(
            " = ".join([*m.names(), *([m.ip] if m.ip else [])]) + (f"  (bots: {', '.join(m.bots)})" if m.bots else "")
        )
    return ExitCode.OK


async def _bot(args: argparse.Namespace, settings: Settings) -> int:
    from worker.db import bots

    async with connection(settings) as conn:
        if args.bot_command in ("aan", "uit"):
            changed = await bots.set_active(conn, args.naam, args.bot_command == "aan")
            print(f"{changed.bot}: {'aan' if changed.actief else 'uit'}")
            return ExitCode.OK
        listed = await bots.all_bots(conn)
    if args.json:
        print(json.dumps([_plain(asdict(b)) for b in listed], ensure_ascii=False, indent=2))
        return ExitCode.OK
    for b in listed:
        seen = b.laatst_gezien.astimezone(settings.zone).strftime("%Y-%m-%d %H:%M:%S") if b.laatst_gezien else "-"
        switch = "aan" if b.actief else "uit"
        print(f"{b.bot:12} {switch:4} {b.machine or '-':20} {b.huidige_taak or '-':18} {seen}")
    return ExitCode.OK


async def _db(args: argparse.Namespace, settings: Settings) -> int:
    from worker.db.connect import connect_one, resolve_database
    from worker.db.migrate import migrate, set_timezone, status

    if args.db_command == "stop":
        from worker.db.embedded import stop_embedded

        stopped = settings.database is None and stop_embedded(settings.embedded_dir)
        print(f"stopped the embedded server in {settings.embedded_dir}" if stopped else "no embedded server runs")
        return ExitCode.OK
    database = resolve_database(settings)
    conn = await connect_one(settings, database)
    try:
        if args.db_command == "migrate":
            applied = await migrate(conn)
            await set_timezone(conn, settings.timezone)
            for name in applied:
                print(f"applied {name}")
            if not applied:
                print("up to date")
            return ExitCode.OK
        state = await status(conn)
    finally:
        await conn.close()
    if args.json:
        print(json.dumps({"database": database.redacted, "applied": state.applied, "pending": state.pending}))
    else:
        print(f"database: {database.redacted}")
        for name in state.applied:
            print(f"applied  {name}")
        for name in state.pending:
            print(f"pending  {name}")
    return ExitCode.OK


def _session_stand(settings: Settings, task_id: str, status: Status, volgende_stap: str | None = None) -> None:
    """Inside a session, keep the prompt hook's view of the task exact (see worker/hooks/stand.py)."""
    from worker.hooks.stand import read_stand, write_stand

    if task_id != settings.id:
        return
    if volgende_stap is None:
        volgende_stap = (read_stand(settings.data_dir, task_id) or {}).get("volgende_stap")
    write_stand(
        settings.data_dir,
        task_id,
        status=status,
        volgende_stap=volgende_stap,
        language=settings.language,
        timezone=settings.timezone,
    )


def _need_token(task_id: str, token: str | None, command: str) -> str:
    if token is None:
        raise Refused("no_token", id=task_id, command=command)
    return token


def _task_json(task: Task) -> dict[str, Any]:
    return _plain(asdict(task))


def _plain(values: dict[str, Any]) -> dict[str, Any]:
    return {key: value.isoformat() if isinstance(value, datetime) else value for key, value in values.items()}


_HANDLERS = {
    "nieuw": _nieuw,
    "claim": _claim,
    "log": _log,
    "klaar": _klaar,
    "blokkeer": _blokkeer,
    "antwoord": _antwoord,
    "vrijgeven": _vrijgeven,
    "stap": _stap,
    "toon": _toon,
    "lijst": _lijst,
    "brief": _brief,
    "bot": _bot,
    "machine": _machine,
    "overzicht": _overzicht,
    "doctor": _doctor,
    "lll": _lll,
    "recall": _recall,
    "archief": _archief,
    "tail": _tail,
    "db": _db,
    "hooks": _hooks,
    "claude-md": _claude_md,
    "geheugen": _geheugen,
}


if __name__ == "__main__":  # pragma: no cover
    main()
