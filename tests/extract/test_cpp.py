"""errexplain.extract.cpp: the checks of a C/C++ source (a JIT kernel's) read as sites; and the
place such a check puts before its message read back as a frame (errexplain.explainer)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from errexplain.explainer import check_located
from errexplain.extract.cpp import visit_cpp
from errexplain.extract.sources import read_sources
from errexplain.models import Frame, RaisedError

KERNEL = r"""
// a kernel's host side: "RuntimeCheck(" in a comment is no site
#include <sgl_kernel/utils.h>
#define MY_CHECK(x) RuntimeCheck(x, "from a macro")

namespace {

struct SymbolicSize {
  auto unwrap(DebugInfo info = {}) const -> int64_t {
    RuntimeCheck(info, this->has_value(), "Size value is not set");
    return m_value;
  }
  auto verify(int64_t value, const char* prefix, int64_t dim) -> void {
    if (m_value != value) {
      Panic("Size mismatch for ", m_name_str(prefix, dim), ": expected ", m_value,
            " but got ", value);
    }
  }
};

template <typename T, int kBlock>
void rope_forward(tvm::ffi::TensorView q,  // [T, H, D]
                  int64_t head_dim) {
  using namespace host;
  RuntimeCheck(std::is_same_v<T, float> || head_dim % 8 == 0,
               "head_dim must be a multiple of 8, got ", head_dim);
  CHECK_HOST(q.stride(-1) == 1) << "q must be contiguous in its last dim, stride " << q.stride(-1);
  CHECK_HOST(kBlock > 0);
  auto launch = [&](int n) {
    RuntimeCheck(n <= 1024, "too many blocks: " "n=", n, '!');
  };
  if (head_dim > 256) {
    throw std::invalid_argument("head_dim " + std::to_string(head_dim) + " is too large");
  }
  TORCH_CHECK(q.is_cuda(), "q must be on a GPU");
}

}  // namespace

struct RuntimeCheck {
  explicit RuntimeCheck(Cond&& condition, Args&&... args, DebugInfo location = {}) {
    if (condition) return;
    [[unlikely]] host::panic(location, std::forward<Args>(args)...);
  }
};
"""


def _sites():
    return visit_cpp("pkg/jit/csrc/rope.cuh", KERNEL.encode()).sites


def test_checks_are_read_as_sites_with_their_text_function_and_condition() -> None:
    got = {(s.line, s.function, s.exception, s.template, s.condition) for s in _sites()}
    assert got == {
        (
            10,
            "SymbolicSize.unwrap",
            "RuntimeError",
            "Size value is not set",
            "!(this->has_value())",
        ),
        (
            15,
            "SymbolicSize.verify",
            "RuntimeError",
            "Size mismatch for <m_name_str(prefix, dim)>: expected <m_value> but got <value>",
            None,
        ),
        (
            25,
            "rope_forward",
            "RuntimeError",
            "head_dim must be a multiple of 8, got <head_dim>",
            "!(std::is_same_v<T, float> || head_dim % 8 == 0)",
        ),
        (
            27,
            "rope_forward",
            "RuntimeError",
            "q must be contiguous in its last dim, stride <q.stride(-1)>",
            "!(q.stride(-1) == 1)",
        ),
        (28, "rope_forward", "RuntimeError", "", "!(kBlock > 0)"),
        # (a lambda's check is its function's; adjacent literals and a char are text)
        (30, "rope_forward", "RuntimeError", "too many blocks: n=<n>!", "!(n <= 1024)"),
        (33, "rope_forward", "ValueError", "head_dim <head_dim> is too large", None),
        (35, "rope_forward", "RuntimeError", "q must be on a GPU", "!(q.is_cuda())"),
    }


def test_a_check_without_text_keeps_its_statement_and_how_it_raises() -> None:
    bare = next(s for s in _sites() if not s.template)
    assert bare.statement == "CHECK_HOST(kBlock > 0)" and not bare.constant
    assert {s.via for s in _sites()} == {
        "C++ RuntimeCheck",
        "C++ Panic",
        "C++ CHECK_HOST",
        "C++ TORCH_CHECK",
        None,  # (a std:: exception thrown: raised in place)
    }


def test_comments_macros_and_the_checks_own_definition_are_no_sites() -> None:
    lines = {s.line for s in _sites()}
    assert 2 not in lines and 4 not in lines  # a comment, a #define
    assert max(lines) < 38  # the struct and the panic inside its constructor


def test_text_that_is_no_cpp_gives_no_error() -> None:
    assert visit_cpp("x.h", b"\xff\xfe").error is not None
    assert visit_cpp("x.h", b"RuntimeCheck(").sites == ()
    assert visit_cpp("x.h", b'Panic("unclosed').sites == ()


@given(st.text(alphabet="RuntimeCheck(){}<>;,\"\\' \n/*#abc", max_size=300))
def test_any_text_is_read_without_failing(text: str) -> None:
    result = visit_cpp("x.cuh", text.encode())
    assert all(1 <= s.line <= text.count("\n") + 1 for s in result.sites)


def test_a_package_s_cpp_sources_are_read_beside_its_python(tmp_path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "jit").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "jit" / "rope.cuh").write_text(KERNEL)
    (pkg / "jit" / "notes.md").write_text("RuntimeCheck(x, 'no');")
    assert [f.path for f in read_sources(pkg, "pkg")] == ["pkg/__init__.py", "pkg/jit/rope.cuh"]


@pytest.mark.parametrize(
    ("message", "frame", "rest"),
    [
        (
            "Failed at /opt/py/sglang/kernels/jit/csrc/rope.cuh:23: head_dim must be a multiple "
            "of 8, got 12",
            Frame("/opt/py/sglang/kernels/jit/csrc/rope.cuh", 23, None),
            "head_dim must be a multiple of 8, got 12",
        ),
        (  # (a terminal cut the line after `at`)
            "Runtime check failed at \n  quant_8bit.cuh:203: CUDA error: unknown error",
            Frame("quant_8bit.cuh", 203, None),
            "CUDA error: unknown error",
        ),
        (  # (before 0.5.16; the paste broke the line after the place)
            "Runtime check failed at elementwise/act.cuh:168:\n    hidden size must be even",
            Frame("elementwise/act.cuh", 168, None),
            "hidden size must be even",
        ),
        (  # the tensor matcher passes a check's error on with the place it checked from
            "Tensor match failed for Tensor<126>[strides=<1>, dtype=int32, device=cuda:0] at "
            "/ws/sglang/kernels/jit/csrc/moe/align.cuh:88\n- Root cause: Size mismatch for "
            "shape#0('n'): expected 4 but got 8",
            Frame("/ws/sglang/kernels/jit/csrc/moe/align.cuh", 88, None),
            "Size mismatch for shape#0('n'): expected 4 but got 8",
        ),
        (  # a check with no text names its function
            "Failed at csrc/c_plan.cuh:496 in void sglang::host::plan(int64_t, Plan::Kind)",
            Frame("csrc/c_plan.cuh", 496, "plan"),
            "",
        ),
    ],
)
def test_the_place_a_check_puts_before_its_message_is_read_as_a_frame(message, frame, rest) -> None:
    outer = Frame("/opt/py/sglang/kernels/jit/rope.py", 40, "apply")
    error = RaisedError("RuntimeError", message, (outer,))
    located, note = check_located(error)
    assert located.message == rest and located.frames == (outer, frame)
    assert f"'{frame.path}:{frame.line}'" in note


@pytest.mark.parametrize(
    "message",
    [
        "Failed at step 3: the loss is NaN",  # no source file
        "Failed at /srv/app/main.py:12: a Python file",  # not a compiled check's
        "The check Failed at x.cuh:3: not at the start",
    ],
)
def test_other_messages_are_left_as_they_are(message) -> None:
    error = RaisedError("RuntimeError", message, ())
    assert check_located(error) == (error, "")


def test_the_derived_meaning_says_a_compiled_check_threw_it() -> None:
    from errexplain.extract.derive import meaning

    by_line = {s.line: s for s in _sites()}
    assert meaning(by_line[27]) == (
        "Thrown by the C++ check `CHECK_HOST` in `rope_forward` when `!(q.stride(-1) == 1)` (a "
        "kernel compiled at run time): Python shows it as a RuntimeError, with `Failed at "
        "<file>:<line>: ` before the message."
    )
    # torch's check puts no place before its text
    assert meaning(by_line[35]).endswith("Python shows it as a RuntimeError.")


@pytest.mark.parametrize(
    "chunk",
    ["RuntimeCheck(", "CHECK_HOST(x) << ", "SGL_PANIC << ", "throw std::runtime_error(", 'f("'],
)
def test_a_file_of_calls_left_open_is_read_in_linear_time(chunk: str) -> None:
    # (as tests/test_linear.py: each name inside a call left open was read to the file's end,
    # 20,000 of them took about a minute; a generous threshold for a loaded 2-core machine)
    import time

    start = time.perf_counter()
    assert visit_cpp("x.cuh", (chunk * 20_000).encode()).sites == ()
    assert time.perf_counter() - start < 10
