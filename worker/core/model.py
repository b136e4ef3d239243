"""The domain: statuses, log kinds, limits and the checks of typed values (a task and its log rows as records:
worker/core/rows.py). Values only, no I/O."""

from __future__ import annotations

import re
import unicodedata
from datetime import date
from enum import StrEnum

from worker.core.errors import InvalidInput
from worker.core.terminal import is_blank


class Status(StrEnum):
    WACHTEND = "wachtend"
    BEZIG = "bezig"
    WACHT_OP_MENS = "wacht_op_mens"
    KLAAR = "klaar"
    MISLUKT = "mislukt"
    GEANNULEERD = "geannuleerd"  # the owner cancelled it (`taak annuleer`): neither done nor failed


class Soort(StrEnum):
    GESTART = "gestart"
    STAP_KLAAR = "stap_klaar"
    GEBLOKKEERD = "geblokkeerd"
    VRAAG = "vraag"
    ANTWOORD = "antwoord"
    BEWIJS = "bewijs"
    KLAAR = "klaar"
    FOUT = "fout"
    COMPACT = "compact"
    NOTITIE = "notitie"
    VRIJGEGEVEN = "vrijgegeven"
    VERLOPEN = "verlopen"


class Lease(StrEnum):
    """Where a running session's lease stands at a check."""

    HELD = "held"
    CLOSED_BY_SESSION = "closed_by_session"  # taak klaar / blokkeer / vrijgeven by the session itself
    LOST = "lost"  # the reaper took it back, or another worker holds it now
    GEANNULEERD = "geannuleerd"  # the owner cancelled the task while its session ran
    TERUGGENOMEN = "teruggenomen"  # the owner took the lease back (`taak vrijgeven` without the token)


# A session stops before its lease can end at the database. Since the last time the daemon confirmed the lease
# (the claim, an extension; on the lease clock, worker/proc.lease_clock): past EXTEND_SHARE of the lease the daemon
# extends it for a live session, active or not; past DAEMON_STOP_SHARE the daemon stops the session itself (an
# outage kept it from confirming); past LAUNCHER_STOP_SHARE the session's launcher, outside the daemon, kills it
# (a frozen daemon stops nothing). The rest of the lease is the margin for the kill and for clocks.
EXTEND_SHARE = 0.5
DAEMON_STOP_SHARE = 0.75
LAUNCHER_STOP_SHARE = 0.85

# Kinds a session may log with its token. The others are written by the operation that makes
# the change they record (claim, klaar, vrijgeven, the reaper), so a log row never lies.
SESSION_KINDS = frozenset(
    {Soort.STAP_KLAAR, Soort.GEBLOKKEERD, Soort.VRAAG, Soort.BEWIJS, Soort.FOUT, Soort.COMPACT, Soort.NOTITIE}
)
# Kinds anyone may log without a token: the owner at a terminal.
OWNER_KINDS = frozenset({Soort.NOTITIE, Soort.ANTWOORD})

OPDRACHT_MAX_CHARS = 8000
# The other texts of a new task: a title is short (the one made from the opdracht's first line has 120
# characters at most), and what done means and the context's facts are whole in the briefing (2,000 a field).
TITEL_MAX_CHARS = 120
KLAAR_WANNEER_MAX_CHARS = 2000
VOLGENDE_STAP_MAX_CHARS = 2000  # the briefing's "first action now": whole, like the fields above
CONTEXT_MAX_CHARS = 2000
# Every other text (a log line, evidence, a question, an answer, a reason): room for a pasted test output, not
# for a file; the file goes in as a path. The daemon's socket takes a request of this size however it is escaped.
TEXT_MAX_CHARS = 100_000
TASK_ID = re.compile(r"^HV-[0-9]{4}(0[1-9]|1[0-2])(0[1-9]|[12][0-9]|3[01])-[0-9]{3,}$")
TASK_ID_IN_TEXT = re.compile(r"\bHV-\d{8}-\d{3,}\b")
BOT_NAME = re.compile(r"^[a-z0-9_.-]+$")
# A bot's and a machine's name become file names and are shown in every list: room to spare under 255 bytes.
NAME_MAX_CHARS = 64
# Postgres' integer: a number beyond it is refused where it is typed or set, not by the database.
INT_MIN, INT_MAX = -(2**31), 2**31 - 1
# A task in one of these is finished for good: nobody works on it again.
FINAL = frozenset({Status.KLAAR, Status.MISLUKT, Status.GEANNULEERD})


def bot_name(name: str) -> str:
    """One spelling of a bot, as the database keeps it (taak_botnaam): trimmed, lower case."""
    return name.strip(" \t\r\n").lower()


def is_bot_name(name: str) -> bool:
    """A name in its one spelling that may be a bot's, on every way in as in TAAK_BOTS: letters, digits and
    _ . -, a letter or a digit first (never `..`: it becomes a file name), at most NAME_MAX_CHARS."""
    return bool(BOT_NAME.match(name)) and name[0].isalnum() and len(name) <= NAME_MAX_CHARS


# A word that implies a skill has 3 characters at least: a single letter began half the words of a task (`b` made
# "Bewerk de foto" need the skill), and two are as bad.
SKILL_WORD_MIN_CHARS = 3


def word_form(word: str) -> str:
    """A word in the form a skill's words are kept and a task's text is matched in (taak_nieuw): NFKC and lower case,
    so that `ｆｏｔｏ` is foto and an é typed as e and an accent is é."""
    return unicodedata.normalize("NFKC", word).lower()


def skill_words(text: str) -> tuple[str, ...]:
    """`foto, Video,scherm` as the words that imply a skill (`taak vaardigheid SKILL --woorden`): each trimmed and in
    word_form, once, in the order given; `geen` alone: none. A word may be letters and digits only (is_skill_word),
    as the database splits a task's text into words (taak_nieuw): the caller refuses any other."""
    if word_form(text.strip()) in ("geen", "none"):
        return ()
    words = [word_form(part.strip()) for part in text.split(",")]
    return tuple(dict.fromkeys(words))


def is_skill_word(word: str) -> bool:
    return word.isalnum() and SKILL_WORD_MIN_CHARS <= len(word) <= NAME_MAX_CHARS


def shown_name(name: str) -> str:
    """A name as an error line shows it: one longer than a name can be is cut (a paste never fills the screen)."""
    return name if len(name) <= NAME_MAX_CHARS else name[:NAME_MAX_CHARS] + "…"


def is_task_id(text: str) -> bool:
    """HV-YYYYMMDD-NNN with a date the calendar has: HV-20260230-001 is no ID, not an unknown one."""
    if not TASK_ID.match(text):
        return False
    try:
        date(int(text[3:7]), int(text[7:9]), int(text[9:11]))
    except ValueError:  # the 30th of February, the 31st of April, year 0
        return False
    return True


# The checks of typed values a command makes before it asks anyone (a local search too): no database driver here.


def check_text(value: str, what: str, *, max_chars: int | None = None, required: bool = True) -> str:
    """Refuse what Postgres would refuse less clearly: NUL bytes, blank required text, overlong text (every text
    has a limit, TEXT_MAX_CHARS unless it has its own). A blank text that may be left out counts as left out: it
    comes back empty, never as the invisible characters."""
    if "\x00" in value:
        raise InvalidInput("nul_byte", what=what)
    if is_blank(value):
        if required:
            raise InvalidInput("empty", what=what)
        return ""
    limit = TEXT_MAX_CHARS if max_chars is None else max_chars
    if len(value) > limit:
        raise InvalidInput("too_long", what=what, length=len(value), limit=limit)
    return value


def check_task_id(task_id: str) -> str:
    if not is_task_id(task_id):
        raise InvalidInput("bad_id", value=task_id)
    return task_id


def check_bot_name(name: str) -> str:
    """The one spelling of a bot (`Paco ` is paco); an empty name, or one TAAK_BOTS would refuse, is refused."""
    normal = bot_name(name)
    if not normal:
        raise InvalidInput("empty_bot")
    if not is_bot_name(normal):
        raise InvalidInput("bad_bot_name", value=shown_name(name), limit=NAME_MAX_CHARS)
    return normal
