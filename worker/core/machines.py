"""The machine registry as values: one machine, all its names, and how a fixed fact names it."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from worker.core.catalogue import message


@dataclass(frozen=True)
class Machine:
    naam: str
    ip: str | None = None
    aliassen: tuple[str, ...] = ()
    bots: tuple[str, ...] = field(default_factory=tuple)

    def names(self) -> list[str]:
        return [self.naam, *self.aliassen]


def seen_unregistered(registered: Sequence[Machine], heartbeats: Iterable[tuple[str | None, str]]) -> list[Machine]:
    """The machines daemons named in their heartbeats, `(machine, bot)`, that the registry knows by no name in any
    case, each with the bots seen there: a daemon on an unregistered host is listed too, not missing."""
    known = {name.lower() for machine in registered for name in machine.names()}
    bots: dict[str, set[str]] = {}
    for machine, bot in heartbeats:
        if machine and machine.lower() not in known:
            bots.setdefault(machine, set()).add(bot)
    return [Machine(name, bots=tuple(sorted(seen))) for name, seen in sorted(bots.items())]


def expand_facts(facts: Mapping[str, str], machines: Mapping[str, Machine]) -> dict[str, str]:
    """Facts whose value names a machine (by name or alias, any case) get all its names and its IP:
    `machine = McMini Veranda = keukenhof-veranda = 192.168.1.2`, the name used first."""
    expanded = {}
    for key, value in facts.items():
        machine = machines.get(value.strip().lower())
        if machine is None:
            expanded[key] = value
            continue
        others = [name for name in machine.names() if name.lower() != value.strip().lower()]
        expanded[key] = " = ".join([value.strip(), *others, *([machine.ip] if machine.ip else [])])
    return expanded


def registry_json(machines: list[Machine]) -> dict[str, object]:
    """What every bot reads locally: each machine with all its names, its IP and its bots."""
    return {
        "machines": [{"naam": m.naam, "aliassen": list(m.aliassen), "ip": m.ip, "bots": list(m.bots)} for m in machines]
    }


def _version_key(version: str) -> tuple[tuple[int, str], ...]:
    """`0.10.1` after `0.9.3`: each run of digits compared as a number, anything else as text."""
    return tuple((int(part), "") if part.isdigit() else (-1, part) for part in re.findall(r"\d+|[^\d.]+", version))


def newest_version(versions: Iterable[str | None]) -> str | None:
    """The newest daemon version among those seen (None: no daemon has said one)."""
    return max((v for v in versions if v), key=_version_key, default=None)


def said_version(version: str | None, newest: str | None, language: str) -> str:
    """A daemon's version as the lists show it, flagged when it is not the newest one seen in the fleet."""
    if not version:
        return "-"
    if newest is None or version == newest:
        return version
    return message("version_behind", language, version=version, newest=newest)


def versions_of(machine: Machine, seen: Iterable[tuple[str | None, str | None]]) -> list[str]:
    """The versions the daemons on this machine (by any of its names, any case) said in their heartbeats;
    `seen` holds (machine, version) of every bot."""
    names = {name.lower() for name in machine.names()}
    return sorted({v for m, v in seen if m and v and m.lower() in names}, key=_version_key)
