-- A fenced operation for a session (the role taak_sessie, which has no right on any table): the token must be the
-- task's current one, or nothing happens.
create or replace function taak_sessie_blokkeer(taak text, token uuid, vraag text) returns void
language plpgsql security definer set search_path = public, pg_temp as $$
begin
    update agent_taken set status = 'wacht_op_mens', lease_tot = null, lease_token = null, bijgewerkt = now()
    where id = taak and status = 'bezig' and lease_token = token;
    if not found then
        raise exception 'task %: this lease token is not current', taak using errcode = 'insufficient_privilege';
    end if;
    insert into agent_taak_log (taak_id, soort, tekst) values (taak, 'vraag', vraag);
end
$$;
