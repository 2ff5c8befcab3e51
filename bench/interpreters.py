"""Tracebacks printed by real interpreters (run by hand): python bench/interpreters.py
[--sample N] [--seed S] [--python PATH ...]

bench/accuracy.py and bench/shapes.py write their tracebacks themselves. This bench has each
Python on the machine print them: for a sample of the catalog's sglang raise sites it writes a
module at the site's path (`sglang/srt/.../file.py`) whose function of the site's name raises the
site's exception, its message filled in, at the site's line; then each interpreter imports
those modules and prints what a user would paste, in these shapes:

- uncaught: the traceback as `sys.excepthook` prints it (`traceback.print_exception`);
- cause / context: wrapped by a RuntimeError raised `from` it, or while handling it;
- logged: `logger.exception(...)` under sglang's record prefix (`[date time TP0] `);
- group (3.11 and newer): inside an ExceptionGroup;
- frames only: the traceback cut before its exception line (the message is lost; the raise
  line shows `raise X(_MSG)`, so only the function and the exception name tell).

An error is found right when an explanation of the paste has the site's entry (or a site of the
same text) first. Reported per interpreter and shape. Interpreters: every `python3.N` on PATH
and under ~/.pyenv/versions, else the running one (`--python` names them).
"""

from __future__ import annotations

import argparse
import builtins
import json
import random
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from accuracy import catalog_index, make_message

DRIVER = r"""
import json, logging, sys, traceback, importlib, io
root, todo = sys.argv[1], json.load(open(sys.argv[2]))
sys.path.insert(0, root)
buf = io.StringIO()
log = logging.getLogger("sglang")
h = logging.StreamHandler(buf)
h.setFormatter(logging.Formatter("[%(asctime)s TP0] %(message)s", "%Y-%m-%d %H:%M:%S"))
log.addHandler(h)
out = {}
def printed(fn):
    s = io.StringIO()
    try:
        fn()
    except BaseException:
        traceback.print_exception(*sys.exc_info(), file=s)
    return s.getvalue()
for key, (module, func) in todo.items():
    mod = importlib.import_module(module)
    f = getattr(mod, func)
    def cause():
        try:
            f()
        except Exception as e:
            raise RuntimeError("Scheduler step failed") from e
    def context():
        try:
            f()
        except Exception:
            raise RuntimeError("Scheduler step failed")
    def group():
        try:
            f()
        except Exception as e:
            raise ExceptionGroup("requests failed", [e])
    shown = {"uncaught": printed(f), "cause": printed(cause), "context": printed(context)}
    try:
        f()
    except Exception:
        buf.seek(0); buf.truncate()
        log.exception("Scheduler hit an exception")
        shown["logged"] = buf.getvalue()
    if sys.version_info >= (3, 11):
        shown["group"] = printed(group)
    try:
        f()
    except Exception:
        tb = sys.exc_info()[2]
        shown["frames only"] = "Traceback (most recent call last):\n" + "".join(
            traceback.format_tb(tb)
        )
    out[key] = shown
json.dump(out, sys.stdout)
"""


def interpreters(named: list[str]) -> list[str]:
    if named:
        return named
    found: dict[str, str] = {}
    for minor in range(8, 16):
        exe = shutil.which(f"python3.{minor}")
        pyenv = sorted(Path.home().glob(f".pyenv/versions/3.{minor}.*/bin/python3"))
        path = str(pyenv[-1]) if pyenv else exe
        if path and subprocess.run([path, "-c", "pass"], capture_output=True).returncode == 0:
            found[f"3.{minor}"] = path
    return list(found.values()) or [sys.executable]


def _version(exe: str) -> str:
    r = subprocess.run(
        [exe, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
        capture_output=True,
        text=True,
    )
    return r.stdout.strip()


def write_sites(root: Path, entries: list[Any], rnd: random.Random) -> dict[str, Any]:
    """One module per site (`<root>/site_N/sglang/...`: each its own tree, so that sites of one
    file keep their own lines); returns {key: (module, function, entry, message)}."""
    todo = {}
    for n, e in enumerate(entries):
        path, line = e.source.path, e.source.line
        parts = str(e.source.function).split(".")
        func, cls = parts[-1], (parts[-2] if len(parts) > 1 else None)
        head = 2 + (cls is not None)
        if line <= head + 1 or not func.isidentifier() or (cls and not cls.isidentifier()):
            continue
        msg = make_message(e.template, rnd)
        exc = e.exception.rsplit(".", 1)[-1]
        own = not isinstance(getattr(builtins, exc, None), type)
        lines = [""] * (line - 1)
        lines[0] = f"class {exc}(Exception): pass" if own else ""
        lines[1] = f"_MSG = {msg!r}"
        if cls:
            lines[line - 3] = f"class {cls}:"
            lines[line - 2] = f"    def {func}(self=None):"
            call = f"{cls}().{func}"
            body = "        "
        else:
            lines[line - 2] = f"def {func}():"
            call = func
            body = "    "
        lines.append(f"{body}raise {exc}(_MSG)")
        file = root / f"site_{n}" / path
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text("\n".join(lines) + "\n", encoding="utf-8")
        module = f"site_{n}." + path[: -len(".py")].replace("/", ".")
        stub = file.parent
        while stub != root:
            (stub / "__init__.py").touch()
            stub = stub.parent
        if cls:
            (file.parent / f"_call_{n}.py").write_text(
                f"from .{Path(path).stem} import {cls}\n\ndef call():\n    {call}()\n"
            )
            todo[f"k{n}"] = (module.rsplit(".", 1)[0] + f"._call_{n}", "call", e, msg)
        else:
            todo[f"k{n}"] = (module, func, e, msg)
    return todo


def run(sample: int, seed: int, pythons: list[str], show: int) -> None:
    from errexplain.explainer import explain_text
    from errexplain.match.normalize import identifiable

    catalog, index = catalog_index()
    pool = [
        e
        for e in catalog.entries
        if identifiable(e.template)
        and (e.source.path or "").startswith("sglang/")
        and e.source.line
        and e.kind == "raise"
        and not e.removed_in
        and e.exception.rsplit(".", 1)[-1].isidentifier()
    ]
    rnd = random.Random(seed)
    entries = rnd.sample(pool, min(sample, len(pool)))
    stats: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    misses: dict[tuple[str, str], list[str]] = defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "site-packages"
        root.mkdir()
        todo = write_sites(root, entries, rnd)
        (Path(tmp) / "todo.json").write_text(
            json.dumps({k: [m, f] for k, (m, f, _, _) in todo.items()})
        )
        (Path(tmp) / "driver.py").write_text(DRIVER)
        for exe in pythons:
            version = _version(exe)
            r = subprocess.run(
                [exe, str(Path(tmp) / "driver.py"), str(root), str(Path(tmp) / "todo.json")],
                capture_output=True,
                text=True,
            )
            if r.returncode:
                print(f"python {version}: driver failed: {r.stderr.strip()[-300:]}")
                continue
            printed = json.loads(r.stdout)
            for key, shown in printed.items():
                _, _, e, msg = todo[key]
                for shape, text in shown.items():
                    verdict = _verdict(e, explain_text(text, index))
                    stats[version, shape][verdict] += 1
                    if verdict != "right" and len(misses[version, shape]) < show:
                        misses[version, shape].append(f"{verdict} {e.id} {msg[:60]!r}")
    print(f"{len(todo)} sites sampled of {len(pool)} (seed {seed})")
    print(f"{'python':7} {'shape':12} {'n':>5} {'right':>7} {'none':>5} {'wrong':>5}")
    for (version, shape), c in sorted(stats.items()):
        n = sum(c.values())
        print(f"{version:7} {shape:12} {n:5} {c['right'] / n:7.1%} {c['none']:5} {c['wrong']:5}")
    for (version, shape), rows in sorted(misses.items()):
        for row in rows:
            print(f"  {version} {shape}: {row}")


def _verdict(e: Any, exps: Any) -> str:
    from errexplain.match.template import compile_template

    literals = compile_template(e.template).literals
    for x in exps:
        if x.matches and (
            x.matches[0].entry.id == e.id
            or compile_template(x.matches[0].entry.template).literals == literals
        ):
            return "right"
    return "wrong" if any(x.matches for x in exps) else "none"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=200)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--show", type=int, default=3, help="misses printed per shape")
    ap.add_argument("--python", action="append", default=[], help="an interpreter to run")
    a = ap.parse_args()
    run(a.sample, a.seed, interpreters(a.python), a.show)


if __name__ == "__main__":
    main()
