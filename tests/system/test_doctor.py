"""`taak doctor` on a healthy and on a broken setup."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import asyncpg
import pytest

from tests.helpers import run_taak


def check(out: str, name: str) -> str:
    """doctor's one line for the check `name` (`database`, `claude`, ...)."""
    (line,) = [line for line in out.splitlines() if line.split()[1] == f"{name}:"]
    return line


def healthy(cli_env: dict[str, str], tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    (home / ".claude" / "projects" / "-Users-paco").mkdir(parents=True)
    claude = tmp_path / "bin" / "claude"
    claude.parent.mkdir()
    claude.write_text("#!/bin/sh\necho '2.1.332 (Claude Code)'\n")
    claude.chmod(0o755)
    registry = tmp_path / "machines.json"
    registry.write_text(json.dumps({"machines": []}))
    env = {
        **cli_env,
        "HOME": str(home),
        "PATH": f"{claude.parent}{os.pathsep}{cli_env['PATH']}",
        "TAAK_BOTS": "paco",
        "TAAK_REGISTRY_FILE": str(registry),
        "TAAK_CLAUDE_SETTINGS": str(home / ".claude" / "settings.json"),
    }
    assert run_taak(env, "hooks", "install").code == 0
    return env


async def test_a_healthy_machine_passes_every_check(
    cli_env: dict[str, str], conn: asyncpg.Connection, tmp_path: Path, machine_processes: None
) -> None:
    env = healthy(cli_env, tmp_path)
    await conn.execute(
        "insert into agent_bots (bot, actief) values ('paco', true) on conflict (bot) do update set actief = true"
    )
    result = run_taak(env, "doctor")
    assert result.code == 0, result.out
    lines = result.out.splitlines()
    assert [line.split()[0] for line in lines] == ["ok"] * len(lines), result.out
    assert {line.split()[1].rstrip(":") for line in lines} >= {
        "database",
        "wake-up",
        "clock",
        "bots",
        "claude",
        "hooks",
        "dead",
        "transcripts",
        "semantic",
        "registry",
    }
    assert any("2.1.332" in line for line in lines)


async def test_a_broken_machine_fails_and_says_how_to_fix_it(
    cli_env: dict[str, str], conn: asyncpg.Connection, tmp_path: Path
) -> None:
    env = healthy(cli_env, tmp_path)
    settings = Path(env["TAAK_CLAUDE_SETTINGS"])
    data = json.loads(settings.read_text())
    data["hooks"]["PostToolUse"] = [
        {"hooks": [{"type": "command", "command": "bash ~/.claude/scripts/resize-large-images.sh"}]}
    ]
    settings.write_text(json.dumps(data))
    env.update(
        TAAK_AGENT_CMD="claude-bestaat-niet", PATH=os.path.dirname(sys.executable) + os.pathsep + "/usr/bin:/bin"
    )
    result = run_taak(env, "doctor")
    assert result.code == 1
    by_name = {line.split()[1].rstrip(":"): line for line in result.out.splitlines()}
    assert by_name["claude"].startswith("fail")
    assert by_name["dead"].startswith("fail")
    assert "taak hooks check --fix" in by_name["dead"]
    assert by_name["bots"].startswith("warn")
    assert "taak bot aan paco" in by_name["bots"]


@pytest.mark.parametrize(
    ("agent", "said"),
    [
        ("claude-bestaat-niet", "'claude-bestaat-niet' is not on PATH"),
        ("/nergens/claude", "/nergens/claude is not a program"),
    ],
)
def test_an_agent_that_cannot_be_found_is_said_as_a_name_not_on_path_or_a_path_with_nothing_to_run(
    cli_env: dict[str, str], tmp_path: Path, agent: str, said: str
) -> None:
    result = run_taak({**healthy(cli_env, tmp_path), "TAAK_AGENT_CMD": agent}, "doctor")
    claude = check(result.out, "claude")
    assert claude.startswith(f"fail  claude: {said}")


def test_an_unreachable_database_is_a_failure_with_one_line_per_check(cli_env: dict[str, str], tmp_path: Path) -> None:
    env = {**healthy(cli_env, tmp_path), "TAAK_DATABASE_URL": "postgresql://bot:geheim@127.0.0.1:1/taak"}
    result = run_taak(env, "doctor")
    assert result.code == 1
    database = check(result.out, "database")
    assert database.startswith("fail")
    assert "127.0.0.1:1" in database
    assert "geheim" not in result.out


def test_a_search_path_that_passes_taaks_tables_by_fails_the_database_check(
    cli_env: dict[str, str], tmp_path: Path
) -> None:
    url = cli_env["TAAK_DATABASE_URL"]
    env = {**healthy(cli_env, tmp_path), "TAAK_DATABASE_URL": url + ("&" if "?" in url else "?") + "search_path=elders"}
    result = run_taak(env, "doctor")
    assert result.code == 1
    database = check(result.out, "database")
    assert database.startswith("fail")
    assert "search_path=elders" in database
    assert database.endswith("-> put public in search_path, or leave search_path out")


def test_a_reader_that_stops_at_once_leaves_the_failing_verdict_standing(
    cli_env: dict[str, str], tmp_path: Path
) -> None:
    import subprocess

    env = {**healthy(cli_env, tmp_path), "TAAK_DATABASE_URL": "postgresql://bot:geheim@127.0.0.1:1/taak"}
    reader, writer = os.pipe()
    os.close(reader)  # `taak doctor | head -0`: nobody reads a byte
    try:
        done = subprocess.run(
            [sys.executable, "-m", "worker.cli.taak", "doctor"],
            env=env,
            stdout=writer,
            stderr=subprocess.PIPE,
            check=False,
        )
    finally:
        os.close(writer)
    assert done.returncode == 1, done.stderr
    assert done.stderr == b""


def test_unreadable_archive_lines_are_said_first_ones_first_with_a_reason_a_person_reads(
    cli_env: dict[str, str], tmp_path: Path
) -> None:
    env = healthy(cli_env, tmp_path)
    bad = tmp_path / "slecht.jsonl"
    lines = ["root:x:0:0", '{"role": "user", "text": "x"}', '{"ts": "morgen", "role": "user", "text": "x"}']
    bad.write_text("\n".join(lines + [f"regel {n}" for n in range(4, 12)]) + "\n")
    assert run_taak(env, "archief", "import", "--simple", str(bad)).code == 0
    archive = check(run_taak(env, "doctor").out, "archive")
    assert archive == (
        f"warn  archive: 11 unreadable transcript lines were skipped: {bad}:1 (no JSON); {bad}:2 (field ts is "
        f"missing); {bad}:3 (no conversation line with a readable time) ..."
    )


def test_a_url_whose_setting_the_server_refuses_fails_the_database_check_and_the_rest_is_still_shown(
    cli_env: dict[str, str], tmp_path: Path
) -> None:
    env = healthy(cli_env, tmp_path)
    separator = "&" if "?" in env["TAAK_DATABASE_URL"] else "?"
    env["TAAK_DATABASE_URL"] += separator + "options=-c%20statement_timeout%3Dabc"
    result = run_taak(env, "doctor")
    assert result.code == 1
    database = check(result.out, "database")
    assert database.startswith("fail  database: the server refuses what TAAK_DATABASE_URL asks: ")
    assert "statement_timeout" in database
    assert database.endswith("-> correct TAAK_DATABASE_URL")
    assert any(line.split()[1] == "hooks:" for line in result.out.splitlines())  # the other checks ran


@pytest.mark.parametrize(
    ("url", "fix"),
    [
        ("postgresql://postgres@127.0.0.1:5432/x?sslmode=bogus", "verbeter TAAK_DATABASE_URL"),
        ("postgresql://postgres@127.0.0.1:1/x", "zet TAAK_DATABASE_URL, of controleer de server en het netwerk"),
    ],
)
def test_doctors_fix_for_the_database_says_the_url_when_the_url_is_what_is_wrong(
    cli_env: dict[str, str], url: str, fix: str
) -> None:
    result = run_taak({**cli_env, "TAAK_DATABASE_URL": url, "TAAK_LANGUAGE": "nl"}, "doctor")
    database = check(result.out, "database")
    assert database.endswith(f"-> {fix}"), database


@pytest.mark.parametrize(
    ("language", "fix"),
    [
        ("nl", "zet TAAK_BOTS in de omgeving of .env van deze machine, haar bots gescheiden door komma's"),
        ("en", "set TAAK_BOTS in this machine's environment or .env, its bots separated by commas"),
    ],
)
def test_a_machine_without_bots_is_told_where_to_name_them_in_words_not_a_broken_command(
    cli_env: dict[str, str], tmp_path: Path, language: str, fix: str
) -> None:
    """The fix read `...: TAAK_BOTS=paco (comma-separated) in its environment or .env`: typed after the colon, as
    a fix is typed, the shell failed on the parenthesis and the quote."""
    import shlex

    env = {k: v for k, v in healthy(cli_env, tmp_path).items() if k != "TAAK_BOTS"}
    result = run_taak({**env, "TAAK_LANGUAGE": language}, "doctor")
    (line,) = [line for line in result.out.splitlines() if "TAAK_BOTS" in line]
    assert f"-> {fix} (TAAK_BOTS=paco,sjakie)" in line
    example = line.rsplit("(", 1)[1].rstrip(")")
    assert shlex.split(example) == ["TAAK_BOTS=paco,sjakie"]  # the one part that looks like typing is typeable


@pytest.mark.parametrize(
    ("agent", "level", "said"),
    [
        ("/bin/true", "warn", "answers --version with 'true"),
        ("/bin/false", "fail", "/bin/false --version exited 1"),
        # It ran `python3 -c pass --version` and said `python3 --version exited 0`: another command, no reason.
        (f"{sys.executable} -c pass", "fail", f"{sys.executable} -c pass --version printed nothing"),
    ],
)
def test_an_agent_command_that_is_not_claude_code_is_not_passed_as_it(
    cli_env: dict[str, str], tmp_path: Path, agent: str, level: str, said: str
) -> None:
    """`TAAK_AGENT_CMD=/bin/true` passed as `ok claude: /bin/true, true (GNU coreutils)`; `/bin/false` failed
    without saying what to do."""
    env = {**healthy(cli_env, tmp_path), "TAAK_AGENT_CMD": agent, "TAAK_LANGUAGE": "en"}
    (line,) = [line for line in run_taak(env, "doctor").out.splitlines() if " claude: " in line]
    assert line.startswith(f"{level}  claude: ")
    assert said in line
    assert line.endswith("-> set TAAK_AGENT_CMD to Claude Code's program (a wrapper passes --version on to it)")


def test_an_agent_command_that_reads_a_prompt_is_asked_its_version_without_the_owners_terminal(
    cli_env: dict[str, str], tmp_path: Path
) -> None:
    """Doctor ran `TAAK_AGENT_CMD --version` on the owner's own stdin: a wrapper that reads a prompt first waited
    on the owner's keys (here an open pipe) for doctor's 20 seconds, then failed as an agent that does not answer."""
    import subprocess

    wrapper = tmp_path / "claude-wrapper"
    wrapper.write_text('#!/bin/sh\nread prompt\necho "2.1.332 (Claude Code)"\n')
    wrapper.chmod(0o755)
    env = {**healthy(cli_env, tmp_path), "TAAK_AGENT_CMD": str(wrapper), "TAAK_LANGUAGE": "en"}
    with subprocess.Popen(
        [sys.executable, "-m", "worker.cli.taak", "doctor"],
        env=env,
        stdin=subprocess.PIPE,  # held open and never written, as a terminal nobody types in
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as doctor:
        doctor.wait(timeout=60)  # not communicate(), which would close the pipe; doctor's output fits in it
        assert doctor.stdout is not None
        out = doctor.stdout.read()
    (line,) = [line for line in out.splitlines() if " claude: " in line]
    assert line == f"ok    claude: {wrapper}, 2.1.332 (Claude Code)"


def test_doctor_in_a_project_folder_checks_the_claude_md_files_claude_code_reads_there(
    cli_env: dict[str, str], tmp_path: Path
) -> None:
    """Most dead paths live in a project's CLAUDE.md, which doctor never read: Claude Code reads the one in the
    folder it starts in and those of the folders above it, up to the home folder."""
    env = healthy(cli_env, tmp_path)
    home = Path(env["HOME"])
    project = home / "werk" / "veranda"
    (project / "notities").mkdir(parents=True)
    (project / "notities" / "album.md").write_text("het album heet Zomer\n")
    (project / "CLAUDE.md").write_text("Lees [album](notities/album.md) en [tarieven](notities/tarieven.md).\n")
    (home / "werk" / "CLAUDE.md").write_text("Taken staan in ~/.context/todos.md\n")
    (tmp_path / "CLAUDE.md").write_text("Buiten het thuismap: /nergens/te/vinden.md\n")  # above home: not read
    result = run_taak({**env, "TAAK_LANGUAGE": "en"}, "doctor", cwd=project / "notities")
    named = [line for line in result.out.splitlines() if line.split()[1] == "named" and str(home) in line]
    assert f"warn  named paths: {project / 'CLAUDE.md'} names missing notities/tarieven.md" in named[0]
    assert any(f"{home / 'werk' / 'CLAUDE.md'} names missing ~/.context/todos.md" in line for line in named)
    assert "/nergens/te/vinden.md" not in result.out
