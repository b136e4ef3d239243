-- A held task waits for the owner: the lease given up, the question logged, the attempt given back
-- (queries.sql `blokkeer` says why).
create or replace function taak_blokkeer(taak text, token uuid, vraag text, sessie text, meta jsonb)
returns table (id bigint, ts timestamptz)
language plpgsql security definer set search_path = public, pg_temp as $$
#variable_conflict use_column
begin
    return query
    with wacht as (
        update agent_taken t
        set bijgewerkt = now(),
            status = 'wacht_op_mens', lease_tot = null, lease_token = null, pogingen = greatest(t.pogingen - 1, 0)
        where t.id = $1 and t.status = 'bezig' and t.lease_token = $2
        returning t.id, t.geclaimd_door
    ), regel as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, sessie, meta)
        select wacht.id, split_part(wacht.geclaimd_door, '@', 1), 'vraag', $3, $4,
               $5 || jsonb_build_object('lease_token', $2::text)
        from wacht
        returning agent_taak_log.id, agent_taak_log.ts
    )
    select regel.id, regel.ts from regel;
end
$$;
