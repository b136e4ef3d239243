"""Where a bot's one-daemon lock lives: one folder for every daemon of the user on the machine."""

from __future__ import annotations

import os
import pwd
from pathlib import Path

import pytest

from worker.proc import bot_lock_path, default_lock_dir


def test_every_daemon_of_the_user_finds_the_same_lock_folder_whatever_its_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The lock lay in the system's temporary folder, which follows $TMPDIR: a shell with its own (pam_tmpdir)
    and a service without one each took a lock for paco, and both daemons ran one task (tester M)."""
    seen = set()
    for n in range(2):
        monkeypatch.setenv("TMPDIR", str(tmp_path / f"tmp{n}"))
        monkeypatch.setenv("HOME", str(tmp_path / f"home{n}"))
        seen.add(default_lock_dir())
    assert seen == {Path(pwd.getpwuid(os.getuid()).pw_dir) / ".local" / "state" / "taak" / "locks"}


def test_a_lock_folder_made_by_another_user_is_refused(tmp_path: Path) -> None:
    from worker.proc import AlreadyRunning

    folder = tmp_path / "locks"
    assert bot_lock_path("paco", "mac", folder) == folder / "paco@mac.lock"
    if os.getuid() != 0:
        pytest.skip("only root can give the folder to another user")
    os.chown(folder, 12345, 12345)
    with pytest.raises(AlreadyRunning, match="belongs to user 12345"):
        bot_lock_path("paco", "mac", folder)
