"""Golden outputs: varied pastes explained with the bundled catalog, each drawn three ways
(plain, Rich without colour, JSON), plus -v renderings and `show` entry views.

One file per paste per format in tests/data/golden/: NAME.plain.txt, NAME.rich.txt, NAME.json
(NAME.verbose.*.txt for -v, show_ID.*.txt for entries). Goldens are reviewed like code.

Regenerate after a reviewed change with:
    UPDATE_GOLDENS=1 python -m pytest tests/render/test_golden.py
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from errexplain.explainer import TRUNCATED_NOTE, explain_text
from errexplain.models import Explanation
from errexplain.render import json as json_render
from errexplain.render.plain import SEPARATOR, render_view
from errexplain.render.plain import render_explanations as render_plain
from errexplain.render.rich import print_entry, print_explanations
from errexplain.render.view import entry_view

REPO = Path(__file__).parent.parent.parent
DATA = REPO / "tests" / "data"
GOLDEN = DATA / "golden"
INPUTS = GOLDEN / "inputs"
TRACEBACKS = DATA / "tracebacks"
EXAMPLES = REPO / "examples"

Exps = tuple[Explanation, ...]


@dataclass(frozen=True)
class Paste:
    name: str
    path: Path
    why: str
    covers: Callable[[Exps], bool]
    """Still true of the explanations: the paste keeps exercising what it was chosen for."""

    def __str__(self) -> str:
        return self.name


def _ambiguous_same_template(exps: Exps) -> bool:
    [x] = exps
    return x.ambiguous and len({m.entry.template for m in x.matches}) == 1 < len(x.matches)


PASTES = (
    Paste(
        "kimi_k3_multirank",
        EXAMPLES / "kimi_k3_multirank.log",
        "two ranks print the same error: one answer, seen twice; exact match with related errors",
        lambda x: (
            x[0].error.ranks == ("TP0", "TP1")
            and x[0].matches[0].kind == "exact"
            and bool(x[0].matches[0].related)
        ),
    ),
    Paste(
        "hunyuan_qkv_fenced",
        EXAMPLES / "hunyuan_qkv_fenced.md",
        "a markdown-fenced traceback matching a curated entry with an example fix",
        lambda x: x[0].matches[0].entry.curated and x[0].matches[0].entry.example_fix is not None,
    ),
    Paste(
        "chained_cause",
        TRACEBACKS / "chained_cause.txt",
        "`raise ... from`: the cause explained first (huggingface_hub's validation error), then "
        "the OSError it caused with its root cause line, no catalog match, generic 'About OSError'",
        lambda x: (
            len(x) == 2
            and x[0].error.type.endswith("HFValidationError")
            and x[-1].error.root_cause is not None
            and not x[-1].matches
            and bool(x[-1].generic)
        ),
    ),
    Paste(
        "exception_group",
        TRACEBACKS / "exception_group.txt",
        "an exception group: no match, nearest candidates, generic text of the nearest base class",
        lambda x: len(x[0].error.members) == 2 and bool(x[0].nearest) and bool(x[0].generic),
    ),
    Paste(
        "ansi_colored",
        TRACEBACKS / "ansi_colored.txt",
        "ANSI colours and OSC 8 links in the paste never reach the output (its message is in no "
        "release: the nearest candidates are shown, a kernel's `M must be in [1, <_MAX_M>], got "
        "<m>` among them, no longer matched at 0.86 since the traceback ends at a call in "
        "another sglang file)",
        lambda x: "\x1b" not in x[0].error.message and bool(x[0].nearest),
    ),
    Paste(
        "truncated_only",
        TRACEBACKS / "truncated_only.txt",
        "a traceback cut off before its exception line: the truncation note",
        lambda x: x[0].error.truncated and TRUNCATED_NOTE in x[0].notes,
    ),
    Paste(
        "eight_ranks",
        TRACEBACKS / "eight_ranks.txt",
        "eight ranks with the same traceback: deduplicated to one answer seen 8 times",
        lambda x: len(x) == 1 and x[0].error.count == 8,
    ),
    Paste(
        "tricky_messages",
        TRACEBACKS / "tricky_messages.txt",
        "three bare errors whose messages hold braces, brackets, <lambda> and a leading --flag",
        lambda x: (
            len(x) == 3 and "<lambda>" in x[1].error.message and "[2, 3]" in x[1].error.message
        ),
    ),
    Paste(
        "fenced_python",
        TRACEBACKS / "fenced_python.txt",
        "prose around a ```python fence; a dotted exception type",
        lambda x: x[0].error.type == "huggingface_hub.errors.HFValidationError",
    ),
    Paste(
        "bare_error",
        TRACEBACKS / "bare_error.txt",
        "one line, no frames; a second candidate listed under 'Other candidates'",
        lambda x: not x[0].error.frames and len(x[0].matches) > 1 and not x[0].ambiguous,
    ),
    Paste(
        "eval_014",
        INPUTS / "014.txt",
        "ambiguous: the same template is raised at several sites, all listed",
        _ambiguous_same_template,
    ),
    Paste(
        "eval_036",
        INPUTS / "036.txt",
        "only the head of the message was pasted: fuzzy prefix matches",
        lambda x: x[0].ambiguous and all(m.kind == "fuzzy" for m in x[0].matches),
    ),
    Paste(
        "eval_066",
        INPUTS / "066.txt",
        "the message goes on over the next line; nvcc `error:` lines after it are not exceptions",
        lambda x: len(x) == 1 and x[0].error.message.endswith("fp4_quant_true") and x[0].explained,
    ),
    Paste(
        "eval_071",
        INPUTS / "071.txt",
        "no traceback, only log lines of two ranks; ambiguous (the record that reports the "
        "exception is explained first, on its own)",
        lambda x: not x[0].error.type and x[1].error.count == 2 and _ambiguous_same_template(x[1:]),
    ),
    Paste(
        "eval_079",
        INPUTS / "079.txt",
        "two pod logs: a raised error, and an exception whose own text is unknown reported "
        "inside a catalogued log line (explained by the line)",
        lambda x: (
            len(x) == 2
            and x[0].explained
            and x[1].explained
            and any("inside a catalogued log message" in n for n in x[1].notes)
        ),
    ),
)
VERBOSE = tuple(p for p in PASTES if p.name in {"kimi_k3_multirank", "bare_error"})
SHOWN = (
    "ba3f475c0ac31b40",  # curated: meaning, situations, solutions, example fix, examples
    "e40435d09cdde1a1",  # derived, removed_in
)


@pytest.fixture(scope="module")
def explained(bundled_index) -> Callable[[Paste], Exps]:
    cache: dict[str, Exps] = {}

    def get(paste: Paste) -> Exps:
        if paste.name not in cache:
            cache[paste.name] = explain_text(paste.path.read_text(encoding="utf-8"), bundled_index)
        return cache[paste.name]

    return get


def check_golden(name: str, out: str) -> None:
    golden = GOLDEN / name
    if os.environ.get("UPDATE_GOLDENS"):
        golden.write_bytes(out.encode("utf-8"))
    assert golden.exists(), f"{name} is missing: run with UPDATE_GOLDENS=1 and review it"
    assert out == golden.read_bytes().decode("utf-8")


def rich_out(console, exps: Exps, *, verbose: bool = False) -> str:
    print_explanations(console, exps, verbose=verbose)
    out: str = console.file.getvalue()
    assert "\x1b" not in out, "the no-colour console must not write escape sequences"
    return out


def test_at_least_twelve_varied_pastes():
    assert len(PASTES) >= 12
    assert len({p.path for p in PASTES}) == len(PASTES)
    assert all(p.path.is_file() for p in PASTES)


@pytest.mark.parametrize("paste", PASTES, ids=str)
def test_paste_still_covers_what_it_was_chosen_for(paste, explained):
    assert paste.covers(explained(paste)), paste.why


@pytest.mark.parametrize("paste", PASTES, ids=str)
def test_golden_plain(paste, explained):
    check_golden(f"{paste.name}.plain.txt", render_plain(explained(paste)))


@pytest.mark.parametrize("paste", PASTES, ids=str)
def test_golden_rich(paste, explained, console):
    check_golden(f"{paste.name}.rich.txt", rich_out(console, explained(paste)))


@pytest.mark.parametrize("paste", PASTES, ids=str)
def test_golden_json(paste, explained):
    out = json_render.render_explanations(explained(paste))
    check_golden(f"{paste.name}.json", out)
    doc = json.loads(out)
    assert doc["schema"] == 1
    assert len(doc["errors"]) == len(explained(paste))
    assert str(REPO) not in out, "no absolute path of the checkout may leak into JSON"


@pytest.mark.parametrize("paste", VERBOSE, ids=str)
def test_golden_verbose_plain(paste, explained):
    exps = explained(paste)
    out = render_plain(exps, verbose=True)
    check_golden(f"{paste.name}.verbose.plain.txt", out)
    assert out.count("\nMatch ") == sum(len(x.matches) for x in exps)
    assert "-v shows them in full" not in out


@pytest.mark.parametrize("paste", VERBOSE, ids=str)
def test_golden_verbose_rich(paste, explained, console):
    out = rich_out(console, explained(paste), verbose=True)
    check_golden(f"{paste.name}.verbose.rich.txt", out)
    assert "-v shows them in full" not in out


@pytest.mark.parametrize("entry_id", SHOWN)
def test_golden_show_plain(entry_id, bundled_index):
    entry = bundled_index.entry(bundled_index.position(entry_id))
    check_golden(f"show_{entry_id}.plain.txt", render_view(entry_view(entry)) + "\n")


@pytest.mark.parametrize("entry_id", SHOWN)
def test_golden_show_rich(entry_id, bundled_index, console):
    print_entry(console, bundled_index.entry(bundled_index.position(entry_id)))
    out = console.file.getvalue()
    check_golden(f"show_{entry_id}.rich.txt", out)
    assert out.startswith(f"╭─ {entry_id} · ")


def _plain_text(out: str) -> str:
    return "".join(ln for ln in out.splitlines() if ln.strip() != SEPARATOR.strip())


def _rich_text(out: str) -> str:
    """The text inside the panels: no borders, titles or rules."""
    kept = []
    for ln in out.splitlines():
        if ln.startswith(("╭", "╰")):
            continue
        inner = ln.removeprefix("│").removesuffix("│")
        if inner.strip().strip("─"):
            kept.append(inner)
    return "".join(kept)


@pytest.mark.parametrize("verbose", [False, True], ids=["default", "verbose"])
@pytest.mark.parametrize("paste", PASTES, ids=str)
def test_rich_draws_the_same_text_as_plain(paste, verbose, explained, console):
    """Both draw the one view: apart from layout, not a character differs."""
    exps = explained(paste)
    plain = _plain_text(render_plain(exps, verbose=verbose))
    rich = _rich_text(rich_out(console, exps, verbose=verbose))
    assert "".join(rich.split()) == "".join(plain.split())
