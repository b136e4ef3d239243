"""The owner's channel, as the daemon's duties: route the outbox (at once, held through the quiet hours, or into the
digest), send the digest at its times (one daemon of the fleet per time, through the database), deliver every message
on every channel this daemon has (a command, Telegram, Apprise's addresses: each on its own, retried, none holding up
another), and read the owner's answers from Telegram (one reader in the fleet, by a lease in the database).

The decisions are worker/core/owner_channel.py's and the words worker/core/digest.py's; this is the I/O around them."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

import anyio
import structlog

from worker.core.catalogue import message
from worker.core.digest import some_ids
from worker.core.owner_channel import (
    Answer,
    NoText,
    Route,
    is_late,
    is_quiet,
    latest_slot,
    over_the_limit,
    quiet_ends,
    read_answer,
    route,
    split_for_telegram,
)
from worker.daemon.lane import Lane
from worker.daemon.outbox import make_reminders, owner_text, run_command
from worker.db import channel as table
from worker.db.owner import owner_name
from worker.db.store import Store
from worker.settings import Settings, said_address

if TYPE_CHECKING:
    import telegram

log = structlog.get_logger("queue-worker")

# The kinds of message a reply answers: a question, and the same question past its decision deadline.
ANSWERABLE = ("vraag", "escalatie")
SEND_TIMEOUT_SECONDS = 60


class ChannelFailed(Exception):
    """A channel did not take a message; its text is why, in one line (never a token)."""


class Channel(Protocol):
    key: str  # the channel in the database, with no secret in it

    async def send(self, text: str, task_id: str | None, kind: str, *, reply_to: int | None = None) -> str | None:
        """Deliver one message (about a task, of a kind: `vraag`, `mislukt`, `dagbericht` ...; as a reply to the
        channel's own message `reply_to`, where it has replies); the channel's own id of it, if it has one.
        ChannelFailed when it did not go."""
        ...


@dataclass
class CommandChannel:
    """TAAK_NOTIFY_CMD: the message on the command's stdin, as before."""

    command: str
    environ: Mapping[str, str]
    key: str = "cmd"

    async def send(self, text: str, task_id: str | None, kind: str, *, reply_to: int | None = None) -> str | None:
        error = await run_command(self.command, text + "\n", task_id or "", kind, self.environ)  # a line, as before
        if error is not None:
            raise ChannelFailed(error)
        return None


@dataclass
class AppriseChannel:
    """One address of TAAK_NOTIFY_URLS (ntfy, email, Signal, Slack, Matrix ...), through Apprise. An address Apprise
    does not know stopped the daemon at its start (unknown_address)."""

    url: str
    key: str = ""

    def __post_init__(self) -> None:
        self.key = "url:" + hashlib.sha256(self.url.encode()).hexdigest()[:16]

    async def send(self, text: str, task_id: str | None, kind: str, *, reply_to: int | None = None) -> str | None:
        import apprise  # extra: loaded only on a daemon that has an Apprise address

        notifier = apprise.Apprise()
        notifier.add(self.url)
        with anyio.fail_after(SEND_TIMEOUT_SECONDS):
            sent = await notifier.async_notify(body=text)
        if not sent:
            raise ChannelFailed(f"{said_address(self.url)}: not delivered (Apprise's log says why)")
        return None


@dataclass
class TelegramChannel:
    """The owner's chat through a bot: messages out, and (by the reader below) answers in."""

    token: str
    chat: int
    api: str
    language: str
    key: str = ""
    _bot: telegram.Bot | None = None

    def __post_init__(self) -> None:
        self.key = f"telegram:{self.chat}"

    async def bot(self) -> telegram.Bot:
        if self._bot is None:
            import telegram  # extra: loaded only on a daemon that has a Telegram token

            self._bot = telegram.Bot(self.token, base_url=f"{self.api}/bot")
        return self._bot

    async def send(self, text: str, task_id: str | None, kind: str, *, reply_to: int | None = None) -> str | None:
        import telegram.error  # extra: as above

        bot = await self.bot()
        first: str | None = None
        if kind in ANSWERABLE and task_id is not None:  # on the phone the owner can answer it where it stands
            text += "\n" + message("channel.answer_hint", self.language, id=task_id)
        try:
            for part in split_for_telegram(text):
                sent = await bot.send_message(self.chat, part, reply_to_message_id=reply_to)
                first = first or str(sent.message_id)
        except telegram.error.TelegramError as exc:
            raise ChannelFailed(f"telegram: {exc}".replace(self.token, "<token>")) from None
        return first


def channels_of(settings: Settings) -> list[Channel]:
    """The channels this daemon has, from its settings."""
    found: list[Channel] = []
    if settings.notify_cmd:
        found.append(CommandChannel(settings.notify_cmd, settings.environ))
    if settings.telegram_token is not None and settings.telegram_chat is not None:
        found.append(
            TelegramChannel(
                settings.telegram_token.get_secret_value(),
                settings.telegram_chat,
                settings.telegram_api,
                settings.language,
            )
        )
    found.extend(AppriseChannel(url.get_secret_value()) for url in settings.notify_urls)
    return found


def unknown_address(settings: Settings) -> str | None:
    """The first of TAAK_NOTIFY_URLS that Apprise cannot use (its scheme only: the rest may hold a token)."""
    if not settings.notify_urls:
        return None
    import apprise  # extra: loaded only on a daemon that has an Apprise address

    # Apprise says why it cannot read an address in its own log, with the address: its tokens would be in ours.
    quiet = logging.getLogger("apprise")
    level, quiet.level = quiet.level, logging.CRITICAL
    try:
        unknown = [
            url.get_secret_value() for url in settings.notify_urls if not apprise.Apprise().add(url.get_secret_value())
        ]
    finally:
        quiet.setLevel(level)
    return said_address(unknown[0]) if unknown else None


@dataclass
class OwnerChannel:
    store: Store
    db: Callable[[str, Callable[[], Awaitable[Any]]], Awaitable[Any]]
    channels: Sequence[Channel]
    holder: str  # this daemon, as the reader's lease names it
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    sent_up_to: datetime | None = None  # the last digest time seen sent: till the next, no statement asks again
    lane: Lane = field(default_factory=Lane)  # the daemon's, which `db` runs in: a send steps out of it

    @property
    def settings(self) -> Settings:
        return self.store.settings

    def duties(self) -> list[Callable[[], Awaitable[None]]]:
        if not self.channels:
            return []
        found: list[Callable[[], Awaitable[None]]] = [self.router]
        found += [partial(self.deliverer, channel) for channel in self.channels]
        found += [partial(self.reader, c) for c in self.channels if isinstance(c, TelegramChannel)]
        return found

    # Routing and the digest.
    async def router(self) -> None:
        """Reminders, escalations and due dates into the outbox, each message routed, and the digest when due."""
        for channel in self.channels:
            await self.db("channels", partial(table.register_channel, self.store.db, channel.key))
        while True:
            await self.db("reminders", partial(make_reminders, self.store.db, self.settings))
            await self.db("outbox", self.route_due)
            await self.db("digest", self.digest_due)
            await anyio.sleep(self.settings.outbox_seconds)

    async def route_due(self) -> int:
        """Route every owner's message that is due; returns how many went out at once."""
        sent = 0
        while True:
            async with self.store.transaction() as held:
                row = await table.next_to_route(held.conn)
                if row is None:
                    return sent
                sent += await self._route_one(held, row)

    async def _route_one(self, held: Store, row: Any) -> int:
        s = self.settings
        now = self.clock()
        text = await owner_text(held.conn, row, s.language)  # None: no longer true, settled unsent
        if text is None:
            return 0
        urgent = {
            "marked_urgent": row["dringend"],
            "urgent_today": row["dringend_vandaag"],
            "urgent_limit": s.urgent_per_bot_per_day,
        }
        decided = route(row["soort"], quiet=is_quiet(now, s.quiet_hours, s.zone), digest=bool(s.digest_times), **urgent)
        about = {"kind": row["soort"], "task_id": row["taak_id"]}
        if decided is Route.DIGEST:
            await table.to_digest(held.conn, row["id"])
            log.info("message_for_digest", **about, over_limit=over_the_limit(row["soort"], **urgent))
            return 0
        if decided is Route.HOLD:
            assert s.quiet_hours is not None  # only quiet hours hold
            until = quiet_ends(now, s.quiet_hours, s.zone)
            await table.hold(held.conn, row["id"], until)
            log.info("message_held", **about, until=until.isoformat())
            return 0
        if row["soort"] == "vaardigheid" and (together := await table.unserved_together(held.conn, row["id"])):
            skill, others = together  # fifty tasks that need tekst were fifty messages
            ids = some_ids([row["taak_id"], *others])
            text = message("notify_unserved_many", s.language, n=1 + len(others), skill=skill, ids=ids)
        await table.send_now(held.conn, row["id"], text.rstrip("\n"))
        log.info("message_urgent", **about)
        return 1

    async def digest_due(self) -> bool:
        """Send the digest that is due unless a daemon did: True when this one did."""
        s = self.settings
        now = self.clock()
        slot = latest_slot(now, s.digest_times, s.zone)
        if slot is None or (self.sent_up_to is not None and self.sent_up_to >= slot):
            return False
        last = self.sent_up_to = await table.last_digest(self.store.db)
        if last is not None and last >= slot:
            return False
        if last is None and slot < await table.first_channel(self.store.db, now):
            return False  # no channel had it: the fleet's first digest is the first time after it got one
        late = is_late(slot, now)
        async with self.store.transaction() as held:
            if not await table.claim_digest(held.conn, slot, s.machine, late):
                self.sent_up_to = slot  # another daemon sent it
                return False
            text = await table.digest_text(held.conn, s, slot, now, late=late, last=last)
            settled = await table.record_digest(held.conn, slot, text)
        self.sent_up_to = slot
        log.info("digest_sent", slot=slot.isoformat(), late=late, messages=settled)
        return True

    # Delivering.
    async def deliverer(self, channel: Channel) -> None:
        while True:
            while await self.db("delivery", partial(self.deliver_one, channel)):
                pass
            await anyio.sleep(self.settings.outbox_seconds)

    async def deliver_one(self, channel: Channel) -> bool:
        """Deliver the channel's oldest due message: False when there was none."""
        async with self.store.transaction() as held:
            delivery = await table.next_delivery(held.conn, channel.key)
            if delivery is None:
                return False
            # Shielded, with a deadline: a stop must not fall between the channel taking the message and the record
            # that it did (it would go again after the restart).
            # The send and its record leave the lane (worker/daemon/lane.py): the transaction's connection is held.
            self.lane.leave()
            about = {"channel": _shown(channel), "message": delivery.bericht_id, "kind": delivery.soort}
            with anyio.move_on_after(SEND_TIMEOUT_SECONDS * 2, shield=True):
                try:
                    extern_id = await channel.send(
                        delivery.tekst, delivery.taak_id, delivery.soort, reply_to=delivery.antwoord_op
                    )
                except ChannelFailed as failed:
                    await table.not_delivered(held.conn, delivery, channel.key, str(failed), base=30.0, most=3600.0)
                    log.warning("delivery_failed", **about, error=str(failed), attempt=delivery.pogingen + 1)
                    return True
                await table.delivered(held.conn, delivery, channel.key, extern_id)
            log.info("delivered", **about, task_id=delivery.taak_id)
            return True

    # Reading the owner's answers.
    async def reader(self, channel: TelegramChannel) -> None:
        poll = min(20.0, max(1.0, self.settings.outbox_seconds * 2))
        trouble = Trouble()
        # Its replies to the owner are messages of this channel: known to the fleet before the first one.
        await self.db("channels", partial(table.register_channel, self.store.db, channel.key))
        try:
            while True:
                lease = trouble.lease(poll)
                offset = await self.db(
                    "telegram", partial(table.take_reader, self.store.db, channel.key, self.holder, lease)
                )
                updates = await self._poll(channel, offset, poll, trouble) if offset is not None else []
                if offset is None or trouble.failures:
                    await anyio.sleep(trouble.wait(poll))
                for update in updates:
                    if not await self.db("telegram", partial(self.handle_update, channel, update)):
                        break  # the lease went to another reader: it reads from here
        finally:
            with anyio.move_on_after(5, shield=True):
                await table.let_go_reader(self.store.db, channel.key, self.holder)

    async def _poll(self, channel: TelegramChannel, offset: int, poll: float, trouble: Trouble) -> list[Any]:
        """The updates from `offset` on; none when Telegram refused or could not be reached (said once a trouble)."""
        import telegram.error  # extra: a daemon with a Telegram token

        bot = await channel.bot()
        try:
            updates = await bot.get_updates(
                offset=offset or None,
                timeout=int(poll),
                read_timeout=poll + READ_MARGIN_SECONDS,
                allowed_updates=["message"],
            )
        except telegram.error.Conflict:  # a process outside the fleet polls with this token
            trouble.failed("telegram_other_reader", "")
            return []
        except telegram.error.TelegramError as exc:
            trouble.failed("telegram_unreachable", str(exc).replace(channel.token, "<token>"))
            return []
        trouble.over()
        return list(updates)

    async def handle_update(self, channel: TelegramChannel, update: telegram.Update) -> bool:
        """One update, at most once: the answer it carries and the reader's offset in one transaction. False when
        this daemon no longer holds the reader's lease (then nothing was written: the new reader handles it)."""
        text, replied, chat, reply_to = _read_update(update)
        try:
            async with self.store.transaction() as held:
                if chat != channel.chat:
                    log.warning("telegram_foreign_chat", chat=chat)
                elif text is not None:
                    task_id, reply = await self._answer(held, text, replied)
                    await table.confirm(held.conn, channel.key, task_id, reply, reply_to)
                if not await table.read_up_to(held.conn, channel.key, self.holder, update.update_id + 1):
                    raise _LeaseLost
        except _LeaseLost:
            return False
        await self.deliver_one(channel)  # the reply at once; one that fails is retried as every message is
        return True

    async def _answer(self, held: Store, text: str, replied: str | None) -> tuple[str | None, str]:
        """The owner's message as an answer, if it is one: the task it answered, and what to reply."""
        s = self.settings
        waiting = await table.waiting_tasks(held.conn)
        found = read_answer(text, replied, waiting)
        if isinstance(found, Answer):
            await held.tasks.antwoord(found.task_id, found.text, wie=await owner_name(held.db, s))
            log.info("telegram_answer", task_id=found.task_id)
            return found.task_id, message("channel.answer_kept", s.language, id=found.task_id)
        if isinstance(found, NoText):
            return None, message("channel.no_text", s.language, id=found.task_id)
        if not waiting:
            return None, message("channel.nothing_waits", s.language)
        return None, message("channel.which_task", s.language, waiting=", ".join(sorted(waiting)))


READ_MARGIN_SECONDS = 10  # a poll's answer may come this much later than the poll's own timeout


@dataclass
class Trouble:
    """Telegram refusing or away: said when it starts and when it changes, not on every poll (a wrong token logged a
    line a second), with the wait between polls doubling up to five minutes; said again when it is over."""

    failures: int = 0
    said: tuple[str, str] | None = None

    def failed(self, event: str, error: str) -> None:
        self.failures += 1
        if self.said != (event, error):
            log.warning(event, **({"error": error} if error else {}))
            self.said = (event, error)

    def over(self) -> None:
        if self.said is not None:
            log.info("telegram_back")
        self.failures, self.said = 0, None

    def wait(self, poll: float) -> float:
        return min(300.0, poll * 2 ** min(self.failures, 9)) if self.failures else poll

    def lease(self, poll: float) -> float:
        """The reader's lease, taken before a poll: through the poll and the wait after it, should it fail. A reader
        that waits out a Telegram that is away stays the reader, so that it is the one that sees it come back and
        says so (with a lease of three polls another daemon took over during the wait, and nobody said it)."""
        return poll + READ_MARGIN_SECONDS + Trouble(self.failures + 1).wait(poll) + 5


class _LeaseLost(Exception):
    pass


def _read_update(update: telegram.Update) -> tuple[str | None, str | None, int | None, int | None]:
    """An update's text, the text it replies to, its chat, and the message to reply to."""
    said = update.message
    if said is None:
        return None, None, None, None
    replied = said.reply_to_message.text if said.reply_to_message is not None else None
    return said.text, replied, said.chat.id, said.message_id


def _shown(channel: Channel) -> str:
    return said_address(channel.url) if isinstance(channel, AppriseChannel) else channel.key
