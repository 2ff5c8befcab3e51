"""Cases for errors/sglang/srt/arg_groups/argparse_actions.yaml."""

from harness import case

CASES = [
    case("501bc14bdc3a3c20"),
]
