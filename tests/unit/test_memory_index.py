"""The memory index at session start: every heading, then entries shared across sections, whole lines."""

from __future__ import annotations

from pathlib import Path

from worker.hooks.owner import memory_index


def index(sections: int, entries: int) -> str:
    lines = []
    for s in range(sections):
        lines.append(f"## Sectie {s}")
        lines += [
            f"- [notitie {s}.{e}](n-{s}-{e}.md): iets om te onthouden over onderwerp {s}, nummer {e}"
            for e in range(entries)
        ]
    return "\n".join(lines) + "\nGewone tekst die geen index is.\n"


def test_every_heading_reaches_the_session_when_the_first_section_alone_would_fill_the_budget() -> None:
    text = memory_index(index(10, 60), "/m/MEMORY.md", 6000)
    lines = text.splitlines()
    assert [line for line in lines if line.startswith("## ")] == [f"## Sectie {s}" for s in range(10)]
    assert len(text) <= 6000
    assert lines[-1].startswith("(nog ")
    assert "/m/MEMORY.md" in lines[-1]


def test_the_entries_are_shared_out_so_each_section_gets_its_first_lines() -> None:
    text = memory_index(index(10, 60), "/m/MEMORY.md", 6000)
    for s in range(10):
        assert f"- [notitie {s}.0]" in text
        assert f"- [notitie {s}.3]" in text


def test_lines_keep_their_order_within_a_section_and_the_count_left_out_is_true() -> None:
    source = index(3, 40)
    text = memory_index(source, "/m/MEMORY.md", 2500)
    lines = text.splitlines()
    indexed = [line for line in source.splitlines() if line.startswith(("#", "- "))]
    kept = lines[:-1]
    assert kept == [line for line in indexed if line in kept]  # a subsequence: whole lines, in order
    assert lines[-1].startswith(f"(nog {len(indexed) - len(kept)} regels")


def test_an_index_that_fits_is_given_whole_without_a_note() -> None:
    source = "# Geheugen\n- [a](a.md)\n- [b](b.md)\n"
    assert memory_index(source, "/m/MEMORY.md", 6000) == "# Geheugen\n- [a](a.md)\n- [b](b.md)"


def test_paths_a_claude_md_names_that_do_not_exist_are_found(tmp_path: Path) -> None:
    from worker.hooks.memory import dead_paths

    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    (home / "notes.md").write_text("x")
    (home / ".claude" / "veranda.md").write_text("x")
    text = (
        "Lees eerst ~/.context/todos.md en `~/notes.md`.\n"
        f"Logs staan in {tmp_path}/weg/log.txt; de config in {home}/notes.md.\n"
        "- [veranda](veranda.md) en [oud](oud.md), zie https://example.org/a/b.md\n"
    )
    assert dead_paths(text, home / ".claude", home) == ["~/.context/todos.md", f"{tmp_path}/weg/log.txt", "oud.md"]


def test_what_was_left_out_is_said_in_the_runs_language() -> None:
    source = index(10, 60)
    english = memory_index(source, "/m/MEMORY.md", 2500, "en").splitlines()[-1]
    dutch = memory_index(source, "/m/MEMORY.md", 2500, "nl").splitlines()[-1]
    assert english.endswith("more lines of the index left out; read them in /m/MEMORY.md)")
    assert dutch.endswith("regels van de index weggelaten; lees ze in /m/MEMORY.md)")


def test_a_path_relative_to_the_text_is_checked_from_the_texts_own_folder(tmp_path: Path) -> None:
    from worker.hooks.memory import dead_paths

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "er.md").write_text("x")
    text = "Lees ./docs/er.md en ./docs/weg.md, en ../ook-weg.md."
    assert dead_paths(text, tmp_path, tmp_path) == ["./docs/weg.md", "../ook-weg.md"]


def test_doctor_reads_every_instruction_file_claude_code_reads_in_a_folder_and_above_it(tmp_path: Path) -> None:
    from worker.cli.doctor import project_instructions

    home = tmp_path / "thuis"
    project = home / "code" / "veranda"
    names = [str(path.relative_to(home)) for path in project_instructions(project, home)]
    assert names[:3] == ["code/veranda/CLAUDE.md", "code/veranda/.claude/CLAUDE.md", "code/veranda/CLAUDE.local.md"]
    assert names[-3:] == ["CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"]
