"""`--context KEY=VALUE`: what is wrong with a pair is said as it is (tester 20: an invisible key was told it
lacked the KEY=VALUE form it had)."""

from __future__ import annotations

import pytest

from worker.cli.args import context_pairs
from worker.core.errors import InvalidInput


@pytest.mark.parametrize(
    ("pair", "said"),
    [
        ("\u200b=veranda", "--context '\\u200b=veranda': the key is empty"),
        ("machine= \u2060", "--context 'machine= \\u2060': the value is empty"),
        ("machine", "--context expects KEY=VALUE, not 'machine'"),
    ],
)
def test_a_bad_pair_is_refused_with_what_is_wrong_with_it(pair: str, said: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        context_pairs([pair])
    assert refused.value.render("en").startswith(said)


def test_a_pair_with_an_equals_sign_in_its_value_keeps_it() -> None:
    assert context_pairs(["url=a=b", "machine=veranda"]) == {"url": "a=b", "machine": "veranda"}
