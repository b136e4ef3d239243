-- The fleet's copy of the archive knows which day file each line came from (issue 15): a day file that was
-- edited is indexed again on its machine, and its lines in the shared copy are then replaced, instead of the
-- old text staying beside the new. Rows copied before this migration carry no file name and stay as they are.
alter table taak_archief add column bestand text;
create index taak_archief_bestand on taak_archief (machine, bestand);
