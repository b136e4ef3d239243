"""A daemon's background duty that fails is logged under its name and started again, never fatal: the owner
channel's duties are functools.partial objects, which have no __name__ of their own."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest
from structlog.testing import capture_logs

from worker.core.dsn import parse_database_url
from worker.daemon.worker import Worker
from worker.settings import Settings


async def test_a_failing_partial_duty_is_logged_by_name_and_run_again(tmp_path: Path) -> None:
    settings = Settings(bots=["paco"], data_dir=tmp_path, poll_seconds=0.2)
    worker = Worker(settings, parse_database_url("postgresql://postgres@127.0.0.1:5432/postgres"))
    runs: list[str] = []

    async def deliverer(channel: str) -> None:
        runs.append(channel)
        if len(runs) == 1:
            raise RuntimeError("a bug in the first delivery")

    with capture_logs() as logs:
        await worker._keep_running(partial(deliverer, "telegram"))
    assert runs == ["telegram", "telegram"]
    assert [(e["event"], e["duty"]) for e in logs if e["event"] == "duty_failed"] == [("duty_failed", "deliverer")]


@pytest.fixture(autouse=True)
def _no_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("TAAK_BOTS", "TAAK_DATA_DIR", "TAAK_POLL_SECONDS"):
        monkeypatch.delenv(name, raising=False)
