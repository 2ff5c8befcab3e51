"""Cases for errors/sglang/srt/arg_groups/cuda_graph_hook.yaml."""

from harness import case

CASES = [
    case("f999c94193fd56d3"),
]
