"""The benchmark harness still runs and prints its tables (figures are not judged here)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # see pyproject.toml: the fast loop is -m "not slow"


def test_the_benchmark_prints_its_markdown_tables(server_url: str) -> None:
    repo = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-m", "tests.bench", "--quick"],
        cwd=repo,
        env={**os.environ, "BENCH_DATABASE_URL": server_url},
        capture_output=True,
        text=True,
        timeout=600,  # a smoke run of every section; the instruction count alone starts a Postgres under valgrind
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "| workers | raw claim+complete | ledger claim+klaar | ratio | raw claim+log+complete |" in done.stdout
    assert "| 10,000 |" in done.stdout
    assert "| the same listener on the ledger's tables and claim | 20 |" in done.stdout
    if shutil.which("valgrind"):
        assert "| ledger claim + log + klaar |" in done.stdout
        assert "| the same, the log without its foreign key |" in done.stdout
