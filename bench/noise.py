"""Real pastes in noise of our own making (run by hand): python bench/noise.py [--split dev]

Takes the real-paste corpus (bench/real/) pastes of one split that errexplain gets right, dresses
each in one kind of noise people add when they paste (a blockquote, a page's HTML escaping, a
terminal that cut every long line at 80 columns, Windows line breaks, a markdown list, an
indented code block, a collapsed `<details>` block, CJK prose around it, the whole paste
flattened onto one line with `⏎` for its line breaks, a log collector's rising stamp or the
prefix of a compose service, journald, pm2, stern, SkyPilot, BuildKit, TorchX, Loki's logcli or
a CloudWatch export on every line of the log, the paste as a post's indented code block with
prose around it, an
editor's curly quotes for the straight ones, a blank line after every line, colour codes whose
escape character a page dropped, the whole paste logged as a string's repr, a client's
traceback pasted in a block beside it, a launcher's label on every line) and counts the pastes
the noise makes it lose, by failure class (the judge of bench/real.py). A regression guard and a
finder of weak spots: the noise is ours, not evidence of how often people paste that way. The
test half is never dressed (it is only scored by bench/real.py).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import real  # (bench/real.py: the corpus and its judge)


def _cut_at(width: int) -> Callable[[str], str]:
    def cut(text: str) -> str:
        out = []
        for line in text.split("\n"):
            while len(line) > width:
                out.append(line[:width])
                line = line[width:]
            out.append(line)
        return "\n".join(out)

    return cut


def _collected(label: Callable[[int], str]) -> Callable[[str], str]:
    """A log collector's or a relaying tool's label on every line of the log (`label(n)` for
    the log's n-th line: a stamp that rises from line to line, a fixed prefix): the lines
    inside the paste's fences, or every line of a paste with none (prose the paster wrote
    around a log has no label)."""

    def dress(text: str) -> str:
        lines = text.split("\n")
        if not any(ln.lstrip().startswith("```") for ln in lines):
            return "\n".join(label(n) + ln for n, ln in enumerate(lines))
        out, inside, n = [], False, 0
        for ln in lines:
            if ln.lstrip().startswith("```"):
                inside = not inside
                out.append(ln)
            elif inside:
                out.append(label(n) + ln)
                n += 1
            else:
                out.append(ln)
        return "\n".join(out)

    return dress


def _clock(n: int) -> tuple[int, int, int]:
    """(minute, second, microsecond) of a log's n-th line, 37 ms after the one above it."""
    ms = 12_000 + 37 * n
    return ms // 60_000 % 60, ms // 1000 % 60, ms % 1000 * 1000 + 123


def _typographic(text: str) -> str:
    """An editor's or a chat's quotes: each quoted span's straight quotes turned curly."""
    text = re.sub(r'"([^"\n]*)"', "\u201c\\1\u201d", text)
    return re.sub(r"'([^'\n]*)'", "\u2018\\1\u2019", text)


def _html(text: str) -> str:
    for a, b in (("&", "&amp;"), ("'", "&#39;"), ('"', "&quot;"), ("<", "&lt;"), (">", "&gt;")):
        text = text.replace(a, b)
    return text


CLIENT_ERROR = (
    "Traceback (most recent call last):\n"
    '  File "/home/me/run_eval.py", line 88, in <module>\n'
    "    out = client.chat.completions.create(model=name, messages=msgs)\n"
    '  File "/opt/venv/lib/python3.12/site-packages/openai/_base_client.py", line 1037, '
    "in request\n"
    "    raise APIConnectionError(request=request) from err\n"
    "openai.APIConnectionError: Connection error.\n"
)
"""A client's traceback of our own making, pasted beside the server's output (a post that shows
both: the client's error is the consequence, the paste's own error is the one to explain)."""


def _fenced(text: str) -> str:
    return text if "```" in text else f"```\n{text}\n```"


def _notebook(piece: bool) -> Callable[[str], str]:
    """The paste as a Jupyter notebook saves it: a cell's stderr stream (a server started from
    the notebook prints its log there), the whole file's JSON, or a piece of it (from its
    `outputs` list on) posted under a line of prose."""

    def dress(text: str) -> str:
        import json

        stream = {
            "name": "stderr",
            "output_type": "stream",
            "text": text.splitlines(keepends=True),
        }
        cell = {"cell_type": "code", "execution_count": 3, "metadata": {}, "outputs": [stream]}
        cell["source"] = ["llm = sgl.Engine(model_path=MODEL)\n"]
        doc = json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4}, indent=1)
        if not piece:
            return doc
        lines = doc.split("\n")
        start = next(i for i, ln in enumerate(lines) if '"outputs"' in ln)
        return "My notebook saved this:\n" + "\n".join(lines[start:-6])

    return dress


def _beside_client(first: bool) -> Callable[[str], str]:
    def dress(text: str) -> str:
        client = f"Client:\n```\n{CLIENT_ERROR}```"
        server = f"Server log:\n{_fenced(text)}"
        return f"{client}\n\n{server}\n" if first else f"{server}\n\n{client}\n"

    return dress


NOISE: dict[str, Callable[[str], str]] = {
    "blockquote": lambda t: "\n".join("> " + line for line in t.split("\n")),
    "html escaped": _html,
    "cut at 80 columns": _cut_at(80),
    "crlf": lambda t: t.replace("\n", "\r\n"),
    "list item": lambda t: "\n".join(("- " + ln if ln.strip() else ln) for ln in t.split("\n")),
    "indented 4": lambda t: "\n".join("    " + line for line in t.split("\n")),
    # the same as a post's indented code block, with a line of prose above and below it
    "indented in prose": lambda t: (
        "The server log:\n\n"
        + "\n".join(("    " + line).rstrip() for line in t.split("\n"))
        + "\n\nAny idea what is wrong?"
    ),
    "details block": lambda t: "<details><summary>log</summary>\n\n" + t + "\n</details>",
    "cjk prose": lambda t: "启动时报错如下：\n" + t + "\n请问怎么解决？",  # noqa: RUF001
    # a digest or export that flattened the paste onto one line, `⏎` where its breaks were
    "flattened \u23ce": lambda t: " \u23ce ".join(t.split("\n")),
    # `kubectl logs --timestamps` / `docker logs -t`, and `docker compose logs`
    "collector stamps": _collected(
        lambda n: "2026-12-04T10:{:02d}:{:02d}.{:06d}789Z ".format(*_clock(n))
    ),
    "compose prefix": _collected(lambda n: "app-1  | "),
    # relayed by `journalctl`, `pm2 logs`, `stern`, SkyPilot's job log (a fenced log's lines)
    "journald": _collected(
        lambda n: "Dec 04 10:{:02d}:{:02d} gpu-node-07 python3[4123]: ".format(*_clock(n)[:2])
    ),
    "pm2": _collected(lambda n: "0|server   | "),
    "stern": _collected(lambda n: "llm-7d9f8c6b5-x2x4q server "),
    "skypilot": _collected(lambda n: "(head, rank=0, pid=2516) "),
    # `docker build --progress=plain` (a step's seconds rise), TorchX's local scheduler before
    # torchrun's `--tee` label, Loki's `logcli query`, a CloudWatch export's stamp and a tab
    "buildkit": _collected(lambda n: f"#12 {3.2 + 0.037 * n:.3f} "),
    "torchx": _collected(lambda n: "server/0 [default0]:"),
    "logcli": _collected(
        lambda n: '2026-12-04T10:{:02d}:{:02d}Z {{app="server", pod="server-0"}} '.format(
            *_clock(n)[:2]
        )
    ),
    "cloudwatch export": _collected(
        lambda n: "2026-12-04T10:{:02d}:{:02d}.{:03d}Z\t".format(
            *_clock(n)[:2], _clock(n)[2] // 1000
        )
    ),
    # saved in a Jupyter notebook's JSON: the whole file, or a piece of it posted with prose
    "notebook file": _notebook(False),
    "notebook piece": _notebook(True),
    "typographic quotes": _typographic,
    # a copy from a web log viewer: a blank line after every line
    "double spaced": lambda t: "\n\n".join(t.split("\n")),
    # a coloured log shown on a web page, which dropped each colour code's escape character
    "lost colour codes": lambda t: "\n".join(
        ("[31m" + ln + "[0m" if ln.strip() else ln) for ln in t.split("\n")
    ),
    # the whole paste logged as a string's repr (`output.error='...\n...'`)
    "logged repr": lambda t: f"output.error={t!r}",
    # quoted in a code comment: a `#` block, a docblock's ` * ` lines
    "hash comment": lambda t: "\n".join(("# " + ln).rstrip() for ln in t.split("\n")),
    "docblock": lambda t: (
        "/**\n" + "\n".join((" * " + ln).rstrip() for ln in t.split("\n")) + "\n */"
    ),
    # the paste fenced and a client's traceback pasted beside it in a block of its own
    "client error after": _beside_client(False),
    "client error before": _beside_client(True),
    # relayed by a launcher that labels every line: `srun --label` (the task), `pdsh` (the host)
    "srun label": lambda t: "\n".join("0: " + ln for ln in t.split("\n")),
    "pdsh host": lambda t: "\n".join("gpu-node-07: " + ln for ln in t.split("\n")),
    # taken from a log file with `grep -n -A`: a line number before each line (`N:` on the
    # first, `N-` on the context lines after it)
    "grep numbered": lambda t: "\n".join(
        f"{n}{':' if n == 1041 else '-'}{ln}" for n, ln in enumerate(t.split("\n"), 1041)
    ),
    # a terminal's log, captured whole: a progress bar above, redrawn with lone carriage returns
    "progress bar": lambda t: (
        "\r".join(
            f"Loading safetensors checkpoint shards: {p:3d}% Completed | {p // 25}/4"
            for p in range(0, 101, 25)
        )
        + "\n"
        + t
    ),
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", choices=["dev"], default="dev")
    ap.add_argument(
        "--only", action="append", choices=sorted(NOISE), help="this dressing only (repeatable)"
    )
    args = ap.parse_args(argv)
    from errexplain.catalog.store import load
    from errexplain.explainer import explain_text

    view = load(())
    by_id: dict[str, object] = {}
    cases = [c for c in real.load_truth(real.CORPUS) if c.get("split") == args.split]

    def right(text: str, case: dict[str, object]) -> tuple[bool, str]:
        exp = real.pick_error(explain_text(text, view), case)
        ok, why, _ = real.judge_with_heads(view, exp, case, by_id)
        return ok, why

    kept = [c for c in cases if right(c["text"], c)[0]]
    print(f"{args.split}: {len(kept)} of {len(cases)} pastes right as pasted, each dressed in:")
    for name, dress in NOISE.items():
        if args.only and name not in args.only:
            continue
        lost: Counter[str] = Counter()
        for case in kept:
            ok, why = right(dress(case["text"]), case)
            if not ok:
                lost[why] += 1
        n = sum(lost.values())
        classes = ", ".join(f"{w} {k}" for w, k in lost.most_common())
        print(
            f"  {name:<18} lost {n:4} ({n / max(len(kept), 1):6.1%})"
            + (f": {classes}" if n else "")
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
