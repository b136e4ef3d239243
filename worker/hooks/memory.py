"""CLAUDE.md's "Compact instructions" section, and the health of the memory folder."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from worker.core.catalogue import message
from worker.hooks.owner import MEMORY_BUDGET, index_line, memory_index

START = "<!-- taak:compact-instructions:start -->"
END = "<!-- taak:compact-instructions:end -->"


def with_compact_instructions(text: str, language: str = "nl") -> str:
    """The CLAUDE.md text with our section added at the end, or refreshed in place between the markers."""
    # In the run's language, as the pre-compact hook's own instruction is (worker/hooks/reports.py).
    said = message("hook.compact_instructions", "en" if language == "en" else "nl")
    section = f"{START}\n{said}\n{END}"
    pattern = re.compile(re.escape(START) + r".*?" + re.escape(END), re.DOTALL)
    if pattern.search(text):
        return pattern.sub(lambda _m: section, text, count=1)
    separator = "" if not text else ("\n" if text.endswith("\n") else "\n\n")
    return f"{text}{separator}{section}\n"


@dataclass(frozen=True)
class MemoryHealth:
    index: Path
    index_bytes: int
    injected_chars: int
    index_lines: int
    injected_lines: int
    files: int
    unindexed: list[str]

    @property
    def share(self) -> float:
        """The share of the index's headings and entries that reaches a session."""
        return self.injected_lines / self.index_lines if self.index_lines else 1.0


def memory_health(folder: Path) -> MemoryHealth:
    index = folder / "MEMORY.md"
    # One that is there but cannot be read (a folder, no rights) is said by the command, not counted as empty.
    text = index.read_text(encoding="utf-8", errors="replace") if index.exists() else ""
    injected = memory_index(text, str(index), MEMORY_BUDGET)
    index_lines = sum(1 for line in text.splitlines() if index_line(line))
    injected_lines = sum(1 for line in injected.splitlines() if not line.startswith("(nog "))
    files = sorted(p for p in folder.rglob("*.md") if p != index)
    unindexed = [str(p.relative_to(folder)) for p in files if not _mentioned(p, folder, text)]
    return MemoryHealth(
        index, len(text.encode("utf-8")), len(injected), index_lines, injected_lines, len(files), unindexed
    )


def _mentioned(path: Path, folder: Path, index_text: str) -> bool:
    relative = str(path.relative_to(folder))
    return relative in index_text or path.name in index_text or f"[[{path.stem}]]" in index_text


# A path someone wrote down: absolute, from the home folder, relative to the text's own folder (`./docs/x.md`,
# `../notes.md`), or a markdown link to a file beside the text.
_PATH = re.compile(r"(?<![\w.:/])(~/[^\s`'\"()<>\]\[,;]+|\.{1,2}/[^\s`'\"()<>\]\[,;]+|/(?:[\w.-]+/)+[\w.-]+)")
_LINK = re.compile(r"\]\(([^()\s]+?\.md)\)")


def dead_paths(text: str, base: Path, home: Path) -> list[str]:
    """The paths a CLAUDE.md or MEMORY.md names that do not exist (the seed's `~/.context/todos.md`): absolute
    and `~/` paths as written, `./` and `../` paths and markdown links to `.md` files relative to the file's own
    folder."""
    named = [m.rstrip(".") for m in _PATH.findall(text)] + [m for m in _LINK.findall(text) if "://" not in m]
    missing = []
    for name in dict.fromkeys(named):
        path = home / name[2:] if name.startswith("~/") else Path(name) if name.startswith("/") else base / name
        if not path.exists():
            missing.append(name)
    return missing
