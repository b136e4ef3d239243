-- The old queue table, when it exists, learns which task each message became (task_id) and what it
-- answered (parent_id). Nullable, so the old worker and every existing row are unaffected.
do $$
begin
    if to_regclass('public.agent_messages') is not null then
        alter table public.agent_messages add column if not exists task_id text;
        alter table public.agent_messages add column if not exists parent_id text;
    end if;
end
$$;
