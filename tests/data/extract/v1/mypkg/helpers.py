# ruff: noqa
# fmt: off
# Fixture for tests/test_extract.py: each form below is deliberate.
from mypkg.errors import MyError


def _invalid(value, expected):
    return MyError(f"invalid value {value!r}, expected {expected}")


def _wrap(message):
    return ValueError(message)


def _not_an_error(x):
    return Response(f"not an exception {x}")


def check(value):
    if value is None:
        raise _invalid(value, "something")
    if value == 0:
        raise _wrap(f"zero is not allowed here ({value})")
    return value
