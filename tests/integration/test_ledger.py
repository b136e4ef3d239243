"""The ledger: claims, fenced writes, and every transition, legal and illegal, on a real database."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable

import asyncpg
import pytest

from tests.helpers import ledger_on, snapshot
from worker.core.errors import InvalidInput, NotFound, Refused
from worker.core.model import Soort, Status
from worker.db.ledger import Ledger, NewTask


@pytest.fixture
def ledger(pool: asyncpg.Pool) -> Ledger:
    return ledger_on(pool, lease_seconds=1200, machine="testmachine")


async def kinds(ledger: Ledger, task_id: str) -> list[str]:
    return [row.soort.value for row in await ledger.log_rows(task_id)]


async def test_nieuw_stores_the_task_and_logs_only_its_creation(ledger: Ledger) -> None:
    task_id = await ledger.nieuw(
        NewTask("Schrijf de blog", "jamal", toegewezen_aan="paco", context={"machine": "veranda"})
    )
    task = await ledger.toon(task_id)
    assert (task.opdracht, task.opdrachtgever, task.status) == ("Schrijf de blog", "jamal", Status.WACHTEND)
    assert task.context == {"machine": "veranda"}
    rows = await ledger.log_rows(task_id)
    assert [(r.soort, r.tekst) for r in rows] == [(Soort.NOTITIE, "aangemaakt door jamal")]


async def test_claim_takes_the_highest_priority_then_the_oldest(ledger: Ledger) -> None:
    oldest = await ledger.nieuw(NewTask("eerst", "jamal"))
    await ledger.nieuw(NewTask("later", "jamal"))
    urgent = await ledger.nieuw(NewTask("dringend", "jamal", prioriteit=5))
    first, second = await ledger.claim(["paco"]), await ledger.claim(["paco"])
    assert first is not None
    assert second is not None
    assert (first.task.id, second.task.id) == (urgent, oldest)


async def test_claim_sets_the_lease_attempt_holder_and_logs_gestart(ledger: Ledger, pool: asyncpg.Pool) -> None:
    task_id = await ledger.nieuw(NewTask("doe het", "jamal", toegewezen_aan="paco"))
    claim = await ledger.claim(["paco"])
    assert claim is not None
    task = claim.task
    assert (task.id, task.status, task.pogingen, task.geclaimd_door) == (
        task_id,
        Status.BEZIG,
        1,
        "paco@testmachine",
    )
    assert claim.bot == "paco"
    seconds_left = await pool.fetchval("select extract(epoch from lease_tot - now()) from agent_taken")
    assert 1190 < seconds_left <= 1200
    assert await kinds(ledger, task_id) == ["notitie", "gestart"]


async def test_claim_skips_tasks_of_other_bots_and_tasks_not_yet_due(ledger: Ledger, pool: asyncpg.Pool) -> None:
    await ledger.nieuw(NewTask("voor sjakie", "jamal", toegewezen_aan="sjakie"))
    later = await ledger.nieuw(NewTask("morgen", "jamal"))
    await pool.execute("update agent_taken set niet_voor = now() + interval '1 hour' where id = $1", later)
    assert await ledger.claim(["paco"]) is None
    anyone = await ledger.nieuw(NewTask("voor iedereen", "jamal"))
    claim = await ledger.claim(["paco", "coco"])
    assert claim is not None
    assert (claim.task.id, claim.bot) == (anyone, "paco")


@pytest.mark.slow
async def test_32_claimers_over_2000_tasks_claim_each_exactly_once(ledger: Ledger, pool: asyncpg.Pool) -> None:
    await pool.executemany(
        "insert into agent_taken (opdracht, opdrachtgever) values ($1, 'jamal')",
        [(f"taak {n}",) for n in range(2000)],
    )
    claimed: list[str] = []

    async def claimer() -> None:
        while (claim := await ledger.claim(["paco"])) is not None:
            claimed.append(claim.task.id)

    await asyncio.gather(*(claimer() for _ in range(32)))
    assert len(claimed) == 2000
    assert len(set(claimed)) == 2000
    assert await pool.fetchval("select count(*) from agent_taken where status = 'bezig' and pogingen = 1") == 2000
    assert await pool.fetchval("select count(*) from agent_taak_log where soort = 'gestart'") == 2000


async def test_a_stale_token_can_do_nothing_after_the_task_is_reclaimed(ledger: Ledger, pool: asyncpg.Pool) -> None:
    task_id = await ledger.nieuw(NewTask("doe het", "jamal"))
    old = await ledger.claim(["paco"])
    assert old is not None
    await pool.execute("update agent_taken set lease_tot = now() - interval '1 second' where id = $1", task_id)
    verlopen_taken = await ledger.verlopen(backoff_base=0, backoff_max=0)
    assert [(r.id, r.bot) for r in verlopen_taken] == [(task_id, "paco")]  # whose it was: the log line names it
    new = await ledger.claim(["coco"])
    assert new is not None
    assert new.token != old.token
    before = await snapshot(pool)
    stale_writes: list[Callable[[], Awaitable[object]]] = [
        lambda: ledger.log(task_id, Soort.STAP_KLAAR, "oud", token=old.token),
        lambda: ledger.klaar(task_id, "/tmp/x", "oud", token=old.token),
        lambda: ledger.blokkeer(task_id, "oud?", token=old.token),
        lambda: ledger.vrijgeven(task_id, old.token, "oud"),
        lambda: ledger.stap(task_id, "oud", token=old.token),
    ]
    for write in stale_writes:
        with pytest.raises(Refused) as refused:
            await write()
        assert refused.value.key == "stale_token"
    assert await ledger.verleng(task_id, old.token) is None
    assert await snapshot(pool) == before


async def test_a_fenced_log_row_extends_the_lease(ledger: Ledger, pool: asyncpg.Pool) -> None:
    task_id = await ledger.nieuw(NewTask("doe het", "jamal"))
    claim = await ledger.claim(["paco"])
    assert claim is not None
    await pool.execute("update agent_taken set lease_tot = now() + interval '5 seconds' where id = $1", task_id)
    await ledger.log(task_id, Soort.STAP_KLAAR, "stap 1", token=claim.token, bot="paco")
    assert await pool.fetchval("select lease_tot - now() > interval '1000 seconds' from agent_taken") is True


async def test_without_a_token_only_notes_and_answers_can_be_logged(ledger: Ledger, pool: asyncpg.Pool) -> None:
    task_id = await ledger.nieuw(NewTask("doe het", "jamal"))
    await ledger.log(task_id, Soort.NOTITIE, "let op de tuin", bot="jamal")
    before = await snapshot(pool)
    for soort in (Soort.STAP_KLAAR, Soort.KLAAR, Soort.GESTART, Soort.FOUT):
        with pytest.raises(Refused):
            await ledger.log(task_id, soort, "mag niet")
    assert await snapshot(pool) == before


async def test_kinds_with_their_own_command_cannot_be_logged_even_with_a_token(ledger: Ledger) -> None:
    await ledger.nieuw(NewTask("doe het", "jamal"))
    claim = await ledger.claim(["paco"])
    assert claim is not None
    for soort in (Soort.GESTART, Soort.KLAAR, Soort.VRIJGEGEVEN, Soort.VERLOPEN, Soort.ANTWOORD):
        with pytest.raises(Refused):
            await ledger.log(claim.task.id, soort, "mag niet", token=claim.token)


async def test_klaar_without_evidence_is_refused_and_changes_nothing(ledger: Ledger, pool: asyncpg.Pool) -> None:
    await ledger.nieuw(NewTask("doe het", "jamal"))
    claim = await ledger.claim(["paco"])
    assert claim is not None
    before = await snapshot(pool)
    with pytest.raises(Refused) as refused:
        await ledger.klaar(claim.task.id, "  ", "klaar", token=claim.token)
    assert refused.value.key == "no_evidence"
    assert await snapshot(pool) == before


async def test_the_reaper_returns_expired_tasks_with_backoff_and_fails_them_at_the_limit(
    ledger: Ledger, pool: asyncpg.Pool
) -> None:
    retry = await ledger.nieuw(NewTask("nog een kans", "jamal", max_pogingen=3))
    last = await ledger.nieuw(NewTask("laatste kans", "jamal", max_pogingen=1))
    await ledger.claim(["paco"])
    await ledger.claim(["paco"])
    await pool.execute("update agent_taken set lease_tot = now() - interval '1 second'")
    verlopen_taken = {r.id: r for r in await ledger.verlopen(backoff_base=60, backoff_max=600)}
    assert verlopen_taken[retry].status == Status.WACHTEND
    assert verlopen_taken[last].status == Status.MISLUKT
    waits = await pool.fetchval("select extract(epoch from niet_voor - now()) from agent_taken where id = $1", retry)
    assert 50 < waits <= 60
    assert (await kinds(ledger, retry))[-1] == "verlopen"
    assert (await kinds(ledger, last))[-1] == "verlopen"
    assert await ledger.verlopen() == []


async def test_two_reapers_at_once_reap_each_task_once(ledger: Ledger, pool: asyncpg.Pool) -> None:
    await pool.executemany(
        "insert into agent_taken (opdracht, opdrachtgever) values ($1, 'jamal')",
        [(f"t{n}",) for n in range(200)],
    )
    while await ledger.claim(["paco"]) is not None:
        pass
    await pool.execute("update agent_taken set lease_tot = now() - interval '1 second'")
    results = await asyncio.gather(*(ledger.verlopen(limit=1000) for _ in range(4)))
    verlopen_taken = [r.id for batch in results for r in batch]
    assert len(verlopen_taken) == len(set(verlopen_taken)) == 200
    assert await pool.fetchval("select count(*) from agent_taak_log where soort = 'verlopen'") == 200


# --- every transition, table-driven -------------------------------------------------------------


async def task_in(ledger: Ledger, pool: asyncpg.Pool, status: Status) -> tuple[str, str]:
    """A task in the given status and the token to use on it (a current one when it is held)."""
    task_id = await ledger.nieuw(NewTask(f"taak in {status}", "jamal"))
    token = str(uuid.uuid4())
    if status == Status.WACHTEND:
        return task_id, token
    claim = await ledger.claim(["paco"])
    assert claim is not None
    assert claim.task.id == task_id
    token = claim.token
    if status == Status.WACHT_OP_MENS:
        await ledger.blokkeer(task_id, "vraag?", token=token)
    elif status == Status.KLAAR:
        await ledger.klaar(task_id, "/tmp/bewijs", "af", token=token)
    elif status == Status.MISLUKT:
        await pool.execute(
            "update agent_taken set status = 'mislukt', lease_tot = null, lease_token = null where id = $1",
            task_id,
        )
    return task_id, token


Operation = Callable[[Ledger, str, str], Awaitable[object]]

OPERATIONS: dict[str, Operation] = {
    "log stap_klaar": lambda lg, i, t: lg.log(i, Soort.STAP_KLAAR, "stap", token=t),
    "log notitie zonder token": lambda lg, i, t: lg.log(i, Soort.NOTITIE, "notitie"),
    "klaar": lambda lg, i, t: lg.klaar(i, "/tmp/bewijs", "af", token=t),
    "blokkeer": lambda lg, i, t: lg.blokkeer(i, "wat nu?", token=t),
    "antwoord": lambda lg, i, t: lg.antwoord(i, "zo", wie="jamal"),
    "vrijgeven": lambda lg, i, t: lg.vrijgeven(i, t, "terug"),
    "stap met token": lambda lg, i, t: lg.stap(i, "verder", token=t),
    "stap zonder token": lambda lg, i, t: lg.stap(i, "verder"),
}

W, B, M, K, F = Status.WACHTEND, Status.BEZIG, Status.WACHT_OP_MENS, Status.KLAAR, Status.MISLUKT
REFUSED = None
# operation -> {status before: status after, or REFUSED}
TRANSITIONS: dict[str, dict[Status, Status | None]] = {
    "log stap_klaar": {W: REFUSED, B: B, M: REFUSED, K: REFUSED, F: REFUSED},
    "log notitie zonder token": {W: W, B: B, M: M, K: K, F: F},
    "klaar": {W: REFUSED, B: K, M: REFUSED, K: REFUSED, F: REFUSED},
    "blokkeer": {W: REFUSED, B: M, M: REFUSED, K: REFUSED, F: REFUSED},
    "antwoord": {W: W, B: B, M: W, K: REFUSED, F: REFUSED},
    "vrijgeven": {W: REFUSED, B: W, M: REFUSED, K: REFUSED, F: REFUSED},
    "stap met token": {W: REFUSED, B: B, M: REFUSED, K: REFUSED, F: REFUSED},
    "stap zonder token": {W: W, B: REFUSED, M: M, K: REFUSED, F: REFUSED},  # nobody takes a finished step
}
CASES = [(op, before, after) for op, table in TRANSITIONS.items() for before, after in table.items()]


@pytest.mark.parametrize(("operation", "before", "after"), CASES, ids=[f"{o}-{b}" for o, b, _ in CASES])
async def test_transition(
    ledger: Ledger, pool: asyncpg.Pool, operation: str, before: Status, after: Status | None
) -> None:
    task_id, token = await task_in(ledger, pool, before)
    rows_before = await snapshot(pool)
    if after is REFUSED:
        with pytest.raises(Refused) as refused:
            await OPERATIONS[operation](ledger, task_id, token)
        assert str(before) in refused.value.render("en")
        assert await snapshot(pool) == rows_before
    else:
        await OPERATIONS[operation](ledger, task_id, token)
        assert (await ledger.toon(task_id)).status == after
        assert len((await snapshot(pool))[1]) == len(rows_before[1]) + 1


async def test_an_answer_reopens_a_waiting_task_and_clears_its_wait(ledger: Ledger, pool: asyncpg.Pool) -> None:
    task_id, _ = await task_in(ledger, pool, Status.WACHT_OP_MENS)
    await pool.execute("update agent_taken set niet_voor = now() + interval '1 day' where id = $1", task_id)
    await ledger.antwoord(task_id, "album Zomer", wie="jamal")
    task = await ledger.toon(task_id)
    assert (task.status, task.niet_voor) == (Status.WACHTEND, None)
    claim = await ledger.claim(["paco"])
    assert claim is not None
    assert claim.task.pogingen == 1  # asking used no attempt: the session after the answer is attempt 1 again


async def test_a_task_that_asked_on_its_last_attempt_runs_again_within_its_maximum(ledger: Ledger) -> None:
    """Asked on attempt 1 of 1, answered, claimed again: "poging 2 van 1", and failed after "2 van 1"
    (tester 21)."""
    task_id = await ledger.nieuw(NewTask("Kies een kleur", "jamal", max_pogingen=1))
    first = await ledger.claim(["paco"])
    assert first is not None
    await ledger.blokkeer(task_id, "rood of blauw?", token=first.token)
    assert (await ledger.toon(task_id)).pogingen == 0
    await ledger.antwoord(task_id, "blauw", wie="jamal")
    again = await ledger.claim(["paco"])
    assert again is not None
    assert (again.task.id, again.task.pogingen) == (task_id, 1)
    started = [row.tekst for row in await ledger.log_rows(task_id) if row.soort == Soort.GESTART]
    assert started[-1].startswith("poging 1 van 1 door paco@")
    given = await ledger.vrijgeven(task_id, again.token, "lukt niet")
    assert given.mislukt
    assert (await ledger.toon(task_id)).pogingen == 1


async def test_operations_on_a_missing_task_say_not_found(ledger: Ledger) -> None:
    with pytest.raises(NotFound):
        await ledger.antwoord("HV-20200101-001", "hallo")
    with pytest.raises(NotFound):
        await ledger.log("HV-20200101-001", Soort.STAP_KLAAR, "x", token=str(uuid.uuid4()))


async def test_a_malformed_id_is_invalid_input(ledger: Ledger) -> None:
    with pytest.raises(InvalidInput):
        await ledger.toon("HV-1")


async def test_the_briefing_state_counts_what_it_does_not_show(ledger: Ledger) -> None:
    task_id = await ledger.nieuw(NewTask("doe het", "jamal"))
    claim = await ledger.claim(["paco"])
    assert claim is not None
    for n in range(20):
        await ledger.log(task_id, Soort.STAP_KLAAR, f"stap {n}", token=claim.token)
    await ledger.log(task_id, Soort.FOUT, "oeps", token=claim.token)
    await ledger.blokkeer(task_id, "welke kleur?", token=claim.token)
    await ledger.antwoord(task_id, "blauw", wie="jamal")
    state = await ledger.briefing_state(task_id, 8)
    assert [r.tekst for r in state.recent][-3:] == ["oeps", "welke kleur?", "blauw"]
    assert len(state.recent) == 8
    # 25 rows: notitie, gestart, 20 steps, fout, vraag, antwoord; 8 shown (15 steps and the last 3 kinds).
    assert state.older.per_soort == {Soort.NOTITIE: 1, Soort.GESTART: 1, Soort.STAP_KLAAR: 15}
    assert state.answer is not None
    assert state.answer.tekst == "blauw"


async def test_a_released_task_waits_a_backoff_and_fails_when_its_attempts_are_used(ledger: Ledger) -> None:
    task_id = await ledger.nieuw(NewTask("Geef het terug", "jamal", toegewezen_aan="paco", max_pogingen=2))
    first = await ledger.claim(["paco"])
    assert first is not None
    await ledger.vrijgeven(task_id, first.token, "lukt nu niet", backoff_base=60, backoff_max=3600)
    waiting = await ledger.toon(task_id)
    assert waiting.status == Status.WACHTEND
    assert waiting.niet_voor is not None
    assert await ledger.claim(["paco"]) is None  # not at once: the same daemon would take it again and again
    await ledger.db.execute("update agent_taken set niet_voor = null where id = $1", task_id)
    second = await ledger.claim(["paco"])
    assert second is not None
    await ledger.vrijgeven(task_id, second.token, "weer niet")
    done = await ledger.toon(task_id)
    assert (done.status, done.pogingen) == (Status.MISLUKT, 2)


async def test_a_daemon_never_claims_a_task_it_still_runs(ledger: Ledger) -> None:
    task_id = await ledger.nieuw(NewTask("Nog bezig", "jamal", toegewezen_aan="paco"))
    assert await ledger.claim(["paco"], still_running=[task_id]) is None
    claimed = await ledger.claim(["paco"])
    assert claimed is not None
    assert claimed.task.id == task_id


async def test_an_empty_log_text_is_refused(ledger: Ledger) -> None:
    task_id = await ledger.nieuw(NewTask("Log iets", "jamal", toegewezen_aan="paco"))
    claimed = await ledger.claim(["paco"])
    assert claimed is not None
    with pytest.raises(InvalidInput):
        await ledger.log(task_id, Soort.STAP_KLAAR, "  ", token=claimed.token)


@pytest.mark.parametrize("text", ["\u200b\ufeff", " \t", "\u2800"])
async def test_a_klaar_text_that_shows_nothing_is_stored_empty(ledger: Ledger, pool: asyncpg.Pool, text: str) -> None:
    task_id = await ledger.nieuw(NewTask("Rond het af", "jamal", toegewezen_aan="paco"))
    claimed = await ledger.claim(["paco"])
    assert claimed is not None
    await ledger.klaar(task_id, "https://foto.example/zomer", text, token=claimed.token)
    assert await pool.fetchval("select tekst from agent_taak_log where soort = 'klaar'") == ""


@pytest.mark.parametrize(
    ("field", "option", "limit"),
    [
        ("titel", "--titel", 120),
        ("opdrachtgever", "--van", 64),
        ("klaar_wanneer", "--klaar-wanneer", 2000),
        ("volgende_stap", "--volgende-stap", 2000),
    ],
)
async def test_a_new_tasks_text_over_its_limit_is_refused_naming_the_option(
    ledger: Ledger, pool: asyncpg.Pool, field: str, option: str, limit: int
) -> None:
    with pytest.raises(InvalidInput) as refused:
        await ledger.nieuw(NewTask(**{"opdracht": "Doe het", "opdrachtgever": "jamal", field: "x" * (limit + 1)}))
    assert refused.value.render("nl") == f"{option} heeft {limit + 1} tekens; maximaal {limit}"
    assert await pool.fetchval("select count(*) from agent_taken") == 0
    assert await ledger.nieuw(NewTask(**{"opdracht": "Doe het", "opdrachtgever": "jamal", field: "x" * limit}))


async def test_a_next_step_over_its_limit_is_refused_and_changes_nothing(ledger: Ledger, pool: asyncpg.Pool) -> None:
    task_id = await ledger.nieuw(NewTask("Doe het", "jamal", volgende_stap="begin"))
    with pytest.raises(InvalidInput) as refused:
        await ledger.stap(task_id, "x" * 2001)
    assert refused.value.render("en") == "next step has 2001 characters; at most 2000 are allowed"
    assert await pool.fetchval("select volgende_stap from agent_taken where id = $1", task_id) == "begin"


async def test_the_context_is_limited_as_the_json_it_is_stored_as(ledger: Ledger, pool: asyncpg.Pool) -> None:
    with pytest.raises(InvalidInput) as refused:
        await ledger.nieuw(NewTask("Doe het", "jamal", context={"a": "x" * 1992}))  # {"a": "..."}: 2,001 characters
    assert refused.value.render("en") == "--context (JSON) has 2001 characters; at most 2000 are allowed"
    assert await pool.fetchval("select count(*) from agent_taken") == 0
    assert await ledger.nieuw(NewTask("Doe het", "jamal", context={"a": "x" * 1991}))


async def test_a_task_held_by_a_crashed_worker_fails_at_restart_when_its_attempts_are_used(ledger: Ledger) -> None:
    task_id = await ledger.nieuw(NewTask("Laat de worker crashen", "jamal", toegewezen_aan="paco", max_pogingen=1))
    claim = await ledger.claim(["paco"])
    assert claim is not None
    assert await ledger.eigen_claims_vrijgeven([(task_id, claim.token)], "herstart") == [task_id]
    assert (await ledger.toon(task_id)).status == Status.MISLUKT


async def test_a_restart_gives_back_only_the_claims_it_names_with_their_tokens(ledger: Ledger) -> None:
    """By holder alone, a daemon's role could give back a task another machine was running, and a third daemon
    claimed it while the first session still ran (tester of issue 38)."""
    ours = await ledger.nieuw(NewTask("Onze", "jamal", toegewezen_aan="paco"))
    theirs = await ledger.nieuw(NewTask("Hun", "jamal", toegewezen_aan="paco"))
    ours_claim, theirs_claim = await ledger.claim(["paco"]), await ledger.claim(["paco"])
    assert ours_claim is not None
    assert theirs_claim is not None
    named = [(ours, ours_claim.token), (theirs, "00000000-0000-0000-0000-000000000000")]
    assert await ledger.eigen_claims_vrijgeven(named, "herstart") == [ours]
    assert (await ledger.toon(theirs)).status == Status.BEZIG


async def test_compaction_rows_are_counted_in_the_briefing_never_shown_in_a_steps_place(ledger: Ledger) -> None:
    from worker.core.briefing import Variant, build_briefing
    from worker.db.briefing import briefing_source
    from worker.settings import Settings

    task_id = await ledger.nieuw(NewTask("Vertel het verhaal", "jamal", toegewezen_aan="paco"))
    claimed = await ledger.claim(["paco"])
    assert claimed is not None
    for n in range(1, 9):
        await ledger.log(task_id, Soort.STAP_KLAAR, f"stap {n}", token=claimed.token)
        if n in (3, 6, 8):
            await ledger.log(task_id, Soort.COMPACT, f"verslag {n}", token=claimed.token)
    settings = Settings(briefing_rows=8, language="nl")
    text = build_briefing(await briefing_source(ledger, task_id, settings), Variant.FULL)
    assert all(f"stap {n}" in text for n in range(1, 9))
    assert "verslag" not in text
    assert "3x compact" in text


async def lease_seconds_left(pool: asyncpg.Pool, task_id: str) -> float:
    left: float = await pool.fetchval(
        "select extract(epoch from lease_tot - now()) from agent_taken where id = $1", task_id
    )
    return left


async def test_a_log_row_extends_the_lease_only_when_less_than_half_is_left(ledger: Ledger, pool: asyncpg.Pool) -> None:
    task_id = await ledger.nieuw(NewTask("lang werk", "jamal"))
    claim = await ledger.claim(["paco"])
    assert claim is not None
    await pool.execute("update agent_taken set lease_tot = now() + interval '700 seconds' where id = $1", task_id)
    await ledger.log(task_id, Soort.STAP_KLAAR, "stap een", token=claim.token, bot="paco")
    assert 650 < await lease_seconds_left(pool, task_id) <= 700  # more than half of 1200 left: not touched
    await pool.execute("update agent_taken set lease_tot = now() + interval '500 seconds' where id = $1", task_id)
    await ledger.log(task_id, Soort.STAP_KLAAR, "stap twee", token=claim.token, bot="paco")
    assert await lease_seconds_left(pool, task_id) > 1150  # less than half left: a full lease again
    assert await kinds(ledger, task_id) == ["notitie", "gestart", "stap_klaar", "stap_klaar"]


async def test_a_log_row_holds_the_task_until_it_is_in(ledger: Ledger, pool: asyncpg.Pool) -> None:
    """The fence of a log row that does not extend the lease: a reaper (or the owner) that moves the task
    waits for the row, so a row is never written beside a task that someone else took meanwhile."""
    task_id = await ledger.nieuw(NewTask("omheind", "jamal"))
    claim = await ledger.claim(["paco"])
    assert claim is not None
    async with pool.acquire() as writer, pool.acquire() as other:
        transaction = writer.transaction()
        await transaction.start()
        await ledger_on(writer, lease_seconds=1200).log(task_id, Soort.NOTITIE, "bezig", token=claim.token, bot="paco")
        await other.execute("set lock_timeout = '300ms'")
        with pytest.raises(asyncpg.LockNotAvailableError):
            await other.execute(
                "update agent_taken set status = 'wachtend', lease_token = null, lease_tot = null where id = $1",
                task_id,
            )
        await transaction.commit()


async def test_starts_and_finishes_are_counted_without_a_counter_row(ledger: Ledger, pool: asyncpg.Pool) -> None:
    from worker.db.sqlfiles import queries

    task_id = await ledger.nieuw(NewTask("twee keer", "jamal"))
    first = await ledger.claim(["paco"])
    assert first is not None
    await ledger.vrijgeven_poging_terug(task_id, first.token, reden="herstart", sessie=None)
    second = await ledger.claim(["paco"])
    assert second is not None
    await ledger.log(task_id, Soort.STAP_KLAAR, "gedaan", token=second.token, bot="paco")
    await ledger.klaar(task_id, "/tmp/bewijs", "klaar", token=second.token)
    counted = {r["soort"]: r["aantal"] for r in await pool.fetch(queries()["telling"], task_id)}
    assert counted == {"notitie": 1, "gestart": 2, "vrijgegeven": 1, "stap_klaar": 1, "klaar": 1}
    stored = await pool.fetchval("select count(*) from agent_taak_telling where soort in ('gestart', 'klaar')")
    assert stored == 0
    first_row = await pool.fetchval("select min(ts) from agent_taak_log where taak_id = $1", task_id)
    assert {r["eerste"] for r in await pool.fetch(queries()["telling"], task_id)} == {first_row}


async def test_a_finished_task_enters_the_outbox_only_while_a_daemon_delivers(
    ledger: Ledger, pool: asyncpg.Pool
) -> None:
    from worker.db.sqlfiles import queries

    async def finish() -> int:
        task_id = await ledger.nieuw(NewTask("af", "jamal"))
        claim = await ledger.claim(["paco"])
        assert claim is not None
        await ledger.klaar(task_id, "/tmp/bewijs", "klaar", token=claim.token)
        found: int = await pool.fetchval("select count(*) from taak_meldingen where taak_id = $1", task_id)
        return found

    assert await finish() == 0  # no daemon delivers finished tasks: nothing piles up
    await pool.execute(queries()["bezorgers_zetten"], ["paco@veranda"], ["klaar"])
    assert await finish() == 1
    await pool.execute(queries()["bezorgers_zetten"], ["paco@veranda"], [])  # restarted without TAAK_ON_KLAAR_CMD
    assert await finish() == 0


async def test_the_daemons_claim_takes_only_for_bots_that_are_on_and_not_at_their_brake(
    ledger: Ledger, pool: asyncpg.Pool
) -> None:
    await pool.execute(
        "insert into agent_bots (bot, actief, max_sessies_per_dag) values ('paco', false, null), "
        "('coco', true, 1), ('kimi', true, null) on conflict (bot) do update set actief = excluded.actief, "
        "max_sessies_per_dag = excluded.max_sessies_per_dag"
    )
    for bot in ("paco", "coco", "coco", "kimi"):
        await ledger.nieuw(NewTask(f"voor {bot}", "jamal", toegewezen_aan=bot))
    taken = []
    while (claim := await ledger.claim(["paco", "coco", "kimi"], only_switched_on=True)) is not None:
        taken.append(claim.bot)
    assert sorted(taken) == ["coco", "kimi"]  # paco is off; coco stops at its brake of one session a day
    by_hand = await ledger.claim(["paco"])  # `taak claim` by hand does not ask the switch
    assert by_hand is not None
    assert by_hand.bot == "paco"
