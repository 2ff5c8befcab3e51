"""errexplain.catalog.memory: the in-memory CatalogView (positions are the entries' order)."""

from __future__ import annotations

import pytest

from errexplain.catalog.memory import MemoryCatalog, candidate_of
from errexplain.match.template import compile_template
from errexplain.models import Candidate, Entry, Source


def _entry(
    n: int,
    template: str,
    exception: str = "ValueError",
    base: str | None = None,
    related: tuple[str, ...] = (),
) -> Entry:
    return Entry(
        id=f"{n:016x}",
        project="p",
        exception=exception,
        base=base,
        template=template,
        source=Source("p", "1.0", f"p/m{n}.py", n + 1, "f", None),
        related=related,
    )


ENTRIES = (
    # filed under "badly" (rarest; tie with "broke" goes alphabetical), second word "broke"
    _entry(0, "the widget broke badly: <x>", related=(f"{2:016x}", "f" * 16, f"{1:016x}")),
    # filed under "exploded", second word "widget" (df 2 beats "the": longer)
    _entry(1, "the widget exploded: <x>", exception="WidgetError", base="RuntimeError"),
    # one word only: no second word
    _entry(2, "Supercalifragilistic", exception="KeyError", base="KeyError"),
    # cannot identify a message: in no bucket
    _entry(3, "<e>", exception="RuntimeError"),
)


@pytest.fixture(scope="module")
def view():
    return MemoryCatalog(ENTRIES)


def _ids(cands: list[Candidate]) -> list[str]:
    return [c.id for c in cands]


def test_bucket_needs_the_second_filing_word(view):
    assert _ids(view.bucket("badly", {"the", "widget", "broke", "badly"})) == [ENTRIES[0].id]
    assert _ids(view.bucket("badly", {"badly", "broke"})) == [ENTRIES[0].id]
    assert view.bucket("badly", {"badly"}) == []
    assert view.bucket("exploded", {"exploded", "the"}) == []
    assert _ids(view.bucket("exploded", {"exploded", "widget"})) == [ENTRIES[1].id]


def test_bucket_of_a_one_word_template_needs_nothing_else(view):
    assert _ids(view.bucket("supercalifragilistic", set())) == [ENTRIES[2].id]


def test_bucket_only_under_the_filing_word(view):
    # "broke" and "widget" are words of templates but no template is filed under them
    assert view.bucket("broke", {"the", "widget", "broke", "badly"}) == []
    assert view.bucket("widget", {"the", "widget", "exploded"}) == []
    assert view.bucket("unknown", {"unknown"}) == []


def test_unidentifiable_template_is_in_no_bucket(view):
    every = {"e", "the", "widget", "broke", "badly", "exploded", "supercalifragilistic"}
    found = {c.pos for w in every for c in view.bucket(w, every)}
    assert found == {0, 1, 2}


def test_sites_of_one_template_share_a_bucket_in_position_order():
    view = MemoryCatalog([_entry(i, "duplicate template words <x>") for i in range(3)])
    # every word has df 3: the longest is the filing word, the next longest the second
    present = {"duplicate", "template", "words"}
    assert [c.pos for c in view.bucket("duplicate", present)] == [0, 1, 2]
    assert view.bucket("duplicate", {"duplicate", "words"}) == []


def test_candidates_are_the_typed_rows_in_order(view):
    cands = view.candidates()
    assert [c.pos for c in cands] == [0, 1, 2, 3]
    assert cands[1] == Candidate.of(
        1, ENTRIES[1], compile_template(ENTRIES[1].template).literal_len
    )
    assert view.candidate(1) == cands[1] == candidate_of(1, ENTRIES[1])
    assert cands[1].base == "RuntimeError"
    assert cands[0].literal_len == len("the widget broke badly:")
    cands.clear()  # a copy: the view is unchanged
    assert len(view.candidates()) == len(view) == 4


def test_entry_and_position(view):
    for pos, e in enumerate(ENTRIES):
        assert view.entry(pos) is e
        assert view.position(e.id) == pos
    assert view.position("f" * 16) is None


def test_related_resolves_known_ids_in_order_and_skips_unknown(view):
    got = view.related(0)
    assert [(r.id, r.template, r.exception) for r in got] == [
        (ENTRIES[2].id, "Supercalifragilistic", "KeyError"),
        (ENTRIES[1].id, "the widget exploded: <x>", "WidgetError"),
    ]
    assert all(r.why for r in got)  # each with its one-line reason
    assert view.related(1) == ()


def test_known_base_only_for_custom_classes(view):
    assert view.known_base("WidgetError") == "RuntimeError"
    assert view.known_base("KeyError") is None  # base == exception
    assert view.known_base("ValueError") is None  # no base recorded
    assert view.known_base("NoSuchError") is None


def test_word_stats_are_computed_once_over_identifiable_templates(view):
    stats = view.word_stats()
    assert view.word_stats() is stats
    assert stats.postings["widget"] == (0, 1)
    assert stats.postings["supercalifragilistic"] == (2,)
    assert "e" not in stats.postings
    assert len(stats.weight_sums) == 4


def test_empty():
    view = MemoryCatalog([])
    assert len(view) == 0
    assert view.candidates() == []
    assert view.bucket("word", {"word"}) == []
    assert view.word_stats().postings == {}
