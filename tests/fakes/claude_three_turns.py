"""One queue session in three turns of the real Claude Code CLI: the daemon's run, `/compact`, and
"ga verder", each resuming the same session. The daemon sees one process; the hooks see a compaction."""

from __future__ import annotations

import os
import subprocess
import sys


def main() -> int:
    claude = os.environ["CLAUDE_BIN"]
    argv = sys.argv[1:]
    session = argv[argv.index("--session-id") + 1]
    shared = [
        "-p",
        "--output-format",
        "stream-json",
        "--verbose",
        "--settings",
        argv[argv.index("--settings") + 1],
        "--append-system-prompt",
        argv[argv.index("--append-system-prompt") + 1],
        "--allowedTools",
        "Bash",
        "--model",
        "claude-sonnet-4-5",
    ]
    for command in (
        [claude, *argv],
        [claude, *shared, "--resume", session, "/compact"],
        [claude, *shared, "--resume", session, "ga verder"],
    ):
        code = subprocess.run(command, stdin=subprocess.DEVNULL, check=False).returncode
        if code != 0:
            return code
    return 0


if __name__ == "__main__":
    sys.exit(main())
