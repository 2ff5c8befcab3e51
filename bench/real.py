"""Real-paste benchmark (run by hand): python bench/real.py [--split dev|test|all] [--show-misses]

`--show-misses` prints the dev half's misses only: a test miss printed beside them is read
before anyone decides not to read it (session 18 studied 11 test pastes that way).

Every case in bench/real/cases/ is a paste copied exactly as someone posted it in a public
issue, PR or discussion; bench/real/truth.yaml says which error it shows and where that error
is raised (docs: bench/real/README.md). Each paste goes through the real pipeline as
`errexplain explain -` would read it (errexplain.explain on the whole text), then:

- the error judged is the one found in the paste that best fits the truth's type and message
  (a paste may hold several errors; each is explained, one is the truth's); when none fits it
  (PICK_MIN), the truth's error was not found ("no error found");
- sglang-current / sglang-drifted: right when the best match is raised at the expected 0.5.23
  site (same path, line within LINE_SLACK, or an accepted alternative), or is an older wording
  of that site's lineage whose recorded locations include the truth's release site;
- sglang-removed: right when the best match is the removed site itself (any release's location)
  or nothing in sglang is offered with confidence (no match, or an upstream entry);
- external: right when no sglang entry is offered as the match (a non-sglang entry, the generic
  class explanation or "no match" are all right); a false-confident answer is a wrong sglang
  entry offered with a score >= 0.9.

Reported: right-first per split, per category, per paste format (with its misses' failure
classes) and per failure class of the misses, the false-confident rate, and how often a right
answer for sglang's own errors is given as confident (the other side of calibration); and the
test half's right-first apart for the test pastes that are near-copies of a dev paste (one
person's text cross-posted, two copies of a notes file: COPY_RUNS) and for the rest. The split
(dev/test) is fixed in truth.yaml; study dev, only score test.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "bench" / "real"
LINE_SLACK = 3
CONFIDENT = 0.9


def load_truth(corpus: Path) -> list[dict[str, Any]]:
    import yaml

    cases = yaml.safe_load((corpus / "truth.yaml").read_text(encoding="utf-8"))
    for c in cases:
        c["text"] = (corpus / "cases" / f"{c['id']}.txt").read_text(encoding="utf-8")
    return cases


def _similar(a: str, b: str) -> float:
    from rapidfuzz import fuzz

    return float(fuzz.partial_ratio(a[:300], b[:300])) / 100.0 if a and b else 0.0


def pick_error(exps: tuple[Any, ...], case: dict[str, Any]) -> Any | None:
    """The explanation of the error the truth is about (best type + message fit)."""
    if not exps:
        return None
    want_type = (case.get("exception_type") or "").rsplit(".", 1)[-1]
    want_msg = case.get("final_message") or ""

    def fit(exp: Any) -> tuple[float, int]:
        err = exp.error
        same_type = 1.0 if want_type and err.short_type == want_type else 0.0
        said = _similar(err.message, want_msg)
        if not err.message.strip() and err.frames and want_msg.startswith("assert"):
            # (a bare assert: the truth quotes its statement, the frame shows it)
            said = _similar(err.frames[-1].code or "", want_msg)
        return (same_type * 0.5 + said, err.line_no)

    best = max(exps, key=fit)
    err = best.error
    if want_msg.strip():
        other = fit(best)[0] < PICK_MIN
    else:  # (a cut traceback's error, with no type or message, may be the truth's)
        other = bool(want_type) and err.short_type != want_type and bool(err.type or err.message)
    return None if other else best  # (other: the truth's error was not found)


PICK_MIN = 0.5
"""Least fit (same type: 0.5, plus the messages' similarity, 0 to 1) of the error judged when
the truth has a message (without one, the type must agree): a paste's other errors, explained
or not, say nothing of the truth's (session 26: the answer to a `Received sigquit` record
beside an unrecognised shell error was judged as that error's)."""


def _at_sites(entry: Any) -> list[tuple[str, int]]:
    """Every (path, line) an entry records: its source and, with history, every `at` span."""
    from errexplain.models import parse_at

    out = []
    if entry.source.path and entry.source.line:
        out.append((entry.source.path, entry.source.line))
    if getattr(entry, "at", None):
        out += [(span.path, span.line) for span in parse_at(entry.at)]
    return out


def _current_sites(m: Any) -> list[tuple[str | None, int | None]]:
    """Where the matched check sits in the latest release: the match's `current` wording, or
    the entry's own last `at` span (its source may be pinned to the paste's release)."""
    from errexplain.models import parse_at

    if m.current is not None:
        return [(m.current.path, m.current.line)]
    if getattr(m.entry, "at", None) and not m.entry.removed_in:
        last = parse_at(m.entry.at)[-1]
        return [(last.path, last.line)]
    return []


def _via_sites(*entries: Any) -> list[tuple[str | None, int | None]]:
    """Where a helper raises the message that a current entry's call site hands it
    (``via: name at path:line``): the raise the truth names for such a message."""
    out: list[tuple[str | None, int | None]] = []
    for entry in entries:
        via = getattr(entry, "via", None) or ""
        where = via.rpartition(" at ")[2]
        path, _, line = where.rpartition(":")
        if path and line.isdigit() and not entry.removed_in:
            out.append((path, int(line)))
    return out


def _site_ok(path: str | None, line: int | None, want_path: str, want_line: int | None) -> bool:
    if not path or path != want_path:
        return False
    return want_line is None or line is None or abs(line - want_line) <= LINE_SLACK


def _head(entry: Any, by_id: dict[str, Any]) -> Any:
    lineage = getattr(entry, "lineage", None)
    return by_id.get(lineage, entry) if lineage else entry


def _release_site_ok(entry: Any, case: dict[str, Any]) -> bool:
    rel = case.get("release_site") or {}
    return bool(rel) and any(
        _site_ok(p, ln, rel["path"], rel.get("line")) for p, ln in _at_sites(entry)
    )


def _judge_sglang(top: Any, case: dict[str, Any], by_id: dict[str, Any]) -> tuple[bool, str, bool]:
    if top is None:
        return False, "no match", False
    want = [(case["expected_path"], case.get("expected_line"))]
    want += [(a["path"], a.get("line")) for a in case.get("expected_alternatives") or []]
    head = _head(top.entry, by_id)
    sites = [
        (head.source.path, head.source.line),
        (top.entry.source.path, top.entry.source.line),
        *_current_sites(top),
        *_via_sites(head, top.entry),
    ]
    if any(_site_ok(p, ln, wp, wl) for p, ln in sites for wp, wl in want):
        return True, "", False
    if _release_site_ok(top.entry, case):
        return True, "", False
    same_text = case.get("expected_literal") and case["expected_literal"] in top.entry.template
    why = "same text, other site" if same_text else "wrong entry"
    if top.entry.project != "sglang":
        why = "upstream entry instead"
    return False, why, top.score >= CONFIDENT


def judge(exp: Any | None, case: dict[str, Any], by_id: dict[str, Any]) -> tuple[bool, str, bool]:
    """(right, failure class or "", false-confident)."""
    cat = case["category"]
    if exp is None:
        return (cat in ("external", "sglang-removed"), "no error found", False)
    top = exp.matches[0] if exp.matches else None
    if cat in ("sglang-current", "sglang-drifted"):
        return _judge_sglang(top, case, by_id)
    if top is None or top.entry.project != "sglang":
        return True, "", False
    if cat == "sglang-removed":
        if _release_site_ok(top.entry, case):
            return True, "", False
        why = "other removed site" if getattr(top.entry, "removed_in", None) else ""
        return False, why or "removed site given a current entry", top.score >= CONFIDENT
    hedged = any(
        "raises this same text" in n or "may raise the same message" in n for n in exp.notes
    )
    why = "external given an sglang entry" + (" (hedged: same text elsewhere)" if hedged else "")
    return False, why, top.score >= CONFIDENT


Sites = tuple[set[tuple[str, int]], set[tuple[str, str, int]]]


def catalogued_sites() -> Sites:
    """Every sglang site the bundled catalog records: (path, line) in 0.5.23 (the sources of
    wordings not removed), and (release, path, line) in every release (the `at` spans)."""
    from errexplain.catalog.load import (
        NOT_MODULE_FILES,
        catalog_files,
        load_module_file,
        load_project,
        load_release_facts,
    )
    from errexplain.models import parse_at

    root = REPO / "errors" / "sglang"
    project = load_project(root)
    facts = load_release_facts(root, "sglang")
    order = list(facts.order) if facts else []
    index = {r: i for i, r in enumerate(order)}
    now: set[tuple[str, int]] = set()
    ever: set[tuple[str, str, int]] = set()
    for f in catalog_files(root):
        if f.name in NOT_MODULE_FILES:
            continue
        for e in load_module_file(f, project):
            if e.source.path and e.source.line and not e.removed_in:
                now.add((e.source.path, e.source.line))
            for span in parse_at(e.at) if getattr(e, "at", None) else ():
                lo, hi = index.get(span.first), index.get(span.last)
                if lo is not None and hi is not None:
                    ever.update((order[i], span.path, span.line) for i in range(lo, hi + 1))
    return now, ever


def _uncatalogued(case: dict[str, Any], sites: Sites) -> bool:
    """Neither the truth's 0.5.23 site (or an accepted alternative) is a catalogued 0.5.23
    site, nor its release's site one of that release: a catalog gap."""
    now, ever = sites
    want = [(case.get("expected_path"), case.get("expected_line"))]
    want += [(a["path"], a.get("line")) for a in case.get("expected_alternatives") or []]
    rel = case.get("release_site") or {}
    near = range(-LINE_SLACK, LINE_SLACK + 1)
    if any((p, ln + d) in now for p, ln in want if p and ln for d in near):
        return False
    if not (rel.get("path") and rel.get("line") and rel.get("version")):
        return True
    return not any((str(rel["version"]), rel["path"], rel["line"] + d) in ever for d in near)


def _print_miss(case: dict[str, Any], exp: Any | None, why: str) -> None:
    got = "-"
    if exp is not None:
        top = exp.matches[0] if exp.matches else None
        where = (
            f"{top.entry.source.path}:{top.entry.source.line} {top.score:.2f} {top.kind}"
            if top
            else "no match"
        )
        got = f"{exp.error.type}: {exp.error.message[:80]!r} -> {where}"
    print(f"MISS {case['id']} [{case['category']}] {why}: {got}")
    want = f"{case.get('expected_path')}:{case.get('expected_line')}"
    print(f"     want {want}  {case['source']}")


def judge_with_heads(
    view: Any, exp: Any | None, case: dict[str, Any], by_id: dict[str, Any]
) -> tuple[bool, str, bool]:
    """:func:`judge`, with the lineage head of the best match read into `by_id` first (an
    older wording is right when its check's current site is the truth's)."""
    if exp is not None and exp.matches:
        for m in exp.matches[:1]:
            lin = getattr(m.entry, "lineage", None)
            if lin and lin not in by_id:
                pos = view.position(lin)
                if pos is not None:
                    by_id[lin] = view.entry(pos)
    return judge(exp, case, by_id)


def run(cases: list[dict[str, Any]], show_misses: bool) -> dict[str, Any]:
    from errexplain.catalog.store import load
    from errexplain.explainer import explain_text

    view = load(())
    by_id: dict[str, Any] = {}
    sites: Sites | None = None
    results = []
    for case in cases:
        exps = explain_text(case["text"], view)
        exp = pick_error(exps, case)
        right, why, false_conf = judge_with_heads(view, exp, case, by_id)
        if not right and case["category"] in ("sglang-current", "sglang-drifted"):
            if sites is None:
                sites = catalogued_sites()
            if _uncatalogued(case, sites):
                why += " (site not catalogued)"
        results.append((case, exp, right, why, false_conf, len(exps)))
        if show_misses and not right and case.get("split") == "dev":
            _print_miss(case, exp, why)  # (the test half is only scored: its misses are counts)
    return {"results": results}


def _pct(a: int, b: int) -> str:
    return f"{a}/{b} ({100.0 * a / b:.1f} %)" if b else "0/0"


def report(results: list[tuple[Any, ...]], title: str) -> None:
    n = len(results)
    right = sum(1 for r in results if r[2])
    print(f"\n== {title}: right-first {_pct(right, n)}")
    by_cat: dict[str, list[bool]] = defaultdict(list)
    by_fmt: dict[str, list[bool]] = defaultdict(list)
    fmt_fails: dict[str, Counter[str]] = defaultdict(Counter)
    fails: Counter[str] = Counter()
    for case, _exp, ok, why, _fc, _n in results:
        by_cat[case["category"]].append(ok)
        for fmt in case.get("formats") or ["unlabelled"]:
            by_fmt[fmt].append(ok)
            if not ok:
                fmt_fails[fmt][why] += 1
        if not ok:
            fails[why] += 1
    print("  per category:")
    for cat in sorted(by_cat):
        oks = by_cat[cat]
        print(f"    {cat:<16} {_pct(sum(oks), len(oks))}")
    print("  per paste format (a paste has several):")
    for fmt in sorted(by_fmt):
        oks = by_fmt[fmt]
        why = ", ".join(f"{w} {k}" for w, k in fmt_fails[fmt].most_common())
        print(f"    {fmt:<16} {_pct(sum(oks), len(oks))}" + (f"  misses: {why}" if why else ""))
    print("  misses per failure class (and per category):")
    for why, k in fails.most_common():
        cats = Counter(r[0]["category"] for r in results if not r[2] and r[3] == why)
        per = ", ".join(f"{c} {n}" for c, n in sorted(cats.items()))
        print(f"    {why:<36} {k}  ({per})")
    neg = [r for r in results if r[0]["category"] in ("external", "sglang-removed")]
    fc = sum(1 for r in neg if r[4])
    allfc = sum(1 for r in results if r[4])
    print(
        f"  false-confident (wrong entry at >= {CONFIDENT}): "
        f"external+removed {_pct(fc, len(neg))}; all {_pct(allfc, n)}"
    )
    # the other side of calibration: how often a right answer for sglang's own error is given
    # as confident (a cap that removes false-confident answers costs some of these)
    own = [r for r in results if r[0]["category"] in ("sglang-current", "sglang-drifted")]
    sure = sum(1 for r in own if r[2] and r[1] is not None and _top_score(r[1]) >= CONFIDENT)
    print(
        f"  confident when right (score >= {CONFIDENT}, sglang-current+drifted): "
        f"{_pct(sure, sum(1 for r in own if r[2]))}"
    )


def _top_score(exp: Any) -> float:
    return float(exp.matches[0].score) if exp.matches else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--split", choices=("dev", "test", "all"), default="all")
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument(
        "--show-misses",
        action="store_true",
        help="print each miss of the dev half (the test half's misses are never printed: it is "
        "only scored, per failure class)",
    )
    ap.add_argument(
        "--ids",
        default="",
        help="only cases whose id starts with one of these comma-separated prefixes (batches): "
        "y,za",
    )
    args = ap.parse_args(argv)
    cases = load_truth(args.corpus)
    if args.ids:
        heads = tuple(p.strip() for p in args.ids.split(",") if p.strip())
        cases = [c for c in cases if c["id"].startswith(heads)]
    if args.split != "all":
        cases = [c for c in cases if c.get("split") == args.split]
    out = run(cases, args.show_misses)
    results = out["results"]
    for split in ("dev", "test"):
        part = [r for r in results if r[0].get("split") == split]
        if part:
            report(part, f"{split} half ({len(part)} pastes)")
    tested = [r for r in results if r[0].get("split") == "test"]
    if tested:
        copies = dev_copies(args.corpus, {r[0]["id"] for r in tested})
        for label, part in (
            ("with no near-copy in the dev half", [r for r in tested if r[0]["id"] not in copies]),
            ("near-copies of a dev paste", [r for r in tested if r[0]["id"] in copies]),
        ):
            print(f"  test pastes {label}: {_pct(sum(r[2] for r in part), len(part))}")
    report(results, f"all ({len(results)} pastes)")
    return 0


COPY_RUNS, COPY_SHARE = 40, 0.8
"""A test paste is a near-copy of a dev paste when they share at least COPY_RUNS 8-word runs,
COPY_SHARE of the shorter one's (one person's text cross-posted, two copies of a notes file),
runs found in many pastes left out (tools/corpus.py COMMON_IN: an issue template's checklist):
studying the dev paste was studying it, so its score is reported apart."""


def dev_copies(corpus: Path, test_ids: set[str]) -> set[str]:
    """The test pastes that are near-copies of a dev paste (COPY_RUNS, COPY_SHARE)."""
    sys.path.insert(0, str(REPO / "tools"))
    from corpus import common_runs, shingles  # (tools/corpus.py: what its fold compares)

    truth = {c["id"]: c.get("split") for c in load_truth(corpus)}
    runs = {
        cid: shingles(
            (corpus / "cases" / f"{cid}.txt").read_text(encoding="utf-8", errors="replace")
        )
        for cid in truth
    }
    common = common_runs(runs)  # (boilerplate: an issue template's checklist)
    runs = {cid: own - common for cid, own in runs.items()}
    dev_index: dict[tuple[str, ...], set[str]] = defaultdict(set)
    for cid, own in runs.items():
        if truth[cid] == "dev":
            for run_ in own:
                dev_index[run_].add(cid)
    out = set()
    for cid in test_ids:
        shared: Counter[str] = Counter(d for run_ in runs.get(cid, ()) for d in dev_index[run_])
        for dev, n in shared.items():
            if n >= COPY_RUNS and n >= COPY_SHARE * min(len(runs[cid]), len(runs[dev])):
                out.add(cid)
                break
    return out


if __name__ == "__main__":
    sys.exit(main())
