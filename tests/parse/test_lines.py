"""errexplain.parse.lines: one line of a paste cleaned (log prefixes and ranks, ANSI, quotes,
fences, backticks, issue-title tags) and classified (frames, headers, chains, exception heads,
exceptions inside log lines)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from errexplain.parse.lines import (
    CHAIN,
    clean_lines,
    embedded_exception,
    exception_head,
    indent,
    line_kind,
    pasted_lines,
    skippable,
    structural,
)


def _texts(text: str) -> list[str]:
    return [ln.text for ln in clean_lines(text)]


@pytest.mark.parametrize(
    ("raw", "text", "rank"),
    [
        ("[2026-10-02 11:04:09 TP0] ValueError: bad", "ValueError: bad", "TP0"),
        ("[2026-10-02 11:04:09 DP1 TP3 EP3] KeyError: 'x'", "KeyError: 'x'", "DP1 TP3 EP3"),
        # the start of the prefix cut off by the paster's selection: the closing bracket tells
        ("026-05-28 00:11:09.816 DP0 TP0 EP0] Scheduler died", "Scheduler died", "DP0 TP0 EP0"),
        ("05-28 00:11:09 TP1] KeyError: 'x'", "KeyError: 'x'", "TP1"),
        # context- and expert-parallel ranks (sglang 0.5.16+): labels with an underscore
        (
            "[2026-04-20 21:34:08 ATTN_CP1 MOE_DP1 TP2] Ignore import error when loading x: y",
            "Ignore import error when loading x: y",
            "ATTN_CP1 MOE_DP1 TP2",
        ),
        # sglang's diffusion runtime (`[%m-%d %H:%M:%S] `) and sglang 0.3 (`[%H:%M:%S TP0] `)
        ("[10-02 11:04:09] ValueError: bad", "ValueError: bad", None),
        ("[10-02 11:04:09 TP1] ValueError: bad", "ValueError: bad", "TP1"),
        ("[11:04:09 TP0] Scheduler hit an exception:", "Scheduler hit an exception:", "TP0"),
        ("[rank3]: RuntimeError: boom", "RuntimeError: boom", "rank3"),
        ("(TP0 pid=55) ValueError: bad", "ValueError: bad", "TP0"),
        ("[2025-11-06T02:10:00.702Z] KeyError: 'x'", "KeyError: 'x'", None),
        ("worker-longctx-1  | Exception: boom", "Exception: boom", None),
        ("ERROR 2026-04-04T06:24:51.493646621Z KeyError: 'x'", "KeyError: 'x'", None),
        ("WARNING 2026-04-04 06:24:51+00:00 Exception: boom", "Exception: boom", None),
        ('sglang_server_1  |   File "/x.py", line 3', '  File "/x.py", line 3', None),
        # the logging call's `[file.py:line]` after a level and a stamp (`%(filename)s`)
        ("ERROR 2026-04-04 06:24:51,493 [pool.py:88] Pool drained", "Pool drained", None),
        ("2026-04-04 06:24:51,493 ERROR [pool.py:88] Pool drained", "Pool drained", None),
        # ... and with the stamp between them left out by the paster
        ("WARNING [fused_pool.py:1167] Pool drained", "Pool drained", None),
        ("WARNING [not a file] Pool drained", "WARNING [not a file] Pool drained", None),
        # Python's own warning line: the warning's text is the record
        (
            "/srv/pkg/lang/run.py:330: UserWarning: Error in executor: x",
            "Error in executor: x",
            None,
        ),
        (
            "<frozen runpy>:128: RuntimeWarning: 'a' found in sys.modules",
            "'a' found in sys.modules",
            None,
        ),
        # vLLM's logger before 0.6.4, printed by sglang 0.1-0.3's vLLM-based loaders (the
        # date left out by some configurations)
        ("INFO 11-26 14:23:34 weight_utils.py:243] Using weights", "Using weights", None),
        (
            "ERROR 16:58:08 scheduler.py:2626] Scheduler hit an exception:",
            "Scheduler hit an exception:",
            None,
        ),
        ("ERROR 05-26 16:58:08 not a file] x", "ERROR 05-26 16:58:08 not a file] x", None),
        # a collector's stamp before it: the level carries a stamp of its own, so the first
        # stamp is the collector's, and both prefixes are read
        (
            "2026-12-04T10:11:12.123456789Z WARNING 01-30 21:39:03 cuda.py:33] Disabled",
            "Disabled",
            None,
        ),
        (
            "2026-12-04T10:11:12.123456789Z ERROR 08-05 23:29:38 [worker.py:226] boom",
            "boom",
            None,
        ),
        # a root logger's format after sglang's stamp: the level and the call's `file.py:123:`
        (
            "[2026-03-16 10:16:49] WARNING server_args.py:890: The parser is deprecated.",
            "The parser is deprecated.",
            None,
        ),
        ("[2026-03-16 10:16:49 TP2] INFO trace.py:48: tracing off", "tracing off", "TP2"),
        ("WARNING server_args.py:890 The parser", "WARNING server_args.py:890 The parser", None),
        # sglang's prefix with its stamp left out by the paster: the ranks alone
        ("[TP0] Watchdog timeout", "Watchdog timeout", "TP0"),
        (
            "[DP3 TP3 EP3 PP1] Scheduler hit an exception:",
            "Scheduler hit an exception:",
            "DP3 TP3 EP3 PP1",
        ),
        # markdown emphasis marks a post put before a record
        ("**_**[2025-08-21 20:15:54 TP4] Worker failed.", "Worker failed.", "TP4"),
        ("**[2025-08-21 20:15:54] Worker failed.**", "Worker failed.**", None),
        (
            "2026-12-04T10:11:12Z **[2025-08-21 20:15:54 TP1] Worker failed.",
            "Worker failed.",
            "TP1",
        ),
        ("**bold prose** line", "**bold prose** line", None),
        ("[H100] results", "[H100] results", None),  # a tag, not ranks
        ("[E2E] test failed", "[E2E] test failed", None),
        ("| a | b |", "| a | b |", None),
        ("plain line", "plain line", None),
    ],
)
def test_log_prefixes_are_removed_and_the_rank_kept(raw, text, rank):
    [line] = clean_lines(raw)
    assert line.text == text
    assert line.rank == rank
    assert line.no == 1


def test_stream_prefix_is_kept_apart_from_record_prefixes():
    [line] = clean_lines("(TP0 pid=55) ValueError: bad")
    assert line.stream and not line.record
    [line] = clean_lines("[2026-10-02 11:04:09 TP0] ValueError: bad")
    assert line.record and not line.stream


def test_ansi_crlf_tabs_and_quotes_are_cleaned():
    assert _texts("\x1b[31mValueError\x1b[0m: red\r\n> quoted\r\n\tTAB") == [
        "ValueError: red",
        "quoted",
        "    TAB",
    ]


def test_fences_become_marked_lines_and_their_text_goes():
    lines = clean_lines("```python\nValueError: x\n```")
    assert [ln.text for ln in lines if ln.text] == ["ValueError: x"]
    assert {ln.no for ln in lines if ln.fence} == {1, 3}
    assert not any(ln.fence for ln in lines if ln.no == 2)


def test_backticks_around_a_whole_line_and_issue_title_tags_are_dropped():
    assert _texts("`ValueError: bad size`") == ["ValueError: bad size"]
    assert _texts("[Bug]: ValueError: bad size") == ["ValueError: bad size"]
    assert _texts("see `ValueError: bad` here") == ["see `ValueError: bad` here"]  # prose


def test_a_header_glued_after_text_is_split_onto_its_own_line():
    texts = _texts("some log text Traceback (most recent call last):")
    assert "Traceback (most recent call last):" in texts


@given(st.text(max_size=300))
def test_clean_lines_is_total_and_numbers_every_input_line(text):
    lines = clean_lines(text)
    physical = text.replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1
    assert {ln.no for ln in lines} <= set(range(1, physical + 1))
    assert all(isinstance(ln.text, str) for ln in lines)


@pytest.mark.parametrize(
    ("line", "lax", "expected"),
    [
        ("ValueError: bad size", False, ("ValueError", "bad size")),
        ("torch.AcceleratorError: CUDA error", False, ("torch.AcceleratorError", "CUDA error")),
        ("KeyboardInterrupt", False, ("KeyboardInterrupt", "")),
        ("ValueError", False, ("ValueError", "")),
        ("Note: this is prose", False, None),
        ("Note: this is prose", True, ("Note", "this is prose")),
        ("ERROR: all caps is a log level", True, None),
        ("2026: a year", False, None),
        ("Error: too short a name", False, None),
        # a module's private exception class, right after the frames
        ("pkg.ipc._Unsupported: shared devices", True, ("pkg.ipc._Unsupported", "shared devices")),
        ("_KVError: timed out", False, ("_KVError", "timed out")),
        ("_private: not a class name", True, None),
    ],
)
def test_exception_head(line, lax, expected):
    assert exception_head(line, lax) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "Decode failed with exception KVTransferError(room=3): peer closed",
            ("KVTransferError", "peer closed"),
        ),
        ("I get `ValueError: bad` when starting", ("ValueError", "bad")),
        # a class of an errors module, whatever its name
        (
            "Worker hit: compiler.exc.Unsupported: graph break on print",
            ("compiler.exc.Unsupported", "graph break on print"),
        ),
        ("it says kernels.errors.OutOfResources: smem", ("kernels.errors.OutOfResources", "smem")),
        ("see notes.Unsupported: nothing", None),  # a module not named for errors
        # a string's break escape before it (a repr left whole): the `n` is not the name's
        ("err='calling tools:\\nclient.APIError: code 500'", ("client.APIError", "code 500'")),
        ("C:\\Temp\\ValueError: a path", None),
        ("no exception in this line", None),
    ],
)
def test_embedded_exception(line, expected):
    assert embedded_exception(line) == expected


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ('File "/x/y.py", line 3, in f', "frame"),
        ("Traceback (most recent call last):", "header"),
        ("Exception Group Traceback (most recent call last):", "header"),
        ("+ Exception Group Traceback (most recent call last):", "group"),
        ("+---------------- 1 ----------------", "separator"),
        ("^^^^^^^", "skip"),
        ("[Previous line repeated 996 more times]", "skip"),
        ("ValueError: x", ""),
        ('File "x.py" without a line number', ""),
    ],
)
def test_line_kind(line, kind):
    assert line_kind(line) == kind


def test_chain_lines_are_structural():
    for st_ in CHAIN:
        assert line_kind(st_) == "chain" and structural(st_)
    assert not structural("ValueError: x")


def test_skippable_and_indent():
    assert skippable("   ~~~^^^") and skippable("...") and not skippable("x")
    assert indent("    x") == 4 and indent("x") == 0


def test_docker_compose_streams_parse_apart():
    text = (
        "api-1     | INFO: started\n"
        "worker-1  | Traceback (most recent call last):\n"
        'worker-1  |   File "/app/pkg/run.py", line 9, in main\n'
        "worker-1  |     go()\n"
        "worker-1  | Exception: Capture cuda graph failed: boom\n"
    )
    from errexplain.parse import parse_traceback

    (err,) = parse_traceback(text)
    assert (err.type, err.message) == ("Exception", "Capture cuda graph failed: boom")
    assert [(f.path, f.line) for f in err.frames] == [("/app/pkg/run.py", 9)]


@pytest.mark.parametrize(
    "stream",
    [
        "2026-01-02T10:00:00.123456789Z stderr F ",  # a container runtime's log file (CRI)
        "Jan 02 10:00:00 gpu-node-3 python3[12345]: ",  # journald / syslog
        "Jan  2 10:00:00 gpu-node-3 sglang.service: ",
        "[pod/sglang-0/server] ",  # kubectl logs --prefix
        "2026-01-02T10:00:00.123456789Z ",  # kubectl logs --timestamps, docker logs -t
        "2026-01-02T10:00:00.1234567Z ",  # a CI runner's raw log
    ],
)
def test_cluster_log_streams_are_prefixes(stream):
    text = "".join(
        stream + ln + "\n"
        for ln in (
            "[2026-01-02 10:00:00 TP0] Scheduler hit an exception: "
            "Traceback (most recent call last):",
            '  File "/app/pkg/run.py", line 9, in main',
            "    go()",
            "ValueError: the page size must divide the chunk size",
        )
    )
    from errexplain.parse import parse_traceback

    (err,) = parse_traceback(text)
    assert (err.type, err.message) == ("ValueError", "the page size must divide the chunk size")
    assert [(f.path, f.line) for f in err.frames] == [("/app/pkg/run.py", 9)]
    (line,) = clean_lines(stream + "[2026-01-02 10:00:00 TP0] config file x.yaml not found")
    assert line.text == "config file x.yaml not found" and line.record


@pytest.mark.parametrize(
    "stamp",
    [
        lambda n: f"2026-01-02T10:00:0{n}.{n}23456789Z ",  # kubectl logs --timestamps
        lambda n: f"2026-01-02T10:00:0{n}.{n}23456789Z stderr F ",  # a CRI log file
        lambda n: f"Jan 02 10:00:0{n} gpu-node-3 python3[12345]: ",  # journald
        lambda n: f"2026-01-02T10:00:0{n}+0000 gpu-node-3 python3[12345]: ",  # -o short-iso
        # aws logs tail: the event's stamp and its log stream
        lambda n: f"2026-01-02T10:00:0{n}.{n}80000+00:00 ecs/sglang/320c2c3e42174603b624e0a08 ",
    ],
)
def test_a_stream_whose_stamp_changes_from_line_to_line_is_one_stream(stamp):
    """Each line of a collected log has its own time: the lines are still one process's, and
    its traceback's frames are read (a stream named with its stamp made each line a stream)."""
    from errexplain.parse import parse_traceback

    lines = (
        "Traceback (most recent call last):",
        '  File "/app/pkg/run.py", line 9, in main',
        "    go()",
        "ValueError: the page size must divide the chunk size",
    )
    (err,) = parse_traceback("".join(stamp(n) + ln + "\n" for n, ln in enumerate(lines)))
    assert err.message == "the page size must divide the chunk size"
    assert [(f.path, f.line) for f in err.frames] == [("/app/pkg/run.py", 9)]


def test_a_collectors_stamp_on_every_line_keeps_a_message_whole():
    from errexplain.parse import parse_traceback

    lines = (
        "ImportError: Please install the transfer engine by following the steps at",
        "https://example.org/install.html to run",
        "the server with its disaggregation backend.",
    )
    (err,) = parse_traceback("".join(f"2026-01-02T10:00:00.5Z {ln}\n" for ln in lines))
    (bare,) = parse_traceback("".join(f"{ln}\n" for ln in lines))
    assert err.message == bare.message
    assert err.message.endswith("with its disaggregation backend.")


@pytest.mark.parametrize(
    "line",
    [
        "WARNING:pkg.server:worker 3 lost its connection",  # logging.basicConfig's format
        "[2026-01-02 10:00:00 TP0] worker 3 lost its connection",
        "worker 3 lost its connection",
    ],
)
def test_a_collectors_stamp_is_read_as_if_absent(line):
    (stamped,) = clean_lines("2026-01-02T10:00:00.123456789Z " + line)
    (bare,) = clean_lines(line)
    assert (stamped.text, stamped.record, stamped.rank) == (bare.text, bare.record, bare.rank)


@pytest.mark.parametrize(
    "line",
    [
        "2026-01-02T10:00:00.123Z - pkg.server - ERROR - worker 3 lost its connection",
        "2026-01-02T10:00:00.123Z | ERROR | worker 3 lost its connection",
        "2026-01-02T10:00:00.123456Z ERROR worker 3 lost its connection",
    ],
)
def test_a_stamp_the_programs_own_logger_wrote_starts_a_record(line):
    (cleaned,) = clean_lines(line)
    assert cleaned.text == "worker 3 lost its connection" and cleaned.record


def test_a_paste_indented_as_a_whole_is_read_at_its_margin():
    """Four spaces make a markdown code block (and a notebook's output is often pasted so): the
    shared margin goes, log prefixes are found, a traceback keeps its relative indentation."""
    body = (
        "[2026-04-09 10:04:40 TP0] Loading weights failed: shard 3 missing\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/app.py", line 3, in <module>\n'
        "    main()\n"
        "ValueError: shard 3 missing\n"
    )
    indented = "\n" + "".join(f"    {ln}\n" if ln else "\n" for ln in body.split("\n"))
    lines = [ln for ln in clean_lines(indented) if ln.text]
    assert [ln.text for ln in lines] == [ln.text for ln in clean_lines(body) if ln.text]
    assert lines[0].prefix and lines[0].rank == "TP0"
    assert lines[2].text == '  File "/srv/app.py", line 3, in <module>'
    # a paste whose lines do not all share a margin is left as it is
    mixed = "Here is the log:\n    [2026-04-09 10:04:40] Loading weights failed\n"
    assert _texts(mixed)[1] == "    [2026-04-09 10:04:40] Loading weights failed"


def test_html_character_references_are_read_as_the_characters():
    """A paste taken from a page's HTML source writes quotes and brackets as references."""
    text = (
        "ValueError: Invalid value for &#39;mode&#39;: &quot;fast&quot; &lt;expected one of "
        "[a, b]&gt; &amp; more&#x21; &bogus; &#0;"
    )
    [line] = clean_lines(text)
    assert line.text == (
        "ValueError: Invalid value for 'mode': \"fast\" <expected one of [a, b]> & more! "
        "&bogus; &#0;"
    )


@pytest.mark.parametrize(
    "text",
    [
        'ValueError: bad body &lt;html&gt; from "proxy"',  # raw quotes: not a page's source
        "ValueError: bad body &lt;html&gt;",  # no escaped quote: nothing says it is escaped
    ],
)
def test_references_in_a_paste_that_is_not_html_escaped_are_kept(text):
    [line] = clean_lines(text)
    assert line.text == text


@pytest.mark.parametrize("marker", ["- ", "* ", "-   "])
def test_a_markdown_list_item_is_read_without_its_marker(marker):
    [line] = clean_lines(f"{marker}RuntimeError: the pool is exhausted")
    assert line.text == "RuntimeError: the pool is exhausted"
    [line] = clean_lines(f"{marker}`RuntimeError: the pool is exhausted`")
    assert line.text == "RuntimeError: the pool is exhausted"


def test_a_message_line_that_opens_with_a_dash_keeps_it():
    """A message may print a list of its own (`- rank 3 timed out`): only an exception line,
    a traceback header or a frame loses the list marker."""
    [line] = clean_lines("- rank 3 timed out")
    assert line.text == "- rank 3 timed out"


def test_a_traceback_pasted_as_list_items_keeps_its_indentation():
    """Every line a list item (`- ` before each): the markers go, what follows each stays as
    printed, so a frame's code line keeps its indentation and the frames still pair."""
    text = (
        "- Traceback (most recent call last):\n"
        '-   File "/srv/pkg/loader.py", line 12, in load\n'
        "-     param = params_dict[name]\n"
        "\n"
        "- KeyError: 'lm_head.weight'\n"
    )
    lines = [ln.text for ln in clean_lines(text)]
    assert lines == [
        "Traceback (most recent call last):",
        '  File "/srv/pkg/loader.py", line 12, in load',
        "    param = params_dict[name]",
        "",
        "KeyError: 'lm_head.weight'",
        "",
    ]
    # a line without the marker among them: each list item is read on its own
    mixed = text.replace("-     param", "      param")
    assert [ln.text for ln in clean_lines(mixed)][2] == "      param = params_dict[name]"


@pytest.mark.parametrize(
    "lead, opening, closing",
    [(" *", " /**", " */"), ("#", "", ""), ("        #", "", ""), ("//", "", "")],
)
def test_a_paste_that_is_a_comment_is_read_without_its_leaders(lead, opening, closing):
    """A docstring of comment lines quoting an error (` * `, `# `, `// ` before each line; a
    leader alone or the comment's opening and closing are blank lines): the leaders go, what
    follows each keeps its own indentation, so the quoted message is a line of its own."""
    body = ["The server rejects the request with:", "", "    Tool 6 has a bad schema: []", ""]
    text = "\n".join(
        [opening] * bool(opening)
        + [f"{lead} {b}".rstrip() for b in body]
        + [closing] * bool(closing)
    )
    lines = [ln.text for ln in clean_lines(text) if ln.text.strip()]
    assert lines == ["The server rejects the request with:", "    Tool 6 has a bad schema: []"]


def test_a_paste_with_a_line_outside_the_comment_keeps_its_leaders():
    text = "# Error\nValueError: a bad schema\n# that is all\n"
    assert [ln.text for ln in clean_lines(text)][:3] == [
        "# Error",
        "ValueError: a bad schema",
        "# that is all",
    ]


def test_an_exception_group_header_keeps_its_plus():
    [line] = clean_lines("+ Exception Group Traceback (most recent call last):")
    assert line.text.startswith("+ Exception Group")


def _cut_at(text: str, width: int) -> str:
    """The text as a terminal `width` columns wide copies it (bench/noise.py's own noise)."""
    import sys
    from pathlib import Path

    bench = str(Path(__file__).resolve().parents[2] / "bench")
    if bench not in sys.path:
        sys.path.insert(0, bench)
    import noise

    return noise._cut_at(width)(text)


HARD_LOG = (
    "[2026-01-02 10:00:00 TP0] Scheduler hit an exception: the request pool has no free slot "
    "left for request 7f3a after waiting 30 seconds; lower --max-running-requests\n"
    "[2026-01-02 10:00:00 TP1] Scheduler hit an exception: the request pool has no free slot "
    "left for request 9b21 after waiting 30 seconds; lower --max-running-requests\n"
    "[2026-01-02 10:00:01 TP0] RuntimeError: Not enough memory left for the cache of request "
    "7f3a: 4096 tokens asked, 1024 free in the pool of the first rank\n"
)


def test_a_paste_cut_at_a_terminals_width_is_read_joined():
    """Every long line cut at the same column (a terminal copy): the pieces are one line again,
    as printed (a cut falls mid-word: no space is added), numbered by its first line."""
    lines = clean_lines(_cut_at(HARD_LOG, 70))
    texts = [ln.text for ln in lines if ln.text]
    assert texts[-1] == (
        "RuntimeError: Not enough memory left for the cache of request 7f3a: 4096 tokens asked, "
        "1024 free in the pool of the first rank"
    )
    assert len(texts) == 3 and [ln.no for ln in lines if ln.text] == [1, 4, 7]


def test_lines_of_one_length_that_are_records_or_frames_are_not_joined():
    # eight ranks print the same record: every line as long as the longest, each a record
    ranks = "\n".join(
        f"[2026-01-02 10:00:00 TP{i}] Detected errors during sampling! NaN" for i in range(8)
    )
    assert len([ln for ln in clean_lines(ranks) if ln.text]) == 8
    # IPython pads its header to the width: neither it nor the rule is a cut line
    cell = (
        "-" * 75 + "\n"
        "OSError" + " " * 35 + "Traceback (most recent call last)\n"
        "Cell In[7], line 3\n"
        "----> 3 loader.read_weights('ckpt/')\n"
        "OSError: no weights under ckpt/ in the directory given for this job at all\n"
    )
    assert [ln.text for ln in clean_lines(cell)][2] == "Cell In[7], line 3"


def test_text_wrapped_at_words_is_not_taken_for_a_terminal_cut():
    # two lines of one length by chance, the rest shorter: no spike of equal lengths
    text = (
        "ValueError: TP rank 2 could finish the model loading, but there are other ranks\n"
        "that didn't finish loading. It is likely due to unexpected failures (e.g., OOM)\n"
        "or a slow node.\n"
    )
    assert len([ln for ln in clean_lines(text) if ln.text]) == 3


def test_a_frame_line_cut_inside_its_path_is_joined_to_the_rest():
    """The rest of a frame line cut at the width reads as a frame with its head cut off; after
    a `File "` line with no `", line` it is that line's rest."""
    from errexplain.parse import parse_traceback

    site = "/opt/conda/envs/serve/lib/python3.10/site-packages/"
    msg = "warmup failed with status 503 for the first request sent after the server started"
    tb = (
        "Traceback (most recent call last):\n"
        f'  File "{site}pkg/srt/entrypoints/http_server.py", line 548, in _wait_and_warmup\n'
        "    raise RuntimeError(f'warmup failed with status {res.status_code} for the "
        "first request')\n"
        f"RuntimeError: {msg}\n"
    )
    (err,) = parse_traceback(_cut_at(tb, 72))
    assert err.frames[-1].path.endswith("pkg/srt/entrypoints/http_server.py")
    assert (err.frames[-1].line, err.frames[-1].function) == (548, "_wait_and_warmup")
    assert (
        err.message
        == "warmup failed with status 503 for the first request sent after the server started"
    )


def test_a_frame_line_cut_inside_its_path_behind_a_stream_prefix_is_joined_to_the_rest():
    """The same behind a launcher's stream prefix on every line (SkyPilot's): the cut line
    opens with the prefix, not with `File "`, and is still a frame's head."""
    from errexplain.parse import parse_traceback

    pre = "(worker6, rank=6, pid=33713, ip=10.128.0.37) "
    tb = "".join(
        pre + ln + "\n"
        for ln in (
            "Traceback (most recent call last):",
            '  File "/home/user/sky_workdir/project/python/pkg/srt/managers/sched.py", line 12, '
            "in run",
            "    go()",
            "ValueError: the page size must divide the chunk size",
        )
    )
    (err,) = parse_traceback(_cut_at(tb, 80))
    assert [(f.path, f.line) for f in err.frames] == [
        ("/home/user/sky_workdir/project/python/pkg/srt/managers/sched.py", 12)
    ]


def test_a_short_paste_with_two_lines_cut_at_the_width_is_read_joined():
    """Two lines cut at one column are a terminal's cut when each cut splits a word or falls
    just before a space; a writer's line break does neither."""
    body = (
        '{"object":"error","message":"Internal server error: Chat template has no slot for '
        'the tool results that follow the assistant turn","type":"InternalServerError",'
        '"param":null,"code":500}'
    )
    cut = _cut_at(body, 80)
    assert cut.count("\n") == 2
    assert [ln.text for ln in clean_lines(cut) if ln.text] == [body]
    prose = (
        "Deploying the new checkpoint on one node with eight GPUs, after a few hours of "
        "serving it stops with Scheduler watchdog timeout (self.watchdog_timeout=300, "
        "self.soft=False) and nothing else in the log"
    )
    cut = _cut_at(prose, 80)
    assert cut.count("\n") == 2
    assert [ln.text for ln in clean_lines(cut + "\nLogs attached.") if ln.text] == [
        prose,
        "Logs attached.",
    ]
    # two lines of one length that end a sentence each are a writer's lines
    two = (
        "The scheduler printed the message below and then exited with code 1 at once.\n"
        "We retried with a smaller batch size and the same thing happened once again.\n"
        "Any idea?\n"
    )
    assert len([ln for ln in clean_lines(two) if ln.text]) == 3


def test_frames_of_one_directory_cut_at_one_width_are_read_joined():
    """Frames in one directory cut at the same column share the cut line's text (its head):
    each cut with the text it carried is one of the cut lines that tell the width."""
    from errexplain.parse import parse_traceback

    base = "/opt/app/python3.12/lib/python3.12/site-packages/pkg/srt/disaggregation/"
    tb = "Traceback (most recent call last):\n"
    for i, (name, func) in enumerate(
        [("prefill.py", "__init__"), ("prefill.py", "_init_kv_manager"), ("conn.py", "start")]
    ):
        tb += f'  File "{base}{name}", line {10 + i}, in {func}\n    step_{i}()\n'
    tb += "RuntimeError: memory registration failed.\n"
    cut = _cut_at(tb, 80)
    assert len({ln for ln in cut.split("\n") if len(ln) == 80}) == 1  # one head, three cuts
    (err,) = parse_traceback(cut)
    assert [(f.path, f.line, f.function) for f in err.frames] == [
        (f"{base}prefill.py", 10, "__init__"),
        (f"{base}prefill.py", 11, "_init_kv_manager"),
        (f"{base}conn.py", 12, "start"),
    ]


def test_a_record_repeated_as_the_longest_line_is_no_cut():
    """A record printed again and again (each at the paste's longest length) is one line for
    telling a width, whatever follows each copy: a blockquote's marker would otherwise let
    the next record read as the rest of a cut one."""
    rec = (
        "> app-1  | [2026-01-02 10:00:0{}] Shutdown signal received. "
        "It usually means one worker died."
    )
    text = "\n".join(
        [rec.format(i % 2) for i in range(5)]
        + ["> app-1  | [2026-01-02 10:00:02] ERROR:    Traceback (most recent call last):"]
        + ['> app-1  |   File "/usr/lib/python3.12/asyncio/runners.py", line 195, in run']
    )
    texts = [ln.text for ln in clean_lines(text) if ln.text]
    assert texts[:5] == ["Shutdown signal received. It usually means one worker died."] * 5


def test_one_frame_cut_inside_its_path_is_joined_in_a_short_paste():
    """Too few cut lines to tell a width: a frame line whose path is left open is still joined
    to the line that holds the path's rest."""
    from errexplain.parse import parse_traceback

    text = (
        "Traceback (most recent call last):\n"
        '  File "/usr/local/lib/python3.11/dist-packages/pkg/runtime/en\n'
        'trypoints/http_server.py", line 73, in wait_ready\n'
        "    raise RuntimeError(msg)\n"
        "RuntimeError: server did not become ready\n"
    )
    (err,) = parse_traceback(text)
    assert [(f.path, f.line, f.function) for f in err.frames] == [
        (
            "/usr/local/lib/python3.11/dist-packages/pkg/runtime/entrypoints/http_server.py",
            73,
            "wait_ready",
        ),
    ]


def test_an_exception_line_after_a_line_as_long_as_the_cut_ones_is_not_its_rest():
    """A traceback's source line may be exactly as long as the lines a terminal cut: the
    exception line after it starts the error, it is no cut line's rest."""
    record = (
        "[2026-03-04 05:06:07 TP1] Worker hit an exception while building the graph for "
        "the batch of requests that came in"
    )
    code = "    assert x.dtype in (torch.int8, torch.uint8, torch.float16, torch.bfloat16,  "
    assert len(code) == 80
    text = _cut_at(record + "\n" + record.replace("TP1", "TP2"), 80) + "\n"
    text += '  File "/srv/kern/ops.py", line 9, in dot\n' + code + "\n"
    text += "AssertionError: Unsupported rhs dtype fp8e4nv\n"
    texts = [ln.text.strip() for ln in clean_lines(text) if ln.text.strip()]
    assert texts[-1] == "AssertionError: Unsupported rhs dtype fp8e4nv"


def test_an_html_code_block_around_the_error_is_read_as_a_fence():
    text = (
        "<details><summary>server log</summary>\n"
        "<pre><code>[2026-04-04 06:24:51 TP0] Pool drained: 0 pages left\n"
        "ValueError: no pages left for request 17</code></pre>\n"
        "</details>\n"
    )
    lines = clean_lines(text)
    texts = [ln.text for ln in lines if ln.text]
    assert "Pool drained: 0 pages left" in texts
    assert "ValueError: no pages left for request 17" in texts
    assert [ln.no for ln in lines if ln.fence] == [2, 3]


def test_a_structured_log_record_is_read_as_the_lines_it_printed():
    from errexplain.parse import parse_traceback

    record = {
        "time": "2026-04-04T06:24:51Z",
        "level": "ERROR",
        "message": "Worker hit an exception:",
        "exc_info": 'Traceback (most recent call last):\n  File "/srv/pool.py", line 88, in take\n'
        "    raise PoolError(msg)\npool.PoolError: no pages left for request 17",
    }
    import json

    (err,) = parse_traceback("Collector output:\n" + json.dumps(record) + "\n")
    assert (err.type, err.message) == ("pool.PoolError", "no pages left for request 17")
    assert err.frames[-1].path == "/srv/pool.py" and err.frames[-1].line == 88
    # docker's json-file driver: one record per printed line, its text under "log"
    docker = "\n".join(
        json.dumps({"log": line + "\n", "stream": "stderr", "time": "2026-04-04T06:24:51Z"})
        for line in record["exc_info"].split("\n")
    )
    (err,) = parse_traceback(docker)
    assert err.type == "pool.PoolError" and err.frames[-1].function == "take"


def test_an_error_body_with_a_line_break_in_its_message_stays_a_body():
    from errexplain.parse import parse_traceback

    body = '{"object": "error", "message": "Pool drained.\\nRetry later.", "code": 503}'
    assert [e.form for e in parse_traceback(body)] == ["json"]


def test_a_json_line_nested_deeper_than_the_decoder_goes_is_an_ordinary_line():
    deep = "{" + '"a":{' * 5000 + '"level": 1' + "}" * 5001
    assert [ln.text for ln in clean_lines(deep)] == [deep]


def test_a_short_dashed_line_goes_on_a_message_and_only_ipythons_rule_is_structure():
    """`---` under a message is part of it; IPython's rule (30 dashes or more) is structure.
    The width-rule test of the line cleaner (`=====`, `_ _ _`) is a separate one."""
    from errexplain.parse import parse_traceback

    text = 'Traceback (most recent call last):\n  File "x.py", line 3, in f\nValueError: 0\n---\n'
    assert parse_traceback(text)[0].message == "0\n---"
    assert line_kind("-" * 40) == "rule"
    assert line_kind("---") == line_kind("==== FAILURES ====") == ""


def test_typographic_quotes_read_as_the_straight_ones_the_program_printed():
    from errexplain.parse import parse_traceback

    straight = (
        "Traceback (most recent call last):\n"
        '  File "/app/pkg/run.py", line 9, in main\n'
        "    go()\n"
        "ImportError: cannot import name 'fast_path' from 'pkg.ops' (/app/pkg/ops.py)\n"
    )
    curly = straight.replace('"/app/pkg/run.py"', "\u201c/app/pkg/run.py\u201d")
    curly = curly.replace("'fast_path'", "\u2018fast_path\u2019").replace(
        "'pkg.ops'", "\u2018pkg.ops\u2019"
    )
    (want,) = parse_traceback(straight)
    (got,) = parse_traceback(curly)
    assert (got.type, got.message, got.frames) == (want.type, want.message, want.frames)


def test_colour_codes_that_lost_their_escape_character_are_left_out():
    """A coloured log shown on a web page loses the escape character of each colour code
    (`[31mERROR[0m`); `cat -v` shows it as `^[` and a carriage return as `^M`."""
    from errexplain.parse import parse_traceback

    text = (
        "[31mTraceback (most recent call last):[0m\n"
        '  File [32m"/srv/app/pool.py"[0m, line [32m88[0m, in [35mtake[0m\n'
        "    raise PoolError(msg)\n"
        "[1;35mpool.PoolError[0m: [35mno pages left for request 17[0m\n"
    )
    (err,) = parse_traceback(text)
    assert (err.type, err.message) == ("pool.PoolError", "no pages left for request 17")
    assert (err.frames[-1].path, err.frames[-1].line, err.frames[-1].function) == (
        "/srv/app/pool.py",
        88,
        "take",
    )
    caret = "^[[1;36m(Worker pid=7)^[[0;0m ERROR x^M^[[1;36m(Worker pid=7)^[[0;0m ValueError: bad"
    assert [ln.text for ln in clean_lines(caret)][-1] == "ValueError: bad"


def test_bracketed_numbers_stay_without_a_reset_code():
    """Without a reset code (`[0m`) a bracketed number before an `m` is the text's own."""
    assert [ln.text for ln in clean_lines("ValueError: shape [32m] is wrong")] == [
        "ValueError: shape [32m] is wrong"
    ]


def test_a_dotted_logger_name_after_the_level_is_part_of_the_prefix():
    (line,) = clean_lines("2026-01-02 10:00:00 ERROR sglang.srt.pool: Pool drained for r17")
    assert (line.prefix, line.text) == (
        "2026-01-02 10:00:00 ERROR sglang.srt.pool: ",
        "Pool drained for r17",
    )
    (line,) = clean_lines("2026-01-02 10:00:00 ERROR torch.OutOfMemoryError: CUDA out of memory.")
    assert line.text == "torch.OutOfMemoryError: CUDA out of memory."


def test_a_log_logged_as_a_string_repr_is_read_line_by_line() -> None:
    from errexplain.parse.lines import clean_lines

    log = "[2026-03-01 10:00:00 TP0] Worker stopped\nRuntimeError: pool exhausted\n  (see above)"
    lines = clean_lines(f"job.output={log!r}")
    assert [ln.text for ln in lines] == [
        "job.output=",
        "Worker stopped",
        "RuntimeError: pool exhausted",
        "  (see above)",
    ]
    assert lines[1].prefix == "[2026-03-01 10:00:00 TP0] "


@pytest.mark.parametrize(
    "head",
    [
        'Boot died with `--override={"a": 1}` set:',  # the other quote before the first break
        "On this rig PP0's profiling raised:",  # the string's own quote, escaped
        'It\'s "odd": it said',  # both
    ],
)
def test_a_logged_repr_whose_first_line_holds_quotes_is_read_line_by_line(head: str) -> None:
    """Quotes on the text's first line, before its first break, do not hide the string: it
    opens right after the name it was logged under and runs to its own closing quote."""
    from errexplain.parse.lines import clean_lines

    log = f"{head}\n\nValueError: pool exhausted\n  (see above)"
    texts = [ln.text for ln in clean_lines(f"output.error={log!r}")]
    assert texts == ["output.error=", head, "", "ValueError: pool exhausted", "  (see above)"]


def test_unfolded_strings_writes_a_logged_repr_out_as_lines() -> None:
    """The text inside a repr's escapes becomes lines of the text, each its own; lines read
    otherwise (a structured log record, an HTTP error body holding a traceback, one break
    only) stay as they are, and a text with none gives None."""
    from errexplain.parse.lines import unfolded_strings

    log = "[2026-03-01 10:00:00 TP0] Worker stopped\nRuntimeError: pool exhausted\n  (see above)"
    text = f"before\njob.output={log!r}\nafter"
    assert unfolded_strings(text) == (
        "before\njob.output=\n[2026-03-01 10:00:00 TP0] Worker stopped\n"
        "RuntimeError: pool exhausted\n  (see above)\nafter"
    )
    kept = [
        '{"level": "ERROR", "message": "a\\nb\\nc"}',
        '{"object": "error", "message": "Traceback (most recent call last):\\n  File \\"x.py\\"'
        ', line 1, in f\\nValueError: v", "code": 500}',
        "error='first part\\nsecond part'",
        "no escapes at all",
    ]
    for line in kept:
        assert unfolded_strings(line) is None, line


def test_unfolded_strings_leaves_a_string_that_runs_on_below() -> None:
    """A string cut at the line's end with more text below (a terminal's rows not joined
    again) is left to clean_lines, which reads its pieces as one line's; cut at the paste's
    end, it is written out."""
    from errexplain.parse.lines import unfolded_strings

    head = 'err=\'Traceback (most recent call last):\\n  File "/x/a.py", line 3, in f\\n    g('
    assert unfolded_strings(f"{head}\nh)\\nValueError: v\\n'") is None
    assert unfolded_strings(head) is not None


def test_unfolded_strings_splits_a_flattened_line_at_its_marks() -> None:
    from errexplain.parse.lines import unfolded_strings

    flat = "crashes on idle ranks: \u23ce ``` \u23ce AssertionError: x \u23ce ``` \u23ce done"
    assert unfolded_strings(f"title\n{flat}") == (
        "title\ncrashes on idle ranks:\n```\nAssertionError: x\n```\ndone"
    )


@given(
    st.lists(
        st.text(st.characters(codec="ascii", exclude_categories=("Cc",)), max_size=20),
        min_size=3,
        max_size=6,
    )
)
def test_unfolded_strings_gives_back_the_logged_lines(lines: list[str]) -> None:
    """Whatever the lines (quotes, backslashes), the repr of their text logged under a name
    is written out as the name and then those lines (the string's closing quote aside)."""
    from errexplain.parse.lines import unfolded_strings

    closers = " \"'`,;)]}"
    want = list(lines)
    while want and not want[-1].strip(closers):  # (read as the string's closing, `',` `')`)
        want.pop()
    if sum(1 for ln in want if ln.strip()) <= 2:
        return  # (one break or two: a message with breaks in it, not a paste of several lines)
    out = unfolded_strings(f"output.error={chr(10).join(lines)!r}")
    assert out is not None
    name, *body = out.split("\n")
    while body and not body[-1].strip(closers):
        body.pop()
    assert (name, body) == ("output.error=", want)


def test_a_traceback_logged_as_a_repr_keeps_its_first_frame() -> None:
    """A traceback's repr logged under a name, opening with a frame: the frame's path quotes
    (`File "..."`, which the repr's own quotes need not escape) do not pass for the string's,
    and the name is a line of its own, so the first frame is read as one."""
    from errexplain.parse.lines import clean_lines

    trace = "  File \"/srv/app/pool.py\", line 9, in take\n    x = slots[k]\nKeyError: 'k'"
    texts = [ln.text for ln in clean_lines(f"output.error={trace!r}")]
    assert texts[:4] == [
        "output.error=",
        '  File "/srv/app/pool.py", line 9, in take',
        "    x = slots[k]",
        "KeyError: 'k'",
    ]


@pytest.mark.parametrize(
    "line",
    [
        # one break: a message with a break in it, not a paste of several lines
        "error='first part\\nsecond part'",
        # a string inside an exception's message (a reply's body it quotes) is that message's
        "AssertionError: res.text='<html>\\n<head>\\n<title>502</title>'",
        # an HTTP error body: its reader takes the message, escapes and all
        '{"object": "error", "message": "bad\\nworse\\nworst", "code": 400}',
    ],
)
def test_a_string_with_escaped_breaks_is_not_split_unless_logged_alone(line: str) -> None:
    from errexplain.parse.lines import clean_lines

    assert [ln.text for ln in clean_lines(line)] == [line]


_LABELLED_TRACE = (
    "[2026-01-02 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):",
    '  File "/app/pkg/run.py", line 9, in main',
    "    go()",
    "ValueError: the page size must divide the chunk size",
    "",
    "[2026-01-02 10:00:01] Received sigquit from a child process.",
)


@pytest.mark.parametrize(
    "label",
    [
        lambda n: "3: ",  # srun --label: the task's number
        lambda n: "gpu-node-07: ",  # pdsh / clush: the host
        lambda n: f"{n + 120}{':' if n == 0 else '-'}",  # grep -n -A: the line number
        lambda n: f"logs/node0.log{'-:'[n == 0]}",  # grep -A over several files
        lambda n: f"node0.log{'-:'[n == 0]}{n + 120}{'-:'[n == 0]}",  # the same with -n
        lambda n: f"Dec 07 13:03:{n + 40:02d} ",  # moreutils' ts
        lambda n: f"{n + 7:6d}\t",  # cat -n
        lambda n: f"{n + 98:4d} | ",  # a log viewer's gutter
        lambda n: "[1,3]<stderr>:",  # mpirun --tag-output
        lambda n: "sglang  | ",  # docker compose, a service with its container_name set
        lambda n: "sglang-7d9f8c6b5-x2x4q sglang ",  # stern: the pod and the container
        lambda n: "0|sglang   | ",  # pm2 logs
        lambda n: f"0|sglang  | 2026-12-04T10:11:{n + 10}: ",  # pm2 logs, started with --time
        lambda n: f"2026-12-04T10:11:{n + 10}: ",  # pm2's own log file, with --time
        lambda n: "sglang_server.1.x8k2j3l4m5n6@gpu-node-07    | ",  # docker service logs
        lambda n: "(head, rank=0, pid=2516) ",  # SkyPilot, the head node
        lambda n: "(worker1, rank=1, ip=10.0.0.2, pid=2517) ",  # SkyPilot, a worker
        lambda n: "(task, pid=2516) ",  # SkyPilot, a single-node task
        lambda n: "(ServeReplica:default:SGLangServer pid=1234, ip=10.0.0.5) ",  # Ray Serve
        lambda n: "[default0]:",  # torchrun --tee: the role and local rank
        lambda n: "[default0]:[rank0]: ",  # the same with torch's own rank prefix
        lambda n: "llama3_8b/0 [default0]:[rank0]: ",  # TorchX (NeMo-Run) before torchrun's
        lambda n: f"2026-12-04T10:11:{n + 10}.123Z\t",  # a CloudWatch export: stamp, a tab
        lambda n: f"#12 {3.2 + n / 100:.3f} ",  # docker build --progress=plain: step, seconds
        lambda n: f'2026-12-04T10:11:{n + 10}Z {{app="sglang", pod="sglang-0"}} ',  # logcli
        lambda n: f"2026-12-04T10:11:{n + 10}-07:00 {{}} ",  # logcli, local time, common labels
        lambda n: f"2026-12-04T10:11:{n + 10}.123Z\t[2026-12-04 10:11:12 TP3] ",  # and sglang's
        lambda n: "2026-12-04T10:11:12+0000 gpu-node-07 python3[1234]: ",  # journalctl short-iso
        lambda n: "Dec 04 10:11:12.123456 gpu-node-07 python3[1234]: ",  # short-precise
        lambda n: "Fri 2026-12-04 10:11:12 UTC gpu-node-07 python3[1234]: ",  # short-full
    ],
)
def test_a_paste_labelled_line_by_line_is_read_without_its_labels(label):
    """A launcher or a tool that puts a label before every line it relays (a task, a host, a
    line number): the traceback's frames are read, and the message stops at the blank line
    after it, which the label left not blank."""
    from errexplain.parse import parse_traceback

    text = "\n".join((label(n) + ln).rstrip(" ") for n, ln in enumerate(_LABELLED_TRACE)) + "\n"
    (err,) = parse_traceback(text)
    assert (err.type, err.message) == ("ValueError", "the page size must divide the chunk size")
    assert [(f.path, f.line) for f in err.frames] == [("/app/pkg/run.py", 9)]


def test_tasks_labelled_by_srun_parse_apart_when_interleaved():
    """Two tasks of `srun --label` printing their tracebacks at once: each task's lines are a
    stream of their own, as a rank prefix makes them."""
    from errexplain.parse import parse_traceback

    one = ['  File "/app/pkg/a.py", line 3, in f', "    g()", "KeyError: 'layers.0.mlp'"]
    two = ['  File "/app/pkg/b.py", line 5, in h', "    k()", "RuntimeError: NCCL timeout"]
    text = "0: Traceback (most recent call last):\n1: Traceback (most recent call last):\n"
    text += "".join(f"0: {a}\n1: {b}\n" for a, b in zip(one, two, strict=True))
    errors = parse_traceback(text)
    got = {(e.type, e.message, e.frames[0].path, e.ranks) for e in errors}
    assert got == {
        ("KeyError", "'layers.0.mlp'", "/app/pkg/a.py", ("task0",)),
        ("RuntimeError", "NCCL timeout", "/app/pkg/b.py", ("task1",)),
    }


@pytest.mark.parametrize("label", ["3: ", "sglang  | ", "sglang-7d9f8c6b5-x2x4q sglang "])
def test_a_labelled_log_in_a_fenced_block_of_a_post_is_read_without_its_labels(label):
    """A post's prose around the relayed log: the block's lines are labelled, the prose's not."""
    from errexplain.parse import parse_traceback

    body = "\n".join((label + ln).rstrip(" ") for ln in _LABELLED_TRACE)
    text = f"The server dies at start-up:\n\n```\n{body}\n```\n\nAny idea? 1: it worked before.\n"
    (err,) = parse_traceback(text)
    assert (err.type, err.message) == ("ValueError", "the page size must divide the chunk size")
    assert [(f.path, f.line) for f in err.frames] == [("/app/pkg/run.py", 9)]
    assert pasted_lines(text)[3] == _LABELLED_TRACE[0]
    assert pasted_lines(text)[-2] == "Any idea? 1: it worked before."
    (cut,) = parse_traceback(f"The server dies at start-up:\n\n```\n{body}\n")  # never closed
    assert [(f.path, f.line) for f in cut.frames] == [("/app/pkg/run.py", 9)]


@pytest.mark.parametrize("label", ["3: ", "sglang  | ", "[default0]:", ""])
def test_a_labelled_log_in_an_indented_code_block_of_a_post_is_read_without_its_labels(label):
    """Markdown's other code block: the relayed log indented by four spaces among prose (and
    with no label, sglang's own log prefixes after the indentation)."""
    from errexplain.parse import parse_traceback

    body = "\n".join(("    " + label + ln).rstrip(" ") for ln in _LABELLED_TRACE)
    text = f"The server dies at start-up:\n\n{body}\n\nAny idea? 1: it worked before.\n"
    (err,) = parse_traceback(text)
    assert (err.type, err.message) == ("ValueError", "the page size must divide the chunk size")
    assert [(f.path, f.line) for f in err.frames] == [("/app/pkg/run.py", 9)]
    assert pasted_lines(text)[-2] == "Any idea? 1: it worked before."


@pytest.mark.parametrize(
    ("one", "two"),
    [
        ("sglang  | ", "router  | "),  # docker compose, two services by container_name
        ("sglang-0 server ", "sglang-1 server "),  # stern: two pods
        ("0|prefill | ", "1|decode  | "),  # pm2: two processes
        ("(head, rank=0, pid=11) ", "(worker1, rank=1, pid=12, ip=10.0.0.2) "),  # SkyPilot
        ("[default0]:", "[default1]:"),  # torchrun --tee: two local ranks
        ("trainer/0 [default0]:", "trainer/1 [default0]:"),  # TorchX: two replicas
        ("#7 0.512 ", "#9 0.513 "),  # BuildKit: two build steps run at once
        ('2026-12-04T10:11:12Z {pod="sglang-0"} ', '2026-12-04T10:11:12Z {pod="sglang-1"} '),
        (" 3: ", "12: "),  # srun --label of 16 tasks: padded to the widest number
    ],
)
def test_two_labelled_sources_interleaved_parse_apart(one, two):
    """Two processes relayed by one tool, their tracebacks' lines interleaved: each source's
    lines are read as a stream of their own."""
    from errexplain.parse import parse_traceback

    first = ['  File "/app/pkg/a.py", line 3, in f', "    g()", "KeyError: 'layers.0.mlp'"]
    second = ['  File "/app/pkg/b.py", line 5, in h', "    k()", "RuntimeError: NCCL timeout"]
    text = f"{one}Traceback (most recent call last):\n{two}Traceback (most recent call last):\n"
    text += "".join(f"{one}{a}\n{two}{b}\n" for a, b in zip(first, second, strict=True))
    got = {(e.type, e.message, e.frames[0].path) for e in parse_traceback(text)}
    assert got == {
        ("KeyError", "'layers.0.mlp'", "/app/pkg/a.py"),
        ("RuntimeError", "NCCL timeout", "/app/pkg/b.py"),
    }


@pytest.mark.parametrize(
    "text",
    [
        # prose whose lines open with two lower-case words: no pod's generated name, or said once
        "the server crashed\nthe server restarted\nthe server crashed again\n",
        "re-run it once\nthen check the log\nand the config\n",
        # a table of `name | value` rows, each name once
        "model | qwen\ntp | 8\nport | 30000\n",
        # exception types before a pipe are no containers
        "ValueError | x\nValueError | y\nKeyError | z\nKeyError | w\n",
    ],
)
def test_lines_that_merely_open_like_a_relaying_tools_label_keep_it(text):
    assert _texts(text) == text.split("\n")


@pytest.mark.parametrize(
    "text",
    [
        # a config of `key: value` lines: each key once, not a host printing several lines
        "model-path: /models/x\ntp-size: 8\nmem-fraction-static: 0.8\nport: 30000\n",
        # a log whose lines open with a clock (`10:00:01`), its hours rising
        "10:00:01 start\n11:00:02 loading\n12:00:03 ready\n",
        # an exception line among labelled ones: not every line carries a label
        "gpu-1: starting\ngpu-1: loading\nValueError: the page size must divide the chunk size\n",
        # exception lines and a capitalised word before a colon are no host's labels
        "KeyError: 3\nKeyError: 4\nValueError: x\nValueError: y\n",
        "Note: a\nNote: b\nNote: c\nNote: d\n",
        # numbers that do not only rise are no line numbers (a list of `n: text` items)
        "1: first\n3: second\n2: third\n",
    ],
)
def test_lines_that_merely_open_with_a_word_and_a_colon_keep_it(text):
    assert _texts(text) == text.split("\n")


def _doubled(text: str) -> str:
    """The text copied with a blank line after each line (some terminals and web pages)."""
    return "\n\n".join(text.split("\n"))


_CHAINED = (
    "Traceback (most recent call last):\n"
    '  File "/opt/w/pool.py", line 40, in take\n'
    "    return self.free.pop()\n"
    "IndexError: pop from empty list\n"
    "\n"
    "During handling of the above exception, another exception occurred:\n"
    "\n"
    "Traceback (most recent call last):\n"
    '  File "/opt/w/sched.py", line 88, in step\n'
    "    slot = pool.take()\n"
    '  File "/opt/w/pool.py", line 42, in take\n'
    "    raise RuntimeError(\n"
    "RuntimeError: the request pool has no free slot left; lower\n"
    "--max-running-requests or raise --max-total-tokens\n"
)


@pytest.mark.parametrize(
    "text",
    [
        # a record whose message the log wrapped onto the next line, in a fence
        "```\n[2026-08-12 11:48:55] Subprocess scheduler_0 (pid=98) crashed with exit\n"
        "code -9. Triggering SIGQUIT for cleanup...\n```",
        _CHAINED,
        HARD_LOG,
    ],
)
def test_a_double_spaced_paste_reads_as_the_paste(text: str) -> None:
    from errexplain.parse import parse_traceback

    def read(t: str) -> list[tuple[object, ...]]:
        return [
            (e.type, e.message, [(f.path, f.line) for f in e.frames]) for e in parse_traceback(t)
        ]

    assert read(_doubled(text)) == read(text)
    assert read(text) or "```" in text  # (the record is read by the explainer: test_explainer)
    lines = clean_lines(_doubled(text))
    assert [ln.text for ln in lines if ln.text] == [ln.text for ln in clean_lines(text) if ln.text]
    # each line keeps its own number (its place in the double-spaced paste)
    assert {ln.no for ln in lines if ln.text} <= set(range(1, 2 * text.count("\n") + 3, 2))


def test_prose_in_one_line_paragraphs_keeps_its_blank_lines() -> None:
    # one error quoted in a post whose paragraphs are one line each: the paragraph after it is
    # not read as the rest of its message
    post = (
        "Hi, I start the server on two GPUs.\n\nThen it fails with this:\n\n"
        "ValueError: --tp-size 2 needs two visible devices\n\nAny idea?\n\nThanks a lot."
    )
    assert [ln.text for ln in clean_lines(post)] == post.split("\n")
    # and a traceback's own blank lines, doubled, still end the runs around them
    doubled = clean_lines(_doubled(_CHAINED))
    assert "During handling of the above exception, another exception occurred:" in [
        ln.text for ln in doubled
    ]
    assert sum(1 for ln in doubled if not ln.text) >= 4


def test_a_double_spaced_paste_cut_at_a_terminals_width_is_read_joined() -> None:
    lines = clean_lines(_doubled(_cut_at(HARD_LOG, 70)))
    texts = [ln.text for ln in lines if ln.text]
    assert texts[-1].endswith("4096 tokens asked, 1024 free in the pool of the first rank")
    assert len(texts) == 3 and [ln.no for ln in lines if ln.text] == [1, 7, 13]
