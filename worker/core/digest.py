"""The digest as the owner reads it on the phone, from the facts the daemon read: what waits for the owner, what
failed, what is due, what waits for a skill no switched-on bot has (once each), what finished, which bots are braked,
and each bot's day. Every line about a task starts with its ID, so that a reply can name it. Empty sections are left
out; with nothing to say the digest is one line."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from functools import partial
from zoneinfo import ZoneInfo

from worker.core.catalogue import message
from worker.core.table import age, dollars, month_names, stamp
from worker.core.terminal import clip, one_line

# A question is said whole (the owner answers it from this message), but a phone screen is not a log: a line of a
# title or evidence is cut.
LINE_CAP = 160
QUESTION_CAP = 1000


@dataclass(frozen=True)
class Waiting:
    id: str
    titel: str
    bot: str
    vraag: str
    gevraagd: datetime
    boven_grens: bool


@dataclass(frozen=True)
class Closed:
    id: str
    titel: str
    status: str  # klaar or mislukt
    bewijs: str | None
    pogingen: int
    max_pogingen: int
    bot: str


@dataclass(frozen=True)
class Due:
    id: str
    titel: str
    status: str
    uiterlijk: datetime


@dataclass(frozen=True)
class Unserved:
    """A task for anyone that waits for a skill no switched-on bot has: said in one digest (its message's)."""

    id: str
    titel: str
    nodig: str


@dataclass(frozen=True)
class BotToday:
    bot: str
    sessies_vandaag: int
    klaar_vandaag: int
    kosten_vandaag: Decimal
    geremd: bool
    dringend_vandaag: int


@dataclass(frozen=True)
class DigestFacts:
    slot: datetime
    now: datetime
    late: bool
    waiting: list[Waiting]
    closed: list[Closed]
    due: list[Due]
    bots: list[BotToday]
    urgent_limit: int
    unserved: list[Unserved] = field(default_factory=list)


Say = Callable[..., str]


def render_digest(facts: DigestFacts, zone: ZoneInfo, language: str) -> str:
    say: Say = partial(message, language=language)
    months = month_names(language)

    def moment(at: datetime) -> str:
        return stamp(at, facts.now, zone, months)

    late = " " + say("digest.late", sent=moment(facts.now)) if facts.late else ""
    said = [section for section in _sections(facts, language, say, moment) if section]
    if not said:
        return say("digest.empty", time=moment(facts.slot)) + late
    return "\n\n".join([say("digest.title", time=moment(facts.slot)) + late, *said])


def _sections(facts: DigestFacts, language: str, say: Say, moment: Callable[[datetime], str]) -> list[str]:
    """Each section in its order, empty when it has nothing to say: the tasks', then the bots'."""
    failed = [c for c in facts.closed if c.status == "mislukt"]
    finished = [c for c in facts.closed if c.status == "klaar"]
    return [
        _section(
            say("digest.waiting", n=len(facts.waiting)), [_waiting(w, facts, language, say) for w in facts.waiting]
        ),
        _section(say("digest.failed", n=len(failed)), [_failed(c, say) for c in failed]),
        _section(say("digest.due", n=len(facts.due)), [_due(d, say, moment) for d in facts.due]),
        _section(say("digest.unserved", n=len(facts.unserved)), _unserved(facts.unserved, say)),
        _section(say("digest.finished", n=len(finished)), [_finished(c, say) for c in finished]),
        *_bot_sections(facts, say),
    ]


def _bot_sections(facts: DigestFacts, say: Say) -> list[str]:
    braked = ", ".join(b.bot for b in facts.bots if b.geremd)
    busy = [b for b in facts.bots if b.sessies_vandaag or b.klaar_vandaag or b.kosten_vandaag or b.dringend_vandaag]
    return [
        say("digest.braked", bots=braked) if braked else "",
        _section(say("digest.bots"), [_bot_day(b, facts.urgent_limit, say) for b in busy]),
    ]


def _due(d: Due, say: Say, moment: Callable[[datetime], str]) -> str:
    return say("digest.due_line", id=d.id, title=_cut(d.titel), when=moment(d.uiterlijk), status=d.status)


def _unserved(unserved: list[Unserved], say: Say) -> list[str]:
    """A task alone for its skill on a line of its own; the tasks of a skill that has more on one line (fifty tasks
    that need tekst were fifty lines)."""
    per_skill: dict[str, list[Unserved]] = {}
    for u in unserved:
        per_skill.setdefault(u.nodig, []).append(u)
    return [
        say("digest.unserved_line", id=tasks[0].id, skill=skill, title=_cut(tasks[0].titel))
        if len(tasks) == 1
        else say("digest.unserved_many", n=len(tasks), skill=skill, ids=some_ids([t.id for t in tasks]))
        for skill, tasks in per_skill.items()
    ]


IDS_SHOWN = 5  # of many tasks told of at once, the IDs named; the rest counted


def some_ids(ids: list[str]) -> str:
    """`HV-1, HV-2, HV-3`, or the first IDS_SHOWN of more and how many more: `HV-1, ..., HV-5 (+45)`."""
    more = len(ids) - IDS_SHOWN
    return ", ".join(ids[:IDS_SHOWN]) + (f" (+{more})" if more > 0 else "")


def _section(header: str, lines: list[str]) -> str:
    return "\n".join([header, *lines]) if lines else ""


def _cut(text: str) -> str:
    return clip(one_line(text), LINE_CAP, "…")


def _waiting(w: Waiting, facts: DigestFacts, language: str, say: Say) -> str:
    line = say(
        "digest.waiting_line",
        id=w.id,
        bot=w.bot,
        waited=age((facts.now - w.gevraagd).total_seconds(), language),
        question=clip(w.vraag.strip(), QUESTION_CAP, "…"),
    )
    return line + (" " + say("digest.over_limit", limit=facts.urgent_limit) if w.boven_grens else "")


def _failed(c: Closed, say: Say) -> str:
    return say("digest.failed_line", id=c.id, bot=c.bot, title=_cut(c.titel), attempts=c.pogingen, of=c.max_pogingen)


def _finished(c: Closed, say: Say) -> str:
    evidence = _cut(c.bewijs) if c.bewijs and c.bewijs.strip() else say("digest.no_evidence")
    return say("digest.finished_line", id=c.id, bot=c.bot, title=_cut(c.titel), evidence=evidence)


def _bot_day(b: BotToday, urgent_limit: int, say: Say) -> str:
    line = say(
        "digest.bot_line",
        bot=b.bot,
        sessions=b.sessies_vandaag,
        finished=b.klaar_vandaag,
        cost=dollars(b.kosten_vandaag),
    )
    if b.dringend_vandaag:
        line += say("digest.bot_urgent", n=b.dringend_vandaag, limit=urgent_limit)
    return line
