"""What the owner's verbs share, on the command line and in the cockpit: who the owner is, and how long a
lease taken back by hand waits before it can be claimed again."""

from __future__ import annotations

import getpass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from worker.settings import Settings


def owner_name(settings: Settings) -> str:
    """The name on the rows the owner writes: TAAK_OWNER, else the OS user."""
    return settings.owner or getpass.getuser()


def take_back_wait(settings: Settings) -> float:
    """Claimable again once the holding daemon's token checks have stopped its session, with room to spare:
    TAAK_TOKEN_CHECK_SECONDS is at most 10 on every daemon, and a lost lease is killed at once."""
    return max(45.0, 3 * settings.token_check_seconds + settings.kill_grace_seconds)
