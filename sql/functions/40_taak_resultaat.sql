-- A session's result row: a `notitie` of the bot whose claim had this token and session, once; nothing (no row
-- back) when no claim of this task had them, or when that session has its result row already (a copy of a real
-- entry made in the journal by hand, with another cost).
create or replace function taak_resultaat(taak text, token uuid, tekst text, sessie text, meta jsonb)
returns table (id bigint, ts timestamptz)
language plpgsql security definer set search_path = public, pg_temp as $$
#variable_conflict use_column
begin
    return query
    with claim as (
        select l.taak_id, l.bot from agent_taak_log l
        where l.taak_id = $1 and l.soort = 'gestart' and l.meta ->> 'lease_token' = $2::text
          and l.sessie is not distinct from $4
          and not exists (
              select 1 from agent_taak_log r
              where r.taak_id = $1 and r.sessie is not distinct from $4 and r.meta ? 'resultaat'
          )
        limit 1
    ), regel as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, sessie, meta)
        select claim.taak_id, claim.bot, 'notitie', $3, $4, $5 from claim
        returning agent_taak_log.id, agent_taak_log.ts
    )
    select regel.id, regel.ts from regel;
end
$$;
