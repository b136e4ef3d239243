"""The console scripts' first code: nothing but the guard against Ctrl-C while the command is still loading.

A Ctrl-C a moment after `taak` or `queue-worker` was typed lands in an import; without this guard Python prints
the import's traceback. The command then did nothing, and says so the way a shell expects: exit 130.
"""

from __future__ import annotations

import sys

INTERRUPTED = 130  # worker.core.errors.ExitCode.INTERRUPTED, not imported: this module must load in no time
ENDED_BY_CTRL_C = ("tail", "cockpit")  # the verbs Ctrl-C is the way to end: 0, also while they load


def interrupted(words: list[str]) -> int:
    return 0 if words[:1] and words[0] in ENDED_BY_CTRL_C else INTERRUPTED


def taak() -> None:
    try:
        from worker.cli.taak import main

        main()
    except KeyboardInterrupt:
        raise SystemExit(interrupted(sys.argv[1:])) from None


def queue_worker() -> None:
    try:
        from worker.cli.queue_worker import main

        main()
    except KeyboardInterrupt:
        raise SystemExit(INTERRUPTED) from None
