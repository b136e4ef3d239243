"""Reading a command line the way people type it, and what the command modules share: the settings, the
command's store on one connection, a failure said as one line with its exit code.

IDs, options and free text may come in any order (`taak klaar ID --bewijs B TEKST` and
`taak klaar --bewijs B ID TEKST` are the same); a positional word that starts with `HV-` is the
task ID, every other word is text. Every refusal is one line and an exit code (core/errors.py).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
from collections.abc import AsyncIterator, Iterator, Sequence

from worker.cli.guard import GuardedOutput, OutputLost
from worker.core.catalogue import from_english, message
from worker.core.errors import ExitCode, InvalidInput, Refused, TaakError
from worker.core.language import early_language, language_setting_problem, unreadable_dotenv
from worker.core.model import INT_MAX, INT_MIN, OWNER_KINDS, SESSION_KINDS, Soort, is_task_id, shown_name
from worker.core.terminal import QUOTED_MAX_CHARS, bytes_shown, is_blank, not_utf8, quoted

TYPE_CHECKING = False
if TYPE_CHECKING:  # the in-session client parses with these parsers and must not load the settings or asyncpg
    from collections.abc import Awaitable, Callable
    from typing import Any, NoReturn, Protocol, TypeVar

    from _typeshed import SupportsWrite

    from worker.db.store import Store
    from worker.settings import Settings

    T = TypeVar("T")
    Arg = tuple[tuple[str, ...], dict[str, Any]]  # an argument of a verb: its names and add_argument's options

    class OwnTask(Protocol):
        """The task a command acts on when it names none: the settings', or in a queue session its environment's."""

        @property
        def id(self) -> str | None: ...

        @property
        def token(self) -> str | None: ...


def load_settings_or_exit(program: str = "taak") -> Settings:
    # start-up: the settings only once a verb runs (help and the in-session client load none)
    from worker.settings import Settings, SettingsError, unreadable_settings

    if (said := unreadable_dotenv(".env")) is not None:
        fail(said, ExitCode.USAGE, program)
    try:
        return Settings()
    except TaakError as exc:
        fail(exc.render(early_language()), exc.exit_code, program)
    except (SettingsError, UnicodeDecodeError) as exc:
        fail(unreadable_settings(exc, early_language()) or str(exc), ExitCode.USAGE, program)


@contextlib.asynccontextmanager
async def store(settings: Settings) -> AsyncIterator[Store]:
    """The command's one way to the database, on one connection."""
    # start-up: the database driver (asyncpg) only for the verbs that use the database
    from worker.db.connect import connect_one, resolve_database
    from worker.db.migrate import migrate, set_timezone  # start-up: as above
    from worker.db.store import Store  # start-up: as above

    database = await resolve_database(settings)
    conn = await connect_one(settings, database)
    try:
        if settings.database is None:
            # The embedded database is private to this machine: keep it migrated without asking.
            await migrate(conn)
            await set_timezone(conn, settings.timezone)
        yield Store(conn, settings)
    finally:
        await conn.close()


def run(settings: Settings, work: Callable[[], Awaitable[T]], *, ends_with_ctrl_c: bool = False) -> T:
    """Run one command's async work; turn every expected failure into one line and its exit code. Ctrl-C is the
    way `taak tail` and the cockpit end (exit 0); any other command it interrupts did not happen (130), also
    while it waits for a database that is away: `ID=$(taak nieuw ...) || ...` must not see a success."""
    import asyncio  # not anyio.run: its import was 18 ms of every owner's command, and asyncio's loop serves it
    import logging

    from worker.db.failures import failure_line  # start-up: asyncpg, as above

    finished: list[T] = []

    async def done_when_returned() -> T:
        result = await work()
        finished.append(result)
        ignore_ctrl_c_from_now()  # said and done: the event loop's end and the interpreter's exit are no command
        return result

    try:
        return asyncio.run(done_when_returned())
    except KeyboardInterrupt:
        if finished:
            # asyncio takes a Ctrl-C as a cancel at the command's next wait; a command that had none left (`lll`,
            # a file written) finished, said so, and was then reported cancelled: it is done, with its own code.
            return finished[0]
        # A connect cut short leaves asyncpg's future unread; asyncio would say so on stderr as the process ends.
        logging.getLogger("asyncio").disabled = True
        raise SystemExit(ExitCode.OK if ends_with_ctrl_c else ExitCode.INTERRUPTED) from None
    except (BrokenPipeError, OutputLost):  # stdout, not the database (`| head`, a full disk): the command's guard
        raise  # says it (worker/cli/guard.guarded)
    except Exception as exc:
        said = failure_line(exc, settings)
        fail(*(said or _internal_error(exc, settings.language)))


def run_here(language: str, work: Callable[[], int]) -> int:
    """A command's work with no event loop and no database (`taak recall` on this machine's archive), its failures
    said as `run` says them; a Ctrl-C is the guard's (worker/cli/guard.py), as while the command loads."""
    from worker.core.catalogue import file_error_line  # start-up: only when something failed, below

    try:
        code = work()
    except (BrokenPipeError, OutputLost):  # stdout, as in `run`
        raise
    except TaakError as exc:
        fail(exc.render(language), exc.exit_code)
    except Exception as exc:
        if isinstance(exc, OSError) and (line := file_error_line(exc, language)):
            fail(line, ExitCode.REFUSED)
        fail(*_internal_error(exc, language))
    ignore_ctrl_c_from_now()
    return code


def _internal_error(exc: BaseException, language: str) -> tuple[str, ExitCode]:
    """A bug: still one line for the user (its first line); the traceback is no help at a terminal."""
    lines = str(exc).strip().splitlines()
    detail = f"{type(exc).__name__}: {lines[0] if lines else type(exc).__name__}"
    return message("internal_error", language, detail=detail), ExitCode.REFUSED


@contextlib.asynccontextmanager
async def store_for_a_change(settings: Settings) -> AsyncIterator[Store]:
    """The database for a verb that changes something: once connected, its change is on its way (below)."""
    async with store(settings) as opened:
        with ctrl_c_after_it_is_done(settings):
            yield opened


def ignore_ctrl_c_from_now() -> None:
    """A command whose work is done and said ends with its own code: a Ctrl-C in its last moments (closing the
    event loop, the interpreter's exit) ended `taak bot aan` or `taak lll` with 130 or by the signal, so a script
    took a change that was made for one that failed. Ignored, not handled: Python puts its own default back at
    exit for a handler, and leaves an ignored one."""
    import signal

    with contextlib.suppress(ValueError):  # not the main thread: nothing to ignore
        signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def ctrl_c_after_it_is_done(settings: Settings) -> Iterator[None]:
    """From here the command's change is on its way to the database: a first Ctrl-C is taken once it is done
    and said (exit 0), and says so on stderr. A Ctrl-C in the last moment made a task and said nothing, with
    exit 130, and `ID=$(taak nieuw ...) || taak nieuw ...` made it twice. A second Ctrl-C stops at once (130;
    then the change may have happened all the same). Before this, waiting for the database, Ctrl-C stops at
    once: nothing was sent. Once the change is made and said, the command is done: a Ctrl-C in its last moments
    (closing the connection, the interpreter's exit) is ignored, so it cannot end a done command with 130 or
    by the signal."""
    import signal

    pressed: list[int] = []

    def later(signum: int, _frame: object) -> None:
        if pressed:
            raise KeyboardInterrupt
        pressed.append(signum)
        print(f"taak: {message('ctrl_c_finishing', settings.language)}", file=sys.stderr, flush=True)

    try:
        previous = signal.signal(signal.SIGINT, later)
    except ValueError:  # not the main thread: nothing to defer
        yield
        return
    if _ctrl_c_already_pressed():  # before the change began, while asyncio held Ctrl-C: nothing is done yet
        signal.signal(signal.SIGINT, previous)
        raise KeyboardInterrupt
    try:
        yield
    except BaseException:
        signal.signal(signal.SIGINT, previous)
        raise
    ignore_ctrl_c_from_now()


def _ctrl_c_already_pressed() -> bool:
    """asyncio takes a Ctrl-C as a cancel of the command, delivered at its next wait: a command that does its
    change without waiting (a file) would go on to make it, say it, and then end cancelled (130)."""
    import asyncio

    try:
        task = asyncio.current_task()
    except RuntimeError:  # no event loop: Python's own KeyboardInterrupt stops the command where it is
        return False
    return task is not None and task.cancelling() > 0


def fail(line: str, code: int, program: str = "taak") -> NoReturn:
    if line.startswith("usage: "):  # a verb's own usage line, in the run's language like argparse's
        rest = line.removeprefix("usage: ")
        line = argparse_words("usage: ") + (dutch_placeholders(rest) if early_language() == "nl" else rest)
    with contextlib.suppress(OSError):  # a stderr that cannot be written (`2>/dev/full`) leaves the exit code to say it
        print(f"{program}: {line}", file=sys.stderr)
    raise SystemExit(int(code))


def argparse_words(text: str) -> str:
    """argparse's own words (its messages go through gettext's `_`), in Dutch when the run is Dutch."""
    return from_english("help.argparse", "nl").get(text, text) if early_language() == "nl" else text


def in_the_runs_language(parser: Parser) -> Parser:
    """The parsers' help texts in Dutch in a Dutch run (the catalogue's `help.` keys); they are written in
    English."""
    if early_language() != "nl":
        return parser
    help_nl = from_english("help", "nl")

    def walk(current: argparse.ArgumentParser) -> None:
        current.description = help_nl.get(current.description or "", current.description)
        current.usage = dutch_placeholders(current.usage) if current.usage else current.usage
        for action in current._actions:
            action.help = help_nl.get(action.help or "", action.help)
            if isinstance(action.metavar, str):
                action.metavar = dutch_placeholders(action.metavar)
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    choice.help = help_nl.get(choice.help or "", choice.help)
                for child in dict.fromkeys(action.choices.values()):
                    walk(child)

    walk(parser)
    return parser


def dutch_placeholders(text: str) -> str:
    """A usage line or an argument's placeholder with its English words in Dutch (`TEXT` becomes `TEKST`)."""
    dutch = from_english("placeholder", "nl")
    # One pair of lookarounds around the alternatives: the same matches as one pair per word, compiled in a
    # third of the time (a Dutch run compiles it once).
    words = "|".join(map(re.escape, dutch))
    return re.sub(rf"(?<![\w-])(?:{words})(?![\w-])", lambda found: dutch[found.group(0)], text)


def use_argparse_words() -> None:
    """argparse looks its words up through its module's `_` when it builds a parser and when it fails: the
    `taak` process (never an importer such as a test runner) points it here, before its parsers are made."""
    argparse._ = argparse_words  # type: ignore[attr-defined]


class Parser(argparse.ArgumentParser):
    """argparse that fails with one line and exit code 2 (usage), like every other refusal, in the run's
    language."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.stand_ins: dict[str, str] = {}  # the words after `--`, by what stood in for them while parsing
        self.typed: list[str] = []  # the words this parser was given, for the hint about a text with a dash

    def _get_option_tuples(self, option_string: str) -> list[tuple[argparse.Action, str, str | None]]:
        # `--lim` matched `--limiet` and `--limit`, two spellings of one option, and was refused as ambiguous.
        found = super()._get_option_tuples(option_string)
        return found[:1] if len({match[0].dest for match in found}) == 1 else found

    def _print_message(self, said: str, file: SupportsWrite[str] | None = None) -> None:
        # argparse would swallow a failed write: help into a full disk would end as a success with nothing shown.
        if said:
            (file or sys.stderr).write(said)

    def print_help(self, file: SupportsWrite[str] | None = None) -> None:
        if isinstance(sys.stdout, GuardedOutput):  # help changes nothing: a failed write must not say it might have
            sys.stdout.help_only = True
        super().print_help(file)
        if problem := language_setting_problem():  # help loads no settings, so it says this one itself
            sys.stderr.write(f"{self.prog.split()[0]}: {problem}\n")

    def error(self, said: str) -> NoReturn:
        for stand_in, word in self.stand_ins.items():
            said = said.replace(stand_in, word)
        said = cut_typed_values(said, self.typed)
        if self._words_went_missing(said) and (typed_again := self._as_text_after_double_dash()):
            said += "; " + message("dash_text_hint", early_language(), word=typed_again[0], retyped=typed_again[1])
        # Every command takes -h; the verbs' own usage lines leave it out, and so does a group's made by argparse.
        usage = self.format_usage().strip().split(": ", 1)[-1].replace(" [-h]", "")
        usage_word = argparse_words("usage: ").rstrip(": ")
        fail(f"{said} ({usage_word}: {usage})", ExitCode.USAGE, program=self.prog.split()[0])

    @staticmethod
    def _words_went_missing(said: str) -> bool:
        """A required text missing, or a word left over: what a text taken for an option leads to."""
        missing = argparse_words("the following arguments are required: %s").split("%s")[0]
        left_over = argparse_words("unrecognized arguments: %s").split("%s")[0]
        return said.startswith((missing, left_over))

    def _as_text_after_double_dash(self) -> tuple[str, str] | None:
        """The word that starts with one dash and is no option of this verb (`-x`, `-5C`), and the command as typed
        with `--` before it; None where that could not work: a verb that takes no free text, a word that is the
        value of the option before it (`--bewijs -x` wants `--bewijs=-x`), or options after it."""
        import shlex

        takes_text = any(not action.option_strings and action.nargs in ("*", "+") for action in self._actions)
        position = self._stray_dash_word()
        if not takes_text or "--" in self.typed or position is None:
            return None
        before, word, after = self.typed[:position], self.typed[position], self.typed[position + 1 :]
        option = self._option_string_actions.get(before[-1]) if before else None
        if (option is not None and option.nargs != 0) or any(w.startswith("-") for w in after):
            return None
        return word, shlex.join([*self.prog.split(), *before, "--", word, *after])

    def _stray_dash_word(self) -> int | None:
        for position, word in enumerate(self.typed):
            one_dash = word.startswith("-") and not word.startswith("--") and word != "-"
            if one_dash and word.split("=", 1)[0] not in self._option_string_actions:
                return position
        return None


def cut_typed_values(said: str, typed: Sequence[str]) -> str:
    """argparse quotes what was typed whole (`invalid choice: 'xxx…'`, `unrecognized arguments: ...`); a long
    word, or the value after its `=`, is cut as every error line cuts what it quotes."""
    long_parts = {part for word in typed for part in (word, *word.split("=", 1)) if len(part) > QUOTED_MAX_CHARS}
    for part in sorted(long_parts, key=len, reverse=True):
        said = said.replace(part, quoted(part))
    return said


def parse(parser: Parser, words: Sequence[str]) -> argparse.Namespace:
    """Parse with options and positionals intermixed, one level of verbs at a time.

    argparse's intermixed parsing refuses parsers with sub-commands, so the verb is looked up here
    and its own parser reads the rest."""
    for position, word in enumerate(words, start=1):
        if not_utf8(word):
            said = message("bad_text_encoding", early_language(), position=position, shown=quoted(bytes_shown(word)))
            fail(said, ExitCode.USAGE, program=parser.prog.split()[0])
    use_argparse_words()
    parser.typed = list(words)
    verbs = _subparsers(parser)
    if verbs is None:
        if parser.usage is None:
            # argparse's intermixed parsing keeps the usage line minus its first 7 characters, the length of
            # "usage: ": a Dutch "gebruik: " left ": " behind. Said here without any prefix, it keeps it whole.
            formatter = parser._get_formatter()
            formatter.add_usage(None, parser._actions, parser._mutually_exclusive_groups, prefix="")
            parser.usage = formatter.format_help().strip()
        given, parser.stand_ins = _text_after_end_of_options(words)
        namespace = parser.parse_intermixed_args(given)
        for name, value in vars(namespace).items():
            setattr(namespace, name, _put_back(value, parser.stand_ins))
        return namespace
    if words and words[0] in verbs.choices:
        namespace = parse(verbs.choices[words[0]], words[1:])
        setattr(namespace, verbs.dest, words[0])
        return namespace
    return parser.parse_args(list(words))  # help, or the error for a missing or unknown verb


def _text_after_end_of_options(words: Sequence[str]) -> tuple[list[str], dict[str, str]]:
    """Every word after `--` is text, even one that starts with a dash (`taak recall -- -x`). Python 3.11's
    intermixed parsing drops or refuses them, so they go in as stand-ins that cannot look like an option and
    come back after parsing."""
    if "--" not in words:
        return list(words), {}
    cut = list(words).index("--")
    tag = os.urandom(4).hex()
    stand_ins = {f"@{tag}.{n}": word for n, word in enumerate(words[cut + 1 :])}
    return [*words[:cut], *stand_ins], stand_ins


def _put_back(value: Any, stand_ins: dict[str, str]) -> Any:
    if isinstance(value, list):
        return [_put_back(item, stand_ins) for item in value]
    if isinstance(value, str):
        return stand_ins.get(value, value)
    if value is not None and str(value) in stand_ins:  # a path (`type=Path`) made of a stand-in
        return type(value)(stand_ins[str(value)])
    return value


def _subparsers(parser: argparse.ArgumentParser) -> Any:
    return next((action for action in parser._actions if isinstance(action, argparse._SubParsersAction)), None)


def arg(names: str, metavar: str | None, help: str, **options: Any) -> Arg:
    """One argument of a verb's parser, as `Verb` takes it: its names (`-n --limiet`), placeholder and help."""
    return tuple(names.split()), {"help": help, **options, **({"metavar": metavar} if metavar else {})}


def flag(name: str, help: str) -> Arg:
    return (name,), {"action": "store_true", "help": help}


JSON = flag("--json", "print JSON instead of text")


def limit(default: int, what: str) -> tuple[Arg, Arg]:
    """`--limiet N` (and `-n N`) for every verb that shows a bounded number of rows; `--limit` still works."""
    return (
        arg("-n --limiet", "N", f"{what} (default {default})", type=whole_number, default=default),
        arg("--limit", None, argparse.SUPPRESS, dest="limiet", type=whole_number),
    )


class Verb:
    """A verb's parser as data: its help, usage line, arguments, and defaults (the handler among them)."""

    def __init__(
        self, help: str, usage: str | None, *arguments: Arg, description: str | None = None, **defaults: Any
    ) -> None:
        self.help, self.usage, self.description = help, usage, description
        self.arguments, self.defaults = arguments, defaults

    def add(self, sub: Any, name: str, **defaults: Any) -> argparse.ArgumentParser:
        parser: argparse.ArgumentParser = sub.add_parser(
            name, help=self.help, usage=self.usage, description=self.description
        )
        for names, options in self.arguments:
            parser.add_argument(*names, **options)
        parser.set_defaults(**{**defaults, **self.defaults})
        return parser


class Group(Verb):
    """A verb with verbs of its own (`taak bot aan`); each takes the group's defaults."""

    def __init__(self, help: str, dest: str, verbs: dict[str, Verb], *, required: bool = True, **defaults: Any) -> None:
        super().__init__(help, defaults.pop("usage", None), **defaults)  # a description too
        self.dest, self.verbs, self.required = dest, verbs, required

    def add(self, sub: Any, name: str, **defaults: Any) -> argparse.ArgumentParser:
        parser = super().add(sub, name, **defaults)
        group = parser.add_subparsers(dest=self.dest, required=self.required, parser_class=Parser, metavar="VERB")
        add_verbs(group, self.verbs, **self.defaults)
        return parser


def add_verbs(sub: Any, verbs: dict[str, Verb], only: str | None = None, **defaults: Any) -> None:
    for name, verb in verbs.items():
        if only is None or name == only:
            verb.add(sub, name, **defaults)


# Digits as typed on a keyboard: int() would also take `١٢`, full-width digits and `1_0`.
WHOLE_NUMBER = re.compile(r"\s*[+-]?[0-9]+\s*")


def whole_number(text: str, lowest: int = INT_MIN, highest: int = INT_MAX) -> int:
    """argparse's type for a count or a number stored as an integer, from `lowest` to `highest`."""
    if not WHOLE_NUMBER.fullmatch(text):
        raise argparse.ArgumentTypeError(message("not_a_number", early_language(), value=shown_name(text)))
    digits = text.strip().lstrip("+-").lstrip("0")
    negative = text.strip().startswith("-")
    # Counted before int(), which refuses more than 4,300 digits with a message of its own.
    value = int(text) if len(digits) <= len(str(INT_MAX)) else (INT_MIN - 1 if negative else INT_MAX + 1)
    if lowest <= value <= highest:
        return value
    key, limit = ("number_too_small", lowest) if value < lowest else ("number_too_large", highest)
    raise argparse.ArgumentTypeError(message(key, early_language(), value=shown_name(text.strip()), limit=limit))


def print_json(value: Any) -> int:
    """A verb's --json: indented, its text as it is (not escaped to ASCII)."""
    from worker.core.show import json_value  # start-up: only when JSON is printed

    print(json.dumps(value, ensure_ascii=False, indent=2, default=json_value))
    return ExitCode.OK


def positive(value: int, option: str, minimum: int = 1) -> int:
    if value < minimum:
        raise InvalidInput("bad_number", what=option, minimum=minimum)
    return value


# --- task IDs, tokens and free text -------------------------------------------------------------


def split_id(words: Sequence[str]) -> tuple[str | None, list[str]]:
    """The task ID among the positional words (the first one that starts with HV-), and the other words."""
    for index, word in enumerate(words):
        if word.upper().startswith("HV-"):
            return word, [*words[:index], *words[index + 1 :]]
    return None, list(words)


def joined(words: Sequence[str]) -> str:
    """Free text given as several words (unquoted on the command line) is one text."""
    return " ".join(words)


def unless_blank(value: str | None) -> str | None:
    """An option that may be left out (`--reden`): given blank (spaces, invisible characters), it is left out."""
    return None if value is None or is_blank(value) else value


def session_task(settings: OwnTask, explicit: str | None) -> tuple[str, str | None]:
    """The task to act on and the token that goes with it (only the session's own task has one)."""
    task_id = explicit or settings.id
    if task_id is None:
        raise InvalidInput("no_id")
    if not is_task_id(task_id):
        raise InvalidInput("bad_id", value=task_id)
    token = settings.token if task_id == settings.id else None
    return task_id, token


def task_and_text(words: Sequence[str], usage: str, *, text: bool) -> tuple[str | None, str]:
    """The task ID among a verb's words and the text after it, which the verb requires (`text`) or refuses."""
    explicit, rest = split_id(words)
    if text and not rest:
        fail(f"usage: {usage}", ExitCode.USAGE)
    if not text and rest:
        fail(f"usage: {usage} (unexpected: {joined(rest)})", ExitCode.USAGE)
    return explicit, joined(rest)


def need_token(task_id: str, token: str | None, command: str) -> str:
    if token is None:
        raise Refused("no_token", id=task_id, command=command)
    return token


def log_words(explicit: str | None, rest: list[str]) -> tuple[Soort, str]:
    """`taak log`'s SOORT TEXT after its ID: a kind it writes, then its text; a missing text is said as such, with
    the command as it was typed (only the usage line answered `taak log HV-... notitie`)."""
    if not rest:
        fail("usage: taak log [ID] SOORT TEXT", ExitCode.USAGE)
    try:
        kind = Soort(rest[0])
    except ValueError:
        allowed = ", ".join(sorted(SESSION_KINDS | OWNER_KINDS))  # the kinds `taak log` writes at all
        raise InvalidInput("unknown_soort", value=rest[0], allowed=allowed) from None
    if len(rest) < 2:
        command = " ".join(["taak", "log", *([explicit] if explicit else []), kind.value])
        raise InvalidInput("log_text_missing", soort=kind.value, command=command)
    return kind, read_text(joined(rest[1:]))


async def who(store: Store, settings: Settings) -> str:
    """Who writes: the session's bot, else the owner (the fleet's name once `taak eigenaar zet` set it, else
    TAAK_OWNER, else the OS user)."""
    from worker.db.owner import owner_name  # start-up: asyncpg, for the verbs that use the database

    return settings.bot or await owner_name(store.db, settings)


def said(settings: Settings, key: str, **values: Any) -> str:
    """A success line from the message catalogue, in TAAK_LANGUAGE."""
    return message(key, settings.language, **values)


def read_text(value: str) -> str:
    """`-` reads the text from stdin (an opdracht with quotes and newlines needs no shell escaping)."""
    if value != "-":
        return value
    if sys.stdin is None:  # `<&-`: Python leaves no stdin at all
        raise InvalidInput("stdin_closed")
    raw = sys.stdin.buffer.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInput("not_utf8") from None
    # The one line end that `echo` and an editor put after the last line is not part of the text.
    return text.removesuffix("\n").removesuffix("\r") if text.endswith("\n") else text


def context_pairs(pairs: list[str]) -> dict[str, str]:
    context: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise InvalidInput("bad_context", value=pair)
        if is_blank(key) or is_blank(value):  # a name and a value a reader can see
            raise InvalidInput("blank_context_key" if is_blank(key) else "blank_context_value", value=pair)
        if context.get(key.strip(), value) != value:  # frozen facts: one of the two would be lost without a word
            raise InvalidInput("context_key_twice", name=key.strip())
        context[key.strip()] = value
    return context
