"""Tests for errexplain.parse: realistic pastes in tests/data/tracebacks, plus hypothesis."""

from __future__ import annotations

import builtins
import re
import sys
import textwrap
import time
import traceback
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from errexplain.models import RaisedError
from errexplain.parse import parse_traceback
from errexplain.parse.lines import ELIDED, NOISE, line_kind

DATA = Path(__file__).parent.parent / "data" / "tracebacks"
PREFIX = "[2026-10-02 11:04:09 TP0] "


def parse(name: str) -> tuple[RaisedError, ...]:
    return parse_traceback((DATA / name).read_text(encoding="utf-8"))


def only(name: str) -> RaisedError:
    errors = parse(name)
    assert len(errors) == 1, errors
    return errors[0]


# 1. Prefixes, ANSI, CRLF ------------------------------------------------------------------


def test_tp_prefixed_tracebacks_merge_and_keep_ranks() -> None:
    err = only("tp_ranks_oom.txt")
    assert err.type == "torch.OutOfMemoryError"
    assert err.short_type == "OutOfMemoryError"
    assert err.message.startswith("CUDA out of memory. Tried to allocate 2.00 GiB.")
    assert err.message.endswith("reserved by PyTorch but unallocated.")
    assert (err.count, err.ranks) == (2, ("TP0", "TP1"))
    assert [f.function for f in err.frames] == [
        "run_scheduler_process",
        "decorate_context",
        "event_loop_overlap",
        "capture",
    ]
    assert err.frames[0].path == "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py"
    assert err.frames[0].line == 2645
    assert err.frames[0].code == "scheduler.event_loop_overlap()"
    assert err.line_no == 15


def test_dp_tp_ep_prefix_on_every_line() -> None:
    err = only("dp_tp_ep_prefix.txt")
    assert err.type == "ValueError"
    assert err.message == (
        "num_experts (257) must be divisible by ep_size (6)\nCheck --ep-size and --tp-size."
    )
    assert err.ranks == ("DP1 TP3 EP3",)
    assert [f.line for f in err.frames] == [3130, 114]
    assert err.frames[1].code == "raise ValueError("


def test_torchrun_rank_prefixes_interleaved() -> None:
    err = only("torchrun_ranks.txt")
    assert err.type == "torch.distributed.DistBackendError"
    assert err.message.startswith("NCCL error in: /pytorch/torch/csrc/distributed/c10d/")
    assert err.message.endswith(
        "\nncclSystemError: System call (e.g. socket, malloc) or external "
        "library call failed or device error."
    )
    assert (err.count, err.ranks) == (2, ("rank3", "rank1"))
    assert [f.function for f in err.frames] == ["<module>", "main"]


def test_worker_and_vllm_style_prefixes() -> None:
    first, second = parse("worker_prefixes.txt")
    assert first.type == "AssertionError"
    assert first.message.startswith("Error in memory profiling. Initial free memory 40.2 GiB")
    assert first.frames[0].function == "execute_method"
    assert first.ranks == ()
    assert second.type == "RuntimeError"
    assert second.message == "Not enough memory. Please try to increase --mem-fraction-static."
    assert second.ranks == ("TP0",)


def test_ansi_escapes_are_removed() -> None:
    err = only("ansi_colored.txt")
    assert err.type == "ValueError"
    assert err.message == "mem_fraction_static must be in (0, 1), got 1.2"
    assert err.frames[0].function == "__post_init__"
    assert err.frames[0].code == "self._handle_gpu_memory_settings()"


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_crlf_and_lone_cr(newline: str) -> None:
    text = (DATA / "chained_cause.txt").read_text(encoding="utf-8").replace("\n", newline)
    (err,) = parse_traceback(text)
    assert err.type == "OSError"
    assert err.chain[0].type == "huggingface_hub.errors.HFValidationError"


def test_tabs_are_tolerated() -> None:
    text = (DATA / "blockquote.txt").read_text(encoding="utf-8").replace("    ", "\t")
    (err,) = parse_traceback(text)
    assert (err.type, err.message) == ("RuntimeError", "FlashInfer requires sm75+, got sm70")
    assert err.frames[0].code == "self.prefill_wrapper.begin_forward("


def test_prefix_only_stripped_at_line_start() -> None:
    (err,) = parse_traceback("ValueError: expected [2026-10-02 11:04:09 TP0] in the log line\n")
    assert err.message == "expected [2026-10-02 11:04:09 TP0] in the log line"
    assert err.ranks == ()


# 2. Markdown ------------------------------------------------------------------------------


def test_fenced_python_block_with_prose() -> None:
    err = only("fenced_python.txt")
    assert err.type == "huggingface_hub.errors.HFValidationError"
    assert err.message.endswith("Use `repo_type` argument if needed.")
    assert err.frames[0].path == "<frozen runpy>"
    assert err.frames[0].code is None
    assert err.frames[1].code == "server_args = prepare_server_args(sys.argv[1:])"


def test_fence_glued_to_text() -> None:
    err = only("fence_glued.txt")
    assert err.type == "ValueError"
    assert err.message == (
        "The input (32769 tokens) is longer than the model's context length (32768 tokens)."
    )
    assert len(err.frames) == 1


def test_yaml_and_bash_fences() -> None:
    err = only("fence_yaml_bash.txt")
    assert (err.type, err.message) == ("KeyError", "'quantization_config'")


def test_blockquote() -> None:
    err = only("blockquote.txt")
    assert (err.type, err.message) == ("RuntimeError", "FlashInfer requires sm75+, got sm70")
    assert err.frames[0].function == "call_begin_forward"


def test_inline_backticks_single_and_multi_line() -> None:
    err = only("inline_backticks.txt")
    assert err.message == (
        "Unsupported attention backend 'fa4'. Choose from ['flashinfer', 'triton', 'fa3']"
    )
    (err,) = parse_traceback("`RuntimeError: Prefill out of memory.\nTry to allocate 64 tokens.`")
    assert err.message == "Prefill out of memory.\nTry to allocate 64 tokens."


def test_issue_title() -> None:
    err = only("issue_title.txt")
    assert (err.type, err.message) == (
        "ValueError",
        "deepseek_v4_c4_state state_pools must not contain None",
    )


# 3. Traceback shapes ----------------------------------------------------------------------


def test_mid_traceback_without_indentation() -> None:
    err = only("mid_traceback_no_indent.txt")
    assert err.type == "RuntimeError"
    assert err.message == (
        "NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)"
    )
    assert [f.function for f in err.frames] == ["init_torch_distributed", "NCCL_CHECK"]
    assert err.frames[1].code == 'raise RuntimeError(f"NCCL error: {error_str}")'
    assert not err.truncated


def test_a_frame_whose_head_the_paster_cut_off_is_a_frame() -> None:
    text = (
        "loading the adapters fails:\n\n"
        'envs/py/lib/python3.10/site-packages/demo/layers/linear.py", line 1226, in weight_loader\n'
        "    assert param_data.shape == loaded_weight.shape\n"
        "AssertionError\n\n"
        "Please help\n"
    )
    [err] = parse_traceback(text)
    assert err.type == "AssertionError" and err.message == ""
    [frame] = err.frames
    assert frame.path.endswith("demo/layers/linear.py") and frame.line == 1226
    assert frame.function == "weight_loader"
    assert frame.code == "assert param_data.shape == loaded_weight.shape"
    # prose that names a file and a line is no frame
    assert not parse_traceback('see "linear.py", line 12 for the check\n')


def test_bare_error_line() -> None:
    err = only("bare_error.txt")
    assert err.type == "ImportError"
    assert err.message.startswith("cannot import name 'launch_server_cmd' from 'sglang.utils'")
    assert err.frames == ()
    assert err.line_no == 2


def test_carets_repeats_and_elided_paths() -> None:
    err = only("py311_recursion.txt")
    assert (err.type, err.message) == ("RecursionError", "maximum recursion depth exceeded")
    assert [f.path for f in err.frames] == [
        "python/sglang/srt/utils/common.py",
        ".../sglang/srt/utils/common.py",
    ]
    assert err.frames[1].code == "return get_bool_env_var(name, default)"


def test_syntax_error_frame_without_function() -> None:
    text = (
        'Traceback (most recent call last):\n  File "/tmp/cfg.py", line 3\n    x = (\n'
        "        ^\nSyntaxError: '(' was never closed\n"
    )
    (err,) = parse_traceback(text)
    assert (err.type, err.message) == ("SyntaxError", "'(' was never closed")
    assert err.frames[0].function is None
    assert err.frames[0].code == "x = ("


def test_camelcase_type_only_right_after_frames() -> None:
    text = (
        'File "/usr/lib/python3.12/site-packages/torch/_dynamo/symbolic_convert.py", line 9, in f\n'
        "    unimplemented(msg)\n"
        "torch._dynamo.exc.Unsupported: call_function UserDefinedObjectVariable\n"
        "\n"
        "Note: this is a note, not an exception.\n"
    )
    (err,) = parse_traceback(text)
    assert (err.type, err.message) == (
        "torch._dynamo.exc.Unsupported",
        "call_function UserDefinedObjectVariable",
    )
    assert parse_traceback("Note: this is a note, not an exception.") == ()


# 4. Chains --------------------------------------------------------------------------------


def test_direct_cause_chain() -> None:
    err = only("chained_cause.txt")
    assert err.type == "OSError"
    assert err.message.startswith("Incorrect path_or_model_id: '/data/models//Qwen3-8B'.")
    assert err.chain_relation == "cause"
    (root,) = err.chain
    assert root.type == "huggingface_hub.errors.HFValidationError"
    assert root.message.endswith("max length is 96: '/data/models//Qwen3-8B'.")
    assert err.root_cause == root
    assert len(root.frames) == 2 and len(err.frames) == 2


def test_context_chain_with_log_prefix() -> None:
    err = only("chained_context.txt")
    assert (err.type, err.message) == ("RuntimeError", "alloc failed")
    assert err.chain_relation == "context"
    assert [(c.type, c.message) for c in err.chain] == [("KeyError", "'req_to_token'")]
    assert err.ranks == ("TP0",)


# 5. Exception groups ----------------------------------------------------------------------


def test_exception_group_members() -> None:
    err = only("exception_group.txt")
    assert err.type == "ExceptionGroup"
    assert err.message == "unhandled errors in a TaskGroup (2 sub-exceptions)"
    assert err.frames[0].function == "__aexit__"
    first, second = err.members
    assert (first.type, first.message) == (
        "ValueError",
        "Request 9f2c timed out: waited 600.0s for the scheduler",
    )
    assert first.frames[0].function == "generate_request"
    assert (second.type, second.message) == ("TimeoutError", "")


def test_group_header_inside_a_log_line() -> None:
    text = (
        "[2026-10-02 11:04:09 TP2] Scheduler hit an exception:   + Exception Group Traceback "
        "(most recent call last):\n"
        '  |   File "/sgl-workspace/sglang/python/sglang/srt/managers/io.py", line 40, in f\n'
        "  |     raise ExceptionGroup(\n"
        "  | ExceptionGroup: bad requests (1 sub-exception)\n"
        "  +-+---------------- 1 ----------------\n"
        "    | KeyError: 'rid'\n"
        "    +------------------------------------\n"
    )
    (err,) = parse_traceback(text)
    assert (err.type, err.ranks) == ("ExceptionGroup", ("TP2",))
    assert [(m.type, m.message) for m in err.members] == [("KeyError", "'rid'")]


def test_paste_starting_inside_a_group() -> None:
    text = "    | Traceback (most recent call last):\n    | ValueError: x is bad\n    +-----\n"
    (err,) = parse_traceback(text)
    assert (err.type, err.message) == ("ValueError", "x is bad")


# 6. Multi-line messages -------------------------------------------------------------------


def test_multiline_message_ends_at_next_log_record() -> None:
    err = only("multiline_message.txt")
    assert err.message == (
        "Prefill out of memory. Try to lower your batch size.\n"
        "Try to allocate 16384 tokens.\n"
        "Available full tokens: 1663744 (available=26368 + evictable=1637376)"
    )


def test_nvcc_lines_are_not_new_errors() -> None:
    err = only("nvcc_jit.txt")
    assert err.type == "RuntimeError"
    assert err.message == (
        "Capture prefill CUDA graph failed: Failed to build JIT module "
        "sgl_kernel_jit_gelu_tanh_and_mul_fp4_quant_true"
    )


def test_hard_wrapped_message_is_joined() -> None:
    err = only("hard_wrapped.txt")
    assert err.message == (
        "TP rank 2 could finish the model loading, but there are other ranks that didn't "
        "finish loading. It is likely due to unexpected failures (e.g., OOM) or a slow node."
    )


def test_blank_line_then_prose_ends_the_message() -> None:
    text = (
        "ValueError: Model architectures ['Glm4ForCausalLM'] are not supported for now.\n"
        "\n"
        "I am running sglang 0.4.6 on 8xH100 with --tp 8.\n"
    )
    (err,) = parse_traceback(text)
    assert err.message == "Model architectures ['Glm4ForCausalLM'] are not supported for now."


def test_blank_line_then_indented_text_continues_the_message() -> None:
    text = "RuntimeError: Worker failed:\n\n    rank 3: CUDA error\n\nSee the log above.\n"
    (err,) = parse_traceback(text)
    assert err.message == "Worker failed:\n\n    rank 3: CUDA error"


def test_next_record_with_same_prefix_is_not_continuation() -> None:
    text = (
        "[2026-10-02 11:04:09 TP0] Load weight end.\n"
        "[2026-10-02 11:04:09 TP1] RuntimeError: Not enough memory.\n"
        "[2026-10-02 11:04:09 TP1] Decode batch. #running-req: 1\n"
    )
    (err,) = parse_traceback(text)
    assert (err.message, err.ranks) == ("Not enough memory.", ("TP1",))


# 7. Trailing noise, several errors, ranks, truncation -------------------------------------


def test_trailing_noise_is_not_part_of_the_error() -> None:
    err = only("trailing_noise.txt")
    assert (err.type, err.message) == ("AssertionError", "Hidden size mismatch")


def test_several_tracebacks_in_order() -> None:
    first, second = parse("two_tracebacks.txt")
    assert first.type == "IndexError" and second.type == "AssertionError"
    assert first.line_no < second.line_no
    assert second.message == "16 is not divisible by 6"


def test_eight_ranks_merge() -> None:
    err = only("eight_ranks.txt")
    assert err.count == 8
    assert err.ranks == tuple(f"TP{r}" for r in range(8))
    assert err.line_no == 6


def test_ranks_printing_one_record_merge_but_two_records_wrapping_one_exception_do_not() -> None:
    # Two different records (a prefill and a decode failure) wrap the same exception text; each
    # is its own error. The same record printed by two ranks, with its own ids, is one.
    text = (
        "[2026-03-01 10:00:00 TP0] Upload failed for job id=7f3a91c2 size=4096 with exception "
        "StoreError(key=11): Connection reset.\n"
        "[2026-03-01 10:00:00 TP1] Upload failed for job id=0b22de41 size=8192 with exception "
        "StoreError(key=12): Connection reset.\n"
        "[2026-03-01 10:00:01 TP0] Download aborted for job id=5c0c aa=1 with exception "
        "StoreError(key=13): Connection reset.\n"
    )
    upload, download = parse_traceback(text)
    assert (upload.type, upload.message) == ("StoreError", "Connection reset.")
    assert (upload.count, upload.ranks) == (2, ("TP0", "TP1"))
    assert (download.message, download.count, download.line_no) == ("Connection reset.", 1, 3)
    # a table row's test names are identifiers, not words of a record: rows merge
    rows = (
        "test_a.py::TestX::test_one | ERROR | RuntimeError: no driver found.\n"
        "test_a.py::TestX::test_two | ERROR | RuntimeError: no driver found.\n"
    )
    (row,) = parse_traceback(rows)
    assert row.count == 2


def test_truncated_second_rank_does_not_hide_complete_error() -> None:
    err = only("truncated_second_rank.txt")
    assert (err.type, err.message, err.truncated) == (
        "AssertionError",
        "16 is not divisible by 6",
        False,
    )


def test_truncated_only() -> None:
    err = only("truncated_only.txt")
    assert (err.type, err.message, err.truncated) == ("", "", True)
    assert [f.line for f in err.frames] == [2645, 1605]
    assert err.ranks == ("TP6",)
    assert err.line_no == 1


def test_rank_copies_with_different_paths_merge() -> None:
    err = only("rank_paths_differ.txt")
    assert err.type == "torch.AcceleratorError"
    assert err.message.splitlines()[0] == "CUDA error: an illegal memory access was encountered"
    assert len(err.message.splitlines()) == 4
    assert (err.count, err.ranks) == (2, ("TP0", "TP1"))


def test_chain_whose_final_traceback_is_cut() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/sgl-workspace/sglang/python/sglang/srt/utils.py", line 9, in f\n'
        "    g()\n"
        "ValueError: first failure\n\n"
        "During handling of the above exception, another exception occurred:\n\n"
        "Traceback (most recent call last):\n"
        '  File "/sgl-workspace/sglang/python/sglang/srt/utils.py", line 12, in f\n'
    )
    # the error the chain led to was cut: the paste holds it as a truncated error whose chain
    # is what came before (the links are explained before it)
    (err,) = parse_traceback(text)
    assert (err.type, err.message, err.truncated) == ("", "", True)
    assert [(c.type, c.message) for c in err.chain] == [("ValueError", "first failure")]
    assert err.chain_relation == "context"
    assert err.frames[-1].line == 12


def test_chain_whose_final_traceback_is_cut_beside_a_complete_error_is_its_last_link() -> None:
    """Where the paste holds a complete error elsewhere, truncated tracebacks are dropped; the
    chain's links are not: the cut chain is read as far as it got, its last link."""
    text = (
        "Traceback (most recent call last):\n"
        '  File "/sgl-workspace/sglang/python/sglang/srt/io.py", line 3, in h\n'
        "    d[rid]\n"
        "KeyError: 'rid-7'\n\n"
        "and on the next request:\n\n"
        "Traceback (most recent call last):\n"
        '  File "/sgl-workspace/sglang/python/sglang/srt/utils.py", line 9, in f\n'
        "    g()\n"
        "ValueError: first failure\n\n"
        "The above exception was the direct cause of the following exception:\n\n"
        "Traceback (most recent call last):\n"
        '  File "/sgl-workspace/sglang/python/sglang/srt/utils.py", line 12, in f\n'
    )
    errs = parse_traceback(text)
    assert [(e.type, e.message, e.truncated) for e in errs] == [
        ("KeyError", "'rid-7'", False),
        ("ValueError", "first failure", False),
    ]


def test_chain_cut_at_the_raise_of_its_last_exception_is_an_error_too() -> None:
    # a handler re-raises as another exception and the paste stops on that raise line: the
    # cut traceback is where the error the paster hit was raised (its message cut away)
    text = (
        "Traceback (most recent call last):\n"
        '  File "/sgl-workspace/sglang/python/sglang/srt/managers/detok.py", line 309, in f\n'
        "    s = self.decode_status[rid]\n"
        "KeyError: 'x'\n\n"
        "During handling of the above exception, another exception occurred:\n\n"
        '  File "/sgl-workspace/sglang/python/sglang/srt/managers/detok.py", line 311, in f\n'
        "    raise Runt"
    )
    # (the KeyError is the chain that led to it, explained before it)
    (cut,) = parse_traceback(text)
    assert [(c.type, c.message, c.truncated) for c in cut.chain] == [("KeyError", "'x'", False)]
    assert (cut.type, cut.message, cut.truncated) == ("", "", True)
    assert [(f.line, f.code) for f in cut.frames] == [(311, "raise Runt")]
    # another rank's copy of the complete traceback, cut at the same raise, is not one
    copy = (
        "[2026-01-02 10:00:00 TP0] Traceback (most recent call last):\n"
        '[2026-01-02 10:00:00 TP0]   File "/x/pkg/a.py", line 5, in f\n'
        '[2026-01-02 10:00:00 TP0]     raise ValueError("bad")\n'
        "[2026-01-02 10:00:00 TP0] ValueError: bad\n"
        "[2026-01-02 10:00:00 TP1] Traceback (most recent call last):\n"
        '[2026-01-02 10:00:00 TP1]   File "/x/pkg/a.py", line 5, in f\n'
        '[2026-01-02 10:00:00 TP1]     raise ValueError("bad")\n'
    )
    (only_one,) = parse_traceback(copy)
    assert only_one.message == "bad"


# 8. Exceptions inside log lines -----------------------------------------------------------


def test_exceptions_inside_log_lines() -> None:
    first, second = parse("log_line_exceptions.txt")
    assert (first.type, first.message) == ("ValueError", "bad thing happened in the overlap loop")
    assert first.ranks == ("TP0",)
    assert (second.type, second.message) == (
        "KVTransferError",
        "Failed due to an unknown reason from another rank",
    )
    assert (second.count, second.ranks) == (2, ("TP1", "TP2"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("When I launch it I get `ValueError: bad --tp value` and it exits.", "bad --tp value"),
        ("the server answered 'RuntimeError: can't allocate' twice", "can't allocate"),
        ("E       AssertionError: 16 is not divisible by 6", "16 is not divisible by 6"),
    ],
)
def test_exception_quoted_in_prose(text: str, message: str) -> None:
    (err,) = parse_traceback(text)
    assert err.message == message


def test_traceback_starting_mid_line() -> None:
    err = only("warmup_midline.txt")
    assert (err.type, err.message) == ("AssertionError", "res=<Response [502]>, res.text=''")
    assert err.frames[0].function == "_wait_and_warmup"


def test_header_line_before_traceback() -> None:
    err = only("model_rpc_client.txt")
    assert (err.type, err.message) == ("AttributeError", "'NoneType' object has no attribute 'cpu'")
    assert len(err.frames) == 2


# 9. Echoes and non-errors -----------------------------------------------------------------


def test_log_echo_and_warnings_are_not_errors() -> None:
    err = only("log_echo.txt")
    assert err.type == "RuntimeError"
    assert err.message == (
        "PD Disaggregation does NOT support PD different TP sizes for non-MLA SWA hybrid "
        "models yet."
    )


@pytest.mark.parametrize(
    "text",
    [
        'INFO:     127.0.0.1:40122 - "POST /generate HTTP/1.1" 500 Internal Server Error',
        "[rank0]:[W1002 11:04:09.687 ProcessGroupNCCL.cpp:1575] Warning: WARNING: "
        "destroy_process_group() was not called",
        "Error: something went wrong",
        "WARNING: this is not an exception",
        "",
    ],
)
def test_non_errors(text: str) -> None:
    assert parse_traceback(text) == ()


# 10. Awkward messages ---------------------------------------------------------------------


def test_messages_with_flags_colons_and_brackets() -> None:
    first, second, third = parse("tricky_messages.txt")
    assert first.message.startswith("--enable-linear-replayssm-spec with DSPARK/DFLASH requires")
    assert first.frames[0].path == ".../sglang/srt/mem_cache/kv_cache_configurator.py"
    assert (second.type, second.message) == (
        "TypeError",
        "<lambda>() got an unexpected keyword argument 'x': "
        "see {'a': 1, \"b\": [2, 3]} at <module>",
    )
    assert third.message == "\"key 'rope_scaling' not in {'type': 'yarn', 'factor': 4.0}\""


# Hypothesis -------------------------------------------------------------------------------

_ALPHABET = st.characters(
    min_codepoint=32,
    max_codepoint=0x2FF,
    blacklist_characters="`\x7f",
    blacklist_categories=("Cc", "Cs"),
)
# A message line shaped like markdown, a log prefix or `SomeName: text` is read as such, a
# line of dots alone (`...`, `..`, `…`) as lines the paster left out, a line that opens a
# crash record of its own (`Fatal Python error`, `Segmentation fault`, `Killed`) as that record,
# and a blank line followed by unindented text ends a message, so the oracle generates none of
# them.
_EXCEPTION_LIKE = re.compile(r"\s*[A-Z][\w.]*(?:\(.*\))?:")
_COMPOSE_LIKE = re.compile(r"[A-Za-z0-9][\w.-]*[-_]\d{1,4} {1,40}\|")  # (`name-1  | `)
# (TorchX's `role/0 ` before torchrun's `[default0]:` or a glog record: a relayed line's label)
_TORCHX_LIKE = re.compile(r"\s*[A-Za-z_][\w.-]*/\d{1,4} (?:\[[a-z]{1,20}\d{1,6}\]:|[DIWEF]\d{4} )")
_LINE = st.text(_ALPHABET, max_size=60).filter(
    lambda s: (
        not s.lstrip().startswith((">", "|", "+", "~", "[", "("))
        and not _EXCEPTION_LIKE.match(s)
        and not _COMPOSE_LIKE.match(s)
        and not _TORCHX_LIKE.match(s)
        and not ELIDED.fullmatch(s.strip())
        and not NOISE.match(s.strip())
        and bool(s.strip())
    )
)
MESSAGES = st.lists(_LINE, min_size=1, max_size=4).map("\n".join)
EXCEPTIONS = st.sampled_from([ValueError, RuntimeError, TypeError, AssertionError, OSError])


def _formatted(exc: BaseException) -> str:
    return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))


def _expected(exc: BaseException) -> tuple[str, str]:
    last = "".join(traceback.format_exception_only(type(exc), exc)).rstrip("\n")
    typ, _, msg = last.partition(":")
    return typ, msg


def _norm(text: str) -> str:
    return " ".join(text.split())


def _raise(cls: type[Exception], message: str) -> None:
    raise cls(message)


def _caught(cls: type[Exception], message: str) -> BaseException:
    try:
        _raise(cls, message)
    except Exception as e:
        return e
    raise AssertionError("unreachable")


def _check(text: str, exc: BaseException) -> RaisedError:
    errors = parse_traceback(text)
    assert len(errors) == 1, (text, errors)
    typ, msg = _expected(exc)
    assert errors[0].type == typ
    assert _norm(errors[0].message) == _norm(msg)
    return errors[0]


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(EXCEPTIONS, MESSAGES)
def test_oracle_single(cls: type[Exception], message: str) -> None:
    exc = _caught(cls, message)
    err = _check(_formatted(exc), exc)
    assert err.frames[-1].function == "_raise"


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(EXCEPTIONS, MESSAGES, EXCEPTIONS, MESSAGES, st.booleans())
def test_oracle_chained(
    c1: type[Exception], m1: str, c2: type[Exception], m2: str, explicit: bool
) -> None:
    inner = _caught(c1, m1)
    try:
        try:
            raise inner
        except Exception as e:
            if explicit:
                raise c2(m2) from e
            raise c2(m2)  # noqa: B904 - implicit chaining is the point
    except Exception as e:
        outer = e
    err = _check(_formatted(outer), outer)
    assert err.chain_relation == ("cause" if explicit else "context")
    (root,) = err.chain
    assert (root.type, _norm(root.message)) == tuple(
        _norm(x) if i else x for i, x in enumerate(_expected(inner))
    )


@pytest.mark.skipif(sys.version_info < (3, 11), reason="ExceptionGroup needs Python 3.11")
@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(
    MESSAGES.filter(lambda m: "\n" not in m and m.strip()),
    st.lists(st.tuples(EXCEPTIONS, MESSAGES), min_size=1, max_size=3),
)
def test_oracle_group(message: str, subs: list[tuple[type[Exception], str]]) -> None:
    group_cls = getattr(builtins, "ExceptionGroup")  # noqa: B009 - absent before 3.11
    members = [_caught(c, m) for c, m in subs]
    try:
        raise group_cls(message, members)
    except Exception as e:
        group = e
    err = _check(_formatted(group), group)
    assert len(err.members) == len(members)
    for got, exc in zip(err.members, members, strict=True):
        typ, msg = _expected(exc)
        assert (got.type, _norm(got.message)) == (typ, _norm(msg))


@settings(max_examples=300)
@given(st.text())
def test_totality(text: str) -> None:
    assert isinstance(parse_traceback(text), tuple)


@settings(max_examples=100)
@given(
    st.lists(
        st.sampled_from(
            [
                "Traceback (most recent call last):",
                '  File "a.py", line 1, in f',
                "    x()",
                "ValueError: x",
                "  + Exception Group Traceback (most recent call last):",
                "  | ",
                "  +-+--- 1 ---",
                "    | KeyError: 'k'",
                "    +-------",
                "",
                "```",
                "> ",
                PREFIX,
                "[rank1]: ",
                "`",
                "The above exception was the direct cause of the following exception:",
                "~~~^^^",
                "...",
            ]
        ),
        max_size=40,
    ).map("\n".join)
)
def test_totality_structured(text: str) -> None:
    assert isinstance(parse_traceback(text), tuple)


PREFIXES = [PREFIX, "[rank3]: ", "[2026-10-02 11:04:09 DP1 TP3 EP3] "]


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(EXCEPTIONS, MESSAGES, st.sampled_from(PREFIXES))
def test_prefix_invariance(cls: type[Exception], message: str, prefix: str) -> None:
    exc = _caught(cls, message)
    text = _formatted(exc)
    assume(text.strip())
    plain = _check(text, exc)
    prefixed = _check("\n".join(prefix + line for line in text.splitlines()), exc)
    assert prefixed.frames == plain.frames
    assert prefixed.ranks == (prefix.strip(" []:").removeprefix("2026-10-02 11:04:09 "),)


# Linear time ------------------------------------------------------------------------------

ADVERSARIAL = [
    "Error:\n" * 150_000,
    "ValueError: \n" * 80_000,
    (": " * 20_000 + "\n") * 25,
    ('File "' * 10_000 + "\n") * 17,
    ('  File "x.py", line 1, in f\n' * 40_000),
    "a" * 1_000_000,
    ("KVTransferError(" * 50_000 + "\n") * 1,
    ("a." * 300_000),
    ("  | " * 30_000 + "\n") * 8,
    "Traceback (most recent call last):\n" * 30_000,
    ("[2026-10-02 11:04:09 TP0] " * 20_000 + "\n") * 2,
    ("\x1b[" * 100_000),
    ("```" * 100_000),
    ("    " * 100_000 + "+ Exception Group Traceback (most recent call last):\n"),
    (
        "ValueError: a\nThe above exception was the direct cause of the following exception:\n"
        * 12_000
    ),
    "".join(
        "  " * d + line
        for d in range(60)
        for line in (
            "  + Exception Group Traceback (most recent call last):\n",
            "  | ExceptionGroup: g (1 sub-exception)\n",
            "  +-+---- 1 ----\n",
        )
    )
    * 100,
]


@pytest.mark.heavy
@pytest.mark.parametrize("text", ADVERSARIAL, ids=range(len(ADVERSARIAL)))
def test_linear_time_on_adversarial_input(text: str, untraced: None) -> None:
    # CPU time, so that a busy machine does not fail the test; quadratic behaviour on a
    # 1 MB input would take minutes, not seconds.
    start = time.process_time()
    assert isinstance(parse_traceback(text), tuple)
    assert time.process_time() - start < 10.0


def test_an_error_quoted_in_a_code_comment_ends_where_the_comment_goes_on() -> None:
    text = (
        "        # Without aborting first, release() will fail with:\n"
        "        #   AssertionError: release should be called only when no request is\n"
        "        #     ongoing in the scheduler\n"
        "        # See: Trainer._validate() which follows the same pattern.\n"
        "        self.abort_all()\n"
    )
    (err,) = parse_traceback(text)
    assert err.type == "AssertionError"
    # the wrapped part keeps its indent inside the comment; `# See:` is the comment's own text
    first, wrapped = err.message.split("\n")
    assert first == "release should be called only when no request is"
    assert wrapped.endswith("ongoing in the scheduler")


def test_frames_condensed_to_path_line_function_are_frames() -> None:
    # a summary's shorthand for a traceback: path:line, the function, the code after an arrow
    # or two spaces; a logging format's `file.py:12 message` is no frame
    text = (
        "Worker failed while warming up:\n"
        "  warmup_runner.py:88  __init__ -> self.warm()\n"
        "  warmup_runner.py:141 warm\n"
        "  kernels/attn_pool.py:27    return self.buffers[layer]\n"
        "RuntimeError: warm-up ran out of pinned buffers for layer 3\n"
    )
    err = next(e for e in parse_traceback(text) if e.short_type == "RuntimeError")
    got = [(f.path, f.line, f.function, f.code) for f in err.frames]
    assert got == [
        ("warmup_runner.py", 88, "__init__", "self.warm()"),
        ("warmup_runner.py", 141, "warm", None),
        ("kernels/attn_pool.py", 27, None, "return self.buffers[layer]"),
    ]
    assert err.message == "warm-up ran out of pinned buffers for layer 3"
    assert line_kind("pool_logger.py:12 Pool resized to 8 buffers") == ""
    assert line_kind("kernels/attn_pool.py:27    return self.buffers[layer]") == "frame"


def test_a_frame_with_its_code_after_an_arrow_has_that_code() -> None:
    # a paster's condensed `File` line: the function, then the line it ran after an arrow
    text = (
        'File "app/loader.py", line 40, in load_all\n'
        'File "app/layers.py", line 118, in fill  ->  slot.copy_rows(\n'
        "AssertionError: rows=3, slots=4\n"
    )
    (err,) = parse_traceback(text)
    assert [(f.function, f.code) for f in err.frames] == [
        ("load_all", None),
        ("fill", "slot.copy_rows("),
    ]
    # a frame's code on its own line below still counts first; a plain name is kept whole
    (err,) = parse_traceback(
        'Traceback (most recent call last):\n  File "app/layers.py", line 118, in fill\n'
        "    slot.copy_rows(data)\nAssertionError: rows=3, slots=4\n"
    )
    assert [(f.function, f.code) for f in err.frames] == [("fill", "slot.copy_rows(data)")]


@pytest.mark.parametrize(
    ("line", "typ", "message"),
    [
        (
            "  attn_pool.py:27  RuntimeError: pool needs dense buffers",
            "RuntimeError",
            "pool needs dense buffers",
        ),
        ("attn_pool.py:27    KeyError: 'layer.3'", "KeyError", "'layer.3'"),
    ],
)
def test_a_condensed_frame_that_ends_in_its_exception_raises_it(line, typ, message) -> None:
    """A summary's last frame with the exception written after it on the same line (`path:line
    <two spaces> Type: message`): the frame, and the exception it raised."""
    (err,) = parse_traceback(f"Boot fails:\n{line}\n")
    assert (err.type, err.message) == (typ, message)
    (frame,) = err.frames
    assert (frame.path, frame.line) == ("attn_pool.py", 27)
    assert frame.code is None


def test_one_condensed_frame_alone_is_a_reference_not_a_traceback() -> None:
    """A post pointing at a line of code (`path.py:27` and the code) with no header, no other
    frame and no exception: a reference, not a traceback cut before its exception line. Two
    condensed frames are a summary's traceback, cut; a header makes one frame a traceback."""
    line = "attn_pool.py:27    Note: dense buffers only"
    assert parse_traceback(f"The rule is here:\n    {line}\nIt is coarse.\n") == ()
    (err,) = parse_traceback(f"Boot fails:\n  warmup_runner.py:141 warm\n  {line}\n")
    assert err.truncated and [f.line for f in err.frames] == [141, 27]
    (err,) = parse_traceback(f"Traceback (most recent call last):\n  {line}\n")
    assert err.truncated and [f.line for f in err.frames] == [27]


def test_a_ray_log_whose_line_breaks_were_lost_is_read_record_by_record() -> None:
    # markdown joined the lines of a ray worker's traceback; its prefix still marks each one
    w = "(ServeWorker pid=4242) "
    text = (
        f"{w}Traceback (most recent call last): "
        f'{w}File "/env/site-packages/pkg/runner.py", line 88, in warm '
        f"{w}raise RuntimeError( "
        f"{w}RuntimeError: warm-up ran out of pinned buffers"
    )
    (err,) = parse_traceback(text)
    assert err.short_type == "RuntimeError"
    assert err.message == "warm-up ran out of pinned buffers"
    assert [(f.path, f.line, f.function) for f in err.frames] == [
        ("/env/site-packages/pkg/runner.py", 88, "warm")
    ]
    # two different workers on one line are two lines' worth of prose, left as they are
    from errexplain.parse.lines import clean_lines

    mixed = "(A pid=1) one thing (B pid=2) another"
    assert [ln.text for ln in clean_lines(mixed)] == ["one thing (B pid=2) another"]


def test_a_dunder_function_that_markdown_made_bold_is_read_back() -> None:
    # an issue tracker rendered `__init__` as bold; the stored text says **init**
    text = (
        "Traceback (most recent call last):\n"
        '  File "/env/site-packages/pkg/runner.py", line 88, in **init**\n'
        "    raise RuntimeError(\n"
        "RuntimeError: warm-up ran out of pinned buffers\n"
    )
    (err,) = parse_traceback(text)
    assert err.frames[0].function == "__init__"


@pytest.mark.parametrize(
    "title",
    [
        "# [Bug] assert len(slots) % group_size == 0",
        "[Bug] assert len(slots) % group_size == 0",
        "## [BUG] assert len(slots) % group_size == 0.",
        "[Bug]: assert len(slots) % group_size == 0",
    ],
)
def test_an_issue_title_that_is_an_assert_statement_is_that_assertion(title):
    """A report titled with the assert that failed is an AssertionError printed as a test
    runner prints it: its message is the statement."""
    text = f"{title}\n\n### Describe the bug\n\nstarting the server with two nodes fails\n"
    (err,) = parse_traceback(text)
    assert (err.type, err.message, err.line_no) == (
        "AssertionError",
        "assert len(slots) % group_size == 0",
        1,
    )


@pytest.mark.parametrize(
    "text",
    [
        "assert len(slots) % group_size == 0\n",  # a line of code, not a title
        "```\n    assert len(slots) % group_size == 0\n```\n",
        "# Notes on assert statements in the scheduler\n",  # a title about asserts
        "[Bug] assert f(x\n",  # not a whole statement
    ],
)
def test_an_assert_outside_an_issue_title_is_not_read_as_one(text):
    assert parse_traceback(text) == ()


def test_code_that_names_an_exception_class_is_not_an_error():
    """Pasted code: `except Exception:` with the handler's line after it, and an exception
    class defined (`class KVTransferError(Exception):`) are code, not an error printed."""
    code = (
        "```python\n"
        "try:\n"
        "    llm.generate(prompts)\n"
        "except Exception:\n"
        '    logger.exception("generate failed")\n'
        "class KVTransferError(Exception):\n"
        "    pass\n"
        "```\n"
        "and then: ValueError: bad shape\n"
    )
    assert [(e.type, e.message) for e in parse_traceback(code)] == [("ValueError", "bad shape")]
    # written as a message, such a line still is one
    assert parse_traceback("worker died: Exception: boom")[0].message == "boom"


def test_a_double_spaced_traceback_reads_as_the_single_spaced_one():
    """A copy from a web log viewer puts a blank line after every line: the frames keep their
    code and the message its lines; a blank line Python itself prints still ends a message."""
    single = (
        "Traceback (most recent call last):\n"
        '  File "/app/pkg/loader.py", line 40, in load_weights\n'
        "    param = params_dict[name]\n"
        '  File "/app/pkg/engine.py", line 12, in start\n'
        "    raise ImportError(MSG)\n"
        "ImportError: Please install the transfer engine by following the steps at\n"
        "https://example.org/install.html to run\n"
        "the server with its disaggregation backend.\n"
    )
    (want,) = parse_traceback(single)
    (got,) = parse_traceback("\n\n".join(single.split("\n")))
    assert [(f.path, f.line, f.function, f.code) for f in got.frames] == [
        (f.path, f.line, f.function, f.code) for f in want.frames
    ]
    assert got.frames[0].code == "param = params_dict[name]"
    assert got.message == want.message
    (alone,) = parse_traceback(single + "\nThis is prose after the traceback.\n")
    assert alone.message == want.message


def test_a_frame_without_code_keeps_the_prose_after_a_blank_line_out():
    text = (
        "Traceback (most recent call last):\n"
        '  File "<frozen runpy>", line 198, in _run_module_as_main\n'
        "\n"
        "I cut the rest, it was long.\n"
    )
    errs = parse_traceback(text)
    assert all(f.code is None for e in errs for f in e.frames)


@pytest.mark.parametrize("indent", ["  ", ""])
def test_a_function_name_cut_at_the_width_is_joined_to_its_rest(indent):
    """`  File "...", line 398, in l` / `oad_weights` (a terminal's cut, one line too few to
    tell its width): the bare lower-case name under the frame, no deeper than it, with the
    frame's code after it, is the rest of the function's name."""
    path = "/sgl-workspace/pkg/python/pkg/srt/models/some_model_file_name.py"
    head = f'{indent}File "{path}", line 398, in l'
    assert len(head) >= 60
    text = f"{head}\noad_weights\n    param = params_dict[name]\nKeyError: 'lm_head.weight'\n"
    (err,) = parse_traceback(text)
    assert [(f.function, f.code) for f in err.frames] == [
        ("load_weights", "param = params_dict[name]")
    ]


def test_a_bare_name_after_a_frame_without_code_stays_what_it_is():
    path = "/usr/lib/python3.12/importlib/_bootstrap_external_helpers_long.py"
    # an exception line with no message
    text = f'  File "{path}", line 1, in _find_and_load\nKeyboardInterrupt\n'
    (err,) = parse_traceback(text)
    assert err.type == "KeyboardInterrupt" and err.frames[0].function == "_find_and_load"
    # a statement alone as the code of a frame whose indentation the paster lost
    text = f'  File "{path}", line 1, in run\nraise\n  File "{path}", line 2, in inner\n'
    text += "ValueError: bad value\n"
    (err,) = parse_traceback(text)
    assert [f.function for f in err.frames] == ["run", "inner"]


def test_a_bare_name_after_a_long_frame_line_then_a_blank_line_is_read_safely():
    # (the name rule's first form looked at the blank line as a structural line and failed)
    path = "/sgl-workspace/pkg/python/pkg/srt/models/some_model_file_name.py"
    text = f'  File "{path}", line 398, in l\noad_weights\n\nKeyError: 1\n'
    errs = parse_traceback(text)
    assert errs and errs[-1].type == "KeyError"
    assert all(f.function == "l" for e in errs for f in e.frames)


# Tracebacks inside a string's escapes ------------------------------------------------------

ESCAPINGS = {
    # an HTTP error body's message (JSON: inner `"` escaped), read by the body's reader
    "json body": lambda t: __import__("json").dumps({"error": {"message": t, "code": 500}}),
    # a client's error printing the body as a dict (a Python repr: inner `'` escaped)
    "repr body": lambda t: (
        "openai.InternalServerError: Error code: 500 - "
        + repr({"object": "error", "message": t, "code": 500})
    ),
    # a logged repr of the text (`output.error='Traceback ...\n'`)
    "logged repr": lambda t: f"bench: output.error={t!r}",
    # a whole paste whose line breaks became `\n` (no quote around it)
    "escaped whole": lambda t: t.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n"),
}


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(EXCEPTIONS, MESSAGES, st.sampled_from(sorted(ESCAPINGS)))
def test_an_escaped_traceback_reads_as_printed(
    cls: type[Exception], message: str, escaping: str
) -> None:
    exc = _caught(cls, message)
    text = _formatted(exc)
    plain = _check(text, exc)
    errors = parse_traceback(ESCAPINGS[escaping](text))
    (escaped,) = [e for e in errors if e.type]
    assert (escaped.type, _norm(escaped.message)) == (plain.type, _norm(plain.message))
    assert escaped.frames == plain.frames


def test_an_escaped_traceback_keeps_the_text_around_it_apart():
    body = (
        '{"object": "error", "message": "Worker failed: Traceback (most recent call last):\\n'
        '  File \\"/srv/pool.py\\", line 88, in take\\n    raise PoolError(f\\"no pages for '
        '{rid!r}\\")\\npool.PoolError: no pages for \'r17\'", "type": "InternalServerError", '
        '"code": 500}'
    )
    (err,) = [e for e in parse_traceback(body) if e.type]
    assert (err.form, err.type, err.message) == ("json", "pool.PoolError", "no pages for 'r17'")
    assert (err.frames[-1].path, err.frames[-1].line) == ("/srv/pool.py", 88)
    assert err.frames[-1].code == 'raise PoolError(f"no pages for {rid!r}")'


def test_a_repr_cut_inside_a_frame_is_read_from_its_frame_tail():
    """A paste that starts inside an escaped frame line (`x.py", line 9, in f\\n ...`) and a
    following line of its own: the error is the one the string holds, its message not
    running on into that line."""
    text = (
        '"/usr/lib/python3.11/json/encoder.py", line 180, in default\\n'
        "    raise TypeError(f\\'Object of type {o.__class__.__name__} \\')\\n"
        "TypeError: Object of type int64 is not JSON serializable\\n'\n"
        'output.error=\'Traceback (most recent call last):\\n  File "/srv/b.py"'
    )
    errors = parse_traceback(text)
    assert [(e.type, e.message) for e in errors] == [
        ("TypeError", "Object of type int64 is not JSON serializable")
    ]


def test_escaped_line_breaks_elsewhere_stay_as_printed():
    """Only a traceback's escapes are read: a message holding `\\n` as text stays one line."""
    (err,) = parse_traceback("ValueError: bad separator '\\n' in 'a\\nb'")
    assert (err.type, err.message) == ("ValueError", "bad separator '\\n' in 'a\\nb'")


VLLM_LOGGED = (
    "ERROR 12-05 20:24:46 engine.py:366]     param = params_dict[name]\n"
    "ERROR 12-05 20:24:46 engine.py:366]             ~~~~~~~~~~~^^^^^^\n"
    "ERROR 12-05 20:24:46 engine.py:366]     raise ValueError(\n"
    "ERROR 12-05 20:24:46 engine.py:366] KeyError: 'language_model.embed_tokens.weight'\n"
)


def test_a_traceback_logged_line_by_line_gives_no_error_per_code_line():
    """A logger that prints a traceback line by line (vLLM's prefix on each, the paste cut below
    the header): its code lines, indented under the prefix deeper than its messages, are not
    errors of their own (`raise ValueError(` read as a repr, `param = params_dict[name]` as an
    error log line); the exception line is."""
    got = parse_traceback(VLLM_LOGGED)
    assert [(e.type, e.message) for e in got] == [
        ("KeyError", "'language_model.embed_tokens.weight'")
    ]


def test_a_level_padded_to_a_width_indents_every_message_alike():
    """`%(levelname)-8s`: every record's text starts after the same padding; none is a code
    line, each error record is read."""
    text = (
        "2025-04-17 19:46:42.566927 ERROR    [975] read rpc body failed, error msg:End of file.\n"
        "2025-04-17 19:46:42.566977 ERROR    [953] read rpc body failed, error msg:End of file.\n"
    )
    got = parse_traceback(text)
    assert [e.message for e in got][:1] == ["[975] read rpc body failed, error msg:End of file."]


@pytest.mark.parametrize(
    "after",
    [
        "Error: Process completed with exit code 1.",
        "##[error]Process completed with exit code 2.",
        "ERROR: Job failed: exit code 1",
        "make: *** [Makefile:28: bench] Error 1",
        "make[2]: *** [Makefile:9: run] Error 2",
    ],
)
def test_a_ci_runner_line_after_the_error_is_not_its_message(after: str) -> None:
    """The line a CI runner or build tool prints when the command failed is no part of the
    message (`KeyError: 'model_path'` stays itself, not `'model_path' Error: Process ...`)."""
    text = textwrap.dedent(
        """\
        Run python -m my_bench --port 30000
        Traceback (most recent call last):
          File "/runner/_work/app/bench.py", line 12, in <module>
            path = info.json()["model_path"]
        KeyError: 'model_path'
        """
    )
    (err,) = parse_traceback(text + after + "\n")
    assert (err.type, err.message) == ("KeyError", "'model_path'")


def _child_traceback(k: int, message: str) -> list[str]:
    """The traceback `multiprocessing` prints for a failed child `SpawnProcess-k`."""
    return [
        f"Process SpawnProcess-{k}:",
        "Traceback (most recent call last):",
        '  File "/usr/lib/python3.11/multiprocessing/process.py", line 314, in _bootstrap',
        "    self.run()",
        '  File "/opt/venv/lib/python3.11/site-packages/app/worker.py", line 88, in step',
        "    self.process_batch_result(batch, result)",
        message,
    ]


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 4), st.randoms(use_true_random=False))
def test_one_traceback_printed_by_processes_at_once_is_one_error(copies: int, rnd) -> None:
    """Ranks that crash at once print the same traceback line by line into one terminal, their
    lines interleaved in any order: one error, seen once per process, with the traceback's two
    frames (each once; their order is the paste's to tell only when one copy took both) and its
    message alone (not a line of another copy after it)."""
    message = "RuntimeError: CUDA error: an illegal memory access was encountered"
    sources = [_child_traceback(k, message) for k in range(copies)]
    lines: list[str] = []
    while any(sources):
        lines.append(rnd.choice([s for s in sources if s]).pop(0))
    (err,) = parse_traceback("\n".join(lines) + "\n")
    assert (err.type, err.message, err.count) == (
        "RuntimeError",
        "CUDA error: an illegal memory access was encountered",
        copies,
    )
    assert sorted((f.path.rsplit("/", 1)[-1], f.line) for f in err.frames) == [
        ("process.py", 314),
        ("worker.py", 88),
    ]


def test_two_errors_printed_at_once_stay_two() -> None:
    """Two processes failing with different errors, their lines interleaved: two errors."""
    one = _child_traceback(1, "RuntimeError: CUDA error: an illegal memory access was encountered")
    two = _child_traceback(2, "ValueError: the page size must divide the chunk size")
    lines = [ln for pair in zip(one, two, strict=True) for ln in pair]
    got = {(e.type, e.message, e.count) for e in parse_traceback("\n".join(lines) + "\n")}
    assert got == {
        ("RuntimeError", "CUDA error: an illegal memory access was encountered", 1),
        ("ValueError", "the page size must divide the chunk size", 1),
    }


def test_a_message_goes_on_past_a_line_no_frame_showed() -> None:
    """Only a line repeating code a frame showed ends a message: a message's own indented
    lines stay its own."""
    text = textwrap.dedent(
        """\
        Traceback (most recent call last):
          File "/app/pkg/run.py", line 9, in main
            check(cfg)
        ValueError: invalid config:
            check(cfg) needs a model path
        """
    )
    (err,) = parse_traceback(text)
    assert err.message == "invalid config:\n    check(cfg) needs a model path"


def test_the_same_message_with_no_text_or_apart_is_not_folded() -> None:
    """Errors with no message are told by their frames alone, and the same error far apart in
    a log is counted by its frames as before: neither is folded into another."""
    a = _child_traceback(1, "KeyboardInterrupt")
    b = [ln.replace('worker.py", line 88, in step', 'server.py", line 7, in serve') for ln in a]
    got = parse_traceback("\n".join(a + b) + "\n")
    assert sorted(e.frames[-1].line for e in got) == [7, 88]
    far = _child_traceback(1, "RuntimeError: CUDA error: out of memory")
    other = [ln.replace("line 88", "line 90") for ln in far]
    filler = [f"[2026-01-02 10:00:{n:02d}] Decode batch, #running-req: 3" for n in range(20)]
    got = parse_traceback("\n".join(far + filler + other) + "\n")
    assert sorted(e.frames[-1].line for e in got) == [88, 90]
