-- What is held now, and how long each lease has left.
create or replace view taak_bezig with (security_invoker = true) as
select id, titel, coalesce(toegewezen_aan, split_part(geclaimd_door, '@', 1)) as bot, geclaimd_door,
       pogingen, max_pogingen, lease_tot, greatest(0, extract(epoch from lease_tot - now()))::integer as lease_seconden
from agent_taken
where status = 'bezig';
