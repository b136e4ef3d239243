""" "Where are we now" (LLL): topics the human opens and closes; the model only reads them, every turn.

Kept as an append-only JSONL file of events in the data folder, so that the prompt hook can read it
without the database or the settings class. Rendering is a pure function of the events and the time."""

from __future__ import annotations

import json
import os
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from worker.core.catalogue import message
from worker.core.folders import loads, make_folder
from worker.core.terminal import one_line

if TYPE_CHECKING:
    from zoneinfo import ZoneInfo

READ_TAIL_BYTES = 262_144
MAX_OPEN = 20
MAX_CHARS = 1500
RECENTLY_CLOSED = timedelta(hours=24)


class Event(NamedTuple):  # no dataclass: the prompt hook loads this module on every turn
    ts: datetime
    soort: str  # "open" or "klaar"
    onderwerp: str


def lll_path(data_dir: Path) -> Path:
    return data_dir / "lll.jsonl"


def append(path: Path, soort: str, onderwerp: str, now: datetime) -> None:
    make_folder(path.parent)
    line = json.dumps({"ts": now.isoformat(), "soort": soort, "onderwerp": onderwerp}, ensure_ascii=False)
    with path.open("a+b") as handle:  # one write per event: appends do not interleave
        # A line cut short (a write that died half-way) would swallow this one: it starts on its own line.
        cut_short = handle.seek(0, os.SEEK_END) > 0 and os.pread(handle.fileno(), 1, handle.tell() - 1) != b"\n"
        handle.write(("\n" if cut_short else "").encode() + line.encode("utf-8") + b"\n")


def load(path: Path, *, quiet: bool = True) -> list[Event]:
    """The events at the end of the file. `quiet`: a file that cannot be read is no events (the prompt hook
    never breaks a turn); the owner's own command says it (`quiet=False`: the OSError goes up)."""
    try:
        with path.open("rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            handle.seek(max(0, size - READ_TAIL_BYTES))
            raw = handle.read()
    except FileNotFoundError:
        return []
    except OSError:
        if quiet:
            return []
        raise
    from worker.core.transcript import jsonl_lines  # start-up: only when there is a file to read

    events = []
    for line in jsonl_lines(raw.decode("utf-8", errors="replace")):
        try:
            data = loads(line)
            ts = datetime.fromisoformat(data["ts"])
            if ts.tzinfo is None:  # a time without its zone cannot be placed: skipped like a broken line
                continue
            events.append(Event(ts, data["soort"], data["onderwerp"]))
        except (ValueError, KeyError, TypeError):
            continue  # the first line of a tail read may be cut
    return events


def open_topics(events: list[Event]) -> dict[str, Event]:
    """The topics that are open now, by their lower-cased name, with the event that opened them."""
    topics: dict[str, Event] = {}
    for event in events:
        key = event.onderwerp.strip().lower()
        if event.soort == "open":
            topics.setdefault(key, event)
        elif event.soort == "klaar":
            topics.pop(key, None)
    return topics


def render(events: list[Event], now: datetime, zone: ZoneInfo, language: str = "nl") -> str:
    """The current state in a few lines: open topics (oldest first) and what was closed in the last day."""
    topics = sorted(open_topics(events).values(), key=lambda e: e.ts)
    closed = [e for e in events if e.soort == "klaar" and now - e.ts <= RECENTLY_CLOSED]
    if not topics and not closed:
        return ""
    text = "\n".join(_lines(topics, closed, now, zone, "en" if language == "en" else "nl"))
    return text if len(text) <= MAX_CHARS else text[: MAX_CHARS - 2].rsplit("\n", 1)[0] + "\n…"


def _lines(topics: list[Event], closed: list[Event], now: datetime, zone: ZoneInfo, language: str) -> list[str]:
    from worker.core.table import month_names, stamp  # start-up: only when there is something to say

    months = month_names(language)

    def said(key: str, event: Event) -> str:  # one topic, one line: a line break must not print another topic
        when = stamp(event.ts, now, zone, months, always_date=True)  # the one local time format of lists and logs
        return message(key, language, topic=one_line(event.onderwerp), when=when)

    more = [message("lll.more", language, n=len(topics) - MAX_OPEN)] if len(topics) > MAX_OPEN else []
    return [
        message("lll.header", language),
        *(said("lll.open", event) for event in topics[-MAX_OPEN:]),
        *more,
        *(said("lll.closed", event) for event in closed[-5:]),
    ]
