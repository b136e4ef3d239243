-- One way in: every producer (the taak command, a Supabase RPC call, a Telegram bridge, cron, another bot, the
-- intake) creates a task through this function, exactly alike: the task, and its creation note in the log with its
-- phrase (`zin`, a message key of worker/core/messages.py and its values, so each reader sees it in the language of
-- the run). It runs with its owner's rights: no role of ours may insert into agent_taken itself.
-- What a task needs (`nodig`, a known skill, spelled as a bot is) is given, or, for a task that names neither its
-- bot nor its need, implied by the first word of its title and opdracht that a skill's word begins
-- (taak_vaardigheid_woorden; `foto` begins foto, foto's and fotoboek, not vakantiefoto). The text is read in the form
-- the words are kept in (NFKC, lower case), and a word belongs to one skill; where two skills' words begin one word
-- of the task (foto and fotoboek), the longer says more and decides. A need no skill is refused in one line with the
-- known ones (not as a foreign key of agent_taken), and so is a blank one, as the command refuses `--nodig ''`:
-- null is no need.
drop function if exists taak_nieuw(text, text, text, text, jsonb, text, text, integer, integer, timestamptz,
                                   timestamptz);
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
    uiterlijk timestamptz default null,
    nodig text default null
) returns text
language plpgsql volatile security definer set search_path = public, pg_temp as $$
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
