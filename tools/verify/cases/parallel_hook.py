"""Cases for errors/sglang/srt/arg_groups/parallel_hook.yaml."""

from harness import case

CASES = [
    case("e97312870e418ffa"),
    case("dfefb847f7421b4f"),
    case("4256209539ef831e"),
    case("371b79026b6185ae"),
    case("48464313e1938512"),
]
