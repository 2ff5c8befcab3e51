"""Cases for errors/sglang/srt/model_executor/model_runner_components/moe_ep_setup.yaml.

check_quantized_moe_compatibility runs in ModelRunner.__init__ after the weights load, with
the model config and the parallel sizes. The cases run the example's launch through the
server-argument pipeline (so an earlier check would stop it first), then call the check with
the ModelConfig and the sizes the ModelRunner would pass (tp_size, ep_size, moe_dp_size).
"""

from harness import case

_SETUP = (
    "import verify_fixtures\n"
    "from sglang.srt.configs.model_config import ModelConfig\n"
    "from sglang.srt.model_executor.model_runner_components.moe_ep_setup import"
    " check_quantized_moe_compatibility\n"
    "from sglang.srt.server_args import prepare_server_args\n"
    "FP8 = {'quant_method': 'fp8', 'fmt': 'e4m3', 'activation_scheme': 'dynamic',"
    " 'weight_block_size': [128, 128]}\n"
    "def runner_check(model, *flags):\n"
    "    sa = prepare_server_args(['--model-path', model, *flags])\n"
    "    sa.resolve_once()\n"
    "    sa.check_server_args()\n"
    "    check_quantized_moe_compatibility(model_config=ModelConfig.from_server_args(sa),"
    " tp_size=sa.tp_size, moe_ep_size=sa.ep_size, moe_dp_size=sa.moe_dp_size)\n"
)
_NOTE = (
    "the example's launch (server-argument pipeline), then the ModelRunner's call of the"
    " check with that ModelConfig and the parallel sizes; the hub model is its fixture with"
    " the checkpoint's block-FP8 quantization_config ([128, 128] blocks)"
)
_R1 = "verify_fixtures.hub_model('deepseek-ai/DeepSeek-R1', quantization_config=FP8)"
_V3 = "verify_fixtures.hub_model('deepseek-ai/DeepSeek-V3', quantization_config=FP8)"
_Q30 = (
    "verify_fixtures.hub_model('Qwen/Qwen3-30B-A3B', quantization_config=FP8,"
    " moe_intermediate_size=768)"
)

CASES = [
    case(
        "ffd7e709885dbb72",
        setup=_SETUP,
        before=f"runner_check({_R1}, '--tp-size', '8', '--ep-size', '16')\n",
        after=f"runner_check({_R1}, '--tp-size', '8', '--ep-size', '8')\n",
        note=_NOTE,
    ),
    case(
        "121e260e2fd88167",
        setup=_SETUP,
        before=f"runner_check({_V3}, '--tp-size', '12', '--nnodes', '2')\n",
        after=f"runner_check({_V3}, '--tp-size', '16', '--nnodes', '2')\n",
        note=_NOTE,
    ),
    case(
        "7fe03debdeb47535",
        setup=_SETUP,
        before=f"runner_check({_Q30}, '--tp-size', '8')\n",
        after=f"runner_check({_Q30}, '--tp-size', '8', '--ep-size', '8')\n",
        note=_NOTE + "; Qwen3-30B-A3B-Instruct-2507-FP8 is the Qwen3-30B-A3B fixture"
        " (moe_intermediate_size 768)",
    ),
]
