"""errexplain.catalog.integrity: `catalog check` and `catalog lint` over small catalogs written
to temporary directories (the format of tests/data/catalog and docs/catalog.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from errexplain.catalog.integrity import (
    Problem,
    check,
    dangling_related,
    duplicate_templates,
    examples_rank_first,
    lint,
    too_generic,
)
from errexplain.catalog.load import load_catalog
from errexplain.catalog.memory import MemoryCatalog
from errexplain.catalog.yamlio import dump_yaml

DATA = Path(__file__).parent.parent / "data" / "catalog"

A, B, C, D = "a" * 16, "b" * 16, "c" * 16, "d" * 16


def _entry(ident: str, template: str, **extra) -> dict:
    return {
        "id": ident,
        "exception": extra.pop("exception", "ValueError"),
        "template": template,
        "source": {"path": f"p/{ident[:4]}.py", "line": 1, "function": "f"},
        "derived": True,
        **extra,
    }


def _write_project(root: Path, name: str, entries: list[dict]) -> Path:
    proj = root / name
    proj.mkdir(parents=True)
    (proj / "project.yaml").write_text(dump_yaml({"name": name, "version": "1.0"}))
    (proj / "mod.yaml").write_text(dump_yaml({"module": f"{name}/mod.py", "entries": entries}))
    return proj / "mod.yaml"


def _catalog(tmp_path: Path, entries: list[dict], name: str = "proj"):
    _write_project(tmp_path / "cat", name, entries)
    return load_catalog([tmp_path / "cat"])


# --------------------------------------------------------------------------------- Problem


def test_problem_str_names_file_and_entry():
    assert str(Problem(A, "x/mod.yaml", "bad")) == f"x/mod.yaml: entry {A}: bad"
    assert str(Problem(A, None, "bad")) == f"?: entry {A}: bad"


# ------------------------------------------------------------------------------------ check


def test_the_small_test_catalog_is_clean(small_catalog):
    assert check(small_catalog) == []


def test_clean_crafted_catalog(tmp_path):
    catalog = _catalog(
        tmp_path,
        [
            _entry(A, "disk full on device <dev>", examples=["disk full on device sda"]),
            _entry(
                B, "network unreachable: <host>", related=[A], examples=["network unreachable: h"]
            ),
        ],
    )
    assert check(catalog) == []
    assert lint(catalog) == {
        "too generic": [],
        "duplicate templates": [],
        "dangling related ids": [],
    }


def test_dangling_related(tmp_path):
    catalog = _catalog(
        tmp_path,
        [
            _entry(A, "disk full on device <dev>", related=[B, D]),
            _entry(B, "network unreachable: <host>", related=[C]),
        ],
    )
    f = str(tmp_path / "cat" / "proj" / "mod.yaml")
    assert dangling_related(catalog) == [
        Problem(A, f, f"related: unknown id {D}"),
        Problem(B, f, f"related: unknown id {C}"),
    ]
    assert check(catalog) == dangling_related(catalog)


def test_example_that_matches_nothing(tmp_path):
    catalog = _catalog(
        tmp_path, [_entry(A, "disk full on device <dev>", examples=["zebra giraffe"])]
    )
    [problem] = examples_rank_first(catalog)
    assert problem.entry_id == A
    assert problem.message == "example 'zebra giraffe': no match"
    assert check(catalog) == [problem]


def test_example_that_ranks_another_entry_first(tmp_path):
    catalog = _catalog(
        tmp_path,
        [
            # the placeholder swallows "sda now", but B pins more of the message down
            _entry(A, "disk full on device <dev>", examples=["disk full on device sda now"]),
            _entry(B, "disk full on device <x> now", examples=["disk full on device sdb now"]),
        ],
    )
    [problem] = examples_rank_first(catalog)
    assert problem.entry_id == A
    assert problem.message == f"example 'disk full on device sda now': ranked first instead: {B}"


def test_example_of_another_exception_type_loses_to_the_right_type(tmp_path):
    catalog = _catalog(
        tmp_path,
        [
            _entry(A, "the widget exploded badly", exception="TypeError", examples=["x"]),
            _entry(B, "the widget exploded badly", examples=["the widget exploded badly"]),
        ],
    )
    [problem] = examples_rank_first(catalog)
    assert problem.entry_id == A  # B's example ranks B first: the type counts


def test_tie_between_sites_of_one_template_is_allowed(tmp_path):
    catalog = _catalog(
        tmp_path,
        [
            _entry(
                A, "<n> is not divisible by <d> here", examples=["16 is not divisible by 6 here"]
            ),
            _entry(
                B, "<n> is not divisible by <d> here", examples=["8 is not divisible by 3 here"]
            ),
        ],
    )
    assert examples_rank_first(catalog) == []


def test_long_example_is_cut_in_the_problem(tmp_path):
    example = "zebra " * 30
    catalog = _catalog(tmp_path, [_entry(A, "disk full on device <dev>", examples=[example])])
    [problem] = examples_rank_first(catalog)
    assert problem.message == f"example {example[:60]!r}: no match"


def test_examples_rank_first_uses_the_given_view(tmp_path):
    catalog = _catalog(
        tmp_path, [_entry(A, "disk full on device <dev>", examples=["disk full on device sda"])]
    )
    other = _catalog(tmp_path / "other", [_entry(B, "network unreachable: <host>")])
    assert examples_rank_first(catalog, MemoryCatalog(catalog.entries)) == []
    # against a view without the entry, its example matches nothing
    [problem] = examples_rank_first(catalog, MemoryCatalog(other.entries))
    assert (problem.entry_id, problem.message) == (A, "example 'disk full on device sda': no match")


def test_examples_rank_first_uses_a_given_empty_view(tmp_path):
    catalog = _catalog(
        tmp_path, [_entry(A, "disk full on device <dev>", examples=["disk full on device sda"])]
    )
    assert [p.entry_id for p in examples_rank_first(catalog, MemoryCatalog([]))] == [A]


# --------------------------------------------------------------------------------------- lint


def test_too_generic(tmp_path):
    catalog = _catalog(
        tmp_path,
        [
            _entry(A, "<e>"),
            _entry(B, "bad <x>"),
            _entry(C, "<a> != <b> && <c>"),
            _entry(D, "disk full on device <dev>"),
        ],
    )
    problems = too_generic(catalog)
    assert [p.entry_id for p in problems] == [A, B, C]
    assert problems[0].message == (
        "template '<e>' has too little literal text to identify it (it never matches on its own)"
    )


def test_duplicate_templates_in_one_project(tmp_path):
    catalog = _catalog(
        tmp_path,
        [
            _entry(A, "disk full on device <dev>"),
            _entry(B, "network unreachable: <host>"),
            _entry(C, "disk full on device <dev>"),
            # duplicates without a single literal word are not reported
            _entry(D, "<a> != <b>"),
            _entry("e" * 16, "<a> != <b>"),
        ],
    )
    [problem] = duplicate_templates(catalog)
    assert problem.entry_id == A
    assert problem.file == str(tmp_path / "cat" / "proj" / "mod.yaml")
    assert problem.message == f"template 'disk full on device <dev>' is raised at 2 sites: {A}, {C}"


def test_same_template_in_two_projects_is_not_a_duplicate(tmp_path):
    _write_project(tmp_path / "cat", "one", [_entry(A, "disk full on device <dev>")])
    _write_project(tmp_path / "cat", "two", [_entry(B, "disk full on device <dev>")])
    catalog = load_catalog([tmp_path / "cat"])
    assert len(catalog.entries) == 2
    assert duplicate_templates(catalog) == []


def test_lint_of_the_small_test_catalog(small_catalog):
    report = lint(small_catalog)
    assert list(report) == ["too generic", "duplicate templates", "dangling related ids"]
    assert [p.entry_id for p in report["too generic"]] == ["2a98951e34eff474"]
    dups = {p.entry_id: p.message for p in report["duplicate templates"]}
    assert dups == {
        "c70821dca67aeab7": "template '<numerator> is not divisible by <denominator>' is raised "
        "at 2 sites: c70821dca67aeab7, 7faa7e20158272e2",
        "888b81856c534134": "template 'image QKV shapes must match' is raised at 2 sites: "
        "888b81856c534134, 641fc42cd913ed30",
    }
    assert report["dangling related ids"] == []


@pytest.mark.parametrize("dangling", [False, True])
def test_lint_reports_dangling_ids(tmp_path, dangling):
    related = [D] if dangling else [A]
    catalog = _catalog(tmp_path, [_entry(A, "disk full on device <dev>", related=related)])
    assert bool(lint(catalog)["dangling related ids"]) is dangling
