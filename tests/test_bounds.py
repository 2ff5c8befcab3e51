"""The bounds of errexplain.bounds hold on what reaches matching and output (issue 14: 100,000
distinct exceptions in 5 MB took 35 s, 850 MB and printed 223 MB)."""

from __future__ import annotations

import io

from errexplain import bounds
from errexplain.app import explain
from errexplain.app.context import Context, Options, emit_explanations
from errexplain.explainer import explain_text_bounded


def _ctx(fmt: str, stdin: bytes = b"") -> Context:
    return Context(Options(fmt), io.BytesIO(stdin), io.StringIO(), io.StringIO(), False)


def test_errors_per_input_are_bounded_and_the_rest_counted(small_index):
    text = "".join(f"ValueError: distinct failure number {i} of many\n" for i in range(1000))
    exps, omitted = explain_text_bounded(text, small_index)
    assert len(exps) == bounds.ERRORS and omitted == 1000 - bounds.ERRORS
    assert exps[-1].error.message == "distinct failure number 999 of many"


def test_a_long_message_is_cut_and_says_so(small_index):
    text = "ValueError: " + "spam and eggs " * 5000 + "\n"
    [exp] = explain_text_bounded(text, small_index)[0]
    assert len(exp.error.message) == bounds.MESSAGE_CHARS
    assert any("characters long" in n for n in exp.notes)


def test_output_is_bounded(small_index, monkeypatch):
    monkeypatch.setattr(bounds, "OUTPUT_BYTES", 20_000)
    text = "".join(f"ValueError: distinct failure number {i} of many\n" for i in range(150))
    exps = explain_text_bounded(text, small_index)[0]
    for fmt in ("text", "json", "rich"):
        ctx = _ctx(fmt)
        emit_explanations(ctx, exps)
        assert len(ctx.stdout.getvalue()) <= 20_000, fmt
        assert "limited to 20,000" in ctx.stderr.getvalue(), fmt
    assert "number 149 " in ctx.stdout.getvalue() or fmt == "rich"


def test_explain_reports_the_errors_left_out(monkeypatch, small_index):
    monkeypatch.setattr(explain, "open_catalog", lambda ctx: small_index)
    monkeypatch.setattr(bounds, "ERRORS", 5)
    monkeypatch.setattr("errexplain.explainer.ERRORS", 5)
    stdin = "".join(f"ValueError: distinct failure number {i}\n" for i in range(9)).encode()
    ctx = _ctx("text", stdin)
    explain.run(ctx, "-")
    assert "explained the first 4 and the last; 4 more were left out" in ctx.stderr.getvalue()
