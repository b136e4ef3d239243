"""`queue-worker`: the per-machine daemon, its one-shot mode, and a demo for newcomers.

queue-worker                 serve TAAK_BOTS until SIGTERM/SIGINT
queue-worker --once          process at most one task and exit (cron, tests)
queue-worker demo            the whole flow on the embedded database with a scripted agent
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Sequence

from worker.cli.args import Parser, fail, parse
from worker.cli.common import load_settings_or_exit
from worker.core.errors import ExitCode, TaakError
from worker.settings import Settings


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="queue-worker", description="Claims tasks for this machine's bots and runs them.")
    parser.add_argument("--once", action="store_true", help="process at most one task, then exit")
    sub = parser.add_subparsers(dest="command", parser_class=Parser, metavar="VERB")
    demo = sub.add_parser(
        "demo",
        help="show the whole flow with a scripted agent (no Claude account needed)",
        usage="queue-worker demo [--agent script|claude]",
    )
    demo.add_argument(
        "--agent",
        choices=["script", "claude"],
        default="script",
        help="script: the small agent that ships with the package (default); claude: the real Claude Code CLI",
    )
    service = sub.add_parser("service", help="the systemd unit or launchd agent for a bot")
    service_sub = service.add_subparsers(dest="service_command", required=True, parser_class=Parser, metavar="VERB")
    install = service_sub.add_parser(
        "install",
        help="write it for this machine and print how to load it",
        usage="queue-worker service install --bot BOT [--dry-run] [--platform linux|macos] [--system]",
    )
    install.add_argument("--bot", required=True, metavar="BOT", help="the bot this service serves")
    install.add_argument("--dry-run", action="store_true", help="print the file instead of writing it")
    install.add_argument("--platform", choices=["linux", "macos"], help="default: this machine's")
    install.add_argument("--system", action="store_true", help="a system unit (Linux, as root) instead of a user unit")
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    args = parse(build_parser(), sys.argv[1:] if argv is None else list(argv))
    if args.command == "service":
        raise SystemExit(_service(args))
    settings = load_settings_or_exit()
    from worker.logs import configure_logging

    configure_logging(settings.log_format)
    if args.command == "demo":
        raise SystemExit(_demo(settings, args.agent))
    raise SystemExit(_serve(settings, once=args.once))


def _service(args: argparse.Namespace) -> int:
    from pathlib import Path

    from worker.daemon.service import install, service_file, this_platform
    from worker.db.bots import check_bot_name

    try:
        check_bot_name(args.bot)
    except TaakError as exc:
        fail(exc.render("en"), exc.exit_code)
    home = Path.home()
    service = service_file(args.bot, args.platform or this_platform(), home=home, system=args.system)
    if args.dry_run:
        print(service.text, end="")
        return 0
    for path in install(service, args.bot, home):
        print(f"wrote {path}")
    print(f"settings go in {service.env_file} (TAAK_DATABASE_URL, ...); then load it with:\n  {service.load}")
    print(f"follow its log with:\n  {service.logs}")
    return 0


def _serve(settings: Settings, *, once: bool) -> int:
    import anyio

    from worker.daemon.worker import StartRefused, Worker
    from worker.db.connect import resolve_database

    try:
        database = resolve_database(settings)
        worker = Worker(settings, database, once=once)
        anyio.run(worker.run)
    except StartRefused as exc:
        fail(str(exc), ExitCode.REFUSED)
    except BaseExceptionGroup as group:  # refused inside the daemon's task group
        refused = group.subgroup(StartRefused)
        if refused is None:
            raise
        fail(str(_leaves(refused)[0]), ExitCode.REFUSED)
    except TaakError as exc:
        fail(exc.render(settings.language), exc.exit_code)
    except KeyboardInterrupt:
        return 0
    return 0


def _leaves(group: BaseExceptionGroup[BaseException]) -> list[BaseException]:
    return [leaf for e in group.exceptions for leaf in (_leaves(e) if isinstance(e, BaseExceptionGroup) else [e])]


def _demo(settings: Settings, agent: str) -> int:
    import anyio

    from worker.core.model import Status

    bot = "demo"
    agent_cmd = "claude" if agent == "claude" else f"{shlex.quote(sys.executable)} -m worker.demo_agent"
    demo_settings = settings.model_copy(
        update={"bots": [bot], "agent_cmd": agent_cmd, "poll_seconds": 0.5, "silence_timeout_seconds": 300}
    )

    async def prepare() -> str:
        from worker.cli.common import connection
        from worker.db import bots
        from worker.db.ledger import Ledger, NewTask

        async with connection(demo_settings) as conn:
            await bots.set_active(conn, bot, True)
            return await Ledger(conn).nieuw(
                NewTask(
                    opdracht="Schrijf in één zin op wat deze demo laat zien, en bewaar het als bestand.",
                    opdrachtgever="demo",
                    toegewezen_aan=bot,
                    klaar_wanneer="het bestand bestaat en is gelogd als bewijs",
                    volgende_stap="lees de briefing en log je eerste stap",
                    context={"machine": settings.machine},
                )
            )

    try:
        task_id = anyio.run(prepare)
    except TaakError as exc:
        fail(exc.render(settings.language), exc.exit_code)
    print(f"demo: task {task_id} created for bot {bot!r}; running it with {agent_cmd}", file=sys.stderr)
    code = _serve(demo_settings, once=True)

    async def show() -> Status:
        from worker.cli.common import connection
        from worker.db.ledger import Ledger

        async with connection(demo_settings) as conn:
            ledger = Ledger(conn)
            task = await ledger.toon(task_id)
            print(f"\n{task.id}: {task.status} (bewijs: {task.bewijs or '-'})")
            for row in await ledger.log_rows(task_id):
                first_line = row.tekst.splitlines()[0] if row.tekst else ""
                when = row.ts.astimezone(settings.zone)
                print(f"  {when:%H:%M:%S}  {row.soort.value:12} {row.bot or '-':8} {first_line}")
            return task.status

    status = anyio.run(show)
    print(f"\nSee it again with: taak toon {task_id}", file=sys.stderr)
    return code if status == Status.KLAAR else int(ExitCode.REFUSED)


if __name__ == "__main__":  # pragma: no cover
    main()
