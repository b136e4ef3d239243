-- One named task, claimed as every claim is (a new token and lease, the attempt counted, its `gestart` row with the
-- token in the same statement, SKIP LOCKED): `queue-worker demo` runs the task it made and never another. Only a
-- waiting task for this bot or for anyone (whose need, if any, is a skill of the bot), whose niet_voor has passed,
-- while the bot is switched on and not at its brake.
create or replace function taak_claim_id(taak text, bot text, lease_seconds integer, machine text, sessie text)
returns setof agent_taken
language plpgsql security definer set search_path = public, pg_temp as $$
#variable_conflict use_column
begin
    if not exists (select 1 from taak_bots_vandaag(array[$2], false) d where d.actief and not d.geremd) then
        return;
    end if;
    return query
    with gekozen as (
        select t.id from agent_taken t
        where t.id = $1 and t.status = 'wachtend'
          and (t.toegewezen_aan = $2 or (t.toegewezen_aan is null and (t.nodig is null or exists (
              select 1 from taak_bot_vaardigheden v where v.bot = $2 and v.vaardigheid = t.nodig))))
          and (t.niet_voor is null or t.niet_voor <= now())
        for update skip locked
    ), geclaimd as (
        update agent_taken t
        set bijgewerkt = now(),
            status = 'bezig',
            lease_token = gen_random_uuid(),
            lease_tot = now() + make_interval(secs => $3),
            pogingen = t.pogingen + 1,
            geclaimd_door = $2 || '@' || $4,
            niet_voor = null
        from gekozen
        where t.id = gekozen.id
        returning t.*
    ), gestart as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, sessie, meta)
        select g.id, $2, 'gestart', 'poging ' || g.pogingen || ' van ' || g.max_pogingen || ' door ' || g.geclaimd_door,
               $5,
               jsonb_build_object('poging', g.pogingen, 'machine', $4, 'lease_token', g.lease_token, 'zin', jsonb_build_object(
                   'sleutel', 'row_started',
                   'waarden', jsonb_build_object('attempt', g.pogingen, 'of', g.max_pogingen, 'holder', g.geclaimd_door)))
        from geclaimd g
    )
    select * from geclaimd;
end
$$;
