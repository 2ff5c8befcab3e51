"""What an exception class means in general, used when no catalog entry matches.

Falls back along the class hierarchy: a custom class whose base the catalog knows, or a builtin's
parents (from the interpreter's own classes), to the nearest class described here.
"""

from __future__ import annotations

import builtins

MEANINGS: dict[str, str] = {
    "AssertionError": "An `assert` statement failed: code checked an invariant (a shape, a "
    "config combination, a state) and found it violated. The message names the check.",
    "AttributeError": "Code asked an object for an attribute or method it does not have; often "
    "the object is None or a different type/version than the code expects.",
    "ImportError": "An import failed: the module exists but a name in it is missing, or it "
    "could not be loaded (a version mismatch between installed packages is the usual cause).",
    "ModuleNotFoundError": "Python could not find a module to import: the package is not "
    "installed in this environment, or is installed for another Python.",
    "IndexError": "A sequence or tensor was indexed past its end.",
    "KeyError": "A dictionary lookup used a key that is not there; with model weights this "
    "usually means a checkpoint and model definition disagree on parameter names.",
    "LookupError": "A lookup by key or index found nothing.",
    "MemoryError": "The process ran out of host (CPU) memory.",
    "NotImplementedError": "The code path exists but is not implemented for this case "
    "(model, backend, hardware or option combination).",
    "OSError": "An operating-system call failed (file, socket, device, permission).",
    "FileNotFoundError": "A file or directory that the code needs does not exist.",
    "PermissionError": "The process lacks permission for a file or device operation.",
    "ConnectionError": "A network connection failed or was refused.",
    "TimeoutError": "An operation did not finish in time.",
    "RecursionError": "Recursion went deeper than Python's limit.",
    "RuntimeError": "A generic run-time failure; the message carries the real reason (CUDA, "
    "NCCL and many library errors use this class).",
    "TypeError": "A value of the wrong type was passed, or a function was called with the "
    "wrong arguments (often an API/version mismatch between packages).",
    "ValueError": "A value has the right type but is not acceptable: a bad argument, config "
    "field or combination of options.",
    "UnicodeDecodeError": "Bytes could not be decoded as text in the expected encoding.",
    "ZeroDivisionError": "A division or modulo by zero.",
    "StopIteration": "An iterator was asked for a value after it was exhausted.",
    "KeyboardInterrupt": "The process was interrupted (Ctrl-C or SIGINT).",
    "SystemExit": "The program asked to exit.",
    "Exception": "An error that does not fit a more specific built-in class.",
    "BaseException": "The root of all exceptions.",
}


def _builtin_parents(name: str) -> list[str]:
    cls = getattr(builtins, name, None)
    if isinstance(cls, type) and issubclass(cls, BaseException):
        return [c.__name__ for c in cls.__mro__[1:]]
    return []


def describe(exc_type: str, known_base: str | None = None) -> tuple[str, str] | None:
    """(class described, meaning) for an exception type, walking to the nearest known class."""
    short = exc_type.rsplit(".", 1)[-1]
    chain = [short]
    if known_base:
        chain.append(known_base)
    for name in list(chain):
        chain.extend(_builtin_parents(name))
    if short.endswith("Error") and "Exception" not in chain:
        chain.append("Exception")
    for name in chain:
        if name in MEANINGS:
            return name, MEANINGS[name]
    return None
