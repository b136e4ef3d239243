"""The lossless archive: every conversation line kept raw, never summarised, in one JSONL file per day.

A record has the fields `ts` (ISO-8601 UTC), `actor`, `role` (user|assistant|system), `type`
(text|action|meta), `text` (verbatim), `model`, `session`, and `taak` when known. Imports are incremental
(a byte offset per source file, whole lines only) and idempotent (a transcript line's `uuid` is archived
once). Tool-result bodies stay in the raw transcripts: they are not conversation and would drown the index.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from worker.core.transcript import Entry, parse_lines


@dataclass(frozen=True)
class Record:
    ts: str
    actor: str
    role: str
    type: str
    text: str
    model: str | None
    session: str | None
    taak: str | None = None

    def line(self) -> str:
        values = {k: v for k, v in asdict(self).items() if not (k == "taak" and v is None)}
        return json.dumps(values, ensure_ascii=False)


def record_from_entry(entry: Entry, taak: str | None = None) -> Record | None:
    if entry.ts is None:
        return None
    actor = entry.model or "assistant" if entry.role == "assistant" else entry.role
    return Record(
        ts=_utc(entry.ts),
        actor=actor,
        role=entry.role,
        type=entry.kind,
        text=entry.text,
        model=entry.model,
        session=entry.session,
        taak=taak,
    )


def _utc(ts: str) -> str:
    moment = datetime.fromisoformat(ts.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Archive:
    """Day files under `folder`, with the import state (offsets and seen uuids) beside them."""

    def __init__(self, folder: Path, zone: ZoneInfo) -> None:
        self.folder = folder
        self.zone = zone
        folder.mkdir(parents=True, exist_ok=True)
        self._state = sqlite3.connect(folder / ".import.sqlite")
        self._state.executescript(
            "create table if not exists bronnen (pad text primary key, offset integer not null);"
            "create table if not exists gezien (sleutel text primary key);"
        )

    def close(self) -> None:
        self._state.close()

    def day_file(self, ts: str) -> Path:
        day = datetime.fromisoformat(ts.replace("Z", "+00:00")).astimezone(self.zone).date()
        return self.folder / f"{day:%Y}" / f"{day:%Y-%m-%d}.jsonl"

    def day_files(self) -> list[Path]:
        return sorted(self.folder.glob("*/*.jsonl"))

    def import_transcript(self, path: Path) -> int:
        """Append what is new in one Claude Code transcript; returns how many records were added."""
        offset = self._offset(path)
        with path.open("rb") as handle:
            handle.seek(offset)
            chunk = handle.read()
        complete = chunk[: chunk.rfind(b"\n") + 1]  # a line still being written is read next time
        if not complete:
            return 0
        lines = complete.decode("utf-8", errors="replace").splitlines()
        records = [(e, r) for e in parse_lines(lines) if (r := record_from_entry(e)) is not None]
        added = self._write((self._key(e, path), r) for e, r in records)
        self._state.execute(
            "insert into bronnen (pad, offset) values (?, ?) on conflict (pad) do update set offset = excluded.offset",
            (str(path), offset + len(complete)),
        )
        self._state.commit()
        return added

    def import_simple(self, path: Path, actor: str = "user") -> int:
        """A plain `{ts, role, text}` JSONL file."""
        records = []
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
            try:
                data = json.loads(line)
                role = data["role"] if data["role"] in ("user", "assistant", "system") else "user"
                record = Record(
                    _utc(data["ts"]),
                    data.get("actor") or (actor if role == "user" else role),
                    role,
                    "text",
                    data["text"],
                    data.get("model"),
                    data.get("session"),
                    data.get("taak"),
                )
            except (ValueError, KeyError, TypeError):
                continue
            records.append((f"{path}:{number}", record))
        return self._write(iter(records))

    def _write(self, keyed: Iterable[tuple[str, Record]]) -> int:
        added = 0
        handles: dict[Path, object] = {}
        try:
            for key, record in keyed:
                if self._state.execute("insert or ignore into gezien values (?)", (key,)).rowcount == 0:
                    continue
                target = self.day_file(record.ts)
                if target not in handles:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    handles[target] = target.open("a", encoding="utf-8")
                handles[target].write(record.line() + "\n")  # type: ignore[attr-defined]
                added += 1
        finally:
            for handle in handles.values():
                handle.close()  # type: ignore[attr-defined]
        self._state.commit()
        return added

    @staticmethod
    def _key(entry: Entry, path: Path) -> str:
        return f"{entry.uuid}:{entry.kind}:{entry.text[:40]}" if entry.uuid else f"{path}:{entry.line}:{entry.kind}"

    def _offset(self, path: Path) -> int:
        row = self._state.execute("select offset from bronnen where pad = ?", (str(path),)).fetchone()
        size = path.stat().st_size
        offset = int(row[0]) if row else 0
        return offset if offset <= size else 0  # a file that shrank was rewritten: read it again


def default_sources() -> list[Path]:
    """Every Claude Code transcript of this user, queue sessions included."""
    return sorted((Path.home() / ".claude" / "projects").glob("**/*.jsonl"))


def bring_up_to_date(data_dir: Path, zone: ZoneInfo, sources: list[Path] | None = None) -> tuple[int, int]:
    """Import new transcript lines and index them: (records archived, lines indexed). Blocking file work."""
    from worker.memory.index import Index

    archive = Archive(data_dir / "archief", zone)
    try:
        added = sum(archive.import_transcript(path) for path in (sources if sources is not None else default_sources()))
        index = Index(data_dir / "archief-index.sqlite")
        try:
            indexed = index.update(archive.day_files())
        finally:
            index.close()
    finally:
        archive.close()
    return added, indexed
