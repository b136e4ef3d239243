"""One language per run (issue 16): the main verbs' output, their errors and argparse's own messages, in
TAAK_LANGUAGE, with no word of the other language; the help texts and doctor too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import run_taak

MARKERS = {
    "nl": [
        "regels getoond",
        "bereik:",
        "gebruik:",
        "ongeldige keuze",
        "bestaat niet",
        "titel",
        "pogingen",
        "nergens",
        "alleen taken met deze status",
        "opties:",
    ],
    "en": [
        "lines shown",
        "range:",
        "usage:",
        "invalid choice",
        "does not exist",
        "title",
        "attempts",
        "nowhere",
        "only tasks with this status",
        "options:",
    ],
}


@pytest.mark.parametrize(("language", "other"), [("nl", "en"), ("en", "nl")])
async def test_the_main_verbs_speak_one_language(
    cli_env: dict[str, str], tmp_path: Path, language: str, other: str
) -> None:
    env = {**cli_env, "TAAK_LANGUAGE": language, "TAAK_SEMANTIC": "false", "TAAK_TIMEZONE": "UTC"}
    said = tmp_path / "said.jsonl"
    said.write_text(json.dumps({"ts": "2026-11-28T10:00:00Z", "role": "user", "text": "de lamp is kapot"}) + "\n")
    assert run_taak(env, "archief", "import", "--simple", str(said)).code == 0
    assert run_taak(env, "nieuw", "Vervang de lamp", "--aan", "paco").code == 0
    outputs = [
        run_taak(env, "lijst").out,
        run_taak(env, "recall", "2026-11-28 lamp olifant").out,
        run_taak(env, "recall", "olifant").out,
        run_taak(env, "lijst", "--status", "rommel").err,
        run_taak(env, "toon", "HV-20990101-001").err,
        run_taak(env, "lijst", "--help").out,
        run_taak(env, "--help").out,
        run_taak(env, "doctor").out,
    ]
    text = "\n".join(outputs)
    assert [m for m in MARKERS[language] if m in text], text  # it spoke
    assert [m for m in MARKERS[other] if m in text] == [], text
