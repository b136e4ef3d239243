-- A bot's name in its one spelling (taak_botnaam) wherever agent_bots is written; agent_taken.toegewezen_aan is kept
-- so by agent_taken_nakijken.
create or replace function taak_botnaam_zetten() returns trigger
language plpgsql as $$
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
create or replace trigger agent_bots_botnaam before insert or update of bot on agent_bots
    for each row execute function taak_botnaam_zetten();
