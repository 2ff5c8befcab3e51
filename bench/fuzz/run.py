"""Run one fuzz target (issue 14): python bench/fuzz/run.py TARGET [--runs N] [--seconds S]

With atheris installed (``pip install atheris``), coverage-guided by libFuzzer over the
instrumented package, starting from the seeds of :mod:`targets`; otherwise Hypothesis with
``--runs`` examples. ``--plain [--corpus DIR]``: random mutations (bit flips, inserts,
deletions, splices, repeats, traceback/YAML tokens) of the seeds and an atheris corpus,
without instrumentation, which runs many more inputs per second.

Every input is timed (CPU time): one slower than ``10 ms per KB`` (an input under 1 KB counts
as 1 KB) is timed again after emptying the memo caches and collecting garbage (a pause of the
process is not the input's), and counts as slow if it is slow both times. Prints one line of
figures (inputs, crashes, slow inputs, the worst ms per KB, wall time) and exits non-zero on a
crash or a slow input. Run it niced:
``nice -n 19 python bench/fuzz/run.py parser --seconds 600``.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

PER_KB = 0.010


class Stats:
    def __init__(self) -> None:
        self.runs = self.slow = 0
        self.worst = 0.0  # ms per KB
        self.slowest = b""  # the input of the worst figure
        self.start = time.monotonic()

    def line(self, name: str, engine: str, crashes: int) -> str:
        wall = time.monotonic() - self.start
        return (
            f"{name}: engine={engine} inputs={self.runs} crashes={crashes} "
            f"slow={self.slow} worst={self.worst:.2f} ms/KB wall={wall:.0f} s"
        )


WARMUP = 200
"""Inputs not judged for speed at the start (first calls fill caches and compile)."""
FRESH = 10_000
"""Inputs between two :func:`_fresh` calls."""


def _fresh() -> None:
    """Empty every memo cache of the package and collect garbage, outside the timed region:
    a full memo cache is emptied at once, and that pause (or a collection of a heap grown by
    the run) would otherwise land on whichever input comes next."""
    for mod in list(sys.modules.values()):
        if getattr(mod, "__name__", "").startswith("errexplain"):
            for obj in list(vars(mod).values()):
                if callable(getattr(obj, "cache_clear", None)):
                    obj.cache_clear()
    gc.collect()


def _timed(fn, stats: Stats):  # type: ignore[no-untyped-def]
    def cpu(data: bytes) -> float:
        t0 = time.process_time()  # CPU time: the machine is shared, wall time is noise
        fn(data)
        return time.process_time() - t0

    def one(data: bytes) -> None:
        dt = cpu(data)
        stats.runs += 1
        if stats.runs % FRESH == 0:
            _fresh()
        if stats.runs <= WARMUP:
            return
        # the index target reads a whole index whatever its (small) input: judge by that size
        kb = max(len(data), getattr(fn, "input_size", 0)) / 1024
        kb = max(kb, 1.0)
        if dt > PER_KB * kb:  # a pause of the process is not the input's: time it again, fresh
            _fresh()
            dt = min(dt, cpu(data))
        if 1000 * dt / kb > stats.worst:
            stats.worst = 1000 * dt / kb
            stats.slowest = data
        if dt > PER_KB * kb:
            stats.slow += 1
            sys.stderr.write(f"slow input: {dt * 1000:.0f} ms for {len(data)} bytes\n")

    return one


def _atheris(name: str, runs: int, seconds: int) -> int:
    import atheris

    with atheris.instrument_imports(include=["errexplain"]):
        import targets
    stats = Stats()
    one = _timed(targets.TARGETS[name], stats)
    corpus = Path(tempfile.mkdtemp(prefix=f"fuzz-{name}-"))
    for i, seed in enumerate(targets.seeds(name)):
        (corpus / f"seed{i}").write_bytes(seed)
    report = Path(tempfile.mkdtemp()) / "stats"

    def test(data: bytes) -> None:
        one(data)
        if stats.runs % 1000 == 0:
            report.write_text(stats.line(name, "atheris", 0))

    args = [sys.argv[0], str(corpus), f"-runs={runs}", f"-max_total_time={seconds}"]
    args += ["-max_len=8192", "-rss_limit_mb=2048", "-print_final_stats=1", "-timeout=30"]
    args += [f"-artifact_prefix={corpus}/crash-"]
    print(f"corpus and crash artifacts in {corpus}; running stats in {report}", flush=True)
    atheris.Setup(args, test)
    atheris.Fuzz()  # exits the process (libFuzzer prints "Done N runs")
    return 0


def _hypothesis(name: str, runs: int) -> int:
    import targets
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    stats = Stats()
    one = _timed(targets.TARGETS[name], stats)
    seeds = targets.seeds(name)

    @settings(max_examples=runs, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.one_of(st.binary(max_size=8192), st.sampled_from(seeds)))
    def run(data: bytes) -> None:
        one(data)

    crashes = 0
    try:
        run()
    except Exception as exc:  # a crash is the finding
        crashes = 1
        print(f"crash: {type(exc).__name__}: {exc}")
    print(stats.line(name, "hypothesis", crashes))
    return 1 if crashes or stats.slow else 0


def _mutate(rng: random.Random, data: bytes, pool: list[bytes]) -> bytes:
    buf = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        op = rng.randrange(6)
        at = rng.randrange(len(buf) + 1)
        if op == 0 and buf:
            buf[min(at, len(buf) - 1)] ^= 1 << rng.randrange(8)
        elif op == 1:
            buf[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif op == 2 and buf:
            del buf[at : at + rng.randint(1, 64)]
        elif op == 3:
            other = rng.choice(pool)
            a = rng.randrange(len(other) + 1)
            buf[at:at] = other[a : a + rng.randint(1, 256)]
        elif op == 4:
            piece = bytes(buf[at : at + rng.randint(1, 16)]) or b"/"
            buf[at:at] = piece * rng.randint(2, 200)
        else:
            buf[at:at] = rng.choice(TOKENS)
    return bytes(buf[:8192])


TOKENS = [
    b"Traceback (most recent call last):\n",
    b'  File "x.py", line 1, in f\n',
    b"ValueError: ",
    b"\nDuring handling of the above exception, another exception occurred:\n\n",
    b"  + Exception Group Traceback (most recent call last):\n",
    b"<",
    b">",
    b"&a [*a, *a]",
    b"- id: ",
    b"\x1b[31m",
    b'{"error": {"message": "',
    b"[rank0]: ",
    b"\nThe above exception was the direct cause of the following exception:\n\n",
    b"  | ValueError: ",
    b"    raise ValueError(msg)\n",
    b"2026-10-02 11:04:09 ERROR server.py:12 ",
    b"exception=RuntimeError('",
    b"{",
    b"}",
    b"{x!r:>10}",
    b"\\{",
    b"  template: ",
    b"  exception: ",
    b"\xff\xfe",
    b"\r\n",
    b"\t",
]


PROGRESS = 25_000
"""Inputs between two progress lines of --plain."""


def _plain(name: str, runs: int, seconds: int, corpus: str | None, seed: int) -> int:
    """Mutations without coverage feedback (no instrumentation: many times faster), from the
    seeds and an atheris corpus directory if given."""
    import targets

    stats = Stats()
    one = _timed(targets.TARGETS[name], stats)
    pool = list(targets.seeds(name))
    if corpus:
        pool += [p.read_bytes() for p in sorted(Path(corpus).iterdir()) if p.is_file()]
    print(f"{name}: {len(pool)} starting inputs", flush=True)
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    crashes = 0
    while stats.runs < runs and time.monotonic() < deadline:
        data = _mutate(rng, rng.choice(pool), pool)
        try:
            one(data)
        except Exception as exc:  # a crash is the finding: keep it and go on
            crashes += 1
            crash = Path(tempfile.gettempdir()) / f"fuzz-{name}-{seed}-crash-{crashes}"
            crash.write_bytes(data)
            print(f"crash: {type(exc).__name__}: {exc} (input in {crash})", flush=True)
        if stats.runs % PROGRESS == 0:
            print(stats.line(name, "plain", crashes), flush=True)
    print(stats.line(name, "plain", crashes))
    slowest = Path(tempfile.gettempdir()) / f"fuzz-{name}-{seed}-slowest"
    slowest.write_bytes(stats.slowest)
    print(f"{name}: the input of the worst figure is in {slowest}")
    return 1 if crashes or stats.slow else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("target", choices=["parser", "template", "catalog", "index"])
    parser.add_argument("--runs", type=int, default=1_000_000)
    parser.add_argument("--seconds", type=int, default=3600)
    parser.add_argument("--hypothesis", action="store_true", help="even if atheris is there")
    parser.add_argument("--plain", action="store_true", help="mutations without coverage")
    parser.add_argument("--corpus", help="an atheris corpus directory to start --plain from")
    parser.add_argument("--seed", type=int, default=14, help="--plain's random seed (a shard)")
    opts = parser.parse_args()
    os.environ.setdefault("ERREXPLAIN_CACHE_DIR", tempfile.mkdtemp(prefix="fuzz-cache-"))
    if opts.plain:
        return _plain(opts.target, opts.runs, opts.seconds, opts.corpus, opts.seed)
    try:
        if not opts.hypothesis:
            return _atheris(opts.target, opts.runs, opts.seconds)
    except ImportError:
        pass
    return _hypothesis(opts.target, opts.runs)


if __name__ == "__main__":
    sys.exit(main())
