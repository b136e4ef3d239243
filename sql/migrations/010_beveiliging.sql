-- Security. Row-level security on every table of ours, two roles, and nothing at all for Supabase's `anon`.
-- The owner's own bot_heartbeats is left as it is: switching its row-level security on is the owner's
-- decision (`taak db heartbeats`), never a side effect of migrating. (This file was revised on 2026-12-01
-- to say so; worker/db/migrate.py accepts its earlier checksum.)
--   taak_daemon  the daemon's and the owner's tools: everything on our tables, through policies;
--   taak_sessie  a session: no table at all, only the fenced functions below, which act on one task and only
--                with its current lease token.
-- The table owner (the migrating user, `postgres` on Supabase) and service_role bypass row-level security.

do $$
begin
    if exists (select 1 from pg_roles where rolname = current_user and (rolsuper or rolcreaterole)) then
        if not exists (select 1 from pg_roles where rolname = 'taak_daemon') then
            create role taak_daemon nologin;
        end if;
        if not exists (select 1 from pg_roles where rolname = 'taak_sessie') then
            create role taak_sessie nologin;
        end if;
    else
        raise notice 'taak: % may not create roles; taak_daemon and taak_sessie are not made', current_user;
    end if;
end
$$;

-- Fenced operations for a session: the token must be the task's current one, or nothing happens.
create or replace function taak_lease_seconden() returns integer
language sql stable as $$
    select coalesce((select waarde::integer from taak_instellingen where sleutel = 'lease_seconden'), 1200)
$$;

create or replace function taak_sessie_log(taak text, token uuid, soort text, tekst text) returns bigint
language plpgsql security definer set search_path = public, pg_temp as $$
declare
    regel bigint;
begin
    if soort not in ('stap_klaar', 'geblokkeerd', 'vraag', 'bewijs', 'fout', 'compact', 'notitie') then
        raise exception 'a session cannot log %', soort using errcode = 'insufficient_privilege';
    end if;
    update agent_taken set lease_tot = greatest(lease_tot, now() + make_interval(secs => taak_lease_seconden())),
                           bijgewerkt = now()
    where id = taak and status = 'bezig' and lease_token = token;
    if not found then
        raise exception 'task %: this lease token is not current', taak using errcode = 'insufficient_privilege';
    end if;
    insert into agent_taak_log (taak_id, soort, tekst) values (taak, soort, tekst) returning id into regel;
    return regel;
end
$$;

create or replace function taak_sessie_klaar(taak text, token uuid, bewijs text, tekst text default '') returns void
language plpgsql security definer set search_path = public, pg_temp as $$
begin
    update agent_taken set status = 'klaar', bewijs = taak_sessie_klaar.bewijs, afgerond = now(), lease_tot = null,
                           lease_token = null, bijgewerkt = now()
    where id = taak and status = 'bezig' and lease_token = token;
    if not found then
        raise exception 'task %: this lease token is not current', taak using errcode = 'insufficient_privilege';
    end if;
    insert into agent_taak_log (taak_id, soort, tekst, meta)
    values (taak, 'klaar', coalesce(tekst, ''), jsonb_build_object('bewijs', taak_sessie_klaar.bewijs));
end
$$;

create or replace function taak_sessie_blokkeer(taak text, token uuid, vraag text) returns void
language plpgsql security definer set search_path = public, pg_temp as $$
begin
    update agent_taken set status = 'wacht_op_mens', lease_tot = null, lease_token = null, bijgewerkt = now()
    where id = taak and status = 'bezig' and lease_token = token;
    if not found then
        raise exception 'task %: this lease token is not current', taak using errcode = 'insufficient_privilege';
    end if;
    insert into agent_taak_log (taak_id, soort, tekst) values (taak, 'vraag', vraag);
end
$$;

revoke execute on function taak_sessie_log(text, uuid, text, text), taak_sessie_klaar(text, uuid, text, text),
    taak_sessie_blokkeer(text, uuid, text) from public;

do $$
declare
    tabel text;
    tabellen text[] := array['agent_taken', 'agent_taak_log', 'agent_taak_telling', 'agent_taak_teller',
                             'taak_instellingen', 'taak_migraties', 'agent_bots', 'machines', 'machine_aliassen',
                             'taak_meldingen'];
    rollen boolean := exists (select 1 from pg_roles where rolname = 'taak_daemon')
                      and exists (select 1 from pg_roles where rolname = 'taak_sessie');
begin
    foreach tabel in array tabellen loop
        execute format('alter table public.%I enable row level security', tabel);
        execute format('revoke all on public.%I from public', tabel);
        if exists (select 1 from pg_roles where rolname = 'anon') then
            execute format('revoke all on public.%I from anon', tabel);
        end if;
        if rollen then
            execute format('grant select, insert, update, delete on public.%I to taak_daemon', tabel);
            execute format('drop policy if exists taak_daemon_alles on public.%I', tabel);
            execute format('create policy taak_daemon_alles on public.%I to taak_daemon using (true) with check (true)',
                           tabel);
        end if;
    end loop;
    if rollen then
        grant usage on schema public to taak_daemon, taak_sessie;
        grant usage, select on all sequences in schema public to taak_daemon;
        grant select on taak_overzicht, taak_bezig, taak_sessies to taak_daemon;
        grant execute on function taak_sessie_log(text, uuid, text, text), taak_sessie_klaar(text, uuid, text, text),
            taak_sessie_blokkeer(text, uuid, text) to taak_sessie, taak_daemon;
    end if;
    if exists (select 1 from pg_roles where rolname = 'anon') then
        revoke all on taak_overzicht, taak_bezig, taak_sessies from anon;
        revoke execute on function taak_nieuw(text, text, text, text, jsonb, text, text, integer, integer, timestamptz)
            from anon;
    end if;
end
$$;

-- The views read the tables with the querying user's rights, so row-level security applies to them too.
alter view taak_overzicht set (security_invoker = true);
alter view taak_bezig set (security_invoker = true);
alter view taak_sessies set (security_invoker = true);
