"""The cockpit's HTML: Jinja2 with autoescaping on, so every value from the database (an opdracht can hold
HTML or script) is text on the page. One column below 700 px, for the phone, where a table of
class `cards` shows a card per row (STYLE)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from worker.core.phrases import area_words
from worker.core.terminal import printable

STYLE = """
body { font: 15px/1.4 system-ui, sans-serif; margin: 0; color: #222; background: #f6f6f4; }
header { background: #24323f; color: #fff; padding: .6em 1em; }
header a { color: #fff; text-decoration: none; font-weight: 600; }
main { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 1em; padding: 1em; }
section { background: #fff; border-radius: 6px; padding: .8em 1em; box-shadow: 0 1px 2px #0002; min-width: 0; }
section.wide { grid-column: 1 / -1; }
h2, h3, p { overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .25em .5em; border-bottom: 1px solid #eee; vertical-align: top; }
td { overflow-wrap: anywhere; }
td.num { text-align: right; }
tr.log-row td:not(:last-child) { white-space: nowrap; }
a.id, .id { white-space: nowrap; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f3f3f0; padding: .6em; border-radius: 4px; }
.stale { color: #b03a5b; font-weight: 600; }
.status-wacht_op_mens { color: #b03a5b; font-weight: 600; }
.status-bezig { color: #2f6fb0; }
form.inline { display: inline; }
form.field { margin: .6em 0; }
label { display: block; font-weight: 600; margin: .3em 0 .15em; }
.asked { border-left: 3px solid #d9822b; background: #fff7ec; }
textarea, input[type=text] { width: 100%; box-sizing: border-box; font: inherit; }
button { font: inherit; padding: .3em .8em; margin: .2em 0; white-space: nowrap; }
.chart { width: 100%; max-width: 480px; height: auto; display: block; }
.chart-title { font-size: 14px; font-weight: 600; }
.chart-axis { font-size: 12px; fill: #444; }
.message { background: #fff7d6; padding: .5em 1em; margin: 1em; border-radius: 4px; white-space: pre-line; }
/* Below a phone's width: one column, and a table of class "cards" becomes one card per row, each cell under its
   column's name (data-label), so that nothing needs sideways scrolling. */
@media (max-width: 700px) {
  main { grid-template-columns: minmax(0, 1fr); padding: .5em; gap: .5em; }
  section { padding: .6em .7em; }
  table.cards thead { display: none; }
  table.cards, table.cards tbody, table.cards tr { display: block; }
  table.cards tr { border: 1px solid #e3e3df; border-radius: 6px; padding: .3em .5em; margin: 0 0 .6em; }
  table.cards th.card-title { display: block; border: 0; padding: .2em 0; font-size: 1.05em; }
  table.cards td { display: flex; flex-wrap: wrap; gap: .8em; justify-content: space-between; border: 0;
                   padding: .15em 0; text-align: right; }
  table.cards td[data-label]::before { content: attr(data-label); color: #666; text-align: left; flex: none; }
  table.cards td.card-text { display: block; text-align: left; }
  table.cards td.card-text::before { display: block; }
  table.cards td.card-action { justify-content: flex-end; }
  /* A log row: when, kind and who on one line that wraps, the text under them at the page's width. */
  tr.log-row { display: block; border-bottom: 1px solid #eee; padding: .3em 0; }
  tr.log-row td, tr.log-row td:not(:last-child) { display: inline; border: 0; padding: 0 .5em 0 0;
                                                   white-space: normal; }
  tr.log-row td:last-child { display: block; padding: .15em 0 0; }
}
ul.cards { list-style: none; margin: 0; padding: 0; }
li.card { border: 1px solid #ddd; border-radius: 6px; padding: .5em .7em; margin: .5em 0; overflow-wrap: anywhere; }
li.card label { display: block; }
li.card input[type=checkbox] { width: 1.3em; height: 1.3em; vertical-align: middle; margin-right: .4em; }
li.card p { margin: .3em 0 0; }
.sample, .ids { color: #555; }
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
        w=area_words("cockpit", language),  # the page's own words
        language=language,
        style=STYLE,
        live_log=LIVE_LOG,
        message=values.pop("message", None),
        **values,
    )
