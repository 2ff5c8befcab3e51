"""Accuracy benchmark (run by hand): python bench/accuracy.py [--sample N] [--eval DIR]

For every identifiable entry of the bundled catalog (or a random sample), builds a message by
filling its placeholders with plausible values, wraps it in a noisy multi-rank traceback whose
frames point at the entry's file, runs the real parse -> match pipeline, and checks that the
entry comes first (top-1) or in the first three (top-3). Variants: exact, a word dropped, two
or three words in a row dropped, a word inserted, case changed, punctuation changed, tail cut
off, older wording; and the message alone on a log line, exact, in older wording and cut short
("bare"), and quoted in a sentence of prose, whole, cut with a marked ellipsis and abridged
("prose"). Then runs the real pastes of ../shared/eval (truth.yaml) and reports per category.
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SYNONYMS = [
    ("must", "should"),
    ("not supported", "unsupported"),
    ("Invalid", "Bad"),
    ("cannot", "can't"),
    ("does not", "doesn't"),
    ("is not", "isn't"),
    ("Please", "please"),
    ("got", "received"),
    ("expected", "expecting"),
]


def value_for(name: str, rnd: random.Random) -> str:
    low = name.lower()
    if "shape" in low or "size()" in low:
        return f"torch.Size([{rnd.choice([1, 4, 8])}, {rnd.choice([128, 4096, 5120])}])"
    if "dtype" in low:
        return rnd.choice(["torch.float16", "torch.bfloat16", "torch.float8_e4m3fn"])
    if "path" in low or "file" in low or "dir" in low:
        return rnd.choice(["/models/Qwen3-8B/config.json", "/data/ckpt/model-00001.safetensors"])
    if name.endswith("!r"):
        return rnd.choice(["'q_proj'", "'deepseek-ai/DeepSeek-V3'", "'fa3'", "None"])
    if any(k in low for k in ("size", "len", "num", "count", "dim", "rank", "_id", "idx", "tp")):
        return str(rnd.choice([2, 3, 6, 16, 128, 576, 4096, 129280]))
    return rnd.choice(
        [
            "foo bar",
            "[1, 2, 3]",
            "{'a': 1}",
            "'x'",
            "7",
            "Qwen3ForCausalLM",
            "line one\nline two",
            "<class 'int'>",
            "cuda:0",
        ]
    )


def make_message(template: str, rnd: random.Random) -> str:
    from errexplain.match.template import compile_template, fill

    names = compile_template(template).names
    return fill(template, {n: value_for(n, rnd) for n in names})


def _drop(msg: str, rnd: random.Random) -> str:
    w = msg.split(" ")
    if len(w) < 5:
        return msg
    del w[rnd.randrange(1, len(w) - 1)]
    return " ".join(w)


def _drop_run(msg: str, rnd: random.Random) -> str:
    """Two or three words in a row left out of the middle, the first three and last two kept
    (a message quoted from memory or abridged in a sentence)."""
    w = msg.split(" ")
    if len(w) < 8:
        return msg
    n = rnd.choice([2, 3])
    at = rnd.randrange(3, len(w) - 2 - n + 1)
    del w[at : at + n]
    return " ".join(w)


def _insert(msg: str, rnd: random.Random) -> str:
    w = msg.split(" ")
    w.insert(rnd.randrange(0, len(w) + 1), rnd.choice(["really", "now", "currently", "the"]))
    return " ".join(w)


def _punct(msg: str, rnd: random.Random) -> str:
    out = msg.rstrip(".!") if msg.endswith((".", "!")) else msg + "."
    return out.replace(": ", " - ", 1)


def _cut(msg: str, rnd: random.Random) -> str:
    return msg[: max(30, int(len(msg) * 0.6))] if len(msg) > 50 else msg


def _older(msg: str, rnd: random.Random) -> str:
    for a, b in SYNONYMS:
        if a in msg:
            return msg.replace(a, b, 1)
    return _drop(msg, rnd)


VARIANTS: dict[str, Callable[[str, random.Random], str]] = {
    "exact": lambda m, r: m,
    "word dropped": _drop,
    "words dropped": _drop_run,
    "word inserted": _insert,
    "case changed": lambda m, r: m.lower(),
    "punctuation": _punct,
    "tail cut": _cut,
    "older wording": _older,
}


_PROSE = (
    'I keep getting "{m}" when I launch the server.',
    "The server crashes with: {m}",
    "After upgrading, requests fail and the log says `{m}`. Any idea?",
    "got this error {m} on 8xH100",
)


def _prose(msg: str, rnd: random.Random) -> str:
    return rnd.choice(_PROSE).format(m=msg)


def _prose_cut(msg: str, rnd: random.Random) -> str:
    return _prose(_cut(msg, rnd) + ("..." if len(msg) > 50 else ""), rnd)


BARE: dict[str, Callable[[str, random.Random], str]] = {
    "bare line": lambda m, r: m,
    "bare older": _older,
    "bare cut": _cut,
    "prose": _prose,
    "prose cut": _prose_cut,
    "prose abridged": lambda m, r: _prose(_drop_run(m, r), r),
}
"""The message alone on a log line (no exception type, no frames), as people paste what a
server logged: found only when the catalog knows the line well (explainer.bare_messages)."""


def _log_prefix(path: str) -> str:
    """The prefix sglang's logging puts on a line from this file: the server's (srt/utils/common.py
    configure_logger, `[%Y-%m-%d %H:%M:%S TP0] `) except in the diffusion runtime
    (multimodal_gen/runtime/utils/logging_utils.py configure_logger, `[%m-%d %H:%M:%S] `)."""
    if path.startswith("sglang/multimodal_gen/"):
        return "[10-02 11:04:09] "
    return "[2026-10-02 11:04:09 TP0] "


def noisy(entry_path: str, line: int, func: str, exc: str, msg: str, rnd: random.Random) -> str:
    lines = [
        "Traceback (most recent call last):",
        '  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/managers/scheduler.py"'
        ", line 2645, in run_scheduler_process",
        "    scheduler.event_loop_overlap()",
        f'  File "/usr/local/lib/python3.12/dist-packages/{entry_path}", line {line}, '
        f"in {func.rsplit('.', 1)[-1]}",
        "    raise Something(",
        f"{exc}: {msg}",
    ]
    out = []
    for rank in ("TP0", "TP1"):
        prefix = f"[2026-10-02 11:04:09 {rank}] "
        out += [prefix + ln for ln in "\n".join(lines).split("\n")]
    out.append("[2026-10-02 11:04:09] Received sigquit from a child process.")
    text = "\n".join(out)
    return "\x1b[31m" + text + "\x1b[0m" if rnd.random() < 0.3 else text


def catalog_index() -> tuple[Any, Any]:
    """(the bundled catalog, an index built from it in memory): the benches' own view."""
    from errexplain.catalog.index import Index
    from errexplain.catalog.index_build import build_bytes
    from errexplain.catalog.load import load_catalog
    from errexplain.catalog.locate import bundled_dir

    catalog = load_catalog([bundled_dir()])
    return catalog, Index.from_bytes(
        build_bytes(catalog.entries, catalog.projects, "bench", catalog.release_facts)
    )


def run_catalog(sample: int, seed: int) -> None:
    from errexplain.explainer import explain_text
    from errexplain.match.normalize import identifiable

    catalog, index = catalog_index()
    # logged errors (kind log) are log lines, not exceptions: a traceback ending in
    # `warning: ...` is not what users paste, so they are not wrapped in one here. Older
    # wordings (removed_in set) are bench/history.py's: generated here without a release, the
    # current wording of the same text rightly comes first.
    entries = [
        e
        for e in catalog.entries
        if identifiable(e.template)
        and e.source.path
        and e.kind not in ("log", "abort")
        and not e.removed_in
    ]
    rnd = random.Random(seed)
    if sample and sample < len(entries):
        entries = rnd.sample(entries, sample)
    stats: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    misses: dict[str, list[str]] = defaultdict(list)
    for e in entries:
        base = make_message(e.template, rnd)
        for name, fn in (*VARIANTS.items(), *BARE.items()):
            msg = fn(base, rnd)
            if name.startswith("prose"):  # quoted in a sentence of an issue
                text = msg
            elif name in BARE:  # a log line with no exception type and no frames
                text = f"{_log_prefix(e.source.path or '')}{msg}"
            else:
                text = noisy(
                    e.source.path or "",
                    e.source.line or 1,
                    e.source.function or "f",
                    e.exception,
                    msg,
                    rnd,
                )
            exps = explain_text(text, index)
            ranked = [m.entry for m in exps[0].matches] if exps else []
            top = ranked[0] if ranked else None
            twins = (
                {
                    m.entry.id
                    for m in exps[0].matches
                    if top
                    and m.entry.template == top.template
                    and abs(m.score - exps[0].matches[0].score) < 1e-9
                }
                if exps
                else set()
            )
            s = stats[name]
            s[0] += 1
            s[1] += e.id in twins or (top is not None and top.id == e.id)
            s[2] += e.id in {x.id for x in ranked[:3]}
            if (
                not (top is not None and (top.id == e.id or e.id in twins))
                and len(misses[name]) < 5
            ):
                misses[name].append(f"{e.id} {msg[:80]!r} -> {top.id if top else None}")
    print(f"catalog: {len(entries)} identifiable entries with a source path")
    print(f"{'variant':16} {'n':>6} {'top-1':>8} {'top-3':>8}")
    for name, (n, t1, t3) in stats.items():
        print(f"{name:16} {n:6} {t1 / n:8.2%} {t3 / n:8.2%}")
    for name, rows in misses.items():
        print(f"  misses ({name}): " + "; ".join(rows[:3]))


def run_eval(eval_dir: Path) -> None:
    import yaml

    from errexplain.catalog.index import Index
    from errexplain.catalog.index_build import build_bytes
    from errexplain.catalog.load import load_catalog
    from errexplain.catalog.locate import bundled_dir
    from errexplain.explainer import explain_text
    from errexplain.models import parse_at

    catalog = load_catalog([bundled_dir()])
    index = Index.from_bytes(
        build_bytes(catalog.entries, catalog.projects, "bench", catalog.release_facts)
    )
    truth = yaml.safe_load((eval_dir / "truth.yaml").read_text())
    for case in truth:
        text = (eval_dir / "cases" / f"{case['id']}.txt").read_text(errors="replace")
        exps = explain_text(text, index)
        exp = next(
            (x for x in exps if x.error.message.startswith(case["final_message"].strip()[:20])),
            exps[0] if exps else None,
        )
        m = exp.matches[0] if exp and exp.matches else None
        top = m.entry if m else None
        got = f"{top.project}:{top.source.path}:{top.source.line}" if top else "no match"
        ok = "?"
        if case["category"] == "external":
            ok = "ok" if top is None or top.project != "sglang" else "WRONG"
        elif case["expected_path"]:
            alts = {(a["path"], a["line"]) for a in case.get("expected_alternatives") or []}
            alts.add((case["expected_path"], case["expected_line"]))
            # where the check sits now: the source may be pinned to the paste's release
            sites = {(top.source.path, top.source.line)} if top else set()
            if m is not None and m.current is not None:
                sites.add((m.current.path, m.current.line))
            if top is not None and top.at and not top.removed_in:
                last = parse_at(top.at)[-1]
                sites.add((last.path, last.line))
            ok = "ok" if sites & alts else "WRONG"
        print(f"{case['id']:>4} {case['category']:15} {ok:5} {got}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample", type=int, default=0, help="entries to test (0: all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--eval", default=str(REPO.parent / "shared" / "eval"))
    args = ap.parse_args()
    if Path(args.eval).is_dir():
        run_eval(Path(args.eval))
    run_catalog(args.sample, args.seed)


if __name__ == "__main__":
    main()
