"""A history catalog: `at` spans, wordings, ids, the walk cache, build then add == build."""

from __future__ import annotations

import shutil
from pathlib import Path
from textwrap import dedent

import pytest
from hypothesis import given
from hypothesis import strategies as st

from errexplain.catalog.load import load_catalog
from errexplain.catalog.yamlio import read_yaml
from errexplain.extract.filecache import FileCache
from errexplain.extract.history import (
    build_history,
    history_from_entries,
    paths_from_doc,
    ranges,
    read_releases_file,
    render,
    write_catalog,
)
from errexplain.extract.sources import SourceFile
from errexplain.extract.writer import read_module_files
from errexplain.models import AtSpan, at_lines, format_at, parse_at

ROOT = Path(__file__).resolve().parents[2]

AT = "0.4.6..0.4.8 sglang/srt/x.py:120 Scheduler.f; 0.4.9 :124; 0.4.10..0.5.1 sglang/srt/y.py:131 g"


def test_at_round_trip():
    spans = parse_at(AT)
    assert spans[1] == AtSpan("0.4.9", "0.4.9", "sglang/srt/x.py", 124, "Scheduler.f")
    assert spans[2].function == "g"
    assert format_at(spans) == AT


_token = st.text(alphabet="abcxyz_./<>0123456789", min_size=1, max_size=8)
_release = st.from_regex(r"\A[0-9]{1,2}(\.[0-9a-z]{1,4}){0,3}\Z")


@given(st.lists(st.tuples(_release, _release, _token, st.integers(1, 10**6), _token), min_size=1))
def test_at_round_trip_any_spans(raw):
    spans = tuple(AtSpan(a, b, p, line, f) for a, b, p, line, f in raw)
    assert parse_at(format_at(spans)) == spans
    # the unchecked reader of the explain path reads a checked text as parse_at does
    assert at_lines(format_at(spans)) == [(s.first, s.last, s.path, s.line) for s in spans]


@pytest.mark.parametrize(
    "bad",
    ["", "0.4.6 :12", "0.4.6 a.py:12", "0.4.6 a.py:x f", "0.4.6 a.py:0 f", "0.4.6 a.py:1 f g h"],
)
def test_bad_at_is_refused(bad):
    with pytest.raises(ValueError):
        parse_at(bad)


def test_format_at_refuses_spaces():
    with pytest.raises(ValueError):
        format_at([AtSpan("1", "1", "a b.py", 1, "f")])


def test_ranges():
    rel = ["0.1", "0.2", "0.3", "0.4", "0.5"]
    assert ranges([0, 1, 3], rel) == "0.1..0.2, 0.4"
    assert paths_from_doc({"releases": rel, "paths": {"a.py": "0.1..0.2, 0.4"}}) == {
        "a.py": {0, 1, 3}
    }


# --------------------------------------------------------------------- a tiny project

V1 = {
    "pkg/__init__.py": "",
    "pkg/a.py": """
        def f(x):
            if x < 0:
                raise ValueError("x must not be negative")

        def g():
            raise KeyError("gone soon")
    """,
}
V2 = {
    "pkg/__init__.py": "",
    "pkg/a.py": """

        def f(x):
            if x < 0:
                raise ValueError(f"x must not be negative, got {x}")
    """,
}
V3 = {
    "pkg/__init__.py": "",
    "pkg/sub/a.py": """
        def f(x):
            if x < 0:
                raise ValueError(f"x must not be negative, got {x}")
    """,
}


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, code in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dedent(code))
    return root


@pytest.fixture
def trees(tmp_path):
    return [
        (v, _tree(tmp_path / f"pkg-{v}", t)) for v, t in (("1.0", V1), ("1.1", V2), ("2.0", V3))
    ]


def _build(out: Path, sources, cache=None):
    """As tools/history.py builds: the old catalog's ids, curated text and former ids kept."""
    history, paths = build_history(sources, "pkg", cache or FileCache(None))
    old = read_module_files(out)
    formerly = (read_releases_file(out) or {}).get("formerly")
    rendered = render(history, "pkg", old, None, paths, formerly)
    write_catalog(out, rendered, old)
    return rendered


def _project(out: Path) -> Path:
    out.mkdir(parents=True)
    (out / "project.yaml").write_text("name: pkg\n")
    return out


def _snapshot(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*.yaml"))}


def test_history_catalog(tmp_path, trees):
    out = _project(tmp_path / "cat")
    rendered = _build(out, trees)
    assert (rendered.lineages, rendered.wordings, rendered.removed_lineages) == (2, 3, 1)
    catalog = load_catalog([out])
    by_template = {e.template: e for e in catalog.entries}
    head = by_template["x must not be negative, got <x>"]
    old = by_template["x must not be negative"]
    gone = by_template["'gone soon'"]
    assert head.releases == ("1.1", "2.0") and head.lineage is None and head.removed_in is None
    assert head.at == "1.1 pkg/a.py:5 f; 2.0 pkg/sub/a.py:4"
    assert head.source.path == "pkg/sub/a.py"
    assert old.lineage == head.id and old.removed_in == "1.1" and old.releases == ("1.0", "1.0")
    assert old.source.path == "pkg/a.py" and old.catalog_file.endswith("sub/a.yaml")
    assert gone.removed_in == "1.1" and gone.lineage is None
    assert read_yaml(out / "project.yaml")["version"] == "2.0"
    doc = read_releases_file(out)
    assert doc == {
        "releases": ["1.0", "1.1", "2.0"],
        "paths": {"pkg/__init__.py": "1.0..2.0", "pkg/a.py": "1.0..1.1", "pkg/sub/a.py": "2.0"},
    }


def test_a_build_keeps_project_yaml_as_written_but_its_version(tmp_path, trees):
    """project.yaml is hand-kept data (its comments say which upstream releases were read for
    shared_wording): a build edits its version line only."""
    out = _project(tmp_path / "cat")
    written = (
        "name: pkg\nversion: '0.9'\n# read from upstream 1.2, 1.3 (a comment to keep)\n"
        "shared_wording:\n  other:\n  - 0123456789abcdef\n"
    )
    (out / "project.yaml").write_text(written)
    _build(out, trees)
    assert (out / "project.yaml").read_text() == written.replace("version: '0.9'", "version: '2.0'")
    assert read_yaml(out / "project.yaml")["version"] == "2.0"


def test_build_is_idempotent_and_keeps_ids_and_curated_text(tmp_path, trees):
    out = _project(tmp_path / "cat")
    _build(out, trees)
    path = out / "sub" / "a.yaml"
    text = path.read_text()
    head_id = next(e.id for e in load_catalog([out]).entries if e.releases == ("1.1", "2.0"))
    start = text.index(f"- id: {head_id}")
    curated = text[:start] + text[start:].replace(
        "  derived: true\n  meaning: Raised by `f` when `x < 0`.\n",
        "  derived: false\n  meaning: Hand-written.\n"
        "  related:\n  - 0123456789abcdef\n"
        "  examples:\n  - x must not be negative, got -1\n",
        1,
    )
    assert curated != text
    path.write_text(curated)
    before = _snapshot(out)
    _build(out, trees)
    assert _snapshot(out) == before
    head = load_catalog([out]).by_id()[head_id]
    assert head.meaning == "Hand-written." and head.curated
    assert head.related == ("0123456789abcdef",)  # a curated related list is kept as written


def test_add_continues_a_stored_history_as_build_would(tmp_path, trees):
    full = _project(tmp_path / "full")
    _build(full, trees)
    part = _project(tmp_path / "part")
    _build(part, trees[:2])
    doc = read_releases_file(part)
    assert doc is not None
    entries = [e for cf in read_module_files(part) for e in cf.entries]
    history = history_from_entries(doc["releases"], entries)
    history, paths = build_history(
        trees[2:], "pkg", FileCache(None), history=history, paths=paths_from_doc(doc)
    )
    old = read_module_files(part)
    write_catalog(part, render(history, "pkg", old, None, paths), old)

    def shape(out):
        # ids differ on purpose: the head keeps the id it had in 1.1 (ids never change)
        entries = load_catalog([out]).entries
        heads = {e.id: e.template for e in entries}
        return sorted(
            (
                e.template,
                e.releases,
                e.at,
                e.removed_in,
                heads.get(e.lineage or ""),
                e.catalog_file.split("/")[-1],
            )
            for e in entries
        )

    assert shape(part) == shape(full)
    assert read_releases_file(part) == read_releases_file(full)


def test_file_cache_reuses_walks_by_content(tmp_path):
    cache = FileCache(tmp_path / "cache")
    code = b'def f():\n    raise ValueError("cached walk")\n'
    (first,) = cache.walk([SourceFile("pkg/a.py", code)])
    (moved,) = cache.walk([SourceFile("pkg/b.py", code)])
    assert (cache.walked, cache.hits) == (1, 1)
    assert moved.sites[0].path == "pkg/b.py" and moved.sites[0].template == "cached walk"
    cache.close()
    again = FileCache(tmp_path / "cache")
    (back,) = again.walk([SourceFile("pkg/a.py", code)])
    assert back == first and (again.walked, again.disk_hits) == (0, 1)
    again.close()


def test_an_entry_read_differently_by_a_newer_extractor_keeps_its_id(tmp_path, trees):
    # the stored catalog was written by an extractor that read the message as `<msg>` (and
    # named the entry after that reading); the check (release, path, line, exception) is the
    # same, so the entry keeps that id with the better template
    out = _project(tmp_path / "cat")
    _build(out, trees)
    head_id = next(e.id for e in load_catalog([out]).entries if e.releases == ("1.1", "2.0"))
    old_id = "0123456789abcdef"
    for path in out.rglob("*.yaml"):
        text = path.read_text().replace(head_id, old_id)
        path.write_text(
            text.replace("template: x must not be negative, got <x>\n", "template: <msg>\n")
        )
    assert old_id in load_catalog([out]).by_id()
    _build(out, trees)
    by_id = load_catalog([out]).by_id()
    assert by_id[old_id].template == "x must not be negative, got <x>"
    assert head_id not in by_id
    assert by_id[old_id].releases == ("1.1", "2.0")


# ------------------------------------------------- sites without a message, worded by statement

S1 = {
    "pkg/__init__.py": "",
    "pkg/s.py": """
        class Sched:
            def step(self):
                assert self.being_chunked is None
                raise NotImplementedError
    """,
}
S2 = {  # one line lower, the attribute renamed
    name: code.replace("class Sched:\n", "class Sched:\n\n").replace("being_chunked", "chunked")
    for name, code in S1.items()
}


@pytest.fixture
def stmt_trees(tmp_path):
    return [(v, _tree(tmp_path / f"pkg-{v}", t)) for v, t in (("1.0", S1), ("1.1", S2))]


def test_an_older_statement_is_a_wording_of_its_own(tmp_path, stmt_trees):
    # a renamed attribute changes what an old traceback shows under the frame: the older
    # statement keeps its own wording (releases, line), in the lineage of the current one
    out = _project(tmp_path / "cat")
    rendered = _build(out, stmt_trees)
    assert (rendered.lineages, rendered.wordings) == (2, 3)
    by_statement = {e.statement: e for e in load_catalog([out]).entries}
    old = by_statement["assert self.being_chunked is None"]
    head = by_statement["assert self.chunked is None"]
    bare = by_statement["raise NotImplementedError"]
    assert old.id != head.id and old.lineage == head.id and head.lineage is None
    assert old.releases == ("1.0", "1.0") and old.removed_in == "1.1"
    assert old.at == "1.0 pkg/s.py:4 Sched.step" and old.condition == "self.being_chunked is None"
    assert head.releases == ("1.1", "1.1") and head.at == "1.1 pkg/s.py:5 Sched.step"
    assert bare.releases == ("1.0", "1.1") and bare.lineage is None
    # a second build changes nothing; `add` of the last release gives the same catalog
    before = _snapshot(out)
    _build(out, stmt_trees)
    assert _snapshot(out) == before
    part = _project(tmp_path / "part")
    _build(part, stmt_trees[:1])
    doc = read_releases_file(part)
    assert doc is not None
    entries = [e for cf in read_module_files(part) for e in cf.entries]
    history, paths = build_history(
        stmt_trees[1:],
        "pkg",
        FileCache(None),
        history=history_from_entries(doc["releases"], entries),
        paths=paths_from_doc(doc),
    )
    old_files = read_module_files(part)
    write_catalog(part, render(history, "pkg", old_files, None, paths), old_files)
    shape = {(e.statement, e.releases, e.at) for e in load_catalog([part]).entries}
    assert shape == {(e.statement, e.releases, e.at) for e in load_catalog([out]).entries}


def test_a_traceback_showing_the_older_statement_finds_its_wording(tmp_path, stmt_trees):
    from errexplain.catalog.index import Index
    from errexplain.catalog.index_build import build_bytes
    from errexplain.explainer import explain_text

    out = _project(tmp_path / "cat")
    _build(out, stmt_trees)
    catalog = load_catalog([out])
    view = Index.from_bytes(
        build_bytes(catalog.entries, catalog.projects, "t", catalog.release_facts)
    )
    text = (
        "Traceback (most recent call last):\n"
        '  File "/env/lib/python3.11/site-packages/pkg/s.py", line 4, in step\n'
        "    assert self.being_chunked is None\n"
        "AssertionError\n"
    )
    (exp,) = explain_text(text, view)
    top = exp.matches[0]
    assert top.entry.statement == "assert self.being_chunked is None"
    assert top.kind == "exact" and top.score >= 0.95
    from errexplain.render.view import release_history

    history = release_history(top)
    assert history is not None
    assert "later releases word this check 'assert self.chunked is None'" in history
    (stated,) = explain_text("AssertionError: assert self.being_chunked is None\n", view)
    assert stated.matches[0].entry.statement == "assert self.being_chunked is None"


def test_the_walk_cache_is_keyed_by_every_module_the_walker_runs():
    # a changed log gate or template compiler must start a fresh cache, not reuse old walks
    import ast
    import importlib

    from errexplain.extract import filecache

    def imported(name):
        tree = ast.parse(Path(str(importlib.import_module(name).__file__)).read_text())
        for node in ast.walk(tree):
            # data records and start-up helpers: none of their code decides a walk
            if (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.startswith("errexplain")
                and node.module not in ("errexplain._startup", "errexplain.models")
            ):
                mod = importlib.import_module(node.module)
                if hasattr(mod, "__path__"):  # `from errexplain.extract import logs`
                    yield from (f"{node.module}.{a.name}" for a in node.names)
                else:
                    yield node.module

    seen, todo = set(), ["errexplain.extract.visitor"]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(imported(name))
    assert seen == {m.__name__ for m in filecache.WALKER_MODULES}


# --------------------------------------- two sites with one text: each id stays with its site

T1 = {
    "pkg/__init__.py": "",
    "pkg/a.py": """
        def f(x):
            if x is None:
                raise ValueError("the input must be given before the run starts")
            if x is None:
                raise ValueError("the input must be given before the run starts")
    """,
}
T2 = {  # the first check removed
    "pkg/__init__.py": "",
    "pkg/a.py": """
        def f(x):
            if x is None:
                raise ValueError("the input must be given before the run starts")
    """,
}
T3 = {  # the second moved to a module of its own
    "pkg/__init__.py": "",
    "pkg/a.py": "",
    "pkg/checks.py": T2["pkg/a.py"],
}


def test_a_site_sharing_its_text_does_not_take_the_id_of_its_twin(tmp_path):
    # the twins share a natural id (path, function, text); when the one that stays moves away,
    # the removed one must keep its own id, not take over the moved one's
    trees = [(v, _tree(tmp_path / f"pkg-{v}", t)) for v, t in (("1.0", T1), ("1.1", T2))]
    out = _project(tmp_path / "cat")
    _build(out, trees)
    first = {e.at.split(";")[0]: e.id for e in load_catalog([out]).entries}
    assert len(first) == 2
    trees.append(("2.0", _tree(tmp_path / "pkg-2.0", T3)))
    _build(out, trees)
    then = {e.at.split(";")[0]: e.id for e in load_catalog([out]).entries}
    assert then == first


def _older_wording(ident: str, where: str) -> str:
    """A catalog entry an earlier build derived for a wording raised at `where` in 1.0 only."""
    return (
        f"- id: {ident}\n  exception: ValueError\n  kind: raise\n"
        + "  template: x must not be negative!\n"
        + f"  source: {where}\n  releases: 1.0..1.0\n  at: 1.0 {where}\n"
        + "  removed_in: '1.1'\n  derived: true\n"
    )


def test_an_old_wording_merged_into_another_keeps_its_id_as_an_alias(tmp_path, trees):
    # an earlier build derived a wording of its own for a site that this build reads as part
    # of another wording (the lineage rules changed): its id is kept in releases.yaml
    # `formerly`, naming the wording now raised where it was, and the index resolves it
    from errexplain.catalog.index import Index
    from errexplain.catalog.index_build import build_bytes

    out = _project(tmp_path / "cat")
    _build(out, trees)
    by_template = {e.template: e for e in load_catalog([out]).entries}
    real = by_template["x must not be negative"]
    where = real.at.split(" ", 1)[1]
    fake = "00000000000000aa"
    path = out / real.catalog_file
    path.write_text(path.read_text() + _older_wording(fake, where))
    assert fake in load_catalog([out]).by_id()
    _build(out, trees)
    assert read_releases_file(out)["formerly"] == {fake: real.id}
    catalog = load_catalog([out])
    assert fake not in catalog.by_id()
    index = Index.from_bytes(
        build_bytes(catalog.entries, catalog.projects, "k", catalog.release_facts)
    )
    assert index.entry(index.position(fake)).id == real.id
    before = _snapshot(out)
    _build(out, trees)  # the alias is carried by the next build
    assert _snapshot(out) == before


def test_an_id_survives_an_extractor_that_now_sites_the_text_on_another_line(tmp_path, trees):
    # an older extractor sited a wording one line off (a reason at a multi-line call's first
    # line, now where the argument hands it over): the same text and exception in the same
    # release and file, unique on both sides, keeps the old id
    out = _project(tmp_path / "cat")
    _build(out, trees)
    real = {e.template: e for e in load_catalog([out]).entries}["x must not be negative"]
    path = Path(real.catalog_file)
    where = real.at.split(" ", 1)[1]  # pkg/a.py:4 f
    shifted = where.replace(":4 ", ":3 ")
    assert shifted != where
    fake = "00000000000000cc"
    path.write_text(
        path.read_text()
        .replace(f"id: {real.id}", f"id: {fake}")
        .replace(f"source: {where.rsplit(' ', 1)[0]}", f"source: {shifted.rsplit(' ', 1)[0]}")
        .replace(f"at: 1.0 {where}", f"at: 1.0 {shifted}")
    )
    assert fake in load_catalog([out]).by_id()
    _build(out, trees)
    again = {e.template: e for e in load_catalog([out]).entries}["x must not be negative"]
    assert again.id == fake and again.at == real.at


def test_ids_an_older_build_merged_without_an_alias_are_kept_afterwards(tmp_path, trees):
    # a catalog built before aliases existed dropped an old derived wording that is now part
    # of another; `tools/history.py aliases --before OLD` finds the wording raised where it
    # was last and keeps the id; a wording raised nowhere now (a line no longer recorded) and
    # the catalog's own ids get no alias, and a second run adds nothing
    import subprocess
    import sys

    out = _project(tmp_path / "cat")
    _build(out, trees)
    real = {e.template: e for e in load_catalog([out]).entries}["x must not be negative"]
    where = real.at.split(" ", 1)[1]
    old = tmp_path / "old"
    shutil.copytree(out, old)
    fake, gone = "00000000000000aa", "00000000000000bb"
    path = old / Path(real.catalog_file).relative_to(out)
    path.write_text(
        path.read_text()
        + _older_wording(fake, where)
        + f"- id: {gone}\n  exception: info\n  kind: log\n  template: starting up\n"
        + "  source: pkg/a.py:1\n  releases: 1.0..2.0\n  at: 1.0..2.0 pkg/a.py:1 f\n"
        + "  derived: true\n"
    )
    tool = [sys.executable, "tools/history.py", "aliases", "--before", str(old), "--out", str(out)]
    run = subprocess.run(tool, capture_output=True, text=True, cwd=ROOT, check=True)
    assert run.stdout.startswith("1 old ids raised now") and "1 aliases added" in run.stdout
    assert read_releases_file(out)["formerly"] == {fake: real.id}
    again = subprocess.run(tool, capture_output=True, text=True, cwd=ROOT, check=True)
    assert "0 aliases added" in again.stdout
    check = [sys.executable, "tools/history.py", "check-ids", "--before", str(old)]
    ids = subprocess.run([*check, "--after", str(out)], capture_output=True, text=True, cwd=ROOT)
    assert "1 merged" in ids.stdout and f"{gone}: missing" in ids.stdout


@pytest.mark.parametrize(
    ("formerly", "problem"),
    [
        ("formerly: [x]\n", "formerly: must map old entry ids"),
        ("formerly:\n  00000000000000aa: not-an-id\n", "formerly: must map old entry ids"),
    ],
)
def test_a_bad_formerly_map_is_refused(tmp_path, trees, formerly, problem):
    from errexplain.errors import CatalogError

    out = _project(tmp_path / "cat")
    _build(out, trees)
    releases = out / "releases.yaml"
    releases.write_text(releases.read_text() + formerly)
    with pytest.raises(CatalogError, match=problem):
        load_catalog([out])


def test_catalog_check_names_a_former_id_that_leads_nowhere(tmp_path, trees):
    from errexplain.catalog.integrity import dangling_related

    out = _project(tmp_path / "cat")
    _build(out, trees)
    some = load_catalog([out]).entries[0].id
    releases = out / "releases.yaml"
    releases.write_text(
        releases.read_text()
        + f"formerly:\n  00000000000000aa: 00000000000000bb\n  {some}: {some}\n"
    )
    found = sorted(p.message for p in dangling_related(load_catalog([out])))
    assert found == [
        "formerly: is an id in use, not a former one",
        "formerly: names unknown id 00000000000000bb",
    ]
