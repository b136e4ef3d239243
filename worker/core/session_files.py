"""The files of one session under the data folder, named in one place (daemon, gate, hooks, archive), and the stand
file: where a queue session stands (status and next step).

While a session holds its lease nobody else can change its task's status or next step (the owner's cancel ends
the session), so the stand file, written by the daemon at the claim and after each change the session makes
through it, is exact. It lets the queue session's prompt hook, which runs on every turn, answer without a
database connection. Outside a queue session nothing holds the task still, and the hook asks the database."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

from worker.core.folders import loads, make_folder, read_small_text, write_private

BRIEFING = ".briefing.txt"
COMPACT_BRIEFING = ".briefing.compact.txt"


class SessionFiles(NamedTuple):  # no dataclass: the hooks load this module (worker/hooks/lines.HookResult)
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


STAND_FILE = "stand.json"


def stand_path(data_dir: Path, task_id: str) -> Path:
    return data_dir / "sessies" / task_id / STAND_FILE


def write_stand(
    data_dir: Path,
    task_id: str,
    *,
    status: str,
    volgende_stap: str | None,
    language: str = "nl",
    timezone: str = "Europe/Amsterdam",
) -> None:
    path = stand_path(data_dir, task_id)
    make_folder(path.parent)
    stand = {"id": task_id, "status": status, "volgende_stap": volgende_stap, "taal": language, "tijdzone": timezone}
    write_private(path, json.dumps(stand))


def read_stand(data_dir: Path, task_id: str) -> dict[str, Any] | None:
    try:
        data = loads(read_small_text(stand_path(data_dir, task_id)))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("status"), str) else None
