-- The claim: the best waiting task of these bots or for anyone, taken in one statement with its `gestart` row, which
-- keeps the claim's lease token (a session's result row is written only under a token that claimed the task:
-- taak_resultaat). It runs with its owner's rights, so a daemon needs no right on the tables to claim.
-- plpgsql with a generic plan: as a prepared statement the planner guessed ten bots for `unnest($1)`, found the
-- generic plan dearer and planned the claim afresh on every call (0.26 ms of its 0.67).
-- `alleen_aan`: only bots that are switched on and not at their brake claim (the daemon; `taak claim` by hand does
-- not ask), so the daemon needs no statement of its own before it claims.
-- What a task needs routes it (issue 41): a task for a named bot goes to that bot; one for anyone with a need
-- (`nodig`) only to one of these bots that has the skill (taak_bot_vaardigheden), the first of them in their
-- order; one with no need to any of them (the first).
create or replace function taak_claim(
    bots text[], lease_seconds integer, machine text, sessie text, nog_bezig text[], alleen_aan boolean
) returns setof agent_taken
language plpgsql security definer set search_path = public, pg_temp
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
    -- Each bot's own queue, each skill's queue for anyone and the queue for anyone with no need are walked apart,
    -- in claim order on agent_taken_claim_per_bot, agent_taken_claim_nodig and agent_taken_claim_iedereen, so the
    -- cost never grows with other bots' or other skills' backlogs; the best of their heads wins, and `door` is the
    -- bot it is claimed for.
    return query
    with vaardig as (
        select distinct on (v.vaardigheid) v.vaardigheid, u.naam as bot
        from unnest(bots) with ordinality as u (naam, plek)
        join taak_bot_vaardigheden v on v.bot = u.naam
        order by v.vaardigheid, u.plek
    ), voor_de_bots as (
        select k.*, b.bot as door from unnest(bots) as b (bot) cross join lateral (
            select t.id, t.prioriteit, t.aangemaakt from agent_taken t
            where t.status = 'wachtend' and t.toegewezen_aan = b.bot
              and not (t.id = any(nog_bezig)) and (t.niet_voor is null or t.niet_voor <= now())
            order by t.prioriteit desc, t.aangemaakt, t.id
            limit 1
            for update skip locked
        ) as k
    ), voor_de_vaardigheden as (
        select k.*, s.bot as door from vaardig as s cross join lateral (
            select t.id, t.prioriteit, t.aangemaakt from agent_taken t
            where t.status = 'wachtend' and t.toegewezen_aan is null and t.nodig = s.vaardigheid
              and not (t.id = any(nog_bezig)) and (t.niet_voor is null or t.niet_voor <= now())
            order by t.prioriteit desc, t.aangemaakt, t.id
            limit 1
            for update skip locked
        ) as k
    ), voor_iedereen as (
        select t.id, t.prioriteit, t.aangemaakt, bots[1] as door from agent_taken t
        where t.status = 'wachtend' and t.toegewezen_aan is null and t.nodig is null
          and not (t.id = any(nog_bezig)) and (t.niet_voor is null or t.niet_voor <= now())
        order by t.prioriteit desc, t.aangemaakt, t.id
        limit 1
        for update skip locked
    ), gekozen as (
        select kandidaten.id, kandidaten.door from (
            select * from voor_de_bots union all select * from voor_de_vaardigheden union all select * from voor_iedereen
        ) as kandidaten
        order by kandidaten.prioriteit desc, kandidaten.aangemaakt, kandidaten.id
        limit 1
    ), geclaimd as (
        update agent_taken t
        set bijgewerkt = now(),
            status = 'bezig',
            lease_token = gen_random_uuid(),
            lease_tot = now() + make_interval(secs => lease_seconds),
            pogingen = t.pogingen + 1,
            geclaimd_door = gekozen.door || '@' || machine,
            niet_voor = null
        from gekozen
        where t.id = gekozen.id
        returning t.*
    ), gestart as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, sessie, meta)
        select g.id, split_part(g.geclaimd_door, '@', 1), 'gestart',
               'poging ' || g.pogingen || ' van ' || g.max_pogingen || ' door ' || g.geclaimd_door,
               sessie,
               jsonb_build_object('poging', g.pogingen, 'machine', machine, 'lease_token', g.lease_token, 'zin', jsonb_build_object(
                   'sleutel', 'row_started',
                   'waarden', jsonb_build_object('attempt', g.pogingen, 'of', g.max_pogingen, 'holder', g.geclaimd_door)))
        from geclaimd g
    )
    select * from geclaimd;
end
$$;
