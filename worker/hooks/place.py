"""Where the owner's hooks outside a task read and write: the few settings they need, read without the
settings class, because a hook runs on every prompt: the settings class's imports (its rules, the catalogue, the
database URL's parser) took 13 to 17 ms more than this module's, of the issue's 100 ms (standard library and
python-dotenv only; no event loop, no database driver).

The values are the settings class's own: the same variables, the same `.env` file in the working folder
(the environment wins), names in any case, the same defaults and the same paths made absolute. A value that only the
settings class can judge (an unknown language, a time zone that does not exist, text that is no UTF-8, an empty
folder, a file where a folder belongs) is not judged here: `read_place` answers None and the hook reads `Settings`,
which refuses it in its own words. `tests/unit/test_hook_place.py` holds the two readers together."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo

from worker.core.defaults import default_data_dir, default_memory_dir, file_in_the_way
from worker.core.language import SWITCHES, known_zone, spoken_language, taak_variables
from worker.core.terminal import is_blank, not_utf8

PREFIX = "taak_"


@dataclass(frozen=True)
class HookPlace:
    id: str | None
    bot: str | None
    data_dir: Path
    language: str
    zone: ZoneInfo
    memory_dir: Path
    # `taak recall` on this machine's archive reads these too (worker/cli/taak.py): no settings class for a search.
    semantic: bool = True
    embed_idle_seconds: float = 600.0


def read_place(environ: dict[str, str] | None = None, env_file: Path = Path(".env")) -> HookPlace | None:
    values = _taak_values(os.environ if environ is None else environ, env_file)
    if values is None:
        return None
    timezone = values.get("timezone", "Europe/Amsterdam")
    read = {
        "language": spoken_language(values.get("language", "nl")),  # `EN` is English to the settings class too
        "data_dir": folder_setting(values.get("data_dir"), default_data_dir),
        "memory_dir": folder_setting(values.get("memory_dir"), default_memory_dir),
        "semantic": SWITCHES.get(values.get("semantic", "true").lower()),
        "embed_idle_seconds": _plain_seconds(values.get("embed_idle_seconds", "600")),
    }
    if any(value is None for value in read.values()) or not known_zone(timezone):
        return None  # left to the settings class, which says what is wrong
    return HookPlace(
        id=values.get("id") or None,
        bot=values.get("bot") or None,
        zone=ZoneInfo(timezone),
        **read,  # type: ignore[arg-type]
    )


def folder_setting(given: str | None, default: Callable[[], Path]) -> Path | None:
    """A folder setting as the settings class reads it: left out, the default; given, made absolute (`~` too);
    given empty or as bytes that are no UTF-8, None (the settings class refuses it)."""
    if given is None:
        return default()
    if is_blank(given) or not_utf8(given):
        return None
    try:
        path = Path(given).expanduser().absolute()
    except RuntimeError:  # `~someone` of a user this machine does not know: the settings class says so
        return None
    return None if file_in_the_way(path) is not None else path  # a file where a folder belongs: refused there


def _taak_values(environ: os._Environ[str] | dict[str, str], env_file: Path) -> dict[str, str] | None:
    """Every TAAK_ variable, its name lowered and the prefix taken off: the `.env` file's first, the
    environment's over them. None when the `.env` file cannot be read as the settings class reads it, or a value
    is bytes that are no UTF-8."""
    values: dict[str, str] = {}
    if env_file.is_file():
        try:
            from dotenv import dotenv_values

            from_file = dotenv_values(env_file, encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        values.update(_prefixed(from_file))
    values.update(_prefixed(environ))
    return None if any(not_utf8(value) for value in values.values()) else values


def _prefixed(variables: Mapping[str, str | None]) -> dict[str, str]:
    """The TAAK_ variables as the settings class takes them (language.taak_variables), without the prefix."""
    return {name.removeprefix(PREFIX): value for name, value in taak_variables(variables).items()}


def _plain_seconds(value: str) -> float | None:
    """A number of seconds above 0 written plainly (`600`, `1.5`); None for any other (`0`, `inf`, `1e3`)."""
    whole, dot, part = value.partition(".")
    if not (whole.isdigit() and whole.isascii() and (not dot or (part.isdigit() and part.isascii()))):
        return None
    seconds = float(value)
    return seconds if seconds > 0 else None
