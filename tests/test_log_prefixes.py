"""Sites of one project that raise the same text in parts that log differently (project.yaml
`log_prefixes`) are told apart by the prefix of the paste's log line; and of a text the project
raises both in a file adapted from another project and in one of its own, only the adapted file
is said to be adapted."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.views import catalog_view

from errexplain._startup import replace
from errexplain.catalog.load import CatalogError, load_project
from errexplain.explainer import SHARED_CAP, explain_text
from errexplain.models import Entry, Project, Source, make_id

SERVER = "pkg/server/launch.py"
IMAGES = "pkg/images/launch.py"
PROJECT = Project(
    "pkg",
    "1.0",
    adapted=(("imagelib", (IMAGES,)),),
    log_prefixes=(
        ("pkg/images/", (r"\[\d\d-\d\d \d\d:\d\d:\d\d[^\]]*\] ",)),
        ("pkg/server/", (r"\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d[^\]]*\] ",)),
    ),
)
TEXT = "Worker <i> has stopped responding. Look at the worker's own log above."


def _entry(
    path: str,
    template: str,
    line: int,
    function: str = "start",
    kind: str = "log",
    exception: str = "error",
) -> Entry:
    return Entry(
        id=make_id("pkg", path, f"{function}#{line}", template),
        project="pkg",
        exception=exception,
        kind=kind,
        template=template,
        source=Source("pkg", "1.0", path, line, function, None),
        derived=True,
    )


# the images part names its placeholder otherwise: the literal text is what counts
ENTRIES = (
    _entry(IMAGES, TEXT.replace("<i>", "<offset + i>"), 7),
    _entry(SERVER, TEXT, 40),
    _entry("pkg/server/other.py", "Something else entirely went wrong in the worker pool", 3),
)


@pytest.fixture(params=["memory", "index"])
def view(request):
    return catalog_view(request.param, ENTRIES, [PROJECT])


def _paths(exp):
    return [m.entry.source.path for m in exp.matches]


@pytest.mark.parametrize(
    ("line", "first"),
    [
        ("[2026-03-01 10:00:00 TP0] Worker 3 has stopped responding.", SERVER),
        ("[2026-03-01 10:00:00] Worker 3 has stopped responding.", SERVER),
        ("[03-01 10:00:00] Worker 3 has stopped responding.", IMAGES),
    ],
)
def test_the_log_prefix_picks_the_part_that_logs_so(view, line, first):
    (exp,) = explain_text(f"some output\n{line}\n", view)
    assert _paths(exp)[:2] in ([SERVER, IMAGES], [IMAGES, SERVER])
    assert _paths(exp)[0] == first
    if first == SERVER:
        assert any("opens `[2026-03-01 10:00:00" in r for r in exp.matches[0].reasons)
        assert exp.matches[0].score >= exp.matches[1].score


TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "x.py", line 1, in run\n'
    "RuntimeError: Worker 3 has stopped responding. Look at the worker's own log above.\n"
)


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("[2026-03-01 10:00:00 TP0] worker loop failed:\n" + TRACEBACK, SERVER),
        # the lines are numbered as the parser numbers them (a progress bar's lone \r breaks a
        # line): the record read is the images part's, above the traceback, not the server's,
        # logged after it
        (
            "[03-01 10:00:00] worker loop failed:\n"
            "Loading 10%\rLoading 50%\rLoading 100%\n"
            + TRACEBACK
            + "[2026-03-01 10:00:09 TP0] shutting down\n[2026-03-01 10:00:10 TP0] bye\n",
            IMAGES,
        ),
    ],
)
def test_a_traceback_under_a_prefixed_record_is_read_by_that_record(view, text, first):
    (exp,) = explain_text(text, view)
    assert _paths(exp)[0] == first


RAISED = "You must pass exactly one of ids or embeds to this model"


def _raise(path: str, line: int, function: str) -> Entry:
    return _entry(path, RAISED, line, function, kind="raise", exception="ValueError")


@pytest.mark.parametrize("kind", ["memory", "index"])
def test_a_frame_in_a_sites_file_outranks_the_record_that_logged_the_traceback(kind):
    """The server's record announces a traceback raised in the images part (the innermost
    frame is in its file, `raise ValueError(msg)` with the text built above it): the record
    says which part logged it, the frame which raised it."""
    view = catalog_view(
        kind, (_raise(SERVER, 40, "forward"), _raise(IMAGES, 12, "encode")), [PROJECT]
    )
    text = (
        "[2026-03-01 10:00:00 TP0] Scheduler hit an exception\n"
        "Traceback (most recent call last):\n"
        f'  File "/usr/lib/python3/site-packages/{IMAGES}", line 12, in encode\n'
        "    raise ValueError(msg)\n"
        f"ValueError: {RAISED}\n"
    )
    (exp,) = explain_text(text, view)
    assert _paths(exp)[0] == IMAGES
    assert not any("log line opens" in r for r in exp.matches[0].reasons)


def test_no_prefix_leaves_the_order_alone(view):
    bare = explain_text("Worker 3 has stopped responding.\n", view)
    (exp,) = explain_text("[2026-03-01 10:00:00] Worker 3 has stopped responding.\n", view)
    assert not any("log line opens" in r for m in bare[0].matches for r in m.reasons)
    assert {m.entry.source.path for m in bare[0].matches} == set(_paths(exp))


def test_only_the_adapted_file_is_said_to_be_adapted(view):
    """The images file was adapted from imagelib; the server's own file raises the same text.
    Both are capped (the text may be imagelib's), but the server's site is not said to be
    adapted: its reason names the file that was."""
    (exp,) = explain_text("[03-01 10:00:00] Worker 3 has stopped responding.\n", view)
    by_path = {m.entry.source.path: m for m in exp.matches}
    assert by_path[IMAGES].reasons[-1] == (
        "but pkg adapted this file from imagelib, which may raise the same text"
    )
    assert by_path[SERVER].reasons[-1] == (
        f"but the same text is raised in {IMAGES}, which pkg adapted from imagelib: "
        "imagelib may raise it too"
    )
    assert all(m.score <= SHARED_CAP for m in exp.matches)


def test_log_prefixes_in_project_yaml(tmp_path: Path):
    (tmp_path / "project.yaml").write_text(
        "name: pkg\nlog_prefixes:\n  pkg/a/:\n  - '\\[\\d+\\] '\n  pkg/:\n  - 'INFO '\n"
    )
    project = load_project(tmp_path)
    assert project.log_prefixes == (("pkg/a/", (r"\[\d+\] ",)), ("pkg/", ("INFO ",)))
    assert project.logs_like("pkg/a/x.py") == (r"\[\d+\] ",)  # the longest prefix
    assert project.logs_like("pkg/b/x.py") == ("INFO ",)
    assert project.logs_like("other/x.py") is None
    for bad in (
        "log_prefixes: ['x']\n",
        "log_prefixes:\n  pkg/: []\n",
        "log_prefixes:\n  pkg/: [1]\n",
        "log_prefixes:\n  pkg/: ['[unclosed']\n",
    ):
        (tmp_path / "project.yaml").write_text("name: pkg\n" + bad)
        with pytest.raises(CatalogError, match="log_prefixes"):
            load_project(tmp_path)


@pytest.mark.parametrize(
    "line",
    [
        "worker-1  | [2026-03-01 10:00:00 TP0] Worker 3 has stopped responding.",
        "> [2026-03-01 10:00:00 TP0] Worker 3 has stopped responding.",
        "\x1b[31m[2026-03-01 10:00:00 TP0] Worker 3 has stopped responding.\x1b[0m",
    ],
)
def test_the_prefix_is_read_as_the_parser_takes_it_off(view, line):
    """Behind a container's stream prefix, a markdown quote or colours."""
    (exp,) = explain_text(f"{line}\n", view)
    assert _paths(exp)[0] == SERVER
    assert any("log line opens" in r for r in exp.matches[0].reasons)


@pytest.mark.parametrize("order", [0, 1])
def test_with_no_prefix_the_main_parts_site_comes_first(order):
    """A message quoted alone (no log line, no frame) that two parts log word for word: the
    site in the project's main part (project.yaml `main_part`) comes first, with the reason,
    whichever the catalog lists first; the other part's site stays listed."""
    entries = ENTRIES[:2] if order == 0 else (ENTRIES[1], ENTRIES[0])
    project = Project("pkg", "1.0", log_prefixes=PROJECT.log_prefixes, main_part="pkg/server/")
    view = catalog_view("memory", entries, [project])
    (exp,) = explain_text(
        "Worker 3 has stopped responding. Look at the worker's own log above.\n", view
    )
    assert _paths(exp)[:2] == [SERVER, IMAGES]
    assert any("pkg/server/, its main part" in r for r in exp.matches[0].reasons)
    # a prefix, when there is one, still decides
    (exp,) = explain_text(
        "[03-01 10:00:00] Worker 3 has stopped responding. Look at the worker's own log above.\n",
        view,
    )
    assert _paths(exp)[0] == IMAGES


def test_main_part_in_project_yaml(tmp_path: Path):
    (tmp_path / "project.yaml").write_text("name: pkg\nmain_part: pkg/server/\n")
    assert load_project(tmp_path).main_part == "pkg/server/"


def test_a_frame_in_the_other_part_outweighs_the_main_part():
    """Both sites score 1.0 (scores clamp there), but a traceback frame is in the images part's
    file: that site stays first; the main part decides only when nothing else does."""
    raised = (
        replace(ENTRIES[0], kind="raise", exception="RuntimeError"),
        replace(ENTRIES[1], kind="raise", exception="RuntimeError"),
    )
    project = Project("pkg", "1.0", log_prefixes=PROJECT.log_prefixes, main_part="pkg/server/")
    view = catalog_view("memory", raised, [project])
    text = (
        "Traceback (most recent call last):\n"
        '  File "/env/site-packages/pkg/images/launch.py", line 7, in start\n'
        "    raise RuntimeError(msg)\n"
        "RuntimeError: Worker 3 has stopped responding. Look at the worker's own log above.\n"
    )
    (exp,) = explain_text(text, view)
    assert _paths(exp)[0] == IMAGES
    assert not any("its main part" in r for m in exp.matches for r in m.reasons)
