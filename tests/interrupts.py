"""Shared by the Ctrl-C tests: start errexplain as a terminal's shell would, send Ctrl-C to its
process group, and never leave a hung process (or its pipes) to the tests that follow."""

from __future__ import annotations

import os
import signal
import subprocess
from typing import Any

INTERRUPTED = (130, -signal.SIGINT)
"""How a Ctrl-C'd errexplain ends: exit 130, or (rarely, since the index build's workers are
forked children; cause not found) by SIGINT itself, with nothing printed. A shell reports both
as $? = 130."""


def as_a_terminal_starts_it() -> None:
    """A shell started from a terminal runs a command with Ctrl-C at its default action. A
    process that inherits it ignored (a test runner's worker may hand that down) keeps
    ignoring it, as POSIX asks, and errexplain then rightly finishes: that is not the case
    under test."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def start(cmd: list[str], **kw: Any) -> subprocess.Popen[Any]:
    """`cmd` in a process group of its own, Ctrl-C at its default action, output piped."""
    return subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=as_a_terminal_starts_it,
        **kw,
    )


def ctrl_c(proc: subprocess.Popen[Any], timeout: float = 60) -> tuple[Any, Any]:
    """Ctrl-C as a terminal sends it (to the whole process group), then the output; a process
    still running after `timeout` is killed (its group too) before the timeout is raised."""
    os.killpg(proc.pid, signal.SIGINT)
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
