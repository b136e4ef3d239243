"""A small scripted stand-in for `claude -p` that ships with the package, for `queue-worker demo`.

It speaks Claude Code's stream-json (an init line, assistant lines, a final result line), and does
what a good session does: logs two steps with `taak log` and finishes with evidence via `taak klaar`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid

from worker.core.catalogue import message
from worker.core.language import early_language


def emit(event: dict[str, object]) -> None:
    print(json.dumps(event, ensure_ascii=False), flush=True)


def taak(*args: str) -> None:
    # As Claude Code's Bash tool does: what the command prints is the tool's result, never this agent's own
    # stdout, which is the stream-json the daemon reads.
    done = subprocess.run([sys.executable, "-m", "worker.cli.taak", *args], capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stderr)
        raise subprocess.CalledProcessError(done.returncode, done.args, done.stdout, done.stderr)


def say(session: str, text: str) -> None:
    said = {"id": f"msg_{uuid.uuid4().hex[:8]}", "role": "assistant", "content": [{"type": "text", "text": text}]}
    emit({"type": "assistant", "session_id": session, "message": said})


def main() -> None:
    argv = sys.argv[1:]
    session = argv[argv.index("--session-id") + 1] if "--session-id" in argv else str(uuid.uuid4())
    task_id = os.environ.get("TAAK_ID", "?")
    started = time.monotonic()
    emit(
        {
            "type": "system",
            "subtype": "init",
            "session_id": session,
            "model": "demo-agent",
            "cwd": os.getcwd(),
            "claude_code_version": "demo",
        }
    )
    language = early_language()  # the session's own: the daemon gives it its TAAK_LANGUAGE

    def said(key: str, **values: str) -> str:
        return message(f"demo_agent_{key}", language, **values)

    say(session, said("begin", id=task_id))
    time.sleep(0.3)
    taak("log", "stap_klaar", said("first_step"))
    say(session, said("second_part"))
    time.sleep(0.3)
    evidence = os.path.join(os.environ.get("TAAK_DATA_DIR", "."), f"demo-{task_id}.txt")
    with open(evidence, "w", encoding="utf-8") as handle:
        handle.write(said("result_line", id=task_id) + "\n")
    taak("log", "stap_klaar", said("written", path=evidence))
    taak("klaar", task_id, "--bewijs", evidence, said("done"))
    emit(
        {
            "type": "result",
            "subtype": "success",
            "is_error": False,
            "result": said("finished", id=task_id),
            "session_id": session,
            "num_turns": 3,
            "duration_ms": int((time.monotonic() - started) * 1000),
            "total_cost_usd": 0.0,
            "terminal_reason": "completed",
        }
    )


if __name__ == "__main__":
    main()
