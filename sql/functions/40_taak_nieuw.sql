-- One way in: every producer (the taak command, a Supabase RPC call, a Telegram bridge, cron, another bot) creates a
-- task through this function, exactly alike: the task, and its creation note in the log with its phrase (`zin`, a
-- message key of worker/core/messages.py and its values, so each reader sees it in the language of the run). It runs
-- with its owner's rights: no role of ours may insert into agent_taken itself.
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
