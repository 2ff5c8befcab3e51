from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from errexplain.catalog.index import Index
from errexplain.catalog.index_build import build_bytes
from errexplain.catalog.memory import MemoryCatalog
from errexplain.match.rank import FUZZY_CUTOFF, LOCATED_RELIEF, rank
from errexplain.models import Frame


def _top(index, message, exc_type="", frames=()):
    r = rank(index, message, exc_type, frames)
    return [(h.cand.path, h.kind, round(h.score, 3)) for h in r.hits], r


def test_exact_match_binds_values(small_index):
    hits, r = _top(
        small_index, "feature length does not match image grids: 5824 != 5760", "ValueError"
    )
    assert hits[0][:2] == ("demo/pkg/images.py", "exact")
    assert dict(r.hits[0].values) == {"pixel_values.shape[0]": "5824", "sum(patch_counts)": "5760"}
    assert not r.ambiguous


def test_type_counts(small_index):
    hits, _ = _top(small_index, "image QKV shapes must match", "ValueError")
    assert _.hits[0].cand.exception == "ValueError"
    assert hits[0][2] > hits[1][2]
    hits, r = _top(small_index, "image QKV shapes must match", "TypeError")
    assert r.hits[0].cand.exception == "TypeError"


def test_same_template_without_frames_is_ambiguous(small_index):
    hits, r = _top(small_index, "16 is not divisible by 6", "AssertionError")
    assert r.ambiguous
    assert {h[0] for h in hits} == {"demo/pkg/dist.py", "demo/other/dist.py"}


def test_frames_pick_the_site(small_index):
    frames = (
        Frame("/usr/lib/python3/site-packages/demo/other/dist.py", 42, "ensure_divisibility"),
    )
    hits, r = _top(small_index, "16 is not divisible by 6", "AssertionError", frames)
    assert hits[0][0] == "demo/other/dist.py"
    assert not r.ambiguous
    assert any("frame" in why for why in r.hits[0].reasons)


def test_generic_template_never_wins_alone(small_index):
    hits, r = _top(small_index, "something nobody wrote down", "RuntimeError")
    assert hits == []
    assert all(h.cand.template != "<e>" for h in r.nearest)


def test_short_literal_prefix_is_still_exact(small_index):
    hits, _ = _top(
        small_index,
        "NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)",
        "RuntimeError",
    )
    assert hits[0][:2] == ("demo/pkg/nccl.py", "exact")


def test_truncated_message_matches_fuzzy(small_index):
    hits, r = _top(
        small_index,
        "Model architectures ['Glm4ForCausalLM'] are not supported for now. ",
        "ValueError",
    )
    assert hits[0][:2] == ("demo/pkg/reg.py", "fuzzy")
    assert "up to a placeholder or a sentence end" in " ".join(r.hits[0].reasons)
    # cut inside the sentence: a cut off
    hits, r = _top(
        small_index, "Model architectures ['Glm4ForCausalLM'] are not supp", "ValueError"
    )
    assert hits[0][:2] == ("demo/pkg/reg.py", "fuzzy")
    assert "cut off" in " ".join(r.hits[0].reasons)


def test_no_match_is_empty_with_nearest(small_index):
    hits, r = _top(small_index, "feature grids are weird today", "ValueError")
    assert hits == []
    assert r.nearest


def test_scores_are_in_unit_interval(small_index):
    for msg in (
        "feature length does not match image grids: 1 != 2",
        "16 is not divisible by 6",
        "Weight output_partition_size = 576 is not divisible by weight quantization block_n = 128.",
    ):
        r = rank(small_index, msg, "ValueError")
        assert all(0.0 <= h.score <= 1.0 for h in r.hits + r.nearest)


@settings(max_examples=20)
@given(st.randoms(use_true_random=False))
def test_ranking_depends_on_neither_order_nor_store(small_catalog, rnd: random.Random):
    """Shuffling the catalog changes nothing, and the binary index answers like the in-memory
    catalog."""
    entries = list(small_catalog.entries)
    rnd.shuffle(entries)
    views = (
        MemoryCatalog(entries),
        Index.from_bytes(build_bytes(entries, (), "x")),
        MemoryCatalog(small_catalog.entries),
    )
    for msg, t in (
        ("16 is not divisible by 6", "AssertionError"),
        ("image QKV shapes must match", "ValueError"),
        ("Model architectures ['X'] are not supported for now.", "ValueError"),
        ("feature length does not match the image grid", "ValueError"),
    ):
        answers = [
            [(h.cand.id, h.kind, round(h.raw, 6)) for h in rank(v, msg, t).hits] for v in views
        ]
        assert answers[0], msg
        assert answers[0] == answers[1] == answers[2]


def test_innermost_frame_lowers_the_bar_for_its_own_entry(small_index):
    # reworded so much that text alone stays under the cutoff...
    msg = "Weight output_partition_size = 576 cannot be divided by block_n = 128"
    hits, r = _top(small_index, msg, "ValueError")
    assert [k for _, k, _ in hits] in ([], ["probable"])  # far ahead in a tiny catalog at most
    assert all(h.score < FUZZY_CUTOFF for h in (*r.hits, *r.nearest))
    # ...but raised in that very function (innermost frame): offered, even though its score,
    # frame bonus included, is still under the cutoff
    frames = (Frame("/opt/venv/site-packages/demo/pkg/quant.py", 610, "validate"),)
    hits, r = _top(small_index, msg, "ValueError", frames)
    assert hits and hits[0][:2] == ("demo/pkg/quant.py", "fuzzy")
    assert FUZZY_CUTOFF - LOCATED_RELIEF <= r.hits[0].score < FUZZY_CUTOFF
    assert any("frame" in why for why in r.hits[0].reasons)


def test_ranking_does_not_depend_on_the_hash_seed():
    """Set iteration order changes with PYTHONHASHSEED; the fuzzy pool's float sums (and so its
    ties) must not, or the same paste could get another answer in another run."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    catalog = Path(__file__).parent.parent / "data" / "catalog"
    code = (
        "import json, sys\n"
        "from errexplain.catalog.load import load_catalog\n"
        "from errexplain.catalog.memory import MemoryCatalog\n"
        "from errexplain.match.rank import rank\n"
        "view = MemoryCatalog(load_catalog([sys.argv[1]]).entries)\n"
        "msgs = ['feature length does not match the grids of the image',\n"
        "        'weight partition size is not divisible by the block size',\n"
        "        'model architecture not supported for now', 'image QKV shape mismatch']\n"
        "print(json.dumps([[(h.cand.id, round(h.raw, 9)) for h in (r.hits + r.nearest)]\n"
        "                  for r in (rank(view, m, 'ValueError') for m in msgs)]))\n"
    )
    outs = set()
    for seed in ("0", "1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        r = subprocess.run(
            [sys.executable, "-c", code, str(catalog)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        outs.add(r.stdout)
    assert len(outs) == 1
    assert any(json.loads(next(iter(outs))))


def _entry(eid, exception, template, path="demo/pkg/x.py", function="f", kind="raise"):
    from errexplain.models import Entry, Source

    return Entry(
        id=eid,
        project="demo" if kind != "builtin" else "torch",
        exception=exception,
        template=template,
        source=Source("demo", "1.0", path if kind != "builtin" else None, 10, function, None),
        kind=kind,
    )


def _view(*entries):
    from errexplain.catalog.memory import MemoryCatalog

    return MemoryCatalog(entries)


def test_a_changed_exception_type_costs_little_when_the_text_agrees():
    # a refactor turned the ValueError into a RuntimeError; the wording stayed
    view = _view(
        _entry("a" * 16, "RuntimeError", "KV cache pool is too small for <n> tokens, increase it"),
        _entry("b" * 16, "ValueError", "the request pool is full, retry later"),
    )
    r = rank(view, "KV cache pool is too small for 4096 tokens, increase it", "ValueError")
    assert r.hits and r.hits[0].id == "a" * 16
    assert 0.9 <= r.hits[0].score < 1.0
    assert any("not ValueError" in why for why in r.hits[0].reasons)
    # with the right type it still scores higher
    assert (
        rank(view, "KV cache pool is too small for 4096 tokens, increase it", "RuntimeError")
        .hits[0]
        .score
        > r.hits[0].score
    )


def test_message_pasted_up_to_a_placeholder_matches_the_templates_head():
    # torch appends help text after a placeholder; people paste the first line only
    view = _view(
        _entry(
            "c" * 16,
            "AcceleratorError",
            "CUDA error: device-side assert triggered<help>CUDA kernel errors might be "
            "asynchronously reported at some other API call, so the stacktrace below might "
            "be incorrect. For debugging consider passing CUDA_LAUNCH_BLOCKING=1",
            kind="builtin",
        ),
        _entry("d" * 16, "RuntimeError", "CUDA error <code>(<name>)"),
    )
    r = rank(view, "CUDA error: device-side assert triggered", "RuntimeError")
    assert r.hits and r.hits[0].id == "c" * 16
    assert any("up to a placeholder" in why for why in r.hits[0].reasons)


def test_a_short_generic_template_does_not_win_with_confidence():
    view = _view(_entry("e" * 16, "ValueError", "<feature> is not supported yet"))
    r = rank(
        view, "Streaming responses for tool calls on this model is not supported yet", "ValueError"
    )
    best = (*r.hits, *r.nearest)[0]
    assert best.score < 0.9
    loose = rank(view, "cuda error device side assert triggered is not supported yet", "")
    assert all(h.score < 0.9 for h in (*loose.hits, *loose.nearest))


@pytest.mark.parametrize(
    ("msg", "capped"),
    [
        ("Unsupported rhs dtype fp8e4nv", True),  # the short template's words found apart
        ("the rhs dtype is unsupported here", True),
        ("unsupported dtype: fp8e4nv", False),  # its phrase kept: an exact match
        ("UNSUPPORTED DTYPE:  fp8e4nv", False),  # case and spacing aside
        # the stop before the value left out, or moved past words of the message's own, or no
        # value after the words: with two generic words, another sentence
        ("Unsupported dtype fp8e4nv", True),
        ("unsupported dtype for netCDF4 variable: object", True),
        ("FmhaRunner: unsupported dtype", True),
    ],
)
def test_a_short_template_found_only_word_by_word_is_never_confident(msg, capped):
    """Two or three generic words that a message has, but not side by side as the template
    has them (f023: triton's `Unsupported rhs dtype fp8e4nv`), score at most SHORT_APART_CAP,
    under the cutoff: a nearest candidate, never the match."""
    from errexplain.match.rank import FUZZY_CUTOFF, SHORT_APART_CAP

    view = _view(_entry("e" * 16, "AssertionError", "unsupported dtype: <dtype>"))
    r = rank(view, msg, "AssertionError")
    best = (*r.hits, *r.nearest)[0]
    assert (best.score <= SHORT_APART_CAP) is capped
    if capped:
        assert "not side by side" in best.reasons[0] or "ignoring case" in best.reasons[0]
        assert not r.hits and SHORT_APART_CAP < FUZZY_CUTOFF


@pytest.mark.parametrize(
    ("template", "msg", "costs"),
    [
        # a value named for one thing, holding a clause: another project's longer message
        ("Invalid backend: <name>", "Invalid backend: None, expected sglang or vllm", True),
        ("Unknown mode: <args.mode>", "Unknown mode: fast, which is not one of these", True),
        # one value, however long; a list of values; prose where prose is named
        ("Invalid backend: <name>", "Invalid backend: triton_v2", False),
        ("Invalid backend: <name>", "Invalid backend: ['a', 'b', 'c', 'd']", False),
        ("Failed to load: <e>", "Failed to load: no file, looked in the cache and the hub", False),
        ("Load failed: <str(err)>", "Load failed: no file, looked in the cache and the hub", False),
        ("Request aborted: <reason>", "Request aborted: client gone, will not retry it", False),
        # long literal text pins the message down whatever the value
        (
            "The attention backend that was chosen for this model is invalid: <name>",
            "The attention backend that was chosen for this model is invalid: x, as the docs say",
            False,
        ),
    ],
)
def test_a_value_that_reads_as_more_of_the_message_costs(template, msg, costs):
    """yd004's shape: `Invalid backend: <name>` read `None, expected sglang or vllm` as one
    value at 0.90 (AReaL's own check). A placeholder named for one value that holds a clause of
    prose after a comma costs PROSE_TAIL_COST, so the short template is not confident."""
    from errexplain.match.rank import PROSE_TAIL_COST

    view = _view(_entry("e" * 16, "ValueError", template))
    (hit,) = rank(view, msg, "ValueError").hits
    assert any("reads as more of the message" in r for r in hit.reasons) is costs
    if costs:
        assert hit.score < 0.9 and PROSE_TAIL_COST > 0


def test_a_short_template_keeps_a_word_glued_to_its_placeholder():
    """`layer<i> weights` has `layer3 weights`: the word touching the placeholder is not asked
    for whole."""
    view = _view(_entry("e" * 16, "ValueError", "bad layer<i> weights"))
    r = rank(view, "bad layer3 weights here", "ValueError")
    best = (*r.hits, *r.nearest)[0]
    assert "not side by side" not in " ".join(best.reasons)


def test_a_candidate_far_ahead_with_long_literal_overlap_is_probable():
    view = _view(
        _entry(
            "f" * 16,
            "ValueError",
            "Tensor parallel size <tp> must divide the number of attention heads <heads> "
            "of the model configuration",
        ),
        _entry("g" * 16, "ValueError", "pipeline stages must be positive"),
    )
    msg = (
        "the tensor parallel size (8) has to divide the attention heads count (28) given by "
        "the model configuration file"
    )
    r = rank(view, msg, "ValueError")
    assert [h.kind for h in r.hits] == ["probable"]
    assert r.hits[0].score < FUZZY_CUTOFF
    assert any(why.startswith("probable:") for why in r.hits[0].reasons)
    # nothing far ahead: no probable answer
    r = rank(view, "pipeline size is wrong", "ValueError")
    assert not r.hits


def test_a_message_cut_after_a_whole_value_matches_the_templates_head():
    # "... a `ValueError: Cannot find any of ['quant_method']` error, which ..." in prose: the
    # message stops after a whole list, before the template's tail
    view = _view(
        _entry(
            "h" * 16, "ValueError", "Cannot find any of <keys> in the model's quantization config."
        )
    )
    r = rank(view, "Cannot find any of ['quant_method']", "ValueError")
    assert r.hits and r.hits[0].id == "h" * 16
    assert any("up to a placeholder" in why for why in r.hits[0].reasons)
    # a value that is not whole (cut inside it) is not such a boundary
    assert not rank(view, "Cannot find any of ['quant_me", "ValueError").hits


def test_a_few_generic_words_inside_a_long_message_are_not_a_match():
    view = _view(_entry("i" * 16, "error", "Server error: <str(e)>", kind="log"))
    msg = (
        "Internal server error: Message has tool role, but there was no previous assistant "
        "message with a tool call!"
    )
    r = rank(view, msg, "")
    assert not r.hits
    # the same words at the start of the message: the template's head, values after it
    assert rank(view, "Server error: " + msg, "").hits


def _lone_template(path: str, function: str, exception: str, template: str) -> MemoryCatalog:
    """A catalog of one derived entry raising `template` at line 3 of `path`."""
    from errexplain.models import Entry, Source, make_id

    return MemoryCatalog(
        (
            Entry(
                id=make_id("pkg", path, f"{function}#3", template),
                project="pkg",
                exception=exception,
                template=template,
                source=Source("pkg", "1.0", path, 3, function, None),
                derived=True,
            ),
        )
    )


def test_a_message_whose_paster_elided_text_matches_in_parts():
    tmpl = (
        "alloc_req_slots runs out of memory. Please set a smaller number for "
        "`--max-running-requests`. available_size=<a>, num_reqs=<n>, "
    )
    view = _lone_template("pkg/alloc.py", "alloc", "RuntimeError", tmpl)
    for msg in (
        "alloc_req_slots runs out of memory ... available_size=6, num_reqs=16",
        "alloc_req_slots runs out of memory … available_size=6, num_reqs=16",
    ):
        (top,) = rank(view, msg, "RuntimeError").hits
        assert top.score >= 0.9 and "elides text" in top.reasons[0]
    # parts out of order, or a first part that is not the template's start: no elided match
    for msg in (
        "available_size=6, num_reqs=16 ... alloc_req_slots runs out of memory",
        "the pool says runs out of memory ... available_size=6, num_reqs=16",
    ):
        assert not rank(view, msg, "RuntimeError").hits


@pytest.mark.parametrize(
    ("msg", "found"),
    [
        # two values pasted where the template puts them, between literal text it matched
        ("(num_attention_heads=48 / tp_size=16) % page_rows=128 == 0", True),
        # one value: a fragment that could be cut from a sibling's wording as well
        ("make sure (num_attention_heads=48 / tp_size=16", False),
    ],
)
def test_a_middle_quoted_with_its_values_in_place_is_a_match(msg, found):
    """A paster quotes the middle of a long message (`(a=768 / b=8) % c=128 == 0` of `... make
    sure ({a=} / {b=}) % {c=} == 0 where ...`), cut at both ends: when two or more values lie
    between the template's literal text, the part counts as a prefix of it would."""
    tmpl = (
        "For sharded models, please make sure (num_attention_heads=<heads> / tp_size=<tp_size>) % "
        "page_rows=<page_rows> == 0 where tp_size is the tensor parallel size divided by the "
        "expert parallel size. You can fix this by setting the sizes correctly."
    )
    r = rank(_lone_template("pkg/shard.py", "check", "ValueError", tmpl), msg, "ValueError")
    # (a lone template far ahead of any other may still be offered as probable)
    own = [h for h in r.hits if not any(w.startswith("probable") for w in h.reasons)]
    assert bool(own) is found
    if found:
        assert FUZZY_CUTOFF <= own[0].score < 0.9
        assert "its start left out" in own[0].reasons[0]


def test_a_template_matched_inside_a_wrapping_lines_value_ranks_below_the_wrapper():
    # a server logs `Error in request: <e>` around whatever went wrong; the line is that log
    # site's, even though the inner text reads like a builtin error
    view = _view(
        _entry("1" * 16, "error", "Error in request: <e>", kind="log"),
        _entry(
            "2" * 16,
            "AttributeError",
            "'NoneType' object has no attribute '<name>'",
            kind="builtin",
        ),
    )
    line = "Error in request: 'NoneType' object has no attribute 'schema_'"
    r = rank(view, line)
    assert [h.id for h in r.hits[:2]] == ["1" * 16, "2" * 16]
    assert any("wrapping" in why for why in r.hits[1].reasons)
    # the inner error alone is still the builtin's
    alone = rank(view, "'NoneType' object has no attribute 'schema_'", "AttributeError")
    assert alone.hits[0].id == "2" * 16


def test_a_generic_wrapper_opening_with_a_placeholder_does_not_hide_the_inner_error():
    view = _view(
        _entry("3" * 16, "RuntimeError", "<what> failed: <why>"),
        _entry(
            "4" * 16, "RuntimeError", "CUDA out of memory. Tried to allocate <size>", kind="builtin"
        ),
    )
    r = rank(view, "prefill failed: CUDA out of memory. Tried to allocate 2.00 GiB", "RuntimeError")
    assert r.hits[0].id == "4" * 16


def test_a_message_with_a_sentence_left_out_matches_in_parts():
    # the paster dropped the middle sentence and the tail, with no ellipsis to mark it
    view = _view(
        _entry(
            "5" * 16,
            "RuntimeError",
            "The memory capacity is unbalanced. Some GPUs may be occupied by other processes. "
            "min_per_gpu_memory=<a>, local_gpu_memory=<b>, local_gpu_memory * 0.9=<c>",
        ),
        _entry("6" * 16, "RuntimeError", "The memory pool is exhausted. Increase <what>"),
    )
    msg = "The memory capacity is unbalanced. min_per_gpu_memory=16.28, local_gpu_memory=46.81"
    r = rank(view, msg, "RuntimeError")
    assert r.hits and r.hits[0].id == "5" * 16
    assert any("sentences are found in order" in why for why in r.hits[0].reasons)
    # sentences out of the template's order are no such match
    swapped = "min_per_gpu_memory=16.28, local_gpu_memory=46.81. The memory capacity is unbalanced."
    assert not any(
        "sentences" in why for h in rank(view, swapped, "RuntimeError").hits for why in h.reasons
    )


def test_a_frame_in_the_function_that_raised_the_text_in_an_older_release_tells_twins_apart():
    # two update paths of one file assert the same text; one was later moved into a helper of
    # another name: a frame of an older release in `update_from_disk` still names that one
    from errexplain.catalog.index import Index
    from errexplain.catalog.index_build import build_bytes
    from errexplain.catalog.memory import MemoryCatalog
    from errexplain.explainer import explain_text
    from errexplain.models import Entry, Project, Source

    def twin(eid, line, function, at):
        return Entry(
            id=eid,
            project="demo",
            exception="AssertionError",
            template="flush failed after the weights were updated",
            source=Source("demo", "1.0", "demo/manager.py", line, function, None),
            kind="assert",
            derived=True,
            releases=("0.1", "1.0"),
            at=at,
        )

    disk = twin(
        "a" * 16,
        104,
        "Manager.flush_after_update",
        "0.1 demo/mixin.py:34 Mixin.update_from_disk; 1.0 demo/manager.py:104"
        " Manager.flush_after_update",
    )
    tensor = twin(
        "b" * 16,
        120,
        "Manager.update_from_tensor",
        "0.1 demo/mixin.py:65 Mixin.update_from_tensor; 1.0 demo/manager.py:120"
        " Manager.update_from_tensor",
    )
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/x/demo/mixin.py", line 35, in update_from_disk\n'
        '    assert ok, "flush failed after the weights were updated"\n'
        "AssertionError: flush failed after the weights were updated\n"
    )
    for entries in ((disk, tensor), (tensor, disk)):
        for view in (
            MemoryCatalog(entries),
            Index.from_bytes(build_bytes(entries, [Project("demo", "1.0")], "k")),
        ):
            (exp,) = explain_text(paste, view)
            top = exp.matches[0]
            assert top.entry.id == disk.id
            assert "a traceback frame is in demo/mixin.py (update_from_disk)" in top.reasons


def test_a_multiline_message_with_its_middle_lines_left_out_is_elided() -> None:
    from errexplain.catalog.memory import MemoryCatalog
    from errexplain.match.rank import rank
    from errexplain.models import Entry, Source

    help_text = (
        "GPU fault: bad access<help>Kernel faults are reported late. For debugging pass "
        "SYNC_LAUNCH=1 Build with `FAULT_CHECKS` to enable device-side checks."
    )
    short = "GPU fault: <detail>"
    view = MemoryCatalog(
        [
            Entry(
                id="a" * 16,
                project="gpu",
                exception="AcceleratorError",
                template=help_text,
                source=Source("gpu", "1", None, None, None, None),
                kind="builtin",
            ),
            Entry(
                id="b" * 16,
                project="demo",
                exception="Exception",
                template=short,
                source=Source("demo", "1", "demo/x.py", 3, "f", None),
            ),
        ]
    )
    msg = "GPU fault: bad access\nBuild with `FAULT_CHECKS` to enable device-side checks."
    top = rank(view, msg, "gpu.AcceleratorError").hits[0]
    assert top.cand.id == "a" * 16
    assert any("sentences are found in order" in r for r in top.reasons)


def test_a_traceback_ending_in_another_file_of_the_project_is_not_this_sites():
    """`torch.AcceleratorError: CUDA error: invalid argument` raised by a tensor copy in the
    project's weight loader: the project's own `raise Exception(f"CUDA error: {err}")` in a
    helper no frame shows has the same words, but the traceback ends elsewhere."""
    from errexplain.models import Frame

    view = _view(
        _entry("c" * 16, "Exception", "CUDA error: <err>", "demo/gpu/check.py", "check_result")
    )
    msg, typ = "CUDA error: invalid argument", "torch.AcceleratorError"
    loader = Frame("/venv/site-packages/demo/loader/weights.py", 951, "load", "param.copy_(w)")
    engine = Frame("/venv/site-packages/demo/engine.py", 96, "update", "worker.update(req)")
    ends_in_loader = rank(view, msg, typ, (engine, loader))
    assert not ends_in_loader.hits
    (near,) = ends_in_loader.nearest
    assert any("the traceback ends in" in why for why in near.reasons)
    # a frame in the site's file: the traceback leads there, no penalty
    check = Frame("/venv/site-packages/demo/gpu/check.py", 30, "check_result", "raise Exception")
    assert rank(view, msg, typ, (engine, loader, check)).hits
    # frames ending in another project (the copy inside torch itself): no penalty either
    torch = Frame("/venv/site-packages/torch/_tensor.py", 120, "copy_", None)
    assert rank(view, msg, typ, (engine, loader, torch)).hits
    # no frames at all, or a last frame that raises (it may pass on what it caught) or shows
    # no line: nothing to go on, as before
    assert rank(view, msg, typ).hits
    reraise = Frame("/venv/site-packages/demo/loader/weights.py", 960, "load", "raise err")
    assert rank(view, msg, typ, (engine, reraise)).hits
    bare = Frame("/venv/site-packages/demo/loader/weights.py", 951, "load", None)
    assert rank(view, msg, typ, (engine, bare)).hits


def test_a_first_sentence_quote_finds_a_long_template_that_shorter_ones_outshine():
    # The message is the first sentence of a long assert message with many named values; forty
    # short templates sharing some of its words rank before it on word overlap alone; it is
    # the one holding them all.
    long_tail = ", ".join(f"field{k}=<v{k}>" for k in range(18))
    filler = [
        _entry(f"{k:016x}", "ValueError", f"token pool drained at stage {k}") for k in range(30)
    ] + [_entry(f"{k:016x}", "ValueError", f"queue is full at stage {k}") for k in range(30, 60)]
    target = _entry(
        "f" * 16, "AssertionError", f"Token pool is full! Bug in memory estimation. {long_tail}"
    )
    view = _view(*filler, target)
    r = rank(view, "Token pool is full!", "AssertionError")
    assert r.hits and r.hits[0].id == "f" * 16
    assert any("sentence end" in why for why in r.hits[0].reasons)


def test_a_message_of_values_only_matches_no_template_quoted_whole():
    # A KeyError's message is the missing key, all value once masked; a template that is one
    # quoted string masks to a single value too: comparing the two says nothing.
    view = _view(
        _entry(
            "a1" * 8,
            "KeyError",
            '"Unsupported key <name!r> in model layers: expected mlp weight_scale"',
        ),
    )
    r = rank(view, "'model.layers.3.mlp.down_proj.weight_scale'", "KeyError")
    assert not r.hits
    assert all(h.score < 0.5 for h in r.nearest)


def test_a_frame_path_relative_to_a_package_directory_is_in_that_file():
    from errexplain.match.rank import in_file

    assert in_file(Frame("runner/graph_runner.py", 9, "f"), "pkg/srt/runner/graph_runner.py")
    assert in_file(Frame("graph_runner.py", 9, "f"), "pkg/srt/runner/graph_runner.py")
    assert not in_file(Frame("other_runner.py", 9, "f"), "pkg/srt/runner/graph_runner.py")
    assert not in_file(Frame("/home/me/graph_runner.py", 9, "f"), "pkg/srt/runner/graph_runner.py")
    # the same message raised in two files: a relative frame picks its file
    view = _view(
        _entry("a2" * 8, "Exception", "Graph capture failed: <e>", path="pkg/spec/draft_runner.py"),
        _entry("b2" * 8, "Exception", "Graph capture failed: <e>", path="pkg/run/graph_runner.py"),
    )
    r = rank(
        view,
        "Graph capture failed: out of memory",
        "Exception",
        (Frame("graph_runner.py", 5, "f"),),
    )
    assert r.hits[0].id == "b2" * 8 and not r.ambiguous


def test_a_traceback_ending_at_a_raise_that_makes_its_own_exception_elsewhere_costs():
    # the innermost frame of the project makes the exception (`raise Exception(` with its text
    # below): a site with the same template in a file no frame shows did not raise it
    view = _view(
        _entry("c3" * 8, "Exception", "Warm-up failed: <e>", path="demo/pkg/spec_runner.py"),
    )
    frame = Frame("/env/site-packages/demo/pkg/graph_runner.py", 338, "f", "raise Exception(")
    r = rank(view, "Warm-up failed: kernel image missing", "Exception", (frame,))
    (hit,) = (*r.hits, *r.nearest)
    assert any("at a raise" in why for why in hit.reasons) and hit.score < 0.9
    # a raise that passes on what it caught (`raise e`, `raise X(str(e))`) says nothing of
    # where the text was made
    for code in ("raise e", "raise RuntimeError(str(e)) from e"):
        passed = Frame(frame.path, 338, "f", code)
        r = rank(view, "Warm-up failed: kernel image missing", "Exception", (passed,))
        assert r.hits[0].id == "c3" * 8 and r.hits[0].score >= 0.9


def test_a_traceback_ending_in_the_sites_file_at_a_line_that_does_not_raise_costs():
    # a `__getattr__` that words its AttributeError as the interpreter does: the traceback
    # ends in the same file, in another function, at an attribute use, so the interpreter
    # raised it there (the `__getattr__` frame would be the last had that site raised)
    view = _view(
        _entry(
            "d4" * 8,
            "AttributeError",
            "'<self.__class__.__name__>' object has no attribute '<name>'",
            path="demo/pkg/batch.py",
            function="Item.__getattr__",
        ),
    )
    path = "/env/site-packages/demo/pkg/batch.py"
    msg = "'NoneType' object has no attribute 'extend'"
    used = Frame(path, 1520, "merge_batch", "self.inputs.extend(other.inputs)")
    r = rank(view, msg, "AttributeError", (used,))
    (hit,) = (*r.hits, *r.nearest)
    assert any("does not raise" in why for why in hit.reasons) and hit.score < 0.9
    # the site's own frame last (its raise line, or its function), or a last line calling the
    # site's function (the frames below it cut off), keeps the frame's bonus
    for last in (
        Frame(path, 1520, "merge_batch", "self.inputs.__getattr__(name)"),
        # a frame line cut at the terminal's width: `in __geta` / `ttr__` read as its code
        Frame(path, 398, "__geta", "ttr__"),
        Frame(path, 398, "__getattr__", "raise AttributeError("),
        Frame(path, 12, "__getattr__", "return self._data[name]"),
    ):
        r = rank(view, msg, "AttributeError", (used, last))
        assert r.hits[0].id == "d4" * 8 and r.hits[0].score >= 0.9, last


def test_of_wordings_scored_the_same_a_sites_newest_comes_first():
    # a placeholder renamed between releases: both wordings read the line exactly; with
    # nothing in the paste to tell the release, the newest (the lineage head) is first
    from errexplain.models import Entry, Source

    def wording(eid: str, template: str, lineage: str | None, releases: tuple[str, str]):
        return Entry(
            id=eid,
            project="demo",
            exception="error",
            kind="log",
            template=template,
            source=Source("demo", "1.0", "demo/decode.py", 10, "pop", None),
            releases=releases,
            lineage=lineage,
        )

    head = "9" * 16
    view = _view(
        wording("1" * 16, "Transfer failed rank=<self.sched.rank> with <e>", head, ("1.0", "1.0")),
        wording(head, "Transfer failed rank=<self.rank> with <e>", None, ("1.1", "2.0")),
    )
    r = rank(view, "Transfer failed rank=3 with PeerError: gone")
    assert [h.id for h in r.hits] == [head, "1" * 16]
    assert r.hits[0].raw == r.hits[1].raw


def test_a_message_elided_in_its_middle_is_read_up_to_the_ellipsis():
    """`Failed to send the page table ... peer could be gone`: the paster left out the values
    (and summed up the rest); the head names the template, never with confidence, since what
    follows the ellipsis is not compared."""
    from errexplain.match.rank import ELIDED_CAP, elided_head

    view = _view(
        _entry("a" * 16, "TransferError", "Failed to send the page table of <room> to <addr>"),
        _entry("b" * 16, "RuntimeError", "Failed to send <what> to <url>: <result>"),
    )
    r = rank(view, "Failed to send the page table ... peer could be gone", "TransferError")
    assert r.hits and r.hits[0].id == "a" * 16
    assert r.hits[0].score <= ELIDED_CAP
    assert "ellipsis" in " ".join(r.hits[0].reasons)
    assert elided_head("Failed to send the page table ... peer could be gone") == (
        "Failed to send the page table"
    )
    # too little before the ellipsis to name a template; nothing after it: a trailing cut
    assert elided_head("Failed ... peer could be gone") is None
    assert elided_head("Failed to send the page table ...") is None


def test_an_exact_match_comes_before_a_fuzzy_one_of_the_same_score():
    """Masking quoted values makes `'ServerArgs' object has no attribute 'x'` read like the
    template `'NoneType' object has no attribute '<name>'`, whose literal `'NoneType'` it is
    not: the template it matches exactly comes first."""
    view = MemoryCatalog(
        (
            _entry("n" * 16, "AttributeError", "'NoneType' object has no attribute '<name>'"),
            _entry("t" * 16, "AttributeError", "'<type>' object has no attribute '<name>'"),
        )
    )
    hits = rank(
        view, "'ServerArgs' object has no attribute 'enable_dp_attn'", "AttributeError"
    ).hits
    assert hits[0].cand.id == "t" * 16 and hits[0].kind == "exact"
    hits = rank(view, "'NoneType' object has no attribute 'shape'", "AttributeError").hits
    assert hits[0].cand.id == "n" * 16


def test_an_elided_message_whose_first_part_holds_word_values_and_no_label():
    """A paster quotes `Draft model's pool size (9000) is over the limit (4096). ... set
    POOL_OVERRIDE=1`: the first part's value is words (`Draft model's`, the template's
    `<who>`), and the template's `Warning: ` label is left out. The first part is read as the
    start of a filling of the template (its label put back, at a small cost), and the sibling
    template whose lead is other words does not match."""
    from errexplain.models import Entry, Source, make_id

    def entry(line: int, tmpl: str) -> Entry:
        return Entry(
            id=make_id("pkg", "pkg/pool.py", f"check#{line}", tmpl),
            project="pkg",
            exception="ValueError",
            template=tmpl,
            source=Source("pkg", "1.0", "pkg/pool.py", line, "check", None),
            derived=True,
        )

    tail = (
        "pool size (<size>) is over the limit (<limit>). Pages may be dropped under load. "
        "To allow it anyway, set POOL_OVERRIDE=1"
    )
    labelled = entry(3, "Warning: <who> " + tail)
    sibling = entry(9, "User-specified " + tail)
    view = MemoryCatalog((labelled, sibling))
    msg = "Draft model's pool size (9000) is over the limit (4096). ... set POOL_OVERRIDE=1"
    top = rank(view, msg, "ValueError").hits[0]
    assert top.id == labelled.id and top.score >= FUZZY_CUTOFF
    assert "label the template opens with is left out" in top.reasons[0]
    # with the label pasted, nothing is put back and nothing is charged
    full = rank(view, "Warning: " + msg, "ValueError").hits[0]
    assert full.id == labelled.id and full.score > top.score
    # the sibling's own lead is read as it is, ahead of the labelled template
    own = rank(view, msg.replace("Draft model's", "User-specified"), "ValueError").hits[0]
    assert own.id == sibling.id


@pytest.mark.parametrize(
    ("name", "prose"),
    [
        ("e", True),
        ("str(err)", True),
        ("exc_val", True),  # a word of it names an exception's text
        ("self.error_text", True),  # its last word ends like one
        ("detail", True),
        ("name", False),
        ("backend", False),
        ("self.model_config.hidden_size", False),
    ],
)
def test_a_placeholder_named_for_prose_is_one_definition(name: str, prose: bool) -> None:
    from errexplain.match.rank import passes_on, prose_named

    assert prose_named(name) is prose
    # a lead with values of its own passes its last value on when that one is named for prose
    assert passes_on(f"[<stage>] Failed after <ms> ms: <{name}>") is prose


def test_of_sites_that_raise_one_text_the_one_raised_longest_comes_first():
    """With nothing in the paste telling same-text sites apart, the site raised since the
    earliest release comes first (a base class's check before the subclasses that copied its
    words later), whatever the paths' lengths; a site with no release history comes last."""
    from errexplain._startup import replace

    text = "Error in parse_stream_chunk: <e>"
    base = replace(
        _entry("b" * 16, "ValueError", text, path="demo/pkg/parsers/base_stream_parser.py"),
        releases=("0.2.0", "1.0"),
    )
    late = replace(
        _entry("a" * 16, "ValueError", text, path="demo/pkg/parsers/kimi.py"),
        releases=("0.10.1", "1.0"),
    )
    later = replace(
        _entry("c" * 16, "ValueError", text, path="demo/pkg/parsers/q.py"),
        releases=("0.10.1.post2", "1.0"),
    )
    unknown = _entry("d" * 16, "ValueError", text, path="demo/pkg/p.py")
    for view in (_view(late, base, later, unknown), _view(unknown, later, base, late)):
        hits = rank(view, "Error in parse_stream_chunk: Expecting value", "ValueError").hits
        assert [h.id[0] for h in hits] == ["b", "a", "c", "d"]


def test_older_wordings_of_one_text_go_newest_first():
    """Two older wordings of one check that differ only by a renamed placeholder (so one text):
    the later one comes first, as a check's wordings do, whichever id sorts first."""
    from errexplain._startup import replace

    head = _entry("h" * 16, "ValueError", "Only split mode is supported, got <mode>")
    older = replace(
        _entry("0" * 16, "ValueError", "Only split mode is supported, got <args.old_mode>"),
        releases=("0.5.12", "0.5.12.post1"),
        lineage=head.id,
    )
    newer = replace(
        _entry("f" * 16, "ValueError", "Only split mode is supported, got <args.cp_mode>"),
        releases=("0.5.13", "0.5.13.post1"),
        lineage=head.id,
    )
    for view in (_view(older, newer), _view(newer, older)):
        hits = rank(view, "Only split mode is supported, got zigzag", "ValueError").hits
        assert [h.id[0] for h in hits] == ["f", "0"]


@pytest.mark.parametrize("kind", ["memory", "index"])
def test_a_site_raised_longest_counts_its_older_wordings(kind):
    """Of same-text sites, how long a site has been raised counts its check's older wordings:
    a check reworded in 1.4 but raised since 0.2 under other words comes before a copy first
    raised in 0.9, whose own wording is older than the reworded one's."""
    from errexplain._startup import replace
    from errexplain.models import lineage_since

    text = "Capture failed: <e>"
    reworded = replace(
        _entry("r" * 16, "Exception", text, path="demo/pkg/runner/decode_runner.py"),
        releases=("1.4", "2.0"),
    )
    older = replace(
        _entry("o" * 16, "Exception", "Capture failed: <e> (try --no-graph)"),
        releases=("0.2", "1.3"),
        lineage=reworded.id,
    )
    copy = replace(
        _entry("c" * 16, "Exception", text, path="demo/pkg/spec/draft.py"),
        releases=("0.9", "2.0"),
    )
    from tests.views import catalog_view

    assert lineage_since((copy, older, reworded)) == {reworded.id: "0.2"}
    views = [catalog_view(kind, order) for order in ((copy, older, reworded), (reworded, copy))]
    assert views[0].candidate(views[0].position(reworded.id)).since == "0.2"  # (both kinds)
    for view in [views[0], catalog_view(kind, (reworded, copy, older))]:
        hits = rank(view, "Capture failed: out of memory", "Exception").hits
        assert [h.id[0] for h in hits][:2] == ["r", "c"]
    # without the older wording, the copy raised since 0.9 comes first
    hits = rank(views[1], "Capture failed: out of memory", "Exception").hits
    assert [h.id[0] for h in hits] == ["c", "r"]


def test_a_traceback_that_passes_through_a_sites_file_but_ends_in_another_is_not_its_raise():
    """A `__getattr__` that words its AttributeError as the interpreter does, in a file the
    traceback passes through on its way down: the traceback ends in another file of the project
    at a plain attribute read, so the interpreter raised it there; had the `__getattr__` raised
    it, its own frame would be the last."""
    from errexplain.models import Frame

    getattr_site = _entry(
        "g" * 16,
        "AttributeError",
        "'<self.__class__.__name__>' object has no attribute '<name>'",
        "demo/batch.py",
        "Item.__getattr__",
    )
    builtin = _entry(
        "b" * 16, "AttributeError", "'<obj>' object has no attribute '<name>'", kind="builtin"
    )
    view = _view(getattr_site, builtin)
    msg, typ = "'PoolOnDevice' object has no attribute 'kv_buffer'", "AttributeError"
    outer = Frame("/env/site-packages/demo/batch.py", 1081, "offload", "self.cpu = pool.copy(i)")
    pool = Frame("/env/site-packages/demo/pool.py", 1652, "copy", "return self.kv_buffer[i]")
    first, site = rank(view, msg, typ, (outer, pool)).hits
    assert first.id == builtin.id and site.id == getattr_site.id
    assert any("had this site (Item.__getattr__) raised it" in why for why in site.reasons)
    # the traceback ending in the site's own function: its raise
    own = Frame("/env/site-packages/demo/batch.py", 398, "__getattr__", "raise AttributeError(")
    assert rank(view, msg, typ, (outer, pool, own)).hits[0].id == getattr_site.id
    # ending in another project's file (a library the project calls): not this rule's to judge
    lib = Frame("/env/site-packages/otherlib/pool.py", 10, "copy", "return self.kv_buffer[i]")
    assert rank(view, msg, typ, (outer, lib)).hits[0].id == getattr_site.id


@pytest.mark.parametrize(
    ("message", "first"),
    [("no kernel config found for", "b" * 16), ("No kernel config found for", "a" * 16)],
)
def test_of_texts_tied_but_for_letter_case_the_one_printed_in_the_same_case_comes_first(
    message, first
):
    """Matching ignores letter case, so two sites whose texts differ only in it tie; the
    paste's own case tells which printed it (a cut message, so both are fuzzy and equal)."""
    view = MemoryCatalog(
        [
            _entry("a" * 16, "ValueError", "No kernel config found for <op> in <path>", "a/x.py"),
            _entry("b" * 16, "ValueError", "no kernel config found for <op> in <path>", "b/y.py"),
        ]
    )
    hits = rank(view, message).hits
    assert len(hits) == 2 and hits[0].id == first
    if message.islower():
        assert hits[0].raw == hits[1].raw  # (a tie that only the case breaks)


@pytest.mark.parametrize(
    "msg",
    [
        "... is incompatible with page streaming (--stream-mode chunked)",
        "\u2026 is incompatible with page streaming (--stream-mode chunked)",
    ],
)
def test_a_message_whose_head_the_paster_elided_is_read_from_the_templates_middle(msg):
    """`ValueError: ... incompatible with speculative decoding (--speculative-algorithm EAGLE)`:
    the paster opened the message with an ellipsis; the rest is read as a part of the template
    from a word inside it, never with confidence (the left-out head may tell siblings apart)."""
    from errexplain.match.rank import lead_elided

    tmpl = "--decode-radix-cache-enable is incompatible with page streaming (--stream-mode <m>)"
    r = rank(_lone_template("pkg/args.py", "check", "ValueError", tmpl), msg, "ValueError")
    assert r.hits and FUZZY_CUTOFF <= r.hits[0].score < 0.9
    assert "marked the start as left out" in r.hits[0].reasons[0]
    assert lead_elided(msg) == "is incompatible with page streaming (--stream-mode chunked)"
    assert lead_elided("..... a rule of dots") is None
    assert lead_elided("no ellipsis ...") is None


def test_self_documenting_fields_whose_values_are_reprs_are_found_with_a_line_left_out():
    """`{a.shape=} {b.shape=} {c.shape=}` printed over lines, one left out by the paster: each
    value is a repr (`torch.Size([2])`), read from its `=` to the next space as one value, so
    the lines kept are found in order in the three-field template, which outranks a one-field
    template that holds a single name."""
    view = MemoryCatalog(
        [
            _entry(
                "a" * 16, "AssertionError", "rows.shape=<r!r> cols.shape=<c!r> slots.shape=<s!r>"
            ),
            _entry("b" * 16, "AssertionError", "slots.shape=<s!r>"),
        ]
    )
    msg = "rows.shape=torch.Size([2])\n      slots.shape=torch.Size([6])"
    r = rank(view, msg, "AssertionError")
    assert r.hits[0].id == "a" * 16
    assert "sentences are found in order" in r.hits[0].reasons[0]
