-- The ledger's own rows in the reader's language (issue 16). A row the system writes (a task created, an attempt
-- started, a lease expired, a cancel, a session's result) keeps its Dutch text, the shared record every machine
-- reads, and beside it in its meta the same words as a phrase: `zin`, a message key of worker/core/messages.py
-- and its values. `taak toon`, `tail`, the briefing and the cockpit say such a row in the language of the run.
-- The statements in queries.sql write their phrases themselves; these two functions write theirs here.

create or replace function taak_nieuw(
    opdracht text,
    opdrachtgever text,
    toegewezen_aan text default null,
    klaar_wanneer text default null,
    context jsonb default '{}',
    volgende_stap text default null,
    titel text default null,
    prioriteit integer default 0,
    max_pogingen integer default 3,
    niet_voor timestamptz default null,
    uiterlijk timestamptz default null
) returns text
language plpgsql volatile security definer set search_path = public, pg_temp as $$
declare
    nieuw_id text;
begin
    insert into agent_taken (opdracht, opdrachtgever, toegewezen_aan, klaar_wanneer, context, volgende_stap,
                             titel, prioriteit, max_pogingen, niet_voor, uiterlijk)
    values (taak_nieuw.opdracht, taak_nieuw.opdrachtgever, taak_nieuw.toegewezen_aan, taak_nieuw.klaar_wanneer,
            coalesce(taak_nieuw.context, '{}'::jsonb), taak_nieuw.volgende_stap, taak_nieuw.titel,
            coalesce(taak_nieuw.prioriteit, 0), coalesce(taak_nieuw.max_pogingen, 3), taak_nieuw.niet_voor,
            taak_nieuw.uiterlijk)
    returning id into nieuw_id;
    insert into agent_taak_log (taak_id, bot, soort, tekst, meta)
    values (nieuw_id, taak_nieuw.opdrachtgever, 'notitie', 'aangemaakt door ' || taak_nieuw.opdrachtgever,
            jsonb_build_object('zin', jsonb_build_object(
                'sleutel', 'row_created', 'waarden', jsonb_build_object('who', taak_nieuw.opdrachtgever))));
    return nieuw_id;
end
$$;

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
               jsonb_build_object('poging', g.pogingen, 'machine', machine, 'zin', jsonb_build_object(
                   'sleutel', 'row_started',
                   'waarden', jsonb_build_object('attempt', g.pogingen, 'of', g.max_pogingen, 'holder', g.geclaimd_door)))
        from geclaimd g
    )
    select * from geclaimd;
end
$$;
