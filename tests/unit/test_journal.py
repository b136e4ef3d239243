"""The journal: accepted means kept, across a crash, and nothing is forwarded twice."""

from __future__ import annotations

from pathlib import Path

from structlog.testing import capture_logs

from worker.daemon.journal import Journal


def test_an_unsettled_entry_is_pending_again_after_a_restart_in_order(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    journal = Journal(path)
    first = journal.append("log", "HV-20261201-001", "t", "paco", "s", {"soort": "stap_klaar", "tekst": "een"})
    second = journal.append("log", "HV-20261201-001", "t", "paco", "s", {"soort": "stap_klaar", "tekst": "twee"})
    third = journal.append("klaar", "HV-20261201-001", "t", "paco", "s", {"bewijs": "/x", "tekst": ""})
    journal.settle(first, "geschreven")
    journal.close()  # the daemon dies here
    again = Journal(path)
    assert [e.seq for e in again.pending()] == [second.seq, third.seq]
    assert again.pending()[0].sleutel == second.sleutel  # the key the database row carries survives
    assert again.append("log", "HV-20261201-001", "t", "paco", "s", {}).seq == third.seq + 1


def test_a_line_cut_off_by_a_crash_is_ignored_and_the_rest_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    journal = Journal(path)
    kept = journal.append("log", "HV-20261201-001", "t", "paco", None, {"soort": "notitie", "tekst": "x"})
    journal.close()
    with path.open("ab") as handle:
        handle.write(b'{"entry": {"seq": 2, "op": "lo')
    with capture_logs() as logged:
        assert [e.seq for e in Journal(path).pending()] == [kept.seq]
    assert logged == []  # never acknowledged: nothing was lost


def test_a_damaged_line_before_the_last_is_said_and_the_rest_is_kept(tmp_path: Path) -> None:
    """It was skipped without a word (tester 23), where the entry it held may be a write that is now lost."""
    path = tmp_path / "j.jsonl"
    journal = Journal(path)
    journal.append("log", "HV-20261201-001", "t", "paco", None, {"soort": "notitie", "tekst": "x"})
    journal.close()
    with path.open("ab") as handle:
        handle.write(b"kapot\n42\n")
    journal = Journal(path)
    kept = journal.append("log", "HV-20261201-001", "t", "paco", None, {"soort": "notitie", "tekst": "y"})
    journal.close()
    with capture_logs() as logged:
        assert [e.seq for e in Journal(path).pending()] == [1, kept.seq]
    assert [(e["event"], e["lines"]) for e in logged] == [("journal_lines_unreadable", 2)]


def test_a_journal_with_everything_settled_starts_afresh(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    journal = Journal(path)
    entry = journal.append("stap", "HV-20261201-001", "t", "paco", None, {"tekst": "verder"})
    journal.settle(entry, "geweigerd", "stale")
    journal.close()
    assert Journal(path).pending() == []
    assert path.read_bytes() == b""


def test_the_journal_and_its_folder_are_the_users_alone(tmp_path: Path) -> None:
    import stat

    folder = tmp_path / "journaal"
    folder.mkdir(mode=0o755)
    path = folder / "paco@veranda.jsonl"
    path.write_text("")  # left by an earlier version, readable by all
    path.chmod(0o644)
    journal = Journal(path)
    journal.append("log", "HV-20261201-001", "token", "paco", None, {"soort": "notitie", "tekst": "geheim"})
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
