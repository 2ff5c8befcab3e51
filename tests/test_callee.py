"""A traceback whose innermost frame calls a function by name, the frames below it left out (a
paster's condensed trace): of the sites that raise the same text, the one in that function
comes first, though no frame is in its file; frames written relative to the project's own
package (`srt/layers.py`, as a poster shortens them) are the project's, not another package."""

from __future__ import annotations

from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import explain_text
from errexplain.models import Entry, Source

TEXT = "rows=<rows>, slots=<slots>"


def _entry(letter: str, path: str, function: str) -> Entry:
    return Entry(
        id=letter * 16,
        project="demo",
        exception="AssertionError",
        template=TEXT,
        source=Source("demo", "1.0", path, 10, function, None),
        kind="assert",
    )


VIEW = MemoryCatalog(
    [
        _entry("a", "demo/srt/layers.py", "Linear.fill"),
        _entry("b", "demo/srt/params.py", "Param.copy_rows"),
    ]
)


def _paste(inner: str) -> str:
    return (
        "Loading dies:\n```\n"
        'File "srt/models/net.py", line 40, in load_all\n'
        f'File "srt/layers.py", line 118, in {inner}\n'
        "AssertionError: rows=3, slots=4\n```\n"
    )


def test_the_site_in_the_function_the_innermost_frame_calls_comes_first():
    (exp,) = explain_text(_paste("fill_v2  ->  param.copy_rows("), VIEW)
    assert exp.matches[0].entry.id == "b" * 16
    assert "the innermost frame calls copy_rows" in exp.matches[0].reasons[-1]
    assert not exp.look_alike  # (`srt/` is the project's own directory, not a package)


def test_without_the_call_the_frames_file_decides():
    (exp,) = explain_text(_paste("fill_v2  ->  param.copy(rows)"), VIEW)
    assert exp.matches[0].entry.id == "a" * 16
