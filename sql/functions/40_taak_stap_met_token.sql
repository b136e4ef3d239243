-- A session sets the next step of its held task; the change is noted in the log and the lease extended.
create or replace function taak_stap_met_token(taak text, token uuid, stap text, seconden double precision, meta jsonb)
returns table (id bigint, ts timestamptz)
language plpgsql security definer set search_path = public, pg_temp as $$
#variable_conflict use_column
begin
    return query
    with gezet as (
        update agent_taken t
        set bijgewerkt = now(),
            volgende_stap = $3, lease_tot = greatest(t.lease_tot, now() + make_interval(secs => $4))
        where t.id = $1 and t.status = 'bezig' and t.lease_token = $2
        returning t.id, t.geclaimd_door
    ), regel as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, meta)
        select gezet.id, split_part(gezet.geclaimd_door, '@', 1), 'notitie', 'volgende stap: ' || $3,
               $5 || jsonb_build_object('zin', jsonb_build_object(
                   'sleutel', 'row_next_step', 'waarden', jsonb_build_object('step', $3)))
        from gezet
        returning agent_taak_log.id, agent_taak_log.ts
    )
    select regel.id, regel.ts from regel;
end
$$;
