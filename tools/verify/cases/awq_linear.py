"""Cases for errors/sglang/srt/layers/quantization/awq/schemes/awq_linear.yaml."""

from harness import case

CASES = [
    case(
        "71faec997c1456f4",
        setup=(
            "from verify_fixtures import awq_qwen72b, rank0_mlp\n"
            "SELFQUANT, PADDED = awq_qwen72b(29568), awq_qwen72b(29696)\n"
        ),
        before="rank0_mlp(SELFQUANT, '--tp-size 4 --quantization awq')\n",
        after="rank0_mlp(PADDED, '--tp-size 4 --quantization awq')\n",
        note="the example's flags resolved and published for TP rank 0, then rank 0's MLP"
        " layers built with the loader's quantization config (verify_fixtures.rank0_mlp); the"
        " example's models as Qwen2-72B-shaped AWQ configs (intermediate_size 29568"
        " self-quantized, 29696 padded)",
    ),
]
