"""errexplain.catalog.index: the binary index answers every CatalogView question exactly as the
in-memory catalog over the same entries does (positions differ: the index orders rows by filing
word, so answers are compared by entry id), and refuses bytes that are not a whole index."""

from __future__ import annotations

import marshal
from pathlib import Path

import pytest

from errexplain._startup import replace
from errexplain.catalog.index import _HEAD_SIZE, MAGIC, Index, IndexCorrupt
from errexplain.catalog.index_build import build_bytes
from errexplain.catalog.memory import MemoryCatalog
from errexplain.match.normalize import words
from errexplain.match.sites import site_key
from errexplain.models import Entry, ExampleFix, Project, Source

PROJECT = Project(
    "p", "2.0", "https://x.org/p", "https://x.org/p/blob/v{version}/{prefix}{path}#L{line}", "src/"
)


def _src(path: str | None, line: int | None, function: str | None) -> Source:
    return Source("p", PROJECT.version, path, line, function, PROJECT.url(path, line))


CRAFTED = (
    Entry(
        id="a" * 16,
        project="p",
        exception="MyError",
        base="ValueError",
        template="my custom thing went wrong: <x>",
        source=_src("p/a.py", 10, "A.run"),
        related=("b" * 16, "f" * 16),  # the second id does not exist
    ),
    Entry(
        id="b" * 16,
        project="p",
        exception="ValueError",
        base="ValueError",  # base = exception: not a "known base"
        template="value is bad in a way that matters: <y>",
        source=_src("p/b.py", 20, "b"),
        kind="assert",
        condition="y > 0",
        doc="Check things.",
        versions=("1.0", "2.0"),
        derived=False,
        meaning="The value is bad.",
        trigger="y <= 0",
        situations=("a config typo",),
        solutions=("Fix y.", "Restart."),
        example_fix=ExampleFix("y = 0", "y = 1", "python"),
        related=("a" * 16,),
        examples=("value is bad in a way that matters: 0",),
        removed_in="3.0",
        catalog_file="/cat/p/b.yaml",
    ),
    Entry(
        id="c" * 16,
        project="p",
        exception="RuntimeError",
        template="<e>",
        source=_src(None, None, None),
        derived=True,
        meaning="Re-raised.",
    ),
    Entry(
        id="d" * 16,
        project="q",  # a project the index was not given
        exception="KeyError",
        base="LookupError",
        template="orphan project message here",
        source=Source("q", None, "q/d.py", 4, "d", None),
        kind="builtin",
    ),
    Entry(
        id="1" * 16,
        project="p",
        exception="NotImplementedError",
        template="",
        source=_src("p/a.py", 30, "A.run"),
        statement="raise NotImplementedError",
        derived=True,
    ),
    Entry(
        id="2" * 16,
        project="p",
        exception="AssertionError",
        template="",
        source=_src("p/sub/a.py", 3, "run"),
        kind="assert",
        condition="x is not None",
        statement="assert x is not None",
    ),
    Entry(
        id="3" * 16,
        project="p",
        exception="TypeError",
        template="config check failed: <x>",
        source=_src("p/a.py", 40, "A.check"),
        via="A._fail",
    ),
    Entry(
        id="4" * 16,
        project="p",
        exception="error",
        template="failed to load the thing: <x>",
        source=_src("p/a.py", 50, "A.run"),
        kind="log",
    ),
    Entry(
        id="e" * 16,
        project="p",
        exception="OtherError",
        base="RuntimeError",
        template="my custom thing went sideways: <x>",
        source=_src("p/e.py", 7, None),
    ),
)


def _crafted() -> tuple[tuple[Entry, ...], list[Project]]:
    return CRAFTED, [PROJECT]


def _small(small_catalog) -> tuple[tuple[Entry, ...], tuple[Project, ...]]:
    return small_catalog.entries, small_catalog.projects


@pytest.fixture(params=["crafted", "small"])
def entries_and_projects(request, small_catalog):
    return _crafted() if request.param == "crafted" else _small(small_catalog)


def _views(entries, projects) -> tuple[Index, MemoryCatalog]:
    return Index.from_bytes(build_bytes(entries, projects, "key-1")), MemoryCatalog(entries)


def _ids_of(view, positions) -> list[str]:
    return sorted(view.candidate(p).id for p in positions)


def _assert_same_view(index, memory, entries) -> None:
    assert len(index) == len(memory) == len(entries)
    # candidates: same rows, each at its own position
    icands = index.candidates()
    assert [c.pos for c in icands] == list(range(len(index)))
    assert {c.id: replace(c, pos=0) for c in icands} == {
        c.id: replace(c, pos=0) for c in memory.candidates()
    }
    for e in entries:
        ipos, mpos = index.position(e.id), memory.position(e.id)
        assert ipos is not None
        assert mpos is not None
        assert index.candidate(ipos).id == e.id
        assert index.entry(ipos) == memory.entry(mpos) == e
        assert index.related(ipos) == memory.related(mpos)
        assert index.known_base(e.exception) == memory.known_base(e.exception)
        # buckets: every word of the template, with all of its words present or just one
        present = set(words(e.template))
        for w in present:
            for seen in (present, {w}):
                assert _ids_of(index, (c.pos for c in index.bucket(w, seen))) == _ids_of(
                    memory, (c.pos for c in memory.bucket(w, seen))
                )
        # the frame-located sites of the entry's file name and function
        if e.source.path and e.source.function:
            got = index.sites(e.source.path, e.source.function)
            want = memory.sites(e.source.path, e.source.function)
            assert sorted(c.id for c in got) == sorted(c.id for c in want)
            # only the message-less ones (a frame's lookup for an error without a message)
            key = site_key(e.source.path, e.source.function)
            bare = [c.id for c in index.sites_at(key, messages=False)]
            assert bare == [c.id for c in got if not c.template]
            assert sorted(bare) == sorted(c.id for c in memory.sites_at(key, messages=False))
    assert index.position("0" * 16) is None
    assert index.sites("nosuchfile.py", "f") == memory.sites("nosuchfile.py", "f") == []
    assert index.known_base("NoSuchError") is memory.known_base("NoSuchError") is None
    assert index.bucket("nosuchword", {"nosuchword"}) == memory.bucket("nosuchword", set()) == []


def _assert_same_stats(index, memory) -> None:
    ist, mst = index.word_stats(), memory.word_stats()
    assert {w: _ids_of(index, ps) for w, ps in ist.postings.items()} == {
        w: _ids_of(memory, ps) for w, ps in mst.postings.items()
    }
    assert ist.idf == pytest.approx(mst.idf)
    by_id_i = {index.candidate(p).id: s for p, s in enumerate(ist.weight_sums)}
    by_id_m = {memory.candidate(p).id: s for p, s in enumerate(mst.weight_sums)}
    assert by_id_i == pytest.approx(by_id_m)


def test_from_bytes_answers_as_memory_catalog(entries_and_projects):
    entries, projects = entries_and_projects
    index, memory = _views(entries, projects)
    _assert_same_view(index, memory, entries)
    _assert_same_stats(index, memory)


def test_open_answers_as_memory_catalog(entries_and_projects, tmp_path):
    entries, projects = entries_and_projects
    path = tmp_path / "catalog.idx"
    path.write_bytes(build_bytes(entries, projects, "key-2"))
    index = Index.open(str(path))
    assert index.key == "key-2"
    memory = MemoryCatalog(entries)
    _assert_same_view(index, memory, entries)
    _assert_same_stats(index, memory)


def test_crafted_details():
    index, _ = _views(*_crafted())
    # related: the dangling id is skipped, the other resolved to (id, template, type)
    [rel] = index.related(index.position("a" * 16))
    assert (rel.id, rel.exception) == ("b" * 16, "ValueError")
    assert rel.template == "value is bad in a way that matters: <y>"
    # known bases: only custom classes, keyed by class name
    assert index.known_base("MyError") == "ValueError"
    assert index.known_base("OtherError") == "RuntimeError"
    assert index.known_base("KeyError") == "LookupError"
    assert index.known_base("ValueError") is None
    # the link of an entry's source line is rebuilt from its project
    b = index.entry(index.position("b" * 16))
    assert b.source.url == "https://x.org/p/blob/v2.0/src/p/b.py#L20"
    # a project the index was not told about: no version, no link
    d = index.entry(index.position("d" * 16))
    assert (d.source.version, d.source.url) == (None, None)
    # the template that cannot identify a message is in no bucket
    c = index.position("c" * 16)
    assert all(c not in ps for ps in index.word_stats().postings.values())
    # sites without a message: in no bucket, found by file name and function (any directory)
    blank = index.position("1" * 16)
    assert all(blank not in ps for ps in index.word_stats().postings.values())
    # (message-carrying raises too, for a traceback cut before its exception line; a logged
    # message is never where an exception was raised)
    found = sorted(c.id for c in index.sites("/elsewhere/a.py", "run"))
    assert found == ["1" * 16, "2" * 16, "a" * 16]
    assert [c.id for c in index.sites("a.py", "check")] == ["3" * 16]
    assert index.candidate(blank).statement == "raise NotImplementedError"
    assert index.entry(index.position("3" * 16)).via == "A._fail"


def test_key_and_empty_index():
    index = Index.from_bytes(build_bytes([], [], "empty"))
    assert index.key == "empty"
    assert len(index) == 0
    assert index.candidates() == []
    assert index.bucket("anything", {"anything"}) == []
    assert index.position("a" * 16) is None
    assert index.word_stats().postings == {}


def test_entry_and_candidate_are_read_once():
    index, _ = _views(*_crafted())
    pos = index.position("b" * 16)
    assert index.entry(pos) is index.entry(pos)
    assert index.candidate(pos) is index.candidate(pos)
    assert index.word_stats() is index.word_stats()


# --------------------------------------------------------------------------- corrupt data


@pytest.fixture(scope="module")
def good() -> bytes:
    return build_bytes(CRAFTED, [PROJECT], "k")


def _with_meta(data: bytes, meta: bytes) -> bytes:
    """The index with its meta blob replaced (the header's lengths fixed up)."""
    lens = [int.from_bytes(data[i : i + 8], "little") for i in range(len(MAGIC), _HEAD_SIZE, 8)]
    rest = data[_HEAD_SIZE + lens[0] :]
    lens[0] = len(meta)
    return MAGIC + b"".join(n.to_bytes(8, "little") for n in lens) + meta + rest


CORRUPTIONS = {
    "truncated": lambda d: d[:-1],
    "padded": lambda d: d + b"\0",
    "wrong magic": lambda d: b"ERRXIDX0" + d[len(MAGIC) :],
    "header only": lambda d: d[:_HEAD_SIZE],
    "shorter than a header": lambda d: d[:10],
    "empty": lambda d: b"",
    "meta not marshal": lambda d: _with_meta(d, b"\xff\xfe garbage"),
    "meta not a dict": lambda d: _with_meta(d, marshal.dumps([1, 2, 3])),
    "other format": lambda d: _with_meta(d, marshal.dumps({"format": 999})),
}


@pytest.mark.parametrize("how", sorted(CORRUPTIONS))
def test_from_bytes_refuses_corrupt_data(good, how):
    with pytest.raises(IndexCorrupt):
        Index.from_bytes(CORRUPTIONS[how](good))


@pytest.mark.parametrize("how", sorted(CORRUPTIONS))
def test_open_refuses_corrupt_file(good, how, tmp_path):
    path = tmp_path / "bad.idx"
    path.write_bytes(CORRUPTIONS[how](good))
    with pytest.raises(IndexCorrupt):
        Index.open(str(path))


def test_open_missing_file_is_an_os_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        Index.open(str(tmp_path / "missing.idx"))


def test_file_cut_while_in_use(good, tmp_path):
    path = tmp_path / "cut.idx"
    path.write_bytes(good)
    index = Index.open(str(path))
    with open(path, "r+b") as fh:
        fh.truncate(_HEAD_SIZE + 10)
    with pytest.raises(IndexCorrupt, match="changed while in use"):
        index.candidates()


# ------------------------------------------------------- reads verify only what they use


def _history_index(monkeypatch, tmp_path):
    """An index file of CRAFTED with a project history, its `offs` in 16-byte pages, and
    the byte spans of its `offs` and `releases` blobs."""
    from errexplain.catalog import index as index_mod
    from errexplain.match.release import Facts

    monkeypatch.setattr(index_mod, "OFFS_PAGE", 16)
    paths = {f"p/m{i}.py": "1.0-2.0" for i in range(300)}
    data = build_bytes(CRAFTED, [PROJECT], "k", [Facts("p", ("1.0", "2.0"), paths)])
    path = tmp_path / "h.idx"
    path.write_bytes(data)
    lens = [int.from_bytes(data[i : i + 8], "little") for i in range(len(MAGIC), 8 * 10, 8)]
    starts = [_HEAD_SIZE + sum(lens[:k]) for k in range(len(lens))]
    spans = {"offs": (starts[1], lens[1]), "releases": (starts[8], lens[8])}
    return str(path), paths, spans


def _bytes_read_in(reads, span):
    at, length = span
    return sum(n for a, n in reads if at <= a < at + length)


def test_a_lookup_reads_only_the_offsets_and_release_buckets_it_uses(monkeypatch, tmp_path):
    """The whole `offs` and `releases` blobs (1 MB in the bundled index) used to be read and
    checksummed by every run that looked up one candidate and guessed one release."""
    path, paths, spans = _history_index(monkeypatch, tmp_path)
    index = Index.open(path)
    reads = []
    real = index._reader.read
    monkeypatch.setattr(index._reader, "read", lambda at, n: reads.append((at, n)) or real(at, n))
    assert index.candidate(0).id in {e.id for e in CRAFTED}
    facts = index.release_facts("p")
    assert facts is not None
    assert facts.order == ("1.0", "2.0")
    assert facts.paths.get("p/m7.py") == "1.0-2.0"
    assert 0 < _bytes_read_in(reads, spans["offs"]) <= 3 * 16
    assert 0 < _bytes_read_in(reads, spans["releases"]) < spans["releases"][1] // 4
    assert dict(facts.paths.items()) == paths  # and every bucket still reads


@pytest.mark.parametrize("blob", ["offs", "releases"])
def test_garbage_in_every_page_or_bucket_is_caught_and_repaired(monkeypatch, tmp_path, blob):
    path, _, spans = _history_index(monkeypatch, tmp_path)
    good = Path(path).read_bytes()

    def everything(index):
        entries = [index.entry(i) for i in range(len(index))]
        return entries, dict(index.release_facts("p").paths.items())

    want = everything(Index.open(path))
    data = bytearray(good)
    at, length = spans[blob]
    for k in range(at, at + length, 7):  # garbage in every page and every bucket
        data[k] ^= 0x5A
    Path(path).write_bytes(bytes(data))
    with pytest.raises(IndexCorrupt):
        everything(Index.open(path))
    assert everything(Index.open(path, repair=lambda: good)) == want


def test_offset_ranges_across_pages_are_the_values_one_by_one(monkeypatch, tmp_path):
    path, _, spans = _history_index(monkeypatch, tmp_path)
    offs = Index.open(path)._offsets
    n = spans["offs"][1] // 4
    one_by_one = [offs[i] for i in range(n)]
    for lo in range(n):
        for hi in range(lo + 1, min(n, lo + 11) + 1):
            assert offs.values(lo, hi) == one_by_one[lo:hi]


def test_lineage_heads_are_found_by_id_and_nothing_else():
    from errexplain.catalog.index import head_row
    from errexplain.catalog.index_build import _heads

    ids = ["c" * 16, "a" * 16, "b" * 16, "shorter", "z" * 16]
    entries = [
        Entry(
            id=i,
            template=f"t {i}",
            exception="ValueError",
            project="p",
            source=_src("p/a.py", 1, "f"),
            lineage=lin,
        )
        for i, lin in zip(ids, [None, None, "a" * 16, None, "shorter"], strict=True)
    ]
    order = [4, 3, 2, 1, 0]  # row of entries[i] is its position in order
    table = _heads(entries, order)
    assert head_row(table, "a" * 16) == 3
    assert head_row(table, "shorter") == 1
    for other in ("b" * 16, "c" * 16, "", "a" * 15, "a" * 17, "shorter\0"):
        assert head_row(table, other) is None
    assert head_row(_heads(entries[:2], [0, 1]), "a" * 16) is None  # (no heads at all)


def test_at_is_read_without_building_the_entry():
    """`at` (where each release raised the entry) comes from the prose record alone, the same
    text the whole entry carries, before and after the entry is built."""
    at = "1.0..1.5 p/old.py:3 f; 2.0 p/m.py:9 g"
    entries = (replace(CRAFTED[0], at=at, releases=("1.0", "2.0")), *CRAFTED[1:])
    index = Index.from_bytes(build_bytes(entries, [PROJECT], "k"))
    memory = MemoryCatalog(entries)
    for e in entries:
        pos = index.position(e.id)
        assert pos is not None
        assert index.at(pos) == e.at
        assert not index._entries  # nothing built to read it
        assert index.entry(pos).at == index.at(pos) == memory.at(memory.position(e.id))
        index._entries.clear()


def test_message_less_sites_lie_in_file_and_line_order():
    """Entries filed under no word (message-less asserts and raises) are in file and line
    order, whatever their ids: a function's sites are one run of rows, read together."""
    lines = (40, 10, 30, 20, 50)
    ids = ("9" * 16, "1" * 16, "5" * 16, "3" * 16, "7" * 16)  # (not in line order)
    entries = tuple(
        Entry(
            id=i,
            project="p",
            exception="AssertionError",
            base="AssertionError",
            template="",
            source=_src(path, line, "f"),
            kind="assert",
            condition=f"x{line} > 0",
        )
        for path in ("p/z.py", "p/a.py")
        for i, line in zip((p[:15] + path[2] for p in ids), lines, strict=True)
    )
    index = Index.from_bytes(build_bytes(entries, [PROJECT], "key-o"))
    rows = [index.candidate(k) for k in range(len(index))]
    assert [(c.path, c.line) for c in rows] == sorted((c.path, c.line) for c in rows)
    found = index.sites_at(site_key("p/a.py", "f"), messages=False)
    assert [c.pos for c in found] == sorted(c.pos for c in found)
    assert [c.pos for c in found] == list(range(found[0].pos, found[0].pos + len(lines)))
