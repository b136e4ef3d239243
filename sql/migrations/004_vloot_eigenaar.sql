-- The owner's name, one for the whole fleet (issue 41): the name on the rows the owner writes (opdrachtgever, an
-- answer, a note, a cancellation), the same on every machine, set with `taak eigenaar zet NAME`. One row at most;
-- without it each machine says TAAK_OWNER, else its OS user.
create table taak_vloot_eigenaar (
    een   boolean primary key default true constraint vloot_eigenaar_een_rij check (een),
    naam  text not null constraint vloot_eigenaar_naam
          check (naam ~ '[^[:space:]]' and naam !~ '[[:cntrl:]]' and naam = btrim(naam) and length(naam) <= 64),
    gezet timestamptz not null default now()
);
