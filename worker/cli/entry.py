"""The console scripts' first code: nothing but the guard against Ctrl-C while the command is still loading.

A Ctrl-C a moment after `taak` or `queue-worker` was typed lands in an import; without this guard Python prints
the import's traceback. The command then did nothing, and says so the way a shell expects: exit 130.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

INTERRUPTED = 130  # worker.core.errors.ExitCode.INTERRUPTED, not imported: this module must load in no time
ENDED_BY_CTRL_C = ("tail", "cockpit")  # the verbs Ctrl-C is the way to end: 0, also while they load


def interrupted(words: list[str]) -> int:
    return 0 if words[:1] and words[0] in ENDED_BY_CTRL_C else INTERRUPTED


def was_ctrl_c(exc: BaseException) -> bool:
    """A Ctrl-C that reached us as another exception: pydantic-core, building the settings' validators while
    the signal came, reports it as a SchemaError that names it; an import may chain it."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, KeyboardInterrupt):
            return True
        if type(seen).__name__ == "SchemaError" and "KeyboardInterrupt" in str(seen):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def guarded(main: Callable[[], None], code: int) -> None:
    """Run a command's main (its imports too); a Ctrl-C while it loads ends it with `code` and no traceback."""
    try:
        main()
    except KeyboardInterrupt:
        raise SystemExit(code) from None
    except Exception as exc:
        if not was_ctrl_c(exc):
            raise
        raise SystemExit(code) from None


def taak() -> None:
    def load_and_run() -> None:
        from worker.cli.taak import main

        main()

    guarded(load_and_run, interrupted(sys.argv[1:]))


def queue_worker() -> None:
    def load_and_run() -> None:
        from worker.cli.queue_worker import main

        main()

    guarded(load_and_run, INTERRUPTED)
