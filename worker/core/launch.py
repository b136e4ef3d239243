"""How the session launcher (worker/proc.py) says that the agent's program could not be started: one line on
its stderr, read back by the daemon as the system's reason, said in the language it is said in (the OS's
own words are English)."""

from __future__ import annotations

import re

PREFIX = "taak-launch-failed"
_LINE = re.compile(rf"^{PREFIX} (\d+) (.*)$", re.MULTILINE)


def failed_line(errno: int, program: str) -> str:
    return f"{PREFIX} {errno} {program}"


def failed_start(text: str) -> tuple[int, str] | None:
    found = _LINE.search(text)
    return (int(found[1]), found[2]) if found else None
