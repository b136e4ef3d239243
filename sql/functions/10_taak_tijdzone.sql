-- The household's time zone: a session's `taak.tijdzone`, else the one `taak db migrate` stores in taak_instellingen.
-- Asked by every new task's ID and by every claim of a bot with a brake. In plpgsql, whose plan is kept per
-- connection: as SQL it could not be inlined (it holds a subquery), so each statement planned it afresh (90 us a call
-- against 25 us).
create or replace function taak_tijdzone() returns text
language plpgsql stable as $$
begin
    return coalesce(
        nullif(current_setting('taak.tijdzone', true), ''),
        (select waarde from taak_instellingen where sleutel = 'tijdzone'),
        'Europe/Amsterdam');
end
$$;
