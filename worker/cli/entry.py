"""The console scripts (`taak`, `queue-worker`): the guards first (worker/cli/guard.py), then the command."""

from __future__ import annotations

import sys

from worker.cli.guard import INTERRUPTED, guarded, taak_guarded


def taak() -> None:
    def load_and_run() -> None:
        from worker.cli.taak import main  # start-up: loaded inside the guard: a Ctrl-C while it loads ends quietly

        main()

    taak_guarded(load_and_run, sys.argv[1:])


def queue_worker() -> None:
    def load_and_run() -> None:
        from worker.cli.queue_worker import main  # start-up: loaded inside the guard, as above

        main()

    guarded(load_and_run, INTERRUPTED, "queue-worker")
