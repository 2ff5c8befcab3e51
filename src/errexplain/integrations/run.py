"""`errexplain run -- CMD`: run a command with its output passed through unchanged, keeping a
bounded tail of it to explain when it exits.

* Output: the child's stdout and stderr are copied, as they come, to ours (byte for byte,
  in chunks of what each read returns). Where our stdout (or stderr) is a terminal, the child
  gets a pseudo-terminal for it instead of a pipe, so it still sees a terminal (colours,
  progress bars, line buffering); the pty's output post-processing is turned off, so the bytes
  reaching our terminal are the child's own. Otherwise plain pipes. stdin is inherited.
* Memory: the last TAIL bytes of both streams together, in arrival order, are kept; earlier
  output is passed through and counted, not kept.
* Signals: SIGTERM and SIGHUP sent to us are forwarded to the child; so is SIGINT, unless our
  stdin is a terminal (then Ctrl-C already reached the child, which runs in our foreground
  process group, and forwarding would deliver it twice). We wait for the child either way.
* Exit code: the child's own, or 128+N when a signal N ended it, as shells report it.
"""

from __future__ import annotations

import os
import signal
import sys
from contextlib import suppress

from errexplain._startup import TYPE_CHECKING, Record
from errexplain.errors import CommandError, ExitCode

if TYPE_CHECKING:
    import subprocess
    from collections.abc import Sequence
    from types import FrameType

TAIL = 8 * 1024 * 1024
"""Bytes of the command's latest output kept for explaining (stdout and stderr together)."""
READ = 64 * 1024
FORWARDED = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


class Outcome(Record):
    """How the command ended and the tail of what it printed."""

    code: int
    """Its exit code, or 128+N when signal N ended it."""
    signal: int | None
    output: bytes
    dropped: int
    """Bytes of output before `output` that were passed through but not kept."""


class Tail:
    """The last `limit` bytes added, in order."""

    def __init__(self, limit: int = TAIL) -> None:
        self.limit = limit
        self.chunks: list[bytes] = []
        self.size = 0
        self.dropped = 0

    def add(self, data: bytes) -> None:
        self.chunks.append(data)
        self.size += len(data)
        while self.size - len(self.chunks[0]) >= self.limit:
            first = self.chunks.pop(0)
            self.size -= len(first)
            self.dropped += len(first)

    def value(self) -> bytes:
        data = b"".join(self.chunks)
        cut = max(len(data) - self.limit, 0)
        return data[cut:]


def command_for(argv: Sequence[str]) -> list[str]:
    """The command to start: a Python script (`run script.py ARGS`) runs under this
    interpreter; anything else as given."""
    if argv and argv[0].endswith(".py") and os.path.isfile(argv[0]):
        return [sys.executable, *argv]
    return list(argv)


def check_command(argv: Sequence[str]) -> None:
    """Refuse, as a shell does, a command that cannot be found (127) or run (126)."""
    import shutil

    if not argv:
        raise CommandError("no command given", hint="errexplain run -- CMD [ARGS...]")
    name = argv[0]
    if os.sep not in name:
        if shutil.which(name) is None:
            raise CommandError(
                f"{name}: command not found",
                hint="check the name and PATH, or give a path to the program",
                code=ExitCode.COMMAND_NOT_FOUND,
            )
        return
    if not os.path.exists(name):
        raise CommandError(f"{name}: no such file", code=ExitCode.COMMAND_NOT_FOUND)
    if os.path.isdir(name) or not os.access(name, os.X_OK):
        raise CommandError(
            f"{name}: permission denied (not an executable file)",
            hint=f"chmod +x {name}, or run it with its interpreter",
            code=ExitCode.CANNOT_EXECUTE,
        )


def _pty_pair(like_fd: int) -> tuple[int, int]:
    """A pseudo-terminal (master, slave) sized like `like_fd`, with output post-processing off
    (no \\n -> \\r\\n: our own terminal does that once)."""
    import fcntl
    import pty
    import termios

    master, slave = pty.openpty()
    attrs = termios.tcgetattr(slave)
    attrs[1] &= ~termios.OPOST
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    with suppress(OSError):
        size = fcntl.ioctl(like_fd, termios.TIOCGWINSZ, b"\0" * 8)
        fcntl.ioctl(slave, termios.TIOCSWINSZ, size)
    return master, slave


def _outputs(out_fd: int, err_fd: int, use_pty: bool | None) -> list[tuple[int, int]]:
    """(our end, the child's end) for the child's stdout and stderr."""
    pairs = []
    for fd in (out_fd, err_fd):
        tty = os.isatty(fd) if use_pty is None else use_pty
        if tty and sys.platform != "win32":
            pairs.append(_pty_pair(fd))
        else:
            pairs.append(os.pipe())
    return pairs


def _write_all(fd: int, data: bytes) -> bool:
    """Write everything; False when the reader went away (keep draining the child anyway)."""
    view = memoryview(data)
    while view:
        try:
            n = os.write(fd, view)
        except BrokenPipeError:
            return False
        except InterruptedError:  # pragma: no cover (PEP 475 retries)
            continue
        view = view[n:]
    return True


def _pump(proc: subprocess.Popen[bytes], sources: dict[int, int], tail: Tail) -> None:
    """Copy each source fd to its destination fd until all are closed (or the child is gone
    and its output has gone quiet: a grandchild may hold a pipe open)."""
    import selectors

    sel = selectors.DefaultSelector()
    for fd in sources:
        sel.register(fd, selectors.EVENT_READ)
    open_dest = dict.fromkeys(sources.values(), True)
    try:
        while sources:
            events = sel.select(timeout=0.2)
            if not events and proc.poll() is not None:
                break
            for key, _ in events:
                fd = int(key.fd)
                try:
                    data = os.read(fd, READ)
                except OSError:  # EIO: the pty's last writer closed it
                    data = b""
                if not data:
                    sel.unregister(fd)
                    del sources[fd]
                    continue
                tail.add(data)
                dest = sources[fd]
                if open_dest[dest]:
                    open_dest[dest] = _write_all(dest, data)
    finally:
        sel.close()


def _forwarder(proc: subprocess.Popen[bytes], stdin_tty: bool) -> dict[int, object]:
    """Install handlers that forward signals to the child; return the old handlers."""

    def forward(signum: int, frame: FrameType | None) -> None:
        if signum == signal.SIGINT and stdin_tty:
            return  # the terminal sent it to the child as well
        if proc.poll() is None:
            proc.send_signal(signum)

    old: dict[int, object] = {}
    for sig in FORWARDED:
        with suppress(ValueError, OSError):  # not the main thread, or not on this platform
            old[sig] = signal.signal(sig, forward)
    return old


def run_command(
    argv: Sequence[str],
    *,
    out_fd: int = 1,
    err_fd: int = 2,
    use_pty: bool | None = None,
    keep: int = TAIL,
) -> Outcome:
    """Run `argv`, passing its output through to `out_fd`/`err_fd`; see the module docstring."""
    import subprocess

    check_command(argv)
    (out_r, out_w), (err_r, err_w) = _outputs(out_fd, err_fd, use_pty)
    try:
        proc = subprocess.Popen(list(argv), stdout=out_w, stderr=err_w)
    except FileNotFoundError:
        _close(out_r, out_w, err_r, err_w)
        raise CommandError(
            f"{argv[0]}: command not found", code=ExitCode.COMMAND_NOT_FOUND
        ) from None
    except OSError as exc:
        _close(out_r, out_w, err_r, err_w)
        raise CommandError(f"{argv[0]}: {exc.strerror}", code=ExitCode.CANNOT_EXECUTE) from None
    _close(out_w, err_w)
    old = _forwarder(proc, _isatty(0))
    tail = Tail(keep)
    try:
        _pump(proc, {out_r: out_fd, err_r: err_fd}, tail)
        code = proc.wait()
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)  # type: ignore[arg-type]
        _close(out_r, err_r)
    if code < 0:
        return Outcome(128 - code, -code, tail.value(), tail.dropped)
    return Outcome(code, None, tail.value(), tail.dropped)


def _isatty(fd: int) -> bool:
    try:
        return os.isatty(fd)
    except OSError:  # pragma: no cover
        return False


def _close(*fds: int) -> None:
    for fd in fds:
        with suppress(OSError):
            os.close(fd)
