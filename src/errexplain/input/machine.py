"""The running machine's own names (login and host), which `--redact` replaces as well: read
here, at the edge, so that errexplain.redaction stays pure."""

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
