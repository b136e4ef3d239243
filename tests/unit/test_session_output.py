"""A session's stdout as the daemon reads it (worker/daemon/session.py): every byte kept, each line parsed once
however the pipe cuts it, and a line over TAAK_MAX_LINE_BYTES kept in the raw file but not parsed."""

from __future__ import annotations

import anyio
import pytest

from worker.daemon.session import Limits, SessionReport, _Live, _read_stdout

RESULT = b'{"type": "result", "result": "klaar"}'


class Pipe:
    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks

    async def receive(self, max_bytes: int = 65536) -> bytes:
        if not self.chunks:
            raise anyio.EndOfStream
        return self.chunks.pop(0)


class Kept:
    def __init__(self) -> None:
        self.data = b""

    def write(self, data: bytes) -> None:
        self.data += data


@pytest.mark.parametrize(
    ("chunks", "lines", "result"),
    [
        ([b'{"type": "sys', b'tem"}\n', RESULT[:9], RESULT[9:] + b"\n"], 2, "klaar"),  # lines cut by the pipe
        ([b"x" * 80 + b"\n" + RESULT + b"\n"], 2, "klaar"),  # an overlong line counted, not parsed
        ([b"x" * 70, b"x" * 70 + b"\n" + RESULT], 2, "klaar"),  # overlong across chunks; a last line without its end
        ([b"x" * 80 + RESULT[:5], RESULT[5:] + b"\n"], 1, None),  # the overlong line holds the result: not parsed
        ([b"\n\n"], 2, None),
    ],
)
def test_each_line_of_the_output_is_taken_once(chunks: list[bytes], lines: int, result: str | None) -> None:
    live = _Live(Limits(1, 1, 1, 1, 64, 1), None, anyio.Event(), SessionReport(), 0, 0.0)  # type: ignore[arg-type]
    raw, times = Kept(), Kept()
    expected = b"".join(chunks)
    anyio.run(_read_stdout, Pipe(chunks), raw, times, live)  # type: ignore[arg-type]
    assert raw.data == expected
    assert times.data.count(b"\n") == expected.count(b"\n")
    assert live.report.lines == lines
    assert (live.report.result.text if live.report.result else None) == result
