"""The running machine: its own names (login and host), which `--redact` replaces as well, read
here at the edge so that errexplain.redaction stays pure; and its idle cores (how many workers
`errexplain scan` starts by default)."""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING

if TYPE_CHECKING:
    from errexplain.redaction import Redactor


def machine_names() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(login names, host names) of the running machine, which --redact also replaces: the
    user from the environment or the password database, the host name and its first label."""
    import getpass
    import socket
    from contextlib import suppress

    users: list[str] = []
    hosts: list[str] = []
    with suppress(Exception):  # no such user entry, no LOGNAME: nothing to add
        users.append(getpass.getuser())
    with suppress(OSError):
        name = socket.gethostname()
        hosts += [name, name.split(".")[0]]
    return tuple(users), tuple(dict.fromkeys(hosts))


def local_redactor(extra: tuple[str, ...] = ()) -> Redactor:
    """A Redactor that also knows this machine's login and host names and `extra` words."""
    from errexplain.redaction import Redactor

    users, hosts = machine_names()
    return Redactor(users, hosts, extra)


def idle_cores(loadavg: str = "/proc/loadavg") -> int:
    """Cores this process may use that no other task is running on right now (at least 1): the
    usable cores less the tasks runnable at this instant besides this one (the fourth field of
    /proc/loadavg, `running/total`). Where that file is missing: every usable core.

    On a busy machine a second scan worker only splits the share of the CPU the first one gets,
    and costs its start-up and a second pass of its own (bench/scan.py, README "Speed")."""
    import os

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    try:
        with open(loadavg, encoding="ascii") as fh:
            others = int(fh.read().split()[3].split("/")[0]) - 1
    except (OSError, ValueError, IndexError):
        others = 0
    return max(1, (cores or 1) - max(others, 0))
