"""A daemon wakes for a notice of a waiting task only when one of its bots could win it."""

from __future__ import annotations

import json

import pytest

from worker.core.wake import could_win


def notice(bot: str | None = None, need: str | None = None) -> str:
    return json.dumps({"id": "HV-20261205-001", "toegewezen_aan": bot, "nodig": need, "niet_voor": None})


@pytest.mark.parametrize(
    ("said", "skills", "wakes"),
    [
        (notice("coco"), frozenset(), True),  # its own bot's task
        (notice("paco"), frozenset(), False),  # another bot's: that bot's daemon claims it
        (notice("paco", "beeld"), frozenset({"beeld"}), False),  # --aan wins over --nodig, as in the claim
        (notice(), frozenset(), True),  # anyone's, with no need
        (notice(None, "beeld"), frozenset({"beeld", "audio"}), True),  # a need one of its bots has
        (notice(None, "beeld"), frozenset({"audio"}), False),  # a need none of them has
        (notice(None, "beeld"), None, True),  # the skills not read yet: look
        ("", frozenset(), True),  # after a reconnect: look, one may have been missed
        ("not json", frozenset(), True),  # a notice this version cannot read: a claim too many, not one missed
        ("[1, 2]", frozenset(), True),
    ],
)
def test_a_daemon_for_coco_and_sjakie_wakes_only_for_a_task_it_could_win(
    said: str, skills: frozenset[str] | None, wakes: bool
) -> None:
    assert could_win(said, ["coco", "sjakie"], skills) is wakes


@pytest.mark.parametrize("said", [notice("coco"), notice(), notice(None, "beeld"), "", "not json"])
def test_a_daemon_whose_bots_are_all_off_or_braked_wakes_for_nothing(said: str) -> None:
    assert could_win(said, [], frozenset({"beeld"})) is False
