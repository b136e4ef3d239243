"""A log row's words kept as a phrase beside its Dutch text (`zin` in its meta), so each reader sees the row in
the language of their run."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from worker.core.catalogue import catalogue
from worker.core.phrases import OsReason, Phrase
from worker.core.table import age


@dataclass(frozen=True)
class Duration(Phrase):
    """How long a session ran, said as every list says it (`3u` in Dutch, `3h` in English)."""

    def said(self, language: str) -> str:
        seconds = dict(self.values)["seconds"]
        return age(float(seconds) if isinstance(seconds, (int, float)) else None, language)


def duration(seconds: float) -> Duration:
    return Duration("duration", (("seconds", seconds),))


# The phrases whose words are not a message of the catalogue.
PHRASE_KINDS: dict[str, type[Phrase]] = {"os": OsReason, "duration": Duration}


def phrase_json(said: Phrase) -> dict[str, object]:
    """A phrase as a log row's meta keeps it (`zin`), to be said again in the reader's language."""
    return {
        "sleutel": said.key,
        "waarden": {name: phrase_json(v) if isinstance(v, Phrase) else v for name, v in said.values},
    }


def ending_json(said: Phrase) -> dict[str, object]:
    """A phrase that says only the end of a row's text (`staart`), the rest being somebody's own words."""
    return {**phrase_json(said), "staart": True}


def phrase_from_json(value: object) -> Phrase | None:
    """The phrase a row's `zin` keeps; None for anything else (a plain text, a key this version does not know)."""
    if not isinstance(value, dict) or not isinstance(value.get("sleutel"), str):
        return None
    key, values = value["sleutel"], value.get("waarden", {})
    kind = PHRASE_KINDS.get(key, Phrase)
    if not isinstance(values, dict) or (kind is Phrase and key not in catalogue()):
        return None
    kept: list[tuple[str, object]] = []
    for name, inner in values.items():
        if isinstance(inner, dict):
            inner = phrase_from_json(inner)
            if inner is None:
                return None
        kept.append((name, inner))
    return kind(key, tuple(kept))


def kept_phrase(tekst: str, zin: object) -> Phrase | None:
    """The phrase a row (or a journal entry) keeps beside its Dutch text, when it still says exactly that text;
    None for a person's text, or a phrase of another version."""
    kept = phrase_from_json(zin)
    try:
        return kept if kept is not None and kept.said("nl") == tekst else None
    except (KeyError, IndexError, ValueError, TypeError):  # its values are not the ones its words name
        return None


def said_row(tekst: str, meta: Mapping[str, Any], language: str) -> str:
    """A log row's text in the reader's language. The system's own rows keep their words as a phrase (`zin`),
    said again in `language`; every other row (a person's, a bot's, one written before rows kept their
    phrase) reads as it was written, in its writer's words."""
    if language == "nl":
        return tekst
    zin = meta.get("zin")
    if isinstance(zin, dict) and zin.get("staart") is True:
        return _said_ending(tekst, zin, language)
    kept = kept_phrase(tekst, zin)
    return kept.said(language) if kept is not None else tekst


def _said_ending(tekst: str, zin: dict[str, Any], language: str) -> str:
    """A row whose phrase says only its ending: somebody's words as written, the ending in `language`."""
    kept = phrase_from_json(zin)
    if kept is None:
        return tekst
    try:
        ending = kept.said("nl")
        if not ending or not tekst.endswith(ending):
            return tekst
        return tekst[: len(tekst) - len(ending)] + kept.said(language)
    except (KeyError, IndexError, ValueError, TypeError):  # its values are not the ones its words name
        return tekst
