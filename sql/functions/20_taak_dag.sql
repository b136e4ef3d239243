-- A moment's day in a time zone, by default the household's (taak_tijdzone()): the one way the per-day overview and
-- the old queue's days say which day a row belongs to (the per-day overview passes the run's TAAK_TIMEZONE, as the
-- cockpit's pictures do). As SQL, so a statement inlines it.
create or replace function taak_dag(moment timestamptz, zone text default null) returns date
language sql stable as $$
    select (moment at time zone coalesce(zone, taak_tijdzone()))::date
$$;
