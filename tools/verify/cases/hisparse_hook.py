"""Cases for errors/sglang/srt/arg_groups/hisparse_hook.yaml."""

from harness import case
from serve import serve

# DeepSeek-V3.2-Exp: the DeepSeek-V3 fixture with index_topk, which is what makes sglang treat
# a DeepSeek-V3-family config as a DSA model (is_deepseek_dsa).
DSA = (
    "verify_fixtures.model_dir('DeepseekV3ForCausalLM', index_topk=2048, index_head_dim=128,"
    " index_n_heads=64)"
)
DSA_NOTE = "the example's launch; DeepSeek-V3.2-Exp is a config-only DSA fixture (index_topk set)"

CASES = [
    case("33d1d2ebd024504c"),
    case(
        "f670ee4a3d3441b5",
        before=serve(DSA, "--tp-size", "8", "--enable-hisparse"),
        after=serve(DSA, "--tp-size", "8", "--enable-hisparse", "--disable-radix-cache"),
        note=DSA_NOTE,
    ),
]
