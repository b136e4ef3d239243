"""The in-session client against a daemon that takes a request and never answers (paused with SIGSTOP, or
stalled): it must not say the write failed, since the daemon keeps what it takes."""

from __future__ import annotations

import os
import socket
import threading
from pathlib import Path

import pytest

from tests.helpers import run_taak
from worker.client import Unanswered, exchange


def silent_daemon(path: Path) -> tuple[socket.socket, list[bytes]]:
    """A socket that accepts and reads every request, and answers none."""
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen()
    heard: list[bytes] = []

    def serve() -> None:
        while True:
            try:
                connection, _ = server.accept()
            except OSError:
                return
            heard.append(connection.recv(65536))

    threading.Thread(target=serve, daemon=True).start()
    return server, heard


def test_a_request_the_daemon_took_without_answering_is_unanswered_not_refused(tmp_path: Path) -> None:
    server, heard = silent_daemon(tmp_path / "d.sock")
    try:
        with pytest.raises(Unanswered):
            exchange(str(tmp_path / "d.sock"), {"op": "log", "tekst": "x"}, timeout=0.3)
    finally:
        server.close()
    (request,) = heard
    assert b'"tekst": "x"' in request


@pytest.mark.slow  # the client waits its full 15 s for the answer
def test_taak_log_to_a_silent_daemon_says_it_is_unknown_whether_the_line_was_kept(tmp_path: Path) -> None:
    server, _ = silent_daemon(tmp_path / "d.sock")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_")}
    env.update(
        TAAK_SOCKET=str(tmp_path / "d.sock"),
        TAAK_ID="HV-20261202-001",
        TAAK_TOKEN="00000000-0000-4000-8000-000000000000",
        TAAK_LANGUAGE="en",
    )
    try:
        done = run_taak(env, "log", "notitie", "tijdens een pauze")
    finally:
        server.close()
    assert done.code == 4
    assert done.err.count("\n") == 1
    assert "unknown whether it happened, so do not simply do it again" in done.err


def test_an_id_with_a_date_the_calendar_has_not_is_refused_before_the_daemon_is_asked(tmp_path: Path) -> None:
    server, heard = silent_daemon(tmp_path / "d.sock")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_")}
    env.update(TAAK_SOCKET=str(tmp_path / "d.sock"), TAAK_ID="HV-20261202-001", TAAK_LANGUAGE="en")
    try:
        refused = run_taak(env, "log", "HV-20260230-001", "notitie", "x")
    finally:
        server.close()
    assert (refused.code, refused.err) == (2, "taak: 'HV-20260230-001' is not a task ID (expected HV-YYYYMMDD-NNN)\n")
    assert heard == []


def test_a_reden_that_shows_nothing_is_sent_as_left_out() -> None:
    from worker.cli.args import parse
    from worker.cli.session import REQUESTS
    from worker.cli.taak import build_parser

    args = parse(build_parser(verb="vrijgeven"), ["vrijgeven", "HV-20261202-001", "--reden", "\u200b "])
    assert REQUESTS["vrijgeven"](args)["reden"] is None  # the daemon writes its default reason


def test_a_text_past_the_limit_is_refused_before_the_daemon_is_asked(tmp_path: Path) -> None:
    server, heard = silent_daemon(tmp_path / "d.sock")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_")}
    env.update(TAAK_SOCKET=str(tmp_path / "d.sock"), TAAK_ID="HV-20261202-001", TAAK_LANGUAGE="en")
    try:
        refused = run_taak(env, "log", "notitie", "-", stdin=b"x" * 100_001)
        next_step = run_taak(env, "stap", "y" * 2001)  # its own limit, as `taak nieuw --volgende-stap` has
    finally:
        server.close()
    assert (refused.code, refused.err) == (2, "taak: text has 100001 characters; at most 100000 are allowed\n")
    assert (next_step.code, next_step.err) == (2, "taak: next step has 2001 characters; at most 2000 are allowed\n")
    assert heard == []


def test_every_verb_the_in_session_refusal_names_is_one_a_session_can_use(tmp_path: Path) -> None:
    from worker.cli.session import LOCAL_VERBS, SOCKET_VERBS

    env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_")}
    env.update(TAAK_SOCKET=str(tmp_path / "nobody.sock"), TAAK_DATA_DIR=str(tmp_path / "data"), TAAK_LANGUAGE="en")
    refused = run_taak(env, "lijst")
    assert refused.code == 1
    named = refused.err.strip().split(": use ")[1].replace(" or ", ", ").split(", ")
    assert [verb.split()[0] for verb in named if verb.split()[0] not in SOCKET_VERBS | LOCAL_VERBS] == []
    for verb in (verb for verb in named if verb.split()[0] in LOCAL_VERBS):  # those that need no daemon: run them
        done = run_taak(env, *verb.split())
        if done.code == 2:  # it takes a word: given one, as a session would type it
            done = run_taak(env, *verb.split(), "budget")
        assert done.code == 0, (verb, done.err)  # `lll` alone was named, and `lll budget` is the owner's
    assert run_taak(env, "lll", "toon").code == 0


def test_a_socket_path_that_is_no_utf8_is_said_with_its_byte_as_every_line_shows_one(tmp_path: Path) -> None:
    """Outside try: the line said `/tmp/a\\udcffb.sock`, Python's stand-in, where other lines say `\\xff`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_")}
    socket_path = os.fsdecode(bytes(tmp_path / "a") + b"\xffb.sock")
    env.update(TAAK_SOCKET=socket_path, TAAK_ID="HV-20261202-001", TAAK_TOKEN="t", TAAK_LANGUAGE="en")
    done = run_taak(env, "log", "stap_klaar", "gemeten")
    assert done.code == 4
    assert f"{tmp_path}/a\\xffb.sock" in done.err
    assert "udcff" not in done.err
