-- A session's log row (queries.sql `log_fenced`): a session's kind only, with the current token, by the holder.
-- The task is held FOR SHARE until the row is in; the lease is extended only when less than half of it is left.
create or replace function taak_log_met_token(
    taak text, token uuid, soort text, tekst text, sessie text, meta jsonb, seconden double precision
) returns table (id bigint, ts timestamptz)
language plpgsql security definer set search_path = public, pg_temp as $$
#variable_conflict use_column
begin
    if $3 not in ('stap_klaar', 'geblokkeerd', 'vraag', 'bewijs', 'fout', 'compact', 'notitie') then
        raise exception 'a session cannot log %', $3 using errcode = 'insufficient_privilege';
    end if;
    return query
    with houder as (
        select t.id, t.lease_tot, t.geclaimd_door from agent_taken t
        where t.id = $1 and t.status = 'bezig' and t.lease_token = $2
        for share
    ), verlengd as (
        update agent_taken t
        set bijgewerkt = now(), lease_tot = now() + make_interval(secs => $7)
        from houder
        where t.id = houder.id and houder.lease_tot < now() + make_interval(secs => $7 / 2)
    ), regel as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, sessie, meta)
        select houder.id, split_part(houder.geclaimd_door, '@', 1), $3, $4, $5, $6 from houder
        returning agent_taak_log.id, agent_taak_log.ts
    )
    select regel.id, regel.ts from regel;
end
$$;
