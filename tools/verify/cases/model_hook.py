"""Cases for errors/sglang/srt/arg_groups/model_hook.yaml."""

from harness import case

CASES = [
    case("16f8e2f64e947ed4"),
    case("75a829b03219ffc1"),
    case("3e0ca4efa2d07d03"),
    case("0b487eb6fb5c46f5"),
    case("295e371447c8fbab"),
    case("244b086b57a7d965"),
    case("d291bb3fe6401177"),
    case("86005b70e3a654d6"),
]
