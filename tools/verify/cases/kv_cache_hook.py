"""Cases for errors/sglang/srt/arg_groups/kv_cache_hook.yaml."""

from harness import case

CASES = [
    case("98ee2261350ab525"),
    case("32b97cf6db655eb9"),
    case("54b0d49bf1e13336"),
    case("d56ba884cf99a0fc"),
    case("910cd1652a7a18e5"),
    case("2837df42237cf559"),
    case("79fa21d7a16e7af4"),
    case("a5c5dd68749a48a9"),
]
