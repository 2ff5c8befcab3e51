"""Forked workers: values arrive from every child, a child's exception is raised in the
parent, a child that dies is reported, and stopping early leaves no process behind."""

from __future__ import annotations

import os
import signal
import time

import pytest

from errexplain.catalog import forked
from errexplain.catalog.forked import Forked
from errexplain.errors import CatalogError

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="forked workers need fork")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _children(forked: Forked) -> list[int]:
    return list(forked._pids.values())


def test_every_value_of_every_child_arrives():
    big = "x" * 300_000  # more than a pipe holds: the child writes while the parent reads
    with Forked(3, lambda k: ((k, i, big) for i in range(5))) as children:
        got = sorted((k, v[1]) for k, v in children.results())
        assert all(not _alive(pid) for pid in _children(children))  # reaped on their EOF
    assert got == [(k, i) for k in range(3) for i in range(5)]


def test_an_exception_in_a_child_is_raised_in_the_parent_with_its_hint():
    def work(k: int):
        yield k
        if k == 1:
            raise CatalogError("bad module file m1.yaml", hint="fix line 3")

    with Forked(2, work) as children, pytest.raises(CatalogError) as caught:
        list(children.results())
    assert caught.value.message == "bad module file m1.yaml"
    assert caught.value.hint == "fix line 3"


def test_a_child_that_dies_is_a_one_line_catalog_error():
    def work(k: int):
        yield k
        if k == 0:
            os.kill(os.getpid(), signal.SIGKILL)  # as the out-of-memory killer would
        yield k

    with Forked(2, work) as children, pytest.raises(CatalogError) as caught:
        list(children.results())
    assert "ended before its work was done" in caught.value.message
    assert "\n" not in caught.value.message


def test_closing_early_kills_and_reaps_the_children():
    def forever(k: int):
        while True:
            time.sleep(0.01)
            yield k

    children = Forked(2, forever)
    pids = _children(children)
    results = children.results()
    next(results)  # they run
    children.close()
    for pid in pids:  # reaped: not even a zombie is left (kill(pid, 0) fails)
        assert not _alive(pid)
    children.close()  # twice is harmless


def test_an_interrupt_while_waiting_stops_the_children():
    def slow(k: int):
        time.sleep(30)
        yield k

    def interrupt(*_: object) -> None:
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        started = time.monotonic()
        with pytest.raises(KeyboardInterrupt), Forked(2, slow) as children:
            pids = _children(children)
            list(children.results())
        assert time.monotonic() - started < 10
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert not any(_alive(pid) for pid in pids)
    assert not _sigint_blocked()


def _sigint_blocked() -> bool:
    return signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, ())


needs_masks = pytest.mark.skipif(
    not hasattr(signal, "pthread_sigmask"), reason="no signal masks here"
)


@needs_masks
@pytest.mark.parametrize("when", ["forking", "putting the mask back"])
def test_an_interrupt_never_leaves_ctrl_c_blocked(monkeypatch, when):
    """SIGINT is blocked while the children are forked; a signal handler's exception raised
    while forking, or just before the mask is put back (a call interrupted on entry), must not
    leave it blocked: every command started later would inherit that and never see Ctrl-C."""
    real_set = forked._set_ctrl_c_blocked
    real_fork = Forked._fork
    raised = []

    def interrupted_set(blocked):
        if blocked is False and when == "putting the mask back" and not raised:
            raised.append(blocked)
            raise KeyboardInterrupt
        real_set(blocked)

    made = []

    def interrupted_fork(self, count, work):
        real_fork(self, 1, work)
        made.extend(_children(self))
        assert _sigint_blocked()  # the children are forked with it blocked
        if when == "forking":
            raise KeyboardInterrupt
        real_fork(self, count - 1, work)
        made[:] = _children(self)

    def slow(k: int):
        time.sleep(30)
        yield k

    monkeypatch.setattr(forked, "_set_ctrl_c_blocked", interrupted_set)
    monkeypatch.setattr(Forked, "_fork", interrupted_fork)
    assert not _sigint_blocked()
    children = None
    with pytest.raises(KeyboardInterrupt):
        children = Forked(2, slow)
    assert not _sigint_blocked()
    assert children is None
    assert len(made) == (1 if when == "forking" else 2)
    assert not any(_alive(pid) for pid in made)  # stopped and reaped
