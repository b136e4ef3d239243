"""The owner's name is one per fleet (issue 41): `taak eigenaar zet NAME` stores it in the database, and the rows the
owner writes say that name on every machine, whatever TAAK_OWNER or the OS user is there."""

from __future__ import annotations

import asyncpg
import pytest
from starlette.testclient import TestClient

from tests.helpers import run_taak
from worker.cockpit.app import create_app, csrf_value, ensure_token
from worker.settings import Settings


@pytest.mark.slow
async def test_the_fleets_name_is_on_every_row_the_owner_writes_on_every_machine(
    cli_env: dict[str, str], db_url: str, tmp_path: object
) -> None:
    laptop = {**cli_env, "TAAK_MACHINE": "laptop", "TAAK_OWNER": "jamal-laptop"}
    mini = {**cli_env, "TAAK_MACHINE": "mini", "TAAK_OWNER": ""}  # here the OS user, before the fleet's name
    before = run_taak(laptop, "eigenaar")
    assert before.out == (
        "jamal-laptop (TAAK_OWNER on this machine; taak eigenaar zet NAME sets one name for the whole fleet)\n"
    )
    saved = run_taak(mini, "eigenaar", "zet", "  Jamal  ")
    assert saved.code == 0, saved.err
    assert saved.out == "owner of the fleet: Jamal (on every machine, on every row the owner writes)\n"
    shown = run_taak(laptop, "eigenaar")
    assert shown.out.splitlines() == [
        "Jamal (for the whole fleet, in the database)",
        "TAAK_OWNER=jamal-laptop on this machine is not used: the fleet's name comes first",
    ]
    first = run_taak(laptop, "nieuw", "Zet de foto's online").out.strip()
    second = run_taak(mini, "nieuw", "Maak een back-up").out.strip()
    assert run_taak(laptop, "log", first, "notitie", "album Zomer").code == 0
    assert run_taak(mini, "annuleer", second, "--reden", "toch niet").code == 0
    conn = await asyncpg.connect(db_url)
    try:
        givers = await conn.fetch("select opdrachtgever from agent_taken order by id")
        writers = await conn.fetch("select distinct bot from agent_taak_log where soort in ('notitie', 'geannuleerd')")
    finally:
        await conn.close()
    assert [r["opdrachtgever"] for r in givers] == ["Jamal", "Jamal"]
    assert {r["bot"] for r in writers} == {"Jamal"}


@pytest.mark.parametrize("name", ["", "   ", "jam\nal", "jam\tal", "x" * 65])
def test_a_name_that_cannot_be_the_owners_is_refused_in_one_line_and_nothing_changes(
    cli_env: dict[str, str], name: str
) -> None:
    assert run_taak(cli_env, "eigenaar", "zet", "Jamal").code == 0
    refused = run_taak(cli_env, "eigenaar", "zet", name)
    assert refused.code == 2
    assert len(refused.err.strip().splitlines()) == 1, refused.err
    assert refused.out == ""
    assert run_taak(cli_env, "eigenaar").out.startswith("Jamal (for the whole fleet")


async def test_the_cockpit_writes_the_fleets_name_whatever_this_machines_setting(
    db_url: str, tmp_path: object, known_bots: None
) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    conn = await asyncpg.connect(db_url)
    try:
        await conn.execute("insert into taak_vloot_eigenaar (naam) values ('Jamal')")
        task_id = await conn.fetchval("select taak_nieuw('Zet de foto''s online', 'Jamal', 'paco')")
        settings = Settings(database_url=db_url, data_dir=tmp_path / "data", owner="iemand-anders", timezone="UTC")
        token = ensure_token(settings)
        with TestClient(create_app(settings, token)) as client:
            client.get(f"/?token={token}")
            done = client.post(f"/taak/{task_id}/notitie", data={"tekst": "van de bank", "csrf": csrf_value(token)})
            assert done.status_code == 200
        writer = await conn.fetchval("select bot from agent_taak_log where tekst = 'van de bank'")
    finally:
        await conn.close()
    assert writer == "Jamal"
