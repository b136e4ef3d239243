-- The machine registry: one name, many aliases (each alias belongs to exactly one machine, whatever its
-- case), the LAN IP, and the bots that run there. "McMini Veranda" and "keukenhof-veranda" are one machine.
create table machines (
    naam       text primary key constraint machine_naam_niet_leeg check (naam ~ '[^[:space:]]'),
    ip         inet,
    bots       text[] not null default '{}',
    bijgewerkt timestamptz not null default now()
);
create unique index machines_naam_lower on machines (lower(naam));

create table machine_aliassen (
    alias  text primary key constraint alias_niet_leeg check (alias ~ '[^[:space:]]'),
    machine text not null references machines (naam) on update cascade on delete cascade
);
create unique index machine_aliassen_lower on machine_aliassen (lower(alias));

-- A name and an alias are looked up alike, so neither may shadow the other across machines.
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
create trigger machine_alias_vrij before insert or update on machine_aliassen
    for each row execute function machine_naam_vrij();
create trigger machine_naam_vrij before insert or update on machines
    for each row execute function machine_naam_vrij();
