"""Cases for errors/sglang/srt/arg_groups/hisparse_hook.yaml."""

from harness import case

CASES = [
    case("33d1d2ebd024504c"),
    case("f670ee4a3d3441b5"),
]
