-- A bot's day against its brake, asked by the daemon's claim in the same statement (a notification to a claimed task
-- is then one round trip), by `taak bot lijst` and by the cockpit. Per bot its switch, its sessions started and the
-- cost of its sessions' result rows since local midnight, and its limits (null: none); `alle` false counts the usage
-- only of bots that have a brake (the others show 0), which is what a claim needs. Each bot's starts and results are
-- found on their own partial index (agent_taak_log_gebruik), so a claim reads only the claiming bot's own rows of
-- today, never the whole fleet's log.
create or replace function taak_bots_vandaag(namen text[], alle boolean)
returns table (
    bot text, actief boolean, max_sessies integer, max_kosten numeric,
    sessies_vandaag bigint, kosten_vandaag numeric, geremd boolean
)
language sql stable as $$
    with dag as (
        select taak_dag_begin() as begin
    )
    select b.bot, b.actief, b.max_sessies_per_dag, b.max_kosten_per_dag,
           g.sessies, g.kosten,
           (b.max_sessies_per_dag is not null and g.sessies >= b.max_sessies_per_dag)
               or (b.max_kosten_per_dag is not null and g.kosten >= b.max_kosten_per_dag)
    from agent_bots b
    cross join lateral (
        -- Without a brake and without `alle` nothing is counted: the gate makes the scan a one-time filter.
        select count(*) filter (where l.soort = 'gestart') as sessies,
               coalesce(sum((l.meta ->> 'total_cost_usd')::numeric) filter (where l.soort = 'notitie'), 0) as kosten
        from agent_taak_log l
        where (alle or b.max_sessies_per_dag is not null or b.max_kosten_per_dag is not null)
          and l.bot = b.bot
          -- As a row comparison, only agent_taak_log_gebruik can serve the time: a generic plan, which cannot
          -- see which bot or which day, would otherwise walk today's whole log on agent_taak_log_ts.
          and (l.bot, l.ts) >= (b.bot, (select dag.begin from dag))
          and (l.soort = 'gestart' or (l.soort = 'notitie' and l.meta ? 'resultaat'))
    ) as g
    where namen is null or b.bot = any(namen)
$$;
