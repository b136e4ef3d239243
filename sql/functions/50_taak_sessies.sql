-- Every attempt (a `gestart` row) and whether its session logged at least one step. It reads the tables with the
-- querying user's rights (security_invoker), so row-level security applies to it too.
create or replace view taak_sessies with (security_invoker = true) as
select l.taak_id, l.bot, l.sessie, l.ts as gestart,
       exists (select 1 from agent_taak_log s
               where s.taak_id = l.taak_id and s.soort = 'stap_klaar' and s.id > l.id
                 and (s.sessie = l.sessie or (s.sessie is null and not exists (
                      select 1 from agent_taak_log n where n.taak_id = l.taak_id and n.soort = 'gestart'
                        and n.id > l.id and n.id < s.id)))) as logde_stap
from agent_taak_log l
where l.soort = 'gestart';
