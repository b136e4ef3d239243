"""A scripted stand-in for the Anthropic Messages API on 127.0.0.1, for the real Claude Code CLI.

It answers `HEAD /`, token counting, and `POST /v1/messages` (server-sent events when asked to
stream), records every request body, and plays a small script: log a step with the Bash tool
(reporting a context so full that Claude Code compacts), summarise when asked to, and after the
compaction finish the task with `taak klaar`.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

FULL_CONTEXT = 190_000  # input tokens reported on the first answer: enough to make Claude Code compact
SUMMARY = "<analysis>\nIk denk na over het gesprek.\n</analysis>\n\n<summary>\nStap een is gelogd.\n</summary>"


def _text_of(body: dict[str, Any]) -> str:
    return json.dumps(body, ensure_ascii=False)


def _last_user_text(body: dict[str, Any]) -> str:
    for message in reversed(body.get("messages") or []):
        if message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, str):
                return content
            return "\n".join(str(b.get("text", "")) for b in content or [] if isinstance(b, dict))
    return ""


class Script:
    """Decides each answer from what the request holds, so retries and side requests do no harm."""

    def __init__(self, klaar_command: str, log_command: str, *, too_long_once: bool = False) -> None:
        self.klaar_command = klaar_command
        self.log_command = log_command
        # Answer the first request after the tool call "prompt is too long", as the API does for a full context.
        self.too_long_once = too_long_once
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    def answer(self, body: dict[str, Any]) -> tuple[list[dict[str, Any]], str, int]:
        """Content blocks, stop reason and input tokens for one request."""
        with self.lock:
            self.requests.append(body)
        everything = _text_of(body)
        if "Respond with TEXT ONLY" in _last_user_text(body):
            return [{"type": "text", "text": SUMMARY}], "end_turn", 1000  # the compaction's summary request
        if not body.get("tools"):
            return [{"type": "text", "text": "Veranda"}], "end_turn", 100  # a side request (a title)
        compacted = "This session is being continued" in everything
        if not compacted:
            if "tool_result" not in everything:
                return [self._bash(self.log_command)], "tool_use", FULL_CONTEXT
            if self.too_long_once:
                self.too_long_once = False
                raise PromptTooLong()
            return [{"type": "text", "text": "Stap een is gelogd."}], "end_turn", FULL_CONTEXT
        after_compaction = everything.split("This session is being continued", 1)[1]
        if "tool_result" not in after_compaction:
            return [self._bash(self.klaar_command)], "tool_use", 2000
        return [{"type": "text", "text": "De taak is klaar."}], "end_turn", 2000

    @staticmethod
    def _bash(command: str) -> dict[str, Any]:
        return {
            "type": "tool_use",
            "id": f"toolu_{uuid.uuid4().hex[:20]}",
            "name": "Bash",
            "input": {"command": command, "description": "taakregister bijwerken"},
        }


class PromptTooLong(Exception):
    """The API's answer to a request over the model's context window: HTTP 400, invalid_request_error."""


TOO_LONG = {
    "type": "error",
    "error": {"type": "invalid_request_error", "message": "prompt is too long: 210000 tokens > 200000 maximum"},
}


def _handler(script: Script) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_HEAD(self) -> None:
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_GET(self) -> None:
            self._json(200, {"ok": True})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            if self.path.startswith("/v1/messages/count_tokens"):
                self._json(200, {"input_tokens": 1000})
                return
            if not self.path.startswith("/v1/messages"):
                self._json(404, {"type": "error", "error": {"type": "not_found_error", "message": self.path}})
                return
            try:
                blocks, stop, tokens = script.answer(body)
            except PromptTooLong:
                self._json(400, TOO_LONG)
                return
            if body.get("stream"):
                self._stream(body, blocks, stop, tokens)
            else:
                self._json(200, _message(body, blocks, stop, tokens))

        def _json(self, status: int, data: dict[str, Any]) -> None:
            payload = json.dumps(data).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def _stream(self, body: dict[str, Any], blocks: list[dict[str, Any]], stop: str, tokens: int) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self.end_headers()
            start = _message(body, [], None, tokens)
            self._event("message_start", {"type": "message_start", "message": start})
            for index, block in enumerate(blocks):
                if block["type"] == "text":
                    self._event(
                        "content_block_start",
                        {"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}},
                    )
                    self._event(
                        "content_block_delta",
                        {
                            "type": "content_block_delta",
                            "index": index,
                            "delta": {"type": "text_delta", "text": block["text"]},
                        },
                    )
                else:
                    self._event(
                        "content_block_start",
                        {"type": "content_block_start", "index": index, "content_block": {**block, "input": {}}},
                    )
                    self._event(
                        "content_block_delta",
                        {
                            "type": "content_block_delta",
                            "index": index,
                            "delta": {"type": "input_json_delta", "partial_json": json.dumps(block["input"])},
                        },
                    )
                self._event("content_block_stop", {"type": "content_block_stop", "index": index})
            self._event(
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": stop, "stop_sequence": None},
                    "usage": {"output_tokens": 20},
                },
            )
            self._event("message_stop", {"type": "message_stop"})
            self.close_connection = True

        def _event(self, name: str, data: dict[str, Any]) -> None:
            self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
            self.wfile.flush()

    return Handler


def _message(body: dict[str, Any], blocks: list[dict[str, Any]], stop: str | None, tokens: int) -> dict[str, Any]:
    return {
        "id": f"msg_{uuid.uuid4().hex[:20]}",
        "type": "message",
        "role": "assistant",
        "model": body.get("model", "claude-sonnet-4-5"),
        "content": blocks,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {
            "input_tokens": tokens,
            "output_tokens": 20,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
        },
    }


@contextmanager
def serve(script: Script) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(script))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
