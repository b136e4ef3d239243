-- At start a daemon gives back what its bots held on this machine in a previous run, each claim named by its task and
-- its lease token (the daemon keeps a record of its claims): a daemon's role cannot give back a task another machine
-- runs. Each row by its holder's bot.
drop function if exists taak_eigen_claims_vrijgeven(text[], text, jsonb);
create or replace function taak_eigen_claims_vrijgeven(taken text[], tokens uuid[], reden text, zin jsonb)
returns setof text
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
        from unnest($1, $2) as claim (id, token)
        where t.id = claim.id and t.lease_token = claim.token and t.status = 'bezig'
        returning t.id, t.geclaimd_door, t.status
    ), regels as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, meta)
        select terug.id, split_part(terug.geclaimd_door, '@', 1), 'vrijgegeven',
               $3 || case when terug.status = 'mislukt' then ': mislukt (pogingen op)' else '' end,
               jsonb_build_object('status', terug.status, 'zin',
                   case when terug.status = 'mislukt'
                        then jsonb_build_object('sleutel', 'row_attempts_used_up', 'waarden', jsonb_build_object('reason', $4))
                        else $4 end)
        from terug
    )
    select terug.id from terug;
end
$$;
