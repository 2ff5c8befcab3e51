"""Cases for errors/sglang/srt/arg_groups/parallel_hook.yaml."""

from harness import case
from serve import serve

# DeepSeek-V3.2-Exp: the DeepSeek-V3 fixture with index_topk, which is what makes sglang treat
# a DeepSeek-V3-family config as a DSA model (is_deepseek_dsa).
DSA = (
    "verify_fixtures.model_dir('DeepseekV3ForCausalLM', index_topk=2048, index_head_dim=128,"
    " index_n_heads=64)"
)
DSA_NOTE = "the example's launch; DeepSeek-V3.2-Exp is a config-only DSA fixture (index_topk set)"

_TP8 = ("--tp-size", "8")
_CP = ("--enable-prefill-cp", "--cp-strategy", "interleave")

CASES = [
    case("e97312870e418ffa"),
    case(
        "dfefb847f7421b4f",
        before=serve(DSA, *_TP8, "--attn-cp-size", "3", *_CP),
        after=serve(DSA, *_TP8, "--attn-cp-size", "4", *_CP),
        note=DSA_NOTE,
    ),
    case(
        "4256209539ef831e",
        before=serve(DSA, *_TP8, "--attn-dp-size", "4", "--attn-cp-size", "4", *_CP),
        after=serve(DSA, *_TP8, "--attn-dp-size", "2", "--attn-cp-size", "4", *_CP),
        note=DSA_NOTE,
    ),
    case("371b79026b6185ae"),
    case("48464313e1938512"),
]
