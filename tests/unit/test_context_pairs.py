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


def test_a_key_given_two_values_is_refused_not_one_of_them_dropped() -> None:
    """`--context a=1 --context a=2` kept `a = 2` without a word (tester 22)."""
    with pytest.raises(InvalidInput) as refused:
        context_pairs(["machine=veranda", "ip=192.168.1.2", " machine=keuken"])
    assert refused.value.render("en") == "--context 'machine' is given twice: give each key one value"
    assert context_pairs(["machine=veranda", "machine=veranda"]) == {"machine": "veranda"}  # nothing lost
