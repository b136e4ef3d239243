"""A fake `claude -p` that speaks Claude Code's stream-json, driven by `--fake-mode`.

Modes: finish (log two steps, then `taak klaar`), klaar (only `taak klaar`; with --fake-after-klaar S it
goes on talking for S seconds before its result line, as a real session does), exit0 (end without
finishing), error (a task failure with is_error), notloggedin (an infrastructure failure), hang
(silent forever), busy (a line every 0.1 s for --fake-seconds, then exit 0), flood (--fake-mb of
output, then finish), ignoreterm (ignore SIGTERM and keep talking). --fake-cost TEXT: the result line's cost.
With FAKE_RECORD_DIR set it records its argv, environment and pid to `<TAAK_ID>-<session>.json` first.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid

_copy: list[object] = []  # an open file: our own copy of everything written to stdout


def write(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()
    for handle in _copy:
        handle.write(text)  # type: ignore[attr-defined]
        handle.flush()  # type: ignore[attr-defined]


def emit(event: dict[str, object]) -> None:
    write(json.dumps(event) + "\n")


def option(argv: list[str], name: str, default: str) -> str:
    return argv[argv.index(name) + 1] if name in argv else default


def taak(*args: str) -> None:
    # As Claude Code's Bash tool does: the command's output is the tool's result, never the agent's own stdout
    # (which is the stream-json the daemon reads).
    done = subprocess.run([sys.executable, "-m", "worker.cli.taak", *args], capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stderr)
        raise subprocess.CalledProcessError(done.returncode, done.args, done.stdout, done.stderr)


def write_whole(path: str, text: str) -> None:
    """Written to a temporary file, then renamed: a test that polls for the file never reads half of it."""
    with open(path + ".tmp", "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(path + ".tmp", path)


def run_inbox(inbox: str) -> None:
    """Each `<n>.json` ({"argv", "env", "input"}) is run as a tool call; its code and output go to `<n>.done`."""
    if not os.path.isdir(inbox):
        return
    for name in sorted(os.listdir(inbox)):
        if not name.endswith(".json"):
            continue
        asked = json.loads(open(os.path.join(inbox, name), encoding="utf-8").read())  # noqa: SIM115
        os.unlink(os.path.join(inbox, name))
        done = subprocess.run(
            asked["argv"], env=asked["env"], input=asked.get("input"), capture_output=True, text=True, check=False
        )
        answer = {"code": done.returncode, "out": done.stdout, "err": done.stderr}
        write_whole(os.path.join(inbox, name[: -len(".json")] + ".done"), json.dumps(answer))


def finish() -> None:
    """The finish line exactly as the briefing prints it: ID first, then --bewijs, then the text."""
    taak("klaar", os.environ["TAAK_ID"], "--bewijs", "/tmp/fake-bewijs", "klaar")


def assistant(session: str, text: str) -> None:
    emit(
        {
            "type": "assistant",
            "session_id": session,
            "message": {
                "id": "msg_" + uuid.uuid4().hex[:8],
                "role": "assistant",
                "content": [{"type": "text", "text": text}],
            },
        }
    )


def result(session: str, *, is_error: bool = False, text: str = "done", subtype: str = "success") -> None:
    event = {
        "type": "result",
        "subtype": subtype,
        "is_error": is_error,
        "result": text,
        "session_id": session,
        "num_turns": 2,
        "duration_ms": 1234,
        "total_cost_usd": "COST",
        "terminal_reason": "api_error" if is_error else "completed",
    }
    # --fake-cost TEXT writes the cost as given (`1e999`, `NaN`, `-3`): JSON that Python reads, not all of it a cost.
    write(json.dumps(event).replace('"COST"', option(sys.argv[1:], "--fake-cost", "0.0123")) + "\n")


def main() -> int:
    argv = sys.argv[1:]
    if argv == ["--version"]:  # what `taak doctor` asks
        print("2.1.332 (Claude Code)")
        return 0
    mode = option(argv, "--fake-mode", "finish")
    if mode == "ignoreterm":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # before the record that tells the test we run
    session = option(argv, "--session-id", str(uuid.uuid4()))
    record_dir = os.environ.get("FAKE_RECORD_DIR")
    if record_dir:
        path = os.path.join(record_dir, f"{os.environ.get('TAAK_ID', 'x')}-{session}.json")
        record = {
            "argv": argv,
            "env": dict(os.environ),
            "inbox": path[: -len(".json")] + ".inbox",
            "pid": os.getpid(),
            "cwd": os.getcwd(),
            "stdin_is_closed": _stdin_closed(),
        }
        write_whole(path, json.dumps(record))
        _copy.append(open(path[: -len(".json")] + ".out", "w", encoding="utf-8"))  # noqa: SIM115
    write("this line is not JSON\n")
    emit(
        {
            "type": "system",
            "subtype": "init",
            "session_id": session,
            "model": "fake-model",
            "cwd": os.getcwd(),
            "claude_code_version": "2.1.332",
        }
    )
    assistant(session, "Ik begin.")
    if mode in ("finish", "flood"):
        if mode == "flood":
            line = json.dumps({"type": "assistant", "filler": "x" * 1000}) + "\n"
            write(line * int(float(option(argv, "--fake-mb", "50")) * 1024 * 1024 / len(line)))
        taak("log", "stap_klaar", "stap een")
        assistant(session, "Stap een is gelogd.")
        taak("log", "stap_klaar", "stap twee")
        finish()
        result(session)
        return 0
    if mode == "klaar":
        finish()
        end = time.monotonic() + float(option(argv, "--fake-after-klaar", "0"))
        while time.monotonic() < end:
            assistant(session, "De taak is afgerond, ik rond mijn beurt af.")
            time.sleep(0.1)
        result(session)
        return 0
    if mode == "exit0":
        result(session, text="Ik heb nagedacht maar niets afgerond.")
        return 0
    if mode == "error":
        result(session, is_error=True, text="Kon het bestand niet schrijven: permission denied")
        print("fake: permission denied on /srv/blog", file=sys.stderr, flush=True)
        return 1
    if mode == "notloggedin":
        result(session, is_error=True, text="Not logged in · Please run /login")
        return 1
    if mode == "obey":
        # Types every command its briefing prints, as shown (placeholders filled), closing with the one named
        # by --fake-close; each command's exit code and stderr go beside the record.
        sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
        from tests.printed import commands_in, fill

        close = option(argv, "--fake-close", "klaar")
        commands = commands_in(argv[-1])
        ordered = [c for c in commands if c.split()[1] not in ("klaar", "blokkeer")]
        ordered += [c for c in commands if c.split()[1] == close]
        said = []
        for command in ordered:
            done = subprocess.run(["bash", "-c", fill(command, os.environ["TAAK_ID"])], capture_output=True, text=True)
            said.append({"command": command, "code": done.returncode, "err": done.stderr.strip()})
        write_whole(os.path.join(record_dir or ".", f"{os.environ['TAAK_ID']}-{session}.obeyed"), json.dumps(said))
        result(session)
        return 0
    if mode == "run":
        # Runs the shell lines of FAKE_RUN ({id}: its task), each one's code and output beside the record.
        ran = []
        for line in os.environ.get("FAKE_RUN", "").splitlines():
            done = subprocess.run(
                ["bash", "-c", line.replace("{id}", os.environ["TAAK_ID"])], capture_output=True, text=True
            )
            ran.append({"command": line, "code": done.returncode, "out": done.stdout, "err": done.stderr})
        write_whole(os.path.join(record_dir or ".", f"{os.environ['TAAK_ID']}-{session}.ran"), json.dumps(ran))
        result(session)
        return 0
    if mode == "steps":
        # A step every second; how long each `taak log` took goes beside the record, one line per step.
        timings = os.path.join(record_dir or ".", f"{os.environ.get('TAAK_ID', 'x')}-{session}.steps")
        for number in range(1, int(option(argv, "--fake-steps", "10")) + 1):
            began = time.monotonic()
            taak("log", "stap_klaar", f"stap {number}")
            with open(timings, "a", encoding="utf-8") as handle:
                handle.write(f"{time.monotonic() - began:.3f}\n")
            assistant(session, f"stap {number} gelogd")
            if record_dir:
                run_inbox(path[: -len(".json")] + ".inbox")
            time.sleep(1)
        finish()
        result(session)
        return 0
    if mode == "toolcall":
        # A long Bash tool call, as a real session has: silent, deaf to SIGPIPE, with a child of its own.
        # From attempt --fake-until on it finishes instead, so a test can see the task end exactly once.
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
        attempt = int(re.search(r"\((?:poging|attempt) (\d+)", argv[-1]).group(1))  # type: ignore[union-attr]
        if attempt >= int(option(argv, "--fake-until", "1000")):
            finish()
            result(session)
            return 0
        child = subprocess.Popen(["sleep", "3600"])
        if record_dir:
            write_whole(os.path.join(record_dir, f"{os.environ.get('TAAK_ID', 'x')}-{session}.child"), str(child.pid))
        child.wait()
        return 0
    if mode == "hang":
        time.sleep(3600)
        return 0
    if mode == "busy":
        # Talks every 0.1 s, and runs what a test puts in its inbox as its own tool calls (the daemon answers only
        # the processes of a session's own tree; tests/system/harness.in_session).
        end = time.monotonic() + float(option(argv, "--fake-seconds", "3600"))
        inbox = path[: -len(".json")] + ".inbox" if record_dir else None
        while time.monotonic() < end:
            assistant(session, "nog bezig")
            if inbox:
                run_inbox(inbox)
            time.sleep(0.1)
        result(session, text="klaar met praten")
        return 0
    if mode == "ignoreterm":
        while True:
            assistant(session, "ik hoor je niet")
            time.sleep(0.1)
    print(f"fake: unknown mode {mode}", file=sys.stderr)
    return 2


def _stdin_closed() -> bool:
    try:
        return sys.stdin.read() == ""
    except (OSError, ValueError):
        return True


if __name__ == "__main__":
    sys.exit(main())
