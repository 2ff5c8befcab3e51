"""errexplain.catalog.relation: how two entries relate in the code, in one line."""

from __future__ import annotations

from errexplain.catalog.relation import (
    SAME_CLASS,
    SAME_FAILURE,
    SAME_FUNCTION,
    SAME_GUARD,
    SAME_MESSAGE,
    Site,
    guard_names,
    relation,
)

TP = Site(
    "pkg/server_args.py",
    "ServerArgs.check_tp",
    "self.num_heads % self.tp_size != 0",
    "heads <self.num_heads> not divisible by tp <self.tp_size>",
    "ValueError",
)


def _site(**fields) -> Site:
    base = {
        "path": "pkg/other.py",
        "function": "g",
        "condition": None,
        "template": "something else",
        "exception": "RuntimeError",
    }
    return Site(**{**base, **fields})


def test_guard_names_leave_out_common_ones():
    assert guard_names(TP) == {"num_heads", "tp_size"}
    assert guard_names(_site(condition="len(self.config.x) > 3")) == set()
    assert guard_names(_site(condition="any(t is None for t in tensors)")) == {"tensors"}
    # words inside string literals are data: `'language' in name` tests `name`, not `language`
    assert guard_names(_site(condition="not ('language' in name_key)")) == {"name_key"}
    assert guard_names(_site(condition='mode == "tensor_parallel"')) == {"mode"}


def test_each_relation_with_its_reason():
    same_func = _site(path=TP.path, function=TP.function, template="tp must be positive")
    # (a check of the same variable tells most, even in the same function)
    assert (
        relation(TP, _site(path=TP.path, function=TP.function, condition="self.tp_size < 1"))[0]
        == SAME_GUARD
    )
    assert relation(TP, same_func) == (
        SAME_FUNCTION,
        "checked in the same function, check_tp",
    )
    assert relation(TP, _site(template=TP.template))[0] == SAME_MESSAGE
    guard = relation(TP, _site(function="Engine.start", condition="self.tp_size > 8"))
    assert guard == (SAME_GUARD, "also checks tp_size (in start)")
    same_class = _site(path=TP.path, function="ServerArgs.other")
    assert relation(TP, same_class) == (SAME_CLASS, "in the same class, ServerArgs")
    failure = _site(path=TP.path, function="helper", exception="ValueError")
    assert relation(TP, failure)[0] == SAME_FAILURE


def test_wording_alone_relates_nothing():
    # "Port out of range" beside a token-id check: similar words, nothing in common in the code
    a = _site(template="token id <i> out of range", condition="i >= vocab_size")
    b = _site(
        path="pkg/net.py", function="bind", template="port <p> out of range", condition="p > 65535"
    )
    assert relation(a, b) is None


def test_rare_names_only_when_asked():
    other = _site(condition="self.tp_size > 8")
    assert relation(TP, other, names={"num_heads"}) is None
    assert relation(TP, other, names={"tp_size"})[0] == SAME_GUARD
