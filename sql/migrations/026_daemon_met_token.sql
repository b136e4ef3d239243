-- The daemon role writes only what a daemon must (issue 38). A member of taak_daemon could update any task row
-- (set one `klaar` without its token, overwrite a lease token) and insert log rows under any bot's name. Now
-- taak_daemon only reads agent_taken and agent_taak_log; every write a daemon makes goes through one of the
-- functions below, which run with their owner's rights and check the task's current lease token wherever a
-- task is held. A row written with a token is written by the task's holder (the bot of `geclaimd_door`),
-- whatever name the caller gives. Without a token a daemon may still claim, reap expired leases, give back its
-- own earlier claims at start, answer a waiting task and add a `notitie` (the intake, under the name of the
-- message's sender, and each session's result row).
--
-- The owner's verbs (cancel, take a lease back, set a waiting task's next step) are no daemon's: they stay
-- statements on the tables, for a new role taak_eigenaar (the owner's `taak`, the cockpit), which keeps the
-- rights taak_daemon had until now. taak_rechten() at the end sets every right of the three roles.

do $$
begin
    if exists (select 1 from pg_roles where rolname = current_user and (rolsuper or rolcreaterole)) then
        if not exists (select 1 from pg_roles where rolname = 'taak_eigenaar') then
            create role taak_eigenaar nologin;
        end if;
    else
        raise notice 'taak: % may not create roles; taak_eigenaar is not made', current_user;
    end if;
end
$$;

-- The claim (migration 025) wrote the task row and its `gestart` row with the caller's rights: now with its
-- owner's, so that a daemon needs no right on the tables to claim.
alter function taak_claim(text[], integer, text, text, text[], boolean) security definer set search_path = public, pg_temp;

-- One named task, claimed as every claim is (a new token and lease, the attempt counted, its `gestart` row in the
-- same statement, SKIP LOCKED): `queue-worker demo` runs the task it made and never another. Only a waiting
-- task for this bot or for anyone, whose niet_voor has passed, while the bot is switched on and not at its brake.
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
        where t.id = $1 and t.status = 'wachtend' and (t.toegewezen_aan is null or t.toegewezen_aan = $2)
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
               jsonb_build_object('poging', g.pogingen, 'machine', $4, 'zin', jsonb_build_object(
                   'sleutel', 'row_started',
                   'waarden', jsonb_build_object('attempt', g.pogingen, 'of', g.max_pogingen, 'holder', g.geclaimd_door)))
        from geclaimd g
    )
    select * from geclaimd;
end
$$;

-- A held lease extended; nothing back when the token is not current (the daemon then stops the session).
create or replace function taak_verleng(taak text, token uuid, seconden double precision) returns timestamptz
language plpgsql security definer set search_path = public, pg_temp as $$
#variable_conflict use_column
declare
    tot timestamptz;
begin
    update agent_taken
    set bijgewerkt = now(), lease_tot = greatest(lease_tot, now() + make_interval(secs => $3))
    where id = $1 and status = 'bezig' and lease_token = $2
    returning lease_tot into tot;
    return tot;
end
$$;

-- A session's log row (queries.sql `log_fenced`): a session's kind only, with the current token, by the holder.
-- The task is held FOR SHARE until the row is in; the lease is extended only when less than half of it is left.
create or replace function taak_log_met_token(
    taak text, token uuid, soort text, tekst text, sessie text, meta jsonb, seconden double precision
) returns table (id bigint, ts timestamptz)
language plpgsql security definer set search_path = public, pg_temp as $$
#variable_conflict use_column
begin
    if $3 not in ('stap_klaar', 'geblokkeerd', 'vraag', 'bewijs', 'fout', 'compact', 'notitie') then
        raise exception 'a session cannot log %', $3 using errcode = 'insufficient_privilege';
    end if;
    return query
    with houder as (
        select t.id, t.lease_tot, t.geclaimd_door from agent_taken t
        where t.id = $1 and t.status = 'bezig' and t.lease_token = $2
        for share
    ), verlengd as (
        update agent_taken t
        set bijgewerkt = now(), lease_tot = now() + make_interval(secs => $7)
        from houder
        where t.id = houder.id and houder.lease_tot < now() + make_interval(secs => $7 / 2)
    ), regel as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, sessie, meta)
        select houder.id, split_part(houder.geclaimd_door, '@', 1), $3, $4, $5, $6 from houder
        returning agent_taak_log.id, agent_taak_log.ts
    )
    select regel.id, regel.ts from regel;
end
$$;

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

-- A session gives its held task back with a reason: backoff, or mislukt when the attempts are used up.
create or replace function taak_vrijgeven(
    taak text, token uuid, reden text, niet_voor timestamptz, meta jsonb,
    basis double precision, maximum double precision, zin jsonb
) returns table (id bigint, ts timestamptz, mislukt boolean)
language plpgsql security definer set search_path = public, pg_temp as $$
#variable_conflict use_column
begin
    return query
    with terug as (
        update agent_taken t
        set bijgewerkt = now(),
            status = case when t.pogingen >= t.max_pogingen then 'mislukt' else 'wachtend' end,
            niet_voor = case when t.pogingen >= t.max_pogingen then null
                             else coalesce($4, now() + taak_backoff(t.pogingen, $6, $7)) end,
            afgerond = case when t.pogingen >= t.max_pogingen then now() end,
            lease_tot = null, lease_token = null
        where t.id = $1 and t.status = 'bezig' and t.lease_token = $2
        returning t.id, t.status, t.geclaimd_door
    ), regel as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, meta)
        select terug.id, split_part(terug.geclaimd_door, '@', 1), 'vrijgegeven',
               $3 || case when terug.status = 'mislukt' then ': mislukt (pogingen op)' else '' end,
               $5 || jsonb_build_object('lease_token', $2::text, 'status', terug.status, 'zin',
                   case when terug.status = 'mislukt'
                        then jsonb_build_object('sleutel', 'row_attempts_used_up', 'waarden', jsonb_build_object('reason', $8))
                        else $8 end)
        from terug
        returning agent_taak_log.id, agent_taak_log.ts, agent_taak_log.meta ->> 'status' = 'mislukt'
    )
    select * from regel;
end
$$;

-- A session sets the next step of its held task; the change is noted in the log and the lease extended.
create or replace function taak_stap_met_token(taak text, token uuid, stap text, seconden double precision, meta jsonb)
returns table (id bigint, ts timestamptz)
language plpgsql security definer set search_path = public, pg_temp as $$
#variable_conflict use_column
begin
    return query
    with gezet as (
        update agent_taken t
        set bijgewerkt = now(),
            volgende_stap = $3, lease_tot = greatest(t.lease_tot, now() + make_interval(secs => $4))
        where t.id = $1 and t.status = 'bezig' and t.lease_token = $2
        returning t.id, t.geclaimd_door
    ), regel as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, meta)
        select gezet.id, split_part(gezet.geclaimd_door, '@', 1), 'notitie', 'volgende stap: ' || $3,
               $5 || jsonb_build_object('zin', jsonb_build_object(
                   'sleutel', 'row_next_step', 'waarden', jsonb_build_object('step', $3)))
        from gezet
        returning agent_taak_log.id, agent_taak_log.ts
    )
    select regel.id, regel.ts from regel;
end
$$;

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

-- An answer to a task (the owner's, or a message the intake takes in): a task waiting for it goes back in the
-- queue; a finished task takes none (no row back). No held task moves.
create or replace function taak_antwoord(taak text, wie text, tekst text)
returns table (id bigint, ts timestamptz, heropend boolean)
language plpgsql security definer set search_path = public, pg_temp as $$
#variable_conflict use_column
begin
    return query
    with terug as (
        update agent_taken t
        set bijgewerkt = now(), status = 'wachtend', niet_voor = null
        where t.id = $1 and t.status = 'wacht_op_mens'
        returning t.id
    ), regel as (
        insert into agent_taak_log (taak_id, bot, soort, tekst)
        select t.id, $2, 'antwoord', $3 from agent_taken t
        where t.id = $1 and t.status not in ('klaar', 'mislukt', 'geannuleerd')
        returning agent_taak_log.id, agent_taak_log.ts
    )
    select regel.id, regel.ts, exists (select 1 from terug) from regel;
end
$$;

-- A row without a token: a `notitie` (the intake's message joining a task, a session's result row, the owner's
-- note) or a `compact` of the owner's own Claude session. It changes no task.
create or replace function taak_log_zonder_token(taak text, bot text, soort text, tekst text, sessie text, meta jsonb)
returns table (id bigint, ts timestamptz)
language plpgsql security definer set search_path = public, pg_temp as $$
#variable_conflict use_column
begin
    if $3 not in ('notitie', 'compact') then
        raise exception 'a % row needs the task''s lease token', $3 using errcode = 'insufficient_privilege';
    end if;
    return query
    with regel as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, sessie, meta)
        select t.id, $2, $3, $4, $5, $6 from agent_taken t where t.id = $1
        returning agent_taak_log.id, agent_taak_log.ts
    )
    select regel.id, regel.ts from regel;
end
$$;

-- One task locked until the caller's transaction ends (the intake decides on its status): FOR UPDATE needs the
-- right to update, which a daemon no longer has on the table itself.
create or replace function taak_vergrendeld(taak text) returns setof agent_taken
language plpgsql security definer set search_path = public, pg_temp as $$
begin
    return query select * from agent_taken t where t.id = $1 for update;
end
$$;

-- Every privilege of ours, as migration 015 set them, with the daemon narrowed and the owner's role beside it:
--   taak_eigenaar: what taak_daemon had (rows of our tables through policies; the log only to read and append;
--                  the migration records and settings only to read; the counter not at all).
--   taak_daemon:   the same, but agent_taken and agent_taak_log only to read: it writes them through the
--                  functions of migration 026.
--   taak_sessie:   only the fenced functions. PUBLIC, anon, authenticated: nothing.
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
