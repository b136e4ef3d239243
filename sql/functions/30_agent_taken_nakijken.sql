-- agent_taken: every rule of a row, checked where a statement can break it and only there. Postgres rebuilds a
-- table's CHECK constraints and trigger WHEN clauses from their stored text for every statement that writes the
-- table: with eleven checks and four WHEN clauses every claim, log row and finish paid about 800,000 instructions
-- (valgrind's count) before it changed a row. A plpgsql trigger keeps its compiled form for the connection, and an
-- UPDATE OF trigger is not even looked at by a statement that writes none of its columns. id, opdracht and
-- opdrachtgever can only be written by an insert (agent_taken_bevroren), so their shape is checked on insert. Each
-- refusal keeps its former constraint's name and Postgres' wording, so it reads as a CHECK's would. A loader that
-- switches triggers off (session_replication_role = replica) skips these rules.
-- What follows a change of status on an update is done here too: a task back in the queue wakes the daemons, a
-- failed one tells the owner (a new task is announced after its insert: agent_taken_meld_wachtend).
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
    -- A row that keeps every rule pays for one test: plpgsql prepares each expression anew in every transaction,
    -- and a claim and a finish are a transaction each; the rules are asked one by one only to name the broken one.
    if new.status not in ('wachtend', 'bezig', 'wacht_op_mens', 'klaar', 'mislukt', 'geannuleerd')
       or (new.status = 'bezig' and (new.lease_tot is null or new.lease_token is null))
       or (new.status = 'klaar' and coalesce(new.bewijs, '') !~ '[^[:space:]]')
       or new.pogingen < 0
       or new.max_pogingen < 1
       or jsonb_typeof(new.context) is distinct from 'object' then
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
    if tg_op = 'UPDATE' and new.status is distinct from old.status and new.status in ('wachtend', 'mislukt') then
        if new.status = 'wachtend' then
            perform pg_notify('taak_nieuw', json_build_object(
                'id', new.id, 'toegewezen_aan', new.toegewezen_aan, 'nodig', new.nodig, 'niet_voor', new.niet_voor)::text);
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
create or replace trigger agent_taken_nakijken
    before insert or update of status, lease_tot, lease_token, bewijs, pogingen, max_pogingen, context, toegewezen_aan
    on agent_taken for each row execute function agent_taken_nakijken();
