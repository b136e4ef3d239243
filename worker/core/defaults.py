"""Where taak keeps its files when no setting says otherwise; shared by the settings class and the owner's
light hooks (worker/hooks/place.py), so that both find the same folders."""

from __future__ import annotations

from pathlib import Path


def default_data_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("taak", appauthor=False))


def default_memory_dir() -> Path:
    return Path.home() / ".claude" / "memory"


def file_in_the_way(folder: Path) -> Path | None:
    """The file that stands where the folder, or one of the folders it lies in, must be; None when there is none
    (the folders that do not exist yet are made when they are needed)."""
    for place in (folder, *folder.parents):
        if place.exists():
            return None if place.is_dir() else place
    return None
