"""Which folders of `sessies/` may be pruned, and what pruning removes: only a task's own folder, quiet for the days
given, never a link or a folder of another name, and never one written in since it was found."""

from __future__ import annotations

import os
import time
from pathlib import Path

from worker.memory.archive import folder_size, prune_task_folders, quiet_task_folders
from worker.memory.layout import Layout

DAY = 86400


def folder(layout: Layout, name: str, days_ago: float, size: int = 10) -> Path:
    made = layout.sessions / name
    made.mkdir(parents=True)
    (made / "1-s.jsonl").write_bytes(b"x" * size)
    moment = time.time() - days_ago * DAY
    for path in (made / "1-s.jsonl", made):
        os.utime(path, (moment, moment))
    return made


def test_only_a_tasks_folder_quiet_for_the_days_given_is_a_candidate(tmp_path: Path) -> None:
    layout = Layout(tmp_path)
    folder(layout, "HV-20261101-001", 40)
    folder(layout, "HV-20261101-002", 10)
    folder(layout, "notities", 400)
    (layout.sessions / "HV-20261101-003").symlink_to(folder(layout, "HV-20261101-004", 40))
    assert quiet_task_folders(layout, 30, time.time()) == ["HV-20261101-001", "HV-20261101-004"]
    assert quiet_task_folders(layout, 5, time.time()) == ["HV-20261101-001", "HV-20261101-002", "HV-20261101-004"]


def test_pruning_removes_the_quiet_folders_and_says_their_bytes(tmp_path: Path) -> None:
    layout = Layout(tmp_path)
    folder(layout, "HV-20261101-001", 40, size=1000)
    busy = folder(layout, "HV-20261101-002", 40)
    (busy / "2-t.jsonl").write_text("{}\n")  # reopened and running again since it was found
    link = layout.sessions / "HV-20261101-003"
    link.symlink_to(tmp_path)
    removed = prune_task_folders(
        layout, ["HV-20261101-001", "HV-20261101-002", "HV-20261101-003", ".."], 30, time.time()
    )
    assert removed == (1, 1000)
    assert sorted(p.name for p in layout.sessions.iterdir()) == ["HV-20261101-002", "HV-20261101-003"]
    assert tmp_path.is_dir()


def test_the_size_of_a_folder_counts_every_file_under_it(tmp_path: Path) -> None:
    layout = Layout(tmp_path)
    assert folder_size(layout.sessions) == (0, 0)
    folder(layout, "HV-20261101-001", 1, size=300)
    folder(layout, "HV-20261101-002", 1, size=200)
    assert folder_size(layout.sessions) == (500, 2)
