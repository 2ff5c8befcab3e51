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
