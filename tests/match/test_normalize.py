"""errexplain.match.normalize: words, the words a template guarantees, masking volatile text,
which templates can identify a message, filing words and the word statistics."""

from __future__ import annotations

import math

import pytest

from errexplain.match.normalize import (
    MASK,
    MIN_LITERAL,
    filing_words,
    identifiable,
    mask,
    mask_template,
    template_words,
    word_stats,
    words,
)
from errexplain.match.template import fill

# ---------------------------------------------------------------------------------- words


def test_words_are_lowercased_identifiers_of_two_or_more_chars_in_order():
    assert words("Hello x World_1 2abc 12 a_b") == ["hello", "world_1", "2abc", "a_b"]


def test_words_keep_repeats_and_split_on_punctuation():
    assert words("CUDA out-of-memory: cuda, CUDA") == [
        "cuda",
        "out",
        "of",
        "memory",
        "cuda",
        "cuda",
    ]


def test_words_of_text_without_words():
    assert words("") == []
    assert words("1 2 3 != <= a") == []


# ---------------------------------------------------------------------------- template_words


def test_template_words_of_a_template_without_placeholders_are_its_words():
    assert template_words("image QKV shapes must match") == (
        "image",
        "qkv",
        "shapes",
        "must",
        "match",
    )


def test_template_words_skip_placeholders_but_keep_spaced_neighbours():
    assert template_words("feature length does not match image grids: <a> != <b>") == (
        "feature",
        "length",
        "does",
        "not",
        "match",
        "image",
        "grids",
    )
    assert template_words("got <x> items in <y> batches") == ("got", "items", "in", "batches")


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        # glued before a placeholder: "value<x>" may read "value7" or "values"
        ("value<x> too big", ("too", "big")),
        # glued after a placeholder: "<n>items" may read "3items"
        ("too many <n>items here", ("too", "many", "here")),
        # glued on both sides; the spaced word in the middle survives
        ("shape<x>mismatch in <y>foo bar<z>", ("in",)),
        # only the word touching the placeholder goes, not the rest of the chunk
        ("alpha beta<x> gamma", ("alpha", "gamma")),
    ],
)
def test_template_words_drop_words_glued_to_a_placeholder(template, expected):
    assert template_words(template) == expected


def test_template_words_of_first_and_last_chunks_are_not_glued_to_the_template_ends():
    # the first word touches only the start of the template and the last only its end
    assert template_words("alpha <x> omega") == ("alpha", "omega")


def test_template_words_undo_escapes_and_of_a_bare_placeholder():
    assert template_words("head_dim must be <<= 128") == ("head_dim", "must", "be")
    assert template_words("<e>") == ()


def test_every_template_word_is_a_word_of_any_filling():
    template = "value<x> too big for <name>, size<n> limit"
    for values in ({"x": "7", "name": "w", "n": "s"}, {"x": "s", "name": "a b", "n": "_2"}):
        message_words = words(fill(template, values))
        assert all(w in message_words for w in template_words(template))


# -------------------------------------------------------------------------------------- mask


def test_mask_hides_hex_paths_quoted_text_and_numbers():
    text = "Tensor at 0xdeadbeef in /usr/lib/x.py got 'foo' and 12.5e3 , ok"
    assert mask(text) == f"tensor at {MASK} in {MASK} got {MASK} and {MASK},ok"


def test_mask_normalises_spacing_and_case():
    assert mask("  A   B\t\nC  ") == "a b c"
    assert mask("x = 1 ; y = -2") == f"x={MASK};y={MASK}"


def test_mask_collapses_a_run_of_masked_tokens_into_one():
    assert mask("a 1 2 3 b") == f"a {MASK} b"
    assert mask("shape (3, 4)") == mask("shape (30, 40)")


def test_mask_makes_messages_that_differ_only_in_values_equal():
    assert mask("bad size 300 for '/tmp/a.bin'") == mask("bad size 12 for '/var/b'")
    assert mask("Bad Size 3") == mask("bad size 4")


def test_mask_keeps_digits_glued_to_a_word():
    assert mask("x2 fp8") == "x2 fp8"


@pytest.mark.xfail(
    strict=True,
    reason="known and kept in #8: the number mask's lookbehind sees one character, so later "
    "digits of a name are masked (layer_12 -> layer_1<mask>). Masking only whole numbers costs "
    "0.02-0.08 % top-1 on bench/accuracy.py (values glued to names, such as torch.float16, "
    "then stay unmasked); to be decided on real pastes (#9)",
)
def test_mask_keeps_every_digit_of_an_identifier():
    assert mask("layer_12 fp16") == "layer_12 fp16"


def test_mask_template_is_the_mask_of_a_filled_message():
    assert mask_template("size <n> != <m> in <p>") == mask("size 3 != 4 in 7")
    assert mask_template("got <x!r> at <<lambda>>") == mask("got 'foo' at <lambda>")
    assert mask_template("size <n> != <m>") == f"size {MASK}!={MASK}"


# ------------------------------------------------------------------------------ identifiable


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("<e>", False),  # no literal text at all
        ("bad <x>", False),  # a word, but under MIN_LITERAL characters
        ("<a> != <b> && <c>", False),  # enough characters, no word
        ("NCCL error: <e>", True),
        ("image QKV shapes must match", True),
    ],
)
def test_identifiable(template, expected):
    assert identifiable(template) is expected


def test_identifiable_threshold_is_min_literal_characters():
    assert identifiable("a" * MIN_LITERAL + " <x>")
    assert not identifiable("a" * (MIN_LITERAL - 1) + " <x>")


# ------------------------------------------------------------------------------ filing_words


def test_filing_words_pick_the_rarest_then_the_second_rarest_word():
    templates = [
        "the widget broke badly: <x>",
        "the widget exploded: <x>",
    ]
    # df: the=2 widget=2, the rest 1; ties go to the longer word, then alphabetical
    assert filing_words(templates) == [("badly", "broke"), ("exploded", "widget")]


def test_filing_words_single_word_template_has_no_second_word():
    assert filing_words(["Supercalifragilistic"]) == [("supercalifragilistic", "")]


def test_filing_words_none_for_templates_that_cannot_identify_a_message():
    assert filing_words(["<e>", "bad <x>", "image QKV shapes must match"]) == [
        None,
        None,
        ("shapes", "image"),  # all words have df 1: the longest first
    ]


def test_filing_words_count_a_repeated_word_once_per_template():
    # "again" twice in one template is still in one template only
    out = filing_words(["again and again things", "things happen here"])
    assert out[0] == ("again", "and")


def test_filing_words_are_template_words():
    templates = ["value<x> too big for <name>", "feature length <a> != <b>", "NCCL error: <e>"]
    for t, filed in zip(templates, filing_words(templates), strict=True):
        assert filed is not None
        assert filed[0] in template_words(t)
        assert not filed[1] or filed[1] in template_words(t)


def test_filing_words_of_no_templates():
    assert filing_words([]) == []


# -------------------------------------------------------------------------------- word_stats


TEMPLATES = [
    "alpha beta gamma <x>",
    "alpha beta again",
    "<e>",  # no words
    "alpha <x>",  # a word, but not identifiable
    "delta delta epsilon",
]


def test_word_stats_postings_cover_identifiable_templates_only():
    stats = word_stats(TEMPLATES)
    assert stats.postings == {
        "alpha": (0, 1),
        "beta": (0, 1),
        "gamma": (0,),
        "again": (1,),
        "delta": (4,),
        "epsilon": (4,),
    }


def test_word_stats_idf_is_consistent_with_postings():
    stats = word_stats(TEMPLATES)
    assert set(stats.idf) == set(stats.postings)
    n = len(TEMPLATES)
    for w, positions in stats.postings.items():
        assert stats.idf[w] == pytest.approx(math.log(1 + n / len(positions)))
    # a rarer word weighs more
    assert stats.idf["gamma"] > stats.idf["alpha"]


def test_word_stats_weight_sums_add_each_distinct_word_once():
    stats = word_stats(TEMPLATES)
    assert len(stats.weight_sums) == len(TEMPLATES)
    idf = stats.idf
    assert stats.weight_sums[0] == pytest.approx(idf["alpha"] + idf["beta"] + idf["gamma"])
    assert stats.weight_sums[1] == pytest.approx(idf["alpha"] + idf["beta"] + idf["again"])
    assert stats.weight_sums[2] == 0
    assert stats.weight_sums[4] == pytest.approx(idf["delta"] + idf["epsilon"])


def test_word_stats_positions_are_sorted_and_unique():
    stats = word_stats(["same words again", "same words again", "same words again twice"])
    assert stats.postings["same"] == (0, 1, 2)
    assert stats.postings["twice"] == (2,)


def test_word_stats_of_nothing():
    stats = word_stats([])
    assert stats.postings == {}
    assert stats.idf == {}
    assert stats.weight_sums == ()
