"""Where taak keeps its files when no setting says otherwise; shared by the settings class and the owner's
light hooks (worker/hooks/place.py), so that both find the same folders."""

from __future__ import annotations

from pathlib import Path


def default_data_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("taak", appauthor=False))


def default_memory_dir() -> Path:
    return Path.home() / ".claude" / "memory"
