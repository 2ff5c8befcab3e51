"""The pytest plugin (entry point ``pytest11``): with ``--explain``, each failing test's report
gets an "errexplain" section that explains its exception.

pytest imports this module in every run where errexplain is installed, so it imports nothing
but pytest (already loaded) until ``--explain`` is given; without it no hook of ours runs.
"""

from __future__ import annotations

import pytest

from errexplain._startup import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Generator
    from types import TracebackType

SECTION = "errexplain"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("errexplain")
    group.addoption(
        "--explain",
        action="store_true",
        default=False,
        help="errexplain: add an 'errexplain' section explaining each failing test's error.",
    )
    group.addoption(
        "--explain-redact",
        action="store_true",
        default=False,
        help="errexplain: redact tokens, user names, IPs and hosts before explaining.",
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("explain"):
        config.pluginmanager.register(
            Explainer(redact=config.getoption("explain_redact")), "errexplain-explainer"
        )


class Explainer:
    """The hooks that run with ``--explain``."""

    def __init__(self, *, redact: bool) -> None:
        self.redact = redact

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        info = call.excinfo
        if report.failed and info is not None:
            from errexplain.integrations.report import explain_exception, note, plain

            try:
                tb = _user_frames(info.tb)
                exps = explain_exception(info.type, info.value, tb, redact=self.redact)
                text = plain(exps)
            except Exception as exc:
                text = note(exc)
            report.sections.append((SECTION, text))
        return report


def _user_frames(tb: TracebackType) -> TracebackType:
    """The traceback from the first frame outside pytest and pluggy (their own frames lead
    up to every test; pytest's report leaves them out too)."""
    import os

    import _pytest
    import pluggy

    internal = tuple(os.path.dirname(m.__file__ or "") + os.sep for m in (_pytest, pluggy))
    while tb.tb_next is not None and tb.tb_frame.f_code.co_filename.startswith(internal):
        tb = tb.tb_next
    return tb
