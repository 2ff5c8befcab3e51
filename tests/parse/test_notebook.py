"""errexplain.parse.notebook: a Jupyter notebook's saved outputs read as the notebook shows
them (whole notebooks of nbformat 4 and 3, one output, a piece of a file pasted with prose)."""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from errexplain.models import Frame
from errexplain.parse import parse_traceback
from errexplain.parse.notebook import notebook_outputs

ESC = "\x1b"


def _c(code: str, text: str) -> str:
    return f"{ESC}[{code}m{text}{ESC}[0m"


# IPython 8's traceback as a notebook saves it: one string per part, with its colour codes
IPY8 = [
    _c("0;31", "-" * 75),
    _c("0;31", "KeyError") + " " * 30 + "Traceback (most recent call last)",
    "Cell "
    + _c("0;32", "In[4], line 2")
    + "\n"
    + _c("1;32", "      1")
    + " cfg = load()\n"
    + _c("0;32", "----> 2")
    + " build(cfg)\n",
    "File "
    + _c("0;32", "~/proj/builder.py:88")
    + ", in "
    + _c("0;36", "build")
    + _c("0;34", "(cfg)")
    + "\n"
    + _c("1;32", "     87")
    + " def build(cfg):\n"
    + _c("0;32", "---> 88")
    + "     return cfg['layers'][0]\n",
    _c("0;31", "KeyError") + ": 'layers'",
]

# IPython 7's: `<ipython-input-N-hash> in <module>` and `/path.py in f(args)`
IPY7 = [
    _c("0;31", "-" * 75),
    _c("0;31", "OSError") + " " * 30 + "Traceback (most recent call last)",
    _c("0;32", "<ipython-input-3-0c1d2e>")
    + " in "
    + _c("0;36", "<module>")
    + "\n"
    + _c("0;32", "----> 1")
    + " read('w/')\n",
    _c("0;32", "/opt/conda/lib/python3.8/site-packages/wlib/io.py")
    + " in "
    + _c("0;36", "read")
    + _c("0;34", "(path)")
    + "\n"
    + _c("1;32", "     40")
    + " if not os.path.isdir(path):\n"
    + _c("0;32", "---> 41")
    + "     raise OSError(f'no weights under {path}')\n",
    _c("0;31", "OSError") + ": no weights under w/",
]


def _nb(*outputs: dict, source: str = "build(cfg)\n") -> dict:
    cell = {
        "cell_type": "code",
        "execution_count": 4,
        "id": "c1",
        "metadata": {},
        "outputs": list(outputs),
        "source": source.splitlines(keepends=True),
    }
    return {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def _error(ename: str, evalue: str, tb: list[str]) -> dict:
    return {"ename": ename, "evalue": evalue, "output_type": "error", "traceback": tb}


def _stream(text: str, name: str = "stderr") -> dict:
    return {"name": name, "output_type": "stream", "text": text.splitlines(keepends=True)}


def test_whole_notebook_reads_its_streams_and_traceback() -> None:
    nb = _nb(
        _stream("[2026-12-01 10:00:00] Load weight begin.\n"),
        _error("KeyError", "'layers'", IPY8),
    )
    printed = notebook_outputs(json.dumps(nb, indent=1))
    assert printed is not None and ESC not in printed
    assert printed.startswith("[2026-12-01 10:00:00] Load weight begin.\n\n---")
    (err,) = parse_traceback(printed)
    assert (err.type, err.message, err.form) == ("KeyError", "'layers'", "jupyter")
    assert err.frames[-1] == Frame("~/proj/builder.py", 88, "build", "return cfg['layers'][0]")


def test_version_3_notebook_and_ipython_7_traceback() -> None:
    nb = {
        "nbformat": 3,
        "worksheets": [
            {
                "cells": [
                    {
                        "cell_type": "code",
                        "input": ["read('w/')\n"],
                        "outputs": [_error("OSError", "no weights under w/", IPY7)],
                    }
                ]
            }
        ],
    }
    nb["worksheets"][0]["cells"][0]["outputs"][0]["output_type"] = "pyerr"
    (err,) = parse_traceback(notebook_outputs(json.dumps(nb, indent=1)) or "")
    assert (err.type, err.message) == ("OSError", "no weights under w/")
    assert err.frames[-1].path == "/opt/conda/lib/python3.8/site-packages/wlib/io.py"
    assert (err.frames[-1].line, err.frames[-1].function) == (41, "read")


@pytest.mark.parametrize("tb", [[], ["An exception has occurred, use %tb to see the full one."]])
def test_error_line_added_when_the_traceback_has_none(tb: list[str]) -> None:
    printed = notebook_outputs(json.dumps(_nb(_error("SystemExit", "2", tb)), indent=1))
    assert printed is not None and printed.rstrip().endswith("SystemExit: 2")


def test_cell_source_is_not_read_as_an_error() -> None:
    source = 'raise ValueError("written in the cell, not raised")\n'
    nb = _nb(_stream("done\n", "stdout"), source=source)
    printed = notebook_outputs(json.dumps(nb, indent=1))
    assert printed == "done\n"
    assert parse_traceback(printed) == ()


def test_one_output_and_a_minified_notebook() -> None:
    one = notebook_outputs(json.dumps(_error("KeyError", "'layers'", IPY8)))
    assert one is not None and one.rstrip().endswith("KeyError: 'layers'")
    minified = notebook_outputs(json.dumps(_nb(_error("KeyError", "'layers'", IPY8))))
    assert minified == one


def test_result_plain_text_is_read() -> None:
    result = {"data": {"text/plain": ["'ok'"]}, "output_type": "execute_result", "metadata": {}}
    assert notebook_outputs(json.dumps(_nb(result), indent=1)) == "'ok'\n"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "ValueError: plain text\n",
        'the key "output_type" is what nbformat writes\n',
        '{"output_type": "stream", "text": ""}',
        '{"cells": []}\n"output_type"',
        # another program's setting of the same name (a logged server_args), with a text key
        'server_args: {"output_type": "pil", "text": "a\\nb", "ename": "x"}',
        '{\n "output_type": "pil",\n "text": [\n  "ValueError: not an output\\n"\n ]\n}',
    ],
)
def test_no_notebook_output_keeps_the_text(text: str) -> None:
    assert notebook_outputs(text) is None


def test_a_piece_of_a_notebook_in_prose() -> None:
    """A paste that copies part of the file (the JSON is not whole) between sentences: the
    prose is kept, the cell's output read, its source and the JSON's keys left out."""
    whole = json.dumps(_nb(_error("KeyError", "'layers'", IPY8)), indent=1).split("\n")
    start = next(i for i, ln in enumerate(whole) if '"outputs"' in ln)
    piece = "I get this when I run the cell:\n" + "\n".join(whole[start:-4]) + "\nAny idea?"
    printed = notebook_outputs(piece)
    assert printed is not None
    assert printed.startswith("I get this when I run the cell:\n")
    assert printed.rstrip().endswith("Any idea?")
    assert '"' + "ename" not in printed and "build(cfg)\n" not in printed.split("----> 2")[0]
    (err,) = parse_traceback(printed)
    assert (err.type, err.message) == ("KeyError", "'layers'")
    assert err.frames[-1].path == "~/proj/builder.py"


def test_a_piece_cut_inside_the_traceback() -> None:
    """A paste that ends inside the traceback list: the frames read so far, and the error's
    line from its `ename` and `evalue` (the traceback's own last line was cut off)."""
    whole = json.dumps(_nb(_error("KeyError", "'layers'", IPY8)), indent=1).split("\n")
    cut = next(i for i, ln in enumerate(whole) if "proj/builder.py" in ln)
    printed = notebook_outputs("\n".join(whole[: cut + 1]))
    (err,) = parse_traceback(printed or "")
    assert (err.type, err.message) == ("KeyError", "'layers'")
    assert err.frames[-1].path == "~/proj/builder.py"


_LINE = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=30)
_OUTPUT = st.one_of(
    st.builds(lambda ls: _stream("".join(x + "\n" for x in ls)), st.lists(_LINE, min_size=1)),
    st.builds(
        lambda name, value: _error(name, value, [f"{name}: {value}"]),
        st.from_regex(r"[A-Z][a-z]{1,8}Error", fullmatch=True),
        _LINE,
    ),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_OUTPUT, min_size=1, max_size=5))
def test_a_piece_reads_as_the_whole_does(outputs: list[dict]) -> None:
    """The same outputs, read from the whole file (JSON) and from the file with a line of prose
    before it (line by line), print the same non-blank lines in the same order."""
    text = json.dumps(_nb(*outputs), indent=1)
    whole = notebook_outputs(text)
    piece = notebook_outputs("prose before\n" + text)
    if whole is None:
        assert piece is None or not piece.replace("prose before", "").strip()
        return
    assert piece is not None

    def lines(s: str) -> list[str]:
        return [ln for ln in s.split("\n") if ln.strip()]

    assert lines(piece) == ["prose before", *lines(whole)]


@pytest.mark.heavy
@pytest.mark.parametrize(
    "text",
    [
        '"output_type"\n' + ' "traceback": [\n' * 60_000,
        '"output_type"\n"traceback": [\n' + '  "' + "\\u001b[0;31m" * 200_000 + '",\n',
        '"output_type"\n' + '"ename": "E",\n"traceback": []\n' * 30_000,
        '"output_type"\n' + '"x' * 300_000,
        '[{"output_type": "error", "ename": "E", "traceback": ["' + "a\\n" * 300_000 + '"]}]',
    ],
    ids=range(5),
)
def test_linear_time(text: str, untraced: None) -> None:
    """The whole input costs at most 6x its first quarter (quadratic work would cost 16x)."""

    def cpu(t: str) -> float:
        start = time.process_time()
        notebook_outputs(t)
        return time.process_time() - start

    quarter = min(cpu(text[: len(text) // 4]) for _ in range(2))
    full = min(cpu(text) for _ in range(2))
    assert full <= 6 * quarter + 0.5
