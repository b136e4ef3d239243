-- Every privilege of ours, as it must be whatever default privileges granted (Supabase's give anon and authenticated
-- every right on every new table, sequence and function: TRUNCATE on our tables, setval on the log's sequence, after
-- which every insert fails, EXECUTE on every function). `taak db migrate` calls it whenever it made or changed
-- something, in the same transaction, so nothing new is used before its rights are right.
--   taak_eigenaar: the owner's tools: rows of our tables through policies, but agent_taken without insert (a task
--                  comes in through taak_nieuw only), the log only to read and append, the migration records and
--                  settings only to read, the task counter not at all (taak_volgend_id runs with its owner's rights).
--   taak_daemon:   the same, but agent_taken and agent_taak_log only to read: a daemon writes them through the
--                  functions of sql/functions/40_*, which check the task's lease token.
--   taak_sessie:   only the fenced functions (taak_sessie_*) and what they read. PUBLIC, anon, authenticated: nothing.
create or replace function taak_rechten() returns void
language plpgsql as $$
declare
    obj record;
    rol text;
    vreemden text[] := array(select rolname::text from pg_roles where rolname in ('anon', 'authenticated'));
    beheerders text[] := array(select rolname::text from pg_roles where rolname in ('taak_daemon', 'taak_eigenaar'));
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
            foreach rol in array beheerders loop
                execute format('revoke all on sequence %s from %I', obj.naam, rol);
                execute format('grant usage, select on sequence %s to %I', obj.naam, rol);
            end loop;
            continue;
        end if;
        execute format('revoke all on %s from public', obj.naam);
        foreach rol in array vreemden loop
            execute format('revoke all on %s from %I', obj.naam, rol);
        end loop;
        if sessie then
            execute format('revoke all on %s from taak_sessie', obj.naam);
        end if;
        foreach rol in array beheerders loop
            execute format('revoke all on %s from %I', obj.naam, rol);
            if obj.soort in ('v', 'm') or obj.kaal in ('taak_migraties', 'taak_instellingen')
               or (rol = 'taak_daemon' and obj.kaal in ('agent_taken', 'agent_taak_log')) then
                execute format('grant select on %s to %I', obj.naam, rol);
            elsif obj.kaal = 'agent_taak_log' then
                execute format('grant select, insert on %s to %I', obj.naam, rol);
            elsif obj.kaal = 'agent_taken' then
                -- A task comes in through taak_nieuw only (it runs with its owner's rights), with its creation note.
                execute format('grant select, update, delete on %s to %I', obj.naam, rol);
            elsif obj.kaal <> 'agent_taak_teller' then
                execute format('grant select, insert, update, delete on %s to %I', obj.naam, rol);
            end if;
        end loop;
        if obj.soort in ('r', 'p') then
            execute format('alter table %s enable row level security', obj.naam);
            foreach rol in array beheerders loop
                execute format('drop policy if exists %I on %s', rol || '_alles', obj.naam);
                execute format('drop policy if exists %I on %s', rol || '_lezen', obj.naam);
                if obj.kaal in ('taak_migraties', 'taak_instellingen') then
                    execute format('create policy %I on %s for select to %I using (true)', rol || '_lezen', obj.naam,
                                   rol);
                elsif obj.kaal <> 'agent_taak_teller' then
                    execute format('create policy %I on %s to %I using (true) with check (true)', rol || '_alles',
                                   obj.naam, rol);
                end if;
            end loop;
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
        foreach rol in array beheerders loop
            execute format('revoke all on function %s from %I', obj.naam, rol);
            if obj.kaal not in ('taak_rechten', 'taak_volgend_id') then
                execute format('grant execute on function %s to %I', obj.naam, rol);
            end if;
        end loop;
        if sessie and obj.kaal in ('taak_sessie_log', 'taak_sessie_klaar', 'taak_sessie_blokkeer',
                                   'taak_lease_seconden', 'taak_tijdzone') then
            execute format('grant execute on function %s to taak_sessie', obj.naam);
        end if;
    end loop;
    foreach rol in array beheerders || case when sessie then array['taak_sessie'] else array[]::text[] end loop
        execute format('grant usage on schema public to %I', rol);
    end loop;
end
$$;
