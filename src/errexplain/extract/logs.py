"""Logged errors: ``logger.error(...)``, ``logging.critical(...)``, ``self.logger.exception(...)``.

Users paste these lines as they paste tracebacks. A call is a logged error when it calls
``error``, ``critical`` or ``exception`` on ``logging`` or on an object named like a logger
(``logger``, ``self._logger``, ``log``), ``warning``, and ``info`` when its literal text reports a
failure (users paste the ``Decode out of memory happened. #retracted_reqs: ...`` an older
scheduler logged at info level as they paste errors). ``warnings.warn(message, Category)`` is a
warning too (:func:`warned_message_arg`).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from errexplain.extract.messages import is_text_expr
from errexplain.match.normalize import reports_failure, template_words
from errexplain.match.template import compile_template
from errexplain.models import RESPONSE_VIA

LEVELS = frozenset({"error", "critical", "exception", "warning", "info"})
GATED = frozenset({"info"})
"""Levels recorded only when the literal text reports a failure (`reports_failure`): an info
line (`Load weight begin. avail mem=...`) is context. Every warning with literal words is
recorded: users paste the warning that names their problem (`Number of tokens in multimodal
embedding does not match those in the input text ...`, `Received output for rid=... but the
state was deleted ...`) whatever its words; beside an error, only a warning that reports a
failure is an error of its own (explainer._logged_beside)."""


ABORT_SINKS = {
    "set_finish_with_abort": (0, "error_msg"),
    "FINISH_ABORT": (0, "message"),
    "prepare_abort": (1, "error_message"),
    "create_error_response": (0, "message"),
    "create_streaming_error_response": (0, "message"),
    "AbortReq": (None, "abort_message"),
}
"""Calls that hand a request's error message to its client instead of raising it (sglang's
scheduler finishes the request with an abort reason; its OpenAI-compatible server builds the
error response): the user reads the text in an HTTP error body, so it is catalogued as a site
of kind ``abort``. Name -> the message's position and keyword."""


RECORD_SINKS = {
    "record_failure": (1, "failure_reason", "KVTransferError"),
    "conclude_failure": (None, "failure_reason", "KVTransferError"),
}
"""Calls that record a failure reason which a later raise carries: sglang's disaggregation
backends record why a request's KV transfer failed (``record_failure(room, reason)``,
``conclude_failure(bootstrap_room=..., failure_reason=...)``) and ``failure_exception()`` then
raises a KVTransferError with that text, which is what users paste. Name -> the reason's
position (None: keyword only), keyword, and the exception that carries it; a site of kind
``recorded``."""


def _callee(call: ast.Call) -> str | None:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)


def _sink_arg(call: ast.Call, pos: int | None, keyword: str) -> ast.expr | None:
    args = call.args
    if pos is not None:
        if any(isinstance(a, ast.Starred) for a in args[: pos + 1]):
            return None
        if len(args) > pos:
            return args[pos]
    return next((k.value for k in call.keywords if k.arg in (keyword, "message")), None)


def abort_message_arg(call: ast.Call) -> ast.expr | None:
    """The message argument of a call to an abort sink, or None when it is none."""
    name = _callee(call)
    if name not in ABORT_SINKS:
        return None
    return _sink_arg(call, *ABORT_SINKS[name])


def reply_message_arg(call: ast.Call) -> ast.expr | None:
    """The message of a reply that reports a failure to its client (`FlushCacheReqOutput(
    success=False, message="Timed out waiting for idle state.")`: the control endpoints' answers,
    `/flush_cache`, `/start_profile`, weight updates), or None when the call is no such reply."""
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    success = keywords.get("success")
    if isinstance(success, ast.Constant) and success.value is False:
        return keywords.get("message")
    return None


def client_message_arg(
    call: ast.Call, resolve: Callable[[ast.Name], ast.expr | None] | None = None
) -> tuple[ast.expr, str | None] | None:
    """(message argument, `via`) of a call that hands its client an error message: an abort
    sink (`via` None), a reply that reports a failure (`via` names the reply's class,
    ``FlushCacheReqOutput(success=False)``), or an HTTP error response built in place
    (:func:`response_message_arg`; `resolve` gives the value a name holds); None for any other
    call."""
    arg = abort_message_arg(call)
    if arg is not None:
        return arg, None
    arg = reply_message_arg(call)
    if arg is not None:
        return arg, f"{_callee(call) or 'reply'}(success=False)"
    return response_message_arg(call, resolve)


ERROR_STATUS = 400
"""HTTP statuses from this one on are errors (client 4xx, server 5xx)."""

ERROR_KEYS = frozenset({"error", "error_message"})
"""Keys of a JSON body that say by themselves it reports a failure, whatever its status."""

BODY_KEYS = ("error", "message", "detail", "error_message", "msg")
"""Keys of a JSON error body that hold its message, in the order they are read (`{"error":
{"message": ...}}` nests one under another)."""


def response_message_arg(
    call: ast.Call, resolve: Callable[[ast.Name], ast.expr | None] | None = None
) -> tuple[ast.expr, str] | None:
    """(message, `via`) of an HTTP error response built in place: a call of a class named
    `...Response` (Starlette's and FastAPI's `JSONResponse`, `ORJSONResponse`,
    `PlainTextResponse`, `Response`; content first, status second) whose status is an error
    (ERROR_STATUS or more, as a number, an `HTTPStatus` member or a `status.HTTP_4xx_...`
    name) or whose JSON body says a failure (`"success": False`, an `"error"` key), and
    whose body holds a message (a text, or a dict's BODY_KEYS: `ORJSONResponse(status_code=
    401, content={"error": "Unauthorized"})`). The client prints that body; `via` says how it
    is sent (`HTTP 401 response`). None for any other call."""
    name = _callee(call)
    if not name or not name.endswith("Response") or not name[:1].isupper():
        return None
    if any(isinstance(a, ast.Starred) for a in call.args):
        return None
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    content = keywords.get("content", call.args[0] if call.args else None)
    status = keywords.get("status_code", call.args[1] if len(call.args) > 1 else None)
    if isinstance(content, ast.Name) and resolve is not None:
        content = resolve(content) or content
    found = _body_message(content)
    if found is None:
        return None
    message, failed = found
    code = _error_status(status)
    if code is None and not failed:
        return None
    return message, (f"{RESPONSE_VIA}{code} response" if code else f"{RESPONSE_VIA}error response")


def _body_message(content: ast.expr | None) -> tuple[ast.expr, bool] | None:
    """(the message a response body holds, whether the body says a failure: `"success":
    False`, or an ERROR_KEYS key holding the message)."""
    if content is not None and is_text_expr(content):
        return content, False
    if not isinstance(content, ast.Dict):
        return None
    keyed = {
        k.value: v
        for k, v in zip(content.keys, content.values, strict=True)
        if isinstance(k, ast.Constant) and isinstance(k.value, str)
    }
    success = keyed.get("success")
    failed = isinstance(success, ast.Constant) and success.value is False
    for key in BODY_KEYS:
        value = keyed.get(key)
        if value is None:
            continue
        failed = failed or key in ERROR_KEYS  # (a body that holds an error says a failure)
        if isinstance(value, ast.Dict):
            inner = _body_message(value)
            if inner is not None:
                return inner[0], failed
        else:
            return value, failed
    return None


def _error_status(status: ast.expr | None) -> int | None:
    """The error status a response's `status_code` argument gives, or None when it gives none:
    absent (200), a success, or a conditional (`200 if success else HTTPStatus.BAD_REQUEST`:
    the same body reports the success too, and which of its texts is the failure's is not
    written there)."""
    if isinstance(status, ast.Attribute) and status.attr == "value":
        status = status.value  # (`HTTPStatus.BAD_REQUEST.value`)
    code: int | None = None
    if isinstance(status, ast.Constant) and type(status.value) is int:
        code = status.value
    elif isinstance(status, ast.Attribute):
        code = _status_name(status.attr)
    return code if code is not None and code >= ERROR_STATUS else None


def _status_name(name: str) -> int | None:
    """The code an `HTTPStatus` member or a `status.HTTP_404_NOT_FOUND` constant names."""
    from http import HTTPStatus  # (extraction only: not at start-up)

    if name.startswith("HTTP_") and name[5:8].isdigit():
        return int(name[5:8])
    member = HTTPStatus.__members__.get(name)
    return None if member is None else int(member)


def abort_reason_message(call: ast.Call) -> ast.expr | None:
    """The message of the one abort finish reason a call hands on (`send_abort_output(
    _make_abort_req(req, finished_reason={"type": "abort", "status_code": 503, "message":
    message}))`: the request ends with that reason, whose message the client reads), or None
    when the call's arguments hold none or several."""
    found = [
        value
        for node in ast.walk(call)
        if isinstance(node, ast.Dict)
        for value in [_abort_reason(node)]
        if value is not None
    ]
    return found[0] if len(found) == 1 else None


def _abort_reason(node: ast.Dict) -> ast.expr | None:
    keyed = {
        k.value: v
        for k, v in zip(node.keys, node.values, strict=True)
        if isinstance(k, ast.Constant)
    }
    kind = keyed.get("type")
    if isinstance(kind, ast.Constant) and kind.value == "abort":
        return keyed.get("message")
    return None


def recorded_reason_arg(call: ast.Call) -> tuple[ast.expr, str] | None:
    """(the reason argument, the exception that will carry it) of a call to a record sink."""
    name = _callee(call)
    if name not in RECORD_SINKS:
        return None
    pos, keyword, exception = RECORD_SINKS[name]
    arg = _sink_arg(call, pos, keyword)
    return None if arg is None else (arg, exception)


def _is_logger(obj: ast.expr) -> bool:
    if isinstance(obj, ast.Name):
        name = obj.id
    elif isinstance(obj, ast.Attribute):
        name = obj.attr
    else:
        return False
    low = name.lower().lstrip("_")
    return low in ("log", "logging") or "logger" in low


def log_level(call: ast.Call) -> str | None:
    """The level of a logging call (``"error"`` ...; ``warning_once`` logs at ``warning``),
    or None when it is not one."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    level = func.attr.removesuffix("_once")
    return level if level in LEVELS and _is_logger(func.value) else None


def warned_message_arg(call: ast.Call) -> ast.expr | None:
    """The message of ``warnings.warn(message, Category)``, or None when the call is none:
    Python prints it as ``path:line: Category: message``, a line users paste like a logged
    warning (``Only CUDA, HIP and XPU support AWQ currently.``). Recorded at level
    ``warning``."""
    func = call.func
    if not (
        isinstance(func, ast.Attribute)
        and func.attr == "warn"
        and isinstance(func.value, ast.Name)
        and func.value.id == "warnings"
    ):
        return None
    return _sink_arg(call, 0, "message")


PRINT_MIN_LITERAL = 20
"""Fewest characters of literal text a printed failure needs to be recorded: a script's bare
``print(f"Error: {e}")`` is a lead before another project's text, no message of its own."""

_PRINT_WARNING = ("warning", "warn:")


def printed_message_arg(call: ast.Call) -> ast.expr | None:
    """The text of ``print(...)`` (its positional arguments joined by one space, as ``print``
    writes them with the default separator), or None when the call is no print or its
    arguments cannot be read so (starred, a separator given). sglang's scripts and launch
    helpers print some failures instead of logging them (`Fail to load tokenizer config with
    error=...`), and users paste those lines."""
    func = call.func
    if not (isinstance(func, ast.Name) and func.id == "print") or not call.args:
        return None
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg == "sep" for k in call.keywords
    ):
        return None
    if len(call.args) == 1:
        return call.args[0]
    values: list[ast.expr] = []
    for i, arg in enumerate(call.args):
        if i:
            values.append(ast.Constant(" "))
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            values.append(arg)
        else:
            values.append(ast.FormattedValue(value=arg, conversion=-1, format_spec=None))
    return ast.copy_location(ast.JoinedStr(values=values), call)


def printed_level(template: str) -> str | None:
    """The level a printed message is recorded at (``warning`` when it says so, else
    ``error``), or None when it is not worth recording: it must hold PRINT_MIN_LITERAL
    characters of literal text and report a failure by its words, read as an info line's are
    (a print is no error by its call: `Running the stress test (timeout: <n>s)` names a
    setting), or as a warning's when it says it is one; a usage text is help, not a failure."""
    literal = compile_template(template).literal_text
    head = literal.lstrip(" [*!-").lower()
    if len(literal.strip()) < PRINT_MIN_LITERAL or head.startswith("usage"):
        return None
    level = "warning" if head.startswith(_PRINT_WARNING) else "error"
    return level if reports_failure("warning" if level == "warning" else "info", template) else None


def worth_recording(level: str, template: str) -> bool:
    """Only messages with literal words; an info line only when its text reports a failure."""
    if not template_words(template):
        return False
    return level not in GATED or reports_failure(level, template)
