"""What reaches a person's terminal: text from the ledger is anyone's (an opdracht is pasted, a bot writes a
log line), and a terminal obeys the control characters in it. `\\e]0;...\\a` sets the window title, `\\e[2J`
clears the screen, `\\r` overwrites what was printed, a bidi override reorders what is read. In human output
they are shown escaped (`\\x1b`); JSON output keeps its values exact, escaped the JSON way (`\\u001b`)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TextIO

# C0 except tab and newline, DEL, C1, the bidi marks, embeddings, overrides and isolates, the line and paragraph
# separators (a terminal may break the line there) and the byte order mark. A pattern, compiled in _UNSEEN only.
_CONTROL = "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]"


# For people, also the format characters that draw nothing and so hide text a model still reads (a zero-width
# space, the soft hyphen, the invisible operators, Unicode's tag characters); the joiners, which shape scripts
# and emoji, are left as they are.
_UNSEEN = re.compile(
    _CONTROL[:-1] + "\u00ad\u180e\u200b\u2060-\u2064\u206a-\u206f\ufff9-\ufffb\U000e0001\U000e0020-\U000e007f]"
)


def printable(text: str) -> str:
    """`text` with every control character a terminal would obey, and every format character that draws nothing,
    written out as `\\xNN` / `\\uNNNN` / `\\UNNNNNNNN`."""
    return _UNSEEN.sub(_escape, text)


def _escape(found: re.Match[str]) -> str:
    code = ord(found.group(0))
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def json_safe(text: str) -> str:
    """JSON text with the control characters json.dumps leaves raw (DEL, C1, the bidi controls), and the format
    characters that draw nothing, written as `\\uNNNN` escapes (a tag character as its surrogate pair): a parser
    reads back the same values, and a terminal neither obeys nor hides any of them. They can stand only inside
    strings, where the escape means the character itself."""
    return _UNSEEN.sub(_json_escape, text)


def _json_escape(found: re.Match[str]) -> str:
    code = ord(found.group(0))
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    high, low = 0xD800 + ((code - 0x10000) >> 10), 0xDC00 + ((code - 0x10000) & 0x3FF)
    return f"\\u{high:04x}\\u{low:04x}"


def not_utf8(text: str) -> bool:
    """Bytes that were no UTF-8, as Python keeps them from argv and the environment (surrogateescape)."""
    return any("\udc80" <= ch <= "\udcff" for ch in text)


def bytes_shown(text: str) -> str:
    """Bytes that were no UTF-8 written as every line shows them (`\\xff`), not as Python's stand-ins (`\\udcff`)."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def inline(text: str) -> str:
    """A name, a key or a value that is one line where it is shown (a column, `key = value`): a line break in it
    is shown as ⏎, so that it cannot start a line that looks like a field or an entry of its own."""
    return text.replace("\r\n", "\n").replace("\n", " ⏎ ")


# A value quoted in an error line: what was typed can be a paste of any length, and the line stays one line.
QUOTED_MAX_CHARS = 200


def quoted(text: str) -> str:
    """A value as an error line quotes it: on one line, a tab shown as `\\t` (raw, it stretched the line to the
    next tab stop and hid itself), and cut with a mark when it is long."""
    text = inline(text).replace("\t", "\\t")
    return text if len(text) <= QUOTED_MAX_CHARS else text[:QUOTED_MAX_CHARS] + "…"


def hanging(prefix: str, text: str) -> str:
    """One entry of a listing: `prefix` and the text, its further lines indented under it behind a bar, so that
    a line break in stored text can never print a line that looks like an entry of its own. The prefix (a time,
    a kind, a name) is one line whatever its parts hold."""
    prefix = inline(prefix)
    first, *more = text.split("\n")
    pad = " " * max(columns(prefix) - 2, 0) + "│ "
    return prefix + first + "".join(f"\n{pad}{line}" for line in more)


def padded(text: str, width: int) -> str:
    """A cell of a listing's prefix: escaped as the terminal will show it, then filled to `width` columns (a
    wide name takes two a character, an escape four or more: `len` put the text after it out of line)."""
    shown = printable(inline(text))  # the output stream escapes again: nothing is left to escape then
    return shown + " " * max(width - columns(shown), 0)


def columns(text: str) -> int:
    """How many columns a terminal gives the text: two for a wide character (ＭＡＣ, 漢字, most emoji), none for a
    combining mark or a joiner; `len` counted characters, and a column after a wide name stood out of line."""
    return sum(
        0
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf")
        else 2
        if unicodedata.east_asian_width(ch) in ("W", "F")
        else 1
        for ch in text
    )


# Letters and marks that draw nothing although Unicode does not file them as format characters: the Hangul
# fillers, the combining grapheme joiner, the braille blank, the variation selectors.
_DRAWS_NOTHING = frozenset("\u115f\u1160\u3164\uffa0\u034f\u2800\u180e") | frozenset(
    chr(code) for code in (*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0))
)


def is_blank(text: str) -> bool:
    """Nothing a reader could see: whitespace, or characters that draw nothing (zero-width spaces and joiners,
    the byte order mark, soft hyphens: Unicode's format and control categories; and the few of _DRAWS_NOTHING)."""
    return all(ch.isspace() or ch in _DRAWS_NOTHING or unicodedata.category(ch) in ("Cf", "Cc") for ch in text)


class Escaping:
    """A text stream that writes every control character escaped; the rest of the stream as it is. `escape`:
    `printable` for people, `json_safe` for JSON."""

    def __init__(self, stream: TextIO, escape: Callable[[str], str] = printable) -> None:
        self._stream = stream
        self._escape = escape

    def write(self, text: str) -> int:
        self._stream.write(self._escape(text))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def one_line(text: str) -> str:
    return " ⏎ ".join(part.strip() for part in text.strip().splitlines() if part.strip())


def clip(text: str, cap: int, mark: str) -> str:
    if len(text) <= cap:
        return text
    return text[: max(cap - len(mark), 0)].rstrip() + mark
