-- Per bot: the questions it marked urgent that went to the owner at once today (its limit is the daemon's setting).
-- One count for the router, the digest and `taak bot lijst`. With the querying user's rights (security_invoker).
create or replace view taak_dringend_vandaag with (security_invoker = true) as
select bot, count(*) as dringend
from taak_meldingen
where dringend and route = 'nu' and bot is not null and verstuurd >= taak_dag_begin()
group by bot;
