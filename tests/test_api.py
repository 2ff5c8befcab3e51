"""The public API refuses what it cannot use with a clear TypeError (issue 14: `explain(None)`,
bytes and `catalogs="str"`, iterated letter by letter, failed deep inside)."""

from __future__ import annotations

from pathlib import Path

import pytest

import errexplain

CATALOG = Path(__file__).parent / "data" / "catalog"
MSG = "ValueError: feature length does not match image grids: 5824 != 5760"


@pytest.mark.parametrize("bad", [None, 3, ["ValueError: x"]])
def test_explain_refuses_what_is_not_text(bad):
    with pytest.raises(TypeError, match="must be text"):
        errexplain.explain(bad)
    with pytest.raises(TypeError, match="must be text"):
        errexplain.lookup(bad)


def test_bytes_are_decoded_and_one_catalog_path_is_one_directory():
    a = errexplain.explain(MSG.encode(), catalogs=str(CATALOG))
    b = errexplain.explain(MSG, catalogs=(str(CATALOG),))
    c = errexplain.explain(MSG.encode(), catalogs=CATALOG)
    assert a == b == c and a[0].matches
    assert errexplain.lookup(MSG.encode(), catalogs=str(CATALOG)).matches


@pytest.mark.parametrize("bad", [3, [3], [None]])
def test_catalogs_must_be_paths(bad):
    with pytest.raises(TypeError, match="catalogs must be"):
        errexplain.explain(MSG, catalogs=bad)
