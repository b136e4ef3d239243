-- Fewer writes per task (issue 16). Every log row sent `NOTIFY taak_log`, and Postgres serialises every
-- notifying transaction at commit on one cluster-wide lock: at 16 workers most backends waited there. Only
-- `taak tail` listened, and it now follows the log by its id (a cheap look every second). A task becoming
-- claimable still notifies (`taak_nieuw`): the daemons' pickup rests on it.
create or replace function agent_taak_log_na_insert() returns trigger
language plpgsql as $$
begin
    insert into agent_taak_telling as t (taak_id, soort, aantal, eerste)
    values (new.taak_id, new.soort, 1, new.ts)
    on conflict (taak_id, soort) do update set aantal = t.aantal + 1;
    return null;
end
$$;

-- The claim walks one bot's waiting tasks in claim order (and those for anyone), never past the backlog of
-- other bots: with 100,000 waiting tasks of other bots ahead it scanned them all (30 ms, and growing).
create index agent_taken_claim_per_bot on agent_taken (toegewezen_aan, prioriteit desc, aangemaakt, id)
    where status = 'wachtend' and toegewezen_aan is not null;
-- For anyone: an index of its own, because `toegewezen_aan is null` is no equality to a btree, and the
-- order of the columns after it would not be used.
create index agent_taken_claim_iedereen on agent_taken (prioriteit desc, aangemaakt, id)
    where status = 'wachtend' and toegewezen_aan is null;
drop index agent_taken_claim;

-- A lease is extended on every log row and heartbeat. With lease_tot in an index that update could not be a
-- heap-only (HOT) update, so each one wrote a new entry into every index of the table. The held tasks are
-- few (one per running session): the reaper finds them by status alone and compares their leases.
create index agent_taken_bezig on agent_taken (id) where status = 'bezig';
drop index agent_taken_lease;
-- Room on each page for the new versions of a row, so that they can stay heap-only.
alter table agent_taken set (fillfactor = 80);
