"""`taak overzicht` and its views against a seeded history whose answers are known; `taak tail` live."""

from __future__ import annotations

import asyncio
import json
import queue
import select
import signal
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime

import asyncpg
import pytest

from tests.helpers import ledger_on, run_taak
from worker.core.model import Soort
from worker.db.ledger import NewTask


async def seed(pool: asyncpg.Pool) -> dict[str, str]:
    """paco: one done today in two sessions (one logged a step), one held, one waiting for the owner,
    one waiting; sjakie: one failed today; coco: a worker not seen for ten minutes."""
    ledger = ledger_on(pool, machine="mac")
    ids = {}
    ids["klaar"] = await ledger.nieuw(NewTask("af", "jamal", toegewezen_aan="paco"))
    first = await ledger.claim(["paco"], sessie="s1")
    assert first is not None
    await ledger.vrijgeven(ids["klaar"], first.token, "opnieuw", niet_voor=datetime.now(UTC))
    second = await ledger.claim(["paco"], sessie="s2")
    assert second is not None
    await ledger.log(ids["klaar"], Soort.STAP_KLAAR, "stap", token=second.token, sessie="s2")
    await ledger.log(ids["klaar"], Soort.NOTITIE, "resultaat", meta={"resultaat": True, "total_cost_usd": 0.25})
    await ledger.log(ids["klaar"], Soort.NOTITIE, "resultaat", meta={"resultaat": True, "total_cost_usd": 0.5})
    for trigger in ("auto", "auto", "manual"):  # three compactions of the finished task, by their reports
        meta = {"rapport": "/r.txt", "trigger": trigger}
        await ledger.log(ids["klaar"], Soort.COMPACT, "verslag", token=second.token, sessie="s2", meta=meta)
    summary = {"samenvatting": "/s"}  # the summary of one of those, in its session as the hooks write it
    await ledger.log(ids["klaar"], Soort.COMPACT, "samenvatting", token=second.token, sessie="s2", meta=summary)
    await ledger.klaar(ids["klaar"], "/tmp/bewijs", "af", token=second.token)
    ids["bezig"] = await ledger.nieuw(NewTask("bezig", "jamal", toegewezen_aan="paco"))
    await ledger.claim(["paco"], sessie="s3")
    ids["mens"] = await ledger.nieuw(NewTask("vraag", "jamal", toegewezen_aan="paco"))
    held = await ledger.claim(["paco"], sessie="s4")
    assert held is not None
    await ledger.blokkeer(ids["mens"], "welke kleur?", token=held.token)
    ids["wachtend"] = await ledger.nieuw(NewTask("later", "jamal", toegewezen_aan="paco"))
    ids["mislukt"] = await ledger.nieuw(NewTask("kapot", "jamal", toegewezen_aan="sjakie", max_pogingen=1))
    failed = await ledger.claim(["sjakie"], sessie="s5")
    assert failed is not None
    await ledger.poging_mislukt(
        ids["mislukt"],
        failed.token,
        reden="kapot",
        notitie=None,
        sessie="s5",
        meta={},
        backoff_base=0,
        backoff_max=0,
    )
    await pool.execute(
        "insert into agent_bots (bot, actief, machine, laatst_gezien) values "
        "('coco', true, 'veranda', now() - interval '10 minutes'), "
        "('paco', true, 'mac', now()) on conflict (bot) do update "
        "set actief = excluded.actief, machine = excluded.machine, laatst_gezien = excluded.laatst_gezien"
    )
    return ids


async def test_the_overview_gives_the_known_answers(cli_env: dict[str, str], pool: asyncpg.Pool) -> None:
    ids = await seed(pool)
    result = run_taak(cli_env, "overzicht", "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    bots = {b["bot"]: b for b in data["bots"]}
    paco, sjakie, coco = bots["paco"], bots["sjakie"], bots["coco"]
    assert (paco["bezig"], paco["wachtend"], paco["wacht_op_mens"], paco["klaar_vandaag"]) == (1, 1, 1, 1)
    assert 1150 < paco["kortste_lease_seconden"] <= 1200
    assert 0 <= paco["oudste_wacht_seconden"] < 60
    assert float(paco["sessies_per_klare_taak"]) == 2.0
    assert float(paco["aandeel_sessies_met_stap"]) == 0.25  # 1 of paco's 4 sessions logged a step
    # Amounts are JSON numbers, whatever precision their column has (they were text: "0.75" beside "0.7500").
    assert (paco["kosten_usd"], paco["kosten_per_taak_usd"]) == (0.75, 0.75)
    assert paco["sessies_per_klare_taak"] == 2.0
    assert (sjakie["mislukt_vandaag"], sjakie["klaar_vandaag"]) == (1, 0)
    assert (paco["compacties"], paco["compacties_auto"], float(paco["compacties_per_klare_taak"])) == (3, 2, 3.0)
    assert coco["worker_verouderd"] is True
    assert paco["worker_verouderd"] is False
    assert [h["id"] for h in data["bezig"]] == [ids["bezig"]]
    plain = run_taak(cli_env, "overzicht")
    assert "STALE" in plain.out  # an English run (the Dutch word is VEROUDERD)
    assert f"held: {ids['bezig']} paco" in plain.out  # cli_env speaks English
    # Today's counts beside every task's figures, said under the table (the board's picture read another figure)
    assert "(done and failed: today; sess/done to comp/done: every task so far)" in plain.out.splitlines()


async def test_the_table_says_a_share_as_a_percentage_and_no_empty_row_for_no_bot(
    cli_env: dict[str, str], pool: asyncpg.Pool
) -> None:
    """`met stap` read 0.25 (a fraction, in a column of counts), and a task for any bot that the owner cancelled
    before anyone ran it left a `-` row of zeros (tester 21)."""
    await seed(pool)
    unrun = run_taak(cli_env, "nieuw", "niemand").out.strip()
    assert run_taak(cli_env, "annuleer", unrun, "--reden", "toch niet").code == 0
    rows = {line.split()[0]: line.split() for line in run_taak(cli_env, "overzicht").out.splitlines() if line}
    assert "25%" in rows["paco"]
    assert "-" not in rows
    run_taak(cli_env, "nieuw", "voor wie het eerst kan")  # a task for any bot, waiting: news
    rows = {line.split()[0]: line.split() for line in run_taak(cli_env, "overzicht").out.splitlines() if line}
    assert rows["-"][2] == "1"  # the waiting column


async def test_compactions_are_counted_per_session_by_trigger(pool: asyncpg.Pool) -> None:
    ids = await seed(pool)
    row = await pool.fetchrow(
        "select compacties, automatisch, handmatig from taak_compacties where taak_id = $1 and sessie = 's2'",
        ids["klaar"],
    )
    assert tuple(row) == (3, 2, 1)


async def test_a_compaction_with_nothing_new_to_report_is_counted_once_everywhere(pool: asyncpg.Pool) -> None:
    """/compact twice in a row: the second finds nothing new to report and writes only its summary. The briefing
    said 3x compact where the overview said 2 (tester of issue 38)."""
    from worker.core.briefing import Variant, build_briefing
    from worker.db.briefing import briefing_source
    from worker.settings import Settings

    ledger = ledger_on(pool, machine="mac")
    await pool.execute("insert into agent_bots (bot, actief) values ('coco', true) on conflict (bot) do nothing")
    task_id = await ledger.nieuw(NewTask("twee keer samengevat", "jamal", toegewezen_aan="coco"))
    held = await ledger.claim(["coco"], sessie="s")
    assert held is not None
    for meta in ({"rapport": "/r", "trigger": "manual"}, {"samenvatting": "/a", "trigger": "manual"},
                 {"samenvatting": "/b", "trigger": "manual"}):  # fmt: skip
        await ledger.log(task_id, Soort.COMPACT, "compact", token=held.token, sessie="s", meta=meta)
    counted = await pool.fetchval("select sum(compacties) from taak_compacties where taak_id = $1", task_id)
    per_bot = await pool.fetchval("select compacties from taak_overzicht where bot = 'coco'")
    source = await briefing_source(ledger, task_id, Settings(database_url=None, briefing_rows=5))
    assert (counted, per_bot) == (2, 2)
    said = build_briefing(source, Variant.FULL)
    assert "2x compact" in said, said


async def test_the_views_answer_the_owners_own_sql(conn: asyncpg.Connection, pool: asyncpg.Pool) -> None:
    await seed(pool)
    row = await conn.fetchrow("select bezig, wachtend from taak_overzicht where bot = 'paco'")
    assert tuple(row) == (1, 1)
    assert await conn.fetchval("select count(*) from taak_sessies where logde_stap") == 1


async def test_tail_shows_a_new_row_as_it_is_written(cli_env: dict[str, str], pool: asyncpg.Pool) -> None:
    ledger = ledger_on(pool)
    task_id = await ledger.nieuw(NewTask("volg mij", "jamal"))
    tail = subprocess.Popen(
        [sys.executable, "-m", "worker.cli.taak", "tail", task_id],
        env=cli_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = _line(tail, 15)
        assert "created by jamal" in first  # the run's language (cli_env: English), the row's own words Dutch
        written = time.monotonic()
        await ledger.log(task_id, Soort.NOTITIE, "nieuwe regel", bot="jamal")
        line = _line(tail, 15)
        print(f"taak tail showed the new row after {time.monotonic() - written:.3f} s")  # a figure, not a check
        assert "nieuwe regel" in line
    finally:
        tail.send_signal(signal.SIGINT)
        tail.wait(timeout=10)
    assert tail.returncode == 0


@pytest.mark.slow
@pytest.mark.parametrize("first", [0, 2])
async def test_tail_shows_only_the_rows_asked_for_first_and_then_only_new_ones(
    cli_env: dict[str, str], pool: asyncpg.Pool, first: int
) -> None:
    ledger = ledger_on(pool)
    task_id = await ledger.nieuw(NewTask("volg mij", "jamal"))
    for n in range(30):
        await ledger.log(task_id, Soort.NOTITIE, f"oude regel {n}", bot="jamal")
    tail = subprocess.Popen(
        [sys.executable, "-m", "worker.cli.taak", "tail", "-n", str(first)],
        env=cli_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in tail.stdout or ()], daemon=True).start()
    try:
        shown = [lines.get(timeout=15) for _ in range(first)]
        await asyncio.sleep(2.5)  # two looks of tail's poll: an old row would have been shown by now
        await ledger.log(task_id, Soort.NOTITIE, "nieuwe regel", bot="jamal")
        shown.append(lines.get(timeout=15))
    finally:
        tail.send_signal(signal.SIGINT)
        tail.wait(timeout=10)
    assert [line.split("jamal", 1)[1].strip() for line in shown] == [
        *(f"oude regel {n}" for n in range(30 - first, 30)),
        "nieuwe regel",
    ]


def _line(process: subprocess.Popen[str], timeout: float) -> str:
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], timeout)
    assert ready, "no line in time"
    return process.stdout.readline()


@pytest.mark.parametrize(("verb", "said"), [(["bot", "lijst"], "(no bots)"), (["overzicht"], "(no bots)")])
async def test_a_fleet_without_bots_says_so_instead_of_a_bare_header(
    cli_env: dict[str, str], conn: asyncpg.Connection, verb: list[str], said: str
) -> None:
    """`lijst` said `(no tasks)`, `machine lijst` `(no machines)`; these two printed a header row and nothing."""
    await conn.execute("delete from agent_bots")
    shown = run_taak(cli_env, *verb)
    assert (shown.code, shown.out) == (0, f"{said}\n")
