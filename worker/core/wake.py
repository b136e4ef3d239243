"""Whether a notice of a waiting task can end in a claim for this daemon: it wakes only for a task it could win.

A fleet of many machines hears every new task; a daemon that claimed for each one would cost the server a claim
per machine per task (1,000 machines: 2,000 statements a task). The notice (`NOTIFY taak_nieuw`) says whose task
it is: a bot's (`toegewezen_aan`) or anyone's with a need (`nodig`) or without one.
"""

from __future__ import annotations

import json
from collections.abc import Collection


def could_win(notice: str, bots: Collection[str], skills: Collection[str] | None) -> bool:
    """A task for one of `bots` (those that may claim: none while all are switched off or at their brake), or for
    any bot with no need or a need one of them has (`skills`, as the last heartbeat read them; None: not read yet).
    A notice this version cannot read wakes the daemon: a claim too many costs less than one missed. A skill given
    or a bot switched on since is found by the next look (TAAK_POLL_SECONDS)."""
    if not bots:
        return False
    try:
        said = json.loads(notice)
    except ValueError:
        return True
    if not isinstance(said, dict):
        return True
    bot, need = said.get("toegewezen_aan"), said.get("nodig")
    if bot is not None:
        return bot in bots
    return need is None or skills is None or need in skills
