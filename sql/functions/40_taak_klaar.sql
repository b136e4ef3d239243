-- A held task finished with its evidence; the `klaar` row names the token it closed (queries.sql `lease_stand`).
create or replace function taak_klaar(taak text, token uuid, bewijs text, tekst text, sessie text, meta jsonb)
returns table (id bigint, ts timestamptz)
language plpgsql security definer set search_path = public, pg_temp as $$
#variable_conflict use_column
begin
    return query
    with afgerond as (
        update agent_taken t
        set bijgewerkt = now(),
            status = 'klaar', bewijs = $3, afgerond = now(), lease_tot = null, lease_token = null
        where t.id = $1 and t.status = 'bezig' and t.lease_token = $2
        returning t.id, t.geclaimd_door
    ), regel as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, sessie, meta)
        select afgerond.id, split_part(afgerond.geclaimd_door, '@', 1), 'klaar', $4, $5,
               $6 || jsonb_build_object('bewijs', $3, 'lease_token', $2::text)
        from afgerond
        returning agent_taak_log.id, agent_taak_log.ts
    )
    select regel.id, regel.ts from regel;
end
$$;
