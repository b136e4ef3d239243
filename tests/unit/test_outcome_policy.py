"""The worker's pure decisions: the infrastructure pause, jitter, and what a session's environment holds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from worker.core.model import Status
from worker.core.outcome import Action, Observed, Outcome, Stop, decide, infra_pause, with_jitter
from worker.core.phrases import phrase
from worker.core.rows import Task
from worker.core.session_files import SessionFiles
from worker.core.session_plan import build_env, session_env

INFRA = Outcome(Action.VRIJGEVEN, phrase("outcome_infrastructure", why="Not logged in"), infrastructure=True)
TASK_FAILED = Outcome(Action.RETRY_OR_FAIL, phrase("outcome_failed", exit=1, what="boem"))
SHUTDOWN = Outcome(Action.VRIJGEVEN, phrase("outcome_shutdown"))
DONE = Outcome(Action.NOTHING, phrase("outcome_closed_by_session"))


@pytest.mark.parametrize(
    ("failures", "outcome", "expected"),
    [
        (0, INFRA, (1, 30.0)),
        (1, INFRA, (2, 60.0)),
        (5, INFRA, (6, 900.0)),  # capped
        (3, TASK_FAILED, (0, 0.0)),  # the agent ran: the run of infrastructure failures is over
        (3, DONE, (0, 0.0)),
        (3, SHUTDOWN, (3, 0.0)),  # a give-back for another reason says nothing about the infrastructure
    ],
)
def test_the_infrastructure_pause_grows_with_each_failure_and_ends_with_a_session_that_ran(
    failures: int, outcome: Outcome, expected: tuple[int, float]
) -> None:
    assert infra_pause(failures, outcome, 30, 900) == expected


@pytest.mark.parametrize(("draw", "expected"), [(0.0, 5.0), (0.5, 7.5), (0.999, 9.995)])
def test_jitter_spreads_a_wait_between_half_and_all_of_it(draw: float, expected: float) -> None:
    assert with_jitter(10, draw) == pytest.approx(expected)


def test_a_sessions_environment_holds_no_database_credentials_of_any_spelling() -> None:
    base = {
        "PATH": "/usr/bin",
        "HOME": "/home/paco",
        "TAAK_DATABASE_URL": "postgresql://u:geheim@db/x",
        "DATABASE_URL": "postgresql://u:geheim@db/x",
        "PGPASSWORD": "geheim",
        "PGHOST": "db",
        "TAAK_BOTS": "paco",
    }
    files = SessionFiles.of(Path("/d/sessies"), "HV-20261201-001", 1, "s-1")
    extra = session_env(
        task_id="HV-20261201-001",
        token="t",
        bot="paco",
        session_id="s-1",
        files=files,
        socket=Path("/d/run/x.sock"),
        data_dir=Path("/d"),
        timezone="Europe/Amsterdam",
        language="nl",
        machine="m",
    )
    env = build_env(base, extra, taak_dir=Path("/venv/bin"))
    assert "geheim" not in repr(env)
    assert not [k for k in env if k.startswith("PG") or k.endswith("DATABASE_URL") or k == "TAAK_BOTS"]
    assert (env["PATH"], env["TAAK_SOCKET"], env["TAAK_BRIEFING_FILE"]) == (
        "/venv/bin:/usr/bin",
        "/d/run/x.sock",
        "/d/sessies/HV-20261201-001/1-s-1.briefing.txt",
    )


def _task(status: str, token: str | None) -> Task:
    from datetime import UTC, datetime

    now = datetime(2026, 12, 1, tzinfo=UTC)
    return Task(
        id="HV-20261201-001", titel="t", opdracht="o", opdrachtgever="jamal", toegewezen_aan="paco",
        status=Status(status), klaar_wanneer=None, context={}, volgende_stap=None, pogingen=1, max_pogingen=3,
        lease_tot=None, lease_token=token, geclaimd_door="paco@m", bewijs=None, prioriteit=0, niet_voor=None,
        aangemaakt=now, bijgewerkt=now, afgerond=None,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("stop", "status", "token", "reason"),
    [
        (Stop.LEASE_LOST, "bezig", "ander-token", "lease kwijt: de taak is elders opnieuw geclaimd"),
        (Stop.LEASE_LOST, "wachtend", None, "lease kwijt: de taak is teruggenomen (nu wachtend)"),
        (Stop.LEASE_LOST, "geannuleerd", None, "de eigenaar heeft de taak geannuleerd"),
        (Stop.SHUTDOWN, "geannuleerd", None, "de eigenaar heeft de taak geannuleerd"),
        (None, "klaar", None, "de sessie heeft de taak zelf afgesloten"),
        (  # its daemon was frozen, and another daemon took the task over meanwhile: not the session's own close
            Stop.UNCONFIRMED,
            "bezig",
            "andere-token",
            "de daemon kon de lease niet op tijd bevestigen (de database of de daemon was weg); de sessie is "
            "gestopt, en de taak ging intussen verder zonder haar (nu bezig)",
        ),
    ],
)
def test_a_session_that_lost_its_task_is_told_why(
    stop: Stop | None, status: str, token: str | None, reason: str
) -> None:
    seen = Observed(token="mijn-token", exit_code=0, result=None, stop=stop, task_after=_task(status, token))
    outcome = decide(seen)
    assert (outcome.action, outcome.reason) == (Action.NOTHING, reason)


@pytest.mark.parametrize(
    ("report", "line"),
    [
        ({"exit_code": 3}, "sessie-resultaat: geen resultaatregel (exit 3)"),
        (
            {"exit_code": -15, "stop": Stop.SHUTDOWN},
            "sessie-resultaat: geen resultaatregel (signaal SIGTERM, gestopt: de worker stopte)",
        ),
        (
            {"exit_code": -9, "stop": Stop.SILENCE},
            "sessie-resultaat: geen resultaatregel (signaal SIGKILL, gestopt: te lang stil)",
        ),
    ],
)
def test_a_session_without_a_result_line_is_said_once_in_the_ledgers_language(
    report: dict[str, Any], line: str
) -> None:
    from worker.daemon.session import SessionReport
    from worker.daemon.worker import _result_phrase

    assert str(_result_phrase(SessionReport(**report))) == line


def test_every_way_the_daemon_stops_a_session_has_its_words_in_the_ledger() -> None:
    from worker.core.catalogue import catalogue

    assert [stop for stop in Stop if f"stop_{stop}" not in catalogue()] == []


def test_the_ledger_keeps_the_reason_in_dutch_and_the_log_says_it_in_the_runs_language() -> None:
    seen = Observed(token="t", exit_code=127, result=None, stop=None, task_after=_task("bezig", "t"), stderr_tail="nee")
    outcome = decide(seen)
    assert outcome.reason == "infrastructuur: agent start niet (exit 127: nee)"
    assert outcome.said("en") == "infrastructure: the agent does not start (exit 127: nee)"
    silent = decide(
        Observed(
            token="t", exit_code=-9, result=None, stop=Stop.SILENCE, task_after=_task("bezig", "t"), stderr_tail="x"
        )
    )
    assert (silent.reason, silent.said("en")) == (
        "sessie gestopt: te lang geen uitvoer\nstderr: x",
        "session stopped: no output for too long\nstderr: x",
    )


def test_a_result_line_without_its_figures_says_unknown_not_none() -> None:
    from worker.core.stream import Result
    from worker.daemon.session import SessionReport
    from worker.daemon.worker import _result_phrase

    bare = Result(False, "success", "ok", None, None, None, None)
    assert str(_result_phrase(SessionReport(exit_code=0, result=bare))) == "sessie-resultaat: ? beurten, ?, ?: ok"


@pytest.mark.parametrize(
    ("is_error", "said"), [(False, "session result: 1 turn, ?, ?"), (True, "session result (error): 1 turn, ?, ?")]
)
def test_a_result_line_that_says_nothing_ends_its_row_with_the_figures(is_error: bool, said: str) -> None:
    """`"result": null` without a subtype read `session result: ? turns, ?, ?: ` (tester 22)."""
    from worker.core.stream import Result
    from worker.daemon.session import SessionReport
    from worker.daemon.worker import _result_phrase

    silent = Result(is_error, "", None, 1, None, None, None)
    assert _result_phrase(SessionReport(exit_code=0, result=silent)).said("en") == said


def test_systemctl_without_a_user_bus_is_said_in_the_runs_language_with_what_to_do() -> None:
    from worker.daemon.service import said_by_manager

    said = said_by_manager("Failed to connect to bus: No medium found", "nl")
    assert said.startswith("systemctl bereikt de systemd van deze gebruiker niet")
    import getpass

    assert f"`sudo loginctl enable-linger {getpass.getuser()}`" in said  # as install says it: typed, it works
    assert said_by_manager("● queue-worker@paco.service - taak queue-worker", "nl").startswith("● queue-worker@paco")


def test_a_long_session_says_its_duration_as_the_lists_do() -> None:
    from worker.core.stream import Result
    from worker.daemon.session import SessionReport
    from worker.daemon.worker import _result_phrase

    quick = Result(False, "success", "ok", 2, 1140, 0.1, None)
    long = Result(False, "success", "ok", 40, 1_234_567, 2.5, None)
    assert (
        str(_result_phrase(SessionReport(exit_code=0, result=quick))) == "sessie-resultaat: 2 beurten, 1.1s, $0.10: ok"
    )
    assert (
        str(_result_phrase(SessionReport(exit_code=0, result=long))) == "sessie-resultaat: 40 beurten, 20m, $2.50: ok"
    )


@pytest.mark.parametrize(
    ("status", "token", "action", "reason"),
    [
        ("wachtend", None, Action.NOTHING, "de sessie sloot de taak af, maar de database weigerde dat later"),
        ("bezig", "ander-token", Action.NOTHING, "de sessie sloot de taak af, maar de database weigerde dat later"),
        # Still its own: the close never happened, and the session ended without one.
        ("bezig", "t", Action.RETRY_OR_FAIL, "sessie eindigde zonder taak klaar"),
    ],
)
def test_a_close_the_database_refused_later_is_not_said_as_done(
    status: str, token: str | None, action: Action, reason: str
) -> None:
    from worker.core.errors import Refused

    refused = Refused("not_bezig", id="HV-20261201-001", status=status).as_phrase()
    outcome = decide(
        Observed(token="t", exit_code=0, result=None, stop=None, task_after=_task(status, token), close_refused=refused)
    )
    assert outcome.action == action
    assert outcome.reason.startswith(reason)


def test_a_session_that_never_started_says_so_not_exit_none() -> None:
    from worker.daemon.session import SessionReport
    from worker.daemon.worker import _result_phrase

    never = SessionReport(exit_code=None, result=None, spawn_error="bestand /nergens: bestaat niet")
    assert (
        str(_result_phrase(never))
        == "sessie-resultaat: geen resultaatregel (niet gestart, bestand /nergens: bestaat niet)"
    )


def test_a_session_stopped_because_its_lease_went_unconfirmed_gives_the_attempt_back() -> None:
    seen = Observed(
        token="mijn-token", exit_code=-9, result=None, stop=Stop.UNCONFIRMED, task_after=_task("bezig", "mijn-token")
    )
    assert decide(seen).action == Action.VRIJGEVEN
