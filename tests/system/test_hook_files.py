"""What a hook is told to read may be no file at all, or an enormous one: it never hangs, never grows without
bound, and never breaks the session (exit 0, what it could say, a row in hooks.log). Real faults: /dev/zero,
/dev/urandom, a FIFO nobody writes to, a sparse file of 3 GB. Each run is held to 2 GB of address space and
a deadline, so that the fault, before the fix, failed the test instead of the machine."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from tests.fixtures import FIXTURES
from worker.core.transcript import parse_lines, render

TASK = "HV-20260101-001"
MEMORY_LIMIT = 2 << 30
DEADLINE = 20


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def hook(env: dict[str, str], cwd: Path, *words: str, payload: dict[str, object]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "worker.cli.taak", "hook", *words],
        env=env,
        cwd=cwd,
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=DEADLINE,
        preexec_fn=_limited,
        check=False,
    )


def environment(tmp_path: Path, where: str) -> dict[str, str]:
    """The owner's own session (no task), or a queue session (its daemon's socket named, the daemon away)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_") and k != "CLAUDECODE"}
    env.update(TAAK_DATA_DIR=str(tmp_path / "data"), TAAK_LANGUAGE="nl", HOME=str(tmp_path / "thuis"))
    if where == "queue":
        env.update(TAAK_SOCKET=str(tmp_path / "geen.sock"), TAAK_ID=TASK, TAAK_BOT="paco")
    return env


def no_file(tmp_path: Path, kind: str) -> Path:
    if kind == "fifo":
        fifo = tmp_path / "transcript.jsonl"
        os.mkfifo(fifo)
        return fifo
    return Path(kind)


def hooks_log(tmp_path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (tmp_path / "data" / "hooks.log").read_text().splitlines()]


@pytest.mark.parametrize("where", ["owner", "queue"])
@pytest.mark.parametrize("kind", ["/dev/zero", "/dev/urandom", "fifo"])
def test_pre_compact_given_a_device_or_a_fifo_as_transcript_says_so_at_once_and_still_steers(
    tmp_path: Path, kind: str, where: str
) -> None:
    transcript = no_file(tmp_path, kind)
    words = ["pre-compact", "--queue"] if where == "queue" else ["pre-compact"]  # the daemon's copy, in a queue
    done = hook(environment(tmp_path, where), tmp_path, *words, payload={"transcript_path": str(transcript)})
    assert done.returncode == 0, done.stderr
    assert "Bewaar bij het samenvatten altijd letterlijk" in done.stdout  # the summary is steered all the same
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("taak hook pre-compact: ")
    assert f"{transcript}" in line
    assert "is geen gewoon bestand (een apparaat, een pipe of een socket): niet gelezen" in line
    (record,) = hooks_log(tmp_path)
    assert (record["hook"], record["exit_code"], record["error"]) == ("pre-compact", 0, line)
    assert not list((tmp_path / "data").glob("rapporten/*.txt"))


def test_the_queue_prompt_hook_given_a_fifo_as_its_stand_file_answers_at_once(tmp_path: Path) -> None:
    stand = tmp_path / "data" / "sessies" / TASK / "stand.json"  # where the ordinary path looks too
    stand.parent.mkdir(parents=True)
    os.mkfifo(stand)
    done = hook(environment(tmp_path, "queue"), tmp_path, "prompt", "--stand", str(stand), payload={"prompt": "ga"})
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""  # nothing known to say; the turn goes on


def test_a_transcript_larger_than_a_report_reads_is_reported_from_its_newest_lines_and_says_so(
    tmp_path: Path,
) -> None:
    transcript = tmp_path / "groot.jsonl"
    with transcript.open("wb") as handle:
        handle.truncate(3 << 30)  # 3 GB of nothing, taking no disk: more than the hook may hold
        handle.seek(0, os.SEEK_END)
        handle.write(b"\n" + (FIXTURES / "agentlogs__compact.jsonl").read_bytes())
    done = hook(environment(tmp_path, "owner"), tmp_path, "pre-compact", payload={"transcript_path": str(transcript)})
    assert done.returncode == 0, done.stderr
    (report,) = (tmp_path / "data" / "rapporten").glob("*.txt")
    first, *rest = report.read_text().splitlines()
    assert first.startswith("[de eerste ")
    assert f"zijn niet gelezen (een verslag leest er hoogstens 64 MB): ze staan in {transcript} vanaf byte 0]" in first
    assert any(line.endswith("user: how are you doing") for line in rest)
    (line,) = done.stderr.strip().splitlines()
    assert line == f"taak hook pre-compact: {first}"


def test_a_report_after_an_upgrade_goes_on_where_the_line_counted_progress_stopped(tmp_path: Path) -> None:
    """Before issue 38 a report remembered how many lines it had read; the next one starts after them still."""
    transcript = tmp_path / "sessie.jsonl"
    lines = (FIXTURES / "agentlogs__crud.jsonl").read_text().splitlines(keepends=True)
    transcript.write_text("".join(lines))
    folder = tmp_path / "data" / "rapporten"
    folder.mkdir(parents=True)
    (folder / ".voortgang.json").write_text(json.dumps({str(transcript): 10}))
    done = hook(environment(tmp_path, "owner"), tmp_path, "pre-compact", payload={"transcript_path": str(transcript)})
    assert done.returncode == 0, done.stderr
    (report,) = folder.glob("*.txt")
    assert report.read_text() == render(parse_lines(lines[10:]), zone=ZoneInfo("Europe/Amsterdam")) + "\n"


NESTED = '{"a":' * 3000 + "1" + "}" * 3000


@pytest.mark.parametrize("name", ["session-start", "pre-compact", "post-compact", "prompt"])
def test_a_queue_hook_given_input_nested_too_deep_says_so_in_one_line_and_exits_0(tmp_path: Path, name: str) -> None:
    """A 36-line RecursionError traceback and exit 1 (tester of issue 38)."""
    done = subprocess.run(
        [sys.executable, "-m", "worker.cli.taak", "hook", name, "--queue"],
        env=environment(tmp_path, "queue"),
        cwd=tmp_path,
        input=NESTED,
        capture_output=True,
        text=True,
        timeout=DEADLINE,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.splitlines()) <= 1, done.stderr


def test_the_prompt_hook_given_a_stand_file_nested_too_deep_answers_without_a_traceback(tmp_path: Path) -> None:
    stand = tmp_path / "stand.json"
    stand.write_text(NESTED)
    done = hook(environment(tmp_path, "queue"), tmp_path, "prompt", "--stand", str(stand), payload={"prompt": "x"})
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("where", ["owner", "queue"])
def test_a_transcript_line_nested_too_deep_is_passed_over_and_the_summary_is_still_steered(
    tmp_path: Path, where: str
) -> None:
    """It ended pre-compact with no steering text at all, and stopped the machine's archive for good (tester of
    issue 38)."""
    transcript = tmp_path / "t.jsonl"
    fixture = (FIXTURES / "agentlogs__crud.jsonl").read_text()
    transcript.write_text(NESTED + "\n" + fixture)
    words = ["pre-compact", "--queue"] if where == "queue" else ["pre-compact"]
    done = hook(environment(tmp_path, where), tmp_path, *words, payload={"transcript_path": str(transcript)})
    assert done.returncode == 0, done.stderr
    assert "Bewaar bij het samenvatten altijd letterlijk" in done.stdout
    assert "Traceback" not in done.stderr


def test_the_archive_takes_a_transcript_with_a_line_nested_too_deep(tmp_path: Path) -> None:
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(NESTED + "\n" + (FIXTURES / "agentlogs__crud.jsonl").read_text())
    env = environment(tmp_path, "owner")
    done = subprocess.run(
        [sys.executable, "-m", "worker.cli.taak", "archief", "import", str(transcript)],
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "RecursionError" not in done.stderr + done.stdout
