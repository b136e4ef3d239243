-- The old queue, `agent_messages`, for the per-day overview's days before the switch-on: one row per message since a
-- moment, with its day (taak_dag, in `zone`), its recipient in the one spelling of a bot, and whether it was ever
-- handled: its status is no longer one of the open ones (the old worker took it), or it became a task or joined one
-- (its task_id names a task). Handled is null when the table has no status column (TAAK_INTAKE_STATUS_COLUMN=""):
-- unknown, not none. No rows when there is no such table, it lacks the time or recipient column, or the caller may
-- not read it (intake, `taak doctor` and the per-day overview, from oude_wachtrij_staat, say which). The column
-- names are the intake's settings (TAAK_INTAKE_*_COLUMN), passed in, quoted as identifiers.
create or replace function taak_oude_wachtrij(vanaf timestamptz, tijd text, ontvanger text, status text, open text[],
                                              zone text default null)
returns table (dag date, bot text, afgehandeld integer)
language plpgsql stable as $$
declare
    kolommen text[] := array(select column_name::text from information_schema.columns
                             where table_schema = 'public' and table_name = 'agent_messages');
    gedaan text := 'null';
begin
    if to_regclass('public.agent_messages') is null or not kolommen @> array[tijd, ontvanger]
       or not has_table_privilege('public.agent_messages', 'select') then
        return;
    end if;
    if status = any(kolommen) then
        gedaan := format('lower(btrim(coalesce(m.%I::text, %L))) <> all($2)', status, '');
        if 'task_id' = any(kolommen) then
            gedaan := gedaan || ' or exists (select 1 from agent_taken t where t.id = m.task_id::text)';
        end if;
    end if;
    return query execute format(
        'select taak_dag(m.%1$I::timestamptz, $3), taak_botnaam(m.%2$I::text), (%3$s)::integer
         from public.agent_messages m where m.%1$I::timestamptz >= $1', tijd, ontvanger, gedaan)
    using vanaf, open, zone;
end
$$;
