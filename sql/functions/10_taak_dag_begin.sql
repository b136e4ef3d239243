-- The start of today in the household's time zone: where "today" begins for a bot's brake, its urgent questions
-- and the digest. The day is taak_dag's (plpgsql looks it up when it runs), so that they all count the overview's
-- day. In plpgsql, as taak_tijdzone is: a claim asks it, and a SQL function here changed the claim's plan (it read
-- hundreds of pages more with a large backlog).
create or replace function taak_dag_begin() returns timestamptz
language plpgsql stable as $$
begin
    return taak_dag(now())::timestamp at time zone taak_tijdzone();
end
$$;
