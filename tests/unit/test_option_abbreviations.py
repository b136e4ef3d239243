"""An option may be typed shortened, as argparse allows, as long as it names one option."""

from __future__ import annotations

import pytest

from worker.cli.args import parse
from worker.cli.taak import build_parser


@pytest.mark.parametrize("typed", ["--lim", "--li", "--limiet", "--limit"])
def test_a_shortened_option_that_two_spellings_of_one_option_share_is_that_option(typed: str) -> None:
    """`--lim` matched `--limiet` and `--limit` and was refused as ambiguous (tester 22)."""
    assert parse(build_parser(), ["lijst", typed, "3"]).limiet == 3


def test_a_shortened_option_that_names_two_options_is_still_ambiguous(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ended:
        parse(build_parser(), ["nieuw", "x", "--v", "jamal"])  # --van or --volgende-stap
    assert ended.value.code == 2
    said = capsys.readouterr().err
    assert "--van" in said
    assert "--volgende-stap" in said
