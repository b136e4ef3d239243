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

# What the stand-in says and logs, in the session's language (the daemon gives it its own TAAK_LANGUAGE).
WORDS = {
    "nl": {
        "begin": "Ik lees de briefing van {id} en begin.",
        "first_step": "notities gelezen en een opzet gemaakt",
        "second_part": "Eerste stap gelogd; nu het tweede deel.",
        "result_line": "Resultaat van {id}",
        "written": "resultaat geschreven naar {path}",
        "done": "demo afgerond",
        "finished": "{id} is klaar.",
    },
    "en": {
        "begin": "I read the briefing of {id} and begin.",
        "first_step": "notes read and an outline made",
        "second_part": "First step logged; now the second part.",
        "result_line": "Result of {id}",
        "written": "result written to {path}",
        "done": "demo finished",
        "finished": "{id} is done.",
    },
}


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
    emit(
        {
            "type": "assistant",
            "session_id": session,
            "message": {
                "id": f"msg_{uuid.uuid4().hex[:8]}",
                "role": "assistant",
                "content": [{"type": "text", "text": text}],
            },
        }
    )


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
    words = WORDS["en" if os.environ.get("TAAK_LANGUAGE") == "en" else "nl"]
    say(session, words["begin"].format(id=task_id))
    time.sleep(0.3)
    taak("log", "stap_klaar", words["first_step"])
    say(session, words["second_part"])
    time.sleep(0.3)
    evidence = os.path.join(os.environ.get("TAAK_DATA_DIR", "."), f"demo-{task_id}.txt")
    with open(evidence, "w", encoding="utf-8") as handle:
        handle.write(words["result_line"].format(id=task_id) + "\n")
    taak("log", "stap_klaar", words["written"].format(path=evidence))
    taak("klaar", task_id, "--bewijs", evidence, words["done"])
    emit(
        {
            "type": "result",
            "subtype": "success",
            "is_error": False,
            "result": words["finished"].format(id=task_id),
            "session_id": session,
            "num_turns": 3,
            "duration_ms": int((time.monotonic() - started) * 1000),
            "total_cost_usd": 0.0,
            "terminal_reason": "completed",
        }
    )


if __name__ == "__main__":
    main()
