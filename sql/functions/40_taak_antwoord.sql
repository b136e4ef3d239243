-- An answer to a task (the owner's, or a message the intake takes in): a task waiting for it goes back in the
-- queue; a finished task takes none (no row back). No held task moves.
create or replace function taak_antwoord(taak text, wie text, tekst text)
returns table (id bigint, ts timestamptz, heropend boolean)
language plpgsql security definer set search_path = public, pg_temp as $$
#variable_conflict use_column
begin
    return query
    with terug as (
        update agent_taken t
        set bijgewerkt = now(), status = 'wachtend', niet_voor = null
        where t.id = $1 and t.status = 'wacht_op_mens'
        returning t.id
    ), regel as (
        insert into agent_taak_log (taak_id, bot, soort, tekst)
        select t.id, $2, 'antwoord', $3 from agent_taken t
        where t.id = $1 and t.status not in ('klaar', 'mislukt', 'geannuleerd')
        returning agent_taak_log.id, agent_taak_log.ts
    )
    select regel.id, regel.ts, exists (select 1 from terug) from regel;
end
$$;
