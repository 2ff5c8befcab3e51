"""errexplain: explain Python errors from pasted tracebacks, offline.

The public API; every import is lazy, so that `import errexplain` costs nothing.
"""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING
from errexplain._version import __version__

if TYPE_CHECKING:
    from errexplain.catalog.load import Catalog
    from errexplain.models import Explanation

__all__ = ["__version__", "explain", "load_catalog", "lookup"]


def explain(text: str, *, catalogs: tuple[str, ...] = ()) -> tuple[Explanation, ...]:
    """Explain every distinct error in pasted text; one record per error (with the code around
    each best match's raise in `snippet`, as the command shows it).

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

    return tuple(with_snippet(x) for x in explain_text(text, load(catalogs)))


def lookup(message: str, exc_type: str = "", *, catalogs: tuple[str, ...] = ()) -> Explanation:
    """Explain one message without a traceback. A whole traceback or log given as the message
    is parsed as `explain` parses it, and its first error explained.

    >>> from errexplain import lookup
    >>> lookup("16 is not divisible by 6").matches[0].kind
    'exact'
    """
    from errexplain.catalog.store import load
    from errexplain.explainer import explain_error, explain_message, pasted_errors

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
