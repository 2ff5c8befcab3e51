"""errexplain: explain Python errors from pasted tracebacks, offline.

The public API; every import is lazy, so that `import errexplain` costs nothing.
"""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING
from errexplain._version import __version__

if TYPE_CHECKING:
    import os
    from collections.abc import Iterable

    from errexplain.catalog.load import Catalog
    from errexplain.models import Explanation

__all__ = ["__version__", "explain", "load_catalog", "lookup"]


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
    text: str | bytes, *, catalogs: str | os.PathLike[str] | Iterable[str] = ()
) -> tuple[Explanation, ...]:
    """Explain every distinct error in pasted text; one record per error. Bytes are decoded as
    UTF-8 (undecodable bytes replaced); `catalogs` is one directory or several; anything else
    is a TypeError.

    >>> from errexplain import explain
    >>> [r] = explain("ValueError: image QKV shapes must match")
    >>> r.matches[0].entry.source.path
    'sglang/kernels/ops/diffusion/rope/hunyuan_qkv_pack_triton.py'
    >>> r.matches[0].kind
    'exact'
    """
    from errexplain.catalog.store import load
    from errexplain.explainer import explain_text

    return explain_text(_text(text, "text"), load(_dirs(catalogs)))


def lookup(
    message: str | bytes,
    exc_type: str = "",
    *,
    catalogs: str | os.PathLike[str] | Iterable[str] = (),
) -> Explanation:
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


def load_catalog(*dirs: str) -> Catalog:
    """Load and validate the bundled catalog merged with the given directories.

    >>> from errexplain import load_catalog
    >>> len(load_catalog().entries) > 1000
    True
    """
    from errexplain.catalog.load import load_catalog as _load
    from errexplain.catalog.locate import catalog_dirs

    return _load(catalog_dirs(tuple(dirs)))
