-- Less work per task (issue 16): a task that is claimed, logs a step and is finished wrote three counter rows,
-- an outbox row nobody might send, and a new version of the task row for every log row. What carries no
-- information is no longer written.

-- 1. Counted per kind only what a briefing cannot learn otherwise. `gestart` happens once per attempt and
-- `klaar` at most once: those few rows are counted from their own small index when a briefing asks, so the
-- insert of a start or a finish writes no counter row (and checks no foreign key for one).
drop trigger agent_taak_log_na_insert on agent_taak_log;
create trigger agent_taak_log_na_insert after insert on agent_taak_log
    for each row when (new.soort not in ('gestart', 'klaar'))
    execute function agent_taak_log_na_insert();
delete from agent_taak_telling where soort in ('gestart', 'klaar');
create index agent_taak_log_beurten on agent_taak_log (taak_id) where soort in ('gestart', 'klaar');

-- 2. A finished task goes into the outbox only when some daemon delivers finished tasks (TAAK_ON_KLAAR_CMD).
-- Each daemon says so for the bots it runs when it starts (and takes it back when it starts without one).
create table taak_bezorgers (
    houder text not null,  -- bot@machine, as in agent_taken.geclaimd_door
    soort  text not null,
    sinds  timestamptz not null default now(),
    primary key (soort, houder)
);
alter table taak_bezorgers enable row level security;

create or replace function taak_melding_maken() returns trigger
language plpgsql as $$
begin
    if new.soort = 'vraag'
       and (select status from agent_taken where id = new.taak_id) = 'wacht_op_mens' then
        insert into taak_meldingen (taak_id, soort, sleutel, tekst)
        values (new.taak_id, 'vraag', 'vraag:' || new.id, new.taak_id || ': ' || new.tekst)
        on conflict (sleutel) do nothing;
    elsif new.soort = 'klaar' and exists (select 1 from taak_bezorgers where soort = 'klaar') then
        insert into taak_meldingen (taak_id, soort, sleutel)
        values (new.taak_id, 'klaar', 'klaar:' || new.taak_id)
        on conflict (sleutel) do nothing;
    end if;
    return null;
end
$$;

-- 3. A bot's day against its brake, as a function, so that the daemon's claim can ask it in the same statement:
-- from a notification to a claimed task is then one round trip. `taak bot lijst` and the cockpit read it too.
-- Per bot its switch, its sessions started and the cost of its sessions' result rows since local midnight, and
-- its limits (null: none); `alle` false counts the usage only of bots that have a brake (the others show 0),
-- which is what a claim needs: most bots have none, and the count walks today's log.
create or replace function taak_bots_vandaag(namen text[], alle boolean)
returns table (
    bot text, actief boolean, max_sessies integer, max_kosten numeric,
    sessies_vandaag bigint, kosten_vandaag numeric, geremd boolean
)
language sql stable as $$
    with dag as (
        select (date_trunc('day', now() at time zone taak_tijdzone()) at time zone taak_tijdzone()) as begin
    ), b as (
        select a.bot, a.actief, a.max_sessies_per_dag as max_sessies, a.max_kosten_per_dag as max_kosten
        from agent_bots a where namen is null or a.bot = any(namen)
    ), gebruik as (
        select l.bot,
               count(*) filter (where l.soort = 'gestart') as sessies,
               coalesce(sum((l.meta ->> 'total_cost_usd')::numeric) filter (where l.soort = 'notitie'), 0) as kosten
        from agent_taak_log l, dag
        where l.ts >= dag.begin
          and l.bot in (select b.bot from b where alle or b.max_sessies is not null or b.max_kosten is not null)
          and (l.soort = 'gestart' or (l.soort = 'notitie' and l.meta ? 'resultaat'))
        group by l.bot
    )
    select b.bot, b.actief, b.max_sessies, b.max_kosten,
           coalesce(g.sessies, 0), coalesce(g.kosten, 0),
           (b.max_sessies is not null and coalesce(g.sessies, 0) >= b.max_sessies)
               or (b.max_kosten is not null and coalesce(g.kosten, 0) >= b.max_kosten)
    from b left join gebruik g on g.bot = b.bot
$$;

-- 4. The claim as a function with a generic plan. As a prepared statement the planner estimated ten bots
-- for `unnest($1)` in the generic plan, found it dearer than a custom one and planned the claim afresh on
-- every call: 0.26 ms of its 0.67. In plpgsql the plan is made once per connection and kept.
-- `alleen_aan`: only bots that are switched on and not at their brake claim (the daemon; `taak claim` by hand
-- does not ask), so the daemon needs no statement of its own before it claims.
create or replace function taak_claim(
    bots text[], lease_seconds integer, machine text, sessie text, nog_bezig text[], alleen_aan boolean
) returns setof agent_taken
language plpgsql
set plan_cache_mode = force_generic_plan
as $$
begin
    if alleen_aan then
        select coalesce(array_agg(u.naam order by u.plek), '{}') into bots
        from unnest(bots) with ordinality as u (naam, plek)
        join taak_bots_vandaag(bots, false) as d on d.bot = u.naam
        where d.actief and not d.geremd;
        if cardinality(bots) = 0 then
            return;
        end if;
    end if;
    -- Each bot's own queue and the queue for anyone are walked apart, in claim order on
    -- agent_taken_claim_per_bot, so the cost never grows with other bots' backlogs; the best of their heads wins.
    return query
    with voor_de_bots as (
        select k.* from unnest(bots) as b (bot) cross join lateral (
            select t.id, t.prioriteit, t.aangemaakt from agent_taken t
            where t.status = 'wachtend' and t.toegewezen_aan = b.bot
              and not (t.id = any(nog_bezig)) and (t.niet_voor is null or t.niet_voor <= now())
            order by t.prioriteit desc, t.aangemaakt, t.id
            limit 1
            for update skip locked
        ) as k
    ), voor_iedereen as (
        select t.id, t.prioriteit, t.aangemaakt from agent_taken t
        where t.status = 'wachtend' and t.toegewezen_aan is null
          and not (t.id = any(nog_bezig)) and (t.niet_voor is null or t.niet_voor <= now())
        order by t.prioriteit desc, t.aangemaakt, t.id
        limit 1
        for update skip locked
    ), gekozen as (
        select kandidaten.id from (select * from voor_de_bots union all select * from voor_iedereen) as kandidaten
        order by kandidaten.prioriteit desc, kandidaten.aangemaakt, kandidaten.id
        limit 1
    ), geclaimd as (
        update agent_taken t
        set bijgewerkt = now(),
            status = 'bezig',
            lease_token = gen_random_uuid(),
            lease_tot = now() + make_interval(secs => lease_seconds),
            pogingen = t.pogingen + 1,
            geclaimd_door = coalesce(t.toegewezen_aan, bots[1]) || '@' || machine,
            niet_voor = null
        from gekozen
        where t.id = gekozen.id
        returning t.*
    ), gestart as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, sessie, meta)
        select g.id, split_part(g.geclaimd_door, '@', 1), 'gestart',
               'poging ' || g.pogingen || ' van ' || g.max_pogingen || ' door ' || g.geclaimd_door,
               sessie,
               jsonb_build_object('poging', g.pogingen, 'machine', machine)
        from geclaimd g
    )
    select * from geclaimd;
end
$$;
