"""errexplain.match.search: keyword search over a catalog view's templates."""

from __future__ import annotations

import pytest

from errexplain.catalog.memory import MemoryCatalog
from errexplain.match.search import search
from errexplain.models import Entry, Source


def _entry(n: int, template: str, exception: str = "RuntimeError") -> Entry:
    return Entry(
        id=f"{n:016x}",
        project="p",
        exception=exception,
        template=template,
        source=Source("p", "1.0", f"p/m{n}.py", n + 1, "f", None),
    )


TEMPLATES = [
    "NCCL error: <error_str>",  # 0
    "CUDA out of memory. Tried to allocate <size>",  # 1
    "host ran out of memory while loading <path>",  # 2
    "<e>",  # 3: never identifiable
    "image QKV shapes must match",  # 4
    "image QKV shapes must match for vision tower <name>",  # 5
]


@pytest.fixture(scope="module")
def view():
    return MemoryCatalog([_entry(i, t) for i, t in enumerate(TEMPLATES)])


def test_best_match_first(view):
    found = search(view, "host out of memory loading")
    assert [p for p, _ in found] == [2, 1]
    assert found[0][1] > found[1][1]


def test_punctuation_next_to_a_word_does_not_hide_it(view):
    found = search(view, "cuda out of memory")
    assert found[0][0] == 1


def test_query_is_case_insensitive(view):
    assert search(view, "CUDA OUT OF MEMORY") == search(view, "cuda out of memory")


def test_scores_are_between_zero_and_one_best_first(view):
    found = search(view, "memory image nccl shapes")
    scores = [s for _, s in found]
    assert all(0.0 <= s <= 1.0 for s in scores)
    assert scores == sorted(scores, reverse=True)


def test_equal_scores_put_the_shorter_template_first(view):
    found = search(view, "image qkv shapes must match")
    assert [p for p, _ in found] == [4, 5]
    assert found[0][1] == found[1][1] == 1.0


def test_limit(view):
    assert len(search(view, "memory", limit=1)) == 1
    assert len(search(view, "memory", limit=10)) == 2
    assert search(view, "memory", limit=0) == []


def test_no_keyword_known_finds_nothing(view):
    assert search(view, "zebra giraffe") == []


@pytest.mark.parametrize("query", ["", "   ", "1 2 3 !="])
def test_query_without_words_finds_nothing(view, query):
    assert search(view, query) == []


def test_templates_that_cannot_identify_a_message_are_never_found(view):
    found = search(view, "e error")
    assert 3 not in {p for p, _ in found}
    assert [p for p, _ in found] == [0]


def test_empty_catalog():
    assert search(MemoryCatalog([]), "cuda out of memory") == []


def test_over_the_small_catalog(small_index):
    found = search(small_index, "feature length image grids")
    # the two feature-length templates first, then those that share only "image"
    assert {small_index.candidate(p).id for p, _ in found[:2]} == {
        "e3ed514efbc85910",
        "e0c0fd40da030a91",
    }
    assert {small_index.candidate(p).template for p, _ in found[2:]} == {
        "image QKV shapes must match"
    }
    assert found[1][1] > found[2][1]
