-- agent_taak_log after a row is written, so a row that never got in (ON CONFLICT DO NOTHING) is neither counted nor
-- told, and a question logged in the same statement that makes its task wait still reaches the owner. The count per
-- task and kind lets a briefing summarise everything older at the same cost for 10 rows as for 100,000; a `klaar`
-- row (at most one per task) is counted from its own index instead. A start (`gestart`, one per claim) skips this
-- trigger by its WHEN clause, the one comparison a claim pays for. The count is derived data: it needs no foreign key
-- of its own (the log row's is checked, and a refused row takes its count with it).
create or replace function agent_taak_log_na_insert() returns trigger
language plpgsql as $$
begin
    if new.soort <> 'klaar' then
        insert into agent_taak_telling as t (taak_id, soort, aantal, eerste)
        values (new.taak_id, new.soort, 1, new.ts)
        on conflict (taak_id, soort) do update set aantal = t.aantal + 1;
    end if;
    -- The owner's messages: a question of a task that now waits for him (urgent when its bot marked it so:
    -- `taak blokkeer --dringend`); a finished task only when some daemon delivers finished tasks.
    if new.soort = 'vraag'
       and (select status from agent_taken where id = new.taak_id) = 'wacht_op_mens' then
        insert into taak_meldingen (taak_id, soort, sleutel, tekst, bot, dringend)
        values (new.taak_id, 'vraag', 'vraag:' || new.id, new.taak_id || ': ' || new.tekst, new.bot,
                coalesce(new.meta ->> 'dringend', '') = 'true')
        on conflict (sleutel) do nothing;
    elsif new.soort = 'klaar' and exists (select 1 from taak_bezorgers where soort = 'klaar') then
        insert into taak_meldingen (taak_id, soort, sleutel)
        values (new.taak_id, 'klaar', 'klaar:' || new.taak_id)
        on conflict (sleutel) do nothing;
    end if;
    return null;
end
$$;
create or replace trigger agent_taak_log_na_insert after insert on agent_taak_log
    for each row when (new.soort <> 'gestart')
    execute function agent_taak_log_na_insert();
