"""How the contract test finds the commands in printed text (tests/printed.py)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from tests.printed import commands_in, documentation, fill, shell_scripts, todays_ids


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            'Log elke afgeronde stap met:\ntaak log HV-20260801-014 stap_klaar "..."',
            ['taak log HV-20260801-014 stap_klaar "..."'],
        ),
        ('Klaar? taak klaar HV-1 --bewijs "<link>" "wat je deed"', ['taak klaar HV-1 --bewijs "<link>" "wat je deed"']),
        ("switch a bot on with: taak bot aan paco", ["taak bot aan paco"]),
        ("fail  database: 3 pending  -> taak db migrate", ["taak db migrate"]),
        (
            'finish with `taak klaar X --bewijs "..."`, and ask with `taak blokkeer X "..."`.',
            ['taak klaar X --bewijs "..."', 'taak blokkeer X "..."'],
        ),
        ("taak HV-20261201-002 bestaat niet", []),
        ("{soort} is written by its own command, not by taak log", []),
        ("start the queue-worker: it writes the registry", []),
        ("twice: taak lll toon\ntaak lll toon", ["taak lll toon"]),
    ],
)
def test_commands_are_found_where_people_are_told_to_type_them(text: str, expected: list[str]) -> None:
    assert commands_in(text) == expected


def test_placeholders_are_filled_with_a_task_id_and_a_word() -> None:
    assert fill('taak klaar HV-20260801-014 --bewijs "<link, pad>"', "HV-20261201-007") == (
        'taak klaar HV-20261201-007 --bewijs "ingevuld"'
    )


def test_shell_blocks_become_scripts_of_their_commands_as_typed() -> None:
    readme = (
        "```sh\npython3 -m venv .venv && . .venv/bin/activate && queue-worker demo\n```\n"
        "```sh\nexport TAAK_DATABASE_URL='postgresql://...'   # yours\n"
        'taak nieuw "x" \\\n    --aan paco   # a comment\n'
        'eval "$(taak claim --bot paco)" && export TAAK_ID\nsystemctl --user start x\n```\n'
        "```sql\nselect 1;\n```\n"
    )
    assert shell_scripts(readme) == [
        "queue-worker demo",
        'taak nieuw "x" --aan paco\neval "$(taak claim --bot paco)" && export TAAK_ID',
    ]


def test_every_page_of_the_docs_is_read_beside_the_readme(tmp_path: Path) -> None:
    (tmp_path / "docs" / "deep").mkdir(parents=True)
    for name in ("README.md", "docs/taak.md", "docs/deep/fleet.md", "docs/notes.txt", "mkdocs.yml"):
        (tmp_path / name).write_text(f"```sh\ntaak lijst  # {name}\n```\n", encoding="utf-8")
    assert list(documentation(tmp_path)) == ["README.md", "docs/deep/fleet.md", "docs/taak.md"]


def test_the_readmes_example_ids_move_to_today() -> None:
    assert todays_ids("taak antwoord HV-20261129-001 ja", date(2026, 12, 1)) == "taak antwoord HV-20261201-001 ja"
