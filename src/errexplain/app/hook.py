"""`errexplain hook install|uninstall|status`: the `.pth` file that lets `ERREXPLAIN_HOOK=1`
install the excepthook in every Python process of this environment (processes you cannot
edit, such as a server's workers). Nothing is written unless asked.

The line costs one dictionary look-up at start-up: it imports nothing (``os`` is already
loaded by ``site``) unless the variable is set, and then only the small hook module.
"""

from __future__ import annotations

import os

from errexplain._startup import TYPE_CHECKING
from errexplain.errors import ErrexplainError, ExitCode

if TYPE_CHECKING:
    from errexplain.app.context import Context

ENV = "ERREXPLAIN_HOOK"
PTH_NAME = "errexplain-hook.pth"
PTH_LINE = (
    'import os; exec("try:\\n import errexplain.integrations.excepthook as h\\n'
    'except ImportError:\\n pass\\nelse:\\n h.install_from_env()") '
    f'if os.environ.get("{ENV}", "") not in ("", "0") else None\n'
)
"""One line: `site` executes .pth lines that start with `import`."""


def site_dir() -> str:
    """The site-packages directory of the running interpreter (the active environment)."""
    import sysconfig

    return sysconfig.get_paths()["purelib"]


def pth_path(directory: str | None = None) -> str:
    return os.path.join(directory or site_dir(), PTH_NAME)


def install(ctx: Context) -> ExitCode:
    path = pth_path()
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(PTH_LINE)
    except OSError as exc:
        raise ErrexplainError(
            f"cannot write {path}: {exc.strerror}",
            hint="install into a virtual environment you own, or run with the rights to "
            "write there",
        ) from None
    ctx.write(
        f"wrote {path}\nset {ENV}=1 to explain uncaught exceptions in this environment "
        f"({ENV}=logs: logged errors too)"
    )
    return ExitCode.EXPLAINED


def uninstall(ctx: Context) -> ExitCode:
    path = pth_path()
    try:
        os.remove(path)
    except FileNotFoundError:
        ctx.write(f"not installed ({path} does not exist)")
        return ExitCode.EXPLAINED
    except OSError as exc:
        raise ErrexplainError(f"cannot remove {path}: {exc.strerror}") from None
    ctx.write(f"removed {path}")
    return ExitCode.EXPLAINED


def status(ctx: Context) -> ExitCode:
    path = pth_path()
    try:
        with open(path, encoding="utf-8") as f:
            current = f.read() == PTH_LINE
        state = "installed" if current else "installed (an older line: run hook install again)"
    except FileNotFoundError:
        state = "not installed"
    env = os.environ.get(ENV)
    setting = f"{ENV}={env}" if env is not None else f"{ENV} is not set"
    switch = "on" if env not in (None, "", "0") else "off"
    ctx.write(f"{path}: {state}\n{setting}: {switch} in this shell")
    return ExitCode.EXPLAINED
