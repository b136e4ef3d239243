-- A task's ID, HV-YYYYMMDD-NNN: the day in the household's time zone and a counter per day that grows past 999 and
-- never hands a number out twice (the row lock of the upsert makes concurrent inserts take turns). It runs with its
-- owner's rights (nobody else may touch agent_taak_teller), and it skips a number that is taken: a row planted with
-- the next ID used to fail every insert after it for the whole day. It is agent_taken.id's default, set here beside it.
create or replace function taak_volgend_id(moment timestamptz default now()) returns text
language plpgsql volatile security definer set search_path = public, pg_temp as $$
declare
    lokale_dag date := (moment at time zone taak_tijdzone())::date;
    nummer integer;
    kandidaat text;
begin
    loop
        insert into agent_taak_teller as t (dag, laatste) values (lokale_dag, 1)
        on conflict (dag) do update set laatste = t.laatste + 1
        returning laatste into nummer;
        kandidaat := 'HV-' || to_char(lokale_dag, 'YYYYMMDD') || '-'
                     || lpad(nummer::text, greatest(3, length(nummer::text)), '0');
        exit when not exists (select 1 from agent_taken where id = kandidaat);
    end loop;
    return kandidaat;
end
$$;
alter table agent_taken alter column id set default taak_volgend_id();
