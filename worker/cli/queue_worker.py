"""`queue-worker`: the per-machine daemon (built in issue 4)."""

from __future__ import annotations

import sys


def main() -> None:
    print("queue-worker: the daemon is not built yet; use `taak` for now", file=sys.stderr)
    raise SystemExit(2)
