"""Record which files of a project were adapted from another project's source, in its
project.yaml (`adapted_from`): python tools/adapted.py --project sglang SRC_ROOT...

A file whose header comments (the comments at a line's start and the module docstring within
its first HEADER_LINES lines; not a comment indented into a class's body, which says where
that class came from, nor a string the code holds, such as C source with a `// copy from` line
of its own) say it was adapted, copied, ported or modified from another project's repository
(`# Adapted from https://github.com/vllm-project/vllm/blob/v0.6.4/...`, or a project named
there: `Adapted from HuggingFace transformers`) shares that project's messages: the same text
in a paste may have been raised by the other project. The upstream is named by its repository
(vllm, fastvideo, tensorrt-llm, ...). Each SRC_ROOT is an unpacked
release (a directory holding the package, e.g. /src/sglang-0.5.23); paths are recorded as the
catalog records them (from the package directory on), the union over all roots given.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import sys
import tokenize
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
HEADER_LINES = 25
ADAPTED = re.compile(
    r"(?i)\b(?:adapt(?:ed|s)?|cop(?:y|ied)|port(?:ed)?|modif(?:y|ied)|borrow(?:ed)?|taken|derived)"
    r"\s+from\b(?P<what>.{0,120})"
)
REPO_URL = re.compile(r"(?i)github\.com/[\w.-]+/(?P<repo>[\w.-]+)")
NAMED = re.compile(r"(?i)(?<![\w-])(?P<name>vllm|transformers|diffusers)(?![\w-])")
"""Projects named without a URL (`Adapted from HuggingFace transformers' modeling_llama.py`)."""


def upstreams_of(head: str, package: str) -> list[str]:
    """The projects a file's header says it was adapted from, in order: for each `adapted
    from`, the repository of the first GitHub URL after it (`.../vllm-project/vllm/blob/...` ->
    vllm), else a project named there; never the package itself. A file adapted from one that
    was itself adapted (`Copied from FastVideo` ... `Adapted from vllm`) names both."""
    out: list[str] = []
    for m in ADAPTED.finditer(head):
        what = m.group("what")
        if not what.strip(" :\t"):  # (`# Adapted from` with the URL on the next comment line)
            rest = head[m.end() :].lstrip("\r\n")
            what = rest.split("\n", 1)[0].lstrip("# ") if rest.startswith("#") else ""
        url = REPO_URL.search(what)
        name = url.group("repo") if url else None
        if name is None:
            named = NAMED.search(what)
            name = named.group("name") if named else None
        if name is None:
            continue
        name = name.lower().removesuffix(".git").rstrip(".)")
        if name and name != package and name not in out:
            out.append(name)
    return out


def header_comments(head: str) -> str:
    """The comments of a file's first lines (`head`) written at the line's start, one per line,
    and its module docstring when it opens the file: the words a header says about where the
    code came from.
    The text of other strings is left out (`nccl_allocator_source = \"\"\"` then C source whose
    own `// copy from .../nccl.h.in` is said of that C code, not of the Python file). A head cut
    inside a string keeps what was read before it."""
    out: list[str] = []
    opening = True  # (no statement read yet: a string here is the module docstring)
    try:
        for tok in tokenize.generate_tokens(io.StringIO(head).readline):
            if tok.type == tokenize.COMMENT:
                if tok.start[1] == 0:  # (an indented comment is said of the block it is in)
                    out.append(tok.string)
            elif tok.type == tokenize.STRING and opening:
                out.append(tok.string)
                opening = False
            elif tok.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.ENCODING):
                opening = False
    except tokenize.TokenError as exc:
        # the head ends inside a string: the module docstring's opening lines when no statement
        # came before it, else nothing more (what came before it is kept)
        # (from the line it starts on: Pythons differ on the column they report)
        where = exc.args[1] if len(exc.args) > 1 else None
        if opening and isinstance(where, tuple) and "string" in str(exc.args[0]):
            out.append("".join(head.splitlines(keepends=True)[max(where[0] - 1, 0) :]))
    except SyntaxError:
        pass  # (an unreadable head, mixed indentation: what came before it is kept)
    return "\n".join(out)


def adapted_files(root: Path, package: str) -> dict[str, set[str]]:
    """upstream -> package paths of the files of one source tree adapted from it."""
    found: dict[str, set[str]] = {}
    top = root / package
    for dirpath, _, files in os.walk(top):
        for name in files:
            if not name.endswith(".py"):
                continue
            path = Path(dirpath) / name
            try:
                with path.open(encoding="utf-8", errors="replace") as fh:
                    head = header_comments("".join(next(fh, "") for _ in range(HEADER_LINES)))
            except OSError:
                continue
            for upstream in upstreams_of(head, package):
                found.setdefault(upstream, set()).add(path.relative_to(root).as_posix())
    return found


def write(project_yaml: Path, adapted: dict[str, set[str]]) -> None:
    """Replace the `adapted_from` block of project.yaml where it stands (at the end when it is
    missing); every other block, `shared_wording` of tools/shared.py among them, is kept as it
    is, in its place."""
    from shared import top_level_blocks  # (tools/shared.py, beside this script)

    head = "# files whose header says they were adapted from another project (tools/adapted.py)"
    lines = [head, "adapted_from:"]
    for upstream in sorted(adapted):
        lines.append(f"  {upstream}:")
        lines.extend(f"  - {p}" for p in sorted(adapted[upstream]))
    blocks = top_level_blocks(project_yaml.read_text(encoding="utf-8"))
    if not any(key == "adapted_from" for key, _ in blocks):
        blocks.append(("adapted_from", []))
    out: list[str] = []
    for key, block in blocks:
        out.extend(lines if key == "adapted_from" else block)
    project_yaml.write_text("\n".join(out).rstrip("\n") + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--project", default="sglang")
    ap.add_argument("roots", nargs="+", type=Path)
    args = ap.parse_args(argv)
    total: dict[str, set[str]] = {}
    for root in args.roots:
        if not (root / args.project).is_dir():
            print(f"adapted: {root} holds no {args.project}/ directory", file=sys.stderr)
            return 2
        for upstream, paths in adapted_files(root, args.project).items():
            total.setdefault(upstream, set()).update(paths)
    write(REPO / "errors" / args.project / "project.yaml", total)
    print(", ".join(f"{u}: {len(p)} files" for u, p in total.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
