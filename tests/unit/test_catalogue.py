"""The catalogue (worker/core/catalogue.json) holds every line a user can be shown, whole: each key in both
languages, the same values named in each, every key the code names there, and no key that nothing names."""

from __future__ import annotations

import argparse
import ast
import errno
import importlib
import inspect
import re
import string
from dataclasses import fields
from functools import cache
from pathlib import Path

import pytest

from worker.core.catalogue import CATALOGUE, catalogue

ROOT = Path(__file__).resolve().parents[2]


@cache  # parsed when a test first asks, not while every worker collects the tests
def trees() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted((ROOT / "worker").rglob("*.py"))}


def placeholders(template: str) -> set[str]:
    return {name.split("!")[0] for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def test_the_catalogue_is_a_json_object_of_keys_each_in_dutch_and_english_and_neither_is_empty() -> None:
    assert CATALOGUE.endswith(".json")
    assert [key for key, texts in catalogue().items() if set(texts) != {"nl", "en"}] == []
    assert [key for key, texts in catalogue().items() if not texts["nl"] or not texts["en"]] == []


def test_every_key_names_the_same_values_in_both_languages() -> None:
    differ = [key for key, t in catalogue().items() if placeholders(t["nl"]) != placeholders(t["en"])]
    assert differ == []


# --- what the code names -------------------------------------------------------------------------------------


def _call_name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _errors() -> set[str]:
    """TaakError and every class that derives from it: their first argument is a key."""
    named = {"TaakError"}
    while True:
        more = {
            node.name
            for tree in trees().values()
            for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef)
            and any(isinstance(base, ast.Name) and base.id in named for base in node.bases)
        }
        if more <= named:
            return named
        named |= more


def _first_arguments(names: set[str]) -> list[ast.expr]:
    return [
        node.args[0]
        for tree in trees().values()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and _call_name(node) in names and node.args
    ]


@cache
def key_takers() -> set[str]:
    return {"message", "phrase", "Phrase", *_errors()}


AREAS = ("doctor.", "hook.", "list.", "unit.", "briefing.")  # no file of ours is named so (`lll.jsonl`)


def _strings(tree: ast.AST) -> set[str]:
    return {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)}


@cache
def strings() -> set[str]:
    return {text for tree in trees().values() for text in _strings(tree)}


def test_every_key_the_code_names_is_in_the_catalogue() -> None:
    """A key passed as it is (`message("no_daemon", ...)`, `raise InvalidInput("empty", ...)`), a key of an area
    written anywhere (`"doctor.fix_url"`), a key built from a fixed start (`f"doctor.what.{what}"`)."""
    passed = {arg.value for arg in _first_arguments(key_takers()) if isinstance(arg, ast.Constant)}
    written = {text for text in strings() if text.startswith(AREAS) and re.fullmatch(r"[a-z_]+(\.[a-z0-9_]+)+", text)}
    written -= {text for text in written if any(key.startswith(f"{text}.") for key in catalogue())}  # an area's name
    assert len(passed) > 300
    assert sorted((passed | written) - set(catalogue())) == []
    starts = [
        arg.values[0].value
        for arg in _first_arguments(key_takers())
        if isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant)
    ]
    assert starts
    assert [start for start in starts if not any(key.startswith(str(start)) for key in catalogue())] == []


def test_every_check_of_doctor_and_every_column_of_a_list_is_named_in_the_catalogue() -> None:
    whats = {arg.value for arg in _second_arguments("Check") if isinstance(arg, ast.Constant)}
    assert len(whats) > 10
    assert sorted(w for w in whats if f"doctor.what.{w}" not in catalogue()) == []
    columns = [
        f"{node.args[0].value}.{name.value}"
        for tree in trees().values()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and _call_name(node) == "header_row" and isinstance(node.args[0], ast.Constant)
        for name in ast.walk(node.args[1])
        if isinstance(name, ast.Constant) and isinstance(name.value, str)
    ]
    assert len(columns) > 20
    assert [key for key in columns if key not in catalogue()] == []


def _second_arguments(name: str) -> list[ast.expr]:
    return [
        node.args[1]
        for tree in trees().values()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and _call_name(node) == name and len(node.args) > 1
    ]


# --- no key that nothing names ---------------------------------------------------------------------------------


def _names_in_the_code() -> set[str]:
    """Every string and every name the package writes, the SQL's quoted words, and the cockpit's `w.word`s."""
    found: set[str] = set()
    for tree in trees().values():
        found |= _strings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                found.add(node.id)
            elif isinstance(node, ast.Attribute):
                found.add(node.attr)
    for sql in (ROOT / "sql").rglob("*.sql"):
        found |= set(re.findall(r"'([a-z_]+)'", sql.read_text(encoding="utf-8")))
    for template in (ROOT / "worker" / "cockpit" / "templates").glob("*.html"):
        found |= set(re.findall(r"\bw\.(\w+)", template.read_text(encoding="utf-8")))
    return found


AREA_READERS = ("area_words", "from_english", "header_row")


def _starts_in_the_code() -> set[str]:
    """The fixed starts of keys built in the code: `f"doctor.what.{what}"`, `"field." + name`, and an area read
    whole by its name (`area_words("cockpit", ...)`, `header_row("list.bots", ...)`)."""
    starts = set()
    for tree in trees().values():
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
                starts.add(str(node.values[0].value))
            reads_an_area = isinstance(node, ast.Call) and _call_name(node) in AREA_READERS
            if reads_an_area and node.args and isinstance(node.args[0], ast.Constant):
                starts.add(f"{node.args[0].value}.")
    starts |= {text for tree in trees().values() for text in _strings(tree) if re.fullmatch(r"[a-z_]+\.", text)}
    return {start for start in starts if start}


def _help_texts() -> set[str]:
    """What the parsers show (written in English), and argparse's own words (its messages, through gettext)."""
    found: set[str] = set(re.findall(r"_\('((?:[^'\\]|\\.)*)'\)", inspect.getsource(argparse)))
    found |= {"usage: "}  # argparse writes `_('usage: ')` with the same quotes as every other word

    def walk(parser: argparse.ArgumentParser) -> None:
        found.add(parser.description or "")
        for action in parser._actions:
            found.add(action.help or "")
            if isinstance(action, argparse._SubParsersAction):
                found.update(choice.help or "" for choice in action._choices_actions)
                for child in dict.fromkeys(action.choices.values()):
                    walk(child)

    for program in ("worker.cli.taak", "worker.cli.queue_worker"):
        walk(importlib.import_module(program).build_parser())
    return found


def _used_another_way(key: str, texts: dict[str, str], help_texts: set[str]) -> bool:
    """The areas whose keys the code does not name one by one: it names their English text, or they are named
    by another program (an errno, the deploy templates)."""
    area, _, name = key.partition(".")
    if area == "help":
        return texts["en"] in help_texts
    if area == "placeholder":  # a word of a usage line or an argument's placeholder, as the parsers write it
        return any(re.search(rf"(?<![\w-]){re.escape(texts['en'])}(?![\w-])", s) for s in strings())
    if area == "os":
        return name == "other" or isinstance(getattr(errno, name, None), int)
    if area == "month":
        return name in {str(n) for n in range(1, 13)}
    if key.startswith(("service.systemd.", "service.launchd.")):
        return any(
            texts["en"] in path.read_text(encoding="utf-8") for path in (ROOT / "deploy").rglob("*") if path.is_file()
        )
    if area == "briefing":
        from worker.core.briefing import Words

        return name in {field.name for field in fields(Words)}
    return False


def test_no_key_is_left_that_nothing_names(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAAK_LANGUAGE", "en")  # the parsers as they are written
    help_texts = _help_texts()
    names, starts = _names_in_the_code(), _starts_in_the_code()

    def named(key: str) -> bool:
        return key in names or any(key.startswith(s) and key[len(s) :] in names for s in starts)

    unused = [
        key for key, texts in catalogue().items() if not named(key) and not _used_another_way(key, texts, help_texts)
    ]
    assert unused == []


def test_a_key_that_nothing_names_is_found() -> None:
    """The scan above finds what it is meant to: a key only the catalogue knows."""
    names, starts = _names_in_the_code(), _starts_in_the_code()
    assert "a_line_nobody_says" not in names
    assert not any("a_line_nobody_says".startswith(s) and "a_line_nobody_says"[len(s) :] in names for s in starts)
