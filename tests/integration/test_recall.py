"""The lossless archive, its index, and recall, on the real transcript fixtures."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import asyncpg
import pytest

from tests.fixtures import FIXTURES
from tests.helpers import ledger_on, run_taak
from worker.core.model import Soort
from worker.db.ledger import NewTask
from worker.memory.archive import Archive
from worker.memory.index import Index, terms
from worker.memory.layout import Layout
from worker.memory.recall import recall, render

ZONE = ZoneInfo("Europe/Amsterdam")
NOW = datetime(2026, 11, 29, 21, 0, tzinfo=UTC)


def archive_of(tmp_path: Path) -> tuple[Archive, Index]:
    archive = Archive(tmp_path / "archief", ZONE)
    for path in sorted(FIXTURES.glob("*.jsonl")):
        archive.import_transcript(path)
    index = Index(tmp_path / "index.sqlite")
    index.update(archive.day_files())
    return archive, index


def env_for(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_")}
    env.update(
        TAAK_DATA_DIR=str(tmp_path / "data"),
        TAAK_LANGUAGE="nl",
        TAAK_DATABASE_URL="postgresql://x@127.0.0.1:1/x",
        HOME=str(tmp_path / "home"),  # `taak archief bijwerken` reads ~/.claude/projects: this test's own
    )
    return env


def test_import_then_recall_a_known_line_verbatim_with_its_time(tmp_path: Path) -> None:
    env = env_for(tmp_path)
    imported = run_taak(env, "archief", "import", *map(str, sorted(FIXTURES.glob("*.jsonl"))))
    assert imported.code == 0, imported.err
    found = run_taak(env, "recall", "2025-10-10 how are you doing")
    assert found.code == 0, found.err
    assert "[2025-10-10 23:56] user: how are you doing" in found.out.splitlines()
    data = json.loads(run_taak(env, "recall", "2025-10-10 how are you doing", "--json").out)
    assert data["van"].startswith("2025-10-10T00:00:00+02:00")
    (line,) = [r for r in data["regels"] if r["text"] == "how are you doing"]
    assert (line["role"], line["type"], line["ts"][:16]) == ("user", "text", "2025-10-10T21:56")
    # The sentences for a reader in the run's language, as the header says them; keys and domain values stay
    # (an English run read "te weinig treffers: betekenis in alle tijd": testers L and M).
    plain = run_taak({**env, "TAAK_LANGUAGE": "en"}, "recall", "2025-10-10 a word said on no day")
    english = json.loads(
        run_taak({**env, "TAAK_LANGUAGE": "en"}, "recall", "2025-10-10 a word said on no day", "--json").out
    )
    assert english["fallback"] in plain.out
    assert (
        english["fallback"]
        != json.loads(run_taak(env, "recall", "2025-10-10 a word said on no day", "--json").out)["fallback"]
    )


def test_a_second_import_archives_nothing_twice(tmp_path: Path) -> None:
    archive, _ = archive_of(tmp_path)
    before = {p: p.read_text() for p in archive.day_files()}
    assert sum(archive.import_transcript(p) for p in FIXTURES.glob("*.jsonl")) == 0
    assert {p: p.read_text() for p in archive.day_files()} == before
    copy = tmp_path / "copy.jsonl"
    shutil.copy(FIXTURES / "agentlogs__crud.jsonl", copy)
    assert archive.import_transcript(copy) == 0  # the same lines under another name: keyed by uuid


def test_tool_results_are_records_of_their_own_type_beside_the_tool_calls(tmp_path: Path) -> None:
    archive, index = archive_of(tmp_path)
    records = [json.loads(line) for p in archive.day_files() for line in p.read_text().splitlines()]
    assert any(r["type"] == "action" and r["text"].startswith("Write: /Users/philipp/dev") for r in records)
    results = [r for r in records if r["type"] == "tool_result"]
    assert results  # Claude Code deletes its transcripts after a month: the archive keeps the outputs too
    spoken = index.db.execute("select count(*) from zoek").fetchone()[0]
    said = sum(1 for r in records if r["type"] not in ("meta", "tool_result"))
    assert spoken == said  # tool results are not in the word index of what was said


def test_rebuilding_the_index_gives_the_same_answers(tmp_path: Path) -> None:
    archive, index = archive_of(tmp_path)
    queries = ["joke file", "2025-10-10 how are you", "vorige week budget", "delete"]
    before = [render(recall(index, q, NOW, ZONE), ZONE) for q in queries]
    index.close()
    (tmp_path / "index.sqlite").unlink()
    rebuilt = Index(tmp_path / "index.sqlite")
    rebuilt.update(archive.day_files())
    assert [render(recall(rebuilt, q, NOW, ZONE), ZONE) for q in queries] == before


def test_an_appended_day_is_indexed_from_where_it_stopped_and_a_rewritten_one_alone(tmp_path: Path) -> None:
    archive, index = archive_of(tmp_path)
    first, *others = archive.day_files()
    total = index.db.execute("select count(*) from regels").fetchone()[0]
    record = {
        "ts": "2025-06-14T10:00:00.000Z",
        "actor": "jamal",
        "role": "user",
        "type": "text",
        "text": "nieuw budgetplan",
        "model": None,
        "session": "s",
    }
    with first.open("a") as handle:
        handle.write(json.dumps(record) + "\n")
    assert index.update(archive.day_files()) == 1
    lines = others[0].read_text().splitlines()
    others[0].write_text("\n".join([*lines[:-1], lines[-1].replace('"text": "', '"text": "herschreven ')]) + "\n")
    reindexed = index.update(archive.day_files())
    assert reindexed == len(lines)
    assert index.db.execute("select count(*) from regels").fetchone()[0] == total + 1


def test_the_header_says_which_fallback_was_used(tmp_path: Path) -> None:
    _, index = archive_of(tmp_path)
    few = recall(index, "2025-10-12 zebra", NOW, ZONE)
    assert str(few.fallback) == "te weinig treffers: het hele bereik op tijd"
    assert few.hits
    empty = recall(index, "2020-01-01 joke", NOW, ZONE)
    assert str(empty.fallback) == "niets in het bereik: woorden in alle tijd"
    assert any("JOKE" in h.text for h in empty.hits)
    exact = recall(index, "joke", NOW, ZONE)
    assert str(exact.fallback) == "geen"
    assert "uitwijk: geen" in render(exact, ZONE).splitlines()[0]
    # Without vectors, the header says so where meaning would have been the next step, and only there.
    assert "semantisch" not in render(empty, ZONE).splitlines()[0]
    assert "semantisch" not in render(exact, ZONE).splitlines()[0]
    unknown = recall(index, "zebra", NOW, ZONE)
    header = render(unknown, ZONE).splitlines()[0]
    assert "uitwijk: te weinig treffers; semantisch zoeken: niet geïnstalleerd" in header
    assert header.endswith("woorden: zebra 0 (nergens gevonden)")  # said plainly


def test_output_is_capped_and_says_what_it_cut(tmp_path: Path) -> None:
    _, index = archive_of(tmp_path)
    text = render(recall(index, "2025-10-12", NOW, ZONE, limit=3), ZONE)
    lines = text.splitlines()
    assert lines[-1].startswith("# afgekapt:")
    assert sum(1 for line in lines if line.startswith("[")) == 3
    assert len(render(recall(index, "joke", NOW, ZONE), ZONE, max_chars=300)) <= 400


def test_a_line_too_long_for_the_output_is_shown_shortened_and_every_count_says_what_was_printed(
    tmp_path: Path,
) -> None:
    env = env_for(tmp_path)
    lines = [("11:00", "boiler kort een"), ("11:02", "boiler lang " + "x" * 9000), ("11:04", "boiler kort twee")]
    source = tmp_path / "simpel.jsonl"
    source.write_text(
        "".join(json.dumps({"ts": f"2026-11-20T{t}:00+01:00", "role": "user", "text": x}) + "\n" for t, x in lines)
    )
    assert run_taak(env, "archief", "import", "--simple", str(source)).code == 0
    found = run_taak(env, "recall", "boiler")
    assert found.code == 0, found.err
    header, *entries = found.out.splitlines()
    printed = [line for line in entries if line.startswith("[")]
    assert "3 regels getoond van 3" in header
    assert len(printed) == 3
    long_one = printed[1]
    assert long_one.startswith("[2026-11-20 11:02] user: boiler lang xxx")
    assert long_one.endswith("tekens; --json geeft de hele regel)")
    assert len(found.out) <= 8000 + 1
    whole = json.loads(run_taak(env, "recall", "boiler", "--json").out)
    assert [len(r["text"]) for r in whole["regels"]] == [len(x) for _, x in lines]


def test_a_folder_given_to_import_is_said_to_be_a_folder(tmp_path: Path) -> None:
    refused = run_taak(env_for(tmp_path), "archief", "import", str(tmp_path))
    assert (refused.code, refused.err) == (2, f"taak: bestand {tmp_path}: is een map\n")
    empty = run_taak(env_for(tmp_path), "archief", "import", "")  # it said `bestand .: is een map` (tester 63)
    assert (empty.code, empty.err.split(" (gebruik")[0]) == (2, "taak: argument PAD: PAD is leeg")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="a FIFO is POSIX")
def test_a_fifo_given_to_import_is_said_to_be_no_regular_file_not_a_missing_one(tmp_path: Path) -> None:
    """It said `bestand ... bestaat niet`, exit 3, of a FIFO and of /dev/null, which exist (tester 62)."""
    fifo = tmp_path / "pijp"
    os.mkfifo(fifo)
    refused = run_taak(env_for(tmp_path), "archief", "import", str(fifo))
    assert (refused.code, refused.err) == (
        2,
        f"taak: bestand {fifo}: is geen gewoon bestand (een apparaat, een pipe of een socket): niet gelezen\n",
    )


def test_a_path_with_a_tab_or_a_line_break_is_quoted_on_one_line(tmp_path: Path) -> None:
    """A path was said raw: its tab stretched the line, its line break split it in two (tester 63)."""
    for odd, shown in (("no\tpe", "no\\tpe"), ("no\npe", "no ⏎ pe")):
        refused = run_taak(env_for(tmp_path), "archief", "import", str(tmp_path / odd))
        assert (refused.code, refused.err) == (3, f"taak: bestand {tmp_path}/{shown} bestaat niet\n")


def test_one_line_left_out_is_said_in_the_singular(tmp_path: Path) -> None:
    env = env_for(tmp_path)
    source = tmp_path / "simpel.jsonl"
    source.write_text(
        "".join(
            json.dumps({"ts": f"2026-11-20T11:0{n}:00+01:00", "role": "user", "text": "lamp"}) + "\n" for n in (1, 2)
        )
    )
    assert run_taak(env, "archief", "import", "--simple", str(source)).code == 0
    found = run_taak(env, "recall", "lamp", "--limiet", "1")
    assert found.code == 0, found.err
    assert found.out.splitlines()[-1] == "# afgekapt: 1 regel niet getoond (--limiet, of meer dan 8000 tekens)"


def test_a_time_range_walks_the_time_index(tmp_path: Path) -> None:
    _, index = archive_of(tmp_path)
    from worker.memory.recall import _filters

    filters, values = _filters((0, 1), None)
    plan = index.db.execute(f"explain query plan select * from regels r where {filters}", values).fetchall()
    assert "INTEGER PRIMARY KEY (rowid>? AND rowid<?)" in " ".join(str(row) for row in plan)


def test_cjk_runs_become_bigrams_and_latin_words_stay_words() -> None:
    assert terms("昨日の予算 budget") == ["昨日", "日の", "の予", "予算", "budget"]
    assert terms("Budget Veranda") == ["budget", "veranda"]


@pytest.mark.slow
def test_a_simple_jsonl_file_imports_and_the_index_rebuilds_from_the_files(tmp_path: Path) -> None:
    env = env_for(tmp_path)
    simple = tmp_path / "telegram.jsonl"
    simple.write_text(
        json.dumps({"ts": "2026-11-28T19:30:00Z", "role": "user", "text": "het budget voor de veranda is 4000"})
        + "\n"
        + json.dumps({"ts": "2026-11-28T19:31:00Z", "role": "assistant", "text": "genoteerd"})
        + "\n"
    )
    assert run_taak(env, "archief", "import", "--simple", str(simple)).out.startswith("2 nieuwe regels")
    assert run_taak(env, "archief", "import", "--simple", str(simple)).out.startswith("0 nieuwe regels")
    found = run_taak(env, "recall", "2026-11-28 budget")
    assert "[2026-11-28 20:30] » user: het budget voor de veranda is 4000" in found.out  # the hit, marked
    assert run_taak(env, "archief", "herbouw").code == 0
    # The same lines after the rebuild (the header's first words state the current time, which moves on).
    assert run_taak(env, "recall", "2026-11-28 budget").out.splitlines()[1:] == found.out.splitlines()[1:]
    assert run_taak(env, "archief", "import", str(tmp_path / "weg.jsonl")).code == 3


async def test_recall_over_the_task_log_is_time_first_too(cli_env: dict[str, str], pool: asyncpg.Pool) -> None:
    ledger = ledger_on(pool)
    task_id = await ledger.nieuw(NewTask("Plan de veranda", "jamal", toegewezen_aan="paco"))
    claim = await ledger.claim(["paco"])
    assert claim is not None
    await ledger.log(task_id, Soort.STAP_KLAAR, "budget voor de veranda berekend: 4000", token=claim.token, bot="paco")
    await ledger.log(task_id, Soort.NOTITIE, "iets over de tuin", bot="jamal")
    found = json.loads(run_taak(cli_env, "recall", "vandaag budget", "--taken", "--json").out)
    assert [r["text"] for r in found["regels"]] == ["budget voor de veranda berekend: 4000"]
    assert found["regels"][0]["taak"] == task_id
    by_bot = json.loads(run_taak(cli_env, "recall", "vandaag", "--taken", "--bot", "jamal", "--json").out)
    assert {r["actor"] for r in by_bot["regels"]} == {"jamal"}
    assert json.loads(run_taak(cli_env, "recall", "2020-01-01 budget", "--taken", "--json").out)["regels"] == []


def test_inside_the_range_the_best_matching_lines_win_and_are_shown_in_time_order(tmp_path: Path) -> None:
    archive = Archive(tmp_path / "archief", ZONE)
    said = [f"regel {n}: het budget van de week" for n in range(60)]
    said[45] = "het budget voor de veranda is 4000"
    said[12] = "veranda: budget opnieuw bekeken, veranda wordt groter"
    simple = tmp_path / "said.jsonl"
    simple.write_text(
        "".join(
            json.dumps({"ts": f"2026-11-20T{8 + n // 60:02d}:{n % 60:02d}:00Z", "role": "user", "text": text}) + "\n"
            for n, text in enumerate(said)
        )
    )
    archive.import_simple(simple)
    index = Index(tmp_path / "index.sqlite")
    index.update(archive.day_files())
    result = recall(index, "2026-11-20 budget veranda", NOW, ZONE, limit=2)
    assert [h.text for h in result.hits] == [said[12], said[45]]  # both words beat one; then time order
    assert str(result.fallback) == "geen"
    assert result.cut == 58


def test_two_imports_at_the_same_time_archive_and_index_each_line_once(tmp_path: Path) -> None:
    env = env_for(tmp_path)
    sources = [str(p) for p in sorted(FIXTURES.glob("*.jsonl"))]
    both = [
        subprocess.Popen(
            [sys.executable, "-m", "worker.cli.taak", "archief", "import", *sources],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outputs = [process.communicate(timeout=120) for process in both]
    assert [process.returncode for process in both] == [0, 0], outputs
    archived = [int(out.split()[0]) for out, _ in outputs]
    lines = [line for day in (tmp_path / "data" / "archief").glob("*/*.jsonl") for line in day.open()]
    assert sorted(archived)[0] == 0  # the second one found everything already archived
    assert sum(archived) == len(lines) == len(set(lines))
    index = Index(tmp_path / "data" / "archief-index.sqlite")
    assert index.db.execute("select count(*) from regels").fetchone()[0] == len(lines)  # indexed once too
    index.close()


def test_a_write_cut_short_is_undone_and_the_retry_archives_each_line_once(tmp_path: Path) -> None:
    source = FIXTURES / "agentlogs__crud.jsonl"
    whole = Archive(tmp_path / "heel", ZONE)
    whole.import_transcript(source)
    expected = {p.name: p.read_text() for p in whole.day_files()}
    whole.close()
    # What a kill in the middle of a batch leaves: the undo record committed, half a line appended.
    archive = Archive(tmp_path / "archief", ZONE)
    (name,) = expected
    day = tmp_path / "archief" / name[:4] / name
    day.parent.mkdir(parents=True)
    day.write_text('{"ts": "2025-10-12T21:35:53.831Z", "actor": "user", "ro')
    archive._state.execute("insert into bezig values (?, 0)", (str(day),))
    archive._state.commit()
    archive.close()
    again = Archive(tmp_path / "archief", ZONE)
    assert day.read_text() == ""  # cut back to its size before the batch
    again.import_transcript(source)
    assert {p.name: p.read_text() for p in again.day_files()} == expected
    again.close()


def test_the_line_that_matched_comes_first_and_the_header_counts_each_word(tmp_path: Path) -> None:
    """Issue 15: a range shown whole because the words matched too few lines put the one match last of 40."""
    archive = Archive(tmp_path / "archief", ZONE)
    lines = [
        {"ts": f"2026-11-28T{18 + n // 60:02d}:{n % 60:02d}:00Z", "role": "user", "text": f"regel {n} over de tuin"}
        for n in range(39)
    ] + [{"ts": "2026-11-28T19:59:00Z", "role": "user", "text": "het budget is 4000"}]
    simple = tmp_path / "avond.jsonl"
    simple.write_text("".join(json.dumps(line) + "\n" for line in lines))
    archive.import_simple(simple)
    index = Index(tmp_path / "index.sqlite")
    index.update(archive.day_files())
    try:
        found = recall(index, "gisteravond budget olifant", datetime(2026, 11, 29, 10, 0, tzinfo=ZONE), ZONE)
    finally:
        index.close()
    assert found.hits[0].text == "het budget is 4000"
    assert found.hits[0].matched
    assert not any(h.matched for h in found.hits[1:])
    assert [h.ts for h in found.hits[1:]] == sorted(h.ts for h in found.hits[1:])
    header, first, *_ = render(found, ZONE).splitlines()
    assert header.endswith("woorden: budget 1, olifant 0 (niet in het bereik)")
    assert first == "[2026-11-28 20:59] » user: het budget is 4000"


def test_recall_between_two_clock_times_shows_the_lines_from_one_to_the_other(tmp_path: Path) -> None:
    """`tussen 18:00 en 20:00` searched the hour around 18:00, and `en 20:00` as words: the line of 19:30 was not
    found, the one of 17:30 was (outside tester 62)."""
    env = env_for(tmp_path)
    archive = Archive(Layout(tmp_path / "data").archive, ZONE)
    times = ["16:30", "17:30", "18:30", "19:30", "20:30"]  # Amsterdam, an hour ahead of UTC in November
    lines = [
        {"ts": f"2026-11-28T{int(t[:2]) - 1:02d}:{t[3:]}:00Z", "role": "user", "text": f"offerte om {t}"} for t in times
    ]
    simple = tmp_path / "avond.jsonl"
    simple.write_text("".join(json.dumps(line) + "\n" for line in lines))
    archive.import_simple(simple)
    Index(Layout(tmp_path / "data").index).update(archive.day_files())
    found = run_taak(env, "recall", "offerte op 28 november 2026 tussen 18:00 en 20:00")
    assert found.code == 0, found.err
    shown = [line for line in found.out.splitlines() if "offerte om" in line]
    assert [line.rsplit(" ", 1)[1] for line in shown] == ["18:30", "19:30"]
    assert "bereik: 2026-11-28 18:00 tot 2026-11-28 20:00" in found.out.splitlines()[0]


def _user_line(uuid: str, ts: object, text: str) -> str:
    return json.dumps(
        {
            "type": "user",
            "uuid": uuid,
            "sessionId": "s-kapot",
            "timestamp": ts,
            "message": {"role": "user", "content": text},
        }
    )


def test_importing_named_files_reports_their_unreadable_lines_not_every_earlier_files(tmp_path: Path) -> None:
    """`taak archief import B` listed A's broken lines from an earlier import as if B had them."""
    env = env_for(tmp_path)
    broken, good = tmp_path / "kapot.jsonl", tmp_path / "goed.jsonl"
    broken.write_text(_user_line("u1", "2026-02-30T10:00:00Z", "een datum die niet bestaat") + "\n")
    good.write_text(_user_line("u2", "2026-11-28T10:05:00Z", "de lamp is vervangen") + "\n")
    assert json.loads(run_taak(env, "archief", "import", str(broken), "--json").out)["unreadable"] == [f"{broken}:1"]
    second = run_taak(env, "archief", "import", str(good))
    assert second.code == 0, second.err
    assert "onleesbare" not in second.out
    assert "kapot.jsonl" not in second.out
    everything = json.loads(run_taak(env, "archief", "bijwerken", "--json").out)
    assert everything["unreadable"] == [f"{broken}:1"]  # a run over all files still reminds of every one


@pytest.mark.slow
def test_a_line_with_an_unreadable_time_is_skipped_counted_and_reported_never_fatal(tmp_path: Path) -> None:
    env = env_for(tmp_path)
    transcript = tmp_path / "kapot.jsonl"
    transcript.write_text(
        "\n".join(
            [
                _user_line("u1", "2026-02-30T10:00:00Z", "een datum die niet bestaat"),  # sorts first, stops nothing
                _user_line("u2", "2026-11-28T10:00:00+99:00", "een onmogelijke tijdzone"),
                _user_line("u3", "2026-11-28T10:05:00Z", "het budget is rond"),
            ]
        )
        + "\n"
    )
    done = run_taak(env, "archief", "import", str(transcript))
    assert done.code == 0, done.err
    assert done.out.startswith("1 nieuwe regel gearchiveerd, 1 regel geïndexeerd")
    assert f"2 onleesbare regels overgeslagen (2 nu): {transcript}:1, {transcript}:2" in done.out
    again = run_taak(env, "archief", "import", str(transcript), "--json")
    assert json.loads(again.out)["unreadable"] == [f"{transcript}:1", f"{transcript}:2"]
    assert "het budget is rond" in run_taak(env, "recall", "2026-11-28 budget").out
    doctor = run_taak(env, "doctor").out
    assert "2 onleesbare transcriptregels overgeslagen" in doctor  # a Dutch run


def test_an_edit_inside_a_day_file_that_keeps_the_line_count_is_indexed_again(tmp_path: Path) -> None:
    env = env_for(tmp_path)
    transcript = tmp_path / "dag.jsonl"
    transcript.write_text(
        "\n".join(_user_line(f"u{n}", f"2026-11-28T10:0{n}:00Z", f"regel {n} over de schuur") for n in range(3)) + "\n"
    )
    assert run_taak(env, "archief", "import", str(transcript)).code == 0
    day_file = next((tmp_path / "data" / "archief").glob("*/2026-11-28.jsonl"))
    lines = day_file.read_text().splitlines()
    edited = json.loads(lines[0])
    edited["text"] = "regel 0 over de kas"
    lines[0] = json.dumps(edited, ensure_ascii=False)
    day_file.write_text("\n".join(lines) + "\n")
    assert run_taak(env, "archief", "bijwerken").code == 0
    assert "regel 0 over de kas" in run_taak(env, "recall", "2026-11-28 kas").out
    assert "regel 0 over de schuur" not in run_taak(env, "recall", "2026-11-28 schuur").out


def test_tool_results_are_archived_verbatim_and_searched_only_when_asked(tmp_path: Path) -> None:
    env = env_for(tmp_path)
    output = "total 8\n-rw-r--r-- 1 jamal staff 42 Nov 28 10:00 offerte-dakgoot.pdf\n"
    lines = [
        _user_line("u1", "2026-11-28T10:00:00Z", "welke bestanden staan er?"),
        json.dumps(
            {
                "type": "assistant",
                "uuid": "a1",
                "sessionId": "s-kapot",
                "timestamp": "2026-11-28T10:00:05Z",
                "message": {
                    "id": "m1",
                    "role": "assistant",
                    "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls -l"}}],
                },
            }
        ),
        json.dumps(
            {
                "type": "user",
                "uuid": "u2",
                "sessionId": "s-kapot",
                "timestamp": "2026-11-28T10:00:06Z",
                "message": {
                    "role": "user",
                    "content": [{"type": "tool_result", "tool_use_id": "t1", "content": output}],
                },
            }
        ),
    ]
    transcript = tmp_path / "uitvoer.jsonl"
    transcript.write_text("\n".join(lines) + "\n")
    assert run_taak(env, "archief", "import", str(transcript)).out.startswith("3 nieuwe regels gearchiveerd")
    day_file = next((tmp_path / "data" / "archief").glob("*/2026-11-28.jsonl"))
    kept = [json.loads(line) for line in day_file.read_text().splitlines()]
    assert {"type": "tool_result", "text": output} in [{"type": r["type"], "text": r["text"]} for r in kept]
    plain = run_taak(env, "recall", "2026-11-28 dakgoot").out
    assert "offerte-dakgoot.pdf" not in plain  # kept out of the word index of what was said
    asked = run_taak(env, "recall", "2026-11-28 dakgoot", "--uitvoer").out
    assert "(uitvoer): total 8" in asked
    assert "offerte-dakgoot.pdf" in asked


def test_a_time_that_is_no_text_is_skipped_and_reported_in_both_formats(tmp_path: Path) -> None:
    env = env_for(tmp_path)
    simple = tmp_path / "getallen.jsonl"
    simple.write_text(
        "\n".join(
            [
                json.dumps({"ts": 12345, "role": "user", "text": "een getal als tijd"}),
                json.dumps({"ts": None, "role": "user", "text": "geen tijd"}),
                json.dumps({"ts": "2026-11-28T10:00:00Z", "role": "user", "text": "de schuur is geverfd"}),
            ]
        )
        + "\n"
    )
    done = run_taak(env, "archief", "import", "--simple", str(simple))
    assert done.code == 0, done.err
    assert done.out.startswith("1 nieuwe regel gearchiveerd, 1 regel geïndexeerd")
    assert f"2 onleesbare regels overgeslagen (2 nu): {simple}:1, {simple}:2" in done.out
    transcript = tmp_path / "claude.jsonl"
    transcript.write_text(_user_line("u9", ["2026-11-28"], "een lijst als tijd") + "\n")
    claude = run_taak(env, "archief", "import", str(transcript))
    assert claude.code == 0, claude.err
    assert f"{transcript}:1" in claude.out


def test_a_word_of_one_cjk_character_is_found_inside_a_longer_run(tmp_path: Path) -> None:
    archive = Archive(tmp_path / "archief", ZONE)
    said = tmp_path / "said.jsonl"
    said.write_text(
        "\n".join(
            json.dumps({"ts": f"2026-11-28T10:0{n}:00Z", "role": "user", "text": text})
            for n, text in enumerate(["家の鍵をなくした", "犬の散歩に行った", "天気がいい"])
        )
        + "\n"
    )
    archive.import_simple(said)
    index = Index(tmp_path / "index.sqlite")
    index.update(archive.day_files())
    try:
        found = recall(index, "鍵", NOW, ZONE)
        assert [h.text for h in found.hits] == ["家の鍵をなくした"]
        assert found.per_word == {"鍵": 1}
        assert [h.text for h in recall(index, "犬", NOW, ZONE).hits] == ["犬の散歩に行った"]
    finally:
        index.close()


def test_an_index_of_an_older_version_is_indexed_again_by_its_next_update(tmp_path: Path) -> None:
    archive = Archive(tmp_path / "archief", ZONE)
    said = tmp_path / "said.jsonl"
    said.write_text(json.dumps({"ts": "2026-11-28T10:00:00Z", "role": "user", "text": "家の鍵をなくした"}) + "\n")
    archive.import_simple(said)
    index = Index(tmp_path / "index.sqlite")
    index.update(archive.day_files())
    # As an index of version 1 held it: bigrams only, so the one character was in no term.
    index.db.execute("update zoek set terms = '家の の鍵 鍵を をな なく くし した'")
    index.db.execute("pragma user_version = 1")
    index.db.commit()
    index.close()
    index = Index(tmp_path / "index.sqlite")
    try:
        assert recall(index, "鍵", NOW, ZONE).hits == []
        index.update(archive.day_files())
        assert [h.text for h in recall(index, "鍵", NOW, ZONE).hits] == ["家の鍵をなくした"]
        assert index.db.execute("select count(*) from regels").fetchone()[0] == 1
    finally:
        index.close()


def test_recall_refuses_a_question_it_cannot_search_and_takes_a_bot_in_any_case(tmp_path: Path) -> None:
    env = {**env_for(tmp_path), "TAAK_SEMANTIC": "false"}  # one hit would start the model's helper
    said = tmp_path / "said.jsonl"
    said.write_text(
        json.dumps({"ts": "2026-11-28T10:00:00Z", "role": "user", "actor": "paco", "text": "de veranda is af"}) + "\n"
    )
    assert run_taak(env, "archief", "import", "--simple", str(said)).code == 0
    for words in (["de het een the a in over"], ["の"], ["x" * 1001], ["!!!"], ["?? -- !!"]):  # no word the index has
        refused = run_taak(env, "recall", *words)
        assert refused.code == 2, refused
        assert len(refused.err.strip().splitlines()) == 1
    assert run_taak(env, "recall", "veranda", "--bot", "").code == 2
    assert run_taak(env, "recall", "veranda", "--taak", "HV-kapot").code == 2
    assert run_taak(env, "recall", "veranda", "--vloot", "--uitvoer").code == 2
    shown = run_taak(env, "recall", "veranda", "--bot", "PACO")
    assert shown.code == 0, shown.err
    assert "paco: de veranda is af" in shown.out
    capitals = tmp_path / "hoofdletters.jsonl"
    capitals.write_text(
        json.dumps({"ts": "2026-11-28T11:00:00Z", "role": "user", "actor": "PaCo", "text": "de schroef"}) + "\n"
    )
    assert run_taak(env, "archief", "import", "--simple", str(capitals)).code == 0
    assert "PaCo: de schroef" in run_taak(env, "recall", "schroef", "--bot", "paco").out  # as archived
    typo = run_taak(env, "recall", "veranda", "--bot", "pacoo")  # no line of the archive has that name
    assert typo.code == 1
    assert typo.err.strip() == "taak: pacoo: geen enkele regel van die naam in het archief (bekend: paco)"


def test_an_emptied_index_is_said_and_bijwerken_repairs_it(tmp_path: Path) -> None:
    env = {**env_for(tmp_path), "TAAK_SEMANTIC": "false"}
    said = tmp_path / "said.jsonl"
    said.write_text(json.dumps({"ts": "2026-11-28T10:00:00Z", "role": "user", "text": "de lamp is kapot"}) + "\n")
    assert run_taak(env, "archief", "import", "--simple", str(said)).code == 0
    (tmp_path / "data" / "archief-index.sqlite").write_bytes(b"")
    header = run_taak(env, "recall", "lamp").out.splitlines()[0]
    hint = header.split("de index is leeg maar het archief niet: ", 1)[1].split(";")[0]
    assert hint == "taak archief bijwerken"
    assert run_taak(env, *hint.split()[1:]).code == 0
    assert "de lamp is kapot" in run_taak(env, "recall", "lamp").out


def test_a_line_holding_a_unicode_line_separator_is_archived_indexed_and_recalled_whole(tmp_path: Path) -> None:
    """JSON keeps U+2028, U+2029 and U+0085 raw inside a string (Node's JSON.stringify writes them so); a reader
    that split lines at them cut such a line in two and lost it without counting it."""
    env = env_for(tmp_path)
    said = ["panda met\u2028scheiding", "koala met\u0085volgende regel", "egel met\u2029alinea"]
    transcript = tmp_path / "home" / ".claude" / "projects" / "p1" / "s1.jsonl"
    transcript.parent.mkdir(parents=True)
    transcript.write_text(
        "".join(
            json.dumps(
                {
                    "type": "user",
                    "uuid": f"u{n}",
                    "sessionId": "s1",
                    "timestamp": f"2026-11-28T20:0{n}:00.000Z",
                    "message": {"role": "user", "content": text},
                },
                ensure_ascii=False,
            )
            + "\n"
            for n, text in enumerate(said)
        ),
        encoding="utf-8",
    )
    simple = tmp_path / "simpel.jsonl"
    simple.write_text(
        json.dumps({"ts": "2026-11-28T21:00:00Z", "role": "user", "text": "wombat\u2028tweede deel"}) + "\n",
        encoding="utf-8",
    )
    imported = run_taak(env, "archief", "import", str(transcript))
    assert imported.code == 0, imported.err
    assert imported.out.startswith("3 nieuwe regels gearchiveerd"), imported.out
    imported = run_taak(env, "archief", "import", "--simple", str(simple))
    assert imported.code == 0, imported.err
    assert imported.out.startswith("1 nieuwe regel gearchiveerd"), imported.out
    assert "onleesbare" not in imported.out + imported.err
    for text in [*said, "wombat\u2028tweede deel"]:
        found = json.loads(run_taak(env, "recall", f"28 november {text.split()[0]}", "--json").out)
        assert text in [line["text"] for line in found["regels"]], (text, found)


async def test_recall_over_the_task_log_counts_each_word_in_its_header(
    cli_env: dict[str, str], pool: asyncpg.Pool
) -> None:
    ledger = ledger_on(pool)
    task_id = await ledger.nieuw(NewTask("Plan de veranda", "jamal", toegewezen_aan="paco"))
    for text in ("budget voor de veranda: 4000", "het budget is rond", "iets over de tuin"):
        await ledger.log(task_id, Soort.NOTITIE, text, bot="jamal")
    found = json.loads(run_taak(cli_env, "recall", "vandaag budget Budget olifant", "--taken", "--json").out)
    assert found["woorden"] == {"budget": 2, "olifant": 0}  # one count a word, whatever its case
    assert {r["bron"] for r in found["regels"]} == {"woorden"}
    header = run_taak({**cli_env, "TAAK_LANGUAGE": "nl"}, "recall", "vandaag budget olifant", "--taken").out
    # Only the range was searched: a word not in it may be on another day.
    assert "2 regels getoond van 4 in het bereik" in header.splitlines()[0]  # with the creation note
    assert "woorden: budget 2, olifant 0 (niet in het bereik)" in header.splitlines()[0]


@pytest.mark.slow
async def test_recall_of_a_task_nobody_knows_says_so_as_an_unknown_id(cli_env: dict[str, str], tmp_path: Path) -> None:
    env = {**env_for(tmp_path), "TAAK_SEMANTIC": "false"}
    said = tmp_path / "said.jsonl"
    line = {"ts": "2026-11-28T10:00:00Z", "role": "user", "taak": "HV-20261128-001", "text": "de veranda is af"}
    said.write_text(json.dumps(line) + "\n")
    assert run_taak(env, "archief", "import", "--simple", str(said)).code == 0
    unknown = run_taak(env, "recall", "--taak", "HV-20261128-999", "olifant")
    assert (unknown.code, unknown.out) == (3, "")
    assert unknown.err == (
        "taak: HV-20261128-999: geen enkele regel van die taak in het archief van deze machine "
        "(recall --taken zoekt in het takenlog)\n"
    )
    assert run_taak(env, "recall", "--taak", "HV-20261128-001", "olifant").code == 0  # its lines: none match
    for option in ("--taken", "--vloot"):
        missing = run_taak(cli_env, "recall", "--taak", "HV-20261128-999", "olifant", option)
        assert (missing.code, missing.err) == (3, "taak: task HV-20261128-999 does not exist\n"), option
    task_id = run_taak(cli_env, "nieuw", "Plan de veranda", "--aan", "paco").out.strip()
    assert run_taak(cli_env, "recall", "--taak", task_id, "olifant", "--taken").code == 0  # known: an empty answer


def test_vectors_asked_for_with_semantic_search_off_says_it_is_off(tmp_path: Path) -> None:
    done = run_taak({**env_for(tmp_path), "TAAK_SEMANTIC": "false"}, "archief", "vectoren")
    assert (done.code, done.err) == (0, "")
    assert done.out == "semantisch zoeken staat uit (TAAK_SEMANTIC=false): geen vectoren gemaakt\n"


def test_a_line_glued_to_one_cut_short_is_archived_and_the_broken_part_reported(tmp_path: Path) -> None:
    """A write that died half-way leaves a line without its end; the next line written continues it. That next
    line is kept and found; the broken part is said as unreadable, with where it is."""
    env = env_for(tmp_path)
    transcript = tmp_path / "home" / ".claude" / "projects" / "-werk" / "crash.jsonl"
    transcript.parent.mkdir(parents=True)
    first = _user_line("u1", "2026-11-28T10:00:00Z", "druifwoord vooraf")
    cut = _user_line("u2", "2026-11-28T10:01:00Z", "druifwoord dat nooit af kwam")[:50]
    transcript.write_text(first + "\n" + cut)
    assert run_taak(env, "archief", "bijwerken").code == 0
    with transcript.open("a") as handle:
        handle.write(_user_line("u3", "2026-11-28T10:02:00Z", "druifwoord na de crash") + "\nnog meer rommel\n")
    done = run_taak(env, "archief", "bijwerken")
    assert done.code == 0, done.err
    assert f"2 onleesbare regels overgeslagen (2 nu): {transcript}:2, {transcript}:3" in done.out
    found = run_taak(env, "recall", "druifwoord").out
    assert "druifwoord vooraf" in found
    assert "druifwoord na de crash" in found
    assert "nooit af kwam" not in found


@pytest.mark.slow
def test_a_transcript_that_cannot_be_read_is_skipped_and_named_and_the_others_are_archived(tmp_path: Path) -> None:
    """One odd entry under ~/.claude/projects (a folder with a transcript's name) stopped every import, so the
    daemon's indexer archived nothing more, for good, while Claude Code deletes transcripts after a month."""
    env = env_for(tmp_path)
    projects = tmp_path / "home" / ".claude" / "projects" / "-werk"
    (projects / "aa-map.jsonl").mkdir(parents=True)
    (projects / "zz-na.jsonl").write_text(_user_line("u1", "2026-11-28T10:00:00Z", "appelwoord erna") + "\n")
    done = run_taak(env, "archief", "bijwerken")
    assert done.code == 0, done.err
    assert done.out.rstrip().endswith(
        f"; 1 transcript overgeslagen, niet te lezen: {projects / 'aa-map.jsonl'} (is een map)"
    )
    assert "appelwoord erna" in run_taak(env, "recall", "appelwoord").out
    as_json = json.loads(run_taak(env, "archief", "bijwerken", "--json").out)
    assert [path for path, _why in as_json["files_skipped"]] == [str(projects / "aa-map.jsonl")]
    doctor = run_taak(env, "doctor").out
    assert f"transcripts niet te lezen, niet gearchiveerd (1): {projects / 'aa-map.jsonl'}" in doctor


def test_an_index_that_is_no_database_is_said_with_the_command_that_makes_it_again(tmp_path: Path) -> None:
    env = {**env_for(tmp_path), "TAAK_SEMANTIC": "false"}
    said = tmp_path / "said.jsonl"
    said.write_text(json.dumps({"ts": "2026-11-28T10:00:00Z", "role": "user", "text": "de lamp is kapot"}) + "\n")
    assert run_taak(env, "archief", "import", "--simple", str(said)).code == 0
    index = tmp_path / "data" / "archief-index.sqlite"
    index.write_bytes(b"rommel die geen database is\n" * 100)
    refused = run_taak(env, "recall", "lamp")
    assert refused.code == 1
    assert refused.err == (
        f"taak: de index van het archief {index} is niet te gebruiken (het is geen SQLite-bestand); "
        "`taak archief herbouw` maakt hem opnieuw uit de dagbestanden\n"
    )
    (command,) = re.findall(r"`(taak [^`]*)`", refused.err)
    assert run_taak(env, *command.split()[1:]).code == 0
    assert "de lamp is kapot" in run_taak(env, "recall", "lamp").out


def test_recall_on_a_machine_with_nothing_archived_says_how_to_archive(tmp_path: Path) -> None:
    env = {**env_for(tmp_path), "TAAK_SEMANTIC": "false"}
    said = run_taak(env, "recall", "budget")
    assert said.code == 0
    (hint,) = [line for line in said.out.splitlines() if "het archief is nog leeg" in line]
    (command,) = re.findall(r"taak archief bijwerken", hint)
    assert run_taak(env, *command.split()[1:]).code == 0


@pytest.mark.parametrize("limit", [None, "100", "2000"])
def test_an_output_that_must_be_cut_keeps_the_newest_matches_without_a_gap(tmp_path: Path, limit: str | None) -> None:
    """Over all time the newest lines come first; the 8,000-character cap cut the time order instead, so the
    newest matches were the ones left out, and a short line from days later slipped in after a gap."""
    from datetime import timedelta

    env = env_for(tmp_path)
    start = datetime(2026, 11, 20, tzinfo=UTC)
    lines = [
        {"ts": (start + timedelta(minutes=n)).isoformat(), "role": "user", "text": f"de lamp nummer {n} " + "x" * 200}
        for n in range(2000)
    ]
    lines.append({"ts": (start + timedelta(days=5)).isoformat(), "role": "user", "text": "lamp kort"})
    simple = tmp_path / "lampen.jsonl"
    simple.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    assert run_taak(env, "archief", "import", "--simple", str(simple)).code == 0
    shown = run_taak(env, "recall", "lamp", *(["-n", limit] if limit else [])).out
    numbers = [int(n) for n in re.findall(r"lamp nummer (\d+) ", shown)]
    assert "lamp kort" in shown  # the newest of all
    assert numbers  # and more than that one
    assert numbers == list(range(numbers[0], 2000))  # the newest before it, in time order, none left out between
    assert "# afgekapt:" in shown


def test_a_line_holding_a_lone_surrogate_is_archived_and_found_and_the_files_after_it_too(tmp_path: Path) -> None:
    """JSON's `\\ud800` decodes to a character UTF-8 has no bytes for: one such line stopped every import of every
    file, with an internal error (tester 62). It is kept as its escape, visible, and found by its other words."""
    env = env_for(tmp_path)
    odd = tmp_path / "odd.jsonl"
    odd.write_text(
        _user_line("u1", "2026-11-29T09:00:00Z", "goede regel otter")
        + "\n"
        + _user_line("u2", "2026-11-29T09:01:00Z", "lone \ud800 surrogate wezel")
        + "\n",
        encoding="utf-8",
    )
    assert "\\ud800" in odd.read_text(encoding="utf-8")  # the file holds the escape, as a transcript would
    assistant = {
        "type": "assistant",
        "uuid": "u\ud800x",  # in a name too, not only in what was said (tester 63)
        "sessionId": "s\ud800",
        "timestamp": "2026-11-29T09:01:30Z",
        "message": {
            "id": "m1",
            "role": "assistant",
            "model": "mo\ud800",
            "content": [{"type": "text", "text": "rups"}],
        },
    }
    with odd.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(assistant) + "\n")
    later = tmp_path / "later.jsonl"
    later.write_text(_user_line("u3", "2026-11-29T09:02:00Z", "daarna das") + "\n", encoding="utf-8")
    imported = run_taak(env, "archief", "import", str(odd), str(later))
    assert imported.code == 0, imported.err
    lines = {"otter": "goede regel otter", "wezel": "lone \\ud800 surrogate wezel", "rups": "rups", "das": "daarna das"}
    for word, line in lines.items():
        found = run_taak(env, "recall", word)
        assert line in found.out, (word, found.out)


def test_a_transcript_deleted_and_made_again_under_its_name_is_archived_from_its_start(tmp_path: Path) -> None:
    """The offset of the old file was used for the new one: its first lines were lost, and the line the offset fell
    in was said to be unreadable (tester 62)."""
    env = env_for(tmp_path)
    transcript = tmp_path / "zelfde.jsonl"

    def write(word: str, count: int) -> None:
        lines = [_user_line(f"{word}-{n}", f"2026-11-29T12:{n:02d}:00Z", f"regel {n} {word}") for n in range(count)]
        transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")

    write("papegaai", 5)
    assert run_taak(env, "archief", "import", str(transcript)).code == 0
    transcript.unlink()
    write("parkiet", 8)
    again = json.loads(run_taak(env, "archief", "import", str(transcript), "--json").out)
    assert (again["archived"], again["unreadable"]) == (8, [])
    found = run_taak(env, "recall", "parkiet", "--limiet", "20").out
    assert all(f"regel {n} parkiet" in found for n in range(8)), found
    grown = transcript.read_text(encoding="utf-8") + _user_line("parkiet-8", "2026-11-29T12:08:00Z", "regel 8") + "\n"
    transcript.write_text(grown, encoding="utf-8")  # a file that only grew is read on from where it stopped
    assert json.loads(run_taak(env, "archief", "import", str(transcript), "--json").out)["archived"] == 1


def test_a_word_with_its_accent_typed_as_a_mark_of_its_own_is_found_by_the_word(tmp_path: Path) -> None:
    """`re\u0301sume\u0301` (an accent as a combining mark, as macOS often writes it) was indexed as `re` and `sume`:
    neither `résumé` nor `resume` found it (tester 62)."""
    env = env_for(tmp_path)
    said = tmp_path / "nfd.jsonl"
    said.write_text(_user_line("n1", "2026-11-29T09:05:00Z", "het re\u0301sume\u0301 van Chloe\u0308") + "\n")
    assert run_taak(env, "archief", "import", str(said)).code == 0
    for word in ("résumé", "resume", "chloë"):
        assert "Chloe\u0308" in run_taak(env, "recall", word).out, word
    others = tmp_path / "marks.jsonl"
    others.write_text(  # marks with no composed form: a Latin accent, a Hindi vowel sign (tester 63)
        _user_line("n2", "2026-11-29T09:06:00Z", "een q\u0301uirk")
        + "\n"
        + _user_line("n3", "2026-11-29T09:07:00Z", "हिन्दी भाषा")
        + "\n"
        + _user_line("n4", "2026-11-29T09:08:00Z", "हनद")
        + "\n",
        encoding="utf-8",
    )
    assert run_taak(env, "archief", "import", str(others)).code == 0
    assert "q\u0301uirk" in run_taak(env, "recall", "quirk").out
    hindi = run_taak(env, "recall", "हिन्दी").out
    assert "हिन्दी भाषा" in hindi
    assert "] user: हनद" not in hindi  # its letters alone are another word


@pytest.mark.parametrize("query", ["1/1/1500 budget", "1 januari 1000 budget", "since 3000-01-01 budget"])
def test_a_range_outside_what_the_index_holds_is_searched_not_a_crash(tmp_path: Path, query: str) -> None:
    """A day before 1970 or after 2262 ended recall with an internal error (an overflow of the index's row ids)."""
    env = env_for(tmp_path)
    said = tmp_path / "budget.jsonl"
    said.write_text(_user_line("b1", "2026-11-29T09:00:00Z", "het budget") + "\n", encoding="utf-8")
    assert run_taak(env, "archief", "import", str(said)).code == 0
    found = run_taak(env, "recall", query)
    assert found.code == 0, found.err
