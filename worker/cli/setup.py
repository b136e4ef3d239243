"""The verbs that set a machine up: db, hooks, hook, claude-md, geheugen, doctor."""

from __future__ import annotations

import argparse
import json
import shlex
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from worker.cli import args as a
from worker.cli.guard import discard_output
from worker.core.catalogue import message, os_reason
from worker.core.errors import ExitCode, InvalidInput, NotFound
from worker.core.folders import make_folder
from worker.core.language import early_language
from worker.core.terminal import is_blank, quoted
from worker.hooks.entry import HOOK_NAMES

if TYPE_CHECKING:  # the parsers are read by the in-session client, which loads no settings class
    from worker.settings import Settings


DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 8765


def _port(text: str) -> int:
    # Digits beyond an integer are beyond a port too: the port's own message, not the integer's limit.
    digits = text.strip().lstrip("+-").lstrip("0")
    if a.WHOLE_NUMBER.fullmatch(text) and (len(digits) > 5 or not 1 <= int(text) <= 65535):
        raise argparse.ArgumentTypeError(message("bad_port", early_language(), value=quoted(text.strip())))
    return a.whole_number(text)


async def cockpit(args: argparse.Namespace, settings: Settings) -> int:
    import importlib.util

    args.host = _checked_host(args.host)
    if any(importlib.util.find_spec(name) is None for name in ("starlette", "uvicorn", "jinja2")):
        a.fail(a.said(settings, "cockpit_not_installed"), ExitCode.REFUSED)
    from worker.cockpit.app import create_app, ensure_token, token_path  # start-up: the web stack, for the cockpit

    token = ensure_token(settings)
    host = f"[{args.host.replace('%', '%25')}]" if ":" in args.host else args.host  # fe80::1%lo: %25 in a URL
    address = f"http://{host}:{args.port}/"
    if args.link:
        print(f"{address}?token={token}")
        return ExitCode.OK
    import uvicorn

    from worker.db import health  # start-up: asyncpg, for the verbs that use the database

    async with a.store(settings) as store:  # the database answers, migrated (the embedded one is made so)
        await health.answers(store.db)
    listening = _listening(args.host, args.port, address, settings)
    # The link's command names the address and port this one serves on: the default's link would be another's.
    options = (f" --host {shlex.quote(args.host)}" if args.host != DEFAULT_HOST else "") + (
        f" --port {args.port}" if args.port != DEFAULT_PORT else ""
    )
    # No access log: a first visit carries the token in its address.
    config = uvicorn.Config(create_app(settings, token, options), access_log=False, log_level="warning")
    serving = a.said(settings, "cockpit_serving", address=address, options=options, token_file=token_path(settings))
    print(serving, flush=True)
    await uvicorn.Server(config).serve(sockets=[listening])
    return ExitCode.OK


def _checked_host(host: str) -> str:
    if is_blank(host):  # an empty value would mean every address of the machine
        raise InvalidInput("empty", what="--host")
    if host.startswith("[") and host.endswith("]"):  # an IPv6 address as a URL writes it: the address
        host = host[1:-1]
    if not host.isascii() or any(ch.isspace() for ch in host):
        raise InvalidInput("bad_host", value=host)  # an address or a host name: no other characters
    return host


def _listening(host: str, port: int, address: str, settings: Settings) -> socket.socket:
    """Bound here, so that a port in use or a bad address is one line, before anything says it serves."""
    try:
        listening = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind((host, port))
        listening.listen(128)  # a browser opened on the line below waits for the server instead of being refused
    except (socket.gaierror, UnicodeError):  # no name the resolver knows (`256.1.1.1`), or none it can encode
        raise InvalidInput("bad_host", value=host) from None
    except OSError as error:  # in use, or an address of another machine
        reason = os_reason(error, settings.language)
        a.fail(a.said(settings, "cockpit_cannot_listen", address=address, reason=reason), ExitCode.REFUSED)
    return listening


async def db(args: argparse.Namespace, settings: Settings) -> int:
    from worker.db.connect import connect_one, resolve_database  # start-up: asyncpg, for the database verbs
    from worker.db.migrate import status  # start-up: asyncpg, for the verbs that use the database

    if args.db_command == "stop":
        return _db_stop(settings)
    database = await resolve_database(settings)
    conn = await connect_one(settings, database)
    try:
        if args.db_command == "heartbeats":
            return await _heartbeats(conn, args.beveilig, settings.language)
        if args.db_command == "migrate":
            return await _db_migrate(conn, settings)
        state = await status(conn)
    finally:
        await conn.close()
    if args.json:
        print(json.dumps({"database": database.redacted, "applied": state.applied, "pending": state.pending}))
        return ExitCode.OK
    print(f"database: {database.redacted}")
    for name in state.applied:
        print(message("migration_listed_applied", settings.language, name=name))
    for name in state.pending:
        print(message("migration_listed_pending", settings.language, name=name))
    return ExitCode.OK


def _db_stop(settings: Settings) -> int:
    from worker.db.embedded import stop_embedded  # start-up: asyncpg, for the verbs that use the database

    if settings.database is None and stop_embedded(settings.embedded_dir):
        print(message("embedded_stopped", settings.language, folder=settings.embedded_dir))
    else:
        print(message("no_embedded_running", settings.language))
    return ExitCode.OK


async def _db_migrate(conn: Any, settings: Settings) -> int:
    from worker.db.migrate import migrate, set_timezone  # start-up: asyncpg, for the verbs that use the database

    applied = await migrate(conn)
    await set_timezone(conn, settings.timezone)
    for name in applied:
        print(message("migration_applied", settings.language, name=name))
    if not applied:
        print(message("migrations_up_to_date", settings.language))
    return ExitCode.OK


async def _heartbeats(conn: Any, secure: bool, language: str) -> int:
    from worker.db import heartbeats  # start-up: asyncpg, for the verbs that use the database

    current = await heartbeats.state(conn)
    if current is None:
        raise NotFound("no_heartbeats")
    for line in heartbeats.describe(current, language):
        print(line)
    statements = heartbeats.plan(current)
    if not statements:
        print(message("heartbeats_nothing_to_change", language))
        return ExitCode.OK
    print(message("heartbeats_running" if secure else "heartbeats_would_run", language))
    for statement in statements:
        print(f"  {statement};")
    if not secure:
        print(message("heartbeats_nothing_changed", language))
        return ExitCode.OK
    async with conn.transaction():
        await heartbeats.secure(conn, current)
    after = await heartbeats.state(conn)
    assert after is not None
    print(message("heartbeats_done", language, state="; ".join(heartbeats.describe(after, language))))
    return ExitCode.OK


async def hooks(args: argparse.Namespace, settings: Settings) -> int:
    from worker.hooks import settings_file  # start-up: the hook modules, for the verbs that use them

    path = args.settings or settings.claude_settings
    try:
        current = settings_file.load(path)
    except settings_file.BadSettingsFile as exc:
        raise InvalidInput("bad_settings_file", path=path, detail=exc.detail) from None
    if args.hooks_command == "install":
        return _hooks_install(current, path, args.dry_run, settings)
    return _hooks_check(current, path, args.fix, settings)


def _hooks_install(current: Any, path: Path, dry_run: bool, settings: Settings) -> int:
    from worker.hooks import settings_file  # start-up: the hook modules, for the verbs that use them

    wanted = settings_file.merged(current)
    if dry_run:
        print(json.dumps(wanted, indent=2, ensure_ascii=False))
    elif settings_file.installed(current):  # ours are there: other hooks after them stay where they are
        print(a.said(settings, "hooks_unchanged", path=path))
    else:
        with a.ctrl_c_after_it_is_done(settings):  # the file and its line, then done (exit 0)
            backup = settings_file.save_with_backup(path, wanted)
            said = "hooks_installed_backup" if backup else "hooks_installed"
            print(a.said(settings, said, path=path, backup=backup))
    return ExitCode.OK


def _hooks_check(current: Any, path: Path, fix: bool, settings: Settings) -> int:
    """Hooks whose program is gone, and hooks of an older setup (a second path): said, and removed with --fix."""
    from worker.hooks import settings_file  # start-up: the hook modules, for the verbs that use them

    dead = settings_file.dead_hooks(current)
    dead_commands = {(d.event, d.command) for d in dead}
    old = [h for h in settings_file.old_hooks(current) if (h.event, h.command) not in dead_commands]
    for d in dead:
        print(a.said(settings, "hook_dead", event=d.event, command=d.command, missing=d.missing))
    for h in old:
        print(a.said(settings, "hook_old", event=h.event, command=h.command, why=h.reason(settings.language)))
    if not dead and not old:
        print(a.said(settings, "hooks_sound", path=path))
        return ExitCode.OK
    if not fix:
        return ExitCode.REFUSED  # something to mend: a script can tell (`taak hooks check --fix` mends it)
    with a.ctrl_c_after_it_is_done(settings):
        mended = settings_file.without(settings_file.without(current, dead), old)
        backup = settings_file.save_with_backup(path, mended)
        print(a.said(settings, "hooks_removed", path=path, dead=len(dead), old=len(old), backup=backup))
    return ExitCode.OK


async def claude_md(args: argparse.Namespace, settings: Settings) -> int:
    from worker.hooks.memory import with_compact_instructions  # start-up: the hook modules, for the verbs that use them

    path = args.path or Path.home() / ".claude" / "CLAUDE.md"
    current = path.read_text(encoding="utf-8") if path.exists() else ""
    wanted = with_compact_instructions(current, settings.language)
    if not args.write:
        print(wanted, end="")
    elif wanted == current:
        print(a.said(settings, "compact_instructions_unchanged", path=path))
    else:
        make_folder(path.parent)
        with a.ctrl_c_after_it_is_done(settings):
            path.write_text(wanted, encoding="utf-8")
            print(a.said(settings, "compact_instructions_written", path=path))
    return ExitCode.OK


async def geheugen(args: argparse.Namespace, settings: Settings) -> int:
    from worker.hooks.memory import memory_health  # start-up: the hook modules, for the verbs that use them

    folder = args.dir or settings.memory_dir
    if not folder.is_dir():
        if args.dir is not None:  # a folder the user named must be there
            raise NotFound("setting_not_a_folder" if folder.exists() else "no_folder", path=folder)
        print(a.said(settings, "memory_folder_missing", path=folder))
        return ExitCode.OK
    health = memory_health(folder)
    if args.json:
        shown = {
            "index": str(health.index),
            "index_bytes": health.index_bytes,
            "injected_chars": health.injected_chars,
            "index_lines": health.index_lines,
            "injected_lines": health.injected_lines,
            "share": round(health.share, 3),
            "files": health.files,
            "unindexed": health.unindexed,
        }
        print(json.dumps(shown, ensure_ascii=False))
        return ExitCode.OK
    print(
        a.said(
            settings,
            "memory_index",
            path=health.index,
            size=f"{health.index_bytes:,}",
            shown=health.injected_lines,
            lines=health.index_lines,
            share=f"{health.share:.0%}",
            chars=f"{health.injected_chars:,}",
        )
    )
    if not health.unindexed:  # no list follows: no colon that announces one
        print(a.said(settings, "memory_all_indexed", files=health.files))
        return ExitCode.OK
    print(a.said(settings, "memory_unindexed", files=health.files, unindexed=len(health.unindexed)))
    for name in health.unindexed:
        print(f"  {name}")
    return ExitCode.OK


async def doctor(args: argparse.Namespace, settings: Settings) -> int:
    from worker.cli.doctor import run_checks  # start-up: the checks, for `taak doctor`

    checks = await run_checks(settings)
    code = ExitCode.REFUSED if any(c.level == "fail" for c in checks) else ExitCode.OK
    try:
        for check in checks:
            print(check.line(settings.language))
        sys.stdout.flush()
    except BrokenPipeError:  # `taak doctor | head -1`: the reader stopped, the checks' verdict still stands
        discard_output()
    return code


SETTINGS_FILE = a.arg("--settings", "FILE", "the settings file (default TAAK_CLAUDE_SETTINGS)", type=Path)
PARSERS = {
    "db": a.Group(
        "the database: migrate, status, stop",
        "db_command",
        {
            "migrate": a.Verb("apply pending migrations", "taak db migrate"),
            "status": a.Verb("list applied and pending migrations", "taak db status [--json]", a.JSON),
            "stop": a.Verb("stop the embedded server (it is otherwise left running)", "taak db stop"),
            "heartbeats": a.Verb(
                "the owner's bot_heartbeats: who can write it, and row-level security by your decision",
                "taak db heartbeats [--beveilig]",
                a.flag("--beveilig", "switch row-level security on, with those policies"),
                description="Shows whether row-level security is on for bot_heartbeats, who may write and delete it "
                "today, and the statements --beveilig would run. With --beveilig it runs them: every role that writes "
                "today gets its own select, insert and update policies (the bots keep working), delete and truncate "
                "are taken from everyone but the owner, and row-level security is switched on. Migrating never does "
                "this.",
            ),
        },
        handler=db,
    ),
    # Only for help and errors: a well-formed `taak hook NAME` never reaches argparse (worker/cli/taak.py).
    "hook": a.Verb(
        "a Claude Code hook handler (reads the hook JSON on stdin)",
        "taak hook NAME [--queue] | taak hook prompt --stand FILE",
        a.arg("name", "NAME", ", ".join(HOOK_NAMES), choices=HOOK_NAMES),
    ),
    "hooks": a.Group(
        "our hooks in ~/.claude/settings.json: install, check",
        "hooks_command",
        {
            "install": a.Verb(
                "merge the hooks in (backup first; twice changes nothing)",
                "taak hooks install [--settings FILE] [--dry-run]",
                a.flag("--dry-run", "print the result, write nothing"),
                SETTINGS_FILE,
            ),
            "check": a.Verb(
                "list hook commands whose script is missing, and old hooks that do our work a second way",
                "taak hooks check [--settings FILE] [--fix]",
                a.flag("--fix", "remove them (after a backup)"),
                SETTINGS_FILE,
            ),
        },
        handler=hooks,
    ),
    "claude-md": a.Verb(
        'add or refresh the "Compact instructions" in a CLAUDE.md',
        "taak claude-md [PATH] [--write]",
        a.arg("path", "PATH", "default ~/.claude/CLAUDE.md", nargs="?", type=Path),
        a.flag("--write", "write it (otherwise print the result)"),
        handler=claude_md,
    ),
    "geheugen": a.Group(
        "the memory folder: taak geheugen check [FOLDER]",
        "geheugen_command",
        {
            "check": a.Verb(
                "MEMORY.md size, what reaches a session, unindexed files",
                "taak geheugen check [FOLDER] [--json]",
                a.arg("dir", "FOLDER", "default TAAK_MEMORY_DIR", nargs="?", type=Path),
                a.JSON,
            )
        },
        handler=geheugen,
    ),
    "doctor": a.Verb("check this machine's setup: ok / warn / fail with the fix", "taak doctor", handler=doctor),
    "cockpit": a.Verb(
        "the fleet on one web page (optional extra `cockpit`); --link prints the address with its token",
        "taak cockpit [--host ADDRESS] [--port N] [--link]",
        a.arg("--host", "ADDRESS", "where to listen (default 127.0.0.1)", default=DEFAULT_HOST),
        a.arg("--port", "N", "the port, 1 to 65535 (default 8765)", type=_port, default=DEFAULT_PORT),
        a.flag("--link", "print the address with the token, to open once, and stop"),
        handler=cockpit,
        ends_with_ctrl_c=True,
    ),
}
