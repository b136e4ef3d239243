"""`taak intake`: the old agent_messages queue. voorbeeld (what the intake would make of every message, and the
skipped backlog by sender, recipient and month), neem (one message by its ID, or the backlog), sla-over (the
owner's decision to leave backlog messages)."""

from __future__ import annotations

import argparse
import json
import textwrap
from typing import TYPE_CHECKING, Any

from worker.cli import args as a
from worker.core.errors import ExitCode, InvalidInput, NotFound, Refused
from worker.core.table import header_row, table, when

if TYPE_CHECKING:  # the parsers are read by the in-session client, which loads no settings class
    from worker.core.intake import Message
    from worker.db.intake import Backlog, Preview, Selection
    from worker.settings import Settings

BULK_USAGE = "[--van WHO] [--aan BOT] [--sinds WHEN] [--tot WHEN] [--ja]"


async def intake(args: argparse.Namespace, settings: Settings) -> int:
    if args.intake_command == "voorbeeld":
        return await _voorbeeld(args, settings)
    if (args.bericht is not None) == bool(args.alle):  # one message by its ID, or the backlog: one of the two
        raise InvalidInput("backlog_id_or_all")
    if args.alle:
        return await _bulk(args, settings)
    for name in ("van", "sinds", "tot", "ja") + (("aan",) if args.intake_command == "sla-over" else ()):
        if getattr(args, name):
            raise InvalidInput("backlog_only_with_all", option="--" + name)
    if args.intake_command == "neem":
        return await _neem(args, settings)
    return await _decide(args, settings, _selection(args, ids=(args.bericht.strip(),)), take_in=False)


async def _voorbeeld(args: argparse.Namespace, settings: Settings) -> int:
    from worker.db import intake as old_queue  # start-up: asyncpg, for the verbs that use the database
    from worker.db.bots import check_bot_name  # start-up: as above

    async with a.store(settings) as store:
        bot = check_bot_name(args.bot) if args.bot is not None else None
        seen = await old_queue.preview(store.conn, settings, bot)
        if not isinstance(seen, str) and (problem := old_queue.cutoff_problem(seen.rules, settings.language)):
            seen = problem
    if isinstance(seen, str):  # nothing would become a task: a fact, not a failure
        print(
            json.dumps({"uit": seen}, ensure_ascii=False) if args.json else a.said(settings, "intake_off", reason=seen)
        )
        return ExitCode.OK
    if args.json:
        return a.print_json(_preview_json(seen, settings))
    print(_preview_text(seen, settings))
    return ExitCode.OK


async def _neem(args: argparse.Namespace, settings: Settings) -> int:
    from worker.db import intake as old_queue  # start-up: asyncpg, for the verbs that use the database
    from worker.db.bots import check_bot_name  # start-up: as above

    async with a.store_for_a_change(settings) as store:
        columns = old_queue.columns_from(settings)
        found = await old_queue.prepare_table(store.db, columns, settings.language)
        if isinstance(found, str):
            raise Refused("intake_off", reason=found)
        if args.aan is not None:
            check_bot_name(args.aan)  # an empty --aan is refused, never taken as "the message's recipient"
        taken = await old_queue.take_one(store, args.bericht, columns, found, aan=args.aan, new_bot=args.nieuwe_bot)
        print(taken.said().said(settings.language))
    return ExitCode.OK


def _selection(args: argparse.Namespace, ids: tuple[str, ...] | None = None) -> Selection:
    """The filters as typed, checked before the database is asked: a bad date or bot name is refused."""
    from worker.core.intake import period, sender_key  # start-up: as below
    from worker.db.bots import check_bot_name  # start-up: asyncpg, for the verbs that use the database
    from worker.db.intake import Selection  # start-up: as above

    if ids is not None and not ids[0]:
        raise InvalidInput("empty", what="MESSAGE_ID")
    if args.van is not None and not args.van.strip():
        raise InvalidInput("empty", what="--van")
    since, until = period(args.sinds, args.tot)
    return Selection(
        sender=sender_key(args.van) if args.van is not None else None,
        recipient=check_bot_name(args.aan) if args.aan is not None and ids is None else None,
        since=since,
        until=until,
        ids=ids,
    )


async def _bulk(args: argparse.Namespace, settings: Settings) -> int:
    from worker.db import intake as old_queue  # start-up: asyncpg, for the verbs that use the database

    if getattr(args, "nieuwe_bot", False):
        raise InvalidInput("backlog_no_new_bot")
    selection = _selection(args)
    take_in = args.intake_command == "neem"
    if args.ja:
        return await _decide(args, settings, selection, take_in=take_in)
    async with a.store(settings) as store:
        seen = await old_queue.backlog(store.conn, settings, selection)
    if isinstance(seen, str):
        raise Refused("intake_off", reason=seen)
    if not seen.messages:
        raise NotFound("backlog_nothing")
    lines = _backlog_lines(seen, seen.messages, settings)
    if not take_in:
        lines.append(a.said(settings, "backlog_would_leave", n=len(seen.messages)))
    else:
        lines += [note.said(settings.language) for note in seen.notes(seen.messages)]
        coming = len(seen.can_come_in(seen.messages))
        stay = len(seen.messages) - coming
        lines.append(a.said(settings, "backlog_would_take_some" if stay else "backlog_would_take", n=coming))
    print("\n".join(lines))
    return ExitCode.OK


async def _decide(args: argparse.Namespace, settings: Settings, selection: Selection, *, take_in: bool) -> int:
    from worker.db import intake as old_queue  # start-up: asyncpg, for the verbs that use the database

    async with a.store_for_a_change(settings) as store:
        if take_in:
            done = await old_queue.take_backlog(store, selection)
            print("\n".join(line.said(settings.language) for line in done.lines()))
        else:
            left = await old_queue.leave_backlog(store, selection)
            print(a.said(settings, "backlog_left", n=len(left)))
    return ExitCode.OK


def _backlog_lines(seen: Backlog, messages: list[Message], settings: Settings) -> list[str]:
    """The backlog's messages by sender, recipient and month, each group with its first message's line."""
    from worker.core.intake import groups  # start-up: as the verbs' other modules

    headers = header_row("intake.backlog", ("sender", "recipient", "month", "count", "sample"), settings.language)
    rows = [
        (g.sender, g.recipient + ("" if g.recipient in seen.known else " (?)"), g.month, g.count, g.sample)
        for g in groups(messages, settings.zone)
    ]
    return [textwrap.indent(table(headers, rows, right=(3,)), "  ")]


def _preview_json(seen: Preview, settings: Settings) -> dict[str, Any]:
    from worker.core.intake import groups  # start-up: as the verbs' other modules

    def grouped(counts: Any) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for (name, decision), n in sorted(counts.items()):
            out.setdefault(name, {})[decision] = n
        return out

    return {
        "vanaf": seen.rules.cutoff.isoformat(),
        "open_status": sorted(seen.rules.open_statuses) if seen.rules.open_statuses is not None else None,
        "totaal": dict(seen.per_decision),
        "per_afzender": grouped(seen.per_sender),
        "per_ontvanger": grouped(seen.per_recipient),
        "oudste": seen.oldest.isoformat() if seen.oldest else None,
        "nieuwste": seen.newest.isoformat() if seen.newest else None,
        "achterstand": [
            {
                "afzender": g.sender,
                "ontvanger": g.recipient,
                "bekende_bot": g.recipient in seen.known,
                "maand": g.month,
                "aantal": g.count,
                "voorbeeld": g.sample,
                "berichten": list(g.ids),
            }
            for g in groups(seen.backlog, settings.zone)
        ],
    }


def _preview_text(seen: Preview, settings: Settings) -> str:
    from worker.core.intake import Decision  # start-up: as the verbs' other modules
    from worker.db.intake import Backlog  # start-up: asyncpg, for the verbs that use the database

    order = [d.value for d in Decision]  # the decisions keep their Dutch names in both languages: domain values
    zone, language = settings.zone, settings.language
    statuses = (
        ", ".join(sorted(seen.rules.open_statuses))
        if seen.rules.open_statuses is not None
        else a.said(settings, "intake_no_status_column")
    )
    lines = [
        a.said(settings, "intake_preview_rules", cutoff=when(seen.rules.cutoff, zone, language), statuses=statuses),
        a.said(
            settings,
            "intake_preview_messages",
            n=sum(seen.per_decision.values()),
            oldest=when(seen.oldest, zone, language),
            newest=when(seen.newest, zone, language),
        ),
        "  " + ", ".join(f"{d}: {seen.per_decision.get(d, 0)}" for d in order),
    ]
    for title, column, counts in (
        ("intake_per_sender", "sender", seen.per_sender),
        ("intake_per_recipient", "recipient", seen.per_recipient),
    ):
        rows = [[name, *(counts.get((name, d), 0) for d in order)] for name in sorted({name for name, _ in counts})]
        lines.append(a.said(settings, title))
        # The first column is named: a header row starting with `taak  log` would read as a command to type.
        headers = [*header_row("intake.backlog", (column,), language), *order]
        lines.append(textwrap.indent(table(headers, rows, right=range(1, len(order) + 1)), "  "))
    if seen.backlog:
        lines.append(a.said(settings, "intake_backlog", n=len(seen.backlog)))
        lines += _backlog_lines(Backlog(seen.rules, seen.backlog, seen.known), seen.backlog, settings)
        lines.append(a.said(settings, "intake_backlog_how"))
    else:
        lines.append(a.said(settings, "intake_backlog_empty"))
    lines.append(a.said(settings, "intake_preview_changed_nothing"))
    return "\n".join(lines)


def _backlog_options(for_whom: str = "") -> tuple[a.Arg, ...]:
    return (
        a.flag("--alle", "the skipped backlog, narrowed by the options below"),
        a.arg("--van", "WHO", "with --alle: only messages from this sender"),
        a.arg("--aan", "BOT", "with --alle: only messages for this bot" + for_whom),
        a.arg("--sinds", "WHEN", "with --alle: from this day or month on (2026-07-14, 2026-07)"),
        a.arg("--tot", "WHEN", "with --alle: up to and with this day or month"),
        a.flag("--ja", "with --alle: do it (without: show what it would do)"),
    )


MESSAGE_ID = a.arg("bericht", "MESSAGE_ID", "the message's ID in agent_messages", nargs="?")
PARSERS = {
    "intake": a.Group(
        "the old agent_messages queue: voorbeeld (a preview), neem (take in), sla-over (leave the backlog)",
        "intake_command",
        {
            "voorbeeld": a.Verb(
                "what the intake would make of every message, and the skipped backlog; changes nothing",
                "taak intake voorbeeld [--bot B] [--json]",
                a.arg("--bot", "B", "only messages addressed to this bot"),
                a.JSON,
            ),
            "neem": a.Verb(
                "take in one message by its ID, whatever its age or status, or the skipped backlog (--alle)",
                f"taak intake neem MESSAGE_ID [--aan BOT] [--nieuwe-bot] | taak intake neem --alle {BULK_USAGE}",
                MESSAGE_ID,
                a.flag("--nieuwe-bot", "that bot is new: register it"),
                *_backlog_options("; with an ID: the bot it is for"),
            ),
            "sla-over": a.Verb(
                "leave messages of the skipped backlog for good: no --alle takes them in",
                f"taak intake sla-over MESSAGE_ID | taak intake sla-over --alle {BULK_USAGE}",
                MESSAGE_ID,
                *_backlog_options(),
            ),
        },
        handler=intake,
    )
}
