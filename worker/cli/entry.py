"""The `taak` console script. A hook (`taak hook NAME`) runs on every prompt, so it is dispatched
before the rest of the command is imported."""

from __future__ import annotations

import sys

HOOK_NAMES = ("session-start", "pre-compact", "post-compact", "prompt")


def main() -> None:
    words = sys.argv[1:]
    stdin_read = False
    if words[:3] == ["hook", "prompt", "--stand"] and len(words) == 4:
        from worker.hooks.stand import prompt_from_stand

        answered = prompt_from_stand(words[3])
        if answered is not None:
            raise SystemExit(answered)
        words, stdin_read = words[:2], True  # the file could not be used: take the ordinary path
    if len(words) == 2 and words[0] == "hook" and words[1] in HOOK_NAMES:
        from worker.hooks.entry import main as hook_main

        raise SystemExit(hook_main(words[1], stdin_read=stdin_read))
    from worker.cli.taak import main as taak_main

    taak_main()


if __name__ == "__main__":
    main()
