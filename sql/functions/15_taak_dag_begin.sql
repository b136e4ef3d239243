-- (After 10_taak_tijdzone: a SQL function's body is checked when it is made.)
-- The start of today in the household's time zone: where "today" begins for a bot's brake, its urgent questions
-- and the digest. One definition, so that they all count the same day.
create or replace function taak_dag_begin() returns timestamptz
language sql stable as $$
    select date_trunc('day', now() at time zone taak_tijdzone()) at time zone taak_tijdzone()
$$;
