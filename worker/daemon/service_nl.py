"""The comments of the service files (deploy/) in Dutch. The templates are written in English for the engineer
who opens the repository; an owner whose run is Dutch gets the installed file's comments in Dutch, the same
comment for comment (a test holds every comment of the templates to a translation here)."""

from __future__ import annotations

SYSTEMD = {
    """\
# The taak queue-worker for one bot: `queue-worker service install --bot paco` fills in the paths and prints
# the systemctl line that enables and starts queue-worker@paco (with --user for a user unit).
# Settings (TAAK_DATABASE_URL, and the PATH where claude was found at install) live in the environment file.
""": """\
# De taak queue-worker voor één bot: `queue-worker service install --bot paco` vult de paden in en toont
# de systemctl-regel die queue-worker@paco aanzet en start (met --user voor een gebruikersunit).
# De instellingen (TAAK_DATABASE_URL, en het PATH waar claude bij de installatie stond) staan in het
# instellingenbestand.
""",
    """\
# Only the worker gets SIGTERM: it stops claiming and lets its sessions finish (the drain); whatever is still
# running after TimeoutStopSec is killed. With the default KillMode=control-group every session would get
# SIGTERM at once.
""": """\
# Alleen de worker krijgt SIGTERM: hij claimt niets meer en laat zijn sessies afmaken; wat na TimeoutStopSec
# nog loopt, wordt gestopt. Met de standaard KillMode=control-group kreeg elke sessie meteen SIGTERM.
""",
    """\
# Above TAAK_SHUTDOWN_GRACE_SECONDS (30) plus TAAK_KILL_GRACE_SECONDS (10): running sessions drain first.
""": """\
# Boven TAAK_SHUTDOWN_GRACE_SECONDS (30) plus TAAK_KILL_GRACE_SECONDS (10): lopende sessies maken eerst af.
""",
}

LAUNCHD = {
    """\
<!-- The taak queue-worker for one bot; "queue-worker service install" fills in the paths.
     Settings (TAAK_DATABASE_URL, ...) are read from the environment file, so no secret lives here. -->""": """\
<!-- De taak queue-worker voor één bot; "queue-worker service install" vult de paden in.
     De instellingen (TAAK_DATABASE_URL, ...) komen uit het instellingenbestand: hier staat geen geheim. -->""",
    """\
<!-- queue-worker reads TAAK_ENV_FILE itself, literally (no shell: a password with $ or & stays whole). -->""": """\
<!-- queue-worker leest TAAK_ENV_FILE zelf, letterlijk (geen shell: een wachtwoord met $ of & blijft heel). -->""",
    """\
<!-- Above TAAK_SHUTDOWN_GRACE_SECONDS (30) plus TAAK_KILL_GRACE_SECONDS (10). -->""": """\
<!-- Boven TAAK_SHUTDOWN_GRACE_SECONDS (30) plus TAAK_KILL_GRACE_SECONDS (10). -->""",
}
