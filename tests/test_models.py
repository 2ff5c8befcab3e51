"""errexplain.models: the small behaviours of the plain records."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from errexplain.models import Candidate, Entry, Explanation, Project, RaisedError, Source, make_id

LINK = "https://example.org/demo/blob/v{version}/{prefix}{path}#L{line}"


# ---------------------------------------------------------------------------------- Project


def test_project_url_formats_every_field():
    p = Project("demo", "1.2.3", "https://example.org/demo", LINK, "python/")
    assert p.url("demo/pkg/a.py", 360) == (
        "https://example.org/demo/blob/v1.2.3/python/demo/pkg/a.py#L360"
    )


def test_project_url_default_prefix_is_empty():
    assert Project("demo", "2.0", link=LINK).url("a.py", 1) == (
        "https://example.org/demo/blob/v2.0/a.py#L1"
    )


def test_project_url_link_needs_only_the_fields_it_uses():
    assert Project("demo", link="https://x.org/{path}").url("a.py", 7) == "https://x.org/a.py"


@pytest.mark.parametrize(
    ("link", "path", "line"),
    [
        (None, "a.py", 1),  # no link template
        ("", "a.py", 1),
        (LINK, None, 1),  # no path
        (LINK, "", 1),
        (LINK, "a.py", None),  # no line
        (LINK, "a.py", 0),
    ],
)
def test_project_url_none(link, path, line):
    assert Project("demo", "1.0", link=link).url(path, line) is None


def test_project_defaults():
    p = Project("demo")
    assert (p.version, p.repository, p.link, p.path_prefix) == (None, None, None, "")


# ------------------------------------------------------------------------------ RaisedError


@pytest.mark.parametrize(
    ("type_", "short"),
    [
        ("torch.AcceleratorError", "AcceleratorError"),
        ("a.b.c.DeepError", "DeepError"),
        ("ValueError", "ValueError"),
        ("", ""),
    ],
)
def test_short_type(type_, short):
    assert RaisedError(type_, "m").short_type == short


def test_root_cause_is_the_first_of_the_chain():
    root = RaisedError("KeyError", "'x'")
    middle = RaisedError("ValueError", "bad")
    err = RaisedError("RuntimeError", "top", chain=(root, middle), chain_relation="cause")
    assert err.root_cause is root
    assert RaisedError("RuntimeError", "alone").root_cause is None


def test_raised_error_defaults_and_frozen():
    err = RaisedError("ValueError", "m")
    assert (err.frames, err.chain, err.members, err.ranks) == ((), (), (), ())
    assert (err.count, err.truncated, err.line_no, err.chain_relation) == (1, False, 0, None)
    with pytest.raises(AttributeError):
        err.message = "other"  # type: ignore[misc]


# ------------------------------------------------------------------------------------ Entry


def _entry(**kw) -> Entry:
    return Entry(
        id="0123456789abcdef",
        project="demo",
        exception=kw.pop("exception", "ValueError"),
        template=kw.pop("template", "bad <x> value here"),
        source=Source("demo", "1.0", "demo/a.py", 12, "A.f", "https://x.org/demo/a.py#L12"),
        **kw,
    )


@pytest.mark.parametrize(
    ("derived", "meaning", "curated"),
    [
        (False, "It means this.", True),
        (True, "Generated meaning.", False),
        (False, None, False),
        (False, "", False),
    ],
)
def test_entry_curated(derived, meaning, curated):
    assert _entry(derived=derived, meaning=meaning).curated is curated


# -------------------------------------------------------------------------------- Candidate


def test_candidate_of_copies_the_typed_row():
    e = _entry(base="ValueError", kind="assert", condition="x > 0", meaning="m")
    c = Candidate.of(7, e, 15)
    assert c == Candidate(
        pos=7,
        id="0123456789abcdef",
        exception="ValueError",
        base="ValueError",
        template="bad <x> value here",
        path="demo/a.py",
        function="A.f",
        line=12,
        project="demo",
        kind="assert",
        curated=True,
        literal_len=15,
        condition="x > 0",
    )


def test_candidate_of_derived_entry_without_source():
    e = Entry(
        id="f" * 16,
        project="python",
        exception="KeyError",
        template="<key>",
        source=Source("python", None, None, None, None, None),
        derived=True,
        meaning="m",
    )
    c = Candidate.of(0, e, 0)
    assert (c.path, c.function, c.line, c.curated, c.base, c.kind) == (
        None,
        None,
        None,
        False,
        None,
        "raise",
    )


# ------------------------------------------------------------------------ Explanation, ids


def test_explanation_explained_when_it_has_matches():
    err = RaisedError("ValueError", "m")
    assert not Explanation(err, ()).explained
    assert Explanation(err, ("a match",)).explained  # type: ignore[arg-type]


def test_make_id_is_stable_and_depends_on_all_four_parts():
    ident = make_id("demo", "demo/a.py", "f", "bad <x>")
    assert ident == make_id("demo", "demo/a.py", "f", "bad <x>")
    assert len(ident) == 16
    assert all(ch in "0123456789abcdef" for ch in ident)
    others = {
        make_id("other", "demo/a.py", "f", "bad <x>"),
        make_id("demo", "demo/b.py", "f", "bad <x>"),
        make_id("demo", "demo/a.py", "g", "bad <x>"),
        make_id("demo", "demo/a.py", "f", "bad <y>"),
    }
    assert ident not in others
    assert len(others) == 4


def test_make_id_separates_its_parts():
    assert make_id("ab", "c", "d", "e") != make_id("a", "bc", "d", "e")


_AT_PIECES = ("0.1", "0.2..0.3", " ", "\t", "\n", "\xa0", ";", ":", "::", "7", "a/b.py", "x.py:3")


@settings(max_examples=2000)
@given(
    st.lists(st.sampled_from(_AT_PIECES), max_size=14).map("".join),
    st.sampled_from(["a/b.py", "x.py", ":", ""]),
)
def test_older_paths_are_the_other_paths_of_at_sites(at, own):
    """The row's older paths, found by one regex search, are those of the spans as at_sites
    reads them (any text: words split as str.split splits them, a path before a last colon)."""
    from errexplain._startup import replace
    from errexplain.models import _older_paths, at_sites

    entry = replace(_ENTRY, at=at, source=replace(_ENTRY.source, path=own))
    assert _older_paths(entry) == tuple(dict.fromkeys(p for p, _ in at_sites(at) if p != own))


_ENTRY = Entry(
    id="0" * 16,
    project="p",
    exception="ValueError",
    template="t",
    source=Source("p", "1", "a/b.py", 1, "f", None),
)
