"""Cases for errors/sglang/srt/arg_groups/moe_hook.yaml."""

from harness import case

CASES = [
    case("9a7a1bc1842beb8d"),
    case("f297c92d262f5965"),
    case("ffcb99e4d7ae0aae"),
    case("ac8477e2e1a7f849"),
    case("df157331c084af05"),
    case("f967130270a4137d"),
    case("3e23fbc68b0e9d82"),
]
