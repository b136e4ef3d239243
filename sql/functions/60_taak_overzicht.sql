-- Visibility, measured from outside: the figures `taak overzicht` prints, per bot, as a view the owner can query in
-- Supabase. "Today" is the day in the household's time zone (taak_dag). After taak_sessies, which it reads.
-- Unlike the other views it reads the tables with its owner's rights (no security_invoker), as it always has.
create or replace view taak_overzicht as
with taak as (
    select t.*, coalesce(t.toegewezen_aan, nullif(split_part(t.geclaimd_door, '@', 1), ''), '-') as bot,
           taak_dag(t.afgerond) = taak_dag(now()) as vandaag,
           (select max(l.ts) from agent_taak_log l where l.taak_id = t.id and l.soort = 'vraag') as gevraagd
    from agent_taken t
), per_bot as (
    select bot,
           count(*) filter (where status = 'bezig') as bezig,
           min(lease_tot) filter (where status = 'bezig') as eerste_lease_tot,
           count(*) filter (where status = 'wachtend') as wachtend,
           count(*) filter (where status = 'wacht_op_mens') as wacht_op_mens,
           min(gevraagd) filter (where status = 'wacht_op_mens') as oudste_vraag,
           count(*) filter (where status = 'klaar' and vandaag) as klaar_vandaag,
           count(*) filter (where status = 'mislukt' and vandaag) as mislukt_vandaag,
           count(*) filter (where status = 'klaar') as klaar_totaal
    from taak group by bot
), sessies as (
    select t.bot, count(*) as sessies,
           count(*) filter (where t.status = 'klaar') as sessies_van_klare_taken,
           count(*) filter (where s.logde_stap) as sessies_met_stap
    from taak_sessies s join taak t on t.id = s.taak_id group by t.bot
), kosten as (
    select t.bot, sum((l.meta ->> 'total_cost_usd')::numeric) as kosten_usd, count(distinct l.taak_id) as taken
    from agent_taak_log l join taak t on t.id = l.taak_id
    where l.soort = 'notitie' and l.meta ? 'resultaat' and l.meta ->> 'total_cost_usd' is not null
    group by t.bot
), compacties as (
    select t.bot, sum(c.compacties)::bigint as compacties, sum(c.automatisch)::bigint as compacties_auto,
           (sum(c.compacties) filter (where t.status = 'klaar'))::bigint as compacties_van_klare_taken
    from taak_compacties c join taak t on t.id = c.taak_id
    group by t.bot
), alle_bots as (
    select bot from per_bot union select bot from agent_bots
)
select b.bot,
       coalesce(p.bezig, 0) as bezig,
       greatest(0, extract(epoch from p.eerste_lease_tot - now()))::integer as kortste_lease_seconden,
       coalesce(p.wachtend, 0) as wachtend,
       coalesce(p.wacht_op_mens, 0) as wacht_op_mens,
       extract(epoch from now() - p.oudste_vraag)::integer as oudste_wacht_seconden,
       coalesce(p.klaar_vandaag, 0) as klaar_vandaag,
       coalesce(p.mislukt_vandaag, 0) as mislukt_vandaag,
       round(s.sessies_van_klare_taken::numeric / nullif(p.klaar_totaal, 0), 2) as sessies_per_klare_taak,
       round(s.sessies_met_stap::numeric / nullif(s.sessies, 0), 2) as aandeel_sessies_met_stap,
       coalesce(k.kosten_usd, 0) as kosten_usd,
       round(k.kosten_usd / nullif(k.taken, 0), 4) as kosten_per_taak_usd,
       ab.actief, ab.machine, ab.laatst_gezien,
       ab.laatst_gezien is not null and ab.laatst_gezien < now() - interval '90 seconds' as worker_verouderd,
       coalesce(c.compacties, 0) as compacties,
       coalesce(c.compacties_auto, 0) as compacties_auto,
       round(c.compacties_van_klare_taken::numeric / nullif(p.klaar_totaal, 0), 2) as compacties_per_klare_taak
from alle_bots b
left join per_bot p on p.bot = b.bot
left join sessies s on s.bot = b.bot
left join kosten k on k.bot = b.bot
left join agent_bots ab on ab.bot = b.bot
left join compacties c on c.bot = b.bot
order by b.bot;
