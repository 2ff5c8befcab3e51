"""Cases for errors/sglang/srt/configs/model_config.yaml."""

from harness import case
from serve import serve

_AWQ = {"quant_method": "awq", "bits": 4, "group_size": 128, "zero_point": True, "version": "gemm"}
# Qwen2.5-32B-Instruct-AWQ: the Qwen2.5-32B-Instruct fixture with the AWQ checkpoint's
# quantization_config.
QWEN25_32B_AWQ = (
    f"verify_fixtures.hub_model('Qwen/Qwen2.5-32B-Instruct', quantization_config={_AWQ!r})"
)
HQQ = (
    "verify_fixtures.model_dir('LlamaForCausalLM', quantization_config="
    "{'quant_method': 'hqq', 'quant_config':"
    " {'weight_quant_params': {'nbits': 4, 'group_size': 64}}})"
)
LLAMA_AWQ = f"verify_fixtures.model_dir('LlamaForCausalLM', quantization_config={_AWQ!r})"
_ENGINE = (
    "import verify_fixtures\n"
    "from sglang.srt.server_args import ServerArgs\n"
    "def engine_args(**kw):\n"
    "    sa = ServerArgs(model_path=verify_fixtures.hub_model('Qwen/Qwen3-8B'), **kw)\n"
    "    sa.resolve_once()\n"
    "    sa.check_server_args()\n"
)

CASES = [
    case("079d630315be4052"),
    case(
        "ea9d1b7a221f03f6",
        before=serve(QWEN25_32B_AWQ, "--quantization", "fp8"),
        after=serve(QWEN25_32B_AWQ),
        note="the example's launch; the AWQ hub model is the Qwen2.5-32B-Instruct fixture with"
        " an AWQ quantization_config (bits 4, group 128, as the checkpoint declares)",
    ),
    case(
        "54eec189a6271e63",
        before=serve(HQQ),
        after=serve(LLAMA_AWQ),
        note="the example's launches with Llama fixtures whose config.json declares the"
        " checkpoint's quant_method (hqq, as transformers' HqqConfig writes it; awq)",
    ),
    case(
        "64ee45f325c0b19e",
        setup=_ENGINE,
        before='engine_args(dtype="bf16")\n',
        after='engine_args(dtype="bfloat16")\n',
        note="the example's sgl.Engine keyword arguments, run through what Engine does with"
        " them before it starts any process (ServerArgs, resolve_once, check_server_args)",
    ),
]
