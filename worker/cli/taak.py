"""`taak`: the command the bots and the owner use to read and write the task ledger.

A hook (`taak hook NAME`) runs on every prompt, so it is dispatched before anything else is imported;
every other verb lives in a command module (tasks, memory, fleet, setup) beside its parser.
Exit codes: 0 done; 1 refused by a rule; 2 usage or invalid input; 3 not found or nothing to claim;
4 database unreachable.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from worker.cli.guard import taak_guarded

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def main(argv: Sequence[str] | None = None) -> None:
    words = list(sys.argv[1:] if argv is None else argv)
    # Ctrl-C before the command's work began ends without a traceback; its output is guarded (entry.py)
    taak_guarded(lambda: _main(words), words)


def _main(words: list[str]) -> None:
    if words[:1] == ["hook"]:
        from worker.hooks.entry import run_hook_command  # start-up: a hook loads nothing of the verbs (below)

        code = run_hook_command(words[1:])
        raise SystemExit(code if code is not None else _hook_misused(words))
    if os.environ.get("TAAK_SOCKET"):  # inside a queue session: the daemon, never the database
        _in_a_queue_session(words)
    # start-up: below the hooks
    from worker.cli.args import load_settings_or_exit, parse, run, use_argparse_words
    from worker.core.terminal import Escaping, json_safe, printable  # start-up: as above

    use_argparse_words()

    sys.stderr = Escaping(sys.stderr)  # an error line may quote what was typed
    # help and usage errors end here: no settings, no database driver
    args = parse(build_parser(verb=words[0] if words else None), words)
    # JSON stays exact: its values are escaped the JSON way, which a parser reads back as they were.
    sys.stdout = Escaping(sys.stdout, json_safe if getattr(args, "json", False) else printable)
    if args.command == "recall" and not (args.taken or args.vloot):
        _recall_here(args)
    settings = load_settings_or_exit()
    ends_with_ctrl_c = getattr(args, "ends_with_ctrl_c", False)  # `taak tail`, the cockpit
    code = run(settings, lambda: args.handler(args, settings), ends_with_ctrl_c=ends_with_ctrl_c)
    raise SystemExit(int(code))


def _in_a_queue_session(words: list[str]) -> None:
    """A verb of the session's own task goes to the daemon (and ends here); one that reads only this machine goes
    on; any other is refused."""
    from worker.cli import session  # start-up: below the hooks, as every import from here on

    if words[:1] and words[0] in session.SOCKET_VERBS:
        from worker.cli.args import use_argparse_words  # start-up: as above

        use_argparse_words()  # before the parser is built: its section titles are taken then
        raise SystemExit(session.main(build_parser(verb=words[0]), words))
    if words[:1] and words[0] not in session.LOCAL_VERBS:
        session.refuse_outside_the_daemon(words[0])


def _recall_here(args: Any) -> None:
    """`taak recall` on this machine's archive needs a folder, a time zone and a language: read as the owner's
    hooks read theirs (worker/hooks/place.py), it starts in a fraction of the time the settings class takes, and
    loads no database driver. A value that reader does not take as plainly good, or a `.env` file here (whose lines
    the settings class judges), leaves the command to the settings class, as before."""
    if os.path.exists(".env"):
        return
    from worker.cli import memory  # start-up: as above
    from worker.cli.args import run_here  # start-up: as above
    from worker.hooks.place import read_place  # start-up: as above

    if (place := read_place()) is not None:
        raise SystemExit(int(run_here(place.language, lambda: memory.recall_here(args, place))))


def _hook_misused(words: list[str]) -> int:
    """`taak hook` with words no hook takes (a settings.json of another version): argparse says what is wrong
    in one line, as for any command, but the exit code is 0 and the line is in hooks.log. A hook never breaks
    a session, and exit 2 would block the prompt or the compaction. Help is help."""
    import contextlib
    import io
    import time

    # start-up: a misused hook only
    from worker.cli.args import parse, use_argparse_words
    from worker.hooks.entry import data_dir_anyway, record_hook_run  # start-up: as above

    started = time.monotonic()
    use_argparse_words()  # before the parser is built: its section titles are taken then
    said = io.StringIO()
    with contextlib.redirect_stderr(said):
        try:
            parse(build_parser(), words)
        except SystemExit as exc:
            if exc.code in (0, None):  # --help
                return 0
    line = said.getvalue().strip()
    print(line, file=sys.stderr)
    name = words[1] if len(words) > 1 else "hook"
    record_hook_run(data_dir_anyway(), name, os.environ.get("TAAK_ID"), None, started, error=line, code=0)
    return 0


MEMORY_VERBS = ("recall", "archief", "lll")  # worker/cli/memory.PARSERS, without loading that module


def build_parser(*, verb: str | None = None) -> Any:
    """Every verb's parser; for a verb of one task or of the memory only that verb's, all a command needs to
    read its words (faster: argparse takes milliseconds a verb to build, and every module more to load)."""
    # start-up: below the hooks
    from worker.cli import tasks
    from worker.cli.args import Parser, add_verbs, in_the_runs_language  # start-up: as above

    parser = Parser(prog="taak", description="The task ledger of the bot fleet.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser, metavar="VERB")
    if verb in tasks.PARSERS:
        add_verbs(sub, tasks.PARSERS, only=verb)
    elif verb in MEMORY_VERBS:
        from worker.cli import memory  # start-up: a verb's parser, not every module's

        add_verbs(sub, memory.PARSERS, only=verb)
    else:
        from worker.cli import fleet, memory, setup  # start-up: as above

        for module in (tasks, memory, fleet, setup):
            add_verbs(sub, module.PARSERS)
    return in_the_runs_language(parser)


if __name__ == "__main__":  # pragma: no cover
    main()
