"""`taak doctor`: one screen of checks, each ok / warn / fail with the fix. Exit 0 when nothing fails."""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import sqlite3
import subprocess
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import asyncpg

from worker.core.catalogue import message
from worker.core.dsn import DatabaseUrl, url_search_path
from worker.core.errors import InvalidInput, Misconfigured, TaakError
from worker.core.phrases import Phrase, phrase
from worker.core.row_phrases import duration
from worker.db import bots, health, heartbeats
from worker.db.connect import connect_one, resolve_database
from worker.db.migrate import MigrationStatus, schema_newer_said, status, upgrade_command
from worker.db.pooler import resolve_pooler
from worker.db.sqlfiles import Connected
from worker.hooks import settings_file
from worker.hooks.memory import dead_paths
from worker.memory import semantic
from worker.memory.archive import default_sources, folder_size, unreadable_reason
from worker.memory.layout import Layout
from worker.proc import running_commands
from worker.settings import Settings, renamed_in_use

Level = Literal["ok", "warn", "fail"]


@dataclass(frozen=True)
class Check:
    """One check: `what` names it (the catalogue's `doctor.what.<what>`); its detail and fix are phrases, said
    in the run's language, or words the run has said already, or a command, typed as it is."""

    level: Level
    what: str
    detail: Phrase | str
    fix: Phrase | str = ""

    def line(self, language: str = "en") -> str:
        """`warn  hooks: ...  -> taak hooks install` (the level words stay: ok/warn/fail)."""
        what = message(f"doctor.what.{self.what}", language)
        detail, fix = (w.said(language) if isinstance(w, Phrase) else w for w in (self.detail, self.fix))
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
    checks.append(_sessions(settings))
    checks.append(_registry(settings))
    checks += _named_paths(settings)
    checks += _renamed_settings()
    return checks


def _renamed_settings() -> list[Check]:
    """A setting set by its old name: read all the same, said once here with its new name."""
    return [
        Check("warn", "settings", phrase("doctor.setting_renamed", old=old, new=new), phrase("doctor.fix_renamed"))
        for old, new in renamed_in_use(os.environ)
    ]


def _named_paths(settings: Settings) -> list[Check]:
    """Paths CLAUDE.md and MEMORY.md send a session to that are not there (it would look, and find nothing)."""

    checks = []
    home = Path.home()
    try:
        here = project_instructions(Path.cwd(), home)
    except OSError:  # the folder doctor runs in was removed under it: there is nothing there to read
        here = []
    documents = dict.fromkeys([*here, home / ".claude" / "CLAUDE.md", settings.memory_dir / "MEMORY.md"])
    for document in documents:
        if not document.is_file():
            continue
        missing = dead_paths(document.read_text(encoding="utf-8", errors="replace"), document.parent, Path.home())
        if missing:
            shown = ", ".join(missing[:8])
            more = phrase("doctor.paths_more", n=len(missing) - 8) if len(missing) > 8 else ""
            said = phrase("doctor.paths_missing", document=document, paths=shown, more=more)
            checks.append(Check("warn", "named_paths", said, phrase("doctor.fix_paths", document=document)))
        else:
            checks.append(Check("ok", "named_paths", phrase("doctor.paths_exist", document=document)))
    return checks


def project_instructions(folder: Path, home: Path) -> list[Path]:
    """The instruction files Claude Code reads when it starts in `folder` (CLAUDE.md, .claude/CLAUDE.md and
    CLAUDE.local.md): the folder's own and those of the folders above it, up to the home folder (or, outside it,
    up to the root, which it leaves out). Most paths written down for a session are in these, not in
    ~/.claude/CLAUDE.md."""
    folder = folder.absolute()
    above = [folder, *folder.parents]
    if folder.is_relative_to(home):
        above = above[: above.index(home) + 1]
    names = ("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md")
    return [place / name for place in above if place != Path(place.anchor) for name in names]


async def _database_checks(settings: Settings) -> list[Check]:
    fix_url = phrase("doctor.fix_url")  # the URL itself, or what it says, is wrong: no network will mend it
    try:
        database = await resolve_database(settings)
        conn = await connect_one(settings, database)
    except TaakError as exc:
        wrong_url = isinstance(exc, InvalidInput | Misconfigured)
        return [Check("fail", "database", exc.as_phrase(), fix_url if wrong_url else phrase("doctor.fix_database"))]
    except asyncpg.PostgresError as exc:  # the server refused what the URL asks at connect (a setting's value)
        said = phrase("url_refused_by_server", detail=str(exc).splitlines()[0])
        return [Check("fail", "database", said, fix_url)]
    try:
        return await _connected_checks(settings, database, conn)
    finally:
        await conn.close()


async def _connected_checks(settings: Settings, database: DatabaseUrl, conn: Connected) -> list[Check]:
    migrations = await status(conn)
    checks: list[Check] = []
    if migrations.newer:  # a newer taak migrated the database: this machine's daemon claims nothing until upgraded
        checks.append(
            Check("fail", "schema", schema_newer_said(migrations.newer, settings.language), upgrade_command())
        )
    if not migrations.pending and not await health.tables_visible(conn):  # in public, and the URL's path passes it by
        said = phrase("schema_missing_search_path", path=url_search_path(database.url))
        return [*checks, Check("fail", "database", said, phrase("doctor.fix_search_path"))]
    checks += migrations_checks(migrations, database.redacted)
    checks.append(await _wake_up(settings, database, conn))
    before = time.time()
    database_now = await health.clock(conn)
    checks.append(
        clock_check(abs((database_now - datetime.fromtimestamp((before + time.time()) / 2, UTC)).total_seconds()))
    )
    # The owner's own tables we read but do not own: who may write agent_messages and bot_heartbeats.
    checks += queue_table_check(await heartbeats.state(conn, "public.agent_messages"))
    checks += heartbeats_check(await heartbeats.state(conn))
    if migrations.pending:  # the bots' switches live in a table the pending migrations make
        return checks
    if not settings.bots:
        return [*checks, Check("warn", "bots", phrase("doctor.no_bots"), phrase("doctor.fix_bots"))]
    active = await bots.active_bots(conn, settings.bots)
    known = {b.bot for b in await bots.all_bots(conn)}
    return [*checks, bots_check(settings.bots, active, known)]


def migrations_checks(migrations: MigrationStatus, database: str) -> list[Check]:
    if migrations.pending:
        names = ", ".join(migrations.pending)
        said = phrase("doctor.migrations_pending", database=database, n=len(migrations.pending), names=names)
        return [Check("fail", "database", said, "taak db migrate")]
    if migrations.newer:  # beside the schema check's failure it read as "all is well"
        return []
    return [Check("ok", "database", phrase("doctor.migrations_applied", database=database, n=len(migrations.applied)))]


async def _wake_up(settings: Settings, database: DatabaseUrl, conn: Connected) -> Check:
    database = await resolve_pooler(settings, database)
    if database.is_transaction_pooler or not settings.listen:
        why = "doctor.poll_listen_off" if not settings.listen else "doctor.poll_transaction_pooler"
        return Check("warn", "wake_up", phrase(why), phrase("doctor.fix_listen"))
    await conn.add_listener("taak_nieuw", lambda *_: None)
    return Check("ok", "wake_up", phrase("doctor.listen_available"))


def bots_check(wanted: list[str], active: list[str], known: set[str]) -> Check:
    """The bots this machine runs (TAAK_BOTS): switched on, or the command that switches the first one on."""
    off = [b for b in wanted if b not in active]
    on = ", ".join(active) or "-"
    if not off:
        return Check("ok", "bots", phrase("doctor.bots_on", on=on))
    fix = f"taak bot aan {off[0]}" + ("" if off[0] in known else " --nieuwe-bot")
    return Check("warn", "bots", phrase("doctor.bots_on_off", on=on, off=", ".join(off)), fix)


def clock_check(skew: float) -> Check:
    """How far this machine's clock is from the database's, in seconds: leases and due dates are the database's."""
    level: Level = "ok" if skew < 2 else "warn" if skew < 30 else "fail"
    said = phrase("doctor.clock_skew", skew=duration(round(skew, 1)))
    return Check(level, "clock", said, phrase("doctor.fix_clock"))


def queue_table_check(queue: Any) -> list[Check]:
    public = [role for role in (queue.writers if queue else []) if role in ("public", "anon", "authenticated")]
    if queue is None or not public or queue.rls:
        return []
    said = phrase("doctor.queue_table_public", roles=", ".join(public))
    return [Check("warn", "agent_messages", said, phrase("doctor.fix_queue_table"))]


def heartbeats_check(state: Any) -> list[Check]:
    if state is None:
        return []
    if state.rls:
        writers = ", ".join(state.writers) or phrase("doctor.owner_only")
        detail = phrase("doctor.rls_on", policies=", ".join(state.policies) or "-", writers=writers)
        return [Check("ok", "bot_heartbeats", detail)]
    writers = ", ".join(state.writers) or phrase("doctor.nobody_but_owner")
    return [Check("warn", "bot_heartbeats", phrase("doctor.rls_off", writers=writers))]


def _claude(settings: Settings) -> Check:
    words = shlex.split(settings.agent_cmd)
    found = shutil.which(words[0]) if words else None
    if found is None:
        # A path names one file; only a bare name is looked for on PATH.
        named = words[0] if words else settings.agent_cmd
        missing = phrase("doctor.not_a_program" if "/" in named else "doctor.not_on_path", program=named)
        return Check("fail", "claude", missing, phrase("doctor.fix_install_claude"))
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
        return Check("fail", "claude", phrase("doctor.no_version_answer", program=found, error=type(exc).__name__))
    version = (done.stdout.strip() or done.stderr.strip()).splitlines()
    fix = phrase("doctor.fix_agent_cmd")
    asked = shlex.join([found, *words[1:], "--version"])  # as it ran: `python3 -c pass --version`, not `python3`
    if done.returncode != 0:
        return Check("fail", "claude", phrase("doctor.version_exited", asked=asked, code=done.returncode), fix)
    if not version:
        return Check("fail", "claude", phrase("doctor.version_silent", asked=asked), fix)
    if "Claude Code" not in version[0]:  # `/bin/true` answers too: an answer is not yet Claude Code's
        return Check("warn", "claude", phrase("doctor.not_claude", program=found, answer=version[0]), fix)
    return Check("ok", "claude", f"{found}, {version[0]}")


def _hooks(settings: Settings) -> list[Check]:

    path = settings.claude_settings
    try:
        current = settings_file.load(path)
    except settings_file.BadSettingsFile as exc:
        said = phrase("doctor.bad_settings_file", path=path, detail=exc.detail)
        return [Check("fail", "hooks", said, phrase("doctor.fix_repair", path=path))]
    checks = []
    if settings_file.installed(current):
        checks.append(Check("ok", "hooks", phrase("doctor.hooks_installed", path=path)))
    else:
        checks.append(Check("warn", "hooks", phrase("doctor.hooks_missing", path=path), "taak hooks install"))
    dead = settings_file.dead_hooks(current)
    if dead:
        shown = "; ".join(f"{d.event}: {d.missing}" for d in dead)
        checks.append(Check("fail", "dead_hooks", shown, "taak hooks check --fix"))
    else:
        checks.append(Check("ok", "dead_hooks", phrase("doctor.hooks_alive")))
    old = settings_file.old_hooks(current)
    if old:
        shown = "; ".join(f"{h.event}: {h.command} ({h.reason(settings.language)})" for h in old)
        checks.append(Check("fail", "old_hooks", phrase("doctor.second_path", hooks=shown), "taak hooks check --fix"))
    else:
        checks.append(Check("ok", "old_hooks", phrase("doctor.no_old_hooks")))
    return checks


# The Node worker this project replaces; it reads agent_messages too, so with it running a message for a bot
# that is switched on here would be handled twice.
OLD_WORKER_MARK = "queue-worker.js"


def _old_queue_worker(settings: Settings) -> Check:

    old = [(pid, args) for pid, args in running_commands() if OLD_WORKER_MARK in args and pid != os.getpid()]
    if not old:
        return Check("ok", "old_queue_worker", phrase("doctor.no_old_worker", program=OLD_WORKER_MARK))
    pid, args = old[0]
    bots = ", ".join(settings.bots) or phrase("doctor.this_machines_bots")
    said = phrase("doctor.old_worker", program=OLD_WORKER_MARK, pid=pid, command=args[:80], bots=bots)
    return Check("warn", "old_queue_worker", said, phrase("doctor.fix_old_worker", pid=pid))


def _transcripts() -> Check:
    folder = Path.home() / ".claude" / "projects"
    if folder.is_dir():
        projects = sum(1 for _ in folder.iterdir())
        return Check("ok", "transcripts", phrase("doctor.transcripts_found", folder=folder, n=projects))
    return Check(
        "warn", "transcripts", phrase("doctor.no_transcripts", folder=folder), phrase("doctor.fix_transcripts")
    )


def _semantic(settings: Settings) -> Check:

    if not settings.semantic:
        return Check("ok", "semantic_search", phrase("doctor.semantic_off"))
    if not semantic.installed():
        fix = phrase("doctor.fix_semantic", command=semantic.install_command())
        return Check("warn", "semantic_search", phrase("doctor.semantic_missing"), fix)

    layout = Layout(settings.data_dir)
    if not layout.vectors.exists():
        return Check("ok", "semantic_search", phrase("doctor.semantic_no_vectors"))
    if not layout.vectors.is_file():
        where = shlex.quote(str(layout.vectors))
        return Check(
            "warn",
            "semantic_search",
            phrase("doctor.vectors_not_a_file", path=layout.vectors),
            f"mv {where} {shlex.quote(str(layout.vectors) + '.kapot')} && taak archief vectoren",
        )
    vectors = semantic.Vectors(layout.vectors, layout.index)
    try:
        made = vectors.count()
    except Exception as error:  # whatever apsw or sqlite-vec raise about a damaged file: reported, not fatal
        said = phrase("doctor.vectors_unreadable", path=layout.vectors, error=type(error).__name__)
        return Check("warn", "semantic_search", said, "taak archief herbouw && taak archief vectoren")
    finally:
        vectors.close()
    return Check("ok", "semantic_search", phrase("doctor.semantic_vectors", n=made))


def _archive(settings: Settings) -> Check:
    """Lines of the lossless archive that could not be read were skipped: say how many and where."""
    blocked = [path for path in default_sources() if not path.is_file() or not os.access(path, os.R_OK)]
    if blocked:  # every update skips them: their lines never reach the archive
        shown = ", ".join(map(str, blocked[:3])) + (" ..." if len(blocked) > 3 else "")
        return Check("warn", "archive", phrase("doctor.transcripts_unreadable", n=len(blocked), paths=shown))
    state = Layout(settings.data_dir).archive / ".import.sqlite"
    if not state.is_file():
        return Check("ok", "archive", phrase("doctor.nothing_archived"))
    rows = _skipped_lines(state)
    if not rows:
        return Check("ok", "archive", phrase("doctor.archive_readable"))
    said = [f"{where} ({unreadable_reason(why, settings.language)})" for where, why in rows[:3]]
    shown = "; ".join(said) + (" ..." if len(rows) > 3 else "")
    return Check("warn", "archive", phrase("doctor.lines_skipped", n=len(rows), lines=shown))


def _sessions(settings: Settings) -> Check:
    """How much the session folders hold beside the archive: those of finished tasks go after TAAK_SESSIONS_DAYS
    quiet days (the daemon prunes them once the archive has every line), the archive stays whole."""
    layout = Layout(settings.data_dir)
    sessions, folders = folder_size(layout.sessions)
    archive, _ = folder_size(layout.archive)
    said = phrase(
        "doctor.sessions_size",
        size=_size(sessions),
        n=folders,
        folder=layout.sessions,
        days=settings.sessions_days,
        archive=_size(archive),
    )
    return Check("ok", "sessions", said)


def _size(size: int) -> str:
    """A folder's size as a person reads it: `48 kB`, `1.2 MB`, `3.4 GB` (50 kB said as 0.0 MB looked empty)."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{-(-size // 1000)} kB"


def _skipped_lines(state: Path) -> list[tuple[str, str]]:
    """Where each unreadable line was, and why, the first ones first (none when the state cannot be read)."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{state}?mode=ro", uri=True)) as db:
            return db.execute("select waar, reden from onleesbaar order by rowid").fetchall()
    except sqlite3.Error:
        return []


def _registry(settings: Settings) -> Check:
    path = settings.registry_path
    if not path.is_file():
        return Check("warn", "registry", phrase("doctor.registry_missing", path=path), phrase("doctor.fix_registry"))
    seconds = time.time() - path.stat().st_mtime
    if seconds > 2 * settings.registry_seconds + 60:
        said = phrase("doctor.registry_old", path=path, age=duration(seconds))
        return Check("warn", "registry", said, phrase("doctor.fix_registry_old"))
    return Check("ok", "registry", phrase("doctor.registry_fresh", path=path, age=duration(seconds)))
