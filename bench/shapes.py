"""Paste shapes of our own making (run by hand): python bench/shapes.py [--sample N] [--seed S]

Samples catalog entries of sglang 0.5.23 (raised and logged messages), fills each template with
plausible values (bench/accuracy.py's make_message) and pastes the message in each of the shapes
below, the ways people post an error when they do not post the traceback: a last line alone, the
message with no exception type, quoted in prose (English, Chinese), a log line with the prefixes
of sglang, vLLM-style loggers, docker, Kubernetes, Ray and Slurm, the HTTP error bodies of the
OpenAI-compatible server as a client prints them, a repr inside a log record, a markdown table
row or list item, a blockquote, pytest's `E   ` lines, the message followed by what a crashing
process prints next. Reports, per shape, how often the entry comes first ("right"), how often an
entry of the same text at another site does ("tie": nothing in a bare message tells them apart),
how often no error is found at all ("none") and how often another entry wins ("wrong"), with a
few misses.

A finder of weak spots and a regression guard, not evidence of accuracy: the shapes are ours.
The `level log` shape names the entry's own file and line, as the logger's `[file.py:N]` does.
Logged entries are pasted in the log shapes only (nobody prints `ERROR: ...` as an exception).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from accuracy import catalog_index, make_message  # (bench/accuracy.py)

Shape = Callable[[str, str, str], str]
"""(exception type, message, the entry's `file.py:line`) -> paste."""


def _openai_body(msg: str) -> dict[str, object]:
    """The OpenAI-compatible server's error body (sglang's `ErrorResponse`)."""
    return {
        "object": "error",
        "message": msg,
        "type": "BadRequestError",
        "param": None,
        "code": 400,
    }


def _dumped(prefix: str, body: object, suffix: str = "") -> Shape:
    """A shape printing `body(msg)` as JSON after `prefix` (the way curl and servers show it)."""
    import json

    def shape(exc: str, msg: str, at: str) -> str:
        made = body(msg) if callable(body) else body
        return f"{prefix}{json.dumps(made)}{suffix}"

    return shape


def _repr_after(prefix: str) -> Shape:
    """A shape printing the body as a Python dict after `prefix` (an SDK's exception text)."""
    return lambda exc, msg, at: f"{prefix}{_openai_body(msg)!r}"


def _json_log(exc: str, msg: str, at: str) -> str:
    import json

    rec = {"time": "2026-03-02T11:04:09Z", "level": "ERROR", "msg": f"{exc}: {msg}"}
    return json.dumps(rec)


def _error_body(msg: str) -> dict[str, object]:
    return {"error": {"message": msg, "type": "BadRequestError", "code": 400}}


RAISED: dict[str, Shape] = {
    "last line": lambda e, m, r: f"{e}: {m}",
    "no type": lambda e, m, r: m,
    "prose quoted": lambda e, m, r: f'When I launch the server I get "{m}". How can I fix this?',
    "prose backticks": lambda e, m, r: f"The run dies with `{e}: {m}` after loading the weights.",
    "prose colon": lambda e, m, r: f"Hi, I got this error on 8xH20: {m}\nThanks for any help!",
    "prose chinese": lambda e, m, r: f"启动服务时报错：{e}: {m}，请问怎么解决？",  # noqa: RUF001
    "sglang log": lambda e, m, r: f"[2026-03-02 11:04:09 TP3] {e}: {m}",
    "ray actor": lambda e, m, r: f"(SGLangEngine pid=48213, ip=10.0.0.7) {e}: {m}",
    "docker": lambda e, m, r: f"sglang-1  | {e}: {m}",
    "kubernetes": lambda e, m, r: f"2026-03-02T11:04:09.123456789Z stderr F {e}: {m}",
    "slurm rank": lambda e, m, r: f"3: [rank3]: {e}: {m}",
    "repr record": lambda e, m, r: f"[2026-03-02 11:04:09] Task failed: exception={e}({m!r})",
    "json body": _dumped("Error code: 400 - ", _openai_body),
    "openai client": _repr_after("openai.BadRequestError: Error code: 400 - "),
    "detail body": _dumped("curl returned:\n", lambda m: {"detail": m}),
    "nested body": _dumped("HTTP 400: ", _error_body),
    "sse stream": _dumped("data: ", _error_body, "\n\ndata: [DONE]"),
    "litellm": _repr_after("litellm.BadRequestError: OpenAIException - Error code: 400 - "),
    "json log": _json_log,
    "markdown table": lambda e, m, r: f"| step | error |\n|---|---|\n| launch | {e}: {m} |",
    "list item": lambda e, m, r: f"- tried `--tp 8`, got:\n  - {e}: {m}",
    "blockquote": lambda e, m, r: f"> {e}: {m}\n\nany idea?",
    "pytest E": lambda e, m, r: f"    def test_launch():\n>       launch()\nE       {e}: {m}",
    "then process": lambda e, m, r: f"{e}: {m}\nProcess SpawnProcess-1:\nKilled",
    "then sigquit": lambda e, m, r: (
        f"{e}: {m}\n[2026-03-02 11:04:10] Received sigquit from a child process. It usually"
        " means the child failed."
    ),
    "html escaped": lambda e, m, r: (
        f"{e}: {m}".replace("&", "&amp;").replace("'", "&#39;").replace('"', "&quot;")
    ),
}

LOGGED: dict[str, Shape] = {
    "sglang log": lambda e, m, r: f"[2026-03-02 11:04:09 TP0] {m}",
    "level log": lambda e, m, r: f"ERROR 03-02 11:04:09 [{r}] {m}",
    "python log": lambda e, m, r: f"2026-03-02 11:04:09,123 - sglang - ERROR - {m}",
    "docker": lambda e, m, r: f"sglang-1  | [2026-03-02 11:04:09 TP0] {m}",
    "ray actor": lambda e, m, r: f"(SGLangEngine pid=48213) [2026-03-02 11:04:09] {m}",
    "prose": lambda e, m, r: f"The server log keeps printing: {m}\nIs it harmful?",
}


def _verdict(e: Any, exps: Any, tops: list[Any]) -> str:
    from errexplain.match.template import compile_template

    def same_text(a: str, b: str) -> bool:  # (placeholders may be named otherwise)
        return compile_template(a).literals == compile_template(b).literals

    twins = {
        m.entry.id
        for x in exps
        for m in x.matches
        if x.matches and m.entry.template == x.matches[0].entry.template
    }
    if e.id in twins or any(m.entry.id == e.id for m in tops):
        return "right"
    if any(same_text(m.entry.template, e.template) for m in tops):
        return "tie"  # the same text raised elsewhere too, listed beyond the five
    return "wrong" if exps else "none"


def run(sample: int, seed: int, show: int) -> None:
    from errexplain.explainer import explain_text
    from errexplain.match.normalize import identifiable

    catalog, index = catalog_index()
    pool = [
        e
        for e in catalog.entries
        if identifiable(e.template)
        and (e.source.path or "").startswith("sglang/")
        and e.kind not in ("abort",)
        and not e.removed_in
    ]
    rnd = random.Random(seed)
    entries = rnd.sample(pool, min(sample, len(pool)))
    stats: dict[str, Counter[str]] = defaultdict(Counter)
    misses: dict[str, list[str]] = defaultdict(list)
    for e in entries:
        msg = make_message(e.template, rnd)
        logged = e.kind == "log"
        at = f"{(e.source.path or '').rsplit('/', 1)[-1]}:{e.source.line}"
        for name, shape in (LOGGED if logged else RAISED).items():
            key = f"{'log' if logged else 'raise'}: {name}"
            exps = explain_text(shape(e.exception, msg, at), index)
            tops = [x.matches[0] for x in exps if x.matches]
            verdict = _verdict(e, exps, tops)
            stats[key][verdict] += 1
            if verdict not in ("right", "tie") and len(misses[key]) < show:
                got = tops[0].entry.id if tops else None
                misses[key].append(f"{verdict} {e.id} {msg[:70]!r} -> {got}")
    print(f"{len(entries)} sampled of {len(pool)} entries (seed {seed})")
    print(f"{'shape':26} {'n':>5} {'right':>7} {'tie':>4} {'none':>5} {'wrong':>5}")
    for key, c in sorted(stats.items()):
        n = sum(c.values())
        print(f"{key:26} {n:5} {c['right'] / n:7.1%} {c['tie']:4} {c['none']:5} {c['wrong']:5}")
    for key, rows in sorted(misses.items()):
        for row in rows:
            print(f"  {key}: {row}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=300)
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--show", type=int, default=3, help="misses printed per shape")
    a = ap.parse_args()
    run(a.sample, a.seed, a.show)


if __name__ == "__main__":
    main()
