"""The daemon's lane: operations in it take turns, and a send to a channel leaves it."""

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


async def test_a_send_that_leaves_the_lane_lets_the_others_take_their_turn_and_records_without_waiting() -> None:
    lane = Lane()
    said: list[str] = []
    sending, sent, recorded = anyio.Event(), anyio.Event(), anyio.Event()

    async def deliver() -> None:
        said.append("looked")
        lane.leave()
        sending.set()
        await sent.wait()
        said.append("recorded")  # while the claim still holds the lane
        recorded.set()

    async def claim() -> None:
        said.append("claimed")
        sent.set()
        await recorded.wait()

    with anyio.fail_after(5):  # without leaving, the claim would wait for the send, and the send for it
        async with anyio.create_task_group() as group:
            group.start_soon(lane(deliver))
            await sending.wait()
            group.start_soon(lane(claim))
    assert said == ["looked", "claimed", "recorded"]


async def test_the_lane_is_free_again_after_an_operation_that_left_it() -> None:
    lane = Lane()

    async def leaves() -> None:
        lane.leave()
        await anyio.lowlevel.checkpoint()

    with anyio.fail_after(5):
        await lane(leaves)()
        await lane(anyio.lowlevel.checkpoint)()


async def test_leaving_the_lane_outside_it_is_nothing() -> None:
    lane = Lane()
    lane.leave()
    await lane(anyio.lowlevel.checkpoint)()
