"""A brake message goes out only while its bot is braked: lifted before a daemon sent it, it was sent all the
same, telling the owner to raise a brake he had raised (tester 21)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import asyncpg

from worker.daemon.channel import OwnerChannel, channels_of
from worker.db.bots import set_brake, tell_braked
from worker.db.store import Store
from worker.settings import Settings


def settings_for(db_url: str, tmp_path: Path) -> Settings:
    copy = f"{shlex.quote(sys.executable)} -c 'import sys; open(sys.argv[1], \"a\").write(sys.stdin.read())'"
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        database_url=db_url,
        data_dir=tmp_path / "data",
        timezone="UTC",
        notify_cmd=f"{copy} {shlex.quote(str(tmp_path / 'sent.txt'))}",
        quiet_hours="",
    )


async def test_a_brake_message_goes_out_only_while_the_bot_is_braked(
    db_url: str, pool: asyncpg.Pool, tmp_path: Path, known_bots: None
) -> None:
    await set_brake(pool, "paco", sessions=0)  # braked at once: no session today may start
    await tell_braked(pool, "paco", "paco staat op de rem")
    await set_brake(pool, "coco", sessions=0)
    await tell_braked(pool, "coco", "coco staat op de rem")
    await set_brake(pool, "coco", sessions=None)  # the owner lifts coco's before any daemon sent it
    settings = settings_for(db_url, tmp_path)
    owner = OwnerChannel(Store(pool, settings), lambda _, op: op(), channels_of(settings), "testbox:1")
    (command,) = owner.channels
    await pool.execute("insert into taak_kanalen (kanaal, sinds) values ($1, now() - interval '1 hour')", command.key)
    await owner.route_due()
    while await owner.deliver_one(command):
        pass
    assert (tmp_path / "sent.txt").read_text() == "paco staat op de rem\n"
    coco = await pool.fetchrow("select verstuurd, laatste_fout from taak_meldingen where sleutel like 'rem:coco:%'")
    assert coco["verstuurd"] is not None
    assert coco["laatste_fout"] == "vervallen: de rem is eraf"
