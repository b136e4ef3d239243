-- One task locked until the caller's transaction ends (the intake decides on its status): FOR UPDATE needs the
-- right to update, which a daemon no longer has on the table itself.
create or replace function taak_vergrendeld(taak text) returns setof agent_taken
language plpgsql security definer set search_path = public, pg_temp as $$
begin
    return query select * from agent_taken t where t.id = $1 for update;
end
$$;
