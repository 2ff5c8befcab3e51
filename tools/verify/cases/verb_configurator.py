"""Cases for the KV pool sizing entries (errors/sglang/srt/mem_cache/kv_cache_configurator.yaml,
model_executor/pool_configurator.yaml): the example's flags resolved and published for rank 0,
then the sizing method that holds the check, on a configurator built without the loaded model
(fixtures_verb.kv_configurator / swa_pool_sizes) with the model figures it reads."""

from harness import case
from serve import QWEN3_NEXT

_SETUP = "import fixtures_verb as fv\nfrom types import SimpleNamespace\n"

_PROFILE = (
    _SETUP + "import sglang.srt.mem_cache.kv_cache_configurator as kvc\n"
    "# Llama-3.1-70B in BF16 over 2 GPUs: 141 GB of weights, 65.7 GiB a GPU. The free memory\n"
    "# of an 80 GiB H100 is 79.2 GiB before loading and 13.5 GiB after.\n"
    "kvc.get_available_gpu_memory = lambda *args, **kwargs: 13.5\n"
    "def profile(flags):\n"
    "    c = fv.kv_configurator('--model-path meta-llama/Llama-3.1-70B-Instruct ' + flags,\n"
    "        device='cuda', gpu_id=0, mambaish_config=None, post_capture_kv_active=False,\n"
    "        model_config=SimpleNamespace(is_multimodal=False))\n"
    "    # no process group here; the group is only handed to the memory query above\n"
    "    with kvc.get_parallel().override(world_group=SimpleNamespace(cpu_group=None)):\n"
    "        return c._profile_available_bytes(pre_model_load_memory=79.2)\n"
)

_MAMBA = (
    _SETUP + f"import verify_fixtures\nM = {QWEN3_NEXT}\n"
    "def max_reqs(flags):\n"
    "    c = fv.kv_configurator(f'--model-path {M} ' + flags, attn_dp_size=1,\n"
    "        mambaish_config=object(), model_config=SimpleNamespace(context_len=262144))\n"
    "    return c.resolve_max_num_reqs(token_capacity=1_000_000)\n"
)

CASES = [
    case(
        "9c2746a78dcbe322",
        setup=_PROFILE,
        before="profile('--tp-size 2 --mem-fraction-static 0.8')\n",
        after="profile('--tp-size 2 --mem-fraction-static 0.88')\n",
        note="KVCacheConfigurator._profile_available_bytes with the example's"
        " --mem-fraction-static; the free-GPU-memory query answers 13.5 GiB after loading"
        " (79.2 GiB before), the figures of Llama-3.1-70B's 65.7 GiB of weights a GPU at TP 2;"
        " the WORLD group, which only that query reads, is a stand-in",
    ),
    case(
        "b1e6ddb93518db5d",
        setup=_MAMBA,
        before="max_reqs('--tp-size 4 --max-mamba-cache-size 2')\n",
        after="max_reqs('--tp-size 4 --max-mamba-cache-size 256')\n",
        note="KVCacheConfigurator.resolve_max_num_reqs with the Qwen3-Next fixture's resolved"
        " Mamba settings (radix cache on: 3 state slots a request, more with the extra buffer)",
    ),
    case(
        "e8545cce7f1dadca",
        setup=_SETUP + "def sizes(flags):\n"
        "    return fv.swa_pool_sizes('--model-path google/gemma-3-27b-it ' + flags,\n"
        "        sliding_window=1024, full_layers=10, swa_layers=52)\n",
        before="sizes('--swa-full-tokens-ratio 0.05 --max-total-tokens 20000')\n",
        after="sizes('--swa-full-tokens-ratio 0.8 --max-total-tokens 20000')\n",
        note="HybridSWAPoolConfigurator.calculate_pool_sizes_from_max_tokens with the resolved"
        " ratio and page size; Gemma 3 27B's 1024-token window and 10 full / 52 sliding layers",
    ),
]

_MAMBA_PROFILE = (
    _SETUP + "import verify_fixtures\n"
    "import sglang.srt.mem_cache.kv_cache_configurator as kvc\n"
    f"M = {QWEN3_NEXT}\n"
    "# Qwen3-Next-80B in BF16: 159 GB of weights, 74.2 GiB a GPU at TP 2, 37.1 GiB at TP 4;\n"
    "# an 80 GiB H100 has 79.2 GiB free before loading. 36 linear-attention layers whose\n"
    "# state takes 20 MiB a request (a chosen figure).\n"
    "def profile(flags, weights_gib):\n"
    "    kvc.get_available_gpu_memory = lambda *args, **kwargs: 79.2 - weights_gib\n"
    "    mamba = SimpleNamespace(mamba2_cache_params=SimpleNamespace(\n"
    "        layers=list(range(36)), mamba_cache_per_req=20 << 20))\n"
    "    c = fv.kv_configurator(f'--model-path {M} ' + flags, device='cuda', gpu_id=0,\n"
    "        mambaish_config=mamba, post_capture_kv_active=False, pp_size=1, attn_dp_size=1,\n"
    "        model_config=SimpleNamespace(is_multimodal=False, num_hidden_layers=48),\n"
    "        spec_algorithm=SimpleNamespace(is_none=lambda: True),\n"
    "        hybrid_gdn_config=object(), hybrid_kda_config=None,\n"
    "        extra_mamba_cache_bytes_per_req=0, spec_aux_config=None, is_hybrid_swa=False,\n"
    "        is_draft_worker=False)\n"
    "    with kvc.get_parallel().override(world_group=SimpleNamespace(cpu_group=None)):\n"
    "        return c._profile_available_bytes(pre_model_load_memory=79.2)\n"
)

CASES.append(
    case(
        "52065385c8587e96",
        setup=_MAMBA_PROFILE,
        before="profile('--tp-size 2 --mem-fraction-static 0.7', weights_gib=74.2)\n",
        after="profile('--tp-size 4 --mem-fraction-static 0.85', weights_gib=37.1)\n",
        note="KVCacheConfigurator._profile_available_bytes, which sizes the Mamba state pool"
        " (_handle_max_mamba_cache) with the Qwen3-Next fixture's resolved settings; the"
        " free-GPU-memory query answers 79.2 GiB minus the weights a GPU at each TP size, the"
        " WORLD group (read only by that query) is a stand-in and the 20 MiB state a request"
        " is a chosen figure",
    )
)

_GPT_OSS = (
    "--model-path openai/gpt-oss-120b --tp-size 2 --disable-radix-cache --max-running-requests"
)
CASES.append(
    case(
        "bb59498a7c5b8a8d",
        setup=_SETUP + "def sizes(flags):\n"
        "    # gpt-oss-120b at TP 2: 18 full and 18 sliding layers (window 128), 4 KV heads\n"
        "    # x (64 + 64) x 2 bytes = 1 KiB a token a layer; 10 GiB left for the KV cache\n"
        "    return fv.swa_request_cap_sizes(flags, 10, window=128, full_layers=18,\n"
        "        swa_layers=18, bytes_per_token_layer=1024)\n",
        before=f"sizes({_GPT_OSS + ' 4096'!r})\n",
        after=f"sizes({_GPT_OSS + ' 512'!r})\n",
        note="compute_swa_request_cap and SWARequestCapPoolConfigurator.calculate_pool_sizes"
        " with the resolved flags (page size, chunked prefill, overlap); gpt-oss-120b's layer"
        " geometry, and 10 GiB of KV budget as the profiled figure",
    )
)

CASES.append(
    case(
        "0a21b0896fb3a8dd",
        setup=_SETUP + "from sglang.srt.model_executor.pool_configurator import"
        " DefaultPoolConfigurator\n"
        "from sglang.srt.runtime_context import get_schedule\n"
        "def sizes(flags, budget_mib):\n"
        "    fv.kv_configurator('--model-path meta-llama/Llama-3.1-70B-Instruct ' + flags)\n"
        "    c = object.__new__(DefaultPoolConfigurator)\n"
        "    # Llama-3.1-70B at TP 2: 80 layers x 4 KV heads x (128 + 128) x 2 bytes a token\n"
        "    c._cell_size, c._fixed_overhead_bytes = 80 * 4 * 256 * 2, 0\n"
        "    return c.calculate_pool_sizes(budget_mib << 20, get_schedule().page_size)\n",
        before="sizes('--tp-size 2 --page-size 64', 8)\n",
        after="sizes('--tp-size 2 --page-size 64', 2048)\n",
        note="DefaultPoolConfigurator.calculate_pool_sizes with the resolved page size: a KV"
        " budget of 8 MiB (positive, as it must be to get past the earlier 'Loaded weights"
        " leave no GPU memory' check) is under one 64-token page of Llama-3.1-70B's KV at TP 2"
        " (10 MiB); 2 GiB is not. The budget is a chosen figure",
    )
)

_DFLASH = (
    _SETUP + "import verify_fixtures\n"
    "verify_fixtures.stub_sgl_kernel()  # speculative modules import kernels; none runs\n"
    f"M = {QWEN3_NEXT}\n"
    "D = verify_fixtures.hub_model('D')\n"
    "def build(flags):\n"
    "    c = fv.kv_configurator(f'--model-path {M} --speculative-algorithm DFLASH'\n"
    "        f' --speculative-draft-model-path {D} ' + flags, hybrid_kda_config=None)\n"
    "    return c._build_hybrid_req_pool(max_num_reqs=8, extra_max_context_len=0)\n"
)
CASES.append(
    case(
        "db7bfab82c1d56d3",
        setup=_DFLASH,
        before="build('--enable-linear-replayssm-spec')\n",
        after="build('')\n",
        note="the example's flags resolved and published for rank 0 (no hook refuses them),"
        " then KVCacheConfigurator._build_hybrid_req_pool for the Qwen3-Next fixture (a GDN"
        " model: no KDA config); the after half passes the check and stops where the pool"
        " build needs the model config the stand-in configurator lacks",
    )
)
