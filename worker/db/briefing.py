"""Reads what a briefing needs from the ledger and hands it to the pure builder."""

from __future__ import annotations

from datetime import UTC, datetime

from worker.core.briefing import BriefingInput, Variant, build_briefing, counted_by_compaction
from worker.core.machines import expand_facts
from worker.core.model import Soort
from worker.core.show import facts_from_context
from worker.db.ledger import Ledger
from worker.db.machines import machines_named
from worker.db.sqlfiles import queries
from worker.settings import Settings


async def briefing_for(
    ledger: Ledger,
    task_id: str,
    settings: Settings,
    variant: Variant,
    *,
    now: datetime | None = None,
    held: bool = True,
) -> str:
    return build_briefing(await briefing_source(ledger, task_id, settings, now=now, held=held), variant)


async def briefing_source(
    ledger: Ledger, task_id: str, settings: Settings, *, now: datetime | None = None, held: bool = True
) -> BriefingInput:
    """Everything a briefing is built from; build both variants from one of these to read the state once."""
    state = await ledger.briefing_state(task_id, settings.briefing_rows)
    facts = facts_from_context(state.task.context)
    named = await machines_named(ledger.db, list(facts.values()))
    older = state.older
    if Soort.COMPACT in older.per_soort:  # most tasks never compact: no read for them
        older = counted_by_compaction(older, await ledger.db.fetchval(queries()["compacties"], task_id))
    return BriefingInput(
        task=state.task,
        recent=state.recent,
        older=older,
        facts=expand_facts(facts, named),
        now=now or datetime.now(UTC),
        zone=settings.zone,
        language=settings.language,
        answer=state.answer,
        line_cap=settings.briefing_line_cap,
        held=held,
    )
