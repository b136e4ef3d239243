"""Routing by what a bot is for, end to end (issue 41): the owner says with `taak` what paco and sjakie are for, one
queue-worker serves both bots with the stand-in agent, and each task runs as the bot that has the skill it needs; a
need no switched-on bot has leaves its task waiting, and the owner is told of it once. Bad input changes nothing."""

from __future__ import annotations

from pathlib import Path

import asyncpg
import pytest

from tests.helpers import run_taak, snapshot
from tests.system.harness import InProcess, records, status_of, switch_on, wait_for, worker_env
from tests.system.test_outbox import lines, receiver


@pytest.mark.slow
async def test_one_daemon_for_paco_and_sjakie_runs_each_task_as_the_bot_that_has_its_skill(
    db_url: str, conn: asyncpg.Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    folder = tmp_path
    await switch_on(conn, "paco", "sjakie")
    for command in (
        ["bot", "kan", "paco", "audio"],
        ["bot", "kan", "sjakie", "beeld"],
        ["vaardigheid", "beeld", "--woorden", "foto,video,scherm"],
        ["vaardigheid", "tekst"],
    ):
        done = run_taak(cli_env, *command)
        assert done.code == 0, done.err

    def nieuw(*words: str) -> str:
        made = run_taak(cli_env, "nieuw", *words, "--van", "jamal")
        assert made.code == 0, made.err
        return made.out.strip()

    foto = nieuw("Bewerk de foto")
    song = nieuw("Mix het liedje", "--nodig", "audio")
    poem = nieuw("Schrijf een gedicht", "--nodig", "tekst")
    listed = run_taak(cli_env, "lijst", "--nodig", "beeld").out
    assert foto in listed
    assert song not in listed

    env = worker_env(
        db_url, folder, TAAK_BOTS="paco,sjakie", TAAK_NOTIFY_CMD=receiver(folder), TAAK_OUTBOX_SECONDS="0.2"
    )
    daemon = InProcess(env, folder / "worker.log")
    try:
        for task_id in (foto, song):
            await wait_for(lambda task_id=task_id: _is(conn, task_id, "klaar"), timeout=30, what=f"{task_id} klaar")
        await wait_for(lambda: _told(folder, 1), what="the owner told of the poem")
        later = nieuw("Schrijf een liedtekst", "--nodig", "tekst")
        await wait_for(lambda: _told(folder, 2), what="the owner told of the second poem")
    finally:
        await daemon.stop()
    ran_as = {r["env"]["TAAK_ID"]: r["env"]["TAAK_BOT"] for r in records(folder)}
    assert ran_as == {foto: "sjakie", song: "paco"}
    assert await status_of(conn, poem) == "wachtend"
    told = lines(folder, "vaardigheid")
    # Each once, in the order made, though the daemon looked again on every turn of its outbox.
    assert [line.split("|")[0] for line in told] == [poem, later]
    assert told[0].startswith(f"{poem}|{poem}: wacht op een bot die tekst kan")
    shown = run_taak(cli_env, "toon", foto).out
    assert "needs" in shown
    assert "beeld" in shown


async def _is(conn: asyncpg.Connection, task_id: str, status: str) -> bool:
    return await status_of(conn, task_id) == status


async def _told(folder: Path, n: int) -> bool:
    return len(lines(folder, "vaardigheid")) >= n


async def test_an_unknown_skill_in_nodig_is_refused_with_the_known_ones_and_nothing_changes(
    conn: asyncpg.Connection, cli_env: dict[str, str]
) -> None:
    assert run_taak(cli_env, "bot", "kan", "sjakie", "beeld").code == 0
    before = await snapshot(conn)
    refused = run_taak(cli_env, "nieuw", "Bewerk de foto", "--nodig", "vidoe")
    assert refused.code == 1
    assert refused.err == (
        "taak: skill vidoe is unknown (known: beeld); a skill is known once a bot has it (taak bot kan) or "
        "taak vaardigheid named it\n"
    )
    assert await snapshot(conn) == before


async def test_a_filter_that_matches_nothing_says_so(conn: asyncpg.Connection, cli_env: dict[str, str]) -> None:
    assert run_taak(cli_env, "vaardigheid").out == "(no skills)\n"
    assert run_taak(cli_env, "bot", "kan", "paco", "audio").code == 0
    assert run_taak(cli_env, "nieuw", "Ruim op", "--van", "jamal").code == 0
    empty = run_taak(cli_env, "lijst", "--nodig", "audio")
    assert (empty.code, empty.out) == (0, "(no tasks)\n")
    unknown = run_taak(cli_env, "lijst", "--nodig", "beeld")
    assert (unknown.code, unknown.err) == (
        1,
        "taak: skill beeld is unknown (known: audio); a skill is known once a bot has it (taak bot kan) or "
        "taak vaardigheid named it\n",
    )


async def test_bot_kan_replaces_the_list_and_geen_clears_it(conn: asyncpg.Connection, cli_env: dict[str, str]) -> None:
    assert run_taak(cli_env, "bot", "kan", "paco", "Audio", "beeld").out == "paco: audio, beeld\n"
    assert run_taak(cli_env, "bot", "kan", "paco", "beeld").out == "paco: beeld\n"
    listed = run_taak(cli_env, "bot", "lijst").out.splitlines()
    assert listed[0].split()[:3] == ["bot", "on", "skills"]
    assert next(line for line in listed if line.startswith("paco")).split()[2] == "beeld"
    cleared = run_taak(cli_env, "bot", "kan", "paco", "--geen")
    assert cleared.out == "paco: no skills (of the tasks for anyone it takes only those that need none)\n"
    # beeld stays known: a task may still need it.
    assert run_taak(cli_env, "vaardigheid").out.splitlines()[1].split() == ["audio", "-", "-", "-"]


@pytest.mark.slow
async def test_bad_input_to_bot_kan_and_vaardigheid_changes_nothing(
    conn: asyncpg.Connection, cli_env: dict[str, str]
) -> None:
    before = await snapshot(conn)
    for command, code in (
        (["bot", "kan", "paco"], 2),  # neither skills nor --geen
        (["bot", "kan", "paco", "audio", "--geen"], 2),
        (["bot", "kan", "pacoo", "audio"], 1),  # an unknown bot
        (["bot", "kan", "paco", "au dio"], 2),
        (["vaardigheid", "beeld", "--woorden", "foto bewerken"], 2),
        (["vaardigheid", "--woorden", "foto"], 2),
        (["bot", "kan", "paco", "geen"], 2),  # the keyword, not a skill
        (["bot", "kan", "paco", "audio", "Geen"], 2),
        (["vaardigheid", "geen"], 2),
        (["vaardigheid", "beeld", "--woorden", "geen,foto"], 2),  # geen alone clears; among words it is no word
        (["vaardigheid", "beeld", "--woorden", "a,b,foto"], 2),  # b began "Bewerk"
        (["nieuw", "Bewerk de foto", "--nodig", "geen"], 2),
    ):
        result = run_taak(cli_env, *command)
        assert result.code == code, (command, result.err)
        assert len(result.err.strip().splitlines()) == 1, result.err
    assert await snapshot(conn) == before
    assert await conn.fetchval("select count(*) from taak_vaardigheden") == 0
    assert await conn.fetchval("select count(*) from taak_bot_vaardigheden") == 0


async def test_a_word_of_another_skill_is_refused_naming_it_and_nothing_changes(
    conn: asyncpg.Connection, cli_env: dict[str, str]
) -> None:
    assert run_taak(cli_env, "vaardigheid", "beeld", "--woorden", "foto,video").code == 0
    before = await conn.fetch("select * from taak_vaardigheid_woorden order by woord")
    refused = run_taak(cli_env, "vaardigheid", "aaa2", "--woorden", "foto")
    assert (refused.code, refused.err) == (
        1,
        "taak: a word implies one skill, and this is another's already: foto (beeld); take it away there first "
        "(taak vaardigheid beeld --woorden ...)\n",
    )
    assert await conn.fetch("select * from taak_vaardigheid_woorden order by woord") == before
    assert await conn.fetchval("select count(*) from taak_vaardigheden where vaardigheid = 'aaa2'") == 0
    assert run_taak(cli_env, "nieuw", "Plaats foto 3", "--van", "jamal").code == 0
    assert run_taak(cli_env, "lijst", "--nodig", "beeld").out.count("Plaats foto 3") == 1
