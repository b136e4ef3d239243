"""Where a queue session stands (status and next step), kept in a small file beside its session files.

While a session holds its lease nobody else can change its task's status or next step, so this file,
written by the daemon at the claim and by `taak` inside the session after each change, is exact. It
lets the prompt hook, which runs on every turn, answer without a database connection."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def stand_path(data_dir: Path, task_id: str) -> Path:
    return data_dir / "sessies" / task_id / "stand.json"


def write_stand(data_dir: Path, task_id: str, *, status: str, volgende_stap: str | None) -> None:
    path = stand_path(data_dir, task_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f"stand.{os.getpid()}.tmp")
    temporary.write_text(json.dumps({"status": status, "volgende_stap": volgende_stap}), encoding="utf-8")
    os.replace(temporary, path)


def read_stand(data_dir: Path, task_id: str) -> dict[str, Any] | None:
    try:
        data = json.loads(stand_path(data_dir, task_id).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("status"), str) else None
