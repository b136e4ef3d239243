"""Every help text of `taak` has its Dutch form, and a Dutch run shows it (issue 16: one language per run)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from worker.core.catalogue import from_english, message

HELP_NL = from_english("help", "nl")


def help_texts(parser: argparse.ArgumentParser) -> list[str]:
    found = [parser.description] if parser.description else []
    for action in parser._actions:
        if action.help and action.help != argparse.SUPPRESS:
            found.append(action.help)
        if isinstance(action, argparse._SubParsersAction):
            found += [choice.help for choice in action._choices_actions if choice.help]
            for child in dict.fromkeys(action.choices.values()):
                found += help_texts(child)
    return found


PROGRAMS = ["worker.cli.taak", "worker.cli.queue_worker"]


def built(monkeypatch: pytest.MonkeyPatch, language: str, program: str) -> argparse.ArgumentParser:
    import importlib

    monkeypatch.setenv("TAAK_LANGUAGE", language)
    parser: argparse.ArgumentParser = importlib.import_module(program).build_parser()
    return parser


@pytest.mark.parametrize("program", PROGRAMS)
def test_every_help_text_has_its_dutch_form(monkeypatch: pytest.MonkeyPatch, program: str) -> None:
    missing = [text for text in help_texts(built(monkeypatch, "en", program)) if text not in HELP_NL]
    assert missing == []


@pytest.mark.parametrize("program", PROGRAMS)
def test_a_dutch_run_shows_no_english_help_and_an_english_run_no_dutch(
    monkeypatch: pytest.MonkeyPatch, program: str
) -> None:
    dutch = set(help_texts(built(monkeypatch, "nl", program)))
    english = set(help_texts(built(monkeypatch, "en", program)))
    assert dutch & set(HELP_NL) <= {key for key, value in HELP_NL.items() if key == value}
    assert english & set(HELP_NL.values()) <= {key for key, value in HELP_NL.items() if key == value}


def test_a_field_is_named_in_the_runs_language() -> None:
    assert message("empty", "en", what="volgende stap") == "next step is empty"
    assert message("empty", "nl", what="volgende stap") == "volgende stap is leeg"
    assert message("empty", "en", what="--reden") == "--reden is empty"  # an option stays as typed


def placeholders(parser: argparse.ArgumentParser) -> list[str]:
    """Every usage line and argument placeholder a parser and its sub-parsers show."""
    found = [parser.format_usage()]
    for action in parser._actions:
        if isinstance(action.metavar, str):
            found.append(action.metavar)
        if isinstance(action, argparse._SubParsersAction):
            for child in dict.fromkeys(action.choices.values()):
                found += placeholders(child)
    return found


@pytest.mark.parametrize("program", PROGRAMS)
def test_usage_lines_and_placeholders_are_in_the_runs_language(monkeypatch: pytest.MonkeyPatch, program: str) -> None:
    import re

    from worker.core.catalogue import from_english

    placeholders_nl = from_english("placeholder", "nl")

    def words(language: str, vocabulary: list[str]) -> set[str]:
        shown = " ".join(placeholders(built(monkeypatch, language, program)))
        return {w for w in vocabulary if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", shown)}

    assert words("en", list(placeholders_nl.values())) == set()
    assert words("nl", list(placeholders_nl)) == set()
    assert words("en", list(placeholders_nl))  # the English ones are there to be translated


@pytest.mark.parametrize("program", PROGRAMS)
def test_every_placeholder_of_a_dutch_run_is_dutch_or_no_word(monkeypatch: pytest.MonkeyPatch, program: str) -> None:
    """Not only the known English words: a new placeholder in English (`KEY=VALUE` was one) fails here."""
    import re

    from worker.core.catalogue import from_english

    placeholders_nl = from_english("placeholder", "nl")

    shown = " ".join(placeholders(built(monkeypatch, "nl", program)))
    capitals = set(re.findall(r"(?<![\w-])[A-Z][A-Z_]+(?![\w-])", shown))
    neither = {"ID", "BOT", "IP", "USD", "SOORT", "OPDRACHT"}  # names, units and the ledger's own Dutch words
    assert capitals - set(placeholders_nl.values()) - neither == set()


def test_every_verbs_help_starts_with_a_whole_usage_line_in_a_dutch_run() -> None:
    """argparse's intermixed parsing cut 7 characters (`usage: `) off a generated usage line, which left
    `gebruik: : taak archief bijwerken` in Dutch."""
    import os
    import subprocess
    import sys

    probe = """
import argparse, contextlib, io
from worker.cli.args import parse, use_argparse_words
use_argparse_words()
from worker.cli.taak import build_parser

def leaves(parser, path):
    verbs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not verbs:
        yield path
        return
    for name, child in verbs[0].choices.items():
        yield from leaves(child, [*path, name])

for path in leaves(build_parser(), []):
    said = io.StringIO()
    with contextlib.redirect_stdout(said), contextlib.suppress(SystemExit):
        parse(build_parser(), [*path, "--help"])
    first = said.getvalue().splitlines()[0]
    print(first)
"""
    env = {**os.environ, "TAAK_LANGUAGE": "nl"}
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    firsts = done.stdout.splitlines()
    assert len(firsts) > 30
    assert [line for line in firsts if not line.startswith("gebruik: taak ") or ": :" in line] == []


ENV_LINES = [
    "TAAK_LANGUAGE=en",
    'TAAK_LANGUAGE="en"',
    "TAAK_LANGUAGE='en'",
    "export TAAK_LANGUAGE=en # the owner's note",
    "  TAAK_LANGUAGE = en  ",
    "TAAK_LANGUAGE=EN",
    "TAAK_LANGUAGE=nl\nTAAK_LANGUAGE=en",
    "# TAAK_LANGUAGE=en",
    "TAAK_LANGUAGE=",
    "CHOICE=en\nTAAK_LANGUAGE=${CHOICE}",
    "TAAK_LANGUAGE=${NOT_SET_ANYWHERE:-en}",
    "TAAK_LANGUAGE=en\ntaak_language=nl",
    "taak_language=nl\nTAAK_LANGUAGE=en",
]


@pytest.mark.parametrize("text", ENV_LINES)
def test_the_early_reader_reads_a_dotenv_file_as_python_dotenv_does(tmp_path: Path, text: str) -> None:
    from dotenv import dotenv_values

    from worker.core.language import dotenv_value

    (tmp_path / ".env").write_text(text + "\n", encoding="utf-8")
    assert dotenv_value(str(tmp_path / ".env"), "TAAK_LANGUAGE") == dotenv_values(tmp_path / ".env").get(
        "TAAK_LANGUAGE"
    )


@pytest.mark.parametrize(("argv", "english"), [(["--help"], "usage: taak "), (["nieuw"], "the following arguments")])
def test_help_and_usage_errors_follow_the_language_in_dotenv(tmp_path: Path, argv: list[str], english: str) -> None:
    """The settings read TAAK_LANGUAGE from `.env` too: help, shown before them, must say the same language."""
    (tmp_path / ".env").write_text("export TAAK_LANGUAGE=en  # in English\n", encoding="utf-8")
    env = {name: value for name, value in os.environ.items() if name != "TAAK_LANGUAGE"}
    done = subprocess.run(
        [sys.executable, "-m", "worker.cli.taak", *argv], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert english in done.stdout + done.stderr
    env["TAAK_LANGUAGE"] = "nl"  # the environment wins over the file, as in the settings
    done = subprocess.run(
        [sys.executable, "-m", "worker.cli.taak", *argv], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert english not in done.stdout + done.stderr


@pytest.mark.parametrize(
    ("environment", "english"),
    [({"taak_language": "en"}, True), ({"taak_language": "en", "TAAK_LANGUAGE": "nl"}, False)],
)
def test_help_follows_a_language_set_in_lower_case_as_the_settings_read_it(
    tmp_path: Path, environment: dict[str, str], english: bool
) -> None:
    """Outside try: `taak_language=en` made the command's output English and its usage errors Dutch."""
    env = {name: value for name, value in os.environ.items() if name.upper() != "TAAK_LANGUAGE"}
    done = subprocess.run(
        [sys.executable, "-m", "worker.cli.taak", "nieuw"],
        cwd=tmp_path,
        env={**env, **environment},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert ("the following arguments" in done.stderr) is english


def test_a_ctrl_c_chained_to_another_exception_ends_quietly_with_130() -> None:
    """Ctrl-C during an import can arrive as the import's own error, with the KeyboardInterrupt as its cause."""
    from worker.cli.guard import guarded

    def importing() -> None:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as interrupted:
            raise ImportError("interrupted while importing") from interrupted

    def a_bug() -> None:
        raise ImportError("no such module")

    with pytest.raises(SystemExit) as ended:
        guarded(importing, 130)
    assert ended.value.code == 130
    with pytest.raises(ImportError):  # anything else is a bug, and says so
        guarded(a_bug, 130)


def taak_with_language(value: str, *words: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TAAK_LANGUAGE": value}
    return subprocess.run([sys.executable, "-m", "worker.cli.taak", *words], env=env, capture_output=True, text=True)


@pytest.mark.parametrize("value", ["EN", " en", "En "])
def test_english_written_in_capitals_or_with_spaces_is_english(value: str) -> None:
    """`TAAK_LANGUAGE=EN` gave Dutch help, and every verb refused it as a language it does not know."""
    from worker.settings import Settings

    assert Settings(language=value).language == "en"
    done = taak_with_language(value, "lijst", "--help")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("usage: taak lijst")


@pytest.mark.parametrize("value", ["fr", "", "nederlands"])
def test_help_under_a_language_taak_does_not_speak_names_the_setting(value: str) -> None:
    """Help loads no settings: it is shown (in Dutch), and it says which setting to mend, as every verb does."""
    done = taak_with_language(value, "--help")
    assert done.returncode == 0
    assert done.stdout.startswith("gebruik: taak")
    assert (
        done.stderr
        == f"taak: ongeldige instelling: TAAK_LANGUAGE={value!r}: kies nl of en (deze hulp is in het Nederlands)\n"
    )


def test_help_shows_a_language_setting_that_is_no_utf8_as_every_other_line_shows_bytes() -> None:
    done = taak_with_language("e\udcffn", "--help")  # the bytes e, 0xff, n
    assert done.returncode == 0
    assert "TAAK_LANGUAGE='e\\xffn': kies nl of en" in done.stderr


def test_the_daemons_usage_line_shows_its_verb_as_optional() -> None:
    """`queue-worker [-h] [--once] VERB ...` read as if a verb were needed; without one it is the daemon."""
    env = {**os.environ, "TAAK_LANGUAGE": "en"}
    shown = subprocess.run(
        [sys.executable, "-m", "worker.cli.queue_worker", "--help"], env=env, capture_output=True, text=True
    ).stdout.splitlines()
    assert shown[0] == "usage: queue-worker [-h] [--once] [VERB ...]"
    service = subprocess.run(
        [sys.executable, "-m", "worker.cli.queue_worker", "service", "--help"], env=env, capture_output=True, text=True
    ).stdout.splitlines()
    assert service[0] == "usage: queue-worker service [-h] VERB ..."


@pytest.mark.parametrize(
    ("program", "argv"),
    [
        ("worker.cli.taak", ["bot"]),
        ("worker.cli.taak", ["archief"]),
        ("worker.cli.taak", ["db"]),
        ("worker.cli.taak", ["machine"]),
        ("worker.cli.taak", ["intake"]),
        ("worker.cli.queue_worker", ["service"]),
        ("worker.cli.taak", ["lijst", "--x"]),
    ],
)
def test_a_usage_error_of_a_verb_group_names_no_help_option(program: str, argv: list[str]) -> None:
    """`taak bot` said `(usage: taak bot [-h] VERB ...)` where every verb's usage leaves -h out."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_")} | {"TAAK_LANGUAGE": "en"}
    done = subprocess.run([sys.executable, "-m", program, *argv], env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert "(usage: " in line
    assert "[-h]" not in line
