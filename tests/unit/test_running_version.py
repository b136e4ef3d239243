"""A daemon of an older checkout says so even when the package's version number is the same (issue 41's outside
try: every commit said 0.1.0, and a daemon that claimed nothing for a newer schema looked up to date)."""

from __future__ import annotations

from importlib import metadata

from worker.core.machines import Machine, newest_version, said_version, seen_unregistered
from worker.db.migrate import load_migrations, running_version


def test_the_version_a_daemon_says_is_its_package_and_its_newest_migration() -> None:
    newest = load_migrations()[-1].name.split("_", 1)[0]
    assert running_version() == f"{metadata.version('taak-worker')}+{newest}"


def test_a_daemon_that_ships_fewer_migrations_is_behind_one_of_the_same_package_version() -> None:
    fleet = ["0.1.0+002", "0.1.0+005", "0.1.0+005"]
    assert newest_version(fleet) == "0.1.0+005"
    assert said_version("0.1.0+002", "0.1.0+005", "en") == "0.1.0+002 (not the newest: 0.1.0+005)"
    assert newest_version(["0.1.0+009", "0.2.0+006"]) == "0.2.0+006"


def test_a_machine_a_daemon_names_that_the_registry_lacks_is_listed_with_the_bots_seen_there() -> None:
    registered = [Machine("keukenhof-veranda", aliassen=("McMini Veranda",), bots=("paco",))]
    heartbeats = [("mcmini veranda", "paco"), ("oude-laptop", "dora"), ("oude-laptop", "coco"), (None, "kimi")]
    assert seen_unregistered(registered, heartbeats) == [Machine("oude-laptop", bots=("coco", "dora"))]
