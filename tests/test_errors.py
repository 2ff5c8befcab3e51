"""errexplain.errors: the exit codes and the domain errors the CLI boundary prints."""

from __future__ import annotations

import pytest

from errexplain.errors import (
    CatalogError,
    CommandError,
    ErrexplainError,
    ExitCode,
    ExtractError,
    InputError,
)


@pytest.mark.parametrize(
    ("code", "value"),
    [
        (ExitCode.EXPLAINED, 0),
        (ExitCode.NO_MATCH, 1),
        (ExitCode.BAD_INPUT, 2),
        (ExitCode.INTERNAL, 3),
        (ExitCode.CANNOT_EXECUTE, 126),
        (ExitCode.COMMAND_NOT_FOUND, 127),
        (ExitCode.INTERRUPTED, 130),
    ],
)
def test_exit_code_values_are_ints(code, value):
    assert code == value
    assert isinstance(code, int)
    assert int(code) == value
    assert type(int(code)) is int


def test_exit_codes_are_exactly_the_documented_ones():
    assert sorted(int(c) for c in ExitCode) == [0, 1, 2, 3, 126, 127, 130]


SUBCLASSES = [InputError, CatalogError, ExtractError, CommandError]


def test_every_domain_error_is_listed_here():
    assert set(ErrexplainError.__subclasses__()) == set(SUBCLASSES)


@pytest.mark.parametrize("cls", [ErrexplainError, *SUBCLASSES])
def test_domain_error_carries_message_hint_and_bad_input_code(cls):
    exc = cls("the file is bad", hint="fix it")
    assert isinstance(exc, ErrexplainError)
    assert isinstance(exc, Exception)
    assert exc.exit_code is ExitCode.BAD_INPUT
    assert exc.message == "the file is bad"
    assert str(exc) == "the file is bad"
    assert exc.hint == "fix it"


@pytest.mark.parametrize("cls", SUBCLASSES)
def test_hint_is_optional(cls):
    exc = cls("no hint")
    assert exc.hint is None
    assert exc.exit_code == 2


@pytest.mark.parametrize("cls", SUBCLASSES)
def test_domain_errors_are_caught_as_the_base(cls):
    with pytest.raises(ErrexplainError) as info:
        raise cls("boom", "try again")
    assert (info.value.message, info.value.hint) == ("boom", "try again")


def test_a_command_error_carries_the_shell_code():
    assert CommandError("x: not found", code=ExitCode.COMMAND_NOT_FOUND).exit_code == 127
    assert CommandError("x: denied", code=ExitCode.CANNOT_EXECUTE).exit_code == 126
