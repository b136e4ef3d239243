-- The baseline: every table, column, index and constraint of the first release, and the steps a database needs
-- once. The functions, triggers and views that give these tables their rules live in sql/functions/, one file
-- each, applied after this file and again whenever their text changes; the rights are set by taak_rechten()
-- (sql/functions/90_taak_rechten.sql) at the end of every migration. (Before the first release the schema grew in
-- 27 migrations, kept in tests/fixtures/legacy_migrations/: a database that applied them counts this file as
-- applied.)
--
-- The rules live in the database, so that no client (the taak command, a Supabase RPC call, the owner's own SQL)
-- can break them. They are row triggers, not CHECK constraints: Postgres rebuilds a table's CHECKs for every
-- statement that writes it, and the claim, a log row and the finish paid for eleven of them (see
-- sql/functions/30_agent_taken_nakijken.sql).

-- Settings the database itself needs: `taak db migrate` writes the configured time zone here, and the intake's
-- default cut-off is the moment this migration ran (only messages that arrive after it become tasks).
create table taak_instellingen (
    sleutel text primary key,
    waarde  text not null
);
insert into taak_instellingen (sleutel, waarde) values ('tijdzone', 'Europe/Amsterdam'), ('intake_vanaf', now()::text);

-- One counter per local day, for task IDs (taak_volgend_id, which also sets agent_taken.id's default).
create table agent_taak_teller (
    dag     date primary key,
    laatste integer not null check (laatste > 0)
);

-- The task ledger: one row per task, which survives everything. Its rules: agent_taken_nakijken and
-- agent_taken_nieuw_nakijken; id, opdracht, opdrachtgever and aangemaakt never change (agent_taken_bevroren).
create table agent_taken (
    id             text primary key,
    titel          text not null,
    opdracht       text not null,
    opdrachtgever  text not null,
    toegewezen_aan text,
    status         text not null default 'wachtend',
    klaar_wanneer  text,
    context        jsonb not null default '{}'::jsonb,
    volgende_stap  text,
    pogingen       integer not null default 0,
    max_pogingen   integer not null default 3,
    lease_tot      timestamptz,
    lease_token    uuid,
    geclaimd_door  text,
    bewijs         text,
    prioriteit     integer not null default 0,
    niet_voor      timestamptz,
    aangemaakt     timestamptz not null default now(),
    bijgewerkt     timestamptz not null default now(),
    afgerond       timestamptz,
    uiterlijk      timestamptz  -- a due date: every piece of advice becomes "a row with an owner and a date"
) with (fillfactor = 80);  -- room on each page for a row's new versions, so that a lease update stays heap-only

-- The claim walks one bot's waiting tasks in claim order (and those for anyone), never past the backlog of other
-- bots. For anyone an index of its own: `toegewezen_aan is null` is no equality to a btree. Deliberately no index on
-- toegewezen_aan alone: it tempted the planner into fetching and sorting every waiting task on each claim.
create index agent_taken_claim_per_bot on agent_taken (toegewezen_aan, prioriteit desc, aangemaakt, id)
    where status = 'wachtend' and toegewezen_aan is not null;
create index agent_taken_claim_iedereen on agent_taken (prioriteit desc, aangemaakt, id)
    where status = 'wachtend' and toegewezen_aan is null;
-- The held tasks are few (one per running session): the reaper finds them by status and compares their leases.
-- lease_tot is in no index, so that extending a lease can be a heap-only update.
create index agent_taken_bezig on agent_taken (id) where status = 'bezig';

-- The log: append-only (agent_taak_log_alleen_bijschrijven), one row per event, timed by the database's clock.
create table agent_taak_log (
    id      bigint generated always as identity primary key,
    taak_id text not null references agent_taken (id),
    ts      timestamptz not null default clock_timestamp(),
    bot     text,
    soort   text not null,
    tekst   text not null default '',
    sessie  text,
    meta    jsonb not null default '{}'::jsonb
);
-- "The last N rows of a task" is a backward walk of this index, however long the log is.
create index agent_taak_log_taak on agent_taak_log (taak_id, id desc);
-- The owner's newest answer is shown in every briefing, however far back it is.
create index agent_taak_log_antwoord on agent_taak_log (taak_id, id desc) where soort = 'antwoord';
-- `taak recall --taken` searches the log by time first.
create index agent_taak_log_ts on agent_taak_log (ts);
-- Starts and finishes (a few per task) are counted from here when a briefing asks, instead of in agent_taak_telling.
create index agent_taak_log_beurten on agent_taak_log (taak_id) where soort in ('gestart', 'klaar');
-- A bot's starts and session results today, for its brake (taak_bots_vandaag), without other bots' rows.
create index agent_taak_log_gebruik on agent_taak_log (bot, ts)
    where soort = 'gestart' or (soort = 'notitie' and meta ? 'resultaat');

-- Per task and kind: how many rows and since when, kept by agent_taak_log_na_insert, so that a briefing's summary of
-- everything older costs the same for 10 rows as for 100,000. Derived data: no foreign key of its own.
create table agent_taak_telling (
    taak_id text not null,
    soort   text not null,
    aantal  bigint not null,
    eerste  timestamptz not null,
    primary key (taak_id, soort)
);

-- The per-bot switch for the staged rollout (off until the owner turns a bot on), its brake per day (null: no
-- limit; 50 sessions by default, the seed's day before it ran away to 309), and the daemon's heartbeat: which worker
-- serves the bot, since when, and on which task it is busy.
create table agent_bots (
    bot           text primary key constraint bot_naam check (bot ~ '^[a-z0-9_.-]+$'),
    actief        boolean not null default false,
    machine       text,
    pid           integer,
    versie        text,
    huidige_taak  text,
    laatst_gezien timestamptz,
    bijgewerkt    timestamptz not null default now(),
    max_sessies_per_dag integer default 50 constraint max_sessies_niet_negatief check (max_sessies_per_dag >= 0),
    max_kosten_per_dag  numeric constraint max_kosten_niet_negatief check (max_kosten_per_dag >= 0)
);

-- The machine registry: one name, many aliases (each alias belongs to exactly one machine, whatever its case), the
-- LAN IP, and the bots that run there. A name and an alias may not shadow each other (machine_naam_vrij).
create table machines (
    naam       text primary key constraint machine_naam_niet_leeg check (naam ~ '[^[:space:]]'),
    ip         inet,
    bots       text[] not null default '{}',
    bijgewerkt timestamptz not null default now()
);
create unique index machines_naam_lower on machines (lower(naam));

create table machine_aliassen (
    alias  text primary key constraint alias_niet_leeg check (alias ~ '[^[:space:]]'),
    machine text not null references machines (naam) on update cascade on delete cascade
);
create unique index machine_aliassen_lower on machine_aliassen (lower(alias));

-- The outbox to the owner: a question, a reminder, a finished task (only when some daemon delivers those:
-- taak_bezorgers), a failed one, a due date passed, a question past its deadline, a bot at its brake (a bot's, not
-- a task's). Made by the database itself whoever changed the task; its unique key means once. The daemons send what
-- is unsent (SKIP LOCKED), retry failures with backoff, and record what was sent.
create table taak_meldingen (
    id              bigint generated always as identity primary key,
    taak_id         text references agent_taken (id),
    soort           text not null constraint melding_soort
                    check (soort in ('vraag', 'herinnering', 'klaar', 'mislukt', 'uiterlijk', 'escalatie', 'rem')),
    sleutel         text not null unique,
    tekst           text not null default '',
    aangemaakt      timestamptz not null default now(),
    volgende_poging timestamptz not null default now(),
    pogingen        integer not null default 0,
    laatste_fout    text,
    verstuurd       timestamptz
);
create index taak_meldingen_open on taak_meldingen (volgende_poging) where verstuurd is null;

-- Who delivers finished tasks (TAAK_ON_KLAAR_CMD): each daemon says so for its bots when it starts, and takes it
-- back when it starts without one.
create table taak_bezorgers (
    houder text not null,  -- bot@machine, as in agent_taken.geclaimd_door
    soort  text not null,
    sinds  timestamptz not null default now(),
    primary key (soort, houder)
);

-- Fleet-wide recall: each daemon can copy its machine's new archive lines here (TAAK_VLOOT_ARCHIEF), so the owner on
-- his laptop can ask what Paco said yesterday evening. The local day files stay each machine's source of truth; this
-- copy can be rebuilt from them, keeps TAAK_VLOOT_DAGEN days, and knows each line's day file, so that an edited day
-- file replaces its lines.
create table taak_archief (
    machine text not null,
    sleutel text not null,          -- a hash of the day-file line: a line copied twice is one row
    ts      timestamptz not null,
    actor   text,
    role    text,
    type    text,
    taak    text,
    sessie  text,
    tekst   text not null,
    termen  text not null,          -- the words as the local index sees them (CJK as bigrams)
    zoek    tsvector generated always as (to_tsvector('simple', termen)) stored,
    bestand text,
    primary key (machine, sleutel)
);
-- Time first, as everywhere in recall; the words inside the range.
create index taak_archief_ts on taak_archief (ts);
create index taak_archief_zoek on taak_archief using gin (zoek);
create index taak_archief_bestand on taak_archief (machine, bestand);

-- The old, dead agent_tasks table is archived with all its rows, never dropped: renaming keeps every row and makes
-- plain that nothing should write to it any more.
do $$
declare
    doel text := 'agent_tasks_archief';
begin
    if to_regclass('public.agent_tasks') is null then
        return;
    end if;
    if to_regclass('public.' || doel) is not null then
        doel := doel || '_' || to_char(clock_timestamp(), 'YYYYMMDDHH24MISS');
    end if;
    execute format('alter table public.agent_tasks rename to %I', doel);
    execute format('comment on table public.%I is %L', doel, 'archived by taak''s migration: replaced by agent_taken');
end
$$;

-- The old queue table, when it exists, learns which task each message became (task_id) and what it answered
-- (parent_id). Nullable, so the old worker and every existing row are unaffected.
do $$
begin
    if to_regclass('public.agent_messages') is not null then
        alter table public.agent_messages add column if not exists task_id text;
        alter table public.agent_messages add column if not exists parent_id text;
    end if;
end
$$;

-- The roles of taak_rechten(), made when the migrating user may (`postgres` on Supabase can):
--   taak_eigenaar  the owner's tools (the `taak` command, the cockpit);
--   taak_daemon    the daemons: they read the tasks and the log, and write them through the functions only;
--   taak_sessie    a session: no table at all, only the fenced functions, which act on one task and only with its
--                  current lease token.
-- The table owner (the migrating user) and Supabase's service_role bypass row-level security. Supabase's anon and
-- authenticated get nothing. The owner's own bot_heartbeats is left as it is: switching its row-level security on is
-- the owner's decision (`taak db heartbeats`), never a side effect of migrating.
do $$
declare
    rol text;
begin
    if exists (select 1 from pg_roles where rolname = current_user and (rolsuper or rolcreaterole)) then
        foreach rol in array array['taak_daemon', 'taak_sessie', 'taak_eigenaar'] loop
            if not exists (select 1 from pg_roles where rolname = rol) then
                execute format('create role %I nologin', rol);
            end if;
        end loop;
    else
        raise notice 'taak: % may not create roles; taak_daemon, taak_sessie and taak_eigenaar are not made',
            current_user;
    end if;
end
$$;
