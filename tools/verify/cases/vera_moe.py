"""Cases for errors/sglang/srt/layers/moe/: MoE method and runner checks, with the flags
published for rank 0 and the scheduler's initialize_moe_config (fixtures_vera.rank0_moe)."""

from harness import case

_MEGA = (
    "import torch, fixtures_vera, verify_fixtures\n"
    "verify_fixtures.stub_sgl_kernel()  # mega_moe imports modules that import it\n"
    "fixtures_vera.register_cuda_quantization()\n"
    "from sglang.srt.layers.quantization.mxfp4 import Mxfp4MoEMethod\n"
    "from sglang.srt.layers.moe.mega_moe import _mega_moe_mma_type, check_mega_moe_shapes\n"
    "from sglang.srt.runtime_context import get_exec\n"
    "M = fixtures_vera.gpt_oss_20b()\n"
    "def experts(flags):\n"
    "    fixtures_vera.rank0_moe(f'--model-path {M} {flags}')\n"
    "    method = Mxfp4MoEMethod('model.layers.0.mlp.experts')\n"
    "    layer = torch.nn.Module()  # the attributes FusedMoE.__init__ sets for MegaMoE\n"
    "    layer.num_local_experts = 4  # 32 experts over --ep-size 8\n"
    "    layer._mega_moe_nvfp4 = False\n"
    "    layer._mega_moe_w4a4 = get_exec().moe.enable_w4a4_mxfp4_megamoe\n"
    "    with torch.device('meta'):\n"
    "        method.create_weights(layer, 4, 2880, 2880, torch.bfloat16)\n"
    "    if method.use_mega_moe:  # process_weights_after_loading, after `import deep_gemm`\n"
    "        check_mega_moe_shapes(hidden=layer.w13_weight.shape[2] * 2,"
    " intermediate=layer.w13_weight.shape[1] // 2, mma_type=_mega_moe_mma_type(layer))\n"
)

CASES = [
    case(
        "ed8aac0f0e809f8d",
        setup=_MEGA,
        before="experts('--tp-size 8 --ep-size 8 --moe-a2a-backend megamoe')\n",
        after="experts('--tp-size 8 --ep-size 8')\n",
        gpu="B200",
        expect=r"\(fp8xfp4\).*hidden_size=2880, moe_intermediate_size=2880",
        note="the example's model as gpt-oss-20b's config (hidden and expert intermediate"
        " size 2880, as gpt-oss-120b); the MXFP4 MoE method built for rank 0 (4 of 32"
        " experts at --ep-size 8) creates its weights on the meta device, then the shape"
        " check its process_weights_after_loading makes for MegaMoE is called with those"
        " weights (the real call site imports deep_gemm first, which is not installed)",
    ),
]

_TRITON_MOE = (
    "import os, torch, fixtures_vera\n"
    "from sglang.srt.layers.moe.moe_runner.triton_utils import fused_moe\n"
    "fixtures_vera.tp_rank0(1)  # server args published, as in a scheduler process\n"
    "from sglang.srt.layers.moe.utils import get_moe_padding_size\n"
    "def experts(env):\n"
    "    os.environ.update(env)\n"
    "    fused_moe.padding_size = get_moe_padding_size(False)  # as at import, with env\n"
    "    with torch.device('meta'):  # 8 per-tensor FP8 experts, hidden 4096, 4 tokens\n"
    "        x = torch.empty(4, 4096, dtype=torch.bfloat16)\n"
    "        w1 = torch.empty(8, 2 * 1792, 4096, dtype=torch.float8_e4m3fn)\n"
    "        w2 = torch.empty(8, 4096, 1792, dtype=torch.float8_e4m3fn)\n"
    "        weights, ids = torch.empty(4, 2), torch.empty(4, 2, dtype=torch.int32)\n"
    "    try:\n"
    "        fused_moe.fused_experts_impl(x, w1, w2, weights, ids, use_fp8_w8a8=True)\n"
    "    except AssertionError:\n"
    "        raise  # the argument checks\n"
    "    except Exception as e:  # the CUDA kernels (sgl_kernel) are not installed here\n"
    "        print('past the checks; the kernels cannot run here:', repr(e))\n"
)

CASES.append(
    case(
        "da7e57ac25294814",
        setup=_TRITON_MOE,
        before="experts({'SGLANG_MOE_PADDING': '1'})\n",
        after="experts({})\n",
        note="the Triton fused-MoE entry point called with the weights an NVIDIA GPU keeps"
        " for a per-tensor FP8 MoE checkpoint (unpadded: only the ROCm weight processing"
        " pads them), meta tensors; the module's padding size recomputed with the example's"
        " environment as at import; past the checks the after half stops where the kernel"
        " would run",
    )
)

_DISPATCHER = (
    "import types, torch, fixtures_vera, verify_fixtures\n"
    "verify_fixtures.stub_sgl_kernel()  # the MoE layer module imports it\n"
    "from sglang.srt.layers.moe.fused_moe_triton.layer import create_moe_dispatcher\n"
    "from sglang.srt.layers.moe.moe_runner import MoeRunnerConfig\n"
    "from sglang.srt.runtime_context import get_parallel\n"
    "def dispatcher(flags):\n"
    "    fixtures_vera.rank0_moe(flags)\n"
    "    config = MoeRunnerConfig(num_experts=256, num_local_experts=32, hidden_size=7168,"
    " top_k=8, num_fused_shared_experts=0, params_dtype=torch.bfloat16)\n"
    "    group = types.SimpleNamespace(device_group=None)  # no process groups on CPU\n"
    "    with get_parallel().override(tp_group=group):\n"
    "        return create_moe_dispatcher(config, None)\n"
)
_DISPATCHER_NOTE = (
    "the example's flags published for rank 0 with the scheduler's initialize_moe_config,"
    " then the dispatcher a DeepSeek MoE layer creates (create_moe_dispatcher, layer 3:"
    " 256 experts, 32 per rank); the TP process group is a stand-in (not read before the"
    " check); deep_ep and flashinfer are not installed here"
)

CASES += [
    case(
        "44c7e9744c85db46",
        setup=_DISPATCHER,
        before=(
            "dispatcher('--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --ep-size 8"
            " --enable-dp-attention --dp-size 8 --moe-a2a-backend deepep')\n"
        ),
        after=(
            "dispatcher('--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --ep-size 8"
            " --enable-dp-attention --dp-size 8')\n"
        ),
        note=_DISPATCHER_NOTE,
    ),
    case(
        "b22f86176d79e623",
        setup=_DISPATCHER,
        before=(
            "dispatcher('--model-path deepseek-ai/DeepSeek-R1 --tp-size 8 --ep-size 8"
            " --enable-dp-attention --dp-size 8 --moe-a2a-backend flashinfer"
            " --moe-runner-backend flashinfer_trtllm')\n"
        ),
        after=(
            "dispatcher('--model-path deepseek-ai/DeepSeek-R1 --tp-size 8 --ep-size 8"
            " --enable-dp-attention --dp-size 8 --moe-runner-backend flashinfer_trtllm')\n"
        ),
        gpu="B200",
        note=_DISPATCHER_NOTE,
    ),
]
