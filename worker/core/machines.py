"""The machine registry as values: one machine, all its names, and how a fixed fact names it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Machine:
    naam: str
    ip: str | None = None
    aliassen: tuple[str, ...] = ()
    bots: tuple[str, ...] = field(default_factory=tuple)

    def names(self) -> list[str]:
        return [self.naam, *self.aliassen]


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
