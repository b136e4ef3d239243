-- The old, dead agent_tasks table is archived with all its rows, never dropped: renaming keeps
-- every row and makes plain that nothing should write to it any more.
do $$
declare
    doel text := 'agent_tasks_archief';
begin
    if to_regclass('public.agent_tasks') is null then
        return;
    end if;
    if to_regclass('public.' || doel) is not null then
        doel := doel || '_' || to_char(clock_timestamp(), 'YYYYMMDDHH24MISS');
    end if;
    execute format('alter table public.agent_tasks rename to %I', doel);
    execute format('comment on table public.%I is %L', doel,
        'archived by taak migration 002: replaced by agent_taken');
end
$$;
