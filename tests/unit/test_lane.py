"""The daemon's lane: operations in it take turns, and a send to a channel steps out of it."""

from __future__ import annotations

import anyio

from worker.daemon.lane import Lane


async def test_operations_in_the_lane_never_overlap() -> None:
    lane = Lane()
    inside = 0
    most = 0

    async def operation() -> None:
        nonlocal inside, most
        inside += 1
        most = max(most, inside)
        await anyio.sleep(0.01)
        inside -= 1

    async with anyio.create_task_group() as group:
        for _ in range(5):
            group.start_soon(lane(operation))
    assert most == 1


async def test_a_send_outside_the_lane_lets_the_others_take_their_turn() -> None:
    lane = Lane()
    said: list[str] = []
    sending, sent = anyio.Event(), anyio.Event()

    async def deliver() -> None:
        said.append("looked")
        async with lane.outside():
            sending.set()
            await sent.wait()
        said.append("recorded")

    async def claim() -> None:
        said.append("claimed")
        sent.set()

    with anyio.fail_after(5):  # without the step out, the claim would wait for the send, and the send for it
        async with anyio.create_task_group() as group:
            group.start_soon(lane(deliver))
            await sending.wait()
            await lane(claim)()
    assert said == ["looked", "claimed", "recorded"]


async def test_outside_the_lane_outside_it_is_nothing() -> None:
    lane = Lane()
    async with lane.outside():
        await lane(anyio.lowlevel.checkpoint)()
