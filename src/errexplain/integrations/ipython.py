"""`%load_ext errexplain`: IPython shows its own traceback, then the explanation.

A custom exception handler (``InteractiveShell.set_custom_exc``) calls IPython's standard
display first (``shell.showtraceback``), then displays the explanation as an object with a
plain-text and an HTML representation: a terminal shows the text, a notebook the HTML.
``%unload_ext errexplain`` puts back the handler that was there before.
"""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING

if TYPE_CHECKING:
    from types import TracebackType
    from typing import Any

    from errexplain.models import Explanation

_saved: dict[int, tuple[Any, Any]] = {}


class Explained:
    """The explanation of one exception, as IPython displays it (text/plain, text/html)."""

    def __init__(self, exps: tuple[Explanation, ...]) -> None:
        from errexplain.integrations.report import HEADER, plain

        self.exps = exps
        self.text = HEADER + plain(exps)

    def __repr__(self) -> str:
        return self.text.rstrip("\n")

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(repr(self))

    def _repr_html_(self) -> str | None:
        from errexplain.integrations.report import html

        try:
            return html(self.exps)
        except Exception:  # a text/plain rendering is shown instead
            return None


def _handler(
    shell: Any,
    etype: type[BaseException],
    value: BaseException,
    tb: TracebackType | None,
    tb_offset: int | None = None,
) -> None:
    shell.showtraceback((etype, value, tb), tb_offset=tb_offset)

    def show() -> None:
        from IPython.display import display

        from errexplain.integrations.report import explain_exception

        exps = explain_exception(etype, value, _user_frames(shell, tb, tb_offset))
        display(Explained(exps))  # type: ignore[no-untyped-call]

    import sys

    from errexplain.integrations.report import guarded

    guarded(show, sys.stdout)


def _user_frames(shell: Any, tb: TracebackType | None, offset: int | None) -> TracebackType | None:
    """The traceback without IPython's own frames at its head (`run_code`), as IPython shows
    it: `offset` frames skipped, by default the shell's (1)."""
    skip = offset if offset is not None else getattr(shell.InteractiveTB, "tb_offset", 1)
    for _ in range(skip or 0):
        if tb is None or tb.tb_next is None:
            break
        tb = tb.tb_next
    return tb


def load(shell: Any) -> None:
    """`%load_ext errexplain`."""
    if id(shell) not in _saved:
        _saved[id(shell)] = (shell.custom_exceptions, getattr(shell, "CustomTB", None))
    shell.set_custom_exc((Exception,), _handler)


def unload(shell: Any) -> None:
    """`%unload_ext errexplain`: the handler (and the exception classes) from before."""
    exceptions, custom = _saved.pop(id(shell), ((), None))
    shell.custom_exceptions = exceptions
    if custom is not None:
        shell.CustomTB = custom
