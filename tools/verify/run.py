"""Run the verification cases: python tools/verify/run.py [--group G] [--entry ID] [--write] [-j N]

Each case's halves run in the verify venv ($ERREXPLAIN_VERIFY_VENV, default /work/verify-venv;
see tools/verify/venv.sh) through worker.py; the "before" error is handed to errexplain (this
checkout's code and catalog), which must match it to the case's entry first; the "after" must
raise nothing, or an error errexplain does not match to the entry. One line per case, then a
summary. --write records `verified: {how: run, ...}` on each passing entry. Exit code 0 when
every selected case passed, 1 otherwise, 2 for a usage error.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

from check import Half, Verdict, judge_after, judge_before  # noqa: E402
from harness import GPU_ENV, RELEASE, Case, NotRunnable, half_code  # noqa: E402
from record import write_verified  # noqa: E402

VENV_ENV = "ERREXPLAIN_VERIFY_VENV"
DEFAULT_VENV = "/work/verify-venv"
READY_TIMEOUT = 900.0


def venv_python() -> str:
    venv = os.environ.get(VENV_ENV) or DEFAULT_VENV
    return os.path.join(venv, "bin", "python")


def load_cases(cases_dir: Path = HERE / "cases") -> list[Case]:
    """Every case of every case file, tagged with its group (the file's stem)."""
    out: list[Case] = []
    for path in sorted(cases_dir.glob("*.py")):
        if path.name.startswith("_"):
            continue
        spec = importlib.util.spec_from_file_location(f"verify_cases_{path.stem}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        out.extend(replace(c, group=path.stem) for c in module.CASES)
    return out


# The release recorded for an entry is its project's, as installed in the verify venv.
_RELEASES_CODE = """\
import importlib.metadata as m, json, sys
out = {"python": "%d.%d" % sys.version_info[:2]}
for name in ("sglang", "torch", "transformers", "huggingface_hub"):
    try:
        out[name] = m.version(name).split("+")[0]
    except m.PackageNotFoundError:
        pass
print(json.dumps(out))
"""


def installed_releases() -> dict[str, str]:
    """The release of each catalogued project in the verify venv (python: `major.minor`)."""
    done = subprocess.run(
        [venv_python(), "-c", _RELEASES_CODE], capture_output=True, text=True, check=True
    )
    releases: dict[str, str] = json.loads(done.stdout)
    return releases


def release_of(project: str, releases: dict[str, str]) -> str:
    """The release to record on an entry of `project` (sglang's pinned one if not installed)."""
    return releases.get(project, RELEASE)


def case_ref(c: Case) -> str:
    return f"tools/verify/cases/{c.group}.py::{c.entry}"


class Worker:
    """One worker.py process in the verify venv (its environment fixed at start)."""

    def __init__(self, env: dict[str, str]) -> None:
        full = {**os.environ, **env, "PYTHONDONTWRITEBYTECODE": "1"}
        self.log = tempfile.TemporaryFile(mode="w+", encoding="utf-8")  # noqa: SIM115 (close())
        self.proc = subprocess.Popen(
            [venv_python(), str(HERE / "worker.py")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            env=full,
            cwd=str(ROOT),
        )
        line = self._read()
        if not line.get("ready"):
            raise RuntimeError("verify worker did not start")

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(
                f"verify worker exited ({self.proc.poll()}); is {venv_python()} set up?"
            )
        result: dict[str, Any] = json.loads(line)
        return result

    def run(self, job: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(job) + "\n")
        self.proc.stdin.flush()
        return self._read()

    def close(self) -> None:
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


@dataclass(frozen=True, slots=True)
class Unit:
    """One half of one case, ready to run."""

    index: int
    half: str
    env: tuple[tuple[str, str], ...]
    job: dict[str, Any]


def _text(c: Case, half: str, entry: Any) -> tuple[str, str]:
    given = c.before if half == "before" else c.after
    if given is not None:
        return given, "auto"
    fix = entry.example_fix
    if fix is None:
        raise NotRunnable("the entry has no example_fix; give before/after")
    return (fix.before if half == "before" else fix.after), fix.language


def make_units(
    cases: list[Case], entries: list[Any], timeout: float
) -> tuple[list[Unit], dict[int, str]]:
    """The halves to run, and the cases that cannot run (index -> why)."""
    units, broken = [], {}
    for i, (c, entry) in enumerate(zip(cases, entries, strict=True)):
        try:
            for half in ("before", "after"):
                text, language = _text(c, half, entry)
                env, code = half_code(text, language)
                if c.gpu is not None:
                    env[GPU_ENV] = c.gpu
                job = {"id": f"{i}:{half}", "half": half, "setup": c.setup, "code": code}
                job["timeout"] = timeout
                units.append(Unit(i, half, tuple(sorted(env.items())), job))
        except NotRunnable as exc:
            broken[i] = f"not runnable: {exc}"
            units = [u for u in units if u.index != i]
    return units, broken


class Pool:
    """Worker processes, reused among the jobs that want the same environment."""

    def __init__(self) -> None:
        self.idle: dict[tuple[tuple[str, str], ...], queue.SimpleQueue[Worker]] = {}
        self.all: list[Worker] = []
        self.lock = threading.Lock()

    def _take(self, env: tuple[tuple[str, str], ...]) -> Worker:
        with self.lock:
            idle = self.idle.setdefault(env, queue.SimpleQueue())
        try:
            return idle.get_nowait()
        except queue.Empty:
            worker = Worker(dict(env))
            with self.lock:
                self.all.append(worker)
            return worker

    def run(self, unit: Unit) -> dict[str, Any]:
        worker = self._take(unit.env)
        result = worker.run(unit.job)  # a worker that fails is not handed out again
        self.idle[unit.env].put(worker)
        return result

    def close(self) -> None:
        for w in self.all:
            w.close()


def run_units(units: list[Unit], jobs: int) -> Iterator[tuple[Unit, Half]]:
    pool = Pool()

    def one(u: Unit) -> tuple[Unit, Half]:
        try:
            r = pool.run(u)
        except (RuntimeError, OSError, ValueError) as exc:
            return u, Half("crash", str(exc))
        return u, Half(r["status"], r.get("text", ""), r.get("seconds", 0.0), r.get("output", ""))

    try:
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
            yield from ex.map(one, units)
    finally:
        pool.close()


def verdict(c: Case, entry: Any, halves: dict[str, Half], catalog: Any) -> Verdict:
    b = judge_before(halves["before"], entry, catalog, c.expect)
    if not b.ok:
        return Verdict(False, b.detail)
    a = judge_after(halves["after"], entry, catalog)
    return Verdict(a.ok, f"{b.detail}; {a.detail}")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="run.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--group", action="append", help="case file stem (repeatable)")
    p.add_argument("--entry", action="append", help="catalog id (repeatable)")
    p.add_argument("--write", action="store_true", help="record verified: run on passing entries")
    p.add_argument("-j", "--jobs", type=int, default=1, help="parallel workers")
    p.add_argument("--timeout", type=float, default=300.0, help="seconds per half")
    p.add_argument("-v", "--verbose", action="store_true", help="print failing halves' text")
    return p


def select(cases: list[Case], groups: list[str] | None, ids: list[str] | None) -> list[Case]:
    return [c for c in cases if (not groups or c.group in groups) and (not ids or c.entry in ids)]


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    from errexplain.catalog.store import load

    catalog = load()
    cases = select(load_cases(), args.group, args.entry)
    entries = []
    for c in cases:
        pos = catalog.position(c.entry)
        if pos is None:
            print(f"{case_ref(c)}: no such catalog entry", file=sys.stderr)
            return 2
        entries.append(catalog.entry(pos))
    units, broken = make_units(cases, entries, args.timeout)
    releases = installed_releases() if args.write else {}
    halves: dict[int, dict[str, Half]] = {}
    passed = 0
    for i, why in broken.items():
        print(f"FAIL {case_ref(cases[i])}  {why}", flush=True)
    for unit, half in run_units(units, args.jobs):
        got = halves.setdefault(unit.index, {})
        got[unit.half] = half
        if len(got) < 2:
            continue
        c, entry = cases[unit.index], entries[unit.index]
        v = verdict(c, entry, got, catalog)
        secs = sum(h.seconds for h in got.values())
        print(f"{'PASS' if v.ok else 'FAIL'} {case_ref(c)}  {v.detail}  ({secs:.1f}s)", flush=True)
        if not v.ok and args.verbose:
            for name, h in got.items():
                print(f"  --- {name} [{h.status}]\n{(h.text or h.output)[-3000:]}")
        if v.ok:
            passed += 1
            if args.write and entry.catalog_file:
                release = release_of(entry.project, releases)
                write_verified(Path(entry.catalog_file), entry.id, case_ref(c), release)
    ran = len(cases)
    print(f"entries run {ran}, passed {passed}, failed {ran - passed}")
    return 0 if passed == ran else 1


if __name__ == "__main__":
    sys.exit(main())
