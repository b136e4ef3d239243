-- What 020 did too early (issue 16): some effects of a row were made in a BEFORE trigger, where an insert can
-- still turn into nothing (ON CONFLICT DO NOTHING) and where a row of the same statement's other parts is not yet
-- seen. The owner's own SQL found each of these:
--   * a new task is announced after its insert again (agent_taken_meld_nieuw, as before 020), so an insert that
--     turned into nothing wakes no daemon;
--   * a log row is counted, and the owner told of a question or a finished task, after the insert, so a row that
--     never got in is not counted, and a question logged in the same statement that makes its task wait (a CTE)
--     still reaches the owner. A start (`gestart`, one per claim) is neither counted nor told: its row skips that
--     trigger by a WHEN clause, the one comparison a claim pays for;
--   * a task ID gets in only in the shape the taak command reads (a month 01-12, a day 01-31): a row the command
--     refuses to name took `taak claim` down after the claim;
--   * a null opdracht is named as the not-null violation it is, before the title is made from it.
-- 020 itself is left as it was released: databases record its checksum.

-- agent_taken: every rule of a row, where a statement can break it.
create or replace function agent_taken_nakijken() returns trigger
language plpgsql as $$
begin
    if tg_op = 'INSERT' then
        if new.opdracht is null then  -- said before titel, which is made from it, is found empty
            raise exception 'null value in column "opdracht" of relation "agent_taken" violates not-null constraint'
                using errcode = 'not_null_violation', column = 'opdracht', table = 'agent_taken';
        end if;
        -- The shape the taak command reads (worker.core.model.TASK_ID): a month and a day that can be, so that no
        -- task gets in that the command would then refuse to name (it took `claim` down after the claim).
        if new.id !~ '^HV-[0-9]{4}(0[1-9]|1[0-2])(0[1-9]|[12][0-9]|3[01])-[0-9]{3,}$' then
            raise exception 'new row for relation "agent_taken" violates check constraint "agent_taken_id_check"'
                using errcode = 'check_violation', constraint = 'agent_taken_id_check', table = 'agent_taken',
                      detail = 'a task ID is HV-YYYYMMDD-NNN, with a real date';
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
                using errcode = 'check_violation', constraint = 'toegewezen_aan_naam', table = 'agent_taken';
        end if;
        if new.toegewezen_aan !~ '^[a-z0-9_.-]+$' then
            raise exception 'new row for relation "agent_taken" violates check constraint "toegewezen_aan_naam"'
                using errcode = 'check_violation', constraint = 'toegewezen_aan_naam', table = 'agent_taken';
        end if;
    end if;
    -- What follows a change of status on an update. A BEFORE UPDATE row trigger runs on a row already locked
    -- for the update, which is then made; a notification and a message made here leave with the statement's
    -- transaction, and a refused row takes them with it. (A new task is announced by agent_taken_meld_nieuw,
    -- after the insert: an insert can still turn into nothing, ON CONFLICT DO NOTHING.)
    if tg_op = 'UPDATE' and new.status is distinct from old.status then
        if new.status = 'wachtend' then
            perform pg_notify('taak_nieuw', json_build_object(
                'id', new.id, 'toegewezen_aan', new.toegewezen_aan, 'niet_voor', new.niet_voor)::text);
        elsif new.status = 'mislukt' then
            insert into taak_meldingen (taak_id, soort, sleutel, tekst)
            values (new.id, 'mislukt', 'mislukt:' || new.id || ':' || new.pogingen,
                    new.id || ': mislukt na ' || new.pogingen || ' van ' || new.max_pogingen || ' pogingen: '
                    || new.titel)
            on conflict (sleutel) do nothing;
        end if;
    end if;
    return new;
end
$$;

-- Wake the daemons when a new task can be claimed: after the insert, which then surely happened.
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

-- agent_taak_log: the kind and the database's time before the row is written; the count per kind and the owner's
-- messages after it is. The count is derived data: its row needs no foreign key of its own (the log row's key is
-- checked in the same statement, and a refused log row takes its count with it).
create or replace function agent_taak_log_bijschrijven() returns trigger
language plpgsql as $$
begin
    if new.soort not in ('gestart', 'stap_klaar', 'geblokkeerd', 'vraag', 'antwoord', 'bewijs', 'klaar', 'fout',
                         'compact', 'notitie', 'vrijgegeven', 'verlopen') then
        raise exception 'new row for relation "agent_taak_log" violates check constraint "soort_geldig"'
            using errcode = 'check_violation', constraint = 'soort_geldig', table = 'agent_taak_log',
                  detail = 'soort is one of gestart, stap_klaar, geblokkeerd, vraag, antwoord, bewijs, klaar, fout, '
                           'compact, notitie, vrijgegeven, verlopen';
    end if;
    new.ts := clock_timestamp();
    return new;
end
$$;

create or replace function agent_taak_log_na_insert() returns trigger
language plpgsql as $$
begin
    if new.soort <> 'klaar' then
        insert into agent_taak_telling as t (taak_id, soort, aantal, eerste)
        values (new.taak_id, new.soort, 1, new.ts)
        on conflict (taak_id, soort) do update set aantal = t.aantal + 1;
    end if;
    -- The owner's messages (migration 018): a question of a task that now waits for him; a finished task only
    -- when some daemon delivers finished tasks.
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
    return null;
end
$$;

create trigger agent_taak_log_na_insert after insert on agent_taak_log
    for each row when (new.soort <> 'gestart')
    execute function agent_taak_log_na_insert();
