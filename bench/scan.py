"""Whole-log triage benchmark (run by hand): python bench/scan.py [--size-mb N] [--log FILE]
[--dense] [--runs N] [--baseline DIR]

Generates (or takes) a large multi-rank sglang server log: timestamps, many INFO lines, some
warnings, a few tracebacks repeated across tensor-parallel ranks, one at the very end. Then, in
the same run, it times
  * `errexplain scan --json LOG` (wall clock, MB/s, peak RSS of the child via getrusage), and
  * `grep -F` of one keyword on the same file (the floor: reading the file once),
and prints the ratio, the machine load and how many groups the scan found. The generated log is
written under the system temp dir and deleted afterwards. `--dense` generates tracebacks only
(every line a hit: the worst case). Goals (issue 13): >= 600 MB/s and <= 200 MB peak RSS on a
1 GB log.

`--baseline DIR` times a second version of errexplain in the same runs (before/after side by
side): DIR is a source tree of it, e.g. `git archive main src errors | tar -x -C DIR`, whose
`src` goes first on PYTHONPATH. Every errexplain run uses compiled bytecode, as an installed
package does (PYTHONDONTWRITEBYTECODE is dropped and the .pyc files go to a private
PYTHONPYCACHEPREFIX written by the warm-up run), and a private index cache.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

ERRORS = (
    (
        "sglang/srt/managers/scheduler.py",
        2417,
        "event_loop_overlap",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
    ),
    (
        "sglang/srt/multimodal/processors/kimi_k3.py",
        360,
        "prepare_image_features",
        "ValueError: Kimi-K3 processor feature length does not match image grids: 5824 != 5760",
    ),
    (
        "sglang/srt/mem_cache/memory_pool.py",
        512,
        "alloc",
        "RuntimeError: Prefill out of memory. Try to lower your batch size.",
    ),
)
SITE = "/usr/local/lib/python3.12/dist-packages/"


def _stamp(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(t))


def _info(rng: random.Random, ts: str, rank: int) -> str:
    k = rng.random()
    if k < 0.45:
        n = rng.randint(1, 64)
        return (
            f"[{ts} TP{rank}] Decode batch. #running-req: {n}, #token: {n * 731}, token usage: "
            f"{rng.random():.2f}, cuda graph: True, gen throughput (token/s): "
            f"{rng.uniform(50, 900):.2f}, #queue-req: {rng.randint(0, 9)}, \n"
        )
    if k < 0.75:
        return (
            f"[{ts} TP{rank}] Prefill batch. #new-seq: {rng.randint(1, 8)}, #new-token: "
            f"{rng.randint(16, 8192)}, #cached-token: {rng.randint(0, 4096)}, token usage: "
            f"{rng.random():.2f}, #running-req: {rng.randint(0, 64)}, #queue-req: 0, \n"
        )
    if k < 0.998:
        return (
            f"[{ts}] INFO:     10.0.{rng.randint(0, 255)}.{rng.randint(1, 254)}:"
            f'{rng.randint(30000, 65000)} - "POST /v1/chat/completions HTTP/1.1" 200 OK\n'
        )
    return (
        f"[{ts} TP{rank}] WARNING: The max_total_tokens is {rng.randint(100000, 900000)}; "
        "the KV cache pool is nearly full, requests will be retracted.\n"
    )


def _traceback(ts: str, rank: int, err: tuple[str, int, str, str]) -> str:
    path, line, func, last = err
    p = f"[{ts} TP{rank}]"
    return (
        f"{p} Scheduler hit an exception: Traceback (most recent call last):\n"
        f'{p}   File "{SITE}sglang/srt/managers/scheduler.py", line 2890, in '
        "run_scheduler_process\n"
        f"{p}     scheduler.event_loop_overlap()\n"
        f'{p}   File "{SITE}{path}", line {line}, in {func}\n'
        f"{p}     raise ...\n"
        f"{p} {last}\n"
    )


def _block(rng: random.Random, ranks: int, lines: int = 30000) -> str:
    """About 4 MB of INFO lines within one hour; `@HOUR@` stands for the date and hour."""
    out = []
    for k in range(lines):
        ts = f"@HOUR@:{k * 3600 // lines // 60:02d}:{k * 3600 // lines % 60:02d}"
        out.append(_info(rng, ts, rng.randrange(ranks)))
    return "".join(out)


def generate(path: Path, size: int, seed: int = 13, ranks: int = 8) -> int:
    """Write a log of about `size` bytes; returns the number of traceback bursts written (each
    on every rank, the last one on rank 0 only, at the very end). A few hours' worth of INFO
    lines are generated once and repeated with the hour advanced, which keeps this fast."""
    rng = random.Random(seed)
    blocks = [_block(rng, ranks) for _ in range(4)]
    written = bursts = hour = 0
    every = max(size // 12, 1)  # about a dozen error bursts over the log
    next_burst = every // 2
    with open(path, "w", encoding="utf-8") as fh:
        while written < size:
            stamp = _stamp(1_790_000_000 + hour * 3600)[:13]
            chunk = blocks[hour % len(blocks)].replace("@HOUR@", stamp)
            if written >= next_burst:
                err = ERRORS[bursts % len(ERRORS)]
                at = f"{stamp}:30:00"
                chunk += "".join(_traceback(at, r, err) for r in range(ranks))
                bursts += 1
                next_burst += every
            fh.write(chunk)
            written += len(chunk)
            hour += 1
        fh.write(_traceback(f"{stamp}:59:59", 0, ERRORS[0]))  # the last lines: a traceback
    return bursts + 1


def generate_dense(path: Path, size: int, ranks: int = 8) -> int:
    """Write a log of about `size` bytes where every line belongs to a traceback (the worst
    case: every line is a hit); returns the number of tracebacks."""
    n = 0
    with open(path, "w", encoding="utf-8") as fh:
        written = 0
        while written < size:
            at = _stamp(1_790_000_000 + n // ranks)
            chunk = "".join(
                _traceback(at, r, ERRORS[n // 1000 % len(ERRORS)]) for r in range(ranks)
            )
            fh.write(chunk)
            written += len(chunk)
            n += ranks
    return n


def _run(
    cmd: list[str], out: Path, env: dict[str, str] | None = None
) -> tuple[float, float, int, int]:
    """(wall seconds, CPU seconds, peak RSS in KB, exit code) of one run. The rusage is the
    child's own (os.wait4), including the worker processes it waited for; ru_maxrss is the
    largest single process among them."""
    with open(out, "wb") as fout:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=fout, stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        dt = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    return dt, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, proc.returncode


Timed = dict[str, tuple[list[str], dict[str, str] | None]]


def _commands(args: argparse.Namespace, log: Path, tmp: Path) -> Timed:
    """What is timed: errexplain scan (and the baseline, and scan --workers N), then grep -F.
    A private index cache: a shared one can be pruned by another checkout's build between runs,
    and the run that follows would then time an index build under the build lock."""
    scan = [sys.executable, "-m", "errexplain", "scan", "--json", str(log)]
    env = {**os.environ, "ERREXPLAIN_CACHE_DIR": str(tmp / "cache")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    timed: Timed = {"scan": (scan, env)}
    if args.baseline:
        timed["baseline"] = (scan, {**env, "PYTHONPATH": str(Path(args.baseline, "src").resolve())})
    if args.also_workers:
        timed[f"scan -w{args.also_workers}"] = (
            [*scan, "--workers", str(args.also_workers)],
            env,
        )
    for cmd, cmd_env in timed.values():
        _run(cmd, tmp / "warm.json", cmd_env)  # warm-up: builds the index, the .pyc files
    timed["grep -F"] = (["grep", "-F", "-c", "Traceback", str(log)], None)
    return timed


def _time_all(
    timed: Timed, runs: int, tmp: Path
) -> tuple[dict[str, list[tuple[float, float]]], dict[str, int], dict[str, int]]:
    """(wall, CPU) of each run, the peak RSS and the last exit code of each command."""
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in timed}
    rss: dict[str, int] = dict.fromkeys(timed, 0)
    codes: dict[str, int] = {}
    for _ in range(runs):  # interleaved, so all see the same load
        for name, (cmd, cmd_env) in timed.items():
            dt, cpu, peak, codes[name] = _run(cmd, tmp / f"{name}.out", cmd_env)
            times[name].append((dt, cpu))
            rss[name] = max(rss[name], peak)
    return times, rss, codes


def _report(times: dict[str, list[tuple[float, float]]], rss: dict[str, int], mb: float) -> None:
    for name, runs in times.items():
        wall, cpu = median(r[0] for r in runs), median(r[1] for r in runs)
        shown = ", ".join(f"{w:.2f}" for w, _ in runs)
        peak = "" if name == "grep -F" else f"; peak RSS {rss[name] / 1024:.0f} MB"
        print(
            f"{name:10s} median wall {wall:.2f} s = {mb / wall:,.0f} MB/s (runs: {shown}); "
            f"CPU {cpu:.2f} s = {mb / cpu:,.0f} MB/s per CPU second{peak}"
        )
    gmid = median(r[0] for r in times["grep -F"])
    gcpu = median(r[1] for r in times["grep -F"])
    for name, runs in times.items():
        if name != "grep -F":
            mid, cpu = median(r[0] for r in runs), median(r[1] for r in runs)
            print(
                f"ratio {name}/grep speed (median wall): {gmid / mid:.2f}; "
                f"CPU time {cpu / gcpu:.2f}x grep's"
            )
    print("goals: scan >= 600 MB/s median; peak RSS of scan (largest process) <= 200 MB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size-mb", type=int, default=1024)
    ap.add_argument("--log", help="scan this log instead of generating one")
    ap.add_argument("--dense", action="store_true", help="generate a log of tracebacks only")
    ap.add_argument("--runs", type=int, default=5, help="timed runs of each (median is shown)")
    ap.add_argument("--baseline", help="a source tree of another version to time alongside")
    ap.add_argument("--also-workers", type=int, help="also time scan --workers N")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="errexplain-scan-"))
    log = Path(args.log) if args.log else tmp / "server.log"
    try:
        if not args.log:
            t0 = time.perf_counter()
            make = generate_dense if args.dense else generate
            n = make(log, args.size_mb * 1024 * 1024)
            print(f"generated {log} with {n} traceback bursts in {time.perf_counter() - t0:.1f} s")
        subprocess.run(["cat", str(log)], stdout=subprocess.DEVNULL, check=True)  # page cache
        timed = _commands(args, log, tmp)
        load = os.getloadavg()[0]
        times, rss, codes = _time_all(timed, args.runs, tmp)
        doc = json.loads((tmp / "scan.out").read_text())
        mb = log.stat().st_size / 1e6
        after = os.getloadavg()[0]
        print(f"load average (1 min): {load:.2f} before, {after:.2f} after; {os.cpu_count()} cores")
        print(f"log: {mb:,.0f} MB; scan exit {codes['scan']}; {len(doc['errors'])} error groups")
        for e in doc["errors"]:
            x = e["exception"]
            print(f"  {x['count']:>4}x {x['type']}: {x['message'][:60]}  last {e['last_seen']}")
        for name in timed:
            if name not in ("scan", "grep -F"):
                same = json.loads((tmp / f"{name}.out").read_text())["errors"] == doc["errors"]
                print(f"{name} gives the same errors: {same}")
        _report(times, rss, mb)
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
