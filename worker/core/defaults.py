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


def install_command(extra: str) -> str:
    """The command that adds an optional extra to this very installation, to be typed as shown: this interpreter's
    pip (a bare `pip` may be another environment's), and for a clone installed with `pip install -e .` the clone
    itself (the package's name is on no index the owner's machine may reach)."""
    import json
    import shlex
    import sys
    from importlib import metadata
    from urllib.parse import unquote, urlsplit

    pip = f"{shlex.quote(sys.executable)} -m pip install"
    try:
        origin = json.loads(metadata.distribution("taak-worker").read_text("direct_url.json") or "{}")
    except (metadata.PackageNotFoundError, ValueError):
        origin = {}
    url = origin.get("url", "") if isinstance(origin, dict) else ""
    if url.startswith("file://") and (origin.get("dir_info") or {}).get("editable"):
        return f"{pip} -e {shlex.quote(f'{unquote(urlsplit(url).path)}[{extra}]')}"
    return f"{pip} {shlex.quote(f'taak-worker[{extra}]')}"
