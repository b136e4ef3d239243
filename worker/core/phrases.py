"""Words decided before the language they are said in is known: a phrase is a key of the catalogue and its values,
said later in either language (worker/core/catalogue.py says a line of it)."""

from __future__ import annotations

from dataclasses import dataclass

from worker.core.catalogue import Sayable, message, os_reason


@dataclass(frozen=True)
class Phrase(Sayable):
    """Words decided before the language they are said in is known (recall's fallbacks and notes, a log row's
    text): a message key and its values, said later in either language; a value may be a phrase itself. As
    text: Dutch, the record's language (recall's JSON)."""

    key: str
    values: tuple[tuple[str, object], ...] = ()

    def said(self, language: str) -> str:
        return message(
            self.key, language, **{k: v.said(language) if isinstance(v, Phrase) else v for k, v in self.values}
        )

    def __str__(self) -> str:
        return self.said("nl")


def phrase(key: str, **values: object) -> Phrase:
    return Phrase(key, tuple(values.items()))


@dataclass(frozen=True)
class OsReason(Phrase):
    """The operating system's reason for an error, said in the language it is said in (os_reason)."""

    def said(self, language: str) -> str:
        values = dict(self.values)
        return os_reason(OSError(values["errno"], values["strerror"]), language)


def os_phrase(exc: OSError) -> OsReason:
    """The operating system's reason for `exc`, to be said later in either language."""
    return OsReason("os", (("errno", exc.errno), ("strerror", exc.strerror or str(exc))))
