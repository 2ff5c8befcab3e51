"""Cases for the HiCache host-memory entries (errors/sglang/srt/mem_cache/hicache_auto_size.yaml,
host_memory.yaml, pool_host/base.yaml): the example's flags resolved and published for rank 0,
then the code the KV-cache builder runs with them (auto-sizing, the host pool's budget check),
over a device KV pool that stands in for the loaded model's (fixtures_verb). The host's free
RAM is a figure the case chooses (fixtures_verb.host_memory): it is the premise of these errors,
not a value their checks compute; one process, so one rank per host."""

from harness import case

_SETUP = "import fixtures_verb as fv\n"
_LLAMA = "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-hierarchical-cache"
# Llama-3.1-8B's KV cache: 32 layers x 8 KV heads x 128 x 2 (K, V) x 2 bytes = 128 KiB a token
_POOL = "fv.mha_pool(500_000, 131072)"

CASES = [
    case(
        "5210a1fd80edf75b",
        setup=_SETUP
        + "from sglang.srt.mem_cache.deepseek_v4_memory_pool import DeepSeekV4TokenToKVPool\n"
        "pool = object.__new__(DeepSeekV4TokenToKVPool)\n"
        "fv.host_memory(512)\n",
        before=(
            "fv.auto_size_hicache('--model-path deepseek-ai/DeepSeek-V3 --tp-size 8"
            " --enable-hierarchical-cache', pool)\n"
        ),
        after=(
            "fv.auto_size_hicache('--model-path deepseek-ai/DeepSeek-V3 --tp-size 8"
            " --enable-hierarchical-cache --hicache-ratio 2', pool)\n"
        ),
        note="auto_size_hicache over DeepSeek V4's device pool class (DeepSeekV4TokenToKVPool,"
        " built without buffers): the launch flags only decide whether auto-sizing runs, so"
        " the DeepSeek-V3 fixture stands in for V4's (no hub fixture); with --hicache-ratio the"
        " sizing is skipped",
    ),
    case(
        "5c020313a6e5e621",
        setup=_SETUP + f"pool = {_POOL}\nfv.host_memory(8)\n",
        before=f"fv.auto_size_hicache({_LLAMA!r}, pool)\n",
        after="fv.auto_size_hicache('--model-path meta-llama/Llama-3.1-8B-Instruct', pool)\n",
        note="auto_size_hicache with 8 GiB of free host RAM (under the 10 GiB reserve) and"
        " Llama-3.1-8B's KV size; the after half launches without HiCache, as the example does",
    ),
    case(
        "0a4eb6d9d6907072",
        setup=_SETUP + "import pathlib, tempfile\n"
        "from sglang.srt.mem_cache import host_memory\n"
        "proc = fv.unresolvable_cgroup_proc(tempfile.mkdtemp())\n"
        "host_memory._cgroup_memory_headroom.__defaults__ = (pathlib.Path(proc),)\n"
        "from sglang.srt.mem_cache.pool_host.base import host_memory_budget_bytes\n"
        f"pool = {_POOL}\n",
        before=f"fv.auto_size_hicache({_LLAMA!r}, pool)\n",
        after=(
            f"fv.auto_size_hicache({_LLAMA + ' --hicache-size 16'!r}, pool)\n"
            "host_memory_budget_bytes(16 * 10**9)  # the explicit size's budget: host RAM\n"
        ),
        note="sglang's cgroup reader run on a /proc stand-in whose cgroup v2 membership no"
        " mounted cgroup fs holds; auto-sizing fails, an explicit --hicache-size skips it and"
        " the pool's budget falls back to host RAM",
    ),
]
CASES.append(
    case(
        "4871922542fe10ed",
        setup=_SETUP + "fv.host_memory(70)\n"
        "# Qwen3-32B-FP8 at TP 8: 64 layers x 1 KV head x 128 x 2 (K, V) x 1 byte (fp8 KV)\n"
        "# = 16 KiB a token per rank; a 1.2M-token device pool\n"
        "pool = dict(device_tokens=1_200_000, bytes_per_token=16384)\n",
        before="fv.host_kv_pool(host_size_gb=100, **pool)\n",
        after="fv.host_kv_pool(host_size_gb=20, **pool)\n",
        note="HostKVCache.__init__ (sizing and the budget check) with the example's"
        " --hicache-size per rank, no buffers; 70 GiB of free host RAM stands for this rank's"
        " share (the harness runs one process, so no division by 8 ranks)",
    )
)
_V4 = "--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --enable-hierarchical-cache"
CASES.append(
    case(
        "47f0633584115bf2",
        setup=_SETUP + "fv.host_memory(90)\n"
        "geometry = dict(layers=61, device_swa_tokens=500_000, swa_page_bytes=256 * 1024)\n",
        before=f"fv.dsv4_swa_host_pool({_V4 + ' --hicache-ratio 4'!r}, **geometry)\n",
        after=f"fv.dsv4_swa_host_pool({_V4 + ' --hicache-ratio 1.5'!r}, **geometry)\n",
        note="the example's --hicache-ratio through _deepseek_v4_num_host_pages into"
        " DeepSeekV4PagedHostPool's budget check; the launch flags only carry the ratio, so the"
        " DeepSeek-V3 fixture stands in for V4 (no hub fixture). The SWA geometry (61 layers,"
        " 500k device tokens, 1 KiB a token) and 90 GiB of free RAM for this rank are chosen"
        " figures, not V4's measured ones; buffers are not allocated",
    )
)
