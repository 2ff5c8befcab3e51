"""Quantization config checks that run on CPU: the quantization classes' from_config with the
checkpoint's quantization_config dict (no weights, no GPU)."""

from harness import case

CASES = [
    case("726a89f9385aca24"),  # AWQConfig: 8-bit weights
    case("54074db16d1959a4"),  # Fp8Config: unknown activation scheme
    case("9cace74519be1810"),  # Fp8Config: block-wise on a non-serialized checkpoint
    case("0b905d10c3e277d8"),  # Fp8Config: block-wise with static activations
    case("8320364986a76e9b"),  # GPTQMarlinConfig: asymmetric weights
    case("79c4364253f0a494"),  # ModelOptFp4Config: unsupported quant_algo
    case("0fdbf1e446de3c87"),  # get_from_keys: a field the method reads is missing
    case(
        "d0eda6f4f91b6b00",
        setup=(
            "from sglang.srt.layers.quantization.compressed_tensors.utils import"
            " should_ignore_layer\n"
            'QKV = {"qkv_proj": ["q_proj", "k_proj", "v_proj"]}\n'
        ),
        before=(
            'should_ignore_layer("model.layers.0.self_attn.qkv_proj",'
            ' ignore=["lm_head", "model.layers.0.self_attn.q_proj"], fused_mapping=QKV)\n'
        ),
        after=(
            'assert should_ignore_layer("model.layers.0.self_attn.qkv_proj", ignore=["lm_head",'
            ' "model.layers.0.self_attn.q_proj", "model.layers.0.self_attn.k_proj",'
            ' "model.layers.0.self_attn.v_proj"], fused_mapping=QKV)\n'
        ),
        note="the yaml example is the config's ignore list; the case passes that list to the"
        " function CompressedTensorsConfig.get_scheme calls for the fused qkv_proj layer",
    ),
    case(
        "4f0e24af2e0a703a",
        setup=(
            "import torch\n"
            "from sglang.srt.layers.quantization.compressed_tensors.utils import"
            " find_matched_target, should_ignore_layer\n"
            'TARGETS = ["re:.*self_attn.*", "re:.*mlp.*"]\n'
            'NAME = "model.visual.blocks.0.attn.qkv"\n'
        ),
        before=(
            'if not should_ignore_layer(NAME, ignore=["lm_head"]):\n'
            "    find_matched_target(NAME, torch.nn.Linear(2, 2), TARGETS)\n"
        ),
        after=(
            'if not should_ignore_layer(NAME, ignore=["lm_head", "re:.*visual.*"]):\n'
            "    find_matched_target(NAME, torch.nn.Linear(2, 2), TARGETS)\n"
        ),
        note="CompressedTensorsConfig.get_scheme's two steps (ignore list, then target lookup)"
        " with the example's quantization_config, for a vision layer",
    ),
]
