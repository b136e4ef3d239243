"""The ledger's own rows in the reader's language (issue 16): every statement and function that writes a row of
the system's own keeps the row's Dutch text and, beside it, the same words as a phrase; said again in Dutch the
phrase is the text to the letter, in English it has no Dutch left. A person's text stays as it was typed."""

from __future__ import annotations

import re
from pathlib import Path

import asyncpg
import pytest

from tests.helpers import ledger_on
from worker.core.model import Soort
from worker.core.outcome import Action, Outcome, Stop
from worker.core.phrases import phrase
from worker.core.row_phrases import kept_phrase, said_row
from worker.core.rows import LogRow
from worker.core.stream import Result
from worker.daemon.session import SessionReport
from worker.daemon.worker import _result_row
from worker.db.ledger import Ledger, NewTask
from worker.hooks.reports import Report

# Words of the system's Dutch rows that an English reader must not see.
DUTCH = re.compile(
    r"\b(door|poging|pogingen|van|verlopen|teruggenomen|geannuleerd|mislukt|volgende stap|met de hand|"
    r"vrijgegeven|herstart|sessie|beurten?|verslag|regels|berichten|infrastructuur|gestopt|wachtrij)\b"
)


@pytest.fixture
def ledger(pool: asyncpg.Pool) -> Ledger:
    return ledger_on(pool, lease_seconds=1200, machine="keuken")


async def expire(pool: asyncpg.Pool, task_id: str) -> None:
    await pool.execute("update agent_taken set lease_tot = now() - interval '1 second' where id = $1", task_id)


async def every_row(ledger: Ledger, pool: asyncpg.Pool) -> list[LogRow]:
    """A task through each of the system's own rows, and one row of a person's beside them."""
    ids = [await ledger.nieuw(NewTask(f"taak {n}", "jamal", toegewezen_aan="paco", max_pogingen=1)) for n in range(8)]
    a, b, c, d, e, f, g, h = ids
    await ledger.stap(a, "eerst de lamp", bot="jamal")  # the owner's next step, no session holding it
    await ledger.annuleer(a, "niet meer nodig", wie="jamal")  # a person's reason
    await ledger.annuleer(b, phrase("row_demo_replaced"), wie="demo")  # the system's own reason
    claims = {}
    for _ in ids[2:]:
        claim = await ledger.claim(["paco"])
        assert claim is not None
        claims[claim.task.id] = claim
    await ledger.stap(c, "de fitting", token=claims[c].token, bot="paco")  # a session's next step
    await ledger.log(c, Soort.STAP_KLAAR, "lamp gekocht", token=claims[c].token, bot="paco")  # a bot's own words
    await ledger.terugnemen(c, phrase("row_by_hand"), wie="jamal", wait_seconds=0)
    text, meta = _result_row(SessionReport(exit_code=-9, stop=Stop.SILENCE), "sessie-1")
    await ledger.log(c, Soort.NOTITIE, text, bot="paco", sessie="sessie-1", meta=meta)
    done = Result(
        False, "success", "klaar", num_turns=1, duration_ms=9_000_000, total_cost_usd=None, terminal_reason=None
    )
    text, meta = _result_row(SessionReport(exit_code=0, result=done), "sessie-2")
    await ledger.log(c, Soort.NOTITIE, text, bot="paco", sessie="sessie-2", meta=meta)
    text, meta = Report(Path("/tmp/report.md"), entries=3, lines=1).row("auto")
    await ledger.compact_by_owner(c, text, bot="jamal", sessie=None, meta=meta)
    await ledger.vrijgeven(d, claims[d].token, phrase("row_released_by_session"))  # attempts used up
    stuck = Outcome(Action.RETRY_OR_FAIL, phrase("outcome_silence"), stderr="Error: ETIMEDOUT")
    await ledger.poging_mislukt(
        e, claims[e].token, reden=stuck.reason_phrase, notitie=None, sessie=None, meta={},
        backoff_base=0, backoff_max=0,
    )  # fmt: skip
    shutdown = Outcome(Action.VRIJGEVEN, phrase("outcome_shutdown"))
    await ledger.vrijgeven_poging_terug(f, claims[f].token, reden=shutdown.reason_phrase, sessie=None)
    await expire(pool, g)
    assert [v.id for v in await ledger.verlopen(backoff_base=0, backoff_max=0)] == [g]  # expired, attempts used up
    await ledger.eigen_claims_vrijgeven([(h, claims[h].token)], phrase("row_released_at_restart", machine="keuken"))
    assert (await ledger.toon(h)).status.value == "mislukt"
    rows = [row for task_id in ids for row in await ledger.log_rows(task_id)]
    return rows


async def test_every_row_the_system_writes_keeps_its_words_as_a_phrase_that_says_its_text(
    ledger: Ledger, pool: asyncpg.Pool
) -> None:
    rows = await every_row(ledger, pool)
    persons = [row.tekst for row in rows if kept_phrase(row.tekst, row.meta.get("zin")) is None]
    assert persons == ["lamp gekocht"], persons
    for row in rows:
        assert said_row(row.tekst, row.meta, "nl") == row.tekst


async def test_an_english_reader_sees_the_systems_rows_in_english(ledger: Ledger, pool: asyncpg.Pool) -> None:
    rows = await every_row(ledger, pool)
    english = [said_row(row.tekst, row.meta, "en") for row in rows]
    kept_dutch = [text for text in english if DUTCH.search(text) and "niet meer nodig" not in text]
    assert kept_dutch == [], kept_dutch
    for expected in (
        "created by jamal",
        "next step: eerst de lamp",
        "cancelled by jamal: niet meer nodig",  # a person's reason as typed
        "cancelled by demo: replaced by a new demo",
        "attempt 1 of 1 by paco@keuken",
        "next step: de fitting",
        "lease taken back by jamal (from paco@keuken): by hand",
        "released by the session: failed (attempts used up)",
        "failed (attempts used up): session stopped: no output for too long\nstderr: Error: ETIMEDOUT",
        "the worker is stopping; the task goes back into the queue",
        "lease expired after attempt 1 of 1 (paco@keuken): failed",
        "released when the worker restarted on keuken: failed (attempts used up)",
        "session result: no result line (signal SIGKILL, stopped: silent too long)",
        "session result: 1 turn, 2h, ?: klaar",
        "report before the compaction: /tmp/report.md (1 line, 3 messages)",
        "lamp gekocht",  # a bot's own words as written
    ):
        assert expected in english, (expected, english)


async def test_a_failed_attempt_says_the_task_failed_only_when_it_was_the_last(ledger: Ledger) -> None:
    last = await ledger.nieuw(NewTask("laatste kans", "jamal", toegewezen_aan="paco", max_pogingen=1))
    spare = await ledger.nieuw(NewTask("nog een kans", "jamal", toegewezen_aan="paco", max_pogingen=2))
    for task_id in (last, spare):
        claim = await ledger.claim(["paco"])
        assert claim is not None
        assert claim.task.id == task_id
        await ledger.poging_mislukt(
            task_id, claim.token, reden="de printer is kapot", notitie=None, sessie=None, meta={},
            backoff_base=0, backoff_max=0,
        )  # fmt: skip
    rows = {task_id: [r for r in await ledger.log_rows(task_id) if r.soort == Soort.FOUT] for task_id in (last, spare)}
    assert [r.tekst for r in rows[last]] == ["mislukt (pogingen op): de printer is kapot"]
    assert [said_row(r.tekst, r.meta, "en") for r in rows[last]] == ["failed (attempts used up): de printer is kapot"]
    assert [said_row(r.tekst, r.meta, "en") for r in rows[spare]] == ["de printer is kapot"]


async def test_a_row_whose_words_were_changed_by_hand_is_shown_as_written(ledger: Ledger, pool: asyncpg.Pool) -> None:
    task_id = await ledger.nieuw(NewTask("taak", "jamal"))
    row = (await ledger.log_rows(task_id))[0]
    assert said_row(row.tekst, row.meta, "en") == "created by jamal"
    # The phrase no longer says the text (another version's words, or a row written by hand with a copied meta).
    assert said_row("aangemaakt door iemand anders", row.meta, "en") == "aangemaakt door iemand anders"
