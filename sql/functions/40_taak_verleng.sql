-- A held lease extended; nothing back when the token is not current (the daemon then stops the session).
create or replace function taak_verleng(taak text, token uuid, seconden double precision) returns timestamptz
language plpgsql security definer set search_path = public, pg_temp as $$
#variable_conflict use_column
declare
    tot timestamptz;
begin
    update agent_taken
    set bijgewerkt = now(), lease_tot = greatest(lease_tot, now() + make_interval(secs => $3))
    where id = $1 and status = 'bezig' and lease_token = $2
    returning lease_tot into tot;
    return tot;
end
$$;
