-- A bot's day counted from its own rows (issue 16). Every bot has a sessions brake by default (migration 013),
-- so every claim of the daemon asks `taak_bots_vandaag`, and 018 walked the whole fleet's log since local
-- midnight on `agent_taak_log_ts` to count one bot's starts: 1.5 ms with 1,200 rows today, growing with every
-- other bot's steps. Now each bot's starts and session results are found on their own partial index, so a
-- claim reads only the claiming bot's own sessions of today (no more than its brake lets it start).

create index agent_taak_log_gebruik on agent_taak_log (bot, ts)
    where soort = 'gestart' or (soort = 'notitie' and meta ? 'resultaat');

create or replace function taak_bots_vandaag(namen text[], alle boolean)
returns table (
    bot text, actief boolean, max_sessies integer, max_kosten numeric,
    sessies_vandaag bigint, kosten_vandaag numeric, geremd boolean
)
language sql stable as $$
    with dag as (
        select (date_trunc('day', now() at time zone taak_tijdzone()) at time zone taak_tijdzone()) as begin
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

-- The household's time zone, asked by every new task's ID and by every claim of a bot with a brake. As SQL
-- it could not be inlined (it holds a subquery), so each statement parsed and planned it afresh: 90 us a
-- call against 25 us in plpgsql, whose plan is kept per connection. The same answer.
create or replace function taak_tijdzone() returns text
language plpgsql stable as $$
begin
    return coalesce(
        nullif(current_setting('taak.tijdzone', true), ''),
        (select waarde from taak_instellingen where sleutel = 'tijdzone'),
        'Europe/Amsterdam');
end
$$;
