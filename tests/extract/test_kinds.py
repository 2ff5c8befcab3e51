"""Sites beyond message-carrying raise/assert (#9): no message, logged errors, helpers,
messages assembled over several statements."""

from __future__ import annotations

import textwrap
from pathlib import Path

import yaml

from errexplain.catalog.load import load_catalog
from errexplain.extract import extract
from errexplain.extract.records import Site
from errexplain.extract.resolve import resolve
from errexplain.extract.visitor import visit_source


def sites(code: str, path: str = "pkg/mod.py") -> list[Site]:
    result = visit_source(path, textwrap.dedent(code).encode())
    assert result.error is None
    return list(resolve([result]).sites)


def by_function(code: str) -> dict[str, list[Site]]:
    out: dict[str, list[Site]] = {}
    for s in sites(code):
        out.setdefault(s.function, []).append(s)
    return out


# --- no message ------------------------------------------------------------------------------
NO_MESSAGE = """
class Base:
    def forward(self, x):
        raise NotImplementedError

    def backward(self, x):
        if x:
            raise NotImplementedError()
        raise errors.UnsupportedError

def check(req):
    assert req.prefix_indices is not None  # a comment
    assert (
        req.x
        == 3
    )

def empty_text():
    raise ValueError("")

def reraise(e):
    try:
        pass
    except Exception as err:
        raise err
    raise

def not_a_class(x):
    error_cls = ValueError
    raise error_cls

def not_an_exception():
    raise Response
"""


def test_message_less_sites_record_their_statement():
    got = by_function(NO_MESSAGE)
    (forward,) = got["Base.forward"]
    assert (forward.kind, forward.exception, forward.template) == (
        "raise",
        "NotImplementedError",
        "",
    )
    assert forward.statement == "raise NotImplementedError"
    call, attr = got["Base.backward"]
    assert (call.statement, call.condition) == ("raise NotImplementedError()", "x")
    assert (attr.exception, attr.statement) == (
        "UnsupportedError",
        "raise errors.UnsupportedError",
    )
    one, two = got["check"]
    assert (one.kind, one.exception, one.template) == ("assert", "AssertionError", "")
    assert (one.statement, one.condition) == (
        "assert req.prefix_indices is not None",
        "req.prefix_indices is not None",
    )
    assert (two.statement, two.condition) == ("assert ( req.x == 3 )", "req.x == 3")
    assert got["empty_text"][0].statement == 'raise ValueError("")'


def test_reraises_variables_and_non_exceptions_are_not_sites():
    got = by_function(NO_MESSAGE)
    assert "reraise" not in got
    assert "not_a_class" not in got
    assert "not_an_exception" not in got


def test_message_carrying_sites_have_no_statement():
    (site,) = sites("def f(x):\n    raise ValueError(f'bad {x}')\n")
    assert site.statement is None and site.via is None


def test_an_assert_whose_message_is_an_exception_records_the_exceptions_text():
    """`assert ok, ValueError(f"...")`: Python prints `AssertionError: <the ValueError's text>`,
    so the template is that text, not the expression that built the exception."""
    (site,) = sites(
        "def f(data):\n"
        "    kinds = {d.dtype for d in data}\n"
        "    assert len(kinds) == 1, ValueError(\n"
        "        f'Data container has mixed dtypes: {kinds}'\n"
        "    )\n"
    )
    assert (site.kind, site.exception) == ("assert", "AssertionError")
    assert site.template == "Data container has mixed dtypes: <kinds>"
    # a message that is some other call is still read as an expression
    (other,) = sites("def f(x):\n    assert x, describe(x)\n")
    assert other.template == "<describe(x)>"


def test_long_statements_are_cut():
    name = "x" * 300
    (site,) = sites(f"def f():\n    assert {name}\n")
    assert site.statement is not None and len(site.statement) == 200
    assert site.statement.endswith("…")


# --- logged errors ---------------------------------------------------------------------------
LOGS = """
import logging
logger = logging.getLogger(__name__)
log = logger

class Worker:
    def run(self, x, dev):
        logger.error("failed to load %s from %r", x, self)
        logging.critical("disk full on %(dev)s", {"dev": dev})
        self._logger.exception(f"worker crashed on {x}")
        log.error("bad value: " + str(x))
        logger.error("loaded {} of {}".format(x, dev))
        logger.warning("request timed out after %d s", x)
        logger.warning("Cannot use %s here", x)
        logger.warning("retrying in %d s", x)
        logger.error(x)
        logger.error(str(x))
        logger.info("failed but only at info level")
        printer.error("not a logger: failed")
        logger.error("%s", x)
        logger.info("Decode out of memory happened. " f"#retracted_reqs: {x}")
        logger.info("Load weight end. mem usage=%.2f GB", x)
        logger.info("Setting distributed timeout to %d seconds", x)
        logger.info(f"Auto-set dump dir (from --crash-dump-folder) {x}")
        logger.warning(f"Extracted failed_requests: {x}, timeout={x}")
        logger.info("Timeout: not all nodes are ready after %d seconds", x)
        logger.warning("Watchdog timeout after %d seconds", x)
"""


def test_logged_errors():
    got = [(s.line, s.exception, s.template) for s in sites(LOGS) if s.kind == "log"]
    assert got == [
        (8, "error", "failed to load <x> from <self!r>"),
        (9, "critical", "disk full on <dev>"),
        (10, "exception", "worker crashed on <x>"),
        (11, "error", "bad value: <str(x)>"),
        (12, "error", "loaded <x> of <dev>"),
        (13, "warning", "request timed out after <x> s"),
        (14, "warning", "Cannot use <x> here"),
        (15, "warning", "retrying in <x> s"),
        (18, "info", "failed but only at info level"),
        (21, "info", "Decode out of memory happened. #retracted_reqs: <x>"),
        (25, "warning", "Extracted failed_requests: <x>, timeout=<x>"),
        (26, "info", "Timeout: not all nodes are ready after <x> seconds"),
        (27, "warning", "Watchdog timeout after <x> seconds"),
    ]


def test_info_without_a_failure_word_and_messages_without_words_are_not_recorded():
    lines = {s.line for s in sites(LOGS)}
    # a failure word that names a setting or a field (timeout at info level, a flag)
    assert not lines & {16, 17, 19, 20, 22, 23, 24}


def test_which_log_lines_report_a_failure():
    from errexplain.match.normalize import reports_failure

    assert reports_failure("error", "loaded <x> of <dev>")
    assert reports_failure("warning", "request timed out after <x> s")
    assert not reports_failure("warning", "retrying in <x> s")
    assert not reports_failure("warning", "Extracted failed_requests: <x>, timeout=<x>")
    assert not reports_failure("info", "Setting distributed timeout to <x> seconds")
    assert reports_failure("info", "Timeout: not all nodes are ready after <x> seconds")
    # a missing or unfound part is a failure in a warning, a default taken in an info line
    assert reports_failure("warning", "Parameter <name> not found in params_dict")
    assert reports_failure("warning", "Missing expert weights for layer <n>")
    assert not reports_failure("info", "Config <path> not found, using the defaults")
    assert not reports_failure("info", "Missing: <x>")
    # a count or a shape that disagrees is a failure however it is worded
    assert reports_failure("warning", "Tokens in the prompt do not match its images: <a> != <b>")
    assert reports_failure("warning", "Shape mismatch between <a> and <b>; padding")
    # a warning that dismisses what it quotes reports no failure of its own
    assert not reports_failure("warning", "The error 'op scheduled late' below can be ignored.")
    assert not reports_failure("warning", "Failed to pin memory; this is harmless")


def test_log_sites_skip_helper_resolution():
    code = """
    import logging
    logger = logging.getLogger()

    def error(msg):
        return ValueError(f"wrapped: {msg}")

    def f():
        logger.error("something failed")
    """
    got = [s for s in sites(code) if s.kind == "log"]
    assert [(s.exception, s.template, s.via) for s in got] == [("error", "something failed", None)]


# --- helpers ---------------------------------------------------------------------------------
HELPERS = """
import logging
logger = logging.getLogger()

def raise_error_or_warn(obj, flag, counter, message):
    if flag:
        raise ValueError(message)
    logger.warning(message)

def make_error(message):
    return RuntimeError(message)

def not_raising(message):
    print(message)

def forward(message):
    raise_error_or_warn(None, True, 0, message)

class Config:
    def _fail(self, msg):
        raise TypeError(f"[config] {msg}")

    def _error(self, msg):
        return KeyError(msg)

    @staticmethod
    def _static(reason, code=0):
        raise OSError(f"[{code}] " + reason)

    def check(self, x):
        if x < 0:
            self._fail(f"x must be >= 0, got {x}")
        if x > 10:
            raise_error_or_warn(self, x > 100, 1, f"x is large: {x}")
        if x == 5:
            raise make_error(f"five is bad: {x}")
        if x == 6:
            raise self._error(f"six is bad: {x}")
        if x == 7:
            self._fail(x)
        if x == 8:
            not_raising(f"eight is not raised: {x}")
        if x == 9:
            self._static(reason="nine failed")
        msg = f"x={x}"
        msg += " is odd"
        self._fail(msg=msg)
        self._reject("too big")

    def _reject(self, what):
        raise ValueError(f"rejected by the configuration validator: {what}")

class Other:
    def check(self, x):
        self._fail(f"other class: {x}")
"""


def test_messages_handed_to_raising_helpers():
    got = [(s.line, s.exception, s.template, s.via) for s in by_function(HELPERS)["Config.check"]]
    assert got == [
        (32, "TypeError", "[config] x must be >>= 0, got <x>", "Config._fail at pkg/mod.py:21"),
        (34, "ValueError", "x is large: <x>", "raise_error_or_warn at pkg/mod.py:7"),
        (36, "RuntimeError", "five is bad: <x>", "make_error at pkg/mod.py:11"),
        # str(KeyError) is its repr
        (38, "KeyError", "'six is bad: <x>'", "Config._error at pkg/mod.py:24"),
        (44, "OSError", "[<code>] nine failed", "Config._static at pkg/mod.py:28"),
        (47, "TypeError", "[config] x=<x> is odd", "Config._fail at pkg/mod.py:21"),
    ]
    assert all(s.condition for s in by_function(HELPERS)["Config.check"][:-1])


def test_helpers_are_followed_one_level_within_their_module_and_class():
    got = by_function(HELPERS)
    assert "forward" not in got  # passes its own parameter on: no literal text
    assert "Other.check" not in got  # self._fail of another class
    lines = {s.line for s in got["Config.check"]}
    assert 40 not in lines  # the argument has no literal text
    assert 42 not in lines  # not_raising does not raise its parameter
    # the helper's own text identifies the message: its raise site explains every call
    assert 48 not in lines
    assert [s.template for s in got["Config._reject"]] == [
        "rejected by the configuration validator: <what>"
    ]


# --- messages assembled over several statements ----------------------------------------------
def test_message_assembled_over_several_statements():
    code = """
    def f(x, y):
        msg = f"bad x {x}"
        msg += f", and y {y}"
        msg += "."
        raise ValueError(msg)
    """
    (site,) = sites(code)
    assert site.template == "bad x <x>, and y <y>."


# --- through the catalog ---------------------------------------------------------------------
def test_extracted_catalog_loads_with_statement_via_and_log(tmp_path: Path):
    src = tmp_path / "src" / "pkg"
    src.mkdir(parents=True)
    (src / "mod.py").write_text(textwrap.dedent(NO_MESSAGE) + textwrap.dedent(HELPERS))
    (src / "logs.py").write_text(textwrap.dedent(LOGS))
    out = tmp_path / "errors" / "pkg"
    report = extract(src, "pkg", "1.0", out=out)
    assert report.sites_by_kind["log"] == 13
    doc = _expanded(yaml.safe_load((out / "mod.yaml").read_text()))
    forward = next(e for e in doc["entries"] if e["source"]["function"] == "Base.forward")
    assert list(forward)[:8] == [
        "id",
        "exception",
        "kind",
        "template",
        "source",
        "statement",
        "versions",
        "derived",
    ]
    fail = next(e for e in doc["entries"] if e.get("via", "").startswith("Config._fail at "))
    assert fail["meaning"].startswith(
        "Raised by helper `Config._fail` (pkg/mod.py:54), called by `Config.check`"
    )
    assert fail["template"] == "[config] x must be >>= 0, got <x>"
    log_doc = _expanded(yaml.safe_load((out / "logs.yaml").read_text()))
    assert log_doc["entries"][0]["meaning"].startswith("Logged at error level by `Worker.run`")
    entries = load_catalog([out]).entries
    assert {e.kind for e in entries} == {"raise", "assert", "log"}
    ids = {e.id for e in entries}
    # message-less sites never appear as related entries of others
    blank = {e.id for e in entries if not e.template}
    assert blank and not any(set(e.related) & blank for e in entries)
    assert len(ids) == len(entries)
    again = extract(src, "pkg", "1.0", out=out)
    assert (again.entries_added, again.entries_updated, again.entries_removed) == (0, 0, 0)


def test_every_parameter_of_the_helper_message_is_filled_from_its_argument():
    code = """
    def wait(url, timeout=5):
        raise RuntimeError(f"{url} down ({timeout}s)")

    def f(base):
        wait(base + "/health")

    def g(base):
        wait(base, timeout="soon, or never")
    """
    got = {s.function: s.template for s in sites(code) if s.via}
    assert got == {
        "f": "<base>/health down (<timeout>s)",
        "g": "<base> down (soon, or nevers)",
    }


# --- parameter lookups -----------------------------------------------------------------------
LOOKUPS = """
class Model:
    def load_weights(self, weights):
        params_dict = dict(self.named_parameters(remove_duplicate=False))
        buffers = dict(self.named_buffers())
        other = {"a": 1}
        for name, w in weights:
            if "rotary" in name:
                continue
            if name in params_dict:
                param = params_dict[name]  # guarded: cannot raise
            if name not in params_dict.keys():
                pass
            else:
                param = params_dict[name]  # guarded by the else branch
            if name.endswith(".bias") and name in params_dict:
                param = params_dict[name]  # guarded by one term of an `and`
            param = params_dict[name]
            buf = buffers[name]
            x = other[name]
            rows = params_dict[1:3]


def not_a_method(d):
    params_dict = dict(d.named_parameters())
    return params_dict
"""


def test_parameter_dict_lookups_are_keyerror_sites():
    found = [s for s in sites(LOOKUPS) if s.kind == "lookup"]
    assert [(s.statement, s.exception, s.template) for s in found] == [
        ("param = params_dict[name]", "KeyError", ""),
        ("buf = buffers[name]", "KeyError", ""),
    ]
    assert found[0].function == "Model.load_weights" and found[0].condition is None
    from errexplain.extract.derive import meaning

    text = meaning(found[0])
    assert text.startswith("Key lookup in `Model.load_weights` failed: `param = params_dict[name]`")
    assert "not a parameter of this model" in text


EARLY_EXITS = """
class Model:
    def load_weights(self, weights, mapping):
        params_dict = dict(self.named_parameters())
        for name, w in weights:
            if name.endswith(".bias") and name not in params_dict:
                continue  # one term of an `and`: guards nothing
            a = params_dict[name]
            if "rotary" in name or name not in params_dict:
                continue  # one term of an `or` guards
            b = params_dict[name]  # guarded
            for param_name, weight_name in mapping:
                c = params_dict[name]  # guarded: the loop does not bind `name`
            for shard in range(2):
                d = params_dict[name]  # not guarded: bound again below, for the next turn
                name = name.replace("a", "b")
            e = params_dict[name]  # not guarded: bound in the loop above
            if name not in params_dict:
                return None
            name = name + ".weight"
            f = params_dict[name]  # not guarded: bound again after the exit
            if name not in params_dict:
                raise KeyError(name)
            g = params_dict[name]  # guarded
        h = params_dict[name]  # not guarded: the guard was inside the loop's turn
"""


def test_a_lookup_below_an_early_exit_on_the_missing_key_is_no_site():
    """`if name not in params_dict: continue` (or break, return, raise), then
    `param = params_dict[name]`: the lookup cannot raise while `name` is not bound again, in
    its block or any block inside it that does not bind it."""
    found = [s.statement.split(" =")[0] for s in sites(EARLY_EXITS) if s.kind == "lookup"]
    assert found == ["a", "d", "e", "f", "h"]


# --- helpers of other modules ----------------------------------------------------------------
COMMON = """
def raise_error_or_warn(obj, strict, counter_name, message, log_interval=1000):
    if strict:
        raise ValueError(message)
    print(message)

def fail_with(reason):
    raise RuntimeError(f"worker failed: {reason}")
"""

CALLER = """
from pkg.utils import raise_error_or_warn
from ..utils.common import fail_with as fail
from pkg.elsewhere import raise_error_or_warn as unrelated_name


class Checker:
    def check(self, leaked, free, total):
        if leaked:
            msg = f"pool memory leak detected! free={free}, total={total}"
            raise_error_or_warn(self, True, "count_leaks", msg)
        fail(reason=f"bad total {total}")
        raise_error_or_warn(self, True, "count_leaks", message=free)

    def _report(self, pool_name, detail):
        raise_error_or_warn(self, True, "count", f"{pool_name} leak! {detail}")


def other():
    unrelated_name(None, True, "c", "not the helper of pkg.utils")
"""


def test_messages_handed_to_a_helper_of_another_module_of_the_project():
    results = [
        visit_source("pkg/utils/common.py", textwrap.dedent(COMMON).encode()),
        visit_source("pkg/utils/__init__.py", b"from pkg.utils.common import *\n"),
        visit_source("pkg/sub/caller.py", textwrap.dedent(CALLER).encode()),
    ]
    got = [
        (s.line, s.exception, s.template, s.via, s.condition)
        for s in resolve(results).sites
        if s.path == "pkg/sub/caller.py"
    ]
    assert got == [
        (
            11,
            "ValueError",
            "pool memory leak detected! free=<free>, total=<total>",
            "raise_error_or_warn at pkg/utils/common.py:4",
            "leaked",
        ),
        # line 12: fail_with's own text names the message, its raise site explains the call;
        # line 13: the argument has no literal text; line 21: another module's name
        (
            16,
            "ValueError",
            "<pool_name> leak! <detail>",
            "raise_error_or_warn at pkg/utils/common.py:4",
            None,
        ),
    ]
    common = [s for s in resolve(results).sites if s.path == "pkg/utils/common.py"]
    assert "worker failed: <reason>" in [s.template for s in common]


def test_a_helper_call_without_the_helper_in_the_tree_is_no_site():
    (result,) = [visit_source("pkg/sub/caller.py", textwrap.dedent(CALLER).encode())]
    assert result.calls and not [s for s in resolve([result]).sites if s.via]


def test_a_local_text_inside_an_f_string_is_inlined():
    code = """
    def check(x, limit, draft):
        if x > limit:
            reason = "Target model's" if draft else "User-specified"
            msg = f"Warning: {reason} length ({x}) is greater than {limit}."
            if draft:
                raise RuntimeError(f"{msg!r} is not inlined with a conversion")
            raise ValueError(f"{msg} To allow it, set ALLOW_LONGER=1")
    """
    got = [s.template for s in sites(code)]
    assert got == [
        "<msg!r> is not inlined with a conversion",
        "Warning: <reason> length (<x>) is greater than <limit>. To allow it, set ALLOW_LONGER=1",
    ]


def test_a_loop_variable_reassigned_once_is_not_inlined():
    # modelled on sglang's iquest_q1 weight loader: `name` is the loop variable, reassigned
    # for one weight; the message must keep `<name>`, not that one weight's name
    code = """
    def load(weights, params):
        prefix = "model"
        for name, w in weights:
            if name == "lm_head.weight" and name not in params:
                name = "model.embed_tokens.weight"
            if name not in params:
                raise ValueError(f"Unexpected weight: {name}")
            raise KeyError(f"{prefix}: no {w}")
    """
    got = [s.template for s in sites(code) if s.exception == "ValueError"]
    assert got == ["Unexpected weight: <name>"]
    keyed = [s.template for s in sites(code) if s.exception == "KeyError"]
    assert keyed == ["'model: no <w>'"]


def _expanded(doc):
    """A written catalog file's entries with `source`/`releases` as mappings."""
    from errexplain.extract.writer import expand_entry

    return {**doc, "entries": [expand_entry(e) for e in doc["entries"]]}


# --- messages handed to a request's client (abort sinks) -------------------------------------
ABORTS = """
class Scheduler:
    def admit(self, req, n, limit):
        if n > limit:
            error_msg = f"Input of {n} tokens is over the limit of {limit} tokens."
            req.set_finish_with_abort(error_msg)
            return
        if req.waited > 30:
            req.to_finish = FINISH_ABORT("Request waited too long in the queue.", 503)
        req.set_finish_with_abort(error_msg_from_elsewhere)

    def finish(self, req):
        prepare_abort(req, "Aborted by the user.", status_code=400)
        return FINISH_ABORT(message="Beam group aborted.")


class Serving:
    def check(self, i, e):
        if e is not None:
            return self.create_error_response(f"Tool {i} has a bad schema: {e}")
        return Response(f"Tool {i} is fine")

    def wrap(self, x):
        try:
            return x()
        except ValueError as e:  # someone else's message behind a generic lead
            return self.create_error_response(f"Internal server error: {str(e)}")
"""


def test_messages_sent_to_the_client_are_abort_sites():
    got = [(s.line, s.kind, s.exception, s.template, s.function) for s in sites(ABORTS)]
    assert got == [
        (
            6,
            "abort",
            "abort",
            "Input of <n> tokens is over the limit of <limit> tokens.",
            "Scheduler.admit",
        ),
        (9, "abort", "abort", "Request waited too long in the queue.", "Scheduler.admit"),
        (13, "abort", "abort", "Aborted by the user.", "Scheduler.finish"),
        (14, "abort", "abort", "Beam group aborted.", "Scheduler.finish"),
        (20, "abort", "abort", "Tool <i> has a bad schema: <e>", "Serving.check"),
        # a generic lead before the handled exception's text is what the client reads
        (27, "abort", "abort", "Internal server error: <str(e)>", "Serving.wrap"),
    ]
    (first,) = [s for s in sites(ABORTS) if s.line == 6]
    assert first.condition == "n > limit"


def test_an_abort_message_handed_on_as_it_is_made_is_an_abort_site():
    code = """
    class Scheduler:
        def expire(self, queue, aborts):
            for req in queue:
                if req.waited > self.limit:
                    aborts.append(AbortReq(rid=req.rid, abort_message="Queue wait limit hit."))
            self.send(FINISH_ABORT("Draft verification gave up."), flush=True)
            aborts.append(req)  # no message: nothing to record
            log(AbortReq(rid=1), AbortReq(rid=2))  # no message either
    """
    got = [(s.line, s.kind, s.template, s.function) for s in sites(code)]
    assert got == [
        (6, "abort", "Queue wait limit hit.", "Scheduler.expire"),
        (7, "abort", "Draft verification gave up.", "Scheduler.expire"),
    ]
    (first,) = [s for s in sites(code) if s.line == 6]
    assert first.condition == "req.waited > self.limit"


def test_an_http_error_response_built_in_place_is_an_abort_site():
    """`ORJSONResponse(status_code=401, content={"error": "..."})`: the client prints the body
    (`{"error":"Invalid token"}`), so its message is catalogued as what the client reads, with
    the status it is sent with; the status may be a number, an `HTTPStatus` member (or its
    `.value`) or FastAPI's `status.HTTP_503_...`, or a body with an `"error"` key; the body a
    text or a dict (nested `{"error": {"message": ...}}` too), held in a name assigned once, and
    each text of a conditional whose branches are both text."""
    code = """
    async def guard(request, rank, token):
        if token is None:
            return ORJSONResponse(content={"error": "Invalid token"}, status_code=401)
        if not request.is_json:
            return JSONResponse(status_code=400, content={"detail": "Body is not JSON."})
        body = {"error": {"message": f"No engine for rank {rank}"}}
        if rank < 0:
            return ORJSONResponse(body, status_code=HTTPStatus.BAD_REQUEST)
        if rank > 8:
            return JSONResponse({"success": False, "message": "rank out of range"})
        if rank == 3:
            return PlainTextResponse("Warming up", status_code=status.HTTP_503_SERVICE_UNAVAILABLE)
        if rank == 4:
            return JSONResponse({"message": "Busy"}, status_code=HTTPStatus.TOO_MANY_REQUESTS.value)
        return ORJSONResponse(
            {"error": ("Unauthorized" if request.code == 401 else "Forbidden")},
            status_code=request.code,
        )
    """
    found = sites(code)
    assert {s.kind for s in found} == {"abort"}
    assert {s.template: (s.line, s.via) for s in found} == {
        "Invalid token": (4, "HTTP 401 response"),
        "Body is not JSON.": (6, "HTTP 400 response"),
        "No engine for rank <rank>": (9, "HTTP 400 response"),
        "rank out of range": (11, "HTTP error response"),
        "Warming up": (13, "HTTP 503 response"),
        "Busy": (15, "HTTP 429 response"),
        # an error key says the failure whatever the status; each text of a conditional
        "Unauthorized": (17, "HTTP error response"),
        "Forbidden": (17, "HTTP error response"),
    }
    (first,) = [s for s in found if s.line == 4]
    assert first.condition == "token is None"


def test_a_response_that_may_report_success_is_not_an_abort_site():
    """A body sent with a success status, a status chosen by a conditional (the same body
    reports the success), a body held in a name each branch assigns, or a message the
    function adds to on success (`message += " Weight version updated."`) is not what a
    failing client reads; nor is a response without an error status or an error key."""
    code = """
    async def update(ok, message, decision):
        content = {"success": ok, "message": "Weights updated."}
        a = ORJSONResponse(content, status_code=200 if ok else HTTPStatus.BAD_REQUEST)
        b = ORJSONResponse({"message": "All good"}, status_code=HTTPStatus.OK)
        c = Response("Cache flushed.")
        if ok:
            text = "Cache flushed."
        else:
            text = "Cache flush failed."
        d = Response(content=text, status_code=400)
        if ok:
            message += " Weight version updated."
        e = ORJSONResponse({"message": message}, status_code=HTTPStatus.BAD_REQUEST)
        g = Response(status_code=503)
    """
    assert sites(code) == []


def test_an_abort_finish_reason_handed_on_is_an_abort_site():
    """`send(make_abort(req, finished_reason={"type": "abort", "message": ...}))`: the request
    ends with that reason, whose message its client reads; a reason of another type is not."""
    code = """
    class Scheduler:
        def reject(self, req):
            self.send_abort_output(
                make_abort(
                    req,
                    finished_reason={"type": "abort", "status_code": 503, "message": "Busy."},
                ),
            )
            self.send(make(req, finished_reason={"type": "stop", "message": "Done here."}))
    """
    got = [(s.line, s.kind, s.template) for s in sites(code)]
    assert got == [(4, "abort", "Busy.")]


def test_a_message_chosen_by_branch_is_one_abort_site_per_text():
    """`message = "A"`, in an `if` `message = "B"`, then the sink: each text is what the client
    may read, each at its own line; a text an earlier sink already sent is not this sink's."""
    code = """
    class Scheduler:
        def limit(self, req, queue, favoured):
            message = "The waiting queue is full."
            if favoured:
                message = "Evicted by a more urgent request."
            req.set_finish_with_abort(message)
            error_msg = "Session is closed."
            req.set_finish_with_abort(error_msg)
            error_msg = f"Session {req.sid} is unknown."
            req.set_finish_with_abort(error_msg)
    """
    got = [(s.line, s.kind, s.template) for s in sites(code)]
    assert got == [
        (4, "abort", "The waiting queue is full."),
        (6, "abort", "Evicted by a more urgent request."),
        (9, "abort", "Session is closed."),
        (11, "abort", "Session <req.sid> is unknown."),
    ]


def test_a_name_bound_by_an_assignment_expression_is_read_as_bound():
    """`if error_msg := self.validate(req):` binds the name: the sink after it sends what the
    validator returns, not a text the name held earlier in the function."""
    code = """
    class Scheduler:
        def handle(self, req, known):
            if not known:
                error_msg = f"Session {req.sid} is unknown."
                req.set_finish_with_abort(error_msg)
                return
            if error_msg := self.validate(req):
                req.set_finish_with_abort(error_msg)
    """
    got = [(s.line, s.kind, s.template) for s in sites(code)]
    assert got == [(6, "abort", "Session <req.sid> is unknown.")]


def test_a_reply_that_reports_failure_to_its_client_is_an_abort_site():
    """The control endpoints answer with `XReqOutput(success=False, message=...)`: the client
    reads the message in its reply (`/flush_cache` timing out), so it is catalogued, with the
    reply's class as `via`; a successful reply, or one without a message, is not."""
    code = """
    class FlushWrapper:
        def check(self, req, busy):
            if busy:
                return FlushCacheReqOutput(success=False, message="Another flush is running.")
            self._send(
                FlushCacheReqOutput(success=False, message="Timed out waiting for idle state."),
                req,
            )
            out = ProfileReqOutput(success=True, message="Profiling started.")
            self._send(FlushCacheReqOutput(success=False), req)
            return out
    """
    got = [(s.line, s.kind, s.template, s.via) for s in sites(code)]
    assert got == [
        (5, "abort", "Another flush is running.", "FlushCacheReqOutput(success=False)"),
        (6, "abort", "Timed out waiting for idle state.", "FlushCacheReqOutput(success=False)"),
    ]


def test_every_warning_with_words_is_recorded():
    code = """
    import logging
    logger = logging.getLogger(__name__)
    def f(flag, n):
        prefix = "KV cache pool is full. Retract requests. " if flag else "Testing retraction. "
        logger.warning(prefix + f"#retracted_reqs: {n}")
        logger.warning("Retracted %d requests", n)
        logger.warning("The pool holds %d pages", n)
        logger.warning("Could not read the metrics of rank %d", n)
    """
    got = [(s.line, s.template) for s in sites(code)]
    assert got == [
        (6, "KV cache pool is full. Retract requests. #retracted_reqs: <n>"),
        (7, "Retracted <n> requests"),
        (8, "The pool holds <n> pages"),
        (9, "Could not read the metrics of rank <n>"),
    ]


RECORDED = """
class KVTransferError(Exception):
    pass

class Manager:
    def transfer(self, room, session, alive, layout_error):
        if not alive:
            self.conclude_failure(
                bootstrap_room=room,
                failure_reason=layout_error
                or f"Decode instance could be dead, remote session {session} is not alive",
            )
        self.kv_mgr.record_failure(room, "Aborted by AbortReq.")
        self.record_failure(room, reason)
"""


def test_failure_reasons_recorded_for_a_later_raise_are_recorded_sites():
    # modelled on sglang's disaggregation: the reason is stored, then failure_exception()
    # raises KVTransferError(room, reason) elsewhere; users paste `KVTransferError: <reason>`
    got = [(s.line, s.kind, s.exception, s.template) for s in sites(RECORDED)]
    assert got == [
        (  # the line where the reason's text is written
            11,
            "recorded",
            "KVTransferError",
            "Decode instance could be dead, remote session <session> is not alive",
        ),
        (13, "recorded", "KVTransferError", "Aborted by AbortReq."),
    ]


CLASS_CONSTANT = """\
class Receiver:
    DEFAULT_REASON = (
        "The sender went away before the transfer finished"
    )
    STATE = "idle"

    def __init__(self):
        self.STATE = "busy"

    def on_failed(self, room, reason):
        self.record_failure(
            room, reason or self.DEFAULT_REASON
        )

    def check(self):
        if self.STATE != "ok":
            raise RuntimeError(self.STATE)

    @classmethod
    def make(cls):
        def inner():
            raise ValueError(cls.DEFAULT_REASON)
        return inner


class Other:
    STATE = "x"
    STATE = "y"

    def check(self):
        raise RuntimeError(self.STATE)

    def bare(self):
        raise RuntimeError(DEFAULT_REASON)
"""


def test_a_message_held_in_a_constant_of_the_methods_class_is_read_through_self():
    # a reason kept as a class constant (`DEFAULT_REASON = "..."`) and passed as
    # `reason or self.DEFAULT_REASON`: its text is the site's template, written where the text
    # is; a class attribute set again (twice in the body, or on an instance) is not a constant,
    # and a bare name never reads a class attribute
    got = [(s.function, s.kind, s.template, s.line) for s in sites(CLASS_CONSTANT)]
    reason = "The sender went away before the transfer finished"
    assert got == [
        ("Receiver.on_failed", "recorded", reason, 12),  # where the reason is handed over
        ("Receiver.check", "raise", "<self.STATE>", 17),
        ("Receiver.make.inner", "raise", reason, 22),
        ("Other.check", "raise", "<self.STATE>", 31),
        ("Other.bare", "raise", "<DEFAULT_REASON>", 34),
    ]


def test_a_log_call_made_once_logs_at_its_level():
    code = (
        "def f(logger, n):\n"
        "    logger.warning_once(f'Some requests fail to receive their signal ({n})')\n"
        "    logger.info_once('Using the default backend')\n"
        "    logger.error_once('Scheduler lost its peer')\n"
    )
    got = [(s.kind, s.exception, s.template) for s in sites(code)]
    assert got == [
        ("log", "warning", "Some requests fail to receive their signal (<n>)"),
        ("log", "error", "Scheduler lost its peer"),
    ]


def test_a_printed_failure_is_a_log_site_of_its_level():
    """Scripts and launch helpers print some failures instead of logging them, and users paste
    the printed line: a `print` whose literal words report a failure is a log site (`via`
    print), at level warning when it says so; its arguments are joined by one space as `print`
    writes them. A print of no failure, one with too little literal text to tell it from a
    lead before another message (`Error: {e}`), one with a separator of its own, a starred
    one, one whose only failure word names a setting (as in an info line) and a usage text are
    not recorded, nor is any print of a test file (the run's chatter)."""
    code = """
    import sys
    def f(e, name, parts):
        print(f"Fail to load tokenizer config with error={e}")
        print("Warning: could not read the weights index of", name, file=sys.stderr)
        msg = f"Could not reach the server within {name}s."
        print(msg)
        print(f"Loaded the weights of {name}")
        print(f"Error: {e}")
        print("Failed to read the file list:", name, sep="")
        print(*parts)
        print(f"Running the stress test with a timeout of {name}s")
        print("Usage: serve --model-path <path>. Fails when the path is not found.")
    """
    got = [(s.line, s.kind, s.exception, s.template, s.via) for s in sites(code)]
    assert got == [
        (4, "log", "error", "Fail to load tokenizer config with error=<e>", "print"),
        (
            5,
            "log",
            "warning",
            "Warning: could not read the weights index of <name>",
            "print",
        ),
        (7, "log", "error", "Could not reach the server within <name>s.", "print"),
    ]
    assert sites(code, path="pkg/test/runner.py") == []
