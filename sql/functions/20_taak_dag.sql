-- A moment's day in the household's time zone (taak_tijdzone()): the one way the per-day overview and its views
-- say which day a row belongs to. As SQL, so a statement inlines it.
create or replace function taak_dag(moment timestamptz) returns date
language sql stable as $$
    select (moment at time zone taak_tijdzone())::date
$$;
