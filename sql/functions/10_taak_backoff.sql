-- How long a task waits before its next attempt: doubling per attempt used, capped.
-- One formula for the reaper and for the daemon's outcome policy, so they never disagree.
create or replace function taak_backoff(pogingen integer, basis_seconden double precision, max_seconden double precision)
returns interval
language sql immutable as $$
    select make_interval(secs => least(max_seconden, basis_seconden * power(2, greatest(pogingen - 1, 0))))
$$;
