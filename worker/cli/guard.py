"""The guards around a command, loaded first and in no time (the standard library only):

- Ctrl-C: a Ctrl-C a moment after `taak` or `queue-worker` was typed lands in an import; without this guard
  Python prints the import's traceback. The command then did nothing, and says so the way a shell expects:
  exit 130.
- stdout: a full disk or an I/O error on the command's output is said as that, not as the database (the
  connection's errors are OSErrors too), with exit 1; what the command changed before it printed stays changed.
  A reader that had enough (`| head`) ends the command quietly. A stdout closed at the start (`>&-`) is refused
  before anything is done: the task `taak nieuw` made would have no ID anyone saw. Hooks say such a failure on
  stderr and exit 0, as they say every failure (a hook never breaks a session).
"""

from __future__ import annotations

import os
import signal
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TextIO, TypeVar

    T = TypeVar("T")

INTERRUPTED = 130  # worker.core.errors.ExitCode.INTERRUPTED, not imported: this module must load in no time
ENDED_BY_CTRL_C = ("tail", "cockpit")  # the verbs Ctrl-C is the way to end: 0, also while they load


def interrupted(words: list[str]) -> int:
    return 0 if words[:1] and words[0] in ENDED_BY_CTRL_C else INTERRUPTED


def _ctrl_c_while_loading(_signum: int, _frame: object) -> None:
    """Until `guarded` runs: nothing was done yet, and Python's own KeyboardInterrupt would print the traceback
    of whichever import it landed in. The command ends at once, as one a moment later does."""
    os._exit(interrupted(sys.argv[1:]))


# First of all, and only in the commands themselves (not in a program that imports this module, a test runner):
# the imports below take time too.
if os.path.basename(sys.argv[0]).removesuffix(".py") in ("taak", "queue-worker", "queue_worker"):
    signal.signal(signal.SIGINT, _ctrl_c_while_loading)

import contextlib  # noqa: E402 (after the Ctrl-C guard, on purpose)
from collections.abc import Callable  # noqa: E402


def taak_guarded(main: Callable[[], None], words: list[str]) -> None:
    """`taak WORDS`, guarded: a hook says a lost output by its name, as its other lines (`taak hook prompt:`)."""
    hook = words[:1] == ["hook"]
    guarded(main, interrupted(words), f"taak hook {words[1]}" if hook and len(words) > 1 else "taak", hook=hook)


def was_ctrl_c(exc: BaseException) -> bool:
    """A Ctrl-C that reached us as another exception: an import that the signal interrupted may chain it."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, KeyboardInterrupt):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


class OutputLost(OSError):
    """stdout did not take the command's output (a full disk, an I/O error): not the database's fault."""


class GuardedOutput:
    """stdout, whose write errors other than a closed pipe are raised as OutputLost."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.help_only = False  # the output is help, of a command that then changes nothing

    def write(self, text: str) -> int:
        return self._guarded(self._stream.write, text)

    def flush(self) -> None:
        self._guarded(self._stream.flush)

    @staticmethod
    def _guarded(call: Callable[..., T], *args: Any) -> T:
        try:
            return call(*args)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputLost(exc.errno, exc.strerror) from exc

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def output_lost_line(exc: OSError, language: str) -> str:
    from worker.core.catalogue import message, os_reason  # start-up: the catalogue only when the output failed

    help_only = isinstance(sys.stdout, GuardedOutput) and sys.stdout.help_only
    return message("output_lost_help" if help_only else "output_lost", language, reason=os_reason(exc, language))


def discard_output() -> None:
    """Whatever stdout still buffers goes nowhere: the interpreter's flush at exit must not fail a second time."""
    with contextlib.suppress(OSError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)


def guarded(main: Callable[[], None], code: int, program: str = "taak", *, hook: bool = False) -> None:
    """Run a command's main (its imports too): a Ctrl-C while it loads ends it with `code` and no traceback, and
    its output is guarded (see the module's docstring)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)  # from here a Ctrl-C is a KeyboardInterrupt, caught below
    # What taak and queue-worker write is the user's alone: the data folder holds opdrachten verbatim (reports,
    # summaries, the archive, hooks.log), and a folder made with its parents gets the umask, not the mode asked.
    # An agent the daemon starts gets the user's own umask back (worker/proc.py).
    os.umask(os.umask(0o077) | 0o077)
    if sys.stderr is None:
        _stderr_closed()
    if sys.stdout is None:
        _stdout_closed(program, hook=hook)
    elif not isinstance(sys.stdout, GuardedOutput):
        sys.stdout = GuardedOutput(sys.stdout)
    try:
        try:
            main()
        finally:
            if sys.stdout is not None:
                sys.stdout.flush()  # a file's output is buffered: a full disk shows here, while it can still be said
    except KeyboardInterrupt:
        raise SystemExit(code) from None
    except BrokenPipeError:  # the reader had enough
        discard_output()
        raise SystemExit(0) from None
    except OutputLost as exc:
        _said_output_lost(exc, program, hook=hook)
    except Exception as exc:
        if not was_ctrl_c(exc):
            raise
        raise SystemExit(code) from None


def _said_output_lost(exc: OSError, program: str, *, hook: bool) -> None:
    from worker.core.language import early_language  # start-up: only when the output failed

    said = output_lost_line(exc, early_language())
    discard_output()
    print(f"{program}: {said}", file=sys.stderr)
    raise SystemExit(0 if hook else 1)


def _stdout_closed(program: str, *, hook: bool) -> None:
    """fd 1 is closed: it is filled with /dev/null at once, so that no file or socket opened later becomes the
    command's stdout; a command is refused before it does anything, a hook goes on (its output is lost)."""
    # start-up: the catalogue only when stdout is closed
    from worker.core.catalogue import message  # start-up: as above
    from worker.core.language import early_language

    if _fd_closed(1):
        discard_output()
    sys.stdout = GuardedOutput(open(1, "w", encoding="utf-8", closefd=False))  # noqa: SIM115 (for the process)
    if hook:
        return
    if sys.stderr is not None:
        print(f"{program}: {message('stdout_closed', early_language())}", file=sys.stderr)
    raise SystemExit(2)


def _stderr_closed() -> None:
    """fd 2 is closed (`2>&-`): it is filled with /dev/null, so that no file or socket opened later becomes the
    command's stderr, and the error lines go nowhere; the exit code still says what happened. Python's own
    stand-in, None, sent `print(..., file=sys.stderr)` to stdout, and its flush at exit failed with 120."""
    if _fd_closed(2):
        null = os.open(os.devnull, os.O_WRONLY)
        if null != 2:
            os.dup2(null, 2)
            os.close(null)
    sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)  # noqa: SIM115


def _fd_closed(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return True
    return False
