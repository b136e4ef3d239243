"""The exact index over the archive: SQLite FTS5, the time as an indexed column, every row pointing back
to its day file and line. It can be deleted and rebuilt from the files at any time.

Latin scripts are indexed as words; runs of CJK characters as overlapping bigrams within the run (never
across words, which made the reference implementation's English search noisy)."""

from __future__ import annotations

import hashlib
import re
import sqlite3
import unicodedata
from datetime import datetime
from pathlib import Path

from worker.core.errors import Refused
from worker.core.folders import loads, make_folder
from worker.core.phrases import phrase
from worker.core.transcript import jsonl_lines

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+")
# Letters and digits, with the marks that belong to them: an accent that has no composed form (q + U+0301), and
# the vowel signs of the Indic scripts and of Thai and Lao (whole blocks), were word breaks (हिन्दी searched as ह, न, द).
_WORD = re.compile(
    r"(?:[^\W_]|[\u0300-\u036f\u0483-\u0489\u0900-\u0dff\u0e00-\u0eff\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f])+"
)

SCHEMA = """
create table if not exists regels (
    id integer primary key, ts integer not null, bestand text not null, regel integer not null,
    actor text, role text, type text, session text, taak text, text text not null
);
create index if not exists regels_ts on regels (ts);
create index if not exists regels_bestand on regels (bestand);
-- What was said, as the semantic side (worker/memory/semantic.py) selects it: a question counts the lines of its
-- range without a vector from this index instead of reading every line's text (0.5 s over a million lines).
create index if not exists regels_gezegd on regels (id) where type = 'text' and length(trim(text)) >= 2;
create virtual table if not exists zoek using fts5 (terms, tokenize = 'unicode61 remove_diacritics 2');
-- Tool results are indexed apart: searched only when asked (`taak recall --uitvoer`), so a long command
-- output never crowds out what was said.
create virtual table if not exists uitvoer using fts5 (terms, tokenize = 'unicode61 remove_diacritics 2');
create table if not exists bestanden (
    bestand text primary key, regels integer not null, laatste text not null, grootte text not null
);
-- The fleet's copy (worker/memory/fleet.py): how far each day file was copied, and the files indexed again
-- since (edited), whose lines in the shared copy are to be replaced.
create table if not exists vloot (bestand text primary key, regel integer not null);
create table if not exists vloot_opnieuw (bestand text primary key);
"""
# 2: CJK characters are indexed alone as well as in pairs, so that a one-character word (鍵, 犬) is found.
# 3: words in their composed form (NFC), with their marks: an accent typed as a mark of its own (macOS) split
# `résumé` in two, and a vowel sign split a Hindi word.
# An index of an older version is indexed again, file by file, by its next update.
VERSION = 3


def terms(text: str, *, indexed: bool = False) -> list[str]:
    """Words for Latin scripts, bigrams inside each CJK run (a lone CJK character stays itself). `indexed`:
    the terms a line is indexed under, which also hold every CJK character alone, so that a question of one
    character finds it inside a longer run."""
    out: list[str] = []
    position = 0
    text = unicodedata.normalize("NFC", text)
    for run in _CJK.finditer(text):
        out += [w.lower() for w in _WORD.findall(text[position : run.start()])]
        chars = run.group(0)
        out += [chars] if len(chars) == 1 else [chars[i : i + 2] for i in range(len(chars) - 1)]
        if indexed and len(chars) > 1:
            out += list(chars)
        position = run.end()
    out += [w.lower() for w in _WORD.findall(text[position:])]
    return out


ID_PER_MS = 1_000_000  # room for a million lines per millisecond; ids stay below 2**63 until 2262
ALL_TIME = (0, (2**63 - 1) // ID_PER_MS)  # in milliseconds: the largest range whose row ids fit SQLite


_SQLITE_REASONS = {
    "file is not a database": "reason_not_sqlite",
    "database disk image is malformed": "reason_sqlite_damaged",
    "unable to open database file": "reason_sqlite_cannot_open",
}


class Index:
    def __init__(self, path: Path) -> None:
        make_folder(path.parent)
        try:
            self.db = sqlite3.connect(path)
            self.db.executescript(SCHEMA)
            self.version = int(self.db.execute("pragma user_version").fetchone()[0])
        except sqlite3.DatabaseError as exc:  # overwritten, damaged, or in a folder it cannot be written in
            text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            known = _SQLITE_REASONS.get(text)
            raise Refused("index_unusable", path=path, reason=phrase(known) if known else text) from None

    def close(self) -> None:
        self.db.close()

    def update(self, day_files: list[Path]) -> int:
        """Index what is new: an appended file from where it stopped, a rewritten one again, alone.
        A file whose size and modification time are as they were is not read at all."""
        added = 0
        if self.version < VERSION:
            self._outdated()
        for path in day_files:
            status = path.stat()
            stamp = f"{status.st_size}:{status.st_mtime_ns}"
            known = self.db.execute(
                "select regels, laatste, grootte from bestanden where bestand = ?", (str(path),)
            ).fetchone()
            if known is not None and known[2] == stamp:
                continue
            lines = jsonl_lines(path.read_text(encoding="utf-8"))
            start = 0
            if known is not None:
                # The hash covers every line indexed so far: an edit anywhere in them (even one that keeps the
                # line count) makes the file be indexed again, alone; an append is indexed from where it stopped.
                count, prefix_hash = int(known[0]), known[1]
                if count <= len(lines) and _hash_lines(lines[:count]) == prefix_hash:
                    start = count
                else:
                    self._forget(str(path))
            added += self._add(path, lines, start)
            if lines:
                self.db.execute(
                    "insert into bestanden values (?, ?, ?, ?) on conflict (bestand) do update "
                    "set regels = excluded.regels, laatste = excluded.laatste, grootte = excluded.grootte",
                    (str(path), len(lines), _hash_lines(lines), stamp),
                )
        if self.version < VERSION:
            self.db.execute(f"pragma user_version = {VERSION}")
            self.version = VERSION
        self.db.commit()
        return added

    def _outdated(self) -> None:
        """An index of an older version: every file is read again (its words as this version indexes them).
        The lines stay the same, so the fleet's cursors stay; the stamps go, so every file is indexed anew."""
        for (bestand,) in self.db.execute("select bestand from bestanden").fetchall():
            self._drop_lines(bestand)
        self.db.execute("delete from bestanden")

    def _add(self, path: Path, lines: list[str], start: int) -> int:
        added = 0
        for number, line in enumerate(lines[start:], start=start + 1):
            try:
                record = loads(line)
                ts = int(datetime.fromisoformat(str(record["ts"]).replace("Z", "+00:00")).timestamp() * 1000)
            except (ValueError, KeyError, TypeError):
                continue  # not a record: kept in the file, not indexed
            text = str(record.get("text", ""))
            row_id = self._free_id(ts)
            columns = [record.get(name) for name in ("actor", "role", "type", "session", "taak")]
            self.db.execute(
                "insert into regels (id, ts, bestand, regel, actor, role, type, session, taak, text) "
                "values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (row_id, ts, str(path), number, *columns, text),
            )
            kind = record.get("type")
            if kind != "meta":
                table = "uitvoer" if kind == "tool_result" else "zoek"
                self.db.execute(
                    f"insert into {table} (rowid, terms) values (?, ?)", (row_id, " ".join(terms(text, indexed=True)))
                )
            added += 1
        return added

    def _free_id(self, ts: int) -> int:
        """Row ids follow time (milliseconds x 1000 plus a counter), so that a time range is a rowid range
        that FTS5 itself restricts to, instead of matching words over all time and filtering afterwards."""
        base = ts * ID_PER_MS
        taken = self.db.execute("select max(id) from regels where id >= ? and id < ?", (base, base + ID_PER_MS))
        highest = taken.fetchone()[0]
        if highest is None:
            return base
        if highest + 1 >= base + ID_PER_MS:
            raise ValueError(f"more than {ID_PER_MS} archive lines in one millisecond")
        return int(highest) + 1

    def _drop_lines(self, bestand: str) -> None:
        for table in ("zoek", "uitvoer"):
            self.db.execute(f"delete from {table} where rowid in (select id from regels where bestand = ?)", (bestand,))
        self.db.execute("delete from regels where bestand = ?", (bestand,))

    def _forget(self, bestand: str) -> None:
        self._drop_lines(bestand)
        self.db.execute("delete from bestanden where bestand = ?", (bestand,))
        # Edited: the fleet's copy of this file is replaced by what is in it now.
        self.db.execute("delete from vloot where bestand = ?", (bestand,))
        self.db.execute("insert or ignore into vloot_opnieuw (bestand) values (?)", (bestand,))


def _hash_lines(lines: list[str]) -> str:
    digest = hashlib.sha256()
    for line in lines:
        digest.update(line.encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()
