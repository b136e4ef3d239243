"""The cockpit's HTML: Jinja2 with autoescaping on, so every value from the database (an opdracht can hold
HTML or script) is text on the page. One column below 700 px, for the phone."""

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
ul.cards { list-style: none; margin: 0; padding: 0; }
li.card { border: 1px solid #ddd; border-radius: 6px; padding: .5em .7em; margin: .5em 0; overflow-wrap: anywhere; }
li.card label { display: block; }
li.card input[type=checkbox] { width: 1.3em; height: 1.3em; vertical-align: middle; margin-right: .4em; }
li.card p { margin: .3em 0 0; }
.sample { color: #555; }
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
        w=area_words("cockpit", language),  # the page's own words
        language=language,
        style=STYLE,
        live_log=LIVE_LOG,
        message=values.pop("message", None),
        **values,
    )
