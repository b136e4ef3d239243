"""The cockpit's HTML: Jinja2 with autoescaping on, so every value from the database (an opdracht can hold
HTML or script) is text on the page. One column below 700 px, for the phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from worker.core.terminal import printable

WORDS: dict[str, dict[str, str]] = {
    "nl": {
        "board": "Overzicht",
        "bot": "bot",
        "on": "aan",
        "off": "uit",
        "machine": "machine",
        "task": "taak",
        "lease_left": "lease nog",
        "heartbeat": "laatst gezien",
        "stale": "VEROUDERD",
        "done_today": "klaar vandaag",
        "failed_today": "mislukt vandaag",
        "waiting_owner": "wacht op jou",
        "cost_today": "kosten vandaag",
        "tasks": "Taken",
        "status": "status",
        "age": "leeftijd",
        "due": "uiterlijk",
        "attempts": "pogingen",
        "title": "titel",
        "switch_on": "zet aan",
        "switch_off": "zet uit",
        "opdracht": "Opdracht",
        "klaar_wanneer": "Klaar wanneer",
        "context": "Context",
        "log": "Log",
        "briefing": "Briefing",
        "compactions": "Compacties",
        "sessions": "Sessies",
        "answer": "Antwoord",
        "send_answer": "Stuur antwoord",
        "note": "Notitie",
        "add_note": "Voeg toe",
        "cancel": "Annuleer",
        "reason": "reden",
        "take_back": "Neem de lease terug",
        "pictures": "Per dag",
        "finished_failed": "klaar en mislukt per dag",
        "cost_per_day": "kosten per dag",
        "sessions_per_task": "sessies per klare taak",
        "none": "geen",
        "back": "terug naar het overzicht",
        "cost": "kosten",
        "turns": "beurten",
        "started": "gestart",
        "done_label": "klaar",
        "failed_label": "mislukt",
        "login": "Geef het token: open de link die `taak cockpit --link{options}` geeft.",
        "bad_request": "Geweigerd",
        "not_found": "Niet gevonden",
        "no_such_page": "Deze pagina bestaat niet.",
        "not_allowed": "Niet toegestaan",
        "no_such_action": "Deze cockpit kent geen actie {action}.",
        "csrf_refused": "Dit formulier kwam niet van deze cockpit (CSRF): laad de pagina opnieuw en probeer het weer.",
        "no_such_request": "Deze pagina neemt zo'n verzoek niet aan.",
        "database_away": "Database niet bereikbaar",
        "try_again": "Laad de pagina opnieuw zodra de database terug is; de cockpit verbindt dan vanzelf weer.",
    },
    "en": {
        "board": "Board",
        "bot": "bot",
        "on": "on",
        "off": "off",
        "machine": "machine",
        "task": "task",
        "lease_left": "lease left",
        "heartbeat": "last seen",
        "stale": "STALE",
        "done_today": "done today",
        "failed_today": "failed today",
        "waiting_owner": "waiting for you",
        "cost_today": "cost today",
        "tasks": "Tasks",
        "status": "status",
        "age": "age",
        "due": "due",
        "attempts": "attempts",
        "title": "title",
        "switch_on": "switch on",
        "switch_off": "switch off",
        "opdracht": "Instruction (opdracht)",
        "klaar_wanneer": "Done when",
        "context": "Context",
        "log": "Log",
        "briefing": "Briefing",
        "compactions": "Compactions",
        "sessions": "Sessions",
        "answer": "Answer",
        "send_answer": "Send answer",
        "note": "Note",
        "add_note": "Add",
        "cancel": "Cancel",
        "reason": "reason",
        "take_back": "Take the lease back",
        "pictures": "Per day",
        "finished_failed": "done and failed per day",
        "cost_per_day": "cost per day",
        "sessions_per_task": "sessions per finished task",
        "none": "none",
        "back": "back to the board",
        "cost": "cost",
        "turns": "turns",
        "started": "started",
        "done_label": "done",
        "failed_label": "failed",
        "login": "A token is needed: open the link `taak cockpit --link{options}` prints.",
        "bad_request": "Refused",
        "not_found": "Not found",
        "no_such_page": "There is no such page.",
        "not_allowed": "Not allowed",
        "no_such_action": "This cockpit has no action {action}.",
        "csrf_refused": "This form did not come from this cockpit (CSRF): load the page again and try once more.",
        "no_such_request": "This page does not take such a request.",
        "database_away": "Database unreachable",
        "try_again": "Reload the page once the database is back; the cockpit connects again by itself.",
    },
}

STYLE = """
body { font: 15px/1.4 system-ui, sans-serif; margin: 0; color: #222; background: #f6f6f4; }
header { background: #24323f; color: #fff; padding: .6em 1em; }
header a { color: #fff; text-decoration: none; font-weight: 600; }
main { display: grid; grid-template-columns: 1fr 1fr; gap: 1em; padding: 1em; }
section { background: #fff; border-radius: 6px; padding: .8em 1em; box-shadow: 0 1px 2px #0002; overflow-x: auto; }
section.wide { grid-column: 1 / -1; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .25em .5em; border-bottom: 1px solid #eee; vertical-align: top; }
td.num { text-align: right; }
pre { white-space: pre-wrap; word-break: break-word; background: #f3f3f0; padding: .6em; border-radius: 4px; }
.stale { color: #b03a5b; font-weight: 600; }
.status-wacht_op_mens { color: #b03a5b; font-weight: 600; }
.status-bezig { color: #2f6fb0; }
form.inline { display: inline; }
textarea, input[type=text] { width: 100%; box-sizing: border-box; font: inherit; }
button { font: inherit; padding: .3em .8em; margin: .2em 0; }
.chart { width: 100%; height: auto; }
.chart-title { font-size: 13px; font-weight: 600; }
.chart-axis { font-size: 10px; fill: #555; }
.message { background: #fff7d6; padding: .5em 1em; margin: 1em; border-radius: 4px; }
@media (max-width: 700px) { main { grid-template-columns: 1fr; padding: .5em; } }
"""

LIVE_LOG = """
(function () {
  var body = document.getElementById('log-rows');
  if (!body) { return; }
  var after = Number(body.dataset.after);
  function poll() {
    fetch(body.dataset.source + '?na=' + after, {credentials: 'same-origin'})
      .then(function (r) { return r.ok ? r.json() : []; })
      .then(function (rows) {
        rows.forEach(function (row) {
          var tr = document.createElement('tr');
          tr.className = 'log-row';
          [row.ts, row.soort, row.bot, row.tekst].forEach(function (value) {
            var td = document.createElement('td');
            td.textContent = value;  // text, never HTML
            tr.appendChild(td);
          });
          body.appendChild(tr);
          after = Math.max(after, row.id);
        });
      })
      .catch(function () {})
      .finally(function () { setTimeout(poll, 2000); });
  }
  setTimeout(poll, 2000);
})();
"""

ENVIRONMENT = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
    # Every value from the database is text, whatever it holds, and shows no control character raw; only the
    # pictures drawn here (marked safe) pass as they are.
    autoescape=True,
    finalize=lambda value: value if isinstance(value, Markup) or not isinstance(value, str) else printable(value),
    undefined=jinja2.StrictUndefined,
)


def render(name: str, language: str, **values: Any) -> str:
    return ENVIRONMENT.get_template(name).render(
        w=WORDS[language],
        language=language,
        style=STYLE,
        live_log=LIVE_LOG,
        message=values.pop("message", None),
        **values,
    )
