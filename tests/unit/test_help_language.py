"""Every help text of `taak` has its Dutch form, and a Dutch run shows it (issue 16: one language per run)."""

from __future__ import annotations

import argparse

import pytest

from worker.cli.help_nl import HELP_NL


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


def built(monkeypatch: pytest.MonkeyPatch, language: str) -> argparse.ArgumentParser:
    from worker.cli.taak import build_parser

    monkeypatch.setenv("TAAK_LANGUAGE", language)
    parser: argparse.ArgumentParser = build_parser()
    return parser


def test_every_help_text_has_its_dutch_form(monkeypatch: pytest.MonkeyPatch) -> None:
    missing = [text for text in help_texts(built(monkeypatch, "en")) if text not in HELP_NL]
    assert missing == []


def test_a_dutch_run_shows_no_english_help_and_an_english_run_no_dutch(monkeypatch: pytest.MonkeyPatch) -> None:
    dutch = set(help_texts(built(monkeypatch, "nl")))
    english = set(help_texts(built(monkeypatch, "en")))
    assert dutch & set(HELP_NL) <= {key for key, value in HELP_NL.items() if key == value}
    assert english & set(HELP_NL.values()) <= {key for key, value in HELP_NL.items() if key == value}
