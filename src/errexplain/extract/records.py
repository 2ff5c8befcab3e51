"""Plain records produced by the source walk and consumed by merge/derive/write."""

from __future__ import annotations

from errexplain._startup import Record


class Site(Record):
    """One message-carrying raise/assert site (or a helper that builds an exception).

    ``exception`` is the class name as raised; ``base`` is filled in later, once every class of
    the tree is known. ``constant`` is false when the message has no literal text at all;
    ``single`` is true when the message is the only argument of the exception call;
    ``handling`` names the exception of the innermost enclosing ``except`` clause.
    ``statement`` is the statement's source text of a site whose exception has no message
    (``template`` is then empty); ``via`` names the helper (qualified) that a call site hands
    its message to, and where it raises (``name at path:line``); ``built`` names the helper
    that built the exception a raise raises (``raise _died_error(rank, proc)``), and where it
    builds it, when the message is written there. For ``kind == "log"``, ``exception`` is the
    logging level.
    """

    path: str
    line: int
    kind: str
    exception: str
    template: str
    function: str
    condition: str | None = None
    doc: str | None = None
    constant: bool = True
    helper: bool = False
    base: str | None = None
    single: bool = True
    handling: str | None = None
    statement: str | None = None
    via: str | None = None
    built: str | None = None


class ClassInfo(Record):
    """A class defined in the scanned tree: its name and its bases as written (last part)."""

    name: str
    path: str
    bases: tuple[str, ...]


class HelperInfo(Record):
    """A module-level function that raises ``exception`` with a message built from its
    parameters, as other modules can import it: ``pattern`` is that message's template with
    each parameter written ``\\x00name\\x00``; ``params`` as in the helper (name, position)."""

    name: str
    module: str
    path: str
    line: int
    exception: str
    params: tuple[tuple[str, int | None], ...]
    pattern: str


class CallInfo(Record):
    """A call statement of a function imported from the project (``from pkg.mod import f``)
    that passes literal text: resolved against every file's :class:`HelperInfo` once all files
    are walked. ``args`` are (position or keyword, template, has literal text)."""

    path: str
    line: int
    function: str
    condition: str | None
    doc: str | None
    handling: str | None
    callee: str
    module: str
    args: tuple[tuple[int | str, str, bool], ...]


class FileResult(Record):
    """What the walk found in one file; ``error`` is set when the file could not be parsed.
    ``validators`` are the names of the functions whose return value the file hands its
    client as a request's error (``msg = self._validate_request(r)``, then ``return
    self.create_error_response(msg)``): the texts such a function returns are aborts
    (:data:`RETURNED`), in whatever file it is defined (a subclass overrides it).
    ``returned_calls`` are (function, callee) pairs where a function returns what a call of
    another function of the project gave it (``media_error = self._validate_media_content(r)``,
    then ``return media_error``): when the function is a validator, so is the callee."""

    path: str
    sites: tuple[Site, ...] = ()
    classes: tuple[ClassInfo, ...] = ()
    error: str | None = None
    helpers: tuple[HelperInfo, ...] = ()
    calls: tuple[CallInfo, ...] = ()
    validators: tuple[str, ...] = ()
    returned_calls: tuple[tuple[str, str], ...] = ()


RETURNED = "returned"
"""The kind of a text a function returns (``return f"... {x}"``), kept by the walk only until
resolution, which makes it an ``abort`` when the function is a validator of some file's and
drops it otherwise."""
