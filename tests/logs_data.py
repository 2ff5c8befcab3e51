"""Small multi-rank sglang-style server logs for the scan tests (tests/input/test_logs.py,
tests/test_triage.py, tests/app/test_scan.py)."""

from __future__ import annotations

SITE = "/usr/local/lib/python3.12/dist-packages/"
CUDA = "RuntimeError: CUDA error: an illegal memory access was encountered"
OOM = "RuntimeError: Prefill out of memory. Try to lower your batch size."


def info(ts: str, n: int) -> str:
    return "".join(
        f"[{ts} TP{k % 4}] Decode batch. #running-req: {k}, #token: {k * 7}, token usage: 0.{k % 9}"
        f"1, cuda graph: True, gen throughput (token/s): 12.{k}, #queue-req: 0, \n"
        for k in range(n)
    )


def traceback(ts: str, rank: int, last: str = CUDA) -> str:
    p = f"[{ts} TP{rank}]"
    return (
        f"{p} Scheduler hit an exception: Traceback (most recent call last):\n"
        f'{p}   File "{SITE}sglang/srt/managers/scheduler.py", line 2890, in run_scheduler\n'
        f"{p}     scheduler.event_loop_overlap()\n"
        f'{p}   File "{SITE}sglang/srt/managers/scheduler.py", line 2417, in event_loop\n'
        f"{p}     raise ...\n"
        f"{p} {last}\n"
    )


def burst(ts: str, ranks: range, last: str = CUDA) -> str:
    return "".join(traceback(ts, r, last) for r in ranks)
