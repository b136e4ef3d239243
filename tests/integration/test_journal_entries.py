"""The daemon's journal to the ledger: an entry this version cannot read is settled as refused, so that it
holds no later line back (tester 23: the start waited for it, through any SIGTERM)."""

from __future__ import annotations

import asyncpg

from tests.helpers import ledger_on
from worker.daemon.gate import _attempts
from worker.daemon.journal import Entry
from worker.db.ledger import NewTask


async def test_an_entry_without_its_fields_is_refused_and_the_next_one_is_written(pool: asyncpg.Pool) -> None:
    ledger = ledger_on(pool, machine="keuken")
    task_id = await ledger.nieuw(NewTask("taak", "jamal", toegewezen_aan="paco"))
    claim = await ledger.claim(["paco"])
    assert claim is not None
    damaged = Entry(1, "log", task_id, claim.token, "paco", None, {"soort": "stap_klaar", "tekst": "kwijt?"})
    whole = Entry(2, "log", task_id, claim.token, "paco", None, {"soort": "stap_klaar", "tekst": "erin", "meta": {}})
    outcome, refusal = await _attempts(lambda: ledger, damaged, False, (0, 0))()
    assert outcome == "geweigerd"
    assert refusal is not None
    said = refusal.render("en")
    assert said == "journal entry 1 (log) cannot be read and was not written; it stays in the journal file"
    assert await _attempts(lambda: ledger, whole, False, (0, 0))() == ("geschreven", None)
    steps = [row.tekst for row in await ledger.log_rows(task_id) if row.soort.value == "stap_klaar"]
    assert steps == ["erin"]
