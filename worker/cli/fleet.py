"""The verbs of the fleet: bot (the staged-rollout switch), machine (the registry), overzicht."""

from __future__ import annotations

import argparse
import re
from dataclasses import asdict
from datetime import UTC, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from worker.cli import args as a
from worker.cli import intake
from worker.core.catalogue import message
from worker.core.daily import daily_table
from worker.core.errors import ExitCode, InvalidInput
from worker.core.machines import newest_version, said_version, seen_unregistered, versions_of
from worker.core.show import plain
from worker.core.table import age, dollars, header_row, table, when

if TYPE_CHECKING:  # the parsers are read by the in-session client, which loads no settings class
    from worker.settings import Settings


async def bot(args: argparse.Namespace, settings: Settings) -> int:
    from worker.db import bots, channel  # start-up: asyncpg, for the verbs that use the database

    if args.bot_command == "kan" and bool(args.vaardigheden) == args.geen:  # skills, or --geen: one of the two
        a.fail("usage: taak bot kan BOT SKILL [SKILL ...] | taak bot kan BOT --geen", ExitCode.USAGE)
    if args.bot_command == "kan":  # bad input refused before the database is asked
        args.vaardigheden = [bots.check_skill_name(name) for name in args.vaardigheden]
    if args.bot_command != "lijst":
        async with a.store_for_a_change(settings) as store:
            print(await _bot_changed(store, args, settings.language))
        return ExitCode.OK
    async with a.store(settings) as store:
        listed = await bots.all_bots(store.db)
        today = {d.bot: d for d in await bots.days(store.db, None)}
        urgent = await channel.urgent_today(store.db)
    limit = settings.urgent_per_bot_per_day
    if args.json:
        shown = [
            {
                **plain(asdict(b)),
                "vandaag": None if (day := today.get(b.bot)) is None else asdict(day),
                "dringend_vandaag": urgent.get(b.bot, 0),
                "dringend_grens": limit,
            }
            for b in listed
        ]
        return a.print_json(shown)
    print(_bots_table(listed, today, urgent, settings))
    return ExitCode.OK


async def _bot_changed(store: Any, args: argparse.Namespace, language: str) -> str:
    """`bot aan`, `uit`, `kan` or `rem` done; the line that says what the bot is now."""
    from worker.db import bots  # start-up: asyncpg, for the verbs that use the database

    if args.bot_command == "kan":
        found = await bots.set_skills(store.db, args.naam, args.vaardigheden)
        return f"{bots.check_bot_name(args.naam)}: {', '.join(found) or message('no_skills', language)}"
    if args.bot_command == "rem":
        changed = await bots.set_brake(store.db, args.naam, **_brake(args))
        limits = bots.brake_limits(changed.max_sessies_per_dag, changed.max_kosten_per_dag, language)
        return message("brake_set", language, bot=changed.bot, limits=limits)
    changed = await bots.set_active(store.db, args.naam, args.bot_command == "aan", new=args.nieuwe_bot)
    return f"{changed.bot}: {_switch(changed.actief, language)}"


def _bots_table(listed: list[Any], today: dict[str, Any], urgent: dict[str, int], settings: Settings) -> str:
    """`taak bot lijst` as a table; as `lijst` says `(geen taken)`, no bot is a line, not a bare header."""
    columns = ("bot", "on", "skills", "machine", "version", "task", "last_seen", "today", "urgent")
    headers = header_row("list.bots", columns, settings.language)
    newest = newest_version(b.versie for b in listed)
    rows = [
        (
            b.bot,
            _switch(b.actief, settings.language),
            ", ".join(b.vaardigheden) or None,
            b.machine,
            said_version(b.versie, newest, settings.language),
            b.huidige_taak,
            when(b.laatst_gezien, settings.zone, settings.language),
            _day(today.get(b.bot), settings.language),
            f"{urgent.get(b.bot, 0)}/{settings.urgent_per_bot_per_day}",
        )
        for b in listed
    ]
    return table(headers, rows) if rows else message("list.no_bots", settings.language)


async def vaardigheid(args: argparse.Namespace, settings: Settings) -> int:
    from worker.db import bots  # start-up: asyncpg, for the verbs that use the database

    if args.vaardigheid is None and args.woorden is not None:
        a.fail("usage: taak vaardigheid [SKILL [--woorden WORD,WORD,...|geen]] [--json]", ExitCode.USAGE)
    if args.vaardigheid is not None:
        skill = bots.check_skill_name(args.vaardigheid)
        words = bots.check_skill_words(args.woorden) if args.woorden is not None else None
        async with a.store_for_a_change(settings) as store:
            shown = [await bots.set_words(store.db, skill, words)]
    else:
        async with a.store(settings) as store:
            shown = await bots.all_skills(store.db)
    if args.json:
        return a.print_json([asdict(s) for s in shown])
    if not shown:
        print(message("list.no_skills", settings.language))
        return ExitCode.OK
    headers = header_row("list.skills", ("skill", "words", "bots", "on"), settings.language)
    rows = [
        (s.vaardigheid, ", ".join(s.woorden) or None, ", ".join(s.bots) or None, ", ".join(s.bots_aan) or None)
        for s in shown
    ]
    print(table(headers, rows))
    return ExitCode.OK


def _brake(args: argparse.Namespace) -> dict[str, Any]:
    """The limits `taak bot rem` changes: a number, `geen` (no limit), or left out (unchanged)."""
    if args.sessies is None and args.kosten is None:
        a.fail("usage: taak bot rem BOT [--sessies N|geen] [--kosten USD|geen]", ExitCode.USAGE)
    changes: dict[str, Any] = {}
    if args.sessies is not None:
        changes["sessions"] = _limit(args.sessies, "--sessies", int)
    if args.kosten is not None:
        changes["cost"] = _limit(args.kosten, "--kosten", Decimal)
    return changes


# Digits as typed on a keyboard: int() and Decimal() also take `١٠`, `1_0` and `1e2`. Money in whole cents.
_SESSIONS = re.compile(r"[0-9]+")
_DOLLARS = re.compile(r"[0-9]+(\.[0-9]{1,2})?|\.[0-9]{1,2}")


def _limit(value: str, option: str, kind: Any) -> Any:
    typed = value.strip()
    if typed.lower() in ("geen", "none"):
        return None
    ceiling = 100_000 if kind is int else 1_000_000  # sessions a day; dollars a day
    pattern = _SESSIONS if kind is int else _DOLLARS
    key = "bad_limit_sessions" if kind is int else "bad_limit"
    malformed = not pattern.fullmatch(typed) or len(typed.partition(".")[0].lstrip("0")) > len(str(ceiling))
    if malformed or not 0 <= (number := kind(typed)) <= ceiling:
        raise InvalidInput(key, what=option, value=value, ceiling=ceiling)
    return number.quantize(Decimal("0.01")) if isinstance(number, Decimal) else number


def _switch(on: bool, language: str) -> str:
    return message("switched_on" if on else "switched_off", language)


def _day(day: Any, language: str) -> str:
    from worker.db.bots import brake_limits  # start-up: asyncpg, for the verbs that use the database

    if day is None:
        return "-"

    used = message("day_usage", language, sessions=day.sessies_vandaag, cost=dollars(day.kosten_vandaag))
    limit = brake_limits(day.max_sessies, day.max_kosten, language)
    return f"{used} / {limit}" + (f"  {message('braked_till_midnight', language)}" if day.geremd else "")


async def machine(args: argparse.Namespace, settings: Settings) -> int:

    from worker.db.bots import all_bots  # start-up: asyncpg, for the verbs that use the database

    changes = args.machine_command == "zet"
    async with a.store_for_a_change(settings) if changes else a.store(settings) as store:
        found = await _machines(store, args)
        heartbeats = await all_bots(store.db)  # what each daemon said in its heartbeat
    seen = [(b.machine, b.versie) for b in heartbeats]
    if args.machine_command == "lijst":
        found = [*found, *seen_unregistered(found, [(b.machine, b.bot) for b in heartbeats])]
    if changes:  # a success line, as every verb that changes something says one
        print(_machine_saved(found[0], settings.language))
        return ExitCode.OK
    newest = newest_version(v for _m, v in seen)
    if getattr(args, "json", False):
        shown = [{**asdict(m), "versies": versions_of(m, seen), "nieuwste_versie": newest} for m in found]
        return a.print_json(shown[0] if args.machine_command == "wie" else shown)

    print(_machines_table(found, seen, newest, settings.language))
    return ExitCode.OK


def _machines_table(found: list[Any], seen: list[tuple[str | None, str | None]], newest: str | None, lang: str) -> str:
    headers = header_row("list.machines", ("names", "ip", "bots", "version"), lang)
    rows = [
        (
            " = ".join(m.names()),
            m.ip,
            ", ".join(m.bots) or None,
            ", ".join(said_version(v, newest, lang) for v in versions_of(m, seen)) or None,
        )
        for m in found
    ]
    return table(headers, rows) if rows else message("list.no_machines", lang)


async def _machines(store: Any, args: argparse.Namespace) -> list[Any]:
    from worker.db import machines  # start-up: asyncpg, for the verbs that use the database

    if args.machine_command == "zet":
        return [await machines.set_machine(store.conn, args.naam, ip=args.ip, aliassen=args.alias, bots=args.bot)]
    if args.machine_command == "wie":
        return [await machines.who(store.db, args.naam)]
    return list(await machines.all_machines(store.db))


def _machine_saved(saved: Any, language: str) -> str:
    also = message("machine_also", language)
    parts = [
        *([f"{also} {', '.join(saved.aliassen)}"] if saved.aliassen else []),
        *([f"ip {saved.ip}"] if saved.ip else []),
        *([f"bots {', '.join(saved.bots)}"] if saved.bots else []),
    ]
    details = f" ({'; '.join(parts)})" if parts else ""
    return message("machine_saved", language, name=saved.naam, details=details)


async def eigenaar(args: argparse.Namespace, settings: Settings) -> int:
    """`taak eigenaar`: who the owner is and where the name comes from; `zet NAME`: one name for the fleet."""
    from worker.db import owner  # start-up: asyncpg, for the verbs that use the database

    language = settings.language
    if args.eigenaar_command == "zet":
        name = owner.check_owner_name(args.naam)  # bad input refused before the database is asked
        async with a.store_for_a_change(settings) as store:
            saved = await owner.set_fleet_owner(store.db, name)
        print(message("owner_saved", language, name=saved))
        return ExitCode.OK
    async with a.store(settings) as store:
        fleet = await owner.fleet_owner(store.db)
    if fleet is None:
        source = "TAAK_OWNER" if settings.owner else message("owner_os_user", language)
        print(message("owner_local", language, name=owner.local_name(settings), source=source))
        return ExitCode.OK
    print(message("owner_fleet", language, name=fleet))
    if settings.owner and settings.owner != fleet:
        print(message("owner_local_unused", language, local=settings.owner))
    return ExitCode.OK


async def overzicht(args: argparse.Namespace, settings: Settings) -> int:
    from worker.db import overview  # start-up: asyncpg, for the verbs that use the database

    if args.dagen is not None and not args.per_dag:
        raise InvalidInput("per_day.days_alone")
    if args.per_dag:
        return await _per_dag(args, settings)
    async with a.store(settings) as store:
        bots = [dict(r) for r in await overview.per_bot(store.db)]
        held = [dict(r) for r in await overview.held_tasks(store.db)]
        late = await overview.late_per_bot(store.db)
    for b in bots:
        b["over_tijd"] = late.get(b["bot"], 0)
    if args.json:
        return a.print_json({"bots": [plain(b) for b in bots], "bezig": [plain(h) for h in held]})
    _print_overview(bots, held, settings.language)
    return ExitCode.OK


PER_DAY_DAYS = 14  # two weeks, as the cockpit's pictures
PER_DAY_MOST = 3660  # ten years: the calendar, not the database, is the limit of a longer table


def _days(text: str) -> int:
    """argparse's type for --dagen: 1 to PER_DAY_MOST, refused as every option's value is (`argument --dagen: ...`)."""
    return a.whole_number(text, lowest=1, highest=PER_DAY_MOST)


async def _per_dag(args: argparse.Namespace, settings: Settings) -> int:
    from worker.db import overview  # start-up: asyncpg, for the verbs that use the database

    async with a.store(settings) as store:
        found = await overview.per_day(store.db, args.dagen or PER_DAY_DAYS, settings)
    rows = [dict(r) for r in found.rows]
    if args.json:
        return a.print_json({"dagen": [plain(r) for r in rows]})
    print(daily_table(rows, settings.language, found.old_queue))
    return ExitCode.OK


def _print_overview(bots: list[dict[str, Any]], held: list[dict[str, Any]], language: str) -> None:
    bots = [b for b in bots if b["bot"] != "-" or _has_news(b)]
    if not bots:
        print(message("list.no_bots", language))
        return
    headers = header_row(
        "list.overview",
        (
            *("bot", "held", "waiting", "owner", "oldest", "done", "failed", "sessions_per_done", "with_step"),
            *("cost", "per_task", "compactions_auto", "compactions_done", "late", "worker"),
        ),
        language,
    )
    print(table(headers, [_bot_row(b, language) for b in bots], right=range(1, 14)))
    print(f"({message('overview_windows', language)})")  # one table, two windows: said, not guessed
    held_label, lease_left = message("list.held", language), message("list.lease_left", language)
    for h in held:
        left = age(h["lease_seconden"], language)
        print(f"  {held_label}: {h['id']} {h['bot']}  {lease_left} {left}  {h['titel']}")


async def dagbericht(args: argparse.Namespace, settings: Settings) -> int:
    from worker.db.channel import preview  # start-up: asyncpg, for the verbs that use the database

    async with a.store(settings) as store:
        slot, text = await preview(store.db, settings, datetime.now(UTC))
    if args.json:
        return a.print_json({"moment": slot, "tekst": text})
    if slot is not None:
        print(message("digest.next", settings.language, when=when(slot, settings.zone, settings.language)))
        print()
    print(text)
    return ExitCode.OK


def _has_news(b: dict[str, Any]) -> bool:
    """Whether the row of the tasks for no bot in particular (`-`) says anything: a task for any bot, waiting
    or held or done today, does; one cancelled before anyone ran it left a row of zeros (tester 21)."""
    counts = ("bezig", "wachtend", "wacht_op_mens", "klaar_vandaag", "mislukt_vandaag", "over_tijd")
    return any(b.get(name) for name in counts)


def _bot_row(b: dict[str, Any], language: str) -> tuple[object, ...]:
    worker = None
    if b["laatst_gezien"] is not None:
        seen = int((datetime.now(b["laatst_gezien"].tzinfo) - b["laatst_gezien"]).total_seconds())
        stale = f" {message('stale', language)}" if b["worker_verouderd"] else ""
        worker = f"{b['machine']} {age(seen, language)}{stale}"
    return (
        b["bot"],
        b["bezig"],
        b["wachtend"],
        b["wacht_op_mens"],
        age(b["oudste_wacht_seconden"], language),
        b["klaar_vandaag"],
        b["mislukt_vandaag"],
        b["sessies_per_klare_taak"],
        f"{round(b['aandeel_sessies_met_stap'] * 100)}%" if b["aandeel_sessies_met_stap"] is not None else None,
        dollars(b["kosten_usd"]),
        dollars(b["kosten_per_taak_usd"]),
        f"{b['compacties']}/{b['compacties_auto']}",
        b["compacties_per_klare_taak"],
        b["over_tijd"],
        worker,
    )


BOT = a.arg("naam", "BOT", "the bot's name (a known bot)")
PARSERS = {
    "bot": a.Group(
        "the per-bot switch: taak bot aan|uit BOT, taak bot lijst",
        "bot_command",
        {
            **{
                verb: a.Verb(
                    text,
                    f"taak bot {verb} BOT [--nieuwe-bot]",
                    BOT,
                    a.flag("--nieuwe-bot", "the bot is new: register it"),
                )
                for verb, text in (
                    ("aan", "let the daemons claim for this bot"),
                    ("uit", "claim nothing new for this bot"),
                )
            },
            "rem": a.Verb(
                "the bot's brake per day: at most this many sessions and this much cost",
                "taak bot rem BOT [--sessies N|geen] [--kosten USD|geen]",
                BOT,
                a.arg("--sessies", "N", "sessions started per day, or geen"),
                a.arg("--kosten", "USD", "cost per day in dollars (the sessions' result rows), or geen"),
                description="At the limit the daemons claim nothing for the bot until local midnight and tell the "
                "owner once. A bot starts with at most 50 sessions a day and no cost limit; `geen` removes a limit.",
            ),
            "kan": a.Verb(
                "what the bot is for: a task for anyone that needs a skill goes only to a bot that has it",
                "taak bot kan BOT SKILL [SKILL ...] | taak bot kan BOT --geen",
                BOT,
                a.arg("vaardigheden", "SKILL", "a skill, such as audio or beeld", nargs="*"),
                a.flag("--geen", "the bot has no skill (it takes tasks that need none)"),
                description="Replaces the bot's skills with these (each known from now on); --geen takes them all "
                "away.",
            ),
            "lijst": a.Verb("every bot with its switch, heartbeat and brake", "taak bot lijst [--json]", a.JSON),
        },
        handler=bot,
    ),
    "vaardigheid": a.Verb(
        "the fleet's skills: name one and the words that imply it, or list them",
        "taak vaardigheid [SKILL [--woorden WORD,WORD,...|geen]] [--json]",
        a.arg("vaardigheid", "SKILL", "the skill, such as audio or beeld", nargs="?"),
        a.arg("--woorden", "WORDS", "words that imply the skill, by commas (replacing them), or geen"),
        a.JSON,
        description="Without SKILL: every known skill, its words and the bots that have it. With SKILL: the skill is "
        "known from now on; --woorden sets the words that imply it for a task that names neither --aan nor --nodig "
        "(a word matches where a word of the task begins: foto matches foto's and fotoboek). A word is letters and "
        "digits, 3 characters at least, and implies one skill: a word another skill has is refused.",
        handler=vaardigheid,
    ),
    "machine": a.Group(
        "the machine registry: zet, wie, lijst",
        "machine_command",
        {
            "zet": a.Verb(
                "add or update a machine",
                "taak machine zet NAME [--alias A ...] [--ip IP] [--bot B ...]",
                a.arg("naam", "NAME", "the machine's name"),
                a.arg("--alias", "A", "another name for it (repeatable)", action="append", default=[]),
                a.arg("--ip", "IP", "its LAN IP"),
                a.arg("--bot", "B", "a bot that runs there (repeatable)", action="append", default=[]),
            ),
            "wie": a.Verb(
                "all the names of the machine a name or alias stands for",
                "taak machine wie NAME [--json]",
                a.arg("naam", "NAME", "a name or alias"),
                a.JSON,
            ),
            "lijst": a.Verb("every machine with all its names", "taak machine lijst [--json]", a.JSON),
        },
        handler=machine,
    ),
    "eigenaar": a.Group(
        "the owner's name, one for the whole fleet: taak eigenaar, taak eigenaar zet NAME",
        "eigenaar_command",
        {
            "zet": a.Verb(
                "set the owner's name on every machine",
                "taak eigenaar zet NAME",
                a.arg("naam", "NAME", "the name on the rows the owner writes"),
            )
        },
        required=False,
        usage="taak eigenaar [zet NAME]",
        handler=eigenaar,
    ),
    "overzicht": a.Verb(
        "per bot: held, waiting, done today, sessions, cost, workers",
        "taak overzicht [--per-dag [--dagen N]] [--json]",
        a.flag(
            "--per-dag", "per day, fleet and bots: tasks, sessions, questions, cost; the old queue before the switch-on"
        ),
        a.arg("--dagen", "N", "with --per-dag: the last N days (default 14)", type=_days),
        a.JSON,
        handler=overzicht,
    ),
    "dagbericht": a.Verb(
        "the next digest to the owner, as it would read now, without sending it",
        "taak dagbericht [--json]",
        a.JSON,
        handler=dagbericht,
    ),
    **intake.PARSERS,
}
