"""`taak recall`: the time phrase first, then the words ranked inside that range, verbatim lines in time
order, under a header that says honestly what was searched and which fallback was used. Capped."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from enum import Enum
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from worker.core.catalogue import area_words
from worker.core.phrases import Phrase, phrase
from worker.core.terminal import hanging
from worker.core.timephrase import STOP_WORDS, TimeRange, parse_time, search_words
from worker.memory.index import ALL_TIME, ID_PER_MS, Index, terms
from worker.memory.layout import iso_utc

if TYPE_CHECKING:
    from worker.memory.semantic import Vectors

MIN_WORD_HITS = 3
SEMANTIC_LINES = 10  # neighbours in meaning are a last resort: a few, after the exact hits
MAX_CHARS = 8000
# Counting stops here beyond what is shown: on a million lines an exact count of every match costs more than
# the answer itself (issue 15: 1.1 s p50 unscoped), and "more than 1,000" says all a reader needs.
COUNT_BOUND = 1000

NOT_INSTALLED = phrase("recall_not_installed")
SWITCHED_OFF = phrase("recall_switched_off")

_COLUMNS = "r.ts, r.actor, r.role, r.type, r.text, r.session, r.taak"


class Extra(Enum):
    """What recall adds when the exact search found too few lines."""

    NOTHING = "nothing"
    RANGE_IN_ORDER = "range"
    SEMANTIC = "semantic"


@dataclass(frozen=True)
class Step:
    fallback: Phrase
    extra: Extra
    semantic_missed: bool = False


def fallback_step(
    *, has_range: bool, range_empty: bool, has_words: bool, hits: int, spoken_in_range: int, limit: int, semantic: bool
) -> Step:
    """The fallback policy, one place: exact hits first; a range small enough is shown whole; otherwise
    neighbours in meaning when the semantic extra is here, and the header says so when it is not."""
    if has_range and not range_empty and not has_words:
        return Step(phrase("recall_no_words_range"), Extra.RANGE_IN_ORDER)
    if not has_words or hits >= MIN_WORD_HITS:
        return Step(phrase("recall_empty_range_words" if range_empty else "recall_none"), Extra.NOTHING)
    if range_empty:
        if semantic:
            return Step(phrase("recall_empty_range_meaning"), Extra.SEMANTIC)
        return Step(phrase("recall_empty_range_words"), Extra.NOTHING, semantic_missed=True)
    return _too_few(has_range=has_range, fits=spoken_in_range <= limit, semantic=semantic)


def _too_few(*, has_range: bool, fits: bool, semantic: bool) -> Step:
    """Too few exact hits: a range that fits is shown whole, else neighbours in meaning, else (said) without."""
    if has_range and fits:
        return Step(phrase("recall_few_whole_range"), Extra.RANGE_IN_ORDER)
    if semantic:
        return Step(phrase("recall_few_meaning_range" if has_range else "recall_few_meaning_all"), Extra.SEMANTIC)
    if has_range:
        return Step(phrase("recall_few_whole_range"), Extra.RANGE_IN_ORDER, semantic_missed=True)
    return Step(phrase("recall_few"), Extra.NOTHING, semantic_missed=True)


@dataclass(frozen=True)
class Hit:
    id: int
    ts: int
    actor: str
    role: str
    type: str
    text: str
    session: str | None
    taak: str | None
    by_meaning: bool = False
    matched: bool = False  # one of the query's words is in it: shown first, marked
    machine: str | None = None  # the machine it was said on, for a line of the fleet's copy
    # Which lines an output that must be cut keeps, lower first: the search's own order (the newest, or the best
    # ranked), matching lines before the rest of a range and before lines near in meaning. Shown in time order.
    rank: int = 0


def ranked(hits: list[Hit], after: int = 0) -> list[Hit]:
    """The hits, in the order the search found them, numbered as the output keeps them (see Hit.rank)."""
    return [replace(hit, rank=after + n) for n, hit in enumerate(hits)]


@dataclass
class Recall:
    now: datetime
    range: TimeRange | None
    fallback: Phrase
    hits: list[Hit]
    in_range: int
    cut: int = 0
    notes: list[Phrase] = field(default_factory=list)
    per_word: dict[str, int] = field(default_factory=dict)  # lines each searched word matched (in the range)
    bound: int = 0  # counts stop here: a count that reached it means "more than"
    # Where per_word counted: inside the range, or (None) inside it unless the range held nothing, when the
    # archive searches all time instead. The task log always counts inside the range.
    words_in_range: bool | None = None


@dataclass(frozen=True)
class _Scope:
    """Where one recall searches, how many lines it shows and where counting stops."""

    index: Index
    bounds: tuple[int, int]
    taak: str | None
    actor: str | None
    limit: int
    bound: int

    @property
    def where(self) -> tuple[str, tuple[object, ...]]:
        return _filters(self.bounds, self.taak, self.actor)

    @property
    def spoken(self) -> tuple[str, tuple[object, ...]]:
        """What was said: no meta lines, no tool results."""
        filters, values = self.where
        return f"{filters} and r.type not in ('meta', 'tool_result')", values

    def count(self, filters: str, values: tuple[object, ...]) -> int:
        """Lines in the scope, counted up to `bound` at most."""
        query = f"select count(*) from (select 1 from regels r where {filters} limit ?)"
        return int(self.index.db.execute(query, (*values, self.bound)).fetchone()[0])


def recall(
    index: Index,
    query: str,
    now: datetime,
    zone: ZoneInfo,
    *,
    limit: int = 40,
    taak: str | None = None,
    actor: str | None = None,
    vectors: Vectors | None = None,
    why_no_vectors: Phrase = NOT_INSTALLED,
    language: str = "nl",
    outputs: bool = False,
) -> Recall:
    parsed = parse_time(query, now, zone, language)
    words = query_terms(parsed.words)
    scope, in_range = _scoped(_Scope(index, ALL_TIME, taak, actor, limit, limit + COUNT_BOUND), parsed.range)
    range_empty = parsed.range is not None and in_range == 0
    # Inside a range the words are ranked (bm25); over all time the newest lines come first, so that the search
    # can stop as soon as it has enough instead of ranking every match in the archive.
    bounded = parsed.range is not None and not range_empty
    tables = ("zoek", "uitvoer") if outputs else ("zoek",)  # tool results, indexed apart, only when asked
    found, candidates = _exact(scope, words, bounded, tables)
    per_word = _per_word(scope, words, tables)
    # Counted once, and only where it is used: a range with too few hits (or no words), which the policy
    # weighs and which, shown in time order, is what the cut is counted against.
    spoken_in_range = scope.count(*scope.spoken) if bounded and candidates < MIN_WORD_HITS else 0
    step = fallback_step(
        has_range=parsed.range is not None,
        range_empty=range_empty,
        has_words=bool(words),
        hits=candidates,  # every line that matched, not only the ones --limit lets through
        spoken_in_range=spoken_in_range,
        limit=limit,
        semantic=vectors is not None,
    )
    notes = [why_no_vectors] if step.semantic_missed else []
    query_words = " ".join(parsed.words)
    found, candidates = _extended(
        step, scope, vectors, query_words, (found, candidates), notes, spoken_in_range if bounded else None
    )
    cut = max(0, candidates - len(found))
    return Recall(now, parsed.range, step.fallback, found, in_range, cut, notes, per_word, scope.bound)


def _scoped(scope: _Scope, time_range: TimeRange | None) -> tuple[_Scope, int]:
    """The scope of the time range, with the lines in it; all time when there is none or it holds nothing."""
    if time_range is None:
        return scope, scope.count(*scope.where)
    in_range = replace(scope, bounds=_ms_bounds(time_range))
    lines = in_range.count(*in_range.where)
    return (in_range if lines else scope), lines


def _ms_bounds(time_range: TimeRange) -> tuple[int, int]:
    """The range in milliseconds, within what the index's row ids can hold (1970 to 2262): `1/1/1500` ended recall
    with an overflow."""
    low, high = ALL_TIME

    def ms(moment: datetime) -> int:
        return min(max(int(moment.timestamp() * 1000), low), high)

    return ms(time_range.start), ms(time_range.end)


def _exact(scope: _Scope, words: list[str], by_rank: bool, tables: tuple[str, ...]) -> tuple[list[Hit], int]:
    """The lines that hold one of the words, marked as matched, and how many matched in all."""
    found: list[Hit] = []
    candidates = 0
    for table in tables if words else ():
        hits, count = _word_hits(scope, words, by_rank, table)
        found, candidates = (found + hits)[: scope.limit], candidates + count
    return [replace(h, matched=True) for h in ranked(found)], candidates


def _per_word(scope: _Scope, words: list[str], tables: tuple[str, ...]) -> dict[str, int]:
    """How many lines in the range each word matched (said in the header, and plainly when it is none)."""
    counts = {w: sum(_count_matching(scope, *_matching(scope, [w], t)) for t in tables) for w in dict.fromkeys(words)}
    return {word: min(scope.bound, n) for word, n in counts.items()}


def _extended(
    step: Step,
    scope: _Scope,
    vectors: Vectors | None,
    query: str,
    exact: tuple[list[Hit], int],
    notes: list[Phrase],
    spoken_in_range: int | None,
) -> tuple[list[Hit], int]:
    """The lines shown and how many there were: what the fallback step adds to the exact hits, each part in time
    order. `spoken_in_range`, when there is a range with lines in it: the range is shown in time order after the
    hits; also when the semantic extra fails (the header's notes say so, and how many lines the vectors have
    not reached)."""
    found, candidates = exact
    if step.extra is Extra.RANGE_IN_ORDER and spoken_in_range is not None:
        return _matched_then_range(scope, found), spoken_in_range
    if step.extra is not Extra.SEMANTIC or vectors is None:
        return sorted(found, key=lambda h: h.ts), candidates
    try:  # only the question is embedded: lines without a vector wait for the indexer, and the header says so
        near = _by_meaning(scope, vectors, query, min(SEMANTIC_LINES, scope.limit - len(found)), found)
        missing = vectors.missing(scope.bounds)
    except Exception as error:  # the optional extra must never cost the exact answer
        reason = " ".join(str(error).split())[:120] or type(error).__name__
        notes.append(phrase("recall_meaning_skipped", reason=f"{type(error).__name__}: {reason}"))
        if spoken_in_range is not None:
            found, candidates = _matched_then_range(scope, found), spoken_in_range
        return sorted(found, key=lambda h: h.ts), candidates
    notes.append(phrase("recall_by_meaning", near=len(near), found=len(found)))
    if missing:
        notes.append(phrase("recall_without_vector", missing=missing))
    near = ranked(near, after=len(found))
    return sorted(found, key=lambda h: h.ts) + sorted(near, key=lambda h: h.ts), candidates


def query_terms(words: list[str]) -> list[str]:
    """The terms searched for: the query's words without small words, also where they are glued to a word
    (`11月24日のboiler` searches boiler, not の)."""
    return [t for t in terms(" ".join(search_words(words))) if t not in STOP_WORDS]


def _matched_then_range(scope: _Scope, found: list[Hit]) -> list[Hit]:
    """What matched first, in time order, then the rest of the range in time order, `limit` in all (issue 15:
    the one matching line was line 40 of 40 when the whole range was sorted together)."""
    spoken, values = scope.spoken
    rows = scope.index.db.execute(
        f"select r.id, {_COLUMNS} from regels r where {spoken} order by r.id limit ?", (*values, scope.limit)
    ).fetchall()
    seen = {h.id for h in found}
    rest = ranked([h for h in map(_hit, rows) if h.id not in seen], after=len(found))
    return (sorted(found, key=lambda h: h.ts) + rest)[: scope.limit]


def _by_meaning(scope: _Scope, vectors: Vectors, query: str, wanted: int, exact: list[Hit]) -> list[Hit]:
    filtered = scope.taak is not None or scope.actor is not None
    # With a filter, ask for more: the neighbours of other tasks or actors are dropped afterwards.
    ids = vectors.nearest(query, scope.bounds, wanted * 8 if filtered else wanted, {h.id for h in exact})
    hits: list[Hit] = []
    for row_id in ids:
        row = scope.index.db.execute(f"select r.id, {_COLUMNS} from regels r where r.id = ?", (row_id,)).fetchone()
        if row is not None and _in_scope(hit := _hit(row), scope):
            hits.append(replace(hit, by_meaning=True))
        if len(hits) == wanted:
            break
    return hits


def _in_scope(hit: Hit, scope: _Scope) -> bool:
    """The line is of the task and the actor asked for, if any."""
    actor = scope.actor
    return (scope.taak is None or hit.taak == scope.taak) and (actor is None or hit.actor.lower() == actor.lower())


def _filters(
    bounds: tuple[int, int], taak: str | None = None, actor: str | None = None
) -> tuple[str, tuple[object, ...]]:
    # Row ids follow time (index.ID_PER_MS), so the range is a rowid range: the primary key, never a scan.
    clauses = ["r.id >= ?", "r.id < ?"]
    values: list[object] = [bounds[0] * ID_PER_MS, bounds[1] * ID_PER_MS]
    if taak is not None:
        clauses.append("r.taak = ?")
        values.append(taak)
    if actor is not None:  # `--bot paco` finds an actor archived as `PaCo` too: one spelling of a bot
        clauses.append("lower(r.actor) = ?")
        values.append(actor.lower())
    return " and ".join(clauses), tuple(values)


def actors(index: Index, limit: int = 12) -> list[str]:
    """The actors the archive knows (lower case, most lines first): asked only when a `--bot` found nothing,
    since it reads every line."""
    query = "select lower(actor) from regels where actor is not null group by 1 order by count(*) desc limit ?"
    return [row[0] for row in index.db.execute(query, (limit,))]


def has_actor(index: Index, actor: str) -> bool:
    return bool(index.db.execute("select exists (select 1 from regels where lower(actor) = ?)", (actor,)).fetchone()[0])


def has_task(index: Index, taak: str) -> bool:
    return bool(index.db.execute("select exists (select 1 from regels where taak = ?)", (taak,)).fetchone()[0])


def _word_hits(scope: _Scope, words: list[str], ranked: bool, table: str) -> tuple[list[Hit], int]:
    """The best `limit` lines for these words (by bm25, or the newest), and how many matched, up to `bound`.
    `table`: the word index of what was said (zoek), or of the tool results (uitvoer)."""
    joined, values = _matching(scope, words, table)
    if ranked and scope.taak is None and scope.actor is None:
        return _best_ranked(scope, values, table), _count_matching(scope, joined, values)
    order = f"bm25({table})" if ranked else f"{table}.rowid desc"
    rows = scope.index.db.execute(f"select r.id, {_COLUMNS} {joined} order by {order} limit ?", (*values, scope.limit))
    return [_hit(r) for r in rows.fetchall()], _count_matching(scope, joined, values)


def _best_ranked(scope: _Scope, values: tuple[object, ...], table: str) -> list[Hit]:
    """The best `limit` lines by bm25 when no filter needs the lines' columns: ranked in the word index alone,
    and only those lines read (joined first, every match in a week's range was read before it was ranked: a
    third of the search on a million lines). The same order, ties too: the matches reach the sort as before."""
    db = scope.index.db
    in_range = f"select rowid from {table} where {table} match ? and rowid >= ? and rowid < ?"
    best = [row[0] for row in db.execute(f"{in_range} order by bm25({table}) limit ?", (*values[:3], scope.limit))]
    marks = ", ".join("?" * len(best))
    rows = {row[0]: row for row in db.execute(f"select r.id, {_COLUMNS} from regels r where r.id in ({marks})", best)}
    return [_hit(rows[row_id]) for row_id in best if row_id in rows]


def _matching(scope: _Scope, words: list[str], table: str) -> tuple[str, tuple[object, ...]]:
    """The lines in the scope that hold one of the words, as a `from` clause and its values."""
    assert table in ("zoek", "uitvoer")
    match = " OR ".join('"' + w.replace('"', '""') + '"' for w in dict.fromkeys(words))
    filters, values = scope.where
    # The same range on the rowid lets FTS5 skip every document outside it while it matches.
    joined = (
        f"from {table} join regels r on r.id = {table}.rowid where {table} match ? "
        f"and {table}.rowid >= ? and {table}.rowid < ? and {filters}"
    )
    return joined, (match, *values[:2], *values)


def _count_matching(scope: _Scope, joined: str, values: tuple[object, ...]) -> int:
    counted = scope.index.db.execute(f"select count(*) from (select 1 {joined} limit ?)", (*values, scope.bound))
    return int(counted.fetchone()[0])


def _hit(row: tuple[object, ...]) -> Hit:
    return Hit(*row)  # type: ignore[arg-type]


def render(result: Recall, zone: ZoneInfo, *, max_chars: int = MAX_CHARS, language: str = "nl") -> str:
    page = _Page(result, zone, area_words("recall", "en" if language == "en" else "nl"), language)
    kept = _fitted(page, max_chars)
    body = [kept[place] for place in sorted(kept)]
    return "\n".join([page.header(len(body)), *body, *page.cut(len(result.hits) - len(kept), max_chars)])


# The header's count, by (one line, beside the range): lines from beyond the range (a fallback over all time)
# are not "of" the range.
_SHOWN = {
    (False, False): "shown",
    (True, False): "shown_one",
    (False, True): "shown_beside",
    (True, True): "shown_one_beside",
}


@dataclass(frozen=True)
class _Page:
    """One recall as text: the header, each line, the line that says what was cut."""

    result: Recall
    zone: ZoneInfo
    words: dict[str, str]
    language: str

    def counted(self, n: int) -> str:
        bound = self.result.bound
        return f"{self.words['more']} {bound - 1}" if bound and n >= bound else str(n)

    def header(self, shown: int) -> str:
        result, words, zone = self.result, self.words, self.zone
        template = _SHOWN[shown == 1, shown > result.in_range]  # `2 shown of 0` read wrong
        return (
            f"# {words['now']} {result.now.astimezone(zone):%Y-%m-%d %H:%M} ({zone.key}); {words['range']}: "
            f"{self.span}; {words[template].format(shown=shown, n=self.counted(result.in_range))}; "
            f"{words['fallback']}: {result.fallback.said(self.language)}"
            + "".join(f"; {note.said(self.language)}" for note in result.notes)
            + (f"; {words['words']}: {self.word_counts}" if result.per_word else "")
        )

    @property
    def span(self) -> str:
        if self.result.range is None:
            return self.words["all"]
        start, end = (moment.astimezone(self.zone) for moment in (self.result.range.start, self.result.range.end))
        return f"{start:%Y-%m-%d %H:%M} {self.words['to']} {end:%Y-%m-%d %H:%M}"

    @property
    def word_counts(self) -> str:
        """`budget 3, olifant 0 (nergens gevonden)`: a word that matched nothing is said plainly; inside a time
        range, `(niet in het bereik)`, because it may well be on another day."""
        result = self.result
        ranged = result.range is not None and result.in_range > 0
        in_range = ranged if result.words_in_range is None else result.words_in_range
        nothing = f" ({self.words['none_in_range' if in_range else 'nowhere']})"
        return ", ".join(
            f"{word} {self.counted(n)}" + (nothing if n == 0 else "") for word, n in result.per_word.items()
        )

    def entry(self, hit: Hit, mixed: bool) -> tuple[str, str]:
        """The line's prefix (time, mark, actor) and its text. Marks are needed only where matching lines stand
        beside others: "»" a word matched, "~" near in meaning."""
        when = datetime.fromtimestamp(hit.ts / 1000, UTC).astimezone(self.zone)
        mark = "» " if hit.matched and mixed else "~ " if hit.by_meaning else ""
        actor = f"{hit.actor} ({self.words['output']})" if hit.type == "tool_result" else hit.actor
        return f"[{when:%Y-%m-%d %H:%M}] {mark}{actor}: ", hit.text

    def cut(self, cut_chars: int, max_chars: int) -> list[str]:
        """The last line, when lines were left out: by the limit or the count's bound, or for want of room."""
        result = self.result
        left_out = result.cut + cut_chars
        if not left_out:
            return []
        # The count of matches stopped at the bound: what was left out is at least this many.
        bounded = bool(result.bound) and result.cut + len(result.hits) >= result.bound
        cut = f"{self.words['more']} {left_out}" if bounded else str(left_out)
        return [self.words["cut_one" if left_out == 1 and not bounded else "cut"].format(n=cut, chars=max_chars)]


def _fitted(page: _Page, max_chars: int) -> dict[int, str]:
    """The lines that fit, by their place in time order. They are taken in the search's order (the newest, or the
    best ranked, first) until the output is full, and then shown in time order: cutting the time order itself
    dropped the newest matches, and squeezed a short line from days later in after a gap. A line of 9,000
    characters was counted as shown and never printed, and one that filled the output would push every later
    line out: one longer than the room or than one entry may take is shortened when a useful part fits."""
    hits = page.result.hits
    kept: dict[int, str] = {}
    used = len(page.header(len(hits)))  # the header says how many are shown: never more digits than this
    mixed = any(not h.matched for h in hits) and any(h.matched for h in hits)
    for place in sorted(range(len(hits)), key=lambda n: hits[n].rank):
        prefix, text = page.entry(hits[place], mixed)
        room = min(max_chars - used - 1, ENTRY_MAX_CHARS)
        line = hanging(prefix, text)
        if len(line) > room:
            if room < SHORTENED_AT_LEAST:
                break
            line = shortened(prefix, text, room, page.words["shortened"])
        kept[place] = line
        used += len(line) + 1
    return kept


# A line is shortened to the room left only when at least this much of it can be shown; no entry takes more
# than a quarter of the output, so one long tool output leaves room for the lines around it.
SHORTENED_AT_LEAST = 200
ENTRY_MAX_CHARS = MAX_CHARS // 4


def shortened(prefix: str, text: str, room: int, said: str) -> str:
    """The entry cut to at most `room` characters, ending in a mark that says how much was left out and where
    the whole line is. The longest beginning of the text that fits, found by halving (the entry grows with
    every character kept: a kept line break adds its indentation too)."""

    def entry(keep: int) -> str:
        return hanging(prefix, text[:keep]) + " " + said.format(n=len(text) - keep)

    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if len(entry(middle)) <= room:
            low = middle
        else:
            high = middle - 1
    return entry(low)


def as_json(result: Recall, zone: ZoneInfo, language: str = "nl") -> str:
    """The keys and the values of the domain (`bron`) keep their Dutch names; sentences for a reader are said in
    the run's language, as the header says them."""
    return json.dumps(
        {
            "nu": result.now.astimezone(zone).isoformat(),
            "van": result.range.start.isoformat() if result.range else None,
            "tot": result.range.end.isoformat() if result.range else None,
            "fallback": result.fallback.said(language),
            "notities": [note.said(language) for note in result.notes],
            "woorden": result.per_word,
            "regels": [
                {
                    "ts": iso_utc(h.ts),
                    **{name: getattr(h, name) for name in ("actor", "role", "type", "text", "session", "taak")},
                    "bron": "betekenis" if h.by_meaning else "woorden" if h.matched else "bereik",
                    **({"machine": h.machine} if h.machine is not None else {}),
                }
                for h in result.hits
            ],
        },
        ensure_ascii=False,
        indent=2,
    )
