# ruff: noqa
# fmt: off
# Fixture for tests/test_extract.py: each form below is deliberate.
from mypkg import errors
from mypkg.errors import DeepError, LibError, MyError, TransferError

LIMIT_MSG = "limit exceeded"


def literal():
    raise ValueError("plain literal message")


def implicit_concat():
    raise ValueError("first part, " "second part")


def fstring(a, b, ratio, name):
    raise ValueError(f"got {a!r} and {b!s} ({ratio:.2f}) for {name!a}: {a.shape[0]}")


def fstring_nested_spec(x, width):
    raise ValueError(f"value {x:>{width}} misaligned")


def plus_concat(x, problems):
    raise RuntimeError("bad value " + str(x) + ": " + ", ".join(problems))


def percent_tuple(a, b):
    raise ValueError("x %s y %d z %r" % (a, b, a + b))


def percent_single(a):
    raise ValueError("only %s here" % a)


def percent_dict(a, b):
    raise ValueError("%(first)s and %(second).1f" % {"first": a, "second": b})


def format_positional(a, b):
    raise ValueError("first {} second {}".format(a, b))


def format_indexed(a, b):
    raise ValueError("first {1} second {0!r}".format(a, b))


def format_keyword(a):
    raise ValueError("name is {name}, size {size:04d}".format(name=a.name, size=len(a)))


def local_variable(x):
    msg = f"local message for {x}"
    raise ValueError(msg)


def local_augmented(x):
    msg = "start"
    msg += f" then {x}"
    raise ValueError(msg)


def nearest_assignment(x):
    msg = "first assignment"
    if x:
        msg = "second assignment"
    raise ValueError(msg)


def module_constant():
    raise OverflowError(LIMIT_MSG)


def chained(path):
    try:
        open(path)
    except OSError as e:
        raise FileNotFoundError(f"cannot open {path}") from e


def keyword_message(x):
    raise ValueError(msg=f"keyword msg {x}")


def second_argument(room):
    raise TransferError(room, f"room {room} failed")


def attribute_class(x):
    raise errors.MyError(f"attribute class {x}")


def custom_bases(x):
    if x == 1:
        raise MyError("my error")
    if x == 2:
        raise DeepError("deep error")
    if x == 3:
        raise LibError("lib error")


def angle_brackets(x):
    raise ValueError(f"head_dim must be <= 128, got <{x}> for <lambda>")


def not_constant(e, message):
    if e:
        raise RuntimeError(str(e))
    raise ValueError(message)


def no_message():
    raise ValueError


def empty_call():
    raise ValueError()


def asserts(x, y):
    assert x > 0, f"x must be positive, got {x}"
    assert x != y, "x and y differ"
    assert y


def assert_tuple(a, b):
    assert a == b, (a.shape, b.shape)


def raise_variable(x):
    err = KeyError(f"missing key {x}")
    raise err


def key_error_quotes(k):
    raise KeyError(f"no key '{k}'")


def key_error_name(k):
    raise KeyError(k)


def addition_in_a_branch(flag, x):
    msg = "module not available."
    if flag:
        msg += " Rounding requires it."
    elif x:
        msg += " Also this."
    raise ValueError(msg)


def value_added_in_a_branch(fraction):
    msg = "Not enough room."
    if fraction is not None:
        msg += f" Current value: {fraction}"
    raise RuntimeError(msg)


def addition_in_the_use_branch(flag):
    msg = "base text"
    if flag:
        msg += " and more"
        raise ValueError(msg)


def addition_in_a_handler(check):
    msg = "transfer failed"
    try:
        check()
    except Exception as e:
        msg += f" with exception {e}"
    if check is None:
        msg += " (restore failed)"
    raise RuntimeError(msg)
