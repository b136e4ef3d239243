-- One spelling of a bot: trimmed and lower case, on every way in (`Paco ` is paco).
create or replace function taak_botnaam(naam text) returns text
language sql immutable as $$
    select lower(btrim(naam, E' \t\r\n'))
$$;
