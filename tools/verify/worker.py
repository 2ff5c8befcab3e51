"""Runs case halves inside the verify venv (started by run.py; not imported by it).

Reads one JSON job per line on stdin, {"id", "setup", "code", "timeout"}, and answers one JSON
line per job on stdout, {"id", "status", "text", "output", "seconds"}. Each job runs in a forked
child of this process, which has imported sglang's server-argument code once, so a job costs
no import time and leaves no state behind. Status: "ok" (the code returned), "raised" (text is
the traceback), "exit" (SystemExit with a non-zero code; text is what was written to stderr,
e.g. argparse's error), "setup" (the case's setup raised), "timeout", "crash".
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import linecache
import os
import pkgutil
import signal
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
PREIMPORT = (
    "sglang.srt.server_args",
    "sglang.srt.arg_groups.pipeline",
    "sglang.srt.configs.model_config",
    "sglang.srt.layers.quantization",
    "sglang.srt.model_executor.cuda_graph_config",
    "sglang.srt.mem_cache.kv_cache_configurator",
    "sglang.srt.model_executor.pool_configurator",
    "sglang.srt.parser.template_detection",
)
PREIMPORT_PACKAGES = ("sglang.srt.arg_groups", "sglang.srt.configs")
"""Imported (packages: with every submodule) before the fake GPU is applied, so that their
module-level imports take the CPU branch (see fixtures.fake_gpu)."""
OUTPUT_LIMIT = 20_000


def _install_fixtures() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "verify_fixtures", os.path.join(HERE, "fixtures.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["verify_fixtures"] = module
    spec.loader.exec_module(module)


def _compile(source: str, name: str) -> object:
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    return compile(source, name, "exec")


def _execute(job: dict[str, str]) -> dict[str, str]:
    """Run setup then code; the status and text of what happened."""
    scope: dict[str, object] = {"__name__": "__verify__"}
    try:
        exec(_compile(job.get("setup") or "", "<setup>"), scope)
    except BaseException:
        return {"status": "setup", "text": traceback.format_exc()}
    try:
        exec(_compile(job["code"], f"<{job.get('half', 'code')}>"), scope)
    except SystemExit as exc:
        if exc.code in (0, None):
            return {"status": "ok", "text": ""}
        return {"status": "exit", "text": ""}
    except BaseException:
        return {"status": "raised", "text": traceback.format_exc()}
    return {"status": "ok", "text": ""}


def _child(job: dict[str, str], result_path: str) -> None:
    out = io.StringIO()
    with contextlib.redirect_stderr(out), contextlib.redirect_stdout(out):
        result = _execute(job)
    output = out.getvalue()
    if result["status"] == "exit":
        result["text"] = output[-OUTPUT_LIMIT:]
    result["output"] = output[-OUTPUT_LIMIT:]
    with open(result_path, "w", encoding="utf-8") as f:
        json.dump(result, f)


def run_job(job: dict[str, str]) -> dict[str, object]:
    """Fork, run the job in the child, wait at most its timeout."""
    fd, result_path = tempfile.mkstemp(prefix="verify-", suffix=".json")
    os.close(fd)
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the child
        code = 0
        try:
            _child(job, result_path)
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    deadline = start + float(job.get("timeout") or 300)
    status = None
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.05)
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.unlink(result_path)
        return {"status": "timeout", "text": "", "output": ""}
    try:
        with open(result_path, encoding="utf-8") as f:
            result: dict[str, object] = json.load(f)
    except (OSError, ValueError):
        result = {"status": "crash", "text": f"child exit status {status}", "output": ""}
    finally:
        os.unlink(result_path)
    result["seconds"] = round(time.monotonic() - start, 2)
    return result


def _preimports() -> list[str]:
    names = list(PREIMPORT)
    for package in PREIMPORT_PACKAGES:
        with contextlib.suppress(Exception):
            path = importlib.import_module(package).__path__
            names += [m.name for m in pkgutil.walk_packages(path, package + ".")]
    return names


def main() -> None:
    sys.path.insert(0, HERE)
    _install_fixtures()
    for name in _preimports():
        with contextlib.suppress(Exception):
            importlib.import_module(name)
    sys.modules["verify_fixtures"].apply_gpu_env()  # type: ignore[attr-defined]
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        job = json.loads(line)
        result = run_job(job)
        result["id"] = job["id"]
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
