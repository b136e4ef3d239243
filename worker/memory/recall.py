"""`taak recall`: the time phrase first, then the words ranked inside that range, verbatim lines in time
order, under a header that says honestly what was searched and which fallback was used. Capped."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from worker.core.timephrase import TimeRange, parse_time
from worker.memory.index import ID_PER_MS, Index, terms

MIN_WORD_HITS = 3
# The semantic last resort is an optional extra that is not built yet; the header says so when it would be used.
SEMANTIC_NOTE = "semantisch zoeken: niet geïnstalleerd"
ALL_TIME = (0, (2**63 - 1) // ID_PER_MS)  # in milliseconds: the largest range whose row ids fit SQLite
MAX_CHARS = 8000

_COLUMNS = "r.ts, r.actor, r.role, r.type, r.text, r.session, r.taak"


@dataclass(frozen=True)
class Hit:
    ts: int
    actor: str
    role: str
    type: str
    text: str
    session: str | None
    taak: str | None


@dataclass
class Recall:
    now: datetime
    range: TimeRange | None
    fallback: str
    hits: list[Hit]
    in_range: int
    cut: int = 0
    notes: list[str] = field(default_factory=list)


def recall(
    index: Index,
    query: str,
    now: datetime,
    zone: ZoneInfo,
    *,
    limit: int = 40,
    taak: str | None = None,
    actor: str | None = None,
) -> Recall:
    parsed = parse_time(query, now, zone)
    words = terms(" ".join(parsed.words))
    bounds = (_ms(parsed.range.start), _ms(parsed.range.end)) if parsed.range else ALL_TIME
    filters, values = _filters(bounds, taak, actor)
    in_range = index.db.execute(f"select count(*) from regels r where {filters}", values).fetchone()[0]
    found: list[Hit] = []
    candidates = 0
    fallback = "geen"
    if words:
        found, candidates = _word_hits(index, words, filters, values, limit)
    if parsed.range is not None and in_range == 0:
        fallback = "niets in het bereik: woorden in alle tijd"
        all_filters, all_values = _filters(ALL_TIME, taak, actor)
        found, candidates = _word_hits(index, words, all_filters, all_values, limit) if words else ([], 0)
    elif parsed.range is not None and len(found) < MIN_WORD_HITS:
        fallback = "te weinig treffers: het hele bereik op tijd" if words else "geen woorden: het bereik op tijd"
        spoken = f"{filters} and r.type != 'meta'"
        rows = index.db.execute(
            f"select {_COLUMNS} from regels r where {spoken} order by r.ts limit ?", (*values, limit)
        ).fetchall()
        candidates = index.db.execute(f"select count(*) from regels r where {spoken}", values).fetchone()[0]
        seen = {(h.ts, h.text) for h in found}
        found = (found + [h for h in map(_hit, rows) if (h.ts, h.text) not in seen])[:limit]
    found.sort(key=lambda h: h.ts)
    return Recall(now, parsed.range, fallback, found, in_range, max(0, candidates - len(found)))


def _filters(
    bounds: tuple[int, int], taak: str | None = None, actor: str | None = None
) -> tuple[str, tuple[object, ...]]:
    # Row ids follow time (index.ID_PER_MS), so the range is a rowid range: the primary key, never a scan.
    clauses = ["r.id >= ?", "r.id < ?"]
    values: list[object] = [bounds[0] * ID_PER_MS, bounds[1] * ID_PER_MS]
    for column, value in (("r.taak", taak), ("r.actor", actor)):
        if value is not None:
            clauses.append(f"{column} = ?")
            values.append(value)
    return " and ".join(clauses), tuple(values)


def _word_hits(
    index: Index, words: list[str], filters: str, values: tuple[object, ...], limit: int
) -> tuple[list[Hit], int]:
    """The best `limit` lines for these words, and how many lines matched in all."""
    match = " OR ".join('"' + w.replace('"', '""') + '"' for w in dict.fromkeys(words))
    # The same range on zoek.rowid lets FTS5 skip every document outside it while it matches.
    joined = (
        f"from zoek join regels r on r.id = zoek.rowid where zoek match ? "
        f"and zoek.rowid >= ? and zoek.rowid < ? and {filters}"
    )
    rowids = values[:2]
    rows = index.db.execute(f"select {_COLUMNS} {joined} order by bm25(zoek) limit ?", (match, *rowids, *values, limit))
    total = index.db.execute(f"select count(*) {joined}", (match, *rowids, *values)).fetchone()[0]
    return [_hit(r) for r in rows.fetchall()], int(total)


def _hit(row: tuple[object, ...]) -> Hit:
    return Hit(*row)  # type: ignore[arg-type]


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def render(result: Recall, zone: ZoneInfo, *, max_chars: int = MAX_CHARS) -> str:
    def local(ms: int) -> str:
        return f"{datetime.fromtimestamp(ms / 1000, UTC).astimezone(zone):%Y-%m-%d %H:%M}"

    span = (
        f"{result.range.start.astimezone(zone):%Y-%m-%d %H:%M} tot {result.range.end.astimezone(zone):%Y-%m-%d %H:%M}"
        if result.range
        else "alle tijd"
    )
    header = [
        f"# nu {result.now.astimezone(zone):%Y-%m-%d %H:%M} ({zone.key}); bereik: {span}; "
        f"{len(result.hits)} regels getoond van {result.in_range} in het bereik; fallback: {result.fallback}"
        + ("" if result.fallback == "geen" else f"; {SEMANTIC_NOTE}")
    ]
    body: list[str] = []
    used = len(header[0])
    cut_chars = 0
    for hit in result.hits:
        line = f"[{local(hit.ts)}] {hit.actor}: {hit.text}"
        if used + len(line) + 1 > max_chars:
            cut_chars += 1
            continue
        body.append(line)
        used += len(line) + 1
    if result.cut or cut_chars:
        body.append(
            f"# afgekapt: {result.cut + cut_chars} regels niet getoond (--limit, of meer dan {max_chars} tekens)"
        )
    return "\n".join(header + body)


def as_json(result: Recall, zone: ZoneInfo) -> str:
    def iso(ms: int) -> str:
        return datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")

    return json.dumps(
        {
            "nu": result.now.astimezone(zone).isoformat(),
            "van": result.range.start.isoformat() if result.range else None,
            "tot": result.range.end.isoformat() if result.range else None,
            "fallback": result.fallback,
            "regels": [
                {
                    "ts": iso(h.ts),
                    "actor": h.actor,
                    "role": h.role,
                    "type": h.type,
                    "text": h.text,
                    "session": h.session,
                    "taak": h.taak,
                }
                for h in result.hits
            ],
        },
        ensure_ascii=False,
        indent=2,
    )
