"""The extractor: message forms, sites, sources, merge with curated text, idempotence."""

from __future__ import annotations

import ast
import io
import os
import shutil
import tarfile
import zipfile
from pathlib import Path
from typing import Any

import pytest
import yaml

from errexplain.errors import ExtractError
from errexplain.extract import ExtractReport, extract, format_report
from errexplain.extract import scan as scan_module
from errexplain.extract.visitor import _doc_line
from errexplain.match.template import compile_template, fill, match
from errexplain.models import make_id

DATA = Path(__file__).parent.parent / "data" / "extract"
V1 = DATA / "v1" / "mypkg"


def _load(path: Path) -> Any:
    """A written catalog file, its entries' short `source`/`releases` read back as mappings."""
    from errexplain.extract.writer import expand_entry

    doc = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    if isinstance(doc, dict) and isinstance(doc.get("entries"), list):
        doc["entries"] = [expand_entry(e) for e in doc["entries"]]
    return doc


def _entries(out: Path) -> list[dict[str, Any]]:
    found = []
    for path in sorted(out.rglob("*.yaml")):
        if path.name != "project.yaml":
            found += _load(path)["entries"]
    return found


def _by_function(out: Path, function: str) -> list[dict[str, Any]]:
    return [e for e in _entries(out) if e["source"]["function"] == function]


def _one(out: Path, function: str) -> dict[str, Any]:
    (entry,) = _by_function(out, function)
    return entry


def _snapshot(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*.yaml"))}


def _tree(tmp: Path) -> Path:
    """A copy of the fixture package plus files that cannot be parsed."""
    root = tmp / "src" / "mypkg"
    shutil.copytree(V1, root)
    (root / "broken.py").write_text('def oops(:\n    raise ValueError("never")\n')
    (root / "badbytes.py").write_bytes(b'x = 1\nraise ValueError("\xff\xfe")\n')
    return root


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ExtractReport]:
    tmp = tmp_path_factory.mktemp("extract")
    out = tmp / "errors" / "mypkg"
    report = extract(_tree(tmp), "mypkg", "1.0", out=out)
    return out, report


# --- message forms ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("function", "template"),
    [
        ("literal", "plain literal message"),
        ("implicit_concat", "first part, second part"),
        ("fstring", "got <a!r> and <b!s> (<ratio:.2f>) for <name!a>: <a.shape[0]>"),
        ("fstring_nested_spec", "value <x:>>{width}> misaligned"),
        ("plus_concat", "bad value <str(x)>: <', '.join(problems)>"),
        ("percent_tuple", "x <a> y <b> z <a + b!r>"),
        ("percent_single", "only <a> here"),
        ("percent_dict", "<a> and <b:.1f>"),
        ("format_positional", "first <a> second <b>"),
        ("format_indexed", "first <b> second <a!r>"),
        ("format_keyword", "name is <a.name>, size <len(a):04d>"),
        ("local_variable", "local message for <x>"),
        ("local_augmented", "start then <x>"),
        # a literal note added in an `if` branch that does not hold the raise is left out;
        # an addition that carries a value is kept (the branch is the usual one)
        ("addition_in_a_branch", "module not available."),
        ("value_added_in_a_branch", "Not enough room. Current value: <fraction>"),
        ("addition_in_the_use_branch", "base text and more"),
        ("addition_in_a_handler", "transfer failed with exception <e>"),
        ("nearest_assignment", "second assignment"),
        ("module_constant", "limit exceeded"),
        ("chained", "cannot open <path>"),
        ("keyword_message", "keyword msg <x>"),
        ("second_argument", "room <room> failed"),
        ("attribute_class", "attribute class <x>"),
        ("angle_brackets", "head_dim must be <<= 128, got <<<x>>> for <<lambda>>"),
        ("assert_tuple", "(<a.shape>, <b.shape>)"),
        # str(KeyError(msg)) is repr(msg): the template carries the quotes repr adds.
        ("raise_variable", "'missing key <x>'"),
        ("key_error_quotes", "\"no key '<k>'\""),
        ("key_error_name", "<k>"),
    ],
)
def test_message_forms(catalog, function, template):
    out, _ = catalog
    assert _one(out, function)["template"] == template


def test_non_constant_messages_are_recorded_with_a_warning(catalog):
    out, report = catalog
    templates = {e["template"] for e in _by_function(out, "not_constant")}
    assert templates == {"<str(e)>", "<message>"}
    lines = sorted(e["source"]["line"] for e in _by_function(out, "not_constant"))
    for line in lines:
        assert f"mypkg/messages.py:{line}: message is not a constant" in report.warnings


def test_raises_without_a_message_are_recorded_with_their_statement(catalog):
    out, report = catalog
    for function, statement in (
        ("no_message", "raise ValueError"),
        ("empty_call", "raise ValueError()"),
    ):
        entry = _one(out, function)
        assert (entry["kind"], entry["exception"], entry["template"]) == ("raise", "ValueError", "")
        assert entry["statement"] == statement
    assert not any("no_message" in w or ":115:" in w for w in report.warnings)


def test_asserts(catalog):
    out, report = catalog
    entries = _by_function(out, "asserts")
    assert [(e["kind"], e["exception"], e["condition"], e["template"]) for e in entries] == [
        ("assert", "AssertionError", "x > 0", "x must be positive, got <x>"),
        ("assert", "AssertionError", "x != y", "x and y differ"),
        ("assert", "AssertionError", "y", ""),
    ]
    assert entries[2]["statement"] == "assert y"
    assert "statement" not in entries[0]
    assert entries[0]["meaning"] == "Assertion in `asserts` failed: `x > 0`."
    assert report.sites_by_kind["assert"] == 4


def test_exception_names_and_custom_bases(catalog):
    out, _ = catalog
    got = {(e["exception"], e.get("base")) for e in _by_function(out, "custom_bases")}
    assert got == {
        ("MyError", "ValueError"),
        ("DeepError", "ValueError"),
        ("LibError", "BaseLibError"),
    }
    assert _one(out, "attribute_class")["exception"] == "MyError"
    assert _one(out, "second_argument")["base"] == "Exception"
    assert "base" not in _one(out, "literal")
    assert _one(out, "chained")["exception"] == "FileNotFoundError"


def test_helper_built_exceptions(catalog):
    out, report = catalog
    helper = _one(out, "_invalid")
    assert helper["exception"] == "MyError"
    assert helper["template"] == "invalid value <value!r>, expected <expected>"
    assert helper["source"]["line"] == 8
    assert helper["meaning"] == "Built by `_invalid`, whose callers raise it."
    # The call site passes a message to a pass-through helper: recorded there, typed by it;
    # the raise of what `_invalid` builds is recorded with its text, naming the builder.
    built, wrapped = sorted(_by_function(out, "check"), key=lambda e: e["source"]["line"])
    assert (wrapped["exception"], wrapped["template"]) == (
        "ValueError",
        "zero is not allowed here (<value>)",
    )
    assert (built["exception"], built["template"], built["source"]["line"]) == (
        "MyError",
        "invalid value <value!r>, expected <expected>",
        21,
    )
    assert built["meaning"] == (
        "Raised by `check` when `value is None`, the exception built by `_invalid` "
        "(mypkg/helpers.py:8)."
    )
    assert _by_function(out, "_wrap") == [] and _by_function(out, "_not_an_error") == []
    assert not any("built in helper _invalid()" in w for w in report.warnings)


@pytest.mark.parametrize(
    ("template", "function", "condition", "line"),
    [
        ("module level guard failed", "<module>", "not module_level_check(True)", 6),
        ("fast mode is not supported", "Engine.start", "mode == 'fast'", 18),
        ("slow mode is not supported", "Engine.start", "mode == 'slow'", 20),
        ("bad count <n>", "Engine.start", "n", 24),
        ("unknown mode <mode>", "Engine.start", "not (mode == 'slow')", 25),
        ("inner run failed", "Engine.Inner.run", "not ok", 30),
        ("<y> exceeds <x>", "outer.inner", "y > x", 36),
        ("ftp is not supported: <url>", "fetch", "url.startswith('ftp:')", 44),
    ],
)
def test_guards_qualnames_and_lines(catalog, template, function, condition, line):
    out, _ = catalog
    doc = _load(out / "sub" / "guards.yaml")
    assert doc["module"] == "mypkg/sub/guards.py"
    (entry,) = [e for e in doc["entries"] if e["template"] == template]
    assert entry["source"] == {"path": "mypkg/sub/guards.py", "line": line, "function": function}
    assert entry["condition"] == condition


def test_doc_line_and_meaning(catalog):
    out, _ = catalog
    entry = next(e for e in _by_function(out, "Engine.start") if e["source"]["line"] == 18)
    assert entry["doc"] == "Start the engine."
    assert entry["derived"] is True
    assert entry["meaning"] == (
        "Raised by `Engine.start` when `mode == 'fast'`. (`Engine.start`: Start the engine.)"
    )
    module_level = _one(out, "<module>")
    assert module_level["meaning"].startswith("Raised at module level of `mypkg/sub/guards.py`")


def test_unparsable_files_are_reported_and_skipped(catalog):
    _, report = catalog
    skipped = dict(report.files_skipped)
    assert set(skipped) == {"mypkg/broken.py", "mypkg/badbytes.py"}
    assert skipped["mypkg/broken.py"].startswith("SyntaxError")
    assert report.files_read == 6


def test_every_template_compiles_and_round_trips(catalog):
    out, _ = catalog
    for entry in _entries(out):
        compiled = compile_template(entry["template"])
        values = {name: f"v{i} x" for i, name in enumerate(compiled.names)}
        message = fill(entry["template"], values)
        assert match(entry["template"], message) is not None, entry["template"]


def test_ids_are_stable_and_unique(catalog):
    out, _ = catalog
    entries = _entries(out)
    assert len({e["id"] for e in entries}) == len(entries)
    literal = _one(out, "literal")
    assert literal["id"] == make_id(
        "mypkg", "mypkg/messages.py", "literal", "plain literal message"
    )
    first, second = _by_function(out, "duplicated")
    assert first["id"] == make_id("mypkg", "mypkg/sub/guards.py", "duplicated", "same message")
    assert second["id"] == make_id("mypkg", "mypkg/sub/guards.py", "duplicated#2", "same message")


def test_related(catalog):
    out, _ = catalog
    ids = {e["id"] for e in _entries(out)}
    start = sorted(_by_function(out, "Engine.start"), key=lambda e: e["source"]["line"])
    # the other checks of the same function are related (a shared guard name ranks first)
    assert {start[1]["id"], start[2]["id"]} <= set(start[0]["related"])
    first, second = _by_function(out, "duplicated")
    assert first["related"][0] == second["id"]
    for entry in _entries(out):
        assert set(entry.get("related", [])) <= ids
        assert entry["id"] not in entry.get("related", [])
        assert len(entry.get("related", [])) <= 6


def test_layout_and_project_file(catalog):
    out, _ = catalog
    names = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.yaml"))
    assert names == ["helpers.yaml", "messages.yaml", "project.yaml", "sub/guards.yaml"]
    assert _load(out / "project.yaml") == {"name": "mypkg", "version": "1.0"}
    lines = [e["source"]["line"] for e in _load(out / "messages.yaml")["entries"]]
    assert lines == sorted(lines)


# --- runs, merge, idempotence --------------------------------------------------------------
def test_second_run_changes_nothing(tmp_path):
    out = tmp_path / "out"
    extract(V1, "mypkg", "1.0", out=out)
    before = _snapshot(out)
    mtimes = {p: p.stat().st_mtime_ns for p in out.rglob("*.yaml")}
    report = extract(V1, "mypkg", "1.0", out=out)
    assert _snapshot(out) == before
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*.yaml")} == mtimes
    assert report.files_written == ()
    assert report.changes == ()
    assert (report.entries_added, report.entries_updated, report.entries_removed) == (0, 0, 0)


def test_dry_run_writes_nothing(tmp_path):
    out = tmp_path / "out"
    report = extract(V1, "mypkg", "1.0", out=out, dry_run=True)
    assert not out.exists()
    assert report.dry_run and report.entries_added == report.sites > 0
    assert report.changes[0].startswith("added   mypkg/")
    assert "would write" in format_report(report)


def _curate(out: Path, function: str) -> str:
    path = out / "messages.yaml"
    doc = _load(path)
    entry = next(e for e in doc["entries"] if e["source"]["function"] == function)
    entry.update(
        derived=False,
        meaning="A person wrote this.",
        solutions=["Pass a smaller x."],
        examples=["local message for 3"],
        related=[],
    )
    entry["unknown_key"] = "dropped"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return str(entry["id"])


def _make_v2(tmp: Path) -> Path:
    root = tmp / "v2" / "mypkg"
    shutil.copytree(V1, root)
    path = root / "messages.py"
    text = path.read_text()
    text = text.replace('def literal():\n    raise ValueError("plain literal message")\n', "")
    text = text.replace('"first part, " "second part"', '"first part, " "second part!"')
    text = text.replace("LIMIT_MSG =", "# three\n# new\n# lines\nLIMIT_MSG =")
    path.write_text(text)
    return root


def test_merge_keeps_curated_text(tmp_path):
    out = tmp_path / "out"
    extract(V1, "mypkg", "1.0", out=out)
    old_literal = _one(out, "literal")
    old_concat = _one(out, "implicit_concat")
    old_local = _one(out, "local_variable")
    curated_id = _curate(out, "local_variable")

    report = extract(_make_v2(tmp_path), "mypkg", "2.0", out=out)

    local = _one(out, "local_variable")
    assert local["id"] == curated_id
    assert (local["derived"], local["meaning"]) == (False, "A person wrote this.")
    assert local["solutions"] == ["Pass a smaller x."]
    assert local["examples"] == ["local message for 3"]
    assert "unknown_key" not in local
    # an empty curated `related` is filled from the code (a list a person wrote is kept)
    by_id = {e["id"]: e for e in _entries(out)}
    assert local.get("related") and all(r in by_id for r in local["related"])
    assert local["source"]["line"] == old_local["source"]["line"] + 1  # +3 lines, -2 lines
    assert local["versions"] == ["1.0", "2.0"]

    literal = _one(out, "literal")
    assert literal["removed_in"] == "2.0" and literal["versions"] == ["1.0"]
    assert literal["source"] == old_literal["source"]

    concat = _one(out, "implicit_concat")
    assert concat["id"] == old_concat["id"]
    assert concat["template"] == "first part, second part!"
    assert concat["versions"] == ["1.0", "2.0"]

    assert report.entries_removed == 1 and report.entries_added == 0
    assert report.entries_updated == report.sites
    assert any("unknown key 'unknown_key' dropped" in w for w in report.warnings)
    assert any(c.startswith("removed mypkg/messages.py") for c in report.changes)
    assert _load(out / "project.yaml")["version"] == "2.0"

    again = extract(tmp_path / "v2" / "mypkg", "mypkg", "2.0", out=out)
    assert again.changes == () and again.files_written == ()


def test_curated_example_that_no_longer_matches_is_warned(tmp_path):
    out = tmp_path / "out"
    extract(V1, "mypkg", "1.0", out=out)
    _curate(out, "local_variable")
    root = tmp_path / "v2" / "mypkg"
    shutil.copytree(V1, root)
    path = root / "messages.py"
    path.write_text(path.read_text().replace("local message for", "local message about"))
    report = extract(root, "mypkg", "2.0", out=out)
    assert any("curated example no longer matches" in w for w in report.warnings)
    assert _one(out, "local_variable")["meaning"] == "A person wrote this."


# --- sources -------------------------------------------------------------------------------
def _archive_members() -> list[tuple[str, bytes]]:
    return [(p.relative_to(V1.parent).as_posix(), p.read_bytes()) for p in sorted(V1.rglob("*.py"))]


def test_wheel_input(tmp_path):
    wheel = tmp_path / "mypkg-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, data in _archive_members():
            archive.writestr(name, data)
        archive.writestr("mypkg-1.0.dist-info/METADATA", "Name: mypkg\n")
        archive.writestr("mypkg-1.0.dist-info/weird.py", "raise ValueError('no')\n")
    out = tmp_path / "from-wheel"
    report = extract(wheel, "mypkg", "1.0", out=out)
    reference = tmp_path / "from-dir"
    extract(V1, "mypkg", "1.0", out=reference)
    assert report.files_read == 6
    assert _snapshot(out) == _snapshot(reference)


def test_sdist_input(tmp_path):
    sdist = tmp_path / "mypkg-1.0.tar.gz"
    with tarfile.open(sdist, "w:gz") as archive:
        members = [(f"mypkg-1.0/{n}", d) for n, d in _archive_members()]
        members.append(("mypkg-1.0/setup.py", b"raise ValueError('not in the package')\n"))
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    report = extract(sdist, "mypkg", "1.0", out=tmp_path / "out", dry_run=True)
    assert report.files_read == 6
    assert all(c.split()[1].startswith("mypkg/") for c in report.changes)


def test_installed_distribution(tmp_path):
    report = extract("iniconfig", "iniconfig", "x", out=tmp_path / "out", dry_run=True)
    assert report.files_read > 0
    assert all(" iniconfig/" in c for c in report.changes)


@pytest.mark.parametrize("source", ["no-such-distribution-xyz", "missing/dir", "notes.txt"])
def test_unreadable_source(tmp_path, monkeypatch, source):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(ExtractError) as info:
        extract(source, "mypkg", "1.0", out=tmp_path / "out")
    assert "cannot read source" in info.value.message and info.value.hint


def test_corrupt_archive(tmp_path):
    wheel = tmp_path / "bad.whl"
    wheel.write_bytes(b"not a zip")
    with pytest.raises(ExtractError):
        extract(wheel, "mypkg", "1.0", out=tmp_path / "out")


def test_parallel_scan_gives_the_same_catalog(tmp_path, monkeypatch):
    calls: list[tuple[int, int]] = []
    monkeypatch.setattr(scan_module, "PARALLEL_MIN_FILES", 1)
    monkeypatch.setattr(scan_module, "_workers", lambda: 2)
    extract(V1, "mypkg", "1.0", out=tmp_path / "a", progress=lambda d, t: calls.append((d, t)))
    monkeypatch.setattr(scan_module, "PARALLEL_MIN_FILES", 10**9)
    extract(V1, "mypkg", "1.0", out=tmp_path / "b")
    assert _snapshot(tmp_path / "a") == _snapshot(tmp_path / "b")
    assert calls[-1] == (6, 6)


def test_format_report(catalog):
    _, report = catalog
    text = format_report(report)
    assert "files read: 6, skipped: 2" in text
    assert "skipped mypkg/broken.py: SyntaxError" in text


def test_concurrent_edit_is_not_overwritten(tmp_path, monkeypatch):
    from errexplain.extract import run as run_module

    out = tmp_path / "out"
    extract(V1, "mypkg", "1.0", out=out)
    real_build = run_module.build

    def build_then_edit(*args, **kwargs):
        plan = real_build(*args, **kwargs)
        with (out / "messages.yaml").open("a") as handle:
            handle.write("# edited meanwhile\n")
        return plan

    monkeypatch.setattr(run_module, "build", build_then_edit)
    report = extract(V1, "mypkg", "2.0", out=out)
    assert (out / "messages.yaml").read_text().endswith("# edited meanwhile\n")
    assert any("messages.yaml: changed on disk" in w for w in report.warnings)
    assert "sub/guards.yaml" in report.files_written


def test_written_files_are_not_private(tmp_path):
    extract(V1, "mypkg", "1.0", out=tmp_path / "out")
    umask = os.umask(0)
    os.umask(umask)
    for path in (tmp_path / "out").rglob("*.yaml"):
        assert path.stat().st_mode & 0o777 == 0o666 & ~umask


def test_same_version_reextraction_drops_vanished_derived_entries(tmp_path):
    out = tmp_path / "out"
    extract(V1, "mypkg", "1.0", out=out)
    literal_id = _one(out, "literal")["id"]
    report = extract(_make_v2(tmp_path), "mypkg", "1.0", out=out)
    assert _by_function(out, "literal") == []
    assert report.entries_removed == 1
    assert any(c.startswith("dropped mypkg/messages.py") for c in report.changes)
    assert all(literal_id not in e.get("related", []) for e in _entries(out))


def test_same_version_reextraction_keeps_vanished_curated_entries(tmp_path):
    out = tmp_path / "out"
    extract(V1, "mypkg", "1.0", out=out)
    _curate(out, "literal")
    extract(_make_v2(tmp_path), "mypkg", "1.0", out=out)
    literal = _one(out, "literal")
    assert literal["meaning"] == "A person wrote this."
    assert literal["removed_in"] == "1.0" and literal["versions"] == []


def test_meaning_names_the_handled_exception(catalog):
    out, _ = catalog
    assert _one(out, "chained")["meaning"] == "Raised by `chained` while handling `OSError`."
    assert "condition" not in _one(out, "chained")


def test_file_left_without_entries_is_removed(tmp_path):
    out = tmp_path / "out"
    extract(V1, "mypkg", "1.0", out=out)
    root = tmp_path / "v2" / "mypkg"
    shutil.copytree(V1, root)
    (root / "helpers.py").write_text("def nothing():\n    return None\n")
    report = extract(root, "mypkg", "1.0", out=out)
    assert not (out / "helpers.yaml").exists()
    assert "helpers.yaml" in report.files_written
    assert report.entries_removed == 3  # _invalid, the raise of what it builds, check


def test_default_text_of_or_and_conditional_messages(tmp_path):
    """`reason or "default"` and `"a" if c else "b"` give the alternative with literal text."""
    from errexplain.extract.messages import from_expr

    def template(src: str) -> str:
        import ast

        node = ast.parse(src, mode="eval").body
        return from_expr(node, 1, lambda name, line: None).template

    assert (
        template('reason or "Failed due to an unknown reason"') == "Failed due to an unknown reason"
    )
    assert template('f"bad {x}" if strict else y') == "bad <x>"
    assert template('a and "text"') == "<a and 'text'>"


def test_written_entries_use_the_short_source_and_releases(tmp_path):
    """Extraction writes `source` and `releases` as one line each, and reads them back as the
    mappings it works on (round trip, keys in order)."""
    from errexplain.extract.writer import compact_entry, dump, expand_entry, read_module_files

    entry = {
        "id": "0123456789abcdef",
        "exception": "ValueError",
        "template": "x",
        "source": {"path": "pkg/a.py", "line": 12, "function": "A.f"},
        "releases": {"first": "1.0", "last": "1.2"},
        "at": "1.0..1.2 pkg/a.py:12 A.f",
    }
    short = compact_entry(entry)
    assert list(short) == list(entry)
    assert short["source"] == "pkg/a.py:12 A.f" and short["releases"] == "1.0..1.2"
    assert expand_entry(short) == entry
    text = dump({"module": "pkg/a.py", "entries": [entry]})
    assert "  source: pkg/a.py:12 A.f\n" in text and "  releases: 1.0..1.2\n" in text
    (tmp_path / "a.yaml").write_text(text)
    (loaded,) = read_module_files(tmp_path)
    assert loaded.entries == (entry,)


@pytest.mark.parametrize(
    "source",
    [
        {"path": "pkg/a b.py", "line": 3, "function": "f"},  # a space: cannot be one line
        {"path": "pkg/a.py:7", "function": "f"},  # would read back as line 7
        {"function": "c10::check"},  # no path
        {"path": "pkg/a.py", "line": 3, "function": "f", "extra": 1},  # unknown key kept
    ],
)
def test_sources_that_cannot_be_short_stay_mappings(source):
    from errexplain.extract.writer import compact_entry, expand_entry

    short = compact_entry({"id": "x", "source": source})
    assert short["source"] == source
    assert expand_entry(short)["source"] == source


@pytest.mark.parametrize(
    ("doc", "line"),
    [
        ('"""Start the engine."""', "Start the engine."),
        ('"""Launch the server.\n\n    Args:\n        port: where\n    """', "Launch the server."),
        ('"""Note: the pool is shared."""', "Note: the pool is shared."),
        ('"""Args:\n        server_args: the flags\n    """', None),
        ('"""Arguments:\n        x: y\n    """', None),
        ('"""Parameters\n    ----------\n    x : int\n    """', None),
    ],
)
def test_doc_line_is_a_summary_never_a_section_head(doc, line):
    """A docstring that opens with its parameters (`Args:`) has no summary to quote: meanings
    once read "(`launch_server`: Args:)"."""
    func = ast.parse(f"def f():\n    {doc}\n    pass\n").body[0]
    assert _doc_line(func) == line


def test_warnings_warn_is_a_warning_site(tmp_path: Path):
    """`warnings.warn(message, Category)` is printed as `path:line: Category: message`, which
    users paste like a logged warning: a log site of level warning, `via` warnings.warn (module
    level, f-string, keyword message); a message with no literal words is not recorded."""
    pkg = tmp_path / "src" / "wpkg"
    pkg.mkdir(parents=True)
    (pkg / "mod.py").write_text(
        "import warnings\n"
        'warnings.warn("wpkg.old is deprecated, import wpkg.new instead", DeprecationWarning)\n'
        "def load(platform, msg):\n"
        "    if platform != 'cuda':\n"
        '        warnings.warn(f"Only CUDA supports the fast loader, not {platform}.")\n'
        '    warnings.warn(message="Loading slowly: the cache is cold", category=UserWarning)\n'
        "    warnings.warn(msg)\n"
    )
    out = tmp_path / "out"
    extract(tmp_path / "src", "wpkg", "1.0", out=out)
    entries = _load(out / "mod.yaml")["entries"]
    got = {(e["template"], e["kind"], e["exception"], e.get("via")) for e in entries}
    assert got == {
        ("wpkg.old is deprecated, import wpkg.new instead", "log", "warning", "warnings.warn"),
        ("Only CUDA supports the fast loader, not <platform>.", "log", "warning", "warnings.warn"),
        ("Loading slowly: the cache is cold", "log", "warning", "warnings.warn"),
    }
    assert all(e["meaning"].startswith("Issued with `warnings.warn`") for e in entries)


def test_a_printed_failure_says_it_was_printed(tmp_path: Path):
    """A printed failure's derived meaning says it was printed, not logged or raised."""
    pkg = tmp_path / "src" / "ppkg"
    pkg.mkdir(parents=True)
    (pkg / "bench.py").write_text(
        "def load(e):\n    print(f'Fail to load tokenizer config with error={e}')\n"
    )
    out = tmp_path / "out"
    extract(tmp_path / "src", "ppkg", "1.0", out=out)
    (entry,) = _load(out / "bench.yaml")["entries"]
    assert (entry["kind"], entry["exception"], entry["via"]) == ("log", "error", "print")
    assert entry["meaning"].startswith("Printed with `print` in `load`")


def test_texts_a_validator_returns_are_aborts_wherever_it_is_overridden(tmp_path):
    """`msg = self._validate_request(r)`, then `return self.create_error_response(msg)`: the
    texts any `_validate_request` returns (a subclass's override, in another file) are what the
    client reads, in place or held in a name; a text another method returns is not
    recorded."""
    root = tmp_path / "src" / "webpkg"
    root.mkdir(parents=True)
    (root / "base.py").write_text(
        "class Base:\n"
        "    def handle(self, request):\n"
        "        error_msg = self._validate_request(request)\n"
        "        if error_msg:\n"
        "            return self.create_error_response(error_msg)\n"
        "\n"
        "    def _validate_request(self, request):\n"
        "        return None\n"
    )
    (root / "chat.py").write_text(
        "from webpkg.base import Base\n"
        "\n"
        "\n"
        "class Chat(Base):\n"
        "    def _validate_request(self, request):\n"
        "        if not request.messages:\n"
        '            return "Messages cannot be empty."\n'
        "        if request.n > 4:\n"
        '            return f"n must be at most 4, got {request.n}."\n'
        "        return None\n"
        "\n"
        "    def describe(self):\n"
        '        return "a chat handler that answers requests"\n'
        "\n"
        "def validate_size(request):\n"
        "    error_msg = (\n"
        '        f"Input of {request.size} tokens is over "\n'
        '        "the limit."\n'
        "    )\n"
        "    return error_msg\n"
    )
    (root / "serve.py").write_text(
        "from webpkg.chat import validate_size\n"
        "\n"
        "\n"
        "def handle(request):\n"
        "    error_msg = validate_size(request)\n"
        "    if error_msg:\n"
        "        request.set_finish_with_abort(error_msg)\n"
    )
    out = tmp_path / "out"
    extract(root, "webpkg", "1.0", out=out)
    found = sorted(
        (e["source"]["line"], e["kind"], e["template"], e.get("condition")) for e in _entries(out)
    )
    assert found == [
        (7, "abort", "Messages cannot be empty.", "not request.messages"),
        (9, "abort", "n must be at most 4, got <request.n>.", "request.n > 4"),
        # a text held in a name and returned: at the text, where it is written
        (17, "abort", "Input of <request.size> tokens is over the limit.", None),
    ]


def test_a_validators_callee_whose_result_it_returns_is_a_validator_too(tmp_path):
    """`err = self._check_media(r)`, `if err: return err` inside a validator: the texts
    `_check_media` returns reach the client as well (over any number of such steps); a
    function whose result only a non-validator returns is not one."""
    root = tmp_path / "src" / "webpkg"
    root.mkdir(parents=True)
    (root / "serve.py").write_text(
        "class Serving:\n"
        "    def handle(self, request):\n"
        "        error_msg = self._validate_request(request)\n"
        "        if error_msg:\n"
        "            return self.create_error_response(error_msg)\n"
        "        return self._describe(request)\n"
        "\n"
        "    def _validate_request(self, request):\n"
        "        media_error = self._check_media(request)\n"
        "        if media_error:\n"
        "            return media_error\n"
        "        return None\n"
        "\n"
        "    def _check_media(self, request):\n"
        "        if request.images:\n"
        "            return self._no_images(request)\n"
        "        return None\n"
        "\n"
        "    def _no_images(self, request):\n"
        '        return f"Model only reads text; got {len(request.images)} images."\n'
        "\n"
        "    def _describe(self, request):\n"
        '        return f"a request failed to reach {request.url}"\n'
    )
    out = tmp_path / "out"
    extract(root, "webpkg", "1.0", out=out)
    found = sorted((e["source"]["line"], e["kind"], e["template"]) for e in _entries(out))
    assert found == [(20, "abort", "Model only reads text; got <len(request.images)> images.")]
