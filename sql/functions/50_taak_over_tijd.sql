-- Per bot: tasks past their due date (`uiterlijk`).
create or replace view taak_over_tijd with (security_invoker = true) as
select coalesce(toegewezen_aan, '-') as bot, count(*) as over_tijd, min(uiterlijk) as oudste_uiterlijk
from agent_taken
where uiterlijk < now() and status not in ('klaar', 'mislukt', 'geannuleerd')
group by coalesce(toegewezen_aan, '-');
