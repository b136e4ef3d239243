"""Where the archive and its indexes live in the data folder, and what `taak recall` opens of them: apart from
worker/memory/archive.py (writing the archive), whose imports a search does not need."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from worker.memory.semantic import Vectors


@dataclass(frozen=True)
class Layout:
    """Where the archive and its indexes live in the data folder."""

    data_dir: Path

    @property
    def archive(self) -> Path:
        return self.data_dir / "archief"

    @property
    def index(self) -> Path:
        return self.data_dir / "archief-index.sqlite"

    @property
    def vectors(self) -> Path:
        from worker.memory.semantic import VECTORS_FILE  # start-up: a recall with the extra off loads none of it

        return self.data_dir / VECTORS_FILE

    @property
    def sessions(self) -> Path:
        return self.data_dir / "sessies"


def open_vectors(layout: Layout, *, helper_idle_seconds: float | None = None) -> Vectors | None:
    """The semantic side when its optional extra is installed, else None. With `helper_idle_seconds` the model
    lives in a helper process that stays loaded that long after its last question (worker/memory/embedder.py:
    what the commands use); without, in this process."""
    from worker.memory import semantic  # start-up: as in Layout.vectors
    from worker.memory.embedder import RemoteEmbedder  # start-up: as above

    if not semantic.installed():
        return None
    if helper_idle_seconds is None:
        return semantic.Vectors(layout.vectors, layout.index)
    helper = RemoteEmbedder(layout.data_dir / "run" / "embed.sock", helper_idle_seconds)
    return semantic.Vectors(layout.vectors, layout.index, helper)


def iso_utc(ms: int) -> str:
    """Milliseconds since the epoch as the archive writes a time: ISO-8601 UTC with milliseconds and Z."""
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
