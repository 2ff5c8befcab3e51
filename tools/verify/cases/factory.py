"""Cases for errors/sglang/srt/layers/rotary_embedding/factory.yaml."""

from harness import case

_LAUNCH_ROPE = (
    "import verify_fixtures\n"
    "from sglang.srt.configs.model_config import ModelConfig\n"
    "from sglang.srt.layers.rotary_embedding.factory import get_rope\n"
    "import shlex\n"
    "def rope(override):\n"
    "    flags = MODEL + shlex.quote(override)\n"
    "    config = ModelConfig.from_server_args(verify_fixtures.launched_args(flags))\n"
    "    hf = config.hf_text_config\n"
    "    # what the model's attention passes to get_rope\n"
    "    get_rope(config.head_dim, config.head_dim, hf.max_position_embeddings,\n"
    "             hf.rope_theta if hasattr(hf, 'rope_theta') else 1e6,\n"
    "             rope_scaling=hf.rope_scaling)\n"
    "MODEL = '--model-path Qwen/Qwen2.5-7B-Instruct --json-model-override-args '\n"
)

CASES = [
    case(
        "ff1e6fcc433bc8ed",
        setup=_LAUNCH_ROPE,
        before=(
            'rope(\'{"rope_scaling": {"rope_type": "YaRN", "factor": 4.0,'
            ' "original_max_position_embeddings": 32768}}\')\n'
        ),
        after=(
            'rope(\'{"rope_scaling": {"rope_type": "yarn", "factor": 4.0,'
            ' "original_max_position_embeddings": 32768}}\')\n'
        ),
        note="the example's flags resolved, the model config loaded (transformers keeps the"
        " rope_type string as given), then get_rope with the config's rope_scaling as the"
        " Qwen2 attention layer calls it",
    ),
    case(
        "7a45cf8c2d440bb9",
        setup="from sglang.srt.layers.rotary_embedding.factory import get_rope\n",
        before=(
            "get_rope(128, 128, 131072, 1000000,\n"
            "         rope_scaling={'factor': 4.0, 'original_max_position_embeddings': 32768})\n"
        ),
        after=(
            "get_rope(128, 128, 131072, 1000000, rope_scaling={'rope_type': 'yarn',"
            " 'factor': 4.0, 'original_max_position_embeddings': 32768})\n"
        ),
        note="the example's get_rope call; through a model config the dict never lacks the"
        " key (transformers fills rope_type 'default'), so the case calls get_rope directly",
    ),
]
