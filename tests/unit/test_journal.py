"""The journal: accepted means kept, across a crash, and nothing is forwarded twice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from structlog.testing import capture_logs

from worker.daemon.journal import Journal


async def test_an_unsettled_entry_is_pending_again_after_a_restart_in_order(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    journal = Journal(path)
    first = await journal.append("log", "HV-20261201-001", "t", "paco", "s", {"soort": "stap_klaar", "tekst": "een"})
    second = await journal.append("log", "HV-20261201-001", "t", "paco", "s", {"soort": "stap_klaar", "tekst": "twee"})
    third = await journal.append("klaar", "HV-20261201-001", "t", "paco", "s", {"bewijs": "/x", "tekst": ""})
    await journal.settle(first, "geschreven")
    journal.close()  # the daemon dies here
    again = Journal(path)
    assert [e.seq for e in again.pending()] == [second.seq, third.seq]
    assert again.pending()[0].sleutel == second.sleutel  # the key the database row carries survives
    assert (await again.append("log", "HV-20261201-001", "t", "paco", "s", {})).seq == third.seq + 1


async def test_a_settle_line_in_the_first_daemons_dutch_keys_still_settles_its_entry(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    journal = Journal(path)
    old = await journal.append("log", "HV-20261201-001", "t", "paco", None, {"soort": "notitie", "tekst": "oud"})
    new = await journal.append("log", "HV-20261201-001", "t", "paco", None, {"soort": "notitie", "tekst": "nieuw"})
    journal.close()
    with path.open("ab") as handle:
        handle.write(json.dumps({"settled": old.seq, "uitkomst": "geschreven", "reden": None}).encode() + b"\n")
    with capture_logs() as logged:
        assert [e.seq for e in Journal(path).pending()] == [new.seq]
    assert logged == []


async def test_a_settle_line_is_written_with_english_keys(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    journal = Journal(path)
    entry = await journal.append("log", "HV-20261201-001", "t", "paco", None, {"soort": "notitie", "tekst": "x"})
    await journal.append("log", "HV-20261201-001", "t", "paco", None, {"soort": "notitie", "tekst": "y"})
    await journal.settle(entry, "geweigerd", "stale")
    journal.close()
    last = json.loads(path.read_bytes().splitlines()[-1])
    assert last == {"settled": entry.seq, "outcome": "geweigerd", "reason": "stale"}


async def test_a_line_cut_off_by_a_crash_is_ignored_and_the_rest_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    journal = Journal(path)
    kept = await journal.append("log", "HV-20261201-001", "t", "paco", None, {"soort": "notitie", "tekst": "x"})
    journal.close()
    with path.open("ab") as handle:
        handle.write(b'{"entry": {"seq": 2, "op": "lo')
    with capture_logs() as logged:
        assert [e.seq for e in Journal(path).pending()] == [kept.seq]
    assert logged == []  # never acknowledged: nothing was lost


async def test_a_damaged_line_before_the_last_is_said_and_the_rest_is_kept(tmp_path: Path) -> None:
    """It was skipped without a word (tester 23), where the entry it held may be a write that is now lost."""
    path = tmp_path / "j.jsonl"
    journal = Journal(path)
    await journal.append("log", "HV-20261201-001", "t", "paco", None, {"soort": "notitie", "tekst": "x"})
    journal.close()
    with path.open("ab") as handle:
        handle.write(b"kapot\n42\n")
    journal = Journal(path)
    kept = await journal.append("log", "HV-20261201-001", "t", "paco", None, {"soort": "notitie", "tekst": "y"})
    journal.close()
    with capture_logs() as logged:
        assert [e.seq for e in Journal(path).pending()] == [1, kept.seq]
    assert [(e["event"], e["lines"]) for e in logged] == [("journal_lines_unreadable", 2)]


async def test_a_journal_with_everything_settled_starts_afresh(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    journal = Journal(path)
    entry = await journal.append("stap", "HV-20261201-001", "t", "paco", None, {"tekst": "verder"})
    await journal.settle(entry, "geweigerd", "stale")
    journal.close()
    assert Journal(path).pending() == []
    assert path.read_bytes() == b""


async def test_the_journal_and_its_folder_are_the_users_alone(tmp_path: Path) -> None:
    import stat

    folder = tmp_path / "journaal"
    folder.mkdir(mode=0o755)
    path = folder / "paco@veranda.jsonl"
    path.write_text("")  # left by an earlier version, readable by all
    path.chmod(0o644)
    journal = Journal(path)
    await journal.append("log", "HV-20261201-001", "token", "paco", None, {"soort": "notitie", "tekst": "geheim"})
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


GOOD = {
    "seq": 7,
    "op": "log",
    "task_id": "HV-20261201-001",
    "token": "t",
    "bot": "paco",
    "sessie": None,
    "fields": {"soort": "notitie", "tekst": "x"},
    "gezegd": "2026-12-01T10:00:00+00:00",
    "sleutel": "abc",
}


@pytest.mark.parametrize(
    "damaged",
    [
        {"entry": 5},
        {"entry": {k: v for k, v in GOOD.items() if k != "sleutel"}},  # a key missing, as an older version's
        {"entry": {**GOOD, "nieuw": 1}},  # a key more, as a newer version's
        {"settled": "abc", "uitkomst": "geschreven", "reden": None},
        [1, 2, 3],
        {"entry": {**GOOD, "seq": "7"}},
        {"entry": {**GOOD, "seq": True}},
        {"entry": {**GOOD, "fields": "x"}},
        "NESTED",
    ],
    ids=[
        "a number",
        "a key missing",
        "a key more",
        "settled abc",
        "a list",
        "a string seq",
        "true",
        "text fields",
        "nested 2000 deep",
    ],
)
async def test_each_kind_of_damaged_line_is_passed_over_and_said_once(tmp_path: Path, damaged: object) -> None:
    path = tmp_path / "j.jsonl"
    journal = Journal(path)
    kept = await journal.append("log", "HV-20261201-001", "t", "paco", None, {"soort": "notitie", "tekst": "x"})
    journal.close()
    with path.open("a") as handle:
        handle.write(('{"entry":' * 2000 + "1" + "}" * 2000 if damaged == "NESTED" else json.dumps(damaged)) + "\n")
    journal = Journal(path)
    after = await journal.append("log", "HV-20261201-001", "t", "paco", None, {"soort": "notitie", "tekst": "y"})
    journal.close()
    with capture_logs() as logged:
        assert [e.seq for e in Journal(path).pending()] == [kept.seq, after.seq]
    assert [(e["event"], e["lines"]) for e in logged] == [("journal_lines_unreadable", 1)]


async def test_a_fifo_where_the_journal_belongs_is_refused_at_once_not_read(tmp_path: Path) -> None:
    import os

    from worker.core.folders import NotARegularFile

    path = tmp_path / "j.jsonl"
    os.mkfifo(path)
    with pytest.raises(NotARegularFile):
        Journal(path)  # a read would wait for a writer forever


async def test_an_append_the_disk_refuses_leaves_the_journal_as_it_was(tmp_path: Path) -> None:
    """A half-written line stayed in the buffer and went out glued to the next entry, which was then unreadable
    while its session had heard "kept"; several entries shared one seq."""
    import resource
    import signal

    from worker.daemon.journal import NotKept

    path = tmp_path / "j.jsonl"
    journal = Journal(path)
    first = await journal.append("log", "HV-20261201-001", "t", "paco", None, {"soort": "notitie", "tekst": "een"})
    before = path.read_bytes()
    limit = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (len(before) + 100, limit[1]))  # room for part of a line only
    try:
        with pytest.raises(NotKept):
            await journal.append("log", "HV-20261201-001", "t", "paco", None, {"soort": "notitie", "tekst": "x" * 500})
        assert path.read_bytes() == before
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, limit)
        signal.signal(signal.SIGXFSZ, previous)
    second = await journal.append("log", "HV-20261201-001", "t", "paco", None, {"soort": "notitie", "tekst": "twee"})
    journal.close()
    again = Journal(path).pending()
    assert [(e.seq, e.fields["tekst"]) for e in again] == [(first.seq, "een"), (second.seq, "twee")]
    assert second.seq > first.seq  # a seq is never given twice (a refused one is skipped)


async def test_writes_that_arrive_together_are_all_kept_in_the_order_they_were_asked_for(tmp_path: Path) -> None:
    import anyio

    path = tmp_path / "j.jsonl"
    journal = Journal(path)
    kept: list[int] = []

    async def say(n: int) -> None:
        entry = await journal.append("log", "HV-20261201-001", "t", "paco", None, {"soort": "notitie", "tekst": str(n)})
        kept.append(entry.seq)

    async with anyio.create_task_group() as group:
        for n in range(50):
            group.start_soon(say, n)
    journal.close()
    again = Journal(path).pending()
    assert sorted(kept) == list(range(1, 51))
    assert [e.seq for e in again] == list(range(1, 51))
    assert [e.fields["tekst"] for e in again] == [str(n) for n in range(50)]


async def test_a_whole_last_line_that_is_no_record_is_said_too(tmp_path: Path) -> None:
    """Only a last line cut off by a crash (no line end) is passed over without a word: a whole one that is no
    record (another version's entry) was dropped silently (tester of issue 38)."""
    path = tmp_path / "j.jsonl"
    journal = Journal(path)
    await journal.append("log", "HV-20261201-001", "t", "paco", None, {"soort": "notitie", "tekst": "x"})
    journal.close()
    with path.open("a") as handle:
        handle.write(json.dumps({"entry": {**GOOD, "nieuw": 1}}) + "\n")
    with capture_logs() as logged:
        Journal(path)
    assert [(e["event"], e["lines"]) for e in logged] == [("journal_lines_unreadable", 1)]


async def test_a_settle_line_goes_out_with_the_next_append_not_with_an_fsync_of_its_own(tmp_path: Path) -> None:
    """Each write cost two fsyncs, its entry's and its settle line's (issue 42): the settle line now waits for the
    next lines that are made durable anyway, and a daemon that dies first leaves its entry to a look-up."""
    path = tmp_path / "j.jsonl"
    journal = Journal(path)
    first = await journal.append("log", "HV-20261201-001", "t", "paco", None, {"soort": "notitie", "tekst": "een"})
    journal.settled(first)
    assert journal.pending() == []
    assert [e.seq for e in Journal(path).pending()] == [first.seq]  # not on disk yet: the next start looks it up
    second = await journal.append("log", "HV-20261201-001", "t", "paco", None, {"soort": "notitie", "tekst": "twee"})
    assert [e.seq for e in Journal(path).pending()] == [second.seq]  # the append took the settle line along
    journal.settled(second)
    journal.close()  # a daemon that stops writes what waits
    assert Journal(path).pending() == []
    assert path.read_bytes() == b""
