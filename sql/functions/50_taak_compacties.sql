-- Compactions measured from outside (the seed's `sessie-omvang` missed the automatic ones): one row per compaction
-- (its report and summary rows, which record whether Claude Code compacted by itself or on /compact), counted per
-- session here, per bot in taak_overzicht and per task in the briefing: one count everywhere.
-- Unlike the other views it reads the tables with its owner's rights (no security_invoker), as it always has.
create or replace view taak_compacties as
select l.taak_id, l.sessie,
       -- Each compaction writes a report row before it (meta.rapport) and a summary row after it
       -- (meta.samenvatting); either may be missing (nothing new to report: /compact twice in a row), so the
       -- larger count is the number; a compact row that is neither (logged by hand) counts once.
       greatest(count(*) filter (where l.meta ? 'rapport'), count(*) filter (where l.meta ? 'samenvatting'))
           + count(*) filter (where not l.meta ?| array['rapport', 'samenvatting']) as compacties,
       greatest(count(*) filter (where l.meta ? 'rapport' and l.meta ->> 'trigger' = 'auto'),
                count(*) filter (where l.meta ? 'samenvatting' and l.meta ->> 'trigger' = 'auto')) as automatisch,
       greatest(count(*) filter (where l.meta ? 'rapport' and l.meta ->> 'trigger' = 'manual'),
                count(*) filter (where l.meta ? 'samenvatting' and l.meta ->> 'trigger' = 'manual')) as handmatig,
       min(l.ts) as eerste, max(l.ts) as laatste
from agent_taak_log l
where l.soort = 'compact'
group by l.taak_id, l.sessie;
