-- A task's texts have the limits the taak command keeps (issue 16), also when the owner's SQL writes them: through
-- taak_nieuw or an insert of his own a title of 10,000 characters got in, and filled every list it stood in. The
-- limits are worker.core.model's: a title 120 characters, the one who gives it 64 (a name), what done means and the
-- next step 2,000 each, the context 2,000 as its JSON text, a log row's text 100,000.
-- A title is one line: one made from an opdracht whose first line ended in CRLF kept the CR, which `taak toon`
-- then showed as \x0d and `taak lijst` did not.
-- Checked on insert (the trigger of 022, which runs after agent_taken_nakijken), and for the next step on an
-- update that names it (`taak stap`): old rows are never checked again, and the claim and the finish, which name
-- neither, pay nothing.

create or replace function agent_taken_nieuw_nakijken() returns trigger
language plpgsql as $$
begin
    if not taak_id_datum_bestaat(new.id) then
        raise exception 'new row for relation "agent_taken" violates check constraint "agent_taken_id_check"'
            using errcode = 'check_violation', constraint = 'agent_taken_id_check', table = 'agent_taken',
                  detail = 'a task ID is HV-YYYYMMDD-NNN, with a real date';
    end if;
    new.titel := rtrim(new.titel, E' \t\r');
    if char_length(new.titel) > 120 then
        raise exception 'new row for relation "agent_taken" violates check constraint "titel_max_120"'
            using errcode = 'check_violation', constraint = 'titel_max_120', table = 'agent_taken';
    end if;
    if char_length(new.opdrachtgever) > 64 then
        raise exception 'new row for relation "agent_taken" violates check constraint "opdrachtgever_max_64"'
            using errcode = 'check_violation', constraint = 'opdrachtgever_max_64', table = 'agent_taken';
    end if;
    if char_length(new.klaar_wanneer) > 2000 then
        raise exception 'new row for relation "agent_taken" violates check constraint "klaar_wanneer_max_2000"'
            using errcode = 'check_violation', constraint = 'klaar_wanneer_max_2000', table = 'agent_taken';
    end if;
    if char_length(new.context::text) > 2000 then
        raise exception 'new row for relation "agent_taken" violates check constraint "context_max_2000"'
            using errcode = 'check_violation', constraint = 'context_max_2000', table = 'agent_taken';
    end if;
    if char_length(new.volgende_stap) > 2000 then
        raise exception 'new row for relation "agent_taken" violates check constraint "volgende_stap_max_2000"'
            using errcode = 'check_violation', constraint = 'volgende_stap_max_2000', table = 'agent_taken';
    end if;
    return new;
end
$$;

create or replace function agent_taken_volgende_stap_nakijken() returns trigger
language plpgsql as $$
begin
    if char_length(new.volgende_stap) > 2000 then
        raise exception 'new row for relation "agent_taken" violates check constraint "volgende_stap_max_2000"'
            using errcode = 'check_violation', constraint = 'volgende_stap_max_2000', table = 'agent_taken';
    end if;
    return new;
end
$$;

drop trigger if exists agent_taken_nakijken_datum on agent_taken;
drop function if exists agent_taken_id_datum();  -- 022's, now part of agent_taken_nieuw_nakijken
create trigger agent_taken_nakijken_nieuw before insert on agent_taken
    for each row execute function agent_taken_nieuw_nakijken();
create trigger agent_taken_nakijken_volgende_stap before update of volgende_stap on agent_taken
    for each row execute function agent_taken_volgende_stap_nakijken();

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
    new.ts := clock_timestamp();
    return new;
end
$$;
