"""A paste with no exception line: the whole text of a log record (its prefix removed) is one
message as the program printed it, so a reworded older wording is taken from 0.85
(BARE_RECORD_SCORE); the same words inside prose still need 0.9, and the lines of a normal
server start-up log are never taken."""

from __future__ import annotations

from pathlib import Path

import pytest

from errexplain._startup import replace
from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import (
    BARE_RECORD_SCORE,
    BARE_SCORE,
    CARRIED_NOTE,
    PASSED_ON_MARGIN,
    _passed_on,
    explain_text,
)
from errexplain.match.rank import Ranking, rank
from errexplain.models import Entry, RaisedError, Source

TEMPLATE = "Failed to load the tokenizer for <model>, check the path"
REWORDED = "Could not load the tokenizer for Qwen/Qwen3-8B, check the path"


def _entry(letter: str, exception: str, template: str, path: str, line: int, kind: str) -> Entry:
    return Entry(
        id=letter * 16,
        project="demo",
        exception=exception,
        template=template,
        source=Source("demo", "1.0", f"demo/{path}", line, "f", None),
        kind=kind,
    )


TOKENIZER = _entry("a", "ValueError", TEMPLATE, "tok.py", 10, "raise")


def _view(*more: Entry) -> MemoryCatalog:
    return MemoryCatalog([TOKENIZER, *more])


def test_a_reworded_message_on_a_log_record_line_is_taken():
    view = _view()
    hits = rank(view, REWORDED).hits
    assert hits and BARE_RECORD_SCORE <= hits[0].score < BARE_SCORE
    (exp,) = explain_text(f"[2026-10-02 11:04:09 TP0] {REWORDED}", view)
    assert exp.error.type == "" and exp.matches[0].entry.id == "a" * 16
    # the same words after prose are not a whole record: the higher bar holds
    assert explain_text(f"I get this: {REWORDED}", view) == ()


def test_a_line_alone_in_a_code_block_is_taken_as_a_record_is():
    # a code block holding one line is output copied whole, one message as printed
    view = _view()
    (exp,) = explain_text(f"Our start-up failed:\n\n```\n{REWORDED}\n```\n\nAny idea?", view)
    assert exp.error.message == REWORDED and exp.matches[0].entry.id == "a" * 16
    # with other lines in the block, or in prose, the higher bar holds
    assert explain_text(f"Failed:\n```\n{REWORDED}\nthen it exited\n```\n", view) == ()
    assert explain_text(f"Our start-up failed:\n\n{REWORDED}\n\nAny idea?", view) == ()


def test_a_line_alone_in_a_code_block_does_not_outrank_its_own_message_after_a_label():
    # `Error: <message>` alone in a block: the message after the label, matched exactly, is
    # the reading, not the whole line matched loosely
    view = _view(
        _entry("e", "ValueError", "The input has <n> tokens, too many", "in.py", 5, "raise")
    )
    (exp,) = explain_text("```\nError: The input has 90 tokens, too many\n```\n", view)
    assert exp.error.message == "The input has 90 tokens, too many"
    assert exp.matches[0].kind == "exact"


def test_a_log_record_is_known_by_its_literal_text_whatever_the_length_of_its_values():
    # 23 literal characters, a 120-character value: the whole record is the message
    view = _view(_entry("c", "error", "config file <path> does not exist", "cfg.py", 30, "log"))
    path = "/mnt/shared/" + "x" * 108 + ".yaml"
    (exp,) = explain_text(f"[2026-10-02 11:04:09 TP0] config file {path} does not exist\n", view)
    assert exp.matches[0].entry.id == "c" * 16
    # inside a sentence, the literal text must still cover half of what is read
    assert explain_text(f"so the config file {path} does not exist, right?\n", view) == ()


def test_a_normal_server_start_shows_no_failure(bundled_index):
    """Its info lines are never taken; a routine warning (a default chosen, a setting
    adjusted) is explained as what it is, a quiet warning noted as context, never as a
    failure or a raised error."""
    from errexplain.explainer import QUIET_NOTE

    text = (Path(__file__).parent / "data" / "startup_info.log").read_text()
    for exp in explain_text(text, bundled_index):
        top = exp.matches[0].entry
        assert top.kind == "log" and top.exception == "warning", top.template
        assert QUIET_NOTE in exp.notes


WATCHDOG = "Watchdog timeout (self.watchdog_timeout=<timeout>)"
TRACE = (
    "Traceback (most recent call last):\n"
    '  File "/srv/demo/run.py", line 3, in main\n'
    "    step()\n"
    "RuntimeError: step failed badly for no reason anyone has catalogued\n"
)


def _two() -> MemoryCatalog:
    return _view(_entry("b", "error", WATCHDOG, "watchdog.py", 20, "log"))


def test_a_catalogued_log_record_beside_a_traceback_is_an_error_too():
    """A paste whose traceback parses still shows the catalogued log records around it (the
    Watchdog timeout under a Pyspy failure, g059): each one once, in paste order."""
    view = _two()
    text = (
        "[2026-10-02 11:04:08 TP0] Scheduler started\n"
        + TRACE
        + "[2026-10-02 11:04:09 TP0] Watchdog timeout (self.watchdog_timeout=300)\n"
        + "[2026-10-02 11:04:09 TP1] Watchdog timeout (self.watchdog_timeout=300)\n"
    )
    exps = explain_text(text, view)
    assert [x.error.type for x in exps] == ["RuntimeError", ""]
    assert exps[1].matches[0].entry.id == "b" * 16
    assert exps[1].error.message == "Watchdog timeout (self.watchdog_timeout=300)"


def test_an_unprefixed_line_under_a_traceback_that_is_a_catalogued_message_is_an_error_too():
    """A log record printed without a prefix (a CI job's output, the whole paste indented) under
    the traceback of the exception it caught: the line is the program's own error beside it
    (vw004's `Failed to load hf_quant_config.json ...` under the Hub's HTTP error). Lines
    indented under the traceback's own (its frames and code) and prose around the words are
    not read so."""
    view = _two()
    indented = "".join("    " + ln + "\n" for ln in TRACE.splitlines())
    text = indented + "    \n    Watchdog timeout (self.watchdog_timeout=300)\n"
    exps = explain_text(text, view)
    assert [x.error.type for x in exps] == ["RuntimeError", ""]
    assert exps[1].matches[0].entry.id == "b" * 16
    # deeper than the exception line: a frame's code, never a record of its own
    deeper = indented + "        Watchdog timeout (self.watchdog_timeout=300)\n"
    assert [x.error.type for x in explain_text(deeper, view)] == ["RuntimeError"]
    # far below the error (beyond BESIDE_NEAR lines): not beside it
    far = TRACE + "ok\n" * 20 + "Watchdog timeout (self.watchdog_timeout=300)\n"
    assert [x.error.type for x in explain_text(far, view)] == ["RuntimeError"]


REPORT = _entry("r", "error", "Failed to render prompt <i>: <e>", "gen.py", 40, "log")
UNKNOWN = "the cache backend refused the layout chosen for this pipeline"
UNKNOWN_TRACE = (
    "Traceback (most recent call last):\n"
    '  File "/site-packages/otherlib/cache.py", line 3, in setup\n'
    "    raise ValueError(msg)\n"
    f"ValueError: {UNKNOWN}\n"
)


def test_a_record_reporting_an_unexplained_error_beside_it_is_an_error_too():
    """A traceback's error the catalog does not know, then the record of the project's own
    handler that logged it (`Failed to render prompt 1: <its message>`): the record is the
    project's error about it, explained beside it."""
    record = f"[03-09 08:21:06] Failed to render prompt 1: request 53f0: {UNKNOWN}\n"
    exps = explain_text(UNKNOWN_TRACE + record, _view(REPORT))
    assert [x.error.type for x in exps] == ["ValueError", ""]
    assert not exps[0].matches
    assert exps[1].matches[0].entry.id == "r" * 16
    assert dict(exps[1].matches[0].values)["e"] == f"request 53f0: {UNKNOWN}"


def test_a_record_holding_the_message_outside_its_values_is_not_a_report():
    """The message must be what the record's template leaves to a value: a record whose
    literal text is the message is not a report of it."""
    other = _entry("s", "error", "Failed to render prompt <i>: the cache backend", "g.py", 9, "log")
    record = f"[03-09 08:21:06] Failed to render prompt 1: {UNKNOWN}\n"
    exps = explain_text(UNKNOWN_TRACE + record, _view(other))
    assert [x.error.type for x in exps] == ["ValueError"]


def test_records_beside_a_traceback_need_an_exact_long_match():
    """A reworded record (taken alone from 0.85) or the same words inside prose are not taken
    beside a traceback: only exact matches at BESIDE_SCORE are."""
    view = _two()
    reworded = f"[2026-10-02 11:04:09 TP0] {REWORDED}\n"
    prose = "I also see Watchdog timeout (self.watchdog_timeout=300) sometimes\n"
    exps = explain_text(TRACE + reworded + prose, view)
    assert [x.error.type for x in exps] == ["RuntimeError"]


def test_a_normal_server_start_beside_a_traceback_adds_nothing(bundled_index):
    text = (Path(__file__).parent / "data" / "startup_info.log").read_text()
    exps = explain_text(text + TRACE, bundled_index)
    assert [x.error.type for x in exps] == ["RuntimeError"]


def test_a_sigquit_record_counts_beside_log_errors_but_not_beside_a_traceback():
    """`Received sigquit ...` is the aftermath of a traceback (left out, as the parser leaves
    it out), but beside log errors only it may be the most telling line (f058)."""
    sigquit = "Received sigquit from a child process. It usually means the child failed."
    view = _view(_entry("c", "error", sigquit, "engine.py", 30, "log"))
    line = (
        "[2026-10-02 11:04:09] Received sigquit from a child process. "
        "It usually means the child failed.\n"
    )
    logged = "2026-10-02 11:04:10,1 - main - ERROR - could not reach the server at all today\n"
    assert [x.error.type for x in explain_text(TRACE + line, view)] == ["RuntimeError"]
    exps = explain_text(line + logged, view)
    assert any(x.matches and x.matches[0].entry.id == "c" * 16 for x in exps)


def test_a_sigquit_record_counts_beside_a_traceback_all_in_the_python_library():
    """A traceback whose frames all lie in Python's own library (the resource tracker's
    KeyError on a dead child's shared memory, printed as the server goes down) is aftermath
    itself: the sigquit record before it is an error of its own, listed first; beside a
    project's traceback it stays left out."""
    sigquit = "Received sigquit from a child process. It usually means the child failed."
    view = _view(_entry("c", "error", sigquit, "engine.py", 30, "log"))
    line = f"[2026-10-02 11:04:09] {sigquit}\n"
    tracker = (
        "Traceback (most recent call last):\n"
        '  File "/opt/conda/lib/python3.12/multiprocessing/resource_tracker.py", line 201,'
        " in main\n"
        "    cache[rtype].remove(name)\n"
        "KeyError: '/psm_0c1d2e'\n"
    )
    exps = explain_text(line + tracker, view)
    assert [x.error.type for x in exps] == ["", "KeyError"]
    assert exps[0].matches[0].entry.id == "c" * 16
    own = tracker.replace("/opt/conda/lib/python3.12/multiprocessing", "/srv/app/pkg")
    assert [x.error.type for x in explain_text(line + own, view)] == ["KeyError"]


@pytest.mark.parametrize(
    ("paths", "expected"),
    [
        (["/usr/lib/python3.10/multiprocessing/resource_tracker.py", "<frozen runpy>"], True),
        (["C:\\Python311\\lib\\python3.11\\asyncio\\base_events.py"], True),
        (["/usr/lib/python3.10/runpy.py", "/venv/lib/python3.10/site-packages/pkg/x.py"], False),
        (["/usr/lib/python3/dist-packages/pkg/x.py"], False),
        ([], False),
    ],
)
def test_interpreter_only_frames(paths, expected):
    from errexplain.explainer import interpreter_only
    from errexplain.models import Frame

    assert interpreter_only([Frame(p, 1, "f") for p in paths]) is expected


def test_records_beside_an_error_are_few_lookups(bundled_index, monkeypatch):
    """A multi-rank log prefixes every line of its tracebacks: the frames, code lines and
    headers are not looked up as records, nor is a record every rank repeats looked up twice
    (each lookup costs a cold start; the bundled example went from 1 to 16 lookups and from
    30 to 118 ms piped before this)."""
    import errexplain.explainer as explainer

    calls: list[str] = []
    real = explainer.rank

    def counting(view, msg, *a, **k):
        calls.append(msg)
        return real(view, msg, *a, **k)

    monkeypatch.setattr(explainer, "rank", counting)
    text = (Path(__file__).parent.parent / "examples" / "kimi_k3_multirank.log").read_text()
    (exp,) = explainer.explain_text(text, bundled_index)
    assert exp.error.type == "ValueError"
    beside = calls[1:]
    assert len(beside) == len(set(beside)) <= 3
    assert not any(c.startswith(("File ", "raise ", "Traceback")) for c in beside)


def test_a_log_record_whose_part_is_a_known_error_is_answered_by_the_record():
    # `logger.error(f"Error in parse_streaming_increment: {e}")` with a JSONDecodeError in it:
    # the record as printed is the message; the error inside is one of its values
    view = _view(
        _entry("d", "error", "Error in parse_streaming_increment: <e>", "fc.py", 40, "log"),
        replace(
            _entry(
                "e",
                "JSONDecodeError",
                "Expecting value: line <l> column <c> (char <n>)",
                "j.py",
                5,
                "raise",
            ),
            project="python",  # another project's message: the handler's record explains it
        ),
    )
    line = (
        "[2025-06-23 07:22:00] Error in parse_streaming_increment: "
        "Expecting value: line 1 column 1 (char 0)"
    )
    exp, *carried = explain_text(line, view)
    assert exp.matches[0].entry.id == "d" * 16
    # and the decode error the record carries, after it
    assert [x.matches[0].entry.id for x in carried] == ["e" * 16]
    assert CARRIED_NOTE in carried[0].notes
    # the same words quoted in prose (no record): the best-known part is read
    (exp,) = explain_text("it fails with `Expecting value: line 1 column 1 (char 0)`", view)
    assert exp.matches[0].entry.id == "e" * 16


def test_a_recorded_reason_inside_a_catalogued_log_line_comes_after_the_line():
    log = _entry(
        "f",
        "warning",
        "Decode transfer failed for request rank=<r> <rid> with exception <e>",
        "decode.py",
        2884,
        "log",
    )
    reason = _entry("g", "KVTransferError", "Aborted by AbortReq.", "conn.py", 2960, "recorded")
    view = _view(log, reason)
    line = (
        "[2026-01-02 10:00:00 TP0] Decode transfer failed for request rank=0 rid=ab12 with "
        "exception KVTransferError(bootstrap_room=7): Aborted by AbortReq."
    )
    (exp,) = explain_text(line, view)
    assert [m.entry.id for m in exp.matches] == ["f" * 16, "g" * 16]
    assert "failure reason recorded earlier" in exp.notes[0]
    # the exception pasted alone is the recorded reason's
    (alone,) = explain_text("KVTransferError: Aborted by AbortReq.", view)
    assert alone.matches[0].entry.id == "g" * 16


def test_a_warning_is_explained_when_pasted_and_stays_context_beside_an_error():
    notice = _entry(
        "w", "warning", "Using the default tile config for <n> experts", "moe.py", 40, "log"
    )
    broken = _entry(
        "x",
        "warning",
        "Tile config for <n> experts is invalid for the weights",
        "moe.py",
        50,
        "log",
    )
    view = _view(notice, broken)
    pasted = "[2026-10-02 11:04:09 TP0] Using the default tile config for 256 experts"
    (exp,) = explain_text(pasted, view)
    assert exp.matches[0].entry.id == "w" * 16
    crash = (
        "[2026-10-02 11:04:09 TP0] Using the default tile config for 256 experts\n"
        "[2026-10-02 11:04:09 TP0] Tile config for 256 experts is invalid for the weights\n"
        "Traceback (most recent call last):\n"
        '  File "demo/tok.py", line 10, in f\n'
        "ValueError: Failed to load the tokenizer for Qwen/Qwen3-8B, check the path\n"
    )
    # beside the traceback: the warning that reports a failure is an error of its own, the
    # notice is context
    assert [e.matches[0].entry.id for e in explain_text(crash, view)] == ["x" * 16, "a" * 16]


def test_a_warning_above_a_traceback_cut_before_its_error_is_explained():
    """The notice stays context beside an explained error, but when every error beside it is
    unexplained (a traceback cut before its exception line), the warning its process logged just
    before is the most telling line the paste has."""
    notice = _entry(
        "w", "warning", "Using the default tile config for <n> experts", "moe.py", 40, "log"
    )
    view = _view(TOKENIZER, notice)
    record = "[2026-10-02 11:04:09 TP0] Using the default tile config for 256 experts\n"
    cut = (
        "Exception in thread Thread-5 (worker):\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/demo/moe.py", line 80, in worker\n'
        "    self.send(\n"
        '  File "/srv/demo/moe.py", line 92, in send\n'
    )
    exps = explain_text(record + cut, view)
    assert [x.matches[0].entry.id for x in exps if x.matches] == ["w" * 16]
    assert any(not x.matches and x.error.frames for x in exps)  # the cut traceback stays
    explained = TRACE.replace(
        "RuntimeError: step failed badly for no reason anyone has catalogued",
        "ValueError: Failed to load the tokenizer for Qwen/Qwen3-8B, check the path",
    )
    assert [x.matches[0].entry.id for x in explain_text(record + explained, view)] == ["a" * 16]


# --------------------------------------------- a generic lead passing on a caught exception

WRAPPER = _entry("w", "abort", "Internal server error: <str(e)>", "serving.py", 90, "abort")
DRAFT = _entry(
    "d", "ValueError", "Unsupported draft tokenizer backend: <name>", "draft.py", 12, "raise"
)
LOGGED = _entry(
    "l",
    "error",
    "Draft request failed for rank=<r> rid=<rid> with exception <e>",
    "draft.py",
    40,
    "log",
)


def _top(text: str, *entries: Entry) -> str | None:
    found = explain_text(text, MemoryCatalog([TOKENIZER, *entries]))
    # one error, and the error its last value carries when the catalog knows that one well
    assert len(found) == 1 or all(CARRIED_NOTE in x.notes for x in found[1:]), found
    matches = found[0].matches
    return matches[0].entry.id[0] if matches else None


def test_a_generic_lead_passing_on_a_catalogued_message_gives_way_to_it():
    body = (
        '{"object":"error","message":"Internal server error: Unsupported draft tokenizer '
        'backend: fastbpe","type":"InternalServerError","param":null,"code":500}'
    )
    assert _top(body, WRAPPER, DRAFT) == "d"
    assert (
        _top(
            "Internal server error: Unsupported draft tokenizer backend: fastbpe\n", WRAPPER, DRAFT
        )
        == "d"
    )


def test_a_generic_lead_passing_on_someone_elses_message_is_the_answer():
    body = (
        '{"object":"error","message":"Internal server error: 1 validation error for '
        "ScoreResponse\\nscore\\n  Input should be a valid number [type=float_type, "
        'input_type=list]","type":"InternalServerError","param":null,"code":500}'
    )
    assert _top(body, WRAPPER, DRAFT) == "w"


def test_a_wrapper_with_values_of_its_own_stays_the_answer():
    # more than a lead: the request, the rank and the id are the wrapper's own words
    line = (
        "[2026-10-02 11:04:09 TP0] Draft request failed for rank=3 rid=9f2c with exception "
        "Unsupported draft tokenizer backend: fastbpe\n"
    )
    assert _top(line, LOGGED, DRAFT) == "l"


def test_a_stage_wrapper_whose_last_value_after_a_colon_is_the_exception_gives_way():
    """`[<stage>] Error during execution after <ms> ms: <exc_val>` logs the stage's own values,
    then passes on the exception's text after a colon: when that text is a catalogued message
    of the project, it is the error (the lead is left out as a tag, as for a one-value lead).
    A last value after a colon that is not named for an exception's text (`<path>`) is the
    wrapper's own and stays."""
    stage = _entry(
        "s", "error", "[<stage>] Error during execution after <ms> ms: <exc_val>", "p.py", 5, "log"
    )
    line = (
        "[2026-10-02 11:04:09] [DraftStage] Error during execution after 21.5 ms: "
        "Unsupported draft tokenizer backend: fastbpe\n"
    )
    assert _top(line, stage, DRAFT) == "d"
    own = replace(stage, template="[<stage>] Error during execution after <ms> ms: <path>")
    assert _top(line, own, DRAFT) == "s"


FRONT = _entry(
    "f",
    "RuntimeError",
    "Render returned nothing. Error from worker: <error_msg>",
    "a.py",
    3,
    "raise",
)
INNER = _entry(
    "c",
    "AssertionError",
    "Render context is not active. Call `enter_render_context` before drawing a frame.",
    "ctx.py",
    21,
    "assert",
)


def test_handlers_passing_on_each_others_text_are_read_through_to_the_message():
    """A front end's lead around a worker's lead around the message raised (`Render returned
    nothing. Error from worker: Error running job <id>: <message>`): each lead passes on the
    next one's text, and the innermost catalogued message is the error, even cut short by the
    paster (an issue title cut at its width) when its long literal start is there."""
    front = FRONT
    worker = _entry("g", "RuntimeError", "Error running job <job_id>: <e>", "w.py", 7, "raise")
    whole = (
        "Render returned nothing. Error from worker: Error running job 51c0-77ab: Render "
        "context is not active. Call `enter_render_context` before drawing a frame.\n"
    )
    assert _top(whole, front, worker, INNER) == "c"
    cut = whole[: whole.index("drawing") + 2] + "\n"
    assert _top(cut, front, worker, INNER) == "c"
    # a worker's text the catalog does not know: the front end's lead stays the answer
    other = "Render returned nothing. Error from worker: Error running job 51c0-77ab: disk full\n"
    assert _top(other, front, worker, INNER) == "f"


def test_an_exact_older_lead_behind_a_looser_current_one_still_passes_its_text_on():
    """The current release raises only the lead's first sentence (`Render returned nothing.`)
    and an older one raised it with the worker's text after it. With the paste's release
    weighed, the current wording's loose reading of the line may rank a hair ahead of the
    older wording's exact one (PASSED_ON_MARGIN); the exact lead still passes its last value
    on, and that message is the error. Further behind, it does not."""
    current = _entry("n", "RuntimeError", "Render returned nothing.", "a.py", 30, "raise")
    older = replace(FRONT, id="o" * 16)
    view = MemoryCatalog([TOKENIZER, current, older, INNER])
    line = (
        "Render returned nothing. Error from worker: Render context is not active. Call "
        "`enter_render_context` before drawing a frame."
    )
    error = RaisedError("", line)
    hits = {h.id[0]: h for h in rank(view, line).hits}
    assert hits["o"].kind == "exact" and hits["n"].kind == "fuzzy"

    def behind(gap: float) -> Ranking:
        loose = replace(hits["n"], raw=hits["o"].raw + gap)
        return Ranking(hits=(loose, hits["o"]), nearest=(), ambiguous=False)

    ranking, tag = _passed_on(view, error, behind(PASSED_ON_MARGIN / 2), None)
    assert ranking.hits[0].id == "c" * 16
    assert tag == "Render returned nothing. Error from worker: "
    ranking, tag = _passed_on(view, error, behind(PASSED_ON_MARGIN * 2), None)
    assert ranking.hits[0].id == "n" * 16 and not tag


def test_a_line_whose_short_lead_wraps_another_projects_known_message_is_the_wrapper():
    # `raise Exception(f"Warm-up failed: {e}\n{HELP}")` printed without its type, around a
    # library's message that is known on its own: the line's lead and that message together
    # are the line, so the wrapper raised it (its lead alone is too short to be known)
    wrapper = _entry("h", "Exception", "Warm-up failed: <e>\n<HELP>", "warm.py", 60, "raise")
    library = replace(
        _entry(
            "i",
            "RuntimeError",
            "widget error: no widget image is available for this device<help>",
            "w.py",
            1,
            "raise",
        ),
        project="widgets",
    )
    view = _view(wrapper, library)
    line = "Warm-up failed: widget error: no widget image is available for this device"
    (exp,) = explain_text(f"it crashes while warming up:\n{line}\n", view)
    assert exp.matches[0].entry.id == "h" * 16
    # the library's message alone is the library's
    (exp,) = explain_text("widget error: no widget image is available for this device\n", view)
    assert exp.matches[0].entry.id == "i" * 16


def test_a_message_quoted_across_a_wrapped_line_is_read_whole_and_once():
    # notes wrap a quoted log line at their width; the quote opens on one line and closes on
    # the next. Two wordings: an older short one, and the full one the note quotes.
    short = _entry("j", "warning", "Graph pool is disabled for prefill", "g.py", 5, "log")
    full = _entry(
        "k",
        "warning",
        "Graph pool is disabled for prefill when the paged graph mode is not enabled.",
        "g.py",
        9,
        "log",
    )
    view = _view(short, full)
    notes = (
        "Findings:\n"
        "- the launch log has `Graph pool is disabled for prefill when the paged graph\n"
        "  mode is not enabled.` so no graph is captured on prefill.\n",
        # the quote opened inside a bracket, as prose puts an aside
        "With a 24 GiB pool it did not start (`Graph pool is disabled for prefill when the\n"
        "  paged graph mode is not enabled.`), so we raised it.\n",
    )
    for note in notes:
        exps = explain_text(note, view)
        assert [e.matches[0].entry.id for e in exps] == ["k" * 16], note
        assert exps[0].error.message.endswith("is not enabled.")


def test_a_quote_opened_after_a_colon_and_closed_on_the_next_line_is_read_as_quoted():
    """A quote opened after a colon, the message wrapped, the quote closed on the next line: the
    text after the colon, cut at the line's end with its opening quote, is no reading of its
    own, so a shorter template its words happen to fit (an extra word inserted) does not win
    over the quoted message's own template."""
    own = _entry(
        "m", "warning", "Failed to load the draft config for <model>: <e>.", "cfg.py", 5, "log"
    )
    other = _entry(
        "n", "warning", "Failed to load config for <component>: <e>", "pipe.py", 9, "log"
    )
    view = _view(own, other)
    notes = (
        "**Startup warnings**: `Failed to load the draft config for\n"
        ".../Kimi-Draft` (the draft repo has none); harmless.\n"
    )
    exps = explain_text(notes, view)
    assert [e.matches[0].entry.id for e in exps if e.matches][:1] == ["m" * 16]
    assert exps[0].error.message == "Failed to load the draft config for .../Kimi-Draft"


# ------------------------------------- a value printed empty; the module the paste names

CONFIG_TEMPLATE = "An error occurred while loading the store configuration: <exc>"
KV_STORE = _entry("d", "error", CONFIG_TEMPLATE, "kvstore/kv_store.py", 70, "log")
DISK_STORE = _entry("e", "error", CONFIG_TEMPLATE, "diskcache/disk_backend.py", 20, "log")
TRANSFER = (
    "E0116 07:02:59.408260 2594575 client.cpp:1601] Failed to submit the transfer\n"
    "E0116 07:02:59.408584 2594572 client.cpp:1601] Failed to submit the transfer\n"
)


def test_a_record_ending_with_a_colon_before_another_record_is_an_error():
    """The value after the colon was printed empty: followed by another record (or by
    nothing), the record is the message, not an announcement of what follows."""
    view = _view(KV_STORE)
    line = "[2026-01-16 07:02:59 TP6] An error occurred while loading the store configuration: "
    exps = explain_text(TRANSFER + line + "\n" + line.replace("TP6", "TP3") + "\n", view)
    found = [x for x in exps if x.matches and x.matches[0].entry.id == "d" * 16]
    assert len(found) == 1
    assert found[0].error.message == "An error occurred while loading the store configuration:"


def test_a_record_ending_with_a_colon_before_a_traceback_announces_it():
    view = _view(KV_STORE)
    text = (
        "[2026-01-16 07:02:59 TP6] An error occurred while loading the store configuration:\n"
        + TRACE
    )
    exps = explain_text(text, view)
    assert [x.error.type for x in exps] == ["RuntimeError"]


def test_the_module_a_paste_names_tells_same_text_sites_apart():
    """Two stores log the same text; the paste's other records name the kv store: its site
    comes first, with the reason (one word is weak evidence: both are still listed)."""
    view = _view(KV_STORE, DISK_STORE)
    line = "[2026-01-16 07:02:59 TP6] An error occurred while loading the store configuration: "
    named = "[2026-01-16 07:02:58 TP6] kvstore warmup done.\n" + TRANSFER + line + "\n"
    (exp,) = [x for x in explain_text(named, view) if x.matches]
    top = exp.matches[0]
    assert top.entry.id == "d" * 16 and exp.ambiguous and len(exp.matches) == 2
    assert top.score == exp.matches[1].score
    assert any("the paste names kvstore (demo/kvstore/kv_store.py)" in r for r in top.reasons)
    # named by neither: both listed, ambiguous
    (exp,) = [x for x in explain_text(TRANSFER + line + "\n", view) if x.matches]
    assert {m.entry.id for m in exp.matches} == {"d" * 16, "e" * 16} and exp.ambiguous
    # a word of the packages above both modules (demo) tells nothing
    (exp,) = [x for x in explain_text("demo run\n" + TRANSFER + line + "\n", view) if x.matches]
    assert not any("the paste names" in r for m in exp.matches for r in m.reasons)


def test_the_function_a_paste_names_tells_one_modules_same_text_sites_apart():
    """Attach and detach answer `Storage tier is not enabled.` in one module: the paste that
    says `attach` names the attach site's function. A word of the message itself (`storage`)
    or one many catalogued messages use (`error`, of `_tier_error`) is no evidence."""

    def site(letter: str, function: str, line: int) -> Entry:
        entry = _entry(letter, "abort", "Storage tier is not enabled.", "store.py", line, "abort")
        return replace(entry, source=replace(entry.source, function=function))

    attach = site("m", "Store.attach_storage_wrapped", 10)
    detach = site("n", "Store.detach_storage_wrapped", 40)
    view = _view(attach, detach)
    (exp,) = explain_text('Every attach call answers "Storage tier is not enabled."\n', view)
    top = exp.matches[0]
    assert top.entry.id == "m" * 16 and exp.ambiguous and len(exp.matches) == 2
    assert any(
        "the paste names attach (Store.attach_storage_wrapped), the other sites' functions" in r
        for r in top.reasons
    )
    (exp,) = explain_text('Every storage call answers "Storage tier is not enabled."\n', view)
    assert not any("the paste names" in r for m in exp.matches for r in m.reasons)
    erring = site("n", "Store._tier_error", 40)
    view = _view(attach, erring, _entry("o", "error", "Server error: <e>", "srv.py", 3, "log"))
    (exp,) = explain_text('An error: "Storage tier is not enabled."\n', view)
    assert not any("the paste names" in r for m in exp.matches for r in m.reasons)


def test_the_function_a_paste_names_brings_an_older_wording_of_the_same_file_first():
    """`clear` answered `Storage tier is not enabled.` until release 1.1 reworded it there (an
    older wording: OLDER_PRIOR below the current sites' reading); attach and detach still
    answer it. A paste that names `clear` means the older wording's site; one that names none
    keeps a current site first. An older wording in another file is not weighed so: the
    paste's words only tell one file's functions apart."""
    from errexplain.match.release import Facts

    def site(letter: str, function: str, line: int, releases, path="store.py", **more):
        entry = _entry(letter, "abort", "Storage tier is not enabled.", path, line, "abort")
        return replace(
            entry, source=replace(entry.source, function=function), releases=releases, **more
        )

    attach = site("m", "Store.attach_storage_wrapped", 10, ("1.0", "1.2"))
    detach = site("n", "Store.detach_storage_wrapped", 40, ("1.0", "1.2"))
    clear = site("p", "Store.clear_storage_wrapped", 70, ("1.0", "1.0"), lineage="q" * 16)
    moved = site("r", "Old.clear_storage_wrapped", 70, ("1.0", "1.0"), "old.py", lineage="q" * 16)
    facts = Facts("demo", ("1.0", "1.1", "1.2"), {})
    # (quoted without its full stop: read ignoring punctuation, below 1.0, where the older
    # wording's prior shows)
    paste = 'A clear call answers 400 ("Storage tier is not enabled")\n'
    (exp,) = explain_text(paste, MemoryCatalog([attach, detach, clear], release_facts=[facts]))
    top = exp.matches[0]
    assert top.entry.id == "p" * 16
    assert any("the paste names clear (Store.clear_storage_wrapped)" in r for r in top.reasons)
    view = MemoryCatalog([attach, detach, clear], release_facts=[facts])
    (exp,) = explain_text(paste.replace("A clear call", "Each call"), view)
    assert exp.matches[0].entry.id in ("m" * 16, "n" * 16)
    (exp,) = explain_text(paste, MemoryCatalog([attach, detach, moved], release_facts=[facts]))
    assert exp.matches[0].entry.id in ("m" * 16, "n" * 16)


def test_the_module_a_message_value_names_comes_before_the_rest_of_the_paste():
    """`Ignore import error when loading <name>: <e>` is logged by two registries; the value
    names the processors' package, while the paste's prose names models too: the value
    decides."""
    template = "Ignore import error when loading <name>: <e>"
    models = _entry("f", "warning", template, "models/registry.py", 132, "log")
    procs = _entry("g", "warning", template, "managers/processor_registry.py", 24, "log")
    view = _view(models, procs)
    line = (
        "[2026-04-14 16:08:42 TP0] Ignore import error when loading "
        "demo.processor.gemma4: cannot import name 'AudioConfig' from 'transformers'\n"
    )
    (exp,) = explain_text("Serving two models on one node.\n" + line, view)
    assert exp.matches[0].entry.id == "g" * 16
    assert any("the paste names processor" in r for r in exp.matches[0].reasons)


# --------------------------------------- whole lines of a log printed without prefixes

STACK = _entry("h", "warning", "Fail to set RLIMIT_STACK: <e>", "utils.py", 2606, "log")
ANY_ON = _entry("i", "ValueError", "<backend> is not supported on <device>.", "plat.py", 9, "raise")


def test_a_whole_line_that_opens_with_a_long_literal_head_is_the_message():
    """No log prefix, and the OS error text after the message's 26 characters makes the
    value most of the line: the line starts with the template's long head, so it is the
    message as printed."""
    view = _view(STACK)
    text = "Cuda graph is off\nFail to set RLIMIT_STACK: current limit exceeds maximum limit\n"
    (exp,) = explain_text(text, view)
    assert exp.matches[0].entry.id == "h" * 16
    # in the middle of a sentence the literal text must still cover half of what is read,
    # unless the words before it introduce it, or its head is a failure's label (four words
    # or more, then a colon), and its last value is the error it caught
    prose = "the line Fail to set RLIMIT_STACK: current limit exceeds maximum limit came twice\n"
    assert explain_text(prose, view)[0].matches[0].entry.id == "h" * 16
    short = _view(_entry("j", "warning", "Resource limit unchanged: <e>", "utils.py", 26, "log"))
    prose = "the line Resource limit unchanged: current limit exceeds maximum came twice\n"
    assert explain_text(prose, short) == ()
    said = "we saw Fail to set RLIMIT_STACK: current limit exceeds maximum limit\n"
    assert explain_text(said, view)[0].matches[0].entry.id == "h" * 16


def test_a_warning_line_is_not_read_as_a_generic_template_opening_with_a_placeholder():
    """`<backend> is not supported on <device>.` (20 literal characters) would take a Python
    warning line whole, its path and category in the first value: the warning's location and
    category are its prefix, never a value (the joined line is no reading either)."""
    view = _view(ANY_ON)
    line = (
        "/Users/me/src/demo/python/demo/layers/attention/utils.py:223: UserWarning: Triton "
        "is not supported on current platform, roll back to CPU."
    )
    # the line joined with the source line Python prints under a warning: a cut reading
    hits = rank(view, line + " warnings.warn(").hits
    assert not hits or hits[0].score < BARE_SCORE
    for x in explain_text(line + "\n  warnings.warn(\n", view):
        for m in x.matches:
            assert not any("UserWarning" in v or "utils.py" in v for _, v in m.values)


# -------------------------------------------------------------------- HTTP status texts

SERVER_ERROR = _entry("j", "abort", "Internal server error: <e>", "serving.py", 138, "abort")


def test_the_http_phrases_are_those_of_http_status():
    import http

    from errexplain.explainer import HTTP_PHRASES

    # this interpreter's names (RFC 9110's from Python 3.13, RFC 7231's before) are all there,
    # and so are the other RFC's: servers send either
    statuses = {s.phrase for s in http.HTTPStatus if s.value >= 400} - {"I'm a Teapot"}
    assert statuses <= HTTP_PHRASES
    renamed = {
        "Request Entity Too Large": "Content Too Large",
        "Request-URI Too Long": "URI Too Long",
        "Requested Range Not Satisfiable": "Range Not Satisfiable",
        "Unprocessable Entity": "Unprocessable Content",
    }
    assert statuses | set(renamed) | set(renamed.values()) == HTTP_PHRASES


def test_an_http_status_text_is_no_project_message():
    """A curl answered `Internal Server Error`: the web server's status text, not the project's
    `Internal server error: <e>` (which carries its value); explained as a status text."""
    view = _view(SERVER_ERROR)
    text = "$ curl localhost:30000/v1/chat/completions -d '{x}'\nInternal Server Error\n"
    (exp,) = explain_text(text, view)
    assert not exp.matches and exp.generic and "HTTP error status" in exp.notes[0]
    (exp,) = explain_text("500 Internal Server Error\n", view)
    assert not exp.matches
    # the project's own message, with its value, is still its own
    (exp,) = explain_text("Internal server error: CUDA out of memory on rank 3\n", view)
    assert exp.matches[0].entry.id == "j" * 16


DUMP = _entry("d", "error", "<self.name> queue state:\n<state>", "watch.py", 40, "log")

DUMP_LOG = """\
[2026-11-02 09:14:00 DP0 TP0] Worker queue state:
worker.running=[Req(rid=7a1, len=9)]
pool: total=4096, free=0
[2026-11-02 09:14:00 DP0 TP1] Worker queue state:
worker.running=[Req(rid=7a1, len=9)]
pool: total=4096, free=0
"""


def test_a_record_heading_a_dump_is_read_with_the_lines_after_it_as_its_value():
    """A record that ends with a colon and whose next lines carry no log prefix printed a dump
    (a watchdog's state): the record is its template up to the last placeholder, once for all
    ranks, probable (DUMP_CAP), with a note that no exception was printed."""
    from errexplain.explainer import DUMP_CAP, DUMP_NOTE

    (exp,) = explain_text(DUMP_LOG, _view(DUMP))
    assert exp.error.line_no == 1
    assert exp.matches[0].entry.id == "d" * 16 and exp.matches[0].score == DUMP_CAP
    assert dict(exp.matches[0].values)["self.name"] == "Worker"
    assert exp.notes[0] == DUMP_NOTE


def test_a_record_ending_with_a_colon_is_no_dump_head_without_unprefixed_lines_after_it():
    from errexplain.explainer import DUMP_NOTE

    view = _view(DUMP)
    # the next line is another record: nothing was dumped under it
    lone = "[2026-11-02 09:14:00 TP0] Worker queue state:\n[2026-11-02 09:14:01 TP0] idle\n"
    assert explain_text(lone, view) == ()
    # a traceback after it is an announced error (its own reading), not a dump
    tb = "[2026-11-02 09:14:00 TP0] Worker queue state:\nTraceback (most recent call last):\n"
    assert all(DUMP_NOTE not in x.notes for x in explain_text(tb, view))
    # the text before the colon holds more than one word of value: not this template's head
    many = DUMP_LOG.replace("Worker queue state:", "The old worker queue state:")
    assert explain_text(many, view) == ()
    # words before the colon that are not the template's
    other = DUMP_LOG.replace("queue state:", "final report:")
    assert explain_text(other, view) == ()


def test_a_record_printed_over_two_lines_is_read_whole_when_that_reads_better():
    # one warning printed over two lines; its second line alone is also a wording of its own
    whole = _entry(
        "m",
        "warning",
        "Falling back to the eager kernel. Speed may suffer! Tuned table missing at <path>",
        "kern.py",
        40,
        "log",
    )
    second = _entry("n", "warning", "Tuned table missing at <path>", "kern.py", 70, "log")
    view = _view(whole, second)
    log = (
        "[2026-04-11 09:30:02 TP3] Falling back to the eager kernel. Speed may suffer!\n"
        "Tuned table missing at /srv/tables/E=64,N=1024,device_name=H100.json\n"
    )
    exps = explain_text(log, view)
    assert [e.matches[0].entry.id for e in exps] == ["m" * 16]
    assert exps[0].error.message.endswith("device_name=H100.json")
    # a next line that is another template's message, not the record's rest, stays apart
    other = "[2026-04-11 09:30:03 TP3] Tuned table missing at /srv/tables/b.json\n"
    exps = explain_text("[2026-04-11 09:30:02 TP3] Tuned table missing at /a.json\n" + other, view)
    assert {e.matches[0].entry.id for e in exps} == {"n" * 16}


def test_a_known_message_above_a_summary_of_its_call_chain_is_the_error():
    # no exception line: a message, then an indented summary the author wrote of where it went
    mismatch = _entry(
        "p", "ValueError", "Mismatch: <n> frames but <m> timestamps", "v.py", 8, "raise"
    )
    view = _view(mismatch)
    note = (
        "Worker output, every retry:\n\n"
        "```\n"
        "Mismatch: 12 frames but 9 timestamps\n"
        "  video.py:88  sample_frames  -> StopIteration\n"
        "  video.py:120 load_video     -> RuntimeError\n"
        "```\n"
    )
    exps = explain_text(note, view)
    assert exps[0].matches[0].entry.id == "p" * 16
    # the summary lines read as frames of a traceback cut before its exception: kept, after it
    assert [e.error.message for e in exps[1:]] == [""]


FRAMED = _entry("q", "ValueError", "Clip <path> has no decodable frames.", "clip.py", 12, "raise")
VALUED = _entry("r", "ValueError", "Bad clip data: <e>", "clip.py", 30, "raise")


def test_a_whole_line_framed_by_a_templates_words_at_both_ends_is_the_message():
    """Its long value (a path) outweighs its words, but they open and close the line: the line
    is that message, alone or after a colon; a template that ends with its value, or a line
    other words close, stays unread."""
    view = _view(FRAMED, VALUED)
    path = "/mnt/datasets/videos/2026/batch-0042/clip-000913-very-long-name.mp4"
    for text in (
        f"Clip {path} has no decodable frames.\n",
        f"启动报错：Clip {path} has no decodable frames.\n",  # noqa: RUF001
        f"The worker logs this: Clip {path} has no decodable frames.\n",
    ):
        (exp,) = explain_text(text, view)
        assert exp.matches[0].entry.id == "q" * 16, text
    assert explain_text(f"Bad clip data: {path}\n", view) == ()
    assert explain_text(f"Clip {path} has no decodable audio track at all\n", view) == ()


def test_a_template_of_little_literal_text_is_not_known_from_a_bare_line():
    """`logger.error(f"RuntimeError {e}.")` holds 14 literal characters: a line of prose that
    reads alike (`... Raises RuntimeError if`) is known by its values only, not taken."""
    view = _view(_entry("t", "error", "RuntimeError <e>.", "backend.py", 474, "log"))
    text = (
        "Returns the options parsed by the\nprevious run. Raises RuntimeError if\nit did not run.\n"
    )
    assert explain_text(text, view) == ()


EXECUTOR = _entry("w", "warning", "Error in stream_executor: <e>", "interp.py", 434, "log")


def test_a_python_warning_line_is_a_record_and_announces_its_cut_traceback():
    """`path.py:330: UserWarning: <message>` is how Python prints a warning: its message is a
    record, and one ending with a traceback cut before its exception line is the error."""
    text = (
        "/srv/site-packages/demo/interp.py:330: UserWarning: Error in stream_executor: "
        "Traceback (most recent call last):\n"
        '  File "/srv/site-packages/demo/interp.py", line 328, in worker\n'
        "    self._execute(expr)\n"
        '  File "/srv/site-packages/demo/interp.py", line 371, in _exec\n'
    )
    exps = explain_text(text, _view(EXECUTOR))
    assert any(x.matches and x.matches[0].entry.id == "w" * 16 for x in exps)


def test_the_source_line_under_a_warning_is_not_read_as_its_message():
    """Python prints the warning's source line under it: `{e}` there is the code's placeholder,
    not a value; the warning's own text is the message."""
    text = (
        "/srv/demo/interp.py:330: UserWarning: Error in stream_executor: boom happened\n"
        '  warnings.warn(f"Error in stream_executor: {e}")\n'
    )
    [exp] = explain_text(text, _view(EXECUTOR))
    assert exp.error.message == "Error in stream_executor: boom happened"
    assert dict(exp.matches[0].values) == {"e": "boom happened"}


def test_a_template_quoted_in_prose_with_its_placeholder_is_the_message_named():
    """A person who names the error by its template (`reports: "... {e} ..."`, copied from the
    source or the docs) quotes the message; only a line of code (an f-string, `.format(`) is
    the message's source."""
    view = _view(
        _entry("s", "error", "Session <req.session_id> of the pool is not alive", "p.py", 7, "log")
    )
    prose = 'After a restart it reports: "Session {req.session_id} of the pool is not alive".\n'
    [exp] = explain_text(prose, view)
    assert exp.matches[0].entry.id == "s" * 16
    code = '    logger.error(f"Session {req.session_id} of the pool is not alive")\n'
    assert explain_text(code, view) == ()


def test_of_two_sites_with_one_text_the_logged_one_comes_before_a_scripts_print():
    """A library logs `Fail to set RLIMIT_NOFILE: <e>` and a bench script prints the same text:
    of equal scores the logged site is the answer, though the script's path is shorter."""
    text = "Fail to set RLIMIT_NOFILE: <e>"
    logged = _entry("c", "error", text, "srt/utils/common.py", 30, "log")
    printed = replace(_entry("d", "error", text, "bench/u.py", 5, "log"), via="print")
    for order in ((logged, printed), (printed, logged)):
        hits = rank(MemoryCatalog(list(order)), "Fail to set RLIMIT_NOFILE: not permitted").hits
        assert [h.id for h in hits[:2]] == ["c" * 16, "d" * 16]
        assert hits[0].score == hits[1].score


def test_the_module_a_paste_names_orders_older_wordings_its_age_prior_alone_set_apart(
    bundled_catalog,
):
    """Older wordings of one text from several files differ by their age's prior alone (a
    wording raised more recently gains up to OLDER_AGE): a paste that names one's module (EAGLE
    speculative decoding) orders them as it orders sites tied outright; without it the prior
    decides, and nothing is said of the paste's words."""
    from errexplain.catalog.memory import MemoryCatalog

    assert bundled_catalog.release_facts  # (the bundled catalog holds sglang's history)
    view = MemoryCatalog(
        bundled_catalog.entries, bundled_catalog.release_facts, bundled_catalog.projects
    )
    msg = "`ValueError: Detected errors during sampling! NaN in the logits`"
    named = f"With EAGLE speculative decoding the server dies with {msg} at once.\n"
    (exp,) = explain_text(named, view)
    top = exp.matches[0]
    assert "/speculative/" in (top.entry.source.path or "")
    assert any(r.startswith("the paste names") for r in top.reasons)
    (exp,) = explain_text(f"The server dies with {msg} at once.\n", view)
    assert not any(r.startswith("the paste names") for m in exp.matches for r in m.reasons)
    assert "/speculative/" not in (exp.matches[0].entry.source.path or "")


# ------------------------------------- a message cut short, its file named beside it

HYBRID = _entry(
    "q",
    "NotImplementedError",
    "Layer kind '<kind>' in <pattern> is not implemented for the draft model",
    "models/hybrid_mtp.py",
    270,
    "raise",
)


@pytest.mark.parametrize(
    ("paste", "found"),
    [
        (
            "Speculation crashed with `NotImplementedError: Layer kind 'M'` in `hybrid_mtp.py`.",
            True,
        ),
        (
            "The draft model fails in models/hybrid_mtp.py:\n"
            "```\nNotImplementedError: Layer kind 'M'\n```",
            True,
        ),
        # the file not named: too short to be an answer
        ("Speculation crashed with `NotImplementedError: Layer kind 'M'`.", False),
        # another file whose name ends the same
        (
            "Speculation crashed with `NotImplementedError: Layer kind 'M'` in my_hybrid_mtp.py",
            False,
        ),
        # another class
        ("Speculation crashed with `ValueError: Layer kind 'M'` in `hybrid_mtp.py`.", False),
        # not the start of the template
        (
            "Speculation crashed with `NotImplementedError: kind 'M' in MEM*` in `hybrid_mtp.py`.",
            False,
        ),
    ],
)
def test_a_short_start_of_a_message_whose_file_the_paste_names_is_a_probable_answer(paste, found):
    exps = [x for x in explain_text(paste, _view(HYBRID)) if x.error.type]
    assert exps
    top = exps[0].matches[0] if exps[0].matches else None
    if found:
        assert top is not None and top.entry.id == "q" * 16
        assert top.kind == "probable" and top.score < 0.9
        assert "hybrid_mtp.py" in top.reasons[-1]
    else:
        assert top is None or top.entry.id != "q" * 16


def test_a_message_read_from_a_joined_line_is_reported_on_its_own_line(bundled_index):
    """A record that ends unfinished (a signature cut after `-> None`, relayed by a library's
    tag without a stamp) is read joined to the next line: a catalogued message found in the
    joined part is the next record's, reported there, not on the line before it."""
    sig = "register(fa: int | typing.SupportsIndex, t: torch.Tensor, h: List[torch.Tensor]) -> None"
    text = (
        f"[2026-03-01 09:00:01 TP5] type hints mismatch, override to --> {sig}\n"
        f"[aiter] type hints mismatch, override to --> {sig}\n"
        f"[2026-03-01 09:00:01 TP6] type hints mismatch, override to --> {sig}\n"
        "[2026-03-01 09:00:01 TP0] Failed to initialize QuickAllReduce: name 'amdsmi_init' is "
        "not defined\n"
    )
    found = [x for x in explain_text(text, bundled_index) if x.matches]
    assert [(x.error.line_no, x.error.message) for x in found] == [
        (4, "Failed to initialize QuickAllReduce: name 'amdsmi_init' is not defined")
    ]
