"""Messages quoted in prose of our own making (run by hand): python bench/prose.py [--split dev]

Takes the real-paste corpus's sglang cases (current and drifted) of one split whose truth holds
a one-line message, and writes that message, as the truth gives it, into sentences the way
posts quote an error: alone on a line, in backticks, after a colon, after a Chinese full-width
colon, in double quotes, after an `Error:` label (plain and bold), unquoted inside a sentence
(after a lead that introduces it, `I get`, and after one that does not),
as a list item under other lines, and as `Type: message`. Each is judged by bench/real.py's
judge; reported per style: right-first, and the cases lost beyond the message alone (those that
the style's wrapping loses: the weak spots of reading prose, apart from the messages that need
more than their text, such as frames, to find their site).

The sentences are ours, not evidence of how people write: a finder of weak spots and a
regression guard. The test half is never used (it is only scored by bench/real.py).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import real  # (bench/real.py: the corpus and its judge)

STYLES = {
    "alone": "{m}",
    "backticks": "When I start the server I get `{m}` and it exits.",
    "colon": "The server fails with: {m}",
    "cjk colon": "\u542f\u52a8\u65f6\u62a5\u9519\uff1a{m}",
    "double quotes": 'It crashes with "{m}" after a few requests.',
    "error label": "Error: {m}",
    "bold label": "**Error**: {m}",
    "mid sentence": "After upgrading, {m} appears in the log and the server exits.",
    "introduced": "When I send a request I get {m} and then the server dies.",
    "list item": "Steps:\n1. launch the server\n2. send a request\n- {m}",
    "typed": "{t}: {m}",
}


def _chosen(ap: argparse.ArgumentParser, names: str | None) -> dict[str, str]:
    """The styles named (comma-separated) and `alone`, the baseline; all when none are."""
    if not names:
        return dict(STYLES)
    wanted = {"alone", *names.split(",")}
    unknown = wanted - set(STYLES)
    if unknown:
        ap.error(f"unknown styles: {', '.join(sorted(unknown))}")
    return {k: v for k, v in STYLES.items() if k in wanted}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--split", choices=("dev",), default="dev")
    ap.add_argument("--show-lost", metavar="STYLE", help="print the ids a style loses")
    ap.add_argument("--styles", metavar="A,B", help="only these styles (and `alone`, the baseline)")
    args = ap.parse_args(argv)
    styles = _chosen(ap, args.styles)
    from errexplain.catalog.store import load
    from errexplain.explainer import explain_text

    view = load(())
    cases = [
        c
        for c in real.load_truth(real.CORPUS)
        if c.get("split") == args.split
        and c["category"] in ("sglang-current", "sglang-drifted")
        and (c.get("final_message") or "").strip()
        and "\n" not in c["final_message"].strip()
    ]
    right: dict[str, Counter[bool]] = defaultdict(Counter)
    lost: dict[str, list[tuple[str, str]]] = defaultdict(list)
    by_id: dict[str, object] = {}
    for case in cases:
        msg = case["final_message"].strip()
        for name, style in styles.items():
            if name == "typed" and not case.get("exception_type"):
                continue
            text = style.format(m=msg, t=case.get("exception_type"))
            posed = {**case, "text": text}
            exp = real.pick_error(explain_text(text, view), posed)
            ok, why, _ = real.judge_with_heads(view, exp, posed, by_id)
            right[name][ok] += 1
            if not ok:
                lost[name].append((case["id"], why))
    alone = {cid for cid, _ in lost["alone"]}
    print(f"{len(cases)} {args.split} cases (sglang-current and -drifted, one-line message)")
    for name in styles:
        n = right[name][True] + right[name][False]
        beyond = [(cid, why) for cid, why in lost[name] if cid not in alone]
        why = ", ".join(f"{w} {k}" for w, k in Counter(w for _, w in beyond).most_common(3))
        print(
            f"  {name:<14} {real._pct(right[name][True], n):<20} lost beyond the message "
            f"alone: {len(beyond)}" + (f" ({why})" if why else "")
        )
    if args.show_lost:
        for cid, why in lost.get(args.show_lost, []):
            if cid not in alone:
                print(f"    {cid}: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
