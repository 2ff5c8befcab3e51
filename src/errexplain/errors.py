"""Domain errors. Each carries a finished, user-readable message and an optional hint."""

from __future__ import annotations


class ErrexplainError(Exception):
    """Base class: the CLI prints `errexplain: <message>` and `hint: <hint>`."""

    exit_code = 2

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class InputError(ErrexplainError):
    """The text or file we were given cannot be used."""


class CatalogError(ErrexplainError):
    """A catalog file is missing, unreadable or invalid."""


class ExtractError(ErrexplainError):
    """A source tree, wheel or distribution cannot be read for extraction."""


class ExitCode:
    """Exit codes (documented in the README). A plain class so the fast path stays cheap."""

    EXPLAINED = 0
    NO_MATCH = 1
    BAD_INPUT = 2
    INTERNAL = 3
    INTERRUPTED = 130
