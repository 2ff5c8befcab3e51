"""Cases for errors/sglang/srt/arg_groups/attention_hook.yaml."""

from harness import case

CASES = [
    case("e71401ab43e6193b"),
    case(
        "e39483c4e23ffd91",
        gpu="A100",
        note="the example's premise (an A100, SM 8.0) is the fake device's capability",
    ),
    case(
        "f16733d38a61f98f",
        gpu="RTX5090",
        note="an SM 12.0 device (the fake RTX 5090); Qwen3.5-27B has no fixture and stands in"
        " as Llama: the check reads the backend, the platform and the KV dtype, not the model",
    ),
    case(
        "aa465c87e9d88431",
        gpu="L40S",
        note="the example's premise (an L40S, SM 8.9) is the fake device's capability",
    ),
    case("cb0f6fa80a382751"),
    case("c6bb544d68fbb0aa"),
]
