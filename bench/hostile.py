"""The hostile-input figures of issue 14 (run by hand): python bench/hostile.py [--quick]

Generates each input under a temporary directory (deleted at the end), runs the installed
`errexplain` on it under /usr/bin/time and prints wall and CPU time, peak RSS, the exit code
and whether the final traceback was explained:
  * the worst `explain` of a 1 MB adversarial one-line message (several shapes) and the worst
    `lookup` of a 120 KB one (the most a command-line argument holds), by CPU and by wall
    time, beside a short lookup (the start-up cost);
  * pastes of many lines whose readings compare lines with lines: 20,000 messages each
    repeated cut with `...`, 20,000 pytest reports with 20,000 cut summary lines, a rich panel
    of 100,000 lines; and the text-level readings before the parse: 20,000 structured log
    records holding escaped tracebacks, a notebook of 20,000 error outputs, one line
    flattened with 60,000 `⏎` marks;
  * a 200 MB single line that starts `ValueError: `, then a traceback;
  * a 1 GB log dense with `WARNING ... Error 500` lines, then a traceback;
  * a 500-byte user catalog whose entry id is a YAML alias bomb, its anchors under top-level
    keys or in the entry's own keys (`catalog check`);
  * the index cache with bytes changed at random places: the same answer each time;
  * streams (stdout or stdin closed, /dev/full, a closed pipe) and signals during an index
    build (Ctrl-C, SIGTERM, kill -9 and the next run): each exit code against the documented.
--quick makes the big inputs 10x smaller.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TB = (
    "Traceback (most recent call last):\n"
    '  File "/x/sglang/srt/distributed/utils.py", line 70, in ensure_divisibility\n'
    "    assert numerator % denominator == 0\n"
    "AssertionError: 16 is not divisible by 6\n"
)
EXPLAINED = "is not divisible by"
SHAPES = ["/", "7", "a", "a/", "<", " ", "a.", "Error(", '"', "\\u", "x" * 7 + ".", "a\\'", "a'b "]


def run(args: list[str], stdin: Path | None = None, env: dict[str, str] | None = None) -> dict:
    with open(stdin or os.devnull, "rb") as fin:
        r = subprocess.run(
            ["/usr/bin/time", "-f", "%e %U %S %M", "errexplain", *args],
            stdin=fin,
            capture_output=True,
            text=True,
            errors="replace",
            env=env,
            check=False,
        )
    wall, user, system, rss = r.stderr.strip().splitlines()[-1].split()
    return {
        "s": float(wall),
        "cpu_s": round(float(user) + float(system), 2),
        "MB": int(rss) / 1024,
        "rc": r.returncode,
        "out_bytes": len(r.stdout),
        "explained": EXPLAINED in r.stdout,
        "err": r.stderr.strip().splitlines()[:-1][-1:] if r.stderr.strip() else [],
        "stdout": r.stdout,
    }


def show(label: str, res: dict) -> None:
    keep = {k: v for k, v in res.items() if k != "stdout"}
    print(f"{label}: {keep}", flush=True)


def write_repeated(path: Path, head: str, line: str, size: int, tail: str) -> None:
    block = (line * (4 * 1024 * 1024 // len(line) + 1)).encode()
    with open(path, "wb") as fh:
        fh.write(head.encode())
        left = size
        while left > 0:
            chunk = block[:left]
            fh.write(chunk)
            left -= len(chunk)
        fh.write(tail.encode())


def adversarial(tmp: Path) -> None:
    worst: dict = {}
    slowest: dict = {}
    for shape in SHAPES:
        f = tmp / "adv.txt"
        body = (shape * (1024 * 1024 // len(shape) + 1))[: 1024 * 1024].replace("\n", " ")
        f.write_text("ValueError: " + body + "\n")
        for res in (run(["explain", str(f)]), run(["lookup", "ValueError: " + body[:120_000]])):
            res["shape"] = shape
            if res["cpu_s"] > worst.get("cpu_s", 0):
                worst = res
            if res["s"] > slowest.get("s", 0):
                slowest = res
    base = run(["lookup", "ValueError: 16 is not divisible by 6"])
    show("a short lookup (the start-up cost, for comparison)", base)
    show("worst CPU, 1 MB adversarial message (explain) / 120 KB (lookup)", worst)
    show("worst wall, 1 MB adversarial message (explain) / 120 KB (lookup)", slowest)


def big(tmp: Path, scale: int) -> None:
    f = tmp / "line.log"
    write_repeated(f, "ValueError: ", "x", 200 * 1024 * 1024 // scale, "\n" + TB)
    show(f"single line of {200 // scale} MB", run(["explain", str(f)]))
    f.unlink()
    dense = "2026-10-02 11:04:09 WARNING server.py:12 upstream said Error 500 (retrying)\n"
    write_repeated(f, "", dense, 1024 * 1024 * 1024 // scale, TB)
    show(f"dense log of {1024 // scale} MB", run(["explain", str(f)]))
    f.unlink()


MANY = {
    "cut echoes (40,000 lines)": lambda n: "".join(
        f"ValueError: abcdefghij {i} and more...\nValueError: abcdefghij {i} and more text\n"
        for i in range(n)
    ),
    "pytest reports and cut summary lines (100,000 lines)": lambda n: (
        "".join(
            f"pkg/x.py:{i + 1}: in f\n    g()\nE   ValueError: boom {i}\n"
            f"pkg/x.py:{i + 1}: ValueError\n"
            for i in range(n)
        )
        + "".join(f"FAILED t.py::test_{i} - ValueError: zz...\n" for i in range(n))
    ),
    "a rich panel of 100,000 lines": lambda n: (
        "╭── Traceback (most recent call last) ──╮\n" + f"│ {'a' * 50} │\n" * (5 * n)
    ),
    # the text-level readings before the parse: a structured log whose records hold escaped
    # tracebacks, a notebook's saved outputs, a line flattened with ⏎ marks
    "structured records with escaped tracebacks (20,000 lines)": lambda n: "".join(
        '{"level": "ERROR", "message": "Scheduler hit an exception: Traceback (most recent call'
        f' last):\\n  File \\"/x/s.py\\", line {i}, in f\\nValueError: boom {i}\\n"}}\n'
        for i in range(n)
    ),
    "a notebook of 20,000 error outputs": lambda n: json.dumps(
        {
            "cells": [
                {
                    "cell_type": "code",
                    "source": ["f()\n"],
                    "outputs": [
                        {
                            "output_type": "error",
                            "ename": "ValueError",
                            "evalue": f"boom {i}",
                            "traceback": [
                                f"\x1b[0;31mValueError\x1b[0m: boom {i}",
                            ],
                        }
                    ],
                }
                for i in range(n)
            ],
            "nbformat": 4,
        },
        indent=1,
    ),
    "a line flattened with ⏎ marks (60,000 parts)": lambda n: " \u23ce ".join(
        f"ValueError: part {i} of the flattened paste" for i in range(3 * n)
    ),
}
"""Pastes of many lines whose readings compare lines with lines (each was quadratic once)."""


def many(tmp: Path) -> None:
    f = tmp / "many.txt"
    for label, make in MANY.items():
        f.write_text(make(20_000), encoding="utf-8")
        show(label, run(["explain", str(f)]))
    f.unlink()


def bomb(tmp: Path) -> None:
    """Two shapes: the anchors under top-level keys, and (issue 14 defect 4 as filed) inside the
    bad entry's own keys, where no unknown top-level key refuses the file first."""
    anchors = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    anchors += [f"a{k}: &a{k} [" + ", ".join([f"*a{k - 1}"] * 9) + "]" for k in range(1, 9)]
    shapes = {
        "top-level keys": "\n".join(anchors) + "\nentries:\n- id: *a8\n  exception: E\n"
        "  template: m\n",
        "the entry's keys": "entries:\n- " + "\n  ".join(anchors) + "\n  id: *a8\n"
        "  exception: E\n  template: m\n",
    }
    for where, text in shapes.items():
        cat = tmp / "bomb"
        shutil.rmtree(cat, ignore_errors=True)
        (cat / "demo" / "pkg").mkdir(parents=True)
        (cat / "demo" / "project.yaml").write_text("name: demo\n")
        (cat / "demo" / "pkg" / "m.yaml").write_text(text)
        res = run(["catalog", "check", str(cat)])
        res["yaml_bytes"] = len(text)
        show(f"alias bomb in an id, anchors in {where} (catalog check)", res)


def corrupt(tmp: Path, runs: int) -> None:
    env = {**os.environ, "ERREXPLAIN_CACHE_DIR": str(tmp / "cache")}
    cat = tmp / "user"
    shutil.copytree(Path(__file__).parent.parent / "tests" / "data" / "catalog", cat)
    args = ["explain", "--catalog", str(cat), "-"]
    f = tmp / "tb.txt"
    f.write_text(TB)
    base = run(args, f, env)
    [idx] = (tmp / "cache").glob("index-*.idx")
    rng = random.Random(14)
    same = 0
    for _ in range(runs):
        data = bytearray(idx.read_bytes())
        for _ in range(8):
            at = rng.randrange(len(data))
            data[at] ^= rng.randrange(1, 256)
        idx.write_bytes(bytes(data))
        got = run(args, f, env)
        same += got["rc"] == base["rc"] and got["stdout"] == base["stdout"]
    print(f"index cache corrupted {runs} times: same answer {same}/{runs}", flush=True)


def _sh(script: str, tb: Path) -> tuple[int, str]:
    env = {**os.environ, "TB": str(tb)}
    r = subprocess.run(["bash", "-c", script], env=env, capture_output=True, text=True)
    rc = int(r.stdout.strip()) if "PIPESTATUS" in script else r.returncode
    return rc, r.stderr


def _user_catalog(root: Path, files: int) -> Path:
    """A user catalog big enough that building its index takes a few seconds."""
    (root / "demo").mkdir(parents=True)
    (root / "demo" / "project.yaml").write_text("name: demo\n")
    entry = "- id: '{:016x}'\n  exception: ValueError\n  template: 'message {} here'\n"
    for k in range(files):
        body = "".join(entry.format(k * 100 + i, i) for i in range(60))
        (root / "demo" / f"m{k}.yaml").write_text(f"module: m{k}.py\nentries:\n{body}")
    return root


def _signalled(cat: Path, cache: Path, sig: int) -> tuple[int, str]:
    env = {**os.environ, "ERREXPLAIN_CACHE_DIR": str(cache)}
    proc = subprocess.Popen(
        ["errexplain", "lookup", "--catalog", str(cat), "message 1 here"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    time.sleep(2)
    os.killpg(proc.pid, sig)  # the whole group, as a terminal does
    _, err = proc.communicate(timeout=300)
    return proc.returncode, err


def streams(tmp: Path) -> None:
    """Each stream and signal case against its documented exit code (README, Exit codes)."""
    tb = Path(__file__).parent.parent / "examples" / "kimi_k3_multirank.log"
    cases = [("stdout closed", 'errexplain < "$TB" >&-', 2)]
    cases += [("stdin closed", f"errexplain {a} <&-", 2) for a in ("", "explain -")]
    for fmt in ("text", "rich", "json"):
        cases.append(
            (f"/dev/full, {fmt}", f'errexplain explain --format {fmt} - < "$TB" >/dev/full', 2)
        )
        pipe = f'errexplain explain --format {fmt} "$TB" | head -c 1 >/dev/null'
        cases.append((f"closed pipe, {fmt}", pipe + '; echo "${PIPESTATUS[0]}"', 0))
    for label, script, want in cases:
        rc, err = _sh(script, tb)
        ok = rc == want and "Traceback" not in err
        print(
            f"{label}: exit {rc} (documented {want}), traceback: {'Traceback' in err}, "
            f"{'ok' if ok else 'WRONG'}; {err.strip().splitlines()[-1:]}",
            flush=True,
        )
    cat = _user_catalog(tmp / "sigcat", 500)
    # SIGTERM ends the process as the signal does: -15 here, 143 in a shell
    for name, sig, want in (("SIGINT", signal.SIGINT, 130), ("SIGTERM", signal.SIGTERM, -15)):
        rc, err = _signalled(cat, tmp / f"cache-{name}", sig)
        ok = rc in (want, 0) and "Traceback" not in err
        print(
            f"{name} during an index build: exit {rc} (documented {want}; 0 if the build had "
            f"ended), traceback: {'Traceback' in err}, {'ok' if ok else 'WRONG'}",
            flush=True,
        )
    cache = tmp / "cache-kill"
    rc, _ = _signalled(cat, cache, signal.SIGKILL)
    left = sorted(p.name for p in cache.glob("*.tmp"))
    env = {**os.environ, "ERREXPLAIN_CACHE_DIR": str(cache)}
    again = subprocess.run(
        ["errexplain", "lookup", "--catalog", str(cat), "message 1 here"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    after = sorted(p.name for p in cache.glob("*.tmp"))
    print(
        f"kill -9 during an index build: exit {rc}; temp files left {len(left)}, after the "
        f"next run (exit {again.returncode}) {len(after)}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--corrupt-runs", type=int, default=5)
    parser.add_argument("--only", default="adversarial,many,big,bomb,corrupt,streams")
    opts = parser.parse_args()
    found = shutil.which("errexplain")
    if found is None:  # every step would time a shell's "command not found"
        sys.exit("hostile.py: no errexplain on PATH (run it with the project's venv active)")
    tmp = Path(tempfile.mkdtemp(prefix="errexplain-hostile-"))
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"errexplain: {found}; load average {load}", flush=True)
    try:
        for step in opts.only.split(","):
            if step == "big":
                big(tmp, 10 if opts.quick else 1)
            elif step == "corrupt":
                corrupt(tmp, opts.corrupt_runs)
            else:
                globals()[step](tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
