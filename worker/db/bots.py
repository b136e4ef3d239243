"""The per-bot switch (`agent_bots.actief`) and the daemon's heartbeat."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from types import EllipsisType

from worker.core.catalogue import message
from worker.core.errors import InvalidInput, Refused
from worker.core.model import (
    NAME_MAX_CHARS,
    SKILL_WORD_MIN_CHARS,
    bot_name,
    is_bot_name,
    is_skill_word,
    shown_name,
    skill_words,
)
from worker.core.model import (
    check_bot_name as check_bot_name,  # its home: worker/core/model.py (no database driver there)
)
from worker.db.sqlfiles import Executor, queries


@dataclass(frozen=True)
class Bot:
    bot: str
    actief: bool
    machine: str | None
    pid: int | None
    versie: str | None
    huidige_taak: str | None
    laatst_gezien: datetime | None
    bijgewerkt: datetime
    max_sessies_per_dag: int | None = None
    max_kosten_per_dag: Decimal | None = None
    vaardigheden: list[str] = field(default_factory=list)  # what the bot is for (`taak bot kan`)


@dataclass(frozen=True)
class BotDay:
    """A bot's day against its brake: sessions started and cost since local midnight, and its limits."""

    bot: str
    actief: bool
    max_sessies: int | None
    max_kosten: Decimal | None
    sessies_vandaag: int
    kosten_vandaag: Decimal
    geremd: bool

    @property
    def may_claim(self) -> bool:
        return self.actief and not self.geremd


def brake_limits(sessions: int | None, cost: Decimal | None, language: str) -> str:
    """A brake in words: `max 50 sessies, max $5.00`, or `geen` when there is no limit."""
    parts = ([message("brake_sessions", language, n=sessions)] if sessions is not None else []) + (
        [f"max ${cost:.2f}"] if cost is not None else []
    )
    return ", ".join(parts) or message("no_brake", language)


def raise_brake_option(day: BotDay) -> str:
    """What to type to lift the brake a bot reached: every limit it reached, set higher (naming one of two left
    the bot braked after the owner typed it)."""
    options = []
    if day.max_sessies is not None and day.sessies_vandaag >= day.max_sessies:
        options.append(f"--sessies {max(1000, day.sessies_vandaag * 2)}")
    if day.max_kosten is not None and day.kosten_vandaag >= day.max_kosten:
        # Above what was spent already (a session can pass the limit before its cost is known), and a dollar at least.
        options.append(f"--kosten {max(day.max_kosten * 2, day.kosten_vandaag * 2, Decimal('1')):.2f}")
    return " ".join(options) or f"--sessies {max(1000, day.sessies_vandaag * 2)}"


async def known_bot(db: Executor, name: str, *, new: bool = False, may_be_new: bool = True) -> str:
    """A bot the fleet knows, in its one spelling. A name nobody registered is refused with the known ones
    (a typo such as `pacoo` must not quietly become a bot of its own) unless the owner says it is new; where a
    verb cannot register one (`may_be_new` false), the refusal does not offer --nieuwe-bot."""
    bot = check_bot_name(name)
    if new:
        await register(db, [bot])
        return bot
    known = [r["bot"] for r in await db.fetch(queries()["bots_lijst"])]
    if bot not in known:
        raise Refused("unknown_bot" if may_be_new else "unknown_bot_here", value=bot, known=", ".join(known) or "-")
    return bot


async def known_bots(db: Executor, names: Sequence[str], *, new: bool = False) -> list[str]:
    """Several bots as known_bot takes one; every name is checked before one is registered, so that a command
    refused for its third name has not registered the first two."""
    bots = [check_bot_name(name) for name in names]
    return [await known_bot(db, bot, new=new) for bot in bots]


async def set_active(db: Executor, bot: str, active: bool, *, new: bool = False) -> Bot:
    bot = await known_bot(db, bot, new=new)
    record = await db.fetchrow(queries()["bot_zet"], bot, active)
    assert record is not None  # an upsert always returns its row
    return Bot(**dict(record))


async def all_bots(db: Executor) -> list[Bot]:
    return [Bot(**dict(r)) for r in await db.fetch(queries()["bots_lijst"])]


async def active_bots(db: Executor, bots: Sequence[str]) -> list[str]:
    return [r["bot"] for r in await db.fetch(queries()["bots_actief"], list(bots))]


async def forget(db: Executor, bot: str) -> None:
    """A bot's switch, brake and heartbeat gone (the demo's, after it ran); its tasks and rows stay."""
    await db.execute(queries()["bot_vergeten"], bot)


async def register(db: Executor, bots: Sequence[str]) -> None:
    await db.execute(queries()["bots_aanmelden"], list(bots))


async def heartbeat(
    db: Executor, bots: Sequence[str], current: Sequence[str | None], *, machine: str, pid: int, version: str
) -> frozenset[str]:
    """Say the bots are alive; returns the skills they have now."""
    skills = await db.fetchval(queries()["hartslag"], list(bots), machine, pid, version, list(current))
    return frozenset(skills)


async def days(db: Executor, bots: Sequence[str] | None, *, usage_of_all: bool = True) -> list[BotDay]:
    """Each bot's switch and brake today (None: every bot). Without `usage_of_all` only the bots with a brake
    have their sessions and cost counted (what a claim needs, at the price of one index look-up)."""
    records = await db.fetch(queries()["bots_vandaag"], list(bots) if bots is not None else None, usage_of_all)
    return [BotDay(**dict(r)) for r in records]


async def set_brake(
    db: Executor, bot: str, *, sessions: int | EllipsisType | None = ..., cost: Decimal | EllipsisType | None = ...
) -> Bot:
    """Set a bot's limits (None: no limit; left out: as it was)."""
    bot = await known_bot(db, bot)
    record = await db.fetchrow(
        queries()["rem_zetten"],
        bot,
        sessions is not ...,
        None if sessions is ... else sessions,
        cost is not ...,
        None if cost is ... else cost,
    )
    assert record is not None  # known_bot found it
    return Bot(**dict(record))


async def tell_braked(db: Executor, bot: str, text: str) -> None:
    await db.execute(queries()["rem_melden"], bot, text)


# What a bot is for (issue 41): skills, spelled as bots are. A skill is known once `taak bot kan` gave it to a bot or
# `taak vaardigheid` named it (a row of taak_vaardigheden); a task may need only a known one.


@dataclass(frozen=True)
class Skill:
    vaardigheid: str
    woorden: list[str]
    bots: list[str]  # the bots that have it
    bots_aan: list[str]  # of those, the ones switched on


# The keyword for no skill (`taak bot kan BOT --geen`, `--woorden geen`): never a skill, never a word.
NO_SKILL = "geen"


def check_skill_name(name: str) -> str:
    """The one spelling of a skill (`Beeld ` is beeld), with a bot's rules for a name; `geen` is the keyword for
    none, never a skill."""
    normal = bot_name(name)
    if not normal:
        raise InvalidInput("empty_skill")
    if not is_bot_name(normal):
        raise InvalidInput("bad_skill_name", value=shown_name(name), limit=NAME_MAX_CHARS)
    if normal == NO_SKILL:
        raise InvalidInput("skill_named_geen")
    return normal


def check_skill_words(text: str) -> list[str]:
    """The words of `--woorden` (`geen` alone: none); a word of other characters than letters and digits, a short
    one, and `geen` among words are refused."""
    words = list(skill_words(text))
    for word in words:
        if word == NO_SKILL:
            raise InvalidInput("skill_word_geen")
        if not is_skill_word(word):
            shown = shown_name(word)
            raise InvalidInput("bad_skill_word", value=shown, least=SKILL_WORD_MIN_CHARS, limit=NAME_MAX_CHARS)
    return words


async def all_skills(db: Executor) -> list[Skill]:
    return [Skill(**dict(r)) for r in await db.fetch(queries()["vaardigheden_lijst"])]


async def known_skill(db: Executor, name: str) -> str:
    """A skill the fleet knows, in its one spelling; any other is refused with the known ones (as a bot is)."""
    skill = check_skill_name(name)
    known = [s.vaardigheid for s in await all_skills(db)]
    if skill not in known:
        raise Refused("unknown_skill", value=skill, known=", ".join(known) or "-")
    return skill


async def set_skills(db: Executor, bot: str, skills: Sequence[str]) -> list[str]:
    """What `bot` (a known bot) is for, replacing what it was; every skill named is known from now on."""
    bot = await known_bot(db, bot, may_be_new=False)
    names = list(dict.fromkeys(check_skill_name(name) for name in skills))
    found: list[str] = await db.fetchval(queries()["bot_kan"], bot, names)
    return found


async def set_words(db: Executor, skill: str, words: Sequence[str] | None) -> Skill:
    """A skill made known, with the words that imply it (None: as they were). A word belongs to one skill: one that
    another skill has is refused, naming that skill, and nothing changes (the table's key says so to any other way
    in)."""
    skill = check_skill_name(skill)
    if words:
        taken = await db.fetch(queries()["vaardigheid_woorden_bezet"], skill, list(words))
        if taken:
            pairs = ", ".join(f"{r['woord']} ({r['vaardigheid']})" for r in taken)
            raise Refused("skill_word_taken", taken=pairs, skill=taken[0]["vaardigheid"])
    await db.execute(queries()["vaardigheid_zetten"], skill, list(words) if words is not None else None)
    return next(s for s in await all_skills(db) if s.vaardigheid == skill)
