-- The log is append-only: UPDATE, DELETE and TRUNCATE are refused, whoever asks.
create or replace function agent_taak_log_alleen_bijschrijven() returns trigger
language plpgsql as $$
begin
    raise exception 'agent_taak_log is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
end
$$;
create or replace trigger agent_taak_log_geen_wijziging before update or delete on agent_taak_log
    for each row execute function agent_taak_log_alleen_bijschrijven();
create or replace trigger agent_taak_log_geen_truncate before truncate on agent_taak_log
    for each statement execute function agent_taak_log_alleen_bijschrijven();
