-- What the taak command refuses as blank, the owner's SQL cannot write either (issue 16): an opdracht, an
-- opdrachtgever or a log row's bot made only of characters that draw nothing (zero-width spaces, joiners, the byte
-- order mark, Unicode's other spaces) got in through SQL where `[[:space:]]` saw text, and showed as an empty
-- task, an empty `Van:` or an empty writer. An opdrachtgever is a name on one line, as the command keeps it.
-- taak_zichtbaar is worker.core.terminal.is_blank's opposite, character for character (a test compares them over
-- every code point); it is a plain SQL expression, so Postgres inlines it into the triggers that call it.

create or replace function taak_zichtbaar(tekst text) returns boolean
language sql immutable strict parallel safe as $$
    select tekst ~ E'[^\u0001-\u0020\u007f-\u00a0\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u115f-\u1160\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u2066-\u206f\u2800\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U00013438\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f\U000e0100-\U000e01ef]'
$$;

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

-- 023's, with the writer's name checked.
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
    if not taak_zichtbaar(new.bot) then  -- a row without a writer has none (null), not an invisible one
        raise exception 'new row for relation "agent_taak_log" violates check constraint "bot_niet_leeg"'
            using errcode = 'check_violation', constraint = 'bot_niet_leeg', table = 'agent_taak_log';
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
