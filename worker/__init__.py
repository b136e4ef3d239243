"""Task memory for a fleet of Claude Code bots."""

__version__ = "0.1.0"


def pip_install() -> tuple[str, str | None]:
    """How to install into this very installation, to be typed as shown: this interpreter's pip (a bare `pip` may
    be another environment's), and the clone this was installed from with `pip install -e .`, as the README does,
    if it was (the package's name is on no index the owner's machine may reach)."""
    import json  # start-up: every entry point loads this package; only an upgrade or install hint needs these
    import shlex
    import sys
    from importlib import metadata
    from urllib.parse import unquote, urlsplit

    try:
        origin = json.loads(metadata.distribution("taak-worker").read_text("direct_url.json") or "{}")
    except (metadata.PackageNotFoundError, ValueError):
        origin = {}
    url = origin.get("url", "") if isinstance(origin, dict) else ""
    editable = url.startswith("file://") and (origin.get("dir_info") or {}).get("editable")
    return f"{shlex.quote(sys.executable)} -m pip install", unquote(urlsplit(url).path) if editable else None
