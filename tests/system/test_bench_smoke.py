"""The benchmark harness still runs and prints its tables (figures are not judged here).

One test per section (`--only`), so that a run with workers spreads them: the sections one after the other were
the longest test of the suite (about six minutes here, the instruction counts under valgrind most of it)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # see pyproject.toml: the fast loop is -m "not slow"

# What each section prints that says it ran (the instruction counts only where valgrind is installed).
SECTIONS = {
    "ledger": ["| workers | raw claim+complete | ledger claim+klaar | ratio | raw claim+log+complete |"],
    "instructions": (
        ["| ledger claim + log + klaar |", "| the same, the log without its foreign key |"]
        if shutil.which("valgrind")
        else []
    ),
    "briefing": ["| 10,000 |"],
    "daemon": ["| the same listener on the ledger's tables and claim | 20 |"],
    "journal": ["| sessions | writes/s | raw journal limit writes/s | ratio |"],
    "poll": ["| committed on the server (pg_stat_database) |", "| LISTEN |"],
    "hooks": [
        "| queue session: `taak log stap_klaar ...` (through the daemon) |",
        "| `taak recall` on 20,000 lines here: words only |",
    ],
    "memory": [],
    "fleet": [],
    "semantic": ["| lines with a vector before / after the questions |"],
}


# The instruction counter (a Postgres under callgrind, about four minutes) is started first: begun near the end of
# the run, it alone set when CI ended.
FIRST = ("instructions",)


@pytest.mark.parametrize("section", [pytest.param(s, marks=pytest.mark.first) if s in FIRST else s for s in SECTIONS])
def test_the_benchmark_prints_its_markdown_tables(server_url: str, section: str) -> None:
    repo = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-m", "tests.bench", "--quick", "--only", section],
        cwd=repo,
        env={**os.environ, "BENCH_DATABASE_URL": server_url},
        capture_output=True,
        text=True,
        timeout=600,  # a smoke run of the section; the instruction count starts a Postgres under valgrind
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "|" in done.stdout  # a table
    for line in SECTIONS[section]:
        assert line in done.stdout
