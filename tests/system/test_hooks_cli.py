"""`taak hooks`, `taak claude-md` and `taak geheugen` on real files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import with_database
from tests.helpers import run_taak

UNRELATED = {
    "model": "opus",
    "permissions": {"allow": ["Bash(git status)"]},
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo pre"}]}],
        "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo hallo"}]}],
    },
}


def test_install_keeps_everything_else_and_twice_changes_nothing(cli_env: dict[str, str], tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps(UNRELATED, indent=2))
    first = run_taak(cli_env, "hooks", "install", "--settings", str(settings))
    after_first = settings.read_text()
    second = run_taak(cli_env, "hooks", "install", "--settings", str(settings))
    assert first.code == second.code == 0
    assert "nothing changed" in second.out
    assert settings.read_text() == after_first
    data = json.loads(after_first)
    assert data["model"] == "opus"
    assert data["permissions"] == UNRELATED["permissions"]
    assert data["hooks"]["PreToolUse"] == UNRELATED["hooks"]["PreToolUse"]
    assert data["hooks"]["SessionStart"][0] == UNRELATED["hooks"]["SessionStart"][0]
    ours = [
        h["command"]
        for groups in data["hooks"].values()
        for g in groups
        for h in g["hooks"]
        if " hook " in h["command"]
    ]
    assert sorted(c.rsplit(" ", 1)[1] for c in ours) == ["post-compact", "pre-compact", "prompt", "session-start"]
    backups = list(tmp_path.glob("settings.json.bak-*"))
    assert len(backups) == 1
    assert json.loads(backups[0].read_text()) == UNRELATED


def test_a_hook_added_after_ours_leaves_them_installed(cli_env: dict[str, str], tmp_path: Path) -> None:
    """Doctor said `not (all) installed -> taak hooks install` when the owner had added a hook after ours, and
    that install moved ours behind it (tester M)."""
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps(UNRELATED, indent=2))
    env = {**cli_env, "TAAK_CLAUDE_SETTINGS": str(settings)}
    assert run_taak(env, "hooks", "install").code == 0
    data = json.loads(settings.read_text())
    data["hooks"]["PreCompact"].append({"hooks": [{"type": "command", "command": "echo na de onze"}]})
    settings.write_text(json.dumps(data, indent=2))
    before = settings.read_text()
    again = run_taak(env, "hooks", "install")
    assert (again.code, "nothing changed" in again.out) == (0, True)
    assert settings.read_text() == before
    (line,) = [line for line in run_taak(env, "doctor").out.splitlines() if line.split()[1:2] == ["hooks:"]]
    assert line.startswith("ok ")


def test_install_dry_run_writes_nothing(cli_env: dict[str, str], tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps(UNRELATED))
    result = run_taak(cli_env, "hooks", "install", "--settings", str(settings), "--dry-run")
    assert result.code == 0
    assert "pre-compact" in json.loads(result.out)["hooks"]["PreCompact"][0]["hooks"][0]["command"]
    assert json.loads(settings.read_text()) == UNRELATED


def test_install_refuses_a_broken_settings_file(cli_env: dict[str, str], tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text("{ niet: json")
    result = run_taak(cli_env, "hooks", "install", "--settings", str(settings))
    assert result.code == 2
    assert settings.read_text() == "{ niet: json"


@pytest.mark.parametrize(
    "text", ['{"hooks": {"SessionStart": "x"}}', '{"hooks": []}', '{"hooks": {"Stop": [{"hooks": [1]}]}}']
)
def test_a_settings_file_of_the_wrong_shape_is_one_line_for_every_verb_that_reads_it(
    cli_env: dict[str, str], tmp_path: Path, text: str
) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text(text)
    for verb in (["hooks", "install"], ["hooks", "check"]):
        result = run_taak(cli_env, *verb, "--settings", str(settings))
        assert result.code == 2, result.err
        assert len(result.err.strip().splitlines()) == 1
        assert "internal error" not in result.err
    assert settings.read_text() == text


def test_check_finds_a_hook_whose_script_is_gone_and_fix_removes_only_it(
    cli_env: dict[str, str], tmp_path: Path
) -> None:
    alive = tmp_path / "alive.sh"
    alive.write_text("#!/bin/sh\n")
    data = {
        "hooks": {
            "PostToolUse": [
                {
                    "matcher": "Read",
                    "hooks": [
                        {"type": "command", "command": f"bash {tmp_path}/scripts/resize-large-images.sh"},
                        {"type": "command", "command": f"{alive}"},
                        # Guarded: it says itself what to do when its script is gone, so it is not dead.
                        {"type": "command", "command": f"test -f {tmp_path}/gone.sh && {tmp_path}/gone.sh"},
                        {"type": "command", "command": f"[ -x {tmp_path}/gone.sh ] && {tmp_path}/gone.sh"},
                    ],
                }
            ]
        }
    }
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps(data))
    listed = run_taak(cli_env, "hooks", "check", "--settings", str(settings))
    assert listed.code == 1  # something to mend, said by the exit code too
    assert "resize-large-images.sh" in listed.out
    assert str(alive) not in listed.out
    assert "gone.sh" not in listed.out
    fixed = run_taak(cli_env, "hooks", "check", "--settings", str(settings), "--fix")
    assert "removed 1" in fixed.out
    left = json.loads(settings.read_text())["hooks"]["PostToolUse"][0]["hooks"]
    assert left == [{"type": "command", "command": str(alive)}, *data["hooks"]["PostToolUse"][0]["hooks"][2:]]
    assert list(tmp_path.glob("settings.json.bak-*"))


def test_claude_md_adds_the_section_once_and_refreshes_it_in_place(cli_env: dict[str, str], tmp_path: Path) -> None:
    claude_md = tmp_path / "CLAUDE.md"
    claude_md.write_text("# Mijn regels\nAltijd git gebruiken.\n")
    assert run_taak(cli_env, "claude-md", str(claude_md), "--write").code == 0
    once = claude_md.read_text()
    assert once.startswith("# Mijn regels\nAltijd git gebruiken.\n")
    assert "# Compact instructions" in once
    assert "word for word" in once  # the run's language (cli_env speaks English), as the hooks' own instruction
    claude_md.write_text(once.replace("word for word", "OUD"))
    run_taak(cli_env, "claude-md", str(claude_md), "--write")
    assert claude_md.read_text() == once
    assert "up to date" in run_taak(cli_env, "claude-md", str(claude_md), "--write").out
    assert run_taak({**cli_env, "TAAK_LANGUAGE": "nl"}, "claude-md", str(claude_md), "--write").code == 0
    dutch = claude_md.read_text()  # the section refreshed in place, in the other language, once
    assert dutch.count("# Compact instructions") == 1
    assert "woord voor woord" in dutch
    assert "word for word" not in dutch


def test_geheugen_check_reports_size_share_and_unindexed_files(cli_env: dict[str, str], tmp_path: Path) -> None:
    memory = tmp_path / "memory"
    memory.mkdir()
    (memory / "MEMORY.md").write_text("# Index\n- [veranda](veranda.md): de machine op de veranda\n")
    (memory / "veranda.md").write_text("McMini Veranda = keukenhof-veranda = 192.168.1.2\n")
    (memory / "vergeten.md").write_text("staat nergens\n")
    result = run_taak(cli_env, "geheugen", "check", str(memory), "--json")
    report = json.loads(result.out)
    assert report["files"] == 2
    assert report["unindexed"] == ["vergeten.md"]
    assert report["index_bytes"] == len((memory / "MEMORY.md").read_bytes())
    assert report["share"] == 1.0


@pytest.mark.parametrize(
    ("language", "said"),
    [("nl", "de invoer van de hook is geen JSON-object"), ("en", "the hook input is not a JSON object")],
)
def test_a_hook_given_no_json_says_so_in_one_line_and_lets_the_session_go_on(
    cli_env: dict[str, str], language: str, said: str
) -> None:
    env = {**cli_env, "TAAK_LANGUAGE": language}
    for payload in (b"garbage", b"[1]"):
        done = run_taak(env, "hook", "pre-compact", stdin=payload)
        assert done.code == 0  # a hook never breaks a session
        assert done.err.strip() == f"taak hook pre-compact: {said}"


HOSTILE = "Zet de \x1b]0;PWNED\x07titel\x1b[2J en\rwis\x08 niets\x9b"


@pytest.mark.parametrize(
    ("language", "keep", "other"),
    [("en", "Original instruction, verbatim:", "Bewaar"), ("nl", "Oorspronkelijke opdracht, letterlijk:", "verbatim")],
)
def test_pre_compact_steers_the_summariser_in_the_runs_language_with_the_opdracht_escaped(
    cli_env: dict[str, str], tmp_path: Path, language: str, keep: str, other: str
) -> None:
    env = {**cli_env, "TAAK_LANGUAGE": language}
    made = run_taak(env, "nieuw", HOSTILE, "--json")
    assert made.code == 0, made.err
    task_id = json.loads(made.out)["id"]
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(
        json.dumps({"type": "user", "message": {"role": "user", "content": "hallo"}, "uuid": "u1"}) + "\n",
        encoding="utf-8",
    )
    payload = json.dumps({"transcript_path": str(transcript), "trigger": "manual", "session_id": "s1"}).encode()
    for extra in ({"TAAK_ID": task_id}, {}):
        done = run_taak({**env, **extra}, "hook", "pre-compact", stdin=payload)
        assert done.code == 0, done.err
        assert other not in done.out
        assert not any(ch in done.out for ch in "\x1b\x07\r\x08\x9b")
        if extra:
            assert keep in done.out
            assert "\\x1b]0;PWNED\\x07titel\\x1b[2J" in done.out
            assert task_id in done.out


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("nl", "is geen geldig settings-bestand: geen JSON (regel 1, kolom 3)"),
        ("en", "is not a valid settings file: not JSON (line 1, column 3)"),
    ],
)
def test_why_a_settings_file_is_refused_is_said_in_the_runs_language(
    cli_env: dict[str, str], tmp_path: Path, language: str, said: str
) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text("{ niet: json")
    result = run_taak({**cli_env, "TAAK_LANGUAGE": language}, "hooks", "install", "--settings", str(settings))
    assert (result.code, result.err.strip()) == (2, f"taak: {settings} {said}")


@pytest.mark.parametrize("hook", ["session-start", "prompt", "pre-compact", "post-compact"])
def test_a_hook_whose_settings_cannot_be_read_says_why_in_one_line_and_lets_the_session_go_on(
    cli_env: dict[str, str], tmp_path: Path, hook: str
) -> None:
    """The same words `taak` refuses them with, in the run's language; never python-dotenv's English, never
    silence, and never a blocked prompt (exit 0)."""
    import json

    payload = json.dumps({"hook_event_name": "x", "session_id": "s", "cwd": str(tmp_path), "prompt": "hoi"}).encode()
    (tmp_path / ".env").write_text("TAAK_POLL_SECONDS=2\nTAAK_LANGUAGE='nl\n", encoding="utf-8")
    broken_line = run_taak({**cli_env, "TAAK_LANGUAGE": "nl"}, "hook", hook, stdin=payload, cwd=tmp_path)
    (tmp_path / ".env").unlink()
    a_file = tmp_path / "een-bestand"
    a_file.write_text("")
    # Its hooks.log goes to the default data folder then: the run's own on Linux (conftest), this test's on macOS.
    unusable = {**cli_env, "TAAK_DATA_DIR": str(a_file), "HOME": str(tmp_path / "thuis")}
    file_as_folder = run_taak(unusable, "hook", hook, stdin=payload, cwd=tmp_path)
    assert (broken_line.code, broken_line.out) == (0, "")
    assert broken_line.err == f"taak hook {hook}: ongeldige instelling: .env: regel 2 is geen NAAM=WAARDE" + (
        " (een aanhalingsteken dat niet sluit?)\n"
    )
    assert (file_as_folder.code, file_as_folder.out) == (0, "")
    assert file_as_folder.err.strip().endswith(f"TAAK_DATA_DIR: {a_file} is a file, not a folder")


def test_a_hooks_own_failures_are_said_in_the_runs_language_without_class_names(
    cli_env: dict[str, str], tmp_path: Path
) -> None:
    import json

    nl = {**cli_env, "TAAK_LANGUAGE": "nl"}
    a_file = tmp_path / "een-bestand"
    a_file.write_text("")
    summary = json.dumps({"compact_summary": "samenvatting", "session_id": "s"}).encode()
    unusable = {**nl, "TAAK_DATA_DIR": str(a_file / "onder"), "HOME": str(tmp_path / "thuis")}  # as above
    under_a_file = run_taak(unusable, "hook", "post-compact", stdin=summary)
    away = {**nl, "TAAK_ID": "HV-20261203-001", "TAAK_DATABASE_URL": "postgresql://bot@127.0.0.1:1/taak"}
    compacted = json.dumps({"source": "compact", "session_id": "s"}).encode()
    no_briefing = run_taak({**away, "TAAK_CONNECT_ATTEMPTS": "1"}, "hook", "session-start", stdin=compacted)
    prompt = json.dumps({"prompt": "ga verder", "session_id": "s"}).encode()
    no_database = run_taak({**away, "TAAK_CONNECT_ATTEMPTS": "1"}, "hook", "prompt", stdin=prompt)
    assert no_database.err == "taak hook prompt: database niet bereikbaar op 127.0.0.1:1 (verbinding geweigerd)\n"
    assert (under_a_file.code, no_briefing.code, no_database.code) == (0, 0, 0)
    assert under_a_file.err == (
        f"taak hook post-compact: ongeldige instelling: TAAK_DATA_DIR: {a_file}/onder ligt in {a_file}, "
        "en dat is een bestand, geen map\n"
    )
    assert no_briefing.err == (
        "taak hook session-start: database niet bereikbaar op 127.0.0.1:1 (verbinding geweigerd); "
        "en er is geen briefingbestand van de daemon\n"
    )
    from tests.fixtures import FIXTURES

    transcript = sorted(FIXTURES.glob("*.jsonl"))[0]
    before = json.dumps({"transcript_path": str(transcript), "trigger": "manual", "session_id": "s"}).encode()
    not_logged = run_taak(away, "hook", "pre-compact", stdin=before)  # the default attempts: one for a hook
    assert not_logged.code == 0
    assert not_logged.err == (
        "taak hook pre-compact: niet gelogd (database niet bereikbaar op 127.0.0.1:1 (verbinding geweigerd))\n"
    )
    missing = {**away, "TAAK_DATABASE_URL": with_database(cli_env["TAAK_DATABASE_URL"], "bestaat_niet")}
    for hook, stdin in (("prompt", prompt), ("pre-compact", before)):
        said = run_taak(missing, "hook", hook, stdin=stdin).err
        assert "(database bestaat_niet bestaat niet)" in said, said  # as `taak lijst` says it


def test_geheugen_check_of_a_file_says_it_is_a_file(cli_env: dict[str, str], tmp_path: Path) -> None:
    file = tmp_path / "MEMORY.md"
    file.write_text("# Index\n")
    result = run_taak({**cli_env, "TAAK_LANGUAGE": "nl"}, "geheugen", "check", str(file))
    assert result.code == 3
    assert result.err.strip() == f"taak: {file} is een bestand, geen map"


@pytest.mark.parametrize(
    "words",
    [["prompt", "--stand", "/x", "--nieuwe-optie"], ["bestaat-niet"], [], ["session-start", "--queue", "extra"]],
    ids=["unknown-option", "unknown-hook", "no-name", "word-too-many"],
)
def test_a_hook_called_with_words_no_hook_takes_says_so_and_lets_the_session_go_on(
    cli_env: dict[str, str], tmp_path: Path, words: list[str]
) -> None:
    """A settings.json of another version calls a hook with words this one does not take: exit 2 would block
    the owner's prompt (UserPromptSubmit) or the compaction. Said in one line, recorded in hooks.log, exit 0."""
    env = {**cli_env, "TAAK_LANGUAGE": "nl"}
    done = run_taak(env, "hook", *words, stdin=b"{}")
    assert done.code == 0
    (line,) = done.err.strip().splitlines()
    assert line.startswith("taak: ")
    assert line.endswith("(gebruik: taak hook NAAM [--queue] | taak hook prompt --stand BESTAND)")
    (record,) = [json.loads(r) for r in (tmp_path / "data" / "hooks.log").read_text().splitlines()]
    assert record["error"] == line


def test_a_hook_given_no_json_is_recorded_in_hooks_log(cli_env: dict[str, str], tmp_path: Path) -> None:
    done = run_taak({**cli_env, "TAAK_LANGUAGE": "en"}, "hook", "prompt", stdin=b"rommel")
    assert done.code == 0
    (record,) = [json.loads(r) for r in (tmp_path / "data" / "hooks.log").read_text().splitlines()]
    assert (record["hook"], record["error"]) == ("prompt", "taak hook prompt: the hook input is not a JSON object")


def test_geheugen_check_of_a_memory_index_that_is_a_folder_says_so(cli_env: dict[str, str], tmp_path: Path) -> None:
    memory = tmp_path / "geheugen"
    (memory / "MEMORY.md").mkdir(parents=True)
    result = run_taak({**cli_env, "TAAK_LANGUAGE": "nl"}, "geheugen", "check", str(memory))
    assert result.code == 1
    assert result.err.strip() == f"taak: bestand {memory / 'MEMORY.md'}: is een map"


def test_the_prompt_hook_shows_what_is_open_when_the_tasks_database_is_away(
    cli_env: dict[str, str], tmp_path: Path
) -> None:
    """What is open is a file of this machine: a task whose database is away does not take it from the turn."""
    owner = {**cli_env, "TAAK_LANGUAGE": "nl"}
    assert run_taak(owner, "lll", "Verbouwing veranda").code == 0
    away = {**owner, "TAAK_ID": "HV-20261203-001", "TAAK_DATABASE_URL": "postgresql://bot@127.0.0.1:1/taak"}
    done = run_taak(away, "hook", "prompt", stdin=b'{"prompt": "ga door"}')
    assert done.code == 0
    assert "- Verbouwing veranda (sinds" in json.loads(done.out)["hookSpecificOutput"]["additionalContext"]
    assert done.err == "taak hook prompt: database niet bereikbaar op 127.0.0.1:1 (verbinding geweigerd)\n"


def test_geheugen_check_with_every_file_indexed_announces_no_list(cli_env: dict[str, str], tmp_path: Path) -> None:
    memory = tmp_path / "memory"
    memory.mkdir()
    (memory / "MEMORY.md").write_text("# Index\n- [veranda](veranda.md): de machine op de veranda\n")
    (memory / "veranda.md").write_text("McMini Veranda\n")
    result = run_taak({**cli_env, "TAAK_LANGUAGE": "nl"}, "geheugen", "check", str(memory))
    assert result.code == 0
    assert result.out.splitlines()[-1] == "1 geheugenbestand, geen buiten de index"


def test_a_briefing_for_a_session_that_only_names_its_task_prints_only_what_works_without_the_lease(
    cli_env: dict[str, str], tmp_path: Path
) -> None:
    """With TAAK_ID set by hand (no claim, no TAAK_TOKEN) it printed `taak log ID stap_klaar`, `taak klaar` and
    `taak blokkeer`, and each was refused as typed (tester 62). The line it prints now runs as typed."""
    import shlex

    task_id = run_taak(cli_env, "nieuw", "Zet de foto's van de veranda online", "--van", "eigenaar").out.strip()
    compacted = json.dumps({"source": "compact", "session_id": "s"}).encode()
    named = run_taak({**cli_env, "TAAK_ID": task_id}, "hook", "session-start", stdin=compacted)
    context = json.loads(named.out)["hookSpecificOutput"]["additionalContext"]
    assert "stap_klaar" not in context
    assert f"taak klaar {task_id}" not in context
    (printed,) = [line for line in context.splitlines() if line.startswith(f"taak log {task_id} ")]
    typed = run_taak({**cli_env, "TAAK_ID": task_id}, *shlex.split(printed)[1:])
    assert typed.code == 0, typed.err
    claimed = dict(
        line.removeprefix("export ").split("=", 1)
        for line in shlex.split(run_taak(cli_env, "claim", "--bot", "paco", "--nieuwe-bot").out, comments=True)
        if "=" in line
    )
    held = run_taak({**cli_env, **claimed}, "hook", "session-start", stdin=compacted)
    assert f"taak log {task_id} stap_klaar" in json.loads(held.out)["hookSpecificOutput"]["additionalContext"]


def test_pre_compact_steers_the_summary_with_the_named_task_when_it_has_no_transcript_to_report(
    cli_env: dict[str, str], tmp_path: Path
) -> None:
    """With TAAK_ID set and no readable transcript it steered the summariser without the task: no ID, no opdracht
    (tester 62)."""
    opdracht = "Zet de foto's van de veranda online, 'alle' 12"
    task_id = run_taak(cli_env, "nieuw", opdracht, "--van", "eigenaar").out.strip()
    payloads: list[dict[str, str]] = [
        {"trigger": "auto"},
        {"transcript_path": str(tmp_path / "weg.jsonl"), "trigger": "auto"},
        {"transcript_path": "/tmp/\x00x", "trigger": "auto"},  # no name a file can have: it ended in a traceback
        {"transcript_path": "/tmp/\ud800x", "trigger": "auto"},
    ]
    for payload in payloads:
        ran = run_taak({**cli_env, "TAAK_ID": task_id}, "hook", "pre-compact", stdin=json.dumps(payload).encode())
        assert ran.code == 0
        assert task_id in ran.out, payload
        assert opdracht in ran.out, payload
        assert len(ran.err.strip().splitlines()) == 1  # what it could not report, said
