"""The verification harness API: a case names a catalog entry and the code that raises it.

A case file (`tools/verify/cases/<group>.py`) holds `CASES = [case(...), ...]`:

    from harness import case

    CASES = [
        case("0123456789abcdef"),  # runs the entry's example_fix.before / .after
        case(
            "fedcba9876543210",
            setup="import verify_fixtures\\nm = verify_fixtures.model_dir(num_attention_heads=6)",
            before="from sglang.srt.server_args import prepare_server_args\\n...",
            after="...",
            note="the example needs a model whose head count ...",
        ),
    ]

`before`/`after` default to the entry's `example_fix.before`/`.after` (the catalog's example is
what is run). A bash example that starts `python -m sglang.launch_server`, `python3 -m
sglang.launch_server` or `sglang serve` (with `\\` continuations and leading `VAR=value`
assignments) is run as `prepare_server_args(flags)`, `.resolve_once()`, `.check_server_args()`
and `resolve_auto_parsers(...)`: argument parsing, every resolution hook and the launch-time
validation, no server. A `--model-path` (or draft model / tokenizer path) is passed through
`verify_fixtures.hub_model(name)`: a hub name (or a path that does not exist here) becomes a local
model directory of the same architecture (config.json and a small tokenizer). A case's own
`before`/`after` text is taken the same way when it starts with a launch command, else as Python.

This module is imported by `run.py` (the project's venv) and by the tests; it does not import
sglang or errexplain.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

RELEASE = "0.5.23"
GPU_ENV = "ERREXPLAIN_VERIFY_GPU"

LAUNCHERS = (
    ("python", "-m", "sglang.launch_server"),
    ("python3", "-m", "sglang.launch_server"),
    ("sglang", "serve"),
)
MODEL_FLAGS = frozenset(
    {
        "--model-path",
        "--model",
        "--tokenizer-path",
        "--speculative-draft-model-path",
        "--speculative-draft",
    }
)
_ENV = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


@dataclass(frozen=True, slots=True)
class Case:
    """One entry's check: `setup` runs before both halves; `before` must raise the entry's
    error, `after` must not. None means the entry's example_fix text. `expect` is an optional
    regex that the before half's error text must contain. `gpu` names the fake device the
    worker reports (a `verify_fixtures.GPUS` key, `KEY:count`, or "cpu" for none); None is the
    default, H100 x 8."""

    entry: str
    setup: str = ""
    before: str | None = None
    after: str | None = None
    expect: str | None = None
    note: str = ""
    group: str = field(default="", compare=False)
    gpu: str | None = None


def case(
    entry: str,
    setup: str = "",
    before: str | None = None,
    after: str | None = None,
    expect: str | None = None,
    note: str = "",
    gpu: str | None = None,
) -> Case:
    """A harness case for catalog entry `entry` (its 16-hex id)."""
    if not re.fullmatch(r"[0-9a-f]{16}", entry):
        raise ValueError(f"case(): {entry!r} is not a 16-hex catalog id")
    return Case(entry, setup, before, after, expect, note, gpu=gpu)


class NotRunnable(ValueError):
    """An example the harness cannot turn into code (the case must give it explicitly)."""


@dataclass(frozen=True, slots=True)
class Command:
    """A launch command: environment assignments and the server flags."""

    env: tuple[tuple[str, str], ...]
    argv: tuple[str, ...]


def _logical_lines(text: str) -> list[str]:
    """Join `\\` continuations, drop blank lines and comments."""
    joined = re.sub(r"\\\r?\n", " ", text)
    lines = []
    for raw in joined.splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            lines.append(line)
    return lines


def _launch(words: list[str]) -> list[str] | None:
    """The flags after a launcher, or None if the words are not a launch command."""
    for launcher in LAUNCHERS:
        n = len(launcher)
        if tuple(words[:n]) == launcher:
            rest = words[n:]
            if launcher[0] == "sglang" and rest and not rest[0].startswith("-"):
                rest = ["--model-path", *rest]  # `sglang serve MODEL ...`
            return rest
    return None


def parse_command(text: str) -> Command:
    """The one launch command of a bash example (env assignments, then the launcher)."""
    found: list[Command] = []
    for line in _logical_lines(text):
        try:
            words = shlex.split(line, comments=True)
        except ValueError as exc:
            raise NotRunnable(f"cannot split {line[:60]!r}: {exc}") from None
        env = []
        while words and _ENV.match(words[0]):
            name, _, value = words.pop(0).partition("=")
            env.append((name, value))
        if words and words[0] == "export":
            raise NotRunnable("an `export` line: give the case's before/after explicitly")
        flags = _launch(words)
        if flags is None:
            raise NotRunnable(f"not a launch command: {line[:60]!r}")
        if flags and flags[-1] == "&":
            flags = flags[:-1]
        found.append(Command(tuple(env), tuple(flags)))
    if len(found) != 1:
        raise NotRunnable(f"expected one launch command, found {len(found)}")
    return found[0]


def _model_arg(value: str) -> str:
    return f"verify_fixtures.hub_model({value!r})"


def argv_source(argv: tuple[str, ...]) -> str:
    """Python source of a list expression for the flags, with model names made local."""
    items = []
    prev = ""
    for word in argv:
        flag, eq, value = word.partition("=")
        if prev in MODEL_FLAGS:
            items.append(_model_arg(word))
        elif eq and flag in MODEL_FLAGS:
            items.append(f"{flag + '='!r} + {_model_arg(value)}")
        else:
            items.append(repr(word))
        prev = word
    return "[" + ", ".join(items) + "]"


SERVER_ARGS_CODE = """\
import verify_fixtures
from sglang.srt.parser.template_detection import resolve_auto_parsers
from sglang.srt.server_args import prepare_server_args

server_args = prepare_server_args({argv})
server_args.resolve_once()
server_args.check_server_args()
resolve_auto_parsers(server_args)
"""
"""What `sglang serve` does with its flags before it starts anything: parse, resolve (every
arg_groups hook), validate (`check_server_args`), pick the reasoning/tool parsers (as
`Engine._launch_subprocesses` does, in this order)."""


def bash_code(text: str) -> tuple[dict[str, str], str]:
    """(environment, Python source) for a bash example's one launch command."""
    cmd = parse_command(text)
    return dict(cmd.env), SERVER_ARGS_CODE.format(argv=argv_source(cmd.argv))


def looks_like_launch(text: str) -> bool:
    """True if the text's first command line is a server launch (after env assignments)."""
    lines = _logical_lines(text)
    if not lines:
        return False
    try:
        words = shlex.split(lines[0], comments=True)
    except ValueError:
        return False
    while words and _ENV.match(words[0]):
        words.pop(0)
    return _launch(words) is not None


def half_code(text: str, language: str) -> tuple[dict[str, str], str]:
    """(environment, Python source) to run for one half. `language` is the example's; a
    case's own text is given as language "auto" (a launch command, or else Python)."""
    if language == "bash" or (language == "auto" and looks_like_launch(text)):
        return bash_code(text)
    if language in ("python", "auto"):
        return {}, text
    raise NotRunnable(f"a {language} example: give the case's before/after explicitly")
