-- agent_taak_log before a row is written: its kind, its limits (a text 100,000 characters, a writer a visible name
-- of 64, a meta object whose cost is a number the brake can sum) and the database's time, whatever the writer sent.
-- The count and the owner's messages follow after the insert (agent_taak_log_na_insert).
-- A row that keeps every rule pays for one test: plpgsql prepares each expression of a trigger anew in every
-- transaction, and a claim or a finish is a transaction of its own, so the rules are asked together first, and one
-- by one only to name the rule a refused row broke.
create or replace function agent_taak_log_bijschrijven() returns trigger
language plpgsql as $$
begin
    if new.soort not in ('gestart', 'stap_klaar', 'geblokkeerd', 'vraag', 'antwoord', 'bewijs', 'klaar', 'fout',
                         'compact', 'notitie', 'vrijgegeven', 'verlopen')
       or char_length(new.tekst) > 100000
       or not taak_zichtbaar(new.bot)
       or char_length(new.bot) > 64
       or jsonb_typeof(new.meta) <> 'object'
       or (new.meta ? 'total_cost_usd' and jsonb_typeof(new.meta -> 'total_cost_usd') not in ('number', 'null')) then
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
        raise exception 'new row for relation "agent_taak_log" violates check constraint "meta_leesbaar"'
            using errcode = 'check_violation', constraint = 'meta_leesbaar', table = 'agent_taak_log',
                  detail = 'meta is a JSON object, and its total_cost_usd a number';
    end if;
    new.ts := clock_timestamp();
    return new;
end
$$;
create or replace trigger agent_taak_log_bijschrijven before insert on agent_taak_log
    for each row execute function agent_taak_log_bijschrijven();
