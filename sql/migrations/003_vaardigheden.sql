-- Routing by what a bot is for (issue 41; the advice document's "Taakverdeling vastleggen (Paco = audio, Sjakie =
-- beeld)"): a bot's skills, the words that imply a skill, and what a task needs.

-- The fleet's skills, each spelled as a bot is (taak_botnaam: trimmed, lower case), with the words that imply it
-- for a task that names neither its bot nor its need (taak_nieuw). A skill is known once `taak vaardigheid` named
-- it or `taak bot kan` gave it to a bot; it is never removed (a task may still need it).
create table taak_vaardigheden (
    vaardigheid text primary key constraint vaardigheid_naam check (vaardigheid ~ '^[a-z0-9][a-z0-9_.-]{0,63}$'),
    woorden     text[] not null default '{}'
);

-- What each bot is for (`taak bot kan BOT SKILL ...`): the claim looks up the skills of the claiming bots here.
create table taak_bot_vaardigheden (
    bot         text not null references agent_bots (bot) on update cascade on delete cascade,
    vaardigheid text not null references taak_vaardigheden (vaardigheid),
    primary key (bot, vaardigheid)
);
-- Who has a skill (the owner is told of a need no switched-on bot has).
create index taak_bot_vaardigheden_wie on taak_bot_vaardigheden (vaardigheid);

-- What a task needs (`taak nieuw --nodig`, or implied by a skill's words). A task for a named bot goes to that bot
-- whatever it needs; one for anyone with a need only to a bot that has the skill.
alter table agent_taken add column nodig text references taak_vaardigheden (vaardigheid);

-- The claim walks each skill's waiting tasks for anyone in claim order, as it walks each bot's; the queue for
-- anyone is now only the tasks with no need, so that no claim walks past a backlog of tasks for other skills.
create index agent_taken_claim_nodig on agent_taken (nodig, prioriteit desc, aangemaakt, id)
    where status = 'wachtend' and toegewezen_aan is null and nodig is not null;
drop index agent_taken_claim_iedereen;
create index agent_taken_claim_iedereen on agent_taken (prioriteit desc, aangemaakt, id)
    where status = 'wachtend' and toegewezen_aan is null and nodig is null;

-- The owner is told once per task that it waits for a skill no switched-on bot has (in the digest where there is
-- one).
alter table taak_meldingen drop constraint melding_soort;
alter table taak_meldingen add constraint melding_soort
    check (soort in ('vraag', 'herinnering', 'klaar', 'mislukt', 'uiterlijk', 'escalatie', 'rem', 'vaardigheid'));
