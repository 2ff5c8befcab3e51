"""errexplain: explain Python errors from pasted tracebacks, offline."""

from __future__ import annotations

__version__ = "0.1.0"
TYPE_CHECKING = False  # see errexplain.models: typing stays out of the fast path

if TYPE_CHECKING:
    from .catalog import Catalog
    from .models import Explanation

__all__ = ["__version__", "explain", "load_catalog", "lookup"]


def explain(text: str, *, catalogs: tuple[str, ...] = ()) -> tuple[Explanation, ...]:
    """Explain every distinct error in pasted text; one record per error.

    >>> from errexplain import explain
    >>> [r] = explain("ValueError: image QKV shapes must match")
    >>> r.matches[0].entry.source.path
    'sglang/kernels/ops/diffusion/rope/hunyuan_qkv_pack_triton.py'
    >>> r.to_dict()["matches"][0]["kind"]
    'exact'
    """
    from . import cache
    from .explainer import explain_text

    return explain_text(text, cache.load(catalogs))


def lookup(message: str, exc_type: str = "", *, catalogs: tuple[str, ...] = ()) -> Explanation:
    """Explain one message without a traceback.

    >>> from errexplain import lookup
    >>> lookup("16 is not divisible by 6").matches[0].kind
    'exact'
    """
    from . import cache
    from .explainer import explain_message

    return explain_message(message, exc_type, cache.load(catalogs))


def load_catalog(*dirs: str) -> Catalog:
    """Load and validate the bundled catalog merged with the given directories.

    >>> from errexplain import load_catalog
    >>> len(load_catalog().entries) > 1000
    True
    """
    from pathlib import Path

    from .catalog import bundled_dir
    from .catalog import load_catalog as _load

    return _load((bundled_dir(), *(Path(d) for d in dirs)))
