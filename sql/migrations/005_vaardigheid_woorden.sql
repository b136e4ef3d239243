-- A word that implies a skill belongs to one skill (issue 41, the outside try: `foto` of beeld and of aaa2 was
-- decided by the skills' names, and "Plaats foto 3" needed aaa2, which no bot had). One row a word, the word its
-- key: no word can imply two skills. A word is kept in the form taak_nieuw matches a task's text in (NFKC, lower
-- case: `ｆｏｔｏ` is foto, an é typed as e and an accent is é), letters and digits of 3 to 64 characters (a
-- single letter began half the words of a task), never `geen` (the keyword that clears the words).
create table taak_vaardigheid_woorden (
    woord       text primary key constraint vaardigheid_woord check (
                    woord = lower(normalize(woord, NFKC)) and woord !~ '[^[:alnum:]]' and char_length(woord) between 3 and 64
                    and woord <> 'geen'),
    vaardigheid text not null references taak_vaardigheden (vaardigheid) on update cascade on delete cascade
);
create index taak_vaardigheid_woorden_van on taak_vaardigheid_woorden (vaardigheid);

-- The words of before, each in that form, kept by the skill that decided it then (the first by name); a word that is
-- no longer one (a letter, `geen`) is let go.
insert into taak_vaardigheid_woorden (woord, vaardigheid)
select distinct on (w.woord) w.woord, w.vaardigheid
from (select lower(normalize(u.woord, NFKC)) as woord, v.vaardigheid
      from taak_vaardigheden v cross join unnest(v.woorden) as u (woord)) w
where w.woord !~ '[^[:alnum:]]' and char_length(w.woord) between 3 and 64 and w.woord <> 'geen'
order by w.woord, w.vaardigheid;
alter table taak_vaardigheden drop column woorden;

-- `geen` is the keyword for no skill (`taak bot kan BOT --geen`, `--woorden geen`), never a skill's name. A skill
-- called so before this stays (a task may need it); no new one is.
alter table taak_vaardigheden add constraint vaardigheid_niet_geen check (vaardigheid <> 'geen') not valid;
