"""Issue 12: the conventions a command-line user expects, and the rough edges a new user hit.
Each test drives the real command line: run_argv (the boundary included) under click's test
isolation, or a subprocess, in a pseudo-terminal (the stdlib pty module) where a terminal
matters."""

from __future__ import annotations

import itertools
import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tests.interrupts import INTERRUPTED, ctrl_c, start
from typer.testing import CliRunner

from errexplain.cli import run_argv

REPO = Path(__file__).parent.parent.parent
KIMI_LOG = REPO / "examples" / "kimi_k3_multirank.log"
FENCED = REPO / "examples" / "hunyuan_qkv_fenced.md"
SMALL = REPO / "tests" / "data" / "catalog"
KIMI_ID = "410dccf11ac35f1e"


class Result:
    def __init__(self, exit_code: int, stdout: str, stderr: str) -> None:
        self.exit_code, self.stdout, self.stderr = exit_code, stdout, stderr


def run(args, input=None):
    with CliRunner().isolation(input=input) as (out, err, _):
        code = run_argv(["errexplain", *args])
        sys.stdout.flush()
        sys.stderr.flush()
        return Result(int(code), out.getvalue().decode(), err.getvalue().decode())


def _child(args, env, cols, rows):  # pragma: no cover - runs in the forked child
    os.environ.update({"COLUMNS": str(cols), "LINES": str(rows), **env})
    for var in ("NO_COLOR", "FORCE_COLOR", "PAGER", "ERREXPLAIN_PAGER"):
        if var not in env:
            os.environ.pop(var, None)
    os.execv(sys.executable, [sys.executable, "-m", "errexplain", *args])


def _read(fd, wait):
    """What the terminal shows within `wait` seconds (b"" when nothing or closed)."""
    if not select.select([fd], [], [], wait)[0]:
        return b""
    try:
        return os.read(fd, 65536)
    except OSError:  # EIO: the child closed the terminal
        return b""


def in_terminal(args, *, env=None, stdin_text=None, cols=80, rows=24, timeout=120.0):
    """Run `python -m errexplain ARGS` with stdin, stdout and stderr on a pseudo-terminal;
    returns (exit code, everything the terminal showed)."""
    import fcntl
    import struct
    import termios

    env = {"PAGER": "cat", **(env or {})}  # `less` would wait for keys nobody presses
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        _child(args, env, cols, rows)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    if stdin_text is not None:
        os.write(fd, stdin_text.encode() + b"\x04")  # Ctrl-D: end of input
    out, status = b"", None
    deadline = time.monotonic() + timeout
    while status is None and time.monotonic() < deadline:
        chunk = _read(fd, 0.5)
        out += chunk
        if not chunk:
            done, st = os.waitpid(pid, os.WNOHANG)
            status = st if done else None
    if status is None:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    while chunk := _read(fd, 0.1):  # what it wrote last
        out += chunk
    os.close(fd)
    if status is None:
        pytest.fail(f"errexplain {args} did not finish: {out[-500:]!r}")
    return os.waitstatus_to_exitcode(status), out.decode("utf-8", "replace")


# ------------------------------------------------------------------------------ conventions


def test_version_and_short_help():
    from errexplain import __version__

    r = run(["--version"])
    assert r.exit_code == 0 and r.stdout == f"errexplain {__version__}\n"
    r = run(["-h"])
    assert r.exit_code == 0 and "Usage: errexplain" in r.stdout
    r = run(["search", "-h"])
    assert r.exit_code == 0 and "--limit" in r.stdout


def test_help_lists_the_exit_codes():
    out = " ".join(run(["--help"]).stdout.split())
    for text in ("Exit codes:", "0 explained", "1 nothing matched", "2 usage error", "3 internal"):
        assert text in out
    assert "130 interrupted" in out


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts(shell):
    r = run(["completion", shell])
    assert r.exit_code == 0 and "_ERREXPLAIN_COMPLETE" in r.stdout


def test_completion_install_writes_the_script(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    r = run(["completion", "fish", "--install"])
    assert r.exit_code == 0, r.stderr
    script = tmp_path / ".config" / "fish" / "completions" / "errexplain.fish"
    assert "_ERREXPLAIN_COMPLETE" in script.read_text()
    assert run(["completion", "tcsh"]).exit_code == 2


def test_completion_requests_are_answered():
    env = {**os.environ, "_ERREXPLAIN_COMPLETE": "complete_bash"}
    env.update(COMP_WORDS="errexplain se", COMP_CWORD="1")
    r = subprocess.run(
        [sys.executable, "-m", "errexplain"], env=env, capture_output=True, text=True, check=False
    )
    assert "search" in r.stdout
    env = {**os.environ, "_ERREXPLAIN_COMPLETE": "bash_source"}  # click's spelling (the issue's)
    r = subprocess.run(
        [sys.executable, "-m", "errexplain"],
        env=env,
        input="",
        capture_output=True,
        text=True,
        check=False,
    )
    assert "complete -o default -F _errexplain_completion errexplain" in r.stdout


def test_a_typo_suggests_once():
    r = run(["explian"])
    assert r.exit_code == 2
    assert r.stderr.count("Did you mean 'explain'?") == 1


# -------------------------------------------------------------------------- files and pipes


def test_errexplain_file_and_several_files(tmp_path):
    r = run([str(KIMI_LOG)])
    assert r.exit_code == 0 and "kimi_k3.py:360" in r.stdout
    r = run([str(KIMI_LOG), str(FENCED)])
    assert r.exit_code == 0
    assert f"==> {KIMI_LOG} <==" in r.stdout and f"==> {FENCED} <==" in r.stdout
    r = run(["explain", "--json", str(KIMI_LOG), str(FENCED)])
    doc = json.loads(r.stdout)
    assert [i["name"] for i in doc["inputs"]] == [str(KIMI_LOG), str(FENCED)]
    assert {e["input"] for e in doc["errors"]} == {0, 1}


def test_several_files_one_without_an_error(tmp_path):
    empty = tmp_path / "hello.txt"
    empty.write_text("hello\n")
    r = run([str(empty), str(KIMI_LOG)])
    assert r.exit_code == 0 and "warning: no Python exception found in" in r.stderr
    r = run([str(empty), str(empty)])
    assert r.exit_code == 1 and "in any of the 2 inputs" in r.stderr


def test_flags_on_the_bare_pipe():
    text = KIMI_LOG.read_text()
    doc = json.loads(run(["--json"], input=text).stdout)
    assert doc["schema"] == 1 and doc["errors"][0]["matches"][0]["id"] == KIMI_ID
    assert "Match 2 of 2" in run(["-v"], input=text).stdout
    assert run(["--format", "json"], input=text).stdout.startswith("{")
    assert run(["--format=text", "--cutoff=0.9"], input=text).exit_code == 0
    r = run(["--cutoff", "2"], input=text)
    assert r.exit_code == 2 and r.stderr.startswith("errexplain: --cutoff 2: expected a number")
    r = run(["--format", "yaml"], input=text)
    assert r.exit_code == 2 and "unknown format" in r.stderr
    r = run(["--release", "sglang=0.5.23"], input=text)  # not a fast flag: Typer serves it
    assert r.exit_code == 0 and "as stated" in r.stdout


def test_bare_pipe_flags_do_not_import_typer_or_rich():
    code = (
        "import sys, runpy; sys.argv = ['errexplain', '--json', '-v', '--format', 'json', "
        "'--cutoff', '0.8']; from errexplain.cli import run_argv; rc = run_argv(sys.argv); "
        "bad = [m for m in ('typer', 'click', 'rich', 'json.decoder', 're') if m in sys.modules]"
        "; sys.stderr.write(repr(bad)); sys.exit(rc)"
    )
    r = subprocess.run(
        [sys.executable, "-c", code],
        input=KIMI_LOG.read_text(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    loaded = eval(r.stderr.strip().splitlines()[-1])
    assert "typer" not in loaded and "click" not in loaded and "rich" not in loaded


def test_cutoff_out_of_range_is_a_usage_error():
    r = run(["explain", "--cutoff", "2", str(KIMI_LOG)])
    assert r.exit_code == 2 and "0.0<=x<=1.0" in r.stderr


def test_no_exception_in_the_text_exits_1_not_2():
    r = run([], input="hello\n")
    assert r.exit_code == 1
    assert r.stderr.startswith("errexplain: no Python exception found in stdin")
    assert run(["explain", "-"], input="hello\n").exit_code == 1
    assert run(["explain", "-"], input="").exit_code == 2  # empty input stays bad input


def test_prompt_when_stdin_is_a_terminal():
    code, shown = in_terminal(
        ["explain"], stdin_text="ValueError: Kimi-K3 encoder mode supports image input only\n"
    )
    assert "paste a traceback or log, then press Ctrl-D" in shown
    assert code == 0 and "358dc61c92d77fb6" in shown


def _wait_for_workers(pid: int, timeout: float = 60.0) -> None:
    """Until the process has forked its YAML workers (Linux: /proc lists its children)."""
    children = f"/proc/{pid}/task/{pid}/children"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with open(children) as fh:
            if fh.read().split():
                return
        time.sleep(0.02)
    raise AssertionError("no loader workers started")


def test_ctrl_c_while_the_catalog_loads_is_quiet(tmp_path):
    """Ctrl-C while the index is built: interrupted, one line at most, no traceback, and no
    hang (the workers are forked children with a pipe each, killed and reaped on the way out).
    The signal is sent once the YAML workers run; a build that ends in that instant is a
    finished run (exit 0, its answer printed), so the interrupt is tried again, up to three
    times, with an empty cache each time.

    Interrupted: see tests.interrupts.INTERRUPTED (in about one run in twenty, 3.10 and 3.11
    alike, an end by SIGINT itself; under strace or /proc polling it does not happen)."""
    codes = []
    for attempt in range(3):
        cache = tmp_path / str(attempt)  # an empty cache: YAML workers
        env = {**os.environ, "ERREXPLAIN_CACHE_DIR": str(cache)}
        proc = start([sys.executable, "-m", "errexplain", str(KIMI_LOG)], env=env)
        _wait_for_workers(proc.pid)  # the build is under way (a fixed sleep raced a fast build)
        out, err = ctrl_c(proc)
        assert b"Traceback" not in err
        codes.append(proc.returncode)
        if proc.returncode == 0:  # finished before the signal landed: a whole answer
            assert b"Kimi-K3 processor feature length" in out
            continue
        assert proc.returncode in INTERRUPTED and len(err.splitlines()) <= 1
        break
    assert set(INTERRUPTED) & set(codes), codes


# ---------------------------------------------------------------------- colour and the pager


def test_no_color_on_a_terminal():
    code, shown = in_terminal([str(FENCED)], env={"NO_COLOR": "1", "PAGER": "cat"})
    assert code == 0 and "╭" in shown  # Rich panels: a terminal
    assert "\x1b[3" not in shown and "\x1b[9" not in shown  # no foreground colour
    code, coloured = in_terminal([str(FENCED)], env={"PAGER": "cat"})
    assert "\x1b[" in coloured


def test_term_dumb_and_no_color_flag():
    _, shown = in_terminal([str(FENCED)], env={"TERM": "dumb", "PAGER": "cat"})
    assert "\x1b[3" not in shown
    _, shown = in_terminal(["--no-color", str(FENCED)], env={"PAGER": "cat"})
    assert "\x1b[3" not in shown


def test_force_color_when_piped():
    r = subprocess.run(
        [sys.executable, "-m", "errexplain", str(FENCED)],
        env={**os.environ, "FORCE_COLOR": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 0 and "\x1b[" in r.stdout


def _pager_script(tmp_path: Path) -> tuple[str, Path]:
    seen = tmp_path / "paged.txt"
    return f"cat > {seen}", seen


def test_pager_for_a_long_answer(tmp_path):
    pager, seen = _pager_script(tmp_path)
    code, shown = in_terminal([str(KIMI_LOG)], env={"ERREXPLAIN_PAGER": pager, "PAGER": "no"})
    assert code == 0 and "kimi_k3.py" in seen.read_text() and "kimi_k3.py" not in shown
    seen.unlink()
    code, shown = in_terminal([str(KIMI_LOG)], env={"PAGER": pager})
    assert seen.exists()


def test_no_pager_flag_and_short_answers(tmp_path):
    pager, seen = _pager_script(tmp_path)
    code, shown = in_terminal(["--no-pager", str(KIMI_LOG)], env={"PAGER": pager})
    assert code == 0 and not seen.exists() and "kimi_k3.py" in shown
    code, shown = in_terminal(["--brief", str(KIMI_LOG)], env={"PAGER": pager}, rows=40)
    assert code == 0 and not seen.exists() and KIMI_ID in shown  # it fits: no pager


def test_never_a_pager_when_piped(tmp_path, monkeypatch):
    pager, seen = _pager_script(tmp_path)
    monkeypatch.setenv("PAGER", pager)
    r = subprocess.run(
        [sys.executable, "-m", "errexplain", str(KIMI_LOG)],
        env={**os.environ, "PAGER": pager},
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 0 and "kimi_k3.py" in r.stdout and not seen.exists()


# ------------------------------------------------------------------------ ids, brief, limits


def test_unique_id_prefix():
    r = run(["show", KIMI_ID[:6]])
    assert r.exit_code == 0 and r.stdout.startswith(KIMI_ID)
    r = run(["related", "735fe565"])
    assert r.exit_code == 0 and "Related to 735fe565ca74ec12" in r.stdout


def test_ambiguous_or_short_prefix():
    from errexplain.catalog.store import load

    ids = sorted(c.id for c in load(()).candidates())
    shared = next(a[:6] for a, b in itertools.pairwise(ids) if a[:6] == b[:6])
    r = run(["show", shared])
    assert r.exit_code == 2 and f"the id prefix {shared} is ambiguous: {shared}" in r.stderr
    r = run(["show", KIMI_ID[:5]])
    assert r.exit_code == 2 and "no catalog entry has the id" in r.stderr


def test_brief_one_line_per_error():
    r = run(["--brief", str(KIMI_LOG)])
    assert r.exit_code == 0
    [line] = r.stdout.splitlines()
    assert line.startswith(f"2x  {KIMI_ID} 1.00  ValueError: Kimi-K3 processor")
    assert "-- The Kimi-K3 image preprocessor" in line
    r = run(["--brief"], input="ValueError: qwxyz nothing like it\n")
    assert r.exit_code == 1 and "(no match)" in r.stdout


def test_limit_means_the_same_everywhere():
    for cmd in (["search", "feature", "length"], ["list", "--project", "python"]):
        assert run([*cmd, "--limit", "-1"]).exit_code == 2
        one = run([*cmd, "--limit", "1"]).stdout.splitlines()
        every = run([*cmd, "--limit", "0"]).stdout.splitlines()
        assert len(one) == 2 and len(every) > 20
    assert run(["search", "feature", "length", "--limit", "0"]).exit_code == 0


def test_filters_ignore_case():
    r = run(["list", "--project", "Torch", "--type", "valueerror"])
    assert r.exit_code == 0 and "ValueError" in r.stdout
    r = run(["list", "--project", "nope"])
    assert r.exit_code == 1 and "hint: no project is called 'nope'" in r.stderr


def test_terminal_width_with_an_ellipsis():
    code, shown = in_terminal(["search", "feature", "length", "image", "grids"], cols=60)
    lines = [ln for ln in shown.replace("\r", "").splitlines() if ln]
    assert code == 0 and all(len(ln) <= 60 for ln in lines)
    assert any(ln.endswith("…") for ln in lines)
    piped = run(["search", "feature", "length", "image", "grids"]).stdout
    assert "{sum(patch_counts)}" in piped  # piped: whole lines, for grep


def test_test_file_entries_marked_and_ranked_after_library_code():
    r = run(["search", "CUDA", "out", "of", "memory", "--limit", "3"])
    assert "test_" not in r.stdout and "torch" in r.stdout
    r = run(["search", "CUDA", "out", "of", "memory", "--limit", "0", "--json"])
    rows = json.loads(r.stdout)["entries"]
    tests = [k for k, row in enumerate(rows) if row["test_file"]]
    assert tests and any(not row["test_file"] for row in rows[: tests[0]])
    assert any(
        "(a test file of the project)" in ln
        for ln in run(["search", "CUDA", "out", "of", "memory", "--limit", "0"]).stdout.splitlines()
    )


# ------------------------------------------------------------------------------ snippets


def test_snippet_from_the_catalog():
    r = run([str(KIMI_LOG)])
    assert "Code (sglang 0.5.23 as released, from the catalog; Apache-2.0):" in r.stdout
    assert "> 360 |             raise ValueError(" in r.stdout
    doc = json.loads(run(["--json", str(KIMI_LOG)]).stdout)
    snip = doc["errors"][0]["snippet"]
    assert snip["origin"] == "catalog" and snip["raise_line"] == 360
    assert run(["show", KIMI_ID]).stdout.count("> 360 |") == 1


def test_snippet_from_the_installed_file(tmp_path):
    src = REPO.parent / "src" / "sglang-0.5.23" / "sglang/srt/multimodal/processors/kimi_k3.py"
    lines = ["# my copy"] * 359 + [
        "            raise ValueError(  # patched here",
        '                "Kimi-K3 processor feature length does not match image grids: "',
    ]
    if src.is_file():
        lines = ["# my copy"] * 359 + src.read_text().splitlines()[359:]
    f = tmp_path / "site" / "sglang/srt/multimodal/processors/kimi_k3.py"
    f.parent.mkdir(parents=True)
    f.write_text("\n".join(lines) + "\n")
    tb = (
        "Traceback (most recent call last):\n"
        f'  File "{f}", line 360, in prepare_image_features\n'
        "    raise ValueError(\n"
        "ValueError: Kimi-K3 processor feature length does not match image grids: 5824 != 5760\n"
    )
    r = run([], input=tb)
    assert f"Code (your installed copy: {f}):" in r.stdout
    assert "  356 | # my copy" in r.stdout
    f.write_text("\n".join(["# my copy"] * 400) + "\n")  # the line no longer raises
    r = run([], input=tb)
    assert "from the catalog" in r.stdout and "your installed copy" not in r.stdout


def test_snippet_license_ships_beside_it():
    pkg = REPO / "src" / "errexplain" / "_snippets"
    assert "Apache License" in (pkg / "sglang.LICENSE").read_text()


# --------------------------------------------------------------------------- catalog, JSON


def test_catalog_lint_exits_1_on_findings_with_max():
    r = run(["catalog", "lint", str(SMALL)])
    assert r.exit_code == 1 and "too generic: 1 (over --max 0)" in r.stdout
    assert run(["catalog", "lint", str(SMALL), "--max", "2"]).exit_code == 0
    r = run(["catalog", "lint", str(SMALL), "--max", "too-generic=1"])
    assert r.exit_code == 1 and "duplicate templates: 2 (over --max 0)" in r.stdout
    r = run(
        ["catalog", "lint", str(SMALL), "--max", "too-generic=1", "--max", "duplicate-templates=2"]
    )
    assert r.exit_code == 0
    r = run(["catalog", "lint", str(SMALL), "--max", "bogus=1"])
    assert r.exit_code == 2 and r.stderr.startswith("errexplain: --max bogus=1")


def test_extract_dry_run_shows_messages_unescaped(tmp_path):
    pkg = tmp_path / "src" / "mypkg"
    pkg.mkdir(parents=True)
    (pkg / "mod.py").write_text(
        "def f(x):\n    if x > 255:\n        raise ValueError(f'x must be <= 255, got {x}')\n"
    )
    r = run(
        [
            "catalog",
            "extract",
            str(tmp_path / "src"),
            "--project",
            "mypkg",
            "--version",
            "1.0",
            "--out",
            str(tmp_path / "out"),
            "--dry-run",
        ]
    )
    assert r.exit_code == 0, r.stderr
    assert "ValueError: x must be <= 255, got {x}" in r.stdout
    assert "<<" not in r.stdout


KINDS = {
    "string": str,
    "integer": int,
    "number": (int, float),
    "boolean": bool,
    "object": dict,
    "array": list,
    "null": type(None),
}


def _resolve(schema, root):
    node = root
    for key in schema["$ref"].removeprefix("#/").split("/"):
        node = node[key]
    return node


def _scalar_errors(value, schema, path):
    kind = schema.get("type")
    if kind and (
        not isinstance(value, KINDS[kind])
        or (kind in ("integer", "number") and isinstance(value, bool))
    ):
        return [f"{path}: expected {kind}, got {value!r:.60}"]
    if "const" in schema and value != schema["const"]:
        return [f"{path}: expected {schema['const']!r}"]
    if "enum" in schema and value not in schema["enum"]:
        return [f"{path}: {value!r} not in {schema['enum']}"]
    return []


def _object_errors(value, schema, root, path):
    errors = [f"{path}: missing {k}" for k in schema.get("required", []) if k not in value]
    props, extra = schema.get("properties", {}), schema.get("additionalProperties", True)
    for k, v in value.items():
        if k in props:
            errors += _validate(v, props[k], root, f"{path}.{k}")
        elif extra is False:
            errors.append(f"{path}: unexpected key {k}")
        elif isinstance(extra, dict):
            errors += _validate(v, extra, root, f"{path}.{k}")
    return errors


def _validate(value, schema, root, path="$"):
    """A small JSON Schema checker: the keywords schema.json uses."""
    if "$ref" in schema:
        return _validate(value, _resolve(schema, root), root, path)
    if "anyOf" in schema:
        errors = [_validate(value, s, root, path) for s in schema["anyOf"]]
        return [] if any(not e for e in errors) else min(errors, key=len)
    errors = _scalar_errors(value, schema, path)
    if not errors and isinstance(value, dict):
        errors = _object_errors(value, schema, root, path)
    if not errors and isinstance(value, list) and "items" in schema:
        for i, v in enumerate(value):
            errors += _validate(v, schema["items"], root, f"{path}[{i}]")
    return errors


JSON_COMMANDS = [
    ["explain", "--json", str(KIMI_LOG)],
    ["--json", str(KIMI_LOG), str(FENCED)],
    ["lookup", "--json", "16 is not divisible by 6"],
    ["scan", "--json", str(KIMI_LOG), str(FENCED)],
    ["show", "--json", KIMI_ID],
    ["related", "--json", KIMI_ID],
    ["search", "--json", "feature", "length"],
    ["list", "--json", "--project", "python", "--limit", "3"],
    ["catalog", "stats", "--json"],
    ["catalog", "check", "--json", str(SMALL)],
    ["catalog", "lint", "--json", str(SMALL)],
]


@pytest.mark.parametrize("args", JSON_COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_every_json_output_has_schema_and_fits_the_shipped_json_schema(args):
    root = json.loads((REPO / "src" / "errexplain" / "schema.json").read_text())
    doc = json.loads(run(args).stdout)
    assert doc["schema"] == 1
    assert _validate(doc, root, root) == []
    stats = json.loads(run(["catalog", "stats", "--json"]).stdout)["stats"]
    assert all(" " not in k for k in stats)


NO_ERROR = (
    "We deployed the scheduler on two nodes and nothing crashes, but under load\n"
    "it said memory pool leak detected at some point and then hung.\n"
)


def test_a_text_with_no_error_is_answered_in_json_too(tmp_path):
    """`explain --json` on a text with no error in it writes a document on stdout (no errors,
    its input, the guesses nearest to its lines) beside the one-line message on stderr, exit 1:
    a consumer of the JSON never reads an empty stdout. With several inputs, each guess says
    its input's index."""
    root = json.loads((REPO / "src" / "errexplain" / "schema.json").read_text())
    for args, text in ((["explain", "--json", "-"], NO_ERROR), (["--json"], "hello\n")):
        r = run(args, input=text)
        assert r.exit_code == 1 and "no Python exception found in stdin" in r.stderr
        doc = json.loads(r.stdout)
        assert doc["errors"] == [] and doc["input"]["name"] == "stdin"
        assert _validate(doc, root, root) == []
    guesses = json.loads(run(["explain", "--json", "-"], input=NO_ERROR).stdout)["guesses"]
    assert guesses and guesses == sorted(guesses, key=lambda g: -g["score"])
    assert all(g["line"] == 2 and "input" not in g for g in guesses)
    assert "memory leak detected" in guesses[0]["template"] and guesses[0]["score"] < 0.9
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("hello\n")
    b.write_text(NO_ERROR)
    r = run(["explain", "--json", str(a), str(b)])
    doc = json.loads(r.stdout)
    assert r.exit_code == 1 and [i["name"] for i in doc["inputs"]] == [str(a), str(b)]
    assert doc["guesses"] and all(g["input"] == 1 for g in doc["guesses"])
    assert _validate(doc, root, root) == []
    r = run(["scan", "--json", str(a)])
    doc = json.loads(r.stdout)
    assert r.exit_code == 1 and "no Python error found in 1 file(s)" in r.stderr
    assert doc["errors"] == [] and doc["input"]["files"] == [str(a)]
    assert _validate(doc, root, root) == []
    # (in text, stdout stays empty: the message and the guesses are on stderr, as before)
    r = run(["explain", "-"], input=NO_ERROR)
    assert r.exit_code == 1 and r.stdout == ""


def test_the_schema_catches_drift():
    root = json.loads((REPO / "src" / "errexplain" / "schema.json").read_text())
    assert _validate({"schema": 1, "stats": {"by project": {}}}, root, root)
    assert _validate({"errors": []}, root, root)


@pytest.mark.parametrize("args", JSON_COMMANDS[:4], ids=lambda a: " ".join(a[:2]))
def test_json_text_is_what_the_json_module_writes(args):
    out = run(args).stdout
    assert out == json.dumps(json.loads(out), indent=2, ensure_ascii=False) + "\n"


def test_json_encoder_matches_the_json_module_on_any_value():
    from hypothesis import given
    from hypothesis import strategies as st

    from errexplain.render.json import encode

    scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
    values = st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
        max_leaves=20,
    )

    @given(values)
    def check(value):
        assert encode(value) == json.dumps(value, indent=2, ensure_ascii=False)

    check()


UNRAISABLE_CTRL_C = """
import sys, time, weakref
from errexplain.cli import _unraisable
sys.unraisablehook = _unraisable

class Lock: pass

def cb(_ref):
    raise KeyboardInterrupt  # Ctrl-C landing in a weakref callback (3.13's module-lock cb)

lock = Lock()
ref = weakref.ref(lock, cb)
try:
    del lock  # the callback runs here; its exception cannot propagate
    for _ in range(500):
        time.sleep(0.01)
    print("not interrupted")
except KeyboardInterrupt:
    print("interrupted")
"""


def test_ctrl_c_inside_a_callback_still_interrupts():
    """The CI failure of stop 49 (Python 3.13): Ctrl-C delivered inside the import system's
    weakref callback was printed as "Exception ignored ... Traceback" and lost. With errexplain's
    hook it is delivered again: the run ends interrupted, and nothing is printed."""
    proc = start([sys.executable, "-c", UNRAISABLE_CTRL_C])
    out, err = proc.communicate(timeout=60)
    assert out.decode().strip() == "interrupted"
    assert err == b""


def test_other_unraisable_errors_are_reported_as_usual():
    code = UNRAISABLE_CTRL_C.replace("raise KeyboardInterrupt", "raise ValueError('x')")
    proc = start([sys.executable, "-c", code.replace("range(500)", "range(1)")])
    out, err = proc.communicate(timeout=60)
    assert out.decode().strip() == "not interrupted"
    assert b"ValueError: x" in err


def test_no_exception_found_offers_the_nearest_messages_as_guesses(tmp_path):
    """Exit 1 as before; the hint lists catalogued messages near the text's lines, each with
    its score, id, site and line, and how to read one."""
    paste = tmp_path / "prose.md"
    paste.write_text(
        "### Describe the bug\n"
        "When running inference the process aborts due to memory leak detection in "
        "`token_to_kv_pool_allocator` and `mamba_pool`.\n"
    )
    r = run([str(paste)])
    assert r.exit_code == 1
    lines = r.stderr.splitlines()
    assert lines[0].startswith("errexplain: no Python exception found in")
    assert lines[1].startswith("hint: expected a line shaped")
    assert "guesses" in lines[2]
    assert "token_to_kv_pool_allocator memory leak detected!" in lines[3]
    assert "near line 2" in lines[3]
    assert lines[-1] == "read one with: errexplain show ID"
    assert r.stdout == ""


def test_a_guess_whose_template_spans_lines_is_one_line_of_the_hint(tmp_path):
    """A template of two lines (`Capture prefill CUDA graph failed: <e>` then the constant of
    suggestions it appends) is one line of the hint, as every guess is: the next line of the
    hint starts with the next guess's score, not with the template's second line."""
    paste = tmp_path / "notes.md"
    paste.write_text(
        "# Start-up notes\n\nThe prefill step died while we were trying capture prefill CUDA "
        "graph failed in the logs, then nothing else.\n"
    )
    lines = run([str(paste)]).stderr.splitlines()
    at = lines.index(next(ln for ln in lines if "guesses" in ln))
    guesses = lines[at + 1 : -1]
    assert guesses and all(ln.startswith("  0.") for ln in guesses)
    assert any("Capture prefill CUDA graph failed" in ln for ln in guesses)
    assert all(ln.rstrip().endswith(")") for ln in guesses)
