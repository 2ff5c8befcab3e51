"""Cases for errors/sglang/srt/arg_groups/deepseek_v4_hook.yaml."""

from harness import case
from serve import serve

# DeepSeek-V4 has no hub fixture: its config.json is the DeepSeek-V3 base with the V4
# architecture and model_type (sglang's deepseek_v4 config alias reads it). The checks read
# only the architecture and the speculative flags.
V4 = (
    "verify_fixtures.model_dir('DeepseekV4ForCausalLM',"
    " **{**verify_fixtures.ARCHS['DeepseekV3ForCausalLM'], 'model_type': 'deepseek_v4',"
    " 'sliding_window': 128, 'compress_ratios': [0] * 61, 'head_dim': 512,"
    " 'index_head_dim': 128, 'index_n_heads': 64, 'index_topk': 512})"
)
_NOTE = "the example's launch with a config-only DeepseekV4ForCausalLM fixture for the hub name"
_EAGLE = ("--speculative-algorithm", "EAGLE", "--speculative-num-steps", "3")

CASES = [
    case(
        "c346d6e4239622c6",
        before=serve(V4, "--tp-size", "8", "--speculative-algorithm", "NGRAM"),
        after=serve(
            V4,
            "--tp-size",
            "8",
            *_EAGLE,
            "--speculative-eagle-topk",
            "1",
            "--speculative-num-draft-tokens",
            "4",
        ),
        note=_NOTE,
    ),
    case(
        "404f63598980dcf0",
        before=serve(
            V4,
            "--tp-size",
            "8",
            *_EAGLE,
            "--speculative-eagle-topk",
            "2",
            "--speculative-num-draft-tokens",
            "6",
        ),
        after=serve(
            V4,
            "--tp-size",
            "8",
            *_EAGLE,
            "--speculative-eagle-topk",
            "1",
            "--speculative-num-draft-tokens",
            "4",
        ),
        note=_NOTE,
    ),
]
