"""What happens to a task after its session ended: a pure function of what was observed.

A task failure uses an attempt (and waits with backoff, or becomes mislukt at the limit); an
infrastructure failure (no agent, not logged in, network, API overloaded or rate limited) gives
the attempt back and pauses the worker instead of burning the queue.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from enum import StrEnum

from worker.core.launch import failed_start
from worker.core.model import Lease, Status
from worker.core.phrases import Phrase, os_phrase, phrase
from worker.core.rows import Task
from worker.core.stream import Result


class Stop(StrEnum):
    """Why the daemon stopped a session before it ended by itself."""

    SILENCE = "silence"
    TOTAL = "total"
    LEASE_LOST = "lease_lost"
    GEANNULEERD = "geannuleerd"  # the owner cancelled the task
    TERUGGENOMEN = "teruggenomen"  # the owner took the lease back
    SHUTDOWN = "shutdown"
    LINGERED = "lingered"  # the session closed its own task but did not exit within the kill grace
    UNCONFIRMED = "unconfirmed"  # the lease could not be confirmed in time (an outage, a frozen daemon)


# A lease that is gone, and the stop it makes: the session is killed at once, as not one more step may happen
# (another worker holds the task now, or the owner wants it stopped).
STOP_OF_LEASE_GONE = {
    Lease.LOST: Stop.LEASE_LOST,
    Lease.GEANNULEERD: Stop.GEANNULEERD,
    Lease.TERUGGENOMEN: Stop.TERUGGENOMEN,
}


class Action(StrEnum):
    NOTHING = "nothing"  # the session finished or blocked the task, or it is not ours any more
    RETRY_OR_FAIL = "retry_or_fail"  # a task failure: an attempt is used
    VRIJGEVEN = "vrijgeven"  # not the task's fault: released, the attempt given back


@dataclass(frozen=True)
class Observed:
    token: str
    exit_code: int | None
    result: Result | None
    stop: Stop | None
    task_after: Task | None
    stderr_tail: str = ""
    spawn_error: str | None = None
    # The session closed its task (klaar, blokkeer, vrijgeven) while the database was away, and the database
    # refused that close when the journal wrote it: why.
    close_refused: Phrase | None = None


@dataclass(frozen=True)
class Outcome:
    action: Action
    why: Phrase
    note: str | None = None
    infrastructure: bool = False
    stderr: str = ""  # the session's last stderr, kept with the reason in the ledger

    @property
    def reason_phrase(self) -> Phrase:
        """The reason, with the session's last stderr when it left one: the ledger's row and the daemon's log."""
        return phrase("with_stderr", reason=self.why, stderr=self.stderr) if self.stderr else self.why

    def said(self, language: str) -> str:
        """The reason in one language: the run's for the daemon's log, Dutch (the record's) for the ledger."""
        return self.reason_phrase.said(language)

    @property
    def reason(self) -> str:
        """The reason as the ledger records it."""
        return self.said("nl")


INFRA_PATTERNS = re.compile(
    r"not logged in|please run /login|invalid api key|authentication_error|oauth token|"
    r"connection refused|econnrefused|econnreset|enotfound|etimedout|getaddrinfo|unable to connect|"
    r"connection error|network error|fetch failed|overloaded|rate.?limit|too many requests|"
    r"\b429\b|\b529\b|api error: 5\d\d|credit balance is too low|command not found",
    re.IGNORECASE,
)
RESULT_NOTE_CAP = 2000
STDERR_CAP = 1500


def decide(seen: Observed) -> Outcome:
    """The first rule that speaks: the task is not this attempt's any more, the agent or its world failed (the
    attempt is given back), or the session failed the task (an attempt is used)."""
    return _not_ours(seen) or _not_the_task(seen) or _task_failure(seen)


def _nothing(key: str, **fields: object) -> Outcome:
    return Outcome(Action.NOTHING, phrase(key, **fields))


def _ours(seen: Observed) -> bool:
    task = seen.task_after
    return task is not None and task.status == Status.BEZIG and task.lease_token == seen.token


def _status(seen: Observed) -> str:
    return seen.task_after.status.value if seen.task_after else "?"


def _not_ours(seen: Observed) -> Outcome | None:
    """Cancelled, taken back, lost or closed by the session: the ledger has nothing more to do."""
    task = seen.task_after
    if task is not None and task.status == Status.GEANNULEERD:
        return _nothing("outcome_cancelled")
    if seen.stop in (Stop.TERUGGENOMEN, Stop.LEASE_LOST, Stop.UNCONFIRMED):
        return _lease_stop(seen)
    if _ours(seen):
        return None
    if task is not None and seen.close_refused is not None:
        return _nothing("outcome_close_refused", why=seen.close_refused, status=_status(seen))
    return _nothing("outcome_closed_by_session")


def _lease_stop(seen: Observed) -> Outcome:
    """The daemon stopped the session because the lease was taken back, lost or could not be confirmed."""
    task = seen.task_after
    if seen.stop == Stop.TERUGGENOMEN:
        return _nothing("outcome_taken_back", status=_status(seen))
    if seen.stop == Stop.LEASE_LOST:
        if task is None or task.status == Status.BEZIG:
            return _nothing("outcome_lease_lost_elsewhere")
        return _nothing("outcome_lease_lost_taken_back", status=_status(seen))
    # Unconfirmed: the database or this daemon was away, not the task at fault.
    if _ours(seen):
        return Outcome(Action.VRIJGEVEN, phrase("outcome_lease_unconfirmed"))
    return _nothing("outcome_lease_unconfirmed_gone", status=_status(seen))


def _not_the_task(seen: Observed) -> Outcome | None:
    """A shutdown, an agent that would not start, or its world failing (login, network, the API): given back."""
    if seen.stop == Stop.SHUTDOWN:
        return Outcome(Action.VRIJGEVEN, phrase("outcome_shutdown"))
    if seen.spawn_error is not None or seen.exit_code == 127:
        why: Phrase | str = launch_failure(seen.spawn_error or seen.stderr_tail) or (
            seen.spawn_error or f"exit 127: {_tail(seen.stderr_tail)}"
        )
        return Outcome(Action.VRIJGEVEN, phrase("outcome_agent_wont_start", why=why), infrastructure=True)
    text = _result_text(seen)
    if _failed(seen) and INFRA_PATTERNS.search(f"{text}\n{seen.stderr_tail}"):
        why = _first_line(text) or _tail(seen.stderr_tail)
        return Outcome(Action.VRIJGEVEN, phrase("outcome_infrastructure", why=why), infrastructure=True)
    return None


# A stop of the daemon's that is the task's fault, and its reason.
STOP_OF_TASK = {Stop.SILENCE: "outcome_silence", Stop.TOTAL: "outcome_total_time"}


def _task_failure(seen: Observed) -> Outcome:
    """Silent too long, over its time, ended without klaar, or failed: an attempt is used."""
    stderr = _tail(seen.stderr_tail)
    if seen.stop in STOP_OF_TASK:
        return Outcome(Action.RETRY_OR_FAIL, phrase(STOP_OF_TASK[seen.stop]), stderr=stderr)
    text = _result_text(seen)
    if not _failed(seen):
        return Outcome(Action.RETRY_OR_FAIL, phrase("outcome_no_klaar"), note=_cut(text, RESULT_NOTE_CAP) or None)
    what = _first_line(text) or (seen.result.subtype if seen.result else None) or phrase("outcome_no_result")
    return Outcome(Action.RETRY_OR_FAIL, phrase("outcome_failed", exit=seen.exit_code, what=what), stderr=stderr)


def _result_text(seen: Observed) -> str:
    return (seen.result.text or "") if seen.result else ""


def _failed(seen: Observed) -> bool:
    return seen.exit_code != 0 or (seen.result is not None and seen.result.is_error)


def backoff_seconds(failures: int, base: float, maximum: float) -> float:
    """Doubling per failure, capped: 1 failure waits `base`."""
    if failures <= 0:
        return 0.0
    return float(min(maximum, base * 2 ** min(failures - 1, 30)))


def infra_pause(failures: int, outcome: Outcome, base: float, maximum: float) -> tuple[int, float]:
    """The worker's run of infrastructure failures after this outcome, and how long it pauses now (0: not).

    An infrastructure failure grows the run and the pause; a session that did its work (or failed on its
    own) ends the run; a give-back for another reason (a shutdown) leaves it as it was."""
    if outcome.infrastructure:
        return failures + 1, backoff_seconds(failures + 1, base, maximum)
    if outcome.action != Action.VRIJGEVEN:
        return 0, 0.0
    return failures, 0.0


def with_jitter(seconds: float, draw: float) -> float:
    """Between half and all of `seconds`, by `draw` in [0, 1): callers that wait together spread out."""
    return seconds * (0.5 + draw / 2)


def launch_failure(text: str) -> Phrase | None:
    """`bestand /pad/agent: bestaat niet` for a program the launcher could not start, in the language it is
    said in; None when `text` is no such line."""
    failed = failed_start(text)
    if failed is None:
        return None
    number, program = failed
    return phrase("file_error", path=program, reason=os_phrase(OSError(number, os.strerror(number))))


def _tail(text: str) -> str:
    text = text.strip()
    return text if len(text) <= STDERR_CAP else "…" + text[-STDERR_CAP:]


def _first_line(text: str) -> str:
    return _cut(text.strip().splitlines()[0], 300) if text.strip() else ""


def _cut(text: str, cap: int) -> str:
    return text if len(text) <= cap else text[: cap - 1] + "…"
