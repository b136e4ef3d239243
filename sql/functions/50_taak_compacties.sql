-- Compactions measured from outside (the seed's `sessie-omvang` missed the automatic ones): one row per compaction
-- (its PreCompact report row, which records whether Claude Code compacted by itself or on /compact), counted per
-- session here and per bot in taak_overzicht.
-- Unlike the other views it reads the tables with its owner's rights (no security_invoker), as it always has.
create or replace view taak_compacties as
select l.taak_id, l.sessie, count(*) as compacties,
       count(*) filter (where l.meta ->> 'trigger' = 'auto') as automatisch,
       count(*) filter (where l.meta ->> 'trigger' = 'manual') as handmatig,
       min(l.ts) as eerste, max(l.ts) as laatste
from agent_taak_log l
where l.soort = 'compact' and l.meta ? 'rapport'
group by l.taak_id, l.sessie;
