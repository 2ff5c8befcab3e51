"""Domain errors. Each carries a finished, user-readable message and an optional hint."""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING, IntEnum

if TYPE_CHECKING:
    from errexplain.input.read import InputText
    from errexplain.models import Match


class ExitCode(IntEnum):
    """Every exit code errexplain returns (the README's "Exit codes" table), following grep."""

    EXPLAINED = 0
    """At least one error was explained (or the command did what it was asked)."""
    NO_MATCH = 1
    """Input was read but nothing in it matched the catalog."""
    BAD_INPUT = 2
    """Usage error, unreadable or unusable input, or an invalid catalog."""
    INTERNAL = 3
    """A bug in errexplain (the message asks for a report)."""
    CANNOT_EXECUTE = 126
    """`run`: the command exists but cannot be executed (as shells report it)."""
    COMMAND_NOT_FOUND = 127
    """`run`: the command was not found (as shells report it)."""
    INTERRUPTED = 130
    """Interrupted (Ctrl-C)."""


class ErrexplainError(Exception):
    """Base class: the CLI prints `errexplain: <message>` and `hint: <hint>`."""

    exit_code = ExitCode.BAD_INPUT

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


class NothingFound(InputError):
    """The input was read but holds nothing to explain (grep's 1, not a usage error).
    `found_in`: the text read and the guesses nearest to its lines, when a command answers it
    in JSON too (`explain --json`)."""

    exit_code = ExitCode.NO_MATCH
    found_in: tuple[InputText, tuple[tuple[int, Match], ...]] | None = None


class CommandError(ErrexplainError):
    """`run` cannot start the command: not found (127) or not executable (126)."""

    def __init__(
        self, message: str, hint: str | None = None, *, code: ExitCode = ExitCode.BAD_INPUT
    ) -> None:
        super().__init__(message, hint)
        self.exit_code = code
