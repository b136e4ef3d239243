-- The task ledger: agent_taken (one row per task, survives everything) and agent_taak_log
-- (append-only, one row per event). The rules live here, in the database, so that no client
-- (the taak command, a Supabase RPC call, the owner's own SQL) can break them.

-- Settings the database itself needs; `taak db migrate` writes the configured time zone here.
create table taak_instellingen (
    sleutel text primary key,
    waarde  text not null
);
insert into taak_instellingen (sleutel, waarde) values ('tijdzone', 'Europe/Amsterdam');

create or replace function taak_tijdzone() returns text
language sql stable as $$
    select coalesce(
        nullif(current_setting('taak.tijdzone', true), ''),
        (select waarde from taak_instellingen where sleutel = 'tijdzone'),
        'Europe/Amsterdam')
$$;

-- One counter per local day. The row lock of the upsert makes concurrent inserts take turns,
-- and a number once handed out is never handed out again.
create table agent_taak_teller (
    dag     date primary key,
    laatste integer not null check (laatste > 0)
);

create or replace function taak_volgend_id(moment timestamptz default now()) returns text
language plpgsql volatile as $$
declare
    lokale_dag date := (moment at time zone taak_tijdzone())::date;
    nummer integer;
begin
    insert into agent_taak_teller as t (dag, laatste) values (lokale_dag, 1)
    on conflict (dag) do update set laatste = t.laatste + 1
    returning laatste into nummer;
    return 'HV-' || to_char(lokale_dag, 'YYYYMMDD') || '-' || lpad(nummer::text, greatest(3, length(nummer::text)), '0');
end
$$;

create table agent_taken (
    id             text primary key default taak_volgend_id()
                   check (id ~ '^HV-[0-9]{8}-[0-9]{3,}$'),
    titel          text not null,
    opdracht       text not null
                   constraint opdracht_niet_leeg check (opdracht ~ '[^[:space:]]')
                   constraint opdracht_max_8000 check (char_length(opdracht) <= 8000),
    opdrachtgever  text not null constraint opdrachtgever_niet_leeg check (opdrachtgever ~ '[^[:space:]]'),
    toegewezen_aan text,
    status         text not null default 'wachtend'
                   constraint status_geldig
                   check (status in ('wachtend', 'bezig', 'wacht_op_mens', 'klaar', 'mislukt')),
    klaar_wanneer  text,
    context        jsonb not null default '{}'::jsonb
                   constraint context_is_object check (jsonb_typeof(context) = 'object'),
    volgende_stap  text,
    pogingen       integer not null default 0 constraint pogingen_niet_negatief check (pogingen >= 0),
    max_pogingen   integer not null default 3 constraint max_pogingen_positief check (max_pogingen >= 1),
    lease_tot      timestamptz,
    lease_token    uuid,
    geclaimd_door  text,
    bewijs         text,
    prioriteit     integer not null default 0,
    niet_voor      timestamptz,
    aangemaakt     timestamptz not null default now(),
    bijgewerkt     timestamptz not null default now(),
    afgerond       timestamptz,
    constraint bezig_heeft_lease
        check (status <> 'bezig' or (lease_tot is not null and lease_token is not null)),
    constraint klaar_heeft_bewijs
        check (status <> 'klaar' or coalesce(bewijs, '') ~ '[^[:space:]]')
);

-- The claim query walks this index in order (best priority, then oldest) and stops at the first
-- row it may take. Deliberately no index on toegewezen_aan: it tempted the planner into fetching
-- and sorting every waiting task on each claim.
create index agent_taken_claim on agent_taken (prioriteit desc, aangemaakt, id) where status = 'wachtend';
-- The reaper looks only at held leases.
create index agent_taken_lease on agent_taken (lease_tot) where status = 'bezig';

create or replace function agent_taken_voor_insert() returns trigger
language plpgsql as $$
begin
    if new.titel is null or new.titel !~ '[^[:space:]]' then
        new.titel := left(btrim(split_part(btrim(new.opdracht, E' \t\r\n'), E'\n', 1)), 120);
    end if;
    return new;
end
$$;

create trigger agent_taken_titel before insert on agent_taken
    for each row execute function agent_taken_voor_insert();

-- The frozen columns. The WHEN clause is evaluated without calling the function, so an ordinary
-- update (every claim, every lease extension) pays nearly nothing for this rule.
create or replace function agent_taken_bevroren() returns trigger
language plpgsql as $$
begin
    raise exception 'agent_taken: id, opdracht, opdrachtgever and aangemaakt are frozen (task %): '
        'a clarification is a new log row', old.id using errcode = 'check_violation';
end
$$;

create trigger agent_taken_bevroren before update on agent_taken
    for each row
    when (new.id is distinct from old.id
          or new.opdracht is distinct from old.opdracht
          or new.opdrachtgever is distinct from old.opdrachtgever
          or new.aangemaakt is distinct from old.aangemaakt)
    execute function agent_taken_bevroren();

create table agent_taak_log (
    id      bigint generated always as identity primary key,
    taak_id text not null references agent_taken (id),
    ts      timestamptz not null default clock_timestamp(),
    bot     text,
    soort   text not null constraint soort_geldig check (soort in (
                'gestart', 'stap_klaar', 'geblokkeerd', 'vraag', 'antwoord', 'bewijs', 'klaar',
                'fout', 'compact', 'notitie', 'vrijgegeven', 'verlopen')),
    tekst   text not null default '',
    sessie  text,
    meta    jsonb not null default '{}'::jsonb
);

-- "The last N rows of a task" is a backward walk of this index, however long the log is.
create index agent_taak_log_taak on agent_taak_log (taak_id, id desc);
-- The owner's newest answer is shown in every briefing, however far back it is.
create index agent_taak_log_antwoord on agent_taak_log (taak_id, id desc) where soort = 'antwoord';

create or replace function agent_taak_log_alleen_bijschrijven() returns trigger
language plpgsql as $$
begin
    raise exception 'agent_taak_log is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
end
$$;

create trigger agent_taak_log_geen_wijziging before update or delete on agent_taak_log
    for each row execute function agent_taak_log_alleen_bijschrijven();
create trigger agent_taak_log_geen_truncate before truncate on agent_taak_log
    for each statement execute function agent_taak_log_alleen_bijschrijven();

-- Per task and kind: how many rows and since when. Kept by the log's insert trigger so that the
-- briefing's summary line of everything older costs the same for 10 rows as for 100,000.
create table agent_taak_telling (
    taak_id text not null references agent_taken (id),
    soort   text not null,
    aantal  bigint not null,
    eerste  timestamptz not null,
    primary key (taak_id, soort)
);

create or replace function agent_taak_log_na_insert() returns trigger
language plpgsql as $$
begin
    insert into agent_taak_telling as t (taak_id, soort, aantal, eerste)
    values (new.taak_id, new.soort, 1, new.ts)
    on conflict (taak_id, soort) do update set aantal = t.aantal + 1;
    perform pg_notify('taak_log', json_build_object(
        'id', new.id, 'taak_id', new.taak_id, 'soort', new.soort, 'bot', new.bot)::text);
    return null;
end
$$;

create trigger agent_taak_log_na_insert after insert on agent_taak_log
    for each row execute function agent_taak_log_na_insert();

-- Wake the daemons when a task becomes claimable: a new task, or one put back in the queue.
create or replace function agent_taken_meld_wachtend() returns trigger
language plpgsql as $$
begin
    perform pg_notify('taak_nieuw', json_build_object(
        'id', new.id, 'toegewezen_aan', new.toegewezen_aan, 'niet_voor', new.niet_voor)::text);
    return null;
end
$$;

create trigger agent_taken_meld_nieuw after insert on agent_taken
    for each row when (new.status = 'wachtend')
    execute function agent_taken_meld_wachtend();
create trigger agent_taken_meld_terug after update of status on agent_taken
    for each row when (new.status = 'wachtend' and old.status is distinct from 'wachtend')
    execute function agent_taken_meld_wachtend();
