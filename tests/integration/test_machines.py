"""The machine registry: one machine, all its names, and the seed's fixed fact in the briefing."""

from __future__ import annotations

import json
from pathlib import Path

import asyncpg
import pytest

from tests.helpers import run_taak
from worker.core.machines import Machine, expand_facts

VERANDA = Machine("keukenhof-veranda", "192.168.1.2", ("coco-veranda", "McMini Veranda", "veranda"))


@pytest.mark.parametrize(
    ("named", "expected"),
    [
        ("McMini Veranda", "McMini Veranda = keukenhof-veranda = coco-veranda = veranda = 192.168.1.2"),
        ("mcmini veranda", "mcmini veranda = keukenhof-veranda = coco-veranda = veranda = 192.168.1.2"),
        ("keukenhof-veranda", "keukenhof-veranda = coco-veranda = McMini Veranda = veranda = 192.168.1.2"),
        ("/srv/foto", "/srv/foto"),
    ],
)
def test_a_fact_that_names_a_machine_gets_all_its_names(named: str, expected: str) -> None:
    registry = {name.lower(): VERANDA for name in VERANDA.names()}
    assert expand_facts({"machine": named}, registry) == {"machine": expected}


def test_zet_wie_and_lijst_through_the_command(cli_env: dict[str, str]) -> None:
    made = run_taak(
        cli_env,
        "machine",
        "zet",
        "keukenhof-veranda",
        "--alias",
        "McMini Veranda",
        "--alias",
        "veranda",
        "--ip",
        "192.168.1.2",
        "--bot",
        "coco",
    )
    assert made.code == 0, made.err
    who = json.loads(run_taak(cli_env, "machine", "wie", "MCMINI VERANDA", "--json").out)
    assert who == {
        "naam": "keukenhof-veranda",
        "ip": "192.168.1.2",
        "aliassen": ["McMini Veranda", "veranda"],
        "bots": ["coco"],
        "versies": [],  # no daemon on it has said its version yet
        "nieuwste_versie": None,
    }
    again = run_taak(cli_env, "machine", "zet", "keukenhof-veranda", "--alias", "veranda")
    assert again.code == 0
    # A success line as every changing verb says one (it printed the registry's table: tester L)
    assert again.out == "keukenhof-veranda: saved (also McMini Veranda, veranda; ip 192.168.1.2; bots coco)\n"
    header, row = run_taak(cli_env, "machine", "lijst").out.splitlines()
    assert header.split() == ["names", "ip", "bots", "version"]  # cli_env speaks English
    assert row.split("  ")[:3] == ["keukenhof-veranda = McMini Veranda = veranda", "192.168.1.2", "coco"]


async def test_each_machine_shows_its_daemons_version_and_one_behind_the_newest_is_flagged(
    cli_env: dict[str, str], db_url: str
) -> None:
    """Issue 41: which machine still runs an old daemon was asked of each machine in turn. A daemon's heartbeat
    says its machine and version (agent_bots); a machine is found by any of its names, in any case."""
    run_taak(cli_env, "machine", "zet", "keukenhof-veranda", "--alias", "McMini Veranda")
    run_taak(cli_env, "machine", "zet", "macbook")
    conn = await asyncpg.connect(db_url)
    try:
        await conn.execute("update agent_bots set machine = 'mcmini veranda', versie = '0.9.2' where bot = 'coco'")
        await conn.execute("update agent_bots set machine = 'macbook', versie = '0.10.0' where bot = 'paco'")
    finally:
        await conn.close()
    listed = run_taak(cli_env, "machine", "lijst").out
    (veranda,) = [line for line in listed.splitlines() if line.startswith("keukenhof-veranda")]
    (macbook,) = [line for line in listed.splitlines() if line.startswith("macbook")]
    assert veranda.endswith("0.9.2 (not the newest: 0.10.0)")  # 0.10 is newer than 0.9, not older
    assert macbook.endswith("0.10.0")
    bots = run_taak(cli_env, "bot", "lijst").out
    (coco,) = [line for line in bots.splitlines() if line.startswith("coco")]
    assert "0.9.2 (not the newest: 0.10.0)" in coco
    shown = {m["naam"]: m for m in json.loads(run_taak(cli_env, "machine", "lijst", "--json").out)}
    assert shown["keukenhof-veranda"]["versies"] == ["0.9.2"]
    assert shown["macbook"]["nieuwste_versie"] == "0.10.0"


@pytest.mark.parametrize("alias", ["veranda", "VERANDA", "keukenhof-veranda"])
def test_an_alias_belongs_to_exactly_one_machine(cli_env: dict[str, str], alias: str) -> None:
    run_taak(cli_env, "machine", "zet", "keukenhof-veranda", "--alias", "veranda")
    taken = run_taak(cli_env, "machine", "zet", "macbook", "--alias", alias)
    assert taken.code == 2
    assert len(taken.err.strip().splitlines()) == 1
    assert json.loads(run_taak(cli_env, "machine", "wie", "veranda", "--json").out)["naam"] == "keukenhof-veranda"
    assert run_taak(cli_env, "machine", "wie", "macbook").code == 3  # the refused command changed nothing


def test_a_bad_ip_or_an_unknown_name_is_refused(cli_env: dict[str, str]) -> None:
    assert run_taak(cli_env, "machine", "zet", "mac", "--ip", "192.168.1.300").code == 2
    assert run_taak(cli_env, "machine", "wie", "nergens").code == 3


@pytest.mark.parametrize("name", ["m\nx", "m\ty", "m\r"])
def test_a_machine_name_or_alias_with_a_line_break_or_tab_is_refused(cli_env: dict[str, str], name: str) -> None:
    assert run_taak(cli_env, "machine", "zet", name).code == 2
    assert run_taak(cli_env, "machine", "zet", "veranda", "--alias", name).code == 2
    assert run_taak(cli_env, "machine", "lijst", "--json").out.count("veranda") == 0


def test_an_overlong_machine_name_is_refused_and_shown_cut(cli_env: dict[str, str]) -> None:
    done = run_taak(cli_env, "machine", "zet", "m" * 300)
    assert done.code == 2
    assert "m" * 64 + "…" in done.err
    assert "m" * 65 not in done.err
    assert len(done.err.strip().splitlines()) == 1


async def test_the_briefing_expands_the_machine_named_in_the_context(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    run_taak(cli_env, "machine", "zet", "keukenhof-veranda", "--alias", "McMini Veranda", "--ip", "192.168.1.2")
    task_id = run_taak(
        cli_env,
        "nieuw",
        "Maak een foto",
        "--van",
        "jamal",
        "--context",
        "machine=McMini Veranda",
        "--context",
        "pad=/srv/foto",
    ).out.strip()
    brief = run_taak({**cli_env, "TAAK_LANGUAGE": "nl"}, "brief", task_id).out
    (facts,) = [line for line in brief.splitlines() if line.startswith("Vaste feiten: ")]
    assert sorted(facts.removeprefix("Vaste feiten: ").split("; ")) == [
        "machine = McMini Veranda = keukenhof-veranda = 192.168.1.2",
        "pad = /srv/foto",
    ]


async def test_the_sql_function_is_the_same_way_in_as_taak_nieuw(conn: asyncpg.Connection) -> None:
    task_id = await conn.fetchval("select taak_nieuw('Zet de blog online', 'telegram', 'paco')")
    row = await conn.fetchrow(
        "select opdracht, opdrachtgever, toegewezen_aan, status from agent_taken where id = $1", task_id
    )
    assert tuple(row) == ("Zet de blog online", "telegram", "paco", "wachtend")
    log = await conn.fetch("select soort, tekst from agent_taak_log where taak_id = $1", task_id)
    assert [tuple(r) for r in log] == [("notitie", "aangemaakt door telegram")]
    with pytest.raises(asyncpg.CheckViolationError):
        await conn.fetchval("select taak_nieuw('   ', 'telegram')")


async def test_the_daemon_writes_the_registry_file(cli_env: dict[str, str], tmp_path: Path) -> None:
    from tests.system.harness import InProcess, wait_for, worker_env

    run_taak(cli_env, "machine", "zet", "keukenhof-veranda", "--alias", "McMini Veranda", "--ip", "192.168.1.2")
    registry = tmp_path / "registry.json"
    env = worker_env(cli_env["TAAK_DATABASE_URL"], tmp_path, TAAK_REGISTRY_FILE=str(registry))
    daemon = InProcess(env, tmp_path / "worker.log")

    async def written() -> bool:
        return registry.exists()

    try:
        await wait_for(written, what="the registry file")
    finally:
        await daemon.stop()
    assert json.loads(registry.read_text()) == {
        "machines": [{"naam": "keukenhof-veranda", "aliassen": ["McMini Veranda"], "ip": "192.168.1.2", "bots": []}]
    }
