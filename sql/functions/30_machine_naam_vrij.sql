-- A machine's name and an alias are looked up alike, so neither may shadow the other across machines
-- ("McMini Veranda" and "keukenhof-veranda" are one machine).
create or replace function machine_naam_vrij() returns trigger
language plpgsql as $$
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
create or replace trigger machine_alias_vrij before insert or update on machine_aliassen
    for each row execute function machine_naam_vrij();
create or replace trigger machine_naam_vrij before insert or update on machines
    for each row execute function machine_naam_vrij();
