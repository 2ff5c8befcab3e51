"""History benchmark (run by hand): python bench/history.py [--sample N] [--seed S]

Pastes generated from older sglang releases' own sites, as the catalog's history records them:
wordings no longer raised by the latest release (reworded or removed checks) and wordings whose
file has moved since. For each sampled wording, a release R that raises it is picked, its message
is filled with plausible values (bench/accuracy.py) and wrapped in a traceback whose frames point
at an outer file that exists in R and at the wording's own file, line and function in R. Then
the real pipeline runs (errexplain.explainer.explain_text over the binary index) and:

- site: the best match is that wording (or a wording with the same text whose recorded
  locations include R's file and line);
- range: the best match's `releases` range holds R;
- guess: the error's `release_guess` holds R (every paste here has frames).

Goals (issue #10): site and range >= 95 %, guess >= 90 %.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

OUTER = (
    "sglang/srt/managers/scheduler.py",
    "sglang/srt/model_executor/model_runner.py",
    "sglang/srt/server_args.py",
    "sglang/launch_server.py",
)


def _paste(path: str, line: int, func: str, outer: str, exc: str, msg: str) -> str:
    site = "/usr/local/lib/python3.10/dist-packages/"
    return "\n".join(
        [
            "Traceback (most recent call last):",
            f'  File "{site}{outer}", line 77, in run',
            "    self.step()",
            f'  File "{site}{path}", line {line}, in {func.rsplit(".", 1)[-1]}',
            "    raise ...",
            f"{exc}: {msg}",
        ]
    )


def _pool(entries: list[Any], latest: str) -> dict[str, list[Any]]:
    from errexplain.match.normalize import identifiable
    from errexplain.models import parse_at

    pool: dict[str, list[Any]] = defaultdict(list)
    for e in entries:
        if e.project != "sglang" or not e.at or not e.releases or not identifiable(e.template):
            continue
        if e.kind in ("log", "abort"):  # never raised: no traceback ends in it
            continue
        spans = parse_at(e.at)
        if e.releases[1] != latest:
            pool["older wording"].append(e)
        elif any(s.path != spans[-1].path for s in spans):
            pool["file moved"].append(e)
    return pool


def run(sample: int, seed: int) -> int:
    from accuracy import make_message

    from errexplain.catalog.index import Index
    from errexplain.catalog.index_build import build_bytes
    from errexplain.catalog.load import load_catalog
    from errexplain.catalog.locate import bundled_dir
    from errexplain.explainer import explain_text
    from errexplain.match.release import holds, parse_ranges
    from errexplain.models import parse_at

    catalog = load_catalog([bundled_dir()])
    facts = next(f for f in catalog.release_facts if f.project == "sglang")
    index = Index.from_bytes(
        build_bytes(catalog.entries, catalog.projects, "bench", catalog.release_facts)
    )
    order = facts.order
    pos = {r: i for i, r in enumerate(order)}
    rnd = random.Random(seed)
    stats: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    misses: dict[str, list[str]] = defaultdict(list)
    for kind, entries in sorted(_pool(list(catalog.entries), order[-1]).items()):
        chosen = rnd.sample(entries, min(sample, len(entries)))
        for e in chosen:
            spans = parse_at(e.at)
            if kind == "file moved":
                spans = [s for s in spans if s.path != spans[-1].path]
            span = rnd.choice(spans)
            release = order[rnd.randrange(pos[span.first], pos[span.last] + 1)]
            outer = next(
                (
                    p
                    for p in OUTER
                    if p in facts.paths and pos[release] in parse_ranges(facts.paths[p], order)
                ),
                "sglang/__init__.py",
            )
            msg = make_message(e.template, rnd)
            text = _paste(span.path, span.line, span.function, outer, e.exception, msg)
            exps = explain_text(text, index)
            exp = exps[0] if exps else None
            top = exp.matches[0] if exp and exp.matches else None
            site_ok = top is not None and (
                top.entry.id == e.id
                or (
                    top.entry.template == e.template
                    and top.entry.at is not None
                    and any(
                        s.path == span.path
                        and s.line == span.line
                        and pos[s.first] <= pos[release] <= pos[s.last]
                        for s in parse_at(top.entry.at)
                    )
                )
            )
            rel = top.entry.releases if top is not None else None
            range_ok = rel is not None and pos[rel[0]] <= pos[release] <= pos[rel[1]]
            g = exp.release_guess if exp else None
            guess_ok = g is not None and holds(g, release, order)
            s = stats[kind]
            s[0] += 1
            s[1] += site_ok
            s[2] += site_ok and range_ok
            s[3] += guess_ok
            if not (site_ok and range_ok) and len(misses[kind]) < 4:
                got = f"{top.entry.id} {top.entry.releases}" if top else None
                misses[kind].append(f"{e.id} @ {release}: {msg[:60]!r} -> {got}")
    total = [sum(col) for col in zip(*stats.values(), strict=True)] if stats else [0] * 4
    stats["all"] = total
    print(f"history catalog: {len(order)} releases, {order[0]} to {order[-1]}")
    print(f"{'pastes from':16} {'n':>6} {'site':>8} {'+range':>8} {'guess':>8}")
    for kind, (n, site, both, guess) in stats.items():
        if n:
            print(f"{kind:16} {n:6} {site / n:8.2%} {both / n:8.2%} {guess / n:8.2%}")
    for kind, rows in misses.items():
        print(f"  misses ({kind}): " + "; ".join(rows))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sample", type=int, default=600, help="pastes per kind")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    return run(args.sample, args.seed)


if __name__ == "__main__":
    sys.exit(main())
