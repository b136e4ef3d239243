"""The one reader of the environment: every `TAAK_` setting lives here.

Read by the standard library, not by pydantic: each setting is declared once below with its default and the
readers its text goes through (a number and its bounds, a switch, a path made absolute, a rule of ours), and every
setting that cannot be read is said at once, in the run's language. pydantic did this before and cost 150 ms of
every command's start, more than the rest of an owner's `taak lijst` together (issue 42)."""

from __future__ import annotations

import math
import os
import re
import shlex
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from datetime import date, datetime, time
from functools import cached_property
from pathlib import Path
from zoneinfo import ZoneInfo

from worker.core.catalogue import Sayable, message
from worker.core.defaults import default_data_dir, default_memory_dir, file_in_the_way
from worker.core.dsn import DatabaseUrl, parse_database_url
from worker.core.language import SWITCHES, known_zone, taak_variables
from worker.core.model import INT_MAX, NAME_MAX_CHARS, bot_name, is_bot_name, shown_name
from worker.core.owner_channel import NoTime, Quiet, digest_times, quiet_hours
from worker.core.terminal import is_blank, not_utf8, printable

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing for the type checker only: a hook that reads the settings loads none of it
    from typing import Any, Literal, TypeVar

    Language = Literal["nl", "en"]
    N = TypeVar("N", int, float)
    # The readers a setting's value goes through, in order: each takes the value as the environment (text) or the
    # code (its type) gives it and answers it read, or raises Refused. A value read already reads as itself, so
    # that `Settings.replaced` can give every value back.
    Reader = Callable[[Any], Any]


class Refused(ValueError):
    """A value a setting cannot take: a catalogue key and the values its line is filled with, said by
    `settings_problem` in the run's language. `field` is the setting's, once the settings class knows it."""

    def __init__(self, key: str, field: str = "", **values: object) -> None:
        super().__init__(key)
        self.key, self.field, self.values = key, field, values
        self.old_name = False  # the value came under the setting's old name (RENAMED), which is the one said

    @property
    def variable(self) -> str:
        return RENAMED[self.field] if self.old_name else f"TAAK_{self.field.upper()}"


class Environment(dict[str, str]):
    """The variables the settings were read from, said by their number only: they may hold the database password."""

    def __repr__(self) -> str:
        return f"Environment({len(self)} variables)"


class SettingsError(ValueError):
    """Every setting that cannot be read; its text is the English line of each."""

    def __init__(self, problems: list[Refused]) -> None:
        super().__init__("; ".join(settings_problem(problem, "en") for problem in problems))
        self.problems = problems


class Secret:
    """A value that is never shown: a repr, a log line or an error has stars where it stands."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def get_secret_value(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret('**********')"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)


class Choices(Sayable):
    """The values a setting may take, as a line says them: `'nl' of 'en'`."""

    def __init__(self, choices: tuple[str, ...]) -> None:
        self.choices = choices

    def said(self, language: str) -> str:
        quoted = [repr(choice) for choice in self.choices]
        return f"{', '.join(quoted[:-1])} {message('setting_or', language)} {quoted[-1]}"


WHOLE = re.compile(r"[+-]?[0-9]+")
DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?|[+-]?(inf|infinity|nan)", re.IGNORECASE)


def text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"a setting's text, not {type(value).__name__}")
    return value


def switch(value: object) -> bool:
    if isinstance(value, bool):
        return value
    said = SWITCHES.get(str(value).strip().lower())
    if said is None:
        raise Refused("setting_yes_or_no")
    return said


def whole(ge: int | None = None, le: int | None = None) -> Reader:
    def read(value: object) -> int:
        if isinstance(value, str):
            value = value.strip()
            if WHOLE.fullmatch(value):
                try:
                    value = int(value)
                except ValueError:  # more digits than Python reads: no count is that large
                    raise Refused("setting_too_large") from None
            elif DECIMAL.fullmatch(value):  # `5.0`, `1e3`: a whole number written as a decimal one
                value = float(value)
        if isinstance(value, float):
            if not value.is_integer():  # `inf` and `nan` are no whole numbers either
                raise Refused("setting_whole_number")
            value = int(value)
        if not isinstance(value, int):
            raise Refused("setting_whole_number")
        return bounded(value, ge=ge, le=le)

    return read


# Every number that is no count is a time: at most a century, so that now plus it is still a date (a retry after
# 1e300 seconds left its task running for ever, outside try of this reader).
CENTURY_SECONDS = 100 * 365 * 86_400
CENTURY_HOURS = CENTURY_SECONDS // 3600


def number(ge: float | None = None, gt: float | None = None, le: float = CENTURY_SECONDS) -> Reader:
    def read(value: object) -> float:
        if isinstance(value, str):
            if not DECIMAL.fullmatch(value.strip()):
                raise Refused("setting_number")
            value = float(value)
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise Refused("setting_number")
        if not math.isfinite(value):  # a lease extended every `inf` seconds is never extended
            raise Refused("setting_finite_number")
        return float(bounded(value, ge=ge, gt=gt, le=le))

    return read


def bounded(value: N, *, ge: float | None = None, gt: float | None = None, le: float | None = None) -> N:
    if ge is not None and value < ge:
        raise Refused("setting_at_least", limit=_limit_said(ge))
    if gt is not None and value <= gt:
        raise Refused("setting_above", limit=_limit_said(gt))
    if le is not None and value > le:
        raise Refused("setting_at_most", limit=_limit_said(le))
    return value


def _limit_said(value: float) -> str:
    """A limit as the setting is typed: `10`, not the `10.0` of a seconds setting (tester 23)."""
    return str(int(value)) if float(value).is_integer() else str(value)


def one_of(*choices: str) -> Reader:
    def read(value: object) -> str:
        if value not in choices:
            raise Refused("setting_one_of", expected=Choices(choices))
        return str(value)

    return read


def lowered(value: object) -> object:
    # `EN` and ` en` name English as well as `en` does (worker/core/language.spoken_language, which help reads),
    # `Session` the session pooler.
    return value.strip().lower() if isinstance(value, str) else value


def path(value: object) -> Path:
    # Sessions, hooks and services run in other folders: a relative path (or one with ~ that no shell expanded, as
    # in a .env or a unit file) would point somewhere else for each of them.
    try:
        return Path(text(value) if not isinstance(value, Path) else value).expanduser().absolute()
    except RuntimeError:  # `~someone` of a user this machine does not know
        raise Refused("setting_no_home", value=repr(str(value))) from None


def path_given(value: object) -> object:
    # An empty path is the current folder to Python: the embedded database would start wherever the command
    # happened to run (`Environment=TAAK_DATA_DIR=` in a unit file). A path that may be left out is left out.
    if isinstance(value, str) and is_blank(value):
        raise Refused("setting_path_blank")
    return value


def folder(value: Path) -> Path:
    # A folder that is a file would fail at the first file made in it, as "bestaat al" (EEXIST).
    in_the_way = file_in_the_way(value)
    if in_the_way == value:
        raise Refused("setting_not_a_folder", path=str(value))
    if in_the_way is not None:
        raise Refused("setting_under_a_file", path=str(value), file=str(in_the_way))
    return value


FIRST_DAY, LAST_DAY = date(1900, 1, 1), date(9998, 12, 31)


def moment(value: object) -> datetime:
    if isinstance(value, datetime):
        return value
    # A number would be read as seconds since 1970 by some readers: a cut-off is written as a date.
    if not isinstance(value, str) or value.strip().lstrip("+-").isdigit():
        raise Refused("setting_cutoff_date")
    try:
        read = datetime.fromisoformat(value.strip())
    except ValueError:
        raise Refused("setting_date_time") from None
    # Where a time zone's shift keeps it a date Python and Postgres hold (`0001-01-01` in Amsterdam is in year 0 in
    # UTC: the intake failed in the database, not here).
    if read.date() < FIRST_DAY:
        raise Refused("setting_at_least", limit=FIRST_DAY.isoformat())
    if read.date() > LAST_DAY:
        raise Refused("setting_at_most", limit=LAST_DAY.isoformat())
    return read


def secret(value: object) -> Secret:
    return value if isinstance(value, Secret) else Secret(text(value))


def one_line_url(value: object) -> object:
    # The URL parser drops a line break or tab unseen (`post\ngres` reached the server as `postgres`): the database
    # used would not be the one written. Only the character and where it stands are said: what surrounds it may be
    # the password.
    if isinstance(value, str):
        inside = value.strip()
        at = next((n for n, ch in enumerate(inside) if unicodedata.category(ch) == "Cc"), None)
        if at is not None:
            raise Refused("setting_url_control", character=repr(inside[at]), position=at + 1)
    return value


def comma_separated(value: object) -> list[str]:
    if isinstance(value, str):
        return [word.strip() for word in value.split(",") if word.strip()]
    return list(value) if isinstance(value, Iterable) else [text(value)]


def bot_names(value: object) -> list[str]:
    # One spelling of a bot (worker/core/model.bot_name): `TAAK_BOTS="Paco, sjakie"` serves paco and sjakie. A
    # bot's name becomes a file name (its lock, its journal) and a row: refused here, before either, as typed.
    typed = comma_separated(value)
    for name in typed:
        if not is_bot_name(bot_name(name)):
            raise Refused("setting_bot_name", value=repr(shown_name(name)), limit=NAME_MAX_CHARS)
    return [bot_name(name) for name in typed]


def one_bot_name(value: str) -> str:
    # The writer of every row `taak log` adds: the same name a bot has in TAAK_BOTS (an escape sequence or a line
    # break went into the log as a writer).
    if not value.strip():
        return value
    name = value.strip().lower()
    if not is_bot_name(name):
        raise Refused("setting_bot_name", value=repr(shown_name(value)), limit=NAME_MAX_CHARS)
    return name


def open_statuses(value: object) -> list[str]:
    statuses = comma_separated(value)
    if not statuses:
        raise Refused("setting_open_status")
    return statuses


def host_name() -> str:
    import socket  # start-up: only where TAAK_MACHINE is not set, and only socket's name of the host

    return socket.gethostname()


# A host name as the machine knows itself (`Jamals-MacBook-Pro.local`, `veranda`), and nothing else.
MACHINE_NAME = re.compile(r"[^\W_][\w.-]*")


def machine_name(value: str) -> str:
    # The machine's name is part of file names under the data folder: one plain name, never a path.
    if not MACHINE_NAME.fullmatch(value) or len(value) > NAME_MAX_CHARS:
        raise Refused("setting_machine_name", value=repr(value), limit=NAME_MAX_CHARS)
    return value


def command_line(*, required: bool = False) -> Reader:
    # Split with shlex where it is run: a quote without its closing one failed there, after a claim, and burned the
    # task's attempt; an agent command of nothing ran its first argument as the agent.
    def read(value: str) -> str:
        try:
            words = shlex.split(value)
        except ValueError:
            raise Refused("setting_unbalanced_quote", value=repr(value)) from None
        if required and not words:
            raise Refused("setting_empty_command")
        return value

    return read


def column_name(value: str) -> str:
    # An empty name reached the database as `""`, refused there as "zero-length delimited identifier", exit 1.
    if is_blank(value):
        raise Refused("setting_column_blank")
    return value


def owner_name(value: str) -> str:
    if is_blank(value):
        raise Refused("setting_owner_blank")
    if printable(value) != value or "\n" in value or "\t" in value:  # escapes, lines
        raise Refused("setting_owner_lines")
    if len(value.strip()) > NAME_MAX_CHARS:  # it stands where `--van` would
        raise Refused("setting_owner_long", limit=NAME_MAX_CHARS)
    return value.strip()


def known_timezone(value: str) -> str:
    if not known_zone(value):
        raise Refused("setting_time_zone", value=repr(value))
    return value


def clock(parse: Callable[[str], object], key: str, *, said_whole: bool) -> Reader:
    def read(value: object) -> object:
        if not isinstance(value, str):
            return value
        try:
            return parse(value)
        except NoTime as bad:  # a list of times is said by the time that is wrong, a range whole
            said = ("" if said_whole else str(bad)) or value.strip()
            raise Refused(key, value=repr(said)) from None

    return read


def bot_token(value: object) -> object:
    # BotFather's form, `123456:ABC-def...`: anything else would fail at the first message, hours later.
    if isinstance(value, str):
        value = value.strip()
        if not re.fullmatch(r"\d+:[\w-]+", value):
            raise Refused("setting_telegram_token")
    return value


def web_root(value: str) -> str:
    if not re.fullmatch(r"https?://[^\s/]+(/\S*)?", value.strip()):
        raise Refused("setting_web_root", value=repr(value))
    return value.strip().rstrip("/")


def apprise_urls(value: object) -> tuple[Secret, ...]:
    # Separated by spaces or by commas before the next scheme (a comma inside one address stays: mailto's `to=`).
    if not isinstance(value, str):
        return tuple(secret(url) for url in value) if isinstance(value, Iterable) else (secret(value),)
    urls = [url for url in re.split(r"\s+|,\s*(?=[a-z][a-z0-9+.-]*://)", value.strip()) if url]
    for number, url in enumerate(urls, start=1):
        if not re.fullmatch(r"[a-z][a-z0-9+.-]*://\S+", url, flags=re.IGNORECASE):
            raise Refused("setting_notify_url", value=f"#{number} {said_address(url)!r}")
    return tuple(Secret(url) for url in urls)


class Setting:
    """One setting: its default (or the function that makes it) and its readers. A setting whose default is None
    may be left out, and is left out when it is set empty."""

    __slots__ = ("default", "make_default", "readers")

    def __init__(self, default: object, make_default: Callable[[], object] | None, readers: tuple[Reader, ...]) -> None:
        self.default, self.make_default, self.readers = default, make_default, readers

    @property
    def optional(self) -> bool:
        return self.default is None and self.make_default is None

    def read(self, given: object) -> object:
        # Bytes that were no UTF-8 reach Python as lone surrogates (surrogateescape) and would fail much later, as
        # a database error; here they are a setting that cannot be read.
        if any(isinstance(t, str) and not_utf8(t) for t in (given if isinstance(given, list) else [given])):
            raise Refused("setting_not_utf8")
        if self.optional and (given is None or (isinstance(given, str) and not given.strip())):
            return None  # `TAAK_WORKDIR=` and `TAAK_NOTIFY_CMD="  "` alike: not given
        for reader in self.readers:
            given = reader(given)
        return given


def setting(default: object = None, *readers: Reader, make_default: Callable[[], object] | None = None) -> Any:
    return Setting(default, make_default, readers)


# Settings renamed to the naming rule (Dutch for the domain, English for the rest): the old names are still read, and
# `taak doctor` and the daemon's start say the new one (renamed_in_use).
RENAMED = {
    "owner": "TAAK_EIGENAAR",
    "decide_hours": "TAAK_BESLIS_UREN",
    "fleet_archive": "TAAK_VLOOT_ARCHIEF",
    "fleet_days": "TAAK_VLOOT_DAGEN",
}


class Settings:
    """Every `TAAK_` variable of the environment, else of the `.env` file in the working folder, names in any case;
    values given in code over both. Read once, and frozen."""

    def __init__(
        self, _env_file: str | Path | None = ".env", _environ: Mapping[str, str] | None = None, **values: Any
    ) -> None:
        unknown = values.keys() - SETTINGS.keys()
        if unknown:
            raise TypeError(f"no such setting: {', '.join(sorted(unknown))}")
        environ = os.environ if _environ is None else _environ
        environment, under_old_names = _environment(values, _env_file, environ)
        given = {**environment, **values}
        read: dict[str, object] = {}
        problems: list[Refused] = []
        for name, spec in SETTINGS.items():
            value = given[name] if name in given else spec.make_default() if spec.make_default else spec.default
            try:
                read[name] = spec.read(value)
            except Refused as refused:
                refused.field, refused.old_name = name, name in under_old_names
                problems.append(refused)
        problems.extend(_telegram_together(read))
        if problems:
            raise SettingsError(problems)
        self.__dict__.update(read)
        # The environment they were read from, which the daemon's children (a session, the indexer, a notify
        # command) are given too: the process's own, or the one a test runs a daemon in beside its own.
        self.__dict__["environ"] = Environment(environ)

    environ: Mapping[str, str]

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"settings are read once and frozen: {name}")

    def __repr__(self) -> str:
        return f"Settings({', '.join(f'{name}={getattr(self, name)!r}' for name in SETTINGS)})"

    database_url: Secret | None = setting(None, one_line_url, secret)
    data_dir: Path = setting(None, path_given, path, folder, make_default=default_data_dir)
    timezone: str = setting("Europe/Amsterdam", text, str.strip, known_timezone)
    language: Language = setting("nl", lowered, one_of("nl", "en"))
    machine: str = setting(None, text, machine_name, make_default=host_name)

    # The owner's name on the rows the owner writes (answers, notes, cancellations); default: the OS user.
    owner: str | None = setting(None, text, owner_name)
    # A transaction pooler (pgbouncer in transaction mode, Supabase's port 6543) has no LISTEN and no prepared
    # statements. auto: port 6543, or a probe that sees two connections share one server session.
    pooler: Literal["auto", "session", "transaction"] = setting(
        "auto", lowered, one_of("auto", "session", "transaction")
    )
    connect_attempts: int = setting(5, whole(ge=1))
    connect_timeout_seconds: float = setting(5.0, number(gt=0))
    # How long one statement may wait for its answer. A server that hangs (a stopped host, a stalled disk) closes
    # nothing: without this the daemon's claim waited for ever and said nothing.
    statement_timeout_seconds: float = setting(10.0, number(gt=0))

    lease_seconds: int = setting(1200, whole(ge=10, le=INT_MAX))  # a Postgres integer in the claim
    briefing_rows: int = setting(8, whole(ge=5, le=10))
    briefing_line_cap: int = setting(300, whole(ge=40))

    # In a Claude Code session started by the daemon these say which task the session holds.
    id: str | None = setting(None, text)
    token: str | None = setting(None, text)
    bot: str | None = setting(None, text, one_bot_name)
    briefing_file: Path | None = setting(None, path)
    sessie: str | None = setting(None, text)
    memory_dir: Path = setting(None, path_given, path, folder, make_default=default_memory_dir)
    claude_settings: Path = setting(
        None, path_given, path, make_default=lambda: Path.home() / ".claude" / "settings.json"
    )

    # The queue-worker daemon.
    bots: list[str] = setting(None, bot_names, make_default=list)
    concurrency: int = setting(1, whole(ge=1, le=32))
    # At least 0.2 s: one idle daemon at 0.001 sent 1,000 statements a second; at most an hour, a wait still.
    poll_seconds: float = setting(5.0, number(ge=0.2, le=3600))
    listen: bool = setting(True, switch)
    agent_cmd: str = setting("claude", text, command_line(required=True))
    agent_args: str = setting("", text, command_line())
    workdir: Path | None = setting(None, path, folder)
    lease_extend_seconds: float = setting(60.0, number(gt=0))
    # How often a running session's token is confirmed (a read): a task the owner cancels or takes back is stopped
    # within this, while the lease itself is extended (a write) at most once per lease_extend_seconds.
    token_check_seconds: float = setting(5.0, number(gt=0, le=10))
    session_timeout_seconds: float = setting(7200.0, number(gt=0))
    silence_timeout_seconds: float = setting(900.0, number(gt=0))
    kill_grace_seconds: float = setting(10.0, number(ge=0))
    reaper_seconds: float = setting(30.0, number(gt=0))
    # After the database server (re)starts no reaper takes a lease for this long: the daemons that hold them need
    # time to reconnect and extend them (an outage is not a dead session).
    reaper_grace_seconds: float = setting(120.0, number(ge=0))
    # The sessions' Unix sockets (short: macOS allows 103 bytes in a socket path). Default <data>/run.
    socket_dir: Path | None = setting(None, path, folder)
    # Where each bot's one-daemon lock lives (worker/proc.default_lock_dir when unset). Every daemon of this user on
    # this machine must find the same folder, so that only tests set it.
    lock_dir: Path | None = setting(None, path, folder)
    heartbeat_seconds: float = setting(30.0, number(gt=0))
    shutdown_grace_seconds: float = setting(30.0, number(ge=0))
    retry_base_seconds: float = setting(60.0, number(ge=0))
    retry_max_seconds: float = setting(3600.0, number(ge=0))
    infra_pause_base_seconds: float = setting(30.0, number(ge=0))
    infra_pause_max_seconds: float = setting(900.0, number(ge=0))
    max_line_bytes: int = setting(1_048_576, whole(ge=1024))
    log_format: Literal["auto", "json", "console"] = setting("auto", lowered, one_of("auto", "json", "console"))
    intake_id_column: str = setting("id", text, column_name)
    intake_text_column: str = setting("content", text, column_name)
    intake_sender_column: str = setting("sender", text, column_name)
    intake_recipient_column: str = setting("recipient", text, column_name)
    # Only messages that arrived after the cut-off and that the old worker left open become tasks. The cut-off
    # defaults to when migration 013 was applied (kept in the database), so history is never run again.
    intake_time_column: str = setting("created_at", text, column_name)
    intake_status_column: str = setting("status", text)  # "": the old table has no status column (filter by time)
    intake_open_status: list[str] = setting(None, open_statuses, make_default=lambda: ["pending"])
    intake_vanaf: datetime | None = setting(None, moment)
    # A question to the owner that waits this long is escalated (one more message, marked as such).
    decide_hours: float = setting(48.0, number(gt=0, le=CENTURY_HOURS))
    notify_cmd: str | None = setting(None, text, command_line())
    on_klaar_cmd: str | None = setting(None, text, command_line())
    remind_hours: float = setting(24.0, number(gt=0, le=CENTURY_HOURS))
    outbox_seconds: float = setting(10.0, number(gt=0))
    index_seconds: float = setting(600.0, number(gt=0))
    # A finished task's folder in <data>/sessies/ (its sessions' stdout, briefings, records) is removed after this
    # many quiet days, once the archive holds every line of it: the archive is the lossless copy.
    sessions_days: int = setting(30, whole(ge=1, le=36500))
    # The optional extra `semantic`: used when installed unless switched off; the indexer embeds at most this many
    # lines per run, newest first, so a large backlog is caught up over several runs.
    semantic: bool = setting(True, switch)
    semantic_rows: int = setting(2000, whole(ge=0))
    # The model's helper process (worker/memory/embedder.py) exits after this long without a question.
    embed_idle_seconds: float = setting(600.0, number(gt=0))
    # Fleet-wide recall: the daemon also copies this machine's new archive lines to the shared database, which keeps
    # them fleet_days days (`taak recall --vloot`). Off by default: the database may be a small plan.
    fleet_archive: bool = setting(False, switch)
    fleet_days: int = setting(30, whole(ge=1, le=36500))
    registry_file: Path | None = setting(None, path)
    registry_seconds: float = setting(300.0, number(gt=0))

    # The owner's channel (worker/core/owner_channel.py): a digest at these times for the whole fleet, urgent
    # messages at once (at most so many marked urgent per bot a day), nothing but failures in the quiet hours.
    digest_times: tuple[time, ...] = setting(
        (time(8), time(18)), clock(digest_times, "setting_digest_times", said_whole=False)
    )
    urgent_per_bot_per_day: int = setting(3, whole(ge=0, le=INT_MAX))
    quiet_hours: Quiet | None = setting(
        Quiet(time(22), time(7)), clock(quiet_hours, "setting_quiet_hours", said_whole=True)
    )
    # Telegram both ways: the digest and urgent messages out, the owner's answers in (from this chat only).
    telegram_token: Secret | None = setting(None, bot_token, secret)
    telegram_chat: int | None = setting(None, whole())
    telegram_api: str = setting("https://api.telegram.org", text, web_root)
    # One way, through Apprise (ntfy://, mailto://, signal://, slack://, matrix:// ...): the same messages. They
    # carry tokens: never logged, said by their scheme only.
    notify_urls: tuple[Secret, ...] = setting((), apprise_urls)

    def replaced(self, **changes: object) -> Settings:
        """These settings with some changed, read again as a whole (a changed `database_url` is parsed anew)."""
        return type(self)(None, self.environ, **{**{name: getattr(self, name) for name in SETTINGS}, **changes})

    @cached_property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    @cached_property
    def database(self) -> DatabaseUrl | None:
        """The parsed `TAAK_DATABASE_URL`; None means: use the embedded server."""
        if self.database_url is None:
            return None
        return parse_database_url(self.database_url.get_secret_value())

    @property
    def embedded_dir(self) -> Path:
        return self.data_dir / "postgres"

    @property
    def sessions_socket_dir(self) -> Path:
        return self.socket_dir or self.data_dir / "run"

    @property
    def registry_path(self) -> Path:
        return self.registry_file or self.data_dir / "machines.json"

    @property
    def agent_argv(self) -> list[str]:
        return shlex.split(self.agent_args)


SETTINGS: dict[str, Setting] = {name: spec for name, spec in vars(Settings).items() if isinstance(spec, Setting)}


def _telegram_together(read: Mapping[str, object]) -> list[Refused]:
    """Telegram needs its token and the owner's chat, or neither. A token or a chat that was refused is not read:
    that one is said, not this."""
    if "telegram_token" not in read or "telegram_chat" not in read:
        return []
    if read["telegram_chat"] is None and read["telegram_token"] is not None:
        return [Refused("setting_telegram_chat_needed", "telegram_chat")]
    if read["telegram_chat"] is not None and read["telegram_token"] is None:
        return [Refused("setting_telegram_token_needed", "telegram_chat")]
    return []


def _environment(
    given: Mapping[str, Any], env_file: str | Path | None, environ: Mapping[str, str]
) -> tuple[dict[str, str], set[str]]:
    """The settings' values as the environment and the `.env` file set them (the environment wins), by field name,
    a renamed setting by either name (the new one first); none for a setting `given`. With them, the fields read
    under their old name: a value it cannot take is said under the name the user typed."""
    layers = [taak_variables(environ)]
    if env_file is not None and Path(env_file).is_file():
        from dotenv import dotenv_values  # start-up: only where there is a `.env` file

        layers.append(taak_variables(dotenv_values(env_file, encoding="utf-8")))
    values: dict[str, str] = {}
    under_old_names: set[str] = set()
    for name in SETTINGS:
        names = [f"taak_{name}", RENAMED.get(name, "").lower()]
        found = next(((layer[v], v) for layer in layers for v in names if v in layer), None)
        if found is not None and name not in given:
            values[name] = found[0]
            if found[1] != names[0]:
                under_old_names.add(name)
    return values, under_old_names


def said_address(url: str) -> str:
    """What may be said of a notification address (an error line, the daemon's log): its scheme, never its tokens."""
    for separator in ("://", ":"):
        scheme, found, _ = url.partition(separator)
        if found and "@" not in scheme:
            return f"{scheme}{separator}..."
    return "..."  # no scheme: nothing of it, any part may be a token


def renamed_in_use(environ: Mapping[str, str], env_file: Path = Path(".env")) -> list[tuple[str, str]]:
    """The old names of renamed settings that are set (in the environment or the `.env` file), with the new one:
    (`TAAK_EIGENAAR`, `TAAK_OWNER`)."""
    try:
        in_file = env_file.read_text(encoding="utf-8") if env_file.is_file() else ""
    except (OSError, UnicodeDecodeError):
        in_file = ""
    typed = {name.upper() for name in environ} | {
        m.group(1).upper() for m in re.finditer(r"^\s*(?:export\s+)?(\w+)\s*=", in_file, re.MULTILINE)
    }
    return [(old, f"TAAK_{field.upper()}") for field, old in RENAMED.items() if old in typed]


def settings_problem(problem: Refused, language: str) -> str:
    """`TAAK_NAME: what is wrong`, in `language`."""
    return f"{problem.variable}: {message(problem.key, language, **problem.values)}"


def unreadable_settings(exc: Exception, language: str) -> str | None:
    """`ongeldige instelling: TAAK_NAME: what is wrong` for a setting or a `.env` file that cannot be read; None
    for any other failure. The commands and the hooks say it alike."""
    if isinstance(exc, SettingsError):
        detail = "; ".join(settings_problem(problem, language) for problem in exc.problems)
    elif isinstance(exc, UnicodeDecodeError):  # the .env file in the working folder (python-dotenv)
        detail = f".env: {message('setting_not_utf8', language)}"
    else:
        return None
    return message("bad_settings", language, detail=detail)
