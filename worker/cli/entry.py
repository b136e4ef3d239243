"""The `taak` console script. A hook (`taak hook NAME`) runs on every prompt, so it is dispatched
before the rest of the command is imported."""

from __future__ import annotations

import sys

HOOK_NAMES = ("session-start", "pre-compact", "post-compact", "prompt")


def main() -> None:
    words = sys.argv[1:]
    if len(words) == 2 and words[0] == "hook" and words[1] in HOOK_NAMES:
        from worker.hooks.entry import main as hook_main

        raise SystemExit(hook_main(words[1]))
    from worker.cli.taak import main as taak_main

    taak_main()


if __name__ == "__main__":
    main()
