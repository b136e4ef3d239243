"""The owner's hooks outside a task read their few settings without the settings class: the same values as
`Settings`, or none at all (and then the settings class decides), and none of the heavy modules loaded."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import Result, run_taak
from worker.hooks.handlers import place_of
from worker.hooks.place import read_place
from worker.settings import Settings

CASES = [
    pytest.param({}, "", id="defaults"),
    pytest.param({"TAAK_DATA_DIR": "data/taak", "TAAK_LANGUAGE": "en"}, "", id="relative-folder"),
    pytest.param({"TAAK_DATA_DIR": "~/taak", "TAAK_MEMORY_DIR": "/geheugen"}, "", id="home-folder"),
    pytest.param({"taak_language": "en", "taak_timezone": "Asia/Tokyo"}, "", id="lower-case-names"),
    pytest.param({"TAAK_LANGUAGE": " EN "}, "", id="language-in-capitals"),
    # Both spellings set: the upper-case one wins in either order (the light reader took the last one listed).
    pytest.param({"TAAK_LANGUAGE": "en", "taak_language": "nl"}, "", id="upper-case-wins"),
    pytest.param({"taak_language": "nl", "TAAK_LANGUAGE": "en"}, "", id="upper-case-wins-listed-first"),
    pytest.param({}, "TAAK_TIMEZONE=America/New_York\nTAAK_DATA_DIR=uit-env\n", id="dotenv-file"),
    pytest.param({"TAAK_DATA_DIR": "/van/de/omgeving"}, "TAAK_DATA_DIR=uit-env\nTAAK_LANGUAGE=en\n", id="env-wins"),
    pytest.param({"TAAK_ID": "HV-20261202-007", "TAAK_BOT": "paco"}, "", id="a-task"),
    pytest.param({"TAAK_ID": ""}, "", id="empty-id"),
    pytest.param({"TAAK_MEMORY_DIR": "~/geheugen"}, "TAAK_CLAUDE_SETTINGS=instellingen.json\n", id="memory-home"),
    pytest.param({"TAAK_SEMANTIC": "Off", "TAAK_EMBED_IDLE_SECONDS": "120"}, "", id="recall-settings"),
    pytest.param({"TAAK_EMBED_IDLE_SECONDS": "0.5"}, "TAAK_SEMANTIC=1\n", id="recall-settings-dotenv"),
]


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> pytest.MonkeyPatch:
    for name in list(os.environ):
        if name.lower().startswith("taak_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path / "thuis"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(tmp_path)
    return monkeypatch


@pytest.mark.parametrize(("variables", "dotenv"), CASES)
def test_the_light_reader_finds_what_the_settings_class_finds(
    clean_env: pytest.MonkeyPatch, tmp_path: Path, variables: dict[str, str], dotenv: str
) -> None:
    for name, value in variables.items():
        clean_env.setenv(name, value)
    if dotenv:
        (tmp_path / ".env").write_text(dotenv, encoding="utf-8")
    assert read_place() == place_of(Settings())


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("TAAK_LANGUAGE", "fr"),
        ("TAAK_TIMEZONE", "Europe/Veranda"),
        ("TAAK_TIMEZONE", "America"),  # a folder of the zone database: the settings class ended in a traceback
        ("TAAK_DATA_DIR", ""),
        ("TAAK_MEMORY_DIR", " "),
        ("TAAK_DATA_DIR", "/tmp/\udcff"),
        ("TAAK_DATA_DIR", "~niemand_hier_taak/data"),
        ("TAAK_SEMANTIC", "misschien"),
        ("TAAK_EMBED_IDLE_SECONDS", "0"),
    ],
)
def test_a_value_the_settings_class_refuses_is_left_to_it(clean_env: pytest.MonkeyPatch, name: str, value: str) -> None:
    clean_env.setenv(name, value)
    assert read_place() is None
    with pytest.raises(ValueError, match=f"{name}: "):
        Settings()


def test_a_hook_without_a_task_loads_no_settings_class_no_driver_and_no_event_loop(tmp_path: Path) -> None:
    heavy = ("worker.settings", "asyncpg", "asyncio", "anyio", "structlog")
    probe = (
        "import io, sys\n"
        'sys.stdin = io.StringIO(\'{"prompt": "hoi"}\')\n'
        "from worker.hooks.entry import run_hook_command\n"
        "code = run_hook_command(['prompt'])\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({heavy!r})), code)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("TAAK_")}
    env.update(HOME=str(tmp_path), TAAK_DATA_DIR=str(tmp_path / "data"))
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "lll.jsonl").write_text(
        json.dumps({"ts": "2026-12-02T08:00:00+00:00", "soort": "open", "onderwerp": "budget"}) + "\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], env=env, cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    *said, last = done.stdout.strip().splitlines()
    assert last == "[] 0"
    assert "budget" in "\n".join(said)


def test_a_memory_folder_with_a_tilde_is_the_home_folders(clean_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    clean_env.setenv("TAAK_MEMORY_DIR", "~/geheugen")
    place = read_place()
    assert place is not None
    assert place.memory_dir == tmp_path / "thuis" / "geheugen"
    assert Settings().memory_dir == tmp_path / "thuis" / "geheugen"


def run_in(folder: Path, env: dict[str, str], *args: str, stdin: str = "") -> Result:
    """`taak` as a user runs it in `folder`, with that folder as home and only the given TAAK_ settings."""
    clean = {k: v for k, v in os.environ.items() if not k.upper().startswith("TAAK_")}
    return run_taak({**clean, "HOME": str(folder), **env}, *args, stdin=stdin.encode(), cwd=folder)


def test_a_hook_names_the_setting_it_cannot_read_and_records_it(tmp_path: Path) -> None:
    env = {"TAAK_LANGUAGE": "fr", "TAAK_DATA_DIR": str(tmp_path / "data")}
    done = run_in(tmp_path, env, "hook", "prompt", stdin="{}")
    assert (done.code, done.out) == (0, "")
    assert (
        done.err.strip()
        == "taak hook prompt: ongeldige instelling: TAAK_LANGUAGE: moet een van deze zijn: 'nl' of 'en'"
    )
    (record,) = [json.loads(line) for line in (tmp_path / "data" / "hooks.log").read_text().splitlines()]
    assert record["error"] == done.err.strip()


def test_a_dotenv_file_that_is_no_utf8_is_one_line_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / ".env").write_bytes(b"TAAK_LANGUAGE=nl\xff\n")
    done = run_in(tmp_path, {}, "lll", "toon")
    assert (done.code, done.err.strip()) == (2, "taak: ongeldige instelling: .env: is geen geldige UTF-8")
    hooked = run_in(tmp_path, {}, "hook", "prompt", stdin="{}")
    assert (hooked.code, hooked.err.strip()) == (
        0,
        "taak hook prompt: ongeldige instelling: .env: is geen geldige UTF-8",
    )


@pytest.mark.parametrize(("where", "why"), [("weg.jsonl", "bestaat niet"), (".", "is een map")])
def test_a_transcript_that_cannot_be_read_is_said_in_one_line_and_the_summary_still_steered(
    tmp_path: Path, where: str, why: str
) -> None:
    path = tmp_path / where
    stdin = json.dumps({"transcript_path": str(path)})
    done = run_in(tmp_path, {"TAAK_DATA_DIR": str(tmp_path / "data")}, "hook", "pre-compact", stdin=stdin)
    assert done.code == 0
    assert (
        done.err.strip()
        == f"taak hook pre-compact: het transcript {path} is niet te lezen ({why}); geen verslag gemaakt"
    )
    assert "volgende stap" in done.out


def test_hook_output_is_escaped_the_json_way_and_reads_back_the_same() -> None:
    import json

    from worker.hooks.lines import additional_context

    text = "Volgende stap: \u202egnirts\x1b[2J\u2028klaar"
    printed = additional_context("UserPromptSubmit", text)
    assert not any(ch in printed for ch in "\u202e\x1b\u2028")
    assert json.loads(printed)["hookSpecificOutput"]["additionalContext"] == text


def test_a_report_folder_that_cannot_be_made_is_named_not_the_transcript(tmp_path: Path) -> None:
    """The transcript was readable; the data folder's `rapporten` is a file. The line blamed the transcript."""
    from tests.fixtures import FIXTURES

    data = tmp_path / "data"
    data.mkdir()
    (data / "rapporten").write_text("")
    transcript = sorted(FIXTURES.glob("*.jsonl"))[0]
    stdin = json.dumps({"transcript_path": str(transcript)})
    done = run_in(tmp_path, {"TAAK_DATA_DIR": str(data)}, "hook", "pre-compact", stdin=stdin)
    assert done.code == 0
    assert str(transcript) not in done.err
    assert done.err.startswith(f"taak hook pre-compact: bestand {data / 'rapporten'}")
    assert "Bewaar" in done.out  # the summariser is steered all the same


@pytest.mark.parametrize(("zone", "shown"), [("Europe/Amsterdam", "20:30"), ("Asia/Kathmandu", "01:15")])
def test_a_report_before_compaction_shows_times_in_the_households_zone(tmp_path: Path, zone: str, shown: str) -> None:
    """Recall shows the same line at the household's time: the report said it in UTC without saying so."""
    transcript = tmp_path / "t.jsonl"
    line = {
        "type": "user",
        "timestamp": "2026-12-02T19:30:00.000Z",
        "message": {"role": "user", "content": "zebrawoord in het verslag"},
    }
    transcript.write_text(json.dumps(line) + "\n")
    env = {"TAAK_DATA_DIR": str(tmp_path / "data"), "TAAK_TIMEZONE": zone}
    done = run_in(tmp_path, env, "hook", "pre-compact", stdin=json.dumps({"transcript_path": str(transcript)}))
    assert done.code == 0, done.err
    (report,) = (tmp_path / "data" / "rapporten").glob("*.txt")
    assert "] user: zebrawoord in het verslag" in report.read_text()
    assert f" {shown}] user: zebrawoord" in report.read_text()
