-- A second look at day one's rights (issue 14): a member of taak_daemon could still burn task numbers by
-- calling taak_volgend_id() (no stall, but gaps), insert tasks straight into agent_taken without their
-- creation note, and move settings such as the intake's cut-off. Tasks now come in through taak_nieuw only,
-- which runs with its owner's rights; the counter and the settings are the owner's.

alter function taak_nieuw(text, text, text, text, jsonb, text, text, integer, integer, timestamptz, timestamptz)
    security definer set search_path = public, pg_temp;

create or replace function taak_rechten() returns void
language plpgsql as $$
declare
    obj record;
    rol text;
    vreemden text[] := array(select rolname::text from pg_roles where rolname in ('anon', 'authenticated'));
    daemon boolean := exists (select 1 from pg_roles where rolname = 'taak_daemon');
    sessie boolean := exists (select 1 from pg_roles where rolname = 'taak_sessie');
begin
    for obj in
        select c.oid::regclass::text as naam, c.relkind::text as soort, c.relname::text as kaal
        from pg_class c
        where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'S')
          and c.relname ~ '^(agent_taken|agent_taak_|agent_bots|machines|machine_aliassen|taak_)'
    loop
        if obj.soort = 'S' then
            execute format('revoke all on sequence %s from public', obj.naam);
            foreach rol in array vreemden loop
                execute format('revoke all on sequence %s from %I', obj.naam, rol);
            end loop;
            if daemon then
                execute format('revoke all on sequence %s from taak_daemon', obj.naam);
                execute format('grant usage, select on sequence %s to taak_daemon', obj.naam);
            end if;
            continue;
        end if;
        execute format('revoke all on %s from public', obj.naam);
        foreach rol in array vreemden loop
            execute format('revoke all on %s from %I', obj.naam, rol);
        end loop;
        if sessie then
            execute format('revoke all on %s from taak_sessie', obj.naam);
        end if;
        if not daemon then
            continue;
        end if;
        execute format('revoke all on %s from taak_daemon', obj.naam);
        if obj.soort in ('v', 'm') or obj.kaal in ('taak_migraties', 'taak_instellingen') then
            execute format('grant select on %s to taak_daemon', obj.naam);
        elsif obj.kaal = 'agent_taak_log' then
            execute format('grant select, insert on %s to taak_daemon', obj.naam);
        elsif obj.kaal = 'agent_taken' then
            -- A task comes in through taak_nieuw only (it runs with its owner's rights), with its creation note.
            execute format('grant select, update, delete on %s to taak_daemon', obj.naam);
        elsif obj.kaal <> 'agent_taak_teller' then
            execute format('grant select, insert, update, delete on %s to taak_daemon', obj.naam);
        end if;
        if obj.soort in ('r', 'p') then
            execute format('alter table %s enable row level security', obj.naam);
            if obj.kaal not in ('agent_taak_teller', 'taak_migraties', 'taak_instellingen') then
                execute format('drop policy if exists taak_daemon_alles on %s', obj.naam);
                execute format('create policy taak_daemon_alles on %s to taak_daemon using (true) with check (true)',
                               obj.naam);
            else
                execute format('drop policy if exists taak_daemon_alles on %s', obj.naam);
                execute format('drop policy if exists taak_daemon_lezen on %s', obj.naam);
                if obj.kaal in ('taak_migraties', 'taak_instellingen') then
                    execute format('create policy taak_daemon_lezen on %s for select to taak_daemon using (true)',
                                   obj.naam);
                end if;
            end if;
        end if;
    end loop;
    for obj in
        select p.oid::regprocedure::text as naam, p.proname::text as kaal
        from pg_proc p
        where p.pronamespace = 'public'::regnamespace
          and p.proname ~ '^(taak_|agent_taken_|agent_taak_|machine_naam_vrij)'
    loop
        execute format('revoke all on function %s from public', obj.naam);
        foreach rol in array vreemden loop
            execute format('revoke all on function %s from %I', obj.naam, rol);
        end loop;
        if daemon then
            execute format('revoke all on function %s from taak_daemon', obj.naam);
        end if;
        if daemon and obj.kaal not in ('taak_rechten', 'taak_volgend_id') then
            execute format('grant execute on function %s to taak_daemon', obj.naam);
        end if;
        if sessie and obj.kaal in ('taak_sessie_log', 'taak_sessie_klaar', 'taak_sessie_blokkeer',
                                   'taak_lease_seconden', 'taak_tijdzone') then
            execute format('grant execute on function %s to taak_sessie', obj.naam);
        end if;
    end loop;
    if daemon or sessie then
        execute 'grant usage on schema public to ' || concat_ws(', ', case when daemon then 'taak_daemon' end,
                                                                case when sessie then 'taak_sessie' end);
    end if;
end
$$;
