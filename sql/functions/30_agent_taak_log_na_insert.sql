-- agent_taak_log after a row is written, so a row that never got in (ON CONFLICT DO NOTHING) is neither counted nor
-- told, and a question logged in the same statement that makes its task wait still reaches the owner. The count per
-- task and kind lets a briefing summarise everything older at the same cost for 10 rows as for 100,000; a `klaar`
-- row (at most one per task) is counted from its own index instead, and so is a start (`gestart`, one per claim), which
-- returns at once: a WHEN clause that let it skip the trigger was rebuilt from its text for every statement that
-- writes the log, which cost a claim and a finish more than the call (17,000 instructions per task, callgrind). The
-- count is derived data: it needs no foreign key of its own (the log row's is checked, and a refused row takes its
-- count with it). Each kind asks only its own questions: plpgsql prepares a test that reads a table anew in every
-- transaction, as a query of its own, so a finish does not pay for the question's test, nor a step for either.
create or replace function agent_taak_log_na_insert() returns trigger
language plpgsql as $$
begin
    if new.soort = 'gestart' then
        return null;
    end if;
    -- A finished task is told to the owner only when some daemon delivers finished tasks.
    if new.soort = 'klaar' then
        if exists (select 1 from taak_bezorgers where soort = 'klaar') then
            insert into taak_meldingen (taak_id, soort, sleutel)
            values (new.taak_id, 'klaar', 'klaar:' || new.taak_id)
            on conflict (sleutel) do nothing;
        end if;
        return null;
    end if;
    insert into agent_taak_telling as t (taak_id, soort, aantal, eerste)
    values (new.taak_id, new.soort, 1, new.ts)
    on conflict (taak_id, soort) do update set aantal = t.aantal + 1;
    -- A question of a task that now waits for the owner (urgent when its bot marked it so: `taak blokkeer
    -- --dringend`).
    if new.soort = 'vraag' then
        if (select status from agent_taken where id = new.taak_id) = 'wacht_op_mens' then
            insert into taak_meldingen (taak_id, soort, sleutel, tekst, bot, dringend)
            values (new.taak_id, 'vraag', 'vraag:' || new.id, new.taak_id || ': ' || new.tekst, new.bot,
                    coalesce(new.meta ->> 'dringend', '') = 'true')
            on conflict (sleutel) do nothing;
        end if;
    end if;
    return null;
end
$$;
create or replace trigger agent_taak_log_na_insert after insert on agent_taak_log
    for each row
    execute function agent_taak_log_na_insert();
