"""Speed benchmark (run by hand): python bench/speed.py [--runs N] [--wheel]

Prints each figure next to the floor it is compared with, measured side by side in one run
(commands interleaved, median of N):
  * `errexplain < tb.txt > out.txt`           vs `python -c pass`          (goal <= 2.0x)
  * `errexplain --json -v < tb.txt` (flags on the bare pipe) vs `python -c pass` (goal <= 2.0x)
  * `errexplain < bare_assert.txt` (an error without a message, found by its frames) vs
    `python -c pass` (goal <= 2.0x)
  * `errexplain explain --json tb.txt`        vs a no-op Typer app         (goal <= 1.25x)
  * in-process match p99 over the full catalog (goal <= 1 ms) and a 100k-template synthetic
    catalog (goal <= 2 ms)
  * index build from the YAML (source checkout; goal <= 5 s): the first build (no parts cache,
    every module file parsed) and a rebuild after one module file changed (one file parsed),
    both into an empty temporary cache dir, from a copy of the bundled catalog
  * peak RSS of a cold `errexplain < tb.txt` (goal <= 60 MB)
With --wheel, the CLI figures use a wheel built from this checkout and installed in a fresh
venv (the prebuilt index path) instead of the current environment.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TB = REPO / "examples" / "kimi_k3_multirank.log"
BARE = REPO / "bench" / "data" / "bare_assert.txt"
"""An error without a message (a bare assert), located by its frames: the frame-lookup path."""
NOOP_TYPER = """
import typer
app = typer.Typer()
@app.command()
def main(path: str, json: bool = typer.Option(False, "--json")) -> None:
    pass
app()
"""


# Users' Pythons cache bytecode; a PYTHONDONTWRITEBYTECODE=1 in the bench's own environment
# would make every run recompile every module and measure that instead.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


COMPILE = (
    "import compileall, os, sysconfig, errexplain; "
    "compileall.compile_dir(sysconfig.get_paths()['purelib'], quiet=1); "
    "compileall.compile_dir(os.path.dirname(errexplain.__file__), quiet=1)"
)


CPU: dict[str, list[float]] = {}
"""CPU seconds (user + system) of each timed child, by command line: on a shared host whose
neighbours steal time, wall-clock ratios of the same code swing by a fifth between runs; the
child's own CPU time swings far less, and is printed beside them as a cross-check."""


def _key(cmd: list[str], stdin: Path | None) -> str:
    """A timed child's key: its command line and its input (the piped runs share a command
    line, and their CPU times were pooled under it before session 19)."""
    return " ".join(cmd) + f" < {stdin}"


def _time(cmd: list[str], stdin: Path | None, out: Path) -> float:
    with open(stdin or os.devnull, "rb") as fin, open(out, "wb") as fout:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=fin, stdout=fout, stderr=subprocess.DEVNULL, env=ENV)
        _, _, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = 0  # (reaped by wait4: Popen must not wait for it again)
        CPU.setdefault(_key(cmd, stdin), []).append(usage.ru_utime + usage.ru_stime)
        return wall


def _wheel_env(tmp: Path, python: str) -> tuple[str, str]:
    """A fresh venv of `python` with a wheel built from this checkout installed."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "build",
            "--wheel",
            "--no-isolation",
            "-o",
            str(tmp / "dist"),
            str(REPO),
        ],
        check=True,
        capture_output=True,
    )
    venv = tmp / "venv"
    subprocess.run([python, "-m", "venv", str(venv)], check=True)
    wheel = next((tmp / "dist").glob("*.whl"))
    if Path(python).resolve() == Path(sys.executable).resolve():
        # the dependencies are this interpreter's (appended to sys.path; no .pth of theirs runs)
        site = next((venv / "lib").glob("python3*/site-packages"))
        (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
        pip = [str(venv / "bin" / "pip"), "install", "-q", "--no-deps", str(wheel)]
    else:  # another interpreter: its own dependencies from the package index
        pip = [str(venv / "bin" / "pip"), "install", "-q", str(wheel)]
    subprocess.run(pip, check=True)
    return str(venv / "bin" / "python"), str(venv / "bin" / "errexplain")


def cli_figures(runs: int, python: str, exe: str, tmp: Path) -> None:
    noop = tmp / "noop_typer.py"
    noop.write_text(NOOP_TYPER)
    out = tmp / "out.txt"
    cmds = {
        "python -c pass": ([python, "-c", "pass"], None),
        "errexplain < tb.txt": ([exe], TB),
        "errexplain --json -v < tb.txt": ([exe, "--json", "-v"], TB),
        "errexplain < bare_assert.txt": ([exe], BARE),
        "no-op typer app": ([python, str(noop), str(TB), "--json"], None),
        "errexplain explain --json": ([exe, "explain", "--json", str(TB)], None),
    }
    subprocess.run([python, "-c", COMPILE], stdout=subprocess.DEVNULL, check=False, env=ENV)
    for name, (cmd, stdin) in cmds.items():  # fail loudly rather than time a crash
        with open(stdin or os.devnull, "rb") as fin:
            r = subprocess.run(cmd, stdin=fin, capture_output=True, check=False, env=ENV)
        if r.returncode not in (0, 1):
            raise SystemExit(f"{name} failed ({r.returncode}): {r.stderr.decode()[-500:]}")
    for cmd, stdin in cmds.values():  # warm the OS cache, the bytecode and the index cache
        _time(cmd, stdin, out)
    times: dict[str, list[float]] = {k: [] for k in cmds}
    for _ in range(runs):
        for name, (cmd, stdin) in cmds.items():
            times[name].append(_time(cmd, stdin, out))
    med = {k: statistics.median(v) * 1000 for k, v in times.items()}
    print(f"{'command':32} {'median ms':>10}")
    for k, v in med.items():
        print(f"{k:32} {v:10.1f}")
    r1 = med["errexplain < tb.txt"] / med["python -c pass"]
    r2 = med["errexplain explain --json"] / med["no-op typer app"]
    r3 = med["errexplain --json -v < tb.txt"] / med["python -c pass"]
    print(f"piped explain / python -c pass      = {r1:.2f}x  (goal <= 2.0x)")
    print(f"piped --json -v / python -c pass    = {r3:.2f}x  (goal <= 2.0x)")
    r4 = med["errexplain < bare_assert.txt"] / med["python -c pass"]
    print(f"piped, error without a message       = {r4:.2f}x  (goal <= 2.0x)")
    print(f"explain --json / no-op typer app     = {r2:.2f}x  (goal <= 1.25x)")
    cpu = {k: statistics.median(CPU[_key(c, i)][-runs:]) * 1000 for k, (c, i) in cmds.items()}
    base = cpu["python -c pass"]
    print(
        "CPU time (user + system, median ms), the same runs: "
        + ", ".join(f"{k} {v:.1f}" for k, v in cpu.items())
    )
    print(
        f"  as ratios: piped {cpu['errexplain < tb.txt'] / base:.2f}x, --json -v "
        f"{cpu['errexplain --json -v < tb.txt'] / base:.2f}x, without a message "
        f"{cpu['errexplain < bare_assert.txt'] / base:.2f}x, explain --json / typer "
        f"{cpu['errexplain explain --json'] / cpu['no-op typer app']:.2f}x"
    )
    peak = _peak_rss([exe], TB)
    print(f"peak RSS of a cold piped explain     = {peak / 1024:.1f} MB (goal <= 60 MB)")


def _peak_rss(cmd: list[str], stdin: Path) -> int:
    """Peak RSS (KiB) of one run, measured in a fresh child so earlier children don't count."""
    code = (
        "import resource, subprocess, sys; "
        "subprocess.run(sys.argv[2:], stdin=open(sys.argv[1], 'rb'), "
        "stdout=subprocess.DEVNULL, check=False); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(stdin), *cmd],
        capture_output=True,
        text=True,
        check=False,
        env=ENV,
    )
    return int(out.stdout.strip() or 0)


def _messages(index, n: int, rnd: random.Random) -> list[tuple[str, str]]:
    from errexplain.match.normalize import identifiable
    from errexplain.match.template import compile_template, fill

    out = []
    rows = index.candidates()
    rnd.shuffle(rows)
    for c in rows:
        if identifiable(c.template):
            names = compile_template(c.template).names
            out.append(
                (fill(c.template, {k: str(rnd.randint(1, 9999)) for k in names}), c.exception)
            )
        if len(out) >= n:
            break
    return out


def _p99(index, msgs: list[tuple[str, str]]) -> tuple[float, float]:
    from errexplain.match.rank import rank

    lat = []
    for msg, t in msgs:
        t0 = time.perf_counter()
        rank(index, msg, t)
        lat.append(time.perf_counter() - t0)
    lat.sort()
    return statistics.median(lat) * 1000, lat[int(len(lat) * 0.99)] * 1000


def _synthetic(catalog, target: int, rnd: random.Random):
    from errexplain._startup import replace
    from errexplain.models import make_id

    words = [
        "cache",
        "shard",
        "expert",
        "rank",
        "tensor",
        "buffer",
        "layer",
        "prefill",
        "decode",
        "kernel",
        "stream",
        "page",
        "token",
        "batch",
        "adapter",
        "graph",
    ]
    # grown from templates with a message: an empty one (a site without a message) would
    # become a template of the common extra words only
    base = [e for e in catalog.entries if e.template]
    out = list(catalog.entries)
    i = 0
    while len(out) < target:
        e = base[i % len(base)]
        i += 1
        extra = " ".join(rnd.sample(words, 2))
        t = f"{extra} {e.template}" if i % 2 else f"{e.template} ({extra} {i})"
        out.append(
            replace(e, id=make_id("synthetic", str(i), "", t), template=t, project="synthetic")
        )
    return out


def build_figures() -> bytes:
    """Time the index build from the YAML, first and after a one-file edit; returns the index."""
    import shutil

    from errexplain.catalog.locate import CACHE_ENV, bundled_dir
    from errexplain.catalog.store import build

    saved = os.environ.get(CACHE_ENV)
    with tempfile.TemporaryDirectory() as d:
        os.environ[CACHE_ENV] = os.path.join(d, "cache")
        catalog = Path(shutil.copytree(bundled_dir(), os.path.join(d, "errors")))
        t0 = time.perf_counter()
        data = build((catalog,), "bench")
        first = time.perf_counter() - t0
        edited = max(catalog.rglob("*.yaml"), key=lambda p: p.stat().st_size)
        with edited.open("a") as fh:
            fh.write("# edited\n")
        t0 = time.perf_counter()
        build((catalog,), "bench")
        again = time.perf_counter() - t0
        if saved is None:
            del os.environ[CACHE_ENV]
        else:
            os.environ[CACHE_ENV] = saved
    print(f"index build from YAML (source checkout), first = {first:.2f} s (goal <= 5 s)")
    print(f"index rebuild after one module file changed = {again:.2f} s")
    return data


def match_figures(n: int) -> None:
    from errexplain.catalog.index import Index
    from errexplain.catalog.index_build import build_bytes
    from errexplain.catalog.load import load_catalog
    from errexplain.catalog.locate import bundled_dir

    data = build_figures()
    index = Index.from_bytes(data)
    rnd = random.Random(7)
    med, p99 = _p99(index, _messages(index, n, rnd))
    print(
        f"in-process match, {len(index)} templates: median {med:.3f} ms, p99 {p99:.3f} ms "
        "(goal p99 <= 1 ms)"
    )
    catalog = load_catalog([bundled_dir()])
    big = _synthetic(catalog, 100_000, rnd)
    projects = catalog.projects
    big_index = Index.from_bytes(build_bytes(big, projects, "big"))
    med, p99 = _p99(big_index, _messages(big_index, n, rnd))
    print(
        f"in-process match, {len(big_index)} templates: median {med:.3f} ms, p99 {p99:.3f} "
        "ms (goal p99 <= 2 ms)"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--messages", type=int, default=2000)
    ap.add_argument("--wheel", action="store_true")
    ap.add_argument(
        "--python",
        action="append",
        default=[],
        help="with --wheel: time under this interpreter (repeatable)",
    )
    ap.add_argument("--no-match", action="store_true", help="skip the in-process figures")
    args = ap.parse_args()
    for interpreter in args.python or [sys.executable]:
        with tempfile.TemporaryDirectory() as d:
            tmp = Path(d)
            if args.wheel:
                python, exe = _wheel_env(tmp, interpreter)
            else:
                python, exe = sys.executable, str(Path(sys.executable).parent / "errexplain")
            version = subprocess.run(
                [python, "-c", "import sys; print(sys.version.split()[0])"],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.strip()
            print(f"== Python {version} ({'wheel' if args.wheel else 'this environment'})")
            cli_figures(args.runs, python, exe, tmp)
    if not args.no_match:
        match_figures(args.messages)


if __name__ == "__main__":
    main()
