-- The schema of a database migrated from empty (sql/migrations, then sql/functions), as pg_dump writes it.
-- Generated; do not edit. After a change of a migration or a function: TEST_DATABASE_URL=<a Postgres server> .venv/bin/python -m tests.schema
--
-- PostgreSQL database dump
--



SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: agent_taak_log_alleen_bijschrijven(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.agent_taak_log_alleen_bijschrijven() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
begin
    raise exception 'agent_taak_log is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
end
$$;


--
-- Name: agent_taak_log_bijschrijven(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.agent_taak_log_bijschrijven() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
begin
    if new.soort not in ('gestart', 'stap_klaar', 'geblokkeerd', 'vraag', 'antwoord', 'bewijs', 'klaar', 'fout',
                         'compact', 'notitie', 'vrijgegeven', 'verlopen')
       or char_length(new.tekst) > 100000
       or not taak_zichtbaar(new.bot)
       or char_length(new.bot) > 64
       or jsonb_typeof(new.meta) <> 'object'
       or (new.meta ? 'total_cost_usd' and jsonb_typeof(new.meta -> 'total_cost_usd') not in ('number', 'null')) then
        if new.soort not in ('gestart', 'stap_klaar', 'geblokkeerd', 'vraag', 'antwoord', 'bewijs', 'klaar', 'fout',
                             'compact', 'notitie', 'vrijgegeven', 'verlopen') then
            raise exception 'new row for relation "agent_taak_log" violates check constraint "soort_geldig"'
                using errcode = 'check_violation', constraint = 'soort_geldig', table = 'agent_taak_log',
                      detail = 'soort is one of gestart, stap_klaar, geblokkeerd, vraag, antwoord, bewijs, klaar, fout, '
                               'compact, notitie, vrijgegeven, verlopen';
        end if;
        if char_length(new.tekst) > 100000 then
            raise exception 'new row for relation "agent_taak_log" violates check constraint "tekst_max_100000"'
                using errcode = 'check_violation', constraint = 'tekst_max_100000', table = 'agent_taak_log';
        end if;
        if not taak_zichtbaar(new.bot) then  -- a row without a writer has none (null), not an invisible one
            raise exception 'new row for relation "agent_taak_log" violates check constraint "bot_niet_leeg"'
                using errcode = 'check_violation', constraint = 'bot_niet_leeg', table = 'agent_taak_log';
        end if;
        if char_length(new.bot) > 64 then
            raise exception 'new row for relation "agent_taak_log" violates check constraint "bot_max_64"'
                using errcode = 'check_violation', constraint = 'bot_max_64', table = 'agent_taak_log';
        end if;
        -- The cost a session's result row carries is summed by the brake and the overviews: one row of text there
        -- stopped a bot's claims for the rest of the day.
        raise exception 'new row for relation "agent_taak_log" violates check constraint "meta_leesbaar"'
            using errcode = 'check_violation', constraint = 'meta_leesbaar', table = 'agent_taak_log',
                  detail = 'meta is a JSON object, and its total_cost_usd a number';
    end if;
    new.ts := clock_timestamp();
    return new;
end
$$;


--
-- Name: agent_taak_log_na_insert(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.agent_taak_log_na_insert() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
begin
    if new.soort = 'gestart' then
        return null;
    end if;
    -- A finished task is told to the owner only when some daemon delivers finished tasks.
    if new.soort = 'klaar' then
        if exists (select 1 from taak_bezorgers where soort = 'klaar') then
            insert into taak_meldingen (taak_id, soort, sleutel)
            values (new.taak_id, 'klaar', 'klaar:' || new.taak_id)
            on conflict (sleutel) do nothing;
        end if;
        return null;
    end if;
    insert into agent_taak_telling as t (taak_id, soort, aantal, eerste)
    values (new.taak_id, new.soort, 1, new.ts)
    on conflict (taak_id, soort) do update set aantal = t.aantal + 1;
    -- A question of a task that now waits for the owner (urgent when its bot marked it so: `taak blokkeer
    -- --dringend`).
    if new.soort = 'vraag' then
        if (select status from agent_taken where id = new.taak_id) = 'wacht_op_mens' then
            insert into taak_meldingen (taak_id, soort, sleutel, tekst, bot, dringend)
            values (new.taak_id, 'vraag', 'vraag:' || new.id, new.taak_id || ': ' || new.tekst, new.bot,
                    coalesce(new.meta ->> 'dringend', '') = 'true')
            on conflict (sleutel) do nothing;
        end if;
    end if;
    return null;
end
$$;


--
-- Name: agent_taken_bevroren(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.agent_taken_bevroren() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
begin
    raise exception 'agent_taken: id, opdracht, opdrachtgever and aangemaakt are frozen (task %): '
        'a clarification is a new log row', old.id using errcode = 'check_violation';
end
$$;


--
-- Name: agent_taken_meld_wachtend(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.agent_taken_meld_wachtend() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
begin
    perform pg_notify('taak_nieuw', json_build_object(
        'id', new.id, 'toegewezen_aan', new.toegewezen_aan, 'nodig', new.nodig, 'niet_voor', new.niet_voor)::text);
    return null;
end
$$;


--
-- Name: agent_taken_nakijken(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.agent_taken_nakijken() RETURNS trigger
    LANGUAGE plpgsql
    AS $_$
begin
    if tg_op = 'INSERT' then
        if new.opdracht is null then  -- said before titel, which is made from it, is found empty
            raise exception 'null value in column "opdracht" of relation "agent_taken" violates not-null constraint'
                using errcode = 'not_null_violation', column = 'opdracht', table = 'agent_taken';
        end if;
        -- The shape the taak command reads (worker.core.model.TASK_ID): a month and a day that can be, so that no
        -- task gets in that the command would then refuse to name (it took `claim` down after the claim).
        if new.id !~ '^HV-[0-9]{4}(0[1-9]|1[0-2])(0[1-9]|[12][0-9]|3[01])-[0-9]{3,}$' then
            raise exception 'new row for relation "agent_taken" violates check constraint "agent_taken_id_check"'
                using errcode = 'check_violation', constraint = 'agent_taken_id_check', table = 'agent_taken',
                      detail = 'a task ID is HV-YYYYMMDD-NNN, with a real date';
        end if;
        if new.opdracht !~ '[^[:space:]]' then
            raise exception 'new row for relation "agent_taken" violates check constraint "opdracht_niet_leeg"'
                using errcode = 'check_violation', constraint = 'opdracht_niet_leeg', table = 'agent_taken';
        end if;
        if char_length(new.opdracht) > 8000 then
            raise exception 'new row for relation "agent_taken" violates check constraint "opdracht_max_8000"'
                using errcode = 'check_violation', constraint = 'opdracht_max_8000', table = 'agent_taken';
        end if;
        if new.opdrachtgever !~ '[^[:space:]]' then
            raise exception 'new row for relation "agent_taken" violates check constraint "opdrachtgever_niet_leeg"'
                using errcode = 'check_violation', constraint = 'opdrachtgever_niet_leeg', table = 'agent_taken';
        end if;
        if new.titel is null or new.titel !~ '[^[:space:]]' then
            new.titel := left(btrim(split_part(btrim(new.opdracht, E' \t\r\n'), E'\n', 1)), 120);
        end if;
    end if;
    -- A row that keeps every rule pays for one test: plpgsql prepares each expression anew in every transaction,
    -- and a claim and a finish are a transaction each; the rules are asked one by one only to name the broken one.
    if new.status not in ('wachtend', 'bezig', 'wacht_op_mens', 'klaar', 'mislukt', 'geannuleerd')
       or (new.status = 'bezig' and (new.lease_tot is null or new.lease_token is null))
       or (new.status = 'klaar' and coalesce(new.bewijs, '') !~ '[^[:space:]]')
       or new.pogingen < 0
       or new.max_pogingen < 1
       or jsonb_typeof(new.context) is distinct from 'object' then
        if new.status not in ('wachtend', 'bezig', 'wacht_op_mens', 'klaar', 'mislukt', 'geannuleerd') then
            raise exception 'new row for relation "agent_taken" violates check constraint "status_geldig"'
                using errcode = 'check_violation', constraint = 'status_geldig', table = 'agent_taken',
                      detail = format('status %s is none of wachtend, bezig, wacht_op_mens, klaar, mislukt, geannuleerd',
                                      new.status);
        end if;
        if new.status = 'bezig' and (new.lease_tot is null or new.lease_token is null) then
            raise exception 'new row for relation "agent_taken" violates check constraint "bezig_heeft_lease"'
                using errcode = 'check_violation', constraint = 'bezig_heeft_lease', table = 'agent_taken';
        end if;
        if new.status = 'klaar' and coalesce(new.bewijs, '') !~ '[^[:space:]]' then
            raise exception 'new row for relation "agent_taken" violates check constraint "klaar_heeft_bewijs"'
                using errcode = 'check_violation', constraint = 'klaar_heeft_bewijs', table = 'agent_taken';
        end if;
        if new.pogingen < 0 then
            raise exception 'new row for relation "agent_taken" violates check constraint "pogingen_niet_negatief"'
                using errcode = 'check_violation', constraint = 'pogingen_niet_negatief', table = 'agent_taken';
        end if;
        if new.max_pogingen < 1 then
            raise exception 'new row for relation "agent_taken" violates check constraint "max_pogingen_positief"'
                using errcode = 'check_violation', constraint = 'max_pogingen_positief', table = 'agent_taken';
        end if;
        if jsonb_typeof(new.context) is distinct from 'object' then
            raise exception 'new row for relation "agent_taken" violates check constraint "context_is_object"'
                using errcode = 'check_violation', constraint = 'context_is_object', table = 'agent_taken';
        end if;
    end if;
    if new.toegewezen_aan is not null then
        new.toegewezen_aan := taak_botnaam(new.toegewezen_aan);
        if new.toegewezen_aan = '' then
            raise exception 'toegewezen_aan is empty: name a bot, or leave it out for any bot'
                using errcode = 'check_violation', constraint = 'toegewezen_aan_naam', table = 'agent_taken';
        end if;
        if new.toegewezen_aan !~ '^[a-z0-9_.-]+$' then
            raise exception 'new row for relation "agent_taken" violates check constraint "toegewezen_aan_naam"'
                using errcode = 'check_violation', constraint = 'toegewezen_aan_naam', table = 'agent_taken';
        end if;
    end if;
    -- What follows a change of status on an update. A BEFORE UPDATE row trigger runs on a row already locked
    -- for the update, which is then made; a notification and a message made here leave with the statement's
    -- transaction, and a refused row takes them with it. (A new task is announced by agent_taken_meld_nieuw,
    -- after the insert: an insert can still turn into nothing, ON CONFLICT DO NOTHING.)
    if tg_op = 'UPDATE' and new.status is distinct from old.status and new.status in ('wachtend', 'mislukt') then
        if new.status = 'wachtend' then
            perform pg_notify('taak_nieuw', json_build_object(
                'id', new.id, 'toegewezen_aan', new.toegewezen_aan, 'nodig', new.nodig, 'niet_voor', new.niet_voor)::text);
        elsif new.status = 'mislukt' then
            insert into taak_meldingen (taak_id, soort, sleutel, tekst)
            values (new.id, 'mislukt', 'mislukt:' || new.id || ':' || new.pogingen,
                    new.id || ': mislukt na ' || new.pogingen || ' van ' || new.max_pogingen || ' pogingen: '
                    || new.titel)
            on conflict (sleutel) do nothing;
        end if;
    end if;
    return new;
end
$_$;


--
-- Name: agent_taken_nieuw_nakijken(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.agent_taken_nieuw_nakijken() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
begin
    if tg_op = 'INSERT' then
        if not taak_id_datum_bestaat(new.id) then
            raise exception 'new row for relation "agent_taken" violates check constraint "agent_taken_id_check"'
                using errcode = 'check_violation', constraint = 'agent_taken_id_check', table = 'agent_taken',
                      detail = 'a task ID is HV-YYYYMMDD-NNN, with a real date';
        end if;
        new.titel := rtrim(new.titel, E' \t\r');
        if not taak_zichtbaar(new.opdracht) then
            raise exception 'new row for relation "agent_taken" violates check constraint "opdracht_niet_leeg"'
                using errcode = 'check_violation', constraint = 'opdracht_niet_leeg', table = 'agent_taken';
        end if;
        if not taak_zichtbaar(new.opdrachtgever) then
            raise exception 'new row for relation "agent_taken" violates check constraint "opdrachtgever_niet_leeg"'
                using errcode = 'check_violation', constraint = 'opdrachtgever_niet_leeg', table = 'agent_taken';
        end if;
        -- The line breaks of worker.db.ledger.LINE_BREAKS.
        if new.opdrachtgever ~ E'[\n\r\u000b\f\u001c-\u001e\u0085\u2028\u2029]' then
            raise exception 'new row for relation "agent_taken" violates check constraint "opdrachtgever_een_regel"'
                using errcode = 'check_violation', constraint = 'opdrachtgever_een_regel', table = 'agent_taken';
        end if;
        if char_length(new.opdrachtgever) > 64 then
            raise exception 'new row for relation "agent_taken" violates check constraint "opdrachtgever_max_64"'
                using errcode = 'check_violation', constraint = 'opdrachtgever_max_64', table = 'agent_taken';
        end if;
        -- A moment the taak command and the daemon can read: a year past 9999 or infinity stopped both (a claim
        -- of such a task failed after the claim, again and again).
        if not isfinite(new.niet_voor) or new.niet_voor >= '9999-01-02 00:00:00+00' then
            raise exception 'new row for relation "agent_taken" violates check constraint "niet_voor_leesbaar"'
                using errcode = 'check_violation', constraint = 'niet_voor_leesbaar', table = 'agent_taken',
                      detail = 'niet_voor is a finite moment before 9999-01-02';
        end if;
    end if;
    if char_length(new.titel) > 120 then
        raise exception 'new row for relation "agent_taken" violates check constraint "titel_max_120"'
            using errcode = 'check_violation', constraint = 'titel_max_120', table = 'agent_taken';
    end if;
    if char_length(new.toegewezen_aan) > 64 then
        raise exception 'new row for relation "agent_taken" violates check constraint "toegewezen_aan_max_64"'
            using errcode = 'check_violation', constraint = 'toegewezen_aan_max_64', table = 'agent_taken';
    end if;
    if char_length(new.klaar_wanneer) > 2000 then
        raise exception 'new row for relation "agent_taken" violates check constraint "klaar_wanneer_max_2000"'
            using errcode = 'check_violation', constraint = 'klaar_wanneer_max_2000', table = 'agent_taken';
    end if;
    if char_length(new.volgende_stap) > 2000 then
        raise exception 'new row for relation "agent_taken" violates check constraint "volgende_stap_max_2000"'
            using errcode = 'check_violation', constraint = 'volgende_stap_max_2000', table = 'agent_taken';
    end if;
    if char_length(new.context::text) > 2000 then
        raise exception 'new row for relation "agent_taken" violates check constraint "context_max_2000"'
            using errcode = 'check_violation', constraint = 'context_max_2000', table = 'agent_taken';
    end if;
    -- As `--uiterlijk` (worker.core.due.LATEST_DUE_DAY): the last day 9998-12-31 in any zone, never infinity.
    if not isfinite(new.uiterlijk) or new.uiterlijk >= '9999-01-02 00:00:00+00' then
        raise exception 'new row for relation "agent_taken" violates check constraint "uiterlijk_leesbaar"'
            using errcode = 'check_violation', constraint = 'uiterlijk_leesbaar', table = 'agent_taken',
                  detail = 'uiterlijk is a finite moment, at the latest on 9998-12-31';
    end if;
    return new;
end
$$;


--
-- Name: machine_naam_vrij(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.machine_naam_vrij() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
begin
    if tg_table_name = 'machine_aliassen' then
        if exists (select 1 from machines where lower(naam) = lower(new.alias) and naam <> new.machine) then
            raise exception 'alias % is the name of another machine', new.alias using errcode = 'unique_violation';
        end if;
    elsif exists (select 1 from machine_aliassen where lower(alias) = lower(new.naam) and machine <> new.naam) then
        raise exception 'machine name % is an alias of another machine', new.naam using errcode = 'unique_violation';
    end if;
    return new;
end
$$;


--
-- Name: taak_antwoord(text, text, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_antwoord(taak text, wie text, tekst text) RETURNS TABLE(id bigint, ts timestamp with time zone, heropend boolean)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $_$
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
$_$;


--
-- Name: taak_backoff(integer, double precision, double precision); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_backoff(pogingen integer, basis_seconden double precision, max_seconden double precision) RETURNS interval
    LANGUAGE sql IMMUTABLE
    AS $$
    select make_interval(secs => least(max_seconden, basis_seconden * power(2, greatest(pogingen - 1, 0))))
$$;


--
-- Name: taak_blokkeer(text, uuid, text, text, jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_blokkeer(taak text, token uuid, vraag text, sessie text, meta jsonb) RETURNS TABLE(id bigint, ts timestamp with time zone)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $_$
#variable_conflict use_column
begin
    return query
    with wacht as (
        update agent_taken t
        set bijgewerkt = now(),
            status = 'wacht_op_mens', lease_tot = null, lease_token = null, pogingen = greatest(t.pogingen - 1, 0)
        where t.id = $1 and t.status = 'bezig' and t.lease_token = $2
        returning t.id, t.geclaimd_door
    ), regel as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, sessie, meta)
        select wacht.id, split_part(wacht.geclaimd_door, '@', 1), 'vraag', $3, $4,
               $5 || jsonb_build_object('lease_token', $2::text)
        from wacht
        returning agent_taak_log.id, agent_taak_log.ts
    )
    select regel.id, regel.ts from regel;
end
$_$;


--
-- Name: taak_botnaam(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_botnaam(naam text) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $$
    select lower(btrim(naam, E' \t\r\n'))
$$;


--
-- Name: taak_botnaam_zetten(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_botnaam_zetten() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
begin
    if tg_table_name = 'agent_bots' then
        new.bot := taak_botnaam(new.bot);
    elsif new.toegewezen_aan is not null then
        new.toegewezen_aan := taak_botnaam(new.toegewezen_aan);
        if new.toegewezen_aan = '' then
            raise exception 'toegewezen_aan is empty: name a bot, or leave it out for any bot'
                using errcode = 'check_violation';
        end if;
    end if;
    return new;
end
$$;


--
-- Name: taak_bots_vandaag(text[], boolean); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_bots_vandaag(namen text[], alle boolean) RETURNS TABLE(bot text, actief boolean, max_sessies integer, max_kosten numeric, sessies_vandaag bigint, kosten_vandaag numeric, geremd boolean)
    LANGUAGE sql STABLE
    AS $$
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


--
-- Name: taak_volgend_id(timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_volgend_id(moment timestamp with time zone DEFAULT now()) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
declare
    lokale_dag date := (moment at time zone taak_tijdzone())::date;
    nummer integer;
    kandidaat text;
begin
    loop
        insert into agent_taak_teller as t (dag, laatste) values (lokale_dag, 1)
        on conflict (dag) do update set laatste = t.laatste + 1
        returning laatste into nummer;
        kandidaat := 'HV-' || to_char(lokale_dag, 'YYYYMMDD') || '-'
                     || lpad(nummer::text, greatest(3, length(nummer::text)), '0');
        exit when not exists (select 1 from agent_taken where id = kandidaat);
    end loop;
    return kandidaat;
end
$$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: agent_taken; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.agent_taken (
    id text DEFAULT public.taak_volgend_id() NOT NULL,
    titel text NOT NULL,
    opdracht text NOT NULL,
    opdrachtgever text NOT NULL,
    toegewezen_aan text,
    status text DEFAULT 'wachtend'::text NOT NULL,
    klaar_wanneer text,
    context jsonb DEFAULT '{}'::jsonb NOT NULL,
    volgende_stap text,
    pogingen integer DEFAULT 0 NOT NULL,
    max_pogingen integer DEFAULT 3 NOT NULL,
    lease_tot timestamp with time zone,
    lease_token uuid,
    geclaimd_door text,
    bewijs text,
    prioriteit integer DEFAULT 0 NOT NULL,
    niet_voor timestamp with time zone,
    aangemaakt timestamp with time zone DEFAULT now() NOT NULL,
    bijgewerkt timestamp with time zone DEFAULT now() NOT NULL,
    afgerond timestamp with time zone,
    uiterlijk timestamp with time zone,
    nodig text
)
WITH (fillfactor='80');


--
-- Name: taak_claim(text[], integer, text, text, text[], boolean); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_claim(bots text[], lease_seconds integer, machine text, sessie text, nog_bezig text[], alleen_aan boolean) RETURNS SETOF public.agent_taken
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
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


--
-- Name: taak_claim_id(text, text, integer, text, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_claim_id(taak text, bot text, lease_seconds integer, machine text, sessie text) RETURNS SETOF public.agent_taken
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $_$
#variable_conflict use_column
begin
    if not exists (select 1 from taak_bots_vandaag(array[$2], false) d where d.actief and not d.geremd) then
        return;
    end if;
    return query
    with gekozen as (
        select t.id from agent_taken t
        where t.id = $1 and t.status = 'wachtend'
          and (t.toegewezen_aan = $2 or (t.toegewezen_aan is null and (t.nodig is null or exists (
              select 1 from taak_bot_vaardigheden v where v.bot = $2 and v.vaardigheid = t.nodig))))
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
$_$;


--
-- Name: taak_dag(timestamp with time zone, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_dag(moment timestamp with time zone, zone text DEFAULT NULL::text) RETURNS date
    LANGUAGE sql STABLE
    AS $$
    select (moment at time zone coalesce(zone, taak_tijdzone()))::date
$$;


--
-- Name: taak_dag_begin(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_dag_begin() RETURNS timestamp with time zone
    LANGUAGE plpgsql STABLE
    AS $$
begin
    return taak_dag(now())::timestamp at time zone taak_tijdzone();
end
$$;


--
-- Name: taak_eigen_claims_vrijgeven(text[], uuid[], text, jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_eigen_claims_vrijgeven(taken text[], tokens uuid[], reden text, zin jsonb) RETURNS SETOF text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $_$
#variable_conflict use_column
begin
    return query
    with terug as (
        update agent_taken t
        set bijgewerkt = now(),
            status = case when t.pogingen >= t.max_pogingen then 'mislukt' else 'wachtend' end,
            afgerond = case when t.pogingen >= t.max_pogingen then now() end,
            niet_voor = null, lease_tot = null, lease_token = null
        from unnest($1, $2) as claim (id, token)
        where t.id = claim.id and t.lease_token = claim.token and t.status = 'bezig'
        returning t.id, t.geclaimd_door, t.status
    ), regels as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, meta)
        select terug.id, split_part(terug.geclaimd_door, '@', 1), 'vrijgegeven',
               $3 || case when terug.status = 'mislukt' then ': mislukt (pogingen op)' else '' end,
               jsonb_build_object('status', terug.status, 'zin',
                   case when terug.status = 'mislukt'
                        then jsonb_build_object('sleutel', 'row_attempts_used_up', 'waarden', jsonb_build_object('reason', $4))
                        else $4 end)
        from terug
    )
    select terug.id from terug;
end
$_$;


--
-- Name: taak_id_datum_bestaat(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_id_datum_bestaat(id text) RETURNS boolean
    LANGUAGE sql IMMUTABLE STRICT
    AS $$
    -- Called after agent_taken_nakijken's shape check: four digits, a month 01-12 and a day 01-31. Year 0 is no
    -- year; a day past its month's end gives another date back.
    select case
        when substr(id, 4, 4)::integer < 1 then false
        else to_char(make_date(substr(id, 4, 4)::integer, substr(id, 8, 2)::integer, 1)
                     + (substr(id, 10, 2)::integer - 1), 'YYYYMMDD') = substr(id, 4, 8)
    end
$$;


--
-- Name: taak_klaar(text, uuid, text, text, text, jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_klaar(taak text, token uuid, bewijs text, tekst text, sessie text, meta jsonb) RETURNS TABLE(id bigint, ts timestamp with time zone)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $_$
#variable_conflict use_column
begin
    return query
    with afgerond as (
        update agent_taken t
        set bijgewerkt = now(),
            status = 'klaar', bewijs = $3, afgerond = now(), lease_tot = null, lease_token = null
        where t.id = $1 and t.status = 'bezig' and t.lease_token = $2
        returning t.id, t.geclaimd_door
    ), regel as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, sessie, meta)
        select afgerond.id, split_part(afgerond.geclaimd_door, '@', 1), 'klaar', $4, $5,
               $6 || jsonb_build_object('bewijs', $3, 'lease_token', $2::text)
        from afgerond
        returning agent_taak_log.id, agent_taak_log.ts
    )
    select regel.id, regel.ts from regel;
end
$_$;


--
-- Name: taak_lease_seconden(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_lease_seconden() RETURNS integer
    LANGUAGE sql STABLE
    AS $$
    select coalesce((select waarde::integer from taak_instellingen where sleutel = 'lease_seconden'), 1200)
$$;


--
-- Name: taak_log_met_token(text, uuid, text, text, text, jsonb, double precision); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_log_met_token(taak text, token uuid, soort text, tekst text, sessie text, meta jsonb, seconden double precision) RETURNS TABLE(id bigint, ts timestamp with time zone)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $_$
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
$_$;


--
-- Name: taak_log_zonder_token(text, text, text, text, text, jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_log_zonder_token(taak text, bot text, soort text, tekst text, sessie text, meta jsonb) RETURNS TABLE(id bigint, ts timestamp with time zone)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $_$
#variable_conflict use_column
begin
    if $3 not in ('notitie', 'compact') then
        raise exception 'a % row needs the task''s lease token', $3 using errcode = 'insufficient_privilege';
    end if;
    return query
    with regel as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, sessie, meta)
        select t.id, $2, $3, $4, $5, $6 from agent_taken t where t.id = $1
        returning agent_taak_log.id, agent_taak_log.ts
    )
    select regel.id, regel.ts from regel;
end
$_$;


--
-- Name: taak_nieuw(text, text, text, text, jsonb, text, text, integer, integer, timestamp with time zone, timestamp with time zone, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_nieuw(opdracht text, opdrachtgever text, toegewezen_aan text DEFAULT NULL::text, klaar_wanneer text DEFAULT NULL::text, context jsonb DEFAULT '{}'::jsonb, volgende_stap text DEFAULT NULL::text, titel text DEFAULT NULL::text, prioriteit integer DEFAULT 0, max_pogingen integer DEFAULT 3, niet_voor timestamp with time zone DEFAULT NULL::timestamp with time zone, uiterlijk timestamp with time zone DEFAULT NULL::timestamp with time zone, nodig text DEFAULT NULL::text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
declare
    nieuw_id text;
    nodig_als text := taak_botnaam(taak_nieuw.nodig);
begin
    if nodig_als = '' then
        raise exception 'nodig is blank: a task that needs no skill gives null'
            using errcode = 'check_violation', table = 'agent_taken';
    end if;
    if nodig_als is not null and not exists (select 1 from taak_vaardigheden v where v.vaardigheid = nodig_als) then
        raise exception 'skill % is unknown (known: %)', nodig_als,
            coalesce((select string_agg(v.vaardigheid, ', ' order by v.vaardigheid) from taak_vaardigheden v), '-')
            using errcode = 'check_violation', table = 'agent_taken',
                  hint = 'a skill is known once a bot has it (taak bot kan) or taak vaardigheid named it';
    end if;
    if nodig_als is null and taak_nieuw.toegewezen_aan is null
       and exists (select 1 from taak_vaardigheid_woorden) then
        select v.vaardigheid into nodig_als
        from regexp_split_to_table(
                 lower(normalize(coalesce(taak_nieuw.titel, '') || ' ' || taak_nieuw.opdracht, NFKC)), '[^[:alnum:]]+'
             ) with ordinality as w (woord, plek)
        join taak_vaardigheid_woorden v on starts_with(w.woord, v.woord)
        order by w.plek, char_length(v.woord) desc
        limit 1;
    end if;
    insert into agent_taken (opdracht, opdrachtgever, toegewezen_aan, klaar_wanneer, context, volgende_stap,
                             titel, prioriteit, max_pogingen, niet_voor, uiterlijk, nodig)
    values (taak_nieuw.opdracht, taak_nieuw.opdrachtgever, taak_nieuw.toegewezen_aan, taak_nieuw.klaar_wanneer,
            coalesce(taak_nieuw.context, '{}'::jsonb), taak_nieuw.volgende_stap, taak_nieuw.titel,
            coalesce(taak_nieuw.prioriteit, 0), coalesce(taak_nieuw.max_pogingen, 3), taak_nieuw.niet_voor,
            taak_nieuw.uiterlijk, nodig_als)
    returning id into nieuw_id;
    insert into agent_taak_log (taak_id, bot, soort, tekst, meta)
    values (nieuw_id, taak_nieuw.opdrachtgever, 'notitie', 'aangemaakt door ' || taak_nieuw.opdrachtgever,
            jsonb_build_object('zin', jsonb_build_object(
                'sleutel', 'row_created', 'waarden', jsonb_build_object('who', taak_nieuw.opdrachtgever))));
    return nieuw_id;
end
$$;


--
-- Name: taak_oude_wachtrij(timestamp with time zone, text, text, text, text[], text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_oude_wachtrij(vanaf timestamp with time zone, tijd text, ontvanger text, status text, open text[], zone text DEFAULT NULL::text) RETURNS TABLE(dag date, bot text, afgehandeld integer)
    LANGUAGE plpgsql STABLE
    AS $_$
declare
    kolommen text[] := array(select column_name::text from information_schema.columns
                             where table_schema = 'public' and table_name = 'agent_messages');
    gedaan text := 'null';
begin
    if to_regclass('public.agent_messages') is null or not kolommen @> array[tijd, ontvanger]
       or not has_table_privilege('public.agent_messages', 'select') then
        return;
    end if;
    if status = any(kolommen) then
        gedaan := format('lower(btrim(coalesce(m.%I::text, %L))) <> all($2)', status, '');
        if 'task_id' = any(kolommen) then
            gedaan := gedaan || ' or exists (select 1 from agent_taken t where t.id = m.task_id::text)';
        end if;
    end if;
    return query execute format(
        'select taak_dag(m.%1$I::timestamptz, $3), taak_botnaam(m.%2$I::text), (%3$s)::integer
         from public.agent_messages m where m.%1$I::timestamptz >= $1', tijd, ontvanger, gedaan)
    using vanaf, open, zone;
end
$_$;


--
-- Name: taak_poging_mislukt(text, uuid, text, text, text, jsonb, double precision, double precision, jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_poging_mislukt(taak text, token uuid, reden text, notitie text, sessie text, meta jsonb, basis double precision, maximum double precision, zin jsonb) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $_$
#variable_conflict use_column
declare
    uitkomst text;
begin
    with afgelopen as (
        update agent_taken t
        set bijgewerkt = now(),
            status = case when t.pogingen >= t.max_pogingen then 'mislukt' else 'wachtend' end,
            niet_voor = case when t.pogingen >= t.max_pogingen then null
                             else now() + taak_backoff(t.pogingen, $7, $8) end,
            afgerond = case when t.pogingen >= t.max_pogingen then now() end,
            lease_tot = null,
            lease_token = null
        where t.id = $1 and t.status = 'bezig' and t.lease_token = $2
        returning t.id, t.status, t.geclaimd_door
    ), regels as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, sessie, meta)
        select afgelopen.id, split_part(afgelopen.geclaimd_door, '@', 1), regel.soort,
               case when regel.volgorde = 1 and afgelopen.status = 'mislukt' then 'mislukt (pogingen op): ' else '' end
                   || regel.tekst,
               $5,
               case when regel.volgorde = 1 and afgelopen.status = 'mislukt'
                    then $6 || jsonb_build_object('zin', jsonb_build_object('sleutel', 'row_failed_attempts_used_up',
                             'waarden', jsonb_build_object('reason', coalesce($9, to_jsonb($3)))))
                    when regel.volgorde = 1 and $9 is not null then $6 || jsonb_build_object('zin', $9)
                    else $6 end
        from afgelopen
        cross join (values (1, 'fout', $3), (2, 'notitie', $4)) as regel (volgorde, soort, tekst)
        where regel.tekst is not null
        order by regel.volgorde
    )
    select afgelopen.status into uitkomst from afgelopen;
    return uitkomst;
end
$_$;


--
-- Name: taak_poging_terug(text, uuid, text, text, jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_poging_terug(taak text, token uuid, reden text, sessie text, zin jsonb) RETURNS TABLE(id bigint, ts timestamp with time zone)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $_$
#variable_conflict use_column
begin
    return query
    with terug as (
        update agent_taken t
        set bijgewerkt = now(),
            status = 'wachtend', pogingen = greatest(t.pogingen - 1, 0),
            niet_voor = null, lease_tot = null, lease_token = null
        where t.id = $1 and t.status = 'bezig' and t.lease_token = $2
        returning t.id, t.geclaimd_door
    ), regel as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, sessie, meta)
        select terug.id, split_part(terug.geclaimd_door, '@', 1), 'vrijgegeven', $3, $4,
               case when $5 is null then '{}'::jsonb else jsonb_build_object('zin', $5) end
        from terug
        returning agent_taak_log.id, agent_taak_log.ts
    )
    select regel.id, regel.ts from regel;
end
$_$;


--
-- Name: taak_rechten(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_rechten() RETURNS void
    LANGUAGE plpgsql
    AS $$
declare
    obj record;
    rol text;
    vreemden text[] := array(select rolname::text from pg_roles where rolname in ('anon', 'authenticated'));
    beheerders text[] := array(select rolname::text from pg_roles where rolname in ('taak_daemon', 'taak_eigenaar'));
    sessie boolean := exists (select 1 from pg_roles where rolname = 'taak_sessie');
begin
    for obj in
        select c.oid::regclass::text as naam, c.relkind::text as soort, c.relname::text as kaal
        from pg_class c
        where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'S')
          and c.relname ~ '^(agent_taken|agent_taak_|agent_bots|machines|machine_aliassen|taak_)'
    loop
        if obj.soort = 'S' then
            execute format('revoke all on sequence %s from public', obj.naam);
            foreach rol in array vreemden loop
                execute format('revoke all on sequence %s from %I', obj.naam, rol);
            end loop;
            foreach rol in array beheerders loop
                execute format('revoke all on sequence %s from %I', obj.naam, rol);
                execute format('grant usage, select on sequence %s to %I', obj.naam, rol);
            end loop;
            continue;
        end if;
        execute format('revoke all on %s from public', obj.naam);
        foreach rol in array vreemden loop
            execute format('revoke all on %s from %I', obj.naam, rol);
        end loop;
        if sessie then
            execute format('revoke all on %s from taak_sessie', obj.naam);
        end if;
        foreach rol in array beheerders loop
            execute format('revoke all on %s from %I', obj.naam, rol);
            if obj.soort in ('v', 'm') or obj.kaal in ('taak_migraties', 'taak_instellingen')
               or (rol = 'taak_daemon' and obj.kaal in ('agent_taken', 'agent_taak_log')) then
                execute format('grant select on %s to %I', obj.naam, rol);
            elsif obj.kaal = 'agent_taak_log' then
                execute format('grant select, insert on %s to %I', obj.naam, rol);
            elsif obj.kaal = 'agent_taken' then
                -- A task comes in through taak_nieuw only (it runs with its owner's rights), with its creation note.
                execute format('grant select, update, delete on %s to %I', obj.naam, rol);
            elsif obj.kaal <> 'agent_taak_teller' then
                execute format('grant select, insert, update, delete on %s to %I', obj.naam, rol);
            end if;
        end loop;
        if obj.soort in ('r', 'p') then
            execute format('alter table %s enable row level security', obj.naam);
            foreach rol in array beheerders loop
                execute format('drop policy if exists %I on %s', rol || '_alles', obj.naam);
                execute format('drop policy if exists %I on %s', rol || '_lezen', obj.naam);
                if obj.kaal in ('taak_migraties', 'taak_instellingen') then
                    execute format('create policy %I on %s for select to %I using (true)', rol || '_lezen', obj.naam,
                                   rol);
                elsif obj.kaal <> 'agent_taak_teller' then
                    execute format('create policy %I on %s to %I using (true) with check (true)', rol || '_alles',
                                   obj.naam, rol);
                end if;
            end loop;
        end if;
    end loop;
    for obj in
        select p.oid::regprocedure::text as naam, p.proname::text as kaal
        from pg_proc p
        where p.pronamespace = 'public'::regnamespace
          and p.proname ~ '^(taak_|agent_taken_|agent_taak_|machine_naam_vrij)'
    loop
        execute format('revoke all on function %s from public', obj.naam);
        foreach rol in array vreemden loop
            execute format('revoke all on function %s from %I', obj.naam, rol);
        end loop;
        foreach rol in array beheerders loop
            execute format('revoke all on function %s from %I', obj.naam, rol);
            if obj.kaal not in ('taak_rechten', 'taak_volgend_id') then
                execute format('grant execute on function %s to %I', obj.naam, rol);
            end if;
        end loop;
        if sessie and obj.kaal in ('taak_sessie_log', 'taak_sessie_klaar', 'taak_sessie_blokkeer',
                                   'taak_lease_seconden', 'taak_tijdzone') then
            execute format('grant execute on function %s to taak_sessie', obj.naam);
        end if;
    end loop;
    foreach rol in array beheerders || case when sessie then array['taak_sessie'] else array[]::text[] end loop
        execute format('grant usage on schema public to %I', rol);
    end loop;
end
$$;


--
-- Name: taak_resultaat(text, uuid, text, text, jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_resultaat(taak text, token uuid, tekst text, sessie text, meta jsonb) RETURNS TABLE(id bigint, ts timestamp with time zone)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $_$
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
$_$;


--
-- Name: taak_sessie_blokkeer(text, uuid, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_sessie_blokkeer(taak text, token uuid, vraag text) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
begin
    update agent_taken set status = 'wacht_op_mens', lease_tot = null, lease_token = null, bijgewerkt = now()
    where id = taak and status = 'bezig' and lease_token = token;
    if not found then
        raise exception 'task %: this lease token is not current', taak using errcode = 'insufficient_privilege';
    end if;
    insert into agent_taak_log (taak_id, soort, tekst) values (taak, 'vraag', vraag);
end
$$;


--
-- Name: taak_sessie_klaar(text, uuid, text, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_sessie_klaar(taak text, token uuid, bewijs text, tekst text DEFAULT ''::text) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
begin
    update agent_taken set status = 'klaar', bewijs = taak_sessie_klaar.bewijs, afgerond = now(), lease_tot = null,
                           lease_token = null, bijgewerkt = now()
    where id = taak and status = 'bezig' and lease_token = token;
    if not found then
        raise exception 'task %: this lease token is not current', taak using errcode = 'insufficient_privilege';
    end if;
    insert into agent_taak_log (taak_id, soort, tekst, meta)
    values (taak, 'klaar', coalesce(tekst, ''), jsonb_build_object('bewijs', taak_sessie_klaar.bewijs));
end
$$;


--
-- Name: taak_sessie_log(text, uuid, text, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_sessie_log(taak text, token uuid, soort text, tekst text) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
declare
    regel bigint;
begin
    if soort not in ('stap_klaar', 'geblokkeerd', 'vraag', 'bewijs', 'fout', 'compact', 'notitie') then
        raise exception 'a session cannot log %', soort using errcode = 'insufficient_privilege';
    end if;
    update agent_taken set lease_tot = greatest(lease_tot, now() + make_interval(secs => taak_lease_seconden())),
                           bijgewerkt = now()
    where id = taak and status = 'bezig' and lease_token = token;
    if not found then
        raise exception 'task %: this lease token is not current', taak using errcode = 'insufficient_privilege';
    end if;
    insert into agent_taak_log (taak_id, soort, tekst) values (taak, soort, tekst) returning id into regel;
    return regel;
end
$$;


--
-- Name: taak_stap_met_token(text, uuid, text, double precision, jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_stap_met_token(taak text, token uuid, stap text, seconden double precision, meta jsonb) RETURNS TABLE(id bigint, ts timestamp with time zone)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $_$
#variable_conflict use_column
begin
    return query
    with gezet as (
        update agent_taken t
        set bijgewerkt = now(),
            volgende_stap = $3, lease_tot = greatest(t.lease_tot, now() + make_interval(secs => $4))
        where t.id = $1 and t.status = 'bezig' and t.lease_token = $2
        returning t.id, t.geclaimd_door
    ), regel as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, meta)
        select gezet.id, split_part(gezet.geclaimd_door, '@', 1), 'notitie', 'volgende stap: ' || $3,
               $5 || jsonb_build_object('zin', jsonb_build_object(
                   'sleutel', 'row_next_step', 'waarden', jsonb_build_object('step', $3)))
        from gezet
        returning agent_taak_log.id, agent_taak_log.ts
    )
    select regel.id, regel.ts from regel;
end
$_$;


--
-- Name: taak_tijdzone(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_tijdzone() RETURNS text
    LANGUAGE plpgsql STABLE
    AS $$
begin
    return coalesce(
        nullif(current_setting('taak.tijdzone', true), ''),
        (select waarde from taak_instellingen where sleutel = 'tijdzone'),
        'Europe/Amsterdam');
end
$$;


--
-- Name: taak_vergrendeld(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_vergrendeld(taak text) RETURNS SETOF public.agent_taken
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $_$
begin
    return query select * from agent_taken t where t.id = $1 for update;
end
$_$;


--
-- Name: taak_verleng(text, uuid, double precision); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_verleng(taak text, token uuid, seconden double precision) RETURNS timestamp with time zone
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $_$
#variable_conflict use_column
declare
    tot timestamptz;
begin
    update agent_taken
    set bijgewerkt = now(), lease_tot = greatest(lease_tot, now() + make_interval(secs => $3))
    where id = $1 and status = 'bezig' and lease_token = $2
    returning lease_tot into tot;
    return tot;
end
$_$;


--
-- Name: taak_verlopen(double precision, double precision, integer, text[], double precision); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_verlopen(basis double precision, maximum double precision, hoeveel integer, eigen text[], wachttijd double precision) RETURNS SETOF public.agent_taken
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $_$
#variable_conflict use_column
begin
    return query
    with verlopen as (
        select t.id from agent_taken t
        where t.status = 'bezig' and t.lease_tot < now()
          and not (t.id = any($4))
          and now() > pg_postmaster_start_time() + make_interval(secs => $5)
        order by t.lease_tot
        limit $3
        for update skip locked
    ), terug as (
        update agent_taken t
        set bijgewerkt = now(),
            status = case when t.pogingen >= t.max_pogingen then 'mislukt' else 'wachtend' end,
            niet_voor = case when t.pogingen >= t.max_pogingen then null
                             else now() + taak_backoff(t.pogingen, $1, $2) end,
            afgerond = case when t.pogingen >= t.max_pogingen then now() end,
            lease_tot = null,
            lease_token = null
        from verlopen
        where t.id = verlopen.id
        returning t.*
    ), regels as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, meta)
        select terug.id, split_part(terug.geclaimd_door, '@', 1), 'verlopen',
               'lease verlopen na poging ' || terug.pogingen || ' van ' || terug.max_pogingen
                   || ' (' || terug.geclaimd_door || ')'
                   || case when terug.status = 'mislukt' then ': mislukt' else '' end,
               jsonb_build_object('status', terug.status, 'niet_voor', terug.niet_voor, 'zin', jsonb_build_object(
                   'sleutel', case when terug.status = 'mislukt' then 'row_expired_failed' else 'row_expired' end,
                   'waarden', jsonb_build_object('attempt', terug.pogingen, 'of', terug.max_pogingen,
                                                 'holder', terug.geclaimd_door)))
        from terug
    )
    select * from terug;
end
$_$;


--
-- Name: taak_vrijgeven(text, uuid, text, timestamp with time zone, jsonb, double precision, double precision, jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_vrijgeven(taak text, token uuid, reden text, niet_voor timestamp with time zone, meta jsonb, basis double precision, maximum double precision, zin jsonb) RETURNS TABLE(id bigint, ts timestamp with time zone, mislukt boolean)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $_$
#variable_conflict use_column
begin
    return query
    with terug as (
        update agent_taken t
        set bijgewerkt = now(),
            status = case when t.pogingen >= t.max_pogingen then 'mislukt' else 'wachtend' end,
            niet_voor = case when t.pogingen >= t.max_pogingen then null
                             else coalesce($4, now() + taak_backoff(t.pogingen, $6, $7)) end,
            afgerond = case when t.pogingen >= t.max_pogingen then now() end,
            lease_tot = null, lease_token = null
        where t.id = $1 and t.status = 'bezig' and t.lease_token = $2
        returning t.id, t.status, t.geclaimd_door
    ), regel as (
        insert into agent_taak_log (taak_id, bot, soort, tekst, meta)
        select terug.id, split_part(terug.geclaimd_door, '@', 1), 'vrijgegeven',
               $3 || case when terug.status = 'mislukt' then ': mislukt (pogingen op)' else '' end,
               $5 || jsonb_build_object('lease_token', $2::text, 'status', terug.status, 'zin',
                   case when terug.status = 'mislukt'
                        then jsonb_build_object('sleutel', 'row_attempts_used_up', 'waarden', jsonb_build_object('reason', $8))
                        else $8 end)
        from terug
        returning agent_taak_log.id, agent_taak_log.ts, agent_taak_log.meta ->> 'status' = 'mislukt'
    )
    select * from regel;
end
$_$;


--
-- Name: taak_zichtbaar(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.taak_zichtbaar(tekst text) RETURNS boolean
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
    select tekst ~ E'[^\u0001-\u0020\u007f-\u00a0\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u115f-\u1160\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u2066-\u206f\u2800\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U00013438\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f\U000e0100-\U000e01ef]'
$$;


--
-- Name: agent_bots; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.agent_bots (
    bot text NOT NULL,
    actief boolean DEFAULT false NOT NULL,
    machine text,
    pid integer,
    versie text,
    huidige_taak text,
    laatst_gezien timestamp with time zone,
    bijgewerkt timestamp with time zone DEFAULT now() NOT NULL,
    max_sessies_per_dag integer DEFAULT 50,
    max_kosten_per_dag numeric,
    CONSTRAINT bot_naam CHECK ((bot ~ '^[a-z0-9_.-]+$'::text)),
    CONSTRAINT max_kosten_niet_negatief CHECK ((max_kosten_per_dag >= (0)::numeric)),
    CONSTRAINT max_sessies_niet_negatief CHECK ((max_sessies_per_dag >= 0))
);


--
-- Name: agent_taak_log; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.agent_taak_log (
    id bigint NOT NULL,
    taak_id text NOT NULL,
    ts timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    bot text,
    soort text NOT NULL,
    tekst text DEFAULT ''::text NOT NULL,
    sessie text,
    meta jsonb DEFAULT '{}'::jsonb NOT NULL
);


--
-- Name: agent_taak_log_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.agent_taak_log ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.agent_taak_log_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: agent_taak_teller; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.agent_taak_teller (
    dag date NOT NULL,
    laatste integer NOT NULL,
    CONSTRAINT agent_taak_teller_laatste_check CHECK ((laatste > 0))
);


--
-- Name: agent_taak_telling; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.agent_taak_telling (
    taak_id text NOT NULL,
    soort text NOT NULL,
    aantal bigint NOT NULL,
    eerste timestamp with time zone NOT NULL
);


--
-- Name: machine_aliassen; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.machine_aliassen (
    alias text NOT NULL,
    machine text NOT NULL,
    CONSTRAINT alias_niet_leeg CHECK ((alias ~ '[^[:space:]]'::text))
);


--
-- Name: machines; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.machines (
    naam text NOT NULL,
    ip inet,
    bots text[] DEFAULT '{}'::text[] NOT NULL,
    bijgewerkt timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT machine_naam_niet_leeg CHECK ((naam ~ '[^[:space:]]'::text))
);


--
-- Name: taak_archief; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.taak_archief (
    machine text NOT NULL,
    sleutel text NOT NULL,
    ts timestamp with time zone NOT NULL,
    actor text,
    role text,
    type text,
    taak text,
    sessie text,
    tekst text NOT NULL,
    termen text NOT NULL,
    zoek tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, termen)) STORED,
    bestand text
);


--
-- Name: taak_berichten; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.taak_berichten (
    id bigint NOT NULL,
    soort text NOT NULL,
    taak_id text,
    melding_id bigint,
    tekst text NOT NULL,
    kanaal text,
    antwoord_op bigint,
    aangemaakt timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT bericht_soort CHECK ((soort = ANY (ARRAY['dringend'::text, 'dagbericht'::text, 'bevestiging'::text])))
);


--
-- Name: taak_berichten_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.taak_berichten ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.taak_berichten_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: taak_bezig; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.taak_bezig WITH (security_invoker='true') AS
 SELECT agent_taken.id,
    agent_taken.titel,
    COALESCE(agent_taken.toegewezen_aan, split_part(agent_taken.geclaimd_door, '@'::text, 1)) AS bot,
    agent_taken.geclaimd_door,
    agent_taken.pogingen,
    agent_taken.max_pogingen,
    agent_taken.lease_tot,
    (GREATEST((0)::numeric, EXTRACT(epoch FROM (agent_taken.lease_tot - now()))))::integer AS lease_seconden
   FROM public.agent_taken
  WHERE (agent_taken.status = 'bezig'::text);


--
-- Name: taak_bezorgers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.taak_bezorgers (
    houder text NOT NULL,
    soort text NOT NULL,
    sinds timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: taak_bezorgingen; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.taak_bezorgingen (
    bericht_id bigint NOT NULL,
    kanaal text NOT NULL,
    pogingen integer DEFAULT 0 NOT NULL,
    volgende_poging timestamp with time zone DEFAULT now() NOT NULL,
    laatste_fout text,
    verstuurd timestamp with time zone,
    extern_id text
);


--
-- Name: taak_bot_vaardigheden; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.taak_bot_vaardigheden (
    bot text NOT NULL,
    vaardigheid text NOT NULL
);


--
-- Name: taak_compacties; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.taak_compacties AS
 SELECT l.taak_id,
    l.sessie,
    (GREATEST(count(*) FILTER (WHERE (l.meta ? 'rapport'::text)), count(*) FILTER (WHERE (l.meta ? 'samenvatting'::text))) + count(*) FILTER (WHERE (NOT (l.meta ?| ARRAY['rapport'::text, 'samenvatting'::text])))) AS compacties,
    GREATEST(count(*) FILTER (WHERE ((l.meta ? 'rapport'::text) AND ((l.meta ->> 'trigger'::text) = 'auto'::text))), count(*) FILTER (WHERE ((l.meta ? 'samenvatting'::text) AND ((l.meta ->> 'trigger'::text) = 'auto'::text)))) AS automatisch,
    GREATEST(count(*) FILTER (WHERE ((l.meta ? 'rapport'::text) AND ((l.meta ->> 'trigger'::text) = 'manual'::text))), count(*) FILTER (WHERE ((l.meta ? 'samenvatting'::text) AND ((l.meta ->> 'trigger'::text) = 'manual'::text)))) AS handmatig,
    min(l.ts) AS eerste,
    max(l.ts) AS laatste
   FROM public.agent_taak_log l
  WHERE (l.soort = 'compact'::text)
  GROUP BY l.taak_id, l.sessie;


--
-- Name: taak_dagberichten; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.taak_dagberichten (
    moment timestamp with time zone NOT NULL,
    bericht_id bigint,
    machine text NOT NULL,
    laat boolean NOT NULL,
    aangemaakt timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: taak_meldingen; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.taak_meldingen (
    id bigint NOT NULL,
    taak_id text,
    soort text NOT NULL,
    sleutel text NOT NULL,
    tekst text DEFAULT ''::text NOT NULL,
    aangemaakt timestamp with time zone DEFAULT now() NOT NULL,
    volgende_poging timestamp with time zone DEFAULT now() NOT NULL,
    pogingen integer DEFAULT 0 NOT NULL,
    laatste_fout text,
    verstuurd timestamp with time zone,
    bot text,
    dringend boolean DEFAULT false NOT NULL,
    route text,
    dagbericht timestamp with time zone,
    CONSTRAINT melding_route CHECK ((route = ANY (ARRAY['nu'::text, 'dagbericht'::text]))),
    CONSTRAINT melding_soort CHECK ((soort = ANY (ARRAY['vraag'::text, 'herinnering'::text, 'klaar'::text, 'mislukt'::text, 'uiterlijk'::text, 'escalatie'::text, 'rem'::text, 'vaardigheid'::text])))
);


--
-- Name: taak_dringend_vandaag; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.taak_dringend_vandaag WITH (security_invoker='true') AS
 SELECT taak_meldingen.bot,
    count(*) AS dringend
   FROM public.taak_meldingen
  WHERE (taak_meldingen.dringend AND (taak_meldingen.route = 'nu'::text) AND (taak_meldingen.bot IS NOT NULL) AND (taak_meldingen.verstuurd >= public.taak_dag_begin()))
  GROUP BY taak_meldingen.bot;


--
-- Name: taak_instellingen; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.taak_instellingen (
    sleutel text NOT NULL,
    waarde text NOT NULL
);


--
-- Name: taak_kanalen; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.taak_kanalen (
    kanaal text NOT NULL,
    sinds timestamp with time zone DEFAULT now() NOT NULL,
    gezien timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: taak_lezers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.taak_lezers (
    kanaal text NOT NULL,
    houder text,
    lease_tot timestamp with time zone,
    volgende_update bigint DEFAULT 0 NOT NULL
);


--
-- Name: taak_meldingen_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.taak_meldingen ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.taak_meldingen_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: taak_migraties; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.taak_migraties (
    naam text NOT NULL,
    checksum text NOT NULL,
    toegepast timestamp with time zone DEFAULT now() NOT NULL,
    soort text DEFAULT 'versie'::text NOT NULL
);


--
-- Name: taak_over_tijd; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.taak_over_tijd WITH (security_invoker='true') AS
 SELECT COALESCE(agent_taken.toegewezen_aan, '-'::text) AS bot,
    count(*) AS over_tijd,
    min(agent_taken.uiterlijk) AS oudste_uiterlijk
   FROM public.agent_taken
  WHERE ((agent_taken.uiterlijk < now()) AND (agent_taken.status <> ALL (ARRAY['klaar'::text, 'mislukt'::text, 'geannuleerd'::text])))
  GROUP BY COALESCE(agent_taken.toegewezen_aan, '-'::text);


--
-- Name: taak_sessies; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.taak_sessies WITH (security_invoker='true') AS
 SELECT l.taak_id,
    l.bot,
    l.sessie,
    l.ts AS gestart,
    (EXISTS ( SELECT 1
           FROM public.agent_taak_log s
          WHERE ((s.taak_id = l.taak_id) AND (s.soort = 'stap_klaar'::text) AND (s.id > l.id) AND ((s.sessie = l.sessie) OR ((s.sessie IS NULL) AND (NOT (EXISTS ( SELECT 1
                   FROM public.agent_taak_log n
                  WHERE ((n.taak_id = l.taak_id) AND (n.soort = 'gestart'::text) AND (n.id > l.id) AND (n.id < s.id)))))))))) AS logde_stap
   FROM public.agent_taak_log l
  WHERE (l.soort = 'gestart'::text);


--
-- Name: taak_overzicht; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.taak_overzicht AS
 WITH taak AS (
         SELECT t.id,
            t.titel,
            t.opdracht,
            t.opdrachtgever,
            t.toegewezen_aan,
            t.status,
            t.klaar_wanneer,
            t.context,
            t.volgende_stap,
            t.pogingen,
            t.max_pogingen,
            t.lease_tot,
            t.lease_token,
            t.geclaimd_door,
            t.bewijs,
            t.prioriteit,
            t.niet_voor,
            t.aangemaakt,
            t.bijgewerkt,
            t.afgerond,
            t.uiterlijk,
            t.nodig,
            COALESCE(t.toegewezen_aan, NULLIF(split_part(t.geclaimd_door, '@'::text, 1), ''::text), '-'::text) AS bot,
            (public.taak_dag(t.afgerond) = public.taak_dag(now())) AS vandaag,
            ( SELECT max(l.ts) AS max
                   FROM public.agent_taak_log l
                  WHERE ((l.taak_id = t.id) AND (l.soort = 'vraag'::text))) AS gevraagd
           FROM public.agent_taken t
        ), per_bot AS (
         SELECT taak.bot,
            count(*) FILTER (WHERE (taak.status = 'bezig'::text)) AS bezig,
            min(taak.lease_tot) FILTER (WHERE (taak.status = 'bezig'::text)) AS eerste_lease_tot,
            count(*) FILTER (WHERE (taak.status = 'wachtend'::text)) AS wachtend,
            count(*) FILTER (WHERE (taak.status = 'wacht_op_mens'::text)) AS wacht_op_mens,
            min(taak.gevraagd) FILTER (WHERE (taak.status = 'wacht_op_mens'::text)) AS oudste_vraag,
            count(*) FILTER (WHERE ((taak.status = 'klaar'::text) AND taak.vandaag)) AS klaar_vandaag,
            count(*) FILTER (WHERE ((taak.status = 'mislukt'::text) AND taak.vandaag)) AS mislukt_vandaag,
            count(*) FILTER (WHERE (taak.status = 'klaar'::text)) AS klaar_totaal
           FROM taak
          GROUP BY taak.bot
        ), sessies AS (
         SELECT t.bot,
            count(*) AS sessies,
            count(*) FILTER (WHERE (t.status = 'klaar'::text)) AS sessies_van_klare_taken,
            count(*) FILTER (WHERE s_1.logde_stap) AS sessies_met_stap
           FROM (public.taak_sessies s_1
             JOIN taak t ON ((t.id = s_1.taak_id)))
          GROUP BY t.bot
        ), kosten AS (
         SELECT t.bot,
            sum(((l.meta ->> 'total_cost_usd'::text))::numeric) AS kosten_usd,
            count(DISTINCT l.taak_id) AS taken
           FROM (public.agent_taak_log l
             JOIN taak t ON ((t.id = l.taak_id)))
          WHERE ((l.soort = 'notitie'::text) AND (l.meta ? 'resultaat'::text) AND ((l.meta ->> 'total_cost_usd'::text) IS NOT NULL))
          GROUP BY t.bot
        ), compacties AS (
         SELECT t.bot,
            (sum(c_1.compacties))::bigint AS compacties,
            (sum(c_1.automatisch))::bigint AS compacties_auto,
            (sum(c_1.compacties) FILTER (WHERE (t.status = 'klaar'::text)))::bigint AS compacties_van_klare_taken
           FROM (public.taak_compacties c_1
             JOIN taak t ON ((t.id = c_1.taak_id)))
          GROUP BY t.bot
        ), alle_bots AS (
         SELECT per_bot.bot
           FROM per_bot
        UNION
         SELECT agent_bots.bot
           FROM public.agent_bots
        )
 SELECT b.bot,
    COALESCE(p.bezig, (0)::bigint) AS bezig,
    (GREATEST((0)::numeric, EXTRACT(epoch FROM (p.eerste_lease_tot - now()))))::integer AS kortste_lease_seconden,
    COALESCE(p.wachtend, (0)::bigint) AS wachtend,
    COALESCE(p.wacht_op_mens, (0)::bigint) AS wacht_op_mens,
    (EXTRACT(epoch FROM (now() - p.oudste_vraag)))::integer AS oudste_wacht_seconden,
    COALESCE(p.klaar_vandaag, (0)::bigint) AS klaar_vandaag,
    COALESCE(p.mislukt_vandaag, (0)::bigint) AS mislukt_vandaag,
    round(((s.sessies_van_klare_taken)::numeric / (NULLIF(p.klaar_totaal, 0))::numeric), 2) AS sessies_per_klare_taak,
    round(((s.sessies_met_stap)::numeric / (NULLIF(s.sessies, 0))::numeric), 2) AS aandeel_sessies_met_stap,
    COALESCE(k.kosten_usd, (0)::numeric) AS kosten_usd,
    round((k.kosten_usd / (NULLIF(k.taken, 0))::numeric), 4) AS kosten_per_taak_usd,
    ab.actief,
    ab.machine,
    ab.laatst_gezien,
    ((ab.laatst_gezien IS NOT NULL) AND (ab.laatst_gezien < (now() - '00:01:30'::interval))) AS worker_verouderd,
    COALESCE(c.compacties, (0)::bigint) AS compacties,
    COALESCE(c.compacties_auto, (0)::bigint) AS compacties_auto,
    round(((c.compacties_van_klare_taken)::numeric / (NULLIF(p.klaar_totaal, 0))::numeric), 2) AS compacties_per_klare_taak
   FROM (((((alle_bots b
     LEFT JOIN per_bot p ON ((p.bot = b.bot)))
     LEFT JOIN sessies s ON ((s.bot = b.bot)))
     LEFT JOIN kosten k ON ((k.bot = b.bot)))
     LEFT JOIN public.agent_bots ab ON ((ab.bot = b.bot)))
     LEFT JOIN compacties c ON ((c.bot = b.bot)))
  ORDER BY b.bot;


--
-- Name: taak_vaardigheden; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.taak_vaardigheden (
    vaardigheid text NOT NULL,
    CONSTRAINT vaardigheid_naam CHECK ((vaardigheid ~ '^[a-z0-9][a-z0-9_.-]{0,63}$'::text))
);


--
-- Name: taak_vaardigheid_woorden; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.taak_vaardigheid_woorden (
    woord text NOT NULL,
    vaardigheid text NOT NULL,
    CONSTRAINT vaardigheid_woord CHECK (((woord = lower(NORMALIZE(woord, NFKC))) AND (woord !~ '[^[:alnum:]]'::text) AND ((char_length(woord) >= 3) AND (char_length(woord) <= 64)) AND (woord <> 'geen'::text)))
);


--
-- Name: taak_vloot_eigenaar; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.taak_vloot_eigenaar (
    een boolean DEFAULT true NOT NULL,
    naam text NOT NULL,
    gezet timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT vloot_eigenaar_een_rij CHECK (een),
    CONSTRAINT vloot_eigenaar_naam CHECK (((naam ~ '[^[:space:]]'::text) AND (naam !~ '[[:cntrl:]]'::text) AND (naam = btrim(naam)) AND (length(naam) <= 64)))
);


--
-- Name: agent_bots agent_bots_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.agent_bots
    ADD CONSTRAINT agent_bots_pkey PRIMARY KEY (bot);


--
-- Name: agent_taak_log agent_taak_log_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.agent_taak_log
    ADD CONSTRAINT agent_taak_log_pkey PRIMARY KEY (id);


--
-- Name: agent_taak_teller agent_taak_teller_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.agent_taak_teller
    ADD CONSTRAINT agent_taak_teller_pkey PRIMARY KEY (dag);


--
-- Name: agent_taak_telling agent_taak_telling_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.agent_taak_telling
    ADD CONSTRAINT agent_taak_telling_pkey PRIMARY KEY (taak_id, soort);


--
-- Name: agent_taken agent_taken_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.agent_taken
    ADD CONSTRAINT agent_taken_pkey PRIMARY KEY (id);


--
-- Name: machine_aliassen machine_aliassen_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.machine_aliassen
    ADD CONSTRAINT machine_aliassen_pkey PRIMARY KEY (alias);


--
-- Name: machines machines_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.machines
    ADD CONSTRAINT machines_pkey PRIMARY KEY (naam);


--
-- Name: taak_archief taak_archief_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taak_archief
    ADD CONSTRAINT taak_archief_pkey PRIMARY KEY (machine, sleutel);


--
-- Name: taak_berichten taak_berichten_melding_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taak_berichten
    ADD CONSTRAINT taak_berichten_melding_id_key UNIQUE (melding_id);


--
-- Name: taak_berichten taak_berichten_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taak_berichten
    ADD CONSTRAINT taak_berichten_pkey PRIMARY KEY (id);


--
-- Name: taak_bezorgers taak_bezorgers_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taak_bezorgers
    ADD CONSTRAINT taak_bezorgers_pkey PRIMARY KEY (soort, houder);


--
-- Name: taak_bezorgingen taak_bezorgingen_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taak_bezorgingen
    ADD CONSTRAINT taak_bezorgingen_pkey PRIMARY KEY (bericht_id, kanaal);


--
-- Name: taak_bot_vaardigheden taak_bot_vaardigheden_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taak_bot_vaardigheden
    ADD CONSTRAINT taak_bot_vaardigheden_pkey PRIMARY KEY (bot, vaardigheid);


--
-- Name: taak_dagberichten taak_dagberichten_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taak_dagberichten
    ADD CONSTRAINT taak_dagberichten_pkey PRIMARY KEY (moment);


--
-- Name: taak_instellingen taak_instellingen_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taak_instellingen
    ADD CONSTRAINT taak_instellingen_pkey PRIMARY KEY (sleutel);


--
-- Name: taak_kanalen taak_kanalen_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taak_kanalen
    ADD CONSTRAINT taak_kanalen_pkey PRIMARY KEY (kanaal);


--
-- Name: taak_lezers taak_lezers_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taak_lezers
    ADD CONSTRAINT taak_lezers_pkey PRIMARY KEY (kanaal);


--
-- Name: taak_meldingen taak_meldingen_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taak_meldingen
    ADD CONSTRAINT taak_meldingen_pkey PRIMARY KEY (id);


--
-- Name: taak_meldingen taak_meldingen_sleutel_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taak_meldingen
    ADD CONSTRAINT taak_meldingen_sleutel_key UNIQUE (sleutel);


--
-- Name: taak_migraties taak_migraties_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taak_migraties
    ADD CONSTRAINT taak_migraties_pkey PRIMARY KEY (naam);


--
-- Name: taak_vaardigheden taak_vaardigheden_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taak_vaardigheden
    ADD CONSTRAINT taak_vaardigheden_pkey PRIMARY KEY (vaardigheid);


--
-- Name: taak_vaardigheid_woorden taak_vaardigheid_woorden_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taak_vaardigheid_woorden
    ADD CONSTRAINT taak_vaardigheid_woorden_pkey PRIMARY KEY (woord);


--
-- Name: taak_vloot_eigenaar taak_vloot_eigenaar_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taak_vloot_eigenaar
    ADD CONSTRAINT taak_vloot_eigenaar_pkey PRIMARY KEY (een);


--
-- Name: taak_vaardigheden vaardigheid_niet_geen; Type: CHECK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE public.taak_vaardigheden
    ADD CONSTRAINT vaardigheid_niet_geen CHECK ((vaardigheid <> 'geen'::text)) NOT VALID;


--
-- Name: agent_taak_log_antwoord; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX agent_taak_log_antwoord ON public.agent_taak_log USING btree (taak_id, id DESC) WHERE (soort = 'antwoord'::text);


--
-- Name: agent_taak_log_beurten; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX agent_taak_log_beurten ON public.agent_taak_log USING btree (taak_id) WHERE (soort = ANY (ARRAY['gestart'::text, 'klaar'::text]));


--
-- Name: agent_taak_log_gebruik; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX agent_taak_log_gebruik ON public.agent_taak_log USING btree (bot, ts) WHERE ((soort = 'gestart'::text) OR ((soort = 'notitie'::text) AND (meta ? 'resultaat'::text)));


--
-- Name: agent_taak_log_taak; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX agent_taak_log_taak ON public.agent_taak_log USING btree (taak_id, id DESC);


--
-- Name: agent_taak_log_ts; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX agent_taak_log_ts ON public.agent_taak_log USING btree (ts);


--
-- Name: agent_taken_bezig; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX agent_taken_bezig ON public.agent_taken USING btree (id) WHERE (status = 'bezig'::text);


--
-- Name: agent_taken_claim_iedereen; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX agent_taken_claim_iedereen ON public.agent_taken USING btree (prioriteit DESC, aangemaakt, id) WHERE ((status = 'wachtend'::text) AND (toegewezen_aan IS NULL) AND (nodig IS NULL));


--
-- Name: agent_taken_claim_nodig; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX agent_taken_claim_nodig ON public.agent_taken USING btree (nodig, prioriteit DESC, aangemaakt, id) WHERE ((status = 'wachtend'::text) AND (toegewezen_aan IS NULL) AND (nodig IS NOT NULL));


--
-- Name: agent_taken_claim_per_bot; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX agent_taken_claim_per_bot ON public.agent_taken USING btree (toegewezen_aan, prioriteit DESC, aangemaakt, id) WHERE ((status = 'wachtend'::text) AND (toegewezen_aan IS NOT NULL));


--
-- Name: machine_aliassen_lower; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX machine_aliassen_lower ON public.machine_aliassen USING btree (lower(alias));


--
-- Name: machines_naam_lower; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX machines_naam_lower ON public.machines USING btree (lower(naam));


--
-- Name: taak_archief_bestand; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX taak_archief_bestand ON public.taak_archief USING btree (machine, bestand);


--
-- Name: taak_archief_ts; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX taak_archief_ts ON public.taak_archief USING btree (ts);


--
-- Name: taak_archief_zoek; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX taak_archief_zoek ON public.taak_archief USING gin (zoek);


--
-- Name: taak_bezorgingen_open; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX taak_bezorgingen_open ON public.taak_bezorgingen USING btree (kanaal, volgende_poging) WHERE (verstuurd IS NULL);


--
-- Name: taak_bot_vaardigheden_wie; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX taak_bot_vaardigheden_wie ON public.taak_bot_vaardigheden USING btree (vaardigheid);


--
-- Name: taak_meldingen_open; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX taak_meldingen_open ON public.taak_meldingen USING btree (volgende_poging) WHERE (verstuurd IS NULL);


--
-- Name: taak_meldingen_voor_dagbericht; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX taak_meldingen_voor_dagbericht ON public.taak_meldingen USING btree (id) WHERE ((route = 'dagbericht'::text) AND (verstuurd IS NULL));


--
-- Name: taak_vaardigheid_woorden_van; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX taak_vaardigheid_woorden_van ON public.taak_vaardigheid_woorden USING btree (vaardigheid);


--
-- Name: agent_bots agent_bots_botnaam; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER agent_bots_botnaam BEFORE INSERT OR UPDATE OF bot ON public.agent_bots FOR EACH ROW EXECUTE FUNCTION public.taak_botnaam_zetten();


--
-- Name: agent_taak_log agent_taak_log_bijschrijven; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER agent_taak_log_bijschrijven BEFORE INSERT ON public.agent_taak_log FOR EACH ROW EXECUTE FUNCTION public.agent_taak_log_bijschrijven();


--
-- Name: agent_taak_log agent_taak_log_geen_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER agent_taak_log_geen_truncate BEFORE TRUNCATE ON public.agent_taak_log FOR EACH STATEMENT EXECUTE FUNCTION public.agent_taak_log_alleen_bijschrijven();


--
-- Name: agent_taak_log agent_taak_log_geen_wijziging; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER agent_taak_log_geen_wijziging BEFORE DELETE OR UPDATE ON public.agent_taak_log FOR EACH ROW EXECUTE FUNCTION public.agent_taak_log_alleen_bijschrijven();


--
-- Name: agent_taak_log agent_taak_log_na_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER agent_taak_log_na_insert AFTER INSERT ON public.agent_taak_log FOR EACH ROW EXECUTE FUNCTION public.agent_taak_log_na_insert();


--
-- Name: agent_taken agent_taken_bevroren; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER agent_taken_bevroren BEFORE UPDATE OF id, opdracht, opdrachtgever, aangemaakt ON public.agent_taken FOR EACH ROW WHEN (((new.id IS DISTINCT FROM old.id) OR (new.opdracht IS DISTINCT FROM old.opdracht) OR (new.opdrachtgever IS DISTINCT FROM old.opdrachtgever) OR (new.aangemaakt IS DISTINCT FROM old.aangemaakt))) EXECUTE FUNCTION public.agent_taken_bevroren();


--
-- Name: agent_taken agent_taken_meld_nieuw; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER agent_taken_meld_nieuw AFTER INSERT ON public.agent_taken FOR EACH ROW WHEN ((new.status = 'wachtend'::text)) EXECUTE FUNCTION public.agent_taken_meld_wachtend();


--
-- Name: agent_taken agent_taken_nakijken; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER agent_taken_nakijken BEFORE INSERT OR UPDATE OF status, lease_tot, lease_token, bewijs, pogingen, max_pogingen, context, toegewezen_aan ON public.agent_taken FOR EACH ROW EXECUTE FUNCTION public.agent_taken_nakijken();


--
-- Name: agent_taken agent_taken_nakijken_nieuw; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER agent_taken_nakijken_nieuw BEFORE INSERT ON public.agent_taken FOR EACH ROW EXECUTE FUNCTION public.agent_taken_nieuw_nakijken();


--
-- Name: agent_taken agent_taken_nakijken_teksten; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER agent_taken_nakijken_teksten BEFORE UPDATE OF titel, toegewezen_aan, klaar_wanneer, volgende_stap, context, uiterlijk ON public.agent_taken FOR EACH ROW EXECUTE FUNCTION public.agent_taken_nieuw_nakijken();


--
-- Name: machine_aliassen machine_alias_vrij; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER machine_alias_vrij BEFORE INSERT OR UPDATE ON public.machine_aliassen FOR EACH ROW EXECUTE FUNCTION public.machine_naam_vrij();


--
-- Name: machines machine_naam_vrij; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER machine_naam_vrij BEFORE INSERT OR UPDATE ON public.machines FOR EACH ROW EXECUTE FUNCTION public.machine_naam_vrij();


--
-- Name: agent_taak_log agent_taak_log_taak_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.agent_taak_log
    ADD CONSTRAINT agent_taak_log_taak_id_fkey FOREIGN KEY (taak_id) REFERENCES public.agent_taken(id);


--
-- Name: agent_taken agent_taken_nodig_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.agent_taken
    ADD CONSTRAINT agent_taken_nodig_fkey FOREIGN KEY (nodig) REFERENCES public.taak_vaardigheden(vaardigheid);


--
-- Name: machine_aliassen machine_aliassen_machine_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.machine_aliassen
    ADD CONSTRAINT machine_aliassen_machine_fkey FOREIGN KEY (machine) REFERENCES public.machines(naam) ON UPDATE CASCADE ON DELETE CASCADE;


--
-- Name: taak_berichten taak_berichten_kanaal_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taak_berichten
    ADD CONSTRAINT taak_berichten_kanaal_fkey FOREIGN KEY (kanaal) REFERENCES public.taak_kanalen(kanaal) ON DELETE CASCADE;


--
-- Name: taak_berichten taak_berichten_melding_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taak_berichten
    ADD CONSTRAINT taak_berichten_melding_id_fkey FOREIGN KEY (melding_id) REFERENCES public.taak_meldingen(id);


--
-- Name: taak_berichten taak_berichten_taak_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taak_berichten
    ADD CONSTRAINT taak_berichten_taak_id_fkey FOREIGN KEY (taak_id) REFERENCES public.agent_taken(id);


--
-- Name: taak_bezorgingen taak_bezorgingen_bericht_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taak_bezorgingen
    ADD CONSTRAINT taak_bezorgingen_bericht_id_fkey FOREIGN KEY (bericht_id) REFERENCES public.taak_berichten(id) ON DELETE CASCADE;


--
-- Name: taak_bezorgingen taak_bezorgingen_kanaal_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taak_bezorgingen
    ADD CONSTRAINT taak_bezorgingen_kanaal_fkey FOREIGN KEY (kanaal) REFERENCES public.taak_kanalen(kanaal) ON DELETE CASCADE;


--
-- Name: taak_bot_vaardigheden taak_bot_vaardigheden_bot_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taak_bot_vaardigheden
    ADD CONSTRAINT taak_bot_vaardigheden_bot_fkey FOREIGN KEY (bot) REFERENCES public.agent_bots(bot) ON UPDATE CASCADE ON DELETE CASCADE;


--
-- Name: taak_bot_vaardigheden taak_bot_vaardigheden_vaardigheid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taak_bot_vaardigheden
    ADD CONSTRAINT taak_bot_vaardigheden_vaardigheid_fkey FOREIGN KEY (vaardigheid) REFERENCES public.taak_vaardigheden(vaardigheid);


--
-- Name: taak_dagberichten taak_dagberichten_bericht_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taak_dagberichten
    ADD CONSTRAINT taak_dagberichten_bericht_id_fkey FOREIGN KEY (bericht_id) REFERENCES public.taak_berichten(id);


--
-- Name: taak_meldingen taak_meldingen_taak_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taak_meldingen
    ADD CONSTRAINT taak_meldingen_taak_id_fkey FOREIGN KEY (taak_id) REFERENCES public.agent_taken(id);


--
-- Name: taak_vaardigheid_woorden taak_vaardigheid_woorden_vaardigheid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.taak_vaardigheid_woorden
    ADD CONSTRAINT taak_vaardigheid_woorden_vaardigheid_fkey FOREIGN KEY (vaardigheid) REFERENCES public.taak_vaardigheden(vaardigheid) ON UPDATE CASCADE ON DELETE CASCADE;


--
-- Name: agent_bots; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.agent_bots ENABLE ROW LEVEL SECURITY;

--
-- Name: agent_taak_log; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.agent_taak_log ENABLE ROW LEVEL SECURITY;

--
-- Name: agent_taak_teller; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.agent_taak_teller ENABLE ROW LEVEL SECURITY;

--
-- Name: agent_taak_telling; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.agent_taak_telling ENABLE ROW LEVEL SECURITY;

--
-- Name: agent_taken; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.agent_taken ENABLE ROW LEVEL SECURITY;

--
-- Name: machine_aliassen; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.machine_aliassen ENABLE ROW LEVEL SECURITY;

--
-- Name: machines; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.machines ENABLE ROW LEVEL SECURITY;

--
-- Name: taak_archief; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.taak_archief ENABLE ROW LEVEL SECURITY;

--
-- Name: taak_berichten; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.taak_berichten ENABLE ROW LEVEL SECURITY;

--
-- Name: taak_bezorgers; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.taak_bezorgers ENABLE ROW LEVEL SECURITY;

--
-- Name: taak_bezorgingen; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.taak_bezorgingen ENABLE ROW LEVEL SECURITY;

--
-- Name: taak_bot_vaardigheden; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.taak_bot_vaardigheden ENABLE ROW LEVEL SECURITY;

--
-- Name: agent_bots taak_daemon_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_daemon_alles ON public.agent_bots TO taak_daemon USING (true) WITH CHECK (true);


--
-- Name: agent_taak_log taak_daemon_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_daemon_alles ON public.agent_taak_log TO taak_daemon USING (true) WITH CHECK (true);


--
-- Name: agent_taak_telling taak_daemon_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_daemon_alles ON public.agent_taak_telling TO taak_daemon USING (true) WITH CHECK (true);


--
-- Name: agent_taken taak_daemon_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_daemon_alles ON public.agent_taken TO taak_daemon USING (true) WITH CHECK (true);


--
-- Name: machine_aliassen taak_daemon_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_daemon_alles ON public.machine_aliassen TO taak_daemon USING (true) WITH CHECK (true);


--
-- Name: machines taak_daemon_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_daemon_alles ON public.machines TO taak_daemon USING (true) WITH CHECK (true);


--
-- Name: taak_archief taak_daemon_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_daemon_alles ON public.taak_archief TO taak_daemon USING (true) WITH CHECK (true);


--
-- Name: taak_berichten taak_daemon_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_daemon_alles ON public.taak_berichten TO taak_daemon USING (true) WITH CHECK (true);


--
-- Name: taak_bezorgers taak_daemon_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_daemon_alles ON public.taak_bezorgers TO taak_daemon USING (true) WITH CHECK (true);


--
-- Name: taak_bezorgingen taak_daemon_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_daemon_alles ON public.taak_bezorgingen TO taak_daemon USING (true) WITH CHECK (true);


--
-- Name: taak_bot_vaardigheden taak_daemon_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_daemon_alles ON public.taak_bot_vaardigheden TO taak_daemon USING (true) WITH CHECK (true);


--
-- Name: taak_dagberichten taak_daemon_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_daemon_alles ON public.taak_dagberichten TO taak_daemon USING (true) WITH CHECK (true);


--
-- Name: taak_kanalen taak_daemon_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_daemon_alles ON public.taak_kanalen TO taak_daemon USING (true) WITH CHECK (true);


--
-- Name: taak_lezers taak_daemon_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_daemon_alles ON public.taak_lezers TO taak_daemon USING (true) WITH CHECK (true);


--
-- Name: taak_meldingen taak_daemon_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_daemon_alles ON public.taak_meldingen TO taak_daemon USING (true) WITH CHECK (true);


--
-- Name: taak_vaardigheden taak_daemon_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_daemon_alles ON public.taak_vaardigheden TO taak_daemon USING (true) WITH CHECK (true);


--
-- Name: taak_vaardigheid_woorden taak_daemon_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_daemon_alles ON public.taak_vaardigheid_woorden TO taak_daemon USING (true) WITH CHECK (true);


--
-- Name: taak_vloot_eigenaar taak_daemon_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_daemon_alles ON public.taak_vloot_eigenaar TO taak_daemon USING (true) WITH CHECK (true);


--
-- Name: taak_instellingen taak_daemon_lezen; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_daemon_lezen ON public.taak_instellingen FOR SELECT TO taak_daemon USING (true);


--
-- Name: taak_migraties taak_daemon_lezen; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_daemon_lezen ON public.taak_migraties FOR SELECT TO taak_daemon USING (true);


--
-- Name: taak_dagberichten; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.taak_dagberichten ENABLE ROW LEVEL SECURITY;

--
-- Name: agent_bots taak_eigenaar_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_eigenaar_alles ON public.agent_bots TO taak_eigenaar USING (true) WITH CHECK (true);


--
-- Name: agent_taak_log taak_eigenaar_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_eigenaar_alles ON public.agent_taak_log TO taak_eigenaar USING (true) WITH CHECK (true);


--
-- Name: agent_taak_telling taak_eigenaar_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_eigenaar_alles ON public.agent_taak_telling TO taak_eigenaar USING (true) WITH CHECK (true);


--
-- Name: agent_taken taak_eigenaar_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_eigenaar_alles ON public.agent_taken TO taak_eigenaar USING (true) WITH CHECK (true);


--
-- Name: machine_aliassen taak_eigenaar_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_eigenaar_alles ON public.machine_aliassen TO taak_eigenaar USING (true) WITH CHECK (true);


--
-- Name: machines taak_eigenaar_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_eigenaar_alles ON public.machines TO taak_eigenaar USING (true) WITH CHECK (true);


--
-- Name: taak_archief taak_eigenaar_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_eigenaar_alles ON public.taak_archief TO taak_eigenaar USING (true) WITH CHECK (true);


--
-- Name: taak_berichten taak_eigenaar_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_eigenaar_alles ON public.taak_berichten TO taak_eigenaar USING (true) WITH CHECK (true);


--
-- Name: taak_bezorgers taak_eigenaar_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_eigenaar_alles ON public.taak_bezorgers TO taak_eigenaar USING (true) WITH CHECK (true);


--
-- Name: taak_bezorgingen taak_eigenaar_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_eigenaar_alles ON public.taak_bezorgingen TO taak_eigenaar USING (true) WITH CHECK (true);


--
-- Name: taak_bot_vaardigheden taak_eigenaar_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_eigenaar_alles ON public.taak_bot_vaardigheden TO taak_eigenaar USING (true) WITH CHECK (true);


--
-- Name: taak_dagberichten taak_eigenaar_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_eigenaar_alles ON public.taak_dagberichten TO taak_eigenaar USING (true) WITH CHECK (true);


--
-- Name: taak_kanalen taak_eigenaar_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_eigenaar_alles ON public.taak_kanalen TO taak_eigenaar USING (true) WITH CHECK (true);


--
-- Name: taak_lezers taak_eigenaar_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_eigenaar_alles ON public.taak_lezers TO taak_eigenaar USING (true) WITH CHECK (true);


--
-- Name: taak_meldingen taak_eigenaar_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_eigenaar_alles ON public.taak_meldingen TO taak_eigenaar USING (true) WITH CHECK (true);


--
-- Name: taak_vaardigheden taak_eigenaar_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_eigenaar_alles ON public.taak_vaardigheden TO taak_eigenaar USING (true) WITH CHECK (true);


--
-- Name: taak_vaardigheid_woorden taak_eigenaar_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_eigenaar_alles ON public.taak_vaardigheid_woorden TO taak_eigenaar USING (true) WITH CHECK (true);


--
-- Name: taak_vloot_eigenaar taak_eigenaar_alles; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_eigenaar_alles ON public.taak_vloot_eigenaar TO taak_eigenaar USING (true) WITH CHECK (true);


--
-- Name: taak_instellingen taak_eigenaar_lezen; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_eigenaar_lezen ON public.taak_instellingen FOR SELECT TO taak_eigenaar USING (true);


--
-- Name: taak_migraties taak_eigenaar_lezen; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY taak_eigenaar_lezen ON public.taak_migraties FOR SELECT TO taak_eigenaar USING (true);


--
-- Name: taak_instellingen; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.taak_instellingen ENABLE ROW LEVEL SECURITY;

--
-- Name: taak_kanalen; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.taak_kanalen ENABLE ROW LEVEL SECURITY;

--
-- Name: taak_lezers; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.taak_lezers ENABLE ROW LEVEL SECURITY;

--
-- Name: taak_meldingen; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.taak_meldingen ENABLE ROW LEVEL SECURITY;

--
-- Name: taak_migraties; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.taak_migraties ENABLE ROW LEVEL SECURITY;

--
-- Name: taak_vaardigheden; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.taak_vaardigheden ENABLE ROW LEVEL SECURITY;

--
-- Name: taak_vaardigheid_woorden; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.taak_vaardigheid_woorden ENABLE ROW LEVEL SECURITY;

--
-- Name: taak_vloot_eigenaar; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.taak_vloot_eigenaar ENABLE ROW LEVEL SECURITY;

--
-- Name: SCHEMA public; Type: ACL; Schema: -; Owner: -
--

GRANT USAGE ON SCHEMA public TO taak_daemon;
GRANT USAGE ON SCHEMA public TO taak_eigenaar;
GRANT USAGE ON SCHEMA public TO taak_sessie;


--
-- Name: FUNCTION agent_taak_log_alleen_bijschrijven(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.agent_taak_log_alleen_bijschrijven() FROM PUBLIC;
GRANT ALL ON FUNCTION public.agent_taak_log_alleen_bijschrijven() TO taak_daemon;
GRANT ALL ON FUNCTION public.agent_taak_log_alleen_bijschrijven() TO taak_eigenaar;


--
-- Name: FUNCTION agent_taak_log_bijschrijven(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.agent_taak_log_bijschrijven() FROM PUBLIC;
GRANT ALL ON FUNCTION public.agent_taak_log_bijschrijven() TO taak_daemon;
GRANT ALL ON FUNCTION public.agent_taak_log_bijschrijven() TO taak_eigenaar;


--
-- Name: FUNCTION agent_taak_log_na_insert(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.agent_taak_log_na_insert() FROM PUBLIC;
GRANT ALL ON FUNCTION public.agent_taak_log_na_insert() TO taak_daemon;
GRANT ALL ON FUNCTION public.agent_taak_log_na_insert() TO taak_eigenaar;


--
-- Name: FUNCTION agent_taken_bevroren(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.agent_taken_bevroren() FROM PUBLIC;
GRANT ALL ON FUNCTION public.agent_taken_bevroren() TO taak_daemon;
GRANT ALL ON FUNCTION public.agent_taken_bevroren() TO taak_eigenaar;


--
-- Name: FUNCTION agent_taken_meld_wachtend(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.agent_taken_meld_wachtend() FROM PUBLIC;
GRANT ALL ON FUNCTION public.agent_taken_meld_wachtend() TO taak_daemon;
GRANT ALL ON FUNCTION public.agent_taken_meld_wachtend() TO taak_eigenaar;


--
-- Name: FUNCTION agent_taken_nakijken(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.agent_taken_nakijken() FROM PUBLIC;
GRANT ALL ON FUNCTION public.agent_taken_nakijken() TO taak_daemon;
GRANT ALL ON FUNCTION public.agent_taken_nakijken() TO taak_eigenaar;


--
-- Name: FUNCTION agent_taken_nieuw_nakijken(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.agent_taken_nieuw_nakijken() FROM PUBLIC;
GRANT ALL ON FUNCTION public.agent_taken_nieuw_nakijken() TO taak_daemon;
GRANT ALL ON FUNCTION public.agent_taken_nieuw_nakijken() TO taak_eigenaar;


--
-- Name: FUNCTION machine_naam_vrij(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.machine_naam_vrij() FROM PUBLIC;
GRANT ALL ON FUNCTION public.machine_naam_vrij() TO taak_daemon;
GRANT ALL ON FUNCTION public.machine_naam_vrij() TO taak_eigenaar;


--
-- Name: FUNCTION taak_antwoord(taak text, wie text, tekst text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_antwoord(taak text, wie text, tekst text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_antwoord(taak text, wie text, tekst text) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_antwoord(taak text, wie text, tekst text) TO taak_eigenaar;


--
-- Name: FUNCTION taak_backoff(pogingen integer, basis_seconden double precision, max_seconden double precision); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_backoff(pogingen integer, basis_seconden double precision, max_seconden double precision) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_backoff(pogingen integer, basis_seconden double precision, max_seconden double precision) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_backoff(pogingen integer, basis_seconden double precision, max_seconden double precision) TO taak_eigenaar;


--
-- Name: FUNCTION taak_blokkeer(taak text, token uuid, vraag text, sessie text, meta jsonb); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_blokkeer(taak text, token uuid, vraag text, sessie text, meta jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_blokkeer(taak text, token uuid, vraag text, sessie text, meta jsonb) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_blokkeer(taak text, token uuid, vraag text, sessie text, meta jsonb) TO taak_eigenaar;


--
-- Name: FUNCTION taak_botnaam(naam text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_botnaam(naam text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_botnaam(naam text) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_botnaam(naam text) TO taak_eigenaar;


--
-- Name: FUNCTION taak_botnaam_zetten(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_botnaam_zetten() FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_botnaam_zetten() TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_botnaam_zetten() TO taak_eigenaar;


--
-- Name: FUNCTION taak_bots_vandaag(namen text[], alle boolean); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_bots_vandaag(namen text[], alle boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_bots_vandaag(namen text[], alle boolean) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_bots_vandaag(namen text[], alle boolean) TO taak_eigenaar;


--
-- Name: FUNCTION taak_volgend_id(moment timestamp with time zone); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_volgend_id(moment timestamp with time zone) FROM PUBLIC;


--
-- Name: TABLE agent_taken; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT ON TABLE public.agent_taken TO taak_daemon;
GRANT SELECT,DELETE,UPDATE ON TABLE public.agent_taken TO taak_eigenaar;


--
-- Name: FUNCTION taak_claim(bots text[], lease_seconds integer, machine text, sessie text, nog_bezig text[], alleen_aan boolean); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_claim(bots text[], lease_seconds integer, machine text, sessie text, nog_bezig text[], alleen_aan boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_claim(bots text[], lease_seconds integer, machine text, sessie text, nog_bezig text[], alleen_aan boolean) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_claim(bots text[], lease_seconds integer, machine text, sessie text, nog_bezig text[], alleen_aan boolean) TO taak_eigenaar;


--
-- Name: FUNCTION taak_claim_id(taak text, bot text, lease_seconds integer, machine text, sessie text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_claim_id(taak text, bot text, lease_seconds integer, machine text, sessie text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_claim_id(taak text, bot text, lease_seconds integer, machine text, sessie text) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_claim_id(taak text, bot text, lease_seconds integer, machine text, sessie text) TO taak_eigenaar;


--
-- Name: FUNCTION taak_dag(moment timestamp with time zone, zone text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_dag(moment timestamp with time zone, zone text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_dag(moment timestamp with time zone, zone text) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_dag(moment timestamp with time zone, zone text) TO taak_eigenaar;


--
-- Name: FUNCTION taak_dag_begin(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_dag_begin() FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_dag_begin() TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_dag_begin() TO taak_eigenaar;


--
-- Name: FUNCTION taak_eigen_claims_vrijgeven(taken text[], tokens uuid[], reden text, zin jsonb); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_eigen_claims_vrijgeven(taken text[], tokens uuid[], reden text, zin jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_eigen_claims_vrijgeven(taken text[], tokens uuid[], reden text, zin jsonb) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_eigen_claims_vrijgeven(taken text[], tokens uuid[], reden text, zin jsonb) TO taak_eigenaar;


--
-- Name: FUNCTION taak_id_datum_bestaat(id text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_id_datum_bestaat(id text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_id_datum_bestaat(id text) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_id_datum_bestaat(id text) TO taak_eigenaar;


--
-- Name: FUNCTION taak_klaar(taak text, token uuid, bewijs text, tekst text, sessie text, meta jsonb); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_klaar(taak text, token uuid, bewijs text, tekst text, sessie text, meta jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_klaar(taak text, token uuid, bewijs text, tekst text, sessie text, meta jsonb) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_klaar(taak text, token uuid, bewijs text, tekst text, sessie text, meta jsonb) TO taak_eigenaar;


--
-- Name: FUNCTION taak_lease_seconden(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_lease_seconden() FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_lease_seconden() TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_lease_seconden() TO taak_eigenaar;
GRANT ALL ON FUNCTION public.taak_lease_seconden() TO taak_sessie;


--
-- Name: FUNCTION taak_log_met_token(taak text, token uuid, soort text, tekst text, sessie text, meta jsonb, seconden double precision); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_log_met_token(taak text, token uuid, soort text, tekst text, sessie text, meta jsonb, seconden double precision) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_log_met_token(taak text, token uuid, soort text, tekst text, sessie text, meta jsonb, seconden double precision) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_log_met_token(taak text, token uuid, soort text, tekst text, sessie text, meta jsonb, seconden double precision) TO taak_eigenaar;


--
-- Name: FUNCTION taak_log_zonder_token(taak text, bot text, soort text, tekst text, sessie text, meta jsonb); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_log_zonder_token(taak text, bot text, soort text, tekst text, sessie text, meta jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_log_zonder_token(taak text, bot text, soort text, tekst text, sessie text, meta jsonb) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_log_zonder_token(taak text, bot text, soort text, tekst text, sessie text, meta jsonb) TO taak_eigenaar;


--
-- Name: FUNCTION taak_nieuw(opdracht text, opdrachtgever text, toegewezen_aan text, klaar_wanneer text, context jsonb, volgende_stap text, titel text, prioriteit integer, max_pogingen integer, niet_voor timestamp with time zone, uiterlijk timestamp with time zone, nodig text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_nieuw(opdracht text, opdrachtgever text, toegewezen_aan text, klaar_wanneer text, context jsonb, volgende_stap text, titel text, prioriteit integer, max_pogingen integer, niet_voor timestamp with time zone, uiterlijk timestamp with time zone, nodig text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_nieuw(opdracht text, opdrachtgever text, toegewezen_aan text, klaar_wanneer text, context jsonb, volgende_stap text, titel text, prioriteit integer, max_pogingen integer, niet_voor timestamp with time zone, uiterlijk timestamp with time zone, nodig text) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_nieuw(opdracht text, opdrachtgever text, toegewezen_aan text, klaar_wanneer text, context jsonb, volgende_stap text, titel text, prioriteit integer, max_pogingen integer, niet_voor timestamp with time zone, uiterlijk timestamp with time zone, nodig text) TO taak_eigenaar;


--
-- Name: FUNCTION taak_oude_wachtrij(vanaf timestamp with time zone, tijd text, ontvanger text, status text, open text[], zone text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_oude_wachtrij(vanaf timestamp with time zone, tijd text, ontvanger text, status text, open text[], zone text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_oude_wachtrij(vanaf timestamp with time zone, tijd text, ontvanger text, status text, open text[], zone text) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_oude_wachtrij(vanaf timestamp with time zone, tijd text, ontvanger text, status text, open text[], zone text) TO taak_eigenaar;


--
-- Name: FUNCTION taak_poging_mislukt(taak text, token uuid, reden text, notitie text, sessie text, meta jsonb, basis double precision, maximum double precision, zin jsonb); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_poging_mislukt(taak text, token uuid, reden text, notitie text, sessie text, meta jsonb, basis double precision, maximum double precision, zin jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_poging_mislukt(taak text, token uuid, reden text, notitie text, sessie text, meta jsonb, basis double precision, maximum double precision, zin jsonb) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_poging_mislukt(taak text, token uuid, reden text, notitie text, sessie text, meta jsonb, basis double precision, maximum double precision, zin jsonb) TO taak_eigenaar;


--
-- Name: FUNCTION taak_poging_terug(taak text, token uuid, reden text, sessie text, zin jsonb); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_poging_terug(taak text, token uuid, reden text, sessie text, zin jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_poging_terug(taak text, token uuid, reden text, sessie text, zin jsonb) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_poging_terug(taak text, token uuid, reden text, sessie text, zin jsonb) TO taak_eigenaar;


--
-- Name: FUNCTION taak_rechten(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_rechten() FROM PUBLIC;


--
-- Name: FUNCTION taak_resultaat(taak text, token uuid, tekst text, sessie text, meta jsonb); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_resultaat(taak text, token uuid, tekst text, sessie text, meta jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_resultaat(taak text, token uuid, tekst text, sessie text, meta jsonb) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_resultaat(taak text, token uuid, tekst text, sessie text, meta jsonb) TO taak_eigenaar;


--
-- Name: FUNCTION taak_sessie_blokkeer(taak text, token uuid, vraag text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_sessie_blokkeer(taak text, token uuid, vraag text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_sessie_blokkeer(taak text, token uuid, vraag text) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_sessie_blokkeer(taak text, token uuid, vraag text) TO taak_eigenaar;
GRANT ALL ON FUNCTION public.taak_sessie_blokkeer(taak text, token uuid, vraag text) TO taak_sessie;


--
-- Name: FUNCTION taak_sessie_klaar(taak text, token uuid, bewijs text, tekst text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_sessie_klaar(taak text, token uuid, bewijs text, tekst text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_sessie_klaar(taak text, token uuid, bewijs text, tekst text) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_sessie_klaar(taak text, token uuid, bewijs text, tekst text) TO taak_eigenaar;
GRANT ALL ON FUNCTION public.taak_sessie_klaar(taak text, token uuid, bewijs text, tekst text) TO taak_sessie;


--
-- Name: FUNCTION taak_sessie_log(taak text, token uuid, soort text, tekst text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_sessie_log(taak text, token uuid, soort text, tekst text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_sessie_log(taak text, token uuid, soort text, tekst text) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_sessie_log(taak text, token uuid, soort text, tekst text) TO taak_eigenaar;
GRANT ALL ON FUNCTION public.taak_sessie_log(taak text, token uuid, soort text, tekst text) TO taak_sessie;


--
-- Name: FUNCTION taak_stap_met_token(taak text, token uuid, stap text, seconden double precision, meta jsonb); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_stap_met_token(taak text, token uuid, stap text, seconden double precision, meta jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_stap_met_token(taak text, token uuid, stap text, seconden double precision, meta jsonb) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_stap_met_token(taak text, token uuid, stap text, seconden double precision, meta jsonb) TO taak_eigenaar;


--
-- Name: FUNCTION taak_tijdzone(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_tijdzone() FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_tijdzone() TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_tijdzone() TO taak_eigenaar;
GRANT ALL ON FUNCTION public.taak_tijdzone() TO taak_sessie;


--
-- Name: FUNCTION taak_vergrendeld(taak text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_vergrendeld(taak text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_vergrendeld(taak text) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_vergrendeld(taak text) TO taak_eigenaar;


--
-- Name: FUNCTION taak_verleng(taak text, token uuid, seconden double precision); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_verleng(taak text, token uuid, seconden double precision) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_verleng(taak text, token uuid, seconden double precision) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_verleng(taak text, token uuid, seconden double precision) TO taak_eigenaar;


--
-- Name: FUNCTION taak_verlopen(basis double precision, maximum double precision, hoeveel integer, eigen text[], wachttijd double precision); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_verlopen(basis double precision, maximum double precision, hoeveel integer, eigen text[], wachttijd double precision) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_verlopen(basis double precision, maximum double precision, hoeveel integer, eigen text[], wachttijd double precision) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_verlopen(basis double precision, maximum double precision, hoeveel integer, eigen text[], wachttijd double precision) TO taak_eigenaar;


--
-- Name: FUNCTION taak_vrijgeven(taak text, token uuid, reden text, niet_voor timestamp with time zone, meta jsonb, basis double precision, maximum double precision, zin jsonb); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_vrijgeven(taak text, token uuid, reden text, niet_voor timestamp with time zone, meta jsonb, basis double precision, maximum double precision, zin jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_vrijgeven(taak text, token uuid, reden text, niet_voor timestamp with time zone, meta jsonb, basis double precision, maximum double precision, zin jsonb) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_vrijgeven(taak text, token uuid, reden text, niet_voor timestamp with time zone, meta jsonb, basis double precision, maximum double precision, zin jsonb) TO taak_eigenaar;


--
-- Name: FUNCTION taak_zichtbaar(tekst text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.taak_zichtbaar(tekst text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.taak_zichtbaar(tekst text) TO taak_daemon;
GRANT ALL ON FUNCTION public.taak_zichtbaar(tekst text) TO taak_eigenaar;


--
-- Name: TABLE agent_bots; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.agent_bots TO taak_daemon;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.agent_bots TO taak_eigenaar;


--
-- Name: TABLE agent_taak_log; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT ON TABLE public.agent_taak_log TO taak_daemon;
GRANT SELECT,INSERT ON TABLE public.agent_taak_log TO taak_eigenaar;


--
-- Name: SEQUENCE agent_taak_log_id_seq; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,USAGE ON SEQUENCE public.agent_taak_log_id_seq TO taak_daemon;
GRANT SELECT,USAGE ON SEQUENCE public.agent_taak_log_id_seq TO taak_eigenaar;


--
-- Name: TABLE agent_taak_telling; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.agent_taak_telling TO taak_daemon;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.agent_taak_telling TO taak_eigenaar;


--
-- Name: TABLE machine_aliassen; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.machine_aliassen TO taak_daemon;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.machine_aliassen TO taak_eigenaar;


--
-- Name: TABLE machines; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.machines TO taak_daemon;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.machines TO taak_eigenaar;


--
-- Name: TABLE taak_archief; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.taak_archief TO taak_daemon;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.taak_archief TO taak_eigenaar;


--
-- Name: TABLE taak_berichten; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.taak_berichten TO taak_daemon;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.taak_berichten TO taak_eigenaar;


--
-- Name: SEQUENCE taak_berichten_id_seq; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,USAGE ON SEQUENCE public.taak_berichten_id_seq TO taak_daemon;
GRANT SELECT,USAGE ON SEQUENCE public.taak_berichten_id_seq TO taak_eigenaar;


--
-- Name: TABLE taak_bezig; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT ON TABLE public.taak_bezig TO taak_daemon;
GRANT SELECT ON TABLE public.taak_bezig TO taak_eigenaar;


--
-- Name: TABLE taak_bezorgers; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.taak_bezorgers TO taak_daemon;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.taak_bezorgers TO taak_eigenaar;


--
-- Name: TABLE taak_bezorgingen; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.taak_bezorgingen TO taak_daemon;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.taak_bezorgingen TO taak_eigenaar;


--
-- Name: TABLE taak_bot_vaardigheden; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.taak_bot_vaardigheden TO taak_daemon;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.taak_bot_vaardigheden TO taak_eigenaar;


--
-- Name: TABLE taak_compacties; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT ON TABLE public.taak_compacties TO taak_daemon;
GRANT SELECT ON TABLE public.taak_compacties TO taak_eigenaar;


--
-- Name: TABLE taak_dagberichten; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.taak_dagberichten TO taak_daemon;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.taak_dagberichten TO taak_eigenaar;


--
-- Name: TABLE taak_meldingen; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.taak_meldingen TO taak_daemon;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.taak_meldingen TO taak_eigenaar;


--
-- Name: TABLE taak_dringend_vandaag; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT ON TABLE public.taak_dringend_vandaag TO taak_daemon;
GRANT SELECT ON TABLE public.taak_dringend_vandaag TO taak_eigenaar;


--
-- Name: TABLE taak_instellingen; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT ON TABLE public.taak_instellingen TO taak_daemon;
GRANT SELECT ON TABLE public.taak_instellingen TO taak_eigenaar;


--
-- Name: TABLE taak_kanalen; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.taak_kanalen TO taak_daemon;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.taak_kanalen TO taak_eigenaar;


--
-- Name: TABLE taak_lezers; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.taak_lezers TO taak_daemon;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.taak_lezers TO taak_eigenaar;


--
-- Name: SEQUENCE taak_meldingen_id_seq; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,USAGE ON SEQUENCE public.taak_meldingen_id_seq TO taak_daemon;
GRANT SELECT,USAGE ON SEQUENCE public.taak_meldingen_id_seq TO taak_eigenaar;


--
-- Name: TABLE taak_migraties; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT ON TABLE public.taak_migraties TO taak_daemon;
GRANT SELECT ON TABLE public.taak_migraties TO taak_eigenaar;


--
-- Name: TABLE taak_over_tijd; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT ON TABLE public.taak_over_tijd TO taak_daemon;
GRANT SELECT ON TABLE public.taak_over_tijd TO taak_eigenaar;


--
-- Name: TABLE taak_sessies; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT ON TABLE public.taak_sessies TO taak_daemon;
GRANT SELECT ON TABLE public.taak_sessies TO taak_eigenaar;


--
-- Name: TABLE taak_overzicht; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT ON TABLE public.taak_overzicht TO taak_daemon;
GRANT SELECT ON TABLE public.taak_overzicht TO taak_eigenaar;


--
-- Name: TABLE taak_vaardigheden; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.taak_vaardigheden TO taak_daemon;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.taak_vaardigheden TO taak_eigenaar;


--
-- Name: TABLE taak_vaardigheid_woorden; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.taak_vaardigheid_woorden TO taak_daemon;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.taak_vaardigheid_woorden TO taak_eigenaar;


--
-- Name: TABLE taak_vloot_eigenaar; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.taak_vloot_eigenaar TO taak_daemon;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.taak_vloot_eigenaar TO taak_eigenaar;


--
-- PostgreSQL database dump complete
--
