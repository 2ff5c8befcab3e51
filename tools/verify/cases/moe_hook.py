"""Cases for errors/sglang/srt/arg_groups/moe_hook.yaml."""

from harness import case
from serve import serve

# The Qwen3-235B-A22B fixture with the checkpoint's quantization_config (the FP8 and AWQ
# releases of the model); the checks read the quantization the checkpoint declares.
_Q235 = "verify_fixtures.hub_model('Qwen/Qwen3-235B-A22B', quantization_config={q!r})"
FP8 = _Q235.format(
    q={
        "quant_method": "fp8",
        "fmt": "e4m3",
        "activation_scheme": "dynamic",
        "weight_block_size": [128, 128],
    }
)
AWQ = _Q235.format(
    q={"quant_method": "awq", "bits": 4, "group_size": 128, "zero_point": True, "version": "gemm"}
)
_NOTE = (
    "the example's launch; the hub model is the Qwen3-235B-A22B fixture with its"
    " quantization_config"
)

_T8 = ("--tp-size", "8", "--quantization", "fp8")
_T4 = ("--tp-size", "4", "--quantization", "awq")

CASES = [
    case(
        "9a7a1bc1842beb8d",
        before=serve(FP8, *_T8, "--moe-runner-backend", "flashinfer_cutlass"),
        after=serve(FP8, *_T8),
        note=_NOTE,
    ),
    case("f297c92d262f5965"),
    case(
        "ffcb99e4d7ae0aae",
        before=serve(AWQ, *_T4, "--moe-runner-backend", "flashinfer_trtllm"),
        after=serve(AWQ, *_T4),
        note=_NOTE,
    ),
    case("ac8477e2e1a7f849"),
    case("df157331c084af05"),
    case("f967130270a4137d"),
    case("3e23fbc68b0e9d82"),
]
