-- The per-bot switch for the staged rollout (off until the owner turns a bot on) and the
-- daemon's heartbeat: which worker serves the bot, since when, and on which task it is busy.
create table agent_bots (
    bot           text primary key constraint bot_niet_leeg check (bot ~ '^[A-Za-z0-9_.-]+$'),
    actief        boolean not null default false,
    machine       text,
    pid           integer,
    versie        text,
    huidige_taak  text,
    laatst_gezien timestamptz,
    bijgewerkt    timestamptz not null default now()
);
