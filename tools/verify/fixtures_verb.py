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
        allocator = PagedTokenToKVPoolAllocator(
            size, page_size, torch.bfloat16, "cpu", None, False
        )
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
