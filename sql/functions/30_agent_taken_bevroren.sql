-- id, opdracht, opdrachtgever and aangemaakt never change: a clarification is a new log row. An UPDATE OF trigger
-- with a WHEN clause, so a statement that names none of them (every claim, lease and finish) pays nothing for it.
create or replace function agent_taken_bevroren() returns trigger
language plpgsql as $$
begin
    raise exception 'agent_taken: id, opdracht, opdrachtgever and aangemaakt are frozen (task %): '
        'a clarification is a new log row', old.id using errcode = 'check_violation';
end
$$;
create or replace trigger agent_taken_bevroren before update of id, opdracht, opdrachtgever, aangemaakt on agent_taken
    for each row
    when (new.id is distinct from old.id
          or new.opdracht is distinct from old.opdracht
          or new.opdrachtgever is distinct from old.opdrachtgever
          or new.aangemaakt is distinct from old.aangemaakt)
    execute function agent_taken_bevroren();
