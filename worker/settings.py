"""The one reader of the environment: every `TAAK_` setting lives here."""

from __future__ import annotations

import os
import re
import shlex
import socket
import unicodedata
from collections.abc import Mapping
from datetime import datetime, time
from functools import cached_property
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, SecretStr, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from worker.core.catalogue import area_words, catalogue, filled, message
from worker.core.defaults import default_data_dir, default_memory_dir, file_in_the_way
from worker.core.dsn import DatabaseUrl, parse_database_url
from worker.core.model import INT_MAX, NAME_MAX_CHARS, bot_name, is_bot_name, shown_name
from worker.core.owner_channel import NoTime, Quiet, digest_times, quiet_hours
from worker.core.terminal import is_blank, not_utf8, printable

Language = Literal["nl", "en"]


def _refused(key: str, **values: object) -> PydanticCustomError:
    """A setting our own rule refuses: its message key is the error's type, so that the line is said in the
    run's language (settings_problem, below); the English text is pydantic's own message."""
    return PydanticCustomError(key, catalogue()[key]["en"], values)


# A host name as the machine knows itself (`Jamals-MacBook-Pro.local`, `veranda`), and nothing else.
MACHINE_NAME = re.compile(r"[^\W_][\w.-]*")


# Settings renamed to the naming rule (Dutch for the domain, English for the rest): the old names are still read, and
# `taak doctor` and the daemon's start say the new one (renamed_in_use).
RENAMED = {
    "owner": "TAAK_EIGENAAR",
    "decide_hours": "TAAK_BESLIS_UREN",
    "fleet_archive": "TAAK_VLOOT_ARCHIEF",
    "fleet_days": "TAAK_VLOOT_DAGEN",
}


def renamed(field: str) -> AliasChoices:
    return AliasChoices(f"TAAK_{field.upper()}", RENAMED[field])


class Settings(BaseModel):
    """Every `TAAK_` variable of the environment, else of the `.env` file in the working folder, names in any case;
    values given in code over both. Read here, as pydantic-settings read them (which took longer to import than
    the rest of every owner's command to start, issue 42): each setting is typed text, and the settings that are
    lists or times are split by their own validators below, never read as JSON."""

    model_config = ConfigDict(
        extra="ignore",
        frozen=True,
        validate_default=True,  # a default is checked as a set value is (the host's name as the machine's)
        populate_by_name=True,  # Settings(owner=...) in code, TAAK_OWNER (or its old name) in the environment
        # `inf` and `nan` parse as floats: a lease extended every `inf` seconds is never extended.
        allow_inf_nan=False,
    )

    def __init__(self, _env_file: str | Path | None = ".env", **values: Any) -> None:
        super().__init__(**{**_environment(values, _env_file), **values})

    database_url: SecretStr | None = None
    data_dir: Path = Field(default_factory=default_data_dir)
    timezone: str = "Europe/Amsterdam"
    language: Language = "nl"
    machine: str = Field(default_factory=socket.gethostname)

    # The owner's name on the rows the owner writes (answers, notes, cancellations); default: the OS user.
    owner: str | None = Field(default=None, validation_alias=renamed("owner"))
    # A transaction pooler (pgbouncer in transaction mode, Supabase's port 6543) has no LISTEN and no prepared
    # statements. auto: port 6543, or a probe that sees two connections share one server session.
    pooler: Literal["auto", "session", "transaction"] = "auto"
    connect_attempts: int = Field(default=5, ge=1)
    connect_timeout_seconds: float = Field(default=5.0, gt=0)
    # How long one statement may wait for its answer. A server that hangs (a stopped host, a stalled disk) closes
    # nothing: without this the daemon's claim waited for ever and said nothing.
    statement_timeout_seconds: float = Field(default=10.0, gt=0)

    lease_seconds: int = Field(default=1200, ge=10, le=INT_MAX)  # a Postgres integer in the claim
    briefing_rows: int = Field(default=8, ge=5, le=10)
    briefing_line_cap: int = Field(default=300, ge=40)

    # In a Claude Code session started by the daemon these say which task the session holds.
    id: str | None = None
    token: str | None = None
    bot: str | None = None
    briefing_file: Path | None = None
    sessie: str | None = None
    memory_dir: Path = Field(default_factory=default_memory_dir)
    claude_settings: Path = Field(default_factory=lambda: Path.home() / ".claude" / "settings.json")

    # The queue-worker daemon.
    bots: list[str] = Field(default_factory=list)
    concurrency: int = Field(default=1, ge=1, le=32)
    # At least 0.2 s: one idle daemon at 0.001 sent 1,000 statements a second; at most an hour, a wait still.
    poll_seconds: float = Field(default=5.0, ge=0.2, le=3600)
    listen: bool = True
    agent_cmd: str = "claude"
    agent_args: str = ""
    workdir: Path | None = None
    lease_extend_seconds: float = Field(default=60.0, gt=0)
    # How often a running session's token is confirmed (a read): a task the owner cancels or takes back is
    # stopped within this, while the lease itself is extended (a write) at most once per lease_extend_seconds.
    token_check_seconds: float = Field(default=5.0, gt=0, le=10)
    session_timeout_seconds: float = Field(default=7200.0, gt=0)
    silence_timeout_seconds: float = Field(default=900.0, gt=0)
    kill_grace_seconds: float = Field(default=10.0, ge=0)
    reaper_seconds: float = Field(default=30.0, gt=0)
    # After the database server (re)starts no reaper takes a lease for this long: the daemons that hold
    # them need time to reconnect and extend them (an outage is not a dead session).
    reaper_grace_seconds: float = Field(default=120.0, ge=0)
    # The sessions' Unix sockets (short: macOS allows 103 bytes in a socket path). Default <data>/run.
    socket_dir: Path | None = None
    # Where each bot's one-daemon lock lives (worker/proc.default_lock_dir when unset). Every daemon of this
    # user on this machine must find the same folder, so that only tests set it.
    lock_dir: Path | None = None
    heartbeat_seconds: float = Field(default=30.0, gt=0)
    shutdown_grace_seconds: float = Field(default=30.0, ge=0)
    retry_base_seconds: float = Field(default=60.0, ge=0)
    retry_max_seconds: float = Field(default=3600.0, ge=0)
    infra_pause_base_seconds: float = Field(default=30.0, ge=0)
    infra_pause_max_seconds: float = Field(default=900.0, ge=0)
    max_line_bytes: int = Field(default=1_048_576, ge=1024)
    log_format: Literal["auto", "json", "console"] = "auto"
    intake_id_column: str = "id"
    intake_text_column: str = "content"
    intake_sender_column: str = "sender"
    intake_recipient_column: str = "recipient"
    # Only messages that arrived after the cut-off and that the old worker left open become tasks. The cut-off
    # defaults to when migration 013 was applied (kept in the database), so history is never run again.
    intake_time_column: str = "created_at"
    intake_status_column: str = "status"  # "": the old table has no status column (filter by time alone)
    intake_open_status: list[str] = Field(default_factory=lambda: ["pending"])
    intake_vanaf: datetime | None = None
    # A question to the owner that waits this long is escalated (one more message, marked as such).
    decide_hours: float = Field(default=48.0, gt=0, validation_alias=renamed("decide_hours"))
    notify_cmd: str | None = None
    on_klaar_cmd: str | None = None
    remind_hours: float = Field(default=24.0, gt=0)
    outbox_seconds: float = Field(default=10.0, gt=0)
    index_seconds: float = Field(default=600.0, gt=0)
    # A finished task's folder in <data>/sessies/ (its sessions' stdout, briefings, records) is removed after this
    # many quiet days, once the archive holds every line of it: the archive is the lossless copy.
    sessions_days: int = Field(default=30, ge=1, le=36500)
    # The optional extra `semantic`: used when installed unless switched off; the indexer embeds at most
    # this many lines per run, newest first, so a large backlog is caught up over several runs.
    semantic: bool = True
    semantic_rows: int = Field(default=2000, ge=0)
    # The model's helper process (worker/memory/embedder.py) exits after this long without a question.
    embed_idle_seconds: float = Field(default=600.0, gt=0)
    # Fleet-wide recall: the daemon also copies this machine's new archive lines to the shared database, which
    # keeps them fleet_days days (`taak recall --vloot`). Off by default: the database may be a small plan.
    fleet_archive: bool = Field(default=False, validation_alias=renamed("fleet_archive"))
    fleet_days: int = Field(default=30, ge=1, le=INT_MAX, validation_alias=renamed("fleet_days"))
    registry_file: Path | None = None
    registry_seconds: float = Field(default=300.0, gt=0)

    # The owner's channel (worker/core/owner_channel.py): a digest at these times for the whole fleet, urgent
    # messages at once (at most so many marked urgent per bot a day), nothing but failures in the quiet hours.
    digest_times: tuple[time, ...] = (time(8), time(18))
    urgent_per_bot_per_day: int = Field(default=3, ge=0, le=INT_MAX)
    quiet_hours: Quiet | None = Quiet(time(22), time(7))
    # Telegram both ways: the digest and urgent messages out, the owner's answers in (from this chat only).
    telegram_token: SecretStr | None = None
    telegram_chat: int | None = Field(default=None, validate_default=True)
    telegram_api: str = "https://api.telegram.org"
    # One way, through Apprise (ntfy://, mailto://, signal://, slack://, matrix:// ...): the same messages.
    # They carry tokens: never logged, said by their scheme only.
    notify_urls: tuple[SecretStr, ...] = ()

    @field_validator("bots", "intake_open_status", mode="before")
    @classmethod
    def _comma_separated(cls, value: object, info: ValidationInfo) -> object:
        # One spelling of a bot (worker/core/model.bot_name): `TAAK_BOTS="Paco, sjakie"` serves paco and sjakie.
        if isinstance(value, str):
            value = [word.strip() for word in value.split(",") if word.strip()]
            if not value and info.field_name == "intake_open_status":
                raise _refused("setting_open_status")
        return value

    @field_validator("bots")
    @classmethod
    def _bot_names(cls, value: list[str]) -> list[str]:
        # A bot's name becomes a file name (its lock, its journal) and a row: refused here, before either, and
        # quoted as it was typed.
        for typed in value:
            if not is_bot_name(bot_name(typed)):
                raise _refused("setting_bot_name", value=repr(shown_name(typed)), limit=NAME_MAX_CHARS)
        return [bot_name(typed) for typed in value]

    @field_validator("bot", mode="before")
    @classmethod
    def _one_bot_name(cls, value: object) -> object:
        # The writer of every row `taak log` adds: the same name a bot has in TAAK_BOTS (an escape sequence or a
        # line break went into the log as a writer).
        if isinstance(value, str) and value.strip():
            name = value.strip().lower()
            if not is_bot_name(name):
                raise _refused("setting_bot_name", value=repr(shown_name(value)), limit=NAME_MAX_CHARS)
            return name
        return value

    @field_validator("language", mode="before")
    @classmethod
    def _language_as_typed(cls, value: object) -> object:
        # `EN` and ` en` name English as well as `en` does (worker/core/language.spoken_language, which help reads).
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("machine")
    @classmethod
    def _machine_name(cls, value: str) -> str:
        # The machine's name is part of file names under the data folder: one plain name, never a path.
        if not MACHINE_NAME.fullmatch(value) or len(value) > NAME_MAX_CHARS:
            raise _refused("setting_machine_name", value=repr(value), limit=NAME_MAX_CHARS)
        return value

    @field_validator("agent_cmd", "agent_args", "notify_cmd", "on_klaar_cmd")
    @classmethod
    def _a_command_line(cls, value: str | None, info: ValidationInfo) -> str | None:
        # Split with shlex where it is run: a quote without its closing one failed there, after a claim, and
        # burned the task's attempt; an agent command of nothing ran its first argument as the agent.
        if value is None:
            return value
        try:
            words = shlex.split(value)
        except ValueError:
            raise _refused("setting_unbalanced_quote", value=repr(value)) from None
        if not words and info.field_name == "agent_cmd":
            raise _refused("setting_empty_command")
        return value

    @field_validator("intake_vanaf", mode="before")
    @classmethod
    def _a_date_not_a_number(cls, value: object) -> object:
        # pydantic would read 20261201 as seconds since 1970: a cut-off is written as a date.
        if isinstance(value, (int, float)) or (isinstance(value, str) and value.strip().lstrip("+-").isdigit()):
            raise _refused("setting_cutoff_date")
        return value

    @field_validator("owner")
    @classmethod
    def _a_name(cls, value: str | None) -> str | None:
        if value is not None and is_blank(value):
            raise _refused("setting_owner_blank")
        if value is not None and (printable(value) != value or "\n" in value or "\t" in value):  # escapes, lines
            raise _refused("setting_owner_lines")
        if value is not None and len(value.strip()) > NAME_MAX_CHARS:  # it stands where `--van` would
            raise _refused("setting_owner_long", limit=NAME_MAX_CHARS)
        return value.strip() if value is not None else None

    @field_validator("database_url", mode="before")
    @classmethod
    def _one_line_url(cls, value: object) -> object:
        # The URL parser drops a line break or tab unseen (`post\ngres` reached the server as `postgres`): the
        # database used would not be the one written. Only the character and where it stands are said: what
        # surrounds it may be the password.
        if isinstance(value, str):
            inside = value.strip()
            at = next((n for n, ch in enumerate(inside) if unicodedata.category(ch) == "Cc"), None)
            if at is not None:
                raise _refused("setting_url_control", character=repr(inside[at]), position=at + 1)
        return value

    @field_validator("*", mode="before")
    @classmethod
    def _valid_text(cls, value: object) -> object:
        # Bytes that were no UTF-8 reach Python as lone surrogates (surrogateescape) and would fail much later,
        # as a database error; here they are a setting that cannot be read.
        texts = value if isinstance(value, list) else [value]
        if any(isinstance(text, str) and not_utf8(text) for text in texts):
            raise _refused("setting_not_utf8")
        return value

    # An empty path is the current folder to Python: the embedded database would start wherever the command
    # happened to run (`Environment=TAAK_DATA_DIR=` in a unit file, `TAAK_DATA_DIR=` in a .env). A path that has
    # a default is refused empty; one that may be left out is left out (`_empty_is_unset`).
    @field_validator("data_dir", "memory_dir", "claude_settings", mode="before")
    @classmethod
    def _path_given(cls, value: object) -> object:
        if isinstance(value, str) and is_blank(value):
            raise _refused("setting_path_blank")
        return value

    @field_validator("*")
    @classmethod
    def _absolute(cls, value: object) -> object:
        # Sessions, hooks and services run in other folders: a relative path (or one with ~ that no shell
        # expanded, as in a .env or a unit file) would point somewhere else for each of them.
        return value.expanduser().absolute() if isinstance(value, Path) else value

    @field_validator("data_dir", "socket_dir", "lock_dir", "memory_dir", "workdir")
    @classmethod
    def _a_folder(cls, value: Path | None) -> Path | None:
        # A folder that is a file would fail at the first file made in it, as "bestaat al" (EEXIST).
        if value is None:
            return value
        in_the_way = file_in_the_way(value)
        if in_the_way == value:
            raise _refused("setting_not_a_folder", path=str(value))
        if in_the_way is not None:
            raise _refused("setting_under_a_file", path=str(value), file=str(in_the_way))
        return value

    @field_validator("digest_times", "quiet_hours", mode="before")
    @classmethod
    def _clock_times(cls, value: object, info: ValidationInfo) -> object:
        if not isinstance(value, str):
            return value
        digest = info.field_name == "digest_times"
        try:
            return digest_times(value) if digest else quiet_hours(value)
        except NoTime as bad:  # a list of times is said by the time that is wrong, a range whole
            said = (str(bad) if digest else "") or value.strip()
            raise _refused(f"setting_{info.field_name}", value=repr(said)) from None

    @field_validator("telegram_token", mode="before")
    @classmethod
    def _a_bot_token(cls, value: object) -> object:
        # BotFather's form, `123456:ABC-def...`: anything else would fail at the first message, hours later.
        if isinstance(value, str) and value.strip() and not re.fullmatch(r"\d+:[\w-]+", value.strip()):
            raise _refused("setting_telegram_token")
        return value.strip() if isinstance(value, str) else value

    @field_validator("telegram_api")
    @classmethod
    def _a_web_root(cls, value: str) -> str:
        if not re.fullmatch(r"https?://[^\s/]+(/\S*)?", value.strip()):
            raise _refused("setting_web_root", value=repr(value))
        return value.strip().rstrip("/")

    @field_validator("notify_urls", mode="before")
    @classmethod
    def _apprise_urls(cls, value: object) -> object:
        # Separated by spaces or by commas before the next scheme (a comma inside one address stays: mailto's `to=`).
        if not isinstance(value, str):
            return value
        urls = [url for url in re.split(r"\s+|,\s*(?=[a-z][a-z0-9+.-]*://)", value.strip()) if url]
        for url in urls:
            if not re.fullmatch(r"[a-z][a-z0-9+.-]*://\S+", url, flags=re.IGNORECASE):
                raise _refused("setting_notify_url", value=repr(said_address(url)))
        return tuple(urls)

    @field_validator("telegram_chat")
    @classmethod
    def _a_chat_beside_a_token(cls, value: int | None, info: ValidationInfo) -> int | None:
        # Without it every message would be read as a stranger's, and nothing could be sent.
        if value is None and info.data.get("telegram_token") is not None:
            raise _refused("setting_telegram_chat_needed")
        # A token that was refused is missing from `info.data`: that one is said, not this.
        if value is not None and "telegram_token" in info.data and info.data["telegram_token"] is None:
            raise _refused("setting_telegram_token_needed")
        return value

    @field_validator("timezone")
    @classmethod
    def _known_timezone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise _refused("setting_time_zone", value=repr(value)) from exc
        return value

    @field_validator("*", mode="before")
    @classmethod
    def _empty_is_unset(cls, value: object, info: ValidationInfo) -> object:
        # A setting that may be left out (its default is None) is left out when it is set empty.
        return None if value == "" and cls.model_fields[str(info.field_name)].default is None else value

    def replaced(self, **changes: object) -> Settings:
        """These settings with some changed. Not `model_copy`: that would carry the cached, parsed database URL
        along even when `database_url` changes (the demo would then run on the configured queue)."""
        values = {name: getattr(self, name) for name in type(self).model_fields}
        return type(self)(**{**values, **changes})

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


def _environment(given: Mapping[str, Any], env_file: str | Path | None) -> dict[str, str]:
    """The settings' values as the environment and the `.env` file set them (the environment wins), by field name,
    or for a renamed setting by its new name, whichever name set it (an error names the new one); none for a
    setting `given`."""
    layers = [_taak_variables(os.environ)]
    if env_file is not None and Path(env_file).is_file():
        from dotenv import dotenv_values  # start-up: only where there is a `.env` file

        layers.append(_taak_variables(dotenv_values(env_file, encoding="utf-8")))
    values: dict[str, str] = {}
    for name in Settings.model_fields:
        names = [f"taak_{name}", RENAMED.get(name, "").lower()]  # a renamed setting's new name first
        found = next((layer[v] for layer in layers for v in names if v in layer), None)
        if found is not None and name not in given:
            values[f"TAAK_{name.upper()}" if name in RENAMED else name] = found
    return values


def _taak_variables(variables: Mapping[str, str | None]) -> dict[str, str]:
    return {
        name.lower(): value for name, value in variables.items() if value is not None and name[:5].upper() == "TAAK_"
    }


def said_address(url: str) -> str:
    """What may be said of a notification address (an error line, the daemon's log): its scheme, never its tokens."""
    for separator in ("://", ":"):
        scheme, found, _ = url.partition(separator)
        if found:
            return f"{scheme}{separator}..."
    return url if len(url) <= 12 else url[:8] + "..."


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


def settings_problem(error: Mapping[str, Any], language: str) -> str:
    """One of pydantic's errors as `TAAK_NAME: what is wrong`, in the run's language: our own rules by their
    message key (worker/settings._refused), pydantic's checks by their type; a type not in the table keeps
    pydantic's words."""
    name = "_".join(map(str, error["loc"])).upper()
    name = name if name.startswith("TAAK_") else f"TAAK_{name}"  # a renamed setting's loc is its variable
    values = {key: _limit_said(value) for key, value in (error.get("ctx") or {}).items()}
    if error["type"] in catalogue():
        return f"{name}: {message(error['type'], language, **values)}"
    # pydantic's own checks in the project's words, by their error type: pydantic's English ("Input should be
    # greater than or equal to 10") read as another program's beside the Dutch.
    said = area_words("pydantic", "en" if language == "en" else "nl")
    if error["type"] in said:
        if "expected" in values and language == "nl":  # pydantic joins the choices with an English word
            values["expected"] = values["expected"].replace(" or ", " of ")
        return f"{name}: {filled(said[error['type']], **values)}"
    return f"{name}: {error['msg']}"


def _limit_said(value: object) -> str:
    """A limit as the setting is typed: `10`, not the `10.0` of a float field (tester 23)."""
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def unreadable_settings(exc: Exception, language: str) -> str | None:
    """`ongeldige instelling: TAAK_NAME: what is wrong` for a setting or a `.env` file that cannot be read; None
    for any other failure. The commands and the hooks say it alike."""
    from pydantic import ValidationError

    if isinstance(exc, ValidationError):
        detail = "; ".join(settings_problem(e, language) for e in exc.errors())
    elif isinstance(exc, UnicodeDecodeError):  # the .env file in the working folder (python-dotenv)
        detail = f".env: {message('setting_not_utf8', language)}"
    else:
        return None
    return message("bad_settings", language, detail=detail)
