-- Is a task ID's date one the calendar has? The taak command refuses to name HV-20260230-001, so no such task may get
-- in (a claim of one failed after the claim).
create or replace function taak_id_datum_bestaat(id text) returns boolean
language sql immutable strict as $$
    -- Called after agent_taken_nakijken's shape check: four digits, a month 01-12 and a day 01-31. Year 0 is no
    -- year; a day past its month's end gives another date back.
    select case
        when substr(id, 4, 4)::integer < 1 then false
        else to_char(make_date(substr(id, 4, 4)::integer, substr(id, 8, 2)::integer, 1)
                     + (substr(id, 10, 2)::integer - 1), 'YYYYMMDD') = substr(id, 4, 8)
    end
$$;
