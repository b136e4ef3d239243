"""Reading Claude Code transcripts: the real fixture files, every shape they come in."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.fixtures import FIXTURES
from worker.core.transcript import conversation_line_count, parse_lines, render

ALL = sorted(FIXTURES.glob("*.jsonl"))
AGENTLOGS = ("agentlogs__compact.jsonl", "agentlogs__crud.jsonl", "agentlogs__subagent.jsonl")


def conversation_texts(path: Path) -> list[str]:
    """Every user and assistant text in a fixture, found the plain way, noise and meta left out."""
    texts = []
    for line in path.read_text().splitlines():
        record = json.loads(line)
        message = record.get("message")
        if record.get("type") not in ("user", "assistant") or not isinstance(message, dict):
            continue
        if record.get("isMeta") or record.get("isCompactSummary"):
            continue
        content = message.get("content")
        blocks = (
            [content]
            if isinstance(content, str)
            else [b["text"] for b in content if isinstance(b, dict) and b.get("type") == "text"]
        )
        texts += [t for t in blocks if t.strip() and not t.lstrip().startswith(("<command-", "<local-command"))]
    return texts


def test_the_fixtures_are_there_each_with_its_origin_and_licence() -> None:
    assert FIXTURES.is_relative_to(Path(__file__).resolve().parents[2])  # inside the repository
    assert [p.name for p in ALL] == [
        *AGENTLOGS,
        "generated-2.1.332__manual-compact__trimmed.jsonl",
        "old-shape__hand-written.jsonl",
    ]
    origins = (FIXTURES / "README.md").read_text()
    for path in ALL:
        assert f"| `{path.name}` |" in origins
    licence = (FIXTURES / "LICENSE-agentlogs").read_text()
    assert "Copyright (c) 2026 Philipp Spiess (hi@spiess.dev)" in licence
    assert "The above copyright notice and this permission notice shall be included" in licence
    assert all(name in licence for name in AGENTLOGS)


@pytest.mark.parametrize("path", ALL, ids=[p.name for p in ALL])
def test_every_user_and_assistant_text_reaches_the_report(path: Path) -> None:
    report = render(parse_lines(path.read_text().splitlines()))
    expected = conversation_texts(path)
    assert expected, "a fixture without conversation proves nothing"
    for text in expected:
        assert text in report


def test_the_compact_fixture_report_is_the_conversation_and_nothing_else() -> None:
    report = render(parse_lines((FIXTURES / "agentlogs__compact.jsonl").read_text().splitlines()))
    assert "user: how are you doing" in report
    assert "assistant: I'm doing well, thanks for asking!" in report
    assert "Caveat:" not in report
    assert "<command-name>" not in report
    assert "The user is asking" not in report  # thinking is left out
    assert "This session is being continued" not in report  # the compaction summary is meta


def test_tool_calls_show_their_first_input_and_results_are_left_out() -> None:
    path = FIXTURES / "agentlogs__crud.jsonl"
    report = render(parse_lines(path.read_text().splitlines()))
    assert "assistant -> Write: /Users/philipp/dev/vibeinsights/fixtures/claudecode/JOKE.md" in report
    results = [
        b
        for line in path.read_text().splitlines()
        for b in (json.loads(line).get("message") or {}).get("content") or []
        if isinstance(b, dict) and b.get("type") == "tool_result"
    ]
    assert results
    for block in results:
        body = block["content"] if isinstance(block["content"], str) else json.dumps(block["content"])
        if len(body) > 40:
            assert body[:40] not in report


def test_a_tool_call_reaches_the_report_whole_with_its_own_spacing_and_lines() -> None:
    """The report is verbatim: a 302-character command was cut at 200 with "…" and its spaces and line breaks
    run together."""
    command = "cd /srv/foto  &&  python3 - <<'EOF'\n" + "print('veranda')\n" * 15 + "EOF\n\tls -la"
    assert len(command) == 302
    line = json.dumps(
        {
            "type": "assistant",
            "uuid": "a",
            "timestamp": "2026-11-29T10:00:00Z",
            "message": {
                "id": "msg_1",
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "t", "name": "Bash", "input": {"command": command}}],
            },
        }
    )
    assert render(parse_lines([line])) == f"[2026-11-29 10:00] assistant -> Bash: {command}"


def test_lines_of_one_message_are_merged_by_message_id() -> None:
    def line(uuid: str, text: str) -> str:
        return json.dumps(
            {
                "type": "assistant",
                "uuid": uuid,
                "timestamp": "2026-11-29T10:00:00Z",
                "message": {"id": "msg_1", "role": "assistant", "content": [{"type": "text", "text": text}]},
            }
        )

    entries = parse_lines([line("a", "eerste deel"), line("b", "tweede deel")])
    assert [(e.role, e.text) for e in entries] == [("assistant", "eerste deel\n\ntweede deel")]


def test_a_top_level_role_is_not_where_the_role_lives() -> None:
    wrong = json.dumps({"type": "user", "role": "user", "content": "dit is geen gesprek"})
    assert parse_lines([wrong]) == []
    assert conversation_line_count([wrong]) == 0


def test_the_compaction_is_marked_as_meta() -> None:
    entries = parse_lines((FIXTURES / "generated-2.1.332__manual-compact__trimmed.jsonl").read_text().splitlines())
    meta = [e for e in entries if e.kind == "meta"]
    assert any(e.text == "compact_boundary" for e in meta)
    assert any(e.text.startswith("This session is being continued") for e in meta)


def test_the_old_shape_reads_with_list_content_and_its_summary_line_is_a_title() -> None:
    path = FIXTURES / "old-shape__hand-written.jsonl"
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert all(isinstance(r["message"]["content"], list) for r in records if "message" in r)
    assert records[-1]["type"] == "summary"
    report = render(parse_lines(path.read_text().splitlines()))
    assert "user: Which of the markdown files in this folder has the most lines?" in report
    assert "assistant -> Bash: wc -l *.md | sort -n" in report
    assert "412 garden-log.md" not in report  # the tool result stays out
    assert records[-1]["summary"] not in report  # a session title, not conversation
    assert len(parse_lines(path.read_text().splitlines())) == 6  # five texts and the tool call; no result
