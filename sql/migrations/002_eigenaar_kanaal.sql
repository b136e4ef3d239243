-- The owner's channel (issue 40): a digest at set times instead of a message per event, urgent messages at once
-- within a brake, every message to every channel the fleet has (a command, Telegram, Apprise's addresses), and
-- Telegram's answers read by one daemon of the fleet at a time.

-- A message in the outbox now says which bot it is about (a question's asker, a braked bot), whether its bot marked
-- it urgent (`taak blokkeer --dringend`), and where it went: at once (`nu`) or into a digest (`dagbericht`, with the
-- digest's time). Messages made before this migration went out the old way: they count as sent at once.
alter table taak_meldingen
    add column bot        text,
    add column dringend   boolean not null default false,
    add column route      text constraint melding_route check (route in ('nu', 'dagbericht')),
    add column dagbericht timestamptz;
update taak_meldingen set route = 'nu' where verstuurd is not null;
create index taak_meldingen_voor_dagbericht on taak_meldingen (id) where route = 'dagbericht' and verstuurd is null;

-- The fleet's channels by a key that holds no secret (`cmd`, `telegram:<chat>`, `url:<hash>`), each since the first
-- daemon that has it started.
create table taak_kanalen (
    kanaal text primary key,
    sinds  timestamptz not null default now(),
    gezien timestamptz not null default now()
);

-- What went to the owner, as it was said: an urgent message, a digest, a confirmation of an answer. Each channel
-- delivers every one made since the channel was first seen (taak_kanalen), through its own row in
-- taak_bezorgingen, so a channel that is down holds up no other and loses nothing. A confirmation goes only to the
-- channel the answer came from (`kanaal`), as a reply to the owner's message there (`antwoord_op`).
create table taak_berichten (
    id          bigint generated always as identity primary key,
    soort       text not null constraint bericht_soort check (soort in ('dringend', 'dagbericht', 'bevestiging')),
    taak_id     text references agent_taken (id),
    melding_id  bigint unique references taak_meldingen (id),
    tekst       text not null,
    kanaal      text references taak_kanalen (kanaal) on delete cascade,
    antwoord_op bigint,
    aangemaakt  timestamptz not null default now()
);

-- One row per digest time, made by the daemon that sends it: the primary key is why two daemons never both do.
create table taak_dagberichten (
    moment     timestamptz primary key,
    bericht_id bigint references taak_berichten (id),
    machine    text not null,
    laat       boolean not null,
    aangemaakt timestamptz not null default now()
);

-- One message on one channel: sent, or when to try again and why the last try failed.
create table taak_bezorgingen (
    bericht_id      bigint not null references taak_berichten (id) on delete cascade,
    kanaal          text not null references taak_kanalen (kanaal) on delete cascade,
    pogingen        integer not null default 0,
    volgende_poging timestamptz not null default now(),
    laatste_fout    text,
    verstuurd       timestamptz,
    extern_id       text,
    primary key (bericht_id, kanaal)
);
create index taak_bezorgingen_open on taak_bezorgingen (kanaal, volgende_poging) where verstuurd is null;

-- Who reads a two-way channel's updates (Telegram allows one getUpdates reader per bot token): a lease the reader
-- extends while it polls and another daemon takes when it runs out, and the next update to ask for.
create table taak_lezers (
    kanaal          text primary key,
    houder          text,
    lease_tot       timestamptz,
    volgende_update bigint not null default 0
);
