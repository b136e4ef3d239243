"""One queue session in several turns of the real Claude Code CLI: the daemon's run, then (by default)
`/compact` and "ga verder", each resuming the same session. The daemon sees one process; the hooks see a compaction."""

from __future__ import annotations

import json
import os
import subprocess
import sys


def main() -> int:
    claude = os.environ["CLAUDE_BIN"]
    argv = sys.argv[1:]
    session = argv[argv.index("--session-id") + 1]
    # CLAUDE_RESUME_BARE=1: the resumes leave out the daemon's --settings, as an agent that resumes itself does.
    settings = [] if os.environ.get("CLAUDE_RESUME_BARE") == "1" else ["--settings", argv[argv.index("--settings") + 1]]
    shared = [
        "-p",
        "--output-format",
        "stream-json",
        "--verbose",
        *settings,
        "--append-system-prompt",
        argv[argv.index("--append-system-prompt") + 1],
        "--allowedTools",
        "Bash",
        "--model",
        "claude-sonnet-4-5",
    ]
    # The turns after the daemon's own: CLAUDE_TURNS (a JSON list of prompts), by default /compact, then on.
    turns = json.loads(os.environ.get("CLAUDE_TURNS", '["/compact", "ga verder"]'))
    for command in ([claude, *argv], *[[claude, *shared, "--resume", session, turn] for turn in turns]):
        code = subprocess.run(command, stdin=subprocess.DEVNULL, check=False).returncode
        if code != 0:
            return code
    return 0


if __name__ == "__main__":
    sys.exit(main())
