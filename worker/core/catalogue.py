"""Saying a line of the catalogue (`catalogue.json`: every line a user can be shown, in Dutch and English).

A key says one line; its values fill `{name}`, and `{n:regel|regels}` says a count with its noun. The keys
without a dot are the general messages: the ledger's rows and the daemon's journal keep them as phrases (the
SQL names the row keys), so a key once written is never renamed. The keys with a dot belong to one area:
`help.` (the parsers' texts, written in English in the code: a Dutch run shows the `nl` of the key whose `en`
is the text), `placeholder.`, `field.`, `doctor.`, `cockpit.`, `briefing.`, `month.`, `hook.`, `list.`,
`recall.`, `service.`, `os.`, ... tests/unit/test_catalogue.py holds the catalogue whole. A command
for someone to type is written in backticks, or after ": " at the end of a line: the contract test
(tests/system/test_printed_commands.py) runs every such command.

The words kept to be said later (worker/core/phrases.py) are dataclasses, which take a hook longer to load than
the rest of it: the hooks and a queue session's `taak` say their lines from this module alone.
"""

from __future__ import annotations

import json
import os
import string
from functools import cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

CATALOGUE = os.path.join(os.path.dirname(__file__), "catalogue.json")  # not pathlib: 4 ms of a session's `taak log`


@cache
def catalogue() -> dict[str, dict[str, str]]:
    """Loaded once, on the first line said: a hook that says nothing never reads it."""
    with open(CATALOGUE, encoding="utf-8") as file:
        loaded: dict[str, dict[str, str]] = json.load(file)
    return loaded


def message(key: str, language: str, **values: Any) -> str:
    texts = catalogue()[key]
    values = {name: v.said(language) if isinstance(v, Sayable) else v for name, v in values.items()}
    if isinstance(values.get("what"), str):
        values["what"] = field_name(values["what"], language)
    return filled(texts.get(language, texts["en"]), **values)


@cache
def area_words(area: str, language: str) -> dict[str, str]:
    """An area's lines in `language`, by their name within it (`cockpit.board` is `board`); templates, with
    their `{names}` still to fill."""
    start = f"{area}."
    return {key.removeprefix(start): texts[language] for key, texts in catalogue().items() if key.startswith(start)}


@cache
def from_english(area: str, language: str) -> dict[str, str]:
    """An area whose lines the code writes in English (help, argparse's own words, placeholders): each English
    line to its form in `language`."""
    start = f"{area}."
    return {texts["en"]: texts[language] for key, texts in catalogue().items() if key.startswith(start)}


def field_name(name: str, language: str) -> str:
    """A field as the ledger names it (`volgende stap`, `volgende_stap`), or a placeholder as help writes it
    (`QUERY`), in `language`; an option (`--reden`) or any other name stays as it is typed."""
    texts = catalogue().get("field." + name.replace(" ", "_")) or catalogue().get(f"placeholder.{name}")
    return texts[language] if texts else name


class _Counting(string.Formatter):
    """`{n:regel|regels}` says a count with its noun, `1 regel` or `2 regels`; `{value!r}` puts a text between
    quotes as it is shown, every character visible (a tab as `\\t`, once: Python's repr wrote the backslash of an
    error's `\\t` twice); anything else as str.format."""

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if conversion == "r" and isinstance(value, str):
            from worker.core.terminal import printable, quoted  # start-up: only a line that quotes a text needs it

            return f"'{printable(quoted(value))}'"
        return super().convert_field(value, conversion)

    def format_field(self, value: Any, format_spec: str) -> str:
        singular, bar, plural = format_spec.partition("|")
        if bar:
            return f"{value} {singular if value == 1 else plural}"
        return str(super().format_field(value, format_spec))


filled = _Counting().format


class Sayable:
    """Words whose language is known only when they are said (worker/core/phrases.Phrase): a value of a line
    that is one is said in the line's language."""

    def said(self, language: str) -> str:
        raise NotImplementedError


def os_reason(exc: OSError, language: str) -> str:
    """The system's reasons are English (`strerror`), said as they are in English; a Dutch run says the common
    ones from the catalogue (`os.ENOENT`) and any other by its code, which is no language."""
    import errno

    if key := getattr(exc, "reason_key", None):  # a reason of our own (worker/core/folders.py)
        return message(key, language)
    code = errno.errorcode.get(exc.errno or 0)
    if language == "en" or code is None:
        said = exc.strerror or str(exc)  # the system's `Not a directory`, said after a colon as our words are
        return said[:1].lower() + said[1:] if said[:2].istitle() else said
    known = catalogue().get(f"os.{code}")
    return known["nl"] if known else message("os_other", "nl", code=code)


def file_error_line(exc: BaseException, language: str) -> str | None:
    """A file of this machine that failed (a folder where a file belongs, no room, no rights), said as that:
    not the database. None for anything else, a refused connection included."""
    if isinstance(exc, OSError) and exc.filename is not None and not isinstance(exc, ConnectionError):
        return message("file_error", language, path=exc.filename, reason=os_reason(exc, language))
    return None


def written(op: str, language: str, task_id: str, soort: str | None = None, *, used_up: bool = False) -> str:
    """The success line of a session's write (`taak log`, `klaar`, `blokkeer`, `vrijgeven`, `stap`), the same
    whether it went straight to the database or through the daemon. A task given back with its attempts
    `used_up` failed: a session told "given back to the queue" would count on another try."""
    key = {"log": "logged", "klaar": "finished", "blokkeer": "blocked", "vrijgeven": "released", "stap": "step_set"}
    if op == "vrijgeven" and used_up:
        return message("released_failed", language, id=task_id)
    return message(key[op], language, id=task_id, soort=soort or "")
