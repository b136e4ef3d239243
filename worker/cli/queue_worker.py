"""`queue-worker`: the per-machine daemon, its one-shot mode, and a demo for newcomers.

queue-worker                 serve TAAK_BOTS until SIGTERM/SIGINT
queue-worker --once          process at most one task and exit (cron, tests)
queue-worker demo            the whole flow on the embedded database with a scripted agent
"""

from __future__ import annotations

import argparse
import os
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
    service = sub.add_parser("service", help="the systemd unit or launchd agent for a bot: install, status, uninstall")
    service_sub = service.add_subparsers(dest="service_command", required=True, parser_class=Parser, metavar="VERB")
    install = service_sub.add_parser(
        "install",
        help="write it for this machine and print how to load it",
        usage="queue-worker service install --bot BOT [--dry-run] [--platform linux|macos] [--system --user NAME]",
    )
    install.add_argument("--dry-run", action="store_true", help="print the file instead of writing it")
    install.add_argument(
        "--system", action="store_true", help="a system unit (Linux, installed as root) that runs as --user"
    )
    install.add_argument("--user", metavar="NAME", help="with --system: the user it runs as (never root)")
    status = service_sub.add_parser(
        "status", help="is it installed, and is it running", usage="queue-worker service status --bot BOT [--system]"
    )
    uninstall = service_sub.add_parser(
        "uninstall",
        help="stop it, disable it and remove its file (the settings file is kept)",
        usage="queue-worker service uninstall --bot BOT [--system] [--dry-run]",
    )
    uninstall.add_argument("--dry-run", action="store_true", help="say what would be done, do nothing")
    for verb in (install, status, uninstall):
        verb.add_argument("--bot", required=True, metavar="BOT", help="the bot this service serves")
        verb.add_argument("--platform", choices=["linux", "macos"], help="default: this machine's")
    for verb in (status, uninstall):
        verb.add_argument("--system", action="store_true", help="the system unit (Linux) instead of the user unit")
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    args = parse(build_parser(), sys.argv[1:] if argv is None else list(argv))
    if args.command == "service":
        raise SystemExit(_service(args))
    _load_env_file()
    settings = load_settings_or_exit()
    from worker.logs import configure_logging

    configure_logging(settings.log_format)
    if args.command == "demo":
        raise SystemExit(_demo(settings, args.agent))
    raise SystemExit(_serve(settings, once=args.once))


def _load_env_file() -> None:
    """launchd has no EnvironmentFile: the agent names the settings file in TAAK_ENV_FILE and it is read here,
    literally like systemd reads it (KEY=value lines; no shell, so `$` and `&` in a password stay as they are).
    What the environment already holds wins, except PATH."""
    path = os.environ.get("TAAK_ENV_FILE")
    if not path:
        return
    from dotenv import dotenv_values

    if not os.path.isfile(path):
        fail(f"TAAK_ENV_FILE {path} does not exist", ExitCode.USAGE, program="queue-worker")
    for key, value in dotenv_values(path, interpolate=False).items():
        if value is None:
            continue
        if key == "PATH":  # launchd always sets its own bare PATH: the file's, found at install, must win
            os.environ["PATH"] = value
        else:
            os.environ.setdefault(key, value)


def _service(args: argparse.Namespace) -> int:
    import getpass
    from pathlib import Path

    from worker.daemon import service as svc
    from worker.db.bots import check_bot_name

    try:
        bot = check_bot_name(args.bot)
    except TaakError as exc:
        fail(exc.render("en"), exc.exit_code)
    platform = args.platform or svc.this_platform()
    if args.system and platform == "macos":
        fail("--system is for Linux; on macOS the agent runs as the user who installs it", ExitCode.USAGE)
    user = getattr(args, "user", None)
    if args.service_command == "install" and args.system:
        import pwd

        user = user or os.environ.get("SUDO_USER")
        if not user or user == "root":
            fail("--system needs --user NAME: the bot runs as that user, never as root", ExitCode.USAGE)
        try:
            pwd.getpwnam(user)
        except KeyError:
            fail(f"--user {user}: no such user on this machine", ExitCode.USAGE)
    home = Path.home()
    service = svc.service_file(bot, platform, home=home, system=args.system, user=user)
    if args.service_command == "status":
        return _service_status(service, bot)
    if args.service_command == "uninstall":
        return _service_uninstall(service, bot, dry_run=args.dry_run)
    if args.dry_run:
        print(service.text, end="")
        return 0
    for path in svc.install(service, bot, home, path=svc.service_path(platform), owner=user if args.system else None):
        print(f"wrote {path}")
    if not svc.env_file_has_path(service):
        print(f"note: {service.env_file} has no PATH line: add PATH={svc.service_path(platform)}")
    print(f"settings go in {service.env_file} (TAAK_DATABASE_URL, ...); then load it with:\n  {service.load}")
    print(f"follow its log with:\n  {service.logs}")
    if platform == "linux" and not args.system:
        linger = svc.lingering(getpass.getuser())
        if linger is not True:
            why = "lingering is off" if linger is False else "systemd could not say whether lingering is on"
            print(
                f"{why}: this user's services stop when the user logs out; on a headless machine keep them "
                f"running with:\n  sudo loginctl enable-linger {getpass.getuser()}"
            )
    if service.log_file is not None:
        print(
            f"launchd does not rotate {service.log_file}: it grows until you stop the agent, move the file and "
            "start it again (the README's Services section)"
        )
    return 0


def _service_status(service: object, bot: str) -> int:
    from worker.daemon import service as svc

    assert isinstance(service, svc.ServiceFile)
    installed = service.path.is_file() and service.env_file.is_file()
    print(f"{service.path}: {'installed' if service.path.is_file() else 'not installed'}")
    env = "there" if service.env_file.is_file() else "missing"
    has_path = "with PATH" if svc.env_file_has_path(service) else "without PATH"
    print(f"{service.env_file}: {env}" + (f", {has_path}" if env == "there" else ""))
    if not installed:
        print(f"{bot}: not installed")
        return int(ExitCode.NOT_FOUND)
    code, said = svc.run_manager(service.status)
    print(said)
    return 0 if code == 0 else int(ExitCode.REFUSED)


def _service_uninstall(service: object, bot: str, *, dry_run: bool) -> int:
    from worker.daemon import service as svc

    assert isinstance(service, svc.ServiceFile)
    if not service.path.is_file():
        print(f"{service.path}: not installed, nothing to do")
        return 0
    shared = svc.other_bots(service, bot) if service.log_file is None else []
    print(("would run: " if dry_run else "running: ") + " ".join(service.stop))
    if dry_run:
        print(
            f"would keep {service.path}: bots {', '.join(shared)} use the same unit"
            if shared
            else f"would remove {service.path}"
        )
        return 0
    code, said = svc.run_manager(service.stop)
    if code not in (0, svc.NO_MANAGER):
        last = said.splitlines()[-1] if said else ""
        print(f"could not stop it: {' '.join(service.stop)} exited {code}: {last}; nothing removed")
        return int(ExitCode.REFUSED)
    if shared:
        print(f"kept {service.path}: bots {', '.join(shared)} use the same unit")
    else:
        service.path.unlink()
        print(f"removed {service.path}")
    print(f"kept {service.env_file} (your settings)")
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
    # The demo never touches a configured queue: always the embedded database under the data folder.
    demo_settings = settings.replaced(
        database_url=None, bots=[bot], agent_cmd=agent_cmd, poll_seconds=0.5, silence_timeout_seconds=300
    )
    if settings.database_url is not None:
        print(
            "demo: TAAK_DATABASE_URL is set, but the demo runs on the embedded database in "
            f"{settings.embedded_dir}, never on your queue",
            file=sys.stderr,
        )

    async def prepare() -> str:
        from worker.cli.common import connection
        from worker.db import bots
        from worker.db.ledger import Ledger, NewTask

        async with connection(demo_settings) as conn:
            await bots.set_active(conn, bot, True, new=True)
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
    again = "TAAK_DATABASE_URL= taak" if settings.database_url is not None else "taak"
    print(f"\nSee it again with: {again} toon {task_id}", file=sys.stderr)
    return code if status == Status.KLAAR else int(ExitCode.REFUSED)


if __name__ == "__main__":  # pragma: no cover
    main()
