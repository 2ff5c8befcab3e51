"""The verification harness's own logic (tools/verify), without the verify venv: turning bash
examples into code, judging fake outcomes, writing `verified` records, the model fixtures."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

VERIFY = Path(__file__).resolve().parents[2] / "tools" / "verify"
sys.path.insert(0, str(VERIFY))

import check  # noqa: E402
import fixtures  # noqa: E402
import harness  # noqa: E402
import record  # noqa: E402
import run  # noqa: E402
import serve  # noqa: E402

from errexplain.catalog.memory import MemoryCatalog  # noqa: E402
from errexplain.models import Entry, Source  # noqa: E402

PATH = "sglang/srt/arg_groups/serving_hook.py"


def _entry(eid: str, template: str, lineage: str | None = None, line: int = 10) -> Entry:
    src = Source("sglang", "0.5.23", PATH, line, "handle_serving", None)
    return Entry(eid, "sglang", "ValueError", template, src, lineage=lineage)


KEY = _entry("00000000000000a1", "--ssl-keyfile requires --ssl-certfile to be specified as well.")
OLD = _entry("00000000000000a2", "--ssl-keyfile needs --ssl-certfile", lineage=KEY.id, line=20)
CERT = _entry(
    "00000000000000b1", "--ssl-certfile requires --ssl-keyfile to be specified as well.", line=30
)


@pytest.fixture(scope="module")
def catalog():
    return MemoryCatalog((KEY, OLD, CERT))


def _tb(message: str, exc: str = "ValueError") -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "<before>", line 5, in <module>\n'
        "    server_args.resolve_once()\n"
        f'  File "/v/lib/python3.11/site-packages/{PATH}", line 10, in handle_serving\n'
        "    raise ValueError(\n"
        f"{exc}: {message}\n"
    )


# --- bash examples to flags ------------------------------------------------------------


def test_continuations_comments_and_env():
    cmd = harness.parse_command(
        "# on H100\nSGLANG_X=1 FOO=a=b python -m sglang.launch_server \\\n"
        "  --model-path Qwen/Qwen3-8B \\\n  --tp-size 2   # two GPUs\n"
    )
    assert cmd.env == (("SGLANG_X", "1"), ("FOO", "a=b"))
    assert cmd.argv == ("--model-path", "Qwen/Qwen3-8B", "--tp-size", "2")


@pytest.mark.parametrize(
    "text",
    [
        "python3 -m sglang.launch_server --model-path M --port 1",
        "sglang serve --model-path M --port 1",
        "sglang serve M --port 1",
    ],
)
def test_launchers(text):
    assert harness.parse_command(text).argv == ("--model-path", "M", "--port", "1")


def test_quoted_json_flag_survives():
    cmd = harness.parse_command(
        """python -m sglang.launch_server --model-path M --lora-paths '{"name": "a"}'"""
    )
    assert cmd.argv[-1] == '{"name": "a"}'


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("docker run x python -m sglang.launch_server --model-path M", "not a launch command"),
        ("export A=1\nsglang serve --model-path M", "export"),
        ("sglang serve --model-path A\nsglang serve --model-path B", "found 2"),
        ("", "found 0"),
        ("sglang serve --model-path 'M", "cannot split"),
    ],
)
def test_not_runnable(text, why):
    with pytest.raises(harness.NotRunnable, match=why):
        harness.parse_command(text)


def test_model_flags_go_through_the_fixture():
    src = harness.argv_source(
        ("--model-path", "Qwen/Qwen3-8B", "--speculative-draft-model-path=D", "--tp-size", "8")
    )
    assert src == (
        "['--model-path', verify_fixtures.hub_model('Qwen/Qwen3-8B'), "
        "'--speculative-draft-model-path=' + verify_fixtures.hub_model('D'), '--tp-size', '8']"
    )


def test_bash_code_runs_prepare_and_resolve():
    env, code = harness.bash_code("A=1 sglang serve --model-path M --port 1")
    assert env == {"A": "1"}
    assert "prepare_server_args(['--model-path', verify_fixtures.hub_model('M')" in code
    assert "server_args.resolve_once()\nserver_args.check_server_args()" in code
    compile(code, "<code>", "exec")


def test_serve_takes_expressions_for_the_model_and_expr_flags():
    draft = serve.Expr("verify_fixtures.model_dir('X', model_type='x')")
    code = serve.serve(serve.arch_model("A", "a", n=1), "--draft", draft, "--tp-size", "2")
    assert (
        "prepare_server_args(['--model-path', verify_fixtures.model_dir('A', model_type='a',"
        " n=1), '--draft', verify_fixtures.model_dir('X', model_type='x'), '--tp-size', '2'])"
    ) in code
    assert code.startswith(harness.SERVER_ARGS_CODE.split("{argv}")[0])
    compile(code, "<code>", "exec")
    assert serve.QWEN3_NEXT.startswith("verify_fixtures.model_dir('Qwen3NextForCausalLM', ")


def test_half_code_languages():
    assert harness.half_code("x = 1\n", "python") == ({}, "x = 1\n")
    assert harness.half_code("x = 1\n", "auto") == ({}, "x = 1\n")
    assert "prepare_server_args" in harness.half_code("sglang serve --model-path M", "auto")[1]
    with pytest.raises(harness.NotRunnable, match="yaml"):
        harness.half_code("a: 1", "yaml")


def test_case_checks_the_id():
    assert harness.case("0123456789abcdef").before is None
    with pytest.raises(ValueError, match="16-hex"):
        harness.case("grid_mismatch")


# --- judging outcomes --------------------------------------------------------------------


def test_before_passes_on_the_entry(catalog):
    half = check.Half("raised", _tb(KEY.template))
    v = check.judge_before(half, KEY, catalog)
    assert v.ok, v.detail


def test_before_accepts_another_wording_of_the_check(catalog):
    half = check.Half("raised", _tb("--ssl-keyfile needs --ssl-certfile"))
    assert check.judge_before(half, KEY, catalog).ok


def test_before_fails_on_another_entry(catalog):
    half = check.Half("raised", _tb(CERT.template))
    v = check.judge_before(half, KEY, catalog)
    assert not v.ok
    assert CERT.id in v.detail


@pytest.mark.parametrize("status", ["ok", "timeout", "setup", "crash"])
def test_before_fails_without_an_error(catalog, status):
    assert not check.judge_before(check.Half(status), KEY, catalog).ok


def test_before_expect_regex(catalog):
    half = check.Half("raised", _tb(KEY.template))
    assert check.judge_before(half, KEY, catalog, expect=r"ssl-keyfile").ok
    assert not check.judge_before(half, KEY, catalog, expect=r"tp_size").ok


def test_the_last_error_decides(catalog):
    text = _tb(KEY.template) + "\nDuring handling of the above exception...\n" + _tb(CERT.template)
    assert check.judge_before(check.Half("raised", text), CERT, catalog).ok


def test_argparse_exit_text(catalog):
    text = "usage: sglang serve [-h]\nsglang serve: error: argument --port: invalid int value\n"
    v = check.judge_before(check.Half("exit", text), KEY, catalog)
    assert not v.ok


def test_after(catalog):
    assert check.judge_after(check.Half("ok"), KEY, catalog).ok
    other = check.judge_after(check.Half("raised", _tb(CERT.template)), KEY, catalog)
    assert other.ok
    assert "other error" in other.detail
    assert not check.judge_after(check.Half("raised", _tb(KEY.template)), KEY, catalog).ok
    assert not check.judge_after(check.Half("timeout"), KEY, catalog).ok


# --- recording -----------------------------------------------------------------------------

YAML = """module: m.py
entries:
- id: 00000000000000a1
  exception: ValueError
  example_fix:
    language: bash
    before: 'sglang serve --model-path M

      '
  examples:
  - 'a b'
- id: 00000000000000b1
  exception: ValueError
  verified:
    how: read
    release: 0.5.22
    read: [f]
"""


def test_set_verified_appends_last_and_keeps_the_rest():
    ref = "tools/verify/cases/serving_hook.py::00000000000000a1"
    out = record.set_verified(YAML, "00000000000000a1", ref, "0.5.23")
    assert out.startswith(YAML.split("- id: 00000000000000b1")[0].rstrip("\n"))
    assert (
        "  - 'a b'\n  verified:\n    how: run\n    release: 0.5.23\n"
        f"    case: {ref}\n- id: 00000000000000b1\n"
    ) in out
    assert record.set_verified(out, "00000000000000a1", ref, "0.5.23") == out


def test_set_verified_replaces_a_read_record_at_the_end():
    out = record.set_verified(YAML, "00000000000000b1", "c.py::x", "0.5.23")
    assert out.endswith(
        "  exception: ValueError\n  verified:\n    how: run\n"
        "    release: 0.5.23\n    case: c.py::x\n"
    )
    assert "how: read" not in out


def test_set_verified_quotes_a_release_that_reads_as_a_number():
    out = record.set_verified(YAML, "00000000000000b1", "c.py::x", "3.11")
    assert out.endswith("    how: run\n    release: '3.11'\n    case: c.py::x\n")
    assert "release: 2.13.0\n" in record.set_verified(YAML, "00000000000000b1", "c", "2.13.0")


def test_set_verified_unknown_id():
    with pytest.raises(KeyError):
        record.set_verified(YAML, "ffffffffffffffff", "c", "0.5.23")


def test_write_verified(tmp_path):
    path = tmp_path / "m.yaml"
    path.write_text(YAML, encoding="utf-8")
    assert record.write_verified(path, "00000000000000a1", "c.py::x", "0.5.23")
    assert not record.write_verified(path, "00000000000000a1", "c.py::x", "0.5.23")


def test_recorded_release_is_the_entry_projects(monkeypatch):
    monkeypatch.setattr(run, "venv_python", lambda: sys.executable)
    releases = run.installed_releases()
    python = f"{sys.version_info[0]}.{sys.version_info[1]}"
    assert releases["python"] == python
    assert run.release_of("python", releases) == python  # not sglang's release
    assert run.release_of("sglang", {}) == harness.RELEASE
    assert run.release_of("torch", {"torch": "2.13.0"}) == "2.13.0"


# --- fixtures and case loading ---------------------------------------------------------


def test_model_dir_merges_and_caches(tmp_path, monkeypatch):
    monkeypatch.setenv("ERREXPLAIN_VERIFY_MODELS", str(tmp_path))
    a = fixtures.model_dir("Qwen3ForCausalLM", num_attention_heads=6, rope_theta=None)
    assert fixtures.model_dir("Qwen3ForCausalLM", num_attention_heads=6, rope_theta=None) == a
    cfg = json.loads((Path(a) / "config.json").read_text())
    assert cfg["architectures"] == ["Qwen3ForCausalLM"]
    assert cfg["model_type"] == "qwen3"
    assert cfg["num_attention_heads"] == 6
    assert "rope_theta" not in cfg
    tok = json.loads((Path(a) / "tokenizer.json").read_text())
    assert tok["model"]["vocab"]["<unk>"] == 0
    with pytest.raises(ValueError, match="model_type"):
        fixtures.model_dir("NoSuchForCausalLM")


def test_hub_model(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("ERREXPLAIN_VERIFY_MODELS", str(tmp_path))
    d = fixtures.hub_model("Qwen/Qwen3-32B")
    assert json.loads((Path(d) / "config.json").read_text())["num_attention_heads"] == 64
    assert "DeepseekV3" in fixtures.hub_model("deepseek-ai/DeepSeek-R1-Zero")
    assert fixtures.hub_model(d) == d
    assert fixtures.hub_model("dummy") == "dummy"
    assert "LlamaForCausalLM" in fixtures.hub_model("my-org/custom-llm")
    assert "no fixture" in capsys.readouterr().err


def test_stub_sgl_kernel_imports_submodules_once(monkeypatch):
    import importlib

    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    before = set(sys.modules)
    try:
        fixtures.stub_sgl_kernel()
        fixtures.stub_sgl_kernel()
        assert sum(getattr(f, "verify_sgl_kernel_stub", False) for f in sys.meta_path) == 1
        module = importlib.import_module("sgl_kernel.kvcacheio")
        assert module.transfer_kv_all_layer(1, layer=2) is None
        with pytest.raises(AttributeError):
            module.__wrapped__  # noqa: B018
    finally:
        for name in set(sys.modules) - before:
            if name.split(".")[0] == "sgl_kernel":
                del sys.modules[name]


def test_case_files_load_and_name_their_group():
    cases = run.load_cases()
    assert cases
    assert all(c.group and (VERIFY / "cases" / f"{c.group}.py").is_file() for c in cases)
    refs = [run.case_ref(c) for c in cases]
    assert len(refs) == len(set(refs))


def test_make_units_env_and_unrunnable():
    from errexplain.models import ExampleFix

    e = _entry("00000000000000c1", "x")
    bash = Entry(
        e.id,
        "sglang",
        "ValueError",
        "x",
        e.source,
        example_fix=ExampleFix("A=1 sglang serve --model-path M", "sglang serve M", "bash"),
    )
    yaml_fix = Entry(
        "00000000000000c2",
        "sglang",
        "ValueError",
        "y",
        e.source,
        example_fix=ExampleFix("a: 1", "a: 2", "yaml"),
    )
    cases = [
        harness.case(bash.id, gpu="B200"),
        harness.case(yaml_fix.id),
        harness.case(yaml_fix.id, before="raise ValueError('y')", after="pass"),
    ]
    units, broken = run.make_units(cases, [bash, yaml_fix, yaml_fix], 10.0)
    assert broken == {1: "not runnable: a yaml example: give the case's before/after explicitly"}
    by = {(u.index, u.half): u for u in units}
    assert set(by) == {(0, "before"), (0, "after"), (2, "before"), (2, "after")}
    assert dict(by[0, "before"].env) == {"A": "1", harness.GPU_ENV: "B200"}
    assert dict(by[0, "after"].env) == {harness.GPU_ENV: "B200"}
    assert by[2, "before"].env == ()
    assert by[2, "before"].job["code"] == "raise ValueError('y')"
