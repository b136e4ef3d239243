"""Whose tree a process runs in: the gate answers a process only for the session whose tree it runs in."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator

import pytest

from worker.proc import _descends_by_psutil, descends_from

# Two readings of the same tree: /proc on Linux (one read a generation, asked for every write of a session) and
# psutil elsewhere (macOS). Both are run here, so the one a Linux machine never takes is not left untried.
READINGS = pytest.mark.parametrize("descends", [descends_from, _descends_by_psutil], ids=["this-platform", "psutil"])

# A shell that starts a grandchild and says its pid, then waits for it.
GRANDCHILD = "sleep 30 & echo $!; wait"


@pytest.fixture
def tree() -> Iterator[tuple[int, int]]:
    """A child of this test's process and the child's own child."""
    child = subprocess.Popen(["sh", "-c", GRANDCHILD], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    grandchild = int(child.stdout.readline())
    yield child.pid, grandchild
    child.kill()
    subprocess.run(["kill", str(grandchild)], check=False)
    child.wait()


@READINGS
def test_a_process_descends_from_itself_its_parent_and_its_parents_parent(
    tree: tuple[int, int], descends: Callable[[int, int], bool]
) -> None:
    child, grandchild = tree
    assert descends(grandchild, grandchild)
    assert descends(grandchild, child)
    assert descends(grandchild, os.getpid())


@READINGS
def test_a_parent_a_sibling_and_a_process_that_is_gone_descend_from_no_one_below_them(
    tree: tuple[int, int], descends: Callable[[int, int], bool]
) -> None:
    child, grandchild = tree
    sibling = subprocess.Popen([sys.executable, "-c", "pass"])
    sibling.wait()
    assert not descends(os.getpid(), child)
    assert not descends(child, grandchild)
    assert not descends(sibling.pid, os.getpid())  # reaped: nothing of it is left to ask
