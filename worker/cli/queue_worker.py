"""`queue-worker`: the per-machine daemon, its one-shot mode, and a demo for newcomers.

queue-worker                 serve TAAK_BOTS until SIGTERM/SIGINT
queue-worker --once          process at most one task and exit (cron, tests)
queue-worker demo            the whole flow on the embedded database with a scripted agent
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from worker.cli import args as a
from worker.cli.guard import guarded
from worker.core.catalogue import message
from worker.core.defaults import default_data_dir
from worker.core.errors import ExitCode, TaakError
from worker.core.language import early_language, unreadable_dotenv
from worker.core.model import Status
from worker.core.phrases import phrase
from worker.core.row_phrases import said_row
from worker.core.table import month_names, stamp
from worker.core.terminal import hanging, padded

if TYPE_CHECKING:
    from worker.daemon.service import Platform
    from worker.settings import Settings


def build_parser() -> a.Parser:
    parser = a.Parser(
        prog="queue-worker",
        description="Claims tasks for this machine's bots and runs them.",
        usage="queue-worker [-h] [--once] [VERB ...]",  # without a verb it is the daemon: the verb is optional
    )
    parser.add_argument("--once", action="store_true", help="process at most one task, then exit")
    # The verbs' own usage lines start with the program alone, not with the daemon's usage line above.
    sub = parser.add_subparsers(dest="command", parser_class=a.Parser, metavar="VERB", prog="queue-worker")
    a.add_verbs(sub, VERBS)
    return a.in_the_runs_language(parser)


SERVICE = (
    a.arg("--bot", "BOT", "the bot this service serves", required=True),
    a.arg("--platform", None, "default: this machine's", choices=["linux", "macos"]),
)
SYSTEM = a.flag("--system", "the system unit (Linux) instead of the user unit")
VERBS = {
    "demo": a.Verb(
        "show the whole flow with a scripted agent (no Claude account needed)",
        "queue-worker demo [--agent script|claude]",
        a.arg(
            "--agent",
            None,
            "script: the small agent that ships with the package (default); claude: the real Claude Code CLI",
            choices=["script", "claude"],
            default="script",
        ),
    ),
    "service": a.Group(
        "the systemd unit or launchd agent for a bot: install, status, uninstall",
        "service_command",
        {
            "install": a.Verb(
                "write it for this machine and print how to load it",
                "queue-worker service install --bot BOT [--dry-run] [--platform linux|macos] [--system --user NAME]",
                a.flag("--dry-run", "print the file instead of writing it"),
                a.flag("--system", "a system unit (Linux, installed as root) that runs as --user"),
                a.arg("--user", "NAME", "with --system: the user it runs as (never root)"),
                *SERVICE,
            ),
            "status": a.Verb(
                "is it installed, and is it running",
                "queue-worker service status --bot BOT [--system]",
                *SERVICE,
                SYSTEM,
            ),
            "uninstall": a.Verb(
                "stop it, disable it and remove its file (the settings file is kept)",
                "queue-worker service uninstall --bot BOT [--system] [--dry-run]",
                a.flag("--dry-run", "say what would be done, do nothing"),
                *SERVICE,
                SYSTEM,
            ),
        },
    ),
}


def _fail(line: str, code: int) -> NoReturn:
    a.fail(line, code, program="queue-worker")


def main(argv: Sequence[str] | None = None) -> None:
    # Ctrl-C before the daemon's work began ends without a traceback; its output is guarded (guard.py)
    guarded(lambda: _main(argv), ExitCode.INTERRUPTED, "queue-worker")


def _main(argv: Sequence[str] | None) -> None:
    a.use_argparse_words()  # before the parsers are made: argparse names their sections when it builds them
    args = a.parse(build_parser(), sys.argv[1:] if argv is None else list(argv))
    if args.command == "service":
        raise SystemExit(_service(args))
    _load_env_file()
    # Only now: help and usage errors answer without the settings or the database driver (issue 16).
    settings = a.load_settings_or_exit("queue-worker")
    from worker.logs import configure_logging  # start-up: only for the verbs that use it

    configure_logging(settings.log_format, zone=settings.zone, language=settings.language)
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
        _fail(message("env_file_missing", early_language(), path=path), ExitCode.USAGE)
    if (said := unreadable_dotenv(path)) is not None:  # a line python-dotenv would skip with a warning, no UTF-8
        _fail(said, ExitCode.USAGE)
    for key, value in dotenv_values(path, interpolate=False, encoding="utf-8").items():
        if value is None:
            continue
        if key == "PATH":  # launchd always sets its own bare PATH: the file's, found at install, must win
            os.environ["PATH"] = value
        else:
            os.environ.setdefault(key, value)


def _service(args: argparse.Namespace) -> int:
    from worker.daemon import service as svc  # start-up: the daemon's modules, for the verbs that use them

    language = early_language()
    bot, platform = _service_target(args, language)
    user = getattr(args, "user", None)
    if args.service_command == "install" and args.system:
        user = _system_user(user, language)
    service = svc.service_file(bot, platform, home=Path.home(), system=args.system, user=user, language=language)
    if args.service_command == "status":
        return _service_status(service, bot, language)
    if args.service_command == "uninstall":
        return _service_uninstall(service, bot, language, dry_run=args.dry_run)
    if args.dry_run:
        print(service.text, end="")
        return 0
    owner = user if args.system else None
    for path in svc.install(service, bot, Path.home(), path=svc.service_path(platform), owner=owner, language=language):
        print(message("service_wrote", language, path=path))
    _service_advice(service, platform, language, system=args.system)
    return 0


def _service_target(args: argparse.Namespace, language: str) -> tuple[str, Platform]:
    """The bot in its one spelling, and the platform (a system service is Linux's only)."""
    from worker.daemon import service as svc  # start-up: the daemon's modules, for the verbs that use them
    from worker.db.bots import check_bot_name  # start-up: asyncpg, for the verbs that use the database

    try:
        bot = check_bot_name(args.bot)
    except TaakError as exc:
        _fail(exc.render(language), exc.exit_code)
    platform: Platform = args.platform or svc.this_platform()
    if args.system and platform == "macos":
        _fail(message("system_linux_only", language), ExitCode.USAGE)
    return bot, platform


def _system_user(user: str | None, language: str) -> str:
    """The user a system service runs as: named, or the one who ran sudo; never root, and one that exists."""
    import pwd

    user = user or os.environ.get("SUDO_USER")
    if not user:
        _fail(message("system_needs_user", language), ExitCode.USAGE)
    if user == "root":
        _fail(message("system_not_root", language), ExitCode.USAGE)
    try:
        pwd.getpwnam(user)
    except KeyError:
        _fail(message("no_such_user", language, user=user), ExitCode.USAGE)
    return user


def _service_advice(service: Any, platform: Platform, language: str, *, system: bool) -> None:
    import getpass

    from worker.daemon import service as svc  # start-up: the daemon's modules, for the verbs that use them

    if not svc.env_file_has_path(service):
        print(message("service_no_path", language, env_file=service.env_file, path=svc.service_path(platform)))
    print(message("service_load", language, env_file=service.env_file, load=service.load))
    print(message("service_logs", language, logs=service.logs))
    if platform == "linux" and not system:
        linger = svc.lingering(getpass.getuser())
        if linger is not True:
            why = message("linger_off" if linger is False else "linger_unknown", language)
            print(message("linger_advice", language, why=why, user=getpass.getuser()))
    if service.log_file is not None:
        print(message("launchd_no_rotation", language, log_file=service.log_file))


def _service_status(service: Any, bot: str, language: str) -> int:
    from worker.daemon import service as svc  # start-up: the daemon's modules, for the verbs that use them

    installed = service.path.is_file() and service.env_file.is_file()
    print(
        message("service_installed" if service.path.is_file() else "service_not_installed", language, path=service.path)
    )
    if service.env_file.is_file():
        has_path = message("with_path" if svc.env_file_has_path(service) else "without_path", language)
        print(message("service_env_there", language, path=service.env_file, has_path=has_path))
    else:
        print(message("service_env_missing", language, path=service.env_file))
    if not installed:
        print(message("bot_not_installed", language, bot=bot))
        return int(ExitCode.NOT_FOUND)
    code, said = svc.run_manager(service.status, language)
    print(svc.said_by_manager(said, language))
    if svc.manager_unreachable(said):  # nothing was learnt: not "not running" (1)
        return int(ExitCode.UNREACHABLE)
    return 0 if code == 0 else int(ExitCode.REFUSED)


def _service_uninstall(service: Any, bot: str, language: str, *, dry_run: bool) -> int:
    from worker.daemon import service as svc  # start-up: the daemon's modules, for the verbs that use them

    if not service.path.is_file():
        print(message("service_nothing_to_do", language, path=service.path))
        return 0
    shared = ", ".join(svc.other_bots(service, bot) if service.log_file is None else [])
    stop = " ".join(service.stop)
    no_manager = shutil.which(service.stop[0]) is None  # nothing of it can be running to stop
    said_stop = message("would_run" if dry_run else "running_command", language, command=stop)
    print(message("manager_missing", language, program=service.stop[0]) if no_manager else said_stop)
    if dry_run:
        kept = message("would_keep_shared", language, path=service.path, bots=shared) if shared else None
        print(kept or message("would_remove", language, path=service.path))
        return 0
    return _stop_and_remove(service, shared, language)


def _stop_and_remove(service: Any, shared: str, language: str) -> int:
    """Stopped by its manager, then removed unless other bots share it; the settings stay."""
    from worker.daemon import service as svc  # start-up: the daemon's modules, for the verbs that use them

    code, said = svc.run_manager(service.stop, language)
    if code not in (0, svc.NO_MANAGER):
        said = svc.said_by_manager(said, language)
        last = said.splitlines()[-1] if said else ""
        print(message("could_not_stop", language, command=" ".join(service.stop), code=code, last=last))
        return int(ExitCode.REFUSED)
    if shared:
        print(message("kept_shared", language, path=service.path, bots=shared))
    else:
        service.path.unlink()
        print(message("removed", language, path=service.path))
    print(message("kept_settings", language, path=service.env_file))
    return 0


def _serve(settings: Settings, *, once: bool, only_task: str | None = None) -> int:
    import anyio

    from worker.daemon.worker import Worker  # start-up: the daemon's modules, for the verbs that use them
    from worker.db.connect import embedded_or_configured  # start-up: asyncpg, for the verbs that use the database

    try:
        database = embedded_or_configured(settings)
        worker = Worker(settings, database, once=once, only_task=only_task)
        anyio.run(worker.run)
    except KeyboardInterrupt:
        return 0
    except BaseException as exc:
        said = _start_failure(exc, settings)
        if said is None:
            raise  # a bug: its traceback goes to the log, where it helps
        _fail(*said)
    return 0


def _start_failure(exc: BaseException, settings: Settings) -> tuple[str, int] | None:
    """Refused, or failed inside the daemon's task group: said as taak says it; None for a bug."""
    from worker.daemon.worker import StartRefused  # start-up: the daemon's modules, for the verbs that use them
    from worker.db.failures import failure_line  # start-up: asyncpg, for the verbs that use the database

    leaves = _leaves(exc) if isinstance(exc, BaseExceptionGroup) else [exc]
    refused = [leaf for leaf in leaves if isinstance(leaf, StartRefused)]
    if refused:
        return str(refused[0]), refused[0].exit_code
    said = [line for leaf in leaves if isinstance(leaf, Exception) and (line := failure_line(leaf, settings))]
    return said[0] if said else None


def _leaves(group: BaseExceptionGroup[BaseException]) -> list[BaseException]:
    return [leaf for e in group.exceptions for leaf in (_leaves(e) if isinstance(e, BaseExceptionGroup) else [e])]


def _demo(settings: Settings, agent: str) -> int:
    import anyio

    from worker.db import bots  # start-up: asyncpg, for the verbs that use the database
    from worker.db.ledger import NewTask  # start-up: as above

    bot = "demo"
    agent_cmd = "claude" if agent == "claude" else f"{shlex.quote(sys.executable)} -m worker.demo_agent"
    # The demo never touches a configured queue: always the embedded database under the data folder.
    demo_settings = settings.replaced(
        database_url=None, bots=[bot], agent_cmd=agent_cmd, poll_seconds=0.5, silence_timeout_seconds=300
    )
    if settings.database_url is not None:
        print(message("demo_not_your_queue", settings.language, folder=settings.embedded_dir), file=sys.stderr)

    async def prepare() -> str:
        language = settings.language
        async with a.store(demo_settings) as store:
            await bots.set_active(store.db, bot, True, new=True)
            ledger = store.tasks
            # A demo that ended before its agent ran (no `claude` on PATH, a Ctrl-C) left its task waiting for a
            # bot that is gone again: cancelled, so that nothing is left waiting for it.
            for earlier in await ledger.lijst(status=Status.WACHTEND, toegewezen_aan=bot, limit=1000):
                await ledger.annuleer(earlier.id, phrase("row_demo_replaced"), wie="demo")
                print(message("demo_earlier_cancelled", language, id=earlier.id), file=sys.stderr)
            return await ledger.nieuw(
                NewTask(
                    opdracht=message("demo_opdracht", language),
                    opdrachtgever="demo",
                    toegewezen_aan=bot,
                    klaar_wanneer=message("demo_klaar_wanneer", language),
                    volgende_stap=message("demo_volgende_stap", language),
                    context={"machine": settings.machine},
                )
            )

    try:
        task_id = anyio.run(prepare)
    except TaakError as exc:
        _fail(exc.render(settings.language), exc.exit_code)
    print(message("demo_created", settings.language, id=task_id, bot=bot, agent=agent_cmd), file=sys.stderr)

    async def forget_bot() -> None:
        async with a.store(demo_settings) as store:
            await bots.forget(store.db, bot)

    try:  # by its ID: the queue's claim took the oldest task waiting for any bot, the owner's own too
        code = _serve(demo_settings, once=True, only_task=task_id)
    finally:  # else left switched on, its heartbeat going stale, in `taak bot lijst`, the overview and the cockpit
        anyio.run(forget_bot)

    async def show() -> Status:
        async with a.store(demo_settings) as store:
            ledger = store.tasks
            task = await ledger.toon(task_id)
            said = message("demo_result", settings.language, id=task.id, status=task.status, bewijs=task.bewijs or "-")
            print("\n" + said)
            now, months = datetime.now(settings.zone), month_names(settings.language)
            for row in await ledger.log_rows(task_id):
                text = said_row(row.tekst, row.meta, settings.language)
                first_line = text.splitlines()[0] if text else ""
                when = stamp(row.ts, now, settings.zone, months, always_date=True)
                print(hanging(f"  {when}  {row.soort.value:12} {padded(row.bot or '-', 8)} ", first_line))
            return task.status

    status = anyio.run(show)
    again = _demo_command(settings)
    print("\n" + message("demo_again", settings.language, command=f"{again} toon {task_id}"), file=sys.stderr)
    return code if status == Status.KLAAR else int(ExitCode.REFUSED)


def _demo_command(settings: Settings) -> str:
    """`taak`, as it must be typed to reach the demo's database: without the configured queue's URL, and in the
    data folder the demo used when that is not the default (a TAAK_DATA_DIR given for this one command)."""
    words = ["TAAK_DATABASE_URL="] if settings.database_url is not None else []
    if settings.data_dir.resolve() != default_data_dir().resolve():
        words.append(f"TAAK_DATA_DIR={shlex.quote(str(settings.data_dir))}")
    return " ".join([*words, "taak"])


if __name__ == "__main__":  # pragma: no cover
    main()
