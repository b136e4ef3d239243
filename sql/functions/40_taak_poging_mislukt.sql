-- A held attempt ended badly (queries.sql `poging_mislukt` says how the rows read): backoff or mislukt. Returns
-- the task's new status, or null when the token is not current.
create or replace function taak_poging_mislukt(
    taak text, token uuid, reden text, notitie text, sessie text, meta jsonb,
    basis double precision, maximum double precision, zin jsonb
) returns text
language plpgsql security definer set search_path = public, pg_temp as $$
#variable_conflict use_column
declare
    uitkomst text;
begin
    with afgelopen as (
        update agent_taken t
        set bijgewerkt = now(),
            status = case when t.pogingen >= t.max_pogingen then 'mislukt' else 'wachtend' end,
            niet_voor = case when t.pogingen >= t.max_pogingen then null
                             else now() + taak_backoff(t.pogingen, $7, $8) end,
            afgerond = case when t.pogingen >= t.max_pogingen then now() end,
            lease_tot = null,
            lease_token = null
        where t.id = $1 and t.status = 'bezig' and t.lease_token = $2
        returning t.id, t.status, t.geclaimd_door
    ), regels as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, sessie, meta)
        select afgelopen.id, split_part(afgelopen.geclaimd_door, '@', 1), regel.soort,
               case when regel.volgorde = 1 and afgelopen.status = 'mislukt' then 'mislukt (pogingen op): ' else '' end
                   || regel.tekst,
               $5,
               case when regel.volgorde = 1 and afgelopen.status = 'mislukt'
                    then $6 || jsonb_build_object('zin', jsonb_build_object('sleutel', 'row_failed_attempts_used_up',
                             'waarden', jsonb_build_object('reason', coalesce($9, to_jsonb($3)))))
                    when regel.volgorde = 1 and $9 is not null then $6 || jsonb_build_object('zin', $9)
                    else $6 end
        from afgelopen
        cross join (values (1, 'fout', $3), (2, 'notitie', $4)) as regel (volgorde, soort, tekst)
        where regel.tekst is not null
        order by regel.volgorde
    )
    select afgelopen.status into uitkomst from afgelopen;
    return uitkomst;
end
$$;
