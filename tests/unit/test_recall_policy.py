"""The fallback policy of recall, one decision per row: what is added when the exact search finds too few."""

from __future__ import annotations

from dataclasses import replace

import pytest

from worker.memory.recall import Extra, Step, fallback_step

LIMIT = 40


@pytest.mark.parametrize(
    ("has_range", "range_empty", "has_words", "hits", "spoken", "semantic", "expected"),
    [
        # Enough exact hits: nothing is added, with or without the extra.
        (True, False, True, 3, 500, True, Step("geen", Extra.NOTHING)),
        (False, False, True, 12, 0, False, Step("geen", Extra.NOTHING)),
        # Only a time phrase: the range in time order.
        (True, False, False, 0, 500, True, Step("geen woorden: het bereik op tijd", Extra.RANGE_IN_ORDER)),
        # Too few hits in a range small enough to show whole: no guessing needed.
        (True, False, True, 1, 40, True, Step("te weinig treffers: het hele bereik op tijd", Extra.RANGE_IN_ORDER)),
        # Too few hits in a busy range: neighbours in meaning inside it, or the range in order and a note.
        (True, False, True, 1, 41, True, Step("te weinig treffers: betekenis binnen het bereik", Extra.SEMANTIC)),
        (
            True,
            False,
            True,
            1,
            41,
            False,
            Step("te weinig treffers: het hele bereik op tijd", Extra.RANGE_IN_ORDER, semantic_missed=True),
        ),
        # No time phrase and too few hits.
        (False, False, True, 2, 0, True, Step("te weinig treffers: betekenis in alle tijd", Extra.SEMANTIC)),
        (False, False, True, 0, 0, False, Step("te weinig treffers", Extra.NOTHING, semantic_missed=True)),
        # Nothing in the range: the words over all time, then meaning when they too find too few.
        (True, True, True, 5, 0, True, Step("niets in het bereik: woorden in alle tijd", Extra.NOTHING)),
        (True, True, True, 1, 0, True, Step("niets in het bereik: woorden en betekenis in alle tijd", Extra.SEMANTIC)),
        (
            True,
            True,
            True,
            1,
            0,
            False,
            Step("niets in het bereik: woorden in alle tijd", Extra.NOTHING, semantic_missed=True),
        ),
    ],
)
def test_the_fallback_policy(
    has_range: bool, range_empty: bool, has_words: bool, hits: int, spoken: int, semantic: bool, expected: Step
) -> None:
    step = fallback_step(
        has_range=has_range,
        range_empty=range_empty,
        has_words=has_words,
        hits=hits,
        spoken_in_range=spoken,
        limit=LIMIT,
        semantic=semantic,
    )
    assert replace(step, fallback=str(step.fallback)) == expected  # the fallback as the header says it in Dutch


def test_a_fallback_is_said_in_the_runs_language() -> None:
    step = fallback_step(
        has_range=True, range_empty=False, has_words=True, hits=1, spoken_in_range=9, limit=LIMIT, semantic=False
    )
    assert step.fallback.said("en") == "too few hits: the whole range in time order"
    assert step.fallback.said("nl") == "te weinig treffers: het hele bereik op tijd"
