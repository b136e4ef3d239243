-- A fenced operation for a session (the role taak_sessie, which has no right on any table): the token must be the
-- task's current one, or nothing happens.
create or replace function taak_sessie_klaar(taak text, token uuid, bewijs text, tekst text default '') returns void
language plpgsql security definer set search_path = public, pg_temp as $$
begin
    update agent_taken set status = 'klaar', bewijs = taak_sessie_klaar.bewijs, afgerond = now(), lease_tot = null,
                           lease_token = null, bijgewerkt = now()
    where id = taak and status = 'bezig' and lease_token = token;
    if not found then
        raise exception 'task %: this lease token is not current', taak using errcode = 'insufficient_privilege';
    end if;
    insert into agent_taak_log (taak_id, soort, tekst, meta)
    values (taak, 'klaar', coalesce(tekst, ''), jsonb_build_object('bewijs', taak_sessie_klaar.bewijs));
end
$$;
