"""`taak` inside a queue session: one request to its daemon over TAAK_SOCKET, never to the database.

The session holds no database URL or password: the daemon checks the task and the lease token, keeps
every write in its journal before it answers, and writes it to Postgres (through outages). The same
parsers as everywhere read the command line; this module and what it imports need only the standard
library, so a `taak log` here costs little more than starting Python.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable

from worker.cli import args as a
from worker.cli.guard import discard_output
from worker.cli.tasks import BLOKKEER_USAGE, STAP_USAGE, VRIJGEVEN_USAGE
from worker.client import ANSWER_TIMEOUT_SECONDS, Unanswered, exchange, no_daemon
from worker.core.catalogue import message
from worker.core.errors import ExitCode, InvalidInput, TaakError
from worker.core.language import early_language
from worker.core.model import TEXT_MAX_CHARS, VOLGENDE_STAP_MAX_CHARS
from worker.core.terminal import json_safe, printable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SOCKET_VERBS = frozenset({"log", "klaar", "blokkeer", "vrijgeven", "stap", "toon", "brief"})
# Verbs that need no database: the local archive, "where are we now", the memory folder, help.
LOCAL_VERBS = frozenset({"recall", "lll", "geheugen", "claude-md", "hook", "-h", "--help"})


def main(parser: a.Parser, words: list[str]) -> int:
    args = a.parse(parser, words)
    try:
        request = REQUESTS[args.command](args)
        _within_limits(args.command, request)
        answer = ask(os.environ["TAAK_SOCKET"], {**request, "op": args.command, "taal": early_language()})
    except TaakError as exc:
        a.fail(exc.render(early_language()), exc.exit_code)
    out = answer.get("out") or ""
    as_json = bool(getattr(args, "json", False))
    if args.command == "brief" and as_json:
        out = json.dumps({"id": request["id"], "briefing": out}, ensure_ascii=False)
    try:
        # Text from the ledger is anyone's: escaped as on the owner's side; JSON stays exact.
        if out:
            print(json_safe(out) if as_json else printable(out))
        if answer.get("err"):
            print(f"taak: {printable(answer['err'])}", file=sys.stderr)
    except BrokenPipeError:  # `taak toon --json | head -c 300`
        discard_output()
    return int(answer.get("code", ExitCode.REFUSED))


def _within_limits(op: str, request: dict[str, Any]) -> None:
    """A text past its limit is refused here, as the daemon would, before a request too large for its socket is
    sent: the next step's (VOLGENDE_STAP_MAX_CHARS), any other TEXT_MAX_CHARS."""
    limit = VOLGENDE_STAP_MAX_CHARS if op == "stap" else TEXT_MAX_CHARS
    for name, value in request.items():
        if isinstance(value, str) and len(value) > limit:
            what = "volgende stap" if op == "stap" else name
            raise InvalidInput("too_long", what=what, length=len(value), limit=limit)


def refuse_outside_the_daemon(verb: str) -> None:
    a.fail(message("not_in_session", early_language(), verb=verb), ExitCode.REFUSED)


def ask(path: str, request: dict[str, Any]) -> dict[str, Any]:
    try:
        answer = exchange(path, request)
    except Unanswered:
        seconds = f"{ANSWER_TIMEOUT_SECONDS:g}"
        a.fail(message("daemon_unanswered", early_language(), path=path, seconds=seconds), ExitCode.UNREACHABLE)
    except (OSError, ValueError) as exc:
        a.fail(no_daemon(path, exc, early_language()), ExitCode.UNREACHABLE)
    return answer if isinstance(answer, dict) else {}


# --- one request per verb, from the same parsed arguments as the database path -----------------------


def _task(explicit: str | None) -> dict[str, Any]:
    own = argparse.Namespace(id=os.environ.get("TAAK_ID") or None, token=os.environ.get("TAAK_TOKEN"))
    task_id, token = a.session_task(own, explicit)
    return {"id": task_id, "token": token}


def _log(args: argparse.Namespace) -> dict[str, Any]:
    explicit, rest = a.split_id(args.words)
    soort, tekst = a.log_words(explicit, rest)
    return {**_task(explicit), "soort": soort.value, "tekst": tekst}


def _klaar(args: argparse.Namespace) -> dict[str, Any]:
    explicit, rest = a.split_id(args.words)
    return {**_task(explicit), "bewijs": args.bewijs or "", "tekst": a.joined(rest)}


def _blokkeer(args: argparse.Namespace) -> dict[str, Any]:
    explicit, tekst = a.task_and_text(args.words, BLOKKEER_USAGE, text=True)
    return {**_task(explicit), "tekst": tekst, **({"dringend": True} if args.dringend else {})}


def _vrijgeven(args: argparse.Namespace) -> dict[str, Any]:
    explicit, _ = a.task_and_text(args.words, VRIJGEVEN_USAGE, text=False)
    return {**_task(explicit), "reden": a.unless_blank(args.reden)}


def _stap(args: argparse.Namespace) -> dict[str, Any]:
    explicit, tekst = a.task_and_text(args.words, STAP_USAGE, text=True)
    return {**_task(explicit), "tekst": tekst}


REQUESTS: dict[str, Callable[[argparse.Namespace], dict[str, Any]]] = {
    "log": _log,
    "klaar": _klaar,
    "blokkeer": _blokkeer,
    "vrijgeven": _vrijgeven,
    "stap": _stap,
    "toon": lambda args: {**_task(args.id), "json": args.json},
    "brief": lambda args: {**_task(args.id), "compact": args.compact},
}
