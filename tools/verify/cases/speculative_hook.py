"""Cases for errors/sglang/srt/arg_groups/speculative_hook.yaml."""

from harness import case

CASES = [
    case("07ee9440e043dfaf"),
    case("e6242df00acfc202"),
    case("02665afbadfa43e3"),
    case("750e649a0abf9844"),
    case("b9fb12d81f8fd774"),
    case("7befb96734afcd5e"),
    case("4f15438050761547"),
    case("7f59c4626c7fa7ea"),
    case("15015a2c7c80e40a"),
    case("6c62bf4fbc4d2766"),
    case("7b702cc939a2c276"),
    case("9c01d1763bd1e885"),
    case("5d89ed7ac7c07f19"),
    case("4390bd94ab8b1c7d"),
]
