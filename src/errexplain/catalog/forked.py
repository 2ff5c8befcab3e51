"""Work shared by forked children that write their results down a pipe: no threads, no locks.

An index build spreads its YAML parsing and its record encoding over a process per core.
``multiprocessing.Pool`` did that with three handler threads and a shared queue whose lock a
worker holds while it waits; stopping it on Ctrl-C (``terminate``) has to untangle those, and
once, under load, did not return. Here each child has its own pipe and the parent is the only
reader: stopping is killing the children and reaping them, which cannot wait on anything.
"""

from __future__ import annotations

import os
import pickle
import struct
from contextlib import suppress

from errexplain._startup import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from typing import Any

_HEAD = struct.Struct("<?Q")  # (an error?, payload length)
_CHUNK = 1 << 20


def _ctrl_c_blocked() -> bool | None:
    """Whether SIGINT is blocked in this thread (None where signal masks do not exist)."""
    import signal

    if not hasattr(signal, "pthread_sigmask"):
        return None
    return signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, ())


def _set_ctrl_c_blocked(blocked: bool | None) -> None:
    """Block or unblock SIGINT in this thread (nothing for None)."""
    import signal

    if blocked is not None:
        how = signal.SIG_BLOCK if blocked else signal.SIG_UNBLOCK
        signal.pthread_sigmask(how, {signal.SIGINT})


def quiet_worker() -> None:
    """A worker leaves Ctrl-C to the parent (which stops the children and exits 130) and dies
    quietly on SIGTERM, instead of each printing a traceback."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):  # born blocked (Forked); now ignored
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def can_fork() -> bool:
    return hasattr(os, "fork")


class Forked:
    """`count` children, child k sending each value of `work(k)` to the parent as it comes.

    Read them with :meth:`results` (in arrival order, each with its child's number); an
    exception raised in a child is raised again in the parent. :meth:`close` (or leaving a
    ``with`` block) kills the children that still run and reaps them all; it is safe to call
    at any point, also from a KeyboardInterrupt.
    """

    def __init__(self, count: int, work: Callable[[int], Iterable[Any]]) -> None:
        self._pids: dict[int, int] = {}  # read end -> child pid
        self._child: dict[int, int] = {}  # read end -> child number
        self._reaped: set[int] = set()
        # The children are born with SIGINT blocked, and unblock it only once quiet_worker has
        # set it to be ignored: a Ctrl-C that reaches the process group between a fork and the
        # worker's own set-up would otherwise print the worker's KeyboardInterrupt traceback.
        before = _ctrl_c_blocked()
        try:
            try:
                _set_ctrl_c_blocked(None if before is None else True)
                self._fork(count, work)
            finally:
                # Put the mask back, and again when a signal handler (a timer's) raised before
                # it was: SIGINT left blocked here is inherited by every command started later
                # (`errexplain run`'s), which then never sees Ctrl-C. A call can be interrupted
                # on entry, so the retry is here, not in a helper. Unblocking delivers a Ctrl-C
                # pressed meanwhile, as its KeyboardInterrupt, which stops the children below.
                raised: BaseException | None = None
                while True:
                    try:
                        _set_ctrl_c_blocked(before)
                    except BaseException as exc:
                        raised = raised or exc
                        if before is not None and _ctrl_c_blocked() != before:
                            continue
                    break
                if raised is not None:
                    raise raised
        except BaseException:
            self.close()
            raise

    def _fork(self, count: int, work: Callable[[int], Iterable[Any]]) -> None:
        for k in range(count):
            read_end, write_end = os.pipe()
            pid = os.fork()
            if pid == 0:  # the child: never returns
                os.close(read_end)
                _serve(write_end, work, k)
            os.close(write_end)
            self._pids[read_end] = pid
            self._child[read_end] = k

    def __enter__(self) -> Forked:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def results(self) -> Iterator[tuple[int, Any]]:
        import selectors

        with selectors.DefaultSelector() as sel:
            buffers = {}
            for fd in self._pids:
                sel.register(fd, selectors.EVENT_READ)
                buffers[fd] = bytearray()
            while buffers:
                for key, _ in sel.select():
                    fd = key.fd
                    chunk = os.read(fd, _CHUNK)
                    buf = buffers[fd]
                    if chunk:
                        buf += chunk
                        yield from self._frames(fd, buf)
                        continue
                    sel.unregister(fd)
                    del buffers[fd]
                    self._reap(fd, complete=not buf)

    def _frames(self, fd: int, buf: bytearray) -> Iterator[tuple[int, Any]]:
        """The whole frames at the start of `buf`, taken off it."""
        start = 0
        while len(buf) - start >= _HEAD.size:
            failed, size = _HEAD.unpack_from(buf, start)
            end = start + _HEAD.size + size
            if len(buf) < end:
                break
            value = pickle.loads(memoryview(buf)[start + _HEAD.size : end])
            start = end
            if failed:
                del buf[:start]
                raise value
            yield self._child[fd], value
        del buf[:start]

    def _reap(self, fd: int, complete: bool) -> None:
        pid = self._pids[fd]
        _, status = os.waitpid(pid, 0)
        self._reaped.add(fd)
        if not complete or os.waitstatus_to_exitcode(status) != 0:
            from errexplain.errors import CatalogError

            raise CatalogError(
                f"a worker building the catalog index (pid {pid}) ended before its work was "
                f"done (exit status {os.waitstatus_to_exitcode(status)})",
                hint="it may have run out of memory; run errexplain again",
            )

    def close(self) -> None:
        """Kill the children still running, reap every child, close the pipes."""
        import signal

        pids, self._pids = self._pids, {}
        for fd, pid in pids.items():
            if fd not in self._reaped:
                with suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        for fd, pid in pids.items():
            if fd not in self._reaped:
                with suppress(ChildProcessError):
                    os.waitpid(pid, 0)
            os.close(fd)


def _serve(write_end: int, work: Callable[[int], Iterable[Any]], k: int) -> None:
    """In the child: send each value of `work(k)`, or the exception it raised, then exit
    without running the parent's exit handlers or flushing its inherited buffers."""
    status = 0
    try:
        quiet_worker()
        for value in work(k):
            _send(write_end, False, value)
    except BaseException as exc:  # sent to the parent, which raises it
        status = 1
        with suppress(BaseException):  # unpicklable, or the parent is gone
            _send(write_end, True, exc)
    finally:
        os._exit(status)


def _send(fd: int, failed: bool, value: Any) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_HEAD.pack(failed, len(data)) + data)
    while view:
        view = view[os.write(fd, view) :]
