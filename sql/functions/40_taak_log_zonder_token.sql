-- A row without a token: a `notitie` (the intake's message joining a task, a session's result row, the owner's
-- note) or a `compact` of the owner's own Claude session. It changes no task.
create or replace function taak_log_zonder_token(taak text, bot text, soort text, tekst text, sessie text, meta jsonb)
returns table (id bigint, ts timestamptz)
language plpgsql security definer set search_path = public, pg_temp as $$
#variable_conflict use_column
begin
    if $3 not in ('notitie', 'compact') then
        raise exception 'a % row needs the task''s lease token', $3 using errcode = 'insufficient_privilege';
    end if;
    return query
    with regel as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, sessie, meta)
        select t.id, $2, $3, $4, $5, $6 from agent_taken t where t.id = $1
        returning agent_taak_log.id, agent_taak_log.ts
    )
    select regel.id, regel.ts from regel;
end
$$;
