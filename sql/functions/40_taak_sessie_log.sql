-- A fenced operation for a session (the role taak_sessie, which has no right on any table): the token must be the
-- task's current one, or nothing happens.
create or replace function taak_sessie_log(taak text, token uuid, soort text, tekst text) returns bigint
language plpgsql security definer set search_path = public, pg_temp as $$
declare
    regel bigint;
begin
    if soort not in ('stap_klaar', 'geblokkeerd', 'vraag', 'bewijs', 'fout', 'compact', 'notitie') then
        raise exception 'a session cannot log %', soort using errcode = 'insufficient_privilege';
    end if;
    update agent_taken set lease_tot = greatest(lease_tot, now() + make_interval(secs => taak_lease_seconden())),
                           bijgewerkt = now()
    where id = taak and status = 'bezig' and lease_token = token;
    if not found then
        raise exception 'task %: this lease token is not current', taak using errcode = 'insufficient_privilege';
    end if;
    insert into agent_taak_log (taak_id, soort, tekst) values (taak, soort, tekst) returning id into regel;
    return regel;
end
$$;
