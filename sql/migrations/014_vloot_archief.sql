-- Fleet-wide recall (issue 15): each daemon can also copy its machine's new archive lines here, so the owner
-- on his laptop can ask what Paco said yesterday evening. Switched on per daemon (TAAK_VLOOT_ARCHIEF): the
-- owner's database may be a small hosted plan. The local day files stay each machine's source of truth; this
-- copy can be rebuilt from them and keeps TAAK_VLOOT_DAGEN days.
create table taak_archief (
    machine text not null,
    sleutel text not null,          -- a hash of the day-file line: a line copied twice is one row
    ts      timestamptz not null,
    actor   text,
    role    text,
    type    text,
    taak    text,
    sessie  text,
    tekst   text not null,
    termen  text not null,          -- the words as the local index sees them (CJK as bigrams)
    zoek    tsvector generated always as (to_tsvector('simple', termen)) stored,
    primary key (machine, sleutel)
);
-- Time first, as everywhere in recall; the words inside the range.
create index taak_archief_ts on taak_archief (ts);
create index taak_archief_zoek on taak_archief using gin (zoek);
alter table taak_archief enable row level security;
