-- A session's result row is the daemon's, and only for a claim that really was (issue 38). The journal is a file the
-- session's OS user can write: an entry made there by hand, with no token or a made-up one, was written at the next
-- start as a result row of any task (a cost of -99,999,999 passed the daily brake). Each `gestart` row now keeps the
-- lease token of its claim, and a result row is written only under a token and session that claimed the task.

-- migration 025's claim, with the claim's token in its `gestart` row (and 026's rights).
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
               jsonb_build_object('poging', g.pogingen, 'machine', machine, 'lease_token', g.lease_token, 'zin', jsonb_build_object(
                   'sleutel', 'row_started',
                   'waarden', jsonb_build_object('attempt', g.pogingen, 'of', g.max_pogingen, 'holder', g.geclaimd_door)))
        from geclaimd g
    )
    select * from geclaimd;
end
$$;

-- migration 026's claim by ID, with the claim's token in its `gestart` row.
create or replace function taak_claim_id(taak text, bot text, lease_seconds integer, machine text, sessie text)
returns setof agent_taken
language plpgsql security definer set search_path = public, pg_temp as $$
#variable_conflict use_column
begin
    if not exists (select 1 from taak_bots_vandaag(array[$2], false) d where d.actief and not d.geremd) then
        return;
    end if;
    return query
    with gekozen as (
        select t.id from agent_taken t
        where t.id = $1 and t.status = 'wachtend' and (t.toegewezen_aan is null or t.toegewezen_aan = $2)
          and (t.niet_voor is null or t.niet_voor <= now())
        for update skip locked
    ), geclaimd as (
        update agent_taken t
        set bijgewerkt = now(),
            status = 'bezig',
            lease_token = gen_random_uuid(),
            lease_tot = now() + make_interval(secs => $3),
            pogingen = t.pogingen + 1,
            geclaimd_door = $2 || '@' || $4,
            niet_voor = null
        from gekozen
        where t.id = gekozen.id
        returning t.*
    ), gestart as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, sessie, meta)
        select g.id, $2, 'gestart', 'poging ' || g.pogingen || ' van ' || g.max_pogingen || ' door ' || g.geclaimd_door,
               $5,
               jsonb_build_object('poging', g.pogingen, 'machine', $4, 'lease_token', g.lease_token, 'zin', jsonb_build_object(
                   'sleutel', 'row_started',
                   'waarden', jsonb_build_object('attempt', g.pogingen, 'of', g.max_pogingen, 'holder', g.geclaimd_door)))
        from geclaimd g
    )
    select * from geclaimd;
end
$$;

-- A session's result row: a `notitie` of the bot whose claim had this token and session; nothing (no row back)
-- when no claim of this task had them.
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
        limit 1
    ), regel as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, sessie, meta)
        select claim.taak_id, claim.bot, 'notitie', $3, $4, $5 from claim
        returning agent_taak_log.id, agent_taak_log.ts
    )
    select regel.id, regel.ts from regel;
end
$$;
