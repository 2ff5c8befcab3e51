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
- assert over lines: a message-less assert written over several lines (its lines from the
  catalog's snippet), shown as each Python shows its failure: the first line (3.9, 3.12), the
  test's failing line (3.10, 3.11) or all the test's lines (3.13); not executed (the traceback
  is made from the compiled code's positions, as the interpreter's own formatter makes it);
- process pool: run in a `ProcessPoolExecutor` (the worker's traceback, as the cause of the
  error raised again in the caller);
- asyncio task: a task's exception nobody retrieved, as the event loop logs it;
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
todo = json.load(open(sys.argv[2]))
def use(site):
    # each site is its own installed tree (`.../env_N/site-packages/sglang/...`)
    for name in [m for m in sys.modules if m == "sglang" or m.startswith("sglang.")]:
        del sys.modules[name]
    sys.path.insert(0, site)
buf = io.StringIO()
log = logging.getLogger("sglang")
h = logging.StreamHandler(buf)
h.setFormatter(logging.Formatter("[%(asctime)s TP0] %(message)s", "%Y-%m-%d %H:%M:%S"))
log.addHandler(h)
out = {}
import asyncio, concurrent.futures as cf, gc, multiprocessing as mp
def call(site, module, func):
    use(site)
    getattr(importlib.import_module(module), func)()
pool = cf.ProcessPoolExecutor(1, mp_context=mp.get_context("fork"))
abuf = io.StringIO()
ah = logging.StreamHandler(abuf)
logging.getLogger("asyncio").addHandler(ah)
logging.getLogger("asyncio").propagate = False
def printed(fn):
    s = io.StringIO()
    try:
        fn()
    except BaseException:
        traceback.print_exception(*sys.exc_info(), file=s)
    return s.getvalue()
for key, (site, module, func) in todo.items():
    use(site)
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
    # run in a process pool: the worker's traceback comes back as the cause
    # (`concurrent.futures.process._RemoteTraceback`) of the error raised again here
    future = pool.submit(call, site, module, func)
    shown["process pool"] = printed(future.result)
    # an asyncio task whose exception nobody retrieved: the loop logs it when it is collected
    abuf.seek(0); abuf.truncate()
    async def lost():
        async def task():
            f()
        t = asyncio.ensure_future(task())
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        del t
        gc.collect()
    asyncio.run(lost())
    gc.collect()
    shown["asyncio task"] = abuf.getvalue()
    try:
        f()
    except Exception:
        tb = sys.exc_info()[2]
        shown["frames only"] = "Traceback (most recent call last):\n" + "".join(
            traceback.format_tb(tb)
        )
    out[key] = shown
import dis
def codes(co):
    yield co
    for c in co.co_consts:
        if hasattr(c, "co_code"):
            yield from codes(c)
def raise_at(c, start, end):
    # (line, positions) of the assert's raise in code object c, within start..end
    ins = list(dis.get_instructions(c))
    starts = dict((o, l) for o, l in dis.findlinestarts(c))
    line = None
    for i, x in enumerate(ins):
        if x.offset in starts:
            line = starts[x.offset]
        if x.opname != "LOAD_ASSERTION_ERROR":
            continue
        for y in ins[i : i + 4]:
            if y.offset in starts:
                line = starts[y.offset]
            if y.opname == "RAISE_VARARGS":
                pos = getattr(y, "positions", None)
                at = pos.lineno if pos is not None and pos.lineno else line
                if at is not None and start <= at <= end:
                    return at, pos
                break
    return None
for key, (path, func, start, end) in json.load(open(sys.argv[3])).items():
    co = compile(open(path).read(), path, "exec")
    for c in codes(co):
        found = c.co_name == func and raise_at(c, start, end)
        if found:
            at, pos = found
            kw = {}
            if pos is not None and sys.version_info >= (3, 11):
                kw = dict(end_lineno=pos.end_lineno, colno=pos.col_offset,
                          end_colno=pos.end_col_offset)
            frame = traceback.FrameSummary(path, at, func, **kw)
            shown = "".join(traceback.StackSummary.from_list([frame]).format())
            head = "Traceback (most recent call last):\n"
            out[key] = {"assert over lines": head + shown + "AssertionError\n"}
            break
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
    """One module per site (`<root>/env_N/site-packages/sglang/...`: each its own installed
    tree, so that sites of one file keep their own lines); returns {key: (site-packages,
    module, function, entry, message)}."""
    todo = {}
    for n, e in enumerate(entries):
        path, line = e.source.path, e.source.line
        parts = str(e.source.function).split(".")
        func, cls = parts[-1], (parts[-2] if len(parts) > 1 else None)
        head = 2 + (cls is not None)
        names = path[: -len(".py")].split("/")
        names = names[:-1] if names[-1] == "__init__" else names
        if line <= head + 1 or not func.isidentifier() or (cls and not cls.isidentifier()):
            continue
        if not path.endswith(".py") or not all(n.isidentifier() for n in names):
            continue  # (a file no import statement names)
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
        site = root / f"env_{n}" / "site-packages"
        file = site / path
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text("\n".join(lines) + "\n", encoding="utf-8")
        module = ".".join(names)
        stub = file.parent
        while stub != site:
            (stub / "__init__.py").touch()
            stub = stub.parent
        if cls:
            (file.parent / f"_call_{n}.py").write_text(
                f"from .{Path(path).stem} import {cls}\n\ndef call():\n    {call}()\n"
            )
            package = ".".join(path.split("/")[:-1])
            todo[f"k{n}"] = (str(site), f"{package}._call_{n}", "call", e, msg)
        else:
            todo[f"k{n}"] = (str(site), module, func, e, msg)
    return todo


def statement_lines(snippet: Any) -> list[str] | None:
    """The source lines of the statement a catalog snippet marks, when it spans several."""
    import ast
    import textwrap

    at = snippet.raise_line - snippet.first_line
    for end in range(at + 1, min(at + 40, len(snippet.lines)) + 1):
        text = textwrap.dedent("\n".join(snippet.lines[at:end]))
        try:
            ast.parse(text)
        except SyntaxError:
            continue
        return text.split("\n") if end - at > 1 else None
    return None


def write_asserts(root: Path, catalog: Any, count: int, rnd: random.Random) -> dict[str, Any]:
    """Modules holding message-less assert statements over several lines, laid out as sglang
    wrote them (from the catalog's snippets), at their sites' lines: {key: (file, function,
    first line, last line, entry)}."""
    from errexplain.catalog.snippets import catalog_snippet

    pool = [
        e
        for e in catalog.entries
        if e.kind == "assert"
        and not e.template
        and not e.removed_in
        and (e.source.path or "").startswith("sglang/")
        and (e.source.line or 0) > 3
        and len(e.statement or "") > 60
    ]
    rnd.shuffle(pool)
    todo = {}
    for n, e in enumerate(pool):
        if len(todo) >= count:
            break
        snippet = catalog_snippet(e.project, e.id)
        stmt = statement_lines(snippet) if snippet else None
        func = str(e.source.function).split(".")[-1]
        if not stmt or not func.isidentifier():
            continue
        line = e.source.line
        lines = [""] * (line - 2) + [f"def {func}():"] + ["    " + s for s in stmt]
        file = root / f"aenv_{n}" / "site-packages" / e.source.path
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text("\n".join(lines) + "\n", encoding="utf-8")
        todo[f"a{n}"] = (str(file), func, line, line + len(stmt) - 1, e)
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
        root = Path(tmp) / "envs"
        root.mkdir()
        todo = write_sites(root, entries, rnd)
        asserts = write_asserts(root, catalog, sample, rnd)
        (Path(tmp) / "todo.json").write_text(
            json.dumps({k: [r, m, f] for k, (r, m, f, _, _) in todo.items()})
        )
        (Path(tmp) / "asserts.json").write_text(
            json.dumps({k: [p, f, a, b] for k, (p, f, a, b, _) in asserts.items()})
        )
        (Path(tmp) / "driver.py").write_text(DRIVER)
        for exe in pythons:
            version = _version(exe)
            r = subprocess.run(
                [
                    exe,
                    str(Path(tmp) / "driver.py"),
                    str(root),
                    str(Path(tmp) / "todo.json"),
                    str(Path(tmp) / "asserts.json"),
                ],
                capture_output=True,
                text=True,
            )
            if r.returncode:
                print(f"python {version}: driver failed: {r.stderr.strip()[-300:]}")
                continue
            printed = json.loads(r.stdout)
            for key, shown in printed.items():
                e, msg = (todo[key][3], todo[key][4]) if key in todo else (asserts[key][4], "")
                for shape, text in shown.items():
                    verdict = _verdict(e, explain_text(text, index), msg)
                    stats[version, shape][verdict] += 1
                    if verdict != "right" and len(misses[version, shape]) < show:
                        misses[version, shape].append(f"{verdict} {e.id} {msg[:60]!r}")
    print(f"{len(todo)} sites sampled of {len(pool)}, {len(asserts)} asserts (seed {seed})")
    print(f"{'python':7} {'shape':12} {'n':>5} {'right':>7} {'none':>5} {'wrong':>5}")
    for (version, shape), c in sorted(stats.items()):
        n = sum(c.values())
        print(f"{version:7} {shape:12} {n:5} {c['right'] / n:7.1%} {c['none']:5} {c['wrong']:5}")
    for (version, shape), rows in sorted(misses.items()):
        for row in rows:
            print(f"  {version} {shape}: {row}")


def _verdict(e: Any, exps: Any, msg: str = "") -> str:
    from errexplain.match.template import compile_template

    if not e.template:  # (a message-less assert: its site, or one of the same statement)
        for x in exps:
            if x.matches and (
                x.matches[0].entry.id == e.id
                or (
                    x.matches[0].entry.statement == e.statement
                    and x.matches[0].entry.source.path == e.source.path
                )
            ):
                return "right"
        return "wrong" if any(x.matches for x in exps) else "none"
    literals = compile_template(e.template).literals

    def fits(x: Any) -> bool:
        return bool(x.matches) and (
            x.matches[0].entry.id == e.id
            or compile_template(x.matches[0].entry.template).literals == literals
        )

    # every error of the paste printed with the site's message (the same one raised again
    # in a caller, a worker's copy) is answered with the site
    if any(fits(x) for x in exps) and all(fits(x) for x in exps if x.error.message == msg):
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
