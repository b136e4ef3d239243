-- A task's texts have the limits the taak command keeps, also when the owner's SQL writes them (through taak_nieuw or
-- an insert of his own a title of 10,000 characters got in and filled every list it stood in): a title 120
-- characters and one line, the one who gives it 64 (a name on one line, not blank), what done means and the next
-- step 2,000 each, the context 2,000 as its JSON text; the ID's date is one the calendar has; a due date and a
-- not-before moment the command and the daemon can read (a year past 9999, or infinity, stopped both).
-- Checked on insert, after agent_taken_nakijken (triggers of one event run in name order, so the shape is known),
-- and on an update that names one of these columns: old rows are never checked again, and the claim and the finish,
-- which name none, pay nothing.
create or replace function agent_taken_nieuw_nakijken() returns trigger
language plpgsql as $$
begin
    if tg_op = 'INSERT' then
        if not taak_id_datum_bestaat(new.id) then
            raise exception 'new row for relation "agent_taken" violates check constraint "agent_taken_id_check"'
                using errcode = 'check_violation', constraint = 'agent_taken_id_check', table = 'agent_taken',
                      detail = 'a task ID is HV-YYYYMMDD-NNN, with a real date';
        end if;
        new.titel := rtrim(new.titel, E' \t\r');
        if not taak_zichtbaar(new.opdracht) then
            raise exception 'new row for relation "agent_taken" violates check constraint "opdracht_niet_leeg"'
                using errcode = 'check_violation', constraint = 'opdracht_niet_leeg', table = 'agent_taken';
        end if;
        if not taak_zichtbaar(new.opdrachtgever) then
            raise exception 'new row for relation "agent_taken" violates check constraint "opdrachtgever_niet_leeg"'
                using errcode = 'check_violation', constraint = 'opdrachtgever_niet_leeg', table = 'agent_taken';
        end if;
        -- The line breaks of worker.db.ledger.LINE_BREAKS.
        if new.opdrachtgever ~ E'[\n\r\u000b\f\u001c-\u001e\u0085\u2028\u2029]' then
            raise exception 'new row for relation "agent_taken" violates check constraint "opdrachtgever_een_regel"'
                using errcode = 'check_violation', constraint = 'opdrachtgever_een_regel', table = 'agent_taken';
        end if;
        if char_length(new.opdrachtgever) > 64 then
            raise exception 'new row for relation "agent_taken" violates check constraint "opdrachtgever_max_64"'
                using errcode = 'check_violation', constraint = 'opdrachtgever_max_64', table = 'agent_taken';
        end if;
        -- A moment the taak command and the daemon can read: a year past 9999 or infinity stopped both (a claim
        -- of such a task failed after the claim, again and again).
        if not isfinite(new.niet_voor) or new.niet_voor >= '9999-01-02 00:00:00+00' then
            raise exception 'new row for relation "agent_taken" violates check constraint "niet_voor_leesbaar"'
                using errcode = 'check_violation', constraint = 'niet_voor_leesbaar', table = 'agent_taken',
                      detail = 'niet_voor is a finite moment before 9999-01-02';
        end if;
    end if;
    if char_length(new.titel) > 120 then
        raise exception 'new row for relation "agent_taken" violates check constraint "titel_max_120"'
            using errcode = 'check_violation', constraint = 'titel_max_120', table = 'agent_taken';
    end if;
    if char_length(new.toegewezen_aan) > 64 then
        raise exception 'new row for relation "agent_taken" violates check constraint "toegewezen_aan_max_64"'
            using errcode = 'check_violation', constraint = 'toegewezen_aan_max_64', table = 'agent_taken';
    end if;
    if char_length(new.klaar_wanneer) > 2000 then
        raise exception 'new row for relation "agent_taken" violates check constraint "klaar_wanneer_max_2000"'
            using errcode = 'check_violation', constraint = 'klaar_wanneer_max_2000', table = 'agent_taken';
    end if;
    if char_length(new.volgende_stap) > 2000 then
        raise exception 'new row for relation "agent_taken" violates check constraint "volgende_stap_max_2000"'
            using errcode = 'check_violation', constraint = 'volgende_stap_max_2000', table = 'agent_taken';
    end if;
    if char_length(new.context::text) > 2000 then
        raise exception 'new row for relation "agent_taken" violates check constraint "context_max_2000"'
            using errcode = 'check_violation', constraint = 'context_max_2000', table = 'agent_taken';
    end if;
    -- As `--uiterlijk` (worker.core.due.LATEST_DUE_DAY): the last day 9998-12-31 in any zone, never infinity.
    if not isfinite(new.uiterlijk) or new.uiterlijk >= '9999-01-02 00:00:00+00' then
        raise exception 'new row for relation "agent_taken" violates check constraint "uiterlijk_leesbaar"'
            using errcode = 'check_violation', constraint = 'uiterlijk_leesbaar', table = 'agent_taken',
                  detail = 'uiterlijk is a finite moment, at the latest on 9998-12-31';
    end if;
    return new;
end
$$;
create or replace trigger agent_taken_nakijken_nieuw before insert on agent_taken
    for each row execute function agent_taken_nieuw_nakijken();
create or replace trigger agent_taken_nakijken_teksten
    before update of titel, toegewezen_aan, klaar_wanneer, volgende_stap, context, uiterlijk on agent_taken
    for each row execute function agent_taken_nieuw_nakijken();
