"""Cases for errors/sglang/srt/arg_groups/overrides.yaml."""

from harness import case

CASES = [
    case("cb3a846b214dd429"),
    case("16c0f1bb5923e92a"),
    case("5928abf37060d1d4"),
    case("bfd7c504c04746b4"),
    case("b94c3d21f3f936f4"),
    case("08f9bebedd35cb6a"),
    case("8c7f238386c357cd"),
]
