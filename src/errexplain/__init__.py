"""errexplain: explain Python errors from pasted tracebacks, offline.

The public API; every import is lazy, so that `import errexplain` costs nothing.
"""

# (no `from __future__ import annotations`: the command imports this module before its
# bundle, and that import would read the standard library's __future__.py; the annotations
# that name typing-only names are written as strings)
from errexplain._version import __version__

TYPE_CHECKING = False  # as in errexplain._startup (not imported here: the .pth hook stays cheap)

if TYPE_CHECKING:
    import asyncio
    import os
    from collections.abc import Iterable
    from typing import Any

    from errexplain.catalog.load import Catalog
    from errexplain.models import Explanation

__all__ = [
    "__version__",
    "explain",
    "install",
    "load_catalog",
    "lookup",
    "redact",
    "uninstall",
]


def _text(value: object, what: str) -> str:
    """Text as given; bytes decoded as UTF-8 (undecodable bytes replaced); else TypeError."""
    if isinstance(value, str):
        return value
    if isinstance(value, bytes | bytearray):
        return bytes(value).decode("utf-8", errors="replace")
    raise TypeError(f"{what} must be text (str), not {type(value).__name__}")


def _dirs(catalogs: object) -> tuple[str, ...]:
    """Catalog directories: one path, or an iterable of paths (never a string's letters)."""
    import os

    if isinstance(catalogs, str | os.PathLike):
        return (str(os.fspath(catalogs)),)
    try:
        items: tuple[object, ...] = tuple(catalogs)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(
            f"catalogs must be a path or paths, not {type(catalogs).__name__}"
        ) from None
    out = []
    for item in items:
        if not isinstance(item, str | os.PathLike):
            raise TypeError(f"catalogs must be paths, not {type(item).__name__}")
        out.append(str(os.fspath(item)))
    return tuple(out)


def explain(
    text: str | bytes, *, catalogs: "str | os.PathLike[str] | Iterable[str]" = ()
) -> "tuple[Explanation, ...]":
    """Explain every distinct error in pasted text; one record per error. Bytes are decoded as
    UTF-8 (undecodable bytes replaced); `catalogs` is one directory or several; anything else
    is a TypeError. Each best match carries the code
    around its raise in `snippet`, as the command shows it.

    >>> from errexplain import explain
    >>> [r] = explain("ValueError: image QKV shapes must match")
    >>> r.matches[0].entry.source.path
    'sglang/kernels/ops/diffusion/rope/hunyuan_qkv_pack_triton.py'
    >>> r.matches[0].kind
    'exact'
    """
    from errexplain.app.snippets import with_snippet
    from errexplain.catalog.store import load
    from errexplain.explainer import explain_text

    return tuple(with_snippet(x) for x in explain_text(_text(text, "text"), load(_dirs(catalogs))))


def lookup(
    message: str | bytes,
    exc_type: str = "",
    *,
    catalogs: "str | os.PathLike[str] | Iterable[str]" = (),
) -> "Explanation":
    """Explain one message without a traceback. A whole traceback or log given as the message
    is parsed as `explain` parses it, and its first error explained.

    >>> from errexplain import lookup
    >>> lookup("16 is not divisible by 6").matches[0].kind
    'exact'
    """
    from errexplain.catalog.store import load
    from errexplain.explainer import explain_error, explain_message, pasted_errors

    message, exc_type = _text(message, "message"), _text(exc_type, "exc_type")
    catalogs = _dirs(catalogs)
    errors = () if exc_type else pasted_errors(message)
    if errors:
        return explain_error(errors[0], load(catalogs))
    return explain_message(message, exc_type, load(catalogs))


def load_catalog(*dirs: str) -> "Catalog":
    """Load and validate the bundled catalog merged with the given directories.

    >>> from errexplain import load_catalog
    >>> len(load_catalog().entries) > 1000
    True
    """
    from errexplain.catalog.load import load_catalog as _load
    from errexplain.catalog.locate import catalog_dirs

    return _load(catalog_dirs(tuple(dirs)))


def redact(text: str) -> str:
    """The text with tokens, passwords, e-mail addresses, user names of home paths, IP
    addresses and host names replaced by placeholders (`<token-1>`, `<user-1>`, ...; the same
    value gets the same placeholder). The README lists what is covered.

    >>> from errexplain import redact
    >>> redact('File "/home/alice/run.py", line 3 (token hf_abcdefghijklmnopqrstuvwxyz0123456)')
    'File "/home/<user-1>/run.py", line 3 (token <token-1>)'
    """
    from errexplain.redaction import redact as _redact

    return _redact(text)


def install(
    *,
    threads: bool = True,
    loop: "asyncio.AbstractEventLoop | None" = None,
    redact: bool = False,
    logs: bool = False,
) -> None:
    """Explain uncaught exceptions: after Python prints the traceback (unchanged), the
    explanation follows on stderr. Also for threads (`threads=False`: not), and for an asyncio
    loop's unhandled errors when `loop` is given. `redact=True` redacts before explaining.
    `logs=True`: also errors the program logs itself at ERROR or above with a traceback
    (`logger.exception(...)`), after the program's own handlers have written the record; an
    exception both logged and uncaught is explained once.

    >>> import errexplain, sys
    >>> errexplain.install()
    >>> sys.excepthook.__module__
    'errexplain.integrations.excepthook'
    >>> errexplain.uninstall()
    """
    from errexplain.integrations.excepthook import install as _install

    _install(threads=threads, loop=loop, redact=redact, logs=logs)


def uninstall() -> None:
    """Put back the hooks that :func:`install` replaced."""
    from errexplain.integrations.excepthook import uninstall as _uninstall

    _uninstall()


def load_ipython_extension(ipython: "Any") -> None:
    """`%load_ext errexplain` (IPython, Jupyter): the explanation after IPython's traceback."""
    from errexplain.integrations.ipython import load

    load(ipython)


def unload_ipython_extension(ipython: "Any") -> None:
    """`%unload_ext errexplain`."""
    from errexplain.integrations.ipython import unload

    unload(ipython)
