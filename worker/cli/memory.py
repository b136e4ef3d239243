"""The verbs of the lossless memory: recall, archief, lll ("where are we now")."""

from __future__ import annotations

import argparse
import os
from datetime import UTC, datetime
from errno import EISDIR
from pathlib import Path
from typing import TYPE_CHECKING, Any

from worker.cli import args as a
from worker.core.errors import ExitCode, InvalidInput, NotFound, Refused
from worker.core.model import check_bot_name, check_task_id, check_text
from worker.core.phrases import OsReason, phrase
from worker.core.row_phrases import said_row
from worker.core.terminal import one_line

if TYPE_CHECKING:  # the parsers are read by the in-session client, which loads no settings class
    from worker.hooks.place import HookPlace
    from worker.settings import Settings


async def recall(args: argparse.Namespace, settings: Settings) -> int:
    if not (args.taken or args.vloot):
        return recall_here(args, settings)
    limit, query = _checked(args, settings)
    search = _recall_taken if args.taken else _recall_fleet
    return _said(await search(query, limit, args, settings), args, settings)


def recall_here(args: argparse.Namespace, settings: Settings | HookPlace) -> int:
    """This machine's archive: no event loop and no database, so that `taak recall` can run on the few settings
    read without the settings class (worker/cli/taak.py)."""
    limit, query = _checked(args, settings)
    return _said(_recall_archive(query, limit, args, settings), args, settings)


def _checked(args: argparse.Namespace, settings: Settings | HookPlace) -> tuple[int, str]:
    limit = a.positive(args.limiet, "--limiet")
    query = _checked_query(a.joined(args.words), settings)
    if args.bot is not None:
        args.bot = check_bot_name(args.bot)  # `--bot Paco` is paco, as on every other way in
    if args.taak is not None:
        check_task_id(args.taak)
    _check_combination(args)
    return limit, query


def _check_combination(args: argparse.Namespace) -> None:
    if args.vloot and (args.taken or args.uitvoer):
        raise InvalidInput("fleet_combination", option="--taken" if args.taken else "--uitvoer")
    if (args.taken or args.vloot) and os.environ.get("TAAK_SOCKET"):
        # A queue session holds no database access (design section 12): an answer from any other database,
        # the embedded one of a data folder for instance, would be wrong without saying so.
        raise Refused("recall_needs_database", option="--taken" if args.taken else "--vloot")


def _said(result: Any, args: argparse.Namespace, settings: Settings | HookPlace) -> int:
    from worker.memory.recall import as_json, render  # start-up: the archive, for the memory verbs

    language = settings.language
    print(as_json(result, settings.zone, language) if args.json else render(result, settings.zone, language=language))
    return ExitCode.OK


def _recall_archive(query: str, limit: int, args: argparse.Namespace, settings: Settings | HookPlace) -> Any:
    """This machine's archive: its word index, and its vectors when the semantic extra is on."""
    from worker.memory.index import Index  # start-up: the archive, for the memory verbs
    from worker.memory.layout import Layout, open_vectors  # start-up: the archive, for the memory verbs
    from worker.memory.recall import NOT_INSTALLED, SWITCHED_OFF  # start-up: the archive, for the memory verbs
    from worker.memory.recall import recall as search  # start-up: the archive, for the memory verbs

    layout = Layout(settings.data_dir)
    index = Index(layout.index)
    vectors = open_vectors(layout, helper_idle_seconds=settings.embed_idle_seconds) if settings.semantic else None
    try:
        result = search(
            index,
            query,
            datetime.now(UTC),
            settings.zone,
            limit=limit,
            taak=args.taak,
            actor=args.bot,
            vectors=vectors,
            why_no_vectors=NOT_INSTALLED if settings.semantic else SWITCHED_OFF,
            language=settings.language,
            outputs=args.uitvoer,
        )
        if not result.hits:
            _unknown_filter(index, args)
        if index.db.execute("select not exists (select 1 from regels)").fetchone()[0]:
            # deleted or a rebuild cut short; else a new machine, or one whose daemon has not run its indexer yet
            deleted = any(layout.archive.glob("*/*.jsonl"))
            result.notes.append(phrase("recall_index_empty" if deleted else "recall_archive_empty"))
    finally:
        index.close()
        if vectors is not None:
            vectors.close()
    return result


def _unknown_filter(index: Any, args: argparse.Namespace) -> None:
    """Nothing found: a name or a task no line of a filled archive has is most likely a typo, said with the names
    there are."""
    from worker.memory.recall import actors, has_actor, has_task  # start-up: the archive, for the memory verbs

    if args.bot is not None and not has_actor(index, args.bot) and (known := actors(index)):
        raise Refused("unknown_actor", value=args.bot, known=", ".join(known))
    if args.taak is not None and not has_task(index, args.taak):
        raise NotFound("no_task_lines", id=args.taak)


QUERY_MAX_CHARS = 1000  # a question, not a document: a 5,000-word query made a 139 KB header


def _checked_query(query: str, settings: Settings | HookPlace) -> str:
    """A question recall can answer: not too long, and with a time phrase or a word that is searched."""
    from worker.core.timephrase import parse_time, search_words  # start-up: only for the verbs that use it
    from worker.memory.index import terms  # start-up: as above

    check_text(query, "QUERY", max_chars=QUERY_MAX_CHARS)
    parsed = parse_time(query, datetime.now(UTC), settings.zone, settings.language)
    # A word is what the index searches: `!!!` is none (it was searched, found nothing, and said all was well).
    if parsed.range is None and not terms(" ".join(search_words(parsed.words))):
        raise InvalidInput("nothing_to_search", query=query)
    return query


async def _recall_taken(query: str, limit: int, args: argparse.Namespace, settings: Settings) -> Any:
    """The same time-first search over agent_taak_log: the range from the time phrase, then the words."""
    # start-up: only for the verbs that use it
    from worker.core.timephrase import database_bounds, parse_time, search_words
    from worker.db import recall as log  # start-up: asyncpg, for the verbs that use the database
    from worker.memory.recall import COUNT_BOUND, Recall, ranked  # start-up: the archive, for the memory verbs

    now = datetime.now(UTC)
    parsed = parse_time(query, now, settings.zone, settings.language)
    start, end = database_bounds(parsed.range, now)
    words = list(dict.fromkeys(w.lower() for w in search_words(parsed.words)))  # ilike folds case: one count a word
    patterns = ["%" + w.replace("%", r"\%").replace("_", r"\_") + "%" for w in words]
    bound = limit + COUNT_BOUND
    async with a.store(settings) as store:
        rows = await log.search(store.db, start, end, patterns, args.bot, args.taak, limit)
        # '%' first: the lines in the range, counted by the same statement as the words.
        in_range, *counts = await log.counts(store.db, start, end, ["%", *patterns], args.bot, args.taak, bound)
        if not rows:
            await _unknown_in_log(store, args)
    # found with the matching and newest rows first
    hits = ranked([_log_hit(r, matching=bool(words), as_stored=args.json, language=settings.language) for r in rows])
    hits.sort(key=lambda h: h.ts)
    per_word = dict(zip(words, counts, strict=True))
    fallback = phrase("recall_task_log", step=phrase("recall_none"))
    in_range_too = parsed.range is not None
    return Recall(
        now, parsed.range, fallback, hits, in_range, per_word=per_word, bound=bound, words_in_range=in_range_too
    )


async def _unknown_in_log(store: Any, args: argparse.Namespace) -> None:
    """Nothing found: a task the ledger lacks is exit 3, as `taak toon`; a name no line of the log has is a typo."""
    from worker.db import bots  # start-up: asyncpg, for the verbs that use the database
    from worker.db import recall as log  # start-up: asyncpg, for the verbs that use the database

    if args.taak is not None:
        await store.tasks.toon(args.taak)
    if args.bot is not None and not await log.name_known(store.db, args.bot):
        known = ", ".join(b.bot for b in await bots.all_bots(store.db)) or "-"
        raise Refused("unknown_log_name", value=args.bot, known=known)


def _log_hit(r: Any, *, matching: bool, as_stored: bool, language: str) -> Any:
    from worker.db.ledger import json_object  # start-up: asyncpg, for the verbs that use the database
    from worker.memory.recall import Hit  # start-up: the archive, for the memory verbs

    # The system's own rows in the reader's language, as `taak toon` says them; --json as stored.
    text = r["tekst"] if as_stored else said_row(r["tekst"], json_object(r["meta"]), language)
    ts, matched = int(r["ts"].timestamp() * 1000), matching and r["treffers"] > 0
    return Hit(r["id"], ts, r["actor"], "log", r["soort"], text, r["sessie"], r["taak_id"], matched=matched)


async def _recall_fleet(query: str, limit: int, args: argparse.Namespace, settings: Settings) -> Any:
    from worker.db import recall as log  # start-up: asyncpg, for the verbs that use the database
    from worker.memory import fleet  # start-up: the archive, for the memory verbs

    async with a.store(settings) as store:
        found = await fleet.recall(
            store.conn,
            query,
            datetime.now(UTC),
            settings.zone,
            limit=limit,
            language=settings.language,
            actor=args.bot,
            taak=args.taak,
            keep_days=settings.fleet_days,
        )
        if args.taak is not None and not found.hits:
            await store.tasks.toon(args.taak)  # nothing found for a task the ledger lacks: exit 3, as `taak toon`
        if not found.hits and await log.fleet_empty(store.db):  # "found nowhere" searched nothing
            found.notes.append(phrase("recall_fleet_empty"))
        return found


async def fleet_again(args: argparse.Namespace, settings: Settings) -> int:
    """The shared copy of this machine's archive, rebuilt from its day files (the source of truth)."""
    from worker.memory.fleet import forget_machine  # start-up: the archive, for the memory verbs
    from worker.memory.layout import Layout  # start-up: the archive, for the memory verbs

    async with a.store_for_a_change(settings) as store:
        removed = await forget_machine(store.db, Layout(settings.data_dir).index, settings.machine)
        print(a.said(settings, "fleet_again", machine=settings.machine, removed=removed))
    return ExitCode.OK


async def archief(args: argparse.Namespace, settings: Settings) -> int:
    from worker.memory.archive import bring_up_to_date  # start-up: the archive, for the memory verbs
    from worker.memory.layout import Layout  # start-up: as above

    layout = Layout(settings.data_dir)
    if args.archief_command == "vectoren":
        return _vectoren(args, settings, layout)
    # import, bijwerken and herbouw never wait for embedding: `taak archief vectoren` does it
    paths = _readable_files(getattr(args, "paths", None) or [])
    if args.archief_command == "herbouw":
        update = bring_up_to_date(layout, settings.zone, [], rebuild=True)
    elif args.archief_command == "import" and args.simple:
        update = bring_up_to_date(layout, settings.zone, [], simple=paths)
    else:
        update = bring_up_to_date(layout, settings.zone, paths or None)
    _print_update(update, args, settings)
    return ExitCode.OK


def _vectoren(args: argparse.Namespace, settings: Settings, layout: Any) -> int:
    from worker.memory import semantic  # start-up: the archive, for the memory verbs
    from worker.memory.archive import embed_new  # start-up: the archive, for the memory verbs

    # Said, not a count of nothing: "0 lines archived" answered a machine without the extra.
    if not semantic.installed():
        raise Refused("vectors_not_installed", command=semantic.install_command())
    if not settings.semantic:  # the owner's choice: nothing to do, and said so
        print(a.said(settings, "vectors_switched_off"))
        return ExitCode.OK
    _print_update(
        embed_new(layout, settings.semantic_rows, helper_idle_seconds=settings.embed_idle_seconds), args, settings
    )
    return ExitCode.OK


def _a_path(text: str) -> Path:
    """argparse's type for a file named on the command line: an empty one is no path (Path("") is the folder `.`)."""
    if not text:
        from worker.core.catalogue import message  # start-up: only when it is said
        from worker.core.language import early_language

        raise argparse.ArgumentTypeError(message("empty", early_language(), what="PATH"))
    return Path(text)


def _readable_files(paths: list[Path]) -> list[Path]:
    for path in paths:
        if path.is_dir():  # the folder's files are not read one by one: name them (`DIR/*.jsonl`)
            reason = OsReason("os", (("errno", EISDIR), ("strerror", os.strerror(EISDIR))))
            raise InvalidInput("file_error", path=path, reason=reason)
        if not path.exists():
            raise NotFound("no_file", path=path)
        if not path.is_file():  # a FIFO waits for a writer that may never come, a device never ends
            raise InvalidInput("file_error", path=path, reason=phrase("file_not_regular"))
    return paths


def _print_update(update: Any, args: argparse.Namespace, settings: Settings) -> None:
    with a.ctrl_c_after_it_is_done(settings):  # done: a Ctrl-C from here finds it done and said (exit 0)
        print(update.as_json() if args.json else update.summary(settings.language))


async def lll(args: argparse.Namespace, settings: Settings) -> int:
    from worker.memory import lll as where  # start-up: the archive, for the memory verbs

    path = where.lll_path(settings.data_dir)
    sub_word, rest = args.words[0], args.words[1:]
    # A sub-word is a whole word and never part of a topic by mistake: `lll klaar` lacks its topic, `lll toon
    # extra` is no topic (a topic that starts with one is given quoted, `taak lll "toon de foto's"`).
    if sub_word == "klaar" and not rest:
        a.fail("usage: taak lll klaar TOPIC", ExitCode.USAGE)
    if sub_word == "toon":
        if rest:
            a.fail(f"usage: taak lll toon (unexpected: {a.joined(rest)})", ExitCode.USAGE)
        events = where.load(path, quiet=False)
        print(
            where.render(events, datetime.now(UTC), settings.zone, settings.language) or a.said(settings, "lll_empty")
        )
        return ExitCode.OK
    if _written_by_a_model(settings):
        raise Refused("lll_owner_only")
    closing = sub_word == "klaar"
    _lll_change(path, a.joined(rest if closing else args.words), closing, settings)
    return ExitCode.OK


def _lll_change(path: Path, typed: str, closing: bool, settings: Settings) -> None:
    from worker.memory import lll as where  # start-up: the archive, for the memory verbs

    topic = check_text(typed, "onderwerp", max_chars=300).strip()
    opened = where.open_topics(where.load(path, quiet=False))  # by the lower-cased name: `Budget` is `budget`
    if closing and topic.lower() not in opened:
        raise NotFound("no_topic", topic=topic)
    now = datetime.now(UTC)
    with a.ctrl_c_after_it_is_done(settings):  # the change and its line, then done (exit 0), as `nieuw`
        if closing:
            named = opened[topic.lower()].onderwerp  # as it was opened, however it is typed now
            where.append(path, "klaar", named, now)
            print(a.said(settings, "lll_closed", topic=one_line(named)))
        elif topic.lower() in opened:
            print(a.said(settings, "lll_already_open", topic=one_line(opened[topic.lower()].onderwerp)))
        else:
            where.append(path, "open", topic, now)
            print(a.said(settings, "lll_opened", topic=one_line(topic)))


def _written_by_a_model(settings: Settings) -> bool:
    """The list is the owner's (the second seed): a queue session, or any command Claude Code runs (it sets
    CLAUDECODE=1 for its tools), only reads it."""
    return bool(settings.token or os.environ.get("TAAK_SOCKET") or os.environ.get("CLAUDECODE"))


COUNTS_JSON = a.flag("--json", "the counts as one JSON object")
PARSERS = {
    "recall": a.Verb(
        'search the archive, time phrase first: taak recall "last night budget"',
        "taak recall QUERY [--limiet N] [--taak ID] [--bot B] [--uitvoer] [--taken] [--vloot] [--json]",
        a.arg("words", "QUERY", "a time phrase and words (Dutch, English, Japanese)", nargs="+"),
        *a.limit(40, "at most this many lines"),
        a.arg("--taak", "ID", "only lines of this task"),
        a.arg("--bot", "B", "only lines of this bot (the task log) or actor (the archive)"),
        a.flag("--uitvoer", "search the tools' output (tool results) too"),
        a.flag("--taken", "search the task log in the database instead"),
        a.flag("--vloot", "search every machine's archive (the copy in the shared database)"),
        a.JSON,
        handler=recall,
    ),
    "archief": a.Group(
        "the lossless archive: import, bijwerken, herbouw",
        "archief_command",
        {
            "import": a.Verb(
                "import transcripts (default: ~/.claude/projects and the daemon's captures)",
                "taak archief import [PATH ...] [--simple] [--json]",
                a.arg("paths", "PATH", "transcript files (JSONL)", nargs="*", type=_a_path),
                a.flag("--simple", "the files are {ts, role, text} JSONL"),
                COUNTS_JSON,
                handler=archief,
            ),
            "bijwerken": a.Verb("import new lines and update the word index", None, COUNTS_JSON, handler=archief),
            "herbouw": a.Verb(
                "delete the indexes and rebuild them from the day files", None, COUNTS_JSON, handler=archief
            ),
            "vectoren": a.Verb(
                "embed up to TAAK_SEMANTIC_ROWS lines without a vector (the semantic extra), newest first",
                None,
                COUNTS_JSON,
                handler=archief,
            ),
            "vloot-opnieuw": a.Verb(
                "delete this machine's lines from the fleet's shared copy; the next indexer run copies them all again",
                "taak archief vloot-opnieuw",
                handler=fleet_again,
            ),
        },
    ),
    "lll": a.Verb(
        '"where are we now", kept by the owner',
        "taak lll TOPIC | taak lll klaar TOPIC | taak lll toon",
        a.arg("words", "TOPIC", "open a topic; `klaar TOPIC` closes it; `toon`", nargs="+"),
        handler=lll,
    ),
}
