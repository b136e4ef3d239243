"""The daily brake in words, and the command that lifts the limit a bot reached (not the other one)."""

from __future__ import annotations

from decimal import Decimal

from worker.core.catalogue import message
from worker.db.bots import BotDay, brake_limits, raise_brake_option


def day(*, sessions: int, cost: str, max_sessions: int | None, max_cost: str | None) -> BotDay:
    return BotDay(
        bot="lea",
        actief=True,
        max_sessies=max_sessions,
        max_kosten=Decimal(max_cost) if max_cost is not None else None,
        sessies_vandaag=sessions,
        kosten_vandaag=Decimal(cost),
        geremd=True,
    )


def test_a_cost_brake_is_lifted_with_kosten() -> None:
    assert raise_brake_option(day(sessions=3, cost="0.12", max_sessions=None, max_cost="0.11")) == "--kosten 1.00"
    assert raise_brake_option(day(sessions=3, cost="7.50", max_sessions=50, max_cost="5")) == "--kosten 15.00"
    # spent past the limit already ($1.54 against $0.50): the hint lifts it above what was spent
    assert raise_brake_option(day(sessions=7, cost="1.54", max_sessions=None, max_cost="0.50")) == "--kosten 3.08"


def test_a_session_brake_is_lifted_with_sessies() -> None:
    assert raise_brake_option(day(sessions=50, cost="0.10", max_sessions=50, max_cost="5")) == "--sessies 1000"


def test_a_bot_at_both_limits_is_told_to_lift_both() -> None:
    """The hint named the cost; typed, it left the bot braked by its sessions, and the next hint named those
    (tester N)."""
    both = day(sessions=2, cost="0.02", max_sessions=0, max_cost="0")
    assert raise_brake_option(both) == "--sessies 1000 --kosten 1.00"


def test_the_brake_in_each_language() -> None:
    assert brake_limits(50, Decimal("5"), "nl") == "max 50 sessies, max $5.00"
    assert brake_limits(50, None, "en") == "max 50 sessions"
    assert (brake_limits(None, None, "nl"), brake_limits(None, None, "en")) == ("geen", "none")


def test_one_session_is_said_in_the_singular() -> None:
    assert brake_limits(1, None, "nl") == "max 1 sessie"
    assert brake_limits(1, None, "en") == "max 1 session"
    assert message("day_usage", "nl", sessions=1, cost="$0.01") == "1 sessie, $0.01"
    assert message("day_usage", "en", sessions=0, cost="$0.00") == "0 sessions, $0.00"
