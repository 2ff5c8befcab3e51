"""Cases for errors/sglang/srt/arg_groups/validation_hook.yaml."""

from harness import case

CASES = [
    case("8ab4a02da6758bbc"),
    case("1d04a3621b20c2fa"),
    case("af09fb73c62de4f9"),
    case("16b45766bba96ca6"),
    case("b7633f2409b8c941"),
    case("5658f8d9f6f03e66"),
    case("21f009d215171840"),
    case("75b0d5b5e4921dbf"),
    case("b2bab4042f7ea0ff"),
    case("e235a9e5ddaa214e"),
    case("7b363740b142f9e7"),
    case("df8bb0a25bf599fd"),
    case("aa452427225bcd39"),
    case("b0e1b7b88bc709d7"),
]
