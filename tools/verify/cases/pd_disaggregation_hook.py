"""Cases for errors/sglang/srt/arg_groups/pd_disaggregation_hook.yaml."""

from harness import case

CASES = [
    case("1dab74b9eae66773"),
    case("d3460b1664e173ff"),
    case("569a825829f615dc"),
    case("bcdad3b7d9e5ebac"),
    case("70d53f9d8736e7c8"),
    case("f11b6e8e16a986da"),
    case("aeb927d3e3ceb372"),
]
