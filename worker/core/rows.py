"""A task and its log rows as the ledger gives them (the values they hold: worker/core/model.py). Apart from the
model, because dataclasses take a queue session's `taak log` longer to load than the rest of it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from worker.core.model import Soort, Status


@dataclass(frozen=True)
class Task:
    id: str
    titel: str
    opdracht: str
    opdrachtgever: str
    toegewezen_aan: str | None
    status: Status
    klaar_wanneer: str | None
    context: dict[str, Any]
    volgende_stap: str | None
    pogingen: int
    max_pogingen: int
    lease_tot: datetime | None
    lease_token: str | None
    geclaimd_door: str | None
    bewijs: str | None
    prioriteit: int
    niet_voor: datetime | None
    aangemaakt: datetime
    bijgewerkt: datetime
    afgerond: datetime | None
    uiterlijk: datetime | None = None  # the due date (`--uiterlijk`), null: none
    nodig: str | None = None  # the skill it needs (`--nodig`, or implied by a skill's words), null: none


@dataclass(frozen=True)
class LogRow:
    id: int
    taak_id: str
    ts: datetime
    bot: str | None
    soort: Soort
    tekst: str
    sessie: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class OlderRows:
    """What the briefing says in one line about the rows it does not show. `rows`: how many rows there are, where
    the kinds count a compaction once for its two rows (None: the kinds' sum)."""

    per_soort: dict[Soort, int]
    since: datetime | None
    rows: int | None = None

    @property
    def total(self) -> int:
        return self.rows if self.rows is not None else sum(self.per_soort.values())
