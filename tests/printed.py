"""Finding the commands the system prints for someone to type, and filling their placeholders.

A command is a `taak VERB ...` or `queue-worker ...` that stands in backticks, at the start of a line, or
after ": ", "? " or doctor's "-> " (`Klaar? taak klaar ...`, `switch a bot on with: taak bot aan paco`).
The shell blocks of the README and of every page in docs/ are read as scripts: the lines that run `taak` or
`queue-worker`, as typed.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path


def _verbs() -> str:
    """The verbs of the real `taak` parser: "taak" is also the Dutch word for task ("taak HV-... bestaat niet")."""
    from worker.cli.taak import build_parser

    choices = next(a.choices for a in build_parser()._actions if getattr(a, "choices", None))
    return "|".join(sorted(map(re.escape, choices), key=len, reverse=True))


COMMAND_START = rf"(?:taak\s+(?:{_verbs()})|queue-worker)(?=\s|$)"
IN_BACKTICKS = re.compile(rf"`({COMMAND_START}[^`]*)`")
ON_A_LINE = re.compile(rf"(?:^|(?<=[:?>] ))\s*({COMMAND_START}.*)$")
TASK_ID = re.compile(r"\bHV-\d{8}-(\d{3,})\b")
ANGLE_PLACEHOLDER = re.compile(r"<[^<>\n]+>")
SHELL_BLOCK = re.compile(r"^```(?:sh|bash|shell)\n(.*?)^```", re.MULTILINE | re.DOTALL)
COMMENT = re.compile(r"\s+#\s.*$")


def commands_in(text: str) -> list[str]:
    """Every command in a text, in order, each once."""
    found: list[str] = []
    for line in text.splitlines():
        spans = IN_BACKTICKS.findall(line)
        if not spans:
            match = ON_A_LINE.search(line.replace("`", ""))
            spans = [match.group(1)] if match else []
        found += [span.strip() for span in spans]
    return list(dict.fromkeys(found))


def fill(command: str, task_id: str) -> str:
    """Placeholders become values that work: any task ID the ID of a task in the right state, `<...>` a word."""
    command = TASK_ID.sub(task_id, command)
    return ANGLE_PLACEHOLDER.sub("ingevuld", command)


def documentation(repo: Path) -> dict[str, str]:
    """The README and every page of the docs site, by path: a shell block is a contract wherever it stands."""
    pages = [repo / "README.md", *sorted((repo / "docs").rglob("*.md"))]
    return {page.relative_to(repo).as_posix(): page.read_text(encoding="utf-8") for page in pages}


def shell_scripts(markdown: str) -> list[str]:
    """Each shell block of a page as a script of its `taak` and `queue-worker` lines, as typed.

    A line that sets TAAK_DATABASE_URL is the reader's own value (the test's database stands in), and
    steps before the first `taak`/`queue-worker` of a chained line (`python3 -m venv ... && queue-worker
    demo`) install what the test already has."""
    scripts = []
    for block in SHELL_BLOCK.findall(markdown):
        lines = []
        for line in re.sub(r"\s*\\\n\s*", " ", block).splitlines():
            line = COMMENT.sub("", line).strip()
            if not line or line.startswith("export TAAK_DATABASE_URL="):
                continue
            steps = [s.strip() for s in line.split(" && ")]
            runs = [i for i, step in enumerate(steps) if re.search(rf"(?:^|\$\()\s*{COMMAND_START}", step)]
            if runs:
                lines.append(" && ".join(steps[runs[0] :]))
        if lines:
            scripts.append("\n".join(lines))
    return scripts


def todays_ids(script: str, today: date) -> str:
    """The pages' example IDs, moved to today: on a fresh database the first task of today is -001."""
    return TASK_ID.sub(lambda m: f"HV-{today:%Y%m%d}-{m.group(1)}", script)
