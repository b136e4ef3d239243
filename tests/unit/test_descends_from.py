"""Whose tree a process runs in: the gate answers a process only for the session whose tree it runs in."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from worker.proc import descends_from

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


def test_a_process_descends_from_itself_its_parent_and_its_parents_parent(tree: tuple[int, int]) -> None:
    child, grandchild = tree
    assert descends_from(grandchild, grandchild)
    assert descends_from(grandchild, child)
    assert descends_from(grandchild, os.getpid())


def test_a_parent_a_sibling_and_a_process_that_is_gone_descend_from_no_one_below_them(tree: tuple[int, int]) -> None:
    child, grandchild = tree
    sibling = subprocess.Popen([sys.executable, "-c", "pass"])
    sibling.wait()
    assert not descends_from(os.getpid(), child)
    assert not descends_from(child, grandchild)
    assert not descends_from(sibling.pid, os.getpid())  # reaped: nothing of it is left to ask
