-- A session gives its held task back with a reason: backoff, or mislukt when the attempts are used up.
create or replace function taak_vrijgeven(
    taak text, token uuid, reden text, niet_voor timestamptz, meta jsonb,
    basis double precision, maximum double precision, zin jsonb
) returns table (id bigint, ts timestamptz, mislukt boolean)
language plpgsql security definer set search_path = public, pg_temp as $$
#variable_conflict use_column
begin
    return query
    with terug as (
        update agent_taken t
        set bijgewerkt = now(),
            status = case when t.pogingen >= t.max_pogingen then 'mislukt' else 'wachtend' end,
            niet_voor = case when t.pogingen >= t.max_pogingen then null
                             else coalesce($4, now() + taak_backoff(t.pogingen, $6, $7)) end,
            afgerond = case when t.pogingen >= t.max_pogingen then now() end,
            lease_tot = null, lease_token = null
        where t.id = $1 and t.status = 'bezig' and t.lease_token = $2
        returning t.id, t.status, t.geclaimd_door
    ), regel as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, meta)
        select terug.id, split_part(terug.geclaimd_door, '@', 1), 'vrijgegeven',
               $3 || case when terug.status = 'mislukt' then ': mislukt (pogingen op)' else '' end,
               $5 || jsonb_build_object('lease_token', $2::text, 'status', terug.status, 'zin',
                   case when terug.status = 'mislukt'
                        then jsonb_build_object('sleutel', 'row_attempts_used_up', 'waarden', jsonb_build_object('reason', $8))
                        else $8 end)
        from terug
        returning agent_taak_log.id, agent_taak_log.ts, agent_taak_log.meta ->> 'status' = 'mislukt'
    )
    select * from regel;
end
$$;
