-- At start a daemon gives back what its bot@machine held in a previous run (it knows no token of a run that
-- crashed): only held tasks of the holders named, each row by its holder's bot.
create or replace function taak_eigen_claims_vrijgeven(houders text[], reden text, zin jsonb) returns setof text
language plpgsql security definer set search_path = public, pg_temp as $$
#variable_conflict use_column
begin
    return query
    with terug as (
        update agent_taken t
        set bijgewerkt = now(),
            status = case when t.pogingen >= t.max_pogingen then 'mislukt' else 'wachtend' end,
            afgerond = case when t.pogingen >= t.max_pogingen then now() end,
            niet_voor = null, lease_tot = null, lease_token = null
        where t.status = 'bezig' and t.geclaimd_door = any($1)
        returning t.id, t.geclaimd_door, t.status
    ), regels as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, meta)
        select terug.id, split_part(terug.geclaimd_door, '@', 1), 'vrijgegeven',
               $2 || case when terug.status = 'mislukt' then ': mislukt (pogingen op)' else '' end,
               jsonb_build_object('status', terug.status, 'zin',
                   case when terug.status = 'mislukt'
                        then jsonb_build_object('sleutel', 'row_attempts_used_up', 'waarden', jsonb_build_object('reason', $3))
                        else $3 end)
        from terug
    )
    select terug.id from terug;
end
$$;
