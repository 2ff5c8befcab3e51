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


LAST_LINES = (
    CUDA,
    OOM,
    "ValueError: Kimi-K3 processor feature length does not match image grids: 5824 != 5760",
    "KeyboardInterrupt",
    "AssertionError",
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
    "TimeoutExpired: Command 'nvidia-smi' timed out after 30 seconds",
)


def _plain_traceback(last: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        f'  File "{SITE}sglang/launch_server.py", line 14, in <module>\n'
        "    launch_server(server_args)\n"
        f'  File "{SITE}sglang/srt/entrypoints/http_server.py", line 1120, in launch_server\n'
        "    raise ...\n"
        f"{last}\n"
    )


def _chained(ts: str, rank: int) -> str:
    p = f"[{ts} TP{rank}]"
    return (
        traceback(ts, rank, "KeyError: 'model.layers.0.mlp.experts.w13_weight'")
        + f"{p} \n{p} During handling of the above exception, another exception occurred:\n{p} \n"
        + traceback(ts, rank, "RuntimeError: failed to load weights for layer 0")
    )


def varied_log(seed: int, records: int = 400, dense: bool = False) -> str:
    """A generated server log for comparing scan's byte-search path with a whole-text parse:
    quiet INFO runs of varied length (or none, `dense`), rank-prefixed and plain tracebacks,
    chained ones, logging ERROR records, HTTP error bodies, lines with and without timestamps,
    CRLF line ends now and then."""
    import random

    rng = random.Random(seed)
    out = []
    for k in range(records):
        day, hour = 1 + k // 3600 % 28, k // 60 % 24
        ts = f"2026-10-{day:02d} {hour:02d}:{k % 60:02d}:{rng.randrange(60):02d}"
        kind = rng.random()
        if not dense and kind < 0.85:
            out.append(info(ts, rng.choice((1, 3, 40, 300))))
        elif kind < 0.9:
            ranks = range(rng.randrange(8), 8)
            out.append(burst(ts, ranks, rng.choice(LAST_LINES)))
        elif kind < 0.93:
            out.append(_plain_traceback(rng.choice(LAST_LINES)))
        elif kind < 0.95:
            out.append(_chained(ts, rng.randrange(4)))
        elif kind < 0.97:
            out.append(f"[{ts}] ERROR: Failed to reach the tokenizer manager: code {k % 5}\n")
        elif kind < 0.99:
            out.append(
                f'[{ts}] INFO: {{"object": "error", "message": "The model `m{k % 3}` does not '
                'exist.", "type": "NotFoundError", "param": null, "code": 404}\n'
            )
        else:
            out.append(info(ts, 2).replace("\n", "\r\n"))
    return "".join(out)


def crash_loop(seed: int, tracebacks: int = 400) -> str:
    """A crash-looping server's log: a few tracebacks over and over, differing only in rank,
    time (several in one second; `T` and `,` stamp forms; fractions) or a number in the
    message; now and then one rank twice in one second (the parser then reads the next record's
    first line into the message) or a chained traceback."""
    import random

    rng = random.Random(seed)
    out = []
    for k in range(tracebacks):
        sep, frac = rng.choice(((" ", ""), (" ", ""), ("T", ""), (" ", ",125"), (" ", ".5")))
        ts = f"2026-10-{1 + k // 200:02d}{sep}10:{k // 40 % 60:02d}:{k // 4 % 60:02d}{frac}"
        last = rng.choice(
            (CUDA, CUDA, OOM, f"ValueError: bad shape {rng.randrange(3)}", "KeyboardInterrupt")
        )
        kind = rng.random()
        if kind < 0.03:
            out.append(_chained(ts, rng.randrange(4)))
        elif kind < 0.06:
            rank = rng.randrange(4)
            out.append(traceback(ts, rank, last) + traceback(ts, rank, last))
        else:
            out.append(traceback(ts, k % 4 if kind < 0.7 else rng.randrange(4), last))
    return "".join(out)
