"""Cases for errors/sglang/srt/arg_groups/attention_hook.yaml."""

from harness import case

CASES = [
    case("e71401ab43e6193b"),
    case("e39483c4e23ffd91"),
    case("f16733d38a61f98f"),
    case("aa465c87e9d88431"),
    case("cb0f6fa80a382751"),
    case("c6bb544d68fbb0aa"),
]
