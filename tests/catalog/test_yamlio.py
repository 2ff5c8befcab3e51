"""errexplain.catalog.yamlio: the one YAML reader and writer."""

from __future__ import annotations

from pathlib import Path

import pytest

from errexplain.catalog import yamlio
from errexplain.catalog.yamlio import dump_yaml, entry_line, parse_yaml, read_yaml
from errexplain.errors import CatalogError, ExitCode

# -------------------------------------------------------------------------------- parse_yaml


def test_parse_yaml_text_and_bytes():
    assert parse_yaml("a: 1\nb: [x, y]\n", "f.yaml") == {"a": 1, "b": ["x", "y"]}
    assert parse_yaml("a: ü\n".encode(), "f.yaml") == {"a": "ü"}
    assert parse_yaml("", "f.yaml") is None


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("a: 1\nb: [1,\n", 3),
        ("a: 1\n  b: 2\n", 2),
        ('a: 1\nb: "unterminated\n', 3),
        ("\t- x", 1),
    ],
)
def test_parse_yaml_error_names_file_and_line(text, line):
    with pytest.raises(CatalogError) as info:
        parse_yaml(text, "dir/f.yaml")
    assert info.value.message.startswith(f"dir/f.yaml:{line}: invalid YAML (")
    assert info.value.hint == "fix the file (see docs/catalog.md)"
    assert info.value.exit_code == ExitCode.BAD_INPUT
    assert info.value.__suppress_context__  # the YAML traceback is not chained


def test_parse_yaml_error_without_a_line_names_the_file():
    with pytest.raises(CatalogError) as info:
        parse_yaml(b"a: \xff\xfe x", "f.yaml")
    assert info.value.message.startswith("f.yaml: invalid YAML (")


@pytest.mark.parametrize(
    "text",
    [
        "!!python/object:os.system {}",
        "x: !!python/name:os.system ''",
        "x: !!python/object/apply:os.system ['true']",
    ],
)
def test_python_tags_are_refused(text):
    with pytest.raises(CatalogError, match="could not determine a constructor"):
        parse_yaml(text, "evil.yaml")


# --------------------------------------------------------------------------------- read_yaml


def test_read_yaml(tmp_path):
    f = tmp_path / "x.yaml"
    f.write_text("name: demo\nversion: '1.0'\n")
    assert read_yaml(f) == {"name": "demo", "version": "1.0"}


def test_read_yaml_syntax_error_names_the_path(tmp_path):
    f = tmp_path / "x.yaml"
    f.write_text("ok: 1\nbad: [\n")
    with pytest.raises(CatalogError, match=rf"^{f}:3: invalid YAML"):
        read_yaml(f)


def test_read_yaml_missing_file(tmp_path):
    f = tmp_path / "missing.yaml"
    with pytest.raises(CatalogError) as info:
        read_yaml(f)
    assert info.value.message == f"{f}: cannot read (No such file or directory)"


def test_read_yaml_unreadable_file(tmp_path):
    d = tmp_path / "dir.yaml"
    d.mkdir()
    with pytest.raises(CatalogError) as info:
        read_yaml(d)
    assert info.value.message == f"{d}: cannot read (Is a directory)"


# --------------------------------------------------------------------------------- dump_yaml


def test_dump_yaml_keeps_key_order():
    doc = {"z": 1, "a": {"y": [1, 2], "b": "x"}, "m": None}
    assert dump_yaml(doc) == "z: 1\na:\n  y:\n  - 1\n  - 2\n  b: x\nm: null\n"


def test_dump_yaml_keeps_unicode_and_long_lines():
    long = "word " * 100
    text = dump_yaml({"meaning": "ü → ok", "long": long.strip()})
    assert "ü → ok" in text
    assert len(text.splitlines()) == 2


def test_dump_yaml_round_trips():
    doc = {
        "module": "p/m.py",
        "entries": [
            {"id": "0" * 16, "template": "a <x> 'quoted' : colon", "examples": ["a 1"]},
            {"id": "1" * 16, "template": "#hash and - dash", "derived": True, "line": 3},
        ],
    }
    text = dump_yaml(doc)
    assert "{" not in text  # block style
    assert parse_yaml(text, "round.yaml") == doc


# -------------------------------------------------------------------------------- entry_line


MODULE = """\
module: p/m.py
entries:
- id: aaaaaaaaaaaaaaaa
  exception: ValueError
  template: first
- id: bbbbbbbbbbbbbbbb
  exception: ValueError

  template: second
"""


def test_entry_line(tmp_path):
    f = tmp_path / "m.yaml"
    f.write_text(MODULE)
    assert entry_line(f, 0, 2) == 3
    assert entry_line(f, 1, 2) == 6
    assert entry_line(f, -1, 2) == 6
    assert entry_line(f, 0, 3) is None  # the text disagrees with the parsed document


@pytest.mark.parametrize(
    "text",
    [
        MODULE,  # index out of range
        "module: p/m.py\n",  # no entries
        "",  # empty document
        "- just\n- a list\n",  # not a mapping
        "entries: [\n",  # not YAML
    ],
)
def test_entry_line_none_when_not_found(tmp_path, text):
    f = tmp_path / "m.yaml"
    f.write_text(text)
    assert entry_line(f, 5, 2) is None


def test_entry_line_missing_file(tmp_path):
    assert entry_line(tmp_path / "missing.yaml", 0, 1) is None


# ------------------------------------------------- the event reader gives the safe loader's values

yaml = pytest.importorskip("yaml")
pytestmark_c = pytest.mark.skipif(
    not hasattr(yaml, "CSafeLoader"), reason="PyYAML without libyaml: only the full loader"
)


def _safe(text: str):
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


SCALARS = [
    "~",
    "null",
    "Null",
    "",
    "true",
    "False",
    "yes",
    "NO",
    "on",
    "Off",
    "0",
    "7",
    "012",
    "0x1f",
    "0o17",
    "+3",
    "-4",
    "1_000",
    "190:20:30",
    "1.5",
    "-.inf",
    ".NaN",
    "1e3",
    "0.5.23",
    "2026-12-01",
    "2001-12-14t21:59:43.10-05:00",
    "'quoted'",
    '"dq\\n"',
    "=",
    "a: b",
    "plain text",
    "0.4",
    "v0.4.6",
    "12abc",
    "'0'",
    "!!str 7",
    "!!int '7'",
]


def _readers():
    from errexplain.catalog.yamlio import _block_load, _fast_load

    return [pytest.param(_fast_load, id="events"), pytest.param(_block_load, id="lines")]


def _strict(a, b) -> bool:
    """Equal values of the same types all the way down (1 == True == 1.0 is not enough)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_strict(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_strict(x, y) for x, y in zip(a, b, strict=True))
    return a == b or (a != a and b != b)  # NaN


@pytestmark_c
@pytest.mark.parametrize("reader", _readers())
@pytest.mark.parametrize("scalar", SCALARS)
def test_fast_readers_resolve_scalars_as_the_safe_loader(reader, scalar):
    from errexplain.catalog.yamlio import _Unusual

    for text in (f"k: {scalar}\n", f"- {scalar}\n", f"k:\n- x\n- {scalar}\n"):
        try:
            expected = _safe(text)
        except yaml.YAMLError:
            continue
        try:
            got = reader(text)
        except _Unusual:
            continue  # the full loader takes it (parse_yaml falls back)
        assert _strict(got, expected), text


@pytestmark_c
@pytest.mark.parametrize("reader", _readers())
@pytest.mark.parametrize(
    "text",
    [
        "a: &x [1, 2]\nb: *x\n",  # anchors and aliases
        "a: !!set {x, y}\n",  # explicit tags
        "base: &b {x: 1}\nc:\n  <<: *b\n  y: 2\n",  # merge keys
        "? [a, b]\n: c\n",  # complex keys
        "a: 1\n---\nb: 2\n",  # several documents
        "a: !!python/name:os.system ''\n",
    ],
)
def test_fast_readers_leave_unusual_yaml_to_the_full_loader(reader, text):
    from errexplain.catalog.yamlio import _Unusual

    with pytest.raises(_Unusual):
        reader(text)


@pytestmark_c
@pytest.mark.parametrize(
    "text",
    [
        "a: x # a comment\n",  # comments after a value
        "a: |\n  block\n",  # block scalars
        "a: >\n  folded\n",
        "a: plain\n  continued\n",  # plain scalars over lines
        "a: 1\na: 2\n",  # duplicate keys (the loader keeps the last)
        "a:\tx\n",  # tabs
        "a: [x, y]\n",  # flow collections
        "a: 'x' y\n",  # text after a quoted scalar
        "a: 'open\n",  # unclosed quotes
        "a: x\r\nb: y\r\n",  # other line breaks
        "a: \x85x\n",
        "  a: 1\n",  # an indented document
        "- - x\n",  # a sequence in a sequence on one line
        'a: "x\\\n  y"\n',  # an escaped line break in double quotes
        "a: 1\n...\n",
    ],
)
def test_line_reader_declines_what_it_does_not_copy(text):
    from errexplain.catalog.yamlio import _block_load, _Unusual

    with pytest.raises(_Unusual):
        _block_load(text)


@pytestmark_c
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("a: 'one\n\n  two'\n", {"a": "one\ntwo"}),
        ("a: 'one\n  two'\n", {"a": "one two"}),
        ("a: 'one\n\n\n  two\n\n  '\n", {"a": "one\n\ntwo\n"}),
        ("a: 'one\n  '\n", {"a": "one "}),
        ("a: 'it''s\n  ''x'''\n", {"a": "it's 'x'"}),
        ("- a: 1\n  b:\n  - --flag\n  - -1\n- x\n", [{"a": 1, "b": ["--flag", -1]}, "x"]),
        ("k:\n  - 1\n  - yes\n# note\nm: {}\nn: []\n", {"k": [1, True], "m": {}, "n": []}),
        ('a: "tab\\there \\u00e9 \\x41 \\"q\\""\n', {"a": 'tab\there é A "q"'}),
        ("yes: no\n", {True: False}),
        ("a:\nb: ~\n", {"a": None, "b": None}),
    ],
)
def test_line_reader_reads_the_writers_subset_as_the_safe_loader(text, value):
    from errexplain.catalog.yamlio import _block_load

    assert _strict(_safe(text), value)  # the case itself is right
    assert _strict(_block_load(text), value)


@pytestmark_c
def test_parse_yaml_falls_back_with_the_same_values_and_errors():
    assert parse_yaml("a: &x [1, 2]\nb: *x\n", "f.yaml") == {"a": [1, 2], "b": [1, 2]}
    with pytest.raises(CatalogError, match=r"f\.yaml"):
        parse_yaml("a: 1\n---\nb: 2\n", "f.yaml")
    with pytest.raises(CatalogError):
        parse_yaml("a: !!python/name:os.system ''\n", "f.yaml")
    assert parse_yaml("a: x # c\nb: |\n  t\n", "f.yaml") == {"a": "x", "b": "t\n"}


def _documents():
    from hypothesis import strategies as st

    chars = st.characters(blacklist_categories=("Cs",))
    tricky = st.sampled_from([" ", "\n", "'", '"', "#", ": ", " #", "-", "- ", "\\", "\t", "''"])
    text = st.lists(st.text(chars, max_size=6) | tricky, max_size=5).map("".join)
    leaf = st.none() | st.booleans() | st.integers() | st.floats() | text | st.sampled_from(SCALARS)
    return st.recursive(
        leaf,
        lambda kids: st.lists(kids, max_size=4) | st.dictionaries(text, kids, max_size=4),
        max_leaves=20,
    )


@pytestmark_c
@pytest.mark.parametrize("reader", _readers())
def test_fast_readers_equal_the_safe_loader_on_dumped_documents(reader):
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from errexplain.catalog.yamlio import _Unusual

    @settings(max_examples=400, deadline=None)
    @given(
        _documents(),
        st.sampled_from([None, False, True]),
        st.sampled_from(['"', "'", None]),
        st.sampled_from([12, 80, 4096]),
    )
    def check(doc, flow, style, width):
        text = yaml.dump(
            doc, default_flow_style=flow, default_style=style, allow_unicode=True, width=width
        )
        try:
            got = reader(text)
        except _Unusual:
            return
        assert _strict(got, _safe(text)), text

    check()


@pytest.mark.heavy
@pytestmark_c
def test_line_reader_reads_the_bundled_catalog_as_the_safe_loader():
    """Every bundled catalog file: the line reader gives the safe loader's values, or declines;
    it declines little (else a first index build loses its speed)."""
    from errexplain.catalog.locate import bundled_dir
    from errexplain.catalog.yamlio import _block_load, _Unusual

    total = declined = 0
    for path in sorted(Path(bundled_dir()).rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        total += len(text)
        try:
            got = _block_load(text)
        except _Unusual:
            declined += len(text)
            continue
        assert _strict(got, _safe(text)), path
    assert total > 1_000_000 and declined < total * 0.05


@pytest.mark.parametrize("cache_size", [0, 1, yamlio.CACHE_SIZE])
def test_a_documents_equal_texts_are_one_object_whether_the_cache_is_full(monkeypatch, cache_size):
    """Which strings a file is read into share an object decides marshal's bytes of them (a
    part, then the index): equal plain scalars of a document are one object whether or not the
    cache of plain scalars has filled up, so the bytes do not depend on how many files a
    process read before (a parallel build's index was not the same twice)."""
    monkeypatch.setattr(yamlio, "CACHE_SIZE", cache_size)
    monkeypatch.setattr(yamlio, "_scalars", [])
    text = "a: some text\nc:\n- some text\n- 12345\nd: 12345\n"
    for reader in (yamlio._block_load, yamlio._fast_load):
        for _ in range(2):
            doc = reader(text)
            assert doc["a"] is doc["c"][0]
            assert doc["c"][1] is doc["d"]
            yamlio._scalars[0].begin()


@pytest.mark.parametrize("reader", [yamlio._block_load, yamlio._fast_load])
def test_a_document_is_read_into_objects_of_its_own(monkeypatch, reader):
    """No object of another document is among a document's values, and the cache of plain
    scalars holds none of them: marshal writes an object that is shared, or held elsewhere,
    with other bytes, so a part (and the index) would depend on which files the process read
    before (an index built in one process had other bytes than one built by several, or from
    parts kept in the cache)."""
    monkeypatch.setattr(yamlio, "_scalars", [])
    first = reader("a: some text\nb: '1.0'\nc: 12345\nd: true\n")
    yamlio._scalars[0].begin()
    second = reader("a: some text\nc: 12345\nd: true\nv:\n- some text\n- 12345\n")
    yamlio._scalars[0].begin()
    assert second == {"a": "some text", "c": 12345, "d": True, "v": ["some text", 12345]}
    assert second["a"] is not first["a"] and second["c"] is not first["c"]
    assert second["v"][0] is second["a"] and second["v"][1] is second["c"]
    cached = yamlio._scalars[0].cache
    assert "some text" in cached and "12345" in cached  # (their tags)
    held = {id(k) for k in cached} | {id(v) for v in cached.values()}
    assert not held & {id(second["a"]), id(second["c"]), id(first["a"]), id(first["c"])}
