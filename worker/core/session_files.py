"""The files of one session under the data folder, named in one place (daemon, gate, hooks, archive)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

BRIEFING = ".briefing.txt"
COMPACT_BRIEFING = ".briefing.compact.txt"


@dataclass(frozen=True)
class SessionFiles:
    folder: Path  # sessies/<task id>
    stem: str  # <attempt>-<session id>

    @classmethod
    def of(cls, sessions: Path, task_id: str, attempt: int, session_id: str) -> SessionFiles:
        return cls(sessions / task_id, f"{attempt}-{session_id}")

    @classmethod
    def from_briefing(cls, briefing: Path) -> SessionFiles:
        return cls(briefing.parent, briefing.name.removesuffix(BRIEFING))

    @property
    def briefing(self) -> Path:
        return self.folder / f"{self.stem}{BRIEFING}"

    @property
    def compact_briefing(self) -> Path:
        return self.folder / f"{self.stem}{COMPACT_BRIEFING}"

    @property
    def task_card(self) -> Path:
        """The task's ID and verbatim opdracht as JSON: what the hooks steer by without asking anyone."""
        return self.folder / f"{self.stem}.taak.json"

    @property
    def capture(self) -> Path:
        """Every byte the session printed, unchanged."""
        return self.folder / f"{self.stem}.jsonl"

    @property
    def stderr(self) -> Path:
        return self.folder / f"{self.stem}.stderr"
