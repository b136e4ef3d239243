-- Day one on the owner's fleet (issue 14): one spelling per bot, a task counter nobody can stall, log times
-- from the database's clock, privileges that hold against Supabase's default privileges, the owner's
-- verbs (cancel, a due date), a brake per bot per day, more messages to the owner, and the intake cut-off.

-- One spelling of a bot: trimmed and lower case, on every way in (`Paco ` is paco).
create or replace function taak_botnaam(naam text) returns text
language sql immutable as $$
    select lower(btrim(naam, E' \t\r\n'))
$$;

update agent_taken set toegewezen_aan = taak_botnaam(toegewezen_aan)
where toegewezen_aan is distinct from taak_botnaam(toegewezen_aan) and taak_botnaam(toegewezen_aan) <> '';

delete from agent_bots b
where b.bot <> taak_botnaam(b.bot) and exists (select 1 from agent_bots o where o.bot = taak_botnaam(b.bot));
update agent_bots set bot = taak_botnaam(bot) where bot <> taak_botnaam(bot);
alter table agent_bots drop constraint bot_niet_leeg;
alter table agent_bots add constraint bot_naam check (bot ~ '^[a-z0-9_.-]+$');

create or replace function taak_botnaam_zetten() returns trigger
language plpgsql as $$
begin
    if tg_table_name = 'agent_bots' then
        new.bot := taak_botnaam(new.bot);
    elsif new.toegewezen_aan is not null then
        new.toegewezen_aan := taak_botnaam(new.toegewezen_aan);
        if new.toegewezen_aan = '' then
            raise exception 'toegewezen_aan is empty: name a bot, or leave it out for any bot'
                using errcode = 'check_violation';
        end if;
    end if;
    return new;
end
$$;

create trigger agent_taken_botnaam before insert or update of toegewezen_aan on agent_taken
    for each row execute function taak_botnaam_zetten();
create trigger agent_bots_botnaam before insert or update of bot on agent_bots
    for each row execute function taak_botnaam_zetten();
alter table agent_taken add constraint toegewezen_aan_naam
    check (toegewezen_aan is null or toegewezen_aan ~ '^[a-z0-9_.-]+$') not valid;

-- The task counter. It runs with its owner's rights (nobody else may touch agent_taak_teller), and it skips a
-- number that is taken: a row planted with the next ID used to fail every insert after it for the whole day.
create or replace function taak_volgend_id(moment timestamptz default now()) returns text
language plpgsql volatile security definer set search_path = public, pg_temp as $$
declare
    lokale_dag date := (moment at time zone taak_tijdzone())::date;
    nummer integer;
    kandidaat text;
begin
    loop
        insert into agent_taak_teller as t (dag, laatste) values (lokale_dag, 1)
        on conflict (dag) do update set laatste = t.laatste + 1
        returning laatste into nummer;
        kandidaat := 'HV-' || to_char(lokale_dag, 'YYYYMMDD') || '-'
                     || lpad(nummer::text, greatest(3, length(nummer::text)), '0');
        exit when not exists (select 1 from agent_taken where id = kandidaat);
    end loop;
    return kandidaat;
end
$$;

-- A log row's time is the database's clock, whatever the writer sent.
create or replace function agent_taak_log_tijd() returns trigger
language plpgsql as $$
begin
    new.ts := clock_timestamp();
    return new;
end
$$;

create trigger agent_taak_log_tijd before insert on agent_taak_log
    for each row execute function agent_taak_log_tijd();

-- Cancelled by the owner: neither done nor failed (it would count as failed in every figure, and page the
-- owner as a failure he caused himself).
alter table agent_taken drop constraint status_geldig;
alter table agent_taken add constraint status_geldig
    check (status in ('wachtend', 'bezig', 'wacht_op_mens', 'klaar', 'mislukt', 'geannuleerd'));

-- A due date: every piece of advice becomes "a row with an owner and a date".
alter table agent_taken add column uiterlijk timestamptz;

drop function taak_nieuw(text, text, text, text, jsonb, text, text, integer, integer, timestamptz);
create function taak_nieuw(
    opdracht text,
    opdrachtgever text,
    toegewezen_aan text default null,
    klaar_wanneer text default null,
    context jsonb default '{}',
    volgende_stap text default null,
    titel text default null,
    prioriteit integer default 0,
    max_pogingen integer default 3,
    niet_voor timestamptz default null,
    uiterlijk timestamptz default null
) returns text
language plpgsql volatile as $$
declare
    nieuw_id text;
begin
    insert into agent_taken (opdracht, opdrachtgever, toegewezen_aan, klaar_wanneer, context, volgende_stap,
                             titel, prioriteit, max_pogingen, niet_voor, uiterlijk)
    values (taak_nieuw.opdracht, taak_nieuw.opdrachtgever, taak_nieuw.toegewezen_aan, taak_nieuw.klaar_wanneer,
            coalesce(taak_nieuw.context, '{}'::jsonb), taak_nieuw.volgende_stap, taak_nieuw.titel,
            coalesce(taak_nieuw.prioriteit, 0), coalesce(taak_nieuw.max_pogingen, 3), taak_nieuw.niet_voor,
            taak_nieuw.uiterlijk)
    returning id into nieuw_id;
    insert into agent_taak_log (taak_id, bot, soort, tekst)
    values (nieuw_id, taak_nieuw.opdrachtgever, 'notitie', 'aangemaakt door ' || taak_nieuw.opdrachtgever);
    return nieuw_id;
end
$$;

-- The brake per bot per day, one truth for every daemon and for `taak bot lijst` (null: no limit). A new
-- bot, and every bot on day one, may start 50 sessions a day (the seed: 46 a day for the whole queue before
-- it ran away to 309); the owner sets it with `taak bot rem`.
alter table agent_bots add column max_sessies_per_dag integer default 50 constraint max_sessies_niet_negatief
    check (max_sessies_per_dag >= 0);
alter table agent_bots add column max_kosten_per_dag numeric constraint max_kosten_niet_negatief
    check (max_kosten_per_dag >= 0);

-- More messages to the owner: a failed task, a due date passed, a question left past its decision deadline,
-- a bot that reached its brake. A brake message belongs to a bot, not to a task.
alter table taak_meldingen alter column taak_id drop not null;
alter table taak_meldingen drop constraint melding_soort;
alter table taak_meldingen add constraint melding_soort
    check (soort in ('vraag', 'herinnering', 'klaar', 'mislukt', 'uiterlijk', 'escalatie', 'rem'));

create or replace function taak_melding_mislukt() returns trigger
language plpgsql as $$
begin
    insert into taak_meldingen (taak_id, soort, sleutel, tekst)
    values (new.id, 'mislukt', 'mislukt:' || new.id || ':' || new.pogingen,
            new.id || ': mislukt na ' || new.pogingen || ' van ' || new.max_pogingen || ' pogingen: ' || new.titel)
    on conflict (sleutel) do nothing;
    return null;
end
$$;

create trigger taak_melding_mislukt after update of status on agent_taken
    for each row when (new.status = 'mislukt' and old.status is distinct from 'mislukt')
    execute function taak_melding_mislukt();

-- The intake's default cut-off: only messages that arrive after the day the intake was installed.
insert into taak_instellingen (sleutel, waarde) values ('intake_vanaf', now()::text)
on conflict (sleutel) do nothing;

-- Per bot: tasks past their due date.
create or replace view taak_over_tijd as
select coalesce(toegewezen_aan, '-') as bot, count(*) as over_tijd, min(uiterlijk) as oudste_uiterlijk
from agent_taken
where uiterlijk < now() and status not in ('klaar', 'mislukt', 'geannuleerd')
group by coalesce(toegewezen_aan, '-');
alter view taak_over_tijd set (security_invoker = true);

-- Every privilege of ours, as it must be whatever default privileges granted. Supabase's default privileges
-- give anon and authenticated every right on every new table, sequence and function: TRUNCATE on our tables,
-- setval on the log's sequence (after which every insert fails), EXECUTE on every function. The migrator
-- calls this in the transaction of every migration it applies, so objects made later are covered too.
--   PUBLIC, anon, authenticated: nothing at all.
--   taak_daemon: rows of our tables through policies, but not the task counter (only taak_volgend_id) and
--                not the migration records (read only); the log is append-only; no TRUNCATE anywhere.
--   taak_sessie: only the fenced functions.
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
        if obj.soort in ('v', 'm') or obj.kaal = 'taak_migraties' then
            execute format('grant select on %s to taak_daemon', obj.naam);
        elsif obj.kaal = 'agent_taak_log' then
            execute format('grant select, insert on %s to taak_daemon', obj.naam);
        elsif obj.kaal <> 'agent_taak_teller' then
            execute format('grant select, insert, update, delete on %s to taak_daemon', obj.naam);
        end if;
        if obj.soort in ('r', 'p') then
            execute format('alter table %s enable row level security', obj.naam);
            if obj.kaal not in ('agent_taak_teller', 'taak_migraties') then
                execute format('drop policy if exists taak_daemon_alles on %s', obj.naam);
                execute format('create policy taak_daemon_alles on %s to taak_daemon using (true) with check (true)',
                               obj.naam);
            else
                execute format('drop policy if exists taak_daemon_alles on %s', obj.naam);
                execute format('drop policy if exists taak_daemon_lezen on %s', obj.naam);
                if obj.kaal = 'taak_migraties' then
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
        if daemon and obj.kaal <> 'taak_rechten' then
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
-- worker/db/migrate.py calls taak_rechten() at the end of this and every later migration's transaction.
