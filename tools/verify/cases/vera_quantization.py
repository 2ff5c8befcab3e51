"""Cases for errors/sglang/srt/layers/quantization/ (awq, blockwise_int8, compressed_tensors,
fp8_utils, modelopt_quant, mxfp4, utils): the quantization config the model loader makes for
TP rank 0 of the example's launch, and the layer or MoE method that holds the check, built on
the meta device (fixtures_vera.quant_layer, fixtures_vera.rank0_moe)."""

from harness import case

_LAYER = "from fixtures_vera import quant_layer\n"

_AWQ = (
    _LAYER
    + "import sglang.srt.layers.quantization.awq.awq as awq\n"
    + "awq._is_cuda = True  # computed at the CPU-only import; True on a CUDA host\n"
    + "AWQ = {'bits': 4, 'group_size': 128, 'quant_method': 'awq', 'version': 'gemm',"
    " 'zero_point': True}\n"
    + "def proj(flags):\n"
    + "    quant_layer(AWQ, flags, 'ColumnParallelLinear', 2048, 1000,"
    " prefix='model.layers.0.mlp.proj')\n"
)

_INT8 = (
    _LAYER + "INT8 = {'quant_method': 'blockwise_int8', 'activation_scheme': 'dynamic',"
    " 'weight_block_size': [128, 128]}\n"
    + "def gate_up(flags):  # DeepSeek-R1's dense MLP (first_k_dense_replace layers)\n"
    + "    quant_layer(INT8, flags, 'MergedColumnParallelLinear', 7168, [18432, 18432],"
    " prefix='model.layers.0.mlp.gate_up_proj', arch='DeepseekV3ForCausalLM')\n"
)

_CT_BLOCK = (
    _LAYER
    + "W = {'num_bits': 8, 'type': 'float', 'strategy': 'block', 'block_structure': [128, 128],"
    " 'symmetric': True, 'dynamic': False}\n"
    + "A = {'num_bits': 8, 'type': 'float', 'strategy': 'group', 'group_size': 128,"
    " 'symmetric': True, 'dynamic': True}\n"
    + "def ct(ignore):\n"
    + "    return {'quant_method': 'compressed-tensors', 'format': 'float-quantized',"
    " 'ignore': ['lm_head', *ignore], 'config_groups': {'group_0': {'targets': ['Linear'],"
    " 'weights': W, 'input_activations': A}}}\n"
    + "Q72 = dict(arch='Qwen2ForCausalLM', hidden_size=8192, intermediate_size=29568,"
    " num_attention_heads=64, num_key_value_heads=8, num_hidden_layers=80)\n"
    + "def mlp(flags, ignore=()):  # Qwen2.5-72B's MLP, built in the model's order\n"
    + "    quant_layer(ct(ignore), flags, 'MergedColumnParallelLinear', 8192, [29568, 29568],"
    " prefix='model.layers.0.mlp.gate_up_proj', **Q72)\n"
    + "    quant_layer(ct(ignore), flags, 'RowParallelLinear', 29568, 8192,"
    " prefix='model.layers.0.mlp.down_proj', **Q72)\n"
)

_CT = (
    "import fixtures_vera\n"
    "from sglang.srt.layers.quantization.compressed_tensors.compressed_tensors import"
    " CompressedTensorsConfig\n"
    "from sglang.srt.layers.moe.fused_moe_triton.layer import FusedMoE\n"
    "fixtures_vera.rank0_moe('--model-path Qwen/Qwen3-30B-A3B')\n"
    "def ct(groups, ignore=(), fmt='int-quantized'):\n"
    "    return CompressedTensorsConfig.from_config({'quant_method': 'compressed-tensors',"
    " 'format': fmt, 'config_groups': groups, 'ignore': ['lm_head', 're:.*mlp.gate$', *ignore]})\n"
    "def experts(config):  # the scheme lookup FusedMoE's quant method makes for layer 0\n"
    "    return config.get_moe_scheme(FusedMoE.__new__(FusedMoE), 'model.layers.0.mlp.experts')\n"
)

_FP8_DISPATCH = (
    "import os, verify_fixtures\n"
    "from sglang.srt.layers.deep_gemm_wrapper import configurer\n"
    "import sglang.srt.layers.deep_gemm_wrapper as deep_gemm_wrapper\n"
    "from sglang.srt.layers.quantization import fp8_utils\n"
    "configurer._is_cuda = True  # computed at the CPU-only import; True on a CUDA host\n"
    "def dispatch(flags, env):\n"
    "    os.environ.update(env)\n"
    "    deep_gemm_wrapper.ENABLE_JIT_DEEPGEMM = configurer._compute_enable_deep_gemm()\n"
    "    verify_fixtures.published_rank0(flags)\n"
    "    fp8_utils.initialize_fp8_gemm_config()\n"
    "    fp8_utils.dispatch_w8a8_block_fp8_linear(weight_block_size=[128, 128])\n"
)

_MODELOPT = (
    "import verify_fixtures, fixtures_vera\n"
    "from sglang.srt.layers.quantization.modelopt_quant import ModelOptNvFp4FusedMoEMethod\n"
    "FP4 = {'quant_method': 'modelopt', 'quant_algo': 'NVFP4', 'group_size': 16,"
    " 'kv_cache_quant_algo': None, 'exclude_modules': ['lm_head']}\n"
    "M = verify_fixtures.model_dir('DeepseekV3ForCausalLM', quantization_config=FP4)\n"
    "def experts(flags):\n"
    "    flags = f'--model-path {M} {flags}'\n"
    "    fixtures_vera.rank0_moe(flags)\n"
    "    ModelOptNvFp4FusedMoEMethod(verify_fixtures.rank0_quant_config(flags))\n"
)

_MXFP4 = (
    "import fixtures_vera\n"
    "fixtures_vera.register_cuda_quantization()\n"
    "from sglang.srt.layers.quantization.mxfp4 import Mxfp4MoEMethod\n"
    "M = fixtures_vera.gpt_oss_20b()\n"
    "def experts(flags):\n"
    "    fixtures_vera.rank0_moe(f'--model-path {M} {flags}')\n"
    "    Mxfp4MoEMethod('model.layers.0.mlp.experts')\n"
)

CASES = [
    case(
        "e1d2dd59b356f4b6",
        setup=_AWQ,
        before="proj('--tp-size 2 --quantization awq')\n",
        after="proj('--tp-size 1 --quantization awq')\n",
        note="a column-parallel projection 1000 wide (500 per rank at --tp-size 2, not a"
        " multiple of AWQ's 8 values per int32) built for TP rank 0 with the AWQ config the"
        " loader makes for the example's flags",
    ),
    case(
        "353520da2e0ff962",
        setup=_INT8,
        before="gate_up('--tp-size 32 --nnodes 4 --node-rank 0')\n",
        after="gate_up('--tp-size 16 --nnodes 2 --node-rank 0')\n",
        note="the example's model as DeepSeek-R1's config with a block-INT8"
        " quantization_config; TP rank 0's gate_up_proj of a dense layer (intermediate_size"
        " 18432: 576 per rank at --tp-size 32, 1152 at 16) built with it",
    ),
    case(
        "e8993c5e02aab191",
        setup=_CT_BLOCK,
        before="mlp('--tp-size 4')\n",
        after="mlp('--pp-size 4')\n",
        note="the example's model as Qwen2.5-72B's config with a compressed-tensors FP8 block"
        " [128, 128] quantization_config; TP rank 0's MLP layers built with it (gate_up_proj"
        " first: 29568 / 4 = 7392 per rank)",
    ),
    case(
        "822ebe0254f92828",
        setup=_CT_BLOCK,
        before="mlp('--tp-size 4', ignore=['re:.*gate_proj', 're:.*up_proj'])\n",
        after="mlp('--pp-size 4', ignore=['re:.*gate_proj', 're:.*up_proj'])\n",
        note="as e8993c5e02aab191, with the example's ignore list (gate_proj and up_proj kept"
        " in BF16), so the first block-quantized layer split by TP is down_proj (input"
        " 29568 / 4 = 7392 per rank)",
    ),
    case(
        "4e11ba3a9eeb3084",
        setup=_LAYER
        + "W = {'num_bits': 8, 'type': 'int', 'strategy': 'channel', 'dynamic': False}\n"
        + "A = {'num_bits': 8, 'type': 'int', 'symmetric': True, 'strategy': 'token',"
        " 'dynamic': True}\n"
        + "def o_proj(weight_symmetric):\n"
        + "    groups = {'group_0': {'targets': ['Linear'],"
        " 'weights': {**W, 'symmetric': weight_symmetric}, 'input_activations': A}}\n"
        + "    quant_layer({'quant_method': 'compressed-tensors', 'format': 'int-quantized',"
        " 'ignore': ['lm_head'], 'config_groups': groups}, '', 'RowParallelLinear', 4096,"
        " 4096, prefix='model.layers.0.self_attn.o_proj')\n",
        before="o_proj(weight_symmetric=False)\n",
        after="o_proj(weight_symmetric=True)\n",
        note="the example's config_groups (weights and input_activations) as a Llama-8B"
        " compressed-tensors quantization_config; TP rank 0's o_proj built with it",
    ),
    case(
        "9c18875327f8df52",
        setup=_CT + "G4 = {'num_bits': 4, 'type': 'int', 'symmetric': True, 'strategy': 'group',"
        " 'group_size': 128, 'dynamic': False}\n"
        + "GROUPS = {'group_0': {'targets': ['Linear'], 'weights': G4}}\n",
        before="experts(ct(GROUPS, ignore=['re:.*down_proj'], fmt='pack-quantized'))\n",
        after="experts(ct(GROUPS, fmt='pack-quantized'))\n",
        note="the example's config_groups and ignore list as a compressed-tensors"
        " quantization_config; the MoE scheme lookup for layer 0's experts (a FusedMoE)",
    ),
    case(
        "d1704ca5cf504fe2",
        setup=_CT
        + "def groups(weights, acts):\n"
        + "    return {'group_0': {'targets': ['Linear'], 'weights': weights,"
        " 'input_activations': acts}}\n"
        + "INT8 = {'num_bits': 8, 'type': 'int', 'symmetric': True, 'strategy': 'tensor',"
        " 'dynamic': False}\n"
        + "FP8_W = {'num_bits': 8, 'type': 'float', 'symmetric': True, 'strategy': 'channel',"
        " 'dynamic': False}\n"
        + "FP8_A = {'num_bits': 8, 'type': 'float', 'symmetric': True, 'strategy': 'token',"
        " 'dynamic': True}\n",
        before="experts(ct(groups(INT8, INT8)))\n",
        after="experts(ct(groups(FP8_W, FP8_A), fmt='float-quantized'))\n",
        note="the example's config_groups as a compressed-tensors quantization_config; the"
        " MoE scheme lookup for layer 0's experts (a FusedMoE)",
    ),
    case(
        "93b663f62b6be882",
        setup=_FP8_DISPATCH,
        before=(
            "dispatch('--model-path deepseek-ai/DeepSeek-V3 --tp-size 8"
            " --fp8-gemm-backend deep_gemm', {'SGLANG_ENABLE_JIT_DEEPGEMM': '0'})\n"
        ),
        after="dispatch('--model-path deepseek-ai/DeepSeek-V3 --tp-size 8', {})\n",
        note="deep_gemm_wrapper.ENABLE_JIT_DEEPGEMM recomputed with the example's environment"
        " on the fake H100 (sglang computes it at import), then the flags resolved and"
        " published, initialize_fp8_gemm_config (scheduler init) and the dispatch of a"
        " [128, 128] block-FP8 linear layer; without the variable it is False here too,"
        " because deep_gemm is not installed",
    ),
    case(
        "2fc360c72866a6f3",
        setup=_MODELOPT,
        before="experts('--tp-size 8 --moe-runner-backend flashinfer_cutlass')\n",
        after="experts('--tp-size 8 --moe-runner-backend marlin')\n",
        gpu="H200",
        note="the example's model as DeepSeek-R1's config with a ModelOpt NVFP4"
        " quantization_config; flags published and the scheduler's initialize_moe_config,"
        " then the NVFP4 MoE method built with rank 0's quantization config; the fake H200"
        " (SM90) is the example's premise",
    ),
    case(
        "d2d16d73a0180e5b",
        setup=_MXFP4,
        before="experts('--moe-runner-backend flashinfer_mxfp4')\n",
        after="experts('')\n",
        gpu="A100",
        note="the example's model as gpt-oss-20b's config (MXFP4 experts); mxfp4 registered"
        " as sglang does at import on a CUDA host; flags published and the scheduler's"
        " initialize_moe_config, then the MXFP4 MoE method; the fake A100 (SM80) is the"
        " example's premise",
    ),
    case(
        "7b74f80290a25189",
        setup=_LAYER
        + "def qkv(ignored):\n"
        + "    fp8 = {'quant_method': 'fp8', 'activation_scheme': 'dynamic',"
        " 'ignored_layers': ignored}\n"
        + "    quant_layer(fp8, '', 'QKVParallelLinear', 4096, 128, 32, 8,"
        " prefix='model.layers.0.self_attn.qkv_proj')\n",
        before="qkv(['model.layers.0.self_attn.k_proj'])\n",
        after=(
            "qkv(['model.layers.0.self_attn.q_proj', 'model.layers.0.self_attn.k_proj',"
            " 'model.layers.0.self_attn.v_proj'])\n"
        ),
        note="the example's quantization_config in a Llama-8B config; TP rank 0's"
        " qkv_proj built with the FP8 config the loader makes",
    ),
]

_FP8_BLOCK = (
    "{'quant_method': 'fp8', 'activation_scheme': 'dynamic', 'weight_block_size': [128, 128]}"
)

_FP8_MOE = (
    "import types, torch, verify_fixtures, fixtures_vera\n"
    "from sglang.srt.runtime_context import get_parallel\n"
    "from sglang.srt.layers.quantization.fp8 import Fp8MoEMethod\n"
    f"M = verify_fixtures.hub_model('Qwen/Qwen3-235B-A22B', quantization_config={_FP8_BLOCK})\n"
    "def experts(flags):\n"
    "    flags = f'--model-path {M} {flags}'\n"
    "    fixtures_vera.rank0_moe(flags)\n"
    "    method = Fp8MoEMethod(verify_fixtures.rank0_quant_config(flags))\n"
    "    moe_tp, moe_ep = get_parallel().moe_tp_size, get_parallel().moe_ep_size\n"
    "    layer = torch.nn.Module()  # what FusedMoE.__init__ sets before create_weights\n"
    "    layer.moe_tp_size = moe_tp\n"
    "    layer.moe_runner_config = types.SimpleNamespace(is_gated=True)\n"
    "    with torch.device('meta'):  # 128 experts, moe_intermediate_size 1536\n"
    "        method.create_weights(layer, 128 // moe_ep, 4096, 1536 // moe_tp,"
    " torch.bfloat16, weight_loader=None)\n"
)

CASES += [
    case(
        "07dea27bef993778",
        setup=_LAYER
        + f"FP8 = {_FP8_BLOCK}\n"
        + "def gate_up(flags):  # DeepSeek-R1's dense MLP (first_k_dense_replace layers)\n"
        + "    quant_layer(FP8, flags, 'MergedColumnParallelLinear', 7168, [18432, 18432],"
        " prefix='model.layers.0.mlp.gate_up_proj', arch='DeepseekV3ForCausalLM')\n",
        before=(
            "gate_up('--tp-size 32 --nnodes 4 --node-rank 0 --dist-init-addr 10.0.0.1:5000"
            " --trust-remote-code')\n"
        ),
        after=(
            "gate_up('--tp-size 16 --nnodes 2 --node-rank 0 --dist-init-addr 10.0.0.1:5000"
            " --trust-remote-code')\n"
        ),
        note="the example's model as DeepSeek-R1's config (block-FP8 [128, 128]); TP rank 0's"
        " gate_up_proj of a dense layer (intermediate_size 18432) built with the quantization"
        " config the loader makes for the example's flags",
    ),
    case(
        "f4bff9cccaec7646",
        setup=_FP8_MOE,
        before="experts('--tp-size 8')\n",
        after="experts('--tp-size 8 --ep-size 8')\n",
        note="the example's model as Qwen3-235B-A22B's config with a block-FP8 [128, 128]"
        " quantization_config; flags published and the scheduler's initialize_moe_config;"
        " the FP8 MoE method creates rank 0's expert weights on the meta device with the"
        " MoE TP/EP sizes the published parallel state gives (FusedMoE divides"
        " moe_intermediate_size by the MoE TP size)",
    ),
]
