"""The help texts of `taak`'s options and verbs in Dutch: the parsers are written in English, and a Dutch run
(TAAK_LANGUAGE=nl, the default) shows these instead. `tests/unit/test_help_language.py` fails when a help text
has no translation here."""

from __future__ import annotations

HELP_NL = {
    "The task ledger of the bot fleet.": "Het takenregister van de botvloot.",
    "show this help message and exit": "toon deze hulp en stop",
    "create a task; prints only its ID": "maak een taak; print alleen haar ID",
    "take the best waiting task for a bot": "neem de beste wachtende taak voor een bot",
    "append a row to a task's log": "voeg een regel toe aan het log van een taak",
    "finish a held task with evidence": "rond een taak af, met bewijs",
    "the task waits for the owner's answer": "de taak wacht op het antwoord van de eigenaar",
    "the owner answers a task's question": "de eigenaar beantwoordt de vraag van een taak",
    "give a held task back to the queue (the owner: take a lease back by hand)": (
        "geef een taak terug aan de wachtrij (de eigenaar: neem een lease met de hand terug)"
    ),
    "the owner cancels a task (a running session is stopped)": (
        "de eigenaar annuleert een taak (een lopende sessie wordt gestopt)"
    ),
    "set the task's next step": "zet de volgende stap van de taak",
    "show a task and its whole log": "toon een taak en haar hele log",
    "tasks, newest first": "taken, nieuwste eerst",
    "print the briefing a session would get": "print de briefing die een sessie zou krijgen",
    "follow the log live, like tail -f (Ctrl-C ends it)": "volg het log live, zoals tail -f (Ctrl-C stopt)",
    'search the archive, time phrase first: taak recall "last night budget"': (
        'zoek in het archief, tijd eerst: taak recall "gisteravond budget"'
    ),
    "the lossless archive: import, bijwerken, herbouw": "het verliesloze archief: import, bijwerken, herbouw",
    '"where are we now", kept by the owner': '"waar staan we nu", bijgehouden door de eigenaar',
    "the per-bot switch: taak bot aan|uit BOT, taak bot lijst": (
        "de schakelaar per bot: taak bot aan|uit BOT, taak bot lijst"
    ),
    "the machine registry: zet, wie, lijst": "het register van machines: zet, wie, lijst",
    "per bot: held, waiting, done today, sessions, cost, workers": (
        "per bot: bezig, wachtend, klaar vandaag, sessies, kosten, workers"
    ),
    "the old agent_messages queue: voorbeeld (a preview), neem ID (one by hand)": (
        "de oude wachtrij agent_messages: voorbeeld (een voorproef), neem ID (één met de hand)"
    ),
    "the database: migrate, status, stop": "de database: migrate, status, stop",
    "a Claude Code hook handler (reads the hook JSON on stdin)": (
        "een hook voor Claude Code (leest de JSON van de hook op stdin)"
    ),
    "our hooks in ~/.claude/settings.json: install, check": "onze hooks in ~/.claude/settings.json: install, check",
    'add or refresh the "Compact instructions" in a CLAUDE.md': (
        'voeg de "Compact instructions" toe aan een CLAUDE.md, of ververs ze'
    ),
    "the memory folder: taak geheugen check [FOLDER]": "de geheugenmap: taak geheugen check [MAP]",
    "check this machine's setup: ok / warn / fail with the fix": (
        "controleer de inrichting van deze machine: ok / warn / fail, met de oplossing"
    ),
    "the fleet on one web page (optional extra `cockpit`); --link prints the address with its token": (
        "de vloot op één webpagina (optionele extra `cockpit`); --link print het adres met het token"
    ),
    "the instruction, verbatim (unquoted words are joined); - reads stdin": (
        "de opdracht, letterlijk (woorden zonder aanhalingstekens worden samengevoegd); - leest stdin"
    ),
    "the bot that must do it (default: any bot); a known bot": (
        "de bot die het moet doen (standaard: elke bot); een bekende bot"
    ),
    "the --aan bot is new: register it (switched off)": "de bot van --aan is nieuw: registreer hem (uitgeschakeld)",
    "due date: 2026-12-05, '2026-12-05 17:00', morgen, +3d, 2w": (
        "uiterlijk: 2026-12-05, '2026-12-05 17:00', morgen, +3d, 2w"
    ),
    "who asks (default: TAAK_BOT or your user name)": "wie het vraagt (standaard: TAAK_BOT of je gebruikersnaam)",
    "what done means, in plain words": "wat klaar betekent, in gewone woorden",
    "a fixed fact (repeatable)": "een vast gegeven (mag vaker)",
    "the first thing to do": "het eerste wat te doen is",
    "a short title (default: the opdracht's first line)": (
        "een korte titel (standaard: de eerste regel van de opdracht)"
    ),
    "higher is claimed first (default 0)": "hoger wordt eerder genomen (standaard 0)",
    "attempts allowed (default 3)": "toegestane pogingen (standaard 3)",
    "print JSON instead of text": "print JSON in plaats van tekst",
    "a bot to claim for (repeatable)": "een bot om voor te nemen (mag vaker)",
    "the bot is new: register it": "de bot is nieuw: registreer hem",
    "id, lease_token, bot and briefing as JSON": "id, lease_token, bot en briefing als JSON",
    "SOORT, inside a session (with TAAK_TOKEN): bewijs, compact, fout, geblokkeerd, notitie, stap_klaar, vraag; "
    "the lease is extended. Without a token (the owner): antwoord, notitie.": (
        "SOORT, in een sessie (met TAAK_TOKEN): bewijs, compact, fout, geblokkeerd, notitie, stap_klaar, vraag; de "
        "lease wordt verlengd. Zonder token (de eigenaar): antwoord, notitie."
    ),
    "the task (default TAAK_ID), the kind, the text": "de taak (standaard TAAK_ID), de soort, de tekst",
    "the task (default TAAK_ID) and what was done": "de taak (standaard TAAK_ID) en wat er gedaan is",
    "required: a link, a path, a test result (--bewijs=-x)": (
        "verplicht: een link, een pad, een testresultaat (--bewijs=-x)"
    ),
    "the task (default TAAK_ID) and the question": "de taak (standaard TAAK_ID) en de vraag",
    "the task and the answer (- reads it from stdin)": "de taak en het antwoord (- leest het van stdin)",
    "Inside a session: give the task back (the attempt stays used). The owner, without a token: take the lease "
    "back; the attempt is given back, the daemon that runs its session stops it, and then the task can be claimed "
    "again.": (
        "In een sessie: geef de taak terug (de poging blijft gebruikt). De eigenaar, zonder token: neem de lease "
        "terug; de poging wordt teruggegeven, de daemon die de sessie draait stopt haar, en daarna kan de taak "
        "weer genomen worden."
    ),
    "the task (default TAAK_ID)": "de taak (standaard TAAK_ID)",
    "why, for the log": "waarom, voor het log",
    "the task": "de taak",
    "why, for the log (required)": "waarom, voor het log (verplicht)",
    "the task (default TAAK_ID) and the next step": "de taak (standaard TAAK_ID) en de volgende stap",
    "column names as keys, the log under `log`": "kolomnamen als sleutels, het log onder `log`",
    "only tasks with this status": "alleen taken met deze status",
    "only tasks assigned to this bot": "alleen taken voor deze bot",
    "at most this many tasks (default 50)": "hoogstens zoveel taken (standaard 50)",
    "the variant re-injected after a compaction": "de variant die na een compactie opnieuw wordt ingevoegd",
    "only this task": "alleen deze taak",
    "only rows of this bot": "alleen regels van deze bot",
    "rows to show first (default 10)": "regels om eerst te tonen (standaard 10)",
    "a time phrase and words (Dutch, English, Japanese)": "een tijdsaanduiding en woorden (Nederlands, Engels, Japans)",
    "at most this many lines (default 40)": "hoogstens zoveel regels (standaard 40)",
    "only lines of this task": "alleen regels van deze taak",
    "only lines of this bot (the task log) or actor (the archive)": (
        "alleen regels van deze bot (het takenlog) of spreker (het archief)"
    ),
    "search the tools' output (tool results) too": "zoek ook in de uitvoer van de tools",
    "search the task log in the database instead": "zoek in plaats daarvan in het takenlog in de database",
    "search every machine's archive (the copy in the shared database)": (
        "zoek in het archief van elke machine (de kopie in de gedeelde database)"
    ),
    "import transcripts (default: ~/.claude/projects and the daemon's captures)": (
        "importeer transcripten (standaard: ~/.claude/projects en wat de daemon opving)"
    ),
    "import new lines and update the word index": "importeer nieuwe regels en werk de woordindex bij",
    "delete the indexes and rebuild them from the day files": (
        "verwijder de indexen en bouw ze opnieuw uit de dagbestanden"
    ),
    "embed up to TAAK_SEMANTIC_ROWS lines without a vector (the semantic extra), newest first": (
        "maak vectoren voor hoogstens TAAK_SEMANTIC_ROWS regels zonder (de semantische extra), nieuwste eerst"
    ),
    "delete this machine's lines from the fleet's shared copy; the next indexer run copies them all again": (
        "verwijder de regels van deze machine uit de gedeelde kopie; de volgende indexeerronde kopieert ze opnieuw"
    ),
    "transcript files (JSONL)": "transcriptbestanden (JSONL)",
    "the files are {ts, role, text} JSONL": "de bestanden zijn {ts, role, text} JSONL",
    "the counts as one JSON object": "de tellingen als één JSON-object",
    "open a topic; `klaar TOPIC` closes it; `toon`": "open een onderwerp; `klaar ONDERWERP` sluit het; `toon`",
    "let the daemons claim for this bot": "laat de daemons voor deze bot taken nemen",
    "claim nothing new for this bot": "neem niets nieuws voor deze bot",
    "the bot's brake per day: at most this many sessions and this much cost": (
        "de rem van de bot per dag: hoogstens zoveel sessies en zoveel kosten"
    ),
    "every bot with its switch, heartbeat and brake": "elke bot met zijn schakelaar, hartslag en rem",
    "the bot's name (a known bot)": "de naam van de bot (een bekende bot)",
    "At the limit the daemons claim nothing for the bot until local midnight and tell the owner once. A bot "
    "starts with at most 50 sessions a day and no cost limit; `geen` removes a limit.": (
        "Bij de grens nemen de daemons tot middernacht niets meer voor de bot en melden het één keer aan de "
        "eigenaar. Een bot begint met hoogstens 50 sessies per dag en geen kostengrens; `geen` haalt een grens weg."
    ),
    "sessions started per day, or geen": "sessies per dag, of geen",
    "cost per day in dollars (the sessions' result rows), or geen": (
        "kosten per dag in dollars (de resultaatregels van de sessies), of geen"
    ),
    "add or update a machine": "voeg een machine toe of werk haar bij",
    "all the names of the machine a name or alias stands for": (
        "alle namen van de machine waar een naam of alias voor staat"
    ),
    "every machine with all its names": "elke machine met al haar namen",
    "the machine's name": "de naam van de machine",
    "another name for it (repeatable)": "nog een naam ervoor (mag vaker)",
    "its LAN IP": "haar IP op het thuisnetwerk",
    "a bot that runs there (repeatable)": "een bot die daar draait (mag vaker)",
    "a name or alias": "een naam of alias",
    "what the intake would make of every message; changes nothing": (
        "wat de intake van elk bericht zou maken; verandert niets"
    ),
    "pull in one message by its ID, whatever its age or status": (
        "haal één bericht binnen op zijn ID, wat zijn leeftijd of status ook is"
    ),
    "only messages addressed to this bot": "alleen berichten voor deze bot",
    "the message's ID in agent_messages": "het ID van het bericht in agent_messages",
    "the bot it is for (default: its recipient; a known bot)": (
        "de bot voor wie het is (standaard: de ontvanger; een bekende bot)"
    ),
    "that bot is new: register it": "die bot is nieuw: registreer hem",
    "apply pending migrations": "voer de openstaande migraties uit",
    "list applied and pending migrations": "toon de uitgevoerde en openstaande migraties",
    "stop the embedded server (it is otherwise left running)": "stop de ingebouwde server (anders blijft hij draaien)",
    "the owner's bot_heartbeats: who can write it, and row-level security by your decision": (
        "bot_heartbeats van de eigenaar: wie erin mag schrijven, en row-level security als jij dat beslist"
    ),
    "Shows whether row-level security is on for bot_heartbeats, who may write and delete it today, and the "
    "statements --beveilig would run. With --beveilig it runs them: every role that writes today gets its own "
    "select, insert and update policies (the bots keep working), delete and truncate are taken from everyone but "
    "the owner, and row-level security is switched on. Migrating never does this.": (
        "Toont of row-level security aan staat voor bot_heartbeats, wie er vandaag in mag schrijven en wissen, en "
        "de opdrachten die --beveilig zou uitvoeren. Met --beveilig voert het ze uit: elke rol die er vandaag in "
        "schrijft krijgt eigen policies voor select, insert en update (de bots blijven werken), delete en "
        "truncate worden iedereen behalve de eigenaar afgenomen, en row-level security gaat aan. Migreren doet "
        "dit nooit."
    ),
    "switch row-level security on, with those policies": "zet row-level security aan, met die policies",
    "session-start, pre-compact, post-compact, prompt": "session-start, pre-compact, post-compact, prompt",
    "merge the hooks in (backup first; twice changes nothing)": (
        "voeg de hooks in (eerst een reservekopie; twee keer verandert niets)"
    ),
    "list hook commands whose script is missing, and old hooks that do our work a second way": (
        "toon hooks waarvan het script ontbreekt, en oude hooks die ons werk nog eens op een andere manier doen"
    ),
    "print the result, write nothing": "print het resultaat, schrijf niets",
    "the settings file (default TAAK_CLAUDE_SETTINGS)": "het instellingenbestand (standaard TAAK_CLAUDE_SETTINGS)",
    "remove them (after a backup)": "verwijder ze (na een reservekopie)",
    "default ~/.claude/CLAUDE.md": "standaard ~/.claude/CLAUDE.md",
    "write it (otherwise print the result)": "schrijf het (anders wordt het resultaat geprint)",
    "MEMORY.md size, what reaches a session, unindexed files": (
        "grootte van MEMORY.md, wat een sessie bereikt, bestanden zonder index"
    ),
    "default TAAK_MEMORY_DIR": "standaard TAAK_MEMORY_DIR",
    "where to listen (default 127.0.0.1)": "waar te luisteren (standaard 127.0.0.1)",
    "the port, 1 to 65535 (default 8765)": "de poort, 1 tot 65535 (standaard 8765)",
    "print the address with the token, to open once, and stop": (
        "print het adres met het token, om één keer te openen, en stop"
    ),
    # queue-worker
    "Claims tasks for this machine's bots and runs them.": "Neemt taken voor de bots van deze machine en voert ze uit.",
    "process at most one task, then exit": "hoogstens één taak, dan stoppen",
    "show the whole flow with a scripted agent (no Claude account needed)": (
        "laat de hele gang zien met een agent die een script volgt (geen Claude-account nodig)"
    ),
    "the systemd unit or launchd agent for a bot: install, status, uninstall": (
        "de systemd-unit of launchd-agent van een bot: install, status, uninstall"
    ),
    "script: the small agent that ships with the package (default); claude: the real Claude Code CLI": (
        "script: de kleine agent die met het pakket meekomt (standaard); claude: de echte Claude Code CLI"
    ),
    "write it for this machine and print how to load it": "schrijf hem voor deze machine en print hoe je hem laadt",
    "is it installed, and is it running": "is hij geïnstalleerd, en draait hij",
    "stop it, disable it and remove its file (the settings file is kept)": (
        "stop hem, zet hem uit en verwijder zijn bestand (het instellingenbestand blijft)"
    ),
    "print the file instead of writing it": "print het bestand in plaats van het te schrijven",
    "a system unit (Linux, installed as root) that runs as --user": (
        "een systeemunit (Linux, geïnstalleerd als root) die draait als --user"
    ),
    "with --system: the user it runs as (never root)": "met --system: de gebruiker als wie hij draait (nooit root)",
    "the bot this service serves": "de bot die deze service bedient",
    "default: this machine's": "standaard: die van deze machine",
    "the system unit (Linux) instead of the user unit": "de systeemunit (Linux) in plaats van de gebruikersunit",
    "say what would be done, do nothing": "zeg wat er zou gebeuren, doe niets",
}
