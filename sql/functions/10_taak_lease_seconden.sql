-- The lease a session's log row extends (taak_sessie_log): the setting `lease_seconden`, else 20 minutes.
create or replace function taak_lease_seconden() returns integer
language sql stable as $$
    select coalesce((select waarde::integer from taak_instellingen where sleutel = 'lease_seconden'), 1200)
$$;
