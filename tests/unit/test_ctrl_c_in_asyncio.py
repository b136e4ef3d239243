"""A Ctrl-C under asyncio is a cancel delivered at the command's next wait: a command whose change waits for
nothing (a file written) must not make it after a Ctrl-C, nor be reported cancelled once it made and said it."""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest

from worker.cli.args import ctrl_c_after_it_is_done, run
from worker.settings import Settings

SETTINGS = Settings(_env_file=None, language="en")  # type: ignore[call-arg]


@pytest.fixture(autouse=True)
def _ctrl_c_as_it_was() -> Iterator[None]:
    """A command that is done ignores Ctrl-C from then on, for the rest of its process: here, pytest's. So each
    test starts as a fresh process does, with Python's own handler: a command another test ran in this worker
    left Ctrl-C ignored, and the Ctrl-C raised here then never arrived."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def test_a_ctrl_c_before_the_change_begins_stops_it_before_anything_is_made() -> None:
    made: list[str] = []

    async def command() -> int:
        signal.raise_signal(signal.SIGINT)  # asyncio's handler marks the command cancelled, and it goes on
        with ctrl_c_after_it_is_done(SETTINGS):
            made.append("topic")
        return 0

    with pytest.raises(SystemExit) as ended:
        run(SETTINGS, command)
    assert (ended.value.code, made) == (130, [])


def test_a_command_that_made_and_said_its_change_before_the_cancel_could_land_ends_with_its_own_code() -> None:
    said: list[str] = []

    async def command() -> int:
        signal.raise_signal(signal.SIGINT)  # during work that waits for nothing: the cancel lands after it
        said.append("open: topic")
        return 0

    assert run(SETTINGS, command) == 0
    assert said == ["open: topic"]
