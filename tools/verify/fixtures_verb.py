"""Run-time memory-pool stand-ins for the verb case files (imported in the verify venv).

The KV and request-slot allocators of sglang's memory cache are plain torch code on whatever
device they are given, so the allocation checks (`mem_cache.allocation`, `HybridReqToTokenPool
.alloc`) run on CPU with small pools built by sglang's own classes. Only the KV data buffers
are left out: the allocators hand out indices and never touch them.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any


def token_cache(size: int, page_size: int = 1) -> Any:
    """A radix prefix cache over a KV allocator of `size` token slots (CPU), as the scheduler
    builds it: `TokenToKVPoolAllocator` for page size 1, else `PagedTokenToKVPoolAllocator`
    with its torch (non-Triton) kernels; the caller reads `cache.token_to_kv_pool_allocator`."""
    import torch
    from sglang.srt.mem_cache.allocator.paged import PagedTokenToKVPoolAllocator
    from sglang.srt.mem_cache.allocator.token import TokenToKVPoolAllocator
    from sglang.srt.mem_cache.radix_cache import RadixCache

    if page_size == 1:
        allocator = TokenToKVPoolAllocator(size, torch.bfloat16, "cpu", None, False)
    else:
        allocator = PagedTokenToKVPoolAllocator(size, page_size, torch.bfloat16, "cpu", None, False)
        # The worker's fake CUDA device makes the allocator pick its Triton kernels, which
        # cannot run on CPU tensors; the capacity checks come before either kernel.
        allocator.use_triton_kernels = False
    return RadixCache.create_simulated(mock_allocator=allocator, page_size=page_size)


def new_req() -> Any:
    """A request that holds no request row, KV or Mamba state yet (a fresh admission)."""
    kv = SimpleNamespace(
        req_pool_idx=None,
        holds_kv=False,
        holds_mamba=False,
        kv_allocated_len=0,
        mamba_pool_idx=None,
        mamba_ping_pong_track_buffer=None,
    )
    return SimpleNamespace(kv=kv)


def hybrid_req_pool(rows: int, mamba_slots: int, extra_buffer: bool = False) -> Any:
    """A `HybridReqToTokenPool` with `rows` request rows and a Mamba state allocator of
    `mamba_slots` slots (sglang's `MambaSlotAllocator`), built without the state tensors:
    `alloc` reads the rows, the slot allocator and the replay-SSM fields (off)."""
    import torch
    from sglang.srt.mem_cache.allocator.mamba import MambaSlotAllocator
    from sglang.srt.mem_cache.memory_pool import HybridReqToTokenPool, ReqToTokenPool

    pool = object.__new__(HybridReqToTokenPool)
    ReqToTokenPool.__init__(pool, rows, 16, "cpu", False)
    pool.mamba_allocator = MambaSlotAllocator(mamba_slots, "cpu")
    pool.mamba_pool = SimpleNamespace(
        size=mamba_slots, replayssm_spec_write_pos=None, replayssm_write_pos=None
    )
    pool.enable_mamba_extra_buffer = extra_buffer
    pool.enable_mamba_extra_buffer_lazy = False
    pool.mamba_ping_pong_track_buffer_size = 2
    pool.mamba_initial_tracking_slots = 2
    pool.req_index_to_mamba_index_mapping = torch.zeros(rows + 1, dtype=torch.int32)
    pool.req_index_to_mamba_ping_pong_track_buffer_mapping = torch.zeros(
        (rows + 1, 2), dtype=torch.int64
    )
    return pool


def host_memory(available_gib: float, cgroup_headroom_gib: float | None = None) -> None:
    """Make sglang's host-memory query (`mem_cache.host_memory`) report `available_gib` GiB of
    free RAM (psutil's figure) and a cgroup headroom of `cgroup_headroom_gib` (None: no memory
    limit visible), instead of this machine's: the HiCache checks compare their pools with it."""
    import sglang.srt.mem_cache.host_memory as hm

    gib = 1 << 30
    hm.psutil = SimpleNamespace(
        virtual_memory=lambda: SimpleNamespace(available=int(available_gib * gib))
    )
    headroom = None if cgroup_headroom_gib is None else int(cgroup_headroom_gib * gib)
    hm._cgroup_memory_headroom = lambda proc_root=None: headroom


def unresolvable_cgroup_proc(root: str) -> str:
    """A /proc stand-in under `root` whose self/cgroup names a cgroup v2 membership that no
    mounted cgroup filesystem in self/mountinfo holds (as in some sandboxed containers); sglang's
    `_cgroup_memory_headroom(proc_root)` cannot resolve it. Returns the proc root."""
    import os

    proc = os.path.join(root, "proc")
    os.makedirs(os.path.join(proc, "self"), exist_ok=True)
    with open(os.path.join(proc, "self", "cgroup"), "w") as f:
        f.write("0::/sandbox/engine\n")
    with open(os.path.join(proc, "self", "mountinfo"), "w") as f:
        f.write("22 1 0:21 / / rw,relatime - overlay overlay rw\n")
    return proc


def hicache_params(pool: Any, req_to_token_pool: Any = None) -> Any:
    """The CacheInitParams fields HiCache auto-sizing reads: the allocator's device KV pool,
    the request pool (a hybrid one adds its Mamba pool) and no MTP draft pools."""
    allocator = SimpleNamespace(get_kvcache=lambda: pool)
    return SimpleNamespace(
        token_to_kv_pool_allocator=allocator,
        req_to_token_pool=req_to_token_pool,
        mtp_draft_device_pools=(),
    )


def mha_pool(size: int, bytes_per_token: int) -> Any:
    """An `MHATokenToKVPool` of `size` tokens whose K+V take `bytes_per_token` bytes a token
    (what its `get_kv_size_bytes` reports), without its buffers."""
    from sglang.srt.mem_cache.memory_pool import MHATokenToKVPool

    pool = object.__new__(MHATokenToKVPool)
    pool.size = size
    half = size * bytes_per_token // 2
    pool.get_kv_size_bytes = lambda: (half, half)
    return pool


def auto_size_hicache(flags: str, pool: Any) -> Any:
    """Run HiCache auto-sizing (`auto_size_hicache`, entered as kv_cache_builder does around
    the tree cache) for `sglang serve FLAGS` published for rank 0, over device KV `pool`;
    returns the resolved server args."""
    import verify_fixtures
    from sglang.srt.mem_cache.hicache_auto_size import auto_size_hicache as auto

    server_args = verify_fixtures.published_rank0(flags)
    with auto(hicache_params(pool), None, enabled=server_args.enable_hierarchical_cache):
        pass
    return server_args


def host_kv_pool(
    *, host_size_gb: int = 0, ratio: float = 2.0, device_tokens: int, bytes_per_token: int
) -> Any:
    """Build a HiCache host KV pool the way its base class does (`HostKVCache.__init__`: the
    size from --hicache-size in GB or --hicache-ratio x the device pool, page rounding, then the
    host-memory budget check of `_allocate_host_buffer`) for a device pool of `device_tokens`
    tokens at `bytes_per_token` host bytes a token (all layers). The layout-specific parts
    (buffer allocation and transfers) are left out: the subclass makes no buffer."""
    import torch
    from sglang.srt.mem_cache.pool_host.base import HostKVCache

    class _GeometryOnlyHostPool(HostKVCache):
        layer_num = target_layer_num = 1

        def get_size_per_token(self):  # type: ignore[no-untyped-def]
            return bytes_per_token

        def init_kv_buffer(self):  # type: ignore[no-untyped-def]
            return None

        def load_to_device_per_layer(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            raise NotImplementedError

        def backup_from_device_all_layer(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            raise NotImplementedError

        def get_data_page(self, index, flat=True):  # type: ignore[no-untyped-def]
            raise NotImplementedError

        def get_dummy_flat_data_page(self):  # type: ignore[no-untyped-def]
            raise NotImplementedError

        def set_from_flat_data_page(self, index, data_page):  # type: ignore[no-untyped-def]
            raise NotImplementedError

    return _GeometryOnlyHostPool(
        dtype=torch.bfloat16,
        device_capacity_tokens=device_tokens,
        size_per_token=bytes_per_token,
        start_layer=0,
        end_layer=1,
        host_to_device_ratio=ratio,
        host_size=host_size_gb,
        page_size=64,
        layout="layer_first",
        pin_memory=False,
        device="cpu",
    )


def dsv4_swa_host_pool(
    flags: str, *, layers: int, device_swa_tokens: int, swa_page_bytes: int
) -> Any:
    """The DeepSeek V4 HiCache SWA host pool for `sglang serve FLAGS` published for rank 0:
    the host page counts from `_deepseek_v4_num_host_pages` (device pages x --hicache-ratio),
    then `DeepSeekV4PagedHostPool` over `layers` device buffers (meta tensors) of
    `swa_page_bytes` bytes a 256-token page. The host buffers are meta tensors (nothing is
    allocated); the budget check comes before the allocation."""
    import collections

    import verify_fixtures

    verify_fixtures.stub_sgl_kernel()  # memory_pool_host imports kvcacheio kernels; none runs
    import sglang.srt.mem_cache.memory_pool_host as mph
    import torch
    from sglang.srt.mem_cache.hybrid_cache.hybrid_pool_assembler import (
        _deepseek_v4_num_host_pages,
    )

    verify_fixtures.published_rank0(flags)
    page = 256
    kvcache = SimpleNamespace(size=device_swa_tokens * 8, swa_size=device_swa_tokens)
    params = SimpleNamespace(token_to_kv_pool_allocator=SimpleNamespace())
    _, swa_host_pages, _ = _deepseek_v4_num_host_pages(
        params=params, kvcache=kvcache, page_size=page, swa_page_size=page
    )

    def meta_alloc(shape, dtype, **kwargs):  # type: ignore[no-untyped-def]
        return torch.empty(shape, dtype=dtype, device="meta")

    mph.ALLOC_MEMORY_FUNCS = collections.defaultdict(lambda: meta_alloc)
    buffers = [
        torch.empty((device_swa_tokens // page, swa_page_bytes), dtype=torch.uint8, device="meta")
    ] * layers
    return mph.DeepSeekV4PagedHostPool(
        pool_name="swa",
        device_buffers=buffers,
        item_bytes=swa_page_bytes,
        num_host_pages=swa_host_pages,
        slot_page_size=page,
        pin_memory=False,
        page_aligned_only=True,
    )


def kv_configurator(flags: str, **attrs: Any) -> Any:
    """A `KVCacheConfigurator` for `sglang serve FLAGS` published for rank 0, built without
    its constructor (which needs the loaded model runner): only `attrs` are set, the fields
    the sizing method under test reads."""
    import verify_fixtures
    from sglang.srt.mem_cache.kv_cache_configurator import KVCacheConfigurator

    verify_fixtures.published_rank0(flags)
    configurator = object.__new__(KVCacheConfigurator)
    for name, value in attrs.items():
        setattr(configurator, name, value)
    return configurator


def swa_pool_sizes(flags: str, *, sliding_window: int, full_layers: int, swa_layers: int) -> Any:
    """The hybrid-SWA pool sizes for `sglang serve FLAGS` with --max-total-tokens: the
    resolved --swa-full-tokens-ratio, page size and unified-memory switch published for rank
    0, then `HybridSWAPoolConfigurator.calculate_pool_sizes_from_max_tokens` (the split and
    its SWA-floor check) for a model with `sliding_window` and these layer counts."""
    import verify_fixtures
    from sglang.srt.model_executor.pool_configurator import HybridSWAPoolConfigurator
    from sglang.srt.runtime_context import get_memory, get_schedule

    verify_fixtures.published_rank0(flags)
    schedule = get_schedule()
    configurator = object.__new__(HybridSWAPoolConfigurator)
    configurator._full_layers_num = full_layers
    configurator._swa_layers_num = swa_layers
    configurator._swa_full_tokens_ratio = schedule.swa_full_tokens_ratio
    configurator._sliding_window_size = sliding_window
    configurator._page_size = schedule.page_size
    configurator._enable_unified_memory = get_memory().enable_unified_memory
    configurator._fused_full_entry = configurator._fused_swa_entry = None
    return configurator.calculate_pool_sizes_from_max_tokens(
        schedule.max_total_tokens, schedule.page_size
    )


def swa_request_cap_sizes(
    flags: str,
    available_gib: float,
    *,
    window: int,
    full_layers: int,
    swa_layers: int,
    bytes_per_token_layer: int,
) -> Any:
    """The request-capped hybrid-SWA pool sizes for `sglang serve FLAGS` published for rank 0:
    `compute_swa_request_cap` (the SWA pool from --max-running-requests, the eviction interval,
    the chunked prefill) and `SWARequestCapPoolConfigurator.calculate_pool_sizes` over
    `available_gib` GiB of KV budget, for a model whose full and sliding layers both take
    `bytes_per_token_layer` bytes a token. Raises unless the configurator applies to the
    flags (`is_applicable`: --max-running-requests and --disable-radix-cache set)."""
    import verify_fixtures
    from sglang.srt.model_executor.pool_configurator import (
        SWARequestCapPoolConfigurator,
        compute_swa_request_cap,
    )
    from sglang.srt.runtime_context import get_memory, get_schedule

    verify_fixtures.published_rank0(flags)
    page_size = get_schedule().page_size
    kvc = SimpleNamespace(
        sliding_window_size=window,
        layer_info=SimpleNamespace(full_attention_layer_ids=list(range(full_layers))),
    )
    if not SWARequestCapPoolConfigurator.is_applicable(kvc):
        raise ValueError("the request-capped SWA layout does not apply to these flags")
    c = object.__new__(SWARequestCapPoolConfigurator)
    c._full_layers_num, c._swa_layers_num = full_layers, swa_layers
    c._full_per_token = c._swa_per_token = bytes_per_token_layer
    c._draft_full_layers_num = c._draft_swa_layers_num = c._draft_swa_full_layers_num = 0
    c._draft_cell_size = 0
    c._fused_full_entry = c._fused_swa_entry = None
    c._enable_unified_memory = get_memory().enable_unified_memory
    c._swa_cap = compute_swa_request_cap(page_size=page_size, window=window, attn_dp_size=1)
    return c.calculate_pool_sizes(int(available_gib * (1 << 30)), page_size)
