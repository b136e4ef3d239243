-- The outbox for the human loop and the knowledge sink. A row is made by the database itself when a task
-- starts waiting for the owner or becomes klaar, whoever changed it; its unique key means it is made once.
-- The daemons send what is unsent (SKIP LOCKED), retry failures with backoff, and record what was sent.
create table taak_meldingen (
    id              bigint generated always as identity primary key,
    taak_id         text not null references agent_taken (id),
    soort           text not null constraint melding_soort check (soort in ('vraag', 'herinnering', 'klaar')),
    sleutel         text not null unique,
    tekst           text not null default '',
    aangemaakt      timestamptz not null default now(),
    volgende_poging timestamptz not null default now(),
    pogingen        integer not null default 0,
    laatste_fout    text,
    verstuurd       timestamptz
);
create index taak_meldingen_open on taak_meldingen (volgende_poging) where verstuurd is null;

create or replace function taak_melding_maken() returns trigger
language plpgsql as $$
begin
    if new.soort = 'vraag'
       and (select status from agent_taken where id = new.taak_id) = 'wacht_op_mens' then
        insert into taak_meldingen (taak_id, soort, sleutel, tekst)
        values (new.taak_id, 'vraag', 'vraag:' || new.id, new.taak_id || ': ' || new.tekst)
        on conflict (sleutel) do nothing;
    elsif new.soort = 'klaar' then
        insert into taak_meldingen (taak_id, soort, sleutel)
        values (new.taak_id, 'klaar', 'klaar:' || new.taak_id)
        on conflict (sleutel) do nothing;
    end if;
    return null;
end
$$;

create trigger taak_melding_maken after insert on agent_taak_log
    for each row when (new.soort in ('vraag', 'klaar'))
    execute function taak_melding_maken();
