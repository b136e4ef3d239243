"""What the outbox sends is said in the sending daemon's language, and a message that is no longer true is
not sent (tester 21: `HV-...: mislukt na 1 van 1 pogingen` beside English lines; a question answered before
any daemon sent it went out all the same)."""

from __future__ import annotations

import pytest

from worker.daemon.outbox import outdated_why, said_again

TASK = {
    "id": "HV-20261204-020",
    "status": "mislukt",
    "titel": "Vervang de lamp",
    "max_pogingen": 3,
    "beantwoord": False,
}


@pytest.mark.parametrize(
    ("kind", "sleutel", "tekst", "english"),
    [
        (
            "mislukt",
            "mislukt:HV-20261204-020:3",
            "HV-20261204-020: mislukt na 3 van 3 pogingen: Vervang de lamp",
            "HV-20261204-020: failed after 3 of 3 attempts: Vervang de lamp",
        ),
        (
            "herinnering",
            "herinnering:vraag:17:1",
            "herinnering: HV-20261204-020: rood of blauw?",
            "reminder: HV-20261204-020: rood of blauw?",
        ),
        (
            "escalatie",
            "escalatie:vraag:17",
            "beslistermijn verstreken (24 uur): HV-20261204-020: rood of\nblauw?",
            "decision deadline passed (24 h): HV-20261204-020: rood of\nblauw?",
        ),
        (
            "uiterlijk",
            "uiterlijk:HV-20261204-020:1796000000",
            "HV-20261204-020: over de uiterlijke datum (2026-12-04 18:00, bezig): Vervang de lamp",
            "HV-20261204-020: past its due date (2026-12-04 18:00, bezig): Vervang de lamp",
        ),
        (
            "vaardigheid",
            "vaardigheid:HV-20261204-020",
            "HV-20261204-020: wacht op een bot die beeld kan (geen bot die aan staat heeft die vaardigheid): "
            "Bewerk de foto",
            "HV-20261204-020: waits for a bot that can do beeld (no switched-on bot has that skill): Bewerk de foto",
        ),
    ],
)
def test_the_databases_words_are_said_again_in_the_senders_language(
    kind: str, sleutel: str, tekst: str, english: str
) -> None:
    said = said_again(kind, sleutel, tekst, TASK)
    assert said is not None
    assert said.said("nl") == tekst
    assert said.said("en") == english


def test_words_this_version_does_not_write_go_as_they_are() -> None:
    assert said_again("mislukt", "mislukt:HV-20261204-020:3", "HV-20261204-020: iets anders", TASK) is None
    assert said_again("escalatie", "escalatie:vraag:17", "een tekst met de hand", TASK) is None
    assert said_again("vraag", "vraag:17", "HV-20261204-020: rood of blauw?", TASK) is None  # her words


@pytest.mark.parametrize(
    ("kind", "facts", "outdated"),
    [
        ("vraag", {**TASK, "status": "wacht_op_mens"}, False),
        ("vraag", {**TASK, "status": "wacht_op_mens", "beantwoord": True}, True),  # answered, asked again since
        ("herinnering", {**TASK, "status": "wachtend"}, True),
        ("escalatie", {**TASK, "status": "klaar"}, True),
        ("uiterlijk", {**TASK, "status": "bezig"}, False),
        ("uiterlijk", {**TASK, "status": "geannuleerd"}, True),
        ("mislukt", TASK, False),
        ("vaardigheid", {**TASK, "status": "wachtend", "vaardig": False}, False),
        ("vaardigheid", {**TASK, "status": "wachtend", "vaardig": True}, True),  # a switched-on bot has it now
        ("vaardigheid", {**TASK, "status": "geannuleerd", "vaardig": False}, True),
    ],
)
def test_a_message_no_longer_true_is_not_sent(kind: str, facts: dict[str, object], outdated: bool) -> None:
    assert (outdated_why(kind, facts) is not None) == outdated


def test_why_a_message_is_outdated_is_kept_in_dutch_and_logged_in_the_runs_language() -> None:
    """An English daemon logged `vervallen: de taak is klaar` (tester 22's kind: Dutch in an English log)."""
    why = outdated_why("uiterlijk", {**TASK, "status": "klaar"})
    assert why is not None
    assert str(why) == "vervallen: de taak is klaar"  # the outbox's record, as the ledger's other words
    assert why.said("en") == "outdated: the task is klaar"
