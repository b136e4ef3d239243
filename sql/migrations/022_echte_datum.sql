-- A task ID's date is one the calendar has (issue 16). 021 let in a month 01-12 and a day 01-31, so
-- HV-20260230-001 still got in, and the taak command, which refuses an ID with a date that cannot be, could then
-- not name it (a claim of it failed after the claim). A trigger of its own, on insert only: the ID never changes
-- afterwards (agent_taken_bevroren), and a CHECK constraint would be tested again on every update of every row,
-- old rows too.

create or replace function taak_id_datum_bestaat(id text) returns boolean
language sql immutable strict as $$
    -- Called after 021's shape check: four digits, a month 01-12 and a day 01-31. Year 0 is no year; a day past
    -- its month's end gives another date back.
    select case
        when substr(id, 4, 4)::integer < 1 then false
        else to_char(make_date(substr(id, 4, 4)::integer, substr(id, 8, 2)::integer, 1)
                     + (substr(id, 10, 2)::integer - 1), 'YYYYMMDD') = substr(id, 4, 8)
    end
$$;

create or replace function agent_taken_id_datum() returns trigger
language plpgsql as $$
begin
    if not taak_id_datum_bestaat(new.id) then
        raise exception 'new row for relation "agent_taken" violates check constraint "agent_taken_id_check"'
            using errcode = 'check_violation', constraint = 'agent_taken_id_check', table = 'agent_taken',
                  detail = 'a task ID is HV-YYYYMMDD-NNN, with a real date';
    end if;
    return new;
end
$$;

-- Named to run after agent_taken_nakijken (triggers of one event run in name order), so the shape is known.
drop trigger if exists agent_taken_nakijken_datum on agent_taken;
create trigger agent_taken_nakijken_datum before insert on agent_taken
    for each row execute function agent_taken_id_datum();
