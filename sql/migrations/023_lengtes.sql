-- A task's texts have the limits the taak command keeps (issue 16), also when the owner's SQL writes them: through
-- taak_nieuw or an insert of his own a title of 10,000 characters got in, and filled every list it stood in. The
-- limits are worker.core.model's: a title 120 characters, the one who gives it 64 (a name), what done means and the
-- next step 2,000 each, the context 2,000 as its JSON text, a log row's text 100,000.
-- A title is one line: one made from an opdracht whose first line ended in CRLF kept the CR, which `taak toon`
-- then showed as \x0d and `taak lijst` did not.
-- A due date and a not-before moment the command and the daemon can read (a year past 9999, or infinity, from
-- SQL stopped both); a log row's writer a name (64), its meta an object whose cost is a number.
-- Checked on insert by agent_taken_nakijken_nieuw, which takes over 022's date check and, by its name, runs after
-- agent_taken_nakijken; and on an update that names one of those columns: old rows are never checked again, and
-- the claim and the finish, which name none, pay nothing. The log's checks run on every row it gets.

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

drop trigger if exists agent_taken_nakijken_datum on agent_taken;
drop function if exists agent_taken_id_datum();  -- 022's, now part of agent_taken_nieuw_nakijken
create trigger agent_taken_nakijken_nieuw before insert on agent_taken
    for each row execute function agent_taken_nieuw_nakijken();
-- The same checks on an update that names one of these columns (`taak stap`, the owner's SQL); the claim, a lease
-- and the finish name none of them and pay nothing.
create trigger agent_taken_nakijken_teksten
    before update of titel, toegewezen_aan, klaar_wanneer, volgende_stap, context, uiterlijk on agent_taken
    for each row execute function agent_taken_nieuw_nakijken();

-- The log's text: the same function as 021's with the limit added (a log row is never changed afterwards).
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
    if char_length(new.tekst) > 100000 then
        raise exception 'new row for relation "agent_taak_log" violates check constraint "tekst_max_100000"'
            using errcode = 'check_violation', constraint = 'tekst_max_100000', table = 'agent_taak_log';
    end if;
    if char_length(new.bot) > 64 then
        raise exception 'new row for relation "agent_taak_log" violates check constraint "bot_max_64"'
            using errcode = 'check_violation', constraint = 'bot_max_64', table = 'agent_taak_log';
    end if;
    -- The cost a session's result row carries is summed by the brake and the overviews: one row of text there
    -- stopped a bot's claims for the rest of the day.
    if jsonb_typeof(new.meta) <> 'object'
       or (new.meta ? 'total_cost_usd' and jsonb_typeof(new.meta -> 'total_cost_usd') not in ('number', 'null')) then
        raise exception 'new row for relation "agent_taak_log" violates check constraint "meta_leesbaar"'
            using errcode = 'check_violation', constraint = 'meta_leesbaar', table = 'agent_taak_log',
                  detail = 'meta is a JSON object, and its total_cost_usd a number';
    end if;
    new.ts := clock_timestamp();
    return new;
end
$$;
