"""What the database says about a task's folder in `sessies/`: whether its task is finished, so it may be pruned."""

from __future__ import annotations

from collections.abc import Sequence

from worker.db.sqlfiles import Executor, queries


async def finished_tasks(db: Executor, task_ids: Sequence[str]) -> list[str]:
    """Those of these tasks that are klaar, mislukt or geannuleerd."""
    if not task_ids:
        return []
    return [r["id"] for r in await db.fetch(queries()["taken_afgerond"], list(task_ids))]
