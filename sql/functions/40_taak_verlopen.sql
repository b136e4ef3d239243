-- The reaper (queries.sql `verlopen` says how it is safe beside other reapers): only leases that have passed,
-- never the caller's own tasks, nothing during the grace after the server's start.
create or replace function taak_verlopen(
    basis double precision, maximum double precision, hoeveel integer, eigen text[], wachttijd double precision
) returns setof agent_taken
language plpgsql security definer set search_path = public, pg_temp as $$
#variable_conflict use_column
begin
    return query
    with verlopen as (
        select t.id from agent_taken t
        where t.status = 'bezig' and t.lease_tot < now()
          and not (t.id = any($4))
          and now() > pg_postmaster_start_time() + make_interval(secs => $5)
        order by t.lease_tot
        limit $3
        for update skip locked
    ), terug as (
        update agent_taken t
        set bijgewerkt = now(),
            status = case when t.pogingen >= t.max_pogingen then 'mislukt' else 'wachtend' end,
            niet_voor = case when t.pogingen >= t.max_pogingen then null
                             else now() + taak_backoff(t.pogingen, $1, $2) end,
            afgerond = case when t.pogingen >= t.max_pogingen then now() end,
            lease_tot = null,
            lease_token = null
        from verlopen
        where t.id = verlopen.id
        returning t.*
    ), regels as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, meta)
        select terug.id, split_part(terug.geclaimd_door, '@', 1), 'verlopen',
               'lease verlopen na poging ' || terug.pogingen || ' van ' || terug.max_pogingen
                   || ' (' || terug.geclaimd_door || ')'
                   || case when terug.status = 'mislukt' then ': mislukt' else '' end,
               jsonb_build_object('status', terug.status, 'niet_voor', terug.niet_voor, 'zin', jsonb_build_object(
                   'sleutel', case when terug.status = 'mislukt' then 'row_expired_failed' else 'row_expired' end,
                   'waarden', jsonb_build_object('attempt', terug.pogingen, 'of', terug.max_pogingen,
                                                 'holder', terug.geclaimd_door)))
        from terug
    )
    select * from terug;
end
$$;
