"""errexplain.explainer: parse -> rank -> Explanation over a small in-memory catalog, with the
generic explanation of the exception class when nothing (or only a derived entry) matches."""

from __future__ import annotations

import pytest

from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import (
    AMBIGUOUS_NOTE,
    CARRIED_NOTE,
    MEANINGS,
    TRUNCATED_NOTE,
    describe,
    explain_error,
    explain_message,
    explain_text,
)
from errexplain.models import Entry, Frame, RaisedError, Related, Source

CURATED, TWIN_A, TWIN_B, NCCL, WIDGET = (c * 16 for c in "abcde")


def _entry(ident: str, template: str, exception: str, path: str, **extra) -> Entry:
    return Entry(
        id=ident,
        project="demo",
        exception=exception,
        template=template,
        source=Source("demo", "1.0", path, 10, "f", None),
        **extra,
    )


ENTRIES = (
    _entry(
        CURATED,
        "feature length does not match image grids: <a> != <b>",
        "ValueError",
        "demo/images.py",
        meaning="Pixel rows and grid patches disagree.",
        examples=("feature length does not match image grids: 5824 != 5760",),
        related=(NCCL,),
    ),
    _entry(TWIN_A, "<n> is not divisible by <d>", "AssertionError", "demo/a.py", derived=True),
    _entry(TWIN_B, "<n> is not divisible by <d>", "AssertionError", "demo/b.py", derived=True),
    _entry(NCCL, "NCCL error: <error_str>", "RuntimeError", "demo/nccl.py", derived=True),
    _entry(
        WIDGET,
        "the widget exploded badly near <x>",
        "WidgetError",
        "demo/widget.py",
        base="RuntimeError",
        meaning="The widget broke.",
        examples=("the widget exploded badly near here",),
    ),
)


@pytest.fixture(scope="module")
def view():
    return MemoryCatalog(ENTRIES)


# ------------------------------------------------------------------------------ explain_text


TRACEBACK = """\
Traceback (most recent call last):
  File "/site-packages/demo/images.py", line 10, in f
    raise ValueError(msg)
ValueError: feature length does not match image grids: 5824 != 5760
"""


def test_explain_text_matches_a_traceback(view):
    [exp] = explain_text(TRACEBACK, view)
    assert exp.explained
    assert exp.error.type == "ValueError"
    assert exp.error.frames[0].path == "/site-packages/demo/images.py"
    [top, *_] = exp.matches
    assert top.entry is ENTRIES[0]
    assert top.kind == "exact"
    assert dict(top.values) == {"a": "5824", "b": "5760"}
    why = "similar wording (picked before related came from the code)"  # nothing in common
    assert top.related == (Related(NCCL, "NCCL error: <error_str>", "RuntimeError", why),)
    assert any("frame" in r for r in top.reasons)
    assert exp.generic is None  # a curated match needs no generic text
    assert exp.notes == ()
    assert not exp.ambiguous


def test_explain_text_one_explanation_per_error(view):
    text = TRACEBACK + "\nsome noise\n\nRuntimeError: NCCL error: unhandled system error\n"
    exps = explain_text(text, view)
    assert [e.error.type for e in exps] == ["ValueError", "RuntimeError"]
    assert [e.matches[0].entry.id for e in exps] == [CURATED, NCCL]


def test_explain_text_without_an_error(view):
    assert explain_text("all good here\nnothing to see\n", view) == ()


def test_explain_text_truncated_traceback_gets_a_note(view):
    text = 'Traceback (most recent call last):\n  File "/x/demo/images.py", line 10, in f\n'
    [exp] = explain_text(text, view)
    assert exp.error.truncated
    assert not exp.explained
    assert exp.notes == (TRUNCATED_NOTE,)
    assert exp.generic is None  # no exception type to describe


# --------------------------------------------------------------------------- explain_message


def test_explain_message_exact(view):
    exp = explain_message("NCCL error: unhandled cuda error", "RuntimeError", view)
    assert exp.error == RaisedError("RuntimeError", "NCCL error: unhandled cuda error", form="line")
    assert exp.matches[0].entry.id == NCCL
    assert dict(exp.matches[0].values) == {"error_str": "unhandled cuda error"}


def test_derived_top_match_still_gets_generic_text(view):
    exp = explain_message("NCCL error: unhandled cuda error", "RuntimeError", view)
    assert exp.matches[0].entry.derived
    assert exp.generic == MEANINGS["RuntimeError"]


def test_ambiguous_sites_are_all_listed_with_a_note(view):
    exp = explain_message("16 is not divisible by 6", "AssertionError", view)
    assert exp.ambiguous
    assert {m.entry.id for m in exp.matches} == {TWIN_A, TWIN_B}
    assert exp.notes == (AMBIGUOUS_NOTE,)
    assert exp.generic == MEANINGS["AssertionError"]


def test_a_frame_settles_the_ambiguity(view):
    error = RaisedError(
        "AssertionError", "16 is not divisible by 6", frames=(Frame("/x/demo/b.py", 10, "f"),)
    )
    exp = explain_error(error, view)
    assert not exp.ambiguous
    assert exp.notes == ()
    assert exp.matches[0].entry.id == TWIN_B


def test_no_match_gives_nearest_and_generic(view):
    exp = explain_message("feature length differs from grids somewhat", "ValueError", view)
    assert not exp.explained
    assert exp.matches == ()
    assert exp.generic == MEANINGS["ValueError"]


def test_no_type_no_generic(view):
    exp = explain_message("zebra giraffe", "", view)
    assert exp.matches == ()
    assert exp.generic is None


def test_cutoff_is_passed_to_ranking(view):
    msg = "NCCL error: unhandled cuda error"
    assert explain_message(msg, "RuntimeError", view, cutoff=1.01).matches == ()
    assert explain_message(msg, "RuntimeError", view, cutoff=1.01).nearest
    assert explain_text(f"RuntimeError: {msg}\n", view, cutoff=1.01)[0].matches == ()


# -------------------------------------------------------------------------- generic fallback


def test_unknown_custom_class_walks_to_the_catalog_known_base(view):
    exp = explain_message("zebra giraffe", "mypkg.WidgetError", view)
    assert exp.matches == ()
    assert exp.generic == f"(nearest known class RuntimeError) {MEANINGS['RuntimeError']}"


def test_unknown_builtin_walks_its_mro(view):
    exp = explain_message("zebra giraffe", "BrokenPipeError", view)
    assert exp.generic == f"(nearest known class ConnectionError) {MEANINGS['ConnectionError']}"


def test_unknown_error_class_falls_back_to_exception(view):
    exp = explain_message("zebra giraffe", "torch.OutOfMemoryError", view)
    assert exp.generic == f"(nearest known class Exception) {MEANINGS['Exception']}"


def test_class_without_a_description(view):
    assert explain_message("zebra giraffe", "Weird", view).generic is None


def test_truncated_error_with_a_type_has_note_and_generic(view):
    exp = explain_error(RaisedError("KeyError", "'lm_head.w", truncated=True), view)
    assert exp.notes == (TRUNCATED_NOTE,)
    assert exp.generic == MEANINGS["KeyError"]


@pytest.mark.parametrize(
    ("exc_type", "known_base", "expected"),
    [
        ("ValueError", None, "ValueError"),
        ("builtins.FileNotFoundError", None, "FileNotFoundError"),
        ("BrokenPipeError", None, "ConnectionError"),  # ConnectionError, OSError, ...
        ("UnicodeEncodeError", None, "ValueError"),  # UnicodeError is not described
        ("IsADirectoryError", None, "OSError"),
        ("GeneratorExit", None, "BaseException"),
        ("DeprecationWarning", None, "Exception"),
        ("mypkg.WidgetError", "RuntimeError", "RuntimeError"),
        ("mypkg.WidgetError", "IsADirectoryError", "OSError"),  # the base's MRO is walked too
        ("Weird", "ValueError", "ValueError"),
        ("FooError", None, "Exception"),  # an unknown "...Error" is at least an Exception
        ("FooError", "BarError", "Exception"),
        ("KeyboardInterrupt", None, "KeyboardInterrupt"),
    ],
)
def test_describe(exc_type, known_base, expected):
    assert describe(exc_type, known_base) == (expected, MEANINGS[expected])


@pytest.mark.parametrize("exc_type", ["Weird", "mypkg.Thing", "SomeWarning", "print"])
def test_describe_nothing_known(exc_type):
    assert describe(exc_type) is None


def test_the_table_of_newer_builtins_agrees_with_this_python():
    """Where this Python has the class, the table's parents are its real MRO, so that a Python
    without it explains the same."""
    import builtins

    from errexplain.explainer import NEWER_BUILTINS

    for name, parents in NEWER_BUILTINS.items():
        cls = getattr(builtins, name, None)
        if cls is not None:
            assert [c.__name__ for c in cls.__mro__[1:-1]] == parents


def test_exception_group_falls_back_to_exception_on_every_python():
    from errexplain.explainer import describe

    found = describe("ExceptionGroup")
    assert found is not None and found[0] == "Exception"


# ------------------------------------------------------------------------------ look-alikes

LOOK_ALIKE = """\
Traceback (most recent call last):
  File "/usr/local/lib/python3.12/dist-packages/otherengine/worker/runner.py", line 88, in run
    self.check()
  File "/usr/local/lib/python3.12/dist-packages/otherengine/layers/images.py", line 41, in check
    raise ValueError(msg)
ValueError: feature length does not match image grids: 5824 != 5760
"""


def test_frames_in_another_package_make_the_same_text_a_look_alike(view):
    [exp] = explain_text(LOOK_ALIKE, view)
    assert not exp.matches  # not presented as raised by demo's site
    assert exp.nearest[0].entry.id == CURATED
    assert any("frames lie in otherengine, not in demo" in n for n in exp.notes)


def test_a_frame_in_the_project_keeps_the_match(view):
    text = LOOK_ALIKE.replace(
        '  File "/usr/local/lib/python3.12/dist-packages/otherengine/layers/images.py"',
        '  File "/usr/local/lib/python3.12/dist-packages/demo/images.py"',
    )
    [exp] = explain_text(text, view)
    assert exp.matches[0].entry.id == CURATED
    assert not exp.notes


def test_a_raise_shown_in_someones_own_code_makes_the_same_text_a_look_alike(view):
    """No frame names a package, but the innermost one shows the raise statement in a file of
    its own (a training framework that copied the check): raised there, not at demo's site."""
    text = LOOK_ALIKE.replace(
        "/usr/local/lib/python3.12/dist-packages/otherengine", "/home/me/proj"
    )
    [exp] = explain_text(text, view)
    assert not exp.matches and exp.nearest[0].entry.id == CURATED
    assert any("raises it in proj/layers/images.py, outside demo" in n for n in exp.notes)


def test_frames_that_name_no_package_and_show_no_raise_keep_the_match(view):
    """The innermost frame shown is a call (the traceback was cut above the raise): the error
    may well be raised inside the project."""
    text = LOOK_ALIKE.replace(
        "/usr/local/lib/python3.12/dist-packages/otherengine", "/home/me/proj"
    ).replace("    raise ValueError(msg)\n", "    self.inner()\n")
    [exp] = explain_text(text, view)
    assert exp.matches[0].entry.id == CURATED


def test_a_raise_that_raises_again_an_exception_made_elsewhere_keeps_the_match(view):
    """`raise self._exception` (a process pool handing its worker's error to the caller),
    `raise exc`: the frame says nothing of where the exception was made."""
    text = LOOK_ALIKE.replace(
        "/usr/local/lib/python3.12/dist-packages/otherengine", "/home/me/proj"
    ).replace("    raise ValueError(msg)\n", "    raise self._exception\n")
    [exp] = explain_text(text, view)
    assert exp.matches[0].entry.id == CURATED
    below = THROUGH_THE_PROJECT.replace("return self._op(*args, **kwargs)", "raise err from None")
    [exp] = explain_text(below, view)
    assert exp.matches[0].entry.id == CURATED


def test_reraises():
    from errexplain.explainer import reraises

    for code in ("raise self._exception", "raise exc", "  raise err from None", "raise e from e"):
        assert reraises(code), code
    for code in (
        "raise ValueError",
        "raise ValueError(msg)",
        "raise errors.KVTransferError",
        "raise",
        "assert x",
        "return exc",
        None,
    ):
        assert not reraises(code), code


THROUGH_THE_PROJECT = """\
Traceback (most recent call last):
  File "/usr/local/lib/python3.12/dist-packages/demo/runner.py", line 30, in run
    self.images(batch)
  File "/usr/local/lib/python3.12/dist-packages/torch/_ops.py", line 841, in __call__
    return self._op(*args, **kwargs)
ValueError: feature length does not match image grids: 5824 != 5760
"""


def test_a_traceback_ending_in_another_package_below_the_project_is_a_look_alike(view):
    """The frames pass through demo's code but the innermost one is torch's: the error was
    raised inside torch (or the native code it calls), not at demo's raise statement, which no
    frame reaches."""
    [exp] = explain_text(THROUGH_THE_PROJECT, view)
    assert not exp.matches and exp.nearest[0].entry.id == CURATED
    assert any("ends in torch, below demo's code" in n for n in exp.notes)


def test_a_traceback_ending_in_another_package_that_reaches_the_site_keeps_the_match(view):
    text = THROUGH_THE_PROJECT.replace("demo/runner.py", "demo/images.py")
    [exp] = explain_text(text, view)
    assert exp.matches[0].entry.id == CURATED


SHORTENED = """\
The warm-up crashes:
```
demo/runner.py:30
demo/loader.py:12
kernels/grids.py:88, in check_grids
ValueError: feature length does not match image grids: 5824 != 5760
```
"""


def test_a_shortened_traceback_ending_in_a_package_path_is_a_look_alike(view):
    """Frames written relative to where packages are installed (as a poster shortens a
    traceback): the innermost one names its package by its first directory."""
    [exp] = explain_text(SHORTENED, view)
    assert not exp.matches and exp.nearest[0].entry.id == CURATED
    assert any("ends in kernels, below demo's code" in n for n in exp.notes)
    # a checkout's or a machine's directories are not packages; the project's own frame is its
    for inner in ("python/demo/grids.py:88", "scripts/grids.py:88", "demo/grids.py:88"):
        [exp] = explain_text(SHORTENED.replace("kernels/grids.py:88", inner), view)
        assert exp.matches and exp.matches[0].entry.id == CURATED, inner


def test_a_traceback_cut_inside_its_frames_keeps_the_match(view):
    """No exception line after the frames: the traceback was cut, the raise may lie below."""
    text = THROUGH_THE_PROJECT.rsplit("\n", 2)[0] + "\n"
    text += "feature length does not match image grids: 5824 != 5760\n"
    exps = explain_text(text, view)
    assert not any("ends in torch" in n for x in exps for n in x.notes)


def test_frames_package_reads_installed_and_engine_paths():
    from errexplain.explainer import frames_package

    def frames(*paths):
        return tuple(Frame(p, 1, "f") for p in paths)

    assert frames_package(frames("/x/site-packages/torch/nn/m.py")) == "torch"
    assert frames_package(frames("C:\\py\\Lib\\site-packages\\vllm\\a.py")) == "vllm"
    assert frames_package(frames("/src/vllm/vllm/engine/x.py")) == "vllm"
    assert frames_package(frames("/x/site-packages/six.py", "/home/me/run.py")) is None
    assert frames_package(frames("/x/site-packages/torch/a.py", "/home/me/run.py")) == "torch"
    assert frames_package(()) is None


# ------------------------------------------------------------------------------ bare messages


def test_a_paste_with_no_exception_is_searched_line_by_line(view):
    text = (
        "I started the server and after a while it printed\n"
        "the widget exploded badly near rank 3\n"
        "and then it hung.\n"
    )
    [exp] = explain_text(text, view)
    assert exp.error.type == "" and exp.error.message == "the widget exploded badly near rank 3"
    assert exp.error.line_no == 2
    assert exp.matches[0].entry.id == WIDGET
    assert "no exception line" in exp.notes[0]


def test_a_message_quoted_in_prose_is_found(view):
    text = 'the master reports "feature length does not match image grids: 3 != 4" and exits'
    [exp] = explain_text(text, view)
    assert exp.matches[0].entry.id == CURATED
    assert dict(exp.matches[0].values) == {"a": "3", "b": "4"}


def test_prose_that_only_shares_words_is_not_an_error(view):
    # a placeholder-heavy template would bind anything: too little literal text to count
    assert explain_text("my job 16 is not divisible by anything I know of, sadly\n", view) == ()
    assert explain_text("the widget is fine and nothing exploded today at all\n", view) == ()


def test_a_wrapped_or_prefixed_message_without_exception_is_found(view):
    wrapped = "```\nfeature length does not\nmatch image grids:\n5 != 6\n```\n"
    [exp] = explain_text(wrapped, view)
    assert exp.matches[0].entry.id == CURATED
    assert exp.error.message == "feature length does not match image grids: 5 != 6"
    prefixed = "request 7 failed: Error: feature length does not match image grids: 1 != 2\n"
    [exp] = explain_text(prefixed, view)
    assert exp.matches[0].entry.id == CURATED
    assert exp.error.message == "feature length does not match image grids: 1 != 2"


def _transfer_logged() -> Entry:
    """A logged line that carries an exception in its last value."""
    return _entry(
        "f" * 16,
        "Transfer failed for request <rid> after bootstrapping with exception <e>",
        "error",
        "demo/transfer.py",
        kind="log",
        derived=True,
    )


def test_an_exception_inside_a_catalogued_log_line_is_explained_by_the_line():
    logged = _transfer_logged()
    view = MemoryCatalog((*ENTRIES, logged))
    text = (
        "[2026-01-02 10:00:00 TP3] Transfer failed for request rid='9f2' after bootstrapping "
        "with exception TransferError(room=7): Request 7 timed out after 600.0s in Poll.Waiting\n"
    )
    [exp] = explain_text(text, view)
    assert exp.matches and exp.matches[0].entry.id == "f" * 16
    assert exp.error.type == "TransferError"
    assert any("inside a catalogued log message" in n for n in exp.notes)
    # a line that does not carry the exception in a value is not taken for it
    other = text.replace("with exception TransferError", "; then TransferError")
    [exp] = explain_text(other, view)
    assert not exp.matches or exp.matches[0].entry.id != "f" * 16


def test_an_exception_whose_text_only_an_unraised_site_sends_is_explained_by_its_line():
    # `Request 7 was aborted.` is also a message a request's client is sent (kind abort, at
    # another site): printed with an exception type, it was raised, so the log line around it
    # explains it, not the abort site
    logged = _transfer_logged()
    sent = _entry(
        "e" * 16, "Request <n> was aborted.", "abort", "demo/grammar.py", kind="abort", derived=True
    )
    view = MemoryCatalog((*ENTRIES, logged, sent))
    text = (
        "[2026-01-02 10:00:00 TP3] Transfer failed for request rid='9f2' after bootstrapping "
        "with exception TransferError(room=7): Request 7 was aborted.\n"
    )
    [exp] = explain_text(text, view)
    assert exp.matches[0].entry.id == "f" * 16
    # the same message as a JSON error body is the abort site's
    [exp] = explain_text('{"object": "error", "message": "Request 7 was aborted."}\n', view)
    assert exp.matches[0].entry.id == "e" * 16


@pytest.mark.parametrize("reverse", [False, True])
def test_a_text_both_logged_and_sent_to_the_client_is_the_twin_the_paste_shows(reverse):
    template = "Bootstrap failed for request <rid> on rank <rank> with exception <e>"
    logged = _entry("1" * 16, template, "warning", "demo/prefill.py", kind="log", derived=True)
    sent = _entry("2" * 16, template, "abort", "demo/prefill.py", kind="abort", derived=True)
    view = MemoryCatalog((*ENTRIES, *((sent, logged) if reverse else (logged, sent))))
    line = "Bootstrap failed for request 7f3 on rank 2 with exception TimeoutError: no answer"
    [exp] = explain_text(f"[2026-01-02 10:00:00 TP2] {line}\n", view)
    assert [m.entry.kind for m in exp.matches] == ["log"] and not exp.ambiguous
    [exp] = explain_text(f'{{"object": "error", "message": "{line}", "code": 500}}\n', view)
    assert [m.entry.kind for m in exp.matches] == ["abort"] and not exp.ambiguous


def test_a_log_record_starting_with_a_long_template_head_is_a_catalogued_message():
    short = _entry(
        "9" * 16, "Invalid request object: <obj>", "error", "demo/loop.py", kind="log", derived=True
    )
    view = MemoryCatalog((*ENTRIES, short))
    line = "Invalid request object: UpdateReq(model_path='/data/models/Llama-3-8B', fmt='auto')"
    [exp] = explain_text(f"```\n[14:26:31] {line}\n```\n", view)
    assert exp.matches and exp.matches[0].entry.id == "9" * 16
    # the same text in prose (no log record): too little of it is pinned down to say so
    assert not explain_text(f"we see {line} sometimes\n", view)


@pytest.mark.parametrize(
    ("tag", "left_out"),
    [
        # an actor framework passed the error on, tagged with where it came from
        ("[address=0.0.0.0:37905, pid=4194, actor=ModelActor] ", True),
        # a tag that is not key=value pairs is part of the message
        ("[Staging area of the model actor pipeline] ", False),
        ("[address=0.0.0.0:37905 [pid=4194, actor=ModelActor]] ", False),
    ],
)
def test_a_wrappers_key_value_tag_before_the_message_is_left_out(view, tag, left_out) -> None:
    (exp,) = explain_text(f"RuntimeError: {tag}the widget exploded badly near pier 4\n", view)
    noted = any(tag.strip() in note for note in exp.notes)
    assert noted is left_out
    if left_out:
        assert exp.matches[0].entry.id == WIDGET


def test_an_api_gateways_provider_tag_and_client_class_do_not_hide_the_servers_message(view):
    # LiteLLM re-raises the server's 400 under its own class, its provider's tag first
    text = "litellm.BadRequestError: Hosted_vllmException - the widget exploded badly near pier 4\n"
    (exp,) = explain_text(text, view)
    top = exp.matches[0]
    assert top.entry.id == WIDGET and top.kind == "exact"
    assert not any("not litellm" in r for r in top.reasons)  # the client's class is no clue
    assert any("'Hosted_vllmException -'" in n for n in exp.notes)
    # a class of the project's own named like a client's keeps its type check
    (own,) = explain_text("demo.BadRequestError: the widget exploded badly near pier 4\n", view)
    assert any("not demo.BadRequestError" in r for r in own.matches[0].reasons)


def test_exception_names_a_wrapper_repeated_before_the_message_are_read_past(view):
    """LiteLLM nests the classes it passed the error through (`litellm.MidStreamFallbackError:
    litellm.APIConnectionError: APIConnectionError: OpenAIException - <message>`); a wrapper
    may repeat the inner class alone (`RuntimeError: WidgetError: <message>`)."""
    chain = (
        "litellm.ServiceUnavailableError: litellm.MidStreamFallbackError: "
        "litellm.APIConnectionError: APIConnectionError: OpenAIException - the widget "
        "exploded badly near pier 4\n"
    )
    for text in (chain, "RuntimeError: WidgetError: the widget exploded badly near pier 4\n"):
        (exp,) = explain_text(text, view)
        top = exp.matches[0]
        assert (top.entry.id, top.kind) == (WIDGET, "exact"), text  # (not a fuzzy near miss)
        assert any(n.startswith("the tag ") for n in exp.notes)


def test_a_quoted_log_wrapper_is_read_whole_not_its_inner_exception() -> None:
    wrapper = _entry(
        "f" * 16, "Error in parse_stream_chunk: <e>", "error", "demo/parser.py", kind="log"
    )
    builtin = Entry(
        id="9" * 16,
        project="python",
        exception="IndexError",
        template="list index out of range",
        source=Source("python", "3.12", None, None, None, None),
        kind="builtin",
    )
    view = MemoryCatalog((*ENTRIES, wrapper, builtin))
    text = (
        'the stream breaks with "Error in parse_stream_chunk: list index out of range" after a few'
    )
    exp, *carried = explain_text(text, view)
    assert exp.matches[0].entry.id == "f" * 16
    assert all(CARRIED_NOTE in x.notes for x in carried)
    # a log record of the wrapper whose leading-placeholder twin reads the whole line
    kw = Entry(
        id="8" * 16,
        project="python",
        exception="TypeError",
        template="<f>() got an unexpected keyword argument <a>",
        source=Source("python", "3.12", None, None, None, None),
        kind="builtin",
    )
    view = MemoryCatalog((*ENTRIES, wrapper, kw))
    line = (
        "[2026-08-26 10:38:03] Error in parse_stream_chunk: "
        "T.render() got an unexpected keyword argument 'effort'\n"
    )
    exp, *carried = explain_text(line, view)
    assert exp.matches[0].entry.id == "f" * 16
    assert all(CARRIED_NOTE in x.notes for x in carried)  # (the TypeError, after the record)


def test_another_packages_exception_inside_a_catalogued_log_line_is_not_the_lines():
    # the line's wrapper (`Worker hit an exception: <e>`) only reports an exception that a
    # class of another package names: it was created there, so the line is no answer for it
    hit = _entry("7" * 16, "Worker hit an exception: <e>", "error", "demo/worker.py", kind="log")
    view = MemoryCatalog((*ENTRIES, hit))
    # (the record itself is what the worker logged: an error of its own, at its site, listed
    # first; tests/test_reporters.py)
    text = (
        "[2026-01-02 10:00:00 TP0] Worker hit an exception: compiler.exc.Unsupported: "
        "graph break on a print call inside the region\n"
    )
    record, exp = explain_text(text, view)
    assert not record.error.type and record.matches[0].entry.id == "7" * 16
    assert exp.error.type == "compiler.exc.Unsupported"
    assert not exp.matches
    # a class of the line's own package is the line's to explain (its text is built elsewhere)
    own = text.replace("compiler.exc.Unsupported", "demo.errors.WorkerFault")
    [exp] = explain_text(own, view)
    assert exp.matches and exp.matches[0].entry.id == "7" * 16


def test_a_lead_word_that_a_template_spells_is_the_messages_not_a_log_level():
    # one project raises `error: unrecognized options: x` itself, another (a parser library)
    # prints `prog: error: unrecognized options: x` around its own `unrecognized options: x`
    own = _entry("3" * 16, "error: unrecognized options: <x>", "SystemExit", "demo/cli.py")
    lib = Entry(
        id="4" * 16,
        project="python",
        exception="SystemExit",
        template="unrecognized options: <x>",
        source=Source("python", "3.12", None, None, None, None),
    )
    view = MemoryCatalog((*ENTRIES, own, lib))
    [exp] = explain_text("$ demo serve --fast\n\nerror: unrecognized options: --fast\n", view)
    assert exp.matches[0].entry.id == "3" * 16
    [exp] = explain_text("demo.py: error: unrecognized options: --fast\n", view)
    assert exp.matches[0].entry.id == "4" * 16


def test_prose_after_a_quoted_messages_line_is_left_out_when_the_whole_is_unknown():
    died = _entry(
        "8" * 16,
        "Rank <r> worker died during start-up (exit code: <c>). If the exit code is -9 (SIGKILL), "
        "the OS OOM killer is a common cause: run `dmesg -T | grep -i oom` to check.",
        "RuntimeError",
        "demo/engine.py",
    )
    view = MemoryCatalog((*ENTRIES, died))
    text = (
        "It loaded the checkpoint, then crashed during graph capture; the launcher\n"
        "reported RuntimeError: Rank 0 worker died during start-up (exit code -11).\n"
        "The standard configuration was bounded; the second launch kept a\n"
        "complete final log after the first container exited. No fallback was tried.\n"
    )
    [exp] = explain_text(text, view)
    assert exp.matches[0].entry.id == "8" * 16
    assert exp.error.message == "Rank 0 worker died during start-up (exit code -11)."
    assert exp.notes[0].startswith("only the message's first line was matched")
    # a message whose lines all belong to it is matched whole, with no such note
    [exp] = explain_text(TRACEBACK, view)
    assert not any(n.startswith("only the message's first line") for n in exp.notes)


def test_a_quiet_warning_before_a_cut_traceback_is_not_its_error():
    quiet = _entry(
        "5" * 16,
        "The error text 'op scheduled late' printed below can be ignored.",
        "warning",
        "demo/ops.py",
        kind="log",
    )
    loud = _entry(
        "6" * 16,
        "Tokens in the prompt do not match its images: <a> != <b>",
        "warning",
        "demo/mm.py",
        kind="log",
    )
    view = MemoryCatalog((*ENTRIES, quiet, loud))

    def paste(first: str) -> str:
        return (
            f"[2026-01-02 10:00:01 TP0] {first}\n"
            "[2026-01-02 10:00:01 TP0] Load weight begin. avail mem=23.43 GB\n"
            "[2026-01-02 10:00:02 TP0] Worker hit an exception: "
            "Traceback (most recent call last):\n"
            '  File "/x/demo/run.py", line 3, in main\n'
            "    ru"
        )

    text = paste("The error text 'op scheduled late' printed below can be ignored.")
    assert not any(x.matches for x in explain_text(text, view))  # the cut traceback only
    text = paste("Tokens in the prompt do not match its images: 3 != 4")
    assert [x.matches[0].entry.id for x in explain_text(text, view) if x.matches] == ["6" * 16]


# ------------------------------------------- a line printed under an error, held by its value

DIED = "f" * 16
DIED_ENTRY = _entry(
    DIED,
    "Rank <rank> worker exited while starting up (exit code: <code>). A code of -9 is most "
    "often the kernel's out-of-memory killer: look for it in dmesg.",
    "RuntimeError",
    "demo/launcher.py",
    derived=True,
)
CHILD_THEN_PARENT = (
    "Two jobs raced for the same devices:\n\n"
    "RuntimeError: NCCL error: unhandled cuda error\n"
    "Rank 0 worker exited while starting up (exit code: -3)\n"
)


def test_a_known_message_printed_under_an_error_is_an_error_of_its_own():
    """The parent's line under the child's error has no log prefix, so it joins the child's
    message, where `NCCL error: <error_str>` holds it inside its value: it is read as the
    second error it is (the start of a message the catalog knows well)."""
    view = MemoryCatalog((*ENTRIES, DIED_ENTRY))
    child, parent = explain_text(CHILD_THEN_PARENT, view)
    assert child.matches[0].entry.id == NCCL
    assert parent.error.message == "Rank 0 worker exited while starting up (exit code: -3)"
    assert parent.matches[0].entry.id == DIED and parent.matches[0].score >= 0.9


def test_a_line_the_matched_template_words_itself_is_no_second_error():
    # the line is literal text of the error's own template: part of that message, not another
    entry = _entry(
        "9" * 16,
        "Rank <rank> worker exited while starting up (exit code: <code>)\nsee the log above",
        "RuntimeError",
        "demo/pool.py",
    )
    view = MemoryCatalog((*ENTRIES, DIED_ENTRY, entry))
    text = (
        "RuntimeError: Rank 0 worker exited while starting up (exit code: -3)\nsee the log above\n"
    )
    (only,) = explain_text(text, view)
    assert only.matches[0].entry.id == "9" * 16


def _log_view(*more):
    """A project that logs one message from its launcher (and, in an older release, from a
    file of another name) and raises another."""
    from errexplain.models import Entry, Source

    def entry(letter, kind, exception, template, path, at=None):
        return Entry(
            id=letter * 16,
            project="demo",
            exception=exception,
            template=template,
            source=Source("demo", "2.0", path, 30, "launch", None),
            kind=kind,
            at=at,
            releases=("1.0", "2.0") if at else None,
        )

    return MemoryCatalog(
        [
            entry(
                "l",
                "log",
                "error",
                "Worker <n> is gone. Look for its own log lines above this one.",
                "demo/runtime/launcher.py",
                at="1.0 demo/old/spawn.py:12 launch; 2.0 demo/runtime/launcher.py:30",
            ),
            entry("r", "raise", "RuntimeError", "Worker pool <n> refused the job", "demo/pool.py"),
            *more,
        ]
    )


@pytest.mark.parametrize(
    ("prefix", "alike"),
    [
        ("ERROR 10-10 01:26:34 [executor.py:420] ", True),  # another engine's logger
        ("(APIServer pid=84) ERROR 10-10 01:26:34 [executor.py:420] ", True),
        ("ERROR 10-10 01:26:34 [launcher.py:30] ", False),  # the project's own file
        ("ERROR 10-10 01:26:34 [spawn.py:12] ", False),  # its file in an older release
        ("[2026-10-10 01:26:34 TP0] ", False),  # a prefix that names no file
        ("ERROR 10-10 01:26:34 [launcher.py:33] ", False),  # near its line (a call's lines)
        ("ERROR 10-10 01:26:34 [launcher.py:420] ", True),  # its file's name, never that line
        ("ERROR 10-10 01:26:34 [spawn.py:420] ", True),
        ("ERROR [launcher.py:420] ", True),  # the stamp left out by the paster
        ("WARNING [executor.py:420] ", True),
        ("ERROR [launcher.py:31] ", False),
        # the level and `file.py:123:` a root logger's format puts after sglang's own stamp:
        # the project's own logging call, in a build whose files and lines have moved since
        ("[2026-10-10 01:26:34] ERROR executor.py:420: ", False),
    ],
)
def test_a_log_prefix_naming_another_file_makes_a_logged_text_a_look_alike(prefix, alike):
    """A log record's prefix names the code that called the logger: a logged message whose
    record names a file the project never logs it in, or a line of that file where no release
    logs it, was logged by someone else's copy (a fork keeps the file's name)."""
    [exp] = explain_text(
        f"{prefix}Worker 0 is gone. Look for its own log lines above this one.\n", _log_view()
    )
    if alike:
        named = prefix.split("[")[-1].split("]")[0]
        assert not exp.matches and exp.nearest[0].entry.id == "l" * 16
        assert any(f"names {named} as the code that logged it" in n for n in exp.notes)
    else:
        assert exp.matches[0].entry.id == "l" * 16


@pytest.mark.parametrize("bar", ["\r", "\r\n"])
def test_a_log_prefix_below_a_redrawn_progress_bar_is_read_on_its_own_line(bar):
    """A progress bar redraws itself with a lone carriage return: the parser breaks the line
    there, and the record's prefix is read from the line the parser numbered, not from the
    line that number names when only `\\n` counts."""
    text = (
        f"Loading shards:  50% 1/2{bar}Loading shards: 100% 2/2\n"
        "ERROR 10-10 01:26:34 [executor.py:420] Worker 0 is gone. Look for its own log lines "
        "above this one.\n"
    )
    [exp] = explain_text(text, _log_view())
    assert not exp.matches and exp.nearest[0].entry.id == "l" * 16
    assert any("names executor.py:420 as the code that logged it" in n for n in exp.notes)


def test_a_log_prefix_inside_a_logged_strings_repr_is_read_on_the_records_part():
    """The whole paste logged as a string's repr: the parser reads its escaped lines as parts
    of one pasted line, and the record's prefix is the part that holds the error's message, not
    the first part (the poster's sentence)."""
    pasted = (
        "The workers stopped after the upgrade:\n"
        "ERROR 10-10 01:26:34 [executor.py:420] Worker 0 is gone. Look for its own log lines "
        "above this one.\n"
    )
    [exp] = explain_text(f"output.error={pasted!r}\n", _log_view())
    assert not exp.matches and exp.nearest[0].entry.id == "l" * 16
    assert any("names executor.py:420 as the code that logged it" in n for n in exp.notes)


def test_a_same_text_site_with_no_history_in_the_named_file_is_not_disowned():
    """The text is logged at two sites in files of one name: the runtime's launcher (with a
    release history) and the tools' launcher, whose site has none. A prefix naming that file at
    another line cannot be checked against the second site's lines in earlier releases, so it
    disowns neither, whichever of the two is listed first."""
    from errexplain.models import Entry, Source

    text = "Worker <n> is gone. Look for its own log lines above this one."
    monitor = Entry(
        id="m" * 16,
        project="demo",
        exception="error",
        template=text,
        source=Source("demo", "2.0", "demo/tools/launcher.py", 30, "watch", None),
        kind="log",
    )
    view = _log_view(monitor)
    [exp] = explain_text(
        "ERROR 10-10 01:26:34 [launcher.py:420] Worker 0 is gone. Look for its own log lines "
        "above this one.\n",
        view,
    )
    assert {m.entry.id for m in exp.matches} >= {"m" * 16}
    assert not any("as the code that logged it" in n for n in exp.notes)


def test_a_log_prefix_naming_another_file_keeps_a_raised_text():
    """Any logger prints an exception's text: a raise site is not disowned by the file that
    logged its message."""
    [exp] = explain_text(
        "ERROR 10-10 01:26:34 [executor.py:420] Worker pool 3 refused the job\n", _log_view()
    )
    assert exp.matches[0].entry.id == "r" * 16


def test_a_look_alike_record_wrapped_by_the_paster_stays_a_look_alike():
    """The record's message runs on to the next line (the paster's terminal wrapped it): it is
    not read again from the lines around it, which would lose the prefix that disowns it."""
    text = (
        "(APIServer pid=84) ERROR 10-10 01:26:34 [executor.py:420] Worker 0 is gone. Look for "
        "its own log lines\nabove this one.\n"
    )
    found = explain_text(text, _log_view())
    assert not any(m.entry.id == "l" * 16 for x in found for m in x.matches)
    assert any("names executor.py:420" in n for x in found for n in x.notes)


# ---------------------------------------------------------------- one text at many sites


def _loader_warning(model: str) -> Entry:
    return Entry(
        id=f"{model:x<16}"[:16],
        project="demo",
        exception="warning",
        template="Parameter <name> not found in params_dict",
        source=Source("demo", "1.0", f"demo/models/{model}.py", 10, "f", None),
        kind="log",
        derived=True,
    )


MODELS = ("llama", "nemotron_h", "opt", "nemotron_nas", "qwen")


def test_the_sites_whose_model_the_paste_names_come_first_among_the_tied():
    """Five loaders log one text; the paste names nemotron (its model path): the two sites in
    files named so come first, all still listed as the same text."""
    view = MemoryCatalog(tuple(_loader_warning(m) for m in MODELS))
    text = (
        "[2026-04-30 16:38:20] Loading nvidia/Nemotron-3-Nano-30B at /models\n"
        "[2026-04-30 16:38:21] Parameter model.layers.0.mixer.in_proj.input_scale not found "
        "in params_dict\n"
    )
    [exp] = explain_text(text, view)
    firsts = {m.entry.source.path for m in exp.matches[:2]}
    assert firsts == {"demo/models/nemotron_h.py", "demo/models/nemotron_nas.py"}
    assert all(any("the paste names nemotron" in r for r in m.reasons) for m in exp.matches[:2])
    assert exp.ambiguous and len(exp.matches) == 5


def test_a_name_shared_by_most_sites_is_no_evidence():
    view = MemoryCatalog(tuple(_loader_warning(m) for m in MODELS))
    line = "Parameter lm_head.weight not found in params_dict\n"
    [plain] = explain_text(line, view)
    [named] = explain_text("running llama, opt, qwen and nemotron\n" + line, view)
    assert [m.entry.id for m in named.matches] == [m.entry.id for m in plain.matches]


# ------------------------------------------------------------------------ chained exceptions

CHAINED = """\
Traceback (most recent call last):
  File "/site-packages/demo/images.py", line 10, in f
    raise ValueError(msg)
ValueError: feature length does not match image grids: 5824 != 5760

{relation}

Traceback (most recent call last):
  File "/app/main.py", line 3, in <module>
    run()
RuntimeError: the worker failed to start
"""


@pytest.mark.parametrize(
    ("relation", "said"),
    [
        ("The above exception was the direct cause of the following exception:", "it caused"),
        ("During handling of the above exception, another exception occurred:", "while handling"),
    ],
)
def test_the_cause_in_a_chain_is_explained_before_the_error_it_led_to(view, relation, said):
    cause, last = explain_text(CHAINED.format(relation=relation), view)
    assert cause.matches[0].entry.id == CURATED
    assert any(said in n and "RuntimeError below" in n for n in cause.notes)
    assert last.error.type == "RuntimeError" and last.error.root_cause is not None


def test_a_chained_exception_the_paste_explains_already_is_not_repeated(view):
    text = CHAINED.format(
        relation="The above exception was the direct cause of the following exception:"
    )
    twice = text + "\n" + text
    exps = explain_text(twice, view)
    assert sum(x.error.type == "ValueError" for x in exps) == 1


def _bare_assert(ident: str, path: str) -> Entry:
    return _entry(
        ident,
        "",
        "AssertionError",
        path,
        kind="assert",
        condition="n_heads % tp == 0",
        statement="assert n_heads % tp == 0",
        derived=True,
    )


def test_an_assert_statement_many_sites_share_says_so_and_lists_them():
    """A short test asserted at several message-less sites: no one site is offered, and the
    note says why; the nearest candidates are those sites (rendered with their statement)."""
    view = MemoryCatalog(
        [_bare_assert(c * 16, f"demo/model_{c}.py") for c in "fghijklmnopqrs"] + list(ENTRIES)
    )
    [exp] = explain_text("AssertionError: assert n_heads % tp == 0\n", view)
    assert not exp.matches
    assert any("asserts this same statement at 14 places" in n for n in exp.notes)
    assert exp.nearest and all(m.entry.statement == "assert n_heads % tp == 0" for m in exp.nearest)


@pytest.mark.parametrize(
    "message",
    [
        "n_heads % tp == 0",  # the test quoted without `assert`
        "assert self.n_heads % self.tp == 0",  # with `self.` the source has not
        "self.n_heads % tp == 0",
    ],
)
def test_a_shared_assert_quoted_as_its_test_or_with_self_says_so_too(message):
    """The sites are found by the test as a report quotes it (without `assert`, or with
    `self.` the source has not): the note counts them as it counts the statement's."""
    view = MemoryCatalog(
        [_bare_assert(c * 16, f"demo/model_{c}.py") for c in "fghijklmnopqrs"] + list(ENTRIES)
    )
    [exp] = explain_text(f"AssertionError: {message}\n", view)
    assert not exp.matches
    assert any("asserts this same statement at 14 places" in n for n in exp.notes)


def test_no_shared_assert_note_for_a_message_or_a_lone_site():
    view = MemoryCatalog([_bare_assert("f" * 16, "demo/model_f.py"), *ENTRIES])
    for text in ("AssertionError: assert n_heads % tp == 0\n", "ValueError: widget broke\n"):
        [exp] = explain_text(text, view)
        assert not any("same statement" in n for n in exp.notes)


def _layout_view():
    from errexplain.models import Entry, Source

    return MemoryCatalog(
        [
            Entry(
                id="t" * 16,
                project="demo",
                exception="warning",
                template=(
                    "Store backend does not support layer_first layout (its copies assume packed "
                    "rows of every layer of a page), switching the cache to <layout> layout for "
                    "<io> io backend"
                ),
                source=Source("demo", "2.0", "demo/store/hooks.py", 40, "resolve", None),
                kind="log",
            )
        ]
    )


@pytest.mark.parametrize(
    ("line", "tail"),
    [
        # the message's tail from a clause's start, to its end: a paster's quote of it, read
        # as a message cut at a boundary is (whatever share of a long template it is)
        ("[WARNING] switching the cache to page_first layout for direct io backend", True),
        # a fragment from inside a clause: weighed by its share of the template
        ("[WARNING] the cache to page_first layout for direct io backend", False),
    ],
)
def test_a_message_quoted_from_a_clause_start_to_its_end_reads_as_its_tail(line, tail):
    exps = explain_text(f"Boot log:\n```\n{line}\n```\n", _layout_view())
    tops = [m for x in exps for m in x.matches[:1]]
    if tail:
        (top,) = tops
        assert top.entry.id == "t" * 16 and top.score >= 0.85
        assert any("to the template's end" in r for r in top.reasons)
    else:
        assert all(m.score < 0.85 for m in tops)


def test_explain_text_reads_a_notebooks_saved_outputs(view):
    """A notebook file's error output: its traceback's frames and type, as the notebook shows
    it, with a note that the paste was read as one (the text between is JSON, not a log)."""
    import json

    from errexplain.parse.notebook import NOTEBOOK_NOTE

    tb = [
        "\x1b[0;31mValueError\x1b[0m    Traceback (most recent call last)",
        "File \x1b[0;32m/site-packages/demo/images.py:10\x1b[0m, in \x1b[0;36mf\x1b[0m\n"
        "\x1b[0;32m---> 10\x1b[0m     raise ValueError(msg)\n",
        "\x1b[0;31mValueError\x1b[0m: feature length does not match image grids: 5824 != 5760",
    ]
    output = {"ename": "ValueError", "evalue": "x", "output_type": "error", "traceback": tb}
    cell = {"cell_type": "code", "outputs": [output], "source": ["f()\n"]}
    [exp] = explain_text(json.dumps({"cells": [cell], "nbformat": 4}, indent=1), view)
    assert exp.error.type == "ValueError"
    assert exp.error.frames[-1].path == "/site-packages/demo/images.py"
    assert exp.matches[0].entry is ENTRIES[0]
    assert NOTEBOOK_NOTE in exp.notes


def test_a_paste_logged_whole_as_a_repr_reads_as_the_paste_does(view):
    """A paste logged whole as a string's repr (`output.error='...\\n...'`), or flattened
    onto one line with `⏎` marks where its breaks were: its lines are
    read one number each, as the paste's own are, so a message line beside a block of
    frame-like lines is found in it as in the paste (before, every line shared the repr's
    number and the message was lost beside the block)."""
    pasted = (
        "Engine log, on both replicas:\n\n```\n"
        "feature length does not match image grids: 5824 != 5760\n"
        "  images.py:10  f  -> StopIteration\n"
        "  images.py:22  g  -> ValueError\n```\n"
    )
    flattened = " \u23ce ".join(pasted.split("\n"))
    for text in (pasted, f"output.error={pasted!r}\n", flattened):
        found = [
            (e.error.message, e.matches[0].entry.id if e.matches else None)
            for e in explain_text(text, view)
        ]
        assert ("feature length does not match image grids: 5824 != 5760", CURATED) in found


def test_a_flattened_traceback_cut_at_a_terminals_width_keeps_its_frames(view):
    """A traceback flattened with `⏎` marks and then cut into rows at a terminal's width: the
    rows are joined before the marks split the line (each row holds marks of its own), so
    the message cut across two rows is read whole."""
    flat = " \u23ce ".join(TRACEBACK.split("\n"))
    text = "\n".join(flat[i : i + 80] for i in range(0, len(flat), 80))  # (an 80-column terminal)
    [exp] = explain_text(text, view)
    assert exp.error.frames[0].path == "/site-packages/demo/images.py"
    assert exp.matches[0].entry is ENTRIES[0]


def test_a_double_spaced_record_wrapped_onto_its_next_line_is_read_whole() -> None:
    # a paste copied with a blank line after each line: the record's message went on to the next
    # line, which the blank no longer separates from it
    died = _entry(
        "8" * 16,
        "Subprocess <name> (pid=<pid>) crashed with exit code <code>. Triggering SIGQUIT for "
        "cleanup...",
        "error",
        "demo/watch.py",
        kind="log",
        derived=True,
    )
    view = MemoryCatalog((*ENTRIES, died))
    record = (
        "```\n[2026-08-12 11:48:55] Subprocess scheduler_0 (pid=98) crashed with exit\n"
        "code -9. Triggering SIGQUIT for cleanup...\n```"
    )
    for text in (record, "\n\n".join(record.split("\n"))):
        [exp] = explain_text(text, view)
        assert exp.matches and exp.matches[0].entry.id == "8" * 16 and exp.matches[0].score >= 0.9


def test_a_compiled_checks_place_picks_its_site_among_same_text_checks() -> None:
    # two kernels check the same thing in the same words; the place the check put before its
    # message says which one failed, and is shown as where it was raised
    twins = tuple(
        _entry(
            ident * 16,
            "head_dim must be a multiple of 8, got <head_dim>",
            "RuntimeError",
            f"demo/kernels/{name}.cuh",
            derived=True,
        )
        for ident, name in (("5", "rope"), ("6", "norm"))
    )
    view = MemoryCatalog((*ENTRIES, *twins))
    for place in ("/opt/py/demo/kernels/norm.cuh:10", "kernels/norm.cuh:10"):
        text = f"RuntimeError: Failed at {place}: head_dim must be a multiple of 8, got 12\n"
        [exp] = explain_text(text, view)
        assert exp.matches[0].entry.id == "6" * 16
        assert exp.error.message == "head_dim must be a multiple of 8, got 12"
        assert exp.error.frames[-1].path.endswith("kernels/norm.cuh")
        assert any("where a C++ check failed" in note for note in exp.notes)
