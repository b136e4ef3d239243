-- A session's log row (queries.sql `log_fenced`): a session's kind only, with the current token, by the holder.
-- The task is held FOR SHARE until the row is in; the lease is extended only when less than half of it is left.
-- Three statements, not one: as one statement with the extension as a part of it, every row paid for starting an
-- UPDATE that most rows never run (44,000 instructions per task, callgrind).
create or replace function taak_log_met_token(
    taak text, token uuid, soort text, tekst text, sessie text, meta jsonb, seconden double precision
) returns table (id bigint, ts timestamptz)
language plpgsql security definer set search_path = public, pg_temp as $$
#variable_conflict use_column
declare
    tot timestamptz;
    door text;
begin
    if $3 not in ('stap_klaar', 'geblokkeerd', 'vraag', 'bewijs', 'fout', 'compact', 'notitie') then
        raise exception 'a session cannot log %', $3 using errcode = 'insufficient_privilege';
    end if;
    select t.lease_tot, t.geclaimd_door into tot, door from agent_taken t
    where t.id = $1 and t.status = 'bezig' and t.lease_token = $2
    for share;
    if not found then
        return;
    end if;
    if tot < now() + make_interval(secs => $7 / 2) then
        update agent_taken t set bijgewerkt = now(), lease_tot = now() + make_interval(secs => $7) where t.id = $1;
    end if;
    return query
    insert into agent_taak_log (taak_id, bot, soort, tekst, sessie, meta)
    values ($1, split_part(door, '@', 1), $3, $4, $5, $6)
    returning agent_taak_log.id, agent_taak_log.ts;
end
$$;
