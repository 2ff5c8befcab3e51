"""Errors printed by native (C, C++, CUDA) code: read as errors of their own (form "native"),
one per source location, and explained beside what the Python side printed after them. Every
example here is written for the test."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import NATIVE_NOTE, explain_text
from errexplain.models import Entry, Frame, Source
from errexplain.parse.lines import clean_lines
from errexplain.parse.native import native_errors


def natives(text: str) -> list[tuple[str, str, int, Frame | None]]:
    return [
        (e.type, e.message, e.count, e.frames[0] if e.frames else None)
        for e in native_errors(clean_lines(text))
    ]


KERNEL = (
    "/src/torch/aten/src/ATen/native/cuda/Gather.cu:{line}: gather_kernel: block: [2,0,0], "
    'thread: [{t},0,0] Assertion `idx < limit && "gather index out of range"` failed.'
)


def test_a_kernel_assertion_printed_by_every_thread_is_one_error_counted():
    text = "\n".join(KERNEL.format(line=57, t=t) for t in range(5)) + "\n"
    ((typ, msg, count, frame),) = natives(text)
    assert typ == "" and msg == 'Assertion `idx < limit && "gather index out of range"` failed.'
    assert count == 5
    assert frame == Frame("/src/torch/aten/src/ATen/native/cuda/Gather.cu", 57, "gather_kernel")


def test_copies_joined_by_an_unwrap_or_cut_mid_line_are_the_same_error():
    joined = KERNEL.format(line=57, t=1) + KERNEL.format(line=57, t=2)  # no break between
    cut = KERNEL.format(line=57, t=3)[:70]
    ((_, msg, count, _),) = natives(f"{joined}\n{cut}\n")
    assert msg.startswith("Assertion `idx < limit") and count == 3


def test_a_location_ending_its_line_takes_its_message_from_the_next():
    text = (
        "/build/ops/src/sycl/ReduceKernels.cpp:88:\n"
        "operator(): Assertion `total > 0` failed.\n"
        "/build/ops/src/cuda/Softmax.cu:301: softmax_kernel:\n"
        "block: [0,0,0], thread: [1,0,0] Assertion `sum != 0` failed.\n"
    )
    assert [(m, f.path.rpartition("/")[2], f.line, f.function) for _, m, _, f in natives(text)] == [
        ("Assertion `total > 0` failed.", "ReduceKernels.cpp", 88, "operator()"),
        ("Assertion `sum != 0` failed.", "Softmax.cu", 301, "softmax_kernel"),
    ]


def test_a_library_line_with_its_source_location_is_a_native_error():
    text = (
        "[2026-02-03 04:05:06 TP1] /opt/fabric/src/transport/rdma.cpp:612: no route to peer 3\n"
        "/opt/fabric/src/transport/rdma.cpp:640: warning: retrying with TCP\n"
        "/usr/include/c++/12/bits/stl_vector.h:1123: In member function 'reference'\n"
    )
    assert [(m, f.line) for _, m, _, f in natives(text)] == [("no route to peer 3", 612)]


def test_a_fatal_python_error_and_an_uncaught_cpp_exception_are_read():
    text = (
        "Fatal Python error: Bus error\n"
        "\n"
        "Thread 0x00007f (most recent call first):\n"
        "terminate called after throwing an instance of 'fabric::TransportError'\n"
        "  what():  peer 7 closed the queue pair\n"
    )
    assert [(t, m) for t, m, _, _ in natives(text)] == [
        ("", "Fatal Python error: Bus error"),
        ("fabric::TransportError", "peer 7 closed the queue pair"),
    ]


def test_a_fatal_python_error_quoted_in_a_sentence_is_read():
    text = (
        "Under long prompts the worker crashed with `Fatal Python error: Segmentation fault` "
        "twice, and the log before it showed a warning.\n"
        "服务偶尔崩溃, 报\u201cFatal Python error: Aborted\u201d。\n"
        "I read the docs on Fatal Python error: handling, which did not help.\n"
    )
    assert [m for _, m, _, _ in natives(text)] == [
        "Fatal Python error: Segmentation fault",
        "Fatal Python error: Aborted",
    ]


def test_prose_and_python_frames_are_not_native():
    text = (
        'File "/srv/app/worker.py", line 12, in run\n'
        "see worker.c for details: it failed\n"
        "the file main.cpp:3 is where I looked\n"
    )
    assert natives(text) == []


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab.cuh:0123 `Assertion failed./\n")), max_size=300))
def test_any_text_reads_without_error(text):
    for e in native_errors(clean_lines(text)):
        assert e.form == "native" and e.count >= 1


# ----------------------------------------------------------------- explained beside the rest

DIED = Entry(
    id="d" * 16,
    project="demo",
    exception="error",
    template="Worker <name> exited with code <code>",
    source=Source("demo", "1.0", "demo/watch.py", 40, "check", None),
    kind="log",
)


def test_a_native_error_comes_first_beside_the_line_the_python_side_printed_after_it():
    paste = (
        "The server went down mid-request:\n"
        "```\n"
        + KERNEL.format(line=57, t=0)
        + "\n"
        + KERNEL.format(line=57, t=1)
        + "\n[2026-02-03 04:05:07] Worker rank_0 exited with code -6\n```\n"
    )
    exps = explain_text(paste, MemoryCatalog([DIED]))
    native, died = exps
    assert (native.error.form, native.error.count) == ("native", 2)
    assert not native.matches and native.notes == (NATIVE_NOTE,)
    assert native.generic and "device-side" in native.generic
    assert died.matches[0].entry.id == "d" * 16


def test_a_native_location_inside_an_exception_message_is_not_read_twice():
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/worker.py", line 12, in run\n'
        "    step()\n"
        "RuntimeError: [/opt/fabric/src/transport/rdma.cpp:612] no route to peer 3\n"
        "/opt/fabric/src/transport/rdma.cpp:612: no route to peer 3\n"
    )
    exps = explain_text(paste, MemoryCatalog([DIED]))
    assert [x.error.type for x in exps] == ["RuntimeError"]


def test_the_brief_line_of_a_native_error_says_what_printed_it():
    from errexplain.render.view import brief_line

    (exp,) = explain_text("Fatal Python error: Segmentation fault\n", MemoryCatalog([DIED]))
    line = brief_line(exp)
    assert line.startswith("1x  (native code)") and "Fatal Python error: Segmentation fault" in line
    assert "-- The Python interpreter stopped the process" in line


def test_flashinfer_s_error_line_is_a_native_error_with_its_function():
    text = (
        "Error in function 'MergeStatesKernel' at /env/site-packages/kernels/include/"
        "merge.cuh:697: Unsupported head_dim: 106\n"
    )
    ((typ, msg, _, frame),) = natives(text)
    assert (typ, msg) == ("", "Unsupported head_dim: 106")
    assert frame == Frame("/env/site-packages/kernels/include/merge.cuh", 697, "MergeStatesKernel")


def test_a_function_named_without_a_source_location_is_not_native():
    assert natives("Error in function 'run' at startup: no device\n") == []


HEAD_DIM = Entry(
    id="h" * 16,
    project="demo",
    exception="ValueError",
    kind="raise",
    template="Unsupported head_dim: <head_dim>",
    source=Source("demo", "1.0", "demo/attention.py", 30, "check_dims", None),
)


def test_a_message_after_a_native_source_location_is_not_read_as_a_python_raise():
    # the Python site shares the words; the line says compiled code printed them
    view = MemoryCatalog([HEAD_DIM])
    for line in (
        "/env/site-packages/kernels/include/merge.cuh:697: Unsupported head_dim: 106",
        "Error in function 'MergeStatesKernel' at /env/kernels/merge.cuh:697: "
        "Unsupported head_dim: 106",
    ):
        (exp,) = explain_text(f"The server stops at start-up:\n```\n{line}\n```\n", view)
        assert exp.error.form == "native" and not exp.matches
        assert exp.notes == (NATIVE_NOTE,)
    # the same words on a line of their own are the Python site's
    (exp,) = explain_text("```\nUnsupported head_dim: 106\n```\n", view)
    assert exp.matches[0].entry.id == "h" * 16
