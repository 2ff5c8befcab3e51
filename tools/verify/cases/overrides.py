"""Cases for errors/sglang/srt/arg_groups/overrides.yaml."""

from harness import case
from serve import QWEN3_NEXT, arch_model, serve

GEMMA4 = arch_model("Gemma4ForConditionalGeneration", "gemma4")

# DeepSeek-V3.2-Exp: the DeepSeek-V3 fixture with index_topk, which is what makes sglang treat
# a DeepSeek-V3-family config as a DSA model (is_deepseek_dsa).
DSA = (
    "verify_fixtures.model_dir('DeepseekV3ForCausalLM', index_topk=2048, index_head_dim=128,"
    " index_n_heads=64)"
)
DSA_NOTE = "the example's launch; DeepSeek-V3.2-Exp is a config-only DSA fixture (index_topk set)"

_QN = ("--tp-size", "4", "--chunked-prefill-size", "4800")

CASES = [
    case(
        "cb3a846b214dd429",
        before=serve(DSA, "--tp-size", "8", "--kv-cache-dtype", "fp8_e5m2"),
        after=serve(DSA, "--tp-size", "8", "--kv-cache-dtype", "fp8_e4m3"),
        note=DSA_NOTE,
    ),
    case(
        "16c0f1bb5923e92a",
        gpu="B200",
        before=serve(GEMMA4, "--enable-deterministic-inference"),
        after=serve(GEMMA4, "--enable-deterministic-inference", "--attention-backend", "triton"),
        note="the example's launch on a fake B200 (its premise) with a config-only"
        " Gemma4ForConditionalGeneration fixture for the hub name",
    ),
    case(
        "bfd7c504c04746b4",
        gpu="B200",
        note=(
            "TRTLLM MLA needs Blackwell before the KV-dtype check is reached; the check "
            "verified (the KV dtype) does not read the device"
        ),
    ),
    case("08f9bebedd35cb6a"),
    case(
        "8c7f238386c357cd",
        before=serve(QWEN3_NEXT, *_QN, "--page-size", "48", "--mamba-track-interval", "96"),
        after=serve(QWEN3_NEXT, *_QN, "--page-size", "64", "--mamba-track-interval", "128"),
        note="the example's launch with a config-only Qwen3-Next fixture for the hub name",
    ),
]
