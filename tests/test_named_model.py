"""Sites of one text in many model files (`Parameter <name> not found in params_dict`, logged by
every model loader): the model the paste names outside the message picks its file's sites,
even when they are beyond the five an explanation lists; a model named otherwise, or two
models, change nothing."""

from __future__ import annotations

import pytest
from tests.views import catalog_view, one_entry

from errexplain._startup import replace
from errexplain.explainer import _model_name, explain_text
from errexplain.models import Entry, Project

TEMPLATE = "Weight <name> has no slot in this loader's table"
STEMS = ("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "mamba2", "orca3_5", "orca3")


def _entry(stem: str) -> Entry:
    return replace(one_entry(TEMPLATE, "warning", f"pkg/models/{stem}.py"), kind="log")


@pytest.fixture(params=["memory", "index"])
def view(request):
    return catalog_view(request.param, [_entry(s) for s in STEMS], [Project("pkg", "1.0")])


LINE = "Weight layers.3.mlp.up.scale has no slot in this loader's table\n"


@pytest.mark.parametrize(
    ("lead", "stem"),
    [
        ("$ pkg serve --model acme/Orca3.5-27B-FP8\n", "orca3_5"),
        ("Loading Orca-3.5 weights:\n", "orca3_5"),
        ("model: acme/Orca3-8B\n", "orca3"),
        ("model: acme/Orca3-0.6B-Instruct\n", "orca3"),
        ("Serving Mamba2 2.7B\n", "mamba2"),
    ],
)
def test_the_named_models_file_comes_first(view, lead, stem):
    (exp,) = explain_text(lead + LINE, view)
    top = exp.matches[0]
    assert top.entry.source.path == f"pkg/models/{stem}.py"
    # (by the model's name; or by a word of its path when it is among the five listed first)
    assert any("the paste names" in r for r in top.reasons)
    assert len(exp.matches) == 5 and exp.ambiguous  # (still listed as one text of many sites)


@pytest.mark.parametrize(
    "lead",
    [
        "",
        # two models named: no evidence
        "Converted from acme/Orca3-8B to acme/Orca3.5-27B\n",
        # a version of another file's model is not this one (`Orca3.6` is not orca3)
        "model: acme/Orca3.6-27B\n",
        # a stem with no digit is a word said of much else
        "the beta release of the loader\n",
    ],
)
def test_no_model_or_two_models_named_change_nothing(view, lead):
    (exp,) = explain_text(lead + LINE, view)
    assert not any("the paste names the model" in r for m in exp.matches for r in m.reasons)


def test_frames_order_the_sites_not_the_model_name(view):
    text = (
        "model: acme/Orca3.5-27B\nTraceback (most recent call last):\n"
        '  File "/env/site-packages/pkg/models/gamma.py", line 9, in load_weights\n'
        "    raise ValueError(msg)\n"
        "ValueError: Weight layers.3.mlp.up.scale has no slot in this loader's table\n"
    )
    (exp,) = explain_text(text, view)
    assert not any("the paste names the model" in r for m in exp.matches for r in m.reasons)


@pytest.mark.parametrize(
    ("stem", "said", "names"),
    [
        ("qwen3_5", "Qwen/Qwen3.5-27B-FP8", True),
        ("qwen3_5", "Qwen3.6-27B", False),
        ("qwen3", "Qwen3-235B-A22B", True),
        ("qwen3", "Qwen3.5-27B", False),
        ("deepseek_v4", "DeepSeek-V4-Flash", True),
        ("deepseek_v2", "DeepSeek-V3", False),
        ("llama", "Llama-3.1-8B", False),  # (no digit in the stem: never)
        ("glm4_moe", "myglm4_moe", False),
    ],
)
def test_model_name_patterns(stem, said, names):
    pattern = _model_name(stem)
    assert bool(pattern and pattern.search(said)) == names


def test_a_look_alike_lists_the_named_models_sites_as_nearest(view):
    """The paste names only another engine: the project's sites are look-alikes, listed as
    nearest, the named model's first (not the listed five's first, as a confident match)."""
    text = "$ vllm serve acme/Orca3.5-27B-FP8\n" + LINE
    (exp,) = explain_text(text, view)
    assert not exp.matches and exp.look_alike
    assert exp.nearest[0].entry.source.path == "pkg/models/orca3_5.py"
