-- The start of today in the household's time zone: where "today" begins for a bot's brake, its urgent questions
-- and the digest. One definition, so that they all count the same day. In plpgsql, as taak_tijdzone is: a claim
-- asks it, and a SQL function here changed the claim's plan (it read hundreds of pages more with a large backlog).
create or replace function taak_dag_begin() returns timestamptz
language plpgsql stable as $$
begin
    return date_trunc('day', now() at time zone taak_tijdzone()) at time zone taak_tijdzone();
end
$$;
