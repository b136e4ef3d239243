"""Routing by what a bot is for (issue 41): a task for a named bot goes to that bot; one for anyone with a need only
to a bot that has the skill; one with no need to any bot; a need no bot has leaves the task waiting. The words of a
skill imply the need of a task that names neither its bot nor its need."""

from __future__ import annotations

from pathlib import Path

import asyncpg
import pytest

from tests.helpers import ledger_on
from worker.core.errors import ExitCode, InvalidInput, Refused
from worker.core.intake import Rules
from worker.core.model import Status
from worker.db import bots, intake
from worker.db.failures import failure_line
from worker.db.ledger import Ledger, NewTask
from worker.db.store import Store
from worker.settings import Settings


@pytest.fixture
async def ledger(pool: asyncpg.Pool, known_bots: None) -> Ledger:
    """paco is for audio, sjakie for beeld, coco for nothing in particular; beeld is implied by foto and video."""
    await pool.execute("update agent_bots set actief = true")
    await bots.set_skills(pool, "paco", ["audio"])
    await bots.set_skills(pool, "sjakie", ["Beeld "])
    await bots.set_words(pool, "beeld", ["foto", "video"])
    return ledger_on(pool, lease_seconds=1200, machine="vm")


async def claimed_for(ledger: Ledger, claimers: list[str]) -> tuple[str, str] | None:
    claim = await ledger.claim(claimers, only_switched_on=True)
    return None if claim is None else (claim.task.id, claim.bot)


async def test_a_need_goes_only_to_a_bot_that_has_the_skill(ledger: Ledger) -> None:
    beeld = await ledger.nieuw(NewTask("Bewerk het plaatje", "jamal", nodig="beeld"))
    assert await claimed_for(ledger, ["paco"]) is None
    assert await claimed_for(ledger, ["coco"]) is None
    assert await claimed_for(ledger, ["sjakie"]) == (beeld, "sjakie")


async def test_a_task_with_no_need_goes_to_any_bot(ledger: Ledger) -> None:
    anything = await ledger.nieuw(NewTask("Ruim de downloads op", "jamal"))
    assert (await ledger.toon(anything)).nodig is None
    assert await claimed_for(ledger, ["coco"]) == (anything, "coco")


async def test_a_task_for_a_named_bot_goes_to_that_bot_whatever_it_needs(ledger: Ledger) -> None:
    task_id = await ledger.nieuw(NewTask("Mix het liedje", "jamal", toegewezen_aan="coco", nodig="audio"))
    assert await claimed_for(ledger, ["paco"]) is None
    assert await claimed_for(ledger, ["coco"]) == (task_id, "coco")


async def test_one_daemon_for_several_bots_claims_each_task_for_the_bot_that_has_its_skill(ledger: Ledger) -> None:
    # paco first in the daemon's list, as with paco and sjakie on: the photo is sjakie's, the song paco's.
    foto = await ledger.nieuw(NewTask("Bewerk de foto", "jamal"))
    song = await ledger.nieuw(NewTask("Mix het liedje", "jamal", nodig="audio"))
    loose = await ledger.nieuw(NewTask("Ruim op", "jamal"))
    claims = [await claimed_for(ledger, ["paco", "sjakie", "coco"]) for _ in range(4)]
    assert claims == [(foto, "sjakie"), (song, "paco"), (loose, "paco"), None]
    task = await ledger.toon(foto)
    assert task.geclaimd_door == "sjakie@vm"


async def test_a_need_no_switched_on_bot_has_leaves_the_task_waiting(ledger: Ledger, pool: asyncpg.Pool) -> None:
    await bots.set_words(pool, "tekst", [])
    waits = await ledger.nieuw(NewTask("Schrijf een gedicht", "jamal", nodig="tekst"))
    switched_off = await ledger.nieuw(NewTask("Mix het liedje", "jamal", nodig="audio"))
    await pool.execute("update agent_bots set actief = false where bot = 'paco'")
    assert await claimed_for(ledger, ["paco", "sjakie", "coco", "kimi"]) is None
    statuses = {(await ledger.toon(t)).status for t in (waits, switched_off)}
    assert statuses == {Status.WACHTEND}


async def test_a_bot_whose_skills_are_taken_away_takes_no_task_that_needs_one(
    ledger: Ledger, pool: asyncpg.Pool
) -> None:
    await ledger.nieuw(NewTask("Bewerk de video", "jamal"))
    assert await bots.set_skills(pool, "sjakie", []) == []
    assert await claimed_for(ledger, ["sjakie"]) is None
    assert [b.vaardigheden for b in await bots.all_bots(pool) if b.bot in ("paco", "sjakie")] == [["audio"], []]


async def test_a_claim_by_id_keeps_to_the_skills(ledger: Ledger) -> None:
    foto = await ledger.nieuw(NewTask("Bewerk de foto", "jamal"))
    assert await ledger.claim_id(foto, "paco") is None
    claim = await ledger.claim_id(foto, "sjakie")
    assert claim is not None
    assert claim.task.geclaimd_door == "sjakie@vm"


@pytest.mark.parametrize(
    ("opdracht", "titel", "nodig"),
    [
        ("Bewerk de foto", None, "beeld"),
        ("Zet de foto's online", None, "beeld"),
        ("Maak een FOTOBOEK van de zomer", None, "beeld"),  # a word that begins with foto
        ("Print de vakantiefoto", None, None),  # foto inside a word implies nothing
        ("Ruim de downloads op", "de video van gisteren", "beeld"),  # the title counts too
        ("Ruim de downloads op", None, None),
    ],
)
async def test_the_words_of_a_skill_imply_the_need(
    ledger: Ledger, opdracht: str, titel: str | None, nodig: str | None
) -> None:
    task_id = await ledger.nieuw(NewTask(opdracht, "jamal", titel=titel))
    assert (await ledger.toon(task_id)).nodig == nodig


async def test_the_first_word_that_implies_a_skill_decides(ledger: Ledger, pool: asyncpg.Pool) -> None:
    await bots.set_words(pool, "audio", ["geluid", "liedje"])
    task_id = await ledger.nieuw(NewTask("Zet het liedje onder de video", "jamal"))
    assert (await ledger.toon(task_id)).nodig == "audio"


async def test_the_words_do_not_apply_to_a_task_for_a_named_bot_or_with_its_own_need(ledger: Ledger) -> None:
    named = await ledger.nieuw(NewTask("Bewerk de foto", "jamal", toegewezen_aan="paco"))
    own = await ledger.nieuw(NewTask("Bewerk de foto", "jamal", nodig="audio"))
    assert [(await ledger.toon(t)).nodig for t in (named, own)] == [None, "audio"]


async def test_a_skill_is_known_once_a_bot_has_it_or_it_was_named(ledger: Ledger, pool: asyncpg.Pool) -> None:
    assert await bots.known_skill(pool, " AUDIO") == "audio"
    await bots.set_words(pool, "tekst", None)
    assert await bots.known_skill(pool, "tekst") == "tekst"
    with pytest.raises(Refused) as refused:
        await bots.known_skill(pool, "vidoe")
    assert refused.value.render("en") == (
        "skill vidoe is unknown (known: audio, beeld, tekst); a skill is known once a bot has it (taak bot kan) or "
        "taak vaardigheid named it"
    )


@pytest.mark.parametrize(
    ("nodig", "said"),
    [
        ("vidoe", "skill vidoe is unknown (known: audio, beeld)"),
        ("", "nodig is blank: a task that needs no skill gives null"),
        ("  ", "nodig is blank: a task that needs no skill gives null"),
    ],
)
async def test_the_sql_way_in_refuses_a_need_nobody_named_or_a_blank_one_in_one_line(
    ledger: Ledger, pool: asyncpg.Pool, tmp_path: Path, nodig: str, said: str
) -> None:
    # As the command refuses it, and said as a rule the command says (not agent_taken_nodig_fkey).
    with pytest.raises(asyncpg.CheckViolationError) as refused:
        await pool.fetchval("select taak_nieuw(opdracht => 'Iets', opdrachtgever => 'cron', nodig => $1)", nodig)
    assert str(refused.value).splitlines()[0] == said
    settings = Settings(_env_file=None, database_url="postgresql://unused", data_dir=tmp_path, language="en")  # type: ignore[call-arg]
    line = failure_line(refused.value, settings)
    assert line is not None
    assert line[1] == ExitCode.REFUSED
    assert said in line[0]
    assert "\n" not in line[0]
    assert await pool.fetchval("select count(*) from agent_taken") == 0


@pytest.mark.parametrize(
    "words", ["foto bewerken", "e-mail", "foto,,video", "a,b,foto", "ab", "geen,foto", "foto,GEEN", "e\u0301"]
)
def test_a_word_of_other_characters_than_letters_and_digits_a_short_one_or_geen_among_words_is_refused(
    words: str,
) -> None:
    with pytest.raises(InvalidInput):
        bots.check_skill_words(words)


def test_words_are_spelled_once_in_nfkc_and_lower_case_and_geen_alone_is_none() -> None:
    assert bots.check_skill_words(" Foto, video,FOTO,\uff26\uff4f\uff54\uff4f") == ["foto", "video"]
    assert bots.check_skill_words("E\u0301cran") == ["\u00e9cran"]
    assert bots.check_skill_words("geen") == []
    assert bots.check_skill_words(" GEEN ") == []


@pytest.mark.parametrize("name", ["geen", " Geen"])
def test_geen_is_no_skill_name(name: str) -> None:
    with pytest.raises(InvalidInput):
        bots.check_skill_name(name)


async def test_a_word_belongs_to_one_skill(ledger: Ledger, pool: asyncpg.Pool) -> None:
    # The outside try: aaa2 given beeld's foto decided "Plaats foto 3" by the skills' names, for a skill no bot has.
    with pytest.raises(Refused) as refused:
        await bots.set_words(pool, "aaa2", ["tekening", "foto"])
    assert refused.value.render("en") == (
        "a word implies one skill, and this is another's already: foto (beeld); take it away there first "
        "(taak vaardigheid beeld --woorden ...)"
    )
    assert [s.vaardigheid for s in await bots.all_skills(pool)] == ["audio", "beeld"]  # nothing changed
    task_id = await ledger.nieuw(NewTask("Plaats foto 3", "jamal"))
    assert (await ledger.toon(task_id)).nodig == "beeld"
    # Not by any way in: the word is the table's key.
    with pytest.raises(asyncpg.UniqueViolationError):
        await pool.execute("insert into taak_vaardigheid_woorden values ('foto', 'audio')")
    # Given back by beeld, it is aaa2's to take.
    await bots.set_words(pool, "beeld", ["video"])
    assert (await bots.set_words(pool, "aaa2", ["foto"])).woorden == ["foto"]


async def test_where_two_skills_words_begin_a_word_of_the_task_the_longer_decides(
    ledger: Ledger, pool: asyncpg.Pool
) -> None:
    await bots.set_words(pool, "plakboek", ["fotoboek"])  # after beeld by name
    boek = await ledger.nieuw(NewTask("Maak het fotoboek", "jamal"))
    foto = await ledger.nieuw(NewTask("Maak de foto's", "jamal"))
    assert [(await ledger.toon(t)).nodig for t in (boek, foto)] == ["plakboek", "beeld"]


@pytest.mark.parametrize(
    "opdracht",
    ["Zet de \uff46\uff4f\uff54\uff4f online", "Het E\u0301CRAN is kapot", "Het \u00e9cran is kapot"],
)
async def test_words_and_the_task_are_matched_in_nfkc_and_lower_case(
    ledger: Ledger, pool: asyncpg.Pool, opdracht: str
) -> None:
    await bots.set_words(pool, "beeld", bots.check_skill_words("foto, e\u0301cran"))
    task_id = await ledger.nieuw(NewTask(opdracht, "jamal"))
    assert (await ledger.toon(task_id)).nodig == "beeld"


@pytest.mark.parametrize("word", ["e\u0301cran", "FOTOBOEK", "ab", "geen", "foto boek"])
async def test_the_table_keeps_a_word_only_in_its_form(ledger: Ledger, pool: asyncpg.Pool, word: str) -> None:
    with pytest.raises(asyncpg.CheckViolationError):
        await pool.execute("insert into taak_vaardigheid_woorden values ($1, 'audio')", word)


async def test_a_message_of_the_old_queue_goes_to_its_recipient_whatever_its_words_imply(
    ledger: Ledger, pool: asyncpg.Pool, tmp_path: Path
) -> None:
    # The intake makes its tasks through taak_nieuw, as every producer; each is addressed to its message's recipient
    # (its --aan), so the words decide nothing for it and that bot takes it, as before.
    await pool.execute(
        "create table agent_messages (id serial primary key, sender text, recipient text, content text, "
        "created_at timestamptz default now())"
    )
    await pool.execute(
        "insert into agent_messages (sender, recipient, content) values ('kimi', 'paco', 'Bewerk de foto')"
    )
    settings = Settings(_env_file=None, database_url="postgresql://unused", data_dir=tmp_path, intake_status_column="")  # type: ignore[call-arg]
    columns = intake.columns_from(settings)
    found = await intake.prepare_table(pool, columns, "en")
    assert not isinstance(found, str), found
    rules = await intake.rules_from(pool, settings, found)
    rules = Rules(cutoff=rules.cutoff.replace(year=2000), open_statuses=None)
    assert await intake.take(Store(pool, settings), ["paco"], columns, found, rules) == 1
    (task,) = await ledger.lijst()
    assert (task.toegewezen_aan, task.nodig) == ("paco", None)
    assert await claimed_for(ledger, ["paco"]) == (task.id, "paco")


async def test_the_database_makes_no_skill_called_geen(ledger: Ledger, pool: asyncpg.Pool) -> None:
    with pytest.raises(asyncpg.CheckViolationError):
        await pool.execute("insert into taak_vaardigheden (vaardigheid) values ('geen')")
