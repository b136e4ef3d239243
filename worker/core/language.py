"""The languages taak speaks, and how a setting names one: loaded by the hooks that run on every prompt, so it
imports nothing (the message catalogue costs those hooks more than their whole answer)."""

from __future__ import annotations

LANGUAGES = ("nl", "en")


def spoken_language(value: str | None) -> str | None:
    """`nl` or `en` for a setting that names one (`EN`, ` nl `), None for any other."""
    said = (value or "").strip().lower()
    return said if said in LANGUAGES else None
