-- A held attempt that was not the task's fault: the attempt given back, claimable again at once.
create or replace function taak_poging_terug(taak text, token uuid, reden text, sessie text, zin jsonb)
returns table (id bigint, ts timestamptz)
language plpgsql security definer set search_path = public, pg_temp as $$
#variable_conflict use_column
begin
    return query
    with terug as (
        update agent_taken t
        set bijgewerkt = now(),
            status = 'wachtend', pogingen = greatest(t.pogingen - 1, 0),
            niet_voor = null, lease_tot = null, lease_token = null
        where t.id = $1 and t.status = 'bezig' and t.lease_token = $2
        returning t.id, t.geclaimd_door
    ), regel as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, sessie, meta)
        select terug.id, split_part(terug.geclaimd_door, '@', 1), 'vrijgegeven', $3, $4,
               case when $5 is null then '{}'::jsonb else jsonb_build_object('zin', $5) end
        from terug
        returning agent_taak_log.id, agent_taak_log.ts
    )
    select regel.id, regel.ts from regel;
end
$$;
