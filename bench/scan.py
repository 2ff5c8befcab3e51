"""Whole-log triage benchmark (run by hand): python bench/scan.py [--size-mb N] [--log FILE]

Generates (or takes) a large multi-rank sglang server log: timestamps, many INFO lines, some
warnings, a few tracebacks repeated across tensor-parallel ranks, one at the very end. Then, in
the same run, it times
  * `errexplain scan --json LOG` (wall clock, MB/s, peak RSS of the child via getrusage), and
  * `grep -F` of one keyword on the same file (the floor: reading the file once),
and prints the ratio, the machine load and how many groups the scan found. The generated log is
written under the system temp dir and deleted afterwards. Goals (issue 13): >= 600 MB/s and
<= 200 MB peak RSS on a 1 GB log.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


def generate(path: Path, size: int, seed: int = 13, ranks: int = 8) -> int:
    """Write a log of about `size` bytes; returns the number of tracebacks written."""
    rng = random.Random(seed)
    t = 1_790_000_000.0
    written = tracebacks = 0
    every = max(size // 12, 1)  # about a dozen error bursts over the log
    next_burst = every // 2
    with open(path, "w", encoding="utf-8") as fh:
        while written < size:
            buf = []
            for _ in range(2000):
                t += rng.random() * 0.01
                buf.append(_info(rng, _stamp(t), rng.randrange(ranks)))
            chunk = "".join(buf)
            if written >= next_burst:
                err = ERRORS[tracebacks % len(ERRORS)]
                chunk += "".join(_traceback(_stamp(t), r, err) for r in range(ranks))
                tracebacks += 1
                next_burst += every
            fh.write(chunk)
            written += len(chunk)
        fh.write(_traceback(_stamp(t + 1), 0, ERRORS[0]))  # the last lines: a traceback
    return tracebacks + 1


def _run(cmd: list[str], out: Path) -> tuple[float, int, int]:
    """(seconds, peak RSS of the child in KB, exit code)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    with open(out, "wb") as fout:
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, stdout=fout, stderr=subprocess.DEVNULL, check=False)
        dt = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return dt, max(after, before) if after > before else after, proc.returncode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size-mb", type=int, default=1024)
    ap.add_argument("--log", help="scan this log instead of generating one")
    ap.add_argument("--runs", type=int, default=3, help="timed runs of each (best is shown)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="errexplain-scan-"))
    log = Path(args.log) if args.log else tmp / "server.log"
    try:
        if not args.log:
            t0 = time.perf_counter()
            n = generate(log, args.size_mb * 1024 * 1024)
            print(f"generated {log} with {n} traceback bursts in {time.perf_counter() - t0:.1f} s")
        size = log.stat().st_size
        subprocess.run(["cat", str(log)], stdout=subprocess.DEVNULL, check=True)  # page cache
        scan = [sys.executable, "-m", "errexplain", "scan", "--json", str(log)]
        grep = ["grep", "-F", "-c", "Traceback", str(log)]
        scans, greps, rss = [], [], 0
        for _ in range(args.runs):  # interleaved, so both see the same load
            dt, peak, code = _run(scan, tmp / "scan.json")
            scans.append(dt)
            rss = max(rss, peak)
            greps.append(_run(grep, tmp / "grep.out")[0])
        doc = json.loads((tmp / "scan.json").read_text())
        mb = size / 1e6
        best, gbest = min(scans), min(greps)
        print(
            f"load average (1 min) before/after: {os.getloadavg()[0]:.2f}; cores: {os.cpu_count()}"
        )
        print(f"log: {mb:,.0f} MB; scan exit {code}; {len(doc['errors'])} error groups")
        for e in doc["errors"]:
            x = e["exception"]
            print(f"  {x['count']:>4}x {x['type']}: {x['message'][:60]}  last {e['last_seen']}")
        runs = ", ".join(f"{s:.2f}" for s in scans)
        print(f"scan:    {best:.2f} s  {mb / best:,.0f} MB/s  (runs: {runs})")
        runs = ", ".join(f"{s:.2f}" for s in greps)
        print(f"grep -F: {gbest:.2f} s  {mb / gbest:,.0f} MB/s  (runs: {runs})")
        print(f"ratio scan/grep speed: {gbest / best:.2f}  (goal: scan >= 600 MB/s)")
        print(f"peak RSS of scan: {rss / 1024:.0f} MB  (goal <= 200 MB)")
    finally:
        for p in tmp.iterdir():
            p.unlink()
        tmp.rmdir()


if __name__ == "__main__":
    main()
