-- Wake the daemons when a new task can be claimed: after the insert, which then surely happened (an insert can
-- still turn into nothing, ON CONFLICT DO NOTHING). A task put back in the queue: agent_taken_nakijken. The notice
-- says whose task it is, so that a daemon wakes only for one it could win (worker/core/wake.py).
create or replace function agent_taken_meld_wachtend() returns trigger
language plpgsql as $$
begin
    perform pg_notify('taak_nieuw', json_build_object(
        'id', new.id, 'toegewezen_aan', new.toegewezen_aan, 'nodig', new.nodig, 'niet_voor', new.niet_voor)::text);
    return null;
end
$$;
create or replace trigger agent_taken_meld_nieuw after insert on agent_taken
    for each row when (new.status = 'wachtend')
    execute function agent_taken_meld_wachtend();
