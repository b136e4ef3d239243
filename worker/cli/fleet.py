"""The verbs of the fleet: bot (the staged-rollout switch), machine (the registry), overzicht."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from datetime import datetime
from typing import TYPE_CHECKING, Any

from worker.cli import args as a
from worker.core.errors import ExitCode

if TYPE_CHECKING:  # the parsers are read by the in-session client, which loads no pydantic
    from worker.settings import Settings

Sub = Any


def register(sub: Sub) -> None:
    _bot_parser(sub)
    _machine_parser(sub)
    _overzicht_parser(sub)


def _bot_parser(sub: Sub) -> None:
    p = sub.add_parser("bot", help="the per-bot switch: taak bot aan|uit BOT, taak bot lijst")
    verbs = p.add_subparsers(dest="bot_command", required=True, parser_class=a.Parser, metavar="VERB")
    for verb, text in (("aan", "let the daemons claim for this bot"), ("uit", "claim nothing new for this bot")):
        switch = verbs.add_parser(verb, help=text, usage=f"taak bot {verb} BOT")
        switch.add_argument("naam", metavar="BOT", help="the bot's name")
        switch.set_defaults(handler=bot)
    listed = verbs.add_parser("lijst", help="every bot with its switch and heartbeat", usage="taak bot lijst [--json]")
    a.add_json(listed)
    listed.set_defaults(handler=bot)


async def bot(args: argparse.Namespace, settings: Settings) -> int:
    from worker.db import bots

    async with a.connection(settings) as conn:
        if args.bot_command in ("aan", "uit"):
            changed = await bots.set_active(conn, args.naam, args.bot_command == "aan")
            print(f"{changed.bot}: {'aan' if changed.actief else 'uit'}")
            return ExitCode.OK
        listed = await bots.all_bots(conn)
    if args.json:
        print(json.dumps([a.plain(asdict(b)) for b in listed], ensure_ascii=False, indent=2))
        return ExitCode.OK
    for b in listed:
        seen = b.laatst_gezien.astimezone(settings.zone).strftime("%Y-%m-%d %H:%M:%S") if b.laatst_gezien else "-"
        switch = "aan" if b.actief else "uit"
        print(f"{b.bot:12} {switch:4} {b.machine or '-':20} {b.huidige_taak or '-':18} {seen}")
    return ExitCode.OK


def _machine_parser(sub: Sub) -> None:
    p = sub.add_parser("machine", help="the machine registry: zet, wie, lijst")
    verbs = p.add_subparsers(dest="machine_command", required=True, parser_class=a.Parser, metavar="VERB")
    zet = verbs.add_parser(
        "zet",
        help="add or update a machine",
        usage="taak machine zet NAAM [--alias A ...] [--ip IP] [--bot B ...]",
    )
    zet.add_argument("naam", metavar="NAAM", help="the machine's name")
    zet.add_argument("--alias", action="append", default=[], metavar="A", help="another name for it (repeatable)")
    zet.add_argument("--ip", metavar="IP", help="its LAN IP")
    zet.add_argument("--bot", action="append", default=[], metavar="B", help="a bot that runs there (repeatable)")
    wie = verbs.add_parser(
        "wie", help="all the names of the machine a name or alias stands for", usage="taak machine wie NAAM [--json]"
    )
    wie.add_argument("naam", metavar="NAAM", help="a name or alias")
    a.add_json(wie)
    listed = verbs.add_parser("lijst", help="every machine with all its names", usage="taak machine lijst [--json]")
    a.add_json(listed)
    for verb in (zet, wie, listed):
        verb.set_defaults(handler=machine)


async def machine(args: argparse.Namespace, settings: Settings) -> int:
    from worker.db import machines

    async with a.connection(settings) as conn:
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
        names = " = ".join([*m.names(), *([m.ip] if m.ip else [])])
        print(names + (f"  (bots: {', '.join(m.bots)})" if m.bots else ""))
    return ExitCode.OK


def _overzicht_parser(sub: Sub) -> None:
    p = sub.add_parser(
        "overzicht",
        help="per bot: held, waiting, done today, sessions, cost, workers",
        usage="taak overzicht [--json]",
    )
    a.add_json(p)
    p.set_defaults(handler=overzicht)


async def overzicht(args: argparse.Namespace, settings: Settings) -> int:
    from worker.db.sqlfiles import queries

    async with a.connection(settings) as conn:
        bots = [dict(r) for r in await conn.fetch(queries()["overzicht"])]
        held = [dict(r) for r in await conn.fetch(queries()["overzicht_bezig"])]
    if args.json:
        shown = {"bots": [a.plain(b) for b in bots], "bezig": [a.plain(h) for h in held]}
        print(json.dumps(shown, ensure_ascii=False, indent=2, default=str))
        return ExitCode.OK
    print(
        f"{'bot':10} {'bezig':>5} {'wacht':>5} {'mens':>4} {'oudste':>8} {'klaar':>5} {'mislukt':>7} "
        f"{'sess/klaar':>10} {'met stap':>8} {'kosten $':>9} {'$/taak':>7} {'comp/auto':>9} {'comp/klaar':>10}  worker"
    )
    for b in bots:
        print(_bot_line(b))
    for h in held:
        print(f"  bezig: {h['id']} {h['bot']} lease nog {_age(h['lease_seconden'])}  {h['titel']}")
    return ExitCode.OK


def _bot_line(b: dict[str, Any]) -> str:
    worker = "-"
    if b["laatst_gezien"] is not None:
        seen = int((datetime.now(b["laatst_gezien"].tzinfo) - b["laatst_gezien"]).total_seconds())
        worker = f"{b['machine']} {_age(seen)}" + (" VEROUDERD" if b["worker_verouderd"] else "")
    return (
        f"{b['bot']:10} {b['bezig']:>5} {b['wachtend']:>5} {b['wacht_op_mens']:>4} "
        f"{_age(b['oudste_wacht_seconden']):>8} {b['klaar_vandaag']:>5} {b['mislukt_vandaag']:>7} "
        f"{_num(b['sessies_per_klare_taak']):>10} {_num(b['aandeel_sessies_met_stap']):>8} "
        f"{_num(b['kosten_usd']):>9} {_num(b['kosten_per_taak_usd']):>7} "
        f"{b['compacties']:>4}/{b['compacties_auto']:<4} {_num(b['compacties_per_klare_taak']):>10}  {worker}"
    )


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
