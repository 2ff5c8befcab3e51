"""extract.merge: which catalogued entry a freshly extracted site continues."""

from __future__ import annotations

from errexplain.extract.merge import match, new_ids
from errexplain.extract.records import Site

TEXT = "No output was produced for <params>"


def _entry(ident: str, kind: str, exception: str, line: int, removed: str | None) -> dict:
    entry = {
        "id": ident,
        "exception": exception,
        "kind": kind,
        "template": TEXT,
        "source": {"path": "pkg/app.py", "line": line, "function": "generate"},
    }
    if removed:
        entry["removed_in"] = removed
    return entry


def test_a_warning_that_replaced_a_raise_continues_its_own_entry_not_the_removed_raise():
    site = Site("pkg/app.py", 152, "log", "warning", TEXT, "generate")
    (same_id,) = new_ids([site], "pkg")  # the id the raise had: same place, function, text
    old = [
        _entry(same_id, "raise", "ValueError", 105, "0.9"),  # the raise of older releases
        _entry("b" * 16, "log", "warning", 150, None),  # the warning since 0.9, its own id
    ]
    assert match(old, [site], [same_id]).pairs == {0: 1}
    # a site of the same kind and exception keeps the entry with its id, removed or not
    raise_site = Site("pkg/app.py", 107, "raise", "ValueError", TEXT, "generate")
    assert match(old, [raise_site], [same_id]).pairs == {0: 0}
    # an error-level line demoted to a warning: another exception, the same kind
    old[0] = _entry(same_id, "log", "error", 105, "0.9")
    assert match(old, [site], [same_id]).pairs == {0: 1}
