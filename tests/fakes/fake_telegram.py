"""A local stand-in for Telegram's Bot API, for the tests: the same paths (`/bot{token}/{method}`), the same answers
(`{"ok": true, "result": ...}`), getUpdates with its offset and long poll, and the 409 a second reader gets while
another's getUpdates is open. The tests point TAAK_TELEGRAM_API at it, as an owner points it at a self-hosted server.

It runs in a thread of the test's process (the standard library's HTTP server), so daemons in other processes reach
it as they would reach Telegram."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl

TOKEN = "123456:TEST-token_for-the-fake"
OWNER_CHAT = 4242
BOT_USER = {"id": 123456, "is_bot": True, "first_name": "taak", "username": "taak_test_bot"}


@dataclass
class FakeTelegram:
    token: str = TOKEN
    port: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)
    updates: list[dict[str, Any]] = field(default_factory=list)
    conflicts: int = 0  # getUpdates answered 409: a second reader while one was polling
    readers_at_once: int = 0  # the most getUpdates ever open together
    down: bool = False  # sendMessage answers 502 while set
    refusing: bool = False  # getUpdates answers 401 while set: a token Telegram does not take (any longer)
    calls: list[str] = field(default_factory=list)
    _open_polls: int = 0
    _next_update: int = 1
    _next_message: int = 1
    _lock: threading.Condition = field(default_factory=threading.Condition)

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # What the owner does on the phone.
    def owner_writes(self, text: str, *, chat: int = OWNER_CHAT, reply_to: int | None = None) -> int:
        """A message in a chat (a reply when `reply_to` names a message the bot sent); returns its update id."""
        with self._lock:
            message: dict[str, Any] = {
                "message_id": self._new_message_id(),
                "date": int(time.time()),
                "chat": {"id": chat, "type": "private"},
                "from": {"id": chat, "is_bot": False, "first_name": "Owner"},
                "text": text,
            }
            if reply_to is not None:
                message["reply_to_message"] = self._sent_message(reply_to)
            return self._add_update({"message": message})

    def owner_presses(self, data: str, *, on: int, chat: int = OWNER_CHAT) -> int:
        """An inline button under the bot's message `on`, carrying `data`."""
        with self._lock:
            query = {
                "id": f"cb{self._next_update}",
                "from": {"id": chat, "is_bot": False, "first_name": "Owner"},
                "chat_instance": "1",
                "data": data,
                "message": self._sent_message(on),
            }
            return self._add_update({"callback_query": query})

    def texts_to(self, chat: int = OWNER_CHAT) -> list[str]:
        with self._lock:
            return [m["text"] for m in self.sent if m["chat_id"] == chat]

    def wait_for(self, predicate: Any, timeout: float = 20.0) -> list[str]:
        """Wait until `predicate(texts sent to the owner)` holds; returns those texts (or fails after timeout)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            texts = self.texts_to()
            if predicate(texts):
                return texts
            time.sleep(0.05)
        raise AssertionError(f"the fake Telegram did not see it within {timeout} s; sent: {self.texts_to()}")

    # The Bot API.
    def _new_message_id(self) -> int:
        self._next_message += 1
        return self._next_message - 1

    def _sent_message(self, message_id: int) -> dict[str, Any]:
        found = next(m for m in self.sent if m["message_id"] == message_id)
        return {
            "message_id": message_id,
            "date": found["date"],
            "chat": {"id": found["chat_id"], "type": "private"},
            "from": BOT_USER,
            "text": found["text"],
        }

    def _add_update(self, body: dict[str, Any]) -> int:
        update_id = self._next_update
        self._next_update += 1
        self.updates.append({"update_id": update_id, **body})
        self._lock.notify_all()
        return update_id

    def answer(self, method: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        self.calls.append(method)
        if method == "getMe":
            return 200, {"ok": True, "result": BOT_USER}
        if method == "sendMessage":
            return self._send(params)
        if method == "getUpdates":
            return self._get_updates(params)
        if method in ("deleteWebhook", "answerCallbackQuery", "editMessageReplyMarkup"):
            return 200, {"ok": True, "result": True}
        return 404, {"ok": False, "error_code": 404, "description": "Not Found: method not found"}

    def _send(self, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if self.down:
            return 502, {"ok": False, "error_code": 502, "description": "Bad Gateway"}
        with self._lock:
            message = {
                "message_id": self._new_message_id(),
                "date": int(time.time()),
                "chat_id": int(params["chat_id"]),
                "text": str(params["text"]),
                "reply_markup": params.get("reply_markup"),
            }
            self.sent.append(message)
        result = {**self._sent_message(message["message_id"])}
        return 200, {"ok": True, "result": result}

    def _get_updates(self, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        offset = int(params.get("offset") or 0)
        timeout = min(float(params.get("timeout") or 0), 5.0)
        if self.refusing:
            return 401, {"ok": False, "error_code": 401, "description": "Unauthorized"}
        with self._lock:
            if self._open_polls:
                self.conflicts += 1
                return 409, {
                    "ok": False,
                    "error_code": 409,
                    "description": "Conflict: terminated by other getUpdates request; "
                    "make sure that only one bot instance is running",
                }
            self._open_polls += 1
            self.readers_at_once = max(self.readers_at_once, self._open_polls)
            try:
                if offset:  # Telegram forgets what came before a confirmed offset
                    self.updates = [u for u in self.updates if u["update_id"] >= offset]
                self._lock.wait_for(lambda: bool(self.updates), timeout=timeout)
                return 200, {"ok": True, "result": list(self.updates)}
            finally:
                self._open_polls -= 1


def _params(handler: BaseHTTPRequestHandler) -> dict[str, Any]:
    """The parameters as python-telegram-bot sends them: a form whose values are JSON when not plain text, or JSON."""
    length = int(handler.headers.get("Content-Length") or 0)
    body = handler.rfile.read(length).decode() if length else ""
    if handler.headers.get("Content-Type", "").startswith("application/json"):
        return dict(json.loads(body or "{}"))
    params: dict[str, Any] = {}
    for name, value in parse_qsl(body, keep_blank_values=True):
        try:
            params[name] = json.loads(value) if value[:1] in "[{" else value
        except json.JSONDecodeError:
            params[name] = value
    return params


@contextmanager
def fake_telegram(token: str = TOKEN) -> Iterator[FakeTelegram]:
    fake = FakeTelegram(token=token)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self._reply()

        def do_GET(self) -> None:
            self._reply()

        def _reply(self) -> None:
            _, bot, method = ([*self.path.split("?")[0].split("/"), "", ""])[:3]
            if bot != f"bot{fake.token}":
                status, answer = 401, {"ok": False, "error_code": 401, "description": "Unauthorized"}
            else:
                status, answer = fake.answer(method, _params(self))
            data = json.dumps(answer).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):  # a reader killed while it polled
                pass

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    fake.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
