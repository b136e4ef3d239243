-- `taak recall --taken` searches the task log by time first: that range walks this index.
create index agent_taak_log_ts on agent_taak_log (ts);
