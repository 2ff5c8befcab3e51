"""Cases for errors/sglang/srt/layers/quantization/marlin_utils.yaml."""

from harness import case

_SETUP = (
    "from verify_fixtures import awq_qwen72b, rank0_mlp\n"
    "SELFQUANT, PADDED = awq_qwen72b(29568), awq_qwen72b(29696)\n"
)
NOTE = (
    "the example's flags resolved and published for TP rank 0, then rank 0's MLP layers"
    " built with the loader's quantization config (verify_fixtures.rank0_mlp, which sets the"
    " AWQ module's CPU-import _is_cuda constant to True as on a CUDA host); the example's"
    " models as Qwen2-72B-shaped AWQ configs (intermediate_size 29568 self-quantized, 29696"
    " padded)"
)

CASES = [
    case(
        "1ed8539ab4db7276",
        setup=_SETUP,
        before="rank0_mlp(SELFQUANT, '--tp-size 8')\n",
        after="rank0_mlp(PADDED, '--tp-size 8')\n",
        note=NOTE,
    ),
    case(
        "4956d11250189df9",
        setup=_SETUP,
        before="rank0_mlp(SELFQUANT, '--tp-size 4')\n",
        after="rank0_mlp(PADDED, '--tp-size 4')\n",
        note=NOTE,
    ),
]
