"""The digest as the owner reads it: each task line starts with its ID, empty sections are left out, an empty digest
is one line, a late one says so."""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from worker.core.digest import BotToday, Closed, DigestFacts, Due, Unserved, Waiting, render_digest

AMS = ZoneInfo("Europe/Amsterdam")
SLOT = datetime(2026, 12, 5, 18, 0, tzinfo=AMS)


def facts(**changes: object) -> DigestFacts:
    base: dict[str, object] = {
        "slot": SLOT,
        "now": SLOT + timedelta(seconds=20),
        "late": False,
        "waiting": [],
        "closed": [],
        "due": [],
        "bots": [],
        "urgent_limit": 3,
    }
    return DigestFacts(**{**base, **changes})  # type: ignore[arg-type]


def test_an_empty_digest_is_one_line() -> None:
    assert render_digest(facts(), AMS, "nl") == "Dagbericht 18:00: niets te melden."
    quiet_bot = BotToday("paco", 0, 0, Decimal(0), False, 0)
    assert render_digest(facts(bots=[quiet_bot]), AMS, "en") == "Digest 18:00: nothing to report."


def test_a_late_digest_says_so() -> None:
    said = render_digest(facts(now=SLOT + timedelta(hours=2), late=True), AMS, "en")
    assert said == "Digest 18:00: nothing to report. (late: sent 20:00; no daemon was up when it was due)"


def test_every_section_with_its_task_ids() -> None:
    waiting = [
        Waiting("HV-20261205-001", "Budget", "paco", "Welk budget?\nMax 200?", SLOT - timedelta(hours=5), False),
        Waiting("HV-20261205-004", "Foto", "sjakie", "Mag ik posten?", SLOT - timedelta(minutes=30), True),
    ]
    closed = [
        Closed("HV-20261205-002", "Mix master", "klaar", "/audio/mix.wav", 1, 3, "paco"),
        Closed("HV-20261205-003", "Render", "mislukt", None, 3, 3, "sjakie"),
    ]
    due = [Due("HV-20261204-009", "Factuur", "wachtend", SLOT - timedelta(hours=30))]
    bots = [
        BotToday("paco", 4, 1, Decimal("1.25"), True, 0),
        BotToday("sjakie", 2, 0, Decimal("0.40"), False, 3),
        BotToday("coco", 0, 0, Decimal(0), False, 0),
    ]
    said = render_digest(facts(waiting=waiting, closed=closed, due=due, bots=bots), AMS, "nl").split("\n\n")
    assert said[0] == "Dagbericht 18:00"
    assert said[1].splitlines() == [
        "Wacht op jou (2); antwoord met ID en tekst, of op een bericht dat één taak noemt:",
        "HV-20261205-001 (paco, wacht 5u): Welk budget?\nMax 200?".splitlines()[0],
        "Max 200?",
        "HV-20261205-004 (sjakie, wacht 30m): Mag ik posten? "
        "[dringend, maar de bot had zijn 3 dringende berichten van vandaag al gestuurd]",
    ]
    assert said[2] == "Mislukt (1):\nHV-20261205-003 (sjakie): Render, na 3 van 3 pogingen"
    assert said[3] == "Uiterlijk vandaag of over tijd (1):\nHV-20261204-009: Factuur (uiterlijk 4 dec 12:00, wachtend)"
    assert said[4] == "Klaar (1):\nHV-20261205-002 (paco): Mix master; bewijs: /audio/mix.wav"
    assert said[5] == "Geremd: paco"
    assert said[6].splitlines() == [
        "Vandaag per bot:",
        "paco: 4 sessies, 1 klaar, $1.25",
        "sjakie: 2 sessies, 0 klaar, $0.40, 3 van 3 dringend",
    ]
    assert len(said) == 7


def test_a_section_with_nothing_is_left_out() -> None:
    closed = [Closed("HV-20261205-002", "Mix", "klaar", "", 1, 3, "paco")]
    said = render_digest(facts(closed=closed), AMS, "en")
    assert said == "Digest 18:00\n\nFinished (1):\nHV-20261205-002 (paco): Mix; evidence: none"


def test_a_task_whose_need_no_switched_on_bot_has_is_said_after_what_is_due() -> None:
    due = [Due("HV-20261204-009", "Factuur", "wachtend", SLOT - timedelta(hours=30))]
    unserved = [Unserved("HV-20261205-007", "Bewerk de foto", "beeld")]
    said = render_digest(facts(due=due, unserved=unserved), AMS, "en").split("\n\n")
    assert said[2] == "Waiting for a skill no switched-on bot has (1):\nHV-20261205-007: Bewerk de foto (needs: beeld)"
    assert render_digest(facts(unserved=unserved), AMS, "nl").split("\n\n")[1] == (
        "Wacht op een vaardigheid die geen bot heeft die aan staat (1):\nHV-20261205-007: Bewerk de foto (nodig: beeld)"
    )


def test_the_tasks_of_a_skill_no_switched_on_bot_has_are_said_on_one_line() -> None:
    # Fifty tasks that need tekst were fifty lines; a skill with one task keeps its line.
    tekst = [Unserved(f"HV-20261205-{n:03}", f"Gedicht {n}", "tekst") for n in range(1, 8)]
    beeld = Unserved("HV-20261205-100", "Bewerk de foto", "beeld")
    said = render_digest(facts(unserved=[tekst[0], beeld, *tekst[1:]]), AMS, "en").split("\n\n")[1]
    assert said.splitlines() == [
        "Waiting for a skill no switched-on bot has (8):",
        "7 tasks need tekst: HV-20261205-001, HV-20261205-002, HV-20261205-003, HV-20261205-004, HV-20261205-005 (+2)",
        "HV-20261205-100: Bewerk de foto (needs: beeld)",
    ]
    nl = render_digest(facts(unserved=tekst[:2]), AMS, "nl").split("\n\n")[1]
    assert nl.splitlines()[1] == "2 taken met nodig: tekst: HV-20261205-001, HV-20261205-002"
