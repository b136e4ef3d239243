-- Every statement the runtime sends, each under a `-- name:` header.
-- asyncpg takes positional parameters; each block says what $1..$n are.
-- A state change and its log row are one statement (data-modifying CTEs), so they commit together.

-- name: nieuw
-- Create a task and its creation note, through the one way in (sql/functions/40_taak_nieuw.sql).
-- $1 opdracht, $2 opdrachtgever, $3 toegewezen_aan, $4 klaar_wanneer, $5 context (jsonb),
-- $6 volgende_stap, $7 titel, $8 prioriteit, $9 max_pogingen, $10 niet_voor, $11 uiterlijk, $12 nodig (a known skill;
-- null: implied by a skill's words when no bot is named)
select taak_nieuw($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10, $11, $12);

-- name: claim
-- The best waiting task for one of these bots (or for anyone), taken with its lease and its `gestart` row in
-- one go (taak_claim: a function, so that its plan is made once per connection, with its owner's rights).
-- $1 bots (text[]), $2 lease seconds, $3 machine, $4 session id (null when none is started),
-- $5 tasks the claiming daemon still runs (text[]: a session that released its task may still be exiting),
-- $6 only bots that are switched on and not at their brake (boolean)
select * from taak_claim($1::text[], $2::integer, $3::text, $4::text, $5::text[], $6::boolean);

-- name: claim_id
-- One named task, claimed as `claim` claims (a new token, its `gestart` row, SKIP LOCKED), and no other: only
-- when it waits for this bot or for anyone and the bot is switched on and not at its brake (taak_claim_id).
-- $1 taak_id, $2 bot, $3 lease seconds, $4 machine, $5 session id
select * from taak_claim_id($1::text, $2::text, $3::integer, $4::text, $5::text);

-- name: log_fenced
-- A session's log row; the current token is required, and the row is the holder's (taak_log_met_token: the task
-- held FOR SHARE until the row is in, the lease extended only when less than half of it is left, which spares a new
-- version of the task row for most rows).
-- $1 taak_id, $2 lease_token, $3 soort, $4 tekst, $5 sessie, $6 meta, $7 lease seconds
select * from taak_log_met_token($1::text, $2::uuid, $3::text, $4::text, $5::text, $6::jsonb, $7::float8);

-- name: log_open
-- A row anyone may add without a token: a `notitie` (the owner's note, the intake's message, a session's result
-- row) or a `compact` of the owner's own session (taak_log_zonder_token). No row: no such task.
-- $1 taak_id, $2 bot, $3 soort, $4 tekst, $5 sessie, $6 meta
select * from taak_log_zonder_token($1::text, $2::text, $3::text, $4::text, $5::text, $6::jsonb);

-- name: resultaat
-- A session's result row, for the claim that had this token and session only (taak_resultaat): a journal entry made
-- by hand with another token writes nothing. No row back: no such claim.
-- $1 taak_id, $2 lease_token of the claim, $3 tekst, $4 sessie, $5 meta
select * from taak_resultaat($1::text, $2::uuid, $3::text, $4::text, $5::jsonb);

-- name: verleng
-- Extend a held lease; null back means the lease is lost (taak_verleng).
-- $1 taak_id, $2 lease_token, $3 lease seconds
select taak_verleng($1::text, $2::uuid, $3::float8);

-- name: klaar
-- Finish a held task with its evidence (taak_klaar); no row: the token is not current.
-- $1 taak_id, $2 lease_token, $3 bewijs, $4 tekst, $5 sessie, $6 meta (jsonb: the journal's sleutel)
select * from taak_klaar($1::text, $2::uuid, $3::text, $4::text, $5::text, $6::jsonb);

-- name: blokkeer
-- A held task waits for the owner: the lease is given up and the question logged. Asking is no failure: the
-- attempt is given back, so that the session after the answer is not counted past the task's maximum
-- ("poging 2 van 1", then mislukt for having asked). Migration 026, taak_blokkeer.
-- $1 taak_id, $2 lease_token, $3 vraag, $4 sessie, $5 meta (jsonb)
select * from taak_blokkeer($1::text, $2::uuid, $3::text, $4::text, $5::jsonb);

-- name: antwoord
-- The owner's answer (or a message the intake takes in); a task waiting for it goes back in the queue at once.
-- A finished task takes none (nobody would read it): no row, and the caller says why. Migration 026.
-- $1 taak_id, $2 wie, $3 tekst
select * from taak_antwoord($1::text, $2::text, $3::text);

-- name: vrijgeven
-- A session gives its held task back, with a reason. The attempt stays used: back in the queue after a
-- backoff (so the same daemon does not take it again at once), or mislukt when the attempts are used up
-- (`mislukt` says which, for the session's success line). Migration 026, taak_vrijgeven.
-- $1 taak_id, $2 lease_token, $3 reden, $4 niet_voor (null: the backoff), $5 meta (jsonb),
-- $6 backoff base seconds, $7 backoff max seconds, $8 reden as the row's phrase names it (jsonb)
select id, ts, mislukt
from taak_vrijgeven($1::text, $2::uuid, $3::text, $4::timestamptz, $5::jsonb, $6::float8, $7::float8, $8::jsonb);

-- name: annuleren
-- The owner cancels a task that is not finished. A session that holds it loses its lease, so its daemon
-- stops it at the next check (the fencing every write already has).
-- $1 taak_id, $2 wie, $3 reden, $4 reden as the row's phrase names it (jsonb)
with weg as (
    update agent_taken
    set bijgewerkt = now(),
        status = 'geannuleerd', afgerond = now(), niet_voor = null, lease_tot = null, lease_token = null
    where id = $1 and status not in ('klaar', 'mislukt', 'geannuleerd')
    returning id, geclaimd_door, status
)
insert into agent_taak_log (taak_id, bot, soort, tekst, meta)
select id, $2, 'notitie', 'geannuleerd door ' || $2 || ': ' || $3,
       jsonb_build_object('geannuleerd', true, 'zin', jsonb_build_object(
           'sleutel', 'row_cancelled', 'waarden', jsonb_build_object('who', $2::text, 'reason', $4::jsonb)))
from weg
returning id, ts;

-- name: terugnemen
-- The owner takes a held lease back by hand (a session that hangs): the attempt is given back and the task is
-- claimable again after $4 seconds. The session's token is no longer current, so its daemon, which confirms
-- the token every few seconds (TAAK_TOKEN_CHECK_SECONDS), stops it before anyone can claim the task again.
-- The row names the token taken back (`teruggenomen_token`), so that the daemon says why it stops the session.
-- $1 taak_id, $2 wie, $3 reden, $4 seconds before it may be claimed again, $5 reden as the row's phrase names it
with oud as (
    select id, lease_token from agent_taken where id = $1 and status = 'bezig' for update
), terug as (
    update agent_taken t
    set bijgewerkt = now(),
        status = 'wachtend', pogingen = greatest(t.pogingen - 1, 0),
        niet_voor = now() + make_interval(secs => $4),
        lease_tot = null, lease_token = null
    from oud
    where t.id = oud.id
    returning t.id, t.geclaimd_door, oud.lease_token
)
insert into agent_taak_log (taak_id, bot, soort, tekst, meta)
select id, $2, 'vrijgegeven', 'lease teruggenomen door ' || $2 || ' (van ' || geclaimd_door || '): ' || $3,
       jsonb_build_object('door_eigenaar', true, 'van', geclaimd_door, 'teruggenomen_token', lease_token::text,
           'zin', jsonb_build_object(
           'sleutel', 'row_taken_back',
           'waarden', jsonb_build_object('who', $2::text, 'holder', geclaimd_door, 'reason', $5::jsonb)))
from terug
returning id, ts;

-- name: stap_fenced
-- A session sets the next step of its task; the change is noted in the log (taak_stap_met_token).
-- $1 taak_id, $2 lease_token, $3 volgende_stap, $4 lease seconds, $5 meta (jsonb)
select * from taak_stap_met_token($1::text, $2::uuid, $3::text, $4::float8, $5::jsonb);

-- name: stap_open
-- The owner sets the next step of a task no session holds and that is not finished (nobody would take it).
-- $1 taak_id, $2 wie, $3 volgende_stap
with gezet as (
    update agent_taken
    set bijgewerkt = now(),
        volgende_stap = $3
    where id = $1 and status not in ('bezig', 'klaar', 'mislukt', 'geannuleerd')
    returning id
)
insert into agent_taak_log (taak_id, bot, soort, tekst, meta)
select id, $2, 'notitie', 'volgende stap: ' || $3,
       jsonb_build_object('zin', jsonb_build_object('sleutel', 'row_next_step', 'waarden', jsonb_build_object('step', $3::text)))
from gezet
returning id, ts;

-- name: taak
-- One task. $1 taak_id
select * from agent_taken where id = $1;

-- name: laatste_regels
-- The newest rows that tell a task's story, newest first (a backward walk of agent_taak_log_taak).
-- Compaction reports and summaries are counted in the briefing's summary line, never shown in a step's place.
-- $1 taak_id, $2 how many
-- Ordered as the index is (taak_id, id desc): the primary key cannot give this order, so a plan never walks it
-- backward past other tasks' rows (24.9 ms after 200,000 rows of another task).
select * from agent_taak_log where taak_id = $1 and soort <> 'compact' order by taak_id, id desc limit $2;

-- name: laatste_antwoord
-- The owner's newest answer to a task (a walk of agent_taak_log_antwoord). $1 taak_id
select * from agent_taak_log where taak_id = $1 and soort = 'antwoord' order by id desc limit 1;

-- name: alle_regels
-- The whole log of a task, oldest first (for `taak toon`). $1 taak_id
select * from agent_taak_log where taak_id = $1 order by id;

-- name: telling
-- Rows per kind and the time of the log's first row. Most kinds are counted by the log's insert trigger;
-- `gestart` and `klaar` (a few per task) are counted from their own index (agent_taak_log_beurten). $1 taak_id
with per_soort as (
    select soort, aantal from agent_taak_telling where taak_id = $1
    union all
    select soort, count(*) from agent_taak_log where taak_id = $1 and soort in ('gestart', 'klaar') group by soort
)
select soort, aantal, (select ts from agent_taak_log where taak_id = $1 order by id limit 1) as eerste
from per_soort;

-- name: compacties
-- How many compactions a task went through, for the briefing's summary line, counted as taak_overzicht counts
-- them (the view taak_compacties). $1 taak_id
select coalesce(sum(compacties), 0)::bigint from taak_compacties where taak_id = $1;

-- name: lijst
-- Tasks, newest first. $1 status (null: all), $2 toegewezen_aan (null: all), $3 limit, $4 nodig (null: all)
select * from agent_taken
where ($1::text is null or status = $1) and ($2::text is null or toegewezen_aan = $2)
  and ($4::text is null or nodig = $4)
order by aangemaakt desc, id desc
limit $3;

-- name: verlopen
-- The reaper: held tasks whose lease has passed go back to the queue with backoff, or to mislukt
-- when their attempts are used up; each gets a `verlopen` row. SKIP LOCKED lets reapers on several
-- machines run together without waiting on each other or taking the same row twice. A reaper never
-- takes the tasks its own daemon is running, and for a while after the server (re)started it takes
-- nothing: leases ran out while nobody could extend them, and their daemons need a moment to come back.
-- Migration 026, taak_verlopen.
-- $1 backoff base seconds, $2 backoff max seconds, $3 at most this many rows,
-- $4 the tasks this daemon runs (text[]), $5 seconds after the server's start before anything is reaped
select * from taak_verlopen($1::float8, $2::float8, $3::integer, $4::text[], $5::float8);

-- name: poging_mislukt
-- A held attempt ended badly: its reasons are logged (a `fout` row, then an optional `notitie`),
-- and the task goes back to the queue with backoff, or to mislukt when its attempts are used up (the `fout`
-- row then says so first, before a reason that may run over several lines: the log is where the owner reads
-- why a task failed). The new status; null: the token is not current. Migration 026, taak_poging_mislukt.
-- $1 taak_id, $2 lease_token, $3 reden, $4 notitie (null: none), $5 sessie, $6 meta,
-- $7 backoff base seconds, $8 backoff max seconds, $9 the fout row's phrase (jsonb; null: $3 is a person's text)
select taak_poging_mislukt($1::text, $2::uuid, $3::text, $4::text, $5::text, $6::jsonb, $7::float8, $8::float8,
                           $9::jsonb);

-- name: vrijgeven_poging_terug
-- A held attempt that was not the task's fault (infrastructure, shutdown, a crashed daemon):
-- the attempt is given back and the task can be claimed again at once. Migration 026, taak_poging_terug.
-- $1 taak_id, $2 lease_token, $3 reden, $4 sessie, $5 the row's phrase (jsonb; null: a person's text)
select * from taak_poging_terug($1::text, $2::uuid, $3::text, $4::text, $5::jsonb);

-- name: eigen_claims_vrijgeven
-- At start-up a daemon gives back what this machine's bots held in a previous run (its record names each claim
-- with its token), at once instead of after the lease. The attempt stays counted, and a task whose attempts are
-- used up is mislukt: a task that crashes its worker must not loop (sql/functions/40_taak_eigen_claims_vrijgeven).
-- $1 task ids (text[]), $2 their lease tokens (uuid[], in the same order), $3 reden, $4 reden as a phrase (jsonb)
select id from taak_eigen_claims_vrijgeven($1::text[], $2::uuid[], $3::text, $4::jsonb) as id;

-- name: journaal_bekend
-- Did a journalled write reach the database before the daemon could settle it? $1 taak_id, $2 sleutel
select exists (select 1 from agent_taak_log where taak_id = $1 and meta ->> 'sleutel' = $2);

-- name: lease_stand
-- Where a session's lease stands: still current, closed by its holder (klaar, blokkeer and vrijgeven
-- name the token they closed in the row's meta), cancelled or taken back by the owner, or else lost to the
-- reaper or another claim. Asked every few seconds per session: the task's row is read once, and its log only
-- when the lease is no longer current (CASE evaluates only the branch it takes).
-- $1 taak_id, $2 lease_token
with taak as (
    select coalesce(bool_or(status = 'bezig' and lease_token = $2::uuid), false) as geldig,
           coalesce(bool_or(status = 'geannuleerd'), false) as geannuleerd
    from agent_taken where id = $1
)
select geldig, geannuleerd,
       case when geldig then false else exists (
           select 1 from agent_taak_log
           where taak_id = $1 and soort in ('klaar', 'vraag', 'vrijgegeven') and meta ->> 'lease_token' = $2::text
       ) end as zelf_afgesloten,
       case when geldig then false else exists (
           select 1 from agent_taak_log
           where taak_id = $1 and soort = 'vrijgegeven' and meta ->> 'teruggenomen_token' = $2::text
       ) end as teruggenomen
from taak;

-- name: bot_zet
-- Switch a bot on or off (created when new). $1 bot, $2 actief
insert into agent_bots (bot, actief) values ($1, $2)
on conflict (bot) do update set actief = excluded.actief, bijgewerkt = now()
returning *;

-- name: bots_lijst
-- Every known bot with its switch and heartbeat. Its current tasks are the ones it holds now, from the ledger
-- (`taak_bezig`), not the heartbeat's column: that named one task of several, and still named a task for a
-- while after a clean stop gave it back.
select b.bot, b.actief, b.machine, b.pid, b.versie,
       (select string_agg(h.id, ', ' order by h.id) from taak_bezig h where h.bot = b.bot) as huidige_taak,
       b.laatst_gezien, b.bijgewerkt, b.max_sessies_per_dag, b.max_kosten_per_dag,
       array(select v.vaardigheid from taak_bot_vaardigheden v where v.bot = b.bot order by v.vaardigheid)
           as vaardigheden
from agent_bots b
order by b.bot;

-- name: bots_actief
-- Which of these bots may claim now. $1 bots (text[])
select bot from agent_bots where actief and bot = any($1::text[]) order by bot;

-- name: bots_vandaag
-- Per bot its switch and its day against its brake (`taak_bots_vandaag`).
-- $1 bots (text[]; null: every bot), $2 usage counted for every bot (false: only for bots with a brake)
select * from taak_bots_vandaag($1::text[], $2::boolean) order by bot;

-- name: rem_zetten
-- A bot's brake. $1 bot, $2 change the sessions limit, $3 max sessions (null: none), $4 change the cost
-- limit, $5 max cost (null: none)
update agent_bots
set max_sessies_per_dag = case when $2 then $3::integer else max_sessies_per_dag end,
    max_kosten_per_dag = case when $4 then $5::numeric else max_kosten_per_dag end,
    bijgewerkt = now()
where bot = $1
returning *;

-- name: rem_melden
-- Tell the owner once per bot and day that a bot reached its brake. $1 bot, $2 text
insert into taak_meldingen (taak_id, soort, sleutel, tekst, bot)
values (null, 'rem', 'rem:' || $1 || ':' || (now() at time zone taak_tijdzone())::date, $2, $1)
on conflict (sleutel) do nothing;

-- name: bot_kan
-- What a bot is for, replacing what it was: each skill made known, the ones left out taken away. The bot's skills
-- after it. $1 bot, $2 skills (text[], in their one spelling; empty: none)
with bekend as (
    insert into taak_vaardigheden (vaardigheid) select unnest($2::text[]) on conflict do nothing
), weg as (
    delete from taak_bot_vaardigheden where bot = $1 and not (vaardigheid = any($2::text[]))
), erbij as (
    insert into taak_bot_vaardigheden (bot, vaardigheid) select $1, unnest($2::text[]) on conflict do nothing
)
select array(select unnest($2::text[]) order by 1);

-- name: vaardigheden_lijst
-- Every known skill with the words that imply it and the bots that have it (switched on or not).
select v.vaardigheid,
       array(select w.woord from taak_vaardigheid_woorden w where w.vaardigheid = v.vaardigheid order by w.woord)
           as woorden,
       array(select b.bot from taak_bot_vaardigheden b where b.vaardigheid = v.vaardigheid order by b.bot) as bots,
       array(select b.bot from taak_bot_vaardigheden b join agent_bots a on a.bot = b.bot
             where b.vaardigheid = v.vaardigheid and a.actief order by b.bot) as bots_aan
from taak_vaardigheden v
order by v.vaardigheid;

-- name: vaardigheid_zetten
-- A skill made known, with the words that imply it (replacing its words). $1 skill, $2 words (text[], in the form
-- taak_vaardigheid_woorden keeps; null: as they were). A word of another skill is refused by the table's key.
with bekend as (
    insert into taak_vaardigheden (vaardigheid) values ($1) on conflict do nothing
), weg as (
    delete from taak_vaardigheid_woorden where vaardigheid = $1 and $2::text[] is not null
                                           and not (woord = any($2::text[]))
)
insert into taak_vaardigheid_woorden (woord, vaardigheid)
select w, $1 from unnest($2::text[]) as w
where not exists (select 1 from taak_vaardigheid_woorden o where o.woord = w and o.vaardigheid = $1);

-- name: vaardigheid_woorden_bezet
-- Of these words, the ones another skill has, with that skill. $1 skill, $2 words (text[])
select woord, vaardigheid from taak_vaardigheid_woorden
where woord = any($2::text[]) and vaardigheid <> $1
order by woord;

-- name: bot_vergeten
-- A bot's row gone: its switch, brake and heartbeat (`queue-worker demo` after it ran). Its tasks stay. $1 bot
delete from agent_bots where bot = $1;

-- name: bots_aanmelden
-- Make sure the daemon's bots exist (switched off unless the owner turned them on). $1 bots (text[])
insert into agent_bots (bot) select unnest($1::text[]) on conflict (bot) do nothing;

-- name: hartslag
-- The daemon is alive: per bot its machine, process, version and current task. Returns what its bots can do: a
-- notice of a task that needs a skill wakes the daemon only when one of them has it (worker/core/wake.py).
-- $1 bots (text[]), $2 machine, $3 pid, $4 versie, $5 current tasks (text[], parallel to $1; null: idle)
with beat as (
    update agent_bots b
    set machine = $2, pid = $3, versie = $4, huidige_taak = h.taak, laatst_gezien = now()
    from unnest($1::text[], $5::text[]) as h (bot, taak)
    where b.bot = h.bot
)
select array(select distinct v.vaardigheid from taak_bot_vaardigheden v where v.bot = any($1::text[]))
    as vaardigheden;

-- name: sonde_backend
-- The server process behind this connection: two connections open at once share one only through a
-- transaction pooler (worker/db/pooler.py).
select pg_backend_pid();

-- name: sonde_zetten
-- A session setting on this connection; a transaction pooler lets another connection see it, or loses it.
-- $1 a random mark
select set_config('taak.sonde', $1, false);

-- name: sonde_lezen
-- The session setting sonde_zetten made, as this connection sees it.
select current_setting('taak.sonde', true);

-- name: tabel_stand
-- One of the owner's own tables as it stands (bot_heartbeats, agent_messages): row-level security, its
-- policies, and who may write or delete (grantee 0 in the ACL is PUBLIC). No row: there is no such table.
-- $1 the table's name (public.bot_heartbeats)
with tabel as (
    select c.oid, c.relrowsecurity, c.relowner, coalesce(c.relacl, acldefault('r', c.relowner)) as acl
    from pg_class c where c.oid = to_regclass($1)
), rechten as (
    select case when a.grantee = 0 then 'public' else pg_get_userbyid(a.grantee) end as rol, a.privilege_type
    from tabel, aclexplode(tabel.acl) a
    where a.grantee <> tabel.relowner
)
select tabel.relrowsecurity as rls,
       array(select polname::text from pg_policy where polrelid = tabel.oid order by polname) as policies,
       array(select distinct rol from rechten where privilege_type in ('INSERT', 'UPDATE') order by rol) as writers,
       array(select distinct rol from rechten where privilege_type in ('DELETE', 'TRUNCATE') order by rol) as deleters
from tabel;

-- name: leeft
-- A health check of a connection (the daemon's LISTEN connection).
select 1;

-- name: migraties_tabel
-- Where applied migrations are recorded (made before the first migration runs), each with its kind: `versie` (a
-- versioned migration), `herhaalbaar` (a file of sql/functions), `opgevouwen` (folded into the baseline).
create table if not exists taak_migraties (
    naam      text primary key,
    checksum  text not null,
    toegepast timestamptz not null default now(),
    soort     text not null default 'versie'
);

-- name: zoekpad_lezen
-- The connection's search_path as it is now (the URL may set one).
select current_setting('search_path');

-- name: zoekpad_zetten
-- The connection's search_path for the session. $1 the path
select set_config('search_path', $1, false);

-- name: migraties_slot
-- Migrations take turns: a transaction-scoped advisory lock (works through any pooler). $1 lock key
select pg_advisory_xact_lock($1);

-- name: taken_zichtbaar
-- Does the connection's own search_path see taak's tables?
select to_regclass('agent_taken') is not null;

-- name: database_klok
-- The database's clock, beside this machine's (`taak doctor`).
select now();

-- name: bots_leesbaar
-- Does the database answer with taak's tables (the cockpit, before it says it serves)?
select count(*) from agent_bots;

-- name: migraties_bestaan
-- Has this database ever been migrated?
select to_regclass('taak_migraties') is not null;

-- name: migraties_toegepast
-- The applied migrations, their checksums and kinds. A record of before the first release has no kind: all versioned.
select naam, checksum, coalesce(to_jsonb(m) ->> 'soort', 'versie') as soort from taak_migraties m;

-- name: migratie_vastleggen
-- Record an applied migration, or a function file applied again. $1 name, $2 checksum, $3 kind
insert into taak_migraties (naam, checksum, soort) values ($1, $2, $3)
on conflict (naam) do update set checksum = excluded.checksum, soort = excluded.soort, toegepast = now();

-- name: migraties_opvouwen
-- A record of the 27 migrations of before the first release, which were folded into the baseline: they are kept, as
-- `opgevouwen`, and the baseline is recorded beside them (worker/db/migrate.py LAST_FOLDED).
alter table taak_migraties add column if not exists soort text not null default 'versie';
update taak_migraties set soort = 'opgevouwen' where soort = 'versie';

-- name: rechten_zetten
-- Every privilege of ours as it should be, whatever default privileges granted.
select taak_rechten();

-- name: tijdzone_zetten
-- The household's time zone, which the database uses for task IDs. $1 IANA time zone name
insert into taak_instellingen (sleutel, waarde) values ('tijdzone', $1)
on conflict (sleutel) do update set waarde = excluded.waarde
where taak_instellingen.waarde is distinct from excluded.waarde;

-- name: taken_afgerond
-- Which of these tasks are finished (klaar, mislukt, geannuleerd): their session folders may be pruned. $1 ids
select id from agent_taken where id = any($1::text[]) and status in ('klaar', 'mislukt', 'geannuleerd') order by id;

-- name: vloot_eigenaar
-- The owner's name for the whole fleet (null: none set; each machine says TAAK_OWNER, else its OS user).
select naam from taak_vloot_eigenaar;

-- name: vloot_eigenaar_zetten
-- Set the owner's name for the whole fleet. $1 naam
insert into taak_vloot_eigenaar (een, naam) values (true, $1)
on conflict (een) do update set naam = excluded.naam, gezet = now()
returning naam;

-- name: machine_zet
-- Create or update a machine; null keeps the IP, an empty array keeps the bots. $1 naam, $2 ip, $3 bots
insert into machines (naam, ip, bots) values ($1, $2::inet, coalesce($3::text[], '{}'))
on conflict (naam) do update
set ip = coalesce(excluded.ip, machines.ip),
    bots = case when cardinality(excluded.bots) > 0 then excluded.bots else machines.bots end,
    bijgewerkt = now();

-- name: machine_alias
-- Give a machine an alias (already its own: nothing happens). $1 alias, $2 machine
insert into machine_aliassen (alias, machine) values ($1, $2)
on conflict (alias) do update set machine = excluded.machine where machine_aliassen.machine = excluded.machine;

-- name: machine_wie
-- The machine a name or alias stands for, case-insensitively, with all its names. $1 name or alias
select m.naam, host(m.ip) as ip, m.bots,
       coalesce(array_agg(a.alias order by a.alias) filter (where a.alias is not null), '{}') as aliassen
from machines m left join machine_aliassen a on a.machine = m.naam
where lower(m.naam) = lower($1)
   or m.naam = (select machine from machine_aliassen where lower(alias) = lower($1))
group by m.naam;

-- name: machines_lijst
-- Every machine with all its names.
select m.naam, host(m.ip) as ip, m.bots,
       coalesce(array_agg(a.alias order by a.alias) filter (where a.alias is not null), '{}') as aliassen
from machines m left join machine_aliassen a on a.machine = m.naam
group by m.naam order by m.naam;

-- name: machines_voor_namen
-- The machines some names (fixed facts of a task) stand for. $1 names (text[])
select lower(n.naam) as gezocht, m.naam, host(m.ip) as ip, m.bots,
       coalesce((select array_agg(a.alias order by a.alias) from machine_aliassen a where a.machine = m.naam), '{}')
           as aliassen
from unnest($1::text[]) as n (naam)
join machines m on lower(m.naam) = lower(n.naam)
   or m.naam = (select machine from machine_aliassen where lower(alias) = lower(n.naam));

-- name: overzicht
-- Per bot: what is held, waiting, waiting for the owner, done and failed today, sessions, steps, cost, heartbeat.
select * from taak_overzicht;

-- name: over_tijd
-- Per bot: open tasks past their due date (the view taak_over_tijd).
select * from taak_over_tijd order by bot;

-- name: overzicht_bezig
-- The held tasks with their lease left.
select * from taak_bezig order by lease_tot;

-- name: overzicht_per_dag
-- `taak overzicht --per-dag` and the cockpit's before and after: per day of the last $1 days (taak_dag in $6, the
-- run's TAAK_TIMEZONE, as every time taak shows) a row for the fleet (bot null, every day) and one per bot that did
-- anything that day. A task counts for its bot as taak_overzicht counts it; sessions per finished task are the
-- finished tasks' own sessions, whenever they ran; a question waited until the first answer after it, or until now
-- while its task still waits for the owner (a question whose task went on unanswered, cancelled say, has no wait). A
-- bot's switch-on is the day of its first session (the schema records no moment of `taak bot aan`), the fleet's the
-- first of those. The old queue (taak_oude_wachtrij) is read for a bot of agent_bots on the days before its
-- switch-on, never after, where intake turns its messages into the tasks counted here: `berichten` and
-- `afgehandeld` are counts where it is read (the fleet's: where it is read for any bot), null where not, the one
-- rule the text and --json show.
-- $1 days, $2..$4 the old queue's time, recipient and status columns ($4 '': none, the share handled unknown), $5
-- its open statuses (lower case), $6 the days' time zone, $7 whether the old queue can be read at all
with dagen as (
    select d::date as dag
    from generate_series((taak_dag(now(), $6) - ($1::int - 1))::timestamp, taak_dag(now(), $6)::timestamp,
                         interval '1 day') d
), vanaf as (  -- a bound before the first day's start wherever the zone is, for the indexes; the days cut exactly
    select now() - make_interval(days => $1::int + 1) as ts
), taak as (
    select t.id, t.status, t.aangemaakt, t.afgerond,
           coalesce(t.toegewezen_aan, nullif(split_part(t.geclaimd_door, '@', 1), ''), '-') as bot
    from agent_taken t
), aangezet as (
    select t.bot, taak_dag(min(l.ts), $6) as dag
    from agent_taak_log l join taak t on t.id = l.taak_id where l.soort = 'gestart' group by t.bot
), leest as (  -- the days and bots whose old queue is read: agent_bots' bots before their switch-on
    select d.dag, b.bot
    from dagen d cross join agent_bots b left join aangezet z on z.bot = b.bot
    where $7::boolean and (z.dag is null or d.dag < z.dag)
), feiten (dag, bot, soort, waarde) as (
    -- One row per event; waarde: the sessions of a finished task, whether a session logged no step, the hours a
    -- question waited, a session's compactions, a result's cost, whether an old message was handled.
    select taak_dag(t.aangemaakt, $6), t.bot, 'nieuw', null::numeric
    from taak t where t.aangemaakt >= (select ts from vanaf)
    union all
    select taak_dag(t.afgerond, $6), t.bot, 'klaar',
           (select count(*) from agent_taak_log g where g.taak_id = t.id and g.soort = 'gestart')
    from taak t where t.status = 'klaar' and t.afgerond >= (select ts from vanaf)
    union all
    select taak_dag(t.afgerond, $6), t.bot, 'mislukt', null from taak t
    where t.status = 'mislukt' and t.afgerond >= (select ts from vanaf)
    union all
    select taak_dag(s.gestart, $6), t.bot, 'sessie', case when s.logde_stap then 0 else 1 end
    from taak_sessies s join taak t on t.id = s.taak_id where s.gestart >= (select ts from vanaf)
    union all
    select taak_dag(v.ts, $6), t.bot, 'vraag',
           extract(epoch from coalesce(
               (select min(a.ts) from agent_taak_log a where a.taak_id = v.taak_id and a.soort = 'antwoord' and a.id > v.id),
               case when t.status = 'wacht_op_mens' then now() end) - v.ts) / 3600
    from agent_taak_log v join taak t on t.id = v.taak_id where v.soort = 'vraag' and v.ts >= (select ts from vanaf)
    union all
    select taak_dag(c.eerste, $6), t.bot, 'compactie', c.compacties
    from taak_compacties c join taak t on t.id = c.taak_id where c.eerste >= (select ts from vanaf)
    union all
    select taak_dag(l.ts, $6), t.bot, 'kosten', (l.meta ->> 'total_cost_usd')::numeric
    from agent_taak_log l join taak t on t.id = l.taak_id
    where l.soort = 'notitie' and l.meta ? 'resultaat' and l.meta ->> 'total_cost_usd' is not null
      and l.ts >= (select ts from vanaf)
    union all
    select o.dag, o.bot, 'bericht', o.afgehandeld
    from taak_oude_wachtrij((select ts from vanaf), $2, $3, $4, $5::text[], $6) o
    join leest l on l.dag = o.dag and l.bot = o.bot
), per_dag as (
    select f.dag, f.bot,
           count(*) filter (where f.soort = 'nieuw') as nieuw,
           count(*) filter (where f.soort = 'klaar') as klaar,
           count(*) filter (where f.soort = 'mislukt') as mislukt,
           count(*) filter (where f.soort = 'sessie') as sessies,
           round(sum(f.waarde) filter (where f.soort = 'klaar') / nullif(count(*) filter (where f.soort = 'klaar'), 0),
                 2) as sessies_per_klare_taak,
           coalesce(sum(f.waarde) filter (where f.soort = 'sessie'), 0)::bigint as sessies_zonder_stap,
           count(*) filter (where f.soort = 'vraag') as vragen,
           round((percentile_cont(0.5) within group (order by f.waarde) filter (where f.soort = 'vraag'))::numeric,
                 1) as vraag_wacht_uren,
           coalesce(sum(f.waarde) filter (where f.soort = 'compactie'), 0)::bigint as compacties,
           coalesce(sum(f.waarde) filter (where f.soort = 'kosten'), 0) as kosten_usd,
           count(*) filter (where f.soort = 'bericht') as berichten,
           (sum(f.waarde) filter (where f.soort = 'bericht'))::bigint as afgehandeld
    from feiten f join dagen d on d.dag = f.dag
    group by grouping sets ((f.dag, f.bot), (f.dag))
)
select d.dag, p.bot,
       coalesce(p.nieuw, 0) as nieuw, coalesce(p.klaar, 0) as klaar, coalesce(p.mislukt, 0) as mislukt,
       coalesce(p.sessies, 0) as sessies, p.sessies_per_klare_taak,
       coalesce(p.sessies_zonder_stap, 0) as sessies_zonder_stap,
       coalesce(p.vragen, 0) as vragen, p.vraag_wacht_uren,
       coalesce(p.compacties, 0) as compacties, coalesce(p.kosten_usd, 0) as kosten_usd,
       case when o.leest then coalesce(p.berichten, 0) end as berichten,
       case when o.leest and $4 <> '' then coalesce(p.afgehandeld, 0) end as afgehandeld,
       z.dag as aangezet, z.dag is null or d.dag < z.dag as voor_aanzetten
from dagen d
left join per_dag p on p.dag = d.dag
left join lateral (
    select min(a.dag) as dag from aangezet a where a.bot = p.bot or p.bot is null
) z on true
left join (select l.dag, array_agg(l.bot) as bots from leest l group by l.dag) g on g.dag = d.dag
cross join lateral (select g.dag is not null and (p.bot is null or p.bot = any(g.bots)) as leest) o
order by d.dag, p.bot nulls first;

-- name: oude_wachtrij_staat
-- The old queue as `taak overzicht --per-dag` may read it: whether agent_messages is there, whether this role may
-- read it, and its column names.
select to_regclass('public.agent_messages') is not null as bestaat,
       case when to_regclass('public.agent_messages') is not null
            then has_table_privilege('public.agent_messages', 'select') else false end as mag_lezen,
       array(select column_name::text from information_schema.columns
             where table_schema = 'public' and table_name = 'agent_messages') as kolommen;

-- name: overzicht_per_dag_zonder_jit
-- For overzicht_per_dag's transaction: its plan's estimate (taak_sessies' step per session) passes the JIT's
-- threshold on a year of log, and compiling cost more than running: 250 ms of 550 on 5,000 tasks.
set local jit = off;

-- name: tail_start
-- The newest log rows to start following from. $1 taak_id (null: all), $2 bot (null: all), $3 how many
select l.*, coalesce(t.toegewezen_aan, l.bot) as taak_bot from agent_taak_log l join agent_taken t on t.id = l.taak_id
where ($1::text is null or l.taak_id = $1) and ($2::text is null or l.bot = $2 or t.toegewezen_aan = $2)
order by l.id desc limit $3;

-- name: tail_na
-- Log rows after a given one, for `taak tail`. $1 after this id, $2 taak_id (null: all), $3 bot (null: all)
select l.*, coalesce(t.toegewezen_aan, l.bot) as taak_bot from agent_taak_log l join agent_taken t on t.id = l.taak_id
where l.id > $1 and ($2::text is null or l.taak_id = $2) and ($3::text is null or l.bot = $3 or t.toegewezen_aan = $3)
order by l.id;

-- name: log_laatste_id
-- The newest log row's id (where `taak tail` starts when it shows nothing first).
select max(id) from agent_taak_log;

-- name: herinneringen_maken
-- Remind the owner of questions still unanswered: one reminder per full period since the question.
-- $1 period in seconds
insert into taak_meldingen (taak_id, soort, sleutel, tekst)
select m.taak_id, 'herinnering',
       'herinnering:' || m.sleutel || ':' || floor(extract(epoch from now() - m.aangemaakt) / $1)::bigint,
       'herinnering: ' || m.tekst
from taak_meldingen m
join agent_taken t on t.id = m.taak_id
where m.soort = 'vraag' and m.verstuurd is not null and t.status = 'wacht_op_mens'
  and m.aangemaakt <= now() - make_interval(secs => $1)
  and not exists (select 1 from agent_taak_log a where a.taak_id = m.taak_id and a.soort = 'antwoord'
                    and a.id > split_part(m.sleutel, ':', 2)::bigint)
on conflict (sleutel) do nothing;

-- name: uiterlijk_meldingen_maken
-- Tell the owner once per task and due date that a task that is not finished passed its due date.
insert into taak_meldingen (taak_id, soort, sleutel, tekst)
select t.id, 'uiterlijk', 'uiterlijk:' || t.id || ':' || extract(epoch from t.uiterlijk)::bigint,
       t.id || ': over de uiterlijke datum (' || to_char(t.uiterlijk at time zone taak_tijdzone(), 'YYYY-MM-DD HH24:MI')
           || ', ' || t.status || '): ' || t.titel
from agent_taken t
where t.uiterlijk < now() and t.status not in ('klaar', 'mislukt', 'geannuleerd')
on conflict (sleutel) do nothing;

-- name: escalaties_maken
-- A question left unanswered past the decision deadline is escalated once: one more message, marked so.
-- $1 the deadline in seconds
insert into taak_meldingen (taak_id, soort, sleutel, tekst)
select m.taak_id, 'escalatie', 'escalatie:' || m.sleutel,
       'beslistermijn verstreken (' || round($1 / 3600.0) || ' uur): ' || m.tekst
from taak_meldingen m
join agent_taken t on t.id = m.taak_id
where m.soort = 'vraag' and t.status = 'wacht_op_mens'
  and m.aangemaakt <= now() - make_interval(secs => $1)
  and not exists (select 1 from agent_taak_log a where a.taak_id = m.taak_id and a.soort = 'antwoord'
                    and a.id > split_part(m.sleutel, ':', 2)::bigint)
on conflict (sleutel) do nothing;

-- name: vaardigheid_meldingen_maken
-- Tell the owner once per task that it waits for a skill no switched-on bot has (a walk of agent_taken_claim_nodig).
insert into taak_meldingen (taak_id, soort, sleutel, tekst)
select t.id, 'vaardigheid', 'vaardigheid:' || t.id,
       t.id || ': wacht op een bot die ' || t.nodig || ' kan (geen bot die aan staat heeft die vaardigheid): '
           || t.titel
from agent_taken t
where t.status = 'wachtend' and t.toegewezen_aan is null and t.nodig is not null
  and not exists (select 1 from taak_bot_vaardigheden v join agent_bots b on b.bot = v.bot
                  where v.vaardigheid = t.nodig and b.actief)
  and not exists (select 1 from taak_meldingen m where m.sleutel = 'vaardigheid:' || t.id)
on conflict (sleutel) do nothing;

-- name: bezorgers_zetten
-- What a starting daemon delivers for the bots it runs (a finished task is put in the outbox only when some
-- daemon delivers it). $1 holders (text[], bot@machine), $2 kinds it delivers (text[])
with vergeten as (
    delete from taak_bezorgers where houder = any($1::text[]) and not (soort = any($2::text[]))
)
insert into taak_bezorgers (houder, soort)
select houder, soort from unnest($1::text[]) as houder cross join unnest($2::text[]) as soort
on conflict (soort, houder) do nothing;

-- name: melding_pakken
-- The oldest unsent message of these kinds that is due, locked while it is sent. $1 kinds (text[])
select * from taak_meldingen
where verstuurd is null and volgende_poging <= now() and soort = any($1::text[])
order by id
limit 1
for update skip locked;

-- name: melding_verstuurd
-- Record a sent message. $1 id
update taak_meldingen set verstuurd = now(), pogingen = pogingen + 1, laatste_fout = null where id = $1;

-- name: melding_stand
-- What a message about a task is checked against when it is sent: the task as it is now, and whether the
-- question the message is about (its log row, $2; null: none) was answered since, and whether a switched-on bot has
-- what it needs. $1 taak_id (null: a bot's)
select t.id, t.status, t.titel, t.max_pogingen,
       exists (select 1 from agent_taak_log a
               where a.taak_id = t.id and a.soort = 'antwoord' and a.id > $2::bigint) as beantwoord,
       exists (select 1 from taak_bot_vaardigheden v join agent_bots b on b.bot = v.bot
               where v.vaardigheid = t.nodig and b.actief) as vaardig
from agent_taken t
where t.id = $1;

-- name: melding_vervallen
-- A message no longer true (a question answered before any daemon sent it) is settled unsent: `verstuurd`
-- says it left the outbox, `laatste_fout` why it was not sent. $1 id, $2 why
update taak_meldingen set verstuurd = now(), laatste_fout = $2 where id = $1;

-- name: melding_mislukt
-- Record a failed send and when to try again. $1 id, $2 error, $3 backoff base seconds, $4 backoff max seconds
update taak_meldingen
set pogingen = pogingen + 1, laatste_fout = $2,
    volgende_poging = now() + taak_backoff(pogingen + 1, $3, $4)
where id = $1;

-- name: melding_te_routeren
-- The oldest owner's message not yet routed (at once, held, or into the digest) that is due, locked while it is
-- decided, with how many urgent questions its bot already sent today. $1 kinds (text[])
select m.*, coalesce(u.dringend, 0) as dringend_vandaag
from taak_meldingen m
left join taak_dringend_vandaag u on u.bot = m.bot
where m.verstuurd is null and m.route is null and m.volgende_poging <= now() and m.soort = any($1::text[])
order by m.id
limit 1
for update of m skip locked;

-- name: melding_nu
-- An owner's message sent at once: said as $2 to every channel. $1 melding id, $2 text
with bericht as (
    insert into taak_berichten (soort, taak_id, melding_id, tekst)
    select 'dringend', m.taak_id, m.id, $2 from taak_meldingen m where m.id = $1
    returning id
)
update taak_meldingen set route = 'nu', verstuurd = now(), pogingen = pogingen + 1, laatste_fout = null
where id = $1;

-- name: melding_vaardigheid_samen
-- The other messages not yet routed of tasks that wait for the same skill as the task of message $1, settled as said
-- by its message (sent at once: one message a skill, not one a task; each task is still told of once). Their tasks
-- and the skill. $1 melding id
with mee as (
    select m.id, m.taak_id, e.nodig
    from taak_meldingen m
    join agent_taken t on t.id = m.taak_id
    join taak_meldingen eerste on eerste.id = $1
    join agent_taken e on e.id = eerste.taak_id
    where m.soort = 'vaardigheid' and m.verstuurd is null and m.route is null and m.id <> $1
      and t.nodig = e.nodig and t.status = 'wachtend' and t.toegewezen_aan is null
    for update of m skip locked
)
update taak_meldingen m set route = 'nu', verstuurd = now(), pogingen = m.pogingen + 1, laatste_fout = null
from mee where m.id = mee.id
returning mee.id, mee.taak_id, mee.nodig;

-- name: melding_vasthouden
-- An urgent message held through the quiet hours. $1 id, $2 until
update taak_meldingen set volgende_poging = $2 where id = $1;

-- name: melding_naar_dagbericht
-- An owner's message that waits for the next digest. $1 id
update taak_meldingen set route = 'dagbericht' where id = $1;

-- name: dagbericht_claimen
-- Claim a digest's time for this daemon: no row when another daemon has it (the primary key waits for the other's
-- transaction and then says so). $1 moment, $2 machine, $3 late
insert into taak_dagberichten (moment, machine, laat) values ($1, $2, $3)
on conflict (moment) do nothing
returning moment;

-- name: dagbericht_vastleggen
-- The claimed digest's text, and the messages that waited for it settled as the digest's, in the claim's
-- transaction. $1 moment, $2 text
with bericht as (
    insert into taak_berichten (soort, tekst) values ('dagbericht', $2) returning id
), dag as (
    update taak_dagberichten d set bericht_id = bericht.id from bericht where d.moment = $1
), opgenomen as (
    update taak_meldingen m set verstuurd = now(), dagbericht = $1
    where m.route = 'dagbericht' and m.verstuurd is null
    returning m.id
)
select count(*) from opgenomen;

-- name: dagbericht_laatste
-- The last digest sent: when it was due (null: none yet).
select max(moment) from taak_dagberichten;

-- name: dagbericht_wacht
-- What waits for the owner, oldest question first: the question verbatim, who asked, when, and whether it was marked
-- urgent past its bot's limit (then it waits for this digest).
select t.id, t.titel, v.bot, v.tekst as vraag, v.ts as gevraagd,
       exists (select 1 from taak_meldingen m
               where m.sleutel = 'vraag:' || v.id and m.dringend and m.route = 'dagbericht') as boven_grens
from agent_taken t
cross join lateral (
    select l.id, l.bot, l.tekst, l.ts from agent_taak_log l
    where l.taak_id = t.id and l.soort = 'vraag' order by l.id desc limit 1
) v
where t.status = 'wacht_op_mens'
order by v.ts;

-- name: dagbericht_afgerond
-- Tasks that failed or finished since $1 (the last digest's time), with their bot and evidence.
select t.id, t.titel, t.status, t.bewijs, t.pogingen, t.max_pogingen,
       coalesce(t.toegewezen_aan, nullif(split_part(t.geclaimd_door, '@', 1), ''), '-') as bot
from agent_taken t
where t.status in ('klaar', 'mislukt') and t.afgerond >= $1
order by t.afgerond;

-- name: dagbericht_uiterlijk
-- Open tasks due before the end of the household's day $1 (a local date), the earliest first.
select t.id, t.titel, t.status, t.uiterlijk
from agent_taken t
where t.status not in ('klaar', 'mislukt', 'geannuleerd')
  and t.uiterlijk < ($1::date + 1)::timestamp at time zone taak_tijdzone()
order by t.uiterlijk;

-- name: dagbericht_vaardigheid
-- Tasks the owner was not told of yet that wait for a skill no switched-on bot has (their message waits for this
-- digest), and still do.
select t.id, t.titel, t.nodig
from taak_meldingen m
join agent_taken t on t.id = m.taak_id
where m.soort = 'vaardigheid' and m.route = 'dagbericht' and m.verstuurd is null
  and t.status = 'wachtend' and t.toegewezen_aan is null
  and not exists (select 1 from taak_bot_vaardigheden v join agent_bots b on b.bot = v.bot
                  where v.vaardigheid = t.nodig and b.actief)
order by m.id;

-- name: dagbericht_per_bot
-- Per bot today: sessions started, tasks finished, cost, and whether its brake holds.
select d.bot, d.sessies_vandaag, d.kosten_vandaag, d.geremd, coalesce(o.klaar_vandaag, 0) as klaar_vandaag,
       coalesce(u.dringend, 0) as dringend_vandaag
from taak_bots_vandaag(null, true) d
left join taak_overzicht o on o.bot = d.bot
left join taak_dringend_vandaag u on u.bot = d.bot
order by d.bot;

-- name: dringend_vandaag_per_bot
-- Per bot: the questions it marked urgent that went to the owner at once today (its limit is the daemon's setting).
select bot, dringend from taak_dringend_vandaag;

-- name: kanaal_zetten
-- A daemon has this channel: known to the fleet from now on (its messages from the first time it was seen).
insert into taak_kanalen (kanaal) values ($1)
on conflict (kanaal) do update set gezien = now();

-- name: kanaal_eerste
-- Since when the fleet has had a channel to the owner (null: none yet).
select min(sinds) from taak_kanalen;

-- name: bezorgingen_maken
-- Every message made since the channel was first seen gets a row to deliver it on that channel. $1 kanaal
insert into taak_bezorgingen (bericht_id, kanaal)
select b.id, k.kanaal from taak_berichten b join taak_kanalen k on k.kanaal = $1
where b.aangemaakt >= k.sinds and (b.kanaal is null or b.kanaal = k.kanaal)
on conflict do nothing;

-- name: bezorging_pakken
-- The oldest message this channel still has to deliver that is due, locked while it is sent. $1 kanaal
select z.bericht_id, z.pogingen, coalesce(m.soort, b.soort) as soort, b.taak_id, b.tekst, b.antwoord_op
from taak_bezorgingen z
join taak_berichten b on b.id = z.bericht_id
left join taak_meldingen m on m.id = b.melding_id
where z.kanaal = $1 and z.verstuurd is null and z.volgende_poging <= now()
order by z.bericht_id
limit 1
for update of z skip locked;

-- name: bevestiging_maken
-- A confirmation of the owner's answer, for the channel it came from only, as a reply to the owner's message there.
-- $1 kanaal, $2 taak_id (null: none), $3 text, $4 the message it replies to
insert into taak_berichten (soort, kanaal, taak_id, tekst, antwoord_op) values ('bevestiging', $1, $2, $3, $4);

-- name: bezorging_verstuurd
-- $1 bericht_id, $2 kanaal, $3 the channel's own id of the message (Telegram's message id; null: none)
update taak_bezorgingen set verstuurd = now(), pogingen = pogingen + 1, laatste_fout = null, extern_id = $3
where bericht_id = $1 and kanaal = $2;

-- name: bezorging_mislukt
-- $1 bericht_id, $2 kanaal, $3 error, $4 backoff base seconds, $5 backoff max seconds
update taak_bezorgingen
set pogingen = pogingen + 1, laatste_fout = $3, volgende_poging = now() + taak_backoff(pogingen + 1, $4, $5)
where bericht_id = $1 and kanaal = $2;

-- name: lezer_nemen
-- Take or keep the reader's lease of a two-way channel: a row when this daemon reads now (its lease free, run out,
-- or its own), with the next update to ask for. $1 kanaal, $2 holder, $3 lease seconds
insert into taak_lezers as l (kanaal, houder, lease_tot) values ($1, $2, now() + make_interval(secs => $3))
on conflict (kanaal) do update set houder = $2, lease_tot = now() + make_interval(secs => $3)
where l.houder = $2 or l.houder is null or l.lease_tot < now()
returning l.volgende_update;

-- name: lezer_verder
-- Updates up to $3 were handled: ask for the next one from now on (only while the lease is this daemon's).
-- $1 kanaal, $2 holder, $3 next update id
update taak_lezers set volgende_update = greatest(volgende_update, $3)
where kanaal = $1 and houder = $2
returning volgende_update;

-- name: lezer_loslaten
-- A reader that stops gives its lease back, so another daemon takes over at once. $1 kanaal, $2 holder
update taak_lezers set houder = null, lease_tot = null where kanaal = $1 and houder = $2;

-- name: wachtende_taken
-- The IDs of the tasks that wait for the owner.
select id from agent_taken where status = 'wacht_op_mens' order by id;

-- name: intake_tabel
-- The old queue table's column names (null: there is no such table).
select (select array_agg(column_name::text) from information_schema.columns
        where table_schema = 'public' and table_name = 'agent_messages')
where to_regclass('public.agent_messages') is not null;

-- name: intake_kolommen
-- The same columns the baseline migration adds, for a table that appeared later.
alter table public.agent_messages add column if not exists task_id text,
                                  add column if not exists parent_id text;

-- name: intake_vanaf
-- The intake's default cut-off, stored by the baseline migration when it was applied.
select waarde from taak_instellingen where sleutel = 'intake_vanaf';

-- name: intake_berichten
-- Messages for these bots that became nothing yet, locked so that several daemons take each once. The
-- column names come from the settings (TAAK_INTAKE_*), quoted as identifiers; the status column may be
-- absent ({status} is then null). The recipient is compared in the one spelling of a bot.
-- $1 bots (text[]), $2 batch size
select {id}::text as bericht_id, {text}::text as tekst, {sender}::text as afzender,
       taak_botnaam({recipient}::text) as ontvanger, {time}::timestamptz as moment, {status} as status,
       task_id::text as task_id,
       (select t.id from agent_taken t where t.id = substring({text}::text from '\mHV-[0-9]{{8}}-[0-9]{{3,}}\M'))
           as genoemde_taak
from public.agent_messages
where task_id is null and taak_botnaam({recipient}::text) = any($1::text[])
order by {id}
limit $2
for update skip locked;

-- name: intake_bericht
-- One message by its ID, locked (`taak intake neem`). $1 message id (as text)
select {id}::text as bericht_id, {text}::text as tekst, {sender}::text as afzender,
       taak_botnaam({recipient}::text) as ontvanger, {time}::timestamptz as moment, {status} as status,
       task_id::text as task_id,
       (select t.id from agent_taken t where t.id = substring({text}::text from '\mHV-[0-9]{{8}}-[0-9]{{3,}}\M'))
           as genoemde_taak
from public.agent_messages
where {id}::text = $1
for update;

-- name: intake_voorbeeld
-- Every message (for one bot, or all) as the intake would see it, for the preview; {task_id} is null for a
-- table the intake has not touched yet (it has no task_id column). $1 bot (null: all)
select {id}::text as bericht_id, null::text as tekst, {sender}::text as afzender,
       taak_botnaam({recipient}::text) as ontvanger, {time}::timestamptz as moment, {status} as status,
       {task_id} as task_id, char_length({text}::text) as lengte,
       not coalesce(taak_zichtbaar({text}::text), false) as leeg,  -- as the ledger judges an opdracht blank
       (select t.id from agent_taken t where t.id = substring({text}::text from '\mHV-[0-9]{{8}}-[0-9]{{3,}}\M'))
           as genoemde_taak
from public.agent_messages
where $1::text is null or taak_botnaam({recipient}::text) = $1;

-- name: intake_koppelen
-- Record which task a message became or joined. $1 message id (as text), $2 task id, $3 parent task id
update public.agent_messages set task_id = $2, parent_id = $3 where {id}::text = $1;

-- name: intake_achterstand
-- The skipped backlog, narrowed: messages from before the cut-off ($1; or without a time) that no task took and
-- the owner did not decide on (no task ID, or $7 = 'overgeslagen'), with these filters, each null for any. The
-- status rule (what the old worker left open) is the caller's: worker/core/intake.py, in_backlog.
-- $1 cut-off, $2 sender (trimmed, lower case), $3 recipient bot, $4 first day, $5 last day (days of the calendar
-- in the time zone $8: no bound is moved out of the calendar's range), $6 message ids (text[]), $7 the mark of a
-- skipped message
select {id}::text as bericht_id, {text}::text as tekst, {sender}::text as afzender,
       taak_botnaam({recipient}::text) as ontvanger, {time}::timestamptz as moment, {status} as status,
       {task_id} as task_id,
       (select t.id from agent_taken t where t.id = substring({text}::text from '\mHV-[0-9]{{8}}-[0-9]{{3,}}\M'))
           as genoemde_taak,
       (select t.status::text from agent_taken t
        where t.id = substring({text}::text from '\mHV-[0-9]{{8}}-[0-9]{{3,}}\M')) as genoemde_status
from public.agent_messages
where ({task_id} is null or {task_id} = $7::text)
  and ({time} is null or {time}::timestamptz < $1::timestamptz)
  and ($2::text is null or lower(btrim({sender}::text, E' \t\r\n')) = $2::text)
  and ($3::text is null or taak_botnaam({recipient}::text) = $3::text)
  and ($4::date is null or ({time}::timestamptz at time zone $8::text)::date >= $4::date)
  and ($5::date is null or ({time}::timestamptz at time zone $8::text)::date <= $5::date)
  and ($6::text[] is null or {id}::text = any($6::text[]))
order by {time} nulls first, {id};

-- name: intake_vastzetten
-- These messages locked until the transaction ends, in one order (two bulk intakes wait for each other and
-- never deadlock), with their task ID as it is once the lock is had. $1 message ids (text[])
select {id}::text as bericht_id, task_id::text as task_id
from public.agent_messages
where {id}::text = any($1::text[])
order by {id}
for update;

-- name: taak_vergrendeld
-- One task, locked until the transaction ends: decisions on its status wait for whoever changes it
-- (taak_vergrendeld: FOR UPDATE in a function, as a daemon may not update the table itself). $1 taak_id
select * from taak_vergrendeld($1::text);

-- name: log_zoeken
-- The task log inside a time range, lines with any of the words first-class (recall --taken); `meta` for the
-- phrase of a system row, said in the reader's language. The words match the row's text as stored.
-- $1 from, $2 until, $3 patterns ('%word%', text[]; empty: all), $4 bot (null: all), $5 taak_id (null: all), $6 limit
select l.id, l.ts, coalesce(l.bot, '-') as actor, l.soort, l.tekst, l.meta, l.sessie, l.taak_id,
       (select count(*) from unnest($3::text[]) p where l.tekst ilike p) as treffers
from agent_taak_log l
where l.ts >= $1 and l.ts < $2
  and ($4::text is null or l.bot = $4)
  and ($5::text is null or l.taak_id = $5)
  and (cardinality($3::text[]) = 0 or l.tekst ilike any ($3::text[]))
order by treffers desc, l.ts desc
limit $6;

-- name: log_naam_bekend
-- Whether any row of the task log was written under this name (recall --taken --bot: a typo against a name that
-- only has no row in the range). Walks the log once for a name that has none: asked only when nothing was found.
select exists (select 1 from agent_taak_log where bot = $1);

-- name: log_woorden
-- How many lines of the task log in the range hold each pattern (recall --taken's header), each counted up to
-- a bound, so that a common word costs no more than the bound; the pattern '%' counts every line in the range.
-- $1 from, $2 until, $3 patterns ('%word%', text[]), $4 bot (null: all), $5 taak_id (null: all), $6 bound
select p.nr, (
    select count(*) from (
        select 1 from agent_taak_log l
        where l.ts >= $1 and l.ts < $2
          and ($4::text is null or l.bot = $4)
          and ($5::text is null or l.taak_id = $5)
          and l.tekst ilike p.patroon
        limit $6
    ) as gevonden
) as aantal
from unnest($3::text[]) with ordinality as p (patroon, nr)
order by p.nr;

-- name: vloot_schrijven
-- A machine's new archive lines into the fleet's copy; a line copied before is left as it is.
-- $1 machine, $2 keys (text[]), $3 ts (timestamptz[]), $4 actors, $5 roles, $6 types, $7 tasks, $8 sessions,
-- $9 texts, $10 terms, $11 day files (all text[], parallel)
insert into taak_archief (machine, sleutel, ts, actor, role, type, taak, sessie, tekst, termen, bestand)
select $1, k, t, a, r, ty, ta, se, te, tm, b
from unnest($2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
            $10::text[], $11::text[]) as v (k, t, a, r, ty, ta, se, te, tm, b)
on conflict (machine, sleutel) do nothing;

-- name: vloot_bestand_vergeten
-- A day file that was edited on its machine: its lines in the shared copy go, to be copied again as they are
-- now. $1 machine, $2 day file name
delete from taak_archief where machine = $1 and bestand = $2;

-- name: vloot_machine_vergeten
-- One machine's whole copy, before it is copied again from its day files. $1 machine
delete from taak_archief where machine = $1;

-- name: vloot_leeg
-- No machine has copied a line to the shared archive (none runs with TAAK_FLEET_ARCHIVE), or all are gone.
select not exists (select 1 from taak_archief);

-- name: vloot_opruimen
-- The fleet's copy keeps its retention window only (the machines keep everything). $1 days
delete from taak_archief where ts < now() - make_interval(days => $1);

-- name: vloot_plan_per_waarde
-- Fleet-wide recall's transaction plans every statement for its values: a generic plan cannot tell a word in
-- every line from a word in none.
set local plan_cache_mode = force_custom_plan;

-- name: vloot_zoeken
-- Fleet-wide recall: the lines of one window that match the words, newest first. For words common in the
-- window: walking the time index backward finds them at once. $1 from, $2 until, $3 tsquery text
-- ('budget | veranda'), $4 limit, $5 actor or null, $6 task or null
select machine, ts, coalesce(actor, '-') as actor, role, type, tekst, sessie, taak
from taak_archief
where ts >= $1 and ts < $2 and type is distinct from 'meta' and type is distinct from 'tool_result'
  and zoek @@ to_tsquery('simple', $3)
  and ($5::text is null or lower(actor) = lower($5)) and ($6::text is null or taak = $6)
order by ts desc
limit $4;

-- name: vloot_zoeken_weinig
-- The same for words that are rare in the window (vloot_tellen said so): every match through the word index,
-- then sorted. Without the fence the planner walks the time index backward past every line of the window
-- (300 ms at a million rows for a word in none of them). Parameters as vloot_zoeken.
with gevonden as materialized (
    select machine, ts, coalesce(actor, '-') as actor, role, type, tekst, sessie, taak
    from taak_archief
    where ts >= $1 and ts < $2 and type is distinct from 'meta' and type is distinct from 'tool_result'
      and zoek @@ to_tsquery('simple', $3)
      and ($5::text is null or lower(actor) = lower($5)) and ($6::text is null or taak = $6)
)
select * from gevonden order by ts desc limit $4;

-- name: vloot_tellen
-- How many spoken lines of the range match (any line when $3 is empty), counted up to $4 at most: an exact
-- count of a common word over a million rows costs more than the answer. Parameters as vloot_zoeken.
select count(*) from (
    select 1 from taak_archief
    where ts >= $1 and ts < $2 and type is distinct from 'meta' and type is distinct from 'tool_result'
      and ($3 = '' or zoek @@ to_tsquery('simple', $3))
      and ($5::text is null or lower(actor) = lower($5)) and ($6::text is null or taak = $6)
    limit $4
) as bounded;

-- name: vloot_bereik
-- The whole range in time order, when the words found too few lines in it.
-- $1 from, $2 until, $3 actor or null, $4 task or null, $5 limit
select machine, ts, coalesce(actor, '-') as actor, role, type, tekst, sessie, taak
from taak_archief
where ts >= $1 and ts < $2 and type is distinct from 'meta' and type is distinct from 'tool_result'
  and ($3::text is null or lower(actor) = lower($3)) and ($4::text is null or taak = $4)
order by ts
limit $5;

-- name: cockpit_per_dag
-- The cockpit's pictures: per day (in the page's time zone, $2, so its days are the page's) and bot, tasks
-- finished and the cost of the sessions of that day, over the last $1 days. A task for any bot counts for the bot
-- that claimed it, never for the writer of a row: the owner, finishing a task by hand or cancelling one nobody ran,
-- is no bot, and such a task is in no bot's bar.
select (l.ts at time zone $2)::date as dag,
       coalesce(t.toegewezen_aan, nullif(split_part(t.geclaimd_door, '@', 1), '')) as bot,
       count(*) filter (where l.soort = 'klaar') as klaar,
       coalesce(sum((l.meta ->> 'total_cost_usd')::numeric)
                filter (where l.soort = 'notitie' and l.meta ? 'resultaat'), 0) as kosten
from agent_taak_log l
join agent_taken t on t.id = l.taak_id
where l.ts >= now() - make_interval(days => $1)
  and (l.soort = 'klaar' or (l.soort = 'notitie' and l.meta ? 'resultaat'))
  and coalesce(t.toegewezen_aan, nullif(split_part(t.geclaimd_door, '@', 1), '')) is not null
group by 1, 2
order by 1, 2;

-- name: cockpit_mislukt_per_dag
-- Tasks that ended mislukt, per day (in the page's time zone, $2) and bot (as cockpit_per_dag counts a task),
-- over the last $1 days.
select (bijgewerkt at time zone $2)::date as dag,
       coalesce(toegewezen_aan, nullif(split_part(geclaimd_door, '@', 1), ''), '-') as bot, count(*) as mislukt
from agent_taken
where status = 'mislukt' and bijgewerkt >= now() - make_interval(days => $1)
group by 1, 2
order by 1, 2;

-- name: cockpit_taken
-- The board's tasks: every open one, and those finished in the last day, newest first. $1 at most
select * from agent_taken
where status in ('wachtend', 'bezig', 'wacht_op_mens') or bijgewerkt >= now() - interval '1 day'
order by case status when 'wacht_op_mens' then 0 when 'bezig' then 1 when 'wachtend' then 2 else 3 end,
         aangemaakt desc
limit $1;
