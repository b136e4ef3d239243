-- Every rule checked where it can be broken, and only there (issue 16). Postgres rebuilds a table's CHECK
-- constraints and trigger WHEN clauses from their stored text for every statement that writes the table: with
-- eleven checks and four WHEN clauses, every claim, log row and finish paid about 800,000 instructions
-- (valgrind's count) before it changed a row, twice the whole of raw's claim, log row and complete together.
-- A plpgsql trigger keeps its compiled form for the connection, and an UPDATE OF trigger is not even looked at
-- by a statement that writes none of its columns. The rules stay what they were; what changes is where:
--   * agent_taken: one row trigger for every rule (status values, bezig implies a lease, klaar implies evidence,
--     pogingen >= 0, the bot's name, context an object, max_pogingen >= 1), run when a statement writes one of
--     those columns. id, opdracht and opdrachtgever can only be written by an insert (the frozen-column trigger
--     refuses every update that names them), so their shape is checked on insert;
--   * the frozen-column trigger is an UPDATE OF trigger: no statement of the daemon names those columns;
--   * what follows a change of status (a wake-up for the daemons, the owner's message about a failure) is done
--     by the same trigger;
--   * agent_taak_log: one insert trigger checks the kind, sets the database's time, counts the row and makes the
--     owner's message for a question or a finished task.
-- Each refusal keeps its constraint's name and Postgres' wording, so it reads as before.
-- A loader that switches triggers off (session_replication_role = replica) skips these rules, as it always
-- skipped the frozen-column trigger.

-- agent_taken: every rule of a row, where a statement can break it.
create or replace function agent_taken_nakijken() returns trigger
language plpgsql as $$
begin
    if tg_op = 'INSERT' then
        if new.id !~ '^HV-[0-9]{8}-[0-9]{3,}$' then
            raise exception 'new row for relation "agent_taken" violates check constraint "agent_taken_id_check"'
                using errcode = 'check_violation', constraint = 'agent_taken_id_check', table = 'agent_taken',
                      detail = format('id %s is not of the form HV-YYYYMMDD-NNN', new.id);
        end if;
        if new.opdracht !~ '[^[:space:]]' then
            raise exception 'new row for relation "agent_taken" violates check constraint "opdracht_niet_leeg"'
                using errcode = 'check_violation', constraint = 'opdracht_niet_leeg', table = 'agent_taken';
        end if;
        if char_length(new.opdracht) > 8000 then
            raise exception 'new row for relation "agent_taken" violates check constraint "opdracht_max_8000"'
                using errcode = 'check_violation', constraint = 'opdracht_max_8000', table = 'agent_taken';
        end if;
        if new.opdrachtgever !~ '[^[:space:]]' then
            raise exception 'new row for relation "agent_taken" violates check constraint "opdrachtgever_niet_leeg"'
                using errcode = 'check_violation', constraint = 'opdrachtgever_niet_leeg', table = 'agent_taken';
        end if;
        if new.titel is null or new.titel !~ '[^[:space:]]' then
            new.titel := left(btrim(split_part(btrim(new.opdracht, E' \t\r\n'), E'\n', 1)), 120);
        end if;
    end if;
    if new.status not in ('wachtend', 'bezig', 'wacht_op_mens', 'klaar', 'mislukt', 'geannuleerd') then
        raise exception 'new row for relation "agent_taken" violates check constraint "status_geldig"'
            using errcode = 'check_violation', constraint = 'status_geldig', table = 'agent_taken',
                  detail = format('status %s is none of wachtend, bezig, wacht_op_mens, klaar, mislukt, geannuleerd',
                                  new.status);
    end if;
    if new.status = 'bezig' and (new.lease_tot is null or new.lease_token is null) then
        raise exception 'new row for relation "agent_taken" violates check constraint "bezig_heeft_lease"'
            using errcode = 'check_violation', constraint = 'bezig_heeft_lease', table = 'agent_taken';
    end if;
    if new.status = 'klaar' and coalesce(new.bewijs, '') !~ '[^[:space:]]' then
        raise exception 'new row for relation "agent_taken" violates check constraint "klaar_heeft_bewijs"'
            using errcode = 'check_violation', constraint = 'klaar_heeft_bewijs', table = 'agent_taken';
    end if;
    if new.pogingen < 0 then
        raise exception 'new row for relation "agent_taken" violates check constraint "pogingen_niet_negatief"'
            using errcode = 'check_violation', constraint = 'pogingen_niet_negatief', table = 'agent_taken';
    end if;
    if new.max_pogingen < 1 then
        raise exception 'new row for relation "agent_taken" violates check constraint "max_pogingen_positief"'
            using errcode = 'check_violation', constraint = 'max_pogingen_positief', table = 'agent_taken';
    end if;
    if jsonb_typeof(new.context) is distinct from 'object' then
        raise exception 'new row for relation "agent_taken" violates check constraint "context_is_object"'
            using errcode = 'check_violation', constraint = 'context_is_object', table = 'agent_taken';
    end if;
    if new.toegewezen_aan is not null then
        new.toegewezen_aan := taak_botnaam(new.toegewezen_aan);
        if new.toegewezen_aan = '' then
            raise exception 'toegewezen_aan is empty: name a bot, or leave it out for any bot'
                using errcode = 'check_violation';
        end if;
        if new.toegewezen_aan !~ '^[a-z0-9_.-]+$' then
            raise exception 'new row for relation "agent_taken" violates check constraint "toegewezen_aan_naam"'
                using errcode = 'check_violation', constraint = 'toegewezen_aan_naam', table = 'agent_taken';
        end if;
    end if;
    -- What follows a change of status. A notification and a message made here leave with the statement's
    -- transaction, as an AFTER trigger's would: a refused row takes them with it.
    if new.status = 'wachtend' and (tg_op = 'INSERT' or old.status is distinct from 'wachtend') then
        perform pg_notify('taak_nieuw', json_build_object(
            'id', new.id, 'toegewezen_aan', new.toegewezen_aan, 'niet_voor', new.niet_voor)::text);
    elsif new.status = 'mislukt' and tg_op = 'UPDATE' and old.status is distinct from 'mislukt' then
        insert into taak_meldingen (taak_id, soort, sleutel, tekst)
        values (new.id, 'mislukt', 'mislukt:' || new.id || ':' || new.pogingen,
                new.id || ': mislukt na ' || new.pogingen || ' van ' || new.max_pogingen || ' pogingen: ' || new.titel)
        on conflict (sleutel) do nothing;
    end if;
    return new;
end
$$;

create trigger agent_taken_nakijken
    before insert or update of status, lease_tot, lease_token, bewijs, pogingen, max_pogingen, context, toegewezen_aan
    on agent_taken for each row execute function agent_taken_nakijken();
drop trigger agent_taken_titel on agent_taken;
drop trigger agent_taken_botnaam on agent_taken;
drop trigger agent_taken_meld_nieuw on agent_taken;
drop trigger agent_taken_meld_terug on agent_taken;
drop trigger taak_melding_mislukt on agent_taken;
alter table agent_taken
    drop constraint agent_taken_id_check,
    drop constraint opdracht_niet_leeg,
    drop constraint opdracht_max_8000,
    drop constraint opdrachtgever_niet_leeg,
    drop constraint status_geldig,
    drop constraint bezig_heeft_lease,
    drop constraint klaar_heeft_bewijs,
    drop constraint pogingen_niet_negatief,
    drop constraint max_pogingen_positief,
    drop constraint context_is_object,
    drop constraint toegewezen_aan_naam;

drop trigger agent_taken_bevroren on agent_taken;
create trigger agent_taken_bevroren before update of id, opdracht, opdrachtgever, aangemaakt on agent_taken
    for each row
    when (new.id is distinct from old.id
          or new.opdracht is distinct from old.opdracht
          or new.opdrachtgever is distinct from old.opdrachtgever
          or new.aangemaakt is distinct from old.aangemaakt)
    execute function agent_taken_bevroren();

-- agent_taak_log: the kind, the database's time, the count per kind and the owner's messages, in one trigger.
-- The count is derived data: its row needs no foreign key of its own (the log row's key is checked in the same
-- statement, and a refused log row takes its count with it).
create or replace function agent_taak_log_bijschrijven() returns trigger
language plpgsql as $$
begin
    if new.soort not in ('gestart', 'stap_klaar', 'geblokkeerd', 'vraag', 'antwoord', 'bewijs', 'klaar', 'fout',
                         'compact', 'notitie', 'vrijgegeven', 'verlopen') then
        raise exception 'new row for relation "agent_taak_log" violates check constraint "soort_geldig"'
            using errcode = 'check_violation', constraint = 'soort_geldig', table = 'agent_taak_log',
                  detail = format('soort %s is no kind of log row', new.soort);
    end if;
    new.ts := clock_timestamp();
    if new.soort not in ('gestart', 'klaar') then
        insert into agent_taak_telling as t (taak_id, soort, aantal, eerste)
        values (new.taak_id, new.soort, 1, new.ts)
        on conflict (taak_id, soort) do update set aantal = t.aantal + 1;
    end if;
    -- The owner's messages (migration 018): a question of a task that now waits for him; a finished task only
    -- when some daemon delivers finished tasks. A question's status is read after the statement's own change of
    -- the task (`blokkeer` sets wacht_op_mens in the same statement, before this row is made).
    if new.soort = 'vraag'
       and (select status from agent_taken where id = new.taak_id) = 'wacht_op_mens' then
        insert into taak_meldingen (taak_id, soort, sleutel, tekst)
        values (new.taak_id, 'vraag', 'vraag:' || new.id, new.taak_id || ': ' || new.tekst)
        on conflict (sleutel) do nothing;
    elsif new.soort = 'klaar' and exists (select 1 from taak_bezorgers where soort = 'klaar') then
        insert into taak_meldingen (taak_id, soort, sleutel)
        values (new.taak_id, 'klaar', 'klaar:' || new.taak_id)
        on conflict (sleutel) do nothing;
    end if;
    return new;
end
$$;

create trigger agent_taak_log_bijschrijven before insert on agent_taak_log
    for each row execute function agent_taak_log_bijschrijven();
drop trigger agent_taak_log_tijd on agent_taak_log;
drop trigger agent_taak_log_na_insert on agent_taak_log;
drop trigger taak_melding_maken on agent_taak_log;
alter table agent_taak_log drop constraint soort_geldig;
alter table agent_taak_telling drop constraint agent_taak_telling_taak_id_fkey;

-- What no trigger calls any more.
drop function agent_taken_voor_insert();
drop function agent_taken_meld_wachtend();
drop function taak_melding_mislukt();
drop function taak_melding_maken();
drop function agent_taak_log_tijd();
drop function agent_taak_log_na_insert();
