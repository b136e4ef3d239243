"""What is read of the settings before or without the settings class: the language of help and usage errors
(shown first: loading the settings costs more than the whole answer, issue 16), a switch's spellings, the TAAK_
variables in any case, a time zone that exists. Loaded by the hooks that run on every prompt, so it imports nothing
until it has something to say; the settings class reads by the same rules from here."""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

LANGUAGES = ("nl", "en")


# A switch setting's spellings (`true`, `Off`, `1`, `ja`), for the settings class and the hooks' reader alike; the
# Dutch line for a switch that is none of them says `ja of nee`.
SWITCHES = {
    **dict.fromkeys(("1", "true", "t", "yes", "y", "on", "ja", "j"), True),
    **dict.fromkeys(("0", "false", "f", "no", "n", "off", "nee"), False),
}


def taak_variables(variables: Mapping[str, str | None]) -> dict[str, str]:
    """The TAAK_ variables by their lower-case names; `TAAK_X` over `taak_x` when both are set, in any order."""
    found = [(name, value) for name, value in variables.items() if value is not None and name[:5].upper() == "TAAK_"]
    return {name.lower(): value for name, value in sorted(found, key=lambda item: item[0].isupper())}


def known_zone(name: str) -> bool:
    """A time zone this machine knows. A folder of the zone database (`America`) is none: ZoneInfo raises an
    OSError there, not the error it gives for an unknown name."""
    from zoneinfo import ZoneInfo  # start-up: only where a zone is read

    try:
        ZoneInfo(name)
    except (ValueError, KeyError, OSError):
        return False
    return True


def spoken_language(value: str | None) -> str | None:
    """`nl` or `en` for a setting that names one (`EN`, ` nl `), None for any other."""
    said = (value or "").strip().lower()
    return said if said in LANGUAGES else None


def early_language() -> str:
    """The language of help and usage errors, which are shown before the settings are loaded. Read as the
    settings read it: TAAK_LANGUAGE from the environment, else from `.env` in the working folder, in any case;
    a language taak does not speak (`fr`) is refused by the settings, and that refusal, as help, is said in the
    default language, Dutch."""
    return spoken_language(language_setting()) or "nl"


def language_setting() -> str | None:
    """TAAK_LANGUAGE as set, from the environment or else `.env`, in any case (`TAAK_LANGUAGE` over
    `taak_language`, as the settings read it); None when it is not set at all."""
    value = taak_variables(os.environ).get("taak_language")
    return dotenv_value(".env", "TAAK_LANGUAGE") if value is None else value


def language_setting_problem() -> str | None:
    """The line that says TAAK_LANGUAGE names no language taak speaks, for help, which loads no settings; None
    when it is unset or good."""
    value = language_setting()
    if value is None or spoken_language(value) is not None:
        return None
    from worker.core.catalogue import message  # start-up: only when there is something to say (the module's doc)
    from worker.core.terminal import bytes_shown  # start-up: as above

    return message("bad_language_setting", "nl", value=f"'{bytes_shown(value)}'")


def dotenv_value(path: str, name: str) -> str | None:
    """One variable from a dotenv file as the settings class (python-dotenv) reads it: `[export] NAME=value`,
    the name in any case (the upper-case name over another spelling, as the settings read it), the value unquoted
    or in quotes, an unquoted value ending at ` #`. python-dotenv itself takes 50 ms to import, half of what help
    may take: it reads only a value that names another variable (`${LANG}`), which it expands."""
    try:
        with open(path, encoding="utf-8") as file:
            lines = file.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    found: dict[bool, str] = {}  # the last value under the upper-case name (True) and under any other spelling
    for line in lines:
        key, equals, value = line.strip().removeprefix("export ").partition("=")
        if not equals or key.strip().upper() != name.upper():
            continue
        value = value.strip()
        if value[:1] in ("'", '"') and value[1:].find(value[0]) >= 0:
            found[key.strip().isupper()] = value[1 : 1 + value[1:].find(value[0])]
        else:
            found[key.strip().isupper()] = value.split(" #", 1)[0].strip()
    return _expanded(path, name, found.get(True, found.get(False)))


def _expanded(path: str, name: str, found: str | None) -> str | None:
    """The value as python-dotenv gives it where it names another variable (`${LANG}`), else as it is."""
    if found is not None and "$" in found:
        from dotenv import dotenv_values

        return taak_variables(dotenv_values(path, encoding="utf-8")).get(name.lower())
    return found


def unreadable_dotenv(path: str) -> str | None:
    """What is wrong with a dotenv file python-dotenv cannot read a line of (it warns in English through
    logging and leaves the line out, so a setting there was silently not taken) or that is no UTF-8, in the early
    language; None when every line reads (the usual case: then the language is not looked up, which reads the
    file again)."""
    if not os.path.isfile(path):  # the usual case: no file, nothing to load
        return None
    from dotenv.parser import parse_stream  # python-dotenv: 50 ms, for the commands that load the settings only

    from worker.core.catalogue import message  # start-up: only when there is a file to judge

    try:
        with open(path, encoding="utf-8") as file:
            line = next((b.original.line for b in parse_stream(file) if b.error), None)
    except OSError:  # gone meanwhile, or unreadable: the settings say so themselves
        return None
    except UnicodeDecodeError:
        key, values = "setting_not_utf8", {}
    else:
        if line is None:
            return None
        key, values = "setting_dotenv_line", {"line": line}
    language = early_language()
    return message("bad_settings", language, detail=f"{path}: {message(key, language, **values)}")
